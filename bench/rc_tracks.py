"""Time each RealCompanion track over the synthetic sample with the mock backend, per item, so
the harness's own cost is visible next to model time (the mock answers instantly).

Prints, measured in the same run: for each track the wall time, items, time per item, and the
share spent inside the model (the mock's own time, near zero: everything else is br-eval).
Usage: python bench/rc_tracks.py [RC_DATA]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class TimedMock:
    """The mock backend, timing its own calls."""

    def __init__(self, inner):
        self.inner = inner
        self.name, self.model_id = inner.name, inner.model_id
        self.seconds = 0.0
        self.calls = 0

    def generate(self, messages, **kw):
        t = time.perf_counter()
        try:
            return self.inner.generate(messages, **kw)
        finally:
            self.seconds += time.perf_counter() - t
            self.calls += 1


def main() -> None:
    from evaluator.evaluate import evaluate
    from evaluator.models.mock_backend import MockChatModel
    from evaluator.datasets import data_dir

    root = data_dir("realcompanion", sys.argv[1] if len(sys.argv) > 1 else None)
    tmp = Path(tempfile.mkdtemp(prefix="br-eval-rc-bench-"))
    runs = [
        ("chat, agent mode (full-context)", "realcompanion/chat", "full-context", {}),
        ("chat, conditions C0-C4m", "realcompanion/chat", "none", {"conditions": "C0,C1,C2,C3,C4,C4m"}),
        ("question (full-context)", "realcompanion/question", "full-context", {}),
        ("reconstruction (full-context)", "realcompanion/reconstruction", "full-context", {}),
    ]
    reply = '{"profile": [], "persona": {}}'
    print(f"data: {root}")
    print(f"{'track':<34} {'items':>6} {'calls':>6} {'total s':>8} {'ms/item':>8} {'model ms/item':>14}")
    try:
        for i, (label, task, agent, extra) in enumerate(runs):
            model = TimedMock(MockChatModel(replies=[reply]))
            t = time.perf_counter()
            metrics = evaluate([task], rc_data=root, agent=agent, model=model,
                               output_path=tmp / str(i), progress=False, announce=False, **extra)[task]
            total = time.perf_counter() - t
            n = metrics.get("n_samples") or 1
            print(f"{label:<34} {n:>6} {model.calls:>6} {total:>8.2f} {total / n * 1000:>8.1f} "
                  f"{model.seconds / n * 1000:>14.3f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
