"""Draw the real-reply multiple-choice sample (tests/data/mc_real_labels.jsonl) from the model
outputs the MMMU team published with MMMU-Pro (github.com/MMMU-Benchmark/MMMU, Apache-2.0).

    python tests/data/make_mc_real.py --mmmu /path/to/MMMU/git-dir --out draft.jsonl
    python tests/data/make_mc_real.py --mmmu /path/to/MMMU/git-dir --check

Those files hold what GPT-4o, Gemini 1.5 Pro, LLaVA-OneVision (7B, 72B) and InternVL2 (8B, 40B,
76B) actually replied to MMMU-Pro's multiple-choice questions, with chain-of-thought ("cot") and
answer-directly ("direct") prompts, options in the text ("standard", 4 or 10 options) or only in
the image ("vision"). The draw is fixed: per file, rows are ordered by the sha256 of
"<path>#<id>"; the first N rows of every file are draw 1, the next N draw 2.

Draw 1 (732 replies) was split by the parity of the hash's second byte: its odd half was held out,
measured once after round 10 of the extractor (368/380 = 96.8%, the same as before that round),
then joined tuning for round 11; all of draw 1 is "real-tune" now. Draw 2 (732 more replies,
"real-heldout-2") was labelled while round 11 was made on draw 1 only, and measured once after it.
The labels ("choice": the letter the reply commits to as its
answer, or null when it commits to none or to several) were given by two readers who never saw
br-eval's extractor, each on their own; the rows they disagreed on were settled by a third reading
("labelled_by" says which). Rows from the GPT-4o files also carry "mmmu_pro_read", the letter
MMMU-Pro's own reader took from the reply when it published them. --check re-draws the sample and confirms that every shipped reply and
option list is byte-identical to the published file.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
from pathlib import Path

from published import check_shipped, git_show, write_draw

REPO = "MMMU-Benchmark/MMMU"
TEMP = "e3be6827bff94465719c7ce0bd2de6cf0edde6fd"   # 2024-09-03: the per-model temp_output files
OUT = "56eede827df84b22593a3719bfc8c150a478de5b"    # 2024-09-04: GPT-4o chain-of-thought files
COT_PER_FILE = 60
DIRECT_PER_FILE = 12

FILES = [(TEMP, f"mmmu-pro/temp_output/{name}.jsonl", mode) for name, mode in (
    ("gemini-1.5-pro-exp-0801_cot_Standard(4opts)", "cot"),
    ("llava-onevision-qwen2-72b-vo-hf_cot_Standard(4opts)", "cot"),
    ("llava-onevision-qwen2-72b-vo-hf_cot_Standard(10opts)", "cot"),
    ("llava-onevision-qwen2-72b-vo-hf_cot_Vision", "cot"),
    ("llava-onevision-qwen2-7b-vo-hf_cot_Standard(4opts)", "cot"),
    ("llava-onevision-qwen2-7b-vo-hf_cot_Standard(10opts)", "cot"),
    *((f"{model}_direct_{kind}", "direct")
      for model in ("gemini-1.5-pro-exp-0801", "gpt-4o-2024-08-06", "InternVL2-8B", "InternVL2-40B",
                    "InternVL2-Llama3-76B", "llava-onevision-qwen2-7b-vo-hf",
                    "llava-onevision-qwen2-72b-vo-hf")
      for kind in ("Standard(4opts)", "Standard(10opts)", "Vision")),
)] + [(OUT, "mmmu-pro/output/gpt-4o_standard_cot.jsonl", "cot"),
      (OUT, "mmmu-pro/output/gpt-4o_vision_cot.jsonl", "cot")]


def _vision(path: str) -> bool:
    """Options only in the image ("llava-onevision" is a model name, not the setting)."""
    return Path(path).stem.endswith(("_Vision", "_vision_cot"))


def _options(row: dict, path: str) -> list[str]:
    """The options the model was shown: the ten shuffled ones for the 10-option and vision
    settings, the original ones otherwise; the GPT-4o files store them as a Python list literal."""
    opts = row["options"]
    if isinstance(opts, str):
        opts = ast.literal_eval(opts)
    if ("10opts" in path or _vision(path)) and row.get("shuffled_options"):
        opts = row["shuffled_options"]
    return [str(o) for o in opts]


def draw(git_dir: str, second: bool = False) -> list[dict]:
    """The first draw (the first N rows per file in hash order: real-tune), or with `second` the
    next N rows of every file (real-heldout-2)."""
    rows = []
    for commit, path, mode in FILES:
        text = git_show(git_dir, commit, path)
        keyed = []
        for line in text.splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            digest = hashlib.sha256(f"{path}#{row['id']}".encode()).digest()
            keyed.append((digest, row))
        keyed.sort(key=lambda item: item[0])
        take = COT_PER_FILE if mode == "cot" else DIRECT_PER_FILE
        for digest, row in (keyed[take:2 * take] if second else keyed[:take]):
            opts = _options(row, path)
            rows.append({
                "options": {chr(ord("A") + i): o for i, o in enumerate(opts)},
                # (one Gemini reply is an API error object, kept as its JSON text)
                "reply": row["response"] if isinstance(row["response"], str) else json.dumps(row["response"]),
                "choice": None,
                "model": Path(path).stem.split("_")[0],
                "prompt": f"{mode}/{'vision' if _vision(path) else 'standard'}",
                "source": f"{REPO}@{commit}:{path}#{row['id']}",
                "split": "real-heldout-2" if second else "real-tune",
            })
            if "pred_indexs" in row:       # what MMMU-Pro's own reader made of it (GPT-4o files)
                rows[-1]["mmmu_pro_read"] = row["pred_indexs"]
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mmmu", required=True, help="a git directory of MMMU-Benchmark/MMMU")
    ap.add_argument("--out", help="write the unlabelled draw here")
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = ap.parse_args()
    rows = draw(args.mmmu) + draw(args.mmmu, second=True)
    if args.out:
        write_draw(rows, args.out)
    if args.check:
        return check_shipped(rows, Path(__file__).with_name("mc_real_labels.jsonl"), ("reply", "options"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
