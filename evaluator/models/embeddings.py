"""An OpenAI-compatible `/v1/embeddings` client, for the memory agents (`rag` with
`retriever=embed|hybrid`, `mem0`): vLLM (`--task embed`), llama.cpp (`--embeddings`), Ollama, TEI,
OpenAI.

- Requests go through the openai backend's one retry loop (`OpenAIChatModel.request`): the same
  retries, rests, whole-request timeout, reply-size bound (MAX_REPLY_BYTES) and same-origin
  redirects, and its `base_url` forms (one URL, `URL1|URL2`, a file of URLs).
- The dimension is learned from the endpoint (`probe()`: one request embedding one word), never
  assumed; every later vector must have it, and a reply that does not (a wrong count of vectors,
  another length, a value that is not a finite number) is a server error, retried like one.
- Texts are cut to `max_chars` characters before they are sent (servers refuse inputs past their
  window: a 512-token model takes about 2,000 characters of English), newlines as spaces.
- Vectors are a pure function of (model, text): each client keeps them in memory, LRU, at most
  CACHE_BYTES of float32, so questions over the same history embed it once. This shares work,
  never memory: a question's index holds only the vectors of its own visible turns.
- `shared_embedder(...)` gives one client per process and settings (the identity probe, every
  question and `bench/` share it). The key is `EMBED_API_KEY`, else `OPENAI_API_KEY`, else none
  (local servers take any): never an --agent_args value, which results.json records.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from evaluator.errors import EvalError
from evaluator.models.base import ModelCallError, ModelSetupError

CACHE_BYTES = 256 * 1024 * 1024      # float32 vectors kept per client (LRU)
DEFAULT_BATCH = 64                   # texts per request (fewer when vectors are long, see _batch)
DEFAULT_MAX_CHARS = 2000             # characters of a text that are embedded
_REPLY_BUDGET = 4 * 1024 * 1024      # JSON bytes a batch's reply may take (~24 bytes a value)
_PROBE_TEXT = "dimension probe"


@dataclass
class Usage:
    """What one question's memory spent, in one phase (write or read)."""

    llm_calls: int = 0               # chat requests made by the memory system (cached ones too)
    llm_cached: int = 0              # of those, answered by --use_cache's response cache
    llm_input_tokens: int | None = None
    llm_output_tokens: int | None = None
    embed_calls: int = 0             # /v1/embeddings requests
    embed_texts: int = 0             # texts embedded (sent, not from the in-memory cache)
    embed_cached: int = 0            # texts whose vector came from the in-memory cache
    embed_tokens: int | None = None  # as the server reports them (None: it reports none)
    seconds: float = 0.0

    def add_llm(self, gen) -> None:
        self.llm_calls += 1
        self.llm_cached += bool(getattr(gen, "cached", False))
        self.llm_input_tokens = _plus(self.llm_input_tokens, gen.input_tokens)
        self.llm_output_tokens = _plus(self.llm_output_tokens, gen.output_tokens)

    def as_dict(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


@dataclass
class MemoryCost:
    """A question's memory cost: `write` (building the memory from the history) and `read`
    (looking it up for the question); the answer's own call is the journal line's tokens."""

    write: Usage = field(default_factory=Usage)
    read: Usage = field(default_factory=Usage)

    def as_dict(self) -> dict:
        return {"write": self.write.as_dict(), "read": self.read.as_dict()}


def sum_costs(costs: list[dict]) -> dict:
    """Journal lines' `memory_cost` summed per phase (None only where no line had a count)."""
    out: dict = {"n": len(costs)}
    for phase in ("write", "read"):
        total: dict = {}
        for cost in costs:
            for key, value in (cost.get(phase) or {}).items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    total[key] = (total.get(key) or 0) + value
                else:
                    total.setdefault(key, None)
        out[phase] = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in total.items()}
    return out


def _plus(a, b):
    return b if a is None else (a if b is None else a + b)


class OpenAIEmbedder:
    name = "openai-embeddings"

    def __init__(self, base_url: str, model: str, *, timeout: float = 60.0, max_retries: int = 3,
                 backoff: float = 1.0, batch: int = DEFAULT_BATCH,
                 max_chars: int = DEFAULT_MAX_CHARS) -> None:
        from evaluator.models.openai_backend import OpenAIChatModel, require_openai

        require_openai("an embedding endpoint")
        if batch < 1 or max_chars < 1:
            raise EvalError("embeddings: embed_batch and embed_max_chars must be at least 1")
        key = os.environ.get("EMBED_API_KEY") or os.environ.get("OPENAI_API_KEY")
        # The chat backend's transport: endpoints, clients, retries, bounds, redaction.
        self._transport = OpenAIChatModel(base_url, model, key, timeout=timeout,
                                          max_retries=max_retries, backoff=backoff)
        self.model_id = model
        self.batch = int(batch)
        self.max_chars = int(max_chars)
        self.dimension: int | None = None
        self.served_model: str | None = None
        self._cache: OrderedDict[bytes, object] = OrderedDict()
        self._probe_vector = None
        self._lock = threading.Lock()
        self._probe_lock = threading.Lock()

    @property
    def public_url(self) -> str:
        return self._transport.public_url

    def describe(self) -> dict:
        """What identifies the vectors: the model asked for, the one that answered, the
        dimension, and how texts are cut (the URL is where, not what: it is left out)."""
        return {"model": self.model_id, "served_model": self.served_model,
                "dimension": self.dimension, "max_chars": self.max_chars}

    def probe(self, refresh: bool = False) -> dict:
        """One request embedding two words (no retries when nothing listens): learns the
        dimension and the served model, once, or again with `refresh` (each run's identity asks
        afresh; vectors cached from another model are dropped). A server that cannot embed is
        one line (ModelSetupError)."""
        with self._probe_lock:
            if self.dimension is None or refresh:
                self.dimension = self.served_model = None
                try:
                    vector = self._request([_PROBE_TEXT], Usage(), retry_connection=False)[0]
                except ModelCallError as exc:
                    hint = ""
                    if getattr(exc, "status", None) == 404:
                        hint = (" (is it an embedding model, served for embeddings, e.g. vLLM "
                                "`--task embed`, llama.cpp `--embeddings`?)")
                    raise ModelSetupError(f"embedding endpoint check failed: {exc}{hint}") from None
                with self._lock:
                    if self._probe_vector is None or self._probe_vector.shape != vector.shape \
                            or not (self._probe_vector == vector).all():
                        self._cache.clear()      # another model answers: its vectors differ
                    self._probe_vector = vector
        return self.describe()

    def embed(self, texts: list[str], usage: Usage | None = None):
        """An (n, dimension) float32 array, row i the vector of texts[i]."""
        import numpy as np

        usage = usage if usage is not None else Usage()
        if self.dimension is None:
            self.probe()
        prepared = [self._prepare(t) for t in texts]
        keys = [hashlib.blake2b(t.encode("utf-8", "surrogatepass"), digest_size=16).digest()
                for t in prepared]
        out = np.zeros((len(prepared), self.dimension), dtype=np.float32)
        missing: dict[bytes, list[int]] = {}
        with self._lock:
            for i, key in enumerate(keys):
                vec = self._cache.get(key)
                if vec is None:
                    missing.setdefault(key, []).append(i)
                else:
                    self._cache.move_to_end(key)
                    out[i] = vec
                    usage.embed_cached += 1
        todo = list(missing)
        step = self._batch()
        for start in range(0, len(todo), step):
            chunk = todo[start:start + step]
            vectors = self._request([prepared[missing[k][0]] for k in chunk], usage)
            with self._lock:
                for key, vec in zip(chunk, vectors):
                    for i in missing[key]:
                        out[i] = vec
                    self._cache[key] = vec
                    self._cache.move_to_end(key)
                limit = max(1, CACHE_BYTES // (4 * self.dimension))
                while len(self._cache) > limit:
                    self._cache.popitem(last=False)
        return out

    def _prepare(self, text: str) -> str:
        text = " ".join(str(text).split())[:self.max_chars]
        return text or " "              # servers refuse an empty input

    def _batch(self) -> int:
        return max(1, min(self.batch, _REPLY_BUDGET // (24 * max(1, self.dimension or 1))))

    def _request(self, texts: list[str], usage: Usage, *, retry_connection: bool = True):
        import numpy as np

        def send(client):
            return client.embeddings.create(model=self.model_id, input=texts,
                                            encoding_format="float")

        def read(response, attempt):
            data = getattr(response, "data", None)
            if not isinstance(data, list) or len(data) != len(texts):
                return None
            rows = sorted(data, key=lambda d: getattr(d, "index", 0) or 0)
            try:
                matrix = np.asarray([r.embedding for r in rows], dtype=np.float32)
            except (TypeError, ValueError, AttributeError):
                return None
            want = self.dimension or (matrix.shape[1] if matrix.ndim == 2 else 0)
            if matrix.ndim != 2 or matrix.shape[1] < 1 or matrix.shape[1] != want \
                    or not np.isfinite(matrix).all():
                return None
            served = getattr(response, "model", None)
            tokens = getattr(getattr(response, "usage", None), "prompt_tokens", None)
            return matrix, (served if isinstance(served, str) else None), \
                (tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else None)

        matrix, served, tokens = self._transport.request(
            send, read, f"{len(texts)} embedding(s) of one length"
            + (f" ({self.dimension})" if self.dimension else ""), retry_connection=retry_connection)
        usage.embed_calls += 1
        usage.embed_texts += len(texts)
        usage.embed_tokens = _plus(usage.embed_tokens, tokens)
        if self.dimension is None:
            self.dimension = int(matrix.shape[1])
        if served and self.served_model is None:
            self.served_model = served
        return matrix


_SHARED: dict[tuple, OpenAIEmbedder] = {}
_SHARED_LOCK = threading.Lock()


def shared_embedder(base_url: str, model: str, **settings) -> OpenAIEmbedder:
    """One client per process and (endpoint, model, settings): its probe and vector cache serve
    every question of a run."""
    key = (str(base_url), str(model), tuple(sorted(settings.items())),
           os.environ.get("EMBED_API_KEY") or os.environ.get("OPENAI_API_KEY"))
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = OpenAIEmbedder(base_url, model, **settings)
        return _SHARED[key]
