"""Backends that fail fast and run reproducibly (issue 11's backend parts, issue 17 items 4 and 13).

Every server here is a fake OpenAI-compatible server on 127.0.0.1 reached through the real openai
client library; the hf cases use tiny random-weight models built from configs (they cannot show
answer quality, only loading, the processor check and the settings that reach generate())."""

from __future__ import annotations

import importlib.util
import json
import re
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from evaluator.errors import record_failure
from evaluator.records import Sample
from evaluator.models import (describe_model, make_model, parse_kv_args, preflight,
                              split_model_args)
from evaluator.models._common import GEN_DEFAULTS, parse_stop
from evaluator.models.base import Message, ModelCallError, ModelSetupError, ModelUsageError
from evaluator.models.openai_backend import MAX_REPLY_CHARS


class Server:
    """A scriptable OpenAI-compatible server. `chat(body, headers)` returns (status, body bytes or
    dict, headers) or None for an echo; `models` is /v1/models' data list (None: 404); `strict`:
    any other route is a 404, as on vLLM (`paths` records each request's method and path);
    `trickle` sends headers, then the body one byte every `trickle` seconds."""

    def __init__(self, served_model=None, models=None, strict=False):
        self.requests, self.model_requests, self.paths = [], 0, []
        self.strict = strict
        self.served_model, self.models = served_model, models
        self.chat = None
        self.trickle = None
        self.trickle_headers = False
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                server.model_requests += 1
                server.paths.append(("GET", self.path))
                if server.models is None or (server.strict and self.path != "/v1/models"):
                    return self._send(404, {"error": {"message": "no such route"}})
                self._send(200, {"object": "list", "data": server.models})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                server.paths.append(("POST", self.path))
                if server.strict and not re.fullmatch(r"/v\d/chat/completions", self.path):   # as vLLM answers an unknown route
                    return self._send(404, {"detail": "Not Found"})
                server.requests.append(body)
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = server.chat(body, headers) if server.chat else None
                if reply is None:
                    reply = (200, server.completion(body, server.served_model or body["model"]), {})
                status, payload, extra = reply
                self._send(status, payload, extra)

            def _send(self, status, payload, extra=None):
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                try:
                    if server.trickle and server.trickle_headers:
                        head = f"HTTP/1.1 {status} OK\r\nContent-Length: {len(data)}\r\n\r\n".encode()
                        for byte in head:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            time.sleep(server.trickle)
                        return
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (extra or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    if server.trickle:
                        for i in range(len(data)):
                            self.wfile.write(data[i:i + 1])
                            self.wfile.flush()
                            time.sleep(server.trickle)
                    else:
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @staticmethod
    def completion(body, model, text=None):
        return {"id": "c", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text or "OK"}}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}

    def __enter__(self):
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def has_image(body) -> bool:
    return any(isinstance(m["content"], list) and any(p.get("type") == "image_url" for p in m["content"])
               for m in body["messages"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ask(text="q"):
    return [Message.text("user", text)]


# -- preflight -----------------------------------------------------------------------------------
def test_preflight_learns_served_model_and_context_length_and_describe_reports_them():
    # llama.cpp answers any model name with its loaded model; vLLM lists max_model_len.
    with Server(served_model="llama-3.2-1b-q4", models=[{"id": "tiny-vlm", "object": "model",
                                                          "max_model_len": 8192}]) as srv:
        model = make_model("openai", {"base_url": srv.base_url, "model": "tiny-vlm", "api_key": "sk-secret-1"})
        info = preflight(model, images=True, gen_kwargs={"stop": "a|b"})
        assert info["served_model"] == "llama-3.2-1b-q4" and info["requested_model"] == "tiny-vlm"
        assert info["context_length"] == 8192 and info["context_length_source"] == "/v1/models"
        assert info["supports_images"] is True and model.context_length == 8192
        assert len(srv.requests) == 2 and has_image(srv.requests[1]) and not has_image(srv.requests[0])
        assert srv.requests[0]["max_tokens"] == 1 and srv.requests[0]["temperature"] == 0.0
        assert srv.requests[0]["stop"] == ["a", "b"]
        described = describe_model(model, {"max_tokens": 64})
        assert described["generation"] == {"temperature": 0.0, "max_tokens": 64}
        assert described["served_model"] == "llama-3.2-1b-q4" and described["context_length"] == 8192
        assert described["generation_defaults"] == GEN_DEFAULTS
        assert "sk-secret-1" not in json.dumps(described)
        # each answer records the model the server reported next to the one asked for
        generation = model.generate(ask())
        assert (generation.requested_model, generation.served_model) == ("tiny-vlm", "llama-3.2-1b-q4")


def test_wrong_model_name_stops_with_one_line_naming_the_served_ones():
    with Server(models=[{"id": "qwen2-vl-7b"}]) as srv:
        srv.chat = lambda body, h: (404, {"error": {"message": f"The model `{body['model']}` does not exist."}}, {})
        model = make_model("openai", {"base_url": srv.base_url, "model": "qwen2-vl", "max_retries": 5})
        with pytest.raises(ModelSetupError) as info:
            preflight(model, images=False)
    message = str(info.value)
    assert "\n" not in message and info.value.exit_code == 1
    assert "HTTP 404" in message and "model=" in message and "qwen2-vl-7b" in message
    assert len(srv.requests) == 1


@pytest.mark.parametrize("tail, fix", [
    ("/v1/chat/completions", "drop /chat/completions"),       # lm-eval's local-chat-completions style
    ("", "add /v1"),
    ("/", "add /v1"),
    ("/chat/completions", "drop /chat/completions and add /v1"),
])
def test_a_wrong_base_url_path_is_diagnosed_as_a_path_not_a_model_name(tail, fix):
    with Server(models=[{"id": "m"}], strict=True) as srv:
        root = srv.base_url.removesuffix("/v1")
        model = make_model("openai", {"base_url": root + tail, "model": "m", "max_retries": 3})
        with pytest.raises(ModelSetupError) as info:
            preflight(model, images=False)
    message = str(info.value)
    assert "\n" not in message and "HTTP 404" in message and "model=" not in message
    assert f"the server answers /models at {root}/v1; {fix} (base_url={root}/v1)" in message
    # no retries of the 404: one chat POST; GETs: the listing at the wrong root, then the probes
    assert [m for m, _ in srv.paths].count("POST") == 1 and srv.paths[-1] == ("GET", "/v1/models")


def test_a_404_from_a_server_nobody_answers_for_names_both_suspects():
    with Server(models=None, strict=True) as srv:      # no /v1/models anywhere, chat on a wrong path
        model = make_model("openai", {"base_url": srv.base_url + "/chat/completions", "model": "m"})
        with pytest.raises(ModelSetupError, match=r"HTTP 404.*; check --model_args model= and base_url "
                                                  r"\(it usually ends in /v1\)$"):
            preflight(model, images=False)


def test_unreachable_server_stops_in_seconds_without_retries():
    model = make_model("openai", {"base_url": f"http://127.0.0.1:{free_port()}/v1", "model": "m",
                                  "max_retries": 6, "backoff": 2.0})
    started = time.perf_counter()
    with pytest.raises(ModelSetupError, match=r"cannot reach the server at http://127\.0\.0\.1:\d+/v1"):
        preflight(model, images=False)
    assert time.perf_counter() - started < 3.0     # the normal retries would wait 2+4+8+... s


def test_text_only_server_refusing_images_names_supports_images_false():
    with Server(models=[{"id": "m"}]) as srv:
        srv.chat = lambda body, h: (500, {"error": {"message": "Unsupported content part image_url"}}, {}) \
            if has_image(body) else None
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "backoff": 0.01})
        with pytest.raises(ModelSetupError) as info:
            preflight(model, images=True)
        assert "supports_images=false" in str(info.value) and "HTTP 500" in str(info.value)
        assert len(srv.requests) == 3          # text probe, image probe, one retry of the identical 500
        # told that it is text-only, the preflight sends no image
        srv.requests.clear()
        text_only = make_model("openai", {"base_url": srv.base_url, "model": "m", "supports_images": False})
        assert preflight(text_only, images=True)["supports_images"] is False
        assert len(srv.requests) == 1 and not has_image(srv.requests[0])


def test_a_typo_in_gen_kwargs_is_a_usage_error_before_any_request():
    with Server(models=[]) as srv:
        model = make_model("openai", {"base_url": srv.base_url, "model": "m"})
        with pytest.raises(ModelUsageError, match="unknown generation setting 'temperatur'") as info:
            preflight(model, images=False, gen_kwargs={"temperatur": 0})
        assert info.value.exit_code == 2 and srv.requests == [] and srv.model_requests == 0
        with pytest.raises(ModelUsageError):
            preflight(make_model("mock", {}), gen_kwargs={"temperatur": 0})


def test_mock_preflight_makes_no_scripted_call_and_can_be_told_to_fail():
    model = make_model("mock", {"replies": "x", "context_length": 4096})
    assert preflight(model, images=True)["context_length"] == 4096 and model.call_count == 0
    with pytest.raises(ModelSetupError, match="mock backend: server is down"):
        preflight(make_model("mock", {"preflight_error": "server is down"}))


@pytest.mark.parametrize("module, kind, args, extra", [
    ("openai", "openai", {"base_url": "http://127.0.0.1:9/v1", "model": "m"}, "openai"),
    ("transformers", "hf", {"pretrained": "org/model"}, "vlm"),
    ("torch", "hf", {"pretrained": "org/model"}, "vlm"),
])
def test_missing_optional_extra_is_one_line_with_the_install_command(module, kind, args, extra):
    # A base install, simulated: the module cannot be imported in this child process.
    if module == "torch" and importlib.util.find_spec("transformers") is None:
        pytest.skip("transformers is not installed either, so the hf backend names it first")
    code = (f"import sys; sys.modules[{module!r}] = None\n"
            "from evaluator.errors import EvalError\nfrom evaluator.models import make_model\n"
            f"try:\n    make_model({kind!r}, {args!r})\n"
            "except EvalError as exc:\n    print(exc.exit_code, exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stderr == ""
    assert out.stdout.strip().splitlines() == [
        f"1 {'the openai backend needs the openai client library' if kind == 'openai' else f'the hf backend needs {module}, which is not installed'}: "
        f"pip install 'br-eval[{extra}]'"]


def test_the_openai_judge_gets_the_same_extra_hint():
    code = ("import sys; sys.modules['openai'] = None\nfrom evaluator.errors import EvalError\n"
            "from evaluator.scoring import make_judge\n"
            "try:\n    make_judge('openai', {'base_url': 'http://127.0.0.1:9/v1', 'model': 'm'})\n"
            "except EvalError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "pip install 'br-eval[openai]'" in out.stdout and out.stderr == ""


# -- generation defaults -------------------------------------------------------------------------
def test_every_request_carries_temperature_0_and_max_tokens_512_unless_overridden():
    with Server() as srv:
        model = make_model("openai", {"base_url": srv.base_url, "model": "m"})
        model.generate(ask())
        model.generate(ask(), **parse_kv_args("temperature=0.7,max_tokens=40,stop=\\n\\n|###"))
        model.generate(ask(), do_sample=True)
    assert {k: srv.requests[0][k] for k in ("temperature", "max_tokens")} == {"temperature": 0.0, "max_tokens": 512}
    assert "stop" not in srv.requests[0]
    assert srv.requests[1]["temperature"] == 0.7 and srv.requests[1]["max_tokens"] == 40
    assert srv.requests[1]["stop"] == ["\n\n", "###"]
    assert srv.requests[2]["temperature"] == 1.0

    mock = make_model("mock", {"replies": "one two three four"})
    assert mock.generate(ask()).text == "one two three four"
    assert mock.calls[0]["settings"] == {"temperature": 0.0, "max_tokens": 512}
    assert mock.generate(ask(), max_tokens=2, stop="x|four").text == "one two three "
    assert mock.calls[1]["settings"] == {"temperature": 0.0, "max_tokens": 2, "stop": ["x", "four"]}


def test_stop_syntax():
    assert parse_stop("a|b") == ["a", "b"]
    assert parse_stop(r"x\|y|z") == ["x|y", "z"]
    assert parse_stop(r"\n\n|\t") == ["\n\n", "\t"]
    assert parse_stop(["a|b"]) == ["a|b"]        # a list from Python is taken as it is
    assert parse_stop("END") == ["END"]


# -- retries -------------------------------------------------------------------------------------
def test_identical_500_is_given_up_after_one_retry_but_changing_ones_are_retried():
    with Server() as srv:
        srv.chat = lambda body, h: (500, {"error": {"message": "model has no vision tower"}}, {})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "max_retries": 6, "backoff": 0.01})
        with pytest.raises(ModelCallError, match="the same error twice"):
            model.generate(ask())
        assert len(srv.requests) == 2
        counter = iter(range(100))
        srv.chat = lambda body, h: (500, {"error": {"message": f"worker {next(counter)} crashed"}}, {})
        with pytest.raises(ModelCallError, match="after 7 attempts"):
            model.generate(ask())
        assert len(srv.requests) == 2 + 7


def test_context_overflow_400_is_not_retried():
    with Server() as srv:
        srv.chat = lambda body, h: (400, {"error": {"message": "This model's maximum context length is 8192 tokens"}}, {})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "max_retries": 6})
        with pytest.raises(ModelCallError, match="HTTP 400: This model's maximum context length"):
            model.generate(ask())
        assert len(srv.requests) == 1


def test_429_retry_after_is_honoured():
    with Server() as srv:
        replies = [(429, {"error": {"message": "slow down"}}, {"Retry-After": "0.6"})]
        srv.chat = lambda body, h: replies.pop() if replies else None
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "backoff": 0.01})
        started = time.perf_counter()
        assert model.generate(ask()).raw["attempts"] == 2
        assert time.perf_counter() - started >= 0.6


def test_invalid_json_is_a_model_error_naming_the_server_and_retried_as_a_server_error():
    with Server() as srv:
        srv.chat = lambda body, h: (200, b"{this is not json", {})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "max_retries": 4, "backoff": 0.01})
        with pytest.raises(ModelCallError) as info:
            model.generate(ask())
    assert "invalid JSON" in str(info.value) and srv.base_url in str(info.value)
    assert len(srv.requests) == 2                    # retried once, then the same error twice
    sample = Sample("k", "t")
    record_failure(sample, info.value)
    assert sample.error_kind == "model"


def test_known_secrets_are_redacted_from_error_text():
    with Server() as srv:
        srv.chat = lambda body, h: (401, {"error": {"message": f"bad header: {h['authorization']}"}}, {})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "api_key": "sk-live-9f8e7d6c"})
        with pytest.raises(ModelCallError) as info:
            model.generate(ask())
    assert "sk-live-9f8e7d6c" not in str(info.value) and "bad header: ***" in str(info.value)
    assert "sk-live" not in repr(model)


# -- bounds --------------------------------------------------------------------------------------
def test_timeout_bounds_a_body_that_trickles_one_byte_at_a_time():
    with Server() as srv:
        srv.trickle = 0.25                            # a ~250-byte reply would take a minute
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "timeout": 1.0, "max_retries": 1,
                                      "backoff": 0.01})
        started = time.perf_counter()
        with pytest.raises(ModelCallError, match=r"timed out after 1 s after 2 attempts"):
            model.generate(ask())
        elapsed = time.perf_counter() - started
    assert elapsed < 3.5                              # two attempts of 1 s each, plus slack


def test_a_server_that_lists_models_but_never_answers_stops_the_preflight_after_one_wait():
    # the audit: /v1/models answered, the chat request hung; the preflight waited out every
    # retry (4 attempts of the timeout and their backoff) before its one line
    with Server(models=[{"id": "m", "object": "model"}]) as srv:
        srv.chat = lambda body, h: time.sleep(3) or (200, Server.completion(body, "m"), {})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "timeout": 0.5,
                                      "max_retries": 3, "backoff": 0.5})
        started = time.perf_counter()
        with pytest.raises(ModelSetupError, match=r"timed out after 0.5 s \(not retried: .*timeout="):
            preflight(model)
        assert time.perf_counter() - started < 2.0 and len(srv.requests) == 1


def test_timeout_bounds_trickled_headers_too():
    with Server() as srv:
        srv.trickle, srv.trickle_headers = 0.3, True
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "timeout": 1.0, "max_retries": 0})
        started = time.perf_counter()
        with pytest.raises(ModelCallError, match="timed out"):
            model.generate(ask())
        assert time.perf_counter() - started < 2.0


def test_the_judge_shares_the_bounded_transport():
    from evaluator.scoring import make_judge

    with Server() as srv:
        srv.trickle = 0.25
        judge = make_judge("openai", {"base_url": srv.base_url, "model": "judge", "timeout": 1,
                                      "max_retries": 0})
        started = time.perf_counter()
        result = judge.grade("When?", "May", "May")
        assert result.error and "timed out" in result.error
        assert time.perf_counter() - started < 2.5


def test_reply_size_is_capped():
    with Server() as srv:
        srv.chat = lambda body, h: (200, Server.completion(body, "m", "x" * (9 * 1024 * 1024)), {})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "max_retries": 3, "backoff": 0.01})
        with pytest.raises(ModelCallError, match="reply larger than 8 MiB"):
            model.generate(ask())
        assert len(srv.requests) == 1
        srv.chat = lambda body, h: (200, Server.completion(body, "m", "y" * (MAX_REPLY_CHARS + 10)), {})
        generation = model.generate(ask())
    assert len(generation.text) == MAX_REPLY_CHARS
    assert generation.raw["truncated_from_chars"] == MAX_REPLY_CHARS + 10


def gzip_bomb(inflated_mib: int) -> bytes:
    """A valid gzip body of `inflated_mib` MiB of zeros, about 1 KB per MiB: each MiB is one
    block ended by a full flush, so the same compressed block repeats."""
    import struct
    import zlib
    mib = bytes(1 << 20)
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = packer.compress(mib) + packer.flush(zlib.Z_FULL_FLUSH)
    assert packer.compress(mib) + packer.flush(zlib.Z_FULL_FLUSH) == block
    crc = 0
    for _ in range(inflated_mib):
        crc = zlib.crc32(mib, crc)
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + block * inflated_mib + packer.flush()
            + struct.pack("<II", crc, (inflated_mib << 20) & 0xFFFFFFFF))


def test_reply_size_cap_counts_decompressed_bytes_with_bounded_memory():
    """A ~1 MB gzip reply that inflates to 1 GiB stops at the 8 MiB cap: one clear error, no retry,
    and the peak of Python allocations stays far below the inflated size (measured by tracemalloc)."""
    import gzip
    import tracemalloc
    bomb = gzip_bomb(1024)
    assert len(bomb) < 1_200_000
    with Server() as srv:
        srv.chat = lambda body, h: (200, bomb, {"Content-Encoding": "gzip"})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "max_retries": 3, "backoff": 0.01})
        tracemalloc.start()
        try:
            started = time.monotonic()
            with pytest.raises(ModelCallError, match="reply larger than 8 MiB, not read further"):
                model.generate(ask())
            took = time.monotonic() - started
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(srv.requests) == 1                     # a final error: not retried
        assert peak < 48 * 1024 * 1024, f"peak {peak / 2**20:.0f} MiB while reading a gzip bomb"
        assert took < 15                                   # ~1 s here; tracemalloc slows the client's import
        # An honest gzip reply is inflated and read as before, and it was asked for.
        srv.chat = lambda body, h: (200, gzip.compress(json.dumps(Server.completion(body, "m", "zipped")).encode()),
                                    {"Content-Encoding": "gzip"})
        assert model.generate(ask()).text == "zipped"
        seen = {}
        srv.chat = lambda body, h: seen.update(h) or None
        model.generate(ask())
        assert seen["accept-encoding"] == "gzip, deflate"
        # A coding that was not asked for is refused rather than decoded uncounted.
        srv.chat = lambda body, h: (200, b"\x00" * 64, {"Content-Encoding": "br"})
        with pytest.raises(ModelCallError, match="content-encoding 'br', which was not asked for"):
            model.generate(ask())


def test_a_redirect_to_another_host_is_not_followed_and_never_gets_the_prompt():
    with Server() as elsewhere, Server() as srv:
        target = elsewhere.base_url + "/chat/completions"
        srv.chat = lambda body, h: (307, b"", {"Location": target})
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "max_retries": 3, "backoff": 0.01})
        with pytest.raises(ModelCallError, match=r"HTTP 307 redirect to another origin \(http://127\.0\.0\.1:\d+\) "
                                                 r"not followed$"):
            model.generate(ask("the secret prompt"))
        assert len(srv.requests) == 1 and elsewhere.requests == []      # not retried, nothing sent there
        # A redirect within the same origin is followed (a proxy moving its path, say).
        moved = srv.base_url.replace("/v1", "/v2") + "/chat/completions"
        srv.chat = lambda body, h: (307, b"", {"Location": moved}) if len(srv.requests) == 2 else None
        assert model.generate(ask()).text == "OK"
        assert len(srv.requests) == 3 and srv.requests[2] == srv.requests[1]   # the second was the redirect


# -- settings and arguments ----------------------------------------------------------------------
def test_settings_split_into_answer_changing_and_transport():
    answer, transport = split_model_args("openai", {
        "base_url": "http://x/v1", "model": "m", "api_key": "k", "timeout": 5, "concurrency": 8,
        "max_retries": 2, "backoff": 1, "supports_images": False, "context_length": 8192})
    assert answer == {"model": "m", "supports_images": False, "context_length": 8192}
    assert set(transport) == {"base_url", "api_key", "timeout", "concurrency", "max_retries", "backoff"}
    answer, transport = split_model_args("hf", {"pretrained": "p", "dtype": "bfloat16", "device": "cuda:1",
                                                "max_new_tokens": 64, "revision": "abc"})
    assert set(answer) == {"pretrained", "dtype", "max_new_tokens", "revision"} and transport == {"device": "cuda:1"}
    assert split_model_args("mystery", {"x": 1}) == ({"x": 1}, {})


def test_an_apostrophe_inside_a_value_is_not_a_quote():
    assert parse_kv_args("replies=I don't know,n=2") == {"replies": "I don't know", "n": 2}
    assert parse_kv_args("note='a,b',x=1") == {"note": "a,b", "x": 1}


def test_kv_values_follow_one_rule():
    assert parse_kv_args("media=none,a=null,b=True,c=false,d=3,e=2.5,f=1e3,g=007x,h='12'") == {
        "media": "none", "a": "null", "b": True, "c": False, "d": 3, "e": 2.5, "f": 1000.0, "g": "007x",
        "h": "12"}


def test_cache_keeps_the_served_model(tmp_path):
    with Server(served_model="loaded-model") as srv:
        model = make_model("openai", {"base_url": srv.base_url, "model": "asked"}, cache_path=tmp_path / "c.sqlite")
        model.generate(ask())
        hit = model.generate(ask())
    assert hit.cached and (hit.requested_model, hit.served_model) == ("asked", "loaded-model")
    assert len(srv.requests) == 1


# -- full-context and the server's window --------------------------------------------------------
def test_full_context_budget_is_bounded_by_the_servers_context_length():
    from evaluator.agents.builtin import FullContextAgent, text_tokens
    from evaluator.agents.protocol import MemorySession, MemoryTurn, Query

    turns = [MemoryTurn(0, i, datetime(2024, 1, 1), "user", "word " * 200) for i in range(100)]  # ~250 tokens each
    query = Query("retrieval/x/1/q0", "x", "What did I say?", [], None)

    def prompt_tokens(model):
        agent = FullContextAgent(model)
        agent.write(MemorySession(0, datetime(2024, 1, 1), list(turns)))
        agent.answer(query)
        sent = model.calls[-1]["messages"]
        return sum(text_tokens(p.text) for m in sent for p in m.content)

    unbounded = prompt_tokens(make_model("mock", {"replies": "ok"}))
    assert unbounded > 20000                               # the 32,000 default budget
    window = make_model("mock", {"replies": "ok", "context_length": 8192})
    preflight(window)
    bounded = prompt_tokens(window)
    assert bounded + GEN_DEFAULTS["max_tokens"] <= 8192 and bounded > 8192 // 2


# -- hf ------------------------------------------------------------------------------------------
def test_hf_preflight_and_a_folder_without_processor(tmp_path, monkeypatch):
    pytest.importorskip("transformers")
    pytest.importorskip("torch")
    import shutil

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from tests.test_models_hf import build_tiny_llava

    folder = build_tiny_llava(tmp_path / "llava")
    model = make_model("hf", {"pretrained": str(folder), "device": "cpu"})
    info = preflight(model, images=True)
    assert info["context_length"] == 512 and info["supports_images"] is True
    assert describe_model(model)["generation"] == {"temperature": 0.0, "max_tokens": 512}

    broken = tmp_path / "no-processor"
    shutil.copytree(folder, broken)
    for name in ("preprocessor_config.json", "processor_config.json"):
        (broken / name).unlink(missing_ok=True)
    model = make_model("hf", {"pretrained": str(broken), "device": "cpu"})
    with pytest.raises(Exception) as info:
        preflight(model, images=True)
    assert "processor" in str(info.value) and "\n" not in str(info.value)
    assert getattr(info.value, "exit_code", None) == 1


def test_a_judge_setup_error_names_the_judges_flag():
    """A judge's wrong model name is fixed in --judge_args, not --model_args."""
    from evaluator.scoring import make_judge

    with Server(models=[{"id": "qwen2-7b"}]) as srv:
        srv.chat = lambda body, h: (404, {"error": {"message": f"The model `{body['model']}` does not exist."}}, {})
        judge = make_judge("openai", {"base_url": srv.base_url, "model": "qwen2"})
        with pytest.raises(ModelSetupError) as info:
            preflight(judge.model)
    assert "check --judge_args model=" in str(info.value) and "--model_args" not in str(info.value)
