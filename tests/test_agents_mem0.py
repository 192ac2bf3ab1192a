"""`--agent mem0` end to end through the CLI against a server on 127.0.0.1 that answers chat
completions (the answers, mem0's extraction calls with the JSON mem0 expects, its image
descriptions) and embeddings (tests/memory_server.py), on Beyond Recall and both RealCompanion
agent tracks: session dates reach mem0, nothing after a question's cutoff and nothing of another
question enters its memory, costs are counted, the identity names mem0's version and resume
checks it, images go through mem0's vision path, failures keep their kind.

mem0ai is an optional extra: these tests skip without it (`pip install 'br-eval[mem0]'`), except
the one that checks the missing extra is one line. The fake model's "memories" are its input
messages, so nothing here can show the quality of a real model's memories."""

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from beyondrecall.loader import load_task
from beyondrecall.visibility import visible_history
from evaluator.agents.builtin import when_text
from evaluator.cli import main
from memory_server import CHAT_MODEL, EMBED_MODEL, MemoryServer, new_messages, text_of

needs_mem0 = pytest.mark.skipif(importlib.util.find_spec("mem0") is None,
                                reason="mem0ai is not installed (optional extra: "
                                       "pip install 'br-eval[mem0]')")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def srv():
    with MemoryServer() as server:
        yield server


def journal(out, task):
    name = "samples_" + task.replace("/", "_") + ".jsonl"
    return [json.loads(line) for line in (out / name).read_text().splitlines()]


def mem0_run(server, out, *args, agent_args="", model_args=""):
    return main(["run", "--no-progress", "--agent", "mem0", "--model", "openai", "--model_args",
                 f"base_url={server.base_url},model={CHAT_MODEL},backoff=0.01{model_args}",
                 "--agent_args", f"embed_base_url={server.base_url},embed_model={EMBED_MODEL}"
                 + agent_args, "--output_path", str(out), *args])


def per_question(server) -> list[list[dict]]:
    """The chat requests of a run with --num_concurrent 1, one group per question, each ending
    with its answer."""
    groups, current = [], []
    for request in server.chats():
        current.append(request)
        if request in server.answers():
            groups.append(current)
            current = []
    return groups


def memory_lines(answer_request) -> list[tuple[str, str]]:
    """(date shown, text) of the RETRIEVED MEMORIES block of an answer prompt."""
    prompt = text_of(answer_request["messages"][-1]["content"])
    block = prompt.split("RETRIEVED MEMORIES\n", 1)[1].split("\n\nCONVERSATION HISTORY", 1)[0]
    return [re.match(r"- \[(.*?)\] (.*)", line).groups() for line in block.splitlines()
            if line.startswith("- [")]


@needs_mem0
def test_mem0_on_beyond_recall_dates_isolation_cost_and_identity(srv, tmp_path, sample_snapshot):
    task = "memory_update"
    out = tmp_path / "run"
    assert mem0_run(srv, out, "--task", task, "--limit", "3", "--data", str(sample_snapshot),
                    "--num_concurrent", "1") == 0
    results = json.loads((out / "results.json").read_text())
    memory = results["config"]["settings"]["agent_source"]["memory"]
    system = memory["memory_system"]
    assert system["package"] == "mem0ai" and system["version"] == \
        importlib.metadata.version("mem0ai")
    assert system["config"]["turns_per_add"] == 0 and system["config"]["top_k"] == 10
    assert memory["embedding"]["dimension"] == 384 and memory["embedding"]["model"] == EMBED_MODEL

    lines = journal(out, task)
    groups = per_question(srv)
    assert len(lines) == len(groups) == 3 and not any(s.get("error") for s in lines)
    questions = {str(q.key): (traj, q) for traj, q in load_task(sample_snapshot, task).questions()}
    for line, group in zip(lines, groups):
        traj, q = questions[line["key"]]
        history = visible_history(traj, q)
        visible = {vt.turn.content: vs for vs in history.sessions for vt in vs.turns}
        hidden = {t.content for s in traj.sessions for t in s.turns} - set(visible)
        extractions = group[:-1]
        # one add per visible session, each dated by its session, three ways
        assert len(extractions) == history.n_sessions
        for request, vs in zip(extractions, history.sessions):
            prompt = text_of(request["messages"][-1]["content"])
            when = when_text(vs.date_raw, vs.date)
            assert f"system: Session date: {when}" in prompt
            assert f"## Custom Instructions\nThe Observation Date of these messages is {when}" in prompt
            said = [text for _, text in new_messages(prompt)]
            assert all(any(vt.turn.content in text for vt in vs.turns) for text in said)
        # nothing after the cutoff, nothing of another question's memory
        sent = json.dumps(group)
        assert not any(h in sent for h in hidden)
        shown = memory_lines(group[-1])
        assert shown
        for date, text in shown:
            vs = next(s for content, s in visible.items() if content in text)
            assert date == when_text(vs.date_raw, vs.date)          # the memory's own session date
        # cost: one model call per add, the server's token counts, the question embedded once
        cost = line["memory_cost"]
        assert cost["write"]["llm_calls"] == history.n_sessions
        assert cost["write"]["llm_input_tokens"] == 11 * history.n_sessions
        # each add embeds its messages (to find related memories) and its new memories
        assert cost["write"]["embed_texts"] + cost["write"]["embed_cached"] >= 2 * history.n_sessions
        assert cost["read"]["llm_calls"] == 0
        assert cost["read"]["embed_texts"] + cost["read"]["embed_cached"] == 1
        assert line["input_tokens"] == 11            # the answer's own call, as rag records it
    assert len({line["inputs"]["visible_turns"] for line in lines}) == 3    # three cutoffs
    total = results["results"][task]["memory_cost"]
    assert total["n"] == 3
    assert total["write"]["llm_calls"] == sum(s["memory_cost"]["write"]["llm_calls"] for s in lines)


@needs_mem0
def test_mem0_resume_and_a_changed_version_refuses(srv, tmp_path, sample_snapshot, capsys,
                                                   monkeypatch):
    out = tmp_path / "run"
    args = ["--task", "memory_update", "--data", str(sample_snapshot)]
    assert mem0_run(srv, out, *args, "--limit", "1") == 0
    answered = len(srv.answers())
    assert mem0_run(srv, out, *args, "--limit", "2") == 0
    assert len(srv.answers()) == answered + 1                  # the first answer reused
    import evaluator.agents.mem0_agent as mem0_agent

    monkeypatch.setattr(mem0_agent, "mem0_version", lambda: "99.0.0")   # mem0 upgraded
    capsys.readouterr()
    assert mem0_run(srv, out, *args, "--limit", "3") == 1
    err = capsys.readouterr().err
    assert "agent_source.memory" in err and "99.0.0" in err and len(srv.answers()) == answered + 1


@needs_mem0
def test_mem0_realcompanion_chat_and_reconstruction(srv, tmp_path):
    from evaluator.realcompanion.data import load_release
    from evaluator.realcompanion.sample import generate_sample

    root = generate_sample(tmp_path / "rc")
    release = load_release(root)
    out = tmp_path / "run"
    assert mem0_run(srv, out, "--tasks", "realcompanion/chat,realcompanion/reconstruction",
                    "--limit", "2", "--rc_data", str(root), "--num_concurrent", "1",
                    agent_args=",turns_per_add=1") == 0
    chat = journal(out, "realcompanion/chat")
    answers = [a for a in srv.answers() if "Question: " in text_of(a["messages"][-1]["content"])]
    assert len(chat) == 2
    for line, answer in zip(chat, answers):
        before = release.participant(line["participant"]).messages[:line["pool_size"]]
        shown = memory_lines(answer)
        assert line["retrieved"] is bool(shown) and line["reported_locus"] is None
        # one message per add: mem0's memories name the messages they came from
        assert len(line["evidence_ids"]) == len(shown)
        assert set(line["evidence_ids"]) <= {m.id for m in before}
        assert line["memory_cost"]["write"]["llm_calls"] == len(before)
    assert any(line["retrieved"] for line in chat)
    recon = journal(out, "realcompanion/reconstruction")
    assert len(recon) == 2 and not any(s.get("error") for s in recon)
    assert all(s["memory_cost"]["write"]["llm_calls"] == s["inputs"]["messages_read"] for s in recon)
    # one add per message: as many extraction calls as messages written in all
    assert len(srv.extractions()) == sum(s["memory_cost"]["write"]["llm_calls"] for s in chat + recon)


@needs_mem0
def test_mem0_images_take_its_vision_path_or_go_as_text(tmp_path, sample_snapshot):
    task = "cross_modal_semantic_matching"
    with MemoryServer() as server:
        assert mem0_run(server, tmp_path / "vision", "--task", task, "--limit", "1", "--data",
                        str(sample_snapshot), "--frames", "2") == 0
        described = [r for r in server.chats() if isinstance(r["messages"][-1]["content"], list)
                     and "Memory Extractor" not in text_of(r["messages"][0]["content"])
                     and r not in server.answers()]
        urls = [p["image_url"]["url"] for r in described for p in r["messages"][-1]["content"]
                if p.get("type") == "image_url"]
        assert described and len(urls) == len(described)
        assert all(u.startswith("data:image/") for u in urls)
        # the descriptions are what mem0 extracted its memories from
        extracted = " ".join(text_of(r["messages"][-1]["content"]) for r in server.extractions())
        assert "a photo (image" in extracted
        line = journal(tmp_path / "vision", task)[0]
        assert line["memory_cost"]["write"]["llm_calls"] == len(described) + len(server.extractions())
    with MemoryServer() as server:
        assert mem0_run(server, tmp_path / "text", "--task", task, "--limit", "1", "--data",
                        str(sample_snapshot), model_args=",supports_images=false") == 0
        assert not any(isinstance(r["messages"][-1]["content"], list) for r in server.chats())
        extracted = " ".join(text_of(r["messages"][-1]["content"]) for r in server.extractions())
        assert "[image " in extracted or "[video " in extracted or "[document " in extracted


@needs_mem0
def test_a_failed_embedding_inside_mem0_fails_the_question_as_a_model_error(srv, tmp_path,
                                                                           sample_snapshot):
    # mem0 logs and drops a memory whose embedding fails; br-eval fails the question instead
    srv.refuse_inputs = lambda inputs: any(": " in t and not t.startswith("system:") for t in inputs)
    out = tmp_path / "run"
    assert mem0_run(srv, out, "--task", "memory_update", "--limit", "1", "--data",
                    str(sample_snapshot)) == 1
    line = journal(out, "memory_update")[0]
    assert line["error_kind"] == "model" and "input refused" in line["error"]
    assert line["prediction"] is None and not srv.answers()


@needs_mem0
@pytest.mark.parametrize("reply, fails", [
    ("Sure! The user likes tea and lives in Oslo.", True),        # prose: mem0 would store nothing
    ('```json\n{"memory": []}\n```', False),                     # mem0 reads fenced JSON
    ("", False),                                                  # mem0's "nothing to store"
    ('{"memory": [{"text": "Lives in Oslo"}]}', False),           # mem0 2.x's extraction format
    ("{}", False),                                                # nothing to store
    ("[]", True),                                                 # JSON mem0 logs and drops:
    ("null", True),                                               # the memory would stay empty
    ('{"facts": ["Lives in Oslo"]}', True),                       # mem0's older format
    ('{"memory": ["Lives in Oslo"]}', True),
])
def test_a_memory_model_reply_mem0_cannot_read_fails_the_question(srv, tmp_path, sample_snapshot,
                                                                  reply, fails):
    # mem0 logs the parse error and stores nothing: the question would be answered from an
    # empty memory and scored as if the memory system had worked
    srv.extraction_reply = reply
    out = tmp_path / "run"
    code = mem0_run(srv, out, "--task", "memory_update", "--limit", "1", "--data",
                    str(sample_snapshot))
    line = journal(out, "memory_update")[0]
    if fails:
        assert code == 1 and line["error_kind"] == "model"
        assert "not JSON" in line["error"] and srv.base_url in line["error"]
    else:
        assert code == 0 and not line.get("error")


def test_a_missing_mem0_extra_is_one_line_with_the_pip_command(tmp_path, sample_snapshot):
    code = ("import sys; sys.modules['mem0'] = None\n"     # as if mem0ai were not installed
            "from evaluator.cli import main\n"
            f"sys.exit(main(['run', '--no-progress', '--task', 'memory_update', '--data', "
            f"{str(sample_snapshot)!r}, '--agent', 'mem0', '--model', 'mock', "
            f"'--output_path', {str(tmp_path / 'run')!r}]))")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 1
    err = done.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("br-eval: ")
    assert err.endswith("--agent mem0 needs the mem0ai package (an optional extra): "
                        "pip install 'br-eval[mem0]'")
    assert not (tmp_path / "run").exists()


@needs_mem0
def test_each_memory_is_stamped_with_its_own_session_date_not_today(srv):
    from datetime import datetime, timezone

    from evaluator.agents.mem0_agent import USER, Mem0Agent
    from evaluator.agents.protocol import MemorySession, MemoryTurn
    from evaluator.models.openai_backend import OpenAIChatModel

    agent = Mem0Agent(OpenAIChatModel(srv.base_url, CHAT_MODEL), embed_base_url=srv.base_url,
                      embed_model=EMBED_MODEL)
    days = [datetime(2021, 3, 4, 9, 30, tzinfo=timezone.utc), datetime(2022, 7, 1, tzinfo=timezone.utc)]
    for i, (day, text) in enumerate(zip(days, ["I adopted a cat named Miso", "Miso turned one"])):
        agent.write(MemorySession(i, day, [MemoryTurn(i, 0, day, "Priya", text, time_raw=f"day {i}")],
                                  date_raw=f"day {i}"))
    stored = agent._memory.get_all(filters={"user_id": USER})["results"]
    assert sorted((m["memory"], m["created_at"]) for m in stored) == [
        ("Priya: I adopted a cat named Miso", days[0].isoformat()),
        ("Priya: Miso turned one", days[1].isoformat())]
