"""Errors the CLI turns into one line on stderr and a non-zero exit."""


class EvalError(Exception):
    """A user-facing problem in a run: bad flags, a failing backend, an unreadable run folder."""

    exit_code = 1
