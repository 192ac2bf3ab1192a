"""Errors the CLI turns into one line on stderr and a non-zero exit."""


class EvalError(Exception):
    """A user-facing problem in a run: bad flags, a failing backend, an unreadable run folder."""

    exit_code = 1


def one_line(exc: BaseException) -> str:
    """`Type: first line of the message`, for a journal's `error` field."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def record_failure(sample: dict, exc: Exception) -> None:
    """Mark a journal line as failed (never as a score of 0): `error` and `error_kind`, one of
    model (a backend call that failed after its retries), media, data, output (an answer in the
    wrong format) or agent (the agent itself raised)."""
    from beyondrecall.errors import DataError
    from evaluator.models.base import ModelCallError
    from media_cache.errors import MediaError

    if isinstance(exc, ModelCallError):
        kind = "model"
    elif isinstance(exc, MediaError):
        kind = "media"
    elif isinstance(exc, DataError):
        kind = "data"
    else:
        kind = getattr(exc, "error_kind", "agent")
    sample["error"] = one_line(exc)
    sample["error_kind"] = kind
