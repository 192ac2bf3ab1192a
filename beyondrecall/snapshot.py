"""Where the data lives: br-eval's home folder, the default download folder, and the data folder
a command was given.

`resolve_data_dir` finds a snapshot, in order: `--data DIR`, `$BR_EVAL_DATA`, the default
download folder when it holds one (`resolve_dir`, the same order for RealCompanion's folder in
evaluator/realcompanion/data.py `rc_data_dir`). It returns that folder or raises: a DataError
when what was given is not a snapshot, `NoDataError` when nothing was given or found. Falling back to the
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


def resolve_dir(given: str | os.PathLike | None, *, flag: str, env: str, default: Path, holds,
                name: str, hint: str, refuse: str | None = None) -> Path:
    """The one order in which both suites find their data folder: `given` (the flag `flag`), else
    `$env`, else `default` when `holds(default)`. A folder named by the flag or the variable must
    exist, and with `refuse` hold data (else DataError "{flag} DIR: {refuse}"); NoDataError
    ("no {name}: pass {flag} DIR, set ${env}, or {hint}") when nothing was named and `default`
    holds none. Opens no file, writes nothing."""
    for value, where in ((given, flag), (os.environ.get(env), f"${env}")):
        if not value:
            continue
        path = Path(value).expanduser()
        where = f"{where} {path}" if where == flag else f"{where}={value}"
        if not path.is_dir():
            raise DataError(f"{where}: no such folder")
        if refuse and not holds(path):
            raise DataError(f"{where}: {refuse}")
        return path
    if holds(default):
        return default
    raise NoDataError(f"no {name}: pass {flag} DIR, set ${env}, or {hint}")


def resolve_data_dir(data: str | os.PathLike | None = None) -> Path:
    """The snapshot folder to read: `data` (--data), else `$BR_EVAL_DATA`, else the default
    download folder when it holds a snapshot. DataError when the folder given is not a
    snapshot; NoDataError when none was given and none is downloaded."""
    downloaded = default_download_dir()
    return resolve_dir(data, flag="--data", env="BR_EVAL_DATA", default=downloaded,
                       holds=is_snapshot, name="Beyond Recall data",
                       refuse="not a Beyond Recall snapshot (no benchmark/ folder)",
                       hint=f"run `br-eval download` (fetches {HUB_REPO} into {downloaded})")


__all__ = ["HUB_REPO", "REVISION_FILE", "home_dir", "default_download_dir", "is_snapshot",
           "resolve_data_dir", "resolve_dir"]
