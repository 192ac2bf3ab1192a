"""Pool-exact BM25: the fast path equals a fresh index per probe, sees only the past, and breaks
ties by recency."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.realcompanion.bm25 import PrefixBM25, naive_scores, ranks_of, top_k_order
from evaluator.realcompanion.data import load_release
from evaluator.realcompanion.retrieval_task import task_probes
from evaluator.realcompanion.sample import generate_sample


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    return load_release(generate_sample(tmp_path_factory.mktemp("rc") / "sample"))


def _ranking(scores):
    return list(top_k_order(scores, len(scores)))


def test_fast_path_equals_one_index_per_probe_for_every_probe(release):
    checked = 0
    for probe in task_probes(release):
        index = release.participant(probe.participant).bm25()
        i = probe.position
        query = index.doc_terms[i]
        fast = index.scores(query, i)
        naive = naive_scores(index.doc_terms[:i], query)
        assert np.array_equal(fast, naive), probe.key          # bit for bit, not approximately
        assert _ranking(fast) == _ranking(naive), probe.key
        checked += 1
    assert checked > 150


def test_scores_match_bm25s_built_on_the_pool(release):
    """bm25s (Lucene variant, float64) on exactly the pool gives our scores."""
    import bm25s

    part = release.participant("U09")
    index = part.bm25()
    for probe in [p for p in part.retrieval_probes if p.memory_bearing][:5]:
        i = probe.position
        retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene", dtype="float64")
        retriever.index(index.doc_terms[:i], show_progress=False)
        query = sorted(set(index.doc_terms[i]) & set(retriever.vocab_dict))
        np.testing.assert_allclose(index.scores(index.doc_terms[i], i),
                                   retriever.get_scores(query), rtol=1e-9, atol=1e-12)


WORDS = st.sampled_from(["apple", "river", "stone", "cloud", "lamp", "tiger", "music", "paper"])
DOCS = st.lists(st.lists(WORDS, max_size=6).map(" ".join), min_size=1, max_size=25)


@settings(max_examples=60, deadline=None)
@given(docs=DOCS, data=st.data())
def test_the_pool_is_the_past_only(docs, data):
    """Scores for a probe at position i depend on messages [0, i) only: rewriting the probe and
    every later message changes nothing, and no result lies at or after i."""
    i = data.draw(st.integers(0, len(docs)))
    query = data.draw(st.lists(WORDS, min_size=1, max_size=4).map(" ".join))
    future = data.draw(st.lists(st.lists(WORDS, max_size=6).map(" ".join),
                                min_size=len(docs) - i, max_size=len(docs) - i))
    before = PrefixBM25(docs)
    after = PrefixBM25(docs[:i] + future)
    a, b = before.scores(query, i), after.scores(query, i)
    assert len(a) == i and np.array_equal(a, b)
    assert before.top_k(query, i, 5) == after.top_k(query, i, 5)
    assert all(pos < i for pos, _ in before.top_k(query, i, 25))
    assert np.array_equal(a, naive_scores([before.doc_terms[j] for j in range(i)],
                                          before.query_terms(query)))


def test_ties_go_to_the_more_recent_message():
    index = PrefixBM25(["the lamp is broken", "weather talk", "the lamp is broken",
                        "nothing here", "the lamp is broken", "lamp lamp"])
    top = index.top_k("broken lamp", before=5, k=5)
    assert [p for p, _ in top] == [4, 2, 0, 3, 1]        # equal scores: newest first; zeros too
    assert top[0][1] == top[1][1] == top[2][1] > 0 and top[3][1] == top[4][1] == 0
    scores = index.scores("broken lamp", 5)
    assert list(ranks_of(scores, [0, 2, 4, 1])) == [3, 2, 1, 5]
    # same answer whatever order the equal candidates are stored in
    assert list(top_k_order(np.zeros(6), 3)) == [5, 4, 3]


def test_empty_pool_and_unknown_words():
    index = PrefixBM25(["", "hello there", "general kenobi"])
    assert index.scores("hello", 0).shape == (0,)
    assert index.top_k("hello", 0) == []
    assert not index.scores("zebra", 3).any()
    assert index.top_k("hello", 1) == [(0, 0.0)]           # an all-empty pool scores zero
