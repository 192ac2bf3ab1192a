"""`br-eval report RUN_DIR`: a finished run's results as a table."""

from __future__ import annotations

import json


def add_arguments(parser) -> None:
    parser.add_argument("run_dir", help="a run folder (holds results.json)")
    parser.add_argument("--json", action="store_true", help="print results.json's per-task metrics")


def _fmt(est) -> str:
    if isinstance(est, dict) and "mean" in est:
        ci = est.get("ci95") or [None, None]
        if ci[0] is None:
            return f"{est['mean']:.3f}"
        return f"{est['mean']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"
    if isinstance(est, float):
        return f"{est:.3f}"
    return "-" if est is None else str(est)


def print_table(results: dict, only: list[str] | None = None) -> None:
    rows = results.get("results", {})
    names = [n for n in (only or rows) if n in rows]
    if not names:
        print("no results")
        return
    width = max(len(n) for n in names)
    print(f"{'task':<{width}}  {'primary metric':<22} {'score [95% CI]':<26} {'scored':>6} {'failed':>6}")
    for n in names:
        r = rows[n]
        print(f"{n:<{width}}  {str(r.get('primary_metric', '-')):<22} "
              f"{_fmt(r.get('primary')):<26} {str(r.get('n_scored', '-')):>6} "
              f"{str(r.get('n_failed', '-')):>6}")


def main(args) -> int:
    from evaluator.errors import EvalError
    from evaluator.results import RunDir
    from pathlib import Path

    from evaluator.sharding import merge, needs_merge

    if needs_merge(args.run_dir):         # a sharded run: join the shards first
        merge(args.run_dir, quiet=False)
    if not (Path(args.run_dir) / "results.json").exists():
        raise EvalError(f"{args.run_dir}: no results.json (not a br-eval run folder?)")
    results = RunDir(args.run_dir).read_results()
    if args.json:
        print(json.dumps(results.get("results", {}), indent=2))
        return 0
    print_table(results)
    return 0
