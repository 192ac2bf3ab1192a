"""Sharded runs: `br-eval run --shard I/N` (or `--shards N` with the index from the scheduler)
runs a deterministic part of every task's items into a shared folder; `br-eval merge RUN_DIR`
aggregates all shards into the results.json an unsharded run would write.

Assignment: whole clusters (trajectories, participants), so cluster intervals stay right. For
each task, its clusters are taken largest first (ties by cluster id) and each goes to the shard
holding the fewest items so far (ties to the lowest index): deterministic from the items alone,
balanced by items even when a task has few clusters (RealCompanion: ten participants). The
assignment is computed over all the task's items, before `--limit`, so shards with `--limit K`
together do exactly the first K items. Indices are 0-based: `--shard 0/3`, `1/3`, `2/3`.

Index from the environment with `--shards N`: Slurm arrays (SLURM_ARRAY_TASK_ID minus
SLURM_ARRAY_TASK_MIN, so `--array=1-3` works too; SLURM_ARRAY_TASK_COUNT must agree with N when
set), Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX).
"""

from __future__ import annotations

import os
from pathlib import Path

from evaluator.errors import EvalError, UsageError


def parse_shard(spec: str | None = None, shards: int | None = None,
                environ: dict | None = None) -> tuple[int, int] | None:
    """(I, N) from `--shard I/N`, or from `--shards N` and the scheduler's environment."""
    env = os.environ if environ is None else environ
    if spec is not None:
        if shards is not None:
            raise UsageError("give --shard I/N or --shards N, not both")
        try:
            i_text, n_text = str(spec).split("/")
            index, count = int(i_text), int(n_text)
        except ValueError:
            raise UsageError(f"--shard: expected I/N with 0 <= I < N (e.g. 0/3), got {spec!r}") from None
        return _checked(index, count, "--shard")
    if shards is None:
        return None
    if "SLURM_ARRAY_TASK_ID" in env:
        try:
            index = int(env["SLURM_ARRAY_TASK_ID"]) - int(env.get("SLURM_ARRAY_TASK_MIN", 0))
            count = int(env.get("SLURM_ARRAY_TASK_COUNT", shards))
        except ValueError:
            raise UsageError("--shards: SLURM_ARRAY_TASK_ID/_MIN/_COUNT are not integers") from None
        if count != shards:
            raise UsageError(f"--shards {shards} but SLURM_ARRAY_TASK_COUNT is {count}: "
                             f"submit with --array=0-{shards - 1}")
        return _checked(index, shards, "SLURM_ARRAY_TASK_ID")
    if "JOB_COMPLETION_INDEX" in env:
        try:
            index = int(env["JOB_COMPLETION_INDEX"])
        except ValueError:
            raise UsageError("--shards: JOB_COMPLETION_INDEX is not an integer") from None
        return _checked(index, shards, "JOB_COMPLETION_INDEX")
    raise UsageError("--shards N needs the shard index: run under a Slurm array "
                     "(SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), "
                     "or pass --shard I/N")


def _checked(index: int, count: int, what: str) -> tuple[int, int]:
    if count < 1 or not 0 <= index < count:
        raise UsageError(f"{what}: shard index {index} is not in 0..{count - 1} (0-based, N={count})")
    return index, count


def assign(items: list, count: int) -> dict[str, int]:
    """{cluster: shard index} for `items` (anything with .cluster), balanced by item count."""
    sizes: dict[str, int] = {}
    for it in items:
        c = str(it.cluster)
        sizes[c] = sizes.get(c, 0) + 1
    load = [0] * count
    out = {}
    for cluster in sorted(sizes, key=lambda c: (-sizes[c], c)):
        target = min(range(count), key=lambda i: (load[i], i))
        out[cluster] = target
        load[target] += sizes[cluster]
    return out


def shard_filter(items: list, shard: tuple[int, int] | None) -> set[str] | None:
    """The clusters of `items` that shard (I, N) owns; None when not sharded."""
    if shard is None:
        return None
    index, count = shard
    return {c for c, i in assign(items, count).items() if i == index}


# -- merge ---------------------------------------------------------------------------------------
def merge(run_path, *, progress: bool | None = None, quiet: bool = False) -> tuple[dict, list[str]]:
    """Aggregate every shard's journal of a sharded folder into results.json (the same
    Task.aggregate an unsharded run uses, over the union of the shards' lines). Returns the
    written results and the problems found (missing shard parts, shards with items not done),
    each one line; the problems are also printed unless `quiet`."""
    from evaluator.results import RunDir
    from evaluator.runlock import RunLock

    run_dir = RunDir(run_path, create=False)
    with RunLock(run_path, None, "merge"):
        return _merge(run_dir, quiet, progress)


def _merge(run_dir, quiet: bool, progress) -> tuple[dict, list[str]]:
    import sys

    from evaluator.context import RunContext, RunSettings
    from evaluator.evaluate import (_Plan, _check_resumable, _show, aggregate_task,
                                    check_answers_match, folder_headers)
    from evaluator.registry import TASKS
    from evaluator.results import RunDir, write_json

    run_path = run_dir.path
    parts = run_dir.result_parts()
    if not parts:
        raise EvalError(f"{run_path}: no shard results (results.shard-I-of-N.json); "
                        "nothing to merge")
    counts = sorted({n for _, n in parts})
    if len(counts) > 1:
        raise EvalError(f"{run_path}: shard parts of different shard counts ({', '.join(map(str, counts))}); "
                        "keep one sharding per folder")
    count = counts[0]
    headers = {i: RunDir(run_path, (i, count), create=False).read_results() for i, _ in parts}
    first = headers[min(headers)]
    for i, h in headers.items():
        for k in ("config", "data"):
            if {kk: vv for kk, vv in (h.get(k) or {}).items()} != (first.get(k) or {}):
                raise EvalError(f"{run_path}: shard {i}/{count} ran with other {k} than shard "
                                f"{min(headers)}/{count}; they cannot be merged")
    problems = [f"shard {i}/{count}: missing (no results.shard-{i}-of-{count}.json)"
                for i in range(count) if (i, count) not in parts]
    config = first.get("config", {})
    settings = RunSettings.from_config(config, (first.get("data") or {}).get("path"))
    # An earlier unsharded run in the folder (results.json) must have had the shards' settings.
    for where, header in folder_headers(run_dir):
        _check_resumable(run_path, header, settings.answer(), {}, {}, where)
    names = [t for t in config.get("tasks", []) if t in TASKS]
    data = settings.data
    if any(TASKS[t].suite == "beyondrecall" for t in names) and not (data and Path(data).exists()):
        raise EvalError(f"{run_path}: the run's Beyond Recall data ({data}) is not there")
    ctx = RunContext(settings=settings, run_dir=run_dir, show_progress=_show(progress))
    results = {}
    for name in names:
        task = TASKS[name].load()
        task.prepare(ctx)
        plan = _Plan.existing(ctx, task, lambda items: items if ctx.limit is None
                              else items[:ctx.limit])
        latest_lines = run_dir.latest_samples(name)
        # every journal line joined (the shards' and any unsharded one) must answer this
        # run's settings and the items as they are now
        check_answers_match(ctx, task, plan.by_key,
                            [s for s in latest_lines if s.solved and s.key in plan.by_key])
        owner = assign(plan.all_items, count)
        latest = {s.key: s for s in latest_lines}
        for i in range(count):
            if (i, count) not in parts:
                continue
            mine = [it for it in plan.items if owner[str(it.cluster)] == i]
            done = sum(1 for it in mine if it.key in latest and not latest[it.key].failed)
            if done < len(mine):
                problems.append(f"shard {i}/{count}: {name}: {done} of {len(mine)} "
                                f"{task.unit}s done (partial: rerun that shard)")
        results[name] = aggregate_task(ctx, plan).to_json()
    run_dir.close()
    from evaluator.scoring.overall import overall

    header = {k: v for k, v in first.items() if k not in ("results", "shard", "overall")}
    out = {**header, "results": results, "overall": overall(results)}
    if problems:
        out["merge_problems"] = problems
    write_json(run_dir.results_path, out)
    if not quiet:
        for p in problems:
            print(f"br-eval: merge: {p}", file=sys.stderr)
    return out, problems


def needs_merge(run_path) -> bool:
    """A sharded folder whose results.json is missing or older than a shard's part."""
    from evaluator.results import RunDir

    run_dir = RunDir(run_path, create=False)
    parts = run_dir.result_parts()
    if not parts:
        return False
    if not run_dir.results_path.exists():
        return True
    at = run_dir.results_path.stat().st_mtime
    return any(p.stat().st_mtime > at for p in parts.values())
