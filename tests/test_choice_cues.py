"""The letter reader's rules as a table of named cues (issue 27): each cue's examples read as
stated and fire that cue; the engine reads the letter cues in table order; the trace names the
cues and spans; the strict reading and the strictly read gold letter; the rules version; and, in
a run, the trace in the journal, `mc_accuracy_strict` in results.json and the rules version beside
the scorer version."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evaluator.scoring import choice_cues as rules
from evaluator.scoring.choice import (Hit, extract_choice, gold_choice, rules_version, strict_choice,
                                      trace_record)

EXAMPLES = [(cue.name, ex) for cue in rules.CUES for ex in cue.examples]


@pytest.mark.parametrize("name, example", EXAMPLES, ids=[f"{n}:{e[0][:40]}" for n, e in EXAMPLES])
def test_each_cue_example_reads_as_stated_and_fires_that_cue(name, example):
    reply, expected = example[0], example[1]
    options = example[2] if len(example) > 2 else rules.EXAMPLE_OPTIONS
    letter, hits = extract_choice(reply, options, trace=True)
    assert letter == expected
    assert name in [h.cue for h in hits], [h.cue for h in hits]
    assert extract_choice(reply, options) == letter           # tracing changes nothing


def test_every_cue_is_documented_with_an_example_and_known_terms():
    stages = ("reply", "answer line", "rewrite", "letter", "settle", "refusal", "option text")
    effects = {"read", "rewrite", "choose", "none", "read on", "not a letter", "condition", "reject",
               "reject list", "question", "stays rejected", "decide", "label", "describe", "list",
               "current", "settle"}
    names = [c.name for c in rules.CUES]
    assert len(names) == len(set(names))
    assert [stages.index(c.stage) for c in rules.CUES] == sorted(stages.index(c.stage) for c in rules.CUES)
    for cue in rules.CUES:
        assert cue.doc and cue.examples, cue.name
        assert cue.effect in effects and re.fullmatch(r"[a-z][a-z-]*", cue.name), cue.name
        for used in cue.uses:
            assert used in rules.PARTS or used in rules.GROUPS or used in rules.CUE, (cue.name, used)
        if cue.group:
            assert cue.group in rules.GROUPS and rules.GROUPS[cue.group].looks_at == cue.looks_at, cue.name


def test_every_part_is_read_somewhere():
    from evaluator.scoring.choice import ENGINE

    engine = "".join((Path(rules.__file__).parent / f"{name}.py").read_text("utf-8") for name in ENGINE)
    for name in rules.PARTS:
        used = any(name in c.uses for c in rules.CUES) or f'"{name}"' in engine or any(
            rules.PARTS[name] in g.head + g.tail for g in rules.GROUPS.values())
        assert used, name


def test_the_letter_cues_are_read_in_table_order():
    from evaluator.scoring import choice

    run = [step.name for step in choice._TOKEN_STEPS + choice._NAME_STEPS + choice._STANDING_STEPS]
    table, seen = [], set()
    for cue in rules.CUES:
        if cue.stage == "letter" and cue.name != "letter-token" and (cue.group or cue.name) not in seen:
            seen.add(cue.group or cue.name)
            table.append(cue.name)
    assert run == table
    # order matters: a rejection before a decisive label ("not A; the answer is B"), the question
    # check before the check mark, the article rule after the labels
    for earlier, later in (("negation-before", "answer-word"), ("asked-question", "mark-check"),
                           ("option-named", "article-a"), ("opening-letter", "stays-rejected")):
        assert run.index(earlier) < run.index(later)


def test_the_trace_names_cues_letters_and_spans():
    letter, hits = extract_choice("Not A; the answer is B.", rules.EXAMPLE_OPTIONS, trace=True)
    assert letter == "B"
    assert all(isinstance(h, Hit) for h in hits)
    by_cue = {h.cue: h for h in hits}
    assert by_cue["negation-before"].letter == "A" and by_cue["negation-before"].text.lower().startswith("not")
    assert by_cue["answer-word"].letter == "B" and by_cue["answer-word"].text == "answer is "
    assert [h.cue for h in hits][-1] == "firmest-standing"
    # a journal keeps [cue, letter, start, end, text], the last TRACE_LIMIT hits
    record = trace_record(hits)
    assert record[0][:2] == ["negation-before", "A"] and json.loads(json.dumps(record)) == record
    long_reply = " ".join(f"Not {x}." for x in "ABCD" * 30) + " The answer is B."
    assert len(trace_record(extract_choice(long_reply, rules.EXAMPLE_OPTIONS, trace=True)[1])) == rules.TRACE_LIMIT


@pytest.mark.parametrize("reply, expected", [
    ("B", "B"), ("(B)", "B"), ("B.", "B"), ("Answer: B", "B"), ("ANSWER: C", "C"),
    ("Let me think.\nA seems wrong.\nANSWER: D", "D"), ("**Answer:** (B)", "B"), ("Final answer: B", "B"),
    ("Answer: (C) dark red", "C"), ("blue", "B"), ("Answer: blue", "B"),
    # flexible readings the strict one does not make
    ("The answer is B.", None), ("I choose B", None), ("b", None), ("Answer: B, because blue", None),
    ("Answer: B\nI hope that helps.", None), ("Answer: E", None), ("Answer: (B) red", None),
    ("A or B", None), ("", None),
])
def test_strict_reading_reads_only_the_final_answer_line(reply, expected):
    assert strict_choice(reply, rules.EXAMPLE_OPTIONS) == expected


def test_the_gold_letter_is_read_by_the_strict_steps_only():
    options = rules.EXAMPLE_OPTIONS
    assert gold_choice("B", options) == "B"
    assert gold_choice("(C) dark red", options) == "C"
    assert gold_choice("blue", options) == "B"
    assert gold_choice(["purple", "red"], options) == "A"
    # the heuristic reader would read these; a gold answer is not a reply to interpret
    assert gold_choice("The answer is B", options) is None
    assert gold_choice("I'd go with dark red, not red", options) is None


def test_rules_version_covers_the_rules_not_their_prose(monkeypatch):
    version = rules_version()
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert rules_version.__wrapped__() == version
    i = next(i for i, c in enumerate(rules.CUES) if c.name == "negation-before")
    cue = rules.CUES[i]
    reworded = rules.CUES[:i] + (cue.__class__(**{**cue.__dict__, "doc": "other words",
                                                  "examples": ()}),) + rules.CUES[i + 1:]
    monkeypatch.setattr(rules, "CUES", reworded)
    assert rules_version.__wrapped__() == version
    changed = rules.CUES[:i] + (cue.__class__(**{**cue.__dict__, "pattern": cue.pattern + r"|\bbesides"}),) + rules.CUES[i + 1:]
    monkeypatch.setattr(rules, "CUES", changed)
    assert rules_version.__wrapped__() != version
    monkeypatch.setattr(rules, "CUES", reworded)
    monkeypatch.setattr(rules, "THING_NOUNS", rules.THING_NOUNS + ("hangar bay",))
    assert rules_version.__wrapped__() != version


def test_a_run_keeps_the_trace_the_strict_reading_and_the_rules_version(sample_snapshot, tmp_path):
    """A model that answers "I'd go with B, I think." to every question: the flexible reading is B,
    the strict one reads nothing; the journal keeps the cues that decided, results.json the strict
    accuracy beside the flexible one and the reader's rules version beside the scorer version
    (after `br-eval score` too)."""
    from test_models_openai import FakeOpenAIServer, chat_completion

    from evaluator.cli import main
    from evaluator.results import RunDir
    from evaluator.scoring.version import rules_versions, scorer_version

    out = tmp_path / "run"
    with FakeOpenAIServer() as model:
        model.completion = lambda body: chat_completion("I'd go with B, I think.")
        assert main(["run", "--no-progress", "--task", "conflict_detection", "--data", str(sample_snapshot),
                     "--agent", "none", "--model", "openai", "--model_args",
                     f"base_url={model.base_url},model=m", "--output_path", str(out)]) == 0
    lines = [s.to_json() for s in RunDir(out).latest_samples("conflict_detection")]
    mc = [s["metrics"] for s in lines if s["metrics"]["gold_choice"]]
    assert mc
    for m in mc:
        assert m["choice"] == "B" and m["choice_strict"] is None and m["mc_accuracy_strict"] == 0.0
        assert m["mc_accuracy"] == float(m["gold_choice"] == "B")
        cues = [c for c, *_ in m["choice_trace"]]
        assert "choose-verb" in cues and set(cues) <= set(rules.CUE)
    results = json.loads((out / "results.json").read_text())
    entry = results["results"]["conflict_detection"]["metrics"]
    assert entry["mc_accuracy_strict"]["mean"] == 0.0
    assert entry["mc_accuracy"]["mean"] == pytest.approx(sum(m["mc_accuracy"] for m in mc) / len(mc))
    assert results["rules_versions"] == rules_versions() and results["rules_versions"]["choice"] == rules_version()
    assert results["scorer_version"] == scorer_version()
    results["rules_versions"] = {"choice": "stale", "refusal": "stale"}
    (out / "results.json").write_text(json.dumps(results))
    assert main(["score", str(out)]) == 0
    assert json.loads((out / "results.json").read_text())["rules_versions"] == rules_versions()


def test_the_round_history_is_a_page_not_docstrings():
    from evaluator.scoring.version import scorer_files

    scoring = Path(rules.__file__).parent
    page = (scoring / "CHOICE_HISTORY.md").read_text("utf-8")
    for n in range(7, 13):
        assert re.search(rf"^## Round {n}\b", page, re.M), n
    for path in scoring.glob("choice*.py"):
        assert not re.search(r"\bRound \d+\b", path.read_text("utf-8")), path.name
    assert "scoring/CHOICE_HISTORY.md" not in scorer_files()     # prose: no change of scorer version
