"""`br-eval calibrate-judge`: measure a judge's leniency and store it next to its responses.

Runs the judge over the calibration set (by default evaluator/scoring/judge_calibration.jsonl,
shipped with the package: known right paraphrases and known wrong but topical answers), prints
the false-accept and false-reject rates, and writes them into the response cache under a key made
of the judge's backend, model, settings and every prompt's sha256. A judged run whose judge
matches records the two figures in results.json (evaluator.scoring.judge.calibration_for).
"""

from __future__ import annotations

import argparse

from evaluator.commands._common import add_alias


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--judge", required=True, choices=["openai", "mock"],
                        help="the judge to calibrate (as for br-eval run)")
    add_alias(parser, "judge_args", default="", help="judge settings, as for br-eval run (br-eval run --help)")
    add_alias(parser, "use_cache", nargs="?", const="", default="", metavar="SQLITE",
              help="the response cache to write into (default file in the br-eval home)")
    parser.add_argument("--data", default=None, help="another calibration set (JSON lines)")


def main(args) -> int:
    from pathlib import Path

    from evaluator.errors import EvalError
    from evaluator.models import parse_kv_args, preflight
    from evaluator.scoring.judge import (calibrate, load_calibration_rows, make_judge,
                                         save_calibration)

    try:
        judge_args = parse_kv_args(args.judge_args or "")
    except ValueError as exc:
        raise EvalError(f"--judge_args: {exc}") from None
    if args.use_cache:
        cache_path = Path(args.use_cache)
    else:
        from beyondrecall.snapshot import home_dir

        cache_path = home_dir() / "responses.sqlite"
    rows = load_calibration_rows(args.data)
    judge = make_judge(args.judge, judge_args, cache_path=cache_path)
    # As a judged run does: one tiny request first, so an unreachable server or a wrong model name
    # is one line at once, not every row's retries (210 x ~7 s).
    preflight(judge.model, gen_kwargs=judge.gen_kwargs)
    figures = calibrate(judge, rows)
    if figures["false_accept"] is None or figures["false_reject"] is None:
        raise EvalError(f"the judge failed on every {'wrong' if figures['false_accept'] is None else 'right'} "
                        f"answer ({figures['n_errors']} errors); nothing stored")
    save_calibration(judge, figures)
    info = judge.describe()
    print(f"judge {info['backend']}:{info['model_id']}  prompts "
          + " ".join(f"{k}={p['sha256'][:12]}" for k, p in info["prompts"].items()))
    print(f"false accept {figures['false_accept']:.1%} of {figures['n_wrong']} wrong answers, "
          f"false reject {figures['false_reject']:.1%} of {figures['n_right']} right answers"
          + (f", {figures['n_errors']} judge errors" if figures["n_errors"] else ""))
    print(f"stored in {cache_path}")
    return 0
