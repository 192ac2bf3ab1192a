"""Every labelled multiple-choice reply (tuning and held-out, hand-written and real) reads as the
letter reader read it when tests/data/mc_verdicts.json was frozen (see tests/frozen.py; re-freeze
with `python tests/frozen.py --freeze choice`)."""

from __future__ import annotations

from frozen import check, digest
from labelsets import DATA, MC_FILE, MC_REAL_FILE, load

FROZEN = DATA / "mc_verdicts.json"
LABEL_FILES = (MC_FILE, MC_REAL_FILE)
ABOUT = ("extract_choice's verdict per labelled row, keyed by sha256(options, reply)[:16]; "
         "written by `python tests/frozen.py --freeze choice`")


def row_key(row: dict) -> str:
    """16 hex digits of the row's options and reply (the label, source and split do not count)."""
    return digest(row["options"], row["reply"])


def verdicts(name: str) -> dict[str, str | None]:
    from evaluator.scoring.choice import extract_choice

    return {row_key(r): extract_choice(r["reply"], r["options"]) for r in load(name)}


def test_every_labelled_reply_reads_as_frozen():
    check(FROZEN, LABEL_FILES, verdicts)
