"""BM25 over a question's visible turns (bm25s), with explicit tie-breaking.

Tokens: lower-cased words of two or more characters, English stop words removed, Snowball
(PyStemmer) stems. Ties are broken by recency (later turn first), never by array order.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"(?u)\b\w\w+\b")
_STOPWORDS: frozenset[str] | None = None
_STEMMER = None


def _stopwords() -> frozenset[str]:
    global _STOPWORDS
    if _STOPWORDS is None:
        from bm25s.stopwords import STOPWORDS_EN

        _STOPWORDS = frozenset(STOPWORDS_EN)
    return _STOPWORDS


def _stem_words(words: list[str]) -> list[str]:
    global _STEMMER
    if _STEMMER is None:
        import Stemmer

        _STEMMER = Stemmer.Stemmer("english")
    return _STEMMER.stemWords(words)


def tokenize(text: str) -> list[str]:
    stop = _stopwords()
    return _stem_words([w for w in _WORD.findall(text.lower()) if w not in stop])


class Bm25Index:
    """Index documents once; score any number of queries."""

    def __init__(self, docs: list[str]) -> None:
        self.n = len(docs)
        self._tokens = [tokenize(d) for d in docs]
        self._retriever = None
        if any(self._tokens):
            import bm25s

            self._retriever = bm25s.BM25()
            self._retriever.index(self._tokens, show_progress=False)

    def scores(self, query: str) -> list[float]:
        q = tokenize(query)
        if self._retriever is None or not q:
            return [0.0] * self.n
        vocab = self._retriever.vocab_dict
        q = [t for t in q if t in vocab]
        if not q:
            return [0.0] * self.n
        return [float(s) for s in self._retriever.get_scores(q)]

    def ranked(self, query: str, k: int | None = None) -> list[tuple[int, float]]:
        """(doc index, score) best first; equal scores: the later document first."""
        order = sorted(enumerate(self.scores(query)), key=lambda p: (-p[1], -p[0]))
        return order if k is None else order[:k]
