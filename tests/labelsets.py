"""The labelled sets under tests/data and the names of their splits: the one place tests and
bench name them (tests/data/mc_splits.json assigns the hand-written multiple-choice blocks to
these splits).

A held-out split is written before the round of rules it measures and measured once at its end;
after that it is read, and the next round gets a new blind set (docs/scoring.md).
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

# files
MC_FILE = "mc_labels.jsonl"                    # multiple choice, hand-written (make_mc_labels.py)
MC_REAL_FILE = "mc_real_labels.jsonl"          # multiple choice, real MMMU-Pro replies (make_mc_real.py)
REFUSAL_FILE = "refusal_labels.jsonl"          # refusals, hand-written
REFUSAL_REAL_FILE = "refusal_real_labels.jsonl"  # refusals, real replies of memory systems (make_refusal_real.py)
REFUSAL_CHAT_FILE = "refusal_chat_labels.jsonl"  # refusals, real chat assistants' replies (draw 4)
REFUSAL_CHAT_HELDOUT_FILE = "refusal_chat_labels5.jsonl"  # the same assistants, other questions (draw 5)
REFUSAL_CHAT_HELDOUT3_FILE = "refusal_chat_labels6.jsonl"  # nine chat models on MTRAG (draw 6)
REFUSAL_CHAT_HELDOUT4_FILE = "refusal_chat_labels7.jsonl"  # GPT-4o-mini on LoCoMo, four memory settings (draw 7)
REFUSAL_CHAT_HELDOUT5_FILE = "refusal_chat_labels8.jsonl"  # Gemma 3 / Llama 3 on passage QA (draw 8)
REFUSAL_CHAT_HELDOUT6_FILE = "refusal_chat_labels9.jsonl"  # the same models on other passage questions (draw 9)
REFUSAL_CHAT_HELDOUT7_FILE = "refusal_chat_labels10.jsonl"  # the same again, on questions draws 8-9 never drew (draw 10)
REFUSAL_CHAT_HELDOUT8_FILE = "refusal_chat_labels11.jsonl"  # passage QA again, and draws 4-5's assistants on other questions (draw 11)
REFUSAL_CHAT_HELDOUT9_FILE = "refusal_chat_labels12.jsonl"  # passage QA again, and MTRAG's answerable turns (draw 12)
REFUSAL_CHAT_HELDOUT10_FILE = "refusal_chat_labels13.jsonl"  # passage QA again, and MTRAG's unanswerable turns again (draw 13)
REFUSAL_CHAT_HELDOUT11_FILE = "refusal_chat_labels14.jsonl"  # passage QA again (draw 14)
REFUSAL_CHAT_HELDOUT12_FILE = "refusal_chat_labels15.jsonl"  # passage QA, replies with a negation word: hedged answers (draw 15)
REFUSAL_CHAT_HELDOUT13_FILE = "refusal_chat_labels16.jsonl"  # the same again, on other questions (draw 16)
REFUSAL_CHAT_TUNE17_FILE = "refusal_chat_labels17.jsonl"  # what is left of them (draw 17): training rows
REFUSAL_VLM_FILE = "refusal_vlm_labels.jsonl"  # hand-written chat/VLM replies about images, clips, pages, history
REFUSAL_WRITTEN_FILE = "refusal_written_labels.jsonl"  # more of them, by 24 writers: the learned model's training data
REFUSAL_PAIRS_FILE = "refusal_pairs_labels.jsonl"  # minimal pairs (an answer and a decline alike), by 28 writers

# splits
TUNE = "tune"                                  # the hand-written sets' tuning split (both readers)
MC_HELDOUT = "heldout-9"                       # multiple choice, hand-written: written blind during round 9
REFUSAL_HELDOUT = "heldout"                    # refusals, hand-written
REAL_TUNE = "real-tune"                        # the real sets' tuning split (both readers)
MC_REAL_HELDOUT = "real-heldout-2"             # multiple choice, real: labelled blind during round 11
REFUSAL_REAL_HELDOUT = "real-heldout-3"        # refusals, real: memobase's replies, round 3
CHAT_SPLITS = ("chat-tune", "chat-heldout")    # draw 4: measured once after chat round 1, then tuned on
CHAT_HELDOUT = "chat-heldout-2"                # draw 5: measured once after chat round 2
CHAT_HELDOUT3 = "chat-heldout-3"               # draw 6: measured once before chat round 3, then tuned on
CHAT_HELDOUT4 = "chat-heldout-4"               # draw 7: measured once after chat round 3
CHAT_HELDOUT5 = "chat-heldout-5"               # draw 8: measured once after chat round 4, then tuned on
CHAT_HELDOUT6 = "chat-heldout-6"               # draw 9: measured once after chat round 5, then tuned on
CHAT_HELDOUT7 = "chat-heldout-7"               # draw 10: measured once after chat round 6, then tuned on
CHAT_HELDOUT8 = "chat-heldout-8"               # draw 11: measured once after chat round 7, then tuned on
CHAT_HELDOUT9 = "chat-heldout-9"               # draw 12: measured once after chat round 8
CHAT_HELDOUT10 = "chat-heldout-10"             # draw 13: measured once after chat round 9
CHAT_HELDOUT11 = "chat-heldout-11"             # draw 14: measured once with the learned reader's features version 2
CHAT_HELDOUT12 = "chat-heldout-12"             # draw 15 (hedged answers): measured once with the same reader (a72578d), then trained on
CHAT_HELDOUT13 = "chat-heldout-13"             # draw 16: drawn and labelled blind before the round that learns from draw 15
CHAT_TUNE17 = "chat-tune-17"                   # draw 17: that round's training rows (read by both readers)
VLM_TUNE = "vlm-tune"                          # hand-written chat/VLM probes of round 10
VLM_HELDOUT = "vlm-heldout"                    # written blind: measured once after chat round 10, then tuned on
VLM_HELDOUT2 = "vlm-heldout-2"                 # written blind: measured once after chat round 11, then tuned on
VLM_HELDOUT3 = "vlm-heldout-3"                 # written blind: measured once after chat round 12, then tuned on
VLM_HELDOUT4 = "vlm-heldout-4"                 # written blind: measured once after chat round 13, then tuned on
VLM_HELDOUT5 = "vlm-heldout-5"                 # written blind: measured once after chat round 14, then tuned on
VLM_HELDOUT6 = "vlm-heldout-6"                 # written blind: measured once after chat round 15
VLM_HELDOUT7 = "vlm-heldout-7"                 # written blind, held out of the learned model (read twice: a5db0d7, 084a14e)
VLM_HELDOUT8 = "vlm-heldout-8"                 # written blind after the reader shipped (807e720): measured once, then read again after retraining
VLM_HELDOUT9 = "vlm-heldout-9"                 # written blind after the off-topic retraining: measured once
VLM_HELDOUT10 = "vlm-heldout-10"               # written blind before the minimal-pair retraining: measured once after it
VLM_HELDOUT11 = "vlm-heldout-11"               # written blind after it: measured once
VLM_SPLITS = (VLM_TUNE, VLM_HELDOUT, VLM_HELDOUT2, VLM_HELDOUT3, VLM_HELDOUT4, VLM_HELDOUT5, VLM_HELDOUT6,
              VLM_HELDOUT7, VLM_HELDOUT8, VLM_HELDOUT9, VLM_HELDOUT10, VLM_HELDOUT11)
# writers 13, 30 and 33 wrote VLM_HELDOUT7-9; 31 and 32 wrote off-topic and echo replies (answers) and declines
WRITTEN_SETS = (7, 8, 9, 10, 11, 12, *range(14, 30), 31, 32)
WRITTEN_SPLITS = tuple(f"written-{n}" for n in WRITTEN_SETS)
# minimal pairs (make_refusal_written.py): writers 34-39 and 41-62; writer 46's set is held out
PAIR_SETS = (*range(34, 40), 41, 42, 43, 44, 45, *range(47, 63))
PAIR_SPLITS = tuple(f"pairs-{n}" for n in PAIR_SETS)
PAIRS_HELDOUT = "pairs-heldout"                # writer 46, blind-read: measured once after the pair retraining

# the learned refusal model (tests/data/train_refusal_model.py): trained on every refusal set but
# MODEL_HELDOUT; its override thresholds over the phrase rules are chosen on RULES_FRESH, the splits
# no round of rules was tuned on (draw 13, measured after round 9; vlm-heldout-6, after round 15;
# draws 15 and 17, real replies with a negation word; the writers; the minimal pairs)
MODEL_HELDOUT = (VLM_HELDOUT7, VLM_HELDOUT8, VLM_HELDOUT9, VLM_HELDOUT10, VLM_HELDOUT11, PAIRS_HELDOUT, CHAT_HELDOUT11,
                 CHAT_HELDOUT13)
RULES_FRESH = (CHAT_HELDOUT10, CHAT_HELDOUT12, CHAT_TUNE17, VLM_HELDOUT6, *WRITTEN_SPLITS, *PAIR_SPLITS)

SPLITS = {MC_FILE: (TUNE, MC_HELDOUT), MC_REAL_FILE: (REAL_TUNE, MC_REAL_HELDOUT),
          REFUSAL_FILE: (TUNE, REFUSAL_HELDOUT), REFUSAL_REAL_FILE: (REAL_TUNE, REFUSAL_REAL_HELDOUT),
          REFUSAL_CHAT_FILE: CHAT_SPLITS, REFUSAL_CHAT_HELDOUT_FILE: (CHAT_HELDOUT,),
          REFUSAL_CHAT_HELDOUT3_FILE: (CHAT_HELDOUT3,), REFUSAL_CHAT_HELDOUT4_FILE: (CHAT_HELDOUT4,),
          REFUSAL_CHAT_HELDOUT5_FILE: (CHAT_HELDOUT5,), REFUSAL_CHAT_HELDOUT6_FILE: (CHAT_HELDOUT6,),
          REFUSAL_CHAT_HELDOUT7_FILE: (CHAT_HELDOUT7,), REFUSAL_CHAT_HELDOUT8_FILE: (CHAT_HELDOUT8,),
          REFUSAL_CHAT_HELDOUT9_FILE: (CHAT_HELDOUT9,), REFUSAL_CHAT_HELDOUT10_FILE: (CHAT_HELDOUT10,),
          REFUSAL_CHAT_HELDOUT11_FILE: (CHAT_HELDOUT11,), REFUSAL_CHAT_HELDOUT12_FILE: (CHAT_HELDOUT12,),
          REFUSAL_CHAT_HELDOUT13_FILE: (CHAT_HELDOUT13,), REFUSAL_CHAT_TUNE17_FILE: (CHAT_TUNE17,),
          REFUSAL_VLM_FILE: VLM_SPLITS, REFUSAL_WRITTEN_FILE: WRITTEN_SPLITS,
          REFUSAL_PAIRS_FILE: (*PAIR_SPLITS, PAIRS_HELDOUT)}
REFUSAL_FILES = tuple(name for name in SPLITS if name.startswith("refusal"))


def load(name: str) -> list[dict]:
    """The rows of a labelled set."""
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
