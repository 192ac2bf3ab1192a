"""Errors about media: a file that is missing or does not decode, weights that are absent."""


class MediaError(Exception):
    """A media file or model needed to prepare inputs is missing or unusable.

    The message is one line and names the file (or the weights) it is about.
    """

    exit_code = 1


class MissingWeightsError(MediaError):
    """Weights are neither a local file nor in the Hugging Face cache, and cannot be fetched now."""
