"""The harness's own cost per question, with an agent that does nothing.

On a full-size synthetic snapshot (1,269 questions) this prints, measured in the same run:
  - load + visible-history time for all questions (the floor any runner pays);
  - a full `br-eval run` over all 11 tasks with a null agent (writes memory, answers ""), and
    the per-question overhead beyond loading and filtering (goal: under 2 ms);
  - the same run with the built-in BM25 baseline, for scale.
Usage: python bench/run_overhead.py [SNAPSHOT]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


class NullAgent:
    def __init__(self, model=None, **agent_args):
        pass

    def write(self, session):
        pass

    def answer(self, query):
        return ""


def main() -> None:
    import io
    from contextlib import redirect_stdout

    from beyondrecall import load_tasks, visible_history
    from evaluator.cli import main as cli

    snapshot = Path(sys.argv[1]) if len(sys.argv) > 1 else __import__("_fullsize").full_snapshot()
    t = time.perf_counter()
    tasks = load_tasks(snapshot)
    n_q = 0
    for task in tasks:
        for traj, q in task.questions():
            visible_history(traj, q)
            n_q += 1
    floor = time.perf_counter() - t
    sys.modules.setdefault("run_overhead", sys.modules[__name__])
    tmp = Path(tempfile.mkdtemp(prefix="br-eval-bench-"))
    try:
        def timed_run(agent: str, name: str) -> float:
            t = time.perf_counter()
            with redirect_stdout(io.StringIO()):
                code = cli(["run", "--tasks", "beyondrecall", "--data", str(snapshot), "--agent",
                            agent, "--output_path", str(tmp / name), "--no-progress"])
            assert code == 0, code
            return time.perf_counter() - t

        t_null = timed_run("run_overhead:NullAgent", "null")
        t_base = timed_run("baseline", "baseline")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    per_q = (t_null - floor) / n_q * 1000
    print(f"snapshot: {snapshot} ({n_q} questions)")
    print(f"load + visible history (floor)     {floor:7.2f} s")
    print(f"run, null agent, end to end        {t_null:7.2f} s")
    print(f"harness overhead per question      {per_q:7.2f} ms (goal < 2 ms) "
          f"{'OK' if per_q < 2 else 'MISSED'}")
    print(f"run, BM25 baseline, end to end     {t_base:7.2f} s ({t_base / n_q * 1000:.1f} ms/question)")


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
