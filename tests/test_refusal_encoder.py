"""The refusal reader's encoder (evaluator/scoring/refusal_encoder.py): its numpy tokenizer and
forward pass read as the libraries it was trained with (transformers' BERT), within bounds, and the
reader combines it as documented. What these tests cannot show: that the encoder reads replies
well; its figures on the labelled sets are tests/test_scoring_quality.py's."""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path

import numpy as np
import pytest

from labelsets import REFUSAL_FILES, load

from evaluator.scoring import refusal_encoder as E
from evaluator.scoring.refusal import is_refusal, reading, rules_version

ROOT = Path(__file__).resolve().parent.parent


def _texts() -> list[str]:
    out = []
    for name in REFUSAL_FILES:
        for r in load(name):
            out += [r["text"], r.get("question") or ""]
    return out


def test_the_tokenizer_gives_the_ids_of_the_tokenizers_librarys_bert_wordpiece(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")     # installed with transformers ([vlm])
    vocab = E.encoder().vocab
    path = tmp_path / "vocab.txt"
    path.write_text("\n".join(sorted(vocab, key=vocab.get)) + "\n", encoding="utf-8")
    reference = tokenizers.BertWordPieceTokenizer(str(path), lowercase=True)
    texts = _texts() + ["Café naïve — “quoted” 東京 x\u0000y \u200b tab\there", "a" * 150, ""]
    wrong = [t for t in texts if E.token_ids(t, vocab) != reference.encode(t, add_special_tokens=False).ids]
    assert len(texts) > 30_000 and not wrong, wrong[:3]


def test_the_forward_pass_reads_as_transformers_bert_with_the_same_weights():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    spec = importlib.util.spec_from_file_location("scoring_speed", ROOT / "bench" / "scoring_speed.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    enc = E.encoder()
    reference, (missing, unexpected) = bench.transformers_reader(enc)
    assert not unexpected and all(k.endswith("position_ids") for k in missing)
    rows = [r for r in load(REFUSAL_FILES[0])][:40]
    for r in rows:
        ids, types = E.pair_ids(r.get("question") or "", r["text"], enc.vocab)
        assert enc.log_odds(r.get("question") or "", r["text"]) == pytest.approx(reference(ids, types), abs=2e-3)


def test_a_long_reply_is_read_as_its_head_and_tail_within_the_bound():
    vocab = E.encoder().vocab
    reply = "The passage does not say. " * 200_000           # 5.2 million characters
    started = time.perf_counter()
    ids, types = E.pair_ids("Who wrote it?", reply, vocab)
    value = E.encoder().log_odds("Who wrote it?", reply)
    assert time.perf_counter() - started < 5
    assert len(ids) <= 1 + E.MAX_QUESTION_TOKENS + 1 + E.HEAD_TOKENS + 1 + E.TAIL_TOKENS + 1
    assert len(ids) == len(types) and np.isfinite(value)


def test_the_encoder_breaks_the_tie_where_the_rules_and_the_linear_model_disagree(monkeypatch):
    texts = [("I can't tell from the conversation who sent it.", "Who sent the parcel?"),
             ("It was sent by Mira on Tuesday.", "Who sent the parcel?"),
             ("Caroline did not mention running in her memories.", "Does Caroline run?"),
             ("The passage does not explicitly state who sent it; it only mentions a courier.", "Who sent the parcel?")]
    readings = [reading(text, question) for text, question in texts]
    for r in readings:
        assert set(r) == {"rules", "model", "encoder", "refusal", "decided_by"}
        if (r["model"] > 0) == r["rules"]:
            assert r["decided_by"] == "rules+model" and r["encoder"] is None and r["refusal"] == r["rules"]
        else:
            assert r["decided_by"] == "encoder" and r["refusal"] == (r["encoder"] > 0)
    assert [r["refusal"] for r in readings[:2]] == [True, False]
    assert reading("", "Who?")["decided_by"] == "empty"
    # a tie goes to the encoder, whatever it says
    from evaluator.scoring import refusal, refusal_model

    monkeypatch.setattr(refusal, "_is_refusal_text", lambda reply, asked: True)
    monkeypatch.setattr(refusal_model, "log_odds", lambda reply, asked: -1.0)
    for value in (-2.0, 3.0):
        monkeypatch.setattr(E, "log_odds", lambda reply, asked, value=value: value)
        r = reading("Anything at all.", "Who?")
        assert (r["decided_by"], r["encoder"], r["refusal"]) == ("encoder", value, value > 0)


def test_the_readings_are_deterministic_and_the_file_is_in_the_rules_version():
    E.log_odds.cache_clear()
    first = E.log_odds("The image is too blurry to read the number.", "What number is on the jersey?")
    E.log_odds.cache_clear()
    assert E.log_odds("The image is too blurry to read the number.", "What number is on the jersey?") == first
    config = json.loads(bytes(np.load(E.MODEL_FILE)["config"]).decode())
    assert config["format"] == 1 and config["base"] == "all-MiniLM-L6-v2"
    assert len(rules_version()) == 12


def test_a_missing_or_damaged_file_is_one_line(tmp_path):
    with pytest.raises(E.EncoderFileError, match="is missing"):
        E.Encoder(tmp_path / "nothing.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(E.EncoderFileError, match="cannot be read"):
        E.Encoder(bad)
