"""The judge's response cache: one SQLite file, safe for several threads and processes writing at once.

Keys are sha256 digests of the full content of a request (backend, model id, prompt hash,
generation settings and the request's fields, media by content hash), never ids or paths, so a
changed prompt or model can never be served an old answer. Values are JSON objects.

Concurrency, connections and errors are `evaluator.cachedb.CacheDB`'s, the helper the model
response cache uses too: WAL journal, busy timeout, retry with backoff, a connection per thread
and process.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from evaluator.cachedb import CacheDB, content_key

# A table of its own, so the judge can share one --use_cache file with the model response cache
# (evaluator.models.cache, table `responses`).
_TABLE = "judge_responses"
_SCHEMA = (f"CREATE TABLE IF NOT EXISTS {_TABLE} ("
           "key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)")


def cache_key(**parts: object) -> str:
    """sha256 of the canonical JSON of `parts` (sorted keys, no whitespace variation)."""
    return content_key(parts)


class JudgeCache:
    def __init__(self, path: str | os.PathLike, *, busy_timeout_s: float = 30.0,
                 attempts: int = 8) -> None:
        self.path = Path(path)
        self._db = CacheDB(self.path, _SCHEMA, busy_timeout_s=busy_timeout_s, attempts=attempts)

    def get(self, key: str) -> dict | None:
        row = self._db.one(f"SELECT value FROM {_TABLE} WHERE key = ?", (key,))
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None          # a damaged entry is a miss; the next put replaces it
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict) -> None:
        blob = json.dumps(value, ensure_ascii=False, default=str)
        self._db.execute(f"INSERT OR REPLACE INTO {_TABLE} (key, value, created) VALUES (?, ?, ?)",
                         (key, blob, time.time()))

    def __len__(self) -> int:
        return self._db.one(f"SELECT COUNT(*) FROM {_TABLE}")[0]

    def close(self) -> None:
        self._db.close()
