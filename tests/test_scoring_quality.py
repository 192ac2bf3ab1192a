"""The refusal detector and the multiple-choice extractor against the labelled sets (issue 16):
the goals hold on the tuning split; the held-out split (never tuned on) is reported, and must stay
well above the naive reading so a regression there still fails. Multiple choice's held-out split is
MC_HELDOUT: written blind and committed before the extractor's current round of changes (the earlier
held-out splits were moved into tuning once they had been read), measured once after that round.
The real-reply set's held-out split, real-heldout-2, was labelled blind while round 11 was made on
the first draw only and measured once after it. The chat-reply refusal set's chat-heldout was
labelled blind and measured once after the chat round, tuned on chat-tune only; the second chat round
(the detector reads the reply against its question) tuned on both chat splits, so both are tuning
splits now. Its held-out set is chat-heldout-2 (draw 5: other runs of the same chat models on questions
draw 4 never drew, labelled blind), measured once after that round was frozen."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

from labelsets import (CHAT_HELDOUT3, CHAT_HELDOUT4, CHAT_HELDOUT5, CHAT_HELDOUT6, CHAT_HELDOUT7, CHAT_HELDOUT8, CHAT_HELDOUT9, CHAT_HELDOUT10, CHAT_HELDOUT11, CHAT_HELDOUT12, CHAT_HELDOUT13, CHAT_TUNE17, MC_FILE, MC_HELDOUT, MC_REAL_FILE, MC_REAL_HELDOUT, REAL_TUNE,
                       REFUSAL_CHAT_FILE, REFUSAL_CHAT_HELDOUT_FILE, REFUSAL_CHAT_HELDOUT3_FILE, REFUSAL_CHAT_HELDOUT4_FILE,
                       REFUSAL_CHAT_HELDOUT5_FILE, REFUSAL_CHAT_HELDOUT6_FILE, REFUSAL_CHAT_HELDOUT7_FILE, REFUSAL_CHAT_HELDOUT8_FILE, REFUSAL_CHAT_HELDOUT9_FILE,
                       REFUSAL_CHAT_HELDOUT10_FILE, REFUSAL_VLM_FILE, VLM_SPLITS, MODEL_HELDOUT, REFUSAL_WRITTEN_FILE, WRITTEN_SPLITS, REFUSAL_PAIRS_FILE, PAIR_SPLITS, PAIRS_HELDOUT, REFUSAL_FILES, RULES_FRESH, REFUSAL_FILE, REFUSAL_HELDOUT, REFUSAL_REAL_FILE, REFUSAL_REAL_HELDOUT, SPLITS, TUNE, load)

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def _bench():
    spec = importlib.util.spec_from_file_location("scoring_quality", ROOT / "bench" / "scoring_quality.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _figures() -> dict:
    """The bench's figures, computed once per session (the encoder reads ~10,000 of the rows)."""
    return _bench().report()


def test_labelled_sets_are_large_enough_and_sourced():
    for name, heldout, n_heldout in ((REFUSAL_FILE, REFUSAL_HELDOUT, 90), (MC_FILE, MC_HELDOUT, 200)):
        rows = load(name)
        assert len(rows) >= 300, name
        assert {r["split"] for r in rows} == {TUNE, heldout} == set(SPLITS[name]), name
        assert all(r.get("source") for r in rows)
        assert sum(r["split"] == heldout for r in rows) >= n_heldout
    real = load(MC_REAL_FILE)
    assert {r["split"] for r in real} == {REAL_TUNE, MC_REAL_HELDOUT} == set(SPLITS[MC_REAL_FILE])
    assert sum(r["split"] == MC_REAL_HELDOUT for r in real) >= 300
    assert all(r["source"].startswith("MMMU-Benchmark/MMMU@") and r["labelled_by"] and isinstance(r["reply"], str)
               for r in real)
    assert all(r["choice"] is None or r["choice"] in r["options"] for r in real)
    real_refusals = load(REFUSAL_REAL_FILE)
    assert {r["split"] for r in real_refusals} == {REAL_TUNE, REFUSAL_REAL_HELDOUT} == set(SPLITS[REFUSAL_REAL_FILE])
    assert sum(r["split"] == REFUSAL_REAL_HELDOUT for r in real_refusals) >= 200
    assert all(r["source"].startswith(("mem0ai/mem0@", "memodb-io/memobase@")) and r["labelled_by"]
               and isinstance(r["refusal"], bool) and r["question"] for r in real_refusals)
    refusal = load(REFUSAL_FILE)
    assert 0.3 < sum(r["refusal"] for r in refusal) / len(refusal) < 0.7     # both kinds present
    chat = load(REFUSAL_CHAT_FILE)
    assert {r["split"] for r in chat} == set(SPLITS[REFUSAL_CHAT_FILE])
    assert all(sum(r["split"] == split for r in chat) >= 200 for split in SPLITS[REFUSAL_CHAT_FILE])
    assert all(r["source"].startswith(("m4cd4r4/claude-echoes@", "Hunk0724/LongMemEval@")) and r["labelled_by"]
               and isinstance(r["refusal"], bool) and r["question"] and r["model"] for r in chat)
    tune_questions = {r["question"] for r in chat if r["split"] == SPLITS[REFUSAL_CHAT_FILE][0]}
    assert not tune_questions & {r["question"] for r in chat if r["split"] == SPLITS[REFUSAL_CHAT_FILE][1]}
    # each later chat draw: one split, its labelled rows exactly the draw's rows, from its sources,
    # and no question of an earlier chat draw among them, but for the rows a draw takes on purpose from
    # earlier questions (draw 13: other replies to draw 6's MTRAG turns), whose replies are new
    asked, replied = {r["question"] for r in chat}, {r["text"] for r in chat}
    for labels, drawn, sources, least in (
            (REFUSAL_CHAT_HELDOUT_FILE, 5, ("m4cd4r4/claude-echoes@", "Hunk0724/LongMemEval@"), 230),
            (REFUSAL_CHAT_HELDOUT3_FILE, 6, ("IBM/mt-rag-benchmark@", "pashaAbri/mt-rag-benchmark@"), 250),
            (REFUSAL_CHAT_HELDOUT4_FILE, 7, ("ChicagoHAI/dialogue-agent-memory-bd8d@",), 110),   # LoCoMo
            (REFUSAL_CHAT_HELDOUT5_FILE, 8, ("MaorLavi/unanswerability-directions@",), 250),    # passage QA
            (REFUSAL_CHAT_HELDOUT6_FILE, 9, ("MaorLavi/unanswerability-directions@",), 250),    # other questions
            (REFUSAL_CHAT_HELDOUT7_FILE, 10, ("MaorLavi/unanswerability-directions@",), 250),   # others again
            (REFUSAL_CHAT_HELDOUT8_FILE, 11, ("MaorLavi/unanswerability-directions@", "m4cd4r4/claude-echoes@",
                                              "Hunk0724/LongMemEval@"), 370),                  # both kinds
            (REFUSAL_CHAT_HELDOUT9_FILE, 12, ("MaorLavi/unanswerability-directions@", "IBM/mt-rag-benchmark@"),
             440),                                                                             # both kinds
            (REFUSAL_CHAT_HELDOUT10_FILE, 13, ("MaorLavi/unanswerability-directions@", "pashaAbri/mt-rag-benchmark@"),
             440)):                                                                            # both kinds
        rows = load(labels)
        assert {r["split"] for r in rows} == set(SPLITS[labels]) and len(rows) >= least, labels
        assert all(r["source"].startswith(sources) and r["labelled_by"] and isinstance(r["refusal"], bool)
                   and r["question"] and r["model"] for r in rows), labels
        draw = load(f"refusal_chat_draw{drawn}.jsonl")
        assert sorted((r["source"], r["text"]) for r in rows) == sorted((r["source"], r["text"]) for r in draw)
        again = [r for r in rows if drawn == 13 and r["source"].startswith("pashaAbri/mt-rag-benchmark@")]
        assert not again or {r["category"] for r in again} == {"UNANSWERABLE"}, labels
        assert not asked & {r["question"] for r in rows if r not in again}, labels
        assert not replied & {r["text"] for r in rows}, labels
        asked |= {r["question"] for r in rows}
        replied |= {r["text"] for r in rows}


def test_chat_heldout_2_is_drawn_only_on_questions_draw_4_never_drew():
    """Draw 5 (make_refusal_real.py --draw 5) stays blind: one split, no question (by LongMemEval id or
    text) with a reply in draw 4, and its reader sheet holds exactly its rows, unlabelled."""
    bench = _bench()
    draw4, draw5 = bench.load(bench.REFUSAL_CHAT_FILE), bench.load("refusal_chat_draw5.jsonl")
    assert len(draw5) >= 230 and {r["split"] for r in draw5} == {"chat-heldout-2"}
    assert {r["model"] for r in draw5} == {r["model"] for r in draw4}
    assert not {r["source"].rsplit("#", 1)[1] for r in draw4} & {r["source"].rsplit("#", 1)[1] for r in draw5}
    assert not {r["question"] for r in draw4} & {r["question"] for r in draw5}
    sheet = bench.load("refusal_chat_sheets/chat-heldout-2.jsonl")
    import hashlib

    # the ids make_refusal_real.sheet_id gives
    assert sorted(r["id"] for r in sheet) == sorted(hashlib.sha256(r["source"].encode()).hexdigest()[:12] for r in draw5)
    assert all(r["label"] is None for r in sheet)


def test_goals_on_the_tuning_split_and_held_out_reported(capsys):
    figures = _figures()
    assert figures[f"refusal/{TUNE}"]["rate"] >= 0.97
    assert figures[f"multiple_choice/{TUNE}"]["rate"] >= 0.99
    # Floors, not goals; the floor catches a regression without tuning on the held-out split.
    # heldout-9 measured 486/495 = 98.2% once, after round 9 (goal 99%: not met).
    # real-heldout-2 measured 727/732 = 99.3% once, after round 11; refusal real-heldout-3
    # 224/230 = 97.4% once, after round 3; refusal chat-heldout 218/240 = 90.8% once, after the chat
    # round (goal 97%: not met), with false refusals on hedged answers 7/87 (goal under 2%: not met);
    # the second chat round then tuned on both chat splits (with the question): both are floors here.
    assert figures[f"multiple_choice/{REAL_TUNE}"]["rate"] >= 0.99
    assert figures[f"refusal/{REAL_TUNE}"]["rate"] >= 0.98
    assert figures["refusal/chat-tune"]["rate"] >= 0.97 and figures["refusal/chat-heldout"]["rate"] >= 0.97
    for key, ceiling in (("refusal/chat-tune", 0.03), ("refusal/chat-heldout", 0.04)):
        false_refusals, hedged = figures[key]["hedged_false_refusals"]
        assert hedged >= 70 and false_refusals / hedged <= ceiling, key
    # chat-heldout-2 (draw 5, never tuned on) measured once after chat round 2 was frozen: 235/252 =
    # 93.3% with the question (goal 97%: not met), false refusals on hedged answers 5/105 = 4.8%
    # (goal under 2%: not met). A floor and a ceiling, not goals.
    f = figures["refusal/chat-heldout-2"]
    print(f"refusal/chat-heldout-2: {f['agree']}/{f['n']} = {f['rate']:.1%} (naive {f['naive_rate']:.1%})")
    assert f["n"] >= 230 and f["rate"] >= 0.92 and f["rate"] > f["naive_rate"] + 0.2
    false_refusals, hedged = f["hedged_false_refusals"]
    assert hedged >= 100 and false_refusals / hedged <= 0.05
    # chat-heldout-3 (draw 6, MTRAG) measured once before chat round 3: 249/273 = 91.2% (false refusals on
    # hedged answers 3/87); round 3 then tuned on it: a floor and a ceiling (round 6 moved one hedged
    # answer, whose "However, it focuses on ..." is now evidence, to a refusal: 262/273, 4/87).
    f = figures[f"refusal/{CHAT_HELDOUT3}"]
    assert f["n"] >= 250 and f["rate"] >= 0.955
    false_refusals, hedged = f["hedged_false_refusals"]
    assert hedged >= 80 and false_refusals / hedged <= 0.05
    # chat-heldout-4 (draw 7, never tuned on) measured once after chat round 3 was frozen at 4084d30:
    # 109/116 = 94.0% (goal 97%: not met; 104/116 before round 3), no hedged answer read as a refusal
    # (0/3: too few to judge that goal). A floor, not a goal.
    f = figures[f"refusal/{CHAT_HELDOUT4}"]
    assert f["n"] >= 110 and f["rate"] >= 0.93
    # chat-heldout-5 (draw 8, passage QA) measured once after chat round 4: 220/264 = 83.3% (goal
    # 97%: not met); rounds 5 and 6 then tuned on it: a floor.
    f = figures[f"refusal/{CHAT_HELDOUT5}"]
    assert f["n"] >= 250 and f["rate"] >= 0.96
    # chat-heldout-6 (draw 9) measured once after chat round 5 was frozen at 6161be6: 241/264 = 91.3%
    # (goal 97%: not met; 206/264 before round 5); round 6 then tuned on it: a floor, not a goal.
    f = figures[f"refusal/{CHAT_HELDOUT6}"]
    assert f["n"] >= 250 and f["rate"] >= 0.96
    # Draws 10-13, each measured once with the round before it frozen, then tuned on (but draw 13):
    # draw 10 (chat-heldout-7) after round 6 (a793735): 251/264 = 95.1% (242/264 before round 6), false
    # refusals on hedged answers 3/39; draw 11 (chat-heldout-8) after round 7 (63b9d9d): 362/377 = 96.0%,
    # 7/58; draw 12 (chat-heldout-9) after round 8 (7b00799): 427/445 = 96.0%, 7/78; draw 13
    # (chat-heldout-10) after round 9 (02e7720): 413/443 = 93.2% (passage QA 253/264, MTRAG's unanswerable
    # turns 160/179), 6/71. Draw 14 (chat-heldout-11, passage QA again), drawn and labelled blind after
    # the learned reader's second version was trained and measured once with it: 256/262 = 97.7%
    # (rules alone the same, naive 82.1%), false refusals on hedged answers 3/19: the 97% goal met on
    # it, the hedged one (under 2%) not. Draw 15 (chat-heldout-12), drawn to measure that hedged goal
    # with more than 19 answers (passage QA again, only replies with a negation word), labelled blind
    # (two readers agreed on 293/298) and measured once with the same reader (a72578d): 274/298 = 91.9%
    # (rules alone 91.6%, model alone 90.9%, naive 59.1%), false refusals on hedged answers 14/87 = 16.1%.
    # Draw 16 (chat-heldout-13), drawn the same way and labelled blind (252/256 agreed) before the round
    # that trained on draws 15 and 17 (chat-tune-17, 538 more of them), measured once after it:
    # 236/256 = 92.2% (88.2-94.9%; rules alone 89.8%, model alone 87.1%, naive 63.3%), false refusals on
    # hedged answers 11/57 = 19.3% (the reader before the round: 234/256, 13/57). Draws 15 and 17 are
    # training figures now. The encoder (refusal_encoder.py, trained on every set but MODEL_HELDOUT) then
    # joined the reader, breaking ties between the rules and the linear model: draw 14 254/262 =
    # 96.9% (hedged 4/19), draw 16 238/256 = 93.0% (hedged 7/57); every other chat draw is now a
    # training figure of the encoder (99-100%). Floors and ceilings, not goals:
    # (split, rows at least, floor, lead over the naive reading, hedged answers at least, their ceiling)
    for split, least, floor, lead, least_hedged, ceiling in (
            (CHAT_HELDOUT7, 250, 0.95, 0.2, 30, 0.08), (CHAT_HELDOUT8, 370, 0.955, 0.15, 50, 0.13),
            (CHAT_HELDOUT9, 440, 0.955, 0.15, 70, 0.10), (CHAT_HELDOUT10, 440, 0.93, 0.12, 70, 0.09),
            (CHAT_HELDOUT11, 260, 0.965, 0.14, 15, 0.22), (CHAT_HELDOUT12, 290, 0.915, 0.3, 80, 0.17),
            (CHAT_HELDOUT13, 250, 0.925, 0.25, 50, 0.13), (CHAT_TUNE17, 530, 0.94, 0.15, 90, 0.22)):
        f = figures[f"refusal/{split}"]
        assert f["n"] >= least and f["rate"] >= floor and f["rate"] > f["naive_rate"] + lead, split
        false_refusals, hedged = f["hedged_false_refusals"]
        assert hedged >= least_hedged and false_refusals / hedged <= ceiling, split
    # the README's warning quotes the last blind draw's hedged false refusals: it must be this figure
    false_refusals, hedged = figures[f"refusal/{CHAT_HELDOUT13}"]["hedged_false_refusals"]
    readme = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8").split())
    assert f"({false_refusals}/{hedged} on the last set, draw 16)" in readme
    from evaluator.scoring.refusal import HEDGED_MISREAD       # what a run's header quotes
    assert HEDGED_MISREAD == {"misread": false_refusals, "of": hedged, "set": "draw 16"}
    for key, floor in ((f"refusal/{REFUSAL_HELDOUT}", 0.9), (f"multiple_choice/{MC_HELDOUT}", 0.975),
                       (f"multiple_choice/{MC_REAL_HELDOUT}", 0.99), (f"refusal/{REFUSAL_REAL_HELDOUT}", 0.96)):
        f = figures[key]
        print(f"{key}: {f['agree']}/{f['n']} = {f['rate']:.1%} (naive {f['naive_rate']:.1%})")
        # (the real refusal draws are stratified on the naive cue, so it reads them well too)
        assert f["rate"] >= floor and f["rate"] > f["naive_rate"] + (0.05 if "real" in key else 0.2)


def test_hand_written_chat_and_vlm_replies_are_blind_sets_measured_once():
    """The chat/VLM set (issue 23, item 6: replies written the way chat assistants and VLMs phrase them):
    70 probes written for round 10, then sets written blind by writers who saw only the labelling
    guide, each labelled again by a blind reader, measured once after the round before it was frozen
    (vlm-heldout 116/160 = 72.5% after round 10, vlm-heldout-2 167/200 = 83.5% after round 11,
    vlm-heldout-3 167/200 = 83.5% after round 12, vlm-heldout-4 172/200 = 86.0% after round 13,
    vlm-heldout-5 170/200 = 85.0% after round 14, vlm-heldout-6 164/200 = 82.0% after round 15, all
    the phrase rules'; then the learned model trained on all six). vlm-heldout-7 is held out from
    the learned model: 190/200 = 95.0% with the first combination (a5db0d7), 183/200 = 91.5% with the
    override (084a14e; rules alone 159/200). vlm-heldout-8, written after the reader shipped (807e720),
    measured once: 189/200 = 94.5% (rules alone 149/200 = 74.5%). vlm-heldout-9, written after the
    retraining with off-topic replies (ea7e3a6), measured once: 186/200 = 93.0% (rules alone 142/200
    = 71.0%). vlm-heldout-10, written before the retraining with minimal pairs and features version
    2 and measured once after it: 196/200 = 98.0% (rules alone 157/200 = 78.5%; hedged false refusals
    0/16); one of its rows repeats a written-12 row word for word, dropped from training since (the
    retrained reader reads it the same, and vlm-heldout-7 to -9 192, 188 and 190/200). vlm-heldout-11,
    written after that retraining, measured once: 193/200 = 96.5% (rules alone 158/200 = 79.0%; false
    refusals 0/100; declines missed 7/100); one of its rows repeats a written-10 row, dropped from
    training since (the retrained reader reads every blind set the same). With the encoder
    (refusal_encoder.py, trained without vlm-heldout-7 to -11): 196, 197, 195, 198 and 199/200.
    Floors, not goals: the rules' figure on the sets the model trained on, the reader's (as shipped)
    on the held-out ones."""
    rows = load(REFUSAL_VLM_FILE)
    assert {r["split"] for r in rows} == set(VLM_SPLITS) == set(SPLITS[REFUSAL_VLM_FILE])
    for split, n in zip(VLM_SPLITS, (70, 160, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200)):
        part = [r for r in rows if r["split"] == split]
        assert len(part) == n and all(isinstance(r["refusal"], bool) and r["question"] and r["text"] for r in part)
        if split != VLM_SPLITS[0]:
            assert all(r["labelled_by"] and r["setting"] in ("image", "video", "pdf", "history") for r in part)
            assert 0.4 < sum(r["refusal"] for r in part) / n < 0.6, split       # both kinds present
    assert len({(r["question"], r["text"]) for r in rows}) == len(rows)
    figures = _figures()
    for split, floor, rules_floor in zip(VLM_SPLITS, (0.97, 0.96, 0.90, 0.90, 0.94, 0.92, 0.82, 0.955, 0.94, 0.95, 0.98, 0.965),
                                         (0.97, 0.96, 0.90, 0.90, 0.94, 0.92, 0.82, 0.79, 0.74, 0.71, 0.785, 0.79)):
        f = figures[f"refusal/{split}"]
        print(f"refusal/{split}: {f['agree']}/{f['n']} = {f['rate']:.1%}, rules {f['rules_rate']:.1%} "
              f"(naive {f['naive_rate']:.1%})")
        assert f["rules_rate"] >= rules_floor and f["rate"] >= floor and f["rate"] > f["naive_rate"] + 0.15, split
        assert f["model_trained_on"] is (split not in MODEL_HELDOUT)
        false_refusals, hedged = f["hedged_false_refusals"]
        assert false_refusals <= (2 if split in MODEL_HELDOUT else 1), split


def test_the_learned_reader_read_each_fresh_set_held_out():
    """The written sets (refusal_written_labels.jsonl: 24 writers, 200 replies each, four settings,
    both labels; writers 31-32's answers are off-topic replies), the minimal pairs and the held-out
    figures the trainer measured on them: each set read by a model trained without it, with
    override thresholds chosen without it (refusal_model.json). The 26 sets none of which any round
    of rules was tuned on (5,441 rows; the written-12 and written-10 rows that vlm-heldout-10 and -11
    repeat are no longer trained on): rules 75.0%, model 93.7%, reader 92.0%, false refusals 76/2,784
    (before draws 15 and 17 joined: 92.3%, 74/2,784; version 1, on 5,443: 91.9%, 93/2,785). The 27
    minimal-pair sets (5,400 rows): rules 71.5%, model 91.0%, reader 87.2%. Draws 15 and 17 (836 real
    replies with a negation word): rules 91.1%, model 89.8%, reader 92.2%, false refusals 48/225.
    Floors, not goals."""
    rows = load(REFUSAL_WRITTEN_FILE)
    assert {r["split"] for r in rows} == set(WRITTEN_SPLITS) == set(SPLITS[REFUSAL_WRITTEN_FILE])
    for split in WRITTEN_SPLITS:
        part = [r for r in rows if r["split"] == split]
        assert len(part) == 200 and 0.45 <= sum(r["refusal"] for r in part) / 200 <= 0.55, split
        assert {r["setting"] for r in part} == {"image", "video", "pdf", "history"}
    # short replies recur across writers ("No.", "Three.", once with its question too); never with
    # two labels
    labels = {}
    for r in rows:
        assert labels.setdefault((r["question"], r["text"]), r["refusal"]) == r["refusal"], r["text"]
    assert len(labels) >= len(rows) - 5
    held = _bench().held_out_by_writer()
    assert set(held["groups"]) == {
        f"{name}:{split}" for name in REFUSAL_FILES for split in SPLITS[name] if split in RULES_FRESH}
    sets, pairs, negated = held["sets"], held["pairs"], held["negated"]
    assert sets["rows"] == 5441 and pairs["rows"] == 5400 and negated["rows"] == 836
    assert sets["combined_held_out"] / sets["rows"] >= 0.92 and sets["model_held_out"] / sets["rows"] >= 0.935
    assert sets["false_refusals"] / sets["answers"] <= 0.03
    assert sets["combined_held_out"] > sets["rules"] + 0.15 * sets["rows"]
    assert pairs["combined_held_out"] / pairs["rows"] >= 0.87 and pairs["model_held_out"] / pairs["rows"] >= 0.90
    assert pairs["combined_held_out"] > pairs["rules"] + 0.12 * pairs["rows"]
    assert negated["combined_held_out"] / negated["rows"] >= 0.915 and negated["combined_held_out"] > negated["rules"]


def test_the_minimal_pairs_are_pairs():
    """refusal_pairs_labels.jsonl: 28 writers, 100 questions each, two replies per question that read
    alike and both say something is missing or uncertain, one answering (another detail is missing)
    and one declining (the asked thing is); writer 46's set is held out of the learned model."""
    rows = load(REFUSAL_PAIRS_FILE)
    assert {r["split"] for r in rows} == {*PAIR_SPLITS, PAIRS_HELDOUT} == set(SPLITS[REFUSAL_PAIRS_FILE])
    assert PAIRS_HELDOUT in MODEL_HELDOUT and not set(PAIR_SPLITS) & set(MODEL_HELDOUT)
    for split in (*PAIR_SPLITS, PAIRS_HELDOUT):
        part = [r for r in rows if r["split"] == split]
        assert len(part) == 200, split
        for a, b in zip(part[::2], part[1::2]):
            assert a["question"] == b["question"] and a["refusal"] != b["refusal"], (split, a["id"])
    assert len({(r["question"], r["text"]) for r in rows}) == len(rows)


def test_issue_examples():
    from evaluator.scoring import extract_choice, is_refusal

    for text in ("I have no idea.", "I can't remember.", "I cannot recall that.", "It isn't mentioned.",
                 "You never told me that.", "That wasn't discussed.", "I don't have any record of that.",
                 "I'm not aware of that.", "The information provided is incomplete.",
                 "I don't know, though."):
        assert is_refusal(text), text
    for text in ("She was not sure about the job...", "The results were unclear...",
                 "The cause is unknown to her doctor..."):
        assert not is_refusal(text), text
    options = {"A": "red", "B": "blue", "C": "green"}
    for reply in ("B is correct.", "B is the answer.", "I choose B.", "I'd go with B",
                  "B, because the photo showed it.", "B, not red", "The answer is (B)", "**B**",
                  "Option B: blue", "B) blue", "answer: b", "blue"):
        assert extract_choice(reply, options) == "B", reply
    assert extract_choice("A or B", options) is None


def test_capital_a_mid_sentence_is_a_letter_and_torn_between_is_two_candidates():
    from evaluator.scoring import extract_choice

    options = {"A": "red", "B": "blue", "C": "green"}
    assert extract_choice("Looks like A to me.", options) == "A"
    assert extract_choice("I'd say A today.", options) == "A"
    assert extract_choice("A photo you sent showed blue.", options) == "B"    # sentence start: article
    assert extract_choice("You sent it. A photo showed blue.", options) == "B"
    for reply in ("I'm torn between B and A.", "I'm torn between (B) and (C)", "Between A and C, hard to say."):
        assert extract_choice(reply, options) is None, reply


def test_elimination_marks_tables_letter_lists_and_capitals_in_words():
    from evaluator.scoring import extract_choice

    options = {"A": "red", "B": "blue", "C": "green", "D": "pink"}
    for reply, expected in (
            ("C is wrong, so B.", "B"), ("After ruling out A, B remains.", "B"),
            ("I'd exclude D; that leaves B.", "B"), ("C can't be it. B.", "B"),
            ("B ✔️", "B"), ("❌ A\n✅ B", "B"), ("B ✓, D ✗", "B"),
            ("| Letter | Fits |\n|---|---|\n| A | false |\n| B | true |", "B"),
            ("| Letter | Fits |\n|---|---|\n| A | ✘ |\n| B | ☑ |", "B"),
            ("Answer: B, D", None), ("B/C", None), ("B; C", None), ("B? D? Unclear.", None),
            ("✓ B ✓ C", None),
            ("A B-side record? You said blue.", "B"), ("Per the D.A.'s note, blue.", "B"),
            ("You told Mr. C. Jones it was blue.", "B"), ("At the B&B you said blue.", "B"),
            # round 4: a verb after a sentence-initial "A", the answer label decides between named
            # letters, a former value is not chosen, capitals that name things
            ("D is out. A does.", "A"), ("Option C says pink; option B fits. Answer: B", "B"),
            ("Option C says pink; option B fits.", None), ("C. (D was before you changed it.)", "C"),
            ("D used to be right, but now C.", "C"),
            ("You took vitamin D and said blue.", "B"), ("As a grade A student you said blue.", "B")):
        assert extract_choice(reply, options) == expected, reply


def test_the_fast_path_never_changes_a_verdict(monkeypatch):
    import re

    from evaluator.scoring import refusal

    chat = (REFUSAL_CHAT_FILE, REFUSAL_CHAT_HELDOUT_FILE)
    texts = [r["text"] for name in (REFUSAL_FILE, REFUSAL_REAL_FILE, *chat) for r in load(name)]
    texts += [r["reply"] for r in load(MC_FILE)]
    asked = [(r["text"], r["question"]) for name in (REFUSAL_REAL_FILE, *chat) for r in load(name)]
    fast = [refusal.rules_verdict(t) for t in texts] + [refusal.rules_verdict(t, q) for t, q in asked]
    refusal._is_refusal_text.cache_clear()
    monkeypatch.setattr(refusal.rules, "TRIGGER", re.compile(""))       # matches everything
    slow = [refusal.rules_verdict(t) for t in texts] + [refusal.rules_verdict(t, q) for t, q in asked]
    refusal._is_refusal_text.cache_clear()
    assert fast == slow


def test_round5_reasoning_replies_answer_fields_and_names():
    from evaluator.scoring import extract_choice

    options = {"A": "red", "B": "blue", "C": "dark red", "D": "green"}
    for reply, expected in (
            # a reasoning block is skipped when an answer follows it, read when nothing does
            ("<think>A? No.</think> B", "B"), ("<think>A or D... you said blue.</think>\n\n**B**", "B"),
            ("You repainted it, so B.</think>\n\nB) blue", "B"), ("<think>\nYou said blue, so B.\n</think>", "B"),
            # explicit answer fields win over letters in the reasoning
            ('{"reasoning": "A is outdated", "answer": "B"}', "B"), ("{'answer': 'B) blue'}", "B"),
            ('{"answer": null}', None), ('{"answer": "A or B"}', None),
            ("A is outdated, so the answer is \\boxed{B}.", "B"), ("$\\boxed{\\text{(B)}}$", "B"),
            # conclusions and revisions: the last committed statement wins over earlier hypotheses
            ("A seems plausible, but you later said blue. Therefore, B.", "B"),
            ("You first said red (A), then blue. So B.", "B"), ("A or D? You said blue, so B.", "B"),
            ("Answer: A. Actually, wait - you changed it. Answer: B.", "B"),
            ("It's A... wait, no. You said blue later. B.", "B"), ("So A or B.", None),
            # rejections: answered questions, negated verbs, contradictions, lists, checkboxes
            ("A? No. B? Yes.", "B"), ("I wouldn't choose A. I'd choose B.", "B"),
            ("I don't think it's A. It's B.", "B"), ("A contradicts what you said, so B.", "B"),
            ("Answer: B. C and D were never mentioned.", "B"), ("Not A or C. It's B.", "B"),
            ("[x] B\n[ ] A", "B"), ("A - no\nB - yes", "B"),
            # capitals that are words or names
            ("You said blue after the B-52s concert.", "B"), ("Blue, the week of your C++ exam.", "B"),
            ("Blue, right after your A+ essay.", "B"), ("Blue; I remember it from Room D.", "B"),
            # option text: spans, former values, questions back
            ("Both red and dark red seem right.", None), ("It's dark red, not red.", "C"),
            ("It was red at first, but now it's blue.", "B"), ("Was it blue?", None),
            ("Could it be A?", None), ("Is it A? Or maybe B?", None), ("I'd say A... or maybe B?", None)):
        assert extract_choice(reply, options) == expected, reply


def test_round6_the_final_committed_statement_is_the_answer():
    from evaluator.scoring import extract_choice

    options = {"A": "red", "B": "blue", "C": "dark red", "D": "green"}
    for reply, expected in (
            # a later revision or a statement of the present state supersedes an earlier one
            ("My first instinct was D. However, you told me blue, so I'm changing my answer to B.", "B"),
            ("Answer: A. Hmm, I'll revise that to B.", "B"), ("Answer: A, but actually B.", "B"),
            ("A is correct by your first message, but the answer is B.", "B"),
            ("A would have been true last year, but not anymore. Right now it's B.", "B"),
            ("It was A, but now it's B.", "B"), ("Originally D; currently B.", "B"), ("Earlier A, now B.", "B"),
            ("Your older message points to A, but your latest one points to B.", "B"),
            ("B is current. Before that it was A.", "B"), ("A, or rather B.", "B"),
            ("A was the case a while ago. Today it's B.", "B"), ("D is no longer true; B is.", "B"),
            # ... but two answers asserted alike, or one offered as an alternative, read None
            ("A is correct, but B is also correct.", None), ("The answer is B, but D might be right too.", None),
            ("Hmm, maybe A? Honestly it could also be B or even something else.", None),
            # a letter in a condition states nothing; a conclusion word does not commit to it
            ("So, if it's A, then you'd have said red. You said blue, so B.", "B"),
            ("If it were D, you would have mentioned green. It's B.", "B"), ("So, if it's D, then it depends.", None),
            ("If I had to pick one, I'd say B.", "B"),
            # question-style hedges state nothing; a list put as a question is considered, not asserted
            ("Maybe B?", None), ("B, I guess?", None), ("B? I'm not sure.", None), ("Blue, I guess? Or maybe red.", None),
            ("A, B, or C? B.", "B"), ("Probably B.", "B"), ("B, I think.", "B"),
            # option text: the latest statement wins
            ("You mentioned red, but later blue.", "B"), ("It used to be green. Now it's blue.", "B"),
            # contracted "is", initials, verdicts after the option's text
            ("B's the answer.", "B"), ("I'd say B's the right one; A's outdated.", "B"),
            ("A. Smith told you it was blue.", "B"), ("You told D. Jones it was blue.", "B"),
            ("B. Definitely.", "B"), ("A) red – outdated\nB) blue – correct\nC) dark red – no", "B"),
            # JSON read by its structure: the shallowest answer field, objects read through
            ('{"answer": "B", "considered": [{"option": "A", "verdict": "outdated"}]}', "B"),
            ('{"result": {"answer": "B"}}', "B"), ('{"answer": {"letter": "B", "text": "blue"}}', "B"),
            ('{"answer": {"text": "blue"}}', "B"), ('{"answer": {"letter": null}}', None)):
        assert extract_choice(reply, options) == expected, reply


def test_round7_other_scripts_short_replies_evidence_and_opening_answers():
    from evaluator.scoring import extract_choice

    options = {"A": "red", "B": "blue", "C": "dark red", "D": "green"}
    for reply, expected in (
            # letters touching other scripts, full-width forms, answer words of other languages
            ("答案是B。", "B"), ("答案：Ｂ", "B"), ("答案是（B）。", "B"), ("B选项正确。", "B"), ("我选B。", "B"),
            ("不是A，是B。", "B"), ("排除A，选B。", "B"), ("不确定是A还是B。", None), ("答えはBです。", "B"),
            ("AではなくBです。", "B"), ("정답은 B입니다.", "B"), ("Ответ: B", "B"), ("Не A, а B.", "B"),
            ("الإجابة: B", "B"), ("Respuesta: B", "B"), ("No es A, es B.", "B"), ("Ce n'est pas A, c'est B.", "B"),
            ("Nicht A, sondern B.", "B"), ("The answer is Ｂ.", "B"), ("（B）blue", "B"),
            # very short lower-case replies; a question mark still hedges
            ("i think b", "B"), ("ans: b", "B"), ("prob b", "B"), ("not a, b", "B"), ("b lol", "B"),
            ("b?", None), ("b or c idk", None),
            # evidence verbs commit; negated they reject; "only B" singles one out
            ("Between C and B, the chat supports B: you said blue. C is never mentioned.", "B"),
            ("Of A and B, only B fits what you said.", "B"), ("Nothing in the chat supports A; it's B.", "B"),
            ("Your message doesn't match A. B.", "B"),
            # a letter asked about and answered no stays rejected; a letter described by its own text is
            # named, not chosen
            ("Let me think. Was it D? I don't think so: D is green, and you never said that. It was B.", "B"),
            ("Is it A? Definitely not. A would mean red. It's B.", "B"),
            # uncertainty over a list, conditions after a letter
            ("I'm not sure whether it's D or A.", None), ("I can't tell if it's A or B.", None),
            ("I don't know whether A or B is right.", None), ("Depends: A if you mean last year, B if you mean now.", None),
            ("I wasn't sure whether it was A or B, but you said blue, so B.", "B"), ("B, if I had to guess.", "B"),
            ("I'd say D, but honestly B is just as likely.", None),
            # an opening answer followed by reasoning that names other letters (not a walk through the list)
            ("B. You told me blue last week. A would mean red, which you never said.", "B"),
            ("**B**. Here's why: you said blue. Option A refers to red, which you never mentioned.", "B"),
            ("A: you mentioned red once. B: you said blue later. So B.", "B"),
            ("- A – not mentioned\n- B – you said blue\n\n**B**", "B"),
            # markdown headings, sign-offs, quotes, ordinals, a letter closing the reply after a colon
            ("### Reasoning\nYou said blue.\n\n### Answer\nB", "B"), ("The answer is B. Hope this helps!", "B"),
            ("A 👍", "A"), ("The answer is 'B'.", "B"), ("It’s ‘B’.", "B"), ("I'd pick the second option.", "B"),
            ("The last option is correct.", "D"), ("The options are A (red) and B (blue). You said blue: B.", "B"),
            # lists then a decision; capitals that are not letters
            ("I considered A and B. B fits better.", "B"), ("Either A or B - and since you said blue, it's B.", "B"),
            ("Either A or B; I'd need more context.", None), ("I'd answer B; A is a distractor.", "B"),
            ("B. J. told you it was red.", "A"), ("Answer: N/A", None), ("A, and also B.", None)):
        assert extract_choice(reply, options) == expected, reply


def test_round8_rejecting_labels_set_aside_hypotheses_pairs_and_names():
    from evaluator.scoring import extract_choice

    options = {"A": "red", "B": "blue", "C": "dark red", "D": "green"}
    for reply, expected in (
            # a rejecting label, a hypothesis set aside (the speaker's earlier one, or someone else's)
            ("Correct Answer: B\nIncorrect Answers: C", "B"), ("Correct: B\nWrong: A", "B"),
            ("C's wrong — B.", "B"), ("I was about to say D, but no, that's wrong. It's B) blue.", "B"),
            ("I initially considered A, but B matches what you said.", "B"),
            ("At first glance C, but on closer reading B.", "B"), ("You might think A, but it's B.", "B"),
            ("Some might pick A. I pick B.", "B"),
            # a lower-case letter after a label with a verb; "A" before a bracket or a hedge word
            ("option b fits", "B"), ("A (confidence: 0.9)", "A"), ("A for sure.", "A"),
            # chat-template tokens, "the second one", abbreviations and compound names
            ("B<|eot_id|>", "B"), ("The answer is B.<|im_end|>", "B"), ("The second one.", "B"),
            ("You were telling me about it after your Ph.D. defense: blue.", "B"),
            ("It's B. (You told me this during the A/B testing chat.)", "B"),
            ("Between A and B, B fits better.", "B"),
            # option texts: a conclusion decides, a first value is superseded
            ("You mentioned blue early on, but then you said you'd settled on dark red. So the answer is dark red.", "C"),
            ("You first said red, then you settled on blue. So blue.", "B"),
            # two options asserted in any phrasing read None
            ("I'd pick B as well as C.", None), ("A + B", None), ("A+C", None), ("A along with B.", None),
            ("A together with D.", None), ("A — and C as well.", None),
            ("A) red and B) blue are both true.", None), ("A/B both fit.", None),
            # "+" after a letter with no letter following is still part of a word
            ("You got an A+ on it and said blue.", "B"),
            # more rejections: "a trick", "no longer applies", "rules out", "scratch", "unlike", "thought
            # about", "one might argue for"; names of places ("Area C", "Lot A"); a question after a dash
            ("A is a trick; B.", "B"), ("C no longer applies — you changed it. B.", "B"),
            ("The chat rules out A; B it is.", "B"), ("Scratch A. B.", "B"), ("Unlike A, B matches.", "B"),
            ("I thought about A, but went with B.", "B"), ("One might argue for A, but B is the better fit.", "B"),
            ("I think B — you mentioned it on your trip to Area C.", "B"), ("B. You were parked in Lot A.", "B"),
            ("B. Want me to remind you of the details?", "B"), ("Remind me — was it blue?", None),
            # a runner-up is not chosen; a sentence opening with "Or" offers an alternative
            ("B, with C as a distant second.", "B"), ("A. Or B. I don't know.", None),
            ("A gets it.", "A"), ("A all the way.", "A")):
        assert extract_choice(reply, options) == expected, reply
    # a thinking lead-in does not hide a refusal (with Yes/No options, "no" is not the answer)
    assert extract_choice("Let me think... no, I really don't know.", {"A": "Yes", "B": "No"}) is None


def test_round9_glued_letters_names_peers_and_later_rejections():
    from evaluator.scoring import extract_choice

    options = {"A": "red", "B": "blue", "C": "dark red", "D": "green"}
    for reply, expected in (
            # a letter glued to its own option's text; other glued capitals stay word parts
            ("B.blue", "B"), ("B:blue", "B"), ("B-blue", "B"), ("(B)blue", "B"), ("B|blue", "B"),
            ("The answer is B.blue", "B"), ("<B>", "B"), ("'A'", "A"), ("D.C. was where you said blue.", "B"),
            # a commitment stands when a later sentence rejects or sets aside another letter
            ("You said blue. That's B. I don't see anything supporting A.", "B"), ("It's B. A never came up.", "B"),
            ("The chat says blue, which is B. A would need you to have said red.", "B"),
            ("Initially I leaned toward A, but it's clearly B.", "B"), ("Hmm, A came to mind first, but no. It's B.", "B"),
            ("The reply that matches is B; A is about a different day.", "B"), ("It's B. A is close, but no.", "B"),
            ("Cross off A. B is what's left.", "B"), ("The answer is B. There's no sign of A.", "B"),
            # capitals in names, grades, keys and things
            ("blue! You told me after your chat with Aunt A.", "B"), ("blue. That was the week of Hurricane D.", "B"),
            ("blue, you told me while your cousin A visited.", "B"), ("blue. You got an A on the exam that day.", "B"),
            ("blue. Your blood type (A positive) came up too.", "B"), ("blue. You said it on the A train.", "B"),
            # two options given the same status read None
            ("B seems possible, and so does D; the chat doesn't settle it.", None), ("B works. So does D.", None),
            ("B is plausible, as is A.", None), ("B. A as well.", None), ("B. Also D.", None),
            ("B is one possibility; D is another.", None), ("B also fits, and so does A.", None),
            ("B in one message, A in another; I can't tell which you meant.", None),
            # ... but "too" after a verb's object is no second option
            ("Answer: B. I checked A too, but it doesn't match what you said.", "B"),
            # a guess taken back, and "no" in "no idea" is not the option "No"
            ("It might be B, but I honestly don't know.", None), ("I'd guess B, but honestly I have no idea.", None)):
        assert extract_choice(reply, options) == expected, reply
    assert extract_choice("A.Yes", {"A": "Yes", "B": "No"}) == "A"
    assert extract_choice("I'd guess A, but honestly I have no idea.", {"A": "Yes", "B": "No"}) is None
    assert extract_choice("| Option | Verdict |\n|---|---|\n| B | no |\n| A | yes |", {"A": "Yes", "B": "No"}) == "A"


def test_round10_real_reasoning_replies():
    """Forms that real replies to MMMU-Pro (tests/data/mc_real_labels.jsonl, real-tune) showed, as
    general rules: TeX formulas name variables, not options; the letters inside an option's own
    text are that text; units and pronouns are no letters."""
    from evaluator.scoring import extract_choice

    ten = {chr(65 + i): f"{10 * (i + 1)} kN" for i in range(10)}        # A..J, as MMMU-Pro's
    for reply, expected in (
            # a letter in maths counts only where it is stated as the answer
            ("The force \\(F\\) acts on the area \\(A\\), so \\(F = pA\\) = 35 kN.", None),
            ("Points \\( A \\) and \\( B \\) differ by 0 m.\n\nAnswer: \\( \\text{(H)} \\)", "H"),
            ("We take $h_{AB}$ and $F_{total}$ from the figure.\n\nAnswer: $C$", "C"),
            ("Area \\(A\\) is the area of the panel, and \\[ F = \\rho g A \\bar{h} \\]", None),
            ("Using \\[ F_{\\text{total}} = \\rho g A", None),                    # cut off inside maths
            ("Hence the answer is $$\\boxed{\\text{Option }D}$$", "D"),
            ("It costs $5 and option C $6, so C is correct.", "C"),
            # a pronoun after a conclusion word, a unit
            ("Therefore, I made a mistake somewhere; the closest value is 40 kN.\n\nAnswer: D", "D"),
            ("The tape was standardised at 30 °C and used at 50 °C.", None),
            ("The interval C to E is a major third; C♯ to E is one semitone smaller.\n\nAnswer: A", "A"),
            # a conclusion heading labels the answer that follows it
            ("| Grade | Count |\n| A | 7 |\n| B | 4 |\n\n**Conclusion:**\n\n**J. 100 kN**", "J")):
        assert extract_choice(reply, ten) == expected, reply
    # the letters of an option's own text are that text, not a second choice
    orders = {"A": "C, D, A, B", "B": "B, D, A, C", "F": "B, A, D, C"}
    assert extract_choice("F. B, A, D, C", orders) == "F"
    # an option whose text is "(a)": "(a)" in the reply is that text, not the letter A
    figures = {"A": "(c)", "B": "(a)", "C": "(d)"}
    assert extract_choice("Only (a) shows one kind of particle.\n\nAnswer: B", figures) == "B"
    # the whole text of an option after "Answer:", without its letter
    trees = {"A": "$EKBCFGDH_A$", "B": "$EDBCFGKH_A$"}
    assert extract_choice("Edges (B, D, -2), (A, C, -10) first.\n\nAnswer: $EDBCFGKH_A$", trees) == "B"


def test_a_long_reasoning_reply_is_read_in_linear_time():
    """Every pattern that reads the words before a letter searches a bounded window, so a long reply
    costs in proportion to its length (it used to be quadratic: 1.5 s for one 5 KB reply)."""
    import time

    from evaluator.scoring import extract_choice

    options = {chr(65 + i): f"value {i}" for i in range(10)}
    step = "Consider point B and the force F on area A; so the load at C is not D. "

    def cost(n):
        reply = step * n + "\n\nSo the answer is E."      # (no final "Answer:" line, which is read first)
        t0 = time.perf_counter()
        assert extract_choice(reply, options) == "E"
        return time.perf_counter() - t0

    cost(5)
    small, large = min(cost(20) for _ in range(3)), min(cost(160) for _ in range(3))
    assert large < 20 * small, (small, large)          # 8x the text; quadratic would be ~64x


def test_round11_final_answer_line_closest_and_conclusions():
    """Round 11, from the first real held-out half once it had been measured: the last line's
    "Answer: X" (the format reasoning prompts ask for) decides; "B is the closest" commits; a
    conclusion after the working supersedes an opening claim; "impossible to choose" after
    unlabelled letters, and "Answer: None of the above", name none."""
    from evaluator.scoring import extract_choice

    ten = {chr(65 + i): f"{10 * (i + 1)} kN" for i in range(10)}
    for reply, expected in (
            ("Therefore, the answer is option G.\nAnswer:C", "C"),
            ("A. 20 kN\nAnswer: C", "C"),
            ("So, the correct order is C, B, A, D.\n\nAnswer: (F) 60 kN", "F"),
            ("The closest answer is option G, but it is not the correct answer.\n\nAnswer: None of the above", None),
            ("Answer: B\nAnswer: A", None),                                   # two answer lines
            ("None of the given options match, but **B. 20 kN** is the closest.", "B"),
            ("The correct answer is B. 20 kN.\n\nWorking: 63 - 12 - 51 = 0.\n\nTherefore, the value is 0, which "
             "corresponds to option E.", "E"),
            ("The speed of sound (a) follows from the table. Without more data it's impossible to choose the "
             "correct answer from the options.", None),
            ("So the answer is (C) 30 kN, clockwise.", "C"),
            ("The change in the field (Δ B) is 0.4 T, so Δ B = 0.4 T.\n\nSo the answer is (C) 30 kN.", "C"),
            ("I\n\nGarlic and onions share a strong aroma.", "I")):
        assert extract_choice(reply, ten) == expected, reply
    # an option whose text is "None of the above" is chosen by its text
    assert extract_choice("Answer: None of the above", {"A": "1", "B": "None of the above"}) == "B"


def test_the_mmmu_pro_reference_reads_as_mmmu_pro_published():
    """The bench's re-implementation of MMMU-Pro's reader gives the letter MMMU-Pro itself
    published for each GPT-4o reply ("mmmu_pro_read"), wherever that reader did not fall back to a
    random guess (two different seeds agree)."""
    import random

    bench = _bench()
    rows = [r for r in load(MC_REAL_FILE) if "mmmu_pro_read" in r]
    assert len(rows) >= 200
    checked = 0
    for r in rows:
        first = bench.mmmu_pro_choice(r["reply"], r["options"], random.Random(0))
        if first != bench.mmmu_pro_choice(r["reply"], r["options"], random.Random(1)):
            continue                      # its random fallback
        assert first == r["mmmu_pro_read"], r["source"]
        checked += 1
    assert checked >= 0.95 * len(rows)


def test_refusals_in_the_terse_style_of_a_memory_system():
    """Real replies of mem0's answering model (tests/data/refusal_real_labels.jsonl, real-tune):
    a reduced passive declines ("No specific date mentioned."); a negative answer does not."""
    from evaluator.scoring import is_refusal

    for text in ("No specific date mentioned.", "No martial arts mentioned.", "No car accident mentioned in the memories.",
                 "None explicitly mentioned.", "No explicit disagreement found.", "No specific description found.",
                 "No mention of Rome in memories.", "No direct evidence.",
                 'The question refers to an "accident," but there is no mention of an accident in the provided '
                 "memories. Therefore, the answer cannot be determined.",
                 "No specific mentions.", "No specific activity with Melanie's dad is mentioned in the memories.",
                 "Caroline did not mention running in her memories.",
                 "The memories mention her grandma's necklace. **Answer:** No gift from grandpa is mentioned."):
        assert is_refusal(text), text
    for text in ("No, she supports the community.", "Melanie did not go camping in June.", "Never.",
                 "No problems, she said the trip went well.", "The report did not specify a cause.",
                 "No one but her sister came to the wedding.",
                 "I don't remember the exact day. Answer: in May, after the trip."):
        assert not is_refusal(text), text


def test_refusal_round3_reasons_after_no_and_empty_sources():
    """The phrase rules (`rules_verdict`; the learned model's misreadings of these are listed in
    tests/test_refusal_model.py). Round 3, from mem0's second draw once measured: a bare "No" with a third-party reason answers
    a yes/no question; the speaker or the user in the reason declines; a source that is empty or
    lacks the item declines."""
    from evaluator.scoring.refusal import rules_verdict

    for text in ("No, there is no information indicating Melanie is part of the community.",
                 "No, no mention of employees.", "No, the bowl's color isn't specified in the memories."):
        assert not rules_verdict(text), text
    for text in ("No, not specified.", "No, I don't remember.", "No, you never told me that.",
                 "No project mentioned before 23 January 2023.", "Gina says nothing specific.",
                 "Melanie's pottery class signup date is not available in the memories.",
                 "The memories for Melanie are empty, so no activities are mentioned.",
                 "Melanie has not mentioned any camping plans in the provided memories."):
        assert rules_verdict(text), text


def test_refusals_written_the_way_chat_assistants_write_them():
    """The phrase rules (`rules_verdict`; the learned model's misreadings of these are listed in
    tests/test_refusal_model.py). Issue 23 item 6: the three phrases it quotes, and replies written here in the styles of chat
    assistants and VLMs (not copied from the labelled sets): a decline is a statement that the
    information is absent, unknown or not determinable, with any subject, and no committed answer
    after it; "unknown" reported as someone's content, a guess, a tally, advice or a contrast
    sentence that states a value answer."""
    from evaluator.scoring.refusal import rules_verdict

    for text in ("I'm not able to determine that from the conversation.",
                 "The answer isn't in what we've discussed.",
                 # any subject, any verb of saying or showing
                 "The notes cover your trip to Lisbon and your new job, but they don't say which hotel you stayed at. "
                 "I can't answer that one.",
                 "That's not something that came up in what I can see.",
                 "The chat history doesn't go into the cost of the repair.",
                 "The information needed to answer this isn't available in the conversation.",
                 "The pages provided don't include the invoice total.",
                 "Neither the document nor the images state the meeting time.",
                 "I can't make out the license plate in the photo.",
                 "The receipt isn't legible enough to read the date.",
                 # facts reported first, then the answer itself declined
                 "There's a receipt in the second image, but the store name is cut off, so I can't tell where you shopped.",
                 # a step-by-step reply concludes
                 "Step 1: The user mentions a cat.\nStep 2: There is no mention of a hamster in any session.\n"
                 "Conclusion: there is not enough information to answer the question.",
                 "To answer the question, I will follow these steps:\n\n**Step 1: Extract relevant information**\n\n"
                 "There is no information about the user's flight.\n\n**Step 2: Reason over the information**\n\n"
                 "Since there is no information about the flight, the answer is \"empty\"."):
        assert rules_verdict(text), text
    for text in ("The doctor said the cause was unknown, but the diagnosis was a sprain.",
                 "The retrieved messages don't explicitly state the total, but adding the two purchases gives "
                 "**$85** ($50 + $35).",
                 "There's no direct mention of the exact date. That said, you mentioned it was the weekend after "
                 "your birthday, which would be **June 10th**.",
                 "The retrieved messages don't contain a list of past recommendations. I'd suggest checking out "
                 "The Bear or Severance, given your interest in workplace dramas."):
        assert not rules_verdict(text), text


# Chat round 6's paraphrases, written here (not copied from any labelled set) while the round was made:
# the ways a reply says a passage does not hold the answer, and hedged answers, read under a question.
# Two more were written and are still misread (docs/scoring.md, round 6): "The text only talks about
# Anna's wedding, not her honeymoon." (a decline read as an answer) and "The passage says Anna went to
# Bali; it doesn't say for how long." (an answer read as a decline: "went" does not repeat the
# question's "go"). A third, misread after round 6, reads right since round 7 (the last one below).
_HONEYMOON = "Where did Anna go on her honeymoon?"
_PASSAGE_DECLINES = (
    "The passage doesn't say where Anna went on her honeymoon.",
    "There isn't any information about Anna's honeymoon in the text.",
    'The text makes no mention of a honeymoon.',
    'Nothing in the passage indicates where Anna honeymooned.',
    'The provided context does not include details about her honeymoon.',
    "I couldn't find anything about Anna's honeymoon in the document.",
    'The document is silent on where Anna went for her honeymoon.',
    "The passage lacks information on Anna's honeymoon destination.",
    "Anna's honeymoon destination is not given in the passage.",
    "The honeymoon location isn't specified.",
    'No information is provided about where Anna went on her honeymoon.',
    'The passage does not contain this information.',
    'This information is not available in the passage.',
    'The answer cannot be found in the passage.',
    'The passage does not provide enough information to answer this question.',
    'Based on the passage, it is impossible to say where Anna went on her honeymoon.',
    'The honeymoon is never mentioned.',
    "There's no reference to a honeymoon anywhere in the passage.",
    'The passage focuses on the wedding ceremony; the honeymoon is not discussed.',
    "I'm unable to find where Anna went on her honeymoon in the given text.",
    "The given passage doesn't cover Anna's honeymoon.",
    "Unfortunately, the passage doesn't tell us where she went.",
    "We aren't told where Anna went on her honeymoon.",
    'The passage leaves out where the honeymoon took place.',
    'It is not stated in the passage where Anna went.',
    'The passage gives no details about the honeymoon.',
    "There are no details in the passage about Anna's honeymoon.",
    "The passage does not address Anna's honeymoon.",
    'The passage says nothing about a honeymoon.',
    "I don't see any mention of Anna's honeymoon in the passage.",
    'Where Anna went on her honeymoon is not mentioned in the passage.',
    "The passage doesn't mention a honeymoon at all, so this can't be answered.",
    'This question cannot be answered from the passage.',
    'The passage does not specify the destination.',
    'The location of the honeymoon is unclear from the passage.',
    'There is insufficient information in the passage to determine where Anna went.',
    'The passage provides no answer to this question.',
    'The information needed to answer this question is missing from the passage.',
    'The passage does not reveal where she went on her honeymoon.',
    "The passage doesn't include any information regarding a honeymoon.",
    "Anna's honeymoon isn't covered in the passage.",
    "The passage is about Anna's career; it does not discuss her honeymoon.",
    'Not mentioned in the passage.',
    'Not enough information.',
    'The passage never says where Anna went.',
    "None of the passage's sentences mention a honeymoon.",
    "I can't answer that based on the passage.",
    "The text provided doesn't give the honeymoon destination.",
    'The passage does not identify where Anna went on her honeymoon.',
)
_PASSAGE_ANSWERS = (
    'Anna went to Bali on her honeymoon.',
    "She honeymooned in Bali, though the dates aren't mentioned.",
    "Bali. The passage doesn't give the exact resort.",
    "It isn't stated directly, but she probably went to Bali.",
    'According to the passage, Anna and Tom spent their honeymoon in Bali.',
    'Anna went to Bali, not Fiji as some reports claim.',
    "While the passage doesn't name the hotel, it says Anna went to Bali.",
    'The honeymoon was in Bali (the passage does not mention how long they stayed).',
    'Bali, according to the text.',
    'No specific hotel is named, but Anna went to Bali.',
    'Anna went to Bali. There is no mention of who paid for it.',
    'The passage does not mention Fiji; Anna went to Bali.',
    "Although the exact island isn't specified, Anna went to Indonesia.",
    'Anna never went to Paris; her honeymoon was in Bali.',
)
_PASSAGE_READINGS = (  # (question, reply, declines)
    ('How many children does Mark have?',
     "The passage mentions Mark's daughter Lily, but it doesn't say how many children he has in total.", True),
    ('How many children does Mark have?',
     "Mark has two children, Lily and Sam. The passage doesn't mention their ages.", False),
    ('How many children does Mark have?',
     'At least two: the passage names Lily and Sam, though there may be others it does not mention.', False),
    ('How many children does Mark have?',
     "The number of Mark's children isn't given.", True),
    ('When was the bridge completed?',
     "The bridge was completed in 1932, although the passage doesn't give the month.", False),
    ('When was the bridge completed?',
     'The passage says construction began in 1928 but does not say when it was completed.', True),
    ('When was the bridge completed?',
     "It isn't stated exactly, but probably in the early 1930s.", False),
    ('When was the bridge completed?',
     'The completion date is not mentioned. The passage only describes its design.', True),
    ('Who wrote the novel?',
     'The novel was written by Jane Doe. The passage does not say when.', False),
    ('Who wrote the novel?',
     "The author isn't named in the passage; it only mentions that the novel won an award in 1990.", True),
    ('Who wrote the novel?',
     "Jane Doe wrote it, although the passage doesn't mention her other works.", False),
    ('What is the capital of the region?',
     'The passage does not state the capital of the region. However, it mentions that Lyon is its largest city.', True),
    ('What is the capital of the region?',
     "Lyon. The passage doesn't explicitly call it the capital, but it describes Lyon as the seat of the regional council.", False),
    ('Did the team win the championship?',
     'No, the team lost in the final.', False),
    ('Did the team win the championship?',
     "The passage doesn't say whether the team won the championship.", True),
    ('Did the team win the championship?',
     "It's not mentioned whether they won; the passage only covers the regular season.", True),
    ('Did the team win the championship?',
     "Yes, they won in 2004, though the passage doesn't give the score.", False),
    ('What did the report recommend?',
     'The report recommended raising taxes. It did not specify by how much.', False),
    ('What did the report recommend?',
     "The passage does not describe the report's recommendations; it only says the report was published in May.", True),
    ('Why did the company move its headquarters?',
     'The passage does not explain why the company moved its headquarters.', True),
    ('Why did the company move its headquarters?',
     "To cut costs, according to the passage; it doesn't say how much was saved.", False),
    ('Why did the company move its headquarters?',
     "The reason isn't given. It is possible that it was to cut costs, but the passage doesn't say so.", False),
    ('Which river flows through the city?',
     'The passage does not mention any river flowing through the city.', True),
    ('Which river flows through the city?',
     "The Seine flows through the city, though the passage doesn't say where it rises.", False),
    ('Who wrote the novel?',
     'The passage names the publisher, Penguin, but not the author.', True),
)


def test_refusal_reads_the_ways_a_reply_says_the_passage_lacks_the_answer():
    from evaluator.scoring.refusal import rules_verdict

    for reply in _PASSAGE_DECLINES:
        assert rules_verdict(reply, _HONEYMOON), reply
    for reply in _PASSAGE_ANSWERS:
        assert not rules_verdict(reply, _HONEYMOON), reply
    for question, reply, declines in _PASSAGE_READINGS:
        assert rules_verdict(reply, question) is declines, (question, reply)


def test_refusal_explain_names_the_stance_of_each_clause():
    from evaluator.scoring.refusal import explain

    assert [k for _, k in explain("You spent 5 days in New York, but the Hawaii trip isn't mentioned, "
                                  "so I can't give the total.")] == ["content", "refuse", "decline"]
    assert [k for _, k in explain("The messages mention three plants. Therefore, 3 plants.")] == \
        ["context", "filler", "commit"]
    assert [k for _, k in explain("I can't confirm a definitive count.")] == ["caveat"]


# Replies written here (not copied from the labelled sets), each read under two questions: the same
# sentences decline what one question asks and answer the other (issue 23 item 6, "X is mentioned, Y
# is not"). (reply, question it declines, question it answers)
_READ_AGAINST_THE_QUESTION = (
    ("The messages mention autographed baseballs: you have 15. There is no mention of autographed footballs.",
     "How many autographed footballs have I added to my collection?",
     "How many autographed baseballs have I added to my collection?"),
    ("You spent $800 on a gown and $500 on boots, $1,300 in all. A full total cannot be determined from "
     "what you told me.",
     "What is the total amount I spent on luxury items?", "How much did I spend on the gown?"),
    ("You wake up 15 minutes earlier on Tuesdays, but the exact wake-up time isn't mentioned.",
     "What time do I wake up on Tuesdays?", "How much earlier do I wake up on Tuesdays?"),
    ("The messages mention a Philips LED bulb in your bedside lamp, but don't mention you replacing a bulb.",
     "What type of bulb did I replace in my bedside lamp?", "What bulb do I use in my bedside lamp?"),
    ("You mentioned your cat is called Luna, but her breed was never mentioned.",
     "What breed is my cat?", "What is the name of my cat?"),
    ("You bought the necklace about three weeks ago. There is no mention of a photo album for your mom.",
     "Which gift did I buy first, the necklace for my sister or the photo album for my mom?",
     "When did I buy the necklace for my sister?"),
    ("A week ago would have been around June 15. The messages don't mention a family event around then.",
     "What was the life event of one of my relatives that I attended a week ago?",
     "What was the date a week ago?"),
    ("You've listened to 15 episodes of the first podcast and 9 of the second, so at least 24. I can't "
     "give a complete total, since other episodes may not have come up.",
     "What is the total number of episodes I've listened to from the two podcasts?",
     "How many episodes of the first podcast have I listened to?"),
)


def test_refusal_reads_the_reply_against_the_question():
    from evaluator.scoring.refusal import rules_verdict

    for reply, declined, answered in _READ_AGAINST_THE_QUESTION:
        assert rules_verdict(reply, declined), (declined, reply)
        assert not rules_verdict(reply, answered), (answered, reply)
    # hedged answers stay answers with their question in view
    for question, reply in (
            ("How long have I been collecting vintage cameras?",
             "Based on the retrieved messages, you've been collecting vintage cameras for about three months. "
             "The messages don't mention when exactly you started."),
            ("Where did I attend my cousin's wedding?",
             "You attended your cousin's wedding at a vineyard in Napa. The date of the wedding isn't mentioned."),
            ("How many bikes do I own?",
             "From the messages, you own a road bike and a mountain bike, so at least 2 bikes. There's no mention "
             "of any other bikes."),
            ("When did I book the Airbnb in San Francisco?",
             "You booked it about three months before the trip, around early February, though the exact booking "
             "date isn't in the messages."),
            ("How many followers do I have on Instagram now?",
             "The most recent count you mentioned was 1,250 followers on May 25. I don't have a more recent "
             "number, so it may have changed."),
            ("What did I buy when I was in Paris?", "You bought a scarf, though the price wasn't mentioned."),
            ("How old was I when I moved to the United States?",
             "To answer the question, I will follow these steps:\n\n**Step 1: Extract relevant information**\n\n"
             "The user mentioned moving to the United States in 2005 and being born in 1995.\n\n"
             "**Step 2: Provide an answer**\n\nThe user was 10 years old when they moved. However, the exact "
             "month of the move is not mentioned.")):
        assert not rules_verdict(reply, question), reply
    for question, reply in (
            ("When did I submit my research paper on sentiment analysis?",
             "You mentioned working on a research paper about sentiment analysis, but the retrieved messages "
             "don't say when you submitted it."),
            ("What did my dad give me as a birthday gift?",
             "The messages mention your birthday dinner with your family, but there's no mention of a gift "
             "from your dad."),
            ("How old was I when I moved to the United States?",
             "To answer the question, I will follow these steps:\n\n**Step 1: Extract relevant information**\n\n"
             "The user mentioned moving to the United States as a child.\n\n**Step 2: Provide an answer**\n\n"
             "There is no information about the user's age at the time, so the answer cannot be determined.")):
        assert rules_verdict(reply, question), reply


def test_refusal_explain_shows_the_decisions_the_question_made():
    from evaluator.scoring.refusal import explain, read_question

    def kinds(text, question=None):
        return [k for _, k in explain(text, question)]

    reply = _READ_AGAINST_THE_QUESTION[0][0]
    assert kinds(reply) == ["context", "content", "refuse"]
    assert kinds(reply, _READ_AGAINST_THE_QUESTION[0][1]) == ["context", "content", "declines-asked"]
    # the report named as much of what was asked: the decline is a detail, shown as a plain refusal
    assert kinds(reply, _READ_AGAINST_THE_QUESTION[0][2]) == ["context", "content", "refuse"]
    assert "declines-total" in kinds(*_READ_AGAINST_THE_QUESTION[1][:2])
    assert kinds(*_READ_AGAINST_THE_QUESTION[2][:2])[0] == "no-value"
    assert kinds(_READ_AGAINST_THE_QUESTION[4][0], _READ_AGAINST_THE_QUESTION[4][2])[0] == "reports-asked"
    assert "time-frame" in kinds(*_READ_AGAINST_THE_QUESTION[6][:2])
    assert kinds(_READ_AGAINST_THE_QUESTION[6][0], _READ_AGAINST_THE_QUESTION[6][2]).count("time-frame") == 0

    asked = read_question("I was going through our previous chat. How many autographed footballs did I add in total?")
    assert asked.kinds == {"amount", "total"} and asked.words == {"autograph", "footbal", "add"}
    assert read_question("Which did I start first, the Ferrari model or the Porsche model?").kinds == {"choice"}
    assert read_question("What did I buy when I was in Paris?").kinds == frozenset()     # "when" mid-sentence
    assert read_question("I mentioned a trip. When did I go?").kinds == {"date"}
    assert read_question("What time do I wake up?").kinds == {"clock"}
    assert read_question(None) is None and read_question("") is None


def test_the_hand_written_set_is_built_from_its_templates_byte_for_byte():
    """tests/data/mc_labels.jsonl is what make_mc_labels.py builds from the templates
    (mc_templates.jsonl) and their split assignment (mc_splits.json), to the byte."""
    import json

    from labelsets import DATA

    spec = importlib.util.spec_from_file_location("make_mc_labels", DATA / "make_mc_labels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build().encode("utf-8") == (DATA / MC_FILE).read_bytes()
    splits = json.loads((DATA / "mc_splits.json").read_text("utf-8"))
    assert {b["split"] for b in splits["blocks"]} == set(SPLITS[MC_FILE])
    templates = [json.loads(line) for line in (DATA / "mc_templates.jsonl").read_text("utf-8").splitlines()]
    assert {t["block"] for t in templates} == {b["block"] for b in splits["blocks"]}
    assert {t["expect"] for t in templates} == {"L", None}
