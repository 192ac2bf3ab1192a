"""The one SQLite helper under the response caches (`evaluator.models.cache`, table `responses`,
and `evaluator.scoring.cache`, table `judge_responses`): both may live in one `--use_cache` file.

Keys are content digests (`content_key`): sha256 of canonical JSON, never ids or paths.

Concurrency: WAL journal (readers never block the writer), `synchronous=NORMAL`, a busy timeout,
and a retry with backoff around every statement for the rare "database is locked" that WAL still
allows (e.g. two processes creating the file at the same moment). Each thread opens its own
connection, and a forked child opens its own rather than using its parent's.

A file that is not a usable SQLite database is one clear EvalError when the cache is opened, and
it is never overwritten.
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
from typing import Any, Callable, TypeVar

from evaluator.errors import EvalError

T = TypeVar("T")


def content_key(payload: Any) -> str:
    """sha256 of the canonical JSON of `payload` (sorted keys, no whitespace variation)."""
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class CacheDB:
    """One SQLite file: `schema` (CREATE TABLE IF NOT EXISTS ...) is run on open, so opening a
    file that is not a database fails at once; `run(fn)` calls `fn(connection)` with retries."""

    def __init__(self, path: str | os.PathLike, schema: str, *, busy_timeout_s: float = 30.0,
                 attempts: int = 8) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.attempts = attempts
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[tuple[int, sqlite3.Connection]] = []
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EvalError(f"cannot create the cache folder {self.path.parent}: "
                            f"{exc.strerror or exc}") from None
        self.run(lambda conn: conn.execute(schema))

    def _connect(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is not None and self._local.pid == os.getpid():
            return conn
        # A connection must not cross a fork: a child opens its own.
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_s * 1000)}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error:
            conn.close()
            raise
        self._local.conn, self._local.pid = conn, os.getpid()
        with self._lock:
            self._connections.append((os.getpid(), conn))
        return conn

    def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """`fn(connection)`, retried with backoff while the database is busy."""
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
                raise EvalError(
                    f"response cache {self.path} is not a usable SQLite database ({exc}). A cache "
                    "that is not a usable SQLite file is never overwritten: delete it or pass "
                    "another --use_cache path") from None
        raise AssertionError("unreachable")

    def one(self, sql: str, params: tuple = ()) -> tuple | None:
        """The first row of a query, or None."""
        return self.run(lambda conn: conn.execute(sql, params).fetchone())

    def execute(self, sql: str, params: tuple = ()) -> None:
        self.run(lambda conn: conn.execute(sql, params))

    def _drop_connection(self) -> None:
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is None:
            return
        with self._lock:
            self._connections = [(p, c) for p, c in self._connections if c is not conn]
        try:
            conn.close()
        except sqlite3.Error:
            pass

    def close(self) -> None:
        """Closes this process's connections, every thread's; a later call opens new ones."""
        pid = os.getpid()
        with self._lock:
            mine = [c for p, c in self._connections if p == pid]
            self._connections = []
        for conn in mine:
            try:
                conn.close()
            except sqlite3.Error:
                pass
        self._local = threading.local()
