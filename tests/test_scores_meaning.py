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


# -- one "overall" --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rc_root(tmp_path_factory):
    from evaluator.realcompanion.sample import generate_sample

    root = tmp_path_factory.mktemp("rc") / "sample"
    generate_sample(root)
    return root


def _mock_run(out, tasks, replies, *extra):
    rfile = out.parent / f"{out.name}.replies.json"
    rfile.write_text(json.dumps(replies))
    assert main(["run", "--no-progress", "--tasks", tasks, "--agent", "none", "--model", "mock",
                 "--model_args", f"replies={rfile}", "--num_concurrent", "1",
                 "--output_path", str(out), *extra]) == 0


def test_one_overall_per_suite_in_results_report_compare_and_view(sample_snapshot, rc_root,
                                                                  tmp_path, capsys):
    """Both suites in one run: each suite's overall is the mean of its task means (never pooled
    across suites), and results.json, `report`, `compare` and `view` print the same value;
    compare's difference is the difference of those two values. A task cut by --limit is marked
    incomplete in each of them."""
    from evaluator.scoring.overall import task_mean

    tasks = "memory_update,temporal_anchoring,realcompanion/question,realcompanion/reconstruction"
    common = ["--data", str(sample_snapshot), "--rc_data", str(rc_root), "--limit", "12"]
    a, b = tmp_path / "A", tmp_path / "B"
    assert main(["run", "--no-progress", "--tasks", tasks, *common, "--output_path", str(a)]) == 0
    _mock_run(b, tasks, ["She moved to Harbour Road in May.", "I don't know.",
                         '{"profile": [], "persona": {"name": "Alex"}}', ""], *common)
    ra, rb = _results(a), _results(b)
    for r in (ra, rb):
        e = r["results"]
        br = (task_mean(e["memory_update"]) + task_mean(e["temporal_anchoring"])) / 2
        rc = (task_mean(e["realcompanion/question"])
              + task_mean(e["realcompanion/reconstruction"])) / 2
        assert r["overall"]["beyondrecall"]["mean"] == pytest.approx(br)
        assert r["overall"]["realcompanion"]["mean"] == pytest.approx(rc)
        assert r["overall"]["realcompanion"]["complete"] is False     # question: 12 of 332
        assert e["realcompanion/question"]["complete"] is False
    assert ra["overall"]["realcompanion"]["mean"] != pytest.approx(
        rb["overall"]["realcompanion"]["mean"])

    capsys.readouterr()
    assert main(["report", str(a)]) == 0
    text = capsys.readouterr().out
    assert (f"Beyond Recall overall (mean of 2 of 11 tasks)*: "
            f"{ra['overall']['beyondrecall']['mean']:.3f}") in text
    assert (f"RealCompanion overall (mean of 2 of 3 tasks)*: "
            f"{ra['overall']['realcompanion']['mean']:.3f}") in text

    assert main(["compare", str(a), str(b), "--json"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    assert set(cmp["overall"]) == {"beyondrecall", "realcompanion"}
    for suite, o in cmp["overall"].items():
        assert o["mean_a"] == pytest.approx(ra["overall"][suite]["mean"])
        assert o["mean_b"] == pytest.approx(rb["overall"][suite]["mean"])
        assert o["diff"]["mean"] == pytest.approx(o["mean_b"] - o["mean_a"])
        assert o["diff"]["ci95"][0] <= o["diff"]["mean"] <= o["diff"]["ci95"][1]
    assert cmp["overall"]["realcompanion"]["complete"] is False
    assert cmp["tasks"]["realcompanion/question"]["complete"] is False
    assert cmp["tasks"]["memory_update"]["complete"] is True
    assert main(["compare", str(a), str(b)]) == 0
    table = capsys.readouterr().out
    assert any(line.startswith("realcompanion/question*") for line in table.splitlines())
    assert any(line.startswith("overall (realcompanion, 2 of 3 tasks)*")
               for line in table.splitlines())

    from evaluator.view.report import _dimension_rows
    from evaluator.view.runs import load_run

    rows = {d["dimension"]: d for d in _dimension_rows(load_run(a))}
    assert rows["overall (realcompanion)"]["mean"] == pytest.approx(
        ra["overall"]["realcompanion"]["mean"])
    assert rows["overall (realcompanion)"]["complete"] is False


def test_compare_weighs_reconstruction_participants_as_its_pooled_f1(rc_root, tmp_path, capsys):
    """Reconstruction's primary is the F1 pooled over participants; compare's A and B columns
    are that same value (each participant weighted by its F1 denominator), not the mean of the
    participants' own F1."""
    from evaluator.realcompanion import reconstruction_track
    from evaluator.realcompanion.data import load_release

    release = load_release(rc_root)

    def replies(perfect: set[int]) -> list[str]:
        out = []
        for i, p in enumerate(release.participants):
            persona = {k: s.value for k, s in p.persona.items()}
            if i not in perfect:
                persona = dict(list(persona.items())[:1]) | {"invented.slot": "x"}
            claims = [c for c in p.claims if c.audit in reconstruction_track.GOLD_AUDITS]
            out.append(json.dumps({"profile": [{"text": c.text, "citations": list(c.citations)}
                                               for c in claims], "persona": persona}))
        return out

    a, b = tmp_path / "A", tmp_path / "B"
    common = ["--rc_data", str(rc_root)]
    _mock_run(a, "realcompanion/reconstruction", replies({0}), *common)
    _mock_run(b, "realcompanion/reconstruction", replies({0, 1, 2}), *common)
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["tasks"]["realcompanion/reconstruction"]
    for run, key in ((a, "mean_a"), (b, "mean_b")):
        entry = _results(run)["results"]["realcompanion/reconstruction"]
        assert row[key] == pytest.approx(entry["primary"]["mean"])
        assert entry["primary"]["mean"] != pytest.approx(entry["persona"]["macro_f1"])
