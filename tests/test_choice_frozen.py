"""Every labelled multiple-choice reply (tuning and held-out, hand-written and real) reads as the
letter reader read it when tests/data/mc_verdicts.json was frozen: a change to the reader's rules
that is meant to leave verdicts alone (a refactoring, a new table layout) must leave every one.

The frozen file holds the reader's verdict, not the label: where the reader and a person
disagree, the disagreement is frozen too. A change that is meant to change verdicts (a tuning
round) re-freezes the file and says in its commit which rows moved:

    python tests/test_choice_frozen.py --freeze
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from labelsets import DATA, MC_FILE, MC_REAL_FILE, load

FROZEN = DATA / "mc_verdicts.json"
LABEL_FILES = (MC_FILE, MC_REAL_FILE)


def row_key(row: dict) -> str:
    """16 hex digits of the row's options and reply (the label, source and split do not count)."""
    body = json.dumps([row["options"], row["reply"]], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def verdicts(name: str) -> dict[str, str | None]:
    from evaluator.scoring.choice import extract_choice

    return {row_key(r): extract_choice(r["reply"], r["options"]) for r in load(name)}


def test_every_labelled_reply_reads_as_frozen():
    frozen = json.loads(FROZEN.read_text("utf-8"))["files"]
    assert sorted(frozen) == sorted(LABEL_FILES)
    for name in LABEL_FILES:
        now = verdicts(name)
        missing = sorted(set(now) - set(frozen[name]))
        assert not missing, f"{name}: {len(missing)} rows have no frozen verdict (re-freeze?)"
        moved = [(k, frozen[name][k], v) for k, v in now.items() if frozen[name][k] != v]
        assert not moved, f"{name}: {len(moved)} verdicts moved, first (key, frozen, now): {moved[:5]}"
        assert len(now) == len(frozen[name])


def freeze() -> None:
    out = {"about": "extract_choice's verdict per labelled row, keyed by sha256(options, reply)[:16]; "
                    "written by `python tests/test_choice_frozen.py --freeze`",
           "files": {name: dict(sorted(verdicts(name).items())) for name in LABEL_FILES}}
    FROZEN.write_text(json.dumps(out, indent=0, ensure_ascii=False) + "\n", "utf-8")
    print(f"{sum(len(v) for v in out['files'].values())} verdicts -> {FROZEN}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--freeze"]:
        sys.exit("usage: python tests/test_choice_frozen.py --freeze")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    freeze()
