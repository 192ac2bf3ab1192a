"""Dense and hybrid retrieval for the built-in memory agents (`rag` with `retriever=embed` or
`retriever=hybrid`; `mem0` uses the same embedding settings).

- dense: cosine similarity between the question's vector and each turn's, from an
  OpenAI-compatible `/v1/embeddings` endpoint (evaluator.models.embeddings); best first, equal
  scores the later turn first (as BM25's ties).
- hybrid: reciprocal rank fusion (Cormack, Clarke and Buettcher, SIGIR 2009) of the BM25 ranking
  (turns with a positive score) and the dense ranking (every turn): a turn's score is the sum,
  over the rankings it appears in, of 1 / (RRF_K + rank), rank counted from 1, RRF_K = 60 (the
  paper's constant). Ties: the later turn first.
"""

from __future__ import annotations

RRF_K = 60
RETRIEVERS = ("bm25", "embed", "hybrid")

# The --agent_args keys of an embedding endpoint (rag with embed/hybrid, mem0).
EMBED_ARGS = {
    "embed_base_url": "the OpenAI-compatible embeddings server, e.g. http://localhost:8001/v1 "
                      "(its key: EMBED_API_KEY or OPENAI_API_KEY)",
    "embed_model": "the embedding model's name on that server",
    "embed_batch": "texts per embeddings request (64)",
    "embed_max_chars": "characters of a text that are embedded, the rest cut (2000)",
}


def embedder_from_args(agent_args: dict, who: str):
    """The shared embedding client the agent args name; one UsageError line when they name none."""
    from evaluator.errors import UsageError
    from evaluator.models.embeddings import (DEFAULT_BATCH, DEFAULT_MAX_CHARS,
                                             shared_embedder)

    missing = [k for k in ("embed_base_url", "embed_model") if not agent_args.get(k)]
    if missing:
        raise UsageError(f"{who} needs --agent_args {' and '.join(missing)} (an OpenAI-compatible "
                         "embeddings server, e.g. embed_base_url=http://localhost:8001/v1,"
                         "embed_model=BAAI/bge-small-en-v1.5)")
    settings = {}
    for key, name, default in (("embed_batch", "batch", DEFAULT_BATCH),
                               ("embed_max_chars", "max_chars", DEFAULT_MAX_CHARS)):
        value = agent_args.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UsageError(f"--agent_args {key}={value!r}: a whole number of at least 1")
        settings[name] = value
    return shared_embedder(str(agent_args["embed_base_url"]), str(agent_args["embed_model"]),
                           **settings)


def retriever_of(agent_args: dict) -> str:
    from evaluator.errors import UsageError

    value = str(agent_args.get("retriever") or "bm25").lower()
    if value not in RETRIEVERS:
        raise UsageError(f"--agent_args retriever={agent_args.get('retriever')!r}: use one of "
                         f"{', '.join(RETRIEVERS)}")
    return value


def dense_ranked(doc_vectors, query_vector, k: int | None = None) -> list[tuple[int, float]]:
    """(doc index, cosine similarity) best first; equal scores: the later document first. A zero
    vector scores 0."""
    import numpy as np

    if len(doc_vectors) == 0:
        return []
    docs = np.asarray(doc_vectors, dtype=np.float32)
    q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    norms = np.linalg.norm(docs, axis=1) * float(np.linalg.norm(q))
    raw = docs @ q
    scores = np.divide(raw, norms, out=np.zeros_like(raw), where=norms > 0)
    order = sorted(range(len(scores)), key=lambda i: (-float(scores[i]), -i))
    out = [(i, float(scores[i])) for i in order]
    return out if k is None else out[:k]


def rrf(rankings: list[list[int]], k: int | None = None) -> list[tuple[int, float]]:
    """Reciprocal rank fusion of rankings (lists of doc indices, best first): (doc, fused score)
    best first, equal scores the later document first."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            fused[doc] = fused.get(doc, 0.0) + 1.0 / (RRF_K + rank)
    out = sorted(fused.items(), key=lambda p: (-p[1], -p[0]))
    return out if k is None else out[:k]
