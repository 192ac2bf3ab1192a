"""`br-eval compare RUN_A RUN_B`: B against A on the items both runs answered."""

from __future__ import annotations


def add_arguments(parser) -> None:
    parser.add_argument("run_a", help="the baseline run folder")
    parser.add_argument("run_b", help="the run compared against it")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")


def _ci(d) -> str:
    if not d:
        return "-"
    return f"{d['mean']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]"


def print_comparison(cmp: dict) -> None:
    import sys

    for w in cmp["warnings"]:
        print(f"br-eval: warning: the runs are not the same test: {w}", file=sys.stderr)
    rows = dict(cmp["tasks"])
    if cmp["overall"]:
        rows["overall"] = cmp["overall"]
    if not rows:
        print("no item answered by both runs")
        return
    print(f"A = {cmp['a']['label']}   B = {cmp['b']['label']}   (difference = B - A)")
    width = max(len(n) for n in rows)
    print(f"{'task':<{width}}  {'n':>5} {'A':>6} {'B':>6}  {'B - A [95% CI]':<26} "
          f"{'won':>4} {'lost':>4} {'tied':>4}  McNemar p")
    for name, r in rows.items():
        mc = r.get("mcnemar")
        print(f"{name:<{width}}  {r['n']:>5} {r['mean_a']:>6.3f} {r['mean_b']:>6.3f}  "
              f"{_ci(r['diff']):<26} {r['won']:>4} {r['lost']:>4} {r['tied']:>4}  "
              f"{'-' if mc is None else format(mc['p'], '.4g')}")


def main(args) -> int:
    import json

    from evaluator.view.runs import compare_runs, label_runs, load_run

    a, b = load_run(args.run_a), load_run(args.run_b)
    label_runs([a, b])
    cmp = compare_runs(a, b, seed=args.seed)
    if args.json:
        print(json.dumps(cmp, indent=2))
    else:
        print_comparison(cmp)
    return 0
