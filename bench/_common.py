"""Shared by the benchmarks: run a bench's main() so that what it needs and cannot find (a
snapshot, a model folder, a server, an optional library) is one line and a non-zero exit, the way
`br-eval` reports it, never a traceback."""

from __future__ import annotations

import sys
from pathlib import Path


def run(main, *args) -> int:
    """main(*args) -> exit status (None = 0); the project's errors and OSError become one line."""
    from beyondrecall.errors import DataError
    from evaluator.errors import EvalError
    from media_cache.errors import MediaError

    name = f"bench/{Path(sys.argv[0]).name}"
    try:
        return int(main(*args) or 0)
    except ModuleNotFoundError as exc:
        print(f"{name}: needs the Python module {exc.name!r}, which is not installed", file=sys.stderr)
        return 1
    except (DataError, EvalError, MediaError, OSError) as exc:
        print(f"{name}: {exc or exc.__class__.__name__}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 1) or 1)
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130
