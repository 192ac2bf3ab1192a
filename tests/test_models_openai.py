"""The openai backend against a fake OpenAI-compatible server on 127.0.0.1, through the real
openai client library: request shape (text, image data URLs, settings), usage, retries, errors,
concurrency, and the response cache keyed by image content."""

from __future__ import annotations

import base64
import json
import logging
import shutil
import socket
import threading
import time

import pytest
from PIL import Image

from evaluator.errors import EvalError
from evaluator.models import make_model
from evaluator.models.base import Generation, ImagePart, Message, ModelCallError, TextPart
from evaluator.models.cache import CachedChatModel, ResponseCache
from evaluator.models.openai_backend import OpenAIChatModel
from local_http import JsonHandler, LocalServer


class FakeOpenAIServer(LocalServer):
    """POST /v1/chat/completions. `script` is consumed one entry per request (then `default`):
    an entry is (status, json_body) or (status, json_body, headers). Replies echo the last user
    text, so tests can check which answer belongs to which request."""

    def __init__(self, delay: float = 0.0):
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.script: list[tuple] = []
        self.delay = delay
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        server = self

        class Handler(JsonHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                with server._lock:
                    server.requests.append({"path": self.path, **body})
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    entry = server.script.pop(0) if server.script else None
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    if server.delay:
                        time.sleep(server.delay)
                    if entry is None:
                        entry = (200, server.completion(body))
                    status, payload, *rest = entry
                    self.send_json(status, payload, rest[0] if rest else None)
                finally:
                    with server._lock:
                        server.in_flight -= 1

        self.serve(Handler)

    @staticmethod
    def completion(body: dict) -> dict:
        last = body["messages"][-1]["content"]
        if isinstance(last, list):
            last = " ".join(p["text"] for p in last if p["type"] == "text")
        return {
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": f"echo: {last}"}}],
            "usage": {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49},
        }

    @property
    def questions(self) -> list[dict]:
        """The requests that are not the run's preflight probes."""
        return [r for r in self.requests if not is_preflight(r)]


def chat_completion(content: str, model: str = "judge") -> dict:
    """A chat-completions reply whose message is `content` (a scripted judge's verdict)."""
    return {"id": "x", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def is_preflight(body: dict) -> bool:
    """The preflight's probes: max_tokens 1 and the fixed 'Reply with the word OK.' text."""
    content = body["messages"][-1]["content"]
    text = content if isinstance(content, str) else " ".join(
        p.get("text", "") for p in content if p.get("type") == "text")
    return body.get("max_tokens") == 1 and text == "Reply with the word OK."


def error_body(message: str) -> dict:
    return {"error": {"message": message, "type": "server_error", "code": None}}


@pytest.fixture
def server():
    with FakeOpenAIServer() as srv:
        yield srv


@pytest.fixture
def png(tmp_path):
    path = tmp_path / "frame.png"
    Image.new("RGB", (8, 6), (200, 30, 30)).save(path)
    return path


def model_for(server, **kwargs) -> OpenAIChatModel:
    kwargs.setdefault("backoff", 0.01)
    return OpenAIChatModel(server.base_url, "tiny-vlm", **kwargs)


def ask(text: str, *images) -> list[Message]:
    return [Message("user", (*[ImagePart(str(p)) for p in images], TextPart(text)))]


def test_text_and_image_arrive_as_chat_completions_parts(server, png, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")
    model = model_for(server)
    messages = [Message.text("system", "You remember things."),
                Message("user", (TextPart("What colour is this?"), ImagePart(str(png))))]
    generation = model.generate(messages)

    assert generation.text == "echo: What colour is this?"
    assert (generation.input_tokens, generation.output_tokens) == (42, 7)
    assert generation.cached is False and generation.raw["attempts"] == 1
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["model"] == "tiny-vlm"
    assert request["messages"][0] == {"role": "system", "content": "You remember things."}
    user = request["messages"][1]
    assert user["role"] == "user"
    assert user["content"][0] == {"type": "text", "text": "What colour is this?"}
    image_url = user["content"][1]["image_url"]["url"]
    assert user["content"][1]["type"] == "image_url"
    assert image_url == "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
    assert server.headers[0]["authorization"] == "Bearer sk-test-123"


def test_key_defaults_to_EMPTY_for_local_servers(server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model_for(server).generate(ask("hi"))
    assert server.headers[0]["authorization"] == "Bearer EMPTY"


def test_jpeg_images_get_a_jpeg_data_url(server, tmp_path):
    jpg = tmp_path / "page.jpg"
    Image.new("RGB", (8, 8), (0, 0, 255)).save(jpg, format="JPEG")
    model_for(server).generate(ask("page?", jpg))
    url = server.requests[0]["messages"][0]["content"][0]["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == jpg.read_bytes()


def test_gen_kwargs_are_forwarded_under_chat_completions_names(server):
    model_for(server).generate(ask("q"), temperature=0.3, max_new_tokens=17, top_p=0.9, seed=5, stop="\n\n")
    request = server.requests[0]
    assert request["temperature"] == 0.3 and request["max_tokens"] == 17
    assert request["top_p"] == 0.9 and request["seed"] == 5 and request["stop"] == ["\n\n"]

    model_for(server).generate(ask("q"), do_sample=False, max_tokens=3)
    assert server.requests[1]["temperature"] == 0.0 and server.requests[1]["max_tokens"] == 3
    assert "seed" not in server.requests[1] and "top_p" not in server.requests[1]


def test_unknown_gen_kwarg_fails_before_any_request(server):
    with pytest.raises(EvalError, match="unknown generation setting 'temprature'"):
        model_for(server).generate(ask("q"), temprature=0)
    assert server.requests == []


def test_500_then_200_is_retried_and_logged(server, caplog):
    server.script = [(500, error_body("worker crashed"))]
    with caplog.at_level(logging.WARNING, logger="evaluator.models.openai"):
        generation = model_for(server).generate(ask("again"))
    assert generation.text == "echo: again" and generation.raw["attempts"] == 2
    assert len(server.requests) == 2
    assert any("HTTP 500: worker crashed" in r.getMessage() and "attempt 1 of 4" in r.getMessage()
               for r in caplog.records)


def test_persistent_500_raises_one_line_error_after_all_attempts(server):
    server.script = [(503, error_body("model is loading\nplease wait"))] * 10
    with pytest.raises(ModelCallError) as info:
        model_for(server, max_retries=2).generate(ask("q"))
    message = str(info.value)
    assert len(server.requests) == 3
    assert "\n" not in message
    assert "HTTP 503: model is loading please wait" in message and "after 3 attempts" in message


def test_429_is_retried(server):
    server.script = [(429, error_body("slow down"), {"Retry-After": "0"})]
    assert model_for(server).generate(ask("q")).raw["attempts"] == 2
    assert len(server.requests) == 2


def test_400_fails_immediately_with_the_server_message(server):
    server.script = [(400, error_body("image input is not supported by this model"))] * 5
    with pytest.raises(ModelCallError, match="HTTP 400: image input is not supported by this model$"):
        model_for(server, max_retries=5).generate(ask("q"))
    assert len(server.requests) == 1


def test_404_wrong_model_is_not_retried(server):
    server.script = [(404, {"detail": "model 'tiny-vlm' not found"})]
    with pytest.raises(ModelCallError, match="HTTP 404: model 'tiny-vlm' not found"):
        model_for(server).generate(ask("q"))
    assert len(server.requests) == 1


def test_connection_refused_is_retried_then_reported():
    with socket.socket() as sock:       # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    model = OpenAIChatModel(f"http://127.0.0.1:{port}/v1", "m", max_retries=1, backoff=0.01)
    with pytest.raises(ModelCallError, match=r"connection error.*after 2 attempts"):
        model.generate(ask("q"))


def test_timeout_is_retried_then_reported():
    with FakeOpenAIServer(delay=0.6) as slow:
        model = OpenAIChatModel(slow.base_url, "m", timeout=0.15, max_retries=1, backoff=0.01)
        with pytest.raises(ModelCallError, match=r"timed out after 0.15 s after 2 attempts"):
            model.generate(ask("q"))
        assert len(slow.requests) == 2


def test_missing_image_file_is_a_call_error(server, tmp_path):
    with pytest.raises(ModelCallError, match="image file not found"):
        model_for(server).generate(ask("q", tmp_path / "gone.png"))
    assert server.requests == []


def test_generate_many_overlaps_requests_and_keeps_order():
    with FakeOpenAIServer(delay=0.25) as slow:
        model = OpenAIChatModel(slow.base_url, "m", concurrency=3, max_retries=0)
        requests = [ask(f"question {i}") for i in range(6)]
        started = time.perf_counter()
        results = model.generate_many(requests, max_tokens=5)
        elapsed = time.perf_counter() - started
    assert [r.text for r in results] == [f"echo: question {i}" for i in range(6)]
    assert slow.max_in_flight == 3
    assert elapsed < 6 * 0.25          # sequential would take 1.5 s
    assert all(r["max_tokens"] == 5 for r in slow.requests)


def test_generate_many_puts_errors_in_their_slots(server):
    model = model_for(server, concurrency=1, max_retries=0)
    server.script = [(200, server.completion({"model": "m", "messages": [{"content": "a"}]})),
                     (400, error_body("bad")),
                     (200, server.completion({"model": "m", "messages": [{"content": "c"}]}))]
    results = model.generate_many([ask("a"), ask("b"), ask("c")])
    assert isinstance(results[0], Generation) and results[0].text == "echo: a"
    assert isinstance(results[1], ModelCallError) and "HTTP 400: bad" in str(results[1])
    assert isinstance(results[2], Generation) and results[2].text == "echo: c"


def test_cache_hit_skips_the_server_and_is_keyed_by_image_content(server, tmp_path, png):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    model = CachedChatModel(model_for(server), cache)

    first = model.generate(ask("what is shown?", png), temperature=0)
    assert first.cached is False and len(server.requests) == 1

    again = model.generate(ask("what is shown?", png), temperature=0)
    assert again.cached is True and again.text == first.text and again.input_tokens == 42
    assert len(server.requests) == 1

    # The same bytes under another name: a hit (the key holds content hashes, not paths).
    copy = tmp_path / "elsewhere" / "copy-of-frame.png"
    copy.parent.mkdir()
    shutil.copy(png, copy)
    assert model.generate(ask("what is shown?", copy), temperature=0).cached is True
    assert len(server.requests) == 1

    # Other bytes at the same path: a miss, and the server sees the new image.
    Image.new("RGB", (8, 6), (30, 30, 200)).save(png)
    assert model.generate(ask("what is shown?", png), temperature=0).cached is False
    assert len(server.requests) == 2
    sent = server.requests[1]["messages"][0]["content"][0]["image_url"]["url"]
    assert sent.endswith(base64.b64encode(png.read_bytes()).decode())

    # Other settings or another model id: a miss.
    assert model.generate(ask("what is shown?", png), temperature=0.7).cached is False
    other = CachedChatModel(OpenAIChatModel(server.base_url, "another-model"), cache)
    assert other.generate(ask("what is shown?", png), temperature=0).cached is False
    assert len(server.requests) == 4

    # A new cache object on the same file (a later run) still hits.
    reopened = CachedChatModel(model_for(server), ResponseCache(tmp_path / "responses.sqlite"))
    assert reopened.generate(ask("what is shown?", copy), temperature=0).cached is True
    assert len(server.requests) == 4


def test_errors_are_never_cached(server, tmp_path):
    model = CachedChatModel(model_for(server, max_retries=0), ResponseCache(tmp_path / "c.sqlite"))
    server.script = [(400, error_body("nope"))]
    with pytest.raises(ModelCallError):
        model.generate(ask("q"))
    assert len(model.cache) == 0
    assert model.generate(ask("q")).text == "echo: q"       # reaches the server again
    assert len(server.requests) == 2 and len(model.cache) == 1


def test_cached_generate_many_only_sends_misses(tmp_path):
    with FakeOpenAIServer(delay=0.05) as srv:
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "concurrency": 4},
                           cache_path=tmp_path / "c.sqlite")
        model.generate(ask("q1"))
        results = model.generate_many([ask(f"q{i}") for i in range(5)])
        assert [r.text for r in results] == [f"echo: q{i}" for i in range(5)]
        assert [r.cached for r in results] == [False, True, False, False, False]
        assert len(srv.requests) == 5
        assert model.cache.hits == 1 and len(model.cache) == 5


def test_a_base_url_query_naming_a_parameter_twice_is_one_line():
    """The query travels as the client's default_query, one value a name: a repeat is refused
    before any request, its key-like values masked."""
    with pytest.raises(EvalError, match=r"^openai backend: base_url's query names 'api-version' "
                                        r"twice \(http://127.0.0.1:9/v1\?api-version=1&api-key=\*\*\*"
                                        r"&api-version=2\)$"):
        OpenAIChatModel("http://127.0.0.1:9/v1?api-version=1&api-key=sk-secret-1&api-version=2", "m")


def test_make_model_openai_builds_without_touching_the_network():
    model = make_model("openai", {"base_url": "http://127.0.0.1:9/v1", "model": 7, "concurrency": 2})
    assert isinstance(model, OpenAIChatModel)
    assert model.model_id == "7" and model.concurrency == 2 and model.supports_images
    assert "sk-" not in repr(model)
