"""Deterministic answer metrics: normalisation, exact match, token F1, contains, ROUGE-L.

Normalisation and F1 are SQuAD's (v2.0 `evaluate-v2.0.py`, whose normalize_answer is v1.1's),
bit for bit on ASCII text. SQuAD's code, which is the definition:

    def normalize_answer(s):
      def remove_articles(text):
        regex = re.compile(r'\b(a|an|the)\b', re.UNICODE)
        return re.sub(regex, ' ', text)
      def white_space_fix(text):
        return ' '.join(text.split())
      def remove_punc(text):
        exclude = set(string.punctuation)
        return ''.join(ch for ch in text if ch not in exclude)
      def lower(text):
        return text.lower()
      return white_space_fix(remove_articles(remove_punc(lower(s))))

    def compute_f1(a_gold, a_pred):
      gold_toks = get_tokens(a_gold)            # normalize_answer(s).split()
      pred_toks = get_tokens(a_pred)
      common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
      num_same = sum(common.values())
      if len(gold_toks) == 0 or len(pred_toks) == 0:
        return int(gold_toks == pred_toks)
      if num_same == 0:
        return 0
      precision = 1.0 * num_same / len(pred_toks)
      recall = 1.0 * num_same / len(gold_toks)
      return (2 * precision * recall) / (precision + recall)

LoCoMo reuses this normalisation (and stems). MemEye and Mem-Gallery do NOT: they turn
punctuation into spaces and keep decimal points, so "3.5 km" vs "35 km" is an exact match here and
F1 0.5 there, and "well-known" vs "well known" is F1 0 here and 1 there.

Deliberate departures (each in the README with its example pair):
- Unicode punctuation (curly quotes, dashes, ellipses) is deleted like ASCII punctuation:
  "don’t" vs "dont" is an exact match here, not in SQuAD (which keeps "’").
- token F1 and ROUGE-L stem tokens by default with the pinned Snowball English stemmer
  (evaluator.text): "cats" vs "cat" is F1 1.0 here, 0 in SQuAD; `token_f1(..., stem=False)` is
  SQuAD's compute_f1 exactly.
- a gold answer may be a number, a bool or a list of acceptable answers (each metric takes the
  best candidate, as SQuAD does over its gold list, dropping, as SQuAD v2.0 does, an alternative
  that normalises to nothing when the list has others).

ROUGE-L follows Google's rouge-score: F = 2PR/(P+R) of the LCS, and 0.0 when either side has no
tokens (after normalisation "A" vs "the" is 0.0, not 1.0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from evaluator.text import normalize_text, normalized_tokens, stem_words


def normalize_answer(s: object) -> str:
    """SQuAD's normalisation: lower-case, delete punctuation, drop articles, collapse whitespace."""
    return normalize_text(answer_text(s))


def answer_text(value: object) -> str:
    """A gold or predicted answer as text: None -> "", True/False -> "yes"/"no" (a yes/no
    question's gold read as the words a reply uses), 3.0 -> "3", other numbers via str()."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else str(value)


def gold_candidates(gold: object) -> list[str]:
    """Every acceptable gold answer as text (a list or tuple gives several). As SQuAD v2.0's
    evaluator does, an alternative that normalises to nothing ("the", "-") is dropped from a
    list that has others: it would give an empty reply full marks."""
    if isinstance(gold, (list, tuple)):
        out = [answer_text(g) for g in gold if g is not None]
        kept = [g for g in out if normalize_answer(g)]
        return kept or out[:1] or [""]
    return [answer_text(gold)]


def stem_tokens(tokens: Sequence[str]) -> list[str]:
    """Pinned Snowball English stems of `tokens` (evaluator.text.stem_words)."""
    return stem_words(list(tokens))


def answer_tokens(text: object, *, stem: bool = True) -> list[str]:
    return normalized_tokens(answer_text(text), stem=stem)


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
    normalised, stemmed tokens; best over gold answers. As in rouge-score, 0.0 when either side
    has no tokens (even both)."""
    p = answer_tokens(pred, stem=stem)
    scores = []
    for g in gold_candidates(gold):
        gt = answer_tokens(g, stem=stem)
        if not p or not gt:
            scores.append(0.0)          # rouge-score's rule, for two empty sides too
            continue
        lcs = lcs_length(p, gt)
        if lcs == 0:
            scores.append(0.0)
            continue
        precision, recall = lcs / len(p), lcs / len(gt)
        scores.append(2 * precision * recall / (precision + recall))
    return _best(scores)
