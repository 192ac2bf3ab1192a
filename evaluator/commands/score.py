"""`br-eval score RUN_DIR`: re-score a finished run from its journals, without the agent.

Deterministic metrics are recomputed (so a scorer fix applies to old runs), and with `--judge`
every answered sample is judged (responses cached). Journals are rewritten atomically.
"""

from __future__ import annotations

import sys

from evaluator.commands._common import add_alias


def add_arguments(parser) -> None:
    parser.add_argument("run_dir", help="a run folder (holds results.json and samples_*.jsonl)")
    parser.add_argument("--judge", default=None, choices=["openai", "mock"])
    add_alias(parser, "judge_args", default="", help="base_url=,model=,api_key=")
    add_alias(parser, "use_cache", nargs="?", const="", default=None, metavar="SQLITE",
              help="cache judge responses in SQLite")
    parser.add_argument("--seed", type=int, default=None, help="bootstrap seed (default: the run's)")
    parser.add_argument("--no-progress", "--no_progress", dest="progress", action="store_false")


def main(args) -> int:
    from pathlib import Path

    from evaluator.commands.report import print_table
    from evaluator.commands.run import _kv, _public
    from evaluator.errors import EvalError
    from evaluator.registry import TASKS
    from evaluator.results import RunDir
    from evaluator.runner import latest_by_key, summarize
    from evaluator.scoring import score_sample

    run_dir = RunDir(args.run_dir)
    results = run_dir.read_results()
    if not results:
        raise EvalError(f"{args.run_dir}: no results.json (not a br-eval run folder?)")
    tasks = [t for t in results.get("config", {}).get("tasks", [])
             if TASKS.get(t) and TASKS[t].suite == "beyondrecall"
             and run_dir.journal_path(t).exists()]
    if not tasks:
        raise EvalError(f"{args.run_dir}: no Beyond Recall journals to score")
    seed = args.seed if args.seed is not None else results.get("config", {}).get("seed", 0)
    judge = None
    if args.judge:
        from beyondrecall.snapshot import home_dir
        from evaluator.scoring import make_judge

        cache = None
        if args.use_cache is not None:
            cache = Path(args.use_cache) if args.use_cache else home_dir() / "responses.sqlite"
        judge = make_judge(args.judge, _kv(args.judge_args, "judge_args"), cache_path=cache)
    from tqdm import tqdm

    judge_errors = 0
    for task in tasks:
        samples = latest_by_key(run_dir.read_samples(task))
        for s in tqdm(samples, desc=f"scoring {task}", file=sys.stderr, leave=False,
                      disable=not (args.progress and sys.stderr.isatty())):
            if s.get("error"):
                continue
            s["metrics"] = score_sample(task, s["question"], s["prediction"], s["answer"],
                                        judge=judge)
            judge_errors += bool(s["metrics"].get("judge_error"))
        run_dir.rewrite_samples(task, samples)
        update = {"results": {task: summarize(task, samples, seed=seed, judge=judge)}}
        if judge is not None:
            update["judge"] = judge.describe()
            update.setdefault("config", results.get("config", {}))["judge_args"] = \
                _public(_kv(args.judge_args, "judge_args"))
            update["config"]["judge"] = args.judge
        run_dir.write_results(update)
    print_table(run_dir.read_results(), only=tasks)
    if judge_errors:
        print(f"br-eval: {judge_errors} judge call(s) failed; they are recorded as judge errors, "
              "not scores; rerun `br-eval score` to retry them", file=sys.stderr)
        return 1
    return 0
