"""A folder holding a task answered without an agent (realcompanion/retrieval) and agent tasks:
either order resumes, scores and compares, and the agent's settings still guard the agent tasks
(evaluator/evaluate.py _check_resumable, evaluator/context.py AGENT_FREE_DIGEST)."""

from __future__ import annotations

import json

import pytest

from evaluator.cli import main
from evaluator.context import AGENT_FREE_DIGEST
from evaluator.realcompanion.sample import generate_sample

RETRIEVAL = "realcompanion/retrieval"


@pytest.fixture(scope="module")
def rc_sample(tmp_path_factory):
    return generate_sample(tmp_path_factory.mktemp("rc") / "release")


def _run(out, data, rc, task, *extra):
    return main(["run", "--no-progress", "--tasks", task, "--data", str(data), "--rc_data", str(rc),
                 "--output_path", str(out), *extra])


def _settings(out):
    return json.loads((out / "results.json").read_text())["config"]["settings"]


def test_an_agent_task_after_the_retrieval_task_scores(sample_snapshot, rc_sample, tmp_path, capsys):
    # before: accepted (the header held agent_source None), then `score` refused every
    # retrieval line as "made under other settings"
    out = tmp_path / "run"
    assert _run(out, sample_snapshot, rc_sample, RETRIEVAL) == 0
    assert _run(out, sample_snapshot, rc_sample, "management", "--model", "mock", "--limit", "3") == 0
    assert _settings(out)["model"] == "mock"
    lines = [json.loads(x) for x in (out / "samples_realcompanion_retrieval.jsonl").read_text().splitlines()]
    assert {x["settings_fp"] for x in lines} == {AGENT_FREE_DIGEST}
    capsys.readouterr()
    assert main(["score", str(out)]) == 0
    assert main(["compare", str(out), str(out)]) == 0
    assert "other settings" not in capsys.readouterr().err


def test_the_retrieval_task_after_an_agent_task_keeps_the_agent_settings(sample_snapshot, rc_sample,
                                                                        tmp_path, capsys):
    # before: refused, saying the agent's source changed (the retrieval run records no agent)
    out = tmp_path / "run"
    assert _run(out, sample_snapshot, rc_sample, "management", "--model", "mock", "--limit", "3") == 0
    assert _run(out, sample_snapshot, rc_sample, RETRIEVAL) == 0
    settings = _settings(out)
    assert (settings["agent"], settings["model"]) == ("full-context", "mock")
    # the agent tasks resume under their own agent, and another agent is still refused
    assert _run(out, sample_snapshot, rc_sample, "management", "--model", "mock", "--limit", "3") == 0
    capsys.readouterr()
    assert _run(out, sample_snapshot, rc_sample, "management", "--limit", "3") == 1
    assert "agent: 'full-context' -> 'baseline'" in capsys.readouterr().err
    assert main(["score", str(out)]) == 0
