"""A response cache in SQLite, keyed by what was asked, never by where files lie.

The key is the sha256 of: the backend name, the model id, the generation settings as the request
is made (a built-in backend's defaults included, so a change of default is a miss) and the
request messages, with every image replaced by the sha256 of its file's bytes. The same frame
cached under another path is a hit; a file rewritten with other bytes at the same path is a miss.
Only successful generations are stored; errors are never cached, so a rerun retries them.

The database is opened through `evaluator.cachedb.CacheDB` (WAL journaling, a busy timeout with
retries, one connection per thread and process), so several threads and several processes (two
runs sharing a cache) can read and write it together; the judge's cache shares the file.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path
from typing import Any

from evaluator.cachedb import CacheDB, content_key
from evaluator.models.base import AudioPart, Generation, ImagePart, Message, ModelCallError, TextPart

_KEY_VERSION = 2   # bump when the key's recipe changes, so old entries stop matching
_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    backend TEXT NOT NULL,
    model_id TEXT NOT NULL,
    text TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    raw TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except FileNotFoundError:
        raise ModelCallError(f"image file not found: {path}") from None
    except OSError as exc:
        raise ModelCallError(f"cannot read image {path}: {exc.strerror or exc}") from None
    return digest.hexdigest()


def request_key(backend: str, model_id: str, settings: dict[str, Any], messages: list[Message]) -> str:
    """The cache key of one request (see the module docstring)."""
    encoded_messages = []
    for message in messages:
        parts = []
        for part in message.content:
            if isinstance(part, TextPart):
                parts.append({"text": part.text})
            elif isinstance(part, ImagePart):
                # Hash the bytes every time rather than trusting a path or a stored hash: a
                # frame is small and sha256 runs at about 1 GB/s, so this costs well under 1 ms.
                parts.append({"image_sha256": file_sha256(part.path)})
            elif isinstance(part, AudioPart):
                parts.append({"audio_sha256": file_sha256(part.path)})
            else:
                raise TypeError(f"unsupported message part {type(part).__name__}")
        encoded_messages.append({"role": message.role, "content": parts})
    return content_key({
        "v": _KEY_VERSION,
        "backend": backend,
        "model": model_id,
        "settings": settings,
        "messages": encoded_messages,
    })


class ResponseCache:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.hits = 0
        self.misses = 0
        self.dropped = 0        # damaged rows dropped (each then a miss)
        self._lock = threading.Lock()
        # Fails now, with one clear line, if the file is not a usable database.
        self._db = CacheDB(self.path, _SCHEMA)

    def get(self, key: str) -> Generation | None:
        """The stored generation, or None. A row whose data is damaged (raw not a JSON object,
        text not text, token counts not integers) is dropped and is a miss: the model is asked
        again and its answer stored in its place."""
        row = self._db.one(
            "SELECT text, input_tokens, output_tokens, raw FROM responses WHERE key = ?", (key,))
        if row is not None:
            text, input_tokens, output_tokens, raw = row
            try:
                raw = json.loads(raw) if isinstance(raw, str) else None
            except (ValueError, RecursionError):
                raw = None
            if not (isinstance(raw, dict) and isinstance(text, str)
                    and all(n is None or type(n) is int for n in (input_tokens, output_tokens))):
                self._db.execute("DELETE FROM responses WHERE key = ?", (key,))
                self.dropped += 1
                row = None
        with self._lock:
            if row is None:
                self.misses += 1
            else:
                self.hits += 1
        if row is None:
            return None
        requested, served = raw.pop("_requested_model", None), raw.pop("_served_model", None)
        return Generation(text=text, input_tokens=input_tokens, output_tokens=output_tokens,
                          cached=True, raw=raw, requested_model=requested, served_model=served)

    def put(self, key: str, backend: str, model_id: str, generation: Generation) -> None:
        raw = json.dumps({**generation.raw, "_requested_model": generation.requested_model,
                          "_served_model": generation.served_model}, ensure_ascii=False, default=str)
        self._db.execute(
            "INSERT OR REPLACE INTO responses (key, backend, model_id, text, input_tokens, output_tokens, raw, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (key, backend, model_id, generation.text, generation.input_tokens, generation.output_tokens,
             raw, time.time()),
        )

    def __len__(self) -> int:
        return self._db.one("SELECT COUNT(*) FROM responses")[0]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "ResponseCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class CachedChatModel:
    """Wraps any ChatModel: a hit returns Generation(cached=True) without calling the model."""

    def __init__(self, inner, cache: ResponseCache) -> None:
        self.inner = inner
        self.cache = cache
        self.name = inner.name
        self.model_id = inner.model_id

    def __getattr__(self, attribute: str):
        # Everything else (supports_images, calls, ...) is the wrapped model's.
        if attribute == "inner":
            raise AttributeError(attribute)
        return getattr(self.inner, attribute)

    def key(self, messages: list[Message], gen_kwargs: dict[str, Any]) -> str:
        # Backends may add settings of their own that change outputs (e.g. hf's default
        # max_new_tokens or dtype); explicit gen_kwargs override them.
        settings_of = getattr(self.inner, "cache_settings", None)
        effective = getattr(self.inner, "generation_settings", None)
        generation = effective(gen_kwargs) if callable(effective) else gen_kwargs
        settings = {**(settings_of() if callable(settings_of) else {}), **generation}
        return request_key(self.name, self.model_id, settings, messages)

    def generate(self, messages: list[Message], **gen_kwargs) -> Generation:
        key = self.key(messages, gen_kwargs)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        generation = self.inner.generate(messages, **gen_kwargs)
        self.cache.put(key, self.name, self.model_id, generation)
        return generation

    def generate_many(self, requests: list[list[Message]], **gen_kwargs) -> list[Generation | ModelCallError]:
        results: list[Generation | ModelCallError | None] = [None] * len(requests)
        keys: list[str | None] = [None] * len(requests)
        missing: list[int] = []
        for i, messages in enumerate(requests):
            try:
                keys[i] = self.key(messages, gen_kwargs)
            except ModelCallError as exc:   # e.g. an image file that is gone
                results[i] = exc
                continue
            hit = self.cache.get(keys[i])
            if hit is not None:
                results[i] = hit
            else:
                missing.append(i)
        if missing:
            batch = [requests[i] for i in missing]
            if hasattr(self.inner, "generate_many"):
                fresh = self.inner.generate_many(batch, **gen_kwargs)
            else:
                fresh = []
                for messages in batch:
                    try:
                        fresh.append(self.inner.generate(messages, **gen_kwargs))
                    except ModelCallError as exc:
                        fresh.append(exc)
            for i, outcome in zip(missing, fresh):
                if isinstance(outcome, Generation):
                    self.cache.put(keys[i], self.name, self.model_id, outcome)
                results[i] = outcome
        return results  # type: ignore[return-value]
