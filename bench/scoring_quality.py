"""How often the refusal detector and the multiple-choice extractor read a reply as a person
labelled it, on the tuning split and on the held-out split (never tuned on), next to a reference
measured in the same run: the naive reading (a refusal is any reply containing "not", "no",
"unknown" or "don't"; the choice is the first capital letter that is an option).

    python bench/scoring_quality.py [--show-errors]

Data: tests/data/refusal_labels.jsonl (text, refusal, source, split) and
tests/data/mc_labels.jsonl (options, reply, choice, source, split).
Goals (issue 16): refusal >= 97%, multiple choice >= 99%.

Multiple choice's held-out split is MC_HELDOUT, "heldout-9", written blind on another branch
while the extractor's ninth round of changes was made on tuning data only (heldout-8 joined
tuning, with the round's TUNE9 templates), merged after that round and measured once, with no
re-tuning after the measurement: multiple_choice/tune 7375/7375 = 100.0%, multiple_choice/heldout-9
486/495 = 98.2% (naive 50.3%; the round-8 extractor: also 486/495). Goal 99% on held-out: not met.
Earlier rounds, measured the same way: heldout-2 177/210 = 84.3%, heldout-3 213/222 = 95.9%,
heldout-4 222/240 = 92.5%, heldout-5 372/381 = 97.6%, heldout-6 456/474 = 96.2%, heldout-7
478/498 = 96.0%, heldout-8 499/510 = 97.8% (naive 53.9%).
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
DATA = ROOT / "tests" / "data"
# The multiple-choice held-out split: written blind before the current round of changes, measured
# once at its end; the only place the bench names it.
MC_HELDOUT = "heldout-9"


def load(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def naive_refusal(text: str) -> bool:
    return bool(re.search(r"(?i)\b(?:not|no|unknown|don't|dont)\b", text))


def naive_choice(reply: str, options: dict) -> str | None:
    m = re.search(r"\b([A-Z])\b", reply)
    return m.group(1) if m and m.group(1) in options else None


def agreement(rows: list[dict], predict, label: str) -> tuple[int, int, list[dict]]:
    wrong = [r for r in rows if predict(r) != r[label]]
    return len(rows) - len(wrong), len(rows), wrong


def report() -> dict:
    from evaluator.scoring.choice import extract_choice
    from evaluator.scoring.refusal import is_refusal

    out = {}
    for name, file, label, heldout, ours, naive in (
            ("refusal", "refusal_labels.jsonl", "refusal", "heldout",
             lambda r: is_refusal(r["text"]), lambda r: naive_refusal(r["text"])),
            ("multiple_choice", "mc_labels.jsonl", "choice", MC_HELDOUT,
             lambda r: extract_choice(r["reply"], r["options"]),
             lambda r: naive_choice(r["reply"], r["options"]))):
        rows = load(file)
        for split in ("tune", heldout):
            part = [r for r in rows if r["split"] == split]
            t0 = time.perf_counter()
            ok, n, wrong = agreement(part, ours, label)
            dt = time.perf_counter() - t0
            ok_naive, _, _ = agreement(part, naive, label)
            out[f"{name}/{split}"] = {"agree": ok, "n": n, "rate": ok / n if n else None,
                                      "naive_rate": ok_naive / n if n else None,
                                      "us_per_reply": 1e6 * dt / max(n, 1), "wrong": wrong}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    figures = report()
    print(f"{'set':<26}{'agree':>12}{'rate':>9}{'naive':>9}{'us/reply':>10}")
    for key, f in figures.items():
        if not f["n"]:
            print(f"{key:<26}{'no rows':>12}")
            continue
        print(f"{key:<26}{f['agree']:>7}/{f['n']:<4}{f['rate']:>9.1%}{f['naive_rate']:>9.1%}"
              f"{f['us_per_reply']:>10.1f}")
        if args.show_errors:
            for r in f["wrong"]:
                print("    ", json.dumps(r, ensure_ascii=False)[:200])
    return 0


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
