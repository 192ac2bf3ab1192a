"""What an audit of the RealCompanion tracks reproduced, each as a test that failed before the fix:

1. reconstruction without a judge: a denial of every gold value and claim ("not <gold>", "It is
   false that <claim>") matched by token F1 >= 0.5 and scored F1 1.000; the judge-free match
   now also asks for the same polarity (reconstruction_track.polarity_differs);
2. question track: only the pooled mean was reported, while the paper aggregates "both pooled
   over items and macro-averaged across subjects"; `primary_macro` now sits beside `primary`;
3. chat track with --conditions: the headline (the report's row, the RealCompanion overall) is
   one condition's score, which results.json and the tables now name with its rule, and a folder
   can no longer mix lines answered under different conditions;
4. Table 41 printed token F1 under "Accuracy" next to the paper's accuracies."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from evaluator.cli import main
from evaluator.errors import EvalError
from evaluator.evaluate import evaluate
from evaluator.models.mock_backend import MockChatModel
from evaluator.realcompanion import reconstruction_track as rt
from evaluator.realcompanion.data import load_release
from evaluator.realcompanion.tables import paper_tables


@pytest.fixture(scope="module")
def rc(tmp_path_factory):
    from evaluator.realcompanion.sample import generate_sample

    root = tmp_path_factory.mktemp("rc_audit") / "sample"
    generate_sample(root)
    return root, load_release(root)


def _totals(release, persona_of, claims_of) -> dict:
    out = {"persona": [0, 0, 0], "profile": [0, 0, 0]}
    for p in release.participants:
        for part, scored in (("persona", rt.score_persona(p.persona, persona_of(p))),
                             ("profile", rt.score_profile(p.claims, claims_of(p)))):
            for i, k in enumerate(("tp", "fp", "fn")):
                out[part][i] += scored[k]
    return out


def _gold_claims(p):
    return [c for c in p.claims if c.audit in rt.GOLD_AUDITS]


# -- 1. reconstruction: polarity ------------------------------------------------------------------
def test_a_denial_of_every_gold_value_and_claim_matches_nothing(rc):
    _, release = rc
    denial = _totals(
        release,
        lambda p: {k: f"not {s.value}" for k, s in p.persona.items() if s.value is not None},
        lambda p: [{"text": f"It is false that {c.text}", "citations": []} for c in _gold_claims(p)])
    n_slots = sum(1 for p in release.participants for s in p.persona.values() if s.value is not None)
    n_claims = sum(len(_gold_claims(p)) for p in release.participants)
    # every denial still passes token F1 >= 0.5, and none is a match (it was F1 1.000)
    assert denial == {"persona": [0, n_slots, n_slots], "profile": [0, n_claims, n_claims]}
    # the gold itself (no negation in the sample's gold) still matches everywhere
    assert _totals(release,
                   lambda p: {k: s.value for k, s in p.persona.items() if s.value is not None},
                   lambda p: [{"text": c.text, "citations": []} for c in _gold_claims(p)]) == {
        "persona": [n_slots, 0, 0], "profile": [n_claims, 0, 0]}


def _slot(value):
    return {"diet": SimpleNamespace(value=value)}


POLARITY_CASES = [
    ("drinks coffee every morning", "not drinks coffee every morning", False),   # pred denies
    ("does not drink coffee", "drinks coffee", False),                           # gold denies
    ("isn't vegan anymore", "vegan anymore", False),                             # a contraction
    ("isn’t vegan anymore", "vegan anymore", False),                             # curly apostrophe
    ("it is false that the user swims daily", "the user swims daily", False),
    ("does not drink coffee", "never drinks coffee", True),                      # both deny
    ("drinks coffee every morning", "drinks coffee each morning", True),         # ordinary match
    ("wants to plan an event", "wants to plan the event", True),                 # -nt is no "n't"
    # giving something up is its negation (the misfire audit: read as a reversal before)
    ("stopped drinking coffee after lunch", "doesn't drink coffee after lunch", True),
    ("has stopped eating meat", "does not eat meat", True),
    ("stopped drinking coffee after lunch", "drinks coffee after lunch", False),
    ("drinks coffee after lunch", "stopped drinking coffee after lunch", False),
]


def test_the_judge_free_match_asks_for_the_same_polarity():
    """Both directions (the prediction or the gold denies) are no match; pairs of one polarity
    match as before (every case passes token F1 >= 0.5, so today's rule matched them all)."""
    from evaluator.scoring import token_f1

    got = []
    for gold, pred, _ in POLARITY_CASES:
        assert token_f1(pred, gold) >= rt.MATCH_F1
        scored = rt.score_persona(_slot(gold), {"diet": pred})
        got.append((gold, pred, (scored["tp"], scored["fp"], scored["fn"]) == (1, 0, 0)))
        assert scored["details"][0].get("reason") == (None if got[-1][2] else "polarity differs")
    assert got == POLARITY_CASES


def test_a_claim_of_the_other_polarity_leaves_its_prediction_free_for_the_next_gold():
    gold = [SimpleNamespace(id="c1", text="The user does not own a car", audit="supported"),
            SimpleNamespace(id="c2", text="The user owns a bike", audit="supported")]
    scored = rt.score_profile(gold, [{"text": "The user owns a car", "citations": []}])
    # F1 0.75 with c1 (a denial of it), 0.67 with c2: the greedy match moves on to c2
    assert [link["gold"] for link in scored["links"]] == ["c2"]
    assert (scored["tp"], scored["fp"], scored["fn"]) == (1, 0, 1)


def test_the_match_rule_says_polarity_in_results_and_decided_by():
    line = {"participant": "U01", "persona": {"tp": 1, "fp": 0, "fn": 0},
            "profile": {"tp": 1, "fp": 0, "fn": 0}}
    out = rt.aggregate([line])
    assert "same polarity" in out["match_rule"]
    assert list(out["decided_by"]["slot and claim match"]) == [
        f"token F1 >= {rt.MATCH_F1} and the same polarity"]


# -- 2. question track: pooled and macro over participants ----------------------------------------
def _q(participant, score, i):
    return {"key": f"realcompanion/question/{participant}/q{i}", "participant": participant,
            "category": "event", "metrics": {"primary": score, "primary_metric": "token_f1",
                                             "token_f1": score}}


def test_question_track_reports_the_macro_over_participants_beside_the_pooled_mean():
    from evaluator.realcompanion.question_track import aggregate
    from evaluator.stats import participant_bootstrap

    scores = {"U01": [1.0, 1.0, 1.0, 0.0], "U02": [0.0], "U03": [0.5, 0.5]}
    lines = [_q(p, v, i) for p, vs in scores.items() for i, v in enumerate(vs)]
    out = aggregate(lines, seed=3)
    assert out["primary"]["mean"] == pytest.approx(4 / 7)                      # pooled over items
    assert out["primary_macro"]["mean"] == pytest.approx((0.75 + 0.0 + 0.5) / 3)   # over subjects
    # both bootstrap whole participants, with the same resamples
    ref = participant_bootstrap([v for vs in scores.values() for v in vs],
                                [p for p, vs in scores.items() for _ in vs], seed=3)
    assert out["primary"]["ci95"] == ref["pooled"]["ci95"]
    assert out["primary_macro"]["ci95"] == ref["macro"]["ci95"]
    assert out["primary"]["n_clusters"] == out["primary_macro"]["n_clusters"] == 3
    text = paper_tables("realcompanion/question", out)
    assert "Macro over participants" in text and "0.417 [" in text and "0.571 [" in text
    assert '"Aggregate results both pooled over items and macro-averaged across subjects"' in text


def test_the_question_runs_results_json_holds_the_macro(rc, tmp_path):
    root, release = rc
    answers = [q.answer for p in release.participants for q in p.questions][:40]
    replies = [a if i % 3 else "zzz" for i, a in enumerate(answers)]
    r = evaluate(["realcompanion/question"], rc_data=root, output_path=tmp_path / "q",
                 progress=False, agent="none", limit=40,
                 model=MockChatModel(replies=replies))["realcompanion/question"]
    stored = json.loads((tmp_path / "q" / "results.json").read_text())["results"]
    macro = stored["realcompanion/question"]["primary_macro"]
    assert macro == r["primary_macro"] and macro["n"] == r["primary"]["n"] == 40
    first = [q for p in release.participants for q in p.questions][:40]
    assert macro["n_clusters"] == r["primary"]["n_clusters"] == len({q.participant for q in first})
    assert macro["n_clusters"] > 1 and macro["mean"] != pytest.approx(r["primary"]["mean"])


# -- 3. chat track: the headline condition -------------------------------------------------------
def _recent_only(messages):
    """The gold reply when the prompt holds C1's block (RECENT CONVERSATION), else nothing."""
    text = messages[-1].content[0].text
    probe = text.rsplit("USER: ", 1)[1].split("\nCOMPANION:")[0]
    return GOLD[probe] if "RECENT CONVERSATION" in text else "zzz"


GOLD: dict[str, str] = {}


def _chat(rc, out, conditions, limit=20):
    from evaluator.realcompanion import chat_track

    root, release = rc
    GOLD.update({p.text: p.gold_response for p in chat_track.items(release, None)})
    return evaluate(["realcompanion/chat"], rc_data=root, output_path=out, progress=False,
                    agent="none", model=MockChatModel(replies=_recent_only), limit=limit,
                    conditions=conditions)["realcompanion/chat"]


def test_the_headline_condition_is_named_with_its_rule(rc, tmp_path, capsys):
    a = _chat(rc, tmp_path / "a", "C1,C0")
    b = _chat(rc, tmp_path / "b", "C0,C1,C4")
    assert (a["primary_condition"], b["primary_condition"]) == ("C1", "C4")
    assert "primary_condition_rule" in a and "primary_condition_rule" in b
    from evaluator.realcompanion.chat_track import HEADLINE_RULE

    assert a["primary_condition_rule"] == b["primary_condition_rule"] == HEADLINE_RULE
    for r in (a, b):
        cond = r["primary_condition"]
        assert r["primary"] == r["per_condition"][cond]["content"]["pooled"]
    assert a["primary"]["mean"] > 0 == b["primary"]["mean"]       # the same replies, two headlines
    text = paper_tables("realcompanion/chat", a)
    assert text.startswith("Headline (the realcompanion/chat row above and the RealCompanion "
                           "overall): token F1 vs gold reply of condition C1")
    # compare does not compare the two headlines silently: the runs' conditions differ
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert any(w.startswith("conditions differs") for w in warnings)


def test_headline_condition_rule():
    from evaluator.realcompanion.chat_track import headline_condition

    cases = [(["C0"], "C0"), (["C1", "C0"], "C1"), (["C0", "C4", "C4m"], "C4"),
             (["C3m", "C4m"], "C4m"), (["C4m", "C3m", "C2"], "C4m"), (["agent"], "agent"),
             ([], None)]
    assert [headline_condition(c) for c, _ in cases] == [h for _, h in cases]


def test_a_folder_keeps_one_set_of_conditions(rc, tmp_path):
    out = tmp_path / "mixed"
    _chat(rc, out, "C0,C1", limit=4)
    with pytest.raises(EvalError, match=r"answered under --conditions C0,C1, this run asks for "
                                        r"--conditions C0,C1,C4"):
        _chat(rc, out, "C0,C1,C4", limit=8)                      # it mixed them silently
    lines = (out / "samples_realcompanion_chat.jsonl").read_text().splitlines()
    assert len(lines) == 4
    r = _chat(rc, out, "C1,C0", limit=8)                         # the same set: a resume
    assert r["n_scored"] == 8 and r["primary_condition"] == "C1"
    with pytest.raises(EvalError, match="agent mode"):
        evaluate(["realcompanion/chat"], rc_data=rc[0], output_path=out, progress=False,
                 agent="none", model=MockChatModel(replies="hi"), limit=8)


# -- 4. Table 41: the metric says what it is -----------------------------------------------------
def test_table_41_never_prints_token_f1_as_accuracy():
    question = {"coverage": {"answered": 5, "items": 5}, "primary_metric": "token_f1",
                "primary": {"mean": 0.4, "ci95": [0.3, 0.5], "n": 5}}
    text = paper_tables("realcompanion/question", question)
    assert "Accuracy (token_f1)" not in text and "token F1 (not an accuracy)" in text
    assert "not comparable with 44.5%" in text
    judged = paper_tables("realcompanion/question", {**question, "primary_metric": "judge"})
    assert "Accuracy (judge, 0/0.5/1)" in judged
    chat = {"per_condition": {}, "system": {"n": 5, "response_metric": "token_f1_vs_gold"},
            "n_samples": 5, "coverage": {"answered": 5, "items": 5}}
    text = paper_tables("realcompanion/chat", chat)
    assert "Chat RC: token F1 vs gold reply (not an accuracy)" in text
    assert "Chat (RC)" not in text and "does not compare with 58.1%" in text


def test_the_report_row_of_the_chat_track_names_its_headline_condition():
    from evaluator.commands.report import metric_words

    entry = {"primary_metric": "token_f1_vs_gold", "primary_condition": "C4"}
    assert metric_words(entry) == "token F1 vs gold reply, condition C4"
    assert metric_words({**entry, "primary_condition": "agent"}) == "token F1 vs gold reply"
    assert metric_words({"primary_metric": "token_f1"}) == "token F1"


def test_conditions_replies_are_read_after_their_reasoning_block(rc, tmp_path):
    # the built-in agents' rule (scoring/readable.visible_reply) reaches the conditions' direct
    # model calls too: a <think> block is not the companion's reply
    root, _ = rc
    out = tmp_path / "think"
    evaluate(["realcompanion/chat"], rc_data=root, output_path=out, progress=False, agent="none",
             model=MockChatModel(replies="<think>they said nothing</think>\n\nHello again!"),
             limit=2, conditions="C0")
    for line in (out / "samples_realcompanion_chat.jsonl").read_text().splitlines():
        entry = json.loads(line)["conditions"]["C0"]
        assert entry["reply"] == "Hello again!"
        assert entry["reasoning_removed"] == {"chars": len("<think>they said nothing</think>")}
