"""Any OpenAI-compatible chat-completions server (vLLM, llama.cpp, Ollama, SGLang, OpenAI).

Images travel as base64 data URLs; with `--model_args audio=true`, a video's audio track travels
as an `input_audio` part (base64 16-bit PCM WAV), and `check_audio()` is the preflight that turns
a server's rejection of audio into one clear error before any question. Retries are ours, not the client's (its max_retries is 0):
connection errors, timeouts, 429 and 5xx are retried with exponential backoff, every retry is
logged, and the last failure becomes one ModelCallError line with the status code and the
server's own message. Other 4xx (a bad request, a wrong model name, a missing key) fail at once,
because repeating them cannot help.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from evaluator.errors import EvalError
from evaluator.models._common import image_data_url, normalize_gen_kwargs, one_line
from evaluator.models.base import AudioPart, Generation, ImagePart, Message, ModelCallError, TextPart

log = logging.getLogger("evaluator.models.openai")

_MAX_BACKOFF_S = 60.0


class OpenAIChatModel:
    name = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 3,
        backoff: float = 1.0,
        concurrency: int = 4,
        supports_images: bool = True,
        audio: bool = False,
    ) -> None:
        if not base_url:
            raise EvalError("openai backend: base_url is empty")
        if not model:
            raise EvalError("openai backend: model is empty")
        if max_retries < 0 or concurrency < 1 or timeout <= 0 or backoff < 0:
            raise EvalError("openai backend: need max_retries >= 0, concurrency >= 1, timeout > 0, backoff >= 0")
        self.base_url = base_url.rstrip("/")
        self.model_id = model
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.concurrency = int(concurrency)
        # A text-only server rejects image parts; strategies read this to send captions instead.
        self.supports_images = bool(supports_images)
        # audio=true: the server takes `input_audio` parts (gpt-4o-audio, vLLM with Qwen2-Audio /
        # Qwen2.5-Omni); strategies then send a video's audio track instead of its transcript.
        self.supports_audio = bool(audio)
        # Local servers (vLLM, llama.cpp, Ollama) accept any key; the client insists on one.
        self._api_key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        self._client = None
        self._client_lock = threading.Lock()

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIChatModel(base_url={self.base_url!r}, model={self.model_id!r})"

    def _get_client(self):
        with self._client_lock:
            if self._client is None:
                import openai  # lazy: only runs that use this backend pay for the import

                self._client = openai.OpenAI(
                    base_url=self.base_url,
                    api_key=self._api_key,
                    timeout=self.timeout,
                    max_retries=0,
                )
            return self._client

    # -- request building ---------------------------------------------------------------------
    def to_openai_messages(self, messages: list[Message]) -> list[dict[str, Any]]:
        out = []
        for message in messages:
            if all(isinstance(part, TextPart) for part in message.content):
                # Plain strings for text-only messages: some servers refuse part lists for
                # system/assistant roles.
                out.append({"role": message.role, "content": "\n".join(p.text for p in message.content)})
                continue
            parts = []
            for part in message.content:
                if isinstance(part, TextPart):
                    parts.append({"type": "text", "text": part.text})
                elif isinstance(part, ImagePart):
                    parts.append({"type": "image_url", "image_url": {"url": image_data_url(part.path, self.name)}})
                elif isinstance(part, AudioPart):
                    if not self.supports_audio:
                        raise ModelCallError("openai backend: the request has audio but the model was not "
                                             "declared audio-capable (--model_args audio=true)")
                    data, fmt = audio_payload(part.path)
                    parts.append({"type": "input_audio", "input_audio": {"data": data, "format": fmt}})
                else:
                    raise ModelCallError(f"openai backend: unsupported message part {type(part).__name__}")
            out.append({"role": message.role, "content": parts})
        return out

    @staticmethod
    def request_params(gen_kwargs: dict[str, Any]) -> dict[str, Any]:
        """Generation settings as chat-completions parameters."""
        settings = normalize_gen_kwargs(gen_kwargs)
        params: dict[str, Any] = {}
        for key in ("temperature", "top_p", "max_tokens", "seed", "stop"):
            if key in settings:
                params[key] = settings[key]
        # do_sample=False (lm-eval/lmms-eval style) means greedy: temperature 0 on a server.
        if settings.get("do_sample") is False and "temperature" not in params:
            params["temperature"] = 0.0
        return params

    def check_audio(self) -> None:
        """Preflight for audio=true: one request holding a 0.25 s silent WAV as an `input_audio`
        part (max_tokens=1). A server that rejects it (or cannot be reached) is one EvalError line,
        before any question is asked. Without audio=true this does nothing."""
        if not self.supports_audio:
            return
        import base64
        import io
        import wave

        buf = io.BytesIO()
        with wave.open(buf, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16000)
            w.writeframes(b"\x00\x00" * 4000)
        payload = [{"role": "user", "content": [
            {"type": "text", "text": "Reply with OK."},
            {"type": "input_audio", "input_audio": {"data": base64.b64encode(buf.getvalue()).decode("ascii"),
                                                    "format": "wav"}}]}]
        try:
            self._call(payload, {"max_tokens": 1})
        except ModelCallError as exc:
            raise EvalError(f"{exc} (audio check: the server did not accept an input_audio part; drop "
                            "--model_args audio=true to send transcripts instead, see --asr)") from None

    # -- calls --------------------------------------------------------------------------------
    def generate(self, messages: list[Message], **gen_kwargs) -> Generation:
        params = self.request_params(gen_kwargs)
        payload = self.to_openai_messages(messages)
        return self._call(payload, params)

    def generate_many(self, requests: list[list[Message]], **gen_kwargs) -> list[Generation | ModelCallError]:
        """Run up to `concurrency` requests at once; results keep the order of `requests`.

        A failed request yields its ModelCallError in its slot instead of raising, so one bad
        question does not cost the others' answers.
        """
        params = self.request_params(gen_kwargs)  # bad settings fail once, before any call

        def one(messages: list[Message]) -> Generation | ModelCallError:
            try:
                return self._call(self.to_openai_messages(messages), params)
            except ModelCallError as exc:
                return exc

        if not requests:
            return []
        self._get_client()  # build the client before the threads race for it
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(requests))) as pool:
            return list(pool.map(one, requests))

    def _call(self, payload: list[dict[str, Any]], params: dict[str, Any]) -> Generation:
        import openai

        client = self._get_client()
        attempts = self.max_retries + 1
        for attempt in range(1, attempts + 1):
            try:
                response = client.chat.completions.create(model=self.model_id, messages=payload, **params)
            except openai.APIStatusError as exc:
                detail = f"HTTP {exc.status_code}: {_server_message(exc)}"
                retryable = exc.status_code == 429 or exc.status_code >= 500
                retry_after = _retry_after_seconds(exc)
            except openai.APITimeoutError:
                detail, retryable, retry_after = f"timed out after {self.timeout:g} s", True, None
            except openai.APIConnectionError as exc:
                cause = exc.__cause__ or exc
                detail, retryable, retry_after = f"connection error: {one_line(cause)}", True, None
            except openai.OpenAIError as exc:  # malformed response and the like: not retryable
                detail, retryable, retry_after = f"{type(exc).__name__}: {one_line(exc)}", False, None
            else:
                return self._to_generation(response, attempt)

            if not retryable or attempt == attempts:
                tried = f" after {attempt} attempts" if attempt > 1 else ""
                raise ModelCallError(f"openai backend: {self.base_url} model {self.model_id!r}: {detail}{tried}")
            delay = min(self.backoff * 2 ** (attempt - 1), _MAX_BACKOFF_S)
            delay *= 1 + 0.1 * random.random()  # jitter so concurrent retries do not stampede
            if retry_after is not None:
                delay = max(delay, min(retry_after, _MAX_BACKOFF_S))
            log.warning("openai backend: %s (attempt %d of %d); retrying in %.2f s", detail, attempt, attempts, delay)
            time.sleep(delay)
        raise AssertionError("unreachable")

    def _to_generation(self, response, attempts: int) -> Generation:
        if not getattr(response, "choices", None):
            raise ModelCallError(f"openai backend: {self.base_url} returned no choices for model {self.model_id!r}")
        choice = response.choices[0]
        text = choice.message.content if choice.message is not None else None
        usage = getattr(response, "usage", None)
        return Generation(
            text=text or "",
            input_tokens=getattr(usage, "prompt_tokens", None),
            output_tokens=getattr(usage, "completion_tokens", None),
            raw={
                "finish_reason": choice.finish_reason,
                "served_model": getattr(response, "model", None),
                "attempts": attempts,
            },
        )


def audio_payload(path: str) -> tuple[str, str]:
    """(base64 data, format) for an `input_audio` part. The float32 WAV that media_cache writes is
    sent as 16-bit PCM WAV (the form every server's decoder reads); other WAV and MP3 files as
    they are."""
    import base64
    import io
    import struct
    import wave

    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise ModelCallError(f"openai backend: cannot read audio {path}: {exc.strerror or exc}") from None
    if raw[:4] == b"RIFF" and raw[8:12] == b"WAVE":
        fmt_at = raw.find(b"fmt ", 12)
        if fmt_at > 0 and struct.unpack("<H", raw[fmt_at + 8:fmt_at + 10])[0] == 3:
            import numpy as np

            from media_cache.audio import read_wav_float32
            from media_cache.errors import MediaError

            try:
                samples, rate = read_wav_float32(path)
            except MediaError as exc:
                raise ModelCallError(f"openai backend: {exc}") from None
            pcm = (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
            buf = io.BytesIO()
            with wave.open(buf, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(rate)
                w.writeframes(pcm.tobytes())
            raw = buf.getvalue()
        return base64.b64encode(raw).decode("ascii"), "wav"
    if raw[:3] == b"ID3" or raw[:2] in (b"\xff\xfb", b"\xff\xf3", b"\xff\xf2"):
        return base64.b64encode(raw).decode("ascii"), "mp3"
    raise ModelCallError(f"openai backend: {path}: not a WAV or MP3 file")


def _server_message(exc) -> str:
    """The server's own words from an error response, on one line."""
    body = exc.body
    if isinstance(body, dict):
        for key in ("message", "detail", "error"):
            value = body.get(key)
            if isinstance(value, str) and value:
                return one_line(value)
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                return one_line(value["message"])
        return one_line(json.dumps(body, ensure_ascii=False))
    if isinstance(body, str) and body.strip():
        return one_line(body)
    return one_line(getattr(exc.response, "reason_phrase", "") or "no message")


def _retry_after_seconds(exc) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, ValueError):
        return None
