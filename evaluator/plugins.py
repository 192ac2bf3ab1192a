"""Loading user code named as `package.module:attr` (agents, detectors), in one place.

The current folder and every `--include_path` folder are on the import path while loading, as
lm-evaluation-harness does for its `--include_path`; an import error says what was tried.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from pathlib import Path

_include_paths: list[str] = []


def add_include_paths(paths) -> None:
    """Folders searched (after the current folder) for user modules, for this process."""
    for p in paths or []:
        p = str(Path(p).resolve())
        if not Path(p).is_dir():
            from evaluator.errors import UsageError

            raise UsageError(f"--include_path {p}: not a folder")
        if p not in _include_paths:
            _include_paths.append(p)


def _search_path() -> list[str]:
    return [os.getcwd(), *_include_paths]


def load_attr(spec: str, flag: str, what: str = "attribute"):
    """`package.module:attr` -> the object. `flag` names the option in errors (e.g. --agent)."""
    from evaluator.errors import UsageError

    module_name, sep, attr = str(spec).partition(":")
    if not sep or not module_name or not attr:
        raise UsageError(f"{flag} {spec!r}: expected package.module:{what}")
    added = [p for p in _search_path() if p not in sys.path]
    sys.path[:0] = added
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UsageError(
                f"{flag} {spec}: cannot import {module_name}: no module {exc.name!r} in the "
                f"current folder, the "
                f"--include_path folders or the installed packages (searched "
                f"{', '.join(_search_path())}); pass --include_path DIR for the folder that "
                f"holds it") from None
        raise UsageError(f"{flag} {spec}: cannot import {module_name} ({exc})") from None
    except Exception as exc:   # an error inside user code is still one line
        raise UsageError(f"{flag} {spec}: cannot import {module_name} "
                         f"({type(exc).__name__}: {exc})") from None
    finally:
        for p in added:
            if p in sys.path:
                sys.path.remove(p)
    obj = getattr(module, attr, None)
    if obj is None:
        raise UsageError(f"{flag} {spec}: {module_name} has no {what} {attr!r}")
    return obj


def source_fingerprint(obj) -> str | None:
    """sha256 of the file that defines `obj` (a user class or function), so a rerun after
    editing it is not mistaken for the same agent. None for objects without a source file."""
    module = sys.modules.get(getattr(obj, "__module__", "") or "")
    path = getattr(module, "__file__", None)
    if not path or not os.path.isfile(path):
        return None
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()
