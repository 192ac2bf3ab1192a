"""The learned half of the refusal reader: a logistic regression on the words of a reply (and a few
facts about its question), trained on the labelled replies under tests/data, shipped as
refusal_model.json.

Why: phrase rules (refusal.py) read the sets they were tuned on at 90-97%, but a fresh writer's
chat/VLM replies at 63.5-82%: every writer brings phrasings no round had seen, and most of what the
rules miss are declines they read as answers. A linear model over words and word pairs, trained on
every labelled set, read fresh writers' sets at 87-98.5% with each set held out in turn
(docs/scoring.md, "The learned reader"). Words alone cannot tell "the total reads $42.10; the date
is cut off" (answers a question about the total) from "the date reads 12 March; the total is cut
off" (declines it), so the features also say, clause by clause, whether the question's words sit
where something is missing or where something is given (features version 2), and the training data
holds 2,700 such minimal pairs. The model may still call hedged answers refusals that the rules
read right, so the reader before the encoder joined (refusal_encoder.py; `refusal.reading` now
averages the two models) kept the rules' verdict and let the model override it only
where its overrides were right at least OVERRIDE_PRECISION of the time (`decide`, still how the
trainer measures each held-out set's rules-and-model figure): a rules' "answers" becomes
"declines" when the model's log-odds exceed `override.to_decline` in the model file; a rules'
"declines" becomes "answers" below -`override.to_answer` (null: never). The thresholds are chosen
by the trainer on the model's held-out readings of sets no round of rules was tuned on.

Scope: replies to open questions. Multiple-choice replies (the letter reader) and reference answers
(which questions are unanswerable) are read by the rules alone; the model never saw either kind.

Deterministic: the features are sets of strings, the weights are fixed numbers in the file, and
the sum is math.fsum (order-free). Training (`train`, run by tests/data/train_refusal_model.py) is
full-batch gradient descent for a fixed number of steps from zero, so the same data gives the same
file. Bound: a reply longer than MAX_CHARS is read as its first and last MAX_CHARS/2 characters.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from pathlib import Path

MODEL_FILE = Path(__file__).with_name("refusal_model.json")
MAX_CHARS = 20_000
FEATURES_VERSION = 2
OVERRIDE_PRECISION = 0.95

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[?!:]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_YES_NO = re.compile(r"\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b")
_HOW_MANY = re.compile(r"\bhow (?:many|much)\b")
_OPENS_YES_NO = re.compile(r"\s*(?:no|yes)\b")
_DIGIT = re.compile(r"\d")
# words that open a negation: the next NEGATION_SCOPE words are also read as negated ("N:" features)
_NEGATIONS = frozenset("not no never nothing none without cannot neither nor nobody nowhere unable".split())
NEGATION_SCOPE = 4
# question words that say nothing of what is asked, left out of the overlap count
_FRAME = frozenset("the a an of to in on is was were are what which who how did do does i you my me it "
                   "this that for and or at by with from".split())
# clauses: a reply is cut at sentence ends, semicolons, colons, dashes, brackets and before a
# contrast word; a clause is negative when it holds a negation or a word saying something is absent
_CLAUSE = re.compile(r"(?<=[.!?;:])\s+|\n+|\s+[-\u2013\u2014]+\s+|[()]|,?\s+\b(?=(?:but|though|although|however|while|whereas|yet)\b)")
_ABSENT = _NEGATIONS | frozenset(
    "unknown unclear unspecified illegible unreadable missing blurry masked hidden obscured unsure uncertain "
    "absent redacted blacked smudged cropped covered faded omitted unavailable unlabeled unlabelled unnamed "
    "undated blank garbled muffled inaudible drowned offscreen lost unmarked undisclosed unstated unanswered "
    "unmentioned undecided unresolved pending".split())
_VALUE = re.compile(r"\d|[$\u20ac\u00a3]|\"|\u201c")
_NAME_INSIDE = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z]+")
# what a question asks for, and whether a reply holds something of that type ("answer types")
_ASKS = (("color", re.compile(r"\bcolou?rs?\b")),
         ("money", re.compile(r"\bhow much\b|\bcost|\bprice|\bfee\b|\btotal\b|\bamount\b|\bpaid\b|\bpay\b"
                              r"|\bspen[dt]\b|\bsalary|\brent\b|\bbalance\b")),
         ("number", re.compile(r"\bhow many\b|\bnumber\b|\bcount\b|\bscore\b|\bdigits?\b|\bhow old\b|\bage\b"
                               r"|\bhow long\b|\btemperature\b|\bpercent|\bgpa\b|\bdistance\b|\bhow far\b"
                               r"|\brating\b|\bversion\b")),
         ("time", re.compile(r"^\s*when\b|\bdate\b|\bwhat time\b|\bwhat day\b|\byear\b|\bdeadline\b"
                             r"|\bwhat month\b|\bstart\b|\bend\b")),
         ("name", re.compile(r"^\s*who\b|\bwhose\b|\bname\b|\btitle\b|\bcalled\b")),
         ("place", re.compile(r"^\s*where\b|\baddress\b|\blocation\b|\broom\b|\bcity\b|\bcountry\b")))
_COLOURS = frozenset("red blue green yellow black white grey gray brown pink purple orange beige navy teal "
                     "silver gold maroon cream violet turquoise tan".split())
_MONEY = re.compile(r"[$\u20ac\u00a3\u00a5]|\b(?:dollars?|euros?|pounds?|usd|eur|gbp)\b")
_WHEN = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri"
                   r"|satur|sun)day\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\b(?:19|20)\d{2}\b")
_QUOTED = re.compile("[\"'\u2018\u201c][^\"'\u2019\u201d]{2,}[\"'\u2019\u201d]")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def _bounded(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    half = MAX_CHARS // 2
    return text[:half] + "\n" + text[-half:]


def question_kind(question: str) -> str:
    """'yes-no', 'how-many' or 'wh': the one fact about the question that changes what an absence
    means ("Does it mention parking?" "It says nothing about parking." answers)."""
    q = question.lower()
    if _YES_NO.match(q):
        return "yes-no"
    return "how-many" if _HOW_MANY.search(q) else "wh"


def _negated(words: list[str]) -> set[str]:
    """The words within NEGATION_SCOPE words after a negation ("isn't visible" -> N:visible)."""
    out, scope = set(), 0
    for w in words:
        if w in _NEGATIONS or w.endswith("n't"):
            scope = NEGATION_SCOPE
        elif scope:
            out.add("N:" + w)
            scope -= 1
    return out


def features(text: str, question: str | None = None) -> frozenset[str]:
    """The reply's features: its words and word pairs, the words in a negation's scope, those of
    its last sentence, the first six words of its first sentence, its length in tens of words and
    sentences, the words of its negative and other clauses; and with a question, the question's
    kind crossed with whether the reply holds a digit or opens with yes/no, how many of the
    question's naming words its last sentence repeats, what kind of value the question asks for
    against what the reply holds, and where the question's words sit (_clause_features)."""
    text = _bounded(text)
    words = _words(text)
    out = {"u:" + w for w in words}
    out.update("b:" + a + "_" + b for a, b in zip(words, words[1:]))
    out.update(_negated(words))
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    if sentences:
        last = _words(sentences[-1])
        out.update("L:" + w for w in last)
        out.update("Lb:" + a + "_" + b for a, b in zip(last, last[1:]))
        out.update("F:" + w for w in _words(sentences[0])[:6])
    out.add("len:%d" % min(len(words) // 10, 8))
    out.add("nsent:%d" % min(len(sentences), 6))
    if question:
        kind = question_kind(question)
        out.add("QK:" + kind)
        out.add("QKD:%s:%d" % (kind, bool(_DIGIT.search(text))))
        out.add("QKNO:%s:%d" % (kind, bool(_OPENS_YES_NO.match(text.lower()))))
        if sentences:
            naming = set(_words(question)) - _FRAME
            out.add("LQ:%d" % min(len(set(_words(sentences[-1])) & naming), 3))
        out.update(_answer_types(text, words, question))
    out.update(_clause_features(_clauses(text), question))
    return frozenset(out)


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "ed", "ing"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _clauses(text: str) -> list[tuple[list[str], bool, bool]]:
    """(words, negative?, holds a value?) per clause; a value is a digit, currency, quote or a
    capitalised word inside the clause."""
    out = []
    for clause in _CLAUSE.split(text):
        words = _words(clause) if clause else []
        if words:
            negative = any(w in _ABSENT or w.endswith("n't") for w in words) or "cut off" in clause.lower()
            out.append((words, negative, bool(_VALUE.search(clause) or _NAME_INSIDE.search(clause.strip()))))
    return out


def _clause_features(clauses: list[tuple[list[str], bool, bool]], question: str | None) -> set[str]:
    """What is missing against what is given: the words of negative clauses (NC:) and of the others
    (PC:), and with a question, whether its naming words (stemmed; the first two apart, as its focus)
    sit in negative clauses, in the others, or both, and whether a non-negative clause holds a value.
    "The tenant's first name is Daniela; the surname is redacted." answers "What is the first name?"
    and declines "What is the surname?"."""
    out = set()
    for words, negative, _ in clauses:
        out.update(("NC:" if negative else "PC:") + w for w in words)
    if not question:
        return out
    asked = [w for w in _words(question) if w not in _FRAME and len(w) > 2]
    stems = {_stem(w) for w in asked}
    raw = set(asked)
    in_neg, in_pos, raw_neg, raw_pos, valued = set(), set(), 0, 0, False
    for words, negative, value in clauses:
        hit = {_stem(w) for w in words} & stems
        overlap = min(len(set(words) & raw), 2)
        if negative:
            in_neg |= hit
            raw_neg = max(raw_neg, overlap)
        else:
            in_pos |= hit
            raw_pos = max(raw_pos, overlap)
            valued = valued or value
    out.add("CQ:%d:%d:%d" % (raw_neg, raw_pos, valued))
    out.add("CQn:%d" % raw_neg)
    out.add("CQp:%d:%d" % (raw_pos, valued))
    out.add("QWn:%d" % min(len(in_neg - in_pos), 2))
    out.add("QWp:%d" % min(len(in_pos - in_neg), 2))
    out.add("QWb:%d" % min(len(in_pos & in_neg), 2))
    out.add("QWd:%d:%d" % (max(-2, min(2, len(in_neg) - len(in_pos))), valued))
    for i, focus in enumerate(_stem(w) for w in asked[:2]):
        out.add("FOC%d:%d%d%d" % (i, focus in in_neg, focus in in_pos, valued))
    return out


def _answer_types(text: str, words: list[str], question: str) -> set[str]:
    """The kinds of value the question asks for (colour, money, number, time, name, place; else
    other) crossed with the kinds the reply holds."""
    q = question.lower()
    asks = [kind for kind, pattern in _ASKS if pattern.search(q)] or ["other"]
    low = text.lower()
    holds = {"digit": bool(_DIGIT.search(text)), "money": bool(_MONEY.search(low)),
             "color": not _COLOURS.isdisjoint(words), "time": bool(_WHEN.search(low)),
             "cap": bool(_NAME_INSIDE.search(text)), "quote": bool(_QUOTED.search(text))}
    out = set()
    for kind in asks:
        out.add("AT:" + kind)
        out.update("AT:%s:%s:%d" % (kind, k, v) for k, v in holds.items())
    return out


@lru_cache(maxsize=1)
def model() -> dict:
    """The shipped model (refusal_model.json): {"weights", "bias", "override", "trained_on", ...}."""
    with open(MODEL_FILE, encoding="utf-8") as fh:
        data = json.load(fh)
    if data.get("features_version") != FEATURES_VERSION:
        raise RuntimeError(f"{MODEL_FILE.name} was trained on features version {data.get('features_version')}, "
                           f"this code computes version {FEATURES_VERSION}: retrain it "
                           "(python tests/data/train_refusal_model.py)")
    return data


def log_odds(text: str, question: str | None = None) -> float:
    """The model's log-odds that the reply declines."""
    m = model()
    return score(features(text, question), m["weights"], m["bias"])


def score(feats: frozenset[str], weights: dict[str, float], bias: float) -> float:
    """Log-odds of a feature set under given weights (the shipped ones, or the trainer's)."""
    return math.fsum([bias, *(weights[f] for f in feats if f in weights)])


def decide(model_log_odds: float, rules_decline: bool, override: dict | None = None) -> bool:
    """The reader's verdict: the rules' unless the model overrides it (module docstring), by the
    shipped thresholds or by `override` (the trainer's candidates)."""
    o = model()["override"] if override is None else override
    if rules_decline:
        return not (o["to_answer"] is not None and model_log_odds < -o["to_answer"])
    return model_log_odds > o["to_decline"]


# -- training (tests/data/train_refusal_model.py) -----------------------------------------------------

def train(rows: list[tuple[frozenset[str], int]], *, l2: float = 1.0, steps: int = 1500,
          min_rows: int = 2) -> tuple[dict[str, float], float]:
    """L2-regularised logistic regression by full-batch gradient descent with Nesterov momentum,
    from zero, for a fixed number of steps (deterministic). Features seen in fewer than `min_rows`
    rows are dropped. Returns (weights, bias)."""
    import numpy as np

    counts: dict[str, int] = {}
    for feats, _ in rows:
        for f in feats:
            counts[f] = counts.get(f, 0) + 1
    vocab = sorted(f for f, n in counts.items() if n >= min_rows)
    index = {f: j for j, f in enumerate(vocab)}
    row_of, col_of = [], []
    for i, (feats, _) in enumerate(rows):
        cols = sorted(index[f] for f in feats if f in index)
        row_of.extend([i] * len(cols))
        col_of.extend(cols)
    r = np.asarray(row_of, dtype=np.int64)
    c = np.asarray(col_of, dtype=np.int64)
    y = np.asarray([label for _, label in rows], dtype=np.float64)
    n, d = len(rows), len(vocab)
    # step size 1/L, L the curvature bound: the largest eigenvalue of X'X (power iteration from a
    # fixed start, so deterministic) over 4, plus l2
    v = np.full(d, 1.0 / math.sqrt(d))
    top = 1.0
    for _ in range(60):
        xv = np.bincount(r, weights=v[c], minlength=n)
        u = np.bincount(c, weights=xv[r], minlength=d) + float(xv.sum()) / n   # the bias column too
        top = float(np.linalg.norm(u))
        v = u / top
    lr = 1.0 / (0.25 * top * 1.1 + l2)
    w = np.zeros(d)
    b = 0.0
    vw, vb = w.copy(), b
    for t in range(1, steps + 1):
        z = np.bincount(r, weights=vw[c], minlength=n) + vb
        g = 1.0 / (1.0 + np.exp(-z)) - y
        grad_w = np.bincount(c, weights=g[r], minlength=d) + l2 * vw
        grad_b = float(g.sum())
        w_next = vw - lr * grad_w
        b_next = vb - lr * grad_b
        momentum = (t - 1) / (t + 2)
        vw = w_next + momentum * (w_next - w)
        vb = b_next + momentum * (b_next - b)
        w, b = w_next, b_next
    return {f: float(x) for f, x in zip(vocab, w)}, float(b)


def choose_override(pairs: list[tuple[float, bool, int]], *, precision: float = OVERRIDE_PRECISION,
                    least: int = 20) -> dict:
    """The override thresholds from (held-out model log-odds, rules' verdict, label): for each
    direction, the smallest threshold on a 0.25 grid (0-8) at which the model's overrides of the
    rules were right at least `precision` of the time, over at least `least` overrides; None when
    no threshold qualifies (the rules' verdict stands)."""
    def smallest(candidates: list[tuple[float, int]]) -> float | None:
        for step in range(33):
            t = step / 4
            over = [right for score, right in candidates if score > t]
            if len(over) >= least and sum(over) / len(over) >= precision:
                return t
        return None

    to_decline = smallest([(lo, label) for lo, rule, label in pairs if not rule])
    to_answer = smallest([(-lo, 1 - label) for lo, rule, label in pairs if rule])
    return {"to_decline": to_decline, "to_answer": to_answer, "precision": precision, "least": least}
