"""The `br-eval` command line.

Each subcommand lives in `evaluator/commands/<name>.py` with two functions,
`add_arguments(parser)` and `main(args) -> int`. Command modules import only the standard
library at module level (heavy libraries inside functions), so building the parser stays cheap
and `br-eval ls` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys

# name -> (module, one-line help). `run` is the default subcommand.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("evaluator.commands.run", "run an agent on tasks and score it (the default)"),
    "ls": ("evaluator.commands.ls", "list the tasks with their sizes"),
    "show": ("evaluator.commands.show", "print what a question's agent would see"),
    "validate": ("evaluator.commands.validate", "check every task file against the dataset card"),
    "download": ("evaluator.commands.download", "download the benchmark from the Hugging Face Hub"),
    "verify": ("evaluator.commands.verify", "verify every file against the SHA256SUMS lists"),
    "prepare": ("evaluator.commands.prepare", "turn the tasks' media into cached model inputs"),
    "cache": ("evaluator.commands.cache", "inspect or prune the media cache"),
    "score": ("evaluator.commands.score", "re-score a finished run without calling the agent"),
    "merge": ("evaluator.commands.merge", "join the shards of a sharded run into results.json"),
    "report": ("evaluator.commands.report", "print a finished run's results as a table"),
    "view": ("evaluator.commands.view", "write one offline HTML report of finished runs"),
    "compare": ("evaluator.commands.compare", "paired differences between two finished runs"),
    "calibrate-judge": ("evaluator.commands.calibrate_judge", "measure a judge's false-accept and false-reject rates"),
}


def _load(name: str):
    return importlib.import_module(COMMANDS[name][0])


class Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line: the error, a "did you mean" when a flag, a
    choice or a command is close to a known one, and where the help is (exit 2, as argparse)."""

    def error(self, message: str):
        from evaluator.errors import did_you_mean

        hint = ""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice:
            hint = did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        elif message.startswith("unrecognized arguments: "):
            words = message.split(": ", 1)[1].split()
            flags = [w.split("=", 1)[0] for w in words if w.startswith("--")]
            hint = did_you_mean(flags[0], self._flags()) if flags else ""
        # unrecognized arguments are found by the top parser, for the chosen subcommand
        where = f"br-eval {self.command}" if getattr(self, "command", None) else self.prog
        self.exit(2, f"{self.prog}: error: {message}{hint} (see {where} --help)\n")

    def _flags(self) -> list[str]:
        """Every option string of this parser and of its subcommands' parsers."""
        flags = []
        for action in self._actions:
            flags += [f for f in action.option_strings if f.startswith("--")]
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    flags += sub._flags()
        return flags


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    from evaluator import __version__

    parser = Parser(
        prog="br-eval",
        description="Evaluate agent memory on Beyond Recall and RealCompanion. "
        "`br-eval --task X` is short for `br-eval run --task X`.",
    )
    parser.add_argument("--version", action="version", version=f"br-eval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        # Only the chosen subcommand's module is imported: the others get a bare parser.
        if only is None or only == name:
            try:
                _load(name).add_arguments(sp)
            except ModuleNotFoundError as exc:
                if exc.name != COMMANDS[name][0]:
                    raise
    parser.command = only if only in COMMANDS else None
    return parser


def _report_error(exc: BaseException) -> int:
    from evaluator.errors import redact_url

    message = " ".join(str(exc).split()) or exc.__class__.__name__
    print(f"br-eval: error: {redact_url(message)}", file=sys.stderr)
    return int(getattr(exc, "exit_code", 1) or 1)


def main(argv: list[str] | None = None) -> int:
    """Run one command. Everything it prints goes through `evaluator.errors.TerminalStream`, so
    control characters from servers and data reach the terminal escaped."""
    from evaluator.errors import TerminalStream

    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, TerminalStream):
        sys.stdout = TerminalStream(sys.stdout)
    if not isinstance(sys.stderr, TerminalStream):
        sys.stderr = TerminalStream(sys.stderr)
    try:
        code = _main(argv)
    finally:
        sys.stdout, sys.stderr = saved
    if argv is None:                # the br-eval process itself, not a caller's main([...])
        _leave_stray_threads(code)
    return code


def _leave_stray_threads(code: int) -> None:
    """Exit now when threads an agent or model started (not daemon threads) are still running:
    br-eval's work is written and its folder unlocked, and Python would otherwise wait for them
    at exit, keeping a finished run alive with no sign of why."""
    import os
    import threading

    stray = [t for t in threading.enumerate()
             if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    for t in stray:
        t.join(timeout=1.0 / len(stray))
    stray = [t for t in stray if t.is_alive()]
    if not stray:
        return
    names = ", ".join(t.name for t in stray[:5]) + (" ..." if len(stray) > 5 else "")
    print(f"br-eval: warning: {len(stray)} thread(s) that the agent's or model's code started are "
          f"still running ({names}); everything is saved, so br-eval exits without waiting for "
          "them (start such threads with daemon=True, or stop them when answering ends)",
          file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        build_parser(only="__none__").print_help(sys.stderr)
        print("\nstart with: br-eval ls, then br-eval --task conflict_detection", file=sys.stderr)
        return 2
    if not argv[0].startswith("-") and argv[0] not in COMMANDS:
        from evaluator.errors import did_you_mean

        # `run` takes no bare words, so this was meant as a command
        print(f"br-eval: error: unknown command {argv[0]!r}"
              f"{did_you_mean(argv[0], list(COMMANDS)) or ' (commands: ' + ', '.join(COMMANDS) + '; a task goes after --task)'}",
              file=sys.stderr)
        return 2
    if (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv = ["run", *argv]
    chosen = argv[0] if argv[0] in COMMANDS else None
    parser = build_parser(only=chosen if chosen else "__none__")
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        module = _load(args.command)
    except ModuleNotFoundError as exc:
        if exc.name == COMMANDS[args.command][0]:
            print(f"br-eval: error: `{args.command}` is not available in this build", file=sys.stderr)
            return 2
        raise
    from beyondrecall.errors import DataError
    from evaluator.errors import EvalError
    from media_cache.errors import MediaError

    try:
        return int(module.main(args) or 0)
    except (DataError, EvalError, MediaError) as exc:
        return _report_error(exc)
    except KeyboardInterrupt:
        print("br-eval: interrupted; finished work is kept in the output folder", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        # Disk full, permission denied, a file vanished: one line, never a traceback.
        return _report_error(exc)


if __name__ == "__main__":
    sys.exit(main())
