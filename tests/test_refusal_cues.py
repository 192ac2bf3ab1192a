"""The refusal reader's rules as a table of named cues (issue 27): each cue's examples read as
stated and fire that cue; the clause cues are read in table order; the rules version."""

from __future__ import annotations

import re

import pytest

from evaluator.scoring import refusal
from evaluator.scoring.refusal import CUES, explain, is_refusal, rules_version, trace

EXAMPLES = [(cue["name"], ex) for cue in CUES for ex in cue["examples"]]
STAGES = ("reply", "clause", "clause caveat", "clause in context", "question", "decide")


@pytest.mark.parametrize("name, example", EXAMPLES, ids=[f"{n}:{e[0][:40]}" for n, e in EXAMPLES])
def test_each_cue_example_reads_as_stated_and_fires_that_cue(name, example):
    text, question, expected = example
    assert is_refusal(text, question) is expected
    assert name in trace(text, question)


def test_every_cue_is_documented_with_an_example_and_known_terms():
    names = [c["name"] for c in CUES]
    assert len(names) == len(set(names))
    for cue in CUES:
        assert cue["doc"] and cue["examples"] and cue["stage"] in STAGES, cue["name"]
        assert re.fullmatch(r"[a-z][a-z-]*", cue["name"]), cue["name"]
        if cue["stage"] == "clause":
            assert cue["name"] in refusal.PATTERNS or cue.get("when") or cue["name"] == "content", cue["name"]
    assert set(refusal.PATTERNS) <= set(names)


def test_the_clause_cues_are_read_in_table_order():
    table = [c["name"] for c in CUES if c["stage"] == "clause"]
    assert [step[0] for step in refusal._CLAUSE_STEPS] == table
    # a decline of the answer itself before a refusal, refusals before hedges, content last
    assert table.index("decline-speaker") < table.index("refuse-speaker") < table.index("hedge-unsure")
    assert table[-1] == "content"


def test_explain_names_each_clause_cue_and_keeps_its_shape():
    assert [k for _, k in explain("Sorry, it wasn't mentioned.")] == ["filler", "refuse"]
    assert explain("Sorry, it wasn't mentioned.", cues=True) == [
        ("sorry", "filler", ("filler-word",)), ("it wasnt mentioned", "refuse", ("refuse-passive",))]


def test_rules_version_is_recorded_beside_the_letter_reader():
    from evaluator.scoring.version import rules_versions

    assert re.fullmatch(r"[0-9a-f]{12}", rules_version())
    assert rules_versions()["refusal"] == rules_version()
