"""`br-eval ls`: the tasks with their sizes for the data in use."""

from __future__ import annotations

import json
import sys

from evaluator.commands._common import add_data_arg, add_rc_args


def add_arguments(parser) -> None:
    add_data_arg(parser)
    add_rc_args(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")


def _beyondrecall_rows(snapshot) -> list[dict]:
    from beyondrecall.loader import find_task_files, read_task_json
    from beyondrecall.records import TASK_DIMENSION, TASK_NAMES

    files = find_task_files(snapshot)
    rows = []
    for name in TASK_NAMES:
        row = {"task": name, "group": TASK_DIMENSION[name], "suite": "beyondrecall"}
        path = files.get(name)
        if path is None:
            row.update(units="questions", count=None, trajectories=None, note="missing")
        else:
            # Counting needs no typed records: a plain parse (by the loader's rules) is enough.
            data, _ = read_task_json(path)
            n_q = sum(len(t.get("questions") or []) for t in data if isinstance(t, dict))
            row.update(units="questions", count=n_q, trajectories=len(data))
        rows.append(row)
    return rows


def _realcompanion_rows(rc_data) -> list[dict]:
    from evaluator.registry import SUITE_COUNTERS, TASKS

    names = [n for n, s in TASKS.items() if s.suite == "realcompanion"]
    module, _, fn = SUITE_COUNTERS["realcompanion"].partition(":")
    try:
        import importlib

        counts = getattr(importlib.import_module(module), fn)
    except ImportError:
        return [{"task": n, "group": "realcompanion", "suite": "realcompanion", "units": "-",
                 "count": None, "note": "not available in this build"} for n in names]
    found = counts(rc_data)
    rows = []
    for n in names:
        c = found.get(n, {})
        rows.append({"task": n, "group": "realcompanion", "suite": "realcompanion",
                     "units": c.get("units", "-"), "count": c.get("count"),
                     "participants": c.get("participants"), **({"note": c["note"]}
                                                               if c.get("note") else {}),
                     "data": found.get("_data")})
    return rows


def main(args) -> int:
    from beyondrecall.identity import snapshot_info

    from evaluator.datasets import data_dir

    rc_data = args.rc_data
    if args.rc_adapter:        # first, so its line naming the folder it read comes first
        from evaluator.realcompanion.adapter import adapted_data_dir

        rc_data = adapted_data_dir(args.rc_data, args.rc_adapter)
    snapshot = data_dir("beyondrecall", args.data)
    info = snapshot_info(snapshot)
    rows = _beyondrecall_rows(snapshot) + _realcompanion_rows(rc_data)
    if args.json:
        print(json.dumps({"data": str(snapshot), "data_version": info.data_version,
                          "is_sample": info.is_sample, "tasks": rows}, indent=2))
        return 0
    label = " (generated sample)" if info.is_sample else ""
    print(f"data: {snapshot}{label}, data version {info.data_version or 'unknown'}")
    rc = next((r.get("data") for r in rows if r.get("data")), None)
    if rc:
        print(f"RealCompanion data: {rc['path']}"
              + (" (generated sample: pass --rc-data for the release)" if rc["is_sample"] else ""))
    for r in rows:
        r.pop("data", None)
    width = max(len(r["task"]) for r in rows)
    print(f"{'task':<{width}}  {'group':<14} {'trajectories':>12} {'count':>7}  units")
    total_q = 0
    for r in rows:
        count = "-" if r.get("count") is None else str(r["count"])
        trajs = r.get("trajectories", r.get("participants"))
        trajs = "-" if trajs is None else str(trajs)
        print(f"{r['task']:<{width}}  {r['group']:<14} {trajs:>12} {count:>7}  {r['units']}"
              + (f"  ({r['note']})" if r.get("note") else ""))
        if r["suite"] == "beyondrecall" and r.get("count"):
            total_q += r["count"]
    print(f"Beyond Recall: {total_q} questions in 11 tasks; RealCompanion columns count "
          f"participants and track units", file=sys.stdout)
    return 0
