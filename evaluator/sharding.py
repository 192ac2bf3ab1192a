"""Sharded runs: `br-eval run --shard I/N` (or `--shards N` with the index from the scheduler)
runs a deterministic part of every task's items into a shared folder; `br-eval merge RUN_DIR`
aggregates all shards into the results.json an unsharded run would write (`merge` in
evaluator/evaluate.py: it is the loop's aggregation over the shards' journals, so it lives with
the loop; this module only assigns items to shards and imports nothing of the loop).

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

from evaluator.errors import UsageError


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
