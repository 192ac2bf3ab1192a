"""The one place a media path named by a task file becomes a file on disk.

`resolve_media(benchmark_dir, rel)` checks the path as text (relative, no `..` out of
`benchmark/`, no backslash or NUL), resolves every symlink, and refuses the result when it leaves
`benchmark/` or is not a regular file (a FIFO or device node would hang or flood a reader).
Files of a Hugging Face cache snapshot (`.../snapshots/<rev>/benchmark/x -> ../../blobs/<sha>`)
are allowed into that cache's `blobs/` folder, the layout `snapshot_download` writes without
`local_dir`. `validate`, `show`, `prepare` and `run` all go through here, so they accept and
refuse the same paths, with the same one-line reason.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from pathlib import Path

from beyondrecall.errors import DataError

_DRIVE = re.compile(r"^[A-Za-z]:")


def text_problem(rel: str) -> str | None:
    """Why a media path is refused on its text alone (None when the text is fine)."""
    if not rel.strip():
        return "empty media path"
    if "\\" in rel or "\x00" in rel:
        return f"media path {rel!r} contains a backslash or NUL"
    if rel.startswith("/") or _DRIVE.match(rel):
        return f"media path {rel!r} is absolute (paths are relative to benchmark/)"
    norm = posixpath.normpath(rel)
    if norm == ".." or norm.startswith("../") or norm == ".":
        return f"media path {rel!r} escapes benchmark/"
    return None


def allowed_roots(benchmark_dir: Path) -> tuple[str, ...]:
    """Real folders a media file may live in: benchmark/ itself and, for a Hugging Face cache
    snapshot, the cache's blobs/ folder."""
    blobs = snapshot_roots(os.path.dirname(os.path.abspath(benchmark_dir)))[1:]
    return (os.path.realpath(benchmark_dir), *blobs)


# how the Hugging Face hub client names a repository's folder in its cache
HUB_REPO_PREFIXES = ("datasets--", "models--", "spaces--")


def snapshot_roots(snapshot: Path) -> tuple[str, ...]:
    """Real folders a snapshot's files may live in: the snapshot itself and, for a Hugging Face
    cache snapshot (`<cache>/datasets--owner--name/snapshots/<rev>`: the repo folder named as the
    hub client names it), the cache's blobs/ folder. A folder of one's own that happens to be
    called `snapshots` gains no second root."""
    snap = os.path.abspath(snapshot)
    roots = [os.path.realpath(snap)]
    repo = os.path.basename(os.path.dirname(os.path.dirname(snap)))
    if os.path.basename(os.path.dirname(snap)) == "snapshots" and repo.startswith(HUB_REPO_PREFIXES):
        roots.append(os.path.realpath(os.path.join(os.path.dirname(os.path.dirname(snap)), "blobs")))
    return tuple(roots)


def inside(path: Path | str, roots: tuple[str, ...]) -> bool:
    """Whether `path`, every symlink resolved, lies in one of `roots` (real paths)."""
    real = os.path.realpath(path)
    return any(real == r or real.startswith(r + os.sep) for r in roots)


def media_problem(benchmark_dir: Path, rel: str, *, roots: tuple[str, ...] | None = None,
                  must_exist: bool = True) -> tuple[str | None, str | None]:
    """(real path, None) for an acceptable media file, else (None, the reason)."""
    reason = text_problem(rel)
    if reason:
        return None, reason
    joined = os.path.join(benchmark_dir, posixpath.normpath(rel))
    real = os.path.realpath(joined)
    roots = roots or allowed_roots(benchmark_dir)
    if not inside(real, roots):
        return None, f"media path {rel!r} leads outside benchmark/ (through a symlink); not opened"
    if not must_exist:
        return real, None
    try:
        st = os.stat(real)
    except OSError:
        return None, f"media file {rel!r} does not exist under benchmark/"
    if not stat.S_ISREG(st.st_mode):
        return None, f"media path {rel!r} is not a regular file; not opened"
    return real, None


def resolve_media(benchmark_dir: Path, rel: str) -> Path:
    """The real path of a media file inside benchmark/, or a DataError naming it."""
    real, reason = media_problem(benchmark_dir, rel)
    if reason:
        raise DataError(f"{benchmark_dir}: {reason}")
    return Path(real)


__all__ = ["text_problem", "allowed_roots", "snapshot_roots", "inside", "media_problem", "resolve_media"]
