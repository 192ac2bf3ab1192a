"""Errors about media: a file that is missing or does not decode, weights that are absent."""


class MediaError(Exception):
    """A media file or model needed to prepare inputs is missing or unusable."""

    exit_code = 1
