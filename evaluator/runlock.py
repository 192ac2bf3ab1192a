"""One writer per run folder.

`run`, `score` and `merge` hold `<folder>/.br-eval.lock` while they write: an unsharded writer
holds it exclusively; shard I of N holds it shared plus `<folder>/.br-eval.shard-I-of-N.lock`
exclusively, so the shards of one run write side by side while an unsharded run, `score` or
`merge` waits for none of them and stops at once. The locks are `flock`s: the kernel drops them
when their process dies (kill -9 included), so a dead holder's lock is taken over by the next
writer without any staleness guess. The file under a lock says who holds it (pid, host, start
time, command), for the one line a second writer prints. On a network file system flock is as
good as that system's locking.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
from datetime import datetime, timezone
from pathlib import Path

from evaluator.errors import EvalError

LOCK_NAME = ".br-eval.lock"


def _lock_name(shard: tuple[int, int] | None) -> str:
    return LOCK_NAME if shard is None else f".br-eval.shard-{shard[0]}-of-{shard[1]}.lock"


def _open(path: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise EvalError(f"cannot lock {path.parent} ({path.name}: {exc.strerror or exc}); "
                        "is it a symlink or a read-only folder?") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):     # a FIFO or device planted in its place
        os.close(fd)
        raise EvalError(f"cannot lock {path.parent}: {path.name} is not a regular file; remove it")
    return fd


def _holder(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            info = json.loads(fh.read(4096) or "{}")
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict) or not info.get("pid"):
        return "another br-eval process"
    text = (f"br-eval pid {info.get('pid')} on {info.get('host')}, started "
                     f"{info.get('started')}: {info.get('command')}")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class RunLock:
    """Hold a run folder's lock (a context manager; `release()` is idempotent)."""

    def __init__(self, folder: str | os.PathLike, shard: tuple[int, int] | None = None,
                 what: str = "run") -> None:
        self.folder, self.shard, self.what = Path(folder), shard, what
        self._fds: list[int] = []

    def acquire(self) -> "RunLock":
        import fcntl

        folder_lock = self.folder / LOCK_NAME
        fd = _open(folder_lock)
        self._fds.append(fd)
        mode = fcntl.LOCK_EX if self.shard is None else fcntl.LOCK_SH
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            self.release()
            raise EvalError(f"{self.folder} is in use by {self._who()}; wait for it to finish, "
                            "or use another --output_path") from None
        own = folder_lock
        if self.shard is not None:
            own = self.folder / _lock_name(self.shard)
            fd = _open(own)
            self._fds.append(fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(own)
                self.release()
                raise EvalError(f"{self.folder}: shard {self.shard[0]}/{self.shard[1]} is in use "
                                f"by {holder}; wait for it to finish") from None
        info = {"pid": os.getpid(), "host": socket.gethostname(), "what": self.what,
                "started": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "command": " ".join(["br-eval", *sys.argv[1:]])[:300]}
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        except OSError as exc:                          # a full disk: one line naming the file
            self.release()
            raise EvalError(f"cannot write the lock {own} ({exc.strerror or exc})") from None
        return self

    def _who(self) -> str:
        """Who holds the folder: the unsharded holder's record, else the shards that hold theirs."""
        import fcntl

        shards = []
        for p in sorted(self.folder.glob(".br-eval.shard-*-of-*.lock")):
            try:
                fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                shards.append(_holder(p))
            finally:
                os.close(fd)
        if shards and self.shard is None:
            return f"{len(shards)} shard run(s) ({shards[0]})"
        return _holder(self.folder / LOCK_NAME)

    def release(self) -> None:
        for fd in self._fds:
            try:
                os.close(fd)          # closing drops the flock
            except OSError:
                pass
        self._fds.clear()

    def __enter__(self) -> "RunLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
