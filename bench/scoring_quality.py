"""How often the refusal detector and the multiple-choice extractor read a reply as a person
labelled it, on the tuning split and on the held-out split (never tuned on), next to references
measured in the same run: the naive reading (a refusal is any reply containing "not", "no",
"unknown" or "don't"; the choice is the first capital letter that is an option) and, for multiple
choice, MMMU-Pro's own reader (mmmu_pro_choice below).

    python bench/scoring_quality.py [--show-errors]

Data (named in tests/labelsets.py): tests/data/refusal_labels.jsonl (text, refusal, source, split), tests/data/mc_labels.jsonl
(hand-written replies: options, reply, choice, source, split), tests/data/mc_real_labels.jsonl
(real model replies to MMMU-Pro, drawn and labelled as tests/data/make_mc_real.py says) and
tests/data/refusal_real_labels.jsonl (real replies of two memory systems to LoCoMo, drawn and
labelled as tests/data/make_refusal_real.py says) and tests/data/refusal_chat_labels.jsonl (real
replies of chat assistants to LongMemEval, draw 4 of the same script) and
tests/data/refusal_chat_labels5.jsonl (draw 5, chat-heldout-2: other runs of the same chat models, on
questions draw 4 never drew), refusal_chat_labels6.jsonl (draw 6, chat-heldout-3: nine chat models on
MTRAG), refusal_chat_labels7.jsonl (draw 7, chat-heldout-4: GPT-4o-mini on LoCoMo) and
refusal_chat_labels8.jsonl (draw 8, chat-heldout-5: Gemma 3 / Llama 3 on passage QA) and
refusal_chat_labels9.jsonl (draw 9, chat-heldout-6: the same on other passage questions) and
refusal_chat_labels10.jsonl (draw 10, chat-heldout-7: the same on others again) and refusal_chat_labels11.jsonl
(draw 11, chat-heldout-8: passage QA again and LongMemEval's other questions) and refusal_chat_labels12.jsonl
(draw 12, chat-heldout-9: passage QA again and MTRAG's answerable turns) and refusal_chat_labels13.jsonl
(draw 13, chat-heldout-10: passage QA again and MTRAG's unanswerable turns again) and refusal_vlm_labels.jsonl
(replies of chat assistants and VLMs about an image, a clip, a PDF page or the user's history, written
by hand: 70 probes for round 10, then three sets written blind). Refusal sets also print the
false refusals among answers that hold a negation word ("hedged answers"). Rows that carry their
question (the real and chat sets) are read with it: `is_refusal(text, question)`. Since the second
chat round (which tuned on both), chat-tune and chat-heldout are both tuning splits.
Goals (issue 16): refusal >= 97%, multiple choice >= 99%; issue 23: refusal on chat replies >= 97%
with false refusals on hedged answers under 2%.

Measured once each, with no re-tuning before the measurement:
- hand-written chat/VLM replies, each set written blind by a helper who saw only the labelling guide
  and labelled again by a blind reader: vlm-heldout-6 (200) 164/200 = 82.0% after round 15 was frozen at
  f385c68 (95% Wilson interval 76.1-86.7%; naive 65.0%; round 14's rules the same, rounds 13, 10 and 9's
  163, 149 and 148; hedged 1/23), vlm-heldout-5 (200) 170/200 = 85.0% after round 14 was frozen at
  6b79762 (95% Wilson interval 79.4-89.3%; naive 62.5%; rounds 13, 10 and 9's rules 164, 142 and 141;
  hedged 0/21), vlm-heldout-4 (200) 172/200 = 86.0% after round 13 was frozen at
  eddf27d (95% Wilson interval 80.5-90.1%; naive 64.5%; rounds 9-10's rules 158 and 159; hedged 1/34),
  vlm-heldout-3 (200) 167/200 = 83.5% after round 12 was frozen
  at 1f893c5 (95% Wilson interval 77.7-88.0%; naive 63.5%), vlm-heldout-2 (200) 167/200 = 83.5%
  after round 11 (e1a35c1; naive 59.5%), vlm-heldout (160) 116/160 = 72.5% after round 10 (35bdeec;
  naive 55.6%); false refusals on hedged answers 2/20, 0/20, 0/15. Goal missed.
- chat refusals, chat-heldout-10 (draw 13: 264 replies of the same two models to passage questions
  none of draws 8-12 drew, and 179 replies of the nine chat models of draw 6 to MTRAG's 55
  unanswerable turns that draw 6 did not take (171 of them to questions draw 6 asked; the replies unread),
  labelled blind; measured once after chat round 9 was frozen at 02e7720): 413/443 = 93.2% (95%
  Wilson interval 90.5-95.2%; naive 78.8%; rounds 7 and 8's rules the same, round 6's 412), passage
  QA 253/264 = 95.8%, MTRAG 160/179 = 89.4%; false refusals on hedged answers 6/71 = 8.5% (round 8's
  rules 5/71). Both goals missed.
- chat refusals, chat-heldout-9 (draw 12: 264 replies of the same two models to passage questions
  none of draws 8-11 drew, and 181 replies of MTRAG's human-evaluation subset (GPT-4o, Llama 3.1
  405B) to questions draw 6 never drew, labelled blind; measured once after chat round 8 was frozen
  at 7b00799): 427/445 = 96.0% (95% Wilson interval 93.7-97.4%; naive 77.1%; round 7's rules the
  same), passage QA 251/264, MTRAG 176/181; false refusals on hedged answers 7/78 = 9.0%. Both goals
  missed.
- chat refusals, chat-heldout-8 (draw 11: 264 replies of the same two models to passage questions
  none of draws 8-10 drew, and 113 replies of draws 4-5's chat assistants to the LongMemEval
  questions neither has a reply to, labelled blind; measured once after chat round 7 was frozen at
  63b9d9d): 362/377 = 96.0% (95% Wilson interval 93.5-97.6%; naive 78.5%; round 6's rules the same),
  passage QA 257/264, LongMemEval 105/113; false refusals on hedged answers 7/58 = 12.1%. Both goals
  missed.
- chat refusals, chat-heldout-7 (draw 10: 264 replies of the same two models to passage questions
  neither draw 8 nor draw 9 drew, labelled blind; measured once after chat round 6 was frozen at
  a793735): 251/264 = 95.1% (95% Wilson interval 91.8-97.1%; naive 72.7%; the detector before round
  6 242/264 = 91.7%), false refusals on hedged answers 3/39 = 7.7%. Both goals missed.
- chat refusals, chat-heldout-6 (draw 9: 264 replies of the same two models to other passage
  questions of the same files, labelled blind; measured once after chat round 5 was frozen at
  6161be6): 241/264 = 91.3% (95% Wilson interval 87.3-94.1%; naive 82.2%; the detector before round
  5 206/264 = 78.0%), false refusals on hedged answers 1/18. Goal missed.
- chat refusals, chat-heldout-5 (draw 8: 264 replies of Gemma 3 12B and Llama 3 8B Instruct to SQuAD
  2.0, Natural Questions and MuSiQue questions about a passage, mostly one without the answer,
  labelled blind; measured once after chat round 4): 220/264 = 83.3% (95% Wilson interval
  78.4-87.3%; naive 77.7%), false refusals on hedged answers 1/31. Goal missed: "The passage does not
  mention ..." was not read as a source's decline. Round 5 then tuned on it.
- chat refusals, chat-heldout-4 (draw 7: 116 replies of GPT-4o-mini to LoCoMo questions under four
  memory settings, labelled blind; measured once after chat round 3 was frozen at 4084d30):
  109/116 = 94.0% (95% Wilson interval 88.1-97.0%; naive 92.2%; the detector before round 3
  104/116), no hedged answer read as a refusal (0/3). Goal missed. Round 4 then tuned on it.
- chat refusals, chat-heldout-3 (draw 6: 273 replies of nine chat models to MTRAG, labelled blind;
  measured once before chat round 3): 249/273 = 91.2% (95% Wilson interval 87.3-94.0%; naive 67.8%),
  false refusals on hedged answers 3/87 = 3.4%. Both goals missed. Round 3 then tuned on it.
- chat refusals, chat-heldout-2 (252 replies of the same Claude and Llama models to questions draw 4
  never drew, labelled blind; measured once after chat round 2 was frozen at 28f7269):
  235/252 = 93.3% with the question (95% Wilson interval 89.5-95.7%; naive 57.5%; without the
  question 235/252; the detector before round 2 233/252 = 92.5%), false refusals on hedged answers
  5/105 = 4.8%. Both goals missed.
- chat refusals, chat-heldout (240 replies of Claude Haiku 4.5 / Sonnet 4.6 and Llama 3.1 8B, labelled
  blind while the chat round was tuned on chat-tune only): 218/240 = 90.8% (95% Wilson interval
  86.5-93.9%; naive 63.3%; the detector before the round 186/240 = 77.5%), false refusals on hedged
  answers 7/87 = 8.0%. Both goals missed.
- real refusals, real-heldout-3 (230 memobase replies labelled blind while round 3 was made on mem0's
  replies only): 224/230 = 97.4% (naive 87.0%); mem0's second draw after round 2: 228/236 = 96.6%;
  mem0's first held-out half: 164/233 = 70.4% before round 1, 223/233 = 95.7% after it.
- real replies, real-heldout-2 (732 replies labelled blind while round 11 was made on draw 1 only):
  727/732 = 99.3% (MMMU-Pro's reader 93.3%, naive 69.5%); the first real held-out half (round 10):
  368/380 = 96.8%.
- hand-written, MC_HELDOUT, "heldout-9" (written blind on another branch during round 9): 486/495
  = 98.2% (naive 50.3%); earlier blind sets: heldout-2 84.3%, heldout-3 95.9%, heldout-4 92.5%,
  heldout-5 97.6%, heldout-6 96.2%, heldout-7 96.0%, heldout-8 97.8%.

The refusal reader is a vote of the phrase rules, a linear model (evaluator/scoring/refusal_model.py)
and a fine-tuned encoder (refusal_encoder.py) that breaks their ties: on the 1,718 MODEL_HELDOUT rows
none of the three trained on, 1,658/1,718 = 96.5% (false refusals on hedged answers 17/187; the
reader before it, phrase rules overridden by the linear model where confident, 94.4% and 25/187;
docs/scoring.md "The encoder"). The encoder trained on every other split, so every other split's
reader figure is a training figure. Before the encoder, the reader was the phrase rules overridden by
the learned model where it is confident. Each refusal split prints the reader's figure and the rules'
alone, and says whether the model trained on the split: on those, the reader's figure is a training
figure, not a measurement. The held-out figures of the reader are the last table (each of 26 sets
no round of rules was tuned on, read by a model and thresholds chosen without it: rules 75.0%,
model 93.7%, reader 92.0%; each of 27 minimal-pair sets the same way: rules 71.5%, model 91.0%,
reader 87.2%; draws 15 and 17, real replies with a negation word: rules 91.1%, model 89.8%, reader
92.2%) and vlm-heldout-7 to -11, pairs-heldout and draws 14 and 16, held out of all training and
each measured once (docs/scoring.md): draw 16 (chat-heldout-13, real chat replies with a negation
word) 236/256 = 92.2% (hedged false refusals 11/57), draw 15 (chat-heldout-12, the same, before it
was trained on) 274/298 = 91.9% (14/87), draw 14 (chat-heldout-11, real chat replies) 256/262 =
97.7% (hedged false refusals 3/19), vlm-heldout-11 193/200 = 96.5% (false refusals 0/100),
vlm-heldout-10 196/200 = 98.0% (rules alone 78.5%, naive 67.0%; false refusals on hedged answers
0/16), pairs-heldout 167/200 = 83.5% (rules alone 71.5%, naive 58.5%).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
# The labelled sets and their splits are named in one place, tests/labelsets.py: real replies
# (GPT-4o, Gemini 1.5 Pro, LLaVA-OneVision, InternVL2 answering MMMU-Pro; mem0's and memobase's
# answering models on LoCoMo; Claude Haiku 4.5 / Sonnet 4.6 and Llama 3.1 8B Instruct on
# LongMemEval) drawn and labelled as tests/data/make_mc_real.py and make_refusal_real.py say; each
# held-out split is measured once and not tuned on before that.
from labelsets import (VLM_SPLITS, REFUSAL_VLM_FILE, REFUSAL_WRITTEN_FILE, WRITTEN_SPLITS, MODEL_HELDOUT, REFUSAL_PAIRS_FILE, PAIR_SPLITS, PAIRS_HELDOUT, CHAT_HELDOUT, CHAT_HELDOUT3, CHAT_HELDOUT4, CHAT_HELDOUT5, CHAT_HELDOUT6, CHAT_HELDOUT7, CHAT_HELDOUT8, CHAT_HELDOUT9, CHAT_HELDOUT10, CHAT_SPLITS, MC_FILE, MC_HELDOUT, MC_REAL_FILE,  # noqa: E402
                       MC_REAL_HELDOUT, REAL_TUNE, REFUSAL_CHAT_FILE, REFUSAL_CHAT_HELDOUT_FILE, REFUSAL_CHAT_HELDOUT3_FILE,
                       REFUSAL_CHAT_HELDOUT4_FILE, REFUSAL_CHAT_HELDOUT5_FILE, REFUSAL_CHAT_HELDOUT6_FILE,
                       REFUSAL_CHAT_HELDOUT7_FILE, REFUSAL_CHAT_HELDOUT8_FILE, REFUSAL_CHAT_HELDOUT9_FILE, REFUSAL_CHAT_HELDOUT10_FILE, REFUSAL_CHAT_HELDOUT11_FILE, CHAT_HELDOUT11, REFUSAL_CHAT_HELDOUT12_FILE, CHAT_HELDOUT12,
                       REFUSAL_CHAT_HELDOUT13_FILE, CHAT_HELDOUT13, REFUSAL_CHAT_TUNE17_FILE, CHAT_TUNE17,
                       REFUSAL_FILE, REFUSAL_HELDOUT, REFUSAL_REAL_FILE, REFUSAL_REAL_HELDOUT, TUNE,
                       load)


def naive_refusal(text: str) -> bool:
    return bool(re.search(r"(?i)\b(?:not|no|unknown|don't|dont)\b", text))


def naive_choice(reply: str, options: dict) -> str | None:
    m = re.search(r"\b([A-Z])\b", reply)
    return m.group(1) if m and m.group(1) in options else None


def mmmu_pro_choice(reply: str, options: dict, rng) -> str:
    """MMMU-Pro's published reader (mmmu-pro/evaluate.py, parse_multi_choice_response at
    MMMU-Benchmark/MMMU@56eede8), re-implemented here as the peer reference: the one option letter
    after the last "Answer:", else "(X)" mentions, else "X " then "X." substrings, else option texts
    (replies over 5 words), the last-placed candidate winning; with nothing found it guesses a
    letter at random (seeded here, so the figure repeats)."""
    letters = list(options)
    at = reply.rfind("Answer:")
    if at != -1:
        tail = reply[at + len("Answer:"):].strip()
        found = [x for x in letters if x in tail]
        if len(found) == 1:
            return found[0]
    text = reply
    for ch in ",.!?;:'":
        text = text.strip(ch)
    text = f" {text} "
    cands = [x for x in letters if f"({x})" in text]
    how = "paren" if cands else None
    if not cands:
        cands = [x for x in letters if f"{x} " in text]
        how = "space" if cands else None
    if not cands:
        cands = [x for x in letters if f"{x}." in text]
        how = "space" if cands else None
    if not cands and len(text.split()) > 5:
        cands = [x for x in letters if options[x].lower() in text.lower()]
        how = "text" if cands else None
    if not cands:
        return rng.choice(letters)
    if len(cands) == 1:
        return cands[0]
    where = {"paren": lambda x: text.rfind(f"({x})"), "space": lambda x: text.rfind(f" {x} "),
             "text": lambda x: text.lower().rfind(options[x].lower())}[how]
    positions = [where(x) for x in cands]
    return cands[positions.index(max(positions))]      # numpy's argmax: the first of equal maxima


def agreement(rows: list[dict], predict, label: str) -> tuple[int, int, list[dict]]:
    wrong = [r for r in rows if predict(r) != r[label]]
    return len(rows) - len(wrong), len(rows), wrong


def hedged_false_refusals(rows: list[dict], predict) -> tuple[int, int]:
    """(false refusals, answers) among the answers that hold a negation word (those the naive
    reading calls refusals: "unknown ..., but it was X", "no ..., so ...")."""
    hedged = [r for r in rows if not r["refusal"] and naive_refusal(r["text"])]
    return sum(bool(predict(r)) for r in hedged), len(hedged)


def report() -> dict:
    import random

    from evaluator.scoring.choice import extract_choice
    from evaluator.scoring.refusal import is_refusal, rules_verdict
    from evaluator.stats import wilson

    def mmmu(r):
        return mmmu_pro_choice(r["reply"], r["options"], random.Random(r["reply"]))

    def refusal_set(file, splits):
        return ("refusal", file, "refusal", splits, lambda r: is_refusal(r["text"], r.get("question")),
                lambda r: naive_refusal(r["text"]), None)

    out = {}
    for name, file, label, splits, ours, naive, peer in (
            *(refusal_set(file, splits) for file, splits in (
                (REFUSAL_FILE, (TUNE, REFUSAL_HELDOUT)), (REFUSAL_REAL_FILE, (REAL_TUNE, REFUSAL_REAL_HELDOUT)),
                (REFUSAL_CHAT_FILE, CHAT_SPLITS), (REFUSAL_CHAT_HELDOUT_FILE, (CHAT_HELDOUT,)),
                (REFUSAL_CHAT_HELDOUT3_FILE, (CHAT_HELDOUT3,)), (REFUSAL_CHAT_HELDOUT4_FILE, (CHAT_HELDOUT4,)),
                (REFUSAL_CHAT_HELDOUT5_FILE, (CHAT_HELDOUT5,)), (REFUSAL_CHAT_HELDOUT6_FILE, (CHAT_HELDOUT6,)),
                (REFUSAL_CHAT_HELDOUT7_FILE, (CHAT_HELDOUT7,)), (REFUSAL_CHAT_HELDOUT8_FILE, (CHAT_HELDOUT8,)),
                (REFUSAL_CHAT_HELDOUT9_FILE, (CHAT_HELDOUT9,)), (REFUSAL_CHAT_HELDOUT10_FILE, (CHAT_HELDOUT10,)),
                (REFUSAL_CHAT_HELDOUT11_FILE, (CHAT_HELDOUT11,)), (REFUSAL_CHAT_HELDOUT12_FILE, (CHAT_HELDOUT12,)),
                (REFUSAL_CHAT_TUNE17_FILE, (CHAT_TUNE17,)), (REFUSAL_CHAT_HELDOUT13_FILE, (CHAT_HELDOUT13,)),
                (REFUSAL_VLM_FILE, VLM_SPLITS), (REFUSAL_WRITTEN_FILE, WRITTEN_SPLITS),
                (REFUSAL_PAIRS_FILE, (*PAIR_SPLITS, PAIRS_HELDOUT)))),
            ("multiple_choice", MC_FILE, "choice", (TUNE, MC_HELDOUT),
             lambda r: extract_choice(r["reply"], r["options"]),
             lambda r: naive_choice(r["reply"], r["options"]), mmmu),
            ("multiple_choice", MC_REAL_FILE, "choice", (REAL_TUNE, MC_REAL_HELDOUT),
             lambda r: extract_choice(r["reply"], r["options"]),
             lambda r: naive_choice(r["reply"], r["options"]), mmmu)):
        rows = load(file)
        for split in splits:
            part = [r for r in rows if r["split"] == split]
            t0 = time.perf_counter()
            ok, n, wrong = agreement(part, ours, label)
            dt = time.perf_counter() - t0
            ok_naive, _, _ = agreement(part, naive, label)
            ok_peer = agreement(part, peer, label)[0] if peer else None
            wrong_keys = {id(r) for r in wrong}
            by_prompt = {}
            for r in part:
                if "prompt" in r:
                    agree_n = by_prompt.setdefault(r["prompt"], [0, 0])
                    agree_n[0] += id(r) not in wrong_keys
                    agree_n[1] += 1
            hedged = hedged_false_refusals(part, ours) if name == "refusal" else None
            rules = {}
            if name == "refusal":       # the phrase rules alone, and whether the learned model trained on the split
                def by_rules(r):
                    return rules_verdict(r["text"], r.get("question"))
                ok_rules = agreement(part, by_rules, label)[0]
                rules = {"rules_agree": ok_rules, "rules_rate": ok_rules / n if n else None,
                         "rules_hedged_false_refusals": hedged_false_refusals(part, by_rules),
                         "model_trained_on": split not in MODEL_HELDOUT}
            out[f"{name}/{split}"] = {**rules, "agree": ok, "n": n, "rate": ok / n if n else None,
                                      "ci95": (wilson(ok, n) or {}).get("ci95"),
                                      "hedged_false_refusals": hedged,
                                      "naive_rate": ok_naive / n if n else None,
                                      "peer_rate": ok_peer / n if n and peer else None,
                                      "by_prompt": by_prompt,
                                      "us_per_reply": 1e6 * dt / max(n, 1), "wrong": wrong}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    figures = report()
    print(f"{'set':<30}{'agree':>12}{'rate':>9}{'naive':>9}{'MMMU-Pro':>10}{'us/reply':>10}")
    for key, f in figures.items():
        if not f["n"]:
            print(f"{key:<30}{'no rows':>12}")
            continue
        peer = f"{f['peer_rate']:.1%}" if f["peer_rate"] is not None else "-"
        print(f"{key:<30}{f['agree']:>7}/{f['n']:<4}{f['rate']:>9.1%}{f['naive_rate']:>9.1%}"
              f"{peer:>10}{f['us_per_reply']:>10.1f}   95% CI {f['ci95'][0]:.1%}-{f['ci95'][1]:.1%}")
        if "rules_rate" in f:
            print(f"  phrase rules alone {f['rules_agree']}/{f['n']} = {f['rules_rate']:.1%}; "
                  + ("the learned model trained on this split" if f["model_trained_on"]
                     else "held out from the learned model"))
        if f["hedged_false_refusals"] and f["hedged_false_refusals"][1]:
            k, n = f["hedged_false_refusals"]
            print(f"  false refusals on hedged answers (answers with a negation word) {k}/{n} = {k / n:.1%}")
        for prompt, (agree, n) in sorted(f["by_prompt"].items()):
            print(f"  {prompt:<28}{agree:>7}/{n:<4}{agree / n:>9.1%}")
        if args.show_errors:
            for r in f["wrong"]:
                print("    ", json.dumps(r, ensure_ascii=False)[:200])
    print_held_out_by_writer()
    return 0


def held_out_by_writer() -> dict:
    """The learned reader's figures with each set held out in turn, as the trainer measured them
    (refusal_model.json, `override_chosen_on`): per set the rules alone, the model trained without
    the set, and the reader whose model and override threshold both never saw the set; totals over
    all sets, over the minimal-pair sets, over draws 15 and 17 (real replies with a negation word)
    and over the others."""
    from evaluator.scoring.refusal_model import model

    groups = model()["override_chosen_on"]["groups"]
    keys = ("rows", "rules", "model_held_out", "combined_held_out", "answers", "false_refusals",
            "model_false_refusals")

    def total(names):
        return {k: sum(groups[g][k] for g in names) for k in keys}

    pairs = [g for g in groups if ":pairs-" in g]
    negated = [g for g in groups if g.split(":", 1)[1] in (CHAT_HELDOUT12, CHAT_TUNE17)]
    others = [g for g in groups if g not in pairs and g not in negated]
    return {"groups": groups, "total": total(groups), "sets": total(others), "pairs": total(pairs),
            "negated": total(negated)}


def print_held_out_by_writer() -> None:
    figures = held_out_by_writer()
    print("\nlearned reader, each set held out in turn (refusal_model.json; sets no round of rules was tuned on):")
    print(f"{'set':<52}{'rows':>6}{'rules':>9}{'model':>9}{'combined':>10}{'false refusals':>16}")
    totals = [("all minimal-pair sets", figures["pairs"]), ("draws 15 and 17 (real, with a negation word)", figures["negated"]),
              ("all other sets", figures["sets"]), ("all", figures["total"])]
    for name, g in [*figures["groups"].items(), *totals]:
        print(f"{name:<52}{g['rows']:>6}{g['rules'] / g['rows']:>9.1%}{g['model_held_out'] / g['rows']:>9.1%}"
              f"{g['combined_held_out'] / g['rows']:>10.1%}{g['false_refusals']:>9}/{g['answers']:<6}")


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
