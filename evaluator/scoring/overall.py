""""Overall": one definition, which `report`, `compare`, `view` and results.json all print.

Per suite, never pooled across suites (their metrics differ): a suite's overall is the
unweighted mean, over the suite's tasks that the run scored, of each task's primary mean, on a
0-1 scale.

- beyondrecall: its 11 tasks, each on its own primary metric (token F1, ROUGE-L, refusal-aware
  accuracy, multiple-choice accuracy or the judge's 0/0.5/1; a task mixing them on the mean of
  its questions' own primary scores). Each task counts once, whatever its number of questions.
- realcompanion: the agent's three tracks (chat, question, reconstruction). The retrieval task is
  left out: it measures the release's retrieval baselines, not the agent. Chat's judged content
  match (0-2) enters halved; every other primary metric is already on 0-1.

Each suite's entry says how many of its tasks it averages (`n_tasks` of `of`, named in `tasks`)
and whether each of them is complete (`complete`); `br-eval report` marks a partial one.
`compare` computes the same aggregate on the items both runs scored (`paired`), so when two runs
scored the same items its A and B columns equal each run's own overall.
"""

from __future__ import annotations

from beyondrecall.records import DIMENSIONS, TASK_DIMENSION

SUITE_TASKS: dict[str, tuple[str, ...]] = {
    "beyondrecall": tuple(TASK_DIMENSION),
    "realcompanion": ("realcompanion/chat", "realcompanion/question",
                      "realcompanion/reconstruction"),
}
LEFT_OUT = {"realcompanion/retrieval": "computed from the release without the agent"}
SCALE = {"content_match": 2.0}          # primary metrics not on 0-1: their maximum


def _field(entry, name):
    return entry.get(name) if isinstance(entry, dict) else getattr(entry, name, None)


def scale(metric: str | None) -> float:
    return SCALE.get(metric or "", 1.0)


def task_mean(entry) -> float | None:
    """A task's primary mean on 0-1 (a results.json entry or a TaskResult), None if unscored."""
    primary = _field(entry, "primary")
    if not isinstance(primary, dict) or primary.get("mean") is None:
        return None
    return float(primary["mean"]) / scale(_field(entry, "primary_metric"))


def _complete(entry) -> bool:
    value = _field(entry, "complete")
    return bool(value) if value is not None else True


def _mean_of(entries: dict, names) -> dict | None:
    values = {n: task_mean(entries[n]) for n in names if n in entries}
    values = {n: v for n, v in values.items() if v is not None}
    if not values:
        return None
    return {"mean": sum(values.values()) / len(values), "n_tasks": len(values),
            "of": len(names), "tasks": sorted(values),
            "complete": len(values) == len(names) and all(_complete(entries[n]) for n in values)}


def _means(entries: dict, groups: dict) -> dict[str, dict]:
    """{group: _mean_of its tasks} for each group of `groups` ({name: task names}) the run scored."""
    means = {group: _mean_of(entries, names) for group, names in groups.items()}
    return {group: value for group, value in means.items() if value is not None}


def overall(entries: dict) -> dict[str, dict]:
    """{suite: {mean, n_tasks, of, tasks, complete}} for each suite the run scored: the one
    "overall" (module docstring). `entries`: task name -> results.json entry or TaskResult."""
    return _means(entries, SUITE_TASKS)


def dimension_means(entries: dict) -> dict[str, dict]:
    """The same mean over each Beyond Recall dimension's tasks: {dimension: {mean, n_tasks, of,
    tasks, complete}} for the dimensions the run scored."""
    return _means(entries, DIMENSIONS)


def suite_of(task: str) -> str | None:
    for suite, names in SUITE_TASKS.items():
        if task in names:
            return suite
    return None


def paired(tasks: dict[str, dict], *, n_boot: int = 2000, seed: int = 0) -> dict | None:
    """The overall of two runs on the items both scored, and B - A with a 95% interval.

    `tasks`: task name -> {"a": [...], "b": [...], "wa": [...], "wb": [...], "clusters": [...],
    "metric": primary metric} holding, per paired item, each run's primary score, the item's
    weight in each run's task mean (1, or a participant's F1 denominator for reconstruction's
    pooled F1) and its cluster. Per suite: {mean_a, mean_b, n_tasks, tasks, n, diff: {mean, ci95, n,
    n_clusters}}. The interval resamples the suite's clusters jointly (a participant's items in
    every track together) through `evaluator.stats.resamples`, recomputing each task's mean."""
    from evaluator.stats import weighted_means_bootstrap

    out = {}
    for suite, names in SUITE_TASKS.items():
        chosen = {n: tasks[n] for n in names if n in tasks and tasks[n]["a"]}
        if not chosen:
            continue
        groups = [(t["a"], t["b"], t["wa"], t["wb"], [c if suite == "realcompanion" else f"{n}/{c}"
                                             for c in t["clusters"]], scale(t.get("metric")))
                  for n, t in chosen.items()]
        est = weighted_means_bootstrap(groups, n_boot=n_boot, seed=seed)
        if est is None:
            continue
        out[suite] = {"n_tasks": len(chosen), "of": len(names), "tasks": sorted(chosen), **est}
    return out or None
