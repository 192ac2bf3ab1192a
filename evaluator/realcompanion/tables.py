"""The paper's tables from a RealCompanion results.json entry, with the paper's row and column
names: `paper_tables(task_name, results_entry) -> str` (empty for a task without tables).

- realcompanion/chat: Table 5 (content match by condition), Table 35 (response score by
  condition: whole corpus and memory-bearing under each reading), Table 36 (paired contrasts with
  participant intervals), Table 8 / the decomposition (stratum x reading: pi, gamma_1, gamma_0,
  pi*gamma_1, (1-pi)*gamma_0, from no-memory rows), Table 37 (selectivity) and the system metrics
  (MR, AAR, LA, RC) in agent mode.
- realcompanion/retrieval: Table 33 (retrieval under substituted gold sets), Table 34 (window
  coverage) and Figure 4's block coverage, Table 32's demand rate under both readings.
Standard library only: `br-eval report` imports it.
"""

from __future__ import annotations


def _f(x, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _est(cell, kind: str = "pooled", signed: bool = False) -> str:
    if not cell or not isinstance(cell, dict) or cell.get(kind) is None:
        return "not reported" if isinstance(cell, dict) and "note" in cell else "-"
    c = cell[kind]
    fmt = "{:+.3f}" if signed else "{:.3f}"
    ci = c.get("ci95")
    body = fmt.format(c["mean"])
    if ci and ci[0] is not None:
        body += " [" + ", ".join(fmt.format(v) for v in ci) + "]"
    return body


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip()  # noqa: E731
    return "\n".join([title, line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _judged(cell, n_errors, kind: str = "pooled", signed: bool = False) -> str:
    """A cell, saying so when the judge failed on items it would have covered."""
    text = _est(cell, kind, signed)
    return f"{text} (judge failed on {n_errors})" if n_errors else text


def chat_tables(r: dict) -> str:
    per = r.get("per_condition") or {}
    conds = list(per)
    pops = r.get("populations") or {}
    out = []
    if r.get("n_judge_errors"):
        out.append(f"Judge errors: the judge failed on {r['n_judge_errors']} probe(s); they have "
                   "no judged score (not 0) and are left out of every judged cell below; "
                   "`br-eval score` retries them.")
    out.append(_table(f"Table 5. Content match by context condition ({r.get('content_metric')}, "
                      f"pooled [95% CI], n = {pops.get('all')})",
                      ["Condition", "Content match", "Macro", "Judge errors"],
                      [[c, _judged(per[c].get("content"), per[c].get("n_judge_errors")),
                        _est(per[c].get("content"), "macro"), str(per[c].get("n_judge_errors") or 0)]
                       for c in conds]))
    out.append(_table("Table 35. Response score by condition",
                      ["Condition", f"Whole corpus (n={pops.get('with_references')})",
                       f"Memory-bearing, recorded (n={pops.get('memory_bearing_recorded')})",
                       f"Memory-bearing, strict (n={pops.get('memory_bearing_strict')})"],
                      [[c, _est(per[c].get("content_with_references")),
                        _est(per[c].get("content_memory_bearing_recorded")),
                        _est(per[c].get("content_memory_bearing_strict"))] for c in conds]))
    contrasts = r.get("contrasts") or {}
    if contrasts:
        out.append(_table("Table 36. Paired contrasts, bootstrapped over subjects (whole-corpus "
                          "rows: probes with a reference set)",
                          ["Contrast", "n", "Whole corpus", "Memory-bearing, recorded",
                           "Memory-bearing, strict"],
                          [[name.replace("-", " - "), str(e.get("n")), _est(e.get("difference"), signed=True),
                            _est(e.get("difference_memory_bearing_recorded"), signed=True),
                            _est(e.get("difference_memory_bearing_strict"), signed=True)]
                           for name, e in contrasts.items()]))
        rows = []
        for name, e in contrasts.items():
            for key, d in (e.get("decomposition") or {}).items():
                if d is None:
                    continue
                stratum, reading = key.split("/")
                rows.append([name.replace("-", " - "), stratum, reading, str(d["n"]), _f(d["pi"]),
                             _f(d["gamma1"]), _f(d["gamma0"]), _f(d["pi_gamma1"]),
                             _f(d["one_minus_pi_gamma0"]), _f(d["delta"]),
                             _f(d["share_from_no_memory_rows"])])
        if rows:
            out.append(_table("Table 8. Decomposition of the contrast by ground-truth demand",
                              ["Contrast", "Stratum", "Reading", "n", "π", "γ1", "γ0", "πγ1",
                               "(1 − π)γ0", "Δ", "From no-memory rows"], rows))
    if any("misfire_rate" in per[c] for c in conds):
        out.append(_table(f"Table 37. Selectivity by supplied context (used_memory; misfire "
                          f"population n = {pops.get('misfire')})",
                          ["Condition", "Misapplication (misfire)", "Appropriate application",
                           "Appropriate application, strict", "Restraint"],
                          [[c, _est(per[c].get("misfire_rate")),
                            _est(per[c].get("appropriate_application_recorded")),
                            _est(per[c].get("appropriate_application_strict")),
                            _est(per[c].get("restraint"))] for c in conds]))
    system = r.get("system")
    if system:
        names = [("MR (misfire rate)", "misfire_rate"),
                 ("AAR (appropriate application), recorded", "appropriate_application_recorded"),
                 ("AAR, strict", "appropriate_application_strict"),
                 ("LA (locus accuracy), recorded", "locus_accuracy_recorded"),
                 ("LA, strict", "locus_accuracy_strict"),
                 ("RC (response consistency)", "response_consistency"),
                 ("Evidence coverage, recorded", "evidence_coverage_recorded")]
        out.append(_table("System metrics (the agent's own decisions)",
                          ["Metric", "Pooled", "Macro"],
                          [[label, _est(system.get(key)), _est(system.get(key), "macro")]
                           for label, key in names]))
    co = r.get("companion_origin")
    if co and co.get("all"):
        rows = [["all", f"{co['all']['rate']:.3f} [{co['all']['ci95'][0]:.3f}, "
                 f"{co['all']['ci95'][1]:.3f}]", str(co["all"]["n"])]]
        for k, v in (co.get("per_locus") or {}).items():
            if v:
                rows.append([k, f"{v['rate']:.3f} [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}]", str(v["n"])])
        out.append(_table("V7. Companion origin (memory-bearing rows)", ["Locus", "Rate", "n"], rows))
    return "\n\n".join(out)


def retrieval_tables(r: dict) -> str:
    out = []
    ret = r.get("retrieval") or {}
    golds = [("true_gold", "Recorded gold"), ("offset_permuted_gold", "Offset-permuted"),
             ("pool20_gold", "20 pool messages"), ("position_randomised_gold", "Size-matched random")]
    methods = ["RANDOM", "RECENCY", "RECENCY-USER", "BM25", "ORACLE", "BROKEN-ORACLE"]
    rows = []
    for m in methods:
        row = [m.replace("-", " ")]
        for g, _ in golds:
            cell = (((ret.get(g) or {}).get(m) or {}).get("all") or {}).get("pooled", {}).get("hit@5")
            row.append(_f(cell["mean"]) if cell else "-")
        rows.append(row)
    out.append(_table("Table 33. Retrieval under substituted gold sets (hit@5, pooled, probes with "
                      "a reference set)", ["Method"] + [label for _, label in golds], rows))
    rows = []
    for m in methods:
        cell = (ret.get("true_gold") or {}).get(m, {}).get("memory_bearing") or {}
        rows.append([m.replace("-", " ")] + [_f((cell.get(kind) or {}).get(k, {}).get("mean")
                                                if (cell.get(kind) or {}).get(k) else None)
                                             for kind in ("pooled", "macro")
                                             for k in ("hit@5", "recall@5")])
    out.append(_table("Table 4 / 38. Memory-bearing probes: required turns in the top five",
                      ["Method", "hit@5 pooled", "recall@5 pooled", "hit@5 macro",
                       "recall@5 macro"], rows))
    cov = r.get("window_coverage") or {}
    if cov.get("messages"):
        strict = cov.get("strict") or {}
        rows = [[f"{n} messages", _f((v or {}).get("rate")),
                 _f(((strict.get("messages") or {}).get(n) or {}).get("rate"))]
                for n, v in cov["messages"].items()]
        rows += [[f"{int(t):,} tokens", _f((v or {}).get("rate")),
                  _f(((strict.get("tokens") or {}).get(t) or {}).get("rate"))]
                 for t, v in cov["tokens"].items()]
        out.append(_table(f"Table 34. Share of memory-bearing probes whose every required turn lies "
                          f"in the window (recorded n = {cov.get('n')}, strict n = "
                          f"{strict.get('n')}; tokens: {cov.get('tokenizer')})",
                          ["Window", "Recorded", "Strict"], rows))
        blocks = cov.get("blocks") or {}
        out.append(_table("Figure 4. Evidence coverage by context budget (condition blocks)",
                          ["Condition", "Recorded", "Strict"],
                          [[c, _f((v or {}).get("rate")),
                            _f(((cov.get("blocks_strict") or {}).get(c) or {}).get("rate"))]
                           for c, v in blocks.items()]))
    d = r.get("demand_rate") or {}
    if d.get("estimate"):
        rows = [[reading, _f(e["rate"] * 100, 1) + "%", f"[{e['ci95'][0] * 100:.1f}, {e['ci95'][1] * 100:.1f}]",
                 f"{e['k']}/{e['n']}"]
                for reading, e in (("recorded", d["estimate"]), ("strict", d.get("estimate_strict")))
                if e]
        out.append(_table("Table 32. Demand rate as a percentage of user turns (proportional stratum)",
                          ["Reading", "π", "95% CI", "k/n"], rows))
    reach = (r.get("reach") or {}).get("by_population") or {}
    if reach:
        rows = [[pop, str(v["n"]), _f((v.get("nearest_reference") or {}).get("median"), 0),
                 _f((v.get("farthest_reference") or {}).get("median"), 0)] for pop, v in reach.items()]
        out.append(_table("Reach (messages back to the evidence)",
                          ["Population", "n", "Median nearest", "Median farthest"], rows))
    return "\n\n".join(out)


def paper_tables(task_name: str, results_entry: dict) -> str:
    """The paper's tables for one RealCompanion task's results.json entry ("" for other tasks)."""
    if not isinstance(results_entry, dict):
        return ""
    if task_name.endswith("realcompanion/chat"):
        return chat_tables(results_entry)
    if task_name.endswith("realcompanion/retrieval"):
        return retrieval_tables(results_entry)
    return ""
