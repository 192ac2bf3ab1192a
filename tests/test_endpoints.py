"""One process, many servers: the openai backend (model and judge) spreads requests over several
endpoints by outstanding requests, rests a failing one and retries it later, honours 429
Retry-After by sending the request elsewhere. Servers are real HTTP servers on 127.0.0.1 reached
through the real openai client."""

import socket
import time

import pytest

from evaluator.errors import EvalError
from evaluator.models.base import Message, TextPart
from evaluator.models.openai_backend import EndpointPool, OpenAIChatModel, endpoint_urls
from test_models_openai import FakeOpenAIServer, error_body


def ask(text):
    return [Message("user", [TextPart(text)])]


def dead_url():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                    # nothing listens there now
    return f"http://127.0.0.1:{port}/v1"


def test_urls_from_a_bar_list_or_a_file(tmp_path):
    assert endpoint_urls("http://a:1/v1|http://b:2/v1/") == ["http://a:1/v1", "http://b:2/v1"]
    f = tmp_path / "servers.txt"
    f.write_text("# vLLM replicas\nhttp://a:1/v1\n\nhttp://b:2/v1  # second node\n")
    assert endpoint_urls(str(f)) == ["http://a:1/v1", "http://b:2/v1"]
    for bad in ("http://a:1/v1|b:2", "http://a:1/v1|http://a:1/v1"):
        with pytest.raises(EvalError):
            endpoint_urls(bad)
    (tmp_path / "empty.txt").write_text("# none\n")
    with pytest.raises(EvalError, match="lists no URL"):
        endpoint_urls(str(tmp_path / "empty.txt"))


def test_least_outstanding_requests_spreads_over_servers():
    with FakeOpenAIServer(delay=0.05) as a, FakeOpenAIServer(delay=0.05) as b, \
            FakeOpenAIServer(delay=0.05) as c:
        model = OpenAIChatModel(f"{a.base_url}|{b.base_url}|{c.base_url}", "m", concurrency=6)
        model.generate_many([ask("warm")] * 3)                   # clients built, imports done
        for s in (a, b, c):
            s.requests.clear()
        started = time.perf_counter()
        out = model.generate_many([ask(f"q{i}") for i in range(30)])
        wall = time.perf_counter() - started
    assert [g.text for g in out] == [f"echo: q{i}" for i in range(30)]
    counts = [len(s.requests) for s in (a, b, c)]
    assert sum(counts) == 30 and min(counts) >= 8, counts
    assert max(s.max_in_flight for s in (a, b, c)) <= 3          # 6 in flight over 3 servers
    assert wall < 30 * 0.05 / 2                                  # 6 at once, not 1


def test_slow_server_gets_fewer_requests():
    with FakeOpenAIServer(delay=0.2) as slow, FakeOpenAIServer(delay=0.01) as fast:
        model = OpenAIChatModel(f"{slow.base_url}|{fast.base_url}", "m", concurrency=4)
        model.generate_many([ask(f"q{i}") for i in range(40)])
    assert len(fast.requests) > 2 * len(slow.requests)


def test_dead_server_is_rested_and_the_run_goes_on(caplog):
    with FakeOpenAIServer() as alive:
        model = OpenAIChatModel(f"{dead_url()}|{alive.base_url}", "m", concurrency=2,
                                backoff=0.01, max_retries=2)
        info = model.preflight(images=False)                    # warns, does not stop
        assert info["served_model"] == "m"
        assert "going on with the other endpoints" in caplog.text
        out = model.generate_many([ask(f"q{i}") for i in range(12)])
    assert all(not isinstance(g, Exception) for g in out)
    dead = model.pool.endpoints[0]
    assert dead.sent <= 1 and dead.rested_until > time.monotonic()   # rested, not hammered
    assert len(alive.requests) >= 12


def test_failing_endpoint_is_retried_after_its_rest():
    with FakeOpenAIServer() as flaky, FakeOpenAIServer() as steady:
        flaky.script = [(503, error_body("overloaded"))]
        model = OpenAIChatModel(f"{flaky.base_url}|{steady.base_url}", "m", concurrency=1,
                                backoff=0.01, max_retries=2)
        model.pool.REST_S = 0.3
        first = model.generate(ask("first"))                   # 503 on flaky, then steady
        assert first.text == "echo: first" and len(steady.requests) == 1
        for i in range(3):                                     # flaky rests: all go to steady
            model.generate(ask(f"r{i}"))
        assert len(flaky.requests) == 1
        time.sleep(0.35)
        for i in range(4):
            model.generate(ask(f"later{i}"))
        assert len(flaky.requests) >= 2                        # back in the rotation


def test_429_retry_after_sends_the_request_elsewhere_at_once():
    with FakeOpenAIServer() as busy, FakeOpenAIServer() as free:
        busy.script = [(429, error_body("rate limited"), {"Retry-After": "5"})]
        model = OpenAIChatModel(f"{busy.base_url}|{free.base_url}", "m", concurrency=1,
                                backoff=0.01, max_retries=2)
        started = time.perf_counter()
        g = model.generate(ask("hello"))
        assert g.text == "echo: hello" and time.perf_counter() - started < 2
        assert model.pool.endpoints[0].rested_until - time.monotonic() > 3   # honours 5 s
        model.generate(ask("again"))
        assert len(busy.requests) == 1 and len(free.requests) == 2


def test_single_server_429_still_waits_retry_after():
    with FakeOpenAIServer() as srv:
        srv.script = [(429, error_body("rate limited"), {"Retry-After": "0.4"})]
        model = OpenAIChatModel(srv.base_url, "m", backoff=0.01, max_retries=1)
        started = time.perf_counter()
        assert model.generate(ask("x")).text == "echo: x"
        assert time.perf_counter() - started >= 0.38


def test_all_servers_down_is_one_line():
    from evaluator.models.base import ModelSetupError

    model = OpenAIChatModel(f"{dead_url()}|{dead_url()}", "m")
    with pytest.raises(ModelSetupError, match="cannot reach the server at any of"):
        model.preflight(images=False)


def test_judge_spreads_over_servers_too():
    from evaluator.scoring import make_judge

    with FakeOpenAIServer() as a, FakeOpenAIServer() as b:
        judge = make_judge("openai", {"base_url": f"{a.base_url}|{b.base_url}", "model": "j",
                                      "concurrency": 2})
        model = judge.model if hasattr(judge, "model") else judge._model
        assert [e.url for e in model.pool.endpoints] == [a.base_url, b.base_url]
        model.generate_many([ask(f"q{i}") for i in range(8)])
        assert a.requests and b.requests


def test_pool_prefers_fewest_outstanding():
    pool = EndpointPool(["http://a", "http://b"])
    first, second = pool.acquire(), pool.acquire()
    assert {first.url, second.url} == {"http://a", "http://b"}
    pool.release(first, ok=True)
    assert pool.acquire() is first                              # the idle one


def test_throughput_bench_drives_the_run_loop(monkeypatch):
    """bench/throughput.py calls the run loop's private pieces (`_each`, `Progress`); this keeps it
    working when they change (it broke once without anyone noticing). Its servers are real (a
    child process on 127.0.0.1); the bench's timing goal is not checked here."""
    import importlib
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "bench"))
    bench = importlib.import_module("throughput")      # by name: the server child process imports it
    servers = bench.Servers(2, 2, 0.01)
    try:
        wall, cpu = bench.through_harness(servers.urls, 12, 4)
    finally:
        servers.close()
    assert wall > 0 and cpu > 0
