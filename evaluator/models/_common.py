"""Helpers the backends share: generation settings, image files, one-line error text."""

from __future__ import annotations

import base64
import re
from typing import Any

from evaluator.models.base import ModelUsageError

# Canonical generation settings and the names other harnesses use for them
# (lm-eval: max_gen_toks/until, lmms-eval and transformers: max_new_tokens).
_ALIASES = {
    "max_new_tokens": "max_tokens",
    "max_gen_toks": "max_tokens",
    "until": "stop",
}
GEN_KWARGS = ("temperature", "top_p", "max_tokens", "seed", "stop", "do_sample")

# What every backend (openai, hf, mock) applies when --gen_kwargs does not say otherwise, so that
# a run does not depend on a server's sampling defaults: greedy decoding and at most 512 new
# tokens (enough for any answer the benchmarks ask for; a runaway generation stops there).
GEN_DEFAULTS: dict[str, Any] = {"temperature": 0.0, "max_tokens": 512}


def parse_stop(value: Any) -> list[str]:
    """`stop` as a list of strings. A string holds several stop strings separated by `|`;
    `\\|` is a literal bar, and `\\n`, `\\t`, `\\\\` are a newline, a tab and a backslash, so
    `--gen_kwargs 'stop=\\n\\n|###'` gives ["\\n\\n", "###"]. A list is taken as it is."""
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if str(v)]
    if not isinstance(value, str):
        raise TypeError("stop must be a string or a list of strings")
    out, current, i = [], [], 0
    escapes = {"n": "\n", "t": "\t", "|": "|", "\\": "\\", "r": "\r"}
    while i < len(value):
        char = value[i]
        if char == "\\" and i + 1 < len(value) and value[i + 1] in escapes:
            current.append(escapes[value[i + 1]])
            i += 2
            continue
        if char == "|":
            out.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    out.append("".join(current))
    return [s for s in out if s]


def resolve_gen_kwargs(gen_kwargs: dict[str, Any] | None) -> dict[str, Any]:
    """The settings a request is made with: GEN_DEFAULTS, overridden by the caller's (validated,
    canonical names). `do_sample=true` without a temperature samples at temperature 1.0."""
    settings = normalize_gen_kwargs(gen_kwargs or {})
    out = dict(GEN_DEFAULTS)
    if settings.get("do_sample") is True and "temperature" not in settings:
        out["temperature"] = 1.0
    out.update(settings)
    if out.get("do_sample") is False:
        out["temperature"] = 0.0
    return out


def normalize_gen_kwargs(gen_kwargs: dict[str, Any]) -> dict[str, Any]:
    """Validate generation settings and return them under canonical names.

    Unknown names are an error rather than silently ignored: a typo in --gen_kwargs would
    otherwise run a whole benchmark with settings the user did not ask for.
    """
    out: dict[str, Any] = {}
    for raw_name, value in gen_kwargs.items():
        name = _ALIASES.get(raw_name, raw_name)
        if name not in GEN_KWARGS:
            accepted = ", ".join(list(GEN_KWARGS) + sorted(_ALIASES))
            raise ModelUsageError(f"unknown generation setting {raw_name!r} (accepted: {accepted})")
        if name in out:
            raise ModelUsageError(f"generation setting {name!r} given twice (as {raw_name!r})")
        if value is None:
            continue
        try:
            if name in ("temperature", "top_p"):
                value = float(value)
            elif name in ("max_tokens", "seed"):
                if isinstance(value, bool) or int(value) != float(value):
                    raise ValueError
                value = int(value)
            elif name == "do_sample":
                if not isinstance(value, bool):
                    raise ValueError
            elif name == "stop":
                value = parse_stop(value)
        except (TypeError, ValueError):
            raise ModelUsageError(f"generation setting {raw_name}={value!r} has the wrong type") from None
        out[name] = value
    if out.get("max_tokens", 1) < 1:
        raise ModelUsageError("generation setting max_tokens must be at least 1")
    if out.get("temperature", 0) < 0:
        raise ModelUsageError("generation setting temperature must be at least 0")
    return out


def truncate_at_stop(text: str, stop: list[str] | None) -> str:
    """Cut text at the earliest stop string (the stop string itself is dropped)."""
    if not stop:
        return text
    cut = min((i for i in (text.find(s) for s in stop if s) if i >= 0), default=-1)
    return text if cut < 0 else text[:cut]


def read_image_bytes(path: str, backend: str) -> bytes:
    from evaluator.models.base import ModelCallError

    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise ModelCallError(f"{backend} backend: image file not found: {path}") from None
    except OSError as exc:
        raise ModelCallError(f"{backend} backend: cannot read image {path}: {exc.strerror or exc}") from None


def image_mime(data: bytes) -> str:
    """The MIME type of an image from its first bytes (PNG and JPEG are what media_cache writes)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:2] == b"BM":
        return "image/bmp"
    raise ValueError("not a PNG, JPEG, WebP, GIF or BMP image")


def image_data_url(path: str, backend: str) -> str:
    from evaluator.models.base import ModelCallError

    data = read_image_bytes(path, backend)
    try:
        mime = image_mime(data)
    except ValueError as exc:
        raise ModelCallError(f"{backend} backend: {path}: {exc}") from None
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def redact(text: str, secrets) -> str:
    """`text` with every known secret (API keys, Authorization header values) replaced by ***,
    and the secrets of URLs (userinfo, key-like query parameters) masked
    (evaluator.errors.redact_url)."""
    from evaluator.errors import redact_url

    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return redact_url(text)


def one_line(text: object, limit: int = 300) -> str:
    """Collapse whitespace so an error message stays on one line, and cap its length."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def generate_one_by_one(model, requests: list, gen_kwargs: dict) -> list:
    """`generate_many` for backends that answer one request at a time: each slot holds a
    Generation or the ModelCallError of that request, in order."""
    from evaluator.models.base import ModelCallError

    normalize_gen_kwargs(gen_kwargs)
    out: list = []
    for messages in requests:
        try:
            out.append(model.generate(messages, **gen_kwargs))
        except ModelCallError as exc:
            out.append(exc)
    return out
