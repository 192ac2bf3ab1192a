"""Builds tests/data/mc_labels.jsonl from the hand-written reply templates (mc_templates.jsonl: one
per line, with its block, whether the reply chooses {L} or names no option, and its source) and
how they are expanded (mc_splits.json: the seed, the option sets, the blocks in order, each with
its split). Run from anywhere:

    python tests/data/make_mc_labels.py            # write tests/data/mc_labels.jsonl
    python tests/data/make_mc_labels.py --check    # exit 1 unless the shipped file is what it builds

Each template becomes `per_template` replies, over the option sets in turn, with {L} a seeded
letter, {M} another, {l}/{m} their lower case, {T}/{U} their option texts, {F} {L} in full width
and {O} {L}'s place as an ordinal ("second"). A reply that repeats an earlier one (same options,
same text) is dropped.
"""
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def build() -> str:
    spec = json.loads((HERE / "mc_splits.json").read_text("utf-8"))
    by_block: dict[str, list[dict]] = {}
    for line in (HERE / "mc_templates.jsonl").read_text("utf-8").splitlines():
        t = json.loads(line)
        by_block.setdefault(t["block"], []).append(t)
    sets, ordinals = spec["option_sets"], spec["ordinals"]
    rng, rows = random.Random(spec["seed"]), []
    for block in spec["blocks"]:
        for t in by_block[block["block"]]:
            tpl = t["template"]
            for k in range(spec["per_template"]):
                options = sets[(len(rows) + k) % len(sets)]
                letters = sorted(options)
                L = rng.choice(letters)
                M = rng.choice([x for x in letters if x != L])
                reply = (tpl.replace("{L}", L).replace("{l}", L.lower()).replace("{M}", M).replace("{m}", M.lower())
                         .replace("{T}", options[L]).replace("{U}", options[M])
                         .replace("{F}", chr(ord(L) + 0xFEE0)).replace("{O}", ordinals[letters.index(L)]))
                rows.append({"options": options, "reply": reply, "choice": L if t["expect"] == "L" else None,
                             "source": f"{t['source']} (template: {tpl!r})", "split": block["split"]})
    out, seen = [], set()
    for r in rows:
        key = (json.dumps(r["options"]), r["reply"])
        if key not in seen:
            seen.add(key)
            out.append(json.dumps(r, ensure_ascii=False) + "\n")
    return "".join(out)


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        sys.exit("usage: python tests/data/make_mc_labels.py [--check]")
    text, target = build(), HERE / "mc_labels.jsonl"
    if argv:
        same = target.read_bytes() == text.encode("utf-8")
        print(f"{target.name}: {'identical to' if same else 'DIFFERS from'} what the templates build")
        return 0 if same else 1
    target.write_text(text, "utf-8")
    print(f"{text.count(chr(10))} rows -> {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
