"""Any OpenAI-compatible chat-completions server (vLLM, llama.cpp, Ollama, SGLang, OpenAI).

Images travel as base64 data URLs, encoded as `image_format` (png, the default: lossless; jpeg or
webp at `image_quality`), scaled down to `max_image_side` when given (media_cache.delivery).
With `--model_args audio=true`, a video's audio track travels as an `input_audio` part (base64
16-bit PCM WAV), and the preflight's audio probe turns a server's rejection of audio into one
clear error before any question. Retries are ours, not the client's (its max_retries is 0):
transient failures (connection errors, timeouts, 429 with its Retry-After honoured, 502/503/504)
are retried with exponential backoff; a 500 or an invalid reply is retried once more only if it
does not repeat identically; other 4xx (a bad request, a context overflow, a wrong model name, a
missing key) fail at once, because repeating them cannot help. Every retry is logged, and the last
failure becomes one ModelCallError line with the status code, the server's URL and its own message,
with the API key redacted. A reply with no text (content null beside tool calls or
reasoning_content, a number, message null) is such a server error naming what it holds, never an
empty answer; content sent as a list of text parts is joined; content "" is an empty reply, unless
the message's `refusal` holds text (OpenAI's structured decline), which is then the reply. A reply
with finish_reason "content_filter" fails as the provider's content filter, whatever its content,
and is not retried; the finish reason (e.g. "length": cut at max_tokens) and the endpoint that
answered are kept in the generation's `raw`. A 400 that says the prompt exceeds the server's
context says what to set (`context_length`). An HTML page is named as one and shown as a short
excerpt of its text.

Many servers: `base_url=URL1|URL2|...` (or the path of a file with one URL a line, `#` comments)
spreads requests over the endpoints, each request to the one with the fewest requests
outstanding. An endpoint that fails (connection error, timeout, 5xx, 429) is rested, for its
Retry-After when it sends one, else for a time that doubles with each failure in a row (up to a
minute), and the request is retried at once on another; a rested endpoint gets requests again
when its rest is over. The run's total in flight stays bounded by the loop (`--num_concurrent`).

Bounds: `timeout` bounds a whole request, body included (a server that trickles its reply a byte
a second is cut at the deadline); a reply body over MAX_REPLY_BYTES, counted after gzip/deflate
decoding, is not read further (the call fails); a redirect to another scheme, host or port is not
followed (the call fails, nothing is sent there); a reply text over MAX_REPLY_CHARS is cut there, recorded as raw["truncated_from_chars"].
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from evaluator.errors import EvalError
from evaluator.models._common import (GEN_DEFAULTS, one_line, redact,
                                      resolve_gen_kwargs)
from evaluator.models.base import (AudioPart, Generation, ImagePart, Message, ModelCallError, ModelSetupError,
                                   TextPart)

log = logging.getLogger("evaluator.models.openai")

_MAX_BACKOFF_S = 60.0
MAX_REPLY_BYTES = 8 * 1024 * 1024      # a chat reply body larger than this is not read further
MAX_REPLY_CHARS = 200_000              # reply text longer than this is cut (and the cut recorded)
_TRANSIENT_STATUS = (429, 502, 503, 504)
_PREFLIGHT_CONNECT_S = 10.0
INSTALL_HINT = "pip install 'br-eval[openai]'"


def require_openai(what: str = "the openai backend") -> None:
    """One line naming the extra to install when the openai client library is missing."""
    import importlib.util

    try:
        found = importlib.util.find_spec("openai") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise ModelSetupError(f"{what} needs the openai client library: {INSTALL_HINT}")


class OpenAIChatModel:
    name = "openai"
    args_flag = "--model_args"      # the flag a setup error tells the user to fix (a judge's: --judge_args)

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
        image_format: str = "png",
        image_quality: int | None = None,
        max_image_side: int | None = None,
        context_length: int | None = None,
        audio: bool = False,
    ) -> None:
        require_openai()
        if not base_url:
            raise EvalError("openai backend: base_url is empty")
        if not model:
            raise EvalError("openai backend: model is empty")
        urls = endpoint_urls(base_url)
        if max_retries < 0 or concurrency < 1 or timeout <= 0 or backoff < 0:
            raise EvalError("openai backend: need max_retries >= 0, concurrency >= 1, timeout > 0, backoff >= 0")
        self.pool = EndpointPool(urls)
        self.base_url = "|".join(urls)
        self.model_id = model
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.concurrency = int(concurrency)
        # A text-only server rejects image parts; strategies read this to send captions instead.
        self.supports_images = bool(supports_images)
        self.image_encoding = _image_encoding(image_format, image_quality, max_image_side)
        # audio=true: the server takes `input_audio` parts (gpt-4o-audio, vLLM with Qwen2-Audio /
        # Qwen2.5-Omni); strategies then send a video's audio track instead of its transcript.
        self.supports_audio = bool(audio)
        # Local servers (vLLM, llama.cpp, Ollama) accept any key; the client insists on one.
        self._api_key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        if context_length is not None and int(context_length) < 1:
            raise EvalError("openai backend: context_length must be at least 1")
        # The server's context window in tokens: given, or learned by preflight() (vLLM publishes
        # max_model_len in /v1/models); agents that fill a prompt bound their budget by it.
        self.context_length: int | None = None if context_length is None else int(context_length)
        self.context_length_source = "model_args" if context_length is not None else None
        self.served_model: str | None = None      # what the server said answered (preflight)
        self._client_lock = threading.Lock()

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIChatModel(base_url={self.public_url!r}, model={self.model_id!r})"

    @property
    def public_url(self) -> str:
        return redact(self.base_url, self._secrets())

    def _secrets(self) -> list[str]:
        key = self._api_key if self._api_key != "EMPTY" else None
        return [s for s in (key, key and f"Bearer {key}") if s]

    def _clean(self, text: str) -> str:
        return redact(text, self._secrets())

    def cache_settings(self) -> dict[str, Any]:
        """Settings besides gen_kwargs that change what the server sees (response-cache key)."""
        return {"image_encoding": self.image_encoding.describe()}

    def _image_url(self, path: str) -> str:
        """A data URL of the image as `image_encoding` says (encoded once per run and file)."""
        import base64

        from media_cache.delivery import encode_image

        if not os.path.isfile(path):
            raise ModelCallError(f"openai backend: image file not found: {path}")
        # An image that does not decode is a media error naming the file (a damaged cache entry,
        # say), not the server's: MediaError goes through as it is.
        data, mime = encode_image(path, encoding=self.image_encoding)
        return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"

    def _get_client(self, endpoint: "Endpoint | None" = None):
        """The client of `endpoint` (default: the first), built once."""
        endpoint = endpoint or self.pool.endpoints[0]
        with self._client_lock:
            if endpoint.client is None:
                endpoint.client = self._new_client(endpoint.url, self.timeout)
            return endpoint.client

    def _new_client(self, url: str, timeout: float):
        """The one place an openai client is made (the model's, the judge's, the path hint's).
        A query in `url` (Azure's `?api-version=...`) travels as the client's `default_query`:
        the client appends each request's path to base_url, so left there it would come before
        the path (`/v1?api-version=.../chat/completions`)."""
        import openai  # lazy: only runs that use this backend pay for the import

        from evaluator.models._http import bounded_http_client

        root, query = split_query(url)
        return openai.OpenAI(base_url=root, default_query=query or None, api_key=self._api_key,
                             timeout=timeout, max_retries=0,
                             http_client=bounded_http_client(openai, timeout, MAX_REPLY_BYTES))

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
                    parts.append({"type": "image_url", "image_url": {"url": self._image_url(part.path)}})
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
        """Generation settings as chat-completions parameters: GEN_DEFAULTS (temperature 0,
        max_tokens 512) unless --gen_kwargs says otherwise; do_sample=False means temperature 0."""
        settings = resolve_gen_kwargs(gen_kwargs)
        return {key: settings[key] for key in ("temperature", "top_p", "max_tokens", "seed", "stop")
                if key in settings}

    @staticmethod
    def generation_settings(gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        return resolve_gen_kwargs(gen_kwargs)

    def describe(self, gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        """What results.json records about this backend (never the key)."""
        return {
            "backend": self.name,
            "model_id": self.model_id,
            "served_model": self.served_model,
            "base_url": self.public_url,
            "context_length": self.context_length,
            "context_length_source": self.context_length_source,
            "supports_images": self.supports_images,
            "image_encoding": self.image_encoding.describe(),
            "generation": self.request_params(gen_kwargs or {}),
            "generation_defaults": dict(GEN_DEFAULTS),
            "timeout_s": self.timeout,
            "max_retries": self.max_retries,
            "limits": {"max_reply_bytes": MAX_REPLY_BYTES, "max_reply_chars": MAX_REPLY_CHARS},
        }

    # -- preflight ----------------------------------------------------------------------------
    def preflight(self, images: bool, audio: bool = False, *,
                  gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        """One tiny request before any question; raises one line (ModelSetupError, exit 1, or
        ModelUsageError, exit 2, for a bad generation setting) when the run cannot work.

        Checks, in order: the settings (unknown names, wrong types), that the server answers
        (fails at once when nothing listens: no retries), the model name (HTTP 404), the settings
        as the server sees them (HTTP 400), and, when `images` and supports_images, one request
        with a 64x64 PNG (a refusal names supports_images=false); `audio` sends 0.1 s of silence.
        Learns the served model name and, where /v1/models publishes it (vLLM's max_model_len),
        the context length. Returns {"backend", "requested_model", "served_model",
        "context_length", "context_length_source", "supports_images", "supports_audio",
        "listed_models"}."""
        params = self.request_params(gen_kwargs or {})
        listed = self._list_models()
        probe = {**params, "max_tokens": 1}
        text = [{"role": "user", "content": "Reply with the word OK."}]
        generation = self._preflight_call(text, probe, "a one-token text request", listed)
        self.served_model = generation.served_model
        names = set(listed) | {n[: -len(":latest")] for n in listed if n.endswith(":latest")}
        unlisted = bool(listed) and self.model_id not in names and self.served_model not in names
        if unlisted:
            # llama.cpp answers any model name with the model it loaded, echoing the name back
            log.warning("%s", self._clean(
                f"br-eval: warning: openai backend: the server does not list model {self.model_id!r} "
                f"but answered it; it lists only {', '.join(sorted(listed)[:10])}: a server such as "
                "llama.cpp answers any name with the model it loaded, so the run would be recorded "
                f"under a name that did not answer (pass {self.args_flag} model=<a listed name>)"))
        if self.context_length is None:
            for name in (self.served_model, self.model_id):
                entry = listed.get(name) if name else None
                length = _context_length_of(entry) if entry else None
                if length:
                    self.context_length, self.context_length_source = length, "/v1/models"
                    break
        if self.context_length is None and any(_is_llama_cpp(e) for e in listed.values()):
            length = self._llama_cpp_context()
            if length:
                self.context_length, self.context_length_source = length, "/props"
        if images and self.supports_images:
            from evaluator.models._probe import tiny_png_data_url

            payload = [{"role": "user", "content": [
                {"type": "text", "text": "Reply with the word OK."},
                {"type": "image_url", "image_url": {"url": tiny_png_data_url()}}]}]
            self._preflight_call(payload, probe, "a request with one 64x64 image", listed,
                                 hint="if the model is text-only, pass --model_args supports_images=false "
                                      "(media then reach it as text)")
        if audio:
            from evaluator.models._probe import tiny_wav_base64

            payload = [{"role": "user", "content": [
                {"type": "text", "text": "Reply with the word OK."},
                {"type": "input_audio", "input_audio": {"data": tiny_wav_base64(), "format": "wav"}}]}]
            self._preflight_call(payload, probe, "a request with 0.1 s of audio", listed,
                                 hint="the server did not accept an input_audio part; drop "
                                      "--model_args audio=true to send transcripts instead "
                                      "(see --asr)")
        return {
            "backend": self.name,
            "requested_model": self.model_id,
            "served_model": self.served_model,
            "context_length": self.context_length,
            "context_length_source": self.context_length_source,
            "supports_images": self.supports_images,
            "supports_audio": bool(audio),
            "listed_models": sorted(listed),
            "model_listed": None if not listed else not unlisted,
        }

    def _llama_cpp_context(self) -> int | None:
        """llama.cpp's serving context per request (`/props`: default_generation_settings.n_ctx,
        one slot's; its /v1/models has only n_ctx_train, the training context), the least over
        the endpoints that answer; None when none does. One GET per endpoint, no retries."""
        import openai

        found = []
        for endpoint in self.pool.endpoints:
            client = self._new_client(_server_root(endpoint.url), min(self.timeout, _PREFLIGHT_CONNECT_S))
            try:
                props = client.get("/props", cast_to=object)
            except (openai.OpenAIError, ValueError, TypeError, AttributeError):
                continue
            finally:
                client.close()
            settings = props.get("default_generation_settings") if isinstance(props, dict) else None
            n_ctx = settings.get("n_ctx") if isinstance(settings, dict) else None
            if isinstance(n_ctx, int) and not isinstance(n_ctx, bool) and n_ctx > 0:
                found.append(n_ctx)
        return min(found) if found else None

    def _list_models(self) -> dict[str, dict]:
        """GET /models once per endpoint, without retries: {id: entry} of the first that
        answers; {} when the server has no such list. With several endpoints, one that cannot be
        reached is rested (a warning) and the run goes on with the others; when none can be
        reached (or the only one cannot), this stops the run, in seconds."""
        import openai

        found = None
        unreachable = []
        for endpoint in self.pool.endpoints:
            client = self._get_client(endpoint).with_options(
                timeout=min(self.timeout, _PREFLIGHT_CONNECT_S))
            try:
                page = client.models.list()
            except openai.APIConnectionError as exc:   # APITimeoutError included
                cause = exc.__cause__ or exc
                what = "timed out" if isinstance(exc, openai.APITimeoutError) else f"connection error: {one_line(cause)}"
                unreachable.append(f"{endpoint.url} ({what})")
                self.pool.rest(endpoint, _PREFLIGHT_CONNECT_S)
                continue
            except (openai.OpenAIError, ValueError, TypeError, AttributeError):
                page = None                         # no /models (404) or an odd one: the chat probe decides
            if found is None:
                found = page if page is not None else False
        if len(unreachable) == len(self.pool.endpoints):
            where = unreachable[0] if len(unreachable) == 1 else "any of " + ", ".join(unreachable)
            raise ModelSetupError(self._clean(
                f"openai backend: cannot reach the server at {where}; is it running, "
                "and is base_url right (it usually ends in /v1)?"))
        for what in unreachable:
            log.warning("%s", self._clean(f"br-eval: warning: openai backend: cannot reach {what}; going on with the "
                                          "other endpoints (it is retried later)"))
        page = found or None
        if page is None:
            return {}
        out: dict[str, dict] = {}
        for item in getattr(page, "data", None) or []:
            entry = item.model_dump() if hasattr(item, "model_dump") else dict(item)
            if isinstance(entry.get("id"), str):
                out[entry["id"]] = entry
        return out

    def _preflight_call(self, payload, params, what: str, listed: dict, hint: str = "") -> Generation:
        try:
            return self._call(payload, params, retry_connection=False, preflight=True)
        except ModelCallError as exc:
            status = getattr(exc, "status", None)
            message = str(exc)
            if status == 404:
                path_fix = None if listed else self._path_hint(getattr(exc, "endpoint", None))
                if path_fix:
                    message += f"; {path_fix}"
                elif listed:
                    message += (f"; check {self.args_flag} model= (the server lists: "
                                f"{', '.join(sorted(listed)[:10])})")
                else:
                    message += f"; check {self.args_flag} model= and base_url (it usually ends in /v1)"
            elif status in (401, 403):
                message += f"; check {self.args_flag} api_key= (or OPENAI_API_KEY)"
            elif getattr(exc, "timed_out", False):
                message += (f" (not retried: a server that is still loading the model or is busy "
                            f"elsewhere; rerun when it answers, or raise {self.args_flag} timeout=)")
            elif hint:
                message += f"; {hint}"
            raise ModelSetupError(f"preflight ({what}) failed: {message}") from None

    def _path_hint(self, url: str | None) -> str | None:
        """After a 404 from a server that lists no models at `url`: the fix of base_url's path
        when GET <root>/models answers at a root the URL probably meant (lm-eval's style
        `.../v1/chat/completions`, or a URL without /v1), else None. At most two GETs, each
        bounded like the preflight's connect (no retries)."""
        import openai

        if not url:
            return None
        for root, fix in _likely_roots(url):
            client = self._new_client(root, min(self.timeout, _PREFLIGHT_CONNECT_S))
            try:
                page = client.models.list()
                if not isinstance(getattr(page, "data", None), list):
                    continue
            except (openai.OpenAIError, ValueError, TypeError, AttributeError):
                continue
            finally:
                client.close()
            return self._clean(f"base_url is wrong: the server answers /models at {root}; "
                               f"{fix} (base_url={root})")
        return None

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

        from media_cache.errors import MediaError

        def one(messages: list[Message]) -> Generation | ModelCallError | MediaError:
            try:
                return self._call(self.to_openai_messages(messages), params)
            except (ModelCallError, MediaError) as exc:
                return exc

        if not requests:
            return []
        for endpoint in self.pool.endpoints:
            self._get_client(endpoint)  # build the clients before the threads race for them
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(requests))) as pool:
            return list(pool.map(one, requests))

    def _call(self, payload: list[dict[str, Any]], params: dict[str, Any], *,
              retry_connection: bool = True, preflight: bool = False) -> Generation:
        # The preflight asks only that the server answers: a thinking model's one-token reply
        # may hold no text at all.
        try:
            return self.request(
                lambda client: client.chat.completions.create(model=self.model_id, messages=payload, **params),
                lambda response, attempts: self._to_generation(response, attempts, any_content=preflight),
                "a chat completion", retry_connection=retry_connection)
        except ModelCallError as exc:
            window = getattr(exc, "context_overflow", None)
            if window is not None and not preflight:   # a rerun would fail the same way: say what to change
                exc.args = (f"{exc}; {self._context_hint(window)}",)
            raise

    def _context_hint(self, window: int) -> str:
        """What to change after a 400 saying the prompt exceeds the server's context (`window`:
        its size in tokens when the error gives it, else 0)."""
        said = f" ({window} tokens)" if window else ""
        if self.args_flag != "--model_args":
            return f"the prompt is longer than the server's context{said}"
        if self.context_length and (not window or window >= self.context_length):
            # full-context already fits its history to this window, by an estimate of the tokens
            return (f"the prompt is longer than the server's context{said}, although full-context "
                    f"fits its history to context_length={self.context_length} by an estimate "
                    "(4 characters a token): pass a smaller --model_args context_length or "
                    "--agent_args max_context_tokens; a rerun as is fails again")
        return (f"the prompt is longer than the server's context{said}: pass --model_args "
                f"context_length={window or 'N'} (the server's context size) so that full-context "
                "cuts its history to fit (rag, recent: fewer turns, top_k= / n=), or serve a longer "
                "context; a rerun as is fails again")

    def request(self, send, read, what: str, *, retry_connection: bool = True):
        """`send(client)` to the endpoints with this backend's retries, rests and bounds, and
        `read(response, attempt)` for the result; `read` returns None for a reply that is not
        `what` (e.g. "a chat completion"), or raises ReplyNotText saying what the reply holds
        instead of text: both count as a server error. The one retry loop
        of every OpenAI-compatible call (chat, and embeddings: evaluator.models.embeddings)."""
        import openai

        from evaluator.models._http import RedirectRefused, ReplyTooLarge

        attempts = self.max_retries + 1
        previous = None
        for attempt in range(1, attempts + 1):
            status = retry_after = overflow = None
            endpoint = self.pool.acquire()
            client = self._get_client(endpoint)
            kind = None
            released = False
            try:
                response = send(client)
            except openai.APIStatusError as exc:
                status = exc.status_code
                detail = f"HTTP {status}: {_server_message(exc)}"
                overflow = _context_overflow(exc) if status == 400 else None
                kind = "transient" if status in _TRANSIENT_STATUS else "server" if status >= 500 else "final"
                if status == 501:   # Not Implemented: no retry can change that
                    kind = "final"
                retry_after = _retry_after_seconds(exc)
            except openai.APITimeoutError:
                # a probe (retry_connection False) says so after one wait, not after every retry
                detail = f"timed out after {self.timeout:g} s"
                kind = "transient" if retry_connection else "final"
            except openai.APIConnectionError as exc:
                cause = exc.__cause__ or exc
                if isinstance(cause, ReplyTooLarge):
                    detail, kind = f"reply larger than {MAX_REPLY_BYTES // (1024 * 1024)} MiB, not read further", "final"
                elif isinstance(cause, RedirectRefused):
                    detail, kind = str(cause), "final"
                else:
                    detail = f"connection error: {one_line(cause)}"
                    kind = "transient" if retry_connection else "final"
            except ValueError as exc:      # a 200 whose body is not JSON (json.JSONDecodeError)
                detail, kind = f"invalid JSON in the reply ({one_line(exc, 120)})", "server"
            except RecursionError:         # valid JSON nested deeper than Python parses
                detail, kind = "invalid JSON in the reply (nested too deeply to read)", "server"
            except openai.OpenAIError as exc:  # other client-side failures: not retryable
                detail, kind = f"{type(exc).__name__}: {one_line(exc)}", "final"
            else:
                final = False
                try:
                    result, detail = read(response, attempt), None
                except ReplyNotText as exc:
                    result, detail, final = None, str(exc), exc.final
                if result is not None:
                    self.pool.release(endpoint, ok=True)
                    released = True
                    if isinstance(result, Generation):   # who answered (answer_sources)
                        result.raw["endpoint"] = self._clean(endpoint.url)
                    return result
                detail = detail or f"the reply is not {what} ({_excerpt(response)})"
                kind = "final" if final else "server"
            finally:
                if not released:    # a 4xx is the request's fault, not the endpoint's
                    self.pool.release(endpoint, ok=kind == "final")

            repeated = kind == "server" and detail == previous
            previous = detail
            if kind == "final" or repeated or attempt == attempts:
                tried = f" after {attempt} attempts" if attempt > 1 else ""
                if repeated:
                    tried += " (the same error twice: not retried further)"
                error = ModelCallError(self._clean(
                    f"openai backend: {endpoint.url} model {self.model_id!r}: {detail}{tried}"))
                error.status = status
                error.endpoint = endpoint.url
                error.context_overflow = overflow
                error.timed_out = detail.startswith("timed out")
                raise error
            delay = min(self.backoff * 2 ** (attempt - 1), _MAX_BACKOFF_S)
            delay *= 1 + 0.1 * random.random()  # jitter so concurrent retries do not stampede
            if retry_after is not None:
                delay = max(delay, min(retry_after, _MAX_BACKOFF_S))
            # This endpoint rests; the retry goes at once to another one that is not resting.
            self.pool.rest(endpoint, delay if retry_after is not None or len(self.pool.endpoints) == 1
                           else max(delay, self.pool.rest_for(endpoint)))
            wait = self.pool.wait_s()
            log.warning("%s", self._clean(f"br-eval: warning: openai backend: {endpoint.url}: {detail} (attempt {attempt} "
                                          f"of {attempts}); retrying in {wait:.2f} s"
                                          + (" on another endpoint" if len(self.pool.endpoints) > 1 and
                                             wait < delay else "")))
            if wait > 0:
                time.sleep(wait)
        raise AssertionError("unreachable")

    def _to_generation(self, response, attempts: int, any_content: bool = False) -> Generation | None:
        """The Generation of a chat completion; None when `response` is not one. A message
        without text raises ReplyNotText, or is an empty text when `any_content`."""
        choices = getattr(response, "choices", None)
        if isinstance(choices, list) and not choices:
            raise ReplyNotText("the server returned no choices")
        if not isinstance(choices, list):
            return None
        choice = choices[0]
        if getattr(choice, "finish_reason", None) == "content_filter" and not any_content:
            # what the filter let through, if anything, is not the model's reply
            raise ReplyNotText("the provider's content filter stopped the reply (finish_reason "
                               "content_filter)", final=True)
        try:
            text = _reply_text(choice)
        except ReplyNotText:
            if not any_content:
                raise
            text = ""
        usage = getattr(response, "usage", None)
        served = getattr(response, "model", None)
        raw = {"finish_reason": getattr(choice, "finish_reason", None),
               "served_model": served if isinstance(served, str) else None,
               "attempts": attempts}
        if len(text) > MAX_REPLY_CHARS:
            raw["truncated_from_chars"] = len(text)
            text = text[:MAX_REPLY_CHARS]
        return Generation(
            text=text,
            input_tokens=_int_or_none(getattr(usage, "prompt_tokens", None)),
            output_tokens=_int_or_none(getattr(usage, "completion_tokens", None)),
            raw=raw,
            requested_model=self.model_id,
            served_model=raw["served_model"],
        )


def endpoint_urls(base_url: str) -> list[str]:
    """`URL`, `URL1|URL2|...`, or the path of a file with one URL a line (blank lines and
    `#` comments skipped) -> the list of endpoint URLs, each checked."""
    text = str(base_url).strip()
    if "|" not in text and not text.startswith(("http://", "https://")) and os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as fh:
                urls = [line.split("#", 1)[0].strip() for line in fh]
        except (OSError, UnicodeDecodeError) as exc:
            raise EvalError(f"openai backend: cannot read the base_url file {text}: {exc}") from None
        urls = [u for u in urls if u]
        if not urls:
            raise EvalError(f"openai backend: the base_url file {text} lists no URL")
    else:
        urls = [u.strip() for u in text.split("|")]
    for url in urls:
        if not url.startswith(("http://", "https://")):
            raise EvalError(f"openai backend: base_url must start with http:// or https:// "
                            f"(got {redact(url, [])!r}); several servers: URL1|URL2 or a file of URLs")
        split_query(url)          # a query naming a parameter twice is refused here
    urls = [u.rstrip("/") for u in urls]
    if len(set(urls)) < len(urls):
        raise EvalError("openai backend: base_url lists the same server twice")
    return urls


def split_query(url: str) -> tuple[str, dict[str, str]]:
    """(`url` without its query, the query's parameters in order): `https://h/v1?api-version=x`
    -> (`https://h/v1`, {"api-version": "x"}). EvalError when the query names a parameter twice
    (the client's default_query holds one value each)."""
    from urllib.parse import parse_qsl, urlsplit, urlunsplit

    parts = urlsplit(url)
    if not parts.query:
        return url, {}
    query: dict[str, str] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name in query:
            raise EvalError(f"openai backend: base_url's query names {name!r} twice "
                            f"({redact(url, [])})")
        query[name] = value
    root = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", parts.fragment))
    return root, query


_API_TAILS = ("/chat/completions", "/completions", "/models")


def _likely_roots(url: str) -> list[tuple[str, str]]:
    """The API roots a base_url that got a 404 probably meant, each with the fix in words:
    `.../v1/chat/completions` -> (`.../v1`, "drop /chat/completions"); `http://host:port` ->
    (`http://host:port/v1`, "add /v1")."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    base, tail = path, ""
    for suffix in _API_TAILS:
        if path.endswith(suffix):
            base, tail = path[: -len(suffix)], suffix
            break
    options = []
    if tail:
        options.append((base, f"drop {tail}"))
    if not base.endswith("/v1"):
        options.append((base + "/v1", f"drop {tail} and add /v1" if tail else "add /v1"))
    return [(urlunsplit((parts.scheme, parts.netloc, root, parts.query, "")), fix)
            for root, fix in options if root != path]


class Endpoint:
    def __init__(self, url: str) -> None:
        self.url = url
        self.client = None
        self.outstanding = 0          # requests sent and not answered yet
        self.rested_until = 0.0       # time.monotonic() before which it gets no requests
        self.failures = 0             # failures in a row
        self.sent = 0                 # requests sent in all


class EndpointPool:
    """Least-outstanding-requests choice among endpoints that are not resting."""

    REST_S = 2.0                      # first rest of a failing endpoint when several exist

    def __init__(self, urls: list[str]) -> None:
        self.endpoints = [Endpoint(u) for u in urls]
        self._lock = threading.Lock()
        self._turn = 0

    def acquire(self) -> Endpoint:
        """The endpoint for the next request (the caller then calls release). When all rest,
        the one whose rest ends first."""
        with self._lock:
            now = time.monotonic()
            ready = [e for e in self.endpoints if e.rested_until <= now]
            if ready:
                n = len(self.endpoints)
                order = {id(e): (i - self._turn) % n for i, e in enumerate(self.endpoints)}
                endpoint = min(ready, key=lambda e: (e.outstanding, order[id(e)]))
            else:
                endpoint = min(self.endpoints, key=lambda e: e.rested_until)
            self._turn = (self.endpoints.index(endpoint) + 1) % len(self.endpoints)
            endpoint.outstanding += 1
            endpoint.sent += 1
            return endpoint

    def release(self, endpoint: Endpoint, ok: bool) -> None:
        with self._lock:
            endpoint.outstanding -= 1
            if ok:
                endpoint.failures = 0
                endpoint.rested_until = 0.0

    def rest_for(self, endpoint: Endpoint) -> float:
        """How long a failing endpoint rests: doubles with each failure in a row, up to 60 s."""
        return min(self.REST_S * 2 ** max(endpoint.failures, 0), _MAX_BACKOFF_S)

    def rest(self, endpoint: Endpoint, seconds: float) -> None:
        with self._lock:
            endpoint.failures += 1
            endpoint.rested_until = max(endpoint.rested_until, time.monotonic() + seconds)

    def wait_s(self) -> float:
        """Seconds until some endpoint is ready (0: one is now)."""
        with self._lock:
            now = time.monotonic()
            return max(0.0, min(e.rested_until for e in self.endpoints) - now)


def _image_encoding(image_format, image_quality, max_image_side):
    from media_cache.delivery import ImageEncoding
    from media_cache.errors import MediaError

    try:
        return ImageEncoding(image_format, image_quality, max_image_side)
    except MediaError as exc:
        raise EvalError(f"openai backend: {exc}") from None


def _int_or_none(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _is_llama_cpp(entry: dict) -> bool:
    """A /v1/models entry of llama.cpp's server (owned_by "llamacpp", or its `meta.n_ctx_train`)."""
    meta = entry.get("meta")
    return entry.get("owned_by") == "llamacpp" or isinstance(meta, dict) and "n_ctx_train" in meta


def _server_root(url: str) -> str:
    """`url` without a trailing /v1 in its path (llama.cpp serves /props at its root)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    path = path[: -len("/v1")] if path.endswith("/v1") else path
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


_OVERFLOW = re.compile(r"context (size|length|window)|context_length_exceeded|exceed_context_size", re.I)
_WINDOW = re.compile(r"(?:maximum context length is|context size \(|context length \(|context window of)"
                     r"\s*(\d+)", re.I)


def _context_overflow(exc) -> int | None:
    """For an HTTP 400 saying the prompt does not fit the server's context (llama.cpp's
    exceed_context_size_error, vLLM's and OpenAI's "maximum context length is N tokens",
    SGLang's "longer than the model's context length (N tokens)"): the context size in tokens when
    the error gives it, else 0; None for any other error."""
    body = exc.body if isinstance(exc.body, dict) else {}
    text = " ".join(str(body.get(k) or "") for k in ("message", "type", "code", "detail")) \
        if body else str(exc.body or "")
    if not _OVERFLOW.search(text):
        return None
    n_ctx = body.get("n_ctx")        # llama.cpp's newer errors carry it
    if isinstance(n_ctx, int) and not isinstance(n_ctx, bool) and n_ctx > 0:
        return n_ctx
    found = _WINDOW.search(text)
    return int(found.group(1)) if found else 0


def _context_length_of(entry: dict) -> int | None:
    """The context window a /v1/models entry publishes (vLLM: max_model_len)."""
    for key in ("max_model_len", "context_length", "context_window", "max_context_length", "n_ctx"):
        value = entry.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


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


class ReplyNotText(Exception):
    """A chat completion whose message holds no text reply: the message says what it holds.
    `final`: asking again cannot change it (not retried)."""

    def __init__(self, message: str, *, final: bool = False) -> None:
        super().__init__(message)
        self.final = final


def _reply_text(choice) -> str:
    """A choice's reply text: `content` as a string ("" is an empty reply), or its text parts
    joined when a server sends content as a list of parts; `refusal` (OpenAI's structured decline)
    when content is null or blank and it holds text; else ReplyNotText."""
    message = getattr(choice, "message", None)
    content = getattr(message, "content", None)
    refusal = getattr(message, "refusal", None)
    if (content is None or isinstance(content, str) and not content.strip()) \
            and isinstance(refusal, str) and refusal.strip():
        return refusal
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("text") if isinstance(p, dict) else getattr(p, "text", None) for p in content]
        texts = [t for t in texts if isinstance(t, str)]
        if texts:
            return "\n".join(texts)
        what = f"content is a list of {len(content)} part(s) without text"
    elif message is None:
        what = "no message"
    elif content is not None:
        what = f"content of type {type(content).__name__}, not text"
    elif getattr(message, "tool_calls", None):
        what = "tool calls and no content"
    elif getattr(message, "reasoning_content", None) or getattr(message, "reasoning", None):
        what = "reasoning_content and no content"
    else:
        what = "content null"
    finish = getattr(choice, "finish_reason", None)
    if isinstance(finish, str):
        what += f", finish_reason {one_line(finish, 40)!r}"
        if finish == "length":
            what += " (raise max_tokens in --gen_kwargs?)"
    raise ReplyNotText(f"the reply holds no text answer ({what})")


_HTML = re.compile(r"\s*(<!doctype\s+html|<html|<head|<body)", re.I)


def _excerpt(body: object, content_type: str = "", hint: bool = True) -> str:
    """At most ~200 characters of a reply body on one line; an HTML page is named as such
    (with the likely fix when `hint`) and shown as its text without tags, never as markup."""
    text = body if isinstance(body, str) else repr(body)
    text = text[:20_000]
    if "html" in content_type.lower() or _HTML.match(text):
        import html as html_lib

        words = re.sub(r"<(script|style|title)\b.*?</\1\s*>|<[^>]*>", " ", text, flags=re.S | re.I)
        return ("an HTML page, not an OpenAI-compatible API (is base_url the server's /v1?): "
                if hint else "an HTML page: ") + one_line(html_lib.unescape(words), 200)
    return one_line(text, 200)


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
        headers = getattr(getattr(exc, "response", None), "headers", None) or {}
        # a proxy's 502 page is the server being down; a 404 or 501 page, the wrong server
        status = getattr(exc, "status_code", 0) or 0
        return _excerpt(body, headers.get("content-type", ""), hint=status < 500 or status == 501)
    return one_line(getattr(exc.response, "reason_phrase", "") or "no message")


def _retry_after_seconds(exc) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, ValueError):
        return None
