"""Memory writes per turn: mem0 and dense `rag` against the plain `rag` (BM25) index, on the same
history.

For each of the first N questions of a Beyond Recall task (the generated sample unless --data),
the question's visible history, text only (media left out, so the figures are the memory's own),
is written into a fresh agent, as a run does per question, and timed:
- rag (BM25 index): building the BM25 index over the turns' search texts (what `rag` does for a
  question; its write() only keeps the turns);
- rag (embed): write() with `retriever=embed`: every turn embedded (the vector cache emptied
  before each question, so every text is sent);
- mem0: write(): one `Memory.add` per session (or per --turns-per-add turns): mem0's extraction
  call, its embeddings, its vector store (needs `pip install 'br-eval[mem0]'`; else its row says
  "not installed").

Servers: by default the fake OpenAI-compatible server of the tests (tests/memory_server.py) on
127.0.0.1, replying at once (or after --latency seconds per chat reply and --embed-latency per
embeddings reply), so the figures are br-eval's and mem0's own cost per turn plus the latency
given; with --base_url/--model and --embed_base_url/--embed_model, your servers (a local vLLM or
llama.cpp) and their real cost.

Printed per agent: milliseconds per turn (all questions' time over all their turns), model calls,
embedding requests and texts embedded per turn; then mem0's and dense rag's time per turn over the
BM25 index's.

    python bench/memory_writes.py [--data SNAPSHOT] [--task memory_update] [--questions 5]
        [--latency 0] [--embed-latency 0] [--turns-per-add 0]
        [--base_url URL --model M --embed_base_url URL --embed_model E]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def histories(data, task: str, n: int) -> list[list]:
    """The first `n` questions' visible histories as agent sessions, without media."""
    from beyondrecall.loader import load_task
    from beyondrecall.visibility import visible_history
    from evaluator.agents.protocol import MemorySession, MemoryTurn
    from evaluator.datasets import data_dir

    snapshot = data_dir("beyondrecall", data, quiet=True)
    out = []
    for traj, q in list(load_task(snapshot, task).questions())[:n]:
        out.append([MemorySession(vs.index, vs.date, [
            MemoryTurn(vs.index, vt.index, vt.time, vt.turn.person, vt.turn.content, [],
                       time_raw=vt.time_raw) for vt in vs.turns],
            date_raw=vs.date_raw, persons=traj.persons)
            for vs in visible_history(traj, q).sessions])
    return out


@contextlib.contextmanager
def servers(args):
    if args.base_url:
        yield args.base_url, args.model, args.embed_base_url or args.base_url, args.embed_model
        return
    sys.path.insert(0, str(ROOT / "tests"))
    from memory_server import CHAT_MODEL, EMBED_MODEL, MemoryServer

    with MemoryServer() as srv:
        srv.latency, srv.embed_latency = args.latency, args.embed_latency
        yield srv.base_url, CHAT_MODEL, srv.base_url, EMBED_MODEL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None)
    parser.add_argument("--task", default="memory_update")
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--embed-latency", type=float, default=0.0)
    parser.add_argument("--turns-per-add", type=int, default=0)
    parser.add_argument("--base_url")
    parser.add_argument("--model")
    parser.add_argument("--embed_base_url")
    parser.add_argument("--embed_model")
    args = parser.parse_args()
    if args.base_url and not (args.model and args.embed_model):
        parser.error("--base_url needs --model and --embed_model (and --embed_base_url when the "
                     "embeddings are served elsewhere)")

    from evaluator.agents.builtin import RagAgent, _turn_search_text
    from evaluator.agents.dense_index import embedder_from_args
    from evaluator.agents.text_index import Bm25Index
    from evaluator.models.openai_backend import OpenAIChatModel

    stories = histories(args.data, args.task, args.questions)
    turns = sum(len(s.turns) for story in stories for s in story)
    sessions = sum(len(story) for story in stories)
    print(f"history: {args.task}, {len(stories)} question(s), {sessions} session(s), {turns} "
          f"turn(s) written in all ({turns / max(1, len(stories)):.1f} a question), text only")
    with servers(args) as (base_url, model_id, embed_url, embed_model):
        print(f"servers: {'yours' if args.base_url else 'the tests fake server on 127.0.0.1'}; "
              f"chat latency {args.latency:g} s, embeddings latency {args.embed_latency:g} s"
              if not args.base_url else f"servers: chat {base_url}, embeddings {embed_url}")
        model = OpenAIChatModel(base_url, model_id, backoff=0.5)
        embed = {"embed_base_url": embed_url, "embed_model": embed_model, "media": "none"}
        embedder = embedder_from_args(embed, "bench")
        embedder.probe()
        rows = []

        def measure(label, build, write_all):
            build(stories[0])                  # warm-up: imports, first connections
            seconds, calls, requests, texts = 0.0, 0, 0, 0
            for story in stories:
                agent = build(story)
                embedder._cache.clear()        # every text sent: the cost of a cold write
                started = time.perf_counter()
                write_all(agent, story)
                seconds += time.perf_counter() - started
                cost = getattr(agent, "memory_cost", None)
                if cost is not None:
                    calls += cost.write.llm_calls
                    requests += cost.write.embed_calls
                    texts += cost.write.embed_texts
            rows.append((label, seconds, calls, requests, texts))

        def write(agent, story):
            for s in story:
                agent.write(s)

        def bm25_index(agent, story):
            write(agent, story)
            Bm25Index([_turn_search_text(t, False) for t in agent.turns])

        measure("rag (BM25 index)", lambda story: RagAgent(model, media="none"), bm25_index)
        measure("rag (embed)", lambda story: RagAgent(model, retriever="embed", **embed), write)
        if importlib.util.find_spec("mem0") is None:
            rows.append(("mem0", None, None, None, None))
        else:
            from evaluator.agents.mem0_agent import Mem0Agent

            measure("mem0", lambda story: Mem0Agent(model, turns_per_add=args.turns_per_add,
                                                     **embed), write)

    print(f"{'agent':<20}{'ms/turn':>10}{'model calls/turn':>18}{'embed requests/turn':>21}"
          f"{'texts embedded/turn':>21}")
    for label, seconds, calls, requests, texts in rows:
        if seconds is None:
            print(f"{label:<20}{'not installed (pip install br-eval[mem0])':>70}")
            continue
        print(f"{label:<20}{1000 * seconds / turns:>10.3f}{calls / turns:>18.2f}"
              f"{requests / turns:>21.2f}{texts / turns:>21.2f}")
    base = rows[0][1]
    for label, seconds, *_ in rows[1:]:
        if seconds is not None and base:
            print(f"{label} / rag (BM25 index), time per turn: {seconds / base:.0f}x")


if __name__ == "__main__":
    from _common import run

    sys.exit(run(main))
