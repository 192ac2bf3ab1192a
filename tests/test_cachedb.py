"""evaluator.cachedb: the one SQLite helper under the model and judge response caches."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from evaluator.cachedb import CacheDB, content_key
from evaluator.errors import EvalError
from evaluator.models.base import Generation
from evaluator.models.cache import ResponseCache
from evaluator.scoring.cache import JudgeCache, cache_key


def test_model_and_judge_caches_share_one_file_through_one_helper(tmp_path):
    db = tmp_path / "cache.sqlite"
    responses, judge = ResponseCache(db), JudgeCache(db)
    assert isinstance(responses._db, CacheDB) and isinstance(judge._db, CacheDB)
    responses.put("r", "mock", "m", Generation("answer", input_tokens=3, output_tokens=1))
    judge.put("j", {"raw": "verdict"})
    responses.close()
    judge.close()
    with ResponseCache(db) as again:
        hit = again.get("r")
        assert (hit.text, hit.input_tokens, hit.output_tokens, hit.cached) == ("answer", 3, 1, True)
    assert JudgeCache(db).get("j") == {"raw": "verdict"}
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    conn.close()
    assert tables == {"responses", "judge_responses"} and mode == "wal"


@pytest.mark.parametrize("make", [ResponseCache, JudgeCache])
def test_a_file_that_is_not_a_database_is_refused_and_left_as_it_was(tmp_path, make):
    bad = tmp_path / "notes.sqlite"
    content = b"my notes, not a database " * 50
    bad.write_bytes(content)
    with pytest.raises(EvalError, match="--use_cache") as err:
        make(bad)
    assert "\n" not in str(err.value)
    assert bad.read_bytes() == content


def test_a_locked_database_is_waited_for_then_written(tmp_path):
    db = tmp_path / "c.sqlite"
    cache = CacheDB(db, "CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY)", busy_timeout_s=0.05,
                    attempts=8)
    blocker = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN EXCLUSIVE")
    import threading

    threading.Timer(0.3, lambda: blocker.execute("COMMIT")).start()
    cache.execute("INSERT INTO t (k) VALUES (?)", ("x",))   # outlasts one busy timeout: retried
    assert cache.one("SELECT COUNT(*) FROM t") == (1,)
    blocker.close()


def test_a_lock_held_past_every_retry_is_one_clear_error(tmp_path):
    db = tmp_path / "c.sqlite"
    cache = CacheDB(db, "CREATE TABLE IF NOT EXISTS t (k TEXT)", busy_timeout_s=0.01, attempts=2)
    blocker = sqlite3.connect(db, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(EvalError, match=r"response cache .*c\.sqlite: database is locked"):
            cache.execute("INSERT INTO t (k) VALUES ('x')")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def _child_put(cache, queue):
    try:
        cache.put("child", "mock", "m", Generation("from the child"))
        queue.put("ok")
    except Exception as exc:   # reported to the parent, which fails the test
        queue.put(repr(exc))


def test_a_forked_child_opens_its_own_connection(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.put("parent", "mock", "m", Generation("from the parent"))
    parent_conn = cache._db._connect()
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_put, args=(cache, queue))
    child.start()
    assert queue.get(timeout=60) == "ok"
    child.join(60)
    assert cache._db._connect() is parent_conn        # the parent's own connection is untouched
    assert cache.get("child").text == "from the child"
    assert len(cache) == 2


def test_keys_are_the_canonical_json_digest():
    assert cache_key(b=1, a="ü") == content_key({"a": "ü", "b": 1})
    assert content_key({"a": 1, "b": 2}) == content_key({"b": 2, "a": 1})
    assert content_key({"a": 1}) != content_key({"a": 2})
