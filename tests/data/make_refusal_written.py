"""Join the hand-written labelled replies of writers 7-32 into refusal_written_labels.jsonl, the
learned refusal model's extra training data, and the blind-read sets 13, 30 and 33 into
refusal_vlm_labels.jsonl as splits vlm-heldout-7, -8 and -9 (held out of training; each measured
with the reader frozen). Writers 31 and 32 wrote off-topic and echo replies (answers, by the
guide's rule 1) and declines.

Each writer saw only the labelling guide (refusal_labelling_guide.md) and a brief naming a style
(docs/scoring.md, "The learned reader"); sets 7-13 were labelled again by a blind reader who saw
the sheet without labels (agreement 1,399/1,400; the one disagreement settled by a third reading),
and so were sets 30 and 33. Sets 14-29, 31 and 32 carry their writer's labels only: training data, not a measurement.

    python tests/data/make_refusal_written.py WRITTEN_DIR
(WRITTEN_DIR holds vlm_writtenN.jsonl and, for the blind-read sets, vlmN-B.jsonl, and for a set
whose readers disagreed, vlmN-third.jsonl: {"id", "label"} per disagreement)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "refusal_written_labels.jsonl"
VLM = HERE / "refusal_vlm_labels.jsonl"
HELDOUT = {13: "vlm-heldout-7", 30: "vlm-heldout-8", 33: "vlm-heldout-9"}
# the third reading of the one disagreement: the question asks whether the brochure mentions
# parking, so "says nothing either way about parking" answers it (guide rule 6)
THIRD = {"s11-124": "answers"}


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(src: Path) -> None:
    written, heldout = [], []
    for n in range(7, 34):
        path = src / f"vlm_written{n}.jsonl"
        if not path.is_file():
            continue
        rows = _rows(path)
        blind = src / f"vlm{n}-B.jsonl"
        second = {r["id"]: r for r in _rows(blind)} if blind.is_file() else None
        third_file = src / f"vlm{n}-third.jsonl"
        third = {**THIRD, **({r["id"]: r["label"] for r in _rows(third_file)} if third_file.is_file() else {})}
        for r in rows:
            label = r["label"]
            by = "writer"
            if second is not None:
                other = second[r["id"]]["label"]
                if other != label:
                    label = third[r["id"]]
                    by = "writer and blind reader disagreed; third reading"
                else:
                    by = "writer; blind reader agreed"
            row = {"question": r["question"], "text": r["reply"], "refusal": label == "declines",
                   "setting": r["setting"], "source": f"hand-written chat/VLM replies, writer {n}",
                   "split": HELDOUT.get(n, f"written-{n}"), "labelled_by": by, "id": r["id"]}
            (heldout if n in HELDOUT else written).append(row)
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in written), encoding="utf-8")
    if heldout:
        kept = [r for r in _rows(VLM) if r["split"] not in HELDOUT.values()]
        VLM.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept + heldout), encoding="utf-8")
    print(f"{OUT.name}: {len(written)} rows; {VLM.name}: {len(heldout)} held-out rows")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/data/make_refusal_written.py WRITTEN_DIR")
    main(Path(sys.argv[1]))
