"""The weight-free baseline answers a JSON-shaped query from generic option words, without knowing
which task asks (the RealCompanion reconstruction track is one such task)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from evaluator.agents.builtin import BaselineAgent
from evaluator.agents.protocol import MemorySession, MemoryTurn, Query


def _agent() -> BaselineAgent:
    t0 = datetime(2024, 3, 1, 9, 0)
    said = [("user", "I live in the city of Bergen with two cats, close to the harbour and the old fish market", "m1"),
            ("assistant", "My favourite city is Oslo", "m2"),
            ("user", "The weather was grey today", "m3"),
            ("user", "I work as a night nurse at the hospital", "m4"),
            ("user", "I work as a night nurse at the hospital", "m5"),
            ("user", "my sister plays the cello", None)]
    agent = BaselineAgent()
    agent.write(MemorySession(0, t0, [MemoryTurn(0, i, t0, who, text, id=mid)
                                      for i, (who, text, mid) in enumerate(said)]))
    return agent


def test_a_json_query_of_any_task_is_answered_field_by_field():
    spec = {"about_me": {"claims_about": "user", "max": 2},
            "facts": {"values_for": ["home.city", "night_shift", "favourite_city"], "from": "user"},
            "summary": {"something": "else"}}
    ans = _agent().answer(Query("any/task/1", "some/other_task", "describe me", [], None,
                                options={"json": spec}))
    out = json.loads(ans.text)
    assert set(out) == {"about_me", "facts", "summary"} and out["summary"] is None
    # The latest two distinct first-person statements of the user, in history order, with ids.
    assert out["about_me"] == [{"text": "I work as a night nurse at the hospital", "citations": ["m5"]},
                               {"text": "my sister plays the cello", "citations": []}]
    # A slot gets the best-matching user message, cut to 80 characters ("home.city" -> "home
    # city"); a slot no user message matches is left out.
    long = "I live in the city of Bergen with two cats, close to the harbour and the old fish market"
    assert out["facts"]["home.city"] == long[:80]
    assert out["facts"]["night_shift"] == "I work as a night nurse at the hospital"
    assert set(out["facts"]) <= {"home.city", "night_shift", "favourite_city"}
    none = _agent().answer(Query("k", "t", "x", [], None, options={
        "json": {"facts": {"values_for": ["favourite_colour"]}}}))
    assert json.loads(none.text) == {"facts": {}}      # the assistant's "favourite" is not the user's


def test_without_json_options_it_answers_as_text():
    ans = _agent().answer(Query("k", "t", "Which city does the user live in, near the harbour?", [], None))
    assert ans.text.startswith("I live in the city of Bergen")


def test_the_baseline_does_not_know_the_reconstruction_task_by_name():
    src = (Path(__file__).resolve().parents[1] / "evaluator" / "agents" / "builtin.py").read_text()
    assert "reconstruction" not in src and "persona" not in src


def test_the_reconstruction_track_describes_its_answer_so_the_baseline_fills_it(tmp_path):
    from evaluator.evaluate import evaluate
    from evaluator.realcompanion.sample import generate_sample

    root = tmp_path / "rc"
    generate_sample(root)
    evaluate(["realcompanion/reconstruction"], rc_data=root, output_path=tmp_path / "run",
             progress=False)
    lines = [json.loads(x) for x in
             (tmp_path / "run" / "samples_realcompanion_reconstruction.jsonl").read_text().splitlines()]
    predictions = [json.loads(x["prediction"]) for x in lines]
    assert predictions and all(set(p) == {"profile", "persona"} for p in predictions)
    assert sum(len(p["profile"]) for p in predictions) > 0
    assert sum(len(p["persona"]) for p in predictions) > 0
