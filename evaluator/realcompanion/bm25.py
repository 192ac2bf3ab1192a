"""Pool-exact BM25 over a growing pool, and the rank arithmetic every retrieval method shares.

A probe's pool is every message strictly before it. BM25 here is *pool-exact*: the document
frequencies, the document count N and the average document length come from the pool only, as
if a fresh index had been built over the pool for that probe (nothing after the probe, not even
its statistics, leaks in). Scoring is Lucene's variant, as in bm25s' default:

    idf(t)   = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
    score(d) = sum over distinct query terms t of  idf(t) * tf / (tf + k1 * (1 - b + b * |d| / avgdl))

with k1 = 1.5 and b = 0.75. Query terms are counted once each (a word repeated in the probe does
not weigh double).

The fast path (`PrefixBM25`) builds one inverted index over all of a participant's messages, with
each posting list sorted by position. For a probe at position i it cuts every query term's
posting list at i (a binary search): the cut length *is* df(t) within the pool, and the prefix sum
of document lengths gives avgdl. So each probe costs O(query postings + pool size), with no index
rebuild, and gives bit-for-bit the scores of `naive_scores`, which builds the index from the pool
from scratch (tested for every probe of the sample).

Ranking is a total order: higher score first, and among equal scores the more recent message
(larger position) first, never array order.
"""

from __future__ import annotations

import math

K1 = 1.5
B = 0.75
VARIANT = "lucene idf, pool-exact (df, N and avgdl from the messages strictly before the probe)"


def _contribution(np, idf: float, tf, doc_len, avgdl: float):
    # The one formula both paths use, so their float results are identical.
    return idf * (tf / (tf + K1 * (1 - B + B * doc_len / avgdl)))


def _idf(n_docs: int, df: int) -> float:
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def _avgdl(total_len: int, n_docs: int) -> float:
    avg = total_len / n_docs
    return avg if avg > 0 else 1.0   # an all-empty pool matches nothing anyway


class PrefixBM25:
    """One participant's messages, indexed once; scores against any prefix (pool) on demand."""

    def __init__(self, texts: list[str] | None = None, *, terms: list[list[str]] | None = None):
        import numpy as np
        from collections import Counter

        from evaluator.realcompanion.text import bm25_terms_many

        if terms is None:
            terms = bm25_terms_many(list(texts or []))
        self.doc_terms = terms
        self.n = len(terms)
        lengths = np.array([len(t) for t in terms], dtype=np.int64)
        self.doc_len = lengths.astype(np.float64)
        self.cum_len = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)

        vocab: dict[str, int] = {}
        term_ids, doc_ids, tfs = [], [], []
        for pos, doc in enumerate(terms):
            for term, tf in Counter(doc).items():
                tid = vocab.setdefault(term, len(vocab))
                term_ids.append(tid)
                doc_ids.append(pos)
                tfs.append(tf)
        self.vocab = vocab
        term_ids = np.array(term_ids, dtype=np.int64)
        order = np.lexsort((np.array(doc_ids, dtype=np.int64), term_ids))  # by term, then position
        self.post_docs = np.array(doc_ids, dtype=np.int64)[order]
        self.post_tf = np.array(tfs, dtype=np.float64)[order]
        counts = np.bincount(term_ids, minlength=len(vocab))
        self.indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    def query_terms(self, query: str | list[str]) -> list[str]:
        from evaluator.realcompanion.text import bm25_terms

        terms = bm25_terms(query) if isinstance(query, str) else list(query)
        return sorted(set(terms))

    def scores(self, query: str | list[str], before: int):
        """BM25 scores of the messages at positions [0, before) for `query` (text or terms)."""
        import numpy as np

        n = min(max(0, before), self.n)
        out = np.zeros(n, dtype=np.float64)
        if n == 0:
            return out
        avgdl = _avgdl(int(self.cum_len[n]), n)
        for term in self.query_terms(query):
            tid = self.vocab.get(term)
            if tid is None:
                continue
            lo, hi = self.indptr[tid], self.indptr[tid + 1]
            docs = self.post_docs[lo:hi]
            df = int(np.searchsorted(docs, n))   # postings are sorted by position
            if df == 0:
                continue
            docs = docs[:df]
            out[docs] += _contribution(np, _idf(n, df), self.post_tf[lo:lo + df],
                                       self.doc_len[docs], avgdl)
        return out

    def top_k(self, query: str | list[str], before: int, k: int = 10) -> list[tuple[int, float]]:
        scores = self.scores(query, before)
        return [(int(p), float(scores[p])) for p in top_k_order(scores, k)]


def naive_scores(pool_terms: list[list[str]], query_terms: list[str]):
    """Reference implementation: build a BM25 index over exactly the pool, then score.

    This is the "one index per probe" way; it exists to check and time the fast path."""
    import numpy as np
    from collections import Counter

    n = len(pool_terms)
    out = np.zeros(n, dtype=np.float64)
    if n == 0:
        return out
    counters = [Counter(doc) for doc in pool_terms]
    doc_len = np.array([len(doc) for doc in pool_terms], dtype=np.float64)
    avgdl = _avgdl(sum(len(doc) for doc in pool_terms), n)
    for term in sorted(set(query_terms)):
        tf = np.array([c.get(term, 0) for c in counters], dtype=np.float64)
        df = int(np.count_nonzero(tf))
        if df == 0:
            continue
        out += _contribution(np, _idf(n, df), tf, doc_len, avgdl)
    return out


# -- ranking ---------------------------------------------------------------------------------------
def top_k_order(scores, k: int):
    """Positions of the k best scores: higher score first, ties to the more recent position."""
    import numpy as np

    n = len(scores)
    if n == 0 or k <= 0:
        return np.zeros(0, dtype=np.int64)
    if n > k:
        kth = np.partition(scores, n - k)[n - k]          # the k-th largest value
        cand = np.flatnonzero(scores >= kth)
    else:
        cand = np.arange(n)
    order = np.lexsort((-cand, -scores[cand]))             # primary: score desc; then position desc
    return cand[order[:k]]


def ranks_of(scores, gold):
    """1-based rank of each gold position in the total order (score desc, then recency)."""
    import numpy as np

    gold = np.asarray(gold, dtype=np.int64)
    if gold.size == 0:
        return np.zeros(0, dtype=np.int64)
    positions = np.arange(len(scores))
    g_scores = scores[gold][:, None]
    ahead = (scores[None, :] > g_scores) | ((scores[None, :] == g_scores)
                                            & (positions[None, :] > gold[:, None]))
    return 1 + ahead.sum(axis=1)
