"""Load all 11 task files of a full-size snapshot and compute every question's visible history.

Prints, measured in the same run:
  - br-eval's load (typed records, validation, timestamp parsing, media path checks) against plain
    `json.load` of the same files (goal: at most 1.5x);
  - the total time to compute the visible history of every question (goal: under 2 s).
Usage: python bench/load_and_filter.py [SNAPSHOT]   (default: generated full-size snapshot)
"""

from __future__ import annotations

import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def best_of(n, fn):
    times = []
    for _ in range(n):
        gc.collect()
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    from beyondrecall import find_task_files, load_tasks, visible_history

    snapshot = Path(sys.argv[1]) if len(sys.argv) > 1 else __import__("_fullsize").full_snapshot()
    files = list(find_task_files(snapshot).values())
    size = sum(f.stat().st_size for f in files)

    def plain():
        out = []
        for f in files:
            with open(f, "rb") as fh:
                out.append(json.load(fh))
        return out

    t_json, _ = best_of(3, plain)

    def plain_gc_paused():
        gc.disable()
        try:
            return plain()
        finally:
            gc.enable()

    t_json_nogc, _ = best_of(3, plain_gc_paused)
    t_load, tasks = best_of(3, lambda: load_tasks(snapshot))
    n_traj = sum(len(t.trajectories) for t in tasks)
    n_q = sum(t.n_questions for t in tasks)
    n_sessions = sum(len(tr.sessions) for t in tasks for tr in t.trajectories)
    n_turns = sum(tr.n_turns for t in tasks for tr in t.trajectories)
    n_cut = sum(1 for t in tasks for _, q in t.questions() if q.timestamp is not None)

    def filter_all():
        visible = 0
        for t in tasks:
            for traj, q in t.questions():
                visible += visible_history(traj, q).n_turns
        return visible

    t_filter, visible = best_of(3, filter_all)
    print(f"snapshot: {snapshot}")
    print(f"  {len(files)} task files, {size / 1e6:.1f} MB, {n_traj} trajectories, {n_q} questions "
          f"({n_cut} with cutoffs), {n_sessions} sessions, {n_turns} turns")
    print(f"plain json.load (reference)      {t_json:8.3f} s")
    print(f"plain json.load, gc paused       {t_json_nogc:8.3f} s   (br-eval pauses the cyclic gc "
          f"while loading; this is the floor)")
    print(f"br-eval load_tasks               {t_load:8.3f} s   ratio {t_load / t_json:.2f}x "
          f"(goal <= 1.5x) {'OK' if t_load / t_json <= 1.5 else 'MISSED'}")
    print(f"visible history, all questions   {t_filter:8.3f} s   ({visible} visible turns in all; "
          f"goal < 2 s) {'OK' if t_filter < 2 else 'MISSED'}")


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
