"""Every labelled refusal row (tuning and held-out, hand-written, real and chat) and every labelled
multiple-choice reply (the letter reader asks the refusal detector) reads as the refusal detector
read it when tests/data/refusal_verdicts.json was frozen: alone (`is_refusal(text)`) and, where the
row has a question, against it (`is_refusal(text, question)`); and the phrase rules alone read it
as they did then (`rules_verdict`, both ways), so a change to the rules shows even where the
learned model outvotes it. See tests/frozen.py; re-freeze with `python tests/frozen.py --freeze refusal`."""

from __future__ import annotations

from frozen import check, digest
from labelsets import (DATA, MC_FILE, MC_REAL_FILE, REFUSAL_CHAT_FILE, REFUSAL_CHAT_HELDOUT3_FILE, REFUSAL_CHAT_HELDOUT4_FILE,
                       REFUSAL_CHAT_HELDOUT5_FILE, REFUSAL_CHAT_HELDOUT6_FILE, REFUSAL_CHAT_HELDOUT7_FILE,
                       REFUSAL_CHAT_HELDOUT8_FILE, REFUSAL_CHAT_HELDOUT9_FILE, REFUSAL_CHAT_HELDOUT10_FILE, REFUSAL_CHAT_HELDOUT11_FILE,
                       REFUSAL_CHAT_HELDOUT12_FILE, REFUSAL_CHAT_HELDOUT13_FILE, REFUSAL_CHAT_TUNE17_FILE, REFUSAL_CHAT_HELDOUT_FILE, REFUSAL_VLM_FILE, REFUSAL_WRITTEN_FILE, REFUSAL_PAIRS_FILE,
                       REFUSAL_FILE, REFUSAL_REAL_FILE, load)

FROZEN = DATA / "refusal_verdicts.json"
LABEL_FILES = (REFUSAL_FILE, REFUSAL_REAL_FILE, REFUSAL_CHAT_FILE, REFUSAL_CHAT_HELDOUT_FILE, REFUSAL_CHAT_HELDOUT3_FILE,
               REFUSAL_CHAT_HELDOUT4_FILE, REFUSAL_CHAT_HELDOUT5_FILE, REFUSAL_CHAT_HELDOUT6_FILE,
               REFUSAL_CHAT_HELDOUT7_FILE, REFUSAL_CHAT_HELDOUT8_FILE, REFUSAL_CHAT_HELDOUT9_FILE,
               REFUSAL_CHAT_HELDOUT10_FILE, REFUSAL_CHAT_HELDOUT11_FILE, REFUSAL_CHAT_HELDOUT12_FILE,
               REFUSAL_CHAT_HELDOUT13_FILE, REFUSAL_CHAT_TUNE17_FILE, REFUSAL_VLM_FILE, REFUSAL_WRITTEN_FILE, REFUSAL_PAIRS_FILE,
               MC_FILE, MC_REAL_FILE)
ABOUT = ("is_refusal's verdict per labelled row, keyed by sha256(text, question)[:16]: [alone, "
         "against the question (null: the row has none), the rules alone (rules_verdict), the rules "
         "against the question]; multiple-choice rows read their reply; "
         "written by `python tests/frozen.py --freeze refusal`")


def verdicts(name: str) -> dict[str, list]:
    from evaluator.scoring.refusal import is_refusal, rules_verdict

    out = {}
    for row in load(name):
        text, question = row.get("text", row.get("reply")), row.get("question")
        asked = question is not None
        out[digest(text, question)] = [is_refusal(text), is_refusal(text, question) if asked else None,
                                       rules_verdict(text), rules_verdict(text, question) if asked else None]
    return out


def test_every_labelled_row_reads_as_frozen():
    check(FROZEN, LABEL_FILES, verdicts)
