"""Shared by the benchmarks: a full-size synthetic snapshot, generated once into a cache folder."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def full_snapshot() -> Path:
    from beyondrecall.sample import GENERATOR_VERSION, generate_sample
    from beyondrecall.snapshot import home_dir

    dest = Path(os.environ.get("BR_EVAL_BENCH_DATA") or
                home_dir() / f"bench-full-v{GENERATOR_VERSION}")
    if not (dest / ".complete").exists():
        t = time.perf_counter()
        print(f"generating the full-size synthetic snapshot into {dest} ...", file=sys.stderr)
        generate_sample(dest, scale="full")
        print(f"  done in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return dest
