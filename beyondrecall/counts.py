"""A snapshot's counts (per task, totals, media referenced and distinct) compared with the dataset
card's tables (beyondrecall.card) and with benchmark/RELEASE_STATS.json, as notes for
`br-eval validate`. Differences are notes, never errors: the card may be updated before br-eval
is, and RELEASE_STATS.json's schema is not published (every count br-eval recognises in it is
compared).
"""

from __future__ import annotations

import json
from pathlib import Path

from beyondrecall.card import MEDIA_DISTINCT, MEDIA_REFERENCED, TASKS, TOTALS
from beyondrecall.files import media_kind
from beyondrecall.loader import task_name_for_stem
from beyondrecall.paths import snapshot_roots
from beyondrecall.sums import BENCH_LIST, read_sums

_TOTAL_NAMES = {
    "tasks": ("tasks", "num_tasks", "n_tasks", "task_count"),
    "trajectories": ("trajectories", "conversation_trajectories", "num_trajectories",
                     "n_trajectories", "trajectory_count", "records"),
    "questions": ("questions", "qa_pairs", "question_answer_pairs", "num_questions",
                  "n_questions", "question_count", "qa"),
    "sessions": ("sessions", "timestamped_sessions", "num_sessions", "n_sessions"),
    "turns": ("turns", "dialogue_turns", "num_turns", "n_turns"),
    "questions_with_cutoff": ("questions_with_cutoff", "questions_with_explicit_cutoff_timestamps",
                              "cutoff_questions", "explicit_cutoffs"),
}
_NAME_OF = {alias: name for name, aliases in _TOTAL_NAMES.items() for alias in aliases}
_KINDS = {"image": "image", "images": "image", "pdf": "pdf", "pdfs": "pdf", "video": "video",
          "videos": "video"}


def _norm(key: str) -> str:
    return task_name_for_stem(str(key))


def snapshot_counts(snapshot: Path, tasks) -> dict:
    """Counts of the loaded tasks: per task, totals, media referenced and distinct content (the
    latter from benchmark/SHA256SUMS's hashes, so nothing is read; None without the list)."""
    per_task = {t.name: (len(t.trajectories), t.n_questions) for t in tasks}
    totals = {"tasks": len(tasks),
              "trajectories": sum(v[0] for v in per_task.values()),
              "questions": sum(v[1] for v in per_task.values()),
              "sessions": sum(len(tr.sessions) for t in tasks for tr in t.trajectories),
              "turns": sum(tr.n_turns for t in tasks for tr in t.trajectories),
              "questions_with_cutoff": sum(q.timestamp is not None
                                           for t in tasks for _, q in t.questions())}
    referenced: dict[str, set[str]] = {"image": set(), "pdf": set(), "video": set()}
    for t in tasks:
        for p in t.media_paths():
            kind = media_kind(p)
            if kind:
                referenced[kind].add(p)
    distinct = None
    sums = Path(snapshot) / BENCH_LIST
    if sums.is_file():
        try:
            entries, _ = read_sums(sums, BENCH_LIST, "", roots=snapshot_roots(Path(snapshot)))
        except OSError:
            entries = []
        digest = {e.target: e.digest for e in entries}
        distinct = {k: len({digest.get(p, "path:" + p) for p in paths})
                    for k, paths in referenced.items()}
    return {"tasks": per_task, "totals": totals,
            "media_referenced": {k: len(v) for k, v in referenced.items()},
            "media_distinct": distinct}


def card_notes(counts: dict, *, all_tasks: bool, is_sample: bool) -> list[str]:
    """Differences between the snapshot's counts and the card's tables."""
    if is_sample:
        return ["generated sample snapshot: its counts are not compared with the card's tables"]
    notes = []
    for task, (n_traj, n_q) in counts["tasks"].items():
        want = (TASKS[task].trajectories, TASKS[task].questions)
        if (n_traj, n_q) != want:
            notes.append(f"{task}: {n_traj} trajectories and {n_q} QA pairs; the card's table "
                         f"says {want[0]} and {want[1]}")
    if all_tasks:
        for name, want in TOTALS.items():
            got = counts["totals"][name]
            if got != want:
                notes.append(f"{name}: {got} in the snapshot; the card says {want:,}")
        for label, table, got_table in (
                ("referenced files", MEDIA_REFERENCED, counts["media_referenced"]),
                ("distinct contents", MEDIA_DISTINCT, counts["media_distinct"])):
            if got_table is None:
                continue
            for kind, want in table.items():
                if got_table[kind] != want:
                    notes.append(f"{kind} {label}: {got_table[kind]} in the snapshot; the card "
                                 f"says {want:,}")
    return notes


def _numbers(obj, path=(), depth=0):
    if depth > 8:
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _numbers(v, path + (str(k),), depth + 1)
    elif isinstance(obj, int) and not isinstance(obj, bool):
        yield path, obj


def release_stats_notes(snapshot: Path, counts: dict, *, all_tasks: bool) -> list[str]:
    """Differences between the snapshot's counts and benchmark/RELEASE_STATS.json, for every
    count br-eval can recognise in it (its schema is not published)."""
    f = Path(snapshot) / "benchmark" / "RELEASE_STATS.json"
    if not f.is_file():
        return ["benchmark/RELEASE_STATS.json is absent; counts not compared with it"]
    try:
        stats = json.loads(f.read_bytes())
    except (ValueError, RecursionError):
        return ["benchmark/RELEASE_STATS.json is not readable JSON; counts not compared with it"]
    notes: list[str] = []
    compared = 0
    for path, value in _numbers(stats):
        last = _norm(path[-1])
        task = next((_norm(p) for p in path[:-1] if _norm(p) in TASKS), None)
        kind = next((_KINDS[_norm(p)] for p in path if _norm(p) in _KINDS), None)
        if task is not None:
            name = _NAME_OF.get(last)
            if name in ("trajectories", "questions") and task in counts["tasks"]:
                got = counts["tasks"][task][0 if name == "trajectories" else 1]
                compared += 1
                if got != value:
                    notes.append(f"{task}: {got} {name} in the snapshot; RELEASE_STATS.json "
                                 f"says {value}")
        elif kind is not None:
            if "distinct" in last or "unique" in last:
                got, what = (counts["media_distinct"] or {}).get(kind), "distinct contents"
            elif "referenc" in last or last in ("files", "paths", "count"):
                got, what = counts["media_referenced"][kind], "referenced files"
            else:
                got, what = None, "source count"
            compared += 1
            if got is None:
                notes.append(f"RELEASE_STATS.json {'/'.join(path)} = {value} ({kind} {what}; the "
                             f"card says construction-reported source counts are not "
                             f"current-file counts); the snapshot references "
                             f"{counts['media_referenced'][kind]} {kind} files")
            elif got != value:
                notes.append(f"{kind} {what}: {got} in the snapshot; RELEASE_STATS.json "
                             f"({'/'.join(path)}) says {value}")
        elif len(path) == 1 and _NAME_OF.get(last) and all_tasks:
            name = _NAME_OF[last]
            compared += 1
            if counts["totals"][name] != value:
                notes.append(f"{name}: {counts['totals'][name]} in the snapshot; "
                             f"RELEASE_STATS.json says {value}")
    if not compared:
        notes.append("benchmark/RELEASE_STATS.json holds no counts br-eval recognises; not compared")
    return notes


__all__ = ["snapshot_counts", "card_notes", "release_stats_notes"]
