"""`br-eval validate`: check every task file and list every problem, then notes.

Problems (one line each, exit 1) stop a run; notes (`note: ...` lines, exit 0) do not: JSON files
that are no task's, the inventory fingerprint against the card's, and counts against the card's
tables and benchmark/RELEASE_STATS.json. Then, per task, how many questions the unanswerable
rule (`--unanswerable`, evaluator.scoring.unanswerable) classes as unanswerable, and how many
questions list options but have a reference answer that is no option letter under the strict
reading (`multiple choice:`, with a `warning:` line when there are any: they are scored as open
answers; evaluator.scoring.tasks.gold_unread).
"""

from __future__ import annotations

import sys

from evaluator.commands._common import (add_data_arg, add_lenient_arg, add_unanswerable_arg,
                                        task_files_of)


def add_arguments(parser) -> None:
    add_data_arg(parser)
    add_lenient_arg(parser)
    add_unanswerable_arg(parser)
    parser.add_argument("--tasks", "--task", nargs="*", default=None,
                        help="only these tasks or dimensions (default: all 11)")


def main(args) -> int:
    from beyondrecall.counts import card_notes, release_stats_notes, snapshot_counts
    from beyondrecall.files import printable
    from beyondrecall.identity import fingerprint_note, snapshot_info
    from beyondrecall.loader import check_snapshot

    from evaluator.datasets import data_dir
    from evaluator.scoring.tasks import gold_unread_count, gold_unread_warning
    from evaluator.scoring.unanswerable import rule as read_unanswerable

    rule = read_unanswerable(args.unanswerable)
    snapshot = data_dir("beyondrecall", args.data)
    names = None
    if args.tasks:
        names = [p for raw in args.tasks for p in raw.split(",") if p.strip()]
    task_files = task_files_of(args)
    v = check_snapshot(snapshot, names, lenient=args.lenient_time, task_files=task_files)
    tasks, problems = v.tasks, list(v.problems)
    for t in tasks:
        unknown = rule.unknown_keys(t.name, (q.key for _, q in t.questions()))
        problems += [f"--unanswerable {rule.file}: {k} names no question of {t.name}"
                     for k in unknown]
    for p in problems:
        print(printable(p))
    info = snapshot_info(snapshot, task_files=task_files)
    notes = list(v.notes) + [fingerprint_note(info)]
    if tasks:
        counts = snapshot_counts(snapshot, tasks)
        all_tasks = len(tasks) == 11
        notes += card_notes(counts, all_tasks=all_tasks, is_sample=info.is_sample)
        notes += release_stats_notes(snapshot, counts, all_tasks=all_tasks)
    for n in notes:
        print(f"note: {printable(n)}")
    if tasks:
        print(f"unanswerable rule: {rule.name} ({rule.describe()['definition']})")
    for t in tasks:
        n = sum(1 for _, q in t.questions() if rule.classify(str(q.key), q.answer, q.question or ""))
        print(f"unanswerable: {t.name}: {n} of {t.n_questions} question(s)")
    for t in tasks:
        counted = gold_unread_count((str(q.key), q.question, q.answer) for _, q in t.questions())
        print(f"multiple choice: {t.name}: {counted[0]} question(s) list options, {counted[1]} "
              "with a reference answer that is no option letter")
        line = gold_unread_warning(t.name, counted)
        if line:
            print(f"warning: {line}")
    n_traj = sum(len(t.trajectories) for t in tasks)
    n_q = sum(t.n_questions for t in tasks)
    n_turns = sum(tr.n_turns for t in tasks for tr in t.trajectories)
    status = "no problems" if not problems else f"{len(problems)} problem(s)"
    print(f"validated {len(tasks)} task file(s), {n_traj} trajectories, {n_q} questions, "
          f"{n_turns} turns: {status}", file=sys.stderr if problems else sys.stdout)
    return 1 if problems else 0
