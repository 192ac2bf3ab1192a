"""The one place br-eval turns text into tokens: answer normalisation, the pinned stemmer, the
stop-word lists and the named BM25 tokenizers.

- `normalize_answer` / `answer_tokens`: the answer normalisation of the scorer (SQuAD's, see
  evaluator/scoring/metrics.py for the definition and the one documented departure).
- `stem_words`: the Snowball English stemmer of PyStemmer, pinned to one behaviour. PyStemmer 3.x
  ships a revised English stemmer that stems some words differently from 2.x ("university" ->
  "universiti", not "univers"), so token F1, ROUGE-L and BM25 would change with the install. The
  pin is `PyStemmer==3.1.0` (pyproject.toml); on first use the stemmer is checked against
  `STEMMER_CHECK` and a different behaviour is one clear error, never a silently different score.
- Stop words: `STOPWORDS_REALCOMPANION` (br-eval's own list) and `stopwords_bm25s()` (the English
  list of the bm25s package, which the built-in agents' BM25 index has always used).
- BM25 tokenizers (`Bm25Tokenizer`), two named variants of one recipe (lower-case, words,
  stop words out, stemmed):
  * `AGENT_BM25` ("bm25-agents-v1"): words of two or more characters (`\\b\\w\\w+\\b`), bm25s
    stop words. The built-in agents' history index (evaluator.agents.text_index).
  * `REALCOMPANION_BM25` ("bm25-en-snowball-v1"): every `\\w+` word, br-eval's stop-word list.
    The RealCompanion retrieval task (evaluator.realcompanion.bm25); its name is what
    results.json reports as the BM25 tokenizer.
- `count_tokens` ("regex-wordpunct-v1"): what RealCompanion window budgets count (every `\\w+`
  word and every non-space punctuation character is one token).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

# -- the pinned stemmer -----------------------------------------------------------------------------
STEMMER_PIN = "PyStemmer==3.1.0"
# Words whose stems differ between PyStemmer 2.x and 3.x, with the pinned (3.x) stems.
STEMMER_CHECK: dict[str, str] = {
    "university": "universiti", "organization": "organiz", "generously": "generous",
    "running": "run", "cats": "cat",
}
_stemmer = None


def _load_stemmer():
    global _stemmer
    if _stemmer is None:
        import Stemmer  # PyStemmer: the C Snowball stemmer, a declared dependency

        stemmer = Stemmer.Stemmer("english")
        words = list(STEMMER_CHECK)
        got = dict(zip(words, stemmer.stemWords(words)))
        wrong = {w: s for w, s in got.items() if s != STEMMER_CHECK[w]}
        if wrong:
            from evaluator.errors import EvalError

            version = getattr(Stemmer, "__version__", "?")
            w, s = next(iter(wrong.items()))
            raise EvalError(f"PyStemmer {version} stems {w!r} as {s!r}, not "
                            f"{STEMMER_CHECK[w]!r}: scores would differ from other installs; "
                            f"install {STEMMER_PIN}")
        _stemmer = stemmer
    return _stemmer


def stem_words(words: list[str]) -> list[str]:
    """Snowball English stems (PyStemmer keeps its own cache of stemmed words)."""
    return _load_stemmer().stemWords(list(words)) if words else []


# -- answer normalisation (SQuAD's) -----------------------------------------------------------------
_ASCII_PUNCT = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)


def _strip_punctuation(text: str) -> str:
    text = text.translate(_ASCII_PUNCT)
    if text.isascii():
        return text
    # The departure from SQuAD: Unicode punctuation (curly quotes, dashes, ellipses) goes too.
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))


def normalize_text(text: str) -> str:
    """SQuAD's normalize_answer on a string: lower-case, delete punctuation, drop the articles
    a/an/the, collapse whitespace (plus: Unicode punctuation is deleted like ASCII)."""
    text = _strip_punctuation(text.lower())
    return " ".join(_ARTICLES.sub(" ", text).split())


def normalized_tokens(text: str, *, stem: bool = True) -> list[str]:
    """The tokens token F1 and ROUGE-L compare: normalised words, stemmed by default."""
    tokens = normalize_text(text).split()
    return stem_words(tokens) if stem and tokens else tokens


# -- stop words -------------------------------------------------------------------------------------
STOPWORDS_REALCOMPANION = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most
my myself no nor not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves im ive id ill youre youve dont didnt doesnt isnt wasnt cant
s t d ll m re ve
""".split())

_BM25S_STOPWORDS: frozenset[str] | None = None


def stopwords_bm25s() -> frozenset[str]:
    """The English stop words of the bm25s package (imported on first use)."""
    global _BM25S_STOPWORDS
    if _BM25S_STOPWORDS is None:
        from bm25s.stopwords import STOPWORDS_EN

        _BM25S_STOPWORDS = frozenset(STOPWORDS_EN)
    return _BM25S_STOPWORDS


# -- BM25 tokenizers --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bm25Tokenizer:
    """Lower-case, find words with `word`, drop stop words, stem. `stopwords` is called once."""

    name: str
    word: re.Pattern
    stopwords: Callable[[], frozenset[str]]
    _stop: list = field(default_factory=list, compare=False, repr=False)

    def _stopset(self) -> frozenset[str]:
        if not self._stop:
            self._stop.append(self.stopwords())
        return self._stop[0]

    def words(self, text: str) -> list[str]:
        stop = self._stopset()
        return [w for w in self.word.findall(text.lower()) if w not in stop]

    def terms(self, text: str) -> list[str]:
        """One text -> its terms, in order, repeats kept."""
        return stem_words(self.words(text))

    def terms_many(self, texts: list[str]) -> list[list[str]]:
        """`terms` for many texts with one stemmer call."""
        lowered = [self.words(t) for t in texts]
        stemmed = stem_words([w for ws in lowered for w in ws])
        out, at = [], 0
        for ws in lowered:
            out.append(stemmed[at:at + len(ws)])
            at += len(ws)
        return out


AGENT_BM25 = Bm25Tokenizer("bm25-agents-v1", re.compile(r"(?u)\b\w\w+\b"), stopwords_bm25s)
REALCOMPANION_BM25 = Bm25Tokenizer("bm25-en-snowball-v1", re.compile(r"\w+"),
                                   lambda: STOPWORDS_REALCOMPANION)

# -- window token counting --------------------------------------------------------------------------
WINDOW_TOKENIZER = "regex-wordpunct-v1"
_WORD_OR_PUNCT = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Tokens of `text` under regex-wordpunct-v1 (every \\w+ word, every punctuation character)."""
    return len(_WORD_OR_PUNCT.findall(text))
