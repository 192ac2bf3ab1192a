"""The judge end to end: make_judge("openai", ...) -> evaluator.models.openai_backend -> the real
openai client library -> a fake OpenAI-compatible server on 127.0.0.1 started by the test.

Shows request shape, key handling, caching across Judge instances, retries after HTTP 500 and
errors recorded (never 0) when the server keeps failing. It cannot show how well a real judge
model grades.
"""

from __future__ import annotations

import json
import threading

import pytest

from evaluator.scoring import aggregate, score_sample
from evaluator.scoring.judge import judge_chat_reply, judge_value_match, make_judge
from local_http import JsonHandler, LocalServer


class JudgeServer(LocalServer):
    """POST /v1/chat/completions. Each request takes the next (status, reply_text) from `script`
    (then `default`); a reply_text that is callable gets the request body."""

    def __init__(self, default=(200, '{"score": 1, "reason": "same"}')):
        self.script: list[tuple] = []
        self.default = default
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self._lock = threading.Lock()
        server = self

        class Handler(JsonHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with server._lock:
                    server.requests.append({"path": self.path, **body})
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    status, reply = server.script.pop(0) if server.script else server.default
                if callable(reply):
                    reply = reply(body)
                if self.path != "/v1/chat/completions":
                    status, payload = 404, {"error": {"message": f"no route {self.path}"}}
                elif status != 200:
                    payload = {"error": {"message": reply, "type": "server_error"}}
                else:
                    payload = {
                        "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                        "model": body["model"],
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": reply}}],
                        "usage": {"prompt_tokens": 50, "completion_tokens": 7, "total_tokens": 57},
                    }
                self.send_json(status, payload)

        self.serve(Handler)
        self.start()


@pytest.fixture
def server():
    s = JudgeServer()
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _no_keys_from_the_environment(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("BR_EVAL_JUDGE_API_KEY", raising=False)


def judge_for(server, tmp_path=None, **extra):
    args = {"base_url": server.base_url, "model": "judge-model", "backoff": 0.01, **extra}
    return make_judge("openai", args, cache_path=(tmp_path / "cache.sqlite") if tmp_path else None)


def test_grade_through_the_openai_client(server, tmp_path):
    judge = judge_for(server, tmp_path, api_key="sk-test", max_tokens=64)
    result = judge.grade("Where did Priya move?", "Harbour Road", "She lives on Harbour Road now")
    assert (result.score, result.reason, result.error) == (1.0, "same", None)
    req = server.requests[0]
    assert req["path"] == "/v1/chat/completions"
    assert req["model"] == "judge-model" and req["temperature"] == 0 and req["max_tokens"] == 64
    text = req["messages"][0]["content"]
    assert req["messages"][0]["role"] == "user"
    assert "Where did Priya move?" in text and "She lives on Harbour Road now" in text
    assert server.headers[0]["authorization"] == "Bearer sk-test"
    info = judge.describe()
    assert (info["backend"], info["model_id"]) == ("openai", "judge-model")
    assert len(info["prompt_sha256"]) == 64

    # cached: a second identical request, even from a new Judge, never reaches the server
    again = judge_for(server, tmp_path, api_key="sk-test", max_tokens=64)
    assert again.grade("Where did Priya move?", "Harbour Road",
                       "She lives on Harbour Road now").cached is True
    assert len(server.requests) == 1


def test_api_key_comes_from_the_environment_or_is_empty(server, monkeypatch):
    judge_for(server).grade("q", "a", "a")
    assert server.headers[-1]["authorization"] == "Bearer EMPTY"       # a local server needs none
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    judge_for(server).grade("q", "a", "b")
    assert server.headers[-1]["authorization"] == "Bearer sk-openai"
    monkeypatch.setenv("BR_EVAL_JUDGE_API_KEY", "sk-judge")            # the judge's own key wins
    judge_for(server).grade("q", "a", "c")
    assert server.headers[-1]["authorization"] == "Bearer sk-judge"


def test_http_500_then_success_is_retried(server):
    server.script = [(500, "overloaded"), (200, '{"score": 0.5, "reason": "partly"}')]
    result = judge_for(server, max_retries=2).grade("q", "a", "b")
    assert (result.score, result.error) == (0.5, None)
    assert len(server.requests) == 2


def test_always_500_is_an_error_not_a_zero(server, tmp_path):
    server.default = (500, "the judge is down")
    judge = judge_for(server, tmp_path, max_retries=2)
    sample = score_sample("temporal_anchoring", "When?", "May 2023", "May 2023", judge=judge)
    # an HTTP 500 that repeats identically is not retried further (one try, one retry)
    assert len(server.requests) == 2
    assert sample["primary"] is None and sample["judge"] is None
    assert "HTTP 500" in sample["judge_error"] and "the judge is down" in sample["judge_error"]
    assert sample["token_f1"] == 1.0
    out = aggregate([{"key": "retrieval/temporal_anchoring/1/q0", "metrics": sample}],
                    "temporal_anchoring")
    assert (out["n_scored"], out["n_judge_errors"], out["primary"]) == (0, 1, None)

    # the failure was not cached: once the server recovers, the same request is judged
    server.default = (200, '{"score": 1}')
    assert judge.grade("When?", "May 2023", "May 2023").score == 1.0


def test_bad_request_is_not_retried(server):
    server.default = (400, "model 'judge-model' does not exist")
    result = judge_for(server, max_retries=3).grade("q", "a", "b")
    assert result.score is None and "HTTP 400" in result.error
    assert len(server.requests) == 1


def test_unparseable_reply_over_http_is_a_judge_error(server):
    server.default = (200, "Looks right to me!")
    result = judge_for(server).grade("q", "a", "b")
    assert result.score is None and result.raw == "Looks right to me!"
    assert result.error.startswith("unparseable judge reply")


def test_chat_and_value_judgments_over_http(server):
    server.script = [(200, 'Thinking...\n{"content_match": 1, "used_memory": "no", "reason": "generic"}'),
                     (200, '{"match": "yes"}')]
    judge = judge_for(server)
    chat = judge_chat_reply(judge, probe="I got the job!", reply="Congratulations!",
                            gold_response="Congrats! The nursing job you interviewed for?",
                            context="user: interview at the hospital tomorrow")
    assert (chat["content_match"], chat["used_memory"], chat["error"]) == (1, False, None)
    assert "interview at the hospital tomorrow" in server.requests[0]["messages"][0]["content"]
    value = judge_value_match(judge, slot="occupation", gold_value="nurse",
                              predicted_value="works as a nurse")
    assert value["match"] is True


def test_concurrent_grading_through_the_backend(server):
    server.default = (200, lambda body: '{"score": 1}' if "ZZ-OK" in body["messages"][0]["content"]
                      else '{"score": 0}')
    judge = judge_for(server, concurrency=4)
    items = [("q", "g", f"ZZ-OK {i}" if i % 2 else f"ZZ-NO {i}") for i in range(8)]
    assert [r.score for r in judge.grade_many(items)] == [float(i % 2) for i in range(8)]
    assert len(server.requests) == 8
