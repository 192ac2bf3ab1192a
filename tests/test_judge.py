"""The LLM judge with a scripted fake ChatModel: parsing, prompts, caching, retries, errors.

These tests show the plumbing; they cannot show that a real judge model grades well.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import threading
from importlib.resources import files

import pytest

from evaluator.errors import EvalError
from evaluator.models.base import Generation, ModelCallError
from evaluator.scoring import aggregate, score_sample
from evaluator.scoring.cache import JudgeCache, cache_key
from evaluator.scoring.judge import (Judge, JudgeParseError, judge_chat_reply, judge_value_match,
                                     load_prompt, make_judge, parse_answer_judgment,
                                     parse_chat_judgment, parse_value_judgment)


class FakeModel:
    """Replies in order from a script; an Exception in the script is raised instead."""

    name = "fake"
    model_id = "fake-judge-1"

    def __init__(self, *script):
        self.script = list(script)
        self.calls = []
        self._lock = threading.Lock()

    def generate(self, messages, **gen_kwargs):
        with self._lock:
            self.calls.append((messages, gen_kwargs))
            step = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if isinstance(step, BaseException):
            raise step
        return Generation(text=step(messages) if callable(step) else step, input_tokens=10,
                          output_tokens=5)


def prompt_text(model, n=-1):
    return model.calls[n][0][0].content[0].text


def make(model, **kw):
    kw.setdefault("sleep", lambda s: None)
    return Judge(model, **kw)


# -- parsing --------------------------------------------------------------------------------------
@pytest.mark.parametrize("reply, score", [
    ('{"score": 1, "reason": "same city"}', 1.0),
    ('```json\n{"score": "0.5", "reason": "half"}\n```', 0.5),
    ('The answer names the wrong year.\nScore: 0', 0.0),
    ('Reasoning ... **Score:** 0.5', 0.5),
    ('<think>maybe {"score": 1}</think>{"score": 0}', 0.0),
    ('Let me think. {"note": 1} Final: {"Score": 1.0}', 1.0),
    ('score = 1/2', 0.5),
])
def test_parse_answer_judgment(reply, score):
    assert parse_answer_judgment(reply)[0] == {"score": score}


@pytest.mark.parametrize("reply", ["Score: 10", '{"score": 0.7}', "I think it is right.", "",
                                   '{"score": true}', '{"verdict": "correct"}',
                                   # scores.md: JSON, or `Score: x` the reply ends with
                                   "Score: 0.5/1", "Score: 0,5", "Score: 1 out of 2",
                                   "Score: 1. Wait, the reference says 2019, so it is wrong.",
                                   '{"score": 1} on reflection... Score: 0'])
def test_parse_answer_judgment_rejects(reply):
    with pytest.raises(JudgeParseError):
        parse_answer_judgment(reply)


def test_parse_chat_and_value_judgments():
    # three fields; a reply without restraint leaves it not reported (None), never a verdict
    assert parse_chat_judgment('{"content_match": 2, "used_memory": "yes", "reason": "r"}') == (
        {"content_match": 2, "used_memory": True, "restraint": None}, "r")
    assert parse_chat_judgment('{"content_match": 2, "used_memory": "no", "restraint": "yes"}')[0] == {
        "content_match": 2, "used_memory": False, "restraint": True}
    assert parse_chat_judgment("Content match: 1\nUsed memory: no\nRestraint: no")[0] == {
        "content_match": 1, "used_memory": False, "restraint": False}
    with pytest.raises(JudgeParseError):
        parse_chat_judgment('{"content_match": 1, "used_memory": "yes", "restraint": "maybe"}')
    with pytest.raises(JudgeParseError):
        parse_chat_judgment('{"content_match": 3, "used_memory": "yes"}')
    with pytest.raises(JudgeParseError):
        parse_chat_judgment('{"content_match": 1, "used_memory": "perhaps"}')
    assert parse_value_judgment('{"match": "no"}')[0] == {"match": False}
    assert parse_value_judgment("Match: yes")[0] == {"match": True}
    with pytest.raises(JudgeParseError):
        parse_value_judgment("they look alike")


# -- prompts and identity -------------------------------------------------------------------------
def test_grade_renders_the_package_prompt_at_temperature_zero():
    model = FakeModel('{"score": 1, "reason": "same"}')
    judge = make(model)
    result = judge.grade("Where did she move?", ["Oslo", "Norway's capital"], "To {reference} Oslo")
    assert (result.score, result.reason, result.error, result.cached) == (1.0, "same", None, False)
    assert result.raw == '{"score": 1, "reason": "same"}'
    text = prompt_text(model)
    assert "Where did she move?" in text
    assert "- Oslo\n- Norway's capital" in text
    assert "To {reference} Oslo" in text             # placeholders inside answers stay literal
    assert model.calls[0][1] == {"temperature": 0.0}
    package_text = files("evaluator.scoring").joinpath("judge_prompt.txt").read_text("utf-8")
    info = judge.describe()
    assert info["prompt_sha256"] == hashlib.sha256(package_text.encode()).hexdigest()
    assert (info["backend"], info["model_id"]) == ("fake", "fake-judge-1")
    assert set(info["prompts"]) == {"answer", "temporal", "update", "abstention", "chat", "value"}  # issue 16 added three


def test_temperature_other_than_zero_is_refused():
    with pytest.raises(EvalError, match="temperature 0"):
        Judge(FakeModel("x"), gen_kwargs={"temperature": 0.7})
    judge = make(FakeModel('{"score": 0}'), gen_kwargs={"max_tokens": 64, "temperature": 0})
    judge.grade("q", "a", "b")
    assert judge.model.calls[0][1] == {"max_tokens": 64, "temperature": 0.0}


def test_custom_prompt_file_must_keep_placeholders(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("Grade {question} against {reference}.")
    with pytest.raises(EvalError, match=r"\{response\}"):
        load_prompt("answer", bad)
    good = tmp_path / "good.txt"
    good.write_text("Q={question} R={reference} A={response} -> Score: ?")
    model = FakeModel("Score: 1")
    judge = make(model, prompt_paths={"answer": good})
    assert judge.grade("q1", "r1", "a1").score == 1.0
    assert prompt_text(model) == "Q=q1 R=r1 A=a1 -> Score: ?"
    assert judge.describe()["prompts"]["answer"]["source"] == str(good)


# -- caching ----------------------------------------------------------------------------------------
def test_second_identical_call_does_not_reach_the_model(tmp_path):
    db = tmp_path / "cache.sqlite"
    model = FakeModel('{"score": 0.5, "reason": "partial"}')
    judge = make(model, cache=db)
    first = judge.grade("When?", "May 2023", "May")
    second = judge.grade("When?", "May 2023", "May")
    assert len(model.calls) == 1
    assert (second.score, second.reason, second.cached, second.attempts) == (0.5, "partial", True, 0)
    assert first.cached is False
    # any change in the request is a miss
    judge.grade("When?", "May 2023", "June")
    judge.grade("When?", "June 2023", "May")
    assert len(model.calls) == 3
    # the cache outlives the process's Judge: a new one on the same file hits
    again = make(FakeModel(RuntimeError("must not be called")), cache=db)
    assert again.grade("When?", "May 2023", "May").cached is True
    assert judge.stats["cache_hits"] == 1 and again.stats["calls"] == 0


def test_cache_key_covers_model_prompt_and_settings(tmp_path):
    db = tmp_path / "c.sqlite"
    make(FakeModel('{"score": 1}'), cache=db).grade("q", "a", "a")

    other_model = FakeModel('{"score": 0}')
    other_model.model_id = "another-judge"
    assert make(other_model, cache=db).grade("q", "a", "a").cached is False

    other_settings = FakeModel('{"score": 0}')
    assert make(other_settings, cache=db, gen_kwargs={"max_tokens": 9}).grade("q", "a", "a").cached is False

    prompt = tmp_path / "p.txt"
    prompt.write_text("{question} {reference} {response} Score?")
    other_prompt = FakeModel('{"score": 0}')
    assert make(other_prompt, cache=db, prompt_paths={"answer": prompt}).grade("q", "a", "a").cached is False
    assert len(JudgeCache(db)) == 4


def test_cache_key_is_content_based():
    a = cache_key(x=1, y=["b", "c"])
    assert a == cache_key(y=["b", "c"], x=1)
    assert a != cache_key(x=1, y=["c", "b"])
    assert len(a) == 64


# -- retries and errors -----------------------------------------------------------------------------
def test_failing_call_is_retried_with_backoff():
    delays = []
    model = FakeModel(ModelCallError("HTTP 500"), TimeoutError("slow"), '{"score": 1}')
    judge = Judge(model, attempts=3, backoff_s=0.1, max_backoff_s=0.15, sleep=delays.append)
    result = judge.grade("q", "a", "a")
    assert (result.score, result.error, result.attempts) == (1.0, None, 3)
    assert len(delays) == 2
    assert 0.1 <= delays[0] <= 0.11 and 0.15 <= delays[1] <= 0.165   # doubled, then capped


def test_exhausted_retries_are_an_error_never_a_zero(tmp_path):
    model = FakeModel(ModelCallError("HTTP 500: overloaded"))
    judge = make(model, attempts=3, cache=tmp_path / "c.sqlite")
    result = judge.grade("q", "a", "a")
    assert result.score is None and result.values == {}
    assert "after 3 attempts" in result.error and "HTTP 500: overloaded" in result.error
    assert len(model.calls) == 3 and judge.stats["errors"] == 1
    assert len(JudgeCache(tmp_path / "c.sqlite")) == 0      # failures are not cached

    sample = score_sample("memory_update", "Where?", "Oslo", "Oslo", judge=judge)
    assert sample["primary"] is None and sample["judge"] is None
    assert sample["judge_error"].startswith("judge call failed")
    assert sample["token_f1"] == 1.0
    out = aggregate([{"key": "management/memory_update/1/q0", "metrics": sample}], "memory_update")
    assert (out["n_scored"], out["n_judge_errors"], out["primary"]) == (0, 1, None)


def test_unparseable_reply_is_an_error_and_not_cached(tmp_path):
    model = FakeModel("The answer looks fine to me.", '{"score": 1}')
    judge = make(model, cache=tmp_path / "c.sqlite")
    bad = judge.grade("q", "a", "a")
    assert bad.score is None and bad.error.startswith("unparseable judge reply")
    assert bad.raw == "The answer looks fine to me."
    good = judge.grade("q", "a", "a")                      # asked again, not served from cache
    assert good.score == 1.0 and len(model.calls) == 2


def test_configuration_errors_stop_the_run():
    judge = make(FakeModel(EvalError("unknown generation setting 'tempreture'")))
    with pytest.raises(EvalError, match="tempreture"):
        judge.grade("q", "a", "a")


# -- score_sample integration ------------------------------------------------------------------------
def test_score_sample_uses_the_judge_only_where_it_counts():
    model = FakeModel('{"score": 0.5, "reason": "partly"}')
    judge = make(model)
    out = score_sample("temporal_anchoring", "When?", "In May", "May 2023", judge=judge)
    assert (out["primary_metric"], out["primary"], out["judge"]) == ("judge", 0.5, 0.5)
    assert out["judge_reason"] == "partly" and out["judge_raw"].startswith("{")
    # multiple choice needs no judge call; an unanswerable refusal question asks the abstention
    # prompt (issue 16: with a judge, the judge decides refusal; it used to need no call)
    score_sample("memory_update", "Which?\n(A) x\n(B) y", "B", "B", judge=judge)
    assert len(model.calls) == 1
    out = score_sample("refusal_to_answer", "Dog?", "I don't know", "not mentioned", judge=judge)
    assert len(model.calls) == 2 and out["judge_prompt"] == "abstention"
    out = score_sample("refusal_to_answer", "Dog?", "Rex", "Rex", judge=judge)
    assert out["primary"] == 0.5 and len(model.calls) == 3


def test_with_a_judge_a_hedged_right_answer_is_not_a_refusal():
    """Issue 23: about one hedged answer of a real chat model in six reads as a decline to the
    refusal reader. Where a judge graded the answer above 0, the reply gave the answer, so it does
    not decline: where the reply also shares a word with the reference, the judge's grade decides
    (refusal_by "judge"), and the misreading no longer zeroes a right answer of refusal_to_answer;
    graded 0, or a plain decline, the detector's refusal stands."""
    from evaluator.scoring.refusal import is_refusal

    question = "What is the capital of the county where Fort Deposit is located?"
    hedged = ("The passage does not mention the capital of the county where Fort Deposit is located. "
              "However, it does mention that Hayneville is the county seat of Lowndes County.")
    assert is_refusal(hedged, question)                 # the reader's misreading, as on draw 17
    without = score_sample("refusal_to_answer", question, hedged, "Hayneville")
    assert (without["refused"], without["refusal_by"], without["primary"]) == (True, "detector", 0.0)
    right = score_sample("refusal_to_answer", question, hedged, "Hayneville",
                         judge=make(FakeModel('{"score": 1, "reason": "Hayneville"}')))
    assert (right["refused"], right["refused_detector"], right["refusal_by"]) == (False, True, "judge")
    assert right["primary"] == 1.0 and right["false_refusal"] is False and right["judge_prompt"] != "abstention"
    wrong = score_sample("refusal_to_answer", question, hedged, "Montgomery",
                         judge=make(FakeModel('{"score": 0, "reason": "names another town"}')))
    assert (wrong["refused"], wrong["refusal_by"], wrong["primary"]) == (True, "detector", 0.0)
    # the same on a task whose score a refusal does not set: only the false-refusal count changes
    other = score_sample("memory_update", question, hedged, "Hayneville",
                         judge=make(FakeModel('{"score": 1, "reason": "Hayneville"}')))
    assert other["primary"] == 1.0 and other["false_refusal"] is False and other["refusal_by"] == "judge"
    # a plain decline shares no word with the reference: a lenient judge's 1 does not rescue it
    lenient = score_sample("refusal_to_answer", question, "I don't know.", "Hayneville",
                           judge=make(FakeModel('{"score": 1, "reason": "lenient"}')))
    assert (lenient["refused"], lenient["refusal_by"], lenient["primary"]) == (True, "detector", 0.0)


def test_grade_many_keeps_order_under_concurrency():
    model = FakeModel(lambda messages: '{"score": 1}' if "ZZ-RIGHT" in messages[0].content[0].text
                      else '{"score": 0}')
    judge = make(model, concurrency=4)
    items = [("q", "g", "ZZ-RIGHT" if i % 3 == 0 else "ZZ-WRONG") for i in range(12)]
    scores = [r.score for r in judge.grade_many(items)]
    assert scores == [1.0 if i % 3 == 0 else 0.0 for i in range(12)]


# -- RealCompanion judgments ------------------------------------------------------------------------
def test_judge_chat_reply():
    model = FakeModel('{"content_match": 2, "used_memory": "yes", "reason": "recalls the trip"}')
    judge = make(model)
    out = judge_chat_reply(judge, probe="Back from Rome!", reply="How was the Colosseum?",
                           gold_response="Welcome back! Did you see the Colosseum like you planned?",
                           context="user: I fly to Rome on Friday")
    assert out["content_match"] == 2 and out["used_memory"] is True and out["error"] is None
    text = prompt_text(model)
    assert "I fly to Rome on Friday" in text and "Back from Rome!" in text
    assert "Did you see the Colosseum" in text and "How was the Colosseum?" in text
    # no context is shown as "(none)"
    judge_chat_reply(judge, probe="hi", reply="hello", gold_response="hey")
    assert "(none)" in prompt_text(model)


def test_judge_chat_reply_failure_is_none_not_zero():
    judge = make(FakeModel(ModelCallError("down")), attempts=2)
    out = judge_chat_reply(judge, probe="p", reply="r", gold_response="g")
    assert out["content_match"] is None and out["used_memory"] is None
    assert "down" in out["error"]


def test_judge_value_match():
    model = FakeModel('{"match": "yes", "reason": "both say nurse"}', '{"match": "no"}')
    judge = make(model)
    assert judge_value_match(judge, slot="occupation", gold_value="nurse",
                             predicted_value="works as a nurse")["match"] is True
    assert "occupation" in prompt_text(model) and "works as a nurse" in prompt_text(model)
    assert judge_value_match(judge, slot="city", gold_value="Oslo", predicted_value="Rome")["match"] is False


# -- the SQLite cache under concurrency ------------------------------------------------------------
def _write_entries(path, prefix, n):
    cache = JudgeCache(path)
    for i in range(n):
        cache.put(f"{prefix}-{i}", {"raw": f"{prefix} {i}"})
        assert cache.get(f"{prefix}-{i}") == {"raw": f"{prefix} {i}"}
    cache.close()


def test_cache_survives_concurrent_threads_and_processes(tmp_path):
    db = tmp_path / "shared.sqlite"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_write_entries, args=(db, f"p{k}", 60)) for k in range(3)]
    threads = [threading.Thread(target=_write_entries, args=(db, f"t{k}", 60)) for k in range(3)]
    for w in procs + threads:
        w.start()
    for w in procs + threads:
        w.join(60)
    assert all(p.exitcode == 0 for p in procs)
    cache = JudgeCache(db)
    assert len(cache) == 360
    assert cache.get("p2-59") == {"raw": "p2 59"} and cache.get("t0-0") == {"raw": "t0 0"}


def test_cache_file_that_is_not_sqlite_is_one_clear_error(tmp_path):
    bad = tmp_path / "cache.sqlite"
    bad.write_bytes(b"this is not a database, just text" * 100)
    with pytest.raises(EvalError, match="not a usable SQLite file"):
        JudgeCache(bad)


def test_judge_cache_shares_a_file_with_the_model_cache(tmp_path):
    import sqlite3

    db = tmp_path / "responses.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, backend TEXT, text TEXT)")
    conn.commit()
    conn.close()
    cache = JudgeCache(db)
    cache.put("k", {"raw": "x"})
    assert cache.get("k") == {"raw": "x"}


# -- make_judge -------------------------------------------------------------------------------------
def test_make_judge_errors_are_one_line():
    with pytest.raises(EvalError, match="unknown judge"):
        make_judge("gpt", {})
    with pytest.raises(EvalError, match="base_url"):
        make_judge("openai", {"model": "m"})
    with pytest.raises(EvalError, match="temperature 0"):
        make_judge("openai", {"base_url": "http://127.0.0.1:9/v1", "model": "m", "temperature": 1})


def test_make_judge_mock_for_dry_runs(tmp_path):
    judge = make_judge("mock", {"replies": '{"score": 0.5}', "max_tokens": 32},
                       cache_path=tmp_path / "c.sqlite")
    assert judge.grade("q", "a", "b").score == 0.5
    assert judge.model.calls[0]["gen_kwargs"]["temperature"] == 0.0
    assert judge.grade("q", "a", "b").cached is True
    assert judge.describe()["backend"] == "mock"


def test_make_judge_takes_another_prompt_file(tmp_path):
    prompt = tmp_path / "strict.txt"
    prompt.write_text("STRICT {question} | {reference} | {response}")
    judge = make_judge("mock", {"replies": "Score: 1", "prompt": str(prompt)})
    assert judge.grade("q", "a", "b").score == 1.0
    assert judge.model.calls[0]["messages"][0].content[0].text == "STRICT q | a | b"
    assert judge.describe()["prompt_sha256"] == hashlib.sha256(prompt.read_bytes()).hexdigest()
