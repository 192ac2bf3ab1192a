"""Flags and helpers shared by several subcommands (stdlib only at module level)."""

from __future__ import annotations

import argparse


def add_data_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", metavar="DIR", default=None,
                        help="Beyond Recall snapshot folder (default: $BR_EVAL_DATA, the download "
                             "folder, else the generated sample)")
    parser.add_argument("--task-file", "--task_file", dest="task_file", action="append",
                        default=None, metavar="TASK=PATH",
                        help="read TASK from PATH instead of the file found in the snapshot "
                             "(repeatable)")


def add_rc_args(parser: argparse.ArgumentParser) -> None:
    """`--rc-data` and `--rc-adapter`, for every command that reads RealCompanion data; both find
    the folder the one way (evaluator.realcompanion.data.rc_data_dir)."""
    parser.add_argument("--rc-data", "--rc_data", dest="rc_data", default=None, metavar="DIR",
                        help="RealCompanion folder (default: $BR_EVAL_RC_DATA, the download "
                             "folder, else the generated sample)")
    parser.add_argument("--rc-adapter", "--rc_adapter", dest="rc_adapter", default=None,
                        metavar="MODULE:FUNCTION",
                        help="read the RealCompanion folder (--rc-data, $BR_EVAL_RC_DATA or the "
                             "download folder) with your own function (a shape br-eval does not "
                             "read): function(path) -> {participant: {kind: rows}}")


def task_files_of(args) -> dict | None:
    """`--task-file TASK=PATH` values as {task: Path} for the loader's `task_files=` (None when
    not given). Raises DataError on a malformed value or an unknown task."""
    values = getattr(args, "task_file", None)
    if not values:
        return None
    from beyondrecall.loader import parse_task_file_args

    return parse_task_file_args(values)


def add_lenient_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lenient-time", "--lenient_time", dest="lenient_time",
                        action="store_true",
                        help="fall back to dateparser for timestamps in none of the card's formats")


def add_alias(parser: argparse.ArgumentParser, name: str, **kwargs) -> None:
    """`--output_path` with its hyphenated alias `--output-path`, lm-eval-harness style."""
    flags = [f"--{name}"]
    if "_" in name:
        flags.append("--" + name.replace("_", "-"))
    parser.add_argument(*flags, dest=name, **kwargs)


def add_unanswerable_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--unanswerable", default=None, metavar="gold-text|FILE",
                        help="which questions are unanswerable: gold-text (default: every "
                             "reference answer reads as a refusal) or a FILE of question keys "
                             "(JSON list, or one key per line)")


def merged(run_dir, *, quiet: bool = True):
    """`run_dir`, its shards joined first when they are newer than its results.json, so
    `report`, `view` and `compare` read the folder's current numbers (`quiet=False` prints the
    missing or partial shards)."""
    import sys

    from evaluator.errors import EvalError
    from evaluator.evaluate import merge, needs_merge
    from evaluator.runlock import RunLock

    if needs_merge(run_dir):
        try:            # a shard still running, or a read-only copy: read what the folder holds
            RunLock(run_dir, None, "merge").acquire().release()
        except EvalError as exc:
            print(f"br-eval: warning: {run_dir}: its shards are newer than results.json and cannot "
                  f"be joined now ({exc}); showing results.json as it was written",
                  file=sys.stderr)
            return run_dir
        merge(run_dir, quiet=quiet)
    return run_dir


def pending_judge_line(results, run_dir) -> str | None:
    """The one line for items a judge graded in part of a task and never graded in the rest."""
    pending = {name: r.n_judge_pending for name, r in results.tasks.items() if r.n_judge_pending}
    if not pending:
        return None
    where = ", ".join(f"{name} {n}" for name, n in pending.items())
    return (f"br-eval: {sum(pending.values())} answered item(s) await the judge that graded the "
            f"rest of their task ({where}): they are not scored, and the task is incomplete; "
            f"`br-eval score {run_dir} --judge ... --judge_args ...` grades them")
