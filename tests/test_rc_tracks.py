"""RealCompanion Chat, Question and Reconstruction tracks, end to end on the synthetic sample:
with the weight-free baseline, with the mock backend scripted so each metric takes a known
value, and with a judge served by a fake OpenAI-compatible server on 127.0.0.1."""

import json

import pytest

from evaluator.agents import Agent, Answer
from evaluator.cli import main
from evaluator.evaluate import evaluate
from evaluator.models.mock_backend import MockChatModel
from evaluator.realcompanion import chat_track, reconstruction_track
from evaluator.realcompanion.data import load_release
from test_models_openai import FakeOpenAIServer

SEEN: list[dict] = []


class Recorder(Agent):
    def __init__(self, model=None, **kw):
        self.positions = []

    def write(self, session):
        self.positions.extend(t.turn_index for t in session.turns)

    def answer(self, query):
        SEEN.append({"key": query.key, "positions": list(self.positions)})
        return Answer("noted")


@pytest.fixture(scope="module")
def rc(tmp_path_factory):
    root = tmp_path_factory.mktemp("rc") / "sample"
    from evaluator.realcompanion.sample import generate_sample

    generate_sample(root)
    return root, load_release(root)


def run_task(task, tmp_path, root, **kw):
    """One task through evaluate(), as `br-eval run` does; returns its results.json entry."""
    return evaluate([task], rc_data=root, output_path=tmp_path / "run", progress=False, **kw)[task]


def test_chat_agent_sees_only_messages_before_the_probe(rc, tmp_path):
    root, release = rc
    SEEN.clear()
    metrics = run_task("realcompanion/chat", tmp_path, root, agent=f"{__name__}:Recorder")
    probes = {f"realcompanion/chat/{p.participant}/{p.probe_id}": p for p in chat_track.items(release, None)}
    assert len(SEEN) == len(probes) == metrics["n_scored"]
    assert any(p.cold_open for p in probes.values())
    for e in SEEN:
        probe = probes[e["key"]]
        assert e["positions"] == list(range(probe.position))     # everything before, nothing after


class Tagger(Agent):
    """Writes a tag into every turn it is given, and counts the tags it did not write."""

    seen_foreign: list[int] = []

    def __init__(self, model=None, **kw):
        self.mine = object()

    def write(self, session):
        for t in session.turns:
            if "#tag" in t.content:
                Tagger.seen_foreign.append(1)
            t.content += "#tag"
            t.media.append("planted.png")

    def answer(self, query):
        return Answer("noted")


@pytest.mark.parametrize("task", ["realcompanion/chat", "realcompanion/question"])
def test_an_items_agent_cannot_change_what_a_later_item_sees(rc, tmp_path, task):
    """One isolated memory per item: the turns an agent is given are its own (they were shared
    objects, so an agent that edited them changed every later item's history)."""
    root, _ = rc
    Tagger.seen_foreign.clear()
    run_task(task, tmp_path, root, agent=f"{__name__}:Tagger", limit=12)
    assert Tagger.seen_foreign == []


def test_a_turn_copy_carries_every_field():
    from dataclasses import fields
    from datetime import datetime, timezone

    from evaluator.agents.protocol import MemoryTurn

    turn = MemoryTurn(1, 2, datetime(2025, 1, 1, tzinfo=timezone.utc), "user", "hi", ["a.png"],
                      "m7", "2025-01-01")
    copy = turn.copy()
    assert all(getattr(copy, f.name) == getattr(turn, f.name) for f in fields(MemoryTurn))
    assert copy.media is not turn.media


def _condition_reply(messages):
    """Gold when the prompt carries retrieved memories, else a reply sharing nothing with it."""
    text = messages[-1].content[0].text
    probe_text = text.rsplit("USER: ", 1)[1].split("\nCOMPANION:")[0]
    gold = GOLD_BY_PROBE[probe_text]
    return gold if "RETRIEVED MEMORIES" in text else "zzz"


GOLD_BY_PROBE: dict[str, str] = {}


def test_chat_conditions_with_scripted_generator(rc, tmp_path):
    root, release = rc
    items = chat_track.items(release, None)
    GOLD_BY_PROBE.clear()
    GOLD_BY_PROBE.update({p.text: p.gold_response for p in items})
    # A probe text can occur twice with different golds: the script then answers with the last
    # one, and the expected score is computed the same way.
    from evaluator.scoring import token_f1
    expected = sum(token_f1(GOLD_BY_PROBE[p.text], p.gold_response) for p in items) / len(items)
    assert expected > 0.95
    model = MockChatModel(replies=_condition_reply)
    m = run_task("realcompanion/chat", tmp_path, root, agent="none",
                 conditions="C0,C1,C2,C3,C4,C4m", model=model)
    per = m["per_condition"]
    for c in ("C2", "C3", "C4"):
        assert per[c]["content"]["pooled"]["mean"] == pytest.approx(expected)
    for c in ("C0", "C1", "C4m"):
        assert per[c]["content"]["pooled"]["mean"] == pytest.approx(0.0)
    c21 = m["contrasts"]["C2-C1"]
    # whole-corpus contrasts are over the probes with a reference set (the paper's 1,477);
    # every item is kept under its own name
    with_refs = [p for p in items if p.reference_ids]
    expected_refs = sum(token_f1(GOLD_BY_PROBE[p.text], p.gold_response) for p in with_refs) / len(with_refs)
    assert c21["n"] == len(with_refs) < len(items)
    assert c21["difference"]["pooled"]["mean"] == pytest.approx(expected_refs)
    assert c21["difference_all_items"]["pooled"]["mean"] == pytest.approx(expected)
    d = c21["decomposition_proportional"]
    assert d["pi_gamma1"] + d["one_minus_pi_gamma0"] == pytest.approx(d["delta"])
    assert 0 < d["pi"] < 1
    assert m["contrasts"]["C4-C4m"]["difference"]["pooled"]["mean"] == pytest.approx(expected_refs)
    # the same generator settings for every condition: 6 calls per probe
    assert len(model.calls) == 6 * m["n_scored"]


def test_chat_judge_on_fake_server_misfire_and_application(rc, tmp_path):
    root, release = rc
    n_items = 12
    with FakeOpenAIServer() as srv:
        def judged(body):
            prompt = body["messages"][-1]["content"]
            prompt = prompt if isinstance(prompt, str) else " ".join(p.get("text", "") for p in prompt)
            used = "yes" if "remember" in prompt.split("Companion's reply:")[-1] else "no"
            reply = json.dumps({"content_match": 2 if used == "yes" else 0, "used_memory": used,
                                "reason": "scripted"})
            return {"id": "x", "object": "chat.completion", "created": 0, "model": "judge",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        srv.completion = judged
        out = tmp_path / "run"
        rfile = tmp_path / "replies.json"
        rfile.write_text(json.dumps(["I remember that!", "ok"]))       # alternate
        code = main(["run", "--no-progress", "--task", "realcompanion/chat", "--rc_data", str(root),
                     "--limit", str(n_items), "--agent", "none", "--model", "mock",
                     "--model_args", f"replies={rfile}", "--judge", "openai", "--judge_args",
                     f"base_url={srv.base_url},model=judge,backoff=0.01",
                     "--output_path", str(out)])
    assert code == 0
    r = json.loads((out / "results.json").read_text())["results"]["realcompanion/chat"]
    agent = r["per_condition"]["agent"]
    assert agent["content"]["pooled"]["mean"] == pytest.approx(1.0)        # half 2, half 0
    lines = [json.loads(l) for l in (out / "samples_realcompanion_chat.jsonl").read_text().splitlines()]
    # misfire is measured on the cold opens and the no-referent probes only (thread probes,
    # also not memory-bearing, are not in it)
    none_needed = [l for l in lines if l["cold_open"] or l["locus"] == "none"]
    assert none_needed and any(l["locus"] == "thread" for l in lines)
    expected = sum(l["conditions"]["agent"]["used_memory"] for l in none_needed) / len(none_needed)
    assert agent["misfire_rate"]["pooled"]["mean"] == pytest.approx(expected)
    assert agent["misfire_rate"]["pooled"]["n"] == len(none_needed)
    assert r["primary_metric"] == "content_match"


def test_question_track_history_and_scripted_answers(rc, tmp_path):
    root, release = rc
    SEEN.clear()
    run_task("realcompanion/question", tmp_path / "a", root, agent=f"{__name__}:Recorder", limit=30)
    qs = {f"realcompanion/question/{q.participant}/{q.qid}": q
          for p in release.participants for q in p.questions}
    for e in SEEN:
        assert e["positions"] == list(range(qs[e["key"]].visible_until))   # asked_after included
    answers = [q.answer for p in release.participants for q in p.questions][:30]
    m = run_task("realcompanion/question", tmp_path / "b", root, agent="none", limit=30,
                 model=MockChatModel(replies=answers))
    assert m["primary"]["mean"] == pytest.approx(1.0) and m["n_scored"] == 30
    assert m["per_category"] and all(v["primary"]["mean"] == pytest.approx(1.0)
                                     for v in m["per_category"].values())


def test_reconstruction_perfect_partial_and_malformed(rc, tmp_path):
    root, release = rc
    replies = []
    for i, p in enumerate(release.participants):
        gold_claims = [c for c in p.claims if c.audit in reconstruction_track.GOLD_AUDITS]
        persona = {k: s.value for k, s in p.persona.items()}
        if i == 1:
            persona = dict(list(persona.items())[:1]) | {"invented.slot": "x"}  # 1 TP, 1 FP
            gold_claims = []
        body = json.dumps({"profile": [{"text": c.text, "citations": list(c.citations)}
                                       for c in gold_claims], "persona": persona})
        replies.append("```json\n" + body + "\n```" if i != 2 else "{not json")
    m = run_task("realcompanion/reconstruction", tmp_path, root, agent="none",
                 model=MockChatModel(replies=replies))
    # a reply that is not JSON is read as nothing (issue 23): 0, in the denominator, counted
    assert m["n_failed"] == 0 and m["n_scored"] == len(release.participants)
    assert m["n_unreadable"] == {"empty": 0, "unparseable": 1}
    per = m["persona"]["per_participant"]
    assert per["U01"]["f1"] == 1.0 and m["profile"]["per_participant"]["U01"]["f1"] == 1.0
    # slots the release leaves empty (null) are not positives, so they add no false negative
    n_slots = sum(1 for s in release.participants[1].persona.values() if s.value is not None)
    assert n_slots < len(release.participants[1].persona)
    assert per["U02"]["tp"] == 1 and per["U02"]["fp"] == 1 and per["U02"]["fn"] == n_slots - 1
    assert m["profile"]["per_participant"]["U02"]["recall"] == 0.0
    n_u03 = sum(1 for s in release.participants[2].persona.values() if s.value is not None)
    assert per["U03"] == {**per["U03"], "f1": 0.0, "tp": 0, "fp": 0, "fn": n_u03} and n_u03
    pooled = m["persona"]["pooled"]
    assert pooled["fn"] == sum(v["fn"] for v in per.values())     # U03's misses are pooled
    assert m["tokens"]["read"] > 0 and m["tokens"]["written"] > 0
    lo, hi = m["persona"]["pooled"]["ci95"]
    assert lo <= m["persona"]["pooled"]["f1"] <= hi and lo < hi


def test_all_tracks_with_the_weight_free_baseline(rc, tmp_path, capsys):
    root, release = rc
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--tasks", "realcompanion", "--rc_data", str(root),
                 "--output_path", str(out)]) == 0
    r = json.loads((out / "results.json").read_text())["results"]
    assert r["realcompanion/chat"]["n_scored"] == len(chat_track.items(release, None))
    assert r["realcompanion/question"]["n_scored"] == sum(len(p.questions) for p in release.participants)
    assert r["realcompanion/reconstruction"]["n_scored"] == len(release.participants)
    assert 0 < r["realcompanion/question"]["primary"]["mean"] < 1
    # a rerun resumes: nothing is asked again, results are the same
    before = (out / "samples_realcompanion_chat.jsonl").read_text()
    assert main(["run", "--no-progress", "--tasks", "realcompanion", "--rc_data", str(root),
                 "--output_path", str(out)]) == 0
    assert (out / "samples_realcompanion_chat.jsonl").read_text() == before
    assert json.loads((out / "results.json").read_text())["results"]["realcompanion/question"] == \
        r["realcompanion/question"]


def test_conditions_without_a_model_is_one_line(rc, tmp_path, capsys):
    root, _ = rc
    assert main(["run", "--no-progress", "--task", "realcompanion/chat", "--rc_data", str(root),
                 "--conditions", "C1,C9", "--output_path", str(tmp_path / "x")]) == 2
    assert "unknown C9" in capsys.readouterr().err
