"""Finished runs as the viewer and `compare` see them: the typed records of a run folder (read
through `RunDir`, never parsed another way), each item's primary score and outcome, and the
paired comparison of two runs."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from evaluator.errors import EvalError
from evaluator.records import Sample, TaskResult

# The settings that name the system being compared (shown, not warned about): every other
# answer-changing setting in `config.settings` that differs between two runs is a warning.
_SYSTEM = ("agent", "agent_source", "model", "model_args", "agent_args")


@dataclass
class RunData:
    path: Path
    label: str
    header: dict
    tasks: dict[str, TaskResult]
    samples: dict[str, list[Sample]] = field(default_factory=dict)

    @property
    def settings(self) -> dict:
        return (self.header.get("config") or {}).get("settings") or {}


def load_run(path, label: str | None = None) -> RunData:
    """A run folder's results.json and the latest journal line of every item, per task."""
    from evaluator.results import RunDir

    path = Path(path)
    run_dir = RunDir(path, create=False)
    if not (path / "results.json").exists() and not (path / "results.json").is_symlink():
        raise EvalError(f"{path}: no results.json (not a br-eval run folder?)")
    header = run_dir.read_results()
    entries = header.get("results") or {}
    tasks = {name: TaskResult.from_json(name, entry) for name, entry in entries.items()}
    names = list(dict.fromkeys(list((header.get("config") or {}).get("tasks") or []) + list(tasks)))
    samples = {}
    for name in names:
        if run_dir.has_journal(name):
            samples[name] = _without_pending(name, run_dir.latest_samples(name))
    return RunData(path, label or path.name, header, tasks, samples)


def _without_pending(task: str, samples: list[Sample]) -> list[Sample]:
    """The lines, with no primary score for those awaiting the judge (evaluator.task.awaiting_judge),
    as results.json counts them: compare and view print the number report prints."""
    import dataclasses

    from evaluator.registry import TASKS
    from evaluator.task import awaiting_judge

    pending = awaiting_judge(TASKS[task].load(), samples) if task in TASKS else set()
    return [dataclasses.replace(s, metrics={**(s.metrics or {}), "primary": None, "judge_pending": True})
            if s.key in pending else s for s in samples]


def label_runs(runs: list[RunData]) -> None:
    """Give runs with the same folder name distinct labels (their parent folder, then a number)."""
    seen: dict[str, int] = {}
    for r in runs:
        seen[r.label] = seen.get(r.label, 0) + 1
    for i, r in enumerate(runs):
        if seen[r.label] > 1:
            r.label = f"{r.path.parent.name}/{r.path.name}" if r.path.parent.name else f"{r.label}#{i + 1}"
    if len({r.label for r in runs}) < len(runs):
        for i, r in enumerate(runs):
            r.label = f"{r.label}#{i + 1}"


def _number(v) -> float | None:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)) and not (isinstance(v, float) and math.isnan(v)):
        return float(v)
    return None


def item_primary(sample: Sample, result: TaskResult | None = None) -> float | None:
    """The item's primary score: metrics["primary"]; for tracks that score per condition (the
    RealCompanion chat track), the task's primary metric under its primary condition."""
    if sample.failed and sample.error_kind != "judge" or not sample.metrics:
        return None
    m = sample.metrics
    value = _number(m.get("primary"))
    if value is not None or "primary" in m or sample.error_kind == "judge":
        # a primary the scorer left empty (a judge error) has no score: never another metric's
        return value
    if result is not None and result.primary_metric in m:
        v = m[result.primary_metric]
        if isinstance(v, dict):
            cond = result.metrics.get("primary_condition")
            v = v.get(cond) if cond in v else (next(iter(v.values())) if len(v) == 1 else None)
        return _number(v)
    return None


def item_prediction(sample: Sample, result: TaskResult | None = None) -> tuple[str | None, str | None]:
    """(the reply the item's primary score is of, the condition it was made under): the
    prediction, or for a track that answers under several conditions (the RealCompanion chat
    track's --conditions) the reply under the task's primary condition."""
    if sample.prediction is not None or result is None:
        return sample.prediction, None
    cond = result.metrics.get("primary_condition")
    entry = (sample.fields.get("conditions") or {}).get(cond) if isinstance(cond, str) else None
    reply = entry.get("reply") if isinstance(entry, dict) else None
    return (reply, cond) if isinstance(reply, str) else (None, None)


def outcome(sample: Sample, score: float | None, metric: str | None = None) -> str:
    """right | wrong | partial | refused | failed | judge error | unscored; `metric` (the task's
    primary metric) puts a score not on 0-1 (content match, 0-2) on its own scale."""
    if sample.failed and sample.error_kind != "judge":
        return "failed"
    if score is None and (sample.error_kind == "judge" or (sample.judge or {}).get("error")):
        return "judge error"
    m = sample.metrics or {}
    if m.get("refused") is True and m.get("answerable") is not False:
        return "refused"
    if score is None:
        return "unscored"
    from evaluator.scoring.overall import scale

    score = score / scale(metric)
    if score >= 1.0 - 1e-9:
        return "right"
    if score <= 1e-9:
        return "wrong"
    return "partial"


def _is_binary(values) -> bool:
    return all(v in (0.0, 1.0) for v in values)


def item_weight(sample: Sample) -> float:
    """The item's weight in its task's primary mean: 1, or (reconstruction's pooled F1) the
    participant's F1 denominator 2TP + FP + FN (`metrics.primary_weight`)."""
    w = _number((sample.metrics or {}).get("primary_weight"))
    return 1.0 if w is None else w


def compare_runs(a: RunData, b: RunData, *, n_boot: int = 2000, seed: int = 0) -> dict:
    """B against A on the items both scored, per task and per suite: each task's primary mean
    (weighted as the task weighs its items) in A and B, B - A with a paired cluster bootstrap
    interval, won (B higher) / lost / tied counts, and McNemar's exact test when every paired
    score is 0 or 1; per suite, the one "overall" (evaluator.scoring.overall) of both runs on
    those items and its difference. `complete` says whether both runs finished the task."""
    from evaluator.scoring.overall import paired
    from evaluator.stats import mcnemar_exact, weighted_means_bootstrap

    rows: dict[str, dict] = {}
    pairs: dict[str, dict] = {}
    warnings = differences(a, b)
    for task in [t for t in a.samples if t in b.samples]:
        ra, rb = a.tasks.get(task), b.tasks.get(task)
        sa = {s.key: s for s in a.samples[task]}
        sb = {s.key: s for s in b.samples[task]}
        xs, ys, wa, wb, cs = [], [], [], [], []
        changed = [key for key, s in sa.items() if key in sb and s.item_fp and sb[key].item_fp
                   and s.item_fp != sb[key].item_fp]
        if changed:     # the same key, another question, references, history or media
            warnings.append(f"{task}: {len(changed)} paired item(s) were answered for different "
                            f"versions of the item (first: {changed[0]})")
        for key, s in sa.items():
            if key not in sb:
                continue
            x, y = item_primary(s, ra), item_primary(sb[key], rb)
            if x is None or y is None:
                continue
            xs.append(x)
            ys.append(y)
            wa.append(item_weight(s))
            wb.append(item_weight(sb[key]))
            cs.append(s.cluster if s.cluster is not None else key)
        if not xs:
            continue
        metric = ra.primary_metric if ra else None
        est = weighted_means_bootstrap([(xs, ys, wa, wb, cs, 1.0)], n_boot=n_boot, seed=seed)
        if est is None:
            continue
        rows[task] = {**est, **_won_lost(xs, ys, mcnemar_exact), "primary_metric": metric,
                      "complete": bool(ra and rb and ra.complete and rb.complete)}
        pairs[task] = {"a": xs, "b": ys, "wa": wa, "wb": wb, "clusters": cs, "metric": metric}
    overall = paired(pairs, n_boot=n_boot, seed=seed) or {}
    for entry in overall.values():
        # fewer tasks than the suite has is a partial overall, as report marks it
        entry["complete"] = entry["n_tasks"] == entry["of"] and all(
            rows[t]["complete"] for t in entry["tasks"])
    return {"a": {"label": a.label, "path": str(a.path)}, "b": {"label": b.label, "path": str(b.path)},
            "tasks": rows, "overall": overall, "warnings": warnings}


def _won_lost(xs, ys, mcnemar) -> dict:
    won = sum(1 for x, y in zip(xs, ys) if y > x)
    lost = sum(1 for x, y in zip(xs, ys) if y < x)
    row = {"won": won, "lost": lost, "tied": len(xs) - won - lost, "mcnemar": None}
    if _is_binary(xs) and _is_binary(ys):
        only_a = sum(1 for x, y in zip(xs, ys) if x == 1.0 and y == 0.0)
        only_b = sum(1 for x, y in zip(xs, ys) if x == 0.0 and y == 1.0)
        row["mcnemar"] = {"only_a": only_a, "only_b": only_b, "p": mcnemar(only_a, only_b)}
    return row


def differences(a: RunData, b: RunData) -> list[str]:
    """What makes the two runs not the same test: the scorer version, the data (fingerprint,
    task files), every answer-changing setting except the system being compared (agent, its
    source and arguments, model and its arguments), the judge, and seed / limit / conditions /
    detector."""
    out = []
    ca, cb = a.header.get("config") or {}, b.header.get("config") or {}
    va, vb = a.header.get("scorer_version"), b.header.get("scorer_version")
    if va != vb:
        out.append(f"scorer version differs: {va or 'not recorded'} vs {vb or 'not recorded'} "
                   "(the scoring rules, prompts or word lists changed; `br-eval score` both "
                   "runs with one br-eval to compare them)")
    for run in (a, b):
        mixed = sorted(n for n, r in run.tasks.items()
                       if len((r.metrics or {}).get("scorer_versions") or {}) > 1)
        if mixed:
            out.append(f"{run.label}: journal lines scored by several scorer versions in "
                       f"{', '.join(mixed)} (`br-eval score` re-scores them)")
    only_a, only_b = sorted(set(a.tasks) - set(b.tasks)), sorted(set(b.tasks) - set(a.tasks))
    if only_a or only_b:
        out.append("tasks differ: compared on the tasks both ran"
                   + (f"; only {a.label}: {', '.join(only_a)}" if only_a else "")
                   + (f"; only {b.label}: {', '.join(only_b)}" if only_b else ""))
    for run in (a, b):
        out.extend(foreign_warnings(run))
        for task, n in _edited_lines(run).items():
            out.append(f"{run.label}: {task}: {n} line(s) hold a reply other than the one their "
                       "scores were computed on (edited after scoring?); `br-eval score` "
                       "re-scores them")
    for task in [t for t in a.samples if t in b.samples]:
        # per task, from the lines themselves: a folder filled by several runs (other tasks,
        # `score` without the judge that graded some lines) keeps each line's own scorer and judge
        for what, of in (("scorer version", lambda s: s.scorer_version),
                         ("judge", lambda s: (s.judge or {}).get("id"))):
            sa, sb = _line_values(a.samples[task], of), _line_values(b.samples[task], of)
            if sa and sb and sa != sb:
                out.append(f"{task}: lines scored with {what} {', '.join(sorted(sa))} in "
                           f"{a.label}, {', '.join(sorted(sb))} in {b.label}")
    da, db = a.header.get("data") or {}, b.header.get("data") or {}
    if da.get("fingerprint") and db.get("fingerprint") and da["fingerprint"] != db["fingerprint"]:
        out.append(f"Beyond Recall data differ: {da.get('path')} ({da['fingerprint'][:12]}) vs "
                   f"{db.get('path')} ({db['fingerprint'][:12]})")
    ia, ib = ca.get("data_identity") or {}, cb.get("data_identity") or {}
    for k in sorted(set(ia) & set(ib)):
        if k != "data_fingerprint" and ia[k] and ib[k] and ia[k] != ib[k]:
            what = "RealCompanion data differ" if k == "rc_data" else f"data identity {k} differs"
            out.append(f"{what}: {_short(ia[k])} vs {_short(ib[k])}")
    if (ca.get("task_files") or None) != (cb.get("task_files") or None):
        out.append(f"task files differ: {_short(ca.get('task_files'))} vs "
                   f"{_short(cb.get('task_files'))}")
    ja = (ca.get("judge"), a.header.get("judge"))
    jb = (cb.get("judge"), b.header.get("judge"))
    if ja != jb:
        out.append(f"judge differs: {_short(ja[1] or ja[0])} vs {_short(jb[1] or jb[0])}")
    for k in sorted(set(a.settings) | set(b.settings)):
        if k in _SYSTEM:
            continue
        va, vb = a.settings.get(k), b.settings.get(k)
        if va != vb:
            out.append(f"{k} differs: {_short(va)} vs {_short(vb)}")
    for k in ("seed", "limit", "conditions", "detector"):
        if ca.get(k) != cb.get(k):
            out.append(f"{k} differs: {_short(ca.get(k))} vs {_short(cb.get(k))}")
    return out


def foreign_lines(run: RunData) -> dict[str, list[str]]:
    """Per task, the keys of lines answered under other answer-changing settings than the
    folder's results.json records (a line pasted from another run): `run`, `score` and `merge`
    refuse such a folder; `compare` and `view` say so (evaluator.context.RunSettings.digest)."""
    from evaluator.context import settings_digest

    settings = (run.header.get("config") or {}).get("settings")
    if not isinstance(settings, dict):
        return {}
    from evaluator.registry import any_uses_agent

    digest = settings_digest(settings)
    out = {}
    for task, samples in run.samples.items():
        if not any_uses_agent([task]):
            continue            # no answer-changing setting reaches its lines (AGENT_FREE_DIGEST)
        keys = [s.key for s in samples if s.settings_fp and s.settings_fp != digest]
        if keys:
            out[task] = keys
    return out


def foreign_warnings(run: RunData) -> list[str]:
    return [f"{run.label}: {task}: {len(keys)} line(s) were answered under other settings than "
            f"its results.json records (first: {keys[0]}); run, score and merge refuse this folder"
            for task, keys in foreign_lines(run).items()]


def _edited_lines(run: RunData) -> dict[str, int]:
    from evaluator.registry import TASKS
    from evaluator.task import edited_replies

    counts = {name: len(edited_replies(TASKS[name].load(), samples))
              for name, samples in run.samples.items() if name in TASKS}
    return {name: n for name, n in counts.items() if n}


def _line_values(samples: list[Sample], of) -> set[str]:
    """`of(line)` over a task's scored lines (an agent failure scored nothing), "none" for none."""
    return {str(of(s) or "none") for s in samples if not s.failed or s.error_kind == "judge"}


def _short(v) -> str:
    import json

    text = v if isinstance(v, str) else json.dumps(v, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."
