"""The chat-model contract every backend (hf, openai, mock) implements, and the judge uses.

A message's content is a list of parts: text, or an image given as a file path (PNG/JPEG, e.g. a
cached video frame or PDF page), or audio given as a WAV path (a video's cached track; only for
models whose `supports_audio` is true). Backends turn image parts into what they need (data URLs
for OpenAI-compatible servers, PIL images for transformers processors) and audio into
`input_audio` parts or the processor's `audio=` argument.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from evaluator.errors import EvalError


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str


@dataclass(frozen=True, slots=True)
class ImagePart:
    path: str                     # a local image file
    sha256: str | None = None     # content hash when known (cache keys use content, never paths)


@dataclass(frozen=True, slots=True)
class AudioPart:
    path: str                     # a local WAV file (media_cache writes 16 kHz mono float32)
    sha256: str | None = None     # content hash when known


@dataclass(frozen=True, slots=True)
class Message:
    role: str                                      # "system" | "user" | "assistant"
    content: tuple[TextPart | ImagePart | AudioPart, ...]

    @classmethod
    def text(cls, role: str, text: str) -> "Message":
        return cls(role, (TextPart(text),))


@dataclass(slots=True)
class Generation:
    text: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    cached: bool = False                           # served from the response cache
    raw: dict = field(default_factory=dict)        # backend extras worth logging
    requested_model: str | None = None             # the model id the request named
    served_model: str | None = None                # the model the server says answered (None: not said)


class ModelCallError(Exception):
    """A model call that failed after its retries; recorded per question, never scored as 0."""

    error_kind = "model"


class ModelSetupError(EvalError):
    """A backend that cannot work at all (server unreachable, wrong model name, missing extra,
    model folder without a processor): the run stops before the first question, exit 1."""

    exit_code = 1


class ModelUsageError(EvalError):
    """A mistake in the command line's backend settings (an unknown generation setting, a value
    of the wrong type): exit 2, like every usage error."""

    exit_code = 2


@runtime_checkable
class ChatModel(Protocol):
    name: str          # backend name, e.g. "openai"
    model_id: str      # e.g. "Qwen/Qwen2-VL-2B-Instruct"

    def generate(self, messages: list[Message], **gen_kwargs) -> Generation: ...
    # The built-in backends also have preflight(images, audio=False, *, gen_kwargs=None) -> dict,
    # describe(gen_kwargs=None) -> dict and context_length (int | None); evaluator.models.preflight
    # and describe_model work on any model, so a user's own ChatModel need not have them.
