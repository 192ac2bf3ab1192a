"""Deterministic answer metrics: normalisation, exact match, stemmed token F1, contains, ROUGE-L.

Normalisation is the SQuAD one that LoCoMo, MemEye and Mem-Gallery reuse: lower-case, delete
punctuation, drop the articles "a", "an", "the", collapse whitespace. Two small, documented
extensions: Unicode punctuation (curly quotes, dashes, ellipses) is deleted like ASCII punctuation,
because models write "don’t" as often as "don't"; and a gold answer may be a number or a list of
acceptable answers (each metric takes the best candidate, as SQuAD does).

Token F1 and ROUGE-L stem tokens with the Snowball English stemmer ("Porter2", via PyStemmer).
LoCoMo stems with NLTK's original Porter stemmer; the two agree on almost all common words and
differ on a few endings (e.g. Porter "gener" vs Snowball "generous" for "generously").
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

_ASCII_PUNCT = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def _strip_punctuation(text: str) -> str:
    text = text.translate(_ASCII_PUNCT)
    if text.isascii():
        return text
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))


def normalize_answer(s: object) -> str:
    """Lower-case, delete punctuation, drop articles (a, an, the), collapse whitespace."""
    text = _strip_punctuation(answer_text(s).lower())
    return " ".join(_ARTICLES.sub(" ", text).split())


def answer_text(value: object) -> str:
    """A gold or predicted answer as text: None -> "", 3.0 -> "3", other numbers via str()."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else str(value)


def gold_candidates(gold: object) -> list[str]:
    """Every acceptable gold answer as text (a list or tuple gives several)."""
    if isinstance(gold, (list, tuple)):
        out = [answer_text(g) for g in gold if g is not None]
        return out or [""]
    return [answer_text(gold)]


# -- stemming (PyStemmer is imported on first use) -------------------------------------------------
_stemmer = None


def stem_tokens(tokens: Sequence[str]) -> list[str]:
    """Snowball English stems of `tokens` (PyStemmer keeps its own cache of stemmed words)."""
    global _stemmer
    if _stemmer is None:
        import Stemmer

        _stemmer = Stemmer.Stemmer("english")
    return _stemmer.stemWords(list(tokens))


def answer_tokens(text: object, *, stem: bool = True) -> list[str]:
    tokens = normalize_answer(text).split()
    return stem_tokens(tokens) if stem and tokens else tokens


# -- per-candidate metrics -----------------------------------------------------------------------
def _f1_from_tokens(pred: list[str], gold: list[str]) -> float:
    if not pred or not gold:
        # SQuAD's rule: two empty answers agree, one empty answer scores 0.
        return float(pred == gold)
    common = Counter(pred) & Counter(gold)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(pred)
    recall = same / len(gold)
    return 2 * precision * recall / (precision + recall)


def _best(values: Iterable[float]) -> float:
    return max(values, default=0.0)


def exact_match(pred: object, gold: object) -> float:
    """1.0 when the normalised prediction equals a normalised gold answer, else 0.0."""
    p = normalize_answer(pred)
    return _best(float(p == normalize_answer(g)) for g in gold_candidates(gold))


def token_f1(pred: object, gold: object, *, stem: bool = True) -> float:
    """Bag-of-tokens F1 over normalised (by default stemmed) tokens, best over gold answers."""
    p = answer_tokens(pred, stem=stem)
    return _best(_f1_from_tokens(p, answer_tokens(g, stem=stem)) for g in gold_candidates(gold))


def contains(pred: object, gold: object) -> float:
    """1.0 when a normalised gold answer occurs in the normalised prediction as whole tokens
    ("cat" is in "the black cat sat", not in "concatenate"). An empty gold only matches an
    empty prediction."""
    p = normalize_answer(pred)
    padded = f" {p} "
    scores = []
    for g in gold_candidates(gold):
        ng = normalize_answer(g)
        scores.append(float(p == "") if ng == "" else float(f" {ng} " in padded))
    return _best(scores)


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences."""
    # Tokens absent from the other side can never be part of a common subsequence; dropping them
    # first keeps long summaries cheap without changing the result.
    in_b, in_a = set(b), set(a)
    a = [t for t in a if t in in_b]
    b = [t for t in b if t in in_a]
    if not a or not b:
        return 0
    # Bit-parallel LCS (Allison & Dix 1986; Hyyro 2004): one big-integer step per token of `a`
    # instead of a len(a) x len(b) table; bit i of v is 0 once b[i] is matched.
    masks: dict[str, int] = {}
    for i, token in enumerate(b):
        masks[token] = masks.get(token, 0) | (1 << i)
    full = (1 << len(b)) - 1
    v = full
    for token in a:
        u = v & masks.get(token, 0)
        v = ((v + u) | (v - u)) & full
    return len(b) - bin(v).count("1")


def rouge_l(pred: object, gold: object, *, stem: bool = True) -> float:
    """ROUGE-L F-measure (beta = 1): P = LCS/len(pred), R = LCS/len(gold), F = 2PR/(P+R), over
    normalised, stemmed tokens; best over gold answers."""
    p = answer_tokens(pred, stem=stem)
    scores = []
    for g in gold_candidates(gold):
        gt = answer_tokens(g, stem=stem)
        if not p or not gt:
            scores.append(float(p == gt))
            continue
        lcs = lcs_length(p, gt)
        if lcs == 0:
            scores.append(0.0)
            continue
        precision, recall = lcs / len(p), lcs / len(gt)
        scores.append(2 * precision * recall / (precision + recall))
    return _best(scores)
