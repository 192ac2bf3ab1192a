"""A scripted chat model for tests and dry runs: `--model mock --model_args replies=replies.json`.

Replies can be
- a list: returned in order, cycling;
- a dict: the longest key that occurs in the last user message's text picks the reply;
  `default` answers when none matches (otherwise the call fails);
- a callable: `fn(messages) -> str | Generation`;
- a path to a .json file (holding a list, a dict or a single string) or a .jsonl file (one JSON
  string per line, or objects {"match": ..., "reply": ...});
- any other string: that one reply, every time.
Every call's messages and settings are recorded in `calls`, so isolation tests can check what a
model was shown. `fail_on=N` (or a list of call numbers, counted from 1) makes those calls raise
ModelCallError, to exercise error paths. Generation defaults (temperature 0, max_tokens 512) are
applied and recorded in each call's `settings` (replies are not cut at max_tokens).
`context_length=N` is what preflight() reports as the model's context window;
`preflight_error=TEXT` makes preflight() fail with that line (to test a run that stops early).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from evaluator.errors import EvalError
from evaluator.models._common import (GEN_DEFAULTS, generate_one_by_one, resolve_gen_kwargs,
                                      truncate_at_stop)
from evaluator.models.base import (AudioPart, Generation, ImagePart, Message, ModelCallError, ModelSetupError,
                                   TextPart)


class MockChatModel:
    name = "mock"

    def __init__(
        self,
        replies: list | dict | Callable | str | Path = "mock answer",
        *,
        default: str | None = None,
        fail_on: int | Iterable[int] | None = None,
        fail_message: str = "scripted failure",
        model_id: str = "mock",
        supports_images: bool = True,
        context_length: int | None = None,
        preflight_error: str | None = None,
        supports_audio: bool = False,
    ) -> None:
        self.model_id = str(model_id)
        self.context_length = None if context_length is None else int(context_length)
        self.preflight_error = preflight_error
        self.served_model: str | None = None
        self.supports_images = bool(supports_images)
        self.supports_audio = bool(supports_audio)
        self.default = default
        self.fail_message = fail_message
        if fail_on is None:
            self.fail_on: frozenset[int] = frozenset()
        elif isinstance(fail_on, int):
            self.fail_on = frozenset([fail_on])
        else:
            self.fail_on = frozenset(int(n) for n in fail_on)
        self.replies = _load_replies(replies)
        if isinstance(self.replies, list) and not self.replies:
            raise EvalError("mock backend: the list of replies is empty")
        self.calls: list[dict[str, Any]] = []   # {"messages": [...], "gen_kwargs": {...}}
        self._lock = threading.Lock()

    def generation_settings(self, gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        return resolve_gen_kwargs(gen_kwargs)

    def describe(self, gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"backend": self.name, "model_id": self.model_id, "served_model": self.served_model,
                "context_length": self.context_length, "supports_images": self.supports_images,
                "generation": resolve_gen_kwargs(gen_kwargs), "generation_defaults": dict(GEN_DEFAULTS)}

    def preflight(self, images: bool, audio: bool = False, *,
                  gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        """Checks the settings; makes no scripted call (calls and fail_on count questions only)."""
        resolve_gen_kwargs(gen_kwargs)
        if self.preflight_error:
            raise ModelSetupError(f"mock backend: {self.preflight_error}")
        self.served_model = self.model_id
        return {"backend": self.name, "requested_model": self.model_id, "served_model": self.model_id,
                "context_length": self.context_length,
                "context_length_source": "model_args" if self.context_length else None,
                "supports_images": self.supports_images, "supports_audio": bool(audio),
                "listed_models": [self.model_id]}

    def generate(self, messages: list[Message], **gen_kwargs) -> Generation:
        settings = resolve_gen_kwargs(gen_kwargs)
        with self._lock:
            self.calls.append({"messages": list(messages), "gen_kwargs": dict(gen_kwargs),
                               "settings": settings})
            number = len(self.calls)
        if number in self.fail_on:
            raise ModelCallError(f"mock backend: {self.fail_message} (call {number})")
        reply = self._reply(messages, number)
        if isinstance(reply, Generation):
            if reply.requested_model is None:
                reply.requested_model = self.model_id
            return reply
        text = truncate_at_stop(str(reply), settings.get("stop"))
        input_words = sum(len(p.text.split()) for m in messages for p in m.content if isinstance(p, TextPart))
        images = sum(1 for m in messages for p in m.content if isinstance(p, ImagePart))
        audio = sum(1 for m in messages for p in m.content if isinstance(p, AudioPart))
        if audio and not self.supports_audio:
            raise ModelCallError("mock backend: the request has audio but supports_audio is false")
        return Generation(
            text=text,
            input_tokens=input_words,
            output_tokens=len(text.split()),
            raw={"call": number, "images": images, **({"audio": audio} if audio else {})},
            requested_model=self.model_id,
            served_model=self.model_id,
        )

    def generate_many(self, requests: list[list[Message]], **gen_kwargs) -> list[Generation | ModelCallError]:
        return generate_one_by_one(self, requests, gen_kwargs)

    @property
    def call_count(self) -> int:
        return len(self.calls)

    def _reply(self, messages: list[Message], number: int):
        replies = self.replies
        if callable(replies):
            return replies(messages)
        if isinstance(replies, list):
            return replies[(number - 1) % len(replies)]
        last_user = _last_user_text(messages)
        # The longest matching key wins, so "live now?" does not shadow "Where does Priya live now?".
        matches = [needle for needle in replies if needle in last_user]
        if matches:
            return replies[max(matches, key=len)]
        if self.default is not None:
            return self.default
        raise ModelCallError(f"mock backend: no scripted reply matches the last user message {last_user[:80]!r}")


def _last_user_text(messages: list[Message]) -> str:
    for message in reversed(messages):
        if message.role == "user":
            return "\n".join(p.text for p in message.content if isinstance(p, TextPart))
    return ""


def _load_replies(replies):
    if callable(replies) or isinstance(replies, (list, dict)):
        return replies
    if isinstance(replies, Path) or (isinstance(replies, str) and replies.lower().endswith((".json", ".jsonl"))):
        return _load_replies_file(Path(replies))
    if isinstance(replies, str):
        return [replies]
    raise EvalError(f"mock backend: replies must be a list, dict, callable, string or file, not {type(replies).__name__}")


def _load_replies_file(path: Path):
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EvalError(f"mock backend: replies file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalError(f"mock backend: cannot read replies file {path}: {exc}") from None
    if path.suffix.lower() == ".jsonl":
        items = []
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise EvalError(f"mock backend: {path}:{lineno}: invalid JSON ({exc.msg})") from None
        if items and all(isinstance(i, dict) for i in items):
            try:
                return {str(i["match"]): str(i["reply"]) for i in items}
            except KeyError:
                raise EvalError(f"mock backend: {path}: objects need 'match' and 'reply' keys") from None
        if all(isinstance(i, str) for i in items):
            return items
        raise EvalError(f"mock backend: {path}: each line must be a JSON string or a {{match, reply}} object")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvalError(f"mock backend: {path}: invalid JSON at line {exc.lineno} ({exc.msg})") from None
    if isinstance(data, str):
        return [data]
    if isinstance(data, list) and all(isinstance(i, str) for i in data):
        return data
    if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
        return data
    raise EvalError(f"mock backend: {path}: expected a list of strings, a {{substring: reply}} object or a string")
