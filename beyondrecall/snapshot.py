"""Where the data lives: br-eval's home folder, the default download folder, and the data folder
a command was given.

`resolve_data_dir` finds a snapshot, in order: `--data DIR`, `$BR_EVAL_DATA`, the default
download folder when it holds one. It returns that folder or raises: a DataError when what was
given is not a snapshot, `NoDataError` when nothing was given or found. Falling back to the
generated sample is the evaluator's decision (evaluator/datasets.py), never a reader's. A leaf:
standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

from beyondrecall.errors import DataError, NoDataError

HUB_REPO = "Moritze-Chenyu/BeyondRecall"
REVISION_FILE = ".br-eval-revision.json"   # written by `br-eval download` next to the snapshot


def home_dir() -> Path:
    """`$BR_EVAL_HOME`, else `$XDG_CACHE_HOME/br-eval`, else `~/.cache/br-eval`."""
    if os.environ.get("BR_EVAL_HOME"):
        return Path(os.environ["BR_EVAL_HOME"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "br-eval"


def default_download_dir() -> Path:
    return home_dir() / "data" / "BeyondRecall"


def is_snapshot(path: Path) -> bool:
    return (Path(path) / "benchmark").is_dir()


def resolve_data_dir(data: str | os.PathLike | None = None) -> Path:
    """The snapshot folder to read: `data` (--data), else `$BR_EVAL_DATA`, else the default
    download folder when it holds a snapshot. DataError when the folder given is not a
    snapshot; NoDataError when none was given and none is downloaded."""
    if data:
        path = Path(data).expanduser()
        if not path.exists():
            raise DataError(f"--data {path}: no such folder")
        if not is_snapshot(path):
            raise DataError(f"--data {path}: not a Beyond Recall snapshot (no benchmark/ folder)")
        return path
    env = os.environ.get("BR_EVAL_DATA")
    if env:
        path = Path(env).expanduser()
        if not is_snapshot(path):
            raise DataError(f"$BR_EVAL_DATA={env}: not a Beyond Recall snapshot (no benchmark/ folder)")
        return path
    downloaded = default_download_dir()
    if is_snapshot(downloaded):
        return downloaded
    raise NoDataError(f"no Beyond Recall data: pass --data DIR, set $BR_EVAL_DATA, or run "
                      f"`br-eval download` (fetches {HUB_REPO} into {downloaded})")


__all__ = ["HUB_REPO", "REVISION_FILE", "home_dir", "default_download_dir", "is_snapshot",
           "resolve_data_dir"]
