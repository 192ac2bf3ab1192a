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
    """The table: one row per task and one "overall (<suite>)" row per suite (the one overall,
    evaluator.scoring.overall, on the items both runs scored). A row whose task is incomplete in
    either run is marked `*`, and so is an overall over fewer tasks than its suite has."""
    import sys

    for w in cmp["warnings"]:
        print(f"br-eval: warning: the runs are not the same test: {w}", file=sys.stderr)
    rows = dict(cmp["tasks"])
    for suite, entry in (cmp.get("overall") or {}).items():
        rows[f"overall ({suite}, {entry['n_tasks']} of {entry['of']} tasks)"] = entry
    if not rows:
        print("no item answered by both runs")
        return
    print(f"A = {cmp['a']['label']}   B = {cmp['b']['label']}   (difference = B - A)")
    for side in ("a", "b"):     # which system each folder holds: a baseline never passes as a model
        if cmp[side].get("system"):
            print(f"{side.upper()}: {cmp[side]['system']}")
    width = max(len(n) for n in rows) + 1
    print(f"{'task':<{width}}  {'n':>5} {'A':>6} {'B':>6}  {'B - A [95% CI]':<26} "
          f"{'won':>4} {'lost':>4} {'tied':>4}  McNemar p")
    partial, partial_overall = [], []
    for name, r in rows.items():
        mc = r.get("mcnemar")
        label = name
        if r.get("complete") is False:
            label += "*"
            (partial_overall if name.startswith("overall (") else partial).append(name)
        counts = " ".join(f"{'-' if r.get(k) is None else r[k]:>4}" for k in ("won", "lost", "tied"))
        print(f"{label:<{width}}  {r['n']:>5} {r['mean_a']:>6.3f} {r['mean_b']:>6.3f}  "
              f"{_ci(r['diff']):<26} {counts}  "
              f"{'-' if mc is None else format(mc['p'], '.4g')}")
    if partial:
        print("* incomplete in at least one run (items failed or not yet run): the difference "
              "covers only the items both runs scored")
    if partial_overall:     # as `report` marks an overall
        print("* overall: a mean over fewer tasks than its suite has, or over a task incomplete "
              "in either run")


def main(args) -> int:
    import json

    from evaluator.view.runs import compare_runs, label_runs, load_run

    from evaluator.commands._common import merged

    a, b = load_run(merged(args.run_a)), load_run(merged(args.run_b))
    label_runs([a, b])
    cmp = compare_runs(a, b, seed=args.seed)
    from evaluator.commands.report import header_lines

    for side, run in (("a", a), ("b", b)):
        cmp[side]["system"] = "; ".join(line for line in header_lines(run.header)
                                        if line.startswith(("agent:", "model:")))
    if args.json:
        print(json.dumps(cmp, indent=2))
    else:
        print_comparison(cmp)
    return 0
