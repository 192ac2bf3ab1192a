"""The SQLite response cache: content-hash keys, hits without calls, no cached errors, and
concurrent writers (threads in one process, and two processes on one file)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from PIL import Image

from evaluator.errors import EvalError
from evaluator.models import make_model
from evaluator.models.base import Generation, ImagePart, Message, ModelCallError, TextPart
from evaluator.models.cache import CachedChatModel, ResponseCache, request_key
from evaluator.models.mock_backend import MockChatModel

REPO = Path(__file__).resolve().parents[1]


def with_image(path, text="what is this?") -> list[Message]:
    return [Message("user", (ImagePart(str(path)), TextPart(text)))]


@pytest.fixture
def frame(tmp_path):
    path = tmp_path / "frame.png"
    Image.new("RGB", (4, 4), (10, 200, 10)).save(path)
    return path


def test_key_uses_image_bytes_not_paths_or_claimed_hashes(tmp_path, frame):
    copy = tmp_path / "other-name.png"
    copy.write_bytes(frame.read_bytes())
    base = request_key("openai", "m", {}, with_image(frame))
    assert request_key("openai", "m", {}, with_image(copy)) == base
    # A stale sha256 on the part cannot make a changed file hit.
    stale = [Message("user", (ImagePart(str(frame), sha256="0" * 64), TextPart("what is this?")))]
    assert request_key("openai", "m", {}, stale) == base
    Image.new("RGB", (4, 4), (200, 10, 10)).save(frame)
    assert request_key("openai", "m", {}, with_image(frame)) != base
    # Every other ingredient changes the key too.
    assert request_key("hf", "m", {}, with_image(copy)) != base
    assert request_key("openai", "m2", {}, with_image(copy)) != base
    assert request_key("openai", "m", {"temperature": 0}, with_image(copy)) != base
    assert request_key("openai", "m", {}, with_image(copy, "what is that?")) != base
    swapped_role = [Message("system", (ImagePart(str(copy)), TextPart("what is this?")))]
    assert request_key("openai", "m", {}, swapped_role) != base
    # Setting order does not matter.
    assert (request_key("openai", "m", {"a": 1, "b": 2}, with_image(copy))
            == request_key("openai", "m", {"b": 2, "a": 1}, with_image(copy)))


def test_hit_does_not_call_the_model(tmp_path, frame):
    inner = MockChatModel(["first", "second"])
    model = CachedChatModel(inner, ResponseCache(tmp_path / "c.sqlite"))
    assert model.generate(with_image(frame), max_tokens=4).text == "first"
    hit = model.generate(with_image(frame), max_tokens=4)
    assert hit.cached is True and hit.text == "first" and hit.raw["call"] == 1
    assert inner.call_count == 1
    assert model.generate(with_image(frame), max_tokens=5).text == "second"   # other settings
    assert inner.call_count == 2
    assert (model.cache.hits, model.cache.misses) == (1, 2)
    assert model.calls is inner.calls and model.supports_images      # attributes pass through


def test_errors_are_not_cached_and_a_retry_calls_again(tmp_path):
    inner = MockChatModel("fine", fail_on=1)
    model = CachedChatModel(inner, ResponseCache(tmp_path / "c.sqlite"))
    with pytest.raises(ModelCallError):
        model.generate([Message.text("user", "q")])
    assert len(model.cache) == 0
    assert model.generate([Message.text("user", "q")]).text == "fine"
    assert inner.call_count == 2


def test_backend_settings_are_part_of_the_key(tmp_path):
    class WithSettings(MockChatModel):
        def __init__(self, dtype):
            super().__init__(f"reply in {dtype}")
            self.dtype = dtype

        def cache_settings(self):
            return {"dtype": self.dtype}

    cache = ResponseCache(tmp_path / "c.sqlite")
    assert CachedChatModel(WithSettings("float32"), cache).generate([Message.text("user", "q")]).cached is False
    assert CachedChatModel(WithSettings("bfloat16"), cache).generate([Message.text("user", "q")]).cached is False
    assert CachedChatModel(WithSettings("float32"), cache).generate([Message.text("user", "q")]).cached is True


def test_generate_many_with_a_missing_image_reports_it_in_its_slot(tmp_path, frame):
    model = make_model("mock", {"replies": "ok"}, cache_path=tmp_path / "c.sqlite")
    results = model.generate_many([with_image(frame), with_image(tmp_path / "gone.png")])
    assert isinstance(results[0], Generation)
    assert isinstance(results[1], ModelCallError) and "image file not found" in str(results[1])


def test_threads_share_one_cache(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    model = CachedChatModel(MockChatModel(lambda m: m[-1].content[0].text.upper()), cache)
    errors = []

    def work(worker):
        try:
            for i in range(40):
                assert model.generate([Message.text("user", f"q{i % 20}-{worker % 2}")]).text == f"Q{i % 20}-{worker % 2}"
        except Exception as exc:  # surfaced below; a thread's assert would vanish otherwise
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(cache) == 40 and cache.hits + cache.misses == 160


def test_two_processes_write_one_cache_file(tmp_path):
    path = tmp_path / "shared.sqlite"
    n = 1000
    writer = textwrap.dedent(f"""
        import sys
        from evaluator.models.base import Generation
        from evaluator.models.cache import ResponseCache
        cache = ResponseCache({str(path)!r})
        print("ready", flush=True)
        sys.stdin.readline()   # start together with the parent
        for i in range({n}):
            cache.put(f"child-{{i}}", "mock", "m", Generation(f"c{{i}}"))
            cache.get(f"parent-{{i}}")
    """)
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    child = subprocess.Popen([sys.executable, "-c", writer], env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cache = ResponseCache(path)
    assert child.stdout.readline().strip() == "ready"
    child.stdin.write("go\n")
    child.stdin.flush()
    for i in range(n):
        cache.put(f"parent-{i}", "mock", "m", Generation(f"p{i}"))
        cache.get(f"child-{i}")
    child.stdin.close()
    assert child.wait(timeout=60) == 0, child.stderr.read()
    assert len(cache) == 2 * n
    assert cache.get(f"child-{n - 1}").text == f"c{n - 1}" and cache.get("parent-0").text == "p0"


def test_a_file_that_is_not_a_database_is_one_clear_error(tmp_path):
    bogus = tmp_path / "cache.sqlite"
    bogus.write_text("this is not sqlite, just some text that is long enough " * 20)
    with pytest.raises(EvalError, match="is not a usable SQLite database"):
        ResponseCache(bogus)


def test_cache_directory_is_created(tmp_path):
    cache = ResponseCache(tmp_path / "nested" / "dir" / "c.sqlite")
    cache.put("k", "mock", "m", Generation("x", raw={"attempts": 1}))
    with ResponseCache(tmp_path / "nested" / "dir" / "c.sqlite") as again:
        assert again.get("k").raw == {"attempts": 1}
