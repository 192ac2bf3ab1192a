"""A Beyond Recall task is declared once per package (issue 27): its data facts in
beyondrecall/card.py `TASKS`, its scoring policy in evaluator/scoring/policy.py `BEYOND_RECALL`;
every other table derives from them and scoring reads the policy, never the task's name."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from beyondrecall.card import TASKS, TOTALS, TaskFacts
from beyondrecall.loader import task_name_for_stem
from beyondrecall.records import DIMENSIONS, TASK_DIMENSION, TASK_NAMES
from beyondrecall.sample import FULL_COUNTS, TASK_FILES
from evaluator.registry import TASKS as REGISTRY
from evaluator.scoring import TASK_PRIMARY, primary_metric, score_answer, score_sample
from evaluator.scoring.judge import ANSWER_KINDS, Judge, prompt_kind_for
from evaluator.scoring.policy import BEYOND_RECALL, TaskPolicy

REPO = Path(__file__).resolve().parents[1]


def test_the_data_facts_and_the_scoring_policies_name_the_same_11_tasks():
    assert list(BEYOND_RECALL) == list(TASKS) and len(TASKS) == TOTALS["tasks"] == 11
    for name, facts in TASKS.items():
        assert isinstance(facts, TaskFacts) and facts.name == name
        assert task_name_for_stem(facts.file_stem) == name      # the card's spelling reads back
    # The card's Statistics table agrees with its Tasks table.
    assert sum(f.trajectories for f in TASKS.values()) == TOTALS["trajectories"]
    assert sum(f.questions for f in TASKS.values()) == TOTALS["questions"]


def test_every_other_table_derives_from_the_two_declarations():
    assert set(TASK_NAMES) == set(TASKS) and TASK_DIMENSION == {n: f.dimension for n, f in TASKS.items()}
    assert DIMENSIONS == {"management": TASK_NAMES[:4], "reasoning": TASK_NAMES[4:7],
                          "retrieval": TASK_NAMES[7:]}
    assert TASK_FILES == {n: (f.dimension, f.file_stem) for n, f in TASKS.items()}
    assert FULL_COUNTS == {n: (f.trajectories, f.questions) for n, f in TASKS.items()}
    assert {n: (s.suite, s.group) for n, s in REGISTRY.items() if s.suite == "beyondrecall"} == \
        {n: ("beyondrecall", f.dimension) for n, f in TASKS.items()}
    assert {n: m for n, m in TASK_PRIMARY.items() if n in TASKS} == \
        {n: p.primary_metric for n, p in BEYOND_RECALL.items()}
    assert {n: prompt_kind_for(n) for n in TASKS} == {n: p.judge_prompt for n, p in BEYOND_RECALL.items()}


def test_every_policy_names_a_metric_and_a_judge_prompt_that_exist():
    metrics = score_answer("conflict_detection", "Where?", "Oslo", "Oslo")
    for name, policy in BEYOND_RECALL.items():
        assert isinstance(metrics[policy.answer_metric], float), name
        assert policy.judge_prompt in ANSWER_KINDS and policy.judge_prompt != "abstention", name


def _string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_no_code_names_a_task_outside_its_declarations():
    """Scoring branches on the policy: no module of evaluator/ has a Beyond Recall task's name as
    a string in its code except the policy table, and in beyondrecall/ only the card's table and
    the sample generator (whose invented stories are per task) do."""
    allowed = {"evaluator/scoring/policy.py", "beyondrecall/card.py", "beyondrecall/sample.py"}
    found = sorted(f"{p.relative_to(REPO)}: {', '.join(sorted(_string_literals(p) & set(TASKS)))}"
                   for pkg in ("evaluator", "beyondrecall") for p in (REPO / pkg).rglob("*.py")
                   if p.relative_to(REPO).as_posix() not in allowed
                   and _string_literals(p) & set(TASKS))
    assert found == []


def _prompt_judge(kinds: list) -> Judge:
    """A judge whose score depends on the prompt it was given (1 for abstention, 0.5 for the
    temporal prompt, 0 otherwise); each prompt's kind is appended to `kinds`."""
    from evaluator.models.mock_backend import MockChatModel

    def reply(messages):
        text = "".join(part.text for part in messages[-1].content)
        kind = ("abstention" if "cannot be answered from those conversations" in text else
                "temporal" if "This is a temporal question" in text else
                "update" if "a value that changed over time" in text else "answer")
        kinds.append(kind)
        return json.dumps({"score": {"abstention": 1, "temporal": 0.5}.get(kind, 0)})

    return Judge(MockChatModel(reply), backoff_s=0)


def test_scoring_reads_the_policy_it_is_given_not_a_name():
    """A policy no task has: it decides the primary metric, the answer metric inside refusal_acc
    and the judge's prompts, exactly as the declared refusal_to_answer policy does by name."""
    policy = TaskPolicy(answer_metric="rougeL_f", judge_prompt="temporal", refusal_aware=True)
    assert primary_metric(policy) == "refusal_acc" and primary_metric(policy, judged=True) == "refusal_acc"
    assert primary_metric(TaskPolicy(answer_metric="rougeL_f")) == "rougeL_f"
    # An answered answerable question: graded by the policy's answer metric (ROUGE-L here).
    q, gold, reply = "What did Mira paint?", "the blue kitchen door", "Mira painted the kitchen door blue"
    out = score_answer(policy, q, reply, gold)
    assert out["rougeL_f"] != out["token_f1"] and out["primary"] == out["rougeL_f"] == out["refusal_acc"]
    assert score_answer("refusal_to_answer", q, reply, gold)["primary"] == out["token_f1"]
    # Unanswerable: a refusal scores 1, an answer 0, whatever the task is called.
    assert score_answer(policy, "Dog?", "I don't know", "not mentioned")["primary"] == 1.0
    assert score_answer(policy, "Dog?", "Rex", "not mentioned")["primary"] == 0.0
    assert score_answer(TaskPolicy(), "Dog?", "Rex", "not mentioned")["primary"] == 0.0  # token F1
    # With a judge: the policy's prompt for an answer, the abstention prompt when unanswerable.
    kinds: list[str] = []
    judge = _prompt_judge(kinds)
    assert score_sample(policy, q, reply, gold, judge=judge)["judge_prompt"] == "temporal"
    out = score_sample(policy, "Dog?", "Rex", "not mentioned", judge=judge)
    assert out["judge_prompt"] == "abstention" and out["refused"] is True and out["primary"] == 1.0
    assert score_sample(TaskPolicy(), "Dog?", "Rex", "not mentioned", judge=judge)["judge_prompt"] == "answer"
    assert kinds == ["temporal", "abstention", "answer"]


# -- a 12th task, declared by one line in each table -----------------------------------------------
FACTS_LINE = 'TASKS["fake_recall"] = TaskFacts("fake_recall", "retrieval", "Fake Recall", 6, 7)\n'
POLICY_LINE = ('BEYOND_RECALL["fake_recall"] = TaskPolicy(answer_metric="rougeL_f", '
               'judge_prompt="temporal", refusal_aware=True)\n')


def _source_copy(dest: Path) -> Path:
    for pkg in ("beyondrecall", "evaluator", "media_cache"):
        shutil.copytree(REPO / pkg, dest / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _br_eval(src: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(src)}     # the copy, never the checkout
    return subprocess.run([sys.executable, "-m", "evaluator", *args], cwd=src, env=env,
                          capture_output=True, text=True, timeout=300)


def _fake_task_snapshot(sample_snapshot: Path, dest: Path) -> Path:
    """The sample, plus benchmark/retrieval/Fake Recall.json: refusal_to_answer's questions
    (two unanswerable, one multiple choice) and conflict_detection's (answerable: two multiple
    choice, two open answers of a sentence, where ROUGE-L and token F1 differ)."""
    shutil.copytree(sample_snapshot, dest, symlinks=True)
    bench = dest / "benchmark"
    trajs = json.loads((bench / "management" / "Refusal To Answer.json").read_text())
    for t in json.loads((bench / "management" / "Conflict Detection.json").read_text()):
        trajs.append({**t, "id": 10 + int(t["id"])})
    (bench / "retrieval" / "Fake Recall.json").write_text(json.dumps(trajs))
    return dest


@pytest.mark.parametrize("judged", [False, True])
def test_a_12th_task_is_one_data_declaration_and_one_policy(sample_snapshot, tmp_path, judged):
    """In a copy of the source, a line appended to beyondrecall/card.py declares a 12th task's
    data facts: `br-eval ls` lists it with its dimension and counts, and running it stops before
    any answer, with one line, until a line appended to evaluator/scoring/policy.py declares how
    it is scored. Then the loader finds its file by the card's spelling, the registry runs it
    (also as part of its dimension), and the scorer applies its policy: refusal_acc, graded by
    ROUGE-L without a judge, the temporal prompt and the abstention prompt with one."""
    src = _source_copy(tmp_path / "src")
    data = _fake_task_snapshot(sample_snapshot, tmp_path / "data")
    with open(src / "beyondrecall" / "card.py", "a") as fh:
        fh.write(FACTS_LINE)
    ls = _br_eval(src, "ls", "--data", str(data), "--json")
    assert ls.returncode == 0, ls.stderr
    rows = {r["task"]: r for r in json.loads(ls.stdout)["tasks"]}
    assert (rows["fake_recall"]["group"], rows["fake_recall"]["count"]) == ("retrieval", 7)
    run = ["run", "--no-progress", "--tasks", "fake_recall", "--data", str(data), "--agent", "baseline"]
    if judged:
        replies = tmp_path / "judge.json"
        replies.write_text(json.dumps({"cannot be answered from those conversations": "Score: 1",
                                       "This is a temporal question": "Score: 0.5",
                                       "Compare the assistant": "Score: 0"}))
        run += ["--judge", "mock", "--judge_args", f"replies={replies}"]
    no_policy = _br_eval(src, *run, "--output_path", str(tmp_path / "refused"))
    assert no_policy.returncode != 0 and not (tmp_path / "refused").exists()
    assert no_policy.stderr.strip().splitlines() == [
        "br-eval: error: task fake_recall has no scoring policy: declare one in "
        "evaluator/scoring/policy.py (BEYOND_RECALL)"]

    with open(src / "evaluator" / "scoring" / "policy.py", "a") as fh:
        fh.write(POLICY_LINE)
    out = tmp_path / "run"
    done = _br_eval(src, *run[:3], "retrieval", *run[4:], "--output_path", str(out))
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())["results"]
    assert set(results) == {"cross_modal_semantic_matching", "high_density_information_extraction",
                            "property_state_retrieval", "temporal_anchoring", "fake_recall"}
    lines = [json.loads(x) for x in (out / "samples_fake_recall.jsonl").read_text().splitlines()]
    assert sorted(x["key"] for x in lines) == [f"retrieval/fake_recall/{k}" for k in (
        "0/q0", "1/q0", "10/q0", "11/q0", "11/q1", "12/q0", "2/q0")]
    by_key = {x["key"].split("/", 2)[2]: x["metrics"] for x in lines}
    assert {k for k, m in by_key.items() if m["primary_metric"] == "mc_accuracy"} == \
        {"2/q0", "10/q0", "12/q0"}
    open_items = {k: m for k, m in by_key.items() if m["gold_choice"] is None}
    assert {m["primary_metric"] for m in open_items.values()} == {"refusal_acc"}
    assert results["fake_recall"]["primary_metric"] == "mixed"
    for k, m in open_items.items():
        assert m["answerable"] is k.startswith("11/")
        if judged:
            assert m["judge_prompt"] == ("temporal" if m["answerable"] else "abstention")
            if m["answerable"] and not m["refused"]:
                assert m["refusal_acc"] == 0.5
        elif m["answerable"] and not m["refused"]:
            assert m["refusal_acc"] == m["rougeL_f"]
    if not judged:      # ROUGE-L, not token F1, graded an answer
        assert any(m["answerable"] and not m["refused"] and m["rougeL_f"] != m["token_f1"]
                   for m in open_items.values())
