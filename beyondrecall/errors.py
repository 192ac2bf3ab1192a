"""Errors about the Beyond Recall data: they name the file and the field at fault."""


class DataError(Exception):
    """The data on disk breaks the dataset card's rules (schema, timestamps, media paths)."""

    exit_code = 1


class TimestampError(DataError):
    """A non-null timestamp that is empty or in none of the card's formats."""
