"""The learned half of the refusal reader (evaluator/scoring/refusal_model.py): reproducible from the
labelled sets in this repo, blind to its held-out split, deterministic, bounded on untrusted
replies, and combined with the phrase rules as documented.

What these tests cannot show: that the model reads a new writer's or a new model's replies as well
as the held-out figures say; bench/scoring_quality.py and docs/scoring.md give those figures and
their populations."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labelsets import DATA, MODEL_HELDOUT, REFUSAL_FILES, load

from evaluator.scoring import refusal_encoder, refusal_model
from evaluator.scoring.refusal import is_refusal, reading, rules_verdict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(DATA))
# the rules' hand-written hedged-answer probes the combined reader reads as refusals (of 22), as shipped
# (9 with features version 1, 3 before the encoder joined: where the linear model says "declines"
# against the rules, the encoder mostly agrees with it on these)
KNOWN_MISREAD_HEDGED = 5
# and its decline probes (of 57) read as answers: none before the encoder joined; since, two where
# both models outvote the rules ("A week ago would have been around June 15. The messages don't
# mention a family event around then.")
KNOWN_MISSED_DECLINES = 2


def test_the_shipped_model_is_what_the_labelled_sets_train():
    """Retraining from tests/data gives the shipped weights (to their 4 decimals), so the file is
    the data's and nothing else's."""
    import train_refusal_model as trainer

    shipped = refusal_model.model()
    assert shipped["trained_on"]["rows"] == len(trainer.training_rows())
    assert shipped["settings"] == trainer.SETTINGS
    worst = trainer.difference_from_shipped()             # weights and bias, to their 4 decimals
    assert worst <= 2e-4, worst


def test_the_model_never_saw_its_held_out_split():
    import train_refusal_model as trainer

    held = {(r["text"], r.get("question")) for name in REFUSAL_FILES for r in load(name) if r["split"] in MODEL_HELDOUT}
    assert len(held) >= 200
    trained = {(r["text"], r["question"]) for r in trainer.training_rows()}
    assert not held & trained
    assert refusal_model.model()["trained_on"]["held_out_splits"] == sorted(MODEL_HELDOUT)


def test_the_rules_and_the_model_decide_where_they_agree_and_the_encoder_where_they_do_not():
    question = "What is the total on this receipt?"
    for text in ("The total is $42.10.", "The bottom of the receipt is folded over, so I can't see the total.",
                 "I can't be completely sure, but it looks like $42.", "Sorry, the receipt is too crumpled.",
                 "Here's what I see: bananas, oat milk and bread. The last line is torn off."):
        r = reading(text, question)
        lo = refusal_model.log_odds(text, question)
        assert r["model"] == round(lo, 4) and r["rules"] is rules_verdict(text, question)
        if (lo > 0) == r["rules"]:
            expected, by = r["rules"], "rules+model"
        else:
            expected, by = refusal_encoder.log_odds(text, question) > 0, "encoder"
        assert r["refusal"] is expected is is_refusal(text, question)
        assert r["decided_by"] == by
    assert reading("", question)["refusal"] is False and not is_refusal("   ", question)


def test_the_override_thresholds_are_the_smallest_that_were_right_often_enough():
    """choose_override: the smallest grid threshold whose overrides were right at least 95% of the
    time over at least `least` overrides; none when no threshold qualifies."""
    # rules said "answers"; held-out log-odds and labels: above 3 the model is always right, between
    # 1 and 3 right half the time
    pairs = [(4.0, False, 1)] * 30 + [(2.0, False, 1)] * 10 + [(2.0, False, 0)] * 10 + [(-1.0, False, 0)] * 50
    # rules said "declines"; the model never right when it disagrees
    pairs += [(-5.0, True, 1)] * 30 + [(5.0, True, 1)] * 40
    o = refusal_model.choose_override(pairs, least=20)
    assert o["to_decline"] == 2.0 and o["to_answer"] is None
    assert refusal_model.decide(2.5, False, o) and not refusal_model.decide(1.5, False, o)
    assert refusal_model.decide(-9.0, True, o)          # the rules' decline stands


def test_choices_and_reference_answers_are_read_by_the_rules_alone(monkeypatch):
    """The model never saw multiple-choice replies or reference answers: the letter reader and the
    gold-text rule ask the phrase rules."""
    from evaluator.scoring import choice, refusal, unanswerable

    calls = []
    monkeypatch.setattr(refusal_model, "log_odds", lambda *a: calls.append(a) or 99.0)
    monkeypatch.setattr(refusal_encoder, "log_odds", lambda *a: calls.append(a) or 99.0)
    refusal._combined.cache_clear()
    try:
        assert choice.extract_choice("From what you've shared with me, Rome.", {"A": "Paris", "B": "Rome"}) == "B"
        assert not unanswerable.gold_text_unanswerable("Rome")
        assert not calls
        assert is_refusal("From what you've shared with me, Rome.", "Where did I go?")    # the models, forced
        assert calls
    finally:
        refusal._combined.cache_clear()


@pytest.mark.parametrize("text, declines", [
    # the issue's examples, as a chat assistant phrases them
    ("I'm not able to determine that from the conversation.", True),
    ("The answer isn't in what we've discussed.", True),
    ("The doctor said the cause was unknown, but the diagnosis was a sprain.", False),
])
def test_the_issues_examples(text, declines):
    assert is_refusal(text) is declines
    assert is_refusal(text, "What was the diagnosis?") is declines


def test_features_are_deterministic_across_processes():
    """The verdict does not hang on Python's string hashing (PYTHONHASHSEED) or set order: two
    processes with different seeds give the same log-odds to the last digit."""
    code = ("from evaluator.scoring.refusal_model import log_odds;"
            "print(repr(log_odds('The sign is too blurry to read, but it might say EXIT.', 'What does the sign say?')))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                           env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}).stdout for seed in ("1", "2", "3")}
    assert len(outs) == 1, outs


def test_a_huge_reply_is_read_in_bounded_time():
    """Untrusted bytes: a reply longer than MAX_CHARS is read as its first and last halves, so a
    50 MB reply costs what a MAX_CHARS one does."""
    unit = "The photo is blurry and I cannot read the plate, sorry. "
    huge = unit * (50_000_000 // len(unit))
    t0 = time.perf_counter()
    assert refusal_model.features(huge, "What is the plate number?") == refusal_model.features(
        huge[:refusal_model.MAX_CHARS // 2] + "\n" + huge[-refusal_model.MAX_CHARS // 2:], "What is the plate number?")
    assert time.perf_counter() - t0 < 5


def test_a_model_file_of_other_features_is_refused(tmp_path, monkeypatch):
    stale = json.loads(refusal_model.MODEL_FILE.read_text(encoding="utf-8"))
    stale["features_version"] = refusal_model.FEATURES_VERSION + 1
    path = tmp_path / "refusal_model.json"
    path.write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(refusal_model, "MODEL_FILE", path)
    refusal_model.model.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="retrain it"):
            refusal_model.model()
    finally:
        refusal_model.model.cache_clear()


def test_where_the_learned_model_overrides_the_rules_wrongly():
    """A known weakness, kept in view: the rules' hand-written hedged answers that state the answer
    and then say an *other* detail is missing ("Anna went to Bali. There is no mention of who paid
    for it.") are read by the model as declines, often confidently enough to override the rules (it
    does not know whether the missing thing is what was asked). The rules read all of them right and
    `rules_verdict` keeps them in their round's tests; here the combined reader may misread no more
    of them than it does as shipped (docs/scoring.md, "The encoder"), answers and declines alike."""
    import test_scoring_quality as probes

    answers = [(r, probes._HONEYMOON) for r in probes._PASSAGE_ANSWERS]
    answers += [(reply, answered) for reply, _, answered in probes._READ_AGAINST_THE_QUESTION]
    declines = [(r, probes._HONEYMOON) for r in probes._PASSAGE_DECLINES]
    declines += [(reply, declined) for reply, declined, _ in probes._READ_AGAINST_THE_QUESTION]
    assert all(not rules_verdict(r, q) for r, q in answers) and all(rules_verdict(r, q) for r, q in declines)
    misread = [r for r, q in answers if is_refusal(r, q)]
    print(f"hedged-answer probes read as refusals: {len(misread)}/{len(answers)}")
    assert len(misread) <= KNOWN_MISREAD_HEDGED, misread
    missed = [r for r, q in declines if not is_refusal(r, q)]
    assert len(missed) <= KNOWN_MISSED_DECLINES, missed


# the weight-free baseline echoes the stored line most like the question: off-topic, and by the
# guide's rule 1 an answer, however many negations it holds. Written before writers 31-32's off-topic
# replies joined the training data; the first is still read as a decline (the sample's
# refusal_to_answer scores it as one): KNOWN_MISREAD_OFF_TOPIC holds that as a ceiling
OFF_TOPIC = [
    ("What is the name of Lena's dentist?", "I have a dentist appointment on Thursday, not looking forward to it."),
    ("What colour was the car Tom bought?", "Tom said he would never buy a car without test-driving it first."),
    ("Where did the team have lunch?", "No one wanted to sit outside because of the wind."),
    ("What time does the museum open?", "We didn't get to see the dinosaur hall, the queue was too long."),
    ("What brand is the blender in the photo?", "There is no sugar in the smoothie recipe on the card."),
    ("How many people attended the meeting?", "I can't stand meetings that run over an hour."),
]
KNOWN_MISREAD_OFF_TOPIC = 2     # 1 before the encoder joined ("I can't stand meetings ..." since)


def test_off_topic_replies_with_a_negation_answer():
    assert not any(rules_verdict(reply, question) for question, reply in OFF_TOPIC)
    misread = [reply for question, reply in OFF_TOPIC if is_refusal(reply, question)]
    print(f"off-topic replies read as refusals: {len(misread)}/{len(OFF_TOPIC)}: {misread}")
    assert len(misread) <= KNOWN_MISREAD_OFF_TOPIC, misread
