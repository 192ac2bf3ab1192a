"""RealCompanion measured as the paper measures it (issue 12): populations, C3m, the judge's three
fields with the conversation it judges, recorded generation settings, a system's own decisions
(MR, AAR, LA, evidence coverage), the strict reading, companion origin, null persona slots, the
retrieval controls, reach, question-track detection and the paper's tables. Every model is the
mock backend scripted so each figure has a known value; the judge is a scripted ChatModel."""

import json

import pytest

from evaluator.agents import Agent, Answer
from evaluator.evaluate import evaluate
from evaluator.models.base import Generation
from evaluator.models.mock_backend import MockChatModel
from evaluator.realcompanion import chat_track
from evaluator.realcompanion.data import load_release
from evaluator.realcompanion.reconstruction_track import score_persona
from evaluator.realcompanion.sample import generate_sample
from evaluator.realcompanion.tables import paper_tables
from evaluator.scoring.judge import Judge


@pytest.fixture(scope="module")
def rc(tmp_path_factory):
    root = generate_sample(tmp_path_factory.mktemp("rc") / "sample")
    return root, load_release(root)


def run(task, out, root, **kw):
    return evaluate([task], rc_data=root, output_path=out, progress=False, **kw)


def lines_of(out, task="realcompanion_chat"):
    return [json.loads(x) for x in (out / f"samples_{task}.jsonl").read_text().splitlines()]


class ScriptedJudge:
    """A ChatModel that grades: content 2 and used_memory yes when the reply says REMEMBER,
    restraint no when it says DRAG; records every prompt."""

    name, model_id = "scripted", "scripted-judge"

    def __init__(self):
        self.prompts = []
        self.kwargs = []

    def generate(self, messages, **kw):
        prompt = messages[-1].content[0].text
        self.prompts.append(prompt)
        self.kwargs.append(kw)
        reply = prompt.split("Companion's reply:")[-1]
        used = "REMEMBER" in reply
        body = {"content_match": 2 if used else 0, "used_memory": "yes" if used else "no",
                "restraint": "no" if "DRAG" in reply else "yes", "reason": "scripted"}
        return Generation(json.dumps(body), 1, 1)


# -- populations -----------------------------------------------------------------------------------
def test_misfire_and_contrast_populations_and_judge_fields(rc, tmp_path):
    root, release = rc
    items = chat_track.items(release, None)
    # REMEMBER on every reply with a retrieved block, else a plain reply; DRAG on C4 only
    def reply(messages):
        text = messages[-1].content[0].text
        out = "REMEMBER" if "RETRIEVED MEMORIES" in text else "ok"
        return out + (" DRAG" if "RETRIEVED MEMORIES" in text and "EARLIER" not in text else "")
    judge_model = ScriptedJudge()
    r = run("realcompanion/chat", tmp_path / "a", root, agent="none", conditions="C0,C1,C2,C4,C3m",
            model=MockChatModel(replies=reply), judge=Judge(judge_model))["realcompanion/chat"]
    lines = lines_of(tmp_path / "a")
    misfire = [l for l in lines if l["cold_open"] or l["locus"] == "none"]
    assert len(misfire) == sum(1 for p in items if p.cold_open or p.locus == "none")
    assert r["populations"]["misfire"] == len(misfire)
    # C2 always shows retrieved memories: it misfires on every row of the misfire population
    assert r["per_condition"]["C2"]["misfire_rate"]["pooled"]["mean"] == 1.0
    assert r["per_condition"]["C2"]["misfire_rate"]["pooled"]["n"] == len(misfire)
    assert r["per_condition"]["C0"]["misfire_rate"]["pooled"]["mean"] == 0.0
    # restraint recorded per reply: "no" exactly where the reply dragged in memories
    assert r["per_condition"]["C4"]["restraint"]["pooled"]["mean"] == 0.0
    assert r["per_condition"]["C3m"]["restraint"]["pooled"]["mean"] == 1.0
    assert all("restraint" in l["conditions"]["C0"] for l in lines)
    # whole-corpus contrasts on probes with a reference set, n reported
    with_refs = [l for l in lines if l["reference_ids"]]
    c = r["contrasts"]["C2-C1"]
    assert c["n"] == len(with_refs) == r["populations"]["with_references"]
    assert c["difference"]["pooled"]["n"] == len(with_refs) < len(lines)
    assert c["difference"]["pooled"]["mean"] == pytest.approx(2.0)
    assert "C4-C3m" in r["contrasts"]
    # the judge saw the conversation (the 3 messages before the probe), never "(none)" for a
    # probe with history, and ran at temperature 0
    part = release.participant(items[0].participant)
    recent = part.history(items[0].position)[-3:]
    assert recent and all(m.text in judge_model.prompts[0] for m in recent)
    assert all(k.get("temperature") == 0.0 for k in judge_model.kwargs)
    # both generation settings recorded in results.json
    gen = r["generation"]
    assert gen["generator"]["temperature"] == 0.0 and gen["generator"]["max_tokens"] == 512
    assert gen["judge"]["temperature"] == 0.0
    assert json.loads((tmp_path / "a" / "results.json").read_text())["judge"]["gen_kwargs"]["temperature"] == 0.0
    # decomposition under stratum x reading; the paper's tables print with their names
    d = c["decomposition"]
    assert set(d) == {"reference_set/recorded", "reference_set/strict", "proportional/recorded",
                      "proportional/strict"}
    assert d["proportional/recorded"]["n_memory_bearing"] >= d["proportional/strict"]["n_memory_bearing"]
    # the decomposition is on the population of the contrast it decomposes: its delta is the
    # printed whole-corpus contrast; the proportional row's pi is the demand rate
    for reading in ("recorded", "strict"):
        row = d[f"reference_set/{reading}"]
        assert row["n"] == c["n"] and row["delta"] == pytest.approx(c["difference"]["pooled"]["mean"])
    prop = [l for l in lines if l["stratum"] == "proportional"]
    assert d["proportional/recorded"]["n"] == len(prop)
    assert d["proportional/recorded"]["pi"] == pytest.approx(
        sum(l["memory_bearing"] for l in prop) / len(prop))
    # Table 5 is on the same population as the contrasts, not on every item (cold opens out)
    assert r["per_condition"]["C2"]["content_with_references"]["pooled"]["n"] == c["n"]
    # Table 39's by-subject values are kept; C0 shows nothing, so it uses none of it
    by = r["per_condition"]["C0"]["used_memory_per_participant"]
    assert set(by) == {l["participant"] for l in lines} and all(v["mean"] == 0 for v in by.values())
    assert set(c["difference_per_participant"]) == {l["participant"] for l in with_refs}
    text = paper_tables("realcompanion/chat", r)
    for name in ("Table 5.", "Table 35.", "Table 36.", "Table 8.", "Table 37.", "Table 39.",
                 "Table 40.", "C2 - C1", "From no-memory rows", "(1 − π)γ0",
                 f"(n = {c['n']})", "1,477 chat probes", "reading:"):
        assert name in text
    table5 = text.split("Table 5.")[1].split("\n\n")[0]
    assert "population: scoreable probes with a reference set" in table5
    assert f"(n = {c['n']})" in table5 and f"(n = {len(lines)})" not in table5


def test_c3m_is_the_ten_messages_before_the_probe(rc):
    _, release = rc
    probe = next(p for p in chat_track.items(release, None) if p.position > 20)
    part = release.participant(probe.participant)
    block = chat_track.context_block("C3m", probe, part)
    assert block.startswith("RECENT CONVERSATION\n")
    shown = block.split("\n")[1:]
    assert len(shown) == 10
    for line, m in zip(shown, part.history(probe.position)[-10:]):
        assert line.endswith(m.text)


# -- a system's own decisions ---------------------------------------------------------------------
class Scripted(Agent):
    """Retrieves exactly on memory-bearing probes with an even position; names the locus
    "episode"; cites the first reference id. Decisions known in advance."""

    def __init__(self, model=None, **kw):
        self.n = 0

    def write(self, session):
        self.n += len(session.turns)

    def answer(self, query):
        probe = PROBES[query.key]
        go = probe.memory_bearing and probe.position % 2 == 0
        return Answer("ok", retrieved=go or probe.locus == "none",
                      locus="episode" if probe.memory_bearing else "thread",
                      evidence_ids=list(probe.reference_ids[:1]))


class Silent(Agent):
    def __init__(self, model=None, **kw):
        pass

    def write(self, session):
        pass

    def answer(self, query):
        return Answer("ok")


PROBES: dict = {}


def test_system_metrics_from_a_scripted_agent(rc, tmp_path):
    root, release = rc
    items = chat_track.items(release, None)
    PROBES.clear()
    PROBES.update({f"realcompanion/chat/{p.participant}/{p.probe_id}": p for p in items})
    r = run("realcompanion/chat", tmp_path / "s", root, agent=f"{__name__}:Scripted")["realcompanion/chat"]
    sysm = r["system"]
    mis = [p for p in items if p.cold_open or p.locus == "none"]
    exp_mr = sum(p.locus == "none" for p in mis) / len(mis)       # it fires on no-referent probes
    mem = [p for p in items if p.memory_bearing]
    exp_aar = sum(p.position % 2 == 0 for p in mem) / len(mem)
    # the formal locus: "companion refines episode", so "episode" is right on companion rows too
    exp_la = sum(p.locus in ("episode", "companion") for p in mem) / len(mem)
    assert any(p.locus == "companion" for p in mem)
    exp_cov = sum(1 / len(set(p.reference_ids)) for p in mem) / len(mem)
    assert sysm["misfire_rate"]["pooled"]["mean"] == pytest.approx(exp_mr)
    assert sysm["appropriate_application_recorded"]["pooled"]["mean"] == pytest.approx(exp_aar)
    assert sysm["locus_accuracy_recorded"]["pooled"]["mean"] == pytest.approx(exp_la)
    assert sysm["evidence_coverage_recorded"]["pooled"]["mean"] == pytest.approx(exp_cov)
    strict = [p for p in mem if p.memory_bearing_strict]
    assert sysm["appropriate_application_strict"]["pooled"]["n"] == len(strict) < len(mem)
    assert sysm["misfire_rate_thread"]["pooled"]["mean"] == 0.0
    assert 0 < exp_aar < 1 and 0 < exp_la < 1
    lines = lines_of(tmp_path / "s")
    assert all(l["retrieved"] is not None and l["reported_locus"] for l in lines)
    # Table 41: the agent cites a reference first, so its own evidence hits at 5 everywhere
    assert sysm["evidence_hit_at_5_recorded"]["pooled"]["mean"] == 1.0
    assert sysm["evidence_hit_at_5_recorded"]["pooled"]["n"] == sum(1 for p in mem if p.reference_ids)
    text = paper_tables("realcompanion/chat", r)
    assert "MR (misfire rate)" in text and "LA (locus accuracy, formal locus)" in text
    assert "Table 41." in text and f"{r['n_scored']}/{r['n_samples']}" in text
    # an agent that reports nothing gets "not reported", never 0
    r = run("realcompanion/chat", tmp_path / "q", root, agent=f"{__name__}:Silent",
            limit=20)["realcompanion/chat"]
    for key in ("misfire_rate", "appropriate_application_recorded", "locus_accuracy_recorded",
                "evidence_coverage_recorded"):
        assert r["system"][key]["value"] is None and "not reported" in r["system"][key]["note"]
    assert r["system"]["response_consistency"]["pooled"]["n"] == 20


def test_the_bm25_gated_baseline_reports_its_decisions(rc, tmp_path):
    root, release = rc
    r = run("realcompanion/chat", tmp_path / "b", root)["realcompanion/chat"]
    lines = lines_of(tmp_path / "b")
    assert {l["reported_locus"] for l in lines} <= {"thread", "none", "episode", "companion"}
    assert any(l["retrieved"] for l in lines) and not all(l["retrieved"] for l in lines)
    for l in lines:
        assert l["retrieved"] == (l["reported_locus"] in ("episode", "companion"))
        part = release.participant(l["participant"])
        assert all(part.position(i) < part.position(
            next(p for p in part.probes if p.probe_id == l["probe_id"]).message_id)
            for i in l["evidence_ids"])
    assert r["system"]["misfire_rate"]["pooled"]["n"] == r["populations"]["misfire"]


# -- strict reading, companion origin, persona -----------------------------------------------------
def test_strict_reading_and_companion_origin(rc, tmp_path):
    root, release = rc
    r = run("realcompanion/chat", tmp_path / "c", root, agent="none",
            model=MockChatModel(replies="ok"))["realcompanion/chat"]
    items = chat_track.items(release, None)
    mem = [p for p in items if p.memory_bearing]
    assert r["populations"]["memory_bearing_strict"] == sum(p.memory_bearing_strict for p in items)
    assert r["populations"]["memory_bearing_strict"] < r["populations"]["memory_bearing_recorded"]
    co = r["companion_origin"]
    exp = [p for p in mem if all(release.participant(p.participant).message(i).speaker == "companion"
                                 for i in p.reference_ids)]
    assert co["all"]["k"] == len(exp) and co["all"]["n"] == len(mem) and 0 < len(exp) < len(mem)
    assert co["per_locus"]["companion"]["rate"] == 1.0 and co["per_locus"]["episode"]["rate"] == 0.0
    q = run("realcompanion/question", tmp_path / "d", root, agent="none",
            model=MockChatModel(replies="ok"))["realcompanion/question"]
    assert 0 < q["companion_origin"]["all"]["rate"] < 1
    assert q["companion_origin"]["per_category"]["companion-said"]["rate"] == 1.0
    assert q["evidence_coverage"]["value"] is None


def _v7_release(root):
    """One participant whose rows have known evidence speakers: messages m01..m20 alternate
    user (odd) and companion (even), every memory row's grounding is its references."""
    folder = root / "U01"
    folder.mkdir(parents=True)
    conv = [{"id": f"m{i:02d}", "day": 1 + i // 10, "seq": i, "time": f"2025-03-0{1 + i // 10}T10:{i:02d}:00",
             "speaker": "user" if i % 2 else "companion", "session": f"s{1 + i // 10}",
             "text": f"message {i}"} for i in range(1, 21)]
    row = lambda pid, msg, locus, refs, grounding=None, **kw: {  # noqa: E731
        "probe_id": pid, "message_id": msg, "stratum": kw.pop("stratum", "proportional"),
        "scoreable": True, "ok": True, "locus": locus, "gold_response": "gold",
        "reference_ids": refs, "grounding_ids": refs if grounding is None else grounding, **kw}
    chat = [row("a", "m11", "profile", ["m02"]),                 # companion evidence
            row("b", "m13", "profile", ["m01"]),                 # user evidence
            row("c", "m15", "episode", ["m03", "m04"]),          # user + companion: not entirely
            row("d", "m17", "episode", ["m06"]),                 # companion evidence
            row("e", "m19", "companion", ["m08"]),               # companion locus
            row("f", "m09", "thread", ["m08"], ["m08", "m09"]),  # continues the companion's turn
            row("g", "m07", "thread", ["m05"], ["m07"]),         # grounding: the probe alone
            row("h", "m05", "none", []),
            row("i", "m01", "none", [], stratum="abstention", scoreable=False),
            # withdrawn: never a row, whatever its evidence
            {**row("w", "m03", "profile", ["m02"]), "ok": False, "scoreable": False}]
    for name, rows in (("conversation.jsonl", conv), ("chat.jsonl", chat),
                       ("profile.jsonl", []), ("questions.jsonl", [])):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "persona.json").write_text(json.dumps({"slots": {}}))
    return root


def test_v7_rows_on_the_papers_populations_on_a_constructed_release(tmp_path):
    root = _v7_release(tmp_path / "v7")
    r = run("realcompanion/chat", tmp_path / "o", root, agent="none",
            model=MockChatModel(replies="ok"))["realcompanion/chat"]
    co = r["companion_origin"]
    # memory-bearing rows a-e ("of the 404"): a, d, e rest on companion evidence
    assert (co["all"]["k"], co["all"]["n"]) == (3, 5)
    # the episode-level row on the paper's population (locus profile or episode, "of 339"): a-d
    assert (co["episode_level"]["k"], co["episode_level"]["n"]) == (2, 4)
    assert co["episode_level"]["rate"] == 0.5
    assert (co["per_locus"]["profile"]["k"], co["per_locus"]["profile"]["n"]) == (1, 2)
    assert (co["per_locus"]["episode"]["k"], co["per_locus"]["episode"]["n"]) == (1, 2)
    # the second reading: rows with a grounding citation other than the probe (a-f; g cites only
    # its probe, h and the cold open none); f continues the companion's own turn
    second = co["second_reading"]
    assert (second["all"]["k"], second["all"]["n"]) == (4, 6)
    assert (second["per_locus"]["thread"]["k"], second["per_locus"]["thread"]["n"]) == (1, 1)
    text = paper_tables("realcompanion/chat", r)
    v7 = text[text.index("V7. Companion origin"):]
    row = next(line for line in v7.splitlines() if line.startswith("episode-level "))
    assert row.split()[5:] == ["0.500", "[0.150,", "0.850]", "2", "4", "7.1%", "[5.4,", "9.2]",
                               "of", "339"]
    assert "reading: the paper's episode-level 339 are the memory-bearing rows whose locus is " \
           "profile or episode" in v7 and "generated sample" not in v7
    assert "V7, second reading." in v7 and "(n = 6)" in v7 and "70.3% [67.5, 73.0] of 1,045" in v7


def test_v7_episode_level_row_on_the_paper_size_corpus(tmp_path):
    """The paper-size corpus has the paper's 404 memory-bearing rows by construction but draws
    their locus split, and its profile and episode evidence always includes a user message: its
    episode-level row is its own count at rate 0, not the paper's 24/339 (the table says so)."""
    root = generate_sample(tmp_path / "paper", scale=1.0)
    release = load_release(root)
    items = chat_track.items(release, None)
    lines = [{**chat_track.probe_fields(p, release.participant(p.participant)), "conditions": {}}
             for p in items]
    co = chat_track.aggregate(lines, judged=False)["companion_origin"]
    episode_level = [p for p in items if p.locus in ("profile", "episode")]
    assert co["all"]["n"] == 404
    assert co["episode_level"]["n"] == len(episode_level) != 339
    assert co["episode_level"]["k"] == 0
    assert co["all"]["k"] == co["per_locus"]["companion"]["n"] == 404 - len(episode_level)
    text = paper_tables("realcompanion/chat", {"companion_origin": co, "data": {"is_sample": True}})
    assert "episode-level rate is 0 by construction, not the paper's 24" in text
    row = next(line for line in text.splitlines() if line.startswith("episode-level "))
    assert row.split()[5:10] == ["0.000", "[0.000,", row.split()[7], "0", str(len(episode_level))]


def test_on_screen_verdicts_are_read_in_any_spelling(tmp_path, rc):
    from beyondrecall.errors import DataError
    from evaluator.realcompanion.data import normalize_on_screen

    assert normalize_on_screen("Not on screen", "x") == "not_on_screen"
    assert normalize_on_screen("not-on-screen", "x") == "not_on_screen"
    assert normalize_on_screen(None, "x") is None
    with pytest.raises(DataError, match="on_screen 'maybe'"):
        normalize_on_screen("maybe", "chat.jsonl:3")


def test_an_empty_gold_persona_slot_is_not_a_positive(rc):
    _, release = rc
    gold = release.participants[0].persona
    empty = [k for k, s in gold.items() if s.value is None]
    filled = [k for k, s in gold.items() if s.value is not None]
    assert empty and filled
    perfect = {k: gold[k].value for k in filled}
    assert score_persona(gold, perfect) == {"tp": len(filled), "fp": 0, "fn": 0,
                                            "details": score_persona(gold, perfect)["details"]}
    # writing "none" (or anything) for an empty slot is a false positive, not a true positive
    scored = score_persona(gold, perfect | {empty[0]: "None"})
    assert (scored["tp"], scored["fp"], scored["fn"]) == (len(filled), 1, 0)


# -- retrieval ------------------------------------------------------------------------------------
def test_retrieval_controls_recall_reach_and_question_detection(rc, tmp_path):
    root, release = rc
    m = run("realcompanion/retrieval", tmp_path / "r", root)["realcompanion/retrieval"]
    ret = m["retrieval"]
    lines = lines_of(tmp_path / "r", "realcompanion_retrieval")
    # recall@5 is the share of required turns in the top five
    rows = [s for s in lines if s["retrieval"]]
    exp = sum(sum(1 for x in s["retrieval"]["ranks"]["true"]["BM25"] if x <= 5)
              / len(s["retrieval"]["ranks"]["true"]["BM25"]) for s in rows) / len(rows)
    assert ret["true_gold"]["BM25"]["all"]["pooled"]["recall@5"]["mean"] == pytest.approx(exp)
    assert ret["true_gold"]["BROKEN-ORACLE"]["all"]["pooled"]["hit@5"]["mean"] == 0.0
    # 20 pool messages: twenty gold messages per probe (the whole pool when smaller)
    assert all(len(s["retrieval"]["gold"]["pool20"]) == min(20, s["pool_size"]) for s in rows)
    assert ret["pool20_gold"]["RECENCY"]["memory_bearing"]["n_probes"] > 0
    # reach for thread probes and memory-bearing probes side by side
    by = m["reach"]["by_population"]
    assert by["thread"]["n"] == sum(1 for s in rows if s["locus"] == "thread")
    assert by["thread"]["nearest_reference"]["median"] <= 2 < by["memory_bearing"]["nearest_reference"]["median"]
    # strict demand rate below the recorded one
    d = m["demand_rate"]
    assert d["estimate_strict"]["k"] < d["estimate"]["k"] and d["estimate_strict"]["n"] == d["estimate"]["n"]
    # Figure 4: C2's block holds every reference (grounding = references in the sample), C0's none
    blocks = m["window_coverage"]["blocks"]
    assert blocks["C0"]["rate"] == 0.0 and blocks["C2"]["rate"] == 1.0
    assert blocks["C1"]["rate"] <= blocks["C3m"]["rate"] and blocks["C4"] == blocks["C4m"]
    # the same detector on written questions against the same negatives
    qd = m["question_track_detection"]
    assert qd["n_questions"] == sum(len(p.questions) for p in release.participants)
    cell = qd["bm25_top"]["auroc_questions_vs_no_referent"]
    assert cell["n_pos"] == qd["n_questions"] and 0.5 < cell["auroc"] <= 1.0
    # AUROC intervals use the resample count the settings state
    assert m["settings"]["bootstrap"].startswith("2000 participant resamples")
    auc = m["restraint"]["bm25_top"]["auroc_memory_vs_no_referent"]
    assert 1000 < auc["n_boot_used"] <= 2000
    assert 1000 < cell["n_boot_used"] <= 2000
    # Table 38's by-subject values are kept
    per = ret["true_gold"]["BM25"]["memory_bearing"]["per_participant"]
    mb = [s for s in rows if s["memory_bearing"]]
    assert sum(v["n"] for v in per.values()) == len(mb)
    assert set(per) == {s["participant"] for s in mb}
    # Table 34's three populations: recorded, not clearly on screen, strict
    cov = m["window_coverage"]
    assert cov["n"] == len(mb)
    assert cov["not_clearly_on_screen"]["n"] == sum(1 for s in mb if s["on_screen"] != "clear")
    assert cov["n"] > cov["not_clearly_on_screen"]["n"] > cov["strict"]["n"] > 0
    text = paper_tables("realcompanion/retrieval", m)
    for name in ("Table 33.", "20 pool messages", "Offset-permuted", "Position-randomized",
                 "BROKEN ORACLE", "Table 4.", "Table 38.", "Table 34.", "Not clearly on screen",
                 "Figure 4.", "Table 32.", "thread", "Detector AUROC", "Question-track AUROC",
                 "reading:", "follows:", f"(n = {len(mb)})"):
        assert name in text
    assert "Size-matched" not in text


def test_report_prints_the_paper_tables(rc, tmp_path, capsys):
    from evaluator.cli import main

    root, _ = rc
    run("realcompanion/retrieval", tmp_path / "rep", root, limit=60)
    capsys.readouterr()
    assert main(["report", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    assert "realcompanion/retrieval: the paper's tables" in out and "Table 33." in out


def test_report_prints_table_6_and_table_41_for_the_other_tracks(rc, tmp_path, capsys):
    from evaluator.cli import main

    root, release = rc
    r = run("realcompanion/reconstruction", tmp_path / "rec", root)["realcompanion/reconstruction"]
    text = paper_tables("realcompanion/reconstruction", r)
    assert text.startswith("Table 6. Persona reconstruction from the full history")
    pooled = r["persona"]["pooled"]
    assert f"(n = {len(release.participants)})" in text
    assert f"persona  {pooled['f1']:.3f}" in text and f"{pooled['tp']}" in text
    q = run("realcompanion/question", tmp_path / "q", root, limit=25)["realcompanion/question"]
    assert (q["coverage"]["answered"], q["coverage"]["items"]) == (25, 25)
    text = paper_tables("realcompanion/question", q)
    assert "Table 41." in text and "25/25" in text and "V7." in text
    # V7's question-track row is on the cited turns: it names the digest's restricted reading
    assert "5.5 % [4.8, 6.4] when restricted to cited turns" in text
    assert "this rate compares with the 5.5% reading" in text
    capsys.readouterr()
    assert main(["report", str(tmp_path / "rec")]) == 0
    assert "realcompanion/reconstruction: the paper's tables" in capsys.readouterr().out
