"""Model backends: a chat model takes messages (text and images) and returns text.

`make_model("openai" | "hf" | "mock", model_args)` builds one from `--model_args`, optionally
wrapped in the SQLite response cache. Backends import their heavy libraries (openai,
transformers, torch) only when made, so importing this package stays cheap.

`preflight(model, images, audio, gen_kwargs=...)` checks a built model with one tiny request
before any question; `describe_model(model, gen_kwargs)` is what results.json records about it;
`split_model_args(kind, model_args)` separates the settings that change answers from transport.
"""

from __future__ import annotations

import re
from typing import Any

from evaluator.errors import EvalError
from evaluator.models.base import ModelUsageError

# kind -> {arg: (type, required)}; the keyword each backend's constructor takes.
_ARGS: dict[str, dict[str, tuple[type, bool]]] = {
    "openai": {
        "base_url": (str, True), "model": (str, True), "api_key": (str, False),
        "timeout": (float, False), "max_retries": (int, False), "backoff": (float, False),
        "concurrency": (int, False), "supports_images": (bool, False), "context_length": (int, False),
        "image_format": (str, False), "image_quality": (int, False), "max_image_side": (int, False),
        "audio": (bool, False),
    },
    "hf": {
        "pretrained": (str, True), "dtype": (str, False), "device": (str, False),
        "max_new_tokens": (int, False), "trust_remote_code": (bool, False),
        "local_files_only": (bool, False), "revision": (str, False), "attn_implementation": (str, False),
        "context_length": (int, False),
    },
    "mock": {
        "replies": (object, False), "default": (str, False), "fail_on": (object, False),
        "fail_message": (str, False), "model_id": (str, False), "supports_images": (bool, False),
        "context_length": (int, False), "preflight_error": (str, False),
        "supports_audio": (bool, False),
    },
}
# Settings that cannot change an answer (where the server is, how long to wait, how many at once,
# how often to retry, the key): a resumed run may change them. Every other --model_args key (the
# model id, pretrained, dtype, revision, supports_images, context_length, ...) and every
# --gen_kwargs setting changes answers. `device` counts as transport: the same weights and dtype
# on another device give the same greedy answers up to floating-point ties.
TRANSPORT_ARGS: dict[str, frozenset[str]] = {
    "openai": frozenset({"base_url", "api_key", "timeout", "max_retries", "backoff", "concurrency"}),
    "hf": frozenset({"device", "local_files_only"}),
    "mock": frozenset(),
}
_EXAMPLES = {
    "openai": "base_url=http://localhost:8000/v1,model=Qwen/Qwen2-VL-7B-Instruct",
    "hf": "pretrained=Qwen/Qwen2-VL-2B-Instruct,dtype=bfloat16,device=cuda",
    "mock": "replies=replies.json",
}
MODEL_KINDS = tuple(_ARGS)


def model_args_help() -> str:
    """Every --model_args key per backend, for --help."""
    return "; ".join(f"{kind}: {', '.join(f'{k}=' for k in spec)}" for kind, spec in _ARGS.items())


def make_model(kind: str, model_args: dict[str, Any] | None = None, *, cache_path=None):
    """Build a ChatModel of `kind` from `model_args`; with `cache_path`, wrap it in the cache."""
    model_args = dict(model_args or {})
    if kind not in _ARGS:
        raise ModelUsageError(f"unknown model backend {kind!r} (choose from: {', '.join(MODEL_KINDS)})")
    spec = _ARGS[kind]
    unknown = sorted(set(model_args) - set(spec))
    if unknown:
        raise ModelUsageError(f"unknown --model_args for the {kind} backend: {', '.join(unknown)} "
                        f"(accepted: {', '.join(spec)})")
    missing = [name for name, (_, required) in spec.items() if required and model_args.get(name) in (None, "")]
    if missing:
        raise ModelUsageError(f"the {kind} backend needs --model_args {', '.join(missing)} "
                        f"(e.g. --model_args {_EXAMPLES[kind]})")
    kwargs = {name: _coerce(kind, name, value, spec[name][0]) for name, value in model_args.items()}

    if kind == "openai":
        from evaluator.models.openai_backend import OpenAIChatModel

        model = OpenAIChatModel(**kwargs)
    elif kind == "hf":
        from evaluator.models.hf_backend import HFChatModel

        model = HFChatModel(**kwargs)
    else:
        from evaluator.models.mock_backend import MockChatModel

        if isinstance(kwargs.get("fail_on"), str):   # "3" or "2;5" from the command line
            kwargs["fail_on"] = [int(n) for n in re.split(r"[;\s]+", kwargs["fail_on"].strip()) if n]
        model = MockChatModel(**kwargs)

    if cache_path is not None:
        from evaluator.models.cache import CachedChatModel, ResponseCache

        model = CachedChatModel(model, ResponseCache(cache_path))
    return model


def split_model_args(kind: str | None, model_args: dict[str, Any] | None) -> tuple[dict, dict]:
    """(answer-changing, transport) parts of `model_args` for backend `kind` (also right for the
    openai judge's --judge_args). An unknown kind or key counts as answer-changing."""
    transport_keys = TRANSPORT_ARGS.get(kind or "", frozenset())
    answer, transport = {}, {}
    for key, value in (model_args or {}).items():
        (transport if key in transport_keys else answer)[key] = value
    return answer, transport


def is_transport_arg(kind: str | None, key: str) -> bool:
    return key in TRANSPORT_ARGS.get(kind or "", frozenset())


def preflight(model, images: bool = False, audio: bool = False, *,
              gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """Check `model` with one tiny request before any question (see each backend's preflight);
    raises EvalError subclasses with one line: ModelSetupError (exit 1), ModelUsageError (exit 2).
    A user's own ChatModel without a preflight() is taken as it is."""
    check = getattr(model, "preflight", None)
    if callable(check):
        return check(images, audio, gen_kwargs=gen_kwargs)
    return {"backend": getattr(model, "name", type(model).__name__),
            "requested_model": getattr(model, "model_id", None), "served_model": None,
            "context_length": getattr(model, "context_length", None),
            "supports_images": getattr(model, "supports_images", None), "checked": False}


def describe_model(model, gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """What results.json records about a model: backend, model id, served model, context length,
    supports_images and the generation settings its requests are made with (defaults included)."""
    describe = getattr(model, "describe", None)
    if callable(describe):
        return describe(gen_kwargs)
    return {"backend": getattr(model, "name", type(model).__name__),
            "model_id": getattr(model, "model_id", None), "generation": dict(gen_kwargs or {})}


def _coerce(kind: str, name: str, value: Any, wanted: type) -> Any:
    if wanted is object or value is None:
        return value
    if wanted is str:
        return str(value)   # e.g. a model called "7" arrives as an int from parse_kv_args
    if wanted is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
    elif wanted is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif wanted is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    raise ModelUsageError(f"--model_args {name}={value!r} for the {kind} backend should be {wanted.__name__}")


def parse_kv_args(text: str | None) -> dict[str, Any]:
    """Parse lm-eval style `a=1,b=x,c="with, comma"` into a dict.

    The one rule (as lm-eval's): an unquoted value becomes a bool when it is true/false (any
    case), an int or a float when it reads as a number, and stays a string otherwise, so
    `media=none` is the string "none" and `revision=null` the string "null"; quoted values
    (single or double quotes) are always strings and may hold commas and equals signs.
    """
    result: dict[str, Any] = {}
    if text is None or not text.strip():
        return result
    for item in _split_top_level(text):
        if not item.strip():
            continue   # tolerate "a=1,,b=2" and a trailing comma
        if "=" not in item:
            raise EvalError(f"bad key=value argument {item.strip()!r} in {text!r} (expected k=v,k2=v2)")
        key, value = item.split("=", 1)
        key = key.strip()
        if not key:
            raise EvalError(f"empty key in {text!r}")
        if key in result:
            raise EvalError(f"key {key!r} given twice in {text!r}")
        result[key] = _convert_value(value.strip())
    return result


def _split_top_level(text: str) -> list[str]:
    """Split on commas outside quotes. A quote opens only where a value starts (right after
    `=`), so an apostrophe inside a value ("I don't know") is just a character."""
    items, current, quote = [], [], None
    for char in text:
        if quote:
            current.append(char)
            if char == quote:
                quote = None
        elif char in "\"'" and current and "".join(current).rstrip().endswith("="):
            quote = char
            current.append(char)
        elif char == ",":
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    if quote:
        raise EvalError(f"unclosed quote in {text!r}")
    items.append("".join(current))
    return items


def _convert_value(value: str) -> Any:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    lowered = value.lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    try:
        return int(value)
    except ValueError:
        pass
    try:
        number = float(value)
    except ValueError:
        return value
    # "nan"/"inf" would parse as floats; keep them as text (model names like "inf-7b" are safe anyway)
    return number if lowered not in ("nan", "inf", "-inf", "infinity", "-infinity") else value
