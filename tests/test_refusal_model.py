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

from evaluator.scoring import refusal_model
from evaluator.scoring.refusal import is_refusal, reading, rules_verdict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(DATA))


def test_the_shipped_model_is_what_the_labelled_sets_train():
    """Retraining from tests/data gives the shipped weights (to their 4 decimals), so the file is
    the data's and nothing else's."""
    import train_refusal_model as trainer

    shipped = refusal_model.model()
    rows = trainer.training_rows()
    assert shipped["trained_on"]["rows"] == len(rows)
    assert shipped["settings"] == trainer.SETTINGS
    weights, bias = refusal_model.train(
        [(refusal_model.features(r["text"], r["question"]), int(r["refusal"])) for r in rows], **trainer.SETTINGS)
    assert abs(round(bias, 4) - shipped["bias"]) <= 2e-4
    worst = max(abs(round(weights.get(f, 0.0), 4) - shipped["weights"].get(f, 0.0))
                for f in set(weights) | set(shipped["weights"]))
    assert worst <= 2e-4, worst


def test_the_model_never_saw_its_held_out_split():
    import train_refusal_model as trainer

    held = {(r["text"], r.get("question")) for name in REFUSAL_FILES for r in load(name) if r["split"] in MODEL_HELDOUT}
    assert len(held) >= 200
    trained = {(r["text"], r["question"]) for r in trainer.training_rows()}
    assert not held & trained
    assert refusal_model.model()["trained_on"]["held_out_splits"] == sorted(MODEL_HELDOUT)


def test_the_verdict_is_the_documented_combination():
    question = "What is the total on this receipt?"
    for text in ("The total is $42.10.", "The bottom of the receipt is folded over, so I can't see the total.",
                 "I can't be completely sure, but it looks like $42."):
        r = reading(text, question)
        c = refusal_model.model()["combine"]
        lo = refusal_model.log_odds(text, question)
        assert r["model"] == round(lo, 4) and r["rules"] is rules_verdict(text, question)
        expected = c["model"] * lo + c["rules"] * (1 if r["rules"] else -1) + c["bias"]
        assert math.isclose(r["log_odds"], expected, abs_tol=1e-3)
        assert r["refusal"] is (expected > 0) is is_refusal(text, question)
        assert r["decided_by"] == ("both" if (lo > 0) == r["rules"] else "rules" if r["refusal"] == r["rules"] else "model")
    assert reading("", question)["refusal"] is False and not is_refusal("   ", question)


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
