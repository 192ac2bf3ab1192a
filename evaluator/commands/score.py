"""`br-eval score RUN_DIR`: re-score a finished run from its journals, without the agent.

Either suite. Without `--judge`, deterministic metrics are recomputed (so a scorer fix applies to
old runs; journals are rewritten atomically). With `--judge`, every answered item this judge has
not graded yet, or failed on, is judged (responses cached) and its new line appended.
"""

from __future__ import annotations

import sys

from evaluator.commands._common import add_alias


def add_arguments(parser) -> None:
    parser.add_argument("run_dir", help="a run folder (holds results.json and samples_*.jsonl)")
    parser.add_argument("--judge", default=None, choices=["openai", "mock"])
    add_alias(parser, "judge_args", default="", help="base_url=,model=,api_key=")
    add_alias(parser, "judge_repeats", type=int, default=1, metavar="K",
              help="judge each item K times; the most frequent verdict counts")
    add_alias(parser, "use_cache", nargs="?", const="", default=None, metavar="SQLITE",
              help="cache judge responses in SQLite")
    parser.add_argument("--seed", type=int, default=None, help="bootstrap seed (default: the run's)")
    parser.add_argument("--no-progress", "--no_progress", dest="progress", action="store_false")


def main(args) -> int:
    from evaluator.commands.report import print_table
    from evaluator.commands.run import kv
    from evaluator.evaluate import rescore

    judge_args = kv(args.judge_args, "judge_args")
    if args.judge_repeats > 1:
        judge_args["repeats"] = args.judge_repeats
    results, judge_errors = rescore(args.run_dir, judge=args.judge, judge_args=judge_args,
                                    use_cache=args.use_cache, seed=args.seed,
                                    progress=None if args.progress else False)
    print_table(results.header, only=list(results.tasks))
    print(f"results: {results.results_path}")
    if judge_errors:
        print(f"br-eval: {judge_errors} judge call(s) failed; they are recorded as judge errors, "
              f"not scores; rerun `br-eval score {args.run_dir} --judge ...` to retry them",
              file=sys.stderr)
        return 1
    left = sum(r.n_judge_errors for r in results.tasks.values())
    if left and args.judge is None:   # only a judge grades them: the folder stays incomplete
        print(f"br-eval: {left} judge error(s) left unscored; `br-eval score {args.run_dir} "
              "--judge ... --judge_args ...` retries them", file=sys.stderr)
        return 1
    from evaluator.commands._common import pending_judge_line

    if pending_judge_line(results, args.run_dir):
        print(pending_judge_line(results, args.run_dir), file=sys.stderr)
        return 1
    return 0

