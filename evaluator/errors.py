"""Errors the CLI turns into one line on stderr and a non-zero exit, and the one place a failed
item is classified."""

from __future__ import annotations


class EvalError(Exception):
    """A user-facing problem in a run: a failing backend, an unreadable run folder (exit 1)."""

    exit_code = 1


class UsageError(EvalError):
    """The command line asks for something that cannot work: unknown task or agent, bad
    arguments, incompatible flags (exit 2, as argparse's own usage errors)."""

    exit_code = 2


def one_line(exc: BaseException) -> str:
    """`Type: first line of the message`, for a journal's `error` field."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# Exception classes (by "module:Class") whose failures are of a known kind; everything else an
# item raises is the agent's. Named, not imported, so this module imports nothing of its own.
ERROR_KINDS = (
    ("evaluator.models.base", "ModelCallError", "model"),
    ("media_cache.errors", "MediaError", "media"),
    ("beyondrecall.errors", "DataError", "data"),
)


def error_kind(exc: BaseException) -> str:
    """model (a backend call that failed after its retries), media, data, output (an answer in
    the wrong format), judge, or agent (the agent itself raised)."""
    import sys

    for module, name, kind in ERROR_KINDS:
        cls = getattr(sys.modules.get(module), name, None)
        if cls is not None and isinstance(exc, cls):
            return kind
    return getattr(exc, "error_kind", "agent")


def record_failure(sample, exc: BaseException) -> None:
    """Mark a Sample as failed (never as a score of 0), keeping the traceback."""
    import traceback

    sample.error = one_line(exc)
    sample.error_kind = error_kind(exc)
    sample.traceback = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


class ItemFailed(Exception):
    """`--raise`: the first failing item stops the run; carries its Sample (with the traceback)."""

    def __init__(self, sample) -> None:
        super().__init__(f"{sample.key}: {sample.error}")
        self.sample = sample
