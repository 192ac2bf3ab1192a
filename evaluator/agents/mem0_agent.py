"""`--agent mem0`: mem0 (the `mem0ai` package, an optional extra: `pip install 'br-eval[mem0]'`)
as a br-eval agent, configured only from `--model`/`--model_args` and `--agent_args`.

Per question, a fresh mem0 `Memory` (the card's isolated memory): its vector store is Qdrant's
local mode in memory (`path=":memory:"`), a client of its own; its history is SQLite `:memory:`; nothing survives the question.
mem0 itself writes one small file, its anonymous-id config, into `MEM0_DIR` (set before mem0 is
imported to br-eval's home, `<BR_EVAL_HOME>/mem0`, unless set already); its telemetry is off
(`MEM0_TELEMETRY=False` before the import, and mem0's own flags set off after it).

- LLM: the run's `--model`, through br-eval's backend (its retries, bounds, `--use_cache` and token
  counts): mem0's extraction call for each write, and its image descriptions. mem0's own client
  would ask for JSON mode (`response_format`), which br-eval's backends do not send: mem0 reads the
  reply's JSON either way (`extract_json`). Its replies may be `write_max_tokens` long (2000,
  mem0's default); the run's other generation settings apply.
- Embedder: the `embed_*` endpoint (evaluator.models.embeddings), dimension learned from it.
- Writing: each visible session, or each `turns_per_add` turns of it, is one `Memory.add` of the
  turns as messages (`person: text`; role `assistant` for a person called assistant, companion,
  ai or bot, else `user`), after a first system message `Session date: ...`.
- Dates: mem0 2.x open source refuses `add(timestamp=...)` ("platform-only") and writes today's
  date as its extraction prompt's Observation Date. br-eval gives each add its session's date
  three ways: as the memories' `created_at` (metadata; mem0 keeps a given `created_at`), in the
  `Session date: ...` message its prompt shows, and as mem0's custom instructions (`prompt=`):
  "The Observation Date of these messages is ...".
- Media: with a model that takes images (and `media` not saying otherwise), each image, PDF page
  and video frame is a message of its own that mem0's vision path turns into a description (one
  model call each); otherwise the turn carries the media's text (`MediaInput.text()`). Video audio
  goes as its transcript (`--asr`) in both cases: mem0 has no audio path.
- Answer: `Memory.search(question, top_k)` (mem0's threshold, 0.1); the memories, oldest first, go
  under `RETRIEVED MEMORIES` (each with its session date) before the `CONVERSATION HISTORY` of the
  last `last` turns, with the system prompt and model of `rag`: the memory is the only difference.
- Decisions (RealCompanion): retrieved = mem0 returned a memory; locus: not reported; evidence ids:
  the message ids behind the memories used when each add holds one message (`turns_per_add=1`),
  else not reported (mem0 does not say which message of an add a memory came from).
- Parts of mem0 that would fetch models at run time stay off: spaCy's `en_core_web_sm` (entity
  linking and lemmas) is used only when already installed, never downloaded; fastembed's
  `Qdrant/bm25` keyword index is not used. The identity says what was on.
- Failures: mem0 logs and drops a memory whose embedding failed, and wraps a failed model call;
  br-eval raises the first such failure, so the question fails with its kind (model, media)
  rather than being answered from a memory with holes.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
import threading
import time

from evaluator.agents.builtin import _PromptAgent, _as_int, when_text
from evaluator.agents.dense_index import EMBED_ARGS
from evaluator.agents.protocol import MemorySession, MemoryTurn, Query
from evaluator.errors import EvalError, UsageError

PACKAGE = "mem0ai"
INSTALL_HINT = "pip install 'br-eval[mem0]'"
USER = "br-eval"                      # mem0 scopes memories by an id; one memory per question
ASSISTANT_NAMES = frozenset({"assistant", "companion", "ai", "bot"})
NOWHERE = "http://127.0.0.1:9/unused"   # mem0's own clients are replaced; never reachable
OBSERVATION = ("The Observation Date of these messages is {when}: resolve their relative times "
               "(today, last week) against it, never against the Current Date.")
_IMPORT_LOCK = threading.Lock()
_IMPORTED: list = []                  # mem0's Memory class, once imported and set up


def mem0_version() -> str | None:
    try:
        return importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return None


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def optional_parts() -> dict:
    """mem0's optional parts and whether br-eval lets them run (never one that fetches)."""
    spacy, model = _version("spacy"), _version("en_core_web_sm")
    return {"spacy": spacy, "en_core_web_sm": model,
            "entity_linking_and_lemmas": bool(spacy and model),
            "keyword_search": "off (fastembed's Qdrant/bm25 would be fetched at run time)"}


def import_mem0():
    """mem0's `Memory`, imported with telemetry off and its folder set; one line naming the pip
    command when the extra is missing."""
    with _IMPORT_LOCK:
        if _IMPORTED:
            return _IMPORTED[0]
        if "mem0" not in sys.modules:
            from beyondrecall.snapshot import home_dir

            os.environ["MEM0_TELEMETRY"] = "False"
            os.environ.setdefault("MEM0_DIR", str(home_dir() / "mem0"))
        missing = EvalError(f"--agent mem0 needs the {PACKAGE} package (an optional extra): "
                            f"{INSTALL_HINT}")
        try:
            found = importlib.util.find_spec("mem0") is not None
        except (ImportError, ValueError):      # a broken or blocked install
            found = False
        if not found or mem0_version() is None:
            raise missing
        try:
            import mem0.memory.main as main
            import mem0.memory.telemetry as telemetry
        except ImportError as exc:
            raise EvalError(f"--agent mem0: mem0 does not import ({exc}); reinstall it: "
                            f"{INSTALL_HINT}") from None

        main.MEM0_TELEMETRY = telemetry.MEM0_TELEMETRY = False
        if not optional_parts()["entity_linking_and_lemmas"]:
            # spaCy without its model would download en_core_web_sm on first use: mark it failed.
            import mem0.utils.spacy_models as spacy_models

            spacy_models._load_failed_full = spacy_models._load_failed_lemma = True
        _IMPORTED.append(main.Memory)
        return main.Memory


class Mem0Agent(_PromptAgent):
    """mem0 as the memory; the answer step is `rag`'s (see the module docstring)."""

    AGENT_ARGS = {**_PromptAgent.AGENT_ARGS,
                  "top_k": "memories mem0 returns for the question (10)",
                  "last": "plus the last N turns, as rag (4)",
                  "turns_per_add": "turns per Memory.add (0: a whole session per add)",
                  "write_max_tokens": "max_tokens of mem0's own model calls (2000, mem0's default)",
                  **EMBED_ARGS}

    @classmethod
    def identity(cls, agent_args: dict) -> dict:
        from evaluator.agents.dense_index import embedder_from_args

        import_mem0()                    # the missing extra is one line, before anything else
        settings = cls._settings(agent_args)
        embedder = embedder_from_args(agent_args, "--agent mem0")
        return {"memory_system": {
            "package": PACKAGE, "version": mem0_version(),
            "qdrant_client": _version("qdrant-client"),
            "config": {"vector_store": "qdrant, in memory, one per question",
                       "history_db": ":memory:", "llm": "the run's --model (br-eval backend)",
                       "search_threshold": 0.1, **settings},
            "optional": optional_parts()},
            "embedding": embedder.probe(refresh=True)}

    @staticmethod
    def _settings(agent_args: dict) -> dict:
        out = {}
        for key, default, low in (("top_k", 10, 1), ("last", 4, 0), ("turns_per_add", 0, 0),
                                  ("write_max_tokens", 2000, 1)):
            value = agent_args.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise UsageError(f"--agent_args {key}={value!r}: a whole number of at least {low}")
            out[key] = value
        return out

    def __init__(self, model=None, **agent_args) -> None:
        from evaluator.models.embeddings import MemoryCost

        super().__init__(model, **agent_args)
        self.settings = self._settings(self.args)
        self.memory_cost = MemoryCost()
        self._phase = self.memory_cost.write
        self._memory = None
        self._found: list[dict] = []
        self._images: set[str] = set()            # image files handed to mem0's vision path
        self._failure: BaseException | None = None

    # -- mem0 ------------------------------------------------------------------------------
    def _embedder(self):
        from evaluator.agents.dense_index import embedder_from_args

        return embedder_from_args(self.args, "--agent mem0")

    def _build(self):
        if self._memory is not None:
            return self._memory
        if self.model is None:
            raise EvalError("agent Mem0Agent needs a model (mem0 writes with it): pass --model "
                            "hf|openai|mock")
        Memory = import_mem0()
        embedder = self._embedder()
        dimension = embedder.probe()["dimension"]
        vision = self.media_mode() == "images"
        config = {
            "vector_store": {"provider": "qdrant", "config": {
                # Qdrant's local mode in memory (a client of this Memory's own, nothing on disk)
                "collection_name": "br_eval", "embedding_model_dims": dimension,
                "path": ":memory:"}},
            "llm": {"provider": "openai", "config": {
                "model": getattr(self.model, "model_id", None) or "br-eval", "api_key": "unused",
                "openai_base_url": NOWHERE, "enable_vision": vision,
                "max_tokens": self.settings["write_max_tokens"]}},
            "embedder": {"provider": "openai", "config": {
                "model": embedder.model_id, "embedding_dims": dimension, "api_key": "unused",
                "openai_base_url": NOWHERE}},
            "history_db_path": ":memory:",
        }
        memory = Memory.from_config(config)
        memory.llm = _LLM(self)                   # mem0 calls these two by these names
        memory.embedding_model = _Embedder(self)
        memory.vector_store._bm25_encoder = False  # Qdrant's "tried, unavailable": no fetch
        self._memory = memory
        return memory

    def _guarded(self, call, *args, **kwargs):
        """A mem0 call; the first failure of br-eval's model or embedder inside it is raised
        (mem0 wraps some and logs and skips others)."""
        self._failure = None
        try:
            result = call(*args, **kwargs)
        except Exception as exc:
            raise (self._failure or exc) from None
        if self._failure is not None:
            raise self._failure
        return result

    # -- writing ---------------------------------------------------------------------------
    def _role(self, person: str) -> str:
        return "assistant" if str(person).strip().lower() in ASSISTANT_NAMES else "user"

    def _turn_messages(self, turn: MemoryTurn, mode: str) -> list[dict]:
        role = self._role(turn.person)
        text = f"{self.own_time(turn)}{turn.person}: {turn.content}"
        images: list[dict] = []
        for m in turn.media:
            if mode == "text":
                text += "\n" + m.text()
            elif mode == "images":
                for path in m.images():
                    self._images.add(path)
                    images.append({"role": role, "content": {"type": "image_url",
                                                             "image_url": {"url": path}}})
                speech = m.transcript() if m.kind == "video" else None
                if speech:
                    text += f"\n[speech in {m.rel_path.rsplit('/', 1)[-1]}] {speech}"
        return [{"role": role, "content": text}] + images

    def write(self, session: MemorySession) -> None:
        super().write(session)
        if not session.turns:
            return
        started = time.perf_counter()
        self._phase = self.memory_cost.write
        memory = self._build()
        mode = self.media_mode()
        when = when_text(session.date_raw, session.date)
        size = self.settings["turns_per_add"] or len(session.turns)
        for start in range(0, len(session.turns), size):
            chunk = session.turns[start:start + size]
            messages = [{"role": "system", "content": f"Session date: {when}"}]
            for turn in chunk:
                messages.extend(self._turn_messages(turn, mode))
            metadata = {"created_at": session.date.isoformat(), "session_date": when,
                        "turns": [list(t.ref) for t in chunk],
                        "ids": [t.id for t in chunk if t.id]}
            self._guarded(memory.add, messages, user_id=USER, metadata=metadata,
                          prompt=OBSERVATION.format(when=when))
        self.memory_cost.write.seconds += time.perf_counter() - started

    # -- reading and answering -------------------------------------------------------------
    def choose(self, query: Query) -> list[MemoryTurn]:
        last = self.settings["last"]
        return self.turns[-last:] if last > 0 else []

    def memory_parts(self, query: Query) -> list:
        from evaluator.models.base import TextPart

        self._found = []
        if self._memory is not None and query.text.strip():   # mem0 refuses an empty query
            started = time.perf_counter()
            self._phase = self.memory_cost.read
            found = self._guarded(self._memory.search, query.text,
                                  top_k=self.settings["top_k"], filters={"user_id": USER})
            self._found = list(found.get("results") or [])
            self.memory_cost.read.seconds += time.perf_counter() - started
        ordered = sorted(enumerate(self._found),
                         key=lambda p: (str(p[1].get("created_at") or ""), p[0]))
        lines = [f"- [{(m.get('metadata') or {}).get('session_date') or m.get('created_at')}] "
                 f"{m.get('memory', '')}\n" for _, m in ordered]
        return [TextPart("RETRIEVED MEMORIES\n" + ("".join(lines) if lines else "(none)\n"))]

    def decisions_of(self, chosen: list[MemoryTurn]) -> dict:
        refs = {t.ref for t in chosen}
        ids: list[str] = []
        for m in self._found:
            meta = m.get("metadata") or {}
            refs.update(tuple(r) for r in meta.get("turns") or () if len(r) == 2)
            ids.extend(str(i) for i in meta.get("ids") or () if str(i) not in ids)
        return {"relied_on": sorted(refs), "retrieved": bool(self._found), "locus": None,
                "evidence_ids": ids if self.settings["turns_per_add"] == 1 else None}


class _LLM:
    """mem0's LLM, answered by the run's model through br-eval's backend."""

    def __init__(self, agent: Mem0Agent) -> None:
        from evaluator.models._common import normalize_gen_kwargs

        self.agent = agent
        gen = normalize_gen_kwargs(dict(agent.args.get("gen_kwargs") or {}))
        self.gen = {**gen, "max_tokens": agent.settings["write_max_tokens"]}

    def _message(self, message: dict):
        from evaluator.models.base import ImagePart, Message, TextPart

        content = message.get("content")
        parts = content if isinstance(content, list) else [content]
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(TextPart(part))
            elif isinstance(part, dict) and part.get("type") == "text":
                out.append(TextPart(str(part.get("text", ""))))
            elif isinstance(part, dict) and part.get("type") == "image_url":
                url = (part.get("image_url") or {}).get("url")
                if url not in self.agent._images:
                    raise EvalError(f"mem0 asked about an image br-eval did not give it: {url!r:.80}")
                out.append(ImagePart(url))
        role = message.get("role") if message.get("role") in ("system", "user", "assistant") \
            else "user"
        return Message(role, tuple(out or [TextPart("")]))

    def generate_response(self, messages, response_format=None, tools=None, tool_choice="auto",
                          **kwargs):
        try:
            gen = self.agent.model.generate([self._message(m) for m in messages], **self.gen)
        except Exception as exc:
            self.agent._failure = self.agent._failure or exc
            raise
        self.agent._phase.add_llm(gen)
        if (response_format or {}).get("type") == "json_object" and not _reads_as_json(gen.text):
            # mem0 would log the parse error and store nothing: the question would then be
            # answered from an empty memory and scored as if the memory system had worked
            from evaluator.models.base import ModelCallError

            where = getattr(self.agent.model, "public_url", None) or self.agent.model.model_id
            failure = ModelCallError(
                f"{where}: the reply to mem0's JSON request is not JSON in mem0's format "
                f"({(gen.text or '')[:80]!r}: it reads {{\"memory\": [{{\"text\": ...}}]}}); "
                "mem0 would store nothing from it")
            self.agent._failure = self.agent._failure or failure
            raise failure
        return gen.text


def _reads_as_json(text: str) -> bool:
    """Whether mem0's own parsing reads the reply as memories: code fences and <think> removed, then
    JSON or the JSON inside the text, holding an object whose "memory" is a list of objects with a
    "text" (mem0 2.x's extraction format). An empty reply, `{}` and `{"memory": []}` are mem0's
    "nothing to store" and read. Any other JSON (`[]`, `null`, `{"facts": [...]}`, mem0's older
    format) mem0 drops with a log line, as it drops prose: the memory would stay empty."""
    import json

    from mem0.memory.utils import extract_json, remove_code_blocks

    body = remove_code_blocks(text)
    if not body.strip():
        return True
    for candidate in (body, extract_json(body)):
        try:
            parsed = json.loads(candidate, strict=False)
        except (ValueError, TypeError, RecursionError):
            continue
        return _holds_memories(parsed)
    return False


def _holds_memories(parsed: object) -> bool:
    if not isinstance(parsed, dict) or (parsed and "memory" not in parsed):
        return False
    memories = parsed.get("memory", [])
    return isinstance(memories, list) and all(
        isinstance(m, dict) and isinstance(m.get("text"), str) for m in memories)


class _Embedder:
    """mem0's embedder, answered by br-eval's embedding client (which sends newlines as spaces,
    as mem0's own OpenAI embedder does)."""

    def __init__(self, agent: Mem0Agent) -> None:
        self.agent = agent

    def embed_batch(self, texts, memory_action=None):
        try:
            return self.agent._embedder().embed([str(t) for t in texts], self.agent._phase).tolist()
        except Exception as exc:
            self.agent._failure = self.agent._failure or exc
            raise

    def embed(self, text, memory_action=None):
        return self.embed_batch([text], memory_action)[0]
