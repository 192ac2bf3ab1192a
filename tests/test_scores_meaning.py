"""Scores that mean what they say (issue 23): the judge decides what the README says it decides,
an unreadable reply is a 0 with a reason, judge failures are shown as judge errors, one
"overall", a scorer version in every results.json and journal line, and an explicit rule for
which questions are unanswerable.

Model and judge are fake OpenAI-compatible servers on 127.0.0.1 reached through the real
openai client (tests/test_models_openai.py), driven through `br-eval` itself.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from evaluator.cli import main
from evaluator.results import RunDir
from test_models_openai import FakeOpenAIServer, chat_completion


def _lines(out, task: str) -> list[dict]:
    return [s.to_json() for s in RunDir(out).latest_samples(task)]


def _results(out) -> dict:
    return json.loads((out / "results.json").read_text())


def _is_abstention(body: dict) -> bool:
    return "cannot be answered from those conversations" in body["messages"][-1]["content"]


def test_the_judge_decides_refusal_on_unanswerable_items_through_the_cli(sample_snapshot, tmp_path):
    """`br-eval run --task refusal_to_answer --judge openai ...` in a real subprocess: every
    unanswerable open question reaches the abstention prompt and the judge's verdict decides
    (`refusal_by: judge`), where the lexical detector reads the same reply as an answer."""
    with FakeOpenAIServer() as model, FakeOpenAIServer() as judge:
        judge.completion = lambda body: chat_completion(json.dumps(
            {"score": 1, "reason": "declines"} if _is_abstention(body) else
            {"score": 0, "reason": "wrong"}))
        out = tmp_path / "run"
        proc = subprocess.run(
            [sys.executable, "-m", "evaluator.cli", "run", "--no-progress", "--task",
             "refusal_to_answer", "--data", str(sample_snapshot), "--agent", "none",
             "--model", "openai", "--model_args", f"base_url={model.base_url},model=m",
             "--judge", "openai", "--judge_args",
             f"base_url={judge.base_url},model=j,backoff=0.01", "--output_path", str(out)],
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        abstention_calls = [r for r in judge.questions if _is_abstention(r)]
    lines = _lines(out, "refusal_to_answer")
    unanswerable = [s for s in lines if s["metrics"]["answerable"] is False
                    and s["metrics"]["mc_accuracy"] is None]
    assert len(unanswerable) == 2 and len(abstention_calls) == 2
    for s in unanswerable:
        m = s["metrics"]
        assert m["refusal_by"] == "judge" and m["judge"] == 1.0 and m["judge_prompt"] == "abstention"
        assert m["refused_detector"] is False and m["refused"] is True   # the judge decided
        assert m["refusal_acc"] == 1.0
    entry = _results(out)["results"]["refusal_to_answer"]
    assert entry["decided_by"]["refusal"] == {"judge": 2, "detector": 1}   # the MC item: letter
    assert entry["decided_by"]["choice"] == {"letter reader": 1}


def test_without_a_judge_the_results_say_the_lexical_rules_decided(sample_snapshot, tmp_path,
                                                                  capsys):
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "refusal_to_answer,memory_update", "--data",
                 str(sample_snapshot), "--output_path", str(out)]) == 0
    r = _results(out)["results"]
    assert r["refusal_to_answer"]["decided_by"]["refusal"] == {"detector": 3}
    open_items = [s for s in _lines(out, "memory_update") if s["metrics"]["mc_accuracy"] is None]
    assert open_items
    assert r["memory_update"]["decided_by"]["open answer"] == {"token_f1": len(open_items)}
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert ("decided by rules, not a judge: refusal by the lexical refusal detector on "
            f"{3 + len(_lines(out, 'memory_update'))} item(s)") in text
