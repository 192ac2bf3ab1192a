"""A judge's leniency: false-accept and false-reject rates on the calibration set, next to a
reference measured in the same run (token F1 >= 0.5 as a "judge", the deterministic metric).

    python bench/judge_calibration.py --judge openai --judge_args base_url=http://localhost:8000/v1,model=Qwen/Qwen2.5-7B-Instruct

Data: evaluator/scoring/judge_calibration.jsonl (105 right paraphrases, 105 wrong but topical answers).
Nothing is stored; `br-eval calibrate-judge` stores the figures for results.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--judge", required=True, choices=["openai", "mock"])
    parser.add_argument("--judge_args", default="")
    parser.add_argument("--data", default=None)
    args = parser.parse_args()

    from evaluator.models import parse_kv_args, preflight
    from evaluator.scoring import token_f1
    from evaluator.scoring.judge import calibrate, load_calibration_rows, make_judge

    rows = load_calibration_rows(args.data)
    judge = make_judge(args.judge, parse_kv_args(args.judge_args))
    # As a judged run does: one tiny request first, so an unreachable server is one line at once
    # rather than every item's retries (210 x ~7 s).
    preflight(judge.model, gen_kwargs=judge.gen_kwargs)
    t0 = time.perf_counter()
    figures = calibrate(judge, rows)
    dt = time.perf_counter() - t0
    wrong = [r for r in rows if not r["correct"]]
    right = [r for r in rows if r["correct"]]
    f1_fa = sum(token_f1(r["response"], r["reference"]) >= 0.5 for r in wrong) / len(wrong)
    f1_fr = sum(token_f1(r["response"], r["reference"]) < 0.5 for r in right) / len(right)
    print(f"{'instrument':<34}{'false accept':>14}{'false reject':>14}{'s/item':>9}")
    fa, fr = (("n/a" if v is None else format(v, ".1%"))
              for v in (figures["false_accept"], figures["false_reject"]))
    print(f"{'judge ' + judge.model_id:<34}{fa:>14}{fr:>14}{dt / len(rows):>9.3f}")
    print(f"{'reference: token F1 >= 0.5':<34}{f1_fa:>14.1%}{f1_fr:>14.1%}")
    print(f"({figures['n_wrong']} wrong, {figures['n_right']} right judged; "
          f"{figures['n_errors']} judge errors)")
    if figures["false_accept"] is None or figures["false_reject"] is None:
        print(f"the judge failed on every {'wrong' if figures['false_accept'] is None else 'right'} "
              "answer: no rate measured", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
