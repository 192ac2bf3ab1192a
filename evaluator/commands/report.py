"""`br-eval report RUN_DIR`: a finished run's results as a table (read from results.json only)."""

from __future__ import annotations

import json

# The words docs/scoring.md defines, for each primary metric's name.
METRIC_WORDS = {
    "token_f1": "token F1",
    "rougeL_f": "ROUGE-L F1",
    "exact_match": "exact match",
    "refusal_acc": "refusal-aware accuracy",
    "mc_accuracy": "multiple-choice accuracy",
    "judge": "judge score (0/0.5/1)",
    "persona_f1": "persona slot F1",
    "content_match": "content match (judge, 0-2)",
    "token_f1_vs_gold": "token F1 vs gold reply",
    "hit@5 (BM25, memory-bearing probes)": "hit@5, BM25, memory-bearing probes",
}


def add_arguments(parser) -> None:
    parser.add_argument("run_dir", help="a run folder (holds results.json)")
    parser.add_argument("--json", action="store_true", help="print results.json's per-task metrics")


def metric_words(entry: dict) -> str:
    name = entry.get("primary_metric")
    if name == "mixed":
        counts = entry.get("primary_metric_counts") or {}
        parts = [f"{METRIC_WORDS.get(k, k)} on {v}" for k, v in counts.items()]
        return "mixed: " + ", ".join(parts) if parts else "mixed"
    words = METRIC_WORDS.get(name, name or "-")
    cond = entry.get("primary_condition")      # realcompanion/chat --conditions: whose score
    return f"{words}, condition {cond}" if isinstance(cond, str) and cond != "agent" else words


def _fmt(est) -> str:
    if isinstance(est, dict) and "mean" in est:
        if est["mean"] is None:                  # NaN in the file: missing
            return "-"
        ci = est.get("ci95") or []
        if len(ci) != 2 or None in ci:
            return f"{est['mean']:.3f}"
        return f"{est['mean']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"
    if isinstance(est, float):
        return f"{est:.3f}"
    return "-" if est is None else str(est)


def header_lines(results: dict) -> list[str]:
    """Which agent, model, judge and data the numbers measure."""
    config = results.get("config", {})
    settings = config.get("settings", {})
    lines = []
    agent = settings.get("agent")
    if agent:
        lines.append(f"agent: {'weight-free baseline, no model' if agent == 'baseline' else agent}")
    model = results.get("model")
    if model:
        served = (model.get("preflight") or {}).get("served_model")
        name = model.get("model_id")
        gen = model.get("generation") or {}
        lines.append(f"model: {model.get('backend')} {name}"
                     + (f" (answered as {served})" if served and served != name else "")
                     + (f"; generation {json.dumps(gen, sort_keys=True)}" if gen else ""))
    elif settings.get("model"):
        lines.append(f"model: {settings['model']}")
    judge = results.get("judge")
    if judge:
        lines.append(f"judge: {judge.get('backend')} {judge.get('model_id')}")
    data = results.get("data")
    if data:
        label = "generated sample" if data.get("is_sample") else \
            f"data version {data.get('data_version') or 'unknown'}, revision " \
            f"{data.get('revision') or 'unknown'}"
        lines.append(f"data: {data.get('path')} ({label})")
    if config.get("rc_data"):
        lines.append(f"RealCompanion data: {config['rc_data']}")
    rules = rule_decisions(results.get("results") or {})
    if rules:
        lines.append("decided by rules, not a judge: " + "; ".join(rules))
        if any(((e or {}).get("decided_by") or {}).get("refusal", {}).get("detector")
               for e in (results.get("results") or {}).values()):
            from evaluator.scoring.refusal import HEDGED_MISREAD as m

            lines.append(f"note: the refusal reader read {m['misread']} of {m['of']} hedged answers of real chat "
                         f"models as declines on its last blind set ({m['set']}); --judge decides refusals")
    version = results.get("br_eval_version")
    if version:
        lines.append(f"br-eval {version}" + (f" ({results['git_hash'][:12]})"
                                             if results.get("git_hash") else "")
                     + (f", {results['date']}" if results.get("date") else ""))
    return lines


RULE_WORDS = {"detector": "the refusal reader (phrase rules and a learned model, no judge)",
              "letter reader": "the letter reader"}


def rule_decisions(entries: dict) -> list[str]:
    """What the rules decided over every task's items (each task's `decided_by` without the
    judge's share): ["refusal by the refusal reader (...) on 3 items", ...]."""
    totals: dict[tuple[str, str], int] = {}
    for entry in entries.values():
        for kind, by in ((entry or {}).get("decided_by") or {}).items():
            for who, n in by.items():
                if who != "judge":
                    totals[(kind, who)] = totals.get((kind, who), 0) + int(n)
    return [f"{kind} by {RULE_WORDS.get(who, who)} on {n} item(s)"
            for (kind, who), n in totals.items()]


def overall_lines(entries: dict) -> list[str]:
    """The Beyond Recall dimension means and each suite's overall (evaluator.scoring.overall:
    the one definition), `*` marking one that averages fewer tasks than its suite has or an
    incomplete task."""
    from evaluator.scoring.overall import dimension_means, overall

    def line(label: str, e: dict) -> str:
        mark = "" if e["complete"] else "*"
        return f"  {label} (mean of {e['n_tasks']} of {e['of']} tasks){mark}: {e['mean']:.3f}"

    dims = dimension_means(entries)
    out = [line(dim, e) for dim, e in dims.items()] if len(entries) > 1 else []
    words = {"beyondrecall": "Beyond Recall overall", "realcompanion": "RealCompanion overall"}
    out += [line(words.get(suite, suite), e) for suite, e in overall(entries).items()]
    return out


def print_table(results: dict, only: list[str] | None = None) -> None:
    rows = results.get("results", {})
    names = [n for n in (only or rows) if n in rows]
    for line in header_lines(results):
        print(line)
    if not names:
        print("no results")
        return
    width = max(len(n) for n in names)
    mw = max(14, max(len(metric_words(rows[n])) for n in names))
    print(f"{'task':<{width}}  {'primary metric':<{mw}}  {'score [95% CI]':<26} "
          f"{'done':>11} {'failed':>6} {'judge err':>9} {'unreadable':>10}")
    partial = []
    for n in names:
        r = rows[n]
        done = r.get("n_done", r.get("n_scored"))
        expected = r.get("n_expected")
        count = f"{done}/{expected}" if expected is not None else str(done)
        if r.get("complete") is False:
            partial.append(n)
            count += "*"
        score = _fmt(r.get("primary"))
        if score == "-" and r.get("n_judge_errors"):
            score = f"- (judge failed on {r['n_judge_errors']})"
        unreadable = r.get("n_unreadable")
        unreadable = str(sum(unreadable.values())) if isinstance(unreadable, dict) else "-"
        print(f"{n:<{width}}  {metric_words(r):<{mw}}  {score:<26} {count:>11} "
              f"{str(r.get('n_failed', '-')):>6} {str(r.get('n_judge_errors', '-')):>9} "
              f"{unreadable:>10}")
    # the overall is the folder's (results.json's), over every task it holds, listed or not
    means = overall_lines(rows)
    for line in means:
        print(line)
    if any("*:" in line for line in means):
        print("  (* a mean over fewer tasks than its group has, or over an incomplete task)")
    unlisted = [n for n in rows if n not in names]
    if means and unlisted:
        print(f"  (the overall includes {len(unlisted)} task(s) of this folder not listed above: "
              f"{', '.join(unlisted)}; `br-eval report` lists them)")
    if partial:
        print(f"* partial: {', '.join(partial)} (not every item is answered and scored: rerun "
              "without --limit, rerun to retry failures, `br-eval score --judge ...` to retry judge errors)")
    if any(isinstance(rows[n].get("n_unreadable"), dict) and sum(rows[n]["n_unreadable"].values())
           for n in names):
        print("unreadable: replies that could not be read (empty, or no letter / JSON where one "
              "was asked) score 0 and stay in the means")


def stale_tasks(run_dir, entries: dict) -> list[str]:
    """Tasks of results.json whose journal holds other answered / failed counts than their entry
    counts ("memory_update (journal: 6 answered, 0 failed; results.json: 3, 4)")."""
    import sys

    from evaluator.errors import EvalError

    out = []
    for name, entry in entries.items():
        if not isinstance(entry, dict) or not run_dir.has_journal(name) \
                or not isinstance(entry.get("n_done"), int):
            continue
        try:
            lines = run_dir.latest_samples(name)
        except EvalError as exc:      # report reads results.json; a damaged journal is said
            print(f"br-eval: warning: {name}: cannot read its journal to check it against "
                  f"results.json ({exc})", file=sys.stderr)
            continue
        done = sum(1 for s in lines if s.solved)
        failed = sum(1 for s in lines if s.failed and s.error_kind != "judge")
        if (done, failed) != (entry["n_done"], entry.get("n_failed") or 0):
            out.append(f"{name} (journal: {done} answered, {failed} failed; results.json: "
                       f"{entry['n_done']}, {entry.get('n_failed') or 0})")
    return out


def main(args) -> int:
    from evaluator.commands._common import merged
    from evaluator.errors import EvalError
    from evaluator.results import RunDir

    run_dir = RunDir(merged(args.run_dir, quiet=False), create=False)   # shards joined first
    results = run_dir.read_results()
    if not results and not run_dir.results_path.exists():
        raise EvalError(f"{args.run_dir}: no results.json (not a br-eval run folder?)")
    if args.json:
        print(json.dumps(results.get("results", {}), indent=2))
        return 0
    from evaluator.registry import TASKS

    tables = {}
    for name, entry in (results.get("results") or {}).items():
        try:
            tables[name] = TASKS[name].load().tables(entry) if name in TASKS else ""
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            raise EvalError(f"{run_dir.results_path}: {name}'s figures are malformed "
                            f"({type(exc).__name__}: {exc}); results.json is damaged") from None
    print_table(results)
    pending = [t for t in ((results.get("config") or {}).get("tasks") or [])
               if t not in (results.get("results") or {}) and run_dir.has_journal(t)]
    # a run stopped before it aggregated (Ctrl-C, a crash): its answers are kept, and a task
    # results.json holds may show figures older than its journal
    pending += stale_tasks(run_dir, results.get("results") or {})
    if pending:
        print(f"not yet scored: {', '.join(pending)} (the journal holds answers results.json does "
              f"not count; rerun the same command to finish, or `br-eval score {args.run_dir}`)")
    for name, text in tables.items():
        if text:
            print(f"\n{name}: the paper's tables\n\n{text}")
    return 0
