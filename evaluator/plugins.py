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


# module name -> {file: sha256} of its code when this process imported it (see load_attr)
_imported: dict[str, dict[Path, str]] = {}
# a user package bigger than this is fingerprinted by the files it has loaded, not every file
MAX_CODE_FILES = 2000
MAX_CODE_BYTES = 64 << 20


def load_attr(spec: str, flag: str, what: str = "attribute"):
    """`package.module:attr` -> the object. `flag` names the option in errors (e.g. --agent).

    Python imports a module once per process: when a module br-eval imported has changed on disk
    since, or today's search path finds another module of that name, it is imported afresh (a
    module the caller imported itself: one error line), so an edited agent never runs as its old
    code under the new code's fingerprint (evaluate() called twice in a notebook)."""
    from evaluator.errors import UsageError

    module_name, sep, attr = str(spec).partition(":")
    if not sep or not module_name or not attr:
        raise UsageError(f"{flag} {spec!r}: expected package.module:{what}")
    added = [p for p in _search_path() if p not in sys.path]
    sys.path[:0] = added
    try:
        stale = module_name in sys.modules and _stale(module_name)
        if stale and module_name not in _imported:
            raise UsageError(f"{flag} {spec}: {stale}; this process imported it before br-eval "
                             "did: start a new process")
        if stale:
            _forget(module_name.split(".")[0])
        seen = module_name in sys.modules
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
    except UsageError:
        raise
    except Exception as exc:   # an error inside user code is still one line
        raise UsageError(f"{flag} {spec}: cannot import {module_name} "
                         f"({type(exc).__name__}: {exc})") from None
    finally:
        for p in added:
            if p in sys.path:
                sys.path.remove(p)
    if not seen:
        _imported[module_name] = {f: _file_sha256(f) for f in _code_files(module)}
    obj = getattr(module, attr, None)
    if obj is None:
        raise UsageError(f"{flag} {spec}: {module_name} has no {what} {attr!r}")
    return obj


def _stale(module_name: str) -> str | None:
    """Why the imported module `module_name` is not what importing it now would give, or None."""
    from importlib.machinery import PathFinder

    top = module_name.split(".")[0]
    top_module = sys.modules.get(top)
    loaded = getattr(top_module, "__file__", None) or next(
        iter(getattr(top_module, "__path__", None) or []), None)
    found = PathFinder.find_spec(top, [*_search_path(), *sys.path])
    where = found and (found.origin if found.origin not in (None, "namespace") else next(
        iter(found.submodule_search_locations or []), None))
    if loaded and where and Path(loaded).resolve() != Path(where).resolve():
        return f"{top} was imported from {loaded}, and the search path now finds it at {where}"
    if any(_file_sha256(f) != sha for f, sha in _imported.get(module_name, {}).items()):
        return f"the code of {module_name} changed since it was imported"
    return None


def _forget(top: str) -> None:
    for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
        sys.modules.pop(name, None)
        _imported.pop(name, None)
    importlib.invalidate_caches()


def source_fingerprint(obj) -> str | None:
    """sha256 over the code that defines `obj` (a user class or function), so a rerun after
    editing it is not mistaken for the same agent: every .py file of its top-level package (a
    module that is not in a package: its file and the modules it loaded from the same folder);
    for an object without a file (defined in a notebook), the text of its source. None when
    neither can be read."""
    module = sys.modules.get(getattr(obj, "__module__", "") or "")
    digest = _code_digest(module) if module is not None else None
    if digest is not None:
        return digest
    import inspect

    try:
        text = inspect.getsource(obj)
    except (OSError, TypeError):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _code_files(module) -> list[Path]:
    top = sys.modules.get(module.__name__.split(".")[0], module)
    roots = [Path(p) for p in (getattr(top, "__path__", None) or [])]
    own = getattr(module, "__file__", None)
    if roots:
        files, size = [], 0
        for root in roots:
            for f in sorted(root.rglob("*.py")):
                if "__pycache__" in f.parts or not f.is_file():
                    continue
                files.append(f)
                size += f.stat().st_size
                if len(files) > MAX_CODE_FILES or size > MAX_CODE_BYTES:
                    return _loaded_under(roots)
        return files
    if not own or not os.path.isfile(own):
        return []
    here = Path(own).resolve().parent
    if here.name in ("site-packages", "dist-packages"):
        return [Path(own)]
    return sorted({Path(own), *_loaded_under([here], depth=1)})


def _loaded_under(roots: list[Path], depth: int | None = None) -> list[Path]:
    out = set()
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if not f or not f.endswith(".py"):
            continue
        path = Path(f).resolve()
        for root in roots:
            root = root.resolve()
            if path.is_relative_to(root) and (depth is None or len(path.relative_to(root).parts) == depth):
                out.add(path)
    return sorted(out)


def _file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _code_digest(module) -> str | None:
    files = _code_files(module)
    if not files:
        return None
    if len(files) == 1:     # one file: its sha256, as br-eval recorded before packages were covered
        return _file_sha256(files[0])
    h = hashlib.sha256()
    base = os.path.commonpath([str(f.resolve().parent) for f in files])
    for f in files:
        h.update(os.path.relpath(f.resolve(), base).encode("utf-8", "surrogateescape") + b"\0")
        h.update((_file_sha256(f) or "unreadable").encode())
    return h.hexdigest()
