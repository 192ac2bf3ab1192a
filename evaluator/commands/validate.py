"""`br-eval validate`: check every task file and list every problem."""

from __future__ import annotations

import sys

from evaluator.commands._common import add_data_arg, add_lenient_arg


def add_arguments(parser) -> None:
    add_data_arg(parser)
    add_lenient_arg(parser)
    parser.add_argument("--tasks", "--task", nargs="*", default=None,
                        help="only these tasks or dimensions (default: all 11)")


def main(args) -> int:
    from beyondrecall import resolve_data_dir, validate_snapshot

    snapshot = resolve_data_dir(args.data)
    names = None
    if args.tasks:
        names = [p for raw in args.tasks for p in raw.split(",") if p.strip()]
    tasks, problems = validate_snapshot(snapshot, names, lenient=args.lenient_time)
    for p in problems:
        print(p)
    n_traj = sum(len(t.trajectories) for t in tasks)
    n_q = sum(t.n_questions for t in tasks)
    n_turns = sum(tr.n_turns for t in tasks for tr in t.trajectories)
    status = "no problems" if not problems else f"{len(problems)} problem(s)"
    print(f"validated {len(tasks)} task file(s), {n_traj} trajectories, {n_q} questions, "
          f"{n_turns} turns: {status}", file=sys.stderr if problems else sys.stdout)
    return 1 if problems else 0
