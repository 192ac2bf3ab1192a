"""BM25 over a question's visible turns (bm25s), with explicit tie-breaking.

Tokens: `evaluator.text.AGENT_BM25` (lower-cased words of two or more characters, the bm25s
English stop words removed, pinned Snowball stems). Ties are broken by recency (later turn
first), never by array order.
"""

from __future__ import annotations

from evaluator.text import AGENT_BM25

TOKENIZER = AGENT_BM25.name


def tokenize(text: str) -> list[str]:
    return AGENT_BM25.terms(text)


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
