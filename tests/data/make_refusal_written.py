"""Join the hand-written labelled replies of writers 7-62 into the learned refusal model's data:
writers 7-32's sets into refusal_written_labels.jsonl (splits written-N), writers 34-39 and 41-62's
minimal pairs into refusal_pairs_labels.jsonl (splits pairs-N), and the blind-read sets 13, 30, 33,
40 and 63 into refusal_vlm_labels.jsonl as splits vlm-heldout-7 to -11, and writer 46's pairs as
pairs-heldout (held out of training; each measured with the reader frozen). Writers 31 and 32
wrote off-topic and echo replies (answers, by the guide's rule 1) and declines.

A minimal-pair set is 100 questions with two replies each that read alike and both say something
is missing or uncertain: in the answer it is another detail ("The total reads $42.10; the date line
is cut off."), in the decline it is what was asked ("The date reads 12 March, but the total is cut
off."): the boundary where a reader of words alone fails.

Each writer saw only the labelling guide (refusal_labelling_guide.md) and a brief naming a style
(docs/scoring.md, "The learned reader"); sets 7-13, 30, 33-46 and 63 were labelled again by a
blind reader who saw the sheet without labels (agreement 4,399/4,400 before set 63; the one disagreement settled by a
third reading). Sets 14-29, 31, 32 and 47-62 carry their writer's labels only: training data, not a
measurement.

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
PAIRS_OUT = HERE / "refusal_pairs_labels.jsonl"
VLM = HERE / "refusal_vlm_labels.jsonl"
HELDOUT = {13: "vlm-heldout-7", 30: "vlm-heldout-8", 33: "vlm-heldout-9", 40: "vlm-heldout-10", 63: "vlm-heldout-11"}
PAIR_SETS = (*range(34, 40), *range(41, 63))
PAIRS_HELDOUT = {46: "pairs-heldout"}
# the third reading of the one disagreement: the question asks whether the brochure mentions
# parking, so "says nothing either way about parking" answers it (guide rule 6)
THIRD = {"s11-124": "answers"}


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(src: Path) -> None:
    written, heldout, pairs = [], [], []
    for n in range(7, 64):
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
            if n in PAIR_SETS:
                kind, split, into = "minimal pairs", PAIRS_HELDOUT.get(n, f"pairs-{n}"), pairs
            else:
                kind, split = "chat/VLM replies", HELDOUT.get(n, f"written-{n}")
                into = heldout if n in HELDOUT else written
            into.append({"question": r["question"], "text": r["reply"], "refusal": label == "declines",
                         "setting": r["setting"], "source": f"hand-written {kind}, writer {n}",
                         "split": split, "labelled_by": by, "id": r["id"]})
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in written), encoding="utf-8")
    PAIRS_OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in pairs), encoding="utf-8")
    if heldout:
        kept = [r for r in _rows(VLM) if r["split"] not in HELDOUT.values()]
        VLM.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept + heldout), encoding="utf-8")
    print(f"{OUT.name}: {len(written)} rows; {PAIRS_OUT.name}: {len(pairs)} rows; "
          f"{VLM.name}: {len(heldout)} held-out rows")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/data/make_refusal_written.py WRITTEN_DIR")
    main(Path(sys.argv[1]))
