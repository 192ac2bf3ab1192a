"""Draw the real-reply refusal sample (tests/data/refusal_real_labels.jsonl) from the replies mem0
published with its LoCoMo evaluation (github.com/mem0ai/mem0, Apache-2.0, evaluation/results/).

    python tests/data/make_refusal_real.py --mem0 MEM0_GIT_DIR --memobase MEMOBASE_GIT_DIR --out draft.jsonl
    python tests/data/make_refusal_real.py --mem0 MEM0_GIT_DIR --memobase MEMOBASE_GIT_DIR --check

Those files hold what mem0's answering model (MODEL in its evaluation .env; its README's example is
gpt-4o-mini, which the files do not record) replied to LoCoMo's questions about long conversations,
from the memories mem0 retrieved: answers, negative answers ("No, she supports the community.")
and declines ("No specific date mentioned."). The draw is fixed and stratified so that hard cases
are common: per file, the replies that contain a negation or doubt word (NEGATION below: the
naive reading's cue, not br-eval's detector) and the others are each ordered by the sha256 of
"<path>#<conversation>#<index>" and the first N of each taken (draw 1, 460 replies). Draw 1
was split by the parity of the hash's second byte: its odd half was held out, measured once after
the detector's round on the even half (223/233 = 95.7%; 164/233 = 70.4% before that round), then
joined tuning; all of draw 1 is "real-tune" now. Draw 2 ("real-heldout-2": the next replies of the
first file, 41 with a negation word and 150 without, and all 45 replies of an earlier run of the
second file's configuration) was labelled while the next round was made on draw 1 only, and
measured once after it. The label ("refusal": whether the reply
declines to give the information asked for) was given by two readers who never saw br-eval's
detector, each on their own, with the question in view; rows they disagreed on were settled by a
third reading ("labelled_by" says which). --check re-draws the sample and confirms that every
shipped reply (its surrounding whitespace stripped) and question is identical to the published file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

from published import check_shipped, git_show, write_draw

REPO = "mem0ai/mem0"
FILES = [  # (commit, path, replies with a negation word, others)
    ("81a0fba52c6262852e4caa9e4b1c7cd95c2890d9", "evaluation/results/locomo/exp_data_0-10_2000/results.json", 200, 150),
    ("233c386b04a27157408339755f0e4ada773e6e30", "evaluation/results/mem0_results_top_30_filter_False_graph_False.json",
     60, 60),
]
# Draw 2 (real-heldout-2): the next rows of the first file, and every reply of an earlier run of the
# second file's configuration (45 replies).
FILES2 = [
    ("81a0fba52c6262852e4caa9e4b1c7cd95c2890d9", "evaluation/results/locomo/exp_data_0-10_2000/results.json", 200, 150),
    ("07b6134a8d7b4c682429906af1ba513e0143d093", "evaluation/results/mem0_results_top_30_filter_False_graph_False.json",
     0, 0),
]
# Draw 3 (real-heldout-3): another memory system, memobase (github.com/memodb-io/memobase,
# Apache-2.0), answering the same LoCoMo questions in two published runs: every reply with a
# negation word and 50 others per run, a reply identical to one already drawn for the same question
# left out.
MEMOBASE = "memodb-io/memobase"
FILES3 = [("7991dd5a44f10a8e3fb9e057eb3780e108fbac2e",
           f"docs/experiments/locomo-benchmark/fixture/memobase/memobase_eval_{run}_3000.json") for run in ("0709", "0503")]
NEGATION = re.compile(r"(?i)\b(?:no|not|none|never|nothing|unknown|unclear|unsure|cannot|can't|don't|doesn't"
                      r"|isn't|wasn't|aren't|unspecified|insufficient|without)\b")


def _replies(git_dir: str, commit: str, path: str, skip: set | None = None) -> dict[bool, list]:
    """The file's replies, split by whether they hold a negation word, each ordered by its hash:
    (digest, conversation, index, item, reply); replies whose (question, reply) is in `skip` left out."""
    keyed = {True: [], False: []}
    for conv, items in json.loads(git_show(git_dir, commit, path)).items():
        for i, item in enumerate(items):
            reply = str(item.get("response", "")).strip()
            if skip and (item["question"], reply) in skip:
                continue
            digest = hashlib.sha256(f"{path}#{conv}#{i}".encode()).digest()
            keyed[bool(NEGATION.search(reply))].append((digest, conv, i, item, reply))
    return {negated: sorted(found, key=lambda k: k[0]) for negated, found in keyed.items()}


def _row(repo: str, commit: str, path: str, conv: str, i: int, item: dict, reply: str, split: str) -> dict:
    return {"question": item["question"], "text": reply, "refusal": None, "category": str(item.get("category")),
            "source": f"{repo}@{commit}:{path}#{conv}/{i}", "split": split}


def draw(git_dir: str, second: bool = False) -> list[dict]:
    """Draw 1 (the first rows of FILES: real-tune), or with `second` draw 2 (real-heldout-2): the
    rows of FILES2 after the ones draw 1 took (all rows of a file that draw 1 did not read)."""
    rows = []
    for commit, path, n_neg, n_other in (FILES2 if second else FILES):
        ranked = _replies(git_dir, commit, path)
        for negated, skip in ((True, n_neg), (False, n_other)):
            found = ranked[negated]
            chosen = found[skip:skip + (150 if not negated and skip else len(found))] if second else found[:skip]
            rows += [_row(REPO, commit, path, conv, i, item, reply, "real-heldout-2" if second else "real-tune")
                     for _, conv, i, item, reply in chosen]
    return rows


def draw3(git_dir: str) -> list[dict]:
    rows, seen = [], set()
    for commit, path in FILES3:
        ranked = _replies(git_dir, commit, path, skip=seen)
        for negated, take in ((True, None), (False, 50)):
            for _, conv, i, item, reply in ranked[negated][:take]:
                seen.add((item["question"], reply))
                rows.append(_row(MEMOBASE, commit, path, conv, i, item, reply, "real-heldout-3"))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mem0", required=True, help="a git directory of mem0ai/mem0")
    ap.add_argument("--memobase", required=True, help="a git directory of memodb-io/memobase")
    ap.add_argument("--out", help="write the unlabelled draw here")
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = ap.parse_args()
    rows = draw(args.mem0) + draw(args.mem0, second=True) + draw3(args.memobase)
    if args.out:
        write_draw(rows, args.out)
    if args.check:
        return check_shipped(rows, Path(__file__).with_name("refusal_real_labels.jsonl"), ("text", "question"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
