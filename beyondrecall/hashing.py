"""sha256 of a file, streamed: the one hashing loop of the data layer (verify, the snapshot's
identity, the task files' fingerprint).

A leaf: standard library only. The file is opened without blocking (a FIFO is refused, never
waited on) and must be a regular file; a final symlink is refused unless `follow_symlinks`.
"""

from __future__ import annotations

import hashlib
import os
import stat

BLOCK_SIZE = 4 << 20  # 4 MiB reads: few syscalls, and hashlib drops the GIL for each block


def hash_file(path: str, progress=None, block_size: int = BLOCK_SIZE, *,
              follow_symlinks: bool = False) -> tuple[str, int]:
    """(sha256 hex, bytes read) of a file, streamed in blocks (never the whole file in memory).
    OSError when it cannot be opened or is not a regular file."""
    h = hashlib.sha256()
    buf = bytearray(block_size)
    view = memoryview(buf)
    total = 0
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)  # a FIFO must not block
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file; not read")
        with os.fdopen(fd, "rb", buffering=0) as fh:
            fd = -1
            while True:
                n = fh.readinto(buf)
                if not n:
                    break
                h.update(view[:n])
                total += n
                if progress is not None:
                    progress(n)
    finally:
        if fd >= 0:
            os.close(fd)
    return h.hexdigest(), total


__all__ = ["BLOCK_SIZE", "hash_file"]
