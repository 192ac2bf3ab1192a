"""`--agent rag` with dense (`retriever=embed`) and hybrid (`retriever=hybrid`) retrieval over an
OpenAI-compatible /v1/embeddings endpoint: the fusion rule, the embedding client (dimension learned,
cache, bounds, failures), the identity and resume, the cost counts, end to end through the CLI
against a server on 127.0.0.1 (tests/memory_server.py) on both suites.

The server's vectors are a hashed bag of words with a few synonyms: this cannot show the quality
of a real embedding model, only that the vectors it returns decide what reaches the prompt."""

import json
from datetime import datetime, timezone

import numpy as np
import pytest

from evaluator.agents.builtin import RagAgent
from evaluator.agents.dense_index import RRF_K, dense_ranked, rrf
from evaluator.agents.protocol import MemorySession, MemoryTurn, Query
from evaluator.cli import main
from evaluator.models.base import ModelCallError, ModelSetupError
from evaluator.models.embeddings import OpenAIEmbedder, Usage, sum_costs
from evaluator.models.openai_backend import OpenAIChatModel
from memory_server import CHAT_MODEL, EMBED_MODEL, MemoryServer, text_of

DAY = datetime(2025, 9, 2, 19, 45, tzinfo=timezone.utc)


@pytest.fixture
def srv():
    with MemoryServer() as server:
        yield server


def session(*texts, index=0):
    turns = [MemoryTurn(index, i, DAY, "Priya", t) for i, t in enumerate(texts)]
    return MemorySession(index, DAY, turns, date_raw="7:45 pm on 2 September, 2025")


def chosen(server, retriever, question, texts, **args):
    """The history lines of the prompt rag sends for `question` over one session of `texts`."""
    model = OpenAIChatModel(server.base_url, CHAT_MODEL, backoff=0.01)
    agent = RagAgent(model, retriever=retriever, embed_base_url=server.base_url,
                     embed_model=EMBED_MODEL, **{"top_k": 1, "last": 0, **args})
    agent.write(session(*texts))
    answer = agent.answer(Query("k", "t", question, [], None))
    prompt = text_of(server.answers()[-1]["messages"][-1]["content"])
    return [t for t in texts if t in prompt], answer


def test_rrf_sums_reciprocal_ranks_and_breaks_ties_by_recency():
    fused = rrf([[0, 1, 2], [2, 0]])
    assert [d for d, _ in fused] == [0, 2, 1]
    assert fused[0][1] == pytest.approx(1 / (RRF_K + 1) + 1 / (RRF_K + 2))
    assert fused[1][1] == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))
    assert [d for d, _ in rrf([[0], [1]])] == [1, 0]            # equal scores: the later first
    assert rrf([[3, 4], []], k=1) == [(3, 1 / (RRF_K + 1))]
    ranked = dense_ranked(np.array([[1, 0], [0, 1], [1, 0], [0, 0]]), np.array([1, 0]))
    assert [d for d, _ in ranked] == [2, 0, 3, 1]               # ties: later first; zero vector 0
    assert ranked[2][1] == 0.0 and ranked[3][1] == 0.0


def test_dense_finds_what_bm25_cannot_and_hybrid_keeps_both(srv):
    texts = ["I adopted a cat named Miso", "The car broke down on the bridge", "Lunch was pasta"]
    question = "What is the feline called?"      # no word in common with the cat turn
    assert chosen(srv, "bm25", question, texts)[0] == []
    picked, answer = chosen(srv, "embed", question, texts)
    assert picked == [texts[0]] and answer.relied_on == [(0, 0)]
    assert chosen(srv, "hybrid", question, texts)[0] == [texts[0]]
    # hybrid with top_k=2: BM25's only hit (pasta) and dense's best (cat) both come in
    picked, _ = chosen(srv, "hybrid", "feline pasta?", texts, top_k=2)
    assert set(picked) == {texts[0], texts[2]}
    sent = srv.embedding_requests()
    assert sent and all(r["model"] == EMBED_MODEL and r["encoding_format"] == "float" for r in sent)
    # the cost of the answers that embedded: texts written, one query read
    cost = answer.extra["memory_cost"]
    assert cost["read"]["embed_texts"] + cost["read"]["embed_cached"] == 1
    assert cost["write"]["embed_texts"] + cost["write"]["embed_cached"] == 3


def test_embedder_learns_the_dimension_caches_and_checks_replies():
    with MemoryServer(dim=1024) as server:
        emb = OpenAIEmbedder(server.base_url, EMBED_MODEL, backoff=0.01, batch=2, max_chars=50)
        assert emb.probe()["dimension"] == 1024 and emb.served_model == EMBED_MODEL
        usage = Usage()
        vectors = emb.embed(["alpha beta", "gamma", "alpha beta", "x" * 500], usage)
        assert vectors.shape == (4, 1024) and np.allclose(vectors[0], vectors[2])
        assert usage.embed_calls == 2 and usage.embed_texts == 3 and usage.embed_tokens == 4
        assert all(len(t) <= 50 for r in server.embedding_requests() for t in r["input"])
        again = Usage()
        emb.embed(["gamma"], again)
        assert again.embed_calls == 0 and again.embed_cached == 1
        # per-task sums: counts add up; a count no line reported stays None, never 0
        assert sum_costs([{"write": {"embed_tokens": None, "embed_calls": 1}},
                          {"write": {"embed_tokens": 5, "embed_calls": 2, "llm_input_tokens": None}}]) \
            == {"n": 2, "write": {"embed_tokens": 5, "embed_calls": 3, "llm_input_tokens": None},
                "read": {}}
        server.dim = 512                       # another model behind the same name
        with pytest.raises(ModelCallError, match=r"embedding\(s\) of one length \(1024\)"):
            emb.embed(["delta"])


def test_embedding_endpoint_problems_are_one_line(srv, tmp_path, capsys, sample_snapshot):
    base = ["run", "--no-progress", "--task", "memory_update", "--limit", "1", "--data",
            str(sample_snapshot), "--agent", "rag", "--model", "openai", "--model_args",
            f"base_url={srv.base_url},model={CHAT_MODEL}", "--output_path", str(tmp_path / "r")]
    assert main(base + ["--agent_args", "retriever=embed"]) == 2
    assert "needs --agent_args embed_base_url and embed_model" in capsys.readouterr().err
    assert main(base + ["--agent_args", "retriever=dense"]) == 2
    assert "retriever='dense': use one of bm25, embed, hybrid" in capsys.readouterr().err
    assert main(base + ["--agent_args", "retriever=embed,embed_base_url=http://127.0.0.1:9/v1,"
                                        f"embed_model={EMBED_MODEL}"]) == 1
    err = capsys.readouterr().err
    assert "embedding endpoint check failed" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(ModelSetupError, match="HTTP 404.*is it an embedding model"):
        # a chat-only path: the probe says it is no embeddings endpoint
        OpenAIEmbedder(srv.base_url + "/nothing", EMBED_MODEL, backoff=0.01).probe()


def journal(out, task):
    return [json.loads(line) for line in (out / f"samples_{task}.jsonl").read_text().splitlines()]


def rag_run(server, out, snapshot, limit, *extra):
    return main(["run", "--no-progress", "--task", "memory_update", "--limit", str(limit),
                 "--data", str(snapshot), "--agent", "rag", "--model", "openai", "--model_args",
                 f"base_url={server.base_url},model={CHAT_MODEL},backoff=0.01", "--agent_args",
                 f"retriever=hybrid,embed_base_url={server.base_url},embed_model={EMBED_MODEL}",
                 "--output_path", str(out), *extra])


def test_identity_cost_and_resume_through_the_cli(srv, tmp_path, sample_snapshot, capsys):
    out = tmp_path / "run"
    assert rag_run(srv, out, sample_snapshot, 2) == 0
    results = json.loads((out / "results.json").read_text())
    memory = results["config"]["settings"]["agent_source"]["memory"]
    assert memory["retriever"] == "hybrid" and "k=60" in memory["fusion"]
    assert memory["embedding"] == {"model": EMBED_MODEL, "served_model": EMBED_MODEL,
                                   "dimension": 384, "max_chars": 2000}
    lines = journal(out, "memory_update")
    assert len(lines) == 2 and not any(s.get("error") for s in lines)
    for line in lines:
        cost = line["memory_cost"]
        assert cost["write"]["embed_texts"] + cost["write"]["embed_cached"] == \
            line["inputs"]["visible_turns"]
        assert cost["read"]["embed_texts"] + cost["read"]["embed_cached"] == 1     # the question
        assert cost["write"]["llm_calls"] == 0
    total = results["results"]["memory_update"]["memory_cost"]
    assert total["n"] == 2
    assert total["write"]["embed_texts"] == sum(s["memory_cost"]["write"]["embed_texts"] for s in lines)
    # resume: the same endpoint answers one more question, the done ones are reused
    answered = len(srv.answers())
    assert rag_run(srv, out, sample_snapshot, 3) == 0
    assert len(srv.answers()) == answered + 1
    # the endpoint now serves vectors of another dimension: the folder is refused, one line
    srv.dim = 256
    capsys.readouterr()
    assert rag_run(srv, out, sample_snapshot, 4) == 1
    err = capsys.readouterr().err
    assert "agent_source.memory" in err and "'dimension': 384" in err and "'dimension': 256" in err
    assert len(srv.answers()) == answered + 1


def test_realcompanion_chat_agent_mode_with_dense_rag(srv, tmp_path):
    from evaluator.realcompanion.data import load_release
    from evaluator.realcompanion.sample import generate_sample

    root = generate_sample(tmp_path / "rc")
    release = load_release(root)
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "realcompanion/chat", "--limit", "3",
                 "--rc_data", str(root), "--agent", "rag", "--model", "openai", "--model_args",
                 f"base_url={srv.base_url},model={CHAT_MODEL}", "--agent_args",
                 f"retriever=embed,top_k=3,embed_base_url={srv.base_url},embed_model={EMBED_MODEL}",
                 "--output_path", str(out)]) == 0
    lines = journal(out, "realcompanion/chat".replace("/", "_"))
    assert len(lines) == 3 and all(s["memory_cost"]["read"]["embed_texts"]
                                   + s["memory_cost"]["read"]["embed_cached"] == 1 for s in lines)
    assert all(s["conditions"]["agent"]["reply"].startswith("echo:") for s in lines)
    # the paper's system decisions: what rag retrieved from before its recent window, best first
    for line in lines:
        before = release.participant(line["participant"]).messages[:line["pool_size"]]
        outside = {m.id for m in before[:-4]}                 # older than the last 4 (`last`)
        assert line["reported_locus"] is None and len(line["evidence_ids"]) <= 3
        assert set(line["evidence_ids"]) <= outside
        assert line["retrieved"] is bool(line["evidence_ids"])
    assert any(line["retrieved"] for line in lines)
