"""Errors about the Beyond Recall data: they name the file and the field at fault."""


class DataError(Exception):
    """The data on disk breaks the dataset card's rules (schema, timestamps, media paths)."""

    exit_code = 1


class TimestampError(DataError):
    """A non-null timestamp that is empty or in none of the card's formats."""


class NoDataError(DataError):
    """No data folder was given and none was found. A reader only says so; whether to fall back
    to a generated sample is the caller's decision (evaluator/datasets.py)."""
