"""The judge's response cache: one SQLite file, safe for several threads and processes writing at once.

Keys are sha256 digests of the full content of a request (backend, model id, prompt hash,
generation settings and the request's fields, media by content hash), never ids or paths, so a
changed prompt or model can never be served an old answer. Values are JSON objects.

Concurrency: WAL journal (readers never block the writer), a busy timeout, and a retry with
backoff around every statement for the rare "database is locked" that WAL still allows (e.g.
two processes creating the file at the same moment). Each thread and process opens its own
connection.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import threading
import time
from pathlib import Path

from evaluator.errors import EvalError

# A table of its own, so the judge can share one --use_cache file with the model response cache
# (evaluator.models.cache, table `responses`).
_TABLE = "judge_responses"
_SCHEMA = (f"CREATE TABLE IF NOT EXISTS {_TABLE} ("
           "key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)")


def cache_key(**parts: object) -> str:
    """sha256 of the canonical JSON of `parts` (sorted keys, no whitespace variation)."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class JudgeCache:
    def __init__(self, path: str | os.PathLike, *, busy_timeout_s: float = 30.0,
                 attempts: int = 8) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.attempts = attempts
        self._local = threading.local()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EvalError(f"cannot create the cache folder {self.path.parent}: "
                            f"{exc.strerror}") from None
        self._retrying(lambda conn: conn.execute(_SCHEMA))

    # -- connections -----------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is not None and self._local.pid == os.getpid():
            return conn
        # A connection must not cross a fork: a child opens its own.
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_s * 1000)}")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def _retrying(self, fn):
        delay = 0.01
        for attempt in range(self.attempts):
            try:
                return fn(self._connect())
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or attempt == self.attempts - 1:
                    raise EvalError(f"response cache {self.path}: {exc}") from None
                self._drop_connection()
                time.sleep(delay * (1 + random.random()))
                delay = min(delay * 2, 1.0)
            except sqlite3.DatabaseError as exc:
                raise EvalError(f"response cache {self.path} is not a usable SQLite file "
                                f"({exc}); delete it or pass another --use_cache path") from None
        raise AssertionError("unreachable")

    def _drop_connection(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass
            self._local.conn = None

    # -- use ----------------------------------------------------------------------------------------
    def get(self, key: str) -> dict | None:
        row = self._retrying(
            lambda conn: conn.execute(f"SELECT value FROM {_TABLE} WHERE key = ?", (key,)).fetchone())
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None          # a damaged entry is a miss; the next put replaces it
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict) -> None:
        blob = json.dumps(value, ensure_ascii=False, default=str)
        self._retrying(lambda conn: conn.execute(
            f"INSERT OR REPLACE INTO {_TABLE} (key, value, created) VALUES (?, ?, ?)",
            (key, blob, time.time())))

    def __len__(self) -> int:
        return self._retrying(lambda conn: conn.execute(f"SELECT COUNT(*) FROM {_TABLE}")
                              .fetchone()[0])

    def close(self) -> None:
        self._drop_connection()
