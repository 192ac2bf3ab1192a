"""The shared text module and the metrics' definitions (issue 16): SQuAD's normalisation and F1
bit for bit, the pinned stemmer, rouge-score's empty rule."""

from __future__ import annotations

import collections
import random
import re
import string

import pytest

from evaluator.errors import EvalError
from evaluator.scoring import exact_match, normalize_answer, rouge_l, token_f1
from evaluator.scoring.metrics import answer_text


# -- a faithful re-implementation of SQuAD v2.0's evaluate-v2.0.py functions ------------------------
def squad_normalize_answer(s):
    def remove_articles(text):
        regex = re.compile(r"\b(a|an|the)\b", re.UNICODE)
        return re.sub(regex, " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def squad_get_tokens(s):
    if not s:
        return []
    return squad_normalize_answer(s).split()


def squad_compute_exact(a_gold, a_pred):
    return int(squad_normalize_answer(a_gold) == squad_normalize_answer(a_pred))


def squad_compute_f1(a_gold, a_pred):
    gold_toks = squad_get_tokens(a_gold)
    pred_toks = squad_get_tokens(a_pred)
    common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
    num_same = sum(common.values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        return int(gold_toks == pred_toks)
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    return (2 * precision * recall) / (precision + recall)


_VOCAB = ["the", "a", "an", "The", "A", "AN", "cat", "cats", "Paris", "3.5", "35", "km",
          "well-known", "well", "known", "don't", "dont", "May", "2023", "blue", "theatre",
          "another", "red,", "(B)", "it's", "U.S.", "$40", "50%", "e-mail", "and", "Ana", "them"]
_EXTRA = " \t\n" + string.punctuation


def _random_text(rng: random.Random) -> str:
    words = rng.choices(_VOCAB, k=rng.randint(0, 8))
    text = " ".join(words)
    # sprinkle raw punctuation and whitespace in arbitrary places
    chars = list(text)
    for _ in range(rng.randint(0, 4)):
        chars.insert(rng.randint(0, len(chars)), rng.choice(_EXTRA))
    return "".join(chars)


def test_normalisation_and_f1_equal_squad_on_generated_pairs():
    rng = random.Random(16)
    pairs = [(_random_text(rng), _random_text(rng)) for _ in range(5000)]
    for pred, gold in pairs:
        assert normalize_answer(pred) == squad_normalize_answer(pred), pred
        assert exact_match(pred, gold) == squad_compute_exact(gold, pred), (pred, gold)
        # unstemmed token F1 is SQuAD's compute_f1, bit for bit (same float operations)
        assert token_f1(pred, gold, stem=False) == squad_compute_f1(gold, pred), (pred, gold)
    assert sum(squad_compute_f1(g, p) not in (0, 1) for p, g in pairs) > 500   # partial overlaps seen


def test_gold_lists_are_scored_as_squad_v2_get_raw_scores_scores_them():
    """Best over a list of references, an alternative that normalises to nothing dropped (and
    [''] when none is left), as SQuAD v2.0's get_raw_scores does."""
    rng = random.Random(23)
    for _ in range(3000):
        golds = [_random_text(rng) if rng.random() < 0.7 else rng.choice(["the", "-", "", "An."])
                 for _ in range(rng.randint(1, 3))]
        pred = _random_text(rng) if rng.random() < 0.8 else rng.choice(["", "...", "the"])
        kept = [a for a in golds if squad_normalize_answer(a)] or [""]
        assert exact_match(pred, golds) == max(squad_compute_exact(a, pred) for a in kept)
        assert token_f1(pred, golds, stem=False) == max(squad_compute_f1(a, pred) for a in kept)


def test_documented_differences_from_memeye():
    # README: "3.5 km" vs "35 km" is an exact match (SQuAD deletes the point), "well-known" vs
    # "well known" is F1 0 (SQuAD joins the words).
    assert exact_match("3.5 km", "35 km") == 1.0
    assert token_f1("well-known", "well known", stem=False) == 0.0


def test_documented_departures_from_squad():
    # Unicode punctuation goes like ASCII punctuation
    assert normalize_answer("don’t") == "dont" and squad_normalize_answer("don’t") == "don’t"
    # stemming by default
    assert token_f1("cats", "cat") == 1.0 and squad_compute_f1("cat", "cats") == 0
    # the two rules of score_answer (docs/scoring.md's table): reversed verdicts, dates
    from evaluator.scoring import score_answer

    flip = score_answer("conflict_detection", "Did Mira change her mind?", "No. Mira said she swims.",
                        "Yes. Mira said she swims.")
    assert flip["token_f1"] == 0.0 and squad_compute_f1("Yes. Mira said she swims.",
                                                       "No. Mira said she swims.") > 0.7
    iso = score_answer("temporal_anchoring", "When?", "2023-07-12", "12 July 2023")
    assert iso["token_f1"] == 1.0 and squad_compute_f1("12 July 2023", "2023-07-12") == 0


def test_rouge_l_empty_sides_follow_rouge_score():
    assert rouge_l("A", "the") == 0.0          # both normalise to nothing
    assert rouge_l("", "cat") == 0.0 and rouge_l("cat", "") == 0.0
    assert rouge_l("the cat", "a cat") == 1.0


def test_bool_gold_reads_yes_no():
    assert answer_text(True) == "yes" and answer_text(False) == "no"
    assert exact_match("Yes.", True) == 1.0


# -- the pinned stemmer -----------------------------------------------------------------------------
def test_stemmer_is_pinned_to_the_3x_english_stemmer():
    from evaluator.text import stem_words

    assert stem_words(["university", "organization", "generously", "running"]) == \
        ["universiti", "organiz", "generous", "run"]
    assert token_f1("university", "universities") == 1.0


def test_a_different_stemmer_behaviour_is_one_clear_error(monkeypatch):
    import evaluator.text as text

    monkeypatch.setattr(text, "_stemmer", None)
    monkeypatch.setitem(text.STEMMER_CHECK, "university", "univers")     # what PyStemmer 2.x gives
    with pytest.raises(EvalError, match="install PyStemmer==3.1.0"):
        text.stem_words(["cat"])
    monkeypatch.setattr(text, "_stemmer", None)


def test_pyproject_pins_the_stemmer():
    from pathlib import Path

    from evaluator.text import STEMMER_PIN

    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert f'"{STEMMER_PIN}"' in pyproject


# -- one tokenizer module ---------------------------------------------------------------------------
def test_bm25_variants_are_the_shared_module():
    from evaluator.agents import text_index
    from evaluator.realcompanion import text as rc_text
    from evaluator.text import AGENT_BM25, REALCOMPANION_BM25

    s = "I'm visiting the universities of Oslo in May; a dog ran"
    # agents: 2+ char words, bm25s stop words; RealCompanion: every word, br-eval's list
    assert text_index.tokenize(s) == AGENT_BM25.terms(s)
    assert rc_text.bm25_terms(s) == REALCOMPANION_BM25.terms(s)
    assert rc_text.BM25_TOKENIZER == "bm25-en-snowball-v1"
    assert "universiti" in rc_text.bm25_terms(s)
    assert rc_text.bm25_terms_many([s, "", "dogs"]) == [rc_text.bm25_terms(s), [], ["dog"]]



@pytest.mark.parametrize("pred, gold", [("", ["Paris", "the"]), ("...", ["Paris", "-"]),
                                        ("The", ["the city of Paris", "An"])])
def test_a_gold_alternative_that_normalises_to_nothing_gives_no_free_marks(pred, gold):
    # SQuAD v2.0's get_raw_scores drops such golds ([a for a in golds if normalize_answer(a)])
    from evaluator.scoring.metrics import contains

    assert exact_match(pred, gold) == token_f1(pred, gold) == contains(pred, gold) == 0.0
    assert exact_match(gold[0], gold) == token_f1(gold[0], gold) == 1.0   # the real one counts
    assert exact_match("", ["the"]) == 1.0          # nothing else to keep: empty agrees with empty
