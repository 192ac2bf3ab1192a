"""Judge prompts per question type, --judge_args repeats=K with per-item agreement, and the
calibration (bench/judge_calibration.py, `br-eval calibrate-judge`, calibration_for), against a
fake OpenAI-compatible server on 127.0.0.1 through the real openai client. The fake server
grades by a rule the test sets; it cannot show how lenient a real judge model is."""

from __future__ import annotations

import hashlib
from importlib.resources import files

import pytest

from evaluator.cli import main as cli_main
from evaluator.errors import EvalError
from evaluator.scoring import score_sample
from evaluator.scoring.judge import (agreement_summary, calibration_for, load_calibration_rows,
                                     make_judge, prompt_kind_for)


# the judge server and the no-keys environment of the openai judge tests
from test_judge_openai import _no_keys_from_the_environment, server  # noqa: E402,F401


def _args(server, **extra):
    return {"base_url": server.base_url, "model": "judge-model", "backoff": 0.01, **extra}


def _prompt_text(body) -> str:
    return body["messages"][0]["content"]


def test_each_question_type_gets_its_prompt_and_describe_lists_every_sha(server):
    judge = make_judge("openai", _args(server))
    score_sample("temporal_anchoring", "How many days?", "19 days", "18 days", judge=judge)
    score_sample("memory_update", "Where now?", "Bookshop, then the library", "library", judge=judge)
    score_sample("causal_intent_inference", "Why?", "Work", "Work", judge=judge)
    out = score_sample("refusal_to_answer", "Dog's name?", "I never heard about a dog.",
                       "Not mentioned: the user never said the dog's name", judge=judge)
    texts = [_prompt_text(r) for r in server.requests]
    assert "off by exactly one unit" in texts[0]
    assert "clearly states the reference's value as the current one" in texts[1]
    assert "off by exactly one" not in texts[2] and "value that changed over time" not in texts[2]
    assert "cannot be answered from those conversations" in texts[3]
    # the judge decided the refusal (server said 1 = declines); the detector is reported beside
    assert out["refusal_by"] == "judge" and out["refused"] is True and out["primary"] == 1.0
    assert out["judge_prompt"] == "abstention" and "refused_detector" in out
    info = judge.describe()
    for kind in ("answer", "temporal", "update", "abstention"):
        text = files("evaluator.scoring").joinpath(info["prompts"][kind]["source"]).read_text("utf-8")
        assert info["prompts"][kind]["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert prompt_kind_for("property_state_retrieval") == "answer"


def test_abstention_judge_overrules_the_detector(server):
    server.default = (200, '{"score": 0, "reason": "it names a dog"}')
    judge = make_judge("openai", _args(server))
    # the detector reads a refusal; the judge says the reply asserts an answer
    out = score_sample("refusal_to_answer", "Dog's name?", "I don't know, it was Rex",
                       "Not mentioned", judge=judge)
    assert out["refused"] is False and out["primary"] == 0.0 and out["refusal_by"] == "judge"


def test_repeats_record_agreement_and_keep_the_majority(server, tmp_path):
    replies = iter(['{"score": 1}', '{"score": 0}', '{"score": 1}'])
    server.default = (200, lambda body: next(replies))
    judge = make_judge("openai", _args(server, repeats="3"), cache_path=tmp_path / "c.sqlite")
    out = score_sample("memory_update", "Where?", "Oslo", "Oslo", judge=judge)
    assert len(server.requests) == 3
    assert out["judge_repeats"] == [1.0, 0.0, 1.0] and out["judge"] == 1.0
    assert out["judge_agreement"] == pytest.approx(2 / 3)
    assert judge.describe()["repeats"] == 3
    # cached per repeat: a rerun makes no call and gives the same three judgments
    again = make_judge("openai", _args(server, repeats="3"), cache_path=tmp_path / "c.sqlite")
    out2 = score_sample("memory_update", "Where?", "Oslo", "Oslo", judge=again)
    assert len(server.requests) == 3 and out2["judge_repeats"] == [1.0, 0.0, 1.0]
    summary = agreement_summary([{"metrics": out}, {"metrics": {"judge_agreement": 1.0}}, {}])
    assert summary == {"n_items": 2, "mean_agreement": pytest.approx(5 / 6), "share_unanimous": 0.5}
    assert agreement_summary([{"judge": 1.0}]) is None
    with pytest.raises(EvalError, match="repeats"):
        make_judge("openai", _args(server, repeats="0"))


def test_calibration_set_is_large_enough():
    rows = load_calibration_rows()
    assert sum(r["correct"] for r in rows) >= 100 and sum(not r["correct"] for r in rows) >= 100
    assert all(r["source"] for r in rows)


def test_calibrate_judge_command_stores_rates_for_that_judge_only(server, tmp_path, capsys):
    rows = {(r["question"], r["response"]): r["correct"] for r in load_calibration_rows()}
    wrong_accepted = [k for k, ok in rows.items() if not ok][:21]      # 21 of 105 = 20%

    def grade(body):
        text = _prompt_text(body)
        hit = next((k for k in rows if k[0] in text and f"Assistant's answer:\n{k[1]}\n" in text), None)
        if hit is None:                                  # the preflight's one tiny request
            return "OK"
        return '{"score": 1}' if rows[hit] or hit in wrong_accepted else '{"score": 0}'

    server.default = (200, grade)
    cache = tmp_path / "cache.sqlite"
    args = f"base_url={server.base_url},model=judge-model"
    assert calibration_for(make_judge("openai", _args(server), cache_path=cache)) is None
    rc = cli_main(["calibrate-judge", "--judge", "openai", "--judge_args", args,
                   "--use_cache", str(cache)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "false accept 20.0% of 105 wrong answers, false reject 0.0% of 105 right" in printed
    cal = calibration_for(make_judge("openai", _args(server), cache_path=cache))
    assert (cal["false_accept"], cal["false_reject"], cal["n_wrong"]) == (0.2, 0.0, 105)
    # another model, or another prompt, has no calibration
    assert calibration_for(make_judge("openai", {**_args(server), "model": "other"},
                                      cache_path=cache)) is None
    prompt = tmp_path / "p.txt"
    prompt.write_text("Grade {question} {reference} {response}. JSON score.")
    assert calibration_for(make_judge("openai", _args(server, prompt=str(prompt)),
                                      cache_path=cache)) is None


def test_calibrate_judge_stops_at_once_when_the_judge_is_unreachable(tmp_path, capsys):
    import socket
    import time

    with socket.socket() as s:                 # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.perf_counter()
    rc = cli_main(["calibrate-judge", "--judge", "openai", "--judge_args",
                   f"base_url=http://127.0.0.1:{port}/v1,model=m", "--use_cache",
                   str(tmp_path / "c.sqlite")])
    err = capsys.readouterr().err
    assert rc != 0 and time.perf_counter() - started < 10
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_calibrate_judge_bad_data_is_one_line(tmp_path, capsys, server):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q"}\n')
    rc = cli_main(["calibrate-judge", "--judge", "openai", "--judge_args",
                   f"base_url={server.base_url},model=m", "--use_cache", str(tmp_path / "c.sqlite"),
                   "--data", str(bad)])
    err = capsys.readouterr().err
    assert rc != 0 and "line 1 is not a calibration row" in err and "Traceback" not in err


def test_calibration_set_ships_inside_the_package():
    """`br-eval calibrate-judge` without --data must work from an installed wheel, not only from a
    checkout: the set is package data next to the prompts (pyproject's package-data)."""
    from importlib import resources

    from evaluator.scoring.judge import load_calibration_rows

    shipped = resources.files("evaluator.scoring") / "judge_calibration.jsonl"
    assert shipped.is_file()
    rows = load_calibration_rows()
    assert len(rows) == 210 and sum(r["correct"] for r in rows) == 105
