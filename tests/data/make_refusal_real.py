"""Draw the real-reply refusal samples: tests/data/refusal_real_labels.jsonl (draws 1-3, terse replies
of two memory systems to LoCoMo) and tests/data/refusal_chat_draw.jsonl (draw 4, replies of chat
assistants to LongMemEval; labelled, it becomes tests/data/refusal_chat_labels.jsonl) and
tests/data/refusal_chat_draw5.jsonl (draw 5, other runs of the same assistants on the questions draw 4
never drew; labelled, tests/data/refusal_chat_labels5.jsonl) and tests/data/refusal_chat_draw6.jsonl
(draw 6, eleven runs of nine chat models, eight of them new, on another benchmark, MTRAG; labelled,
tests/data/refusal_chat_labels6.jsonl) and tests/data/refusal_chat_draw7.jsonl (draw 7, a chat model's
replies to LoCoMo questions under four memory settings; labelled, tests/data/refusal_chat_labels7.jsonl)
and tests/data/refusal_chat_draw8.jsonl (draw 8, two open chat models' replies to reading-comprehension
questions about a passage that often does not hold the answer; labelled, tests/data/refusal_chat_labels8.jsonl).

    python tests/data/make_refusal_real.py --mem0 MEM0_GIT_DIR --memobase MEMOBASE_GIT_DIR --out draft.jsonl
    python tests/data/make_refusal_real.py --mem0 MEM0_GIT_DIR --memobase MEMOBASE_GIT_DIR --check
    python tests/data/make_refusal_real.py --echoes DIR --llama DIR [--draw 5] --out drawN.jsonl --sheets DIR
    python tests/data/make_refusal_real.py --echoes DIR --llama DIR --check
    python tests/data/make_refusal_real.py --mtrag DIR --mtrag-fork DIR --draw 6 --out draw6.jsonl --sheets DIR
    python tests/data/make_refusal_real.py --mtrag DIR --mtrag-fork DIR --check
    python tests/data/make_refusal_real.py --dialogue-gaps DIR --draw 7 --out draw7.jsonl --sheets DIR
    python tests/data/make_refusal_real.py --dialogue-gaps DIR --check
    python tests/data/make_refusal_real.py --unans-directions DIR --draw 8 --out draw8.jsonl --sheets DIR
    python tests/data/make_refusal_real.py --unans-directions DIR --check
    python tests/data/make_refusal_real.py --unans-directions DIR --draw 9|10 --out drawN.jsonl --sheets DIR
    python tests/data/make_refusal_real.py [--draw 5|6|...|17] --merge READER1.jsonl READER2.jsonl [--third THIRD.jsonl]

Draws 1-3 come from the replies mem0 published with its LoCoMo evaluation (github.com/mem0ai/mem0,
Apache-2.0, evaluation/results/): what mem0's answering model (MODEL in its evaluation .env; its
README's example is gpt-4o-mini, which the files do not record) replied to LoCoMo's questions about
long conversations, from the memories mem0 retrieved: answers, negative answers ("No, she supports
the community.") and declines ("No specific date mentioned."). The draw is fixed and stratified so
that hard cases are common: per file, the replies that contain a negation or doubt word (NEGATION
below: the naive reading's cue, not br-eval's detector) and the others are each ordered by the
sha256 of "<path>#<conversation>#<index>" and the first N of each taken (draw 1, 460 replies). Draw 1
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

Draw 4 (see CHAT_FILES) is drawn the same way, per file and per split, from four repositories, and
split by question into "chat-tune" and "chat-heldout" before anyone labels it. --sheets writes what
the readers see (id, question, reply) and refusal_labelling_guide.md is what they follow; --merge
joins their labels to the shipped draw. Draw 5 ("chat-heldout-2", see CHAT_FILES5) is drawn the same
way from the two repositories' other published runs, from only the questions that have no reply in
draw 4; --draw 5 makes --out, --sheets and --merge work on it, and --check checks draws 4 and 5.

Draw 6 ("chat-heldout-3", see CHAT_FILES6) is a new blind set, drawn before anyone read it: 273 replies
(168 with a negation word, 105 without) of chat models to MTRAG's multi-turn RAG questions, most of them
UNANSWERABLE turns, from two repositories under Apache-2.0 (per source, below CHAT_FILES6):
pashaAbri/mt-rag-benchmark@4a7d04e, nine models' runs on the 55 unanswerable turns (gpt-4o,
gpt-4o-mini, Llama 3.1 8B/70B/405B Instruct Turbo, Qwen2.5 7B/72B Instruct Turbo, Mixtral 8x22B
Instruct, Command R+), and IBM/mt-rag-benchmark@cc5b1d4, the MTRAG paper's GPT-4o and Llama 3.1 405B
replies on its human-evaluation subset (mostly answerable turns: answers with a negation word in them).
--draw 6 makes --out, --sheets and --merge work on it; --check checks it when --mtrag and --mtrag-fork
are given.

Draw 7 ("chat-heldout-4", see CHAT_FILES7) is a new blind set, drawn before anyone read it: 116 replies (61
with a negation word, 55 without) of GPT-4o-mini, written in full sentences, to 30 questions of LoCoMo
(long conversations between two people) under four memory settings: the whole conversation, its last 10
turns, the 5 turns most like the question, and no conversation at all, so that many replies are to a
question the model cannot answer from what it was given. One source, MIT (per source, below
CHAT_FILES7): ChicagoHAI/dialogue-agent-memory-bd8d@611275f. It falls short of the 250 replies aimed
at: no other published, permissively licensed chat-model replies to unanswerable questions about a
context were found in the time given (see CHAT_FILES7). --draw 7 makes --out, --sheets and --merge work
on it; --check checks it when --dialogue-gaps is given.

Draw 8 ("chat-heldout-5", see CHAT_FILES8) is a new blind set, drawn before anyone read it: 264 replies
(168 with a negation word, 96 without) of two open chat models, Gemma 3 12B IT and Llama 3 8B
Instruct, to questions of SQuAD 2.0, Natural Questions and MuSiQue about a passage, 216 of them about a
passage that does not hold the answer, with a plain prompt or one that asks for "unanswerable" then. One
source, MIT (per source, below CHAT_FILES8): MaorLavi/unanswerability-directions@bb6285e, the baseline
completions of its paper's runs, replies cut at 64 new tokens as published. Below CHAT_FILES8 is also the
list of the sources looked at for draw 8 and left out. --draw 8 makes --out, --sheets and --merge work on
it; --check checks it when --unans-directions is given.

Draw 9 ("chat-heldout-6", draw_chat9) is the blind set of chat round 5 (which tuned on draw 8): the same
files, models, benchmarks and counts, on questions draw 8 never drew (264 replies); --draw 9 works as
--draw 8 does, and --check checks both.

Draw 10 ("chat-heldout-7", draw_chat10) is the blind set of chat round 6 (which tuned on draws 4-9): the
same files and counts again, on questions neither draw 8 nor draw 9 drew (264 replies); drawn and
labelled (two blind readers, a third reading of their 2 disagreements) before round 6 was frozen, and
measured once after. --draw 10 works as --draw 8 does, and --check checks draws 8-10.

Draw 11 ("chat-heldout-8", draw_chat11) is the blind set of chat round 7 (which tuned on draw 10): the
passage-QA files again on questions none of draws 8-10 drew (264 replies), and the chat assistants of
draws 4-5 on the LongMemEval questions neither has a reply to (113 replies). --draw 11 needs --echoes,
--llama and --unans-directions.

Draw 12 ("chat-heldout-9", draw_chat12) is the blind set of chat round 8 (which tuned on draw 11): the
passage-QA files again on questions none of draws 8-11 drew (264 replies), and every reply of MTRAG's
human-evaluation subset to a question draw 6 never drew (181 replies, answerable and partial turns).
--draw 12 needs --echoes, --llama, --unans-directions, --mtrag and --mtrag-fork.

Draw 13 ("chat-heldout-10", draw_chat13) is the blind set of chat round 9 (which tuned on draw 12): the
passage-QA files again on questions none of draws 8-12 drew (264 replies), and every reply of the MTRAG
fork's nine runs that draw 6 did not take (its 55 unanswerable turns; replies, not questions, unseen).
--draw 13 needs the same flags as --draw 12.

Draw 14 ("chat-heldout-11", draw_chat14) is the blind set of the learned reader's second version
(features version 2, trained with the minimal pairs), drawn after it was trained: the passage-QA
files again on questions none of draws 8-13 drew (262 replies; the files ran short of 264). Its two
readers agreed on 259/262, a third reading settled the rest; it is held out of the learned model.
--draw 14 needs the same flags as --draw 12.

Draw 15 ("chat-heldout-12", draw_chat15) counts hedged answers: draw 14 held 19, too few for the
false-refusal goal. The passage-QA files again, on questions none of draws 8-14 drew, only replies
with a negation word, mostly to questions whose passage holds the answer (298 replies). Two blind
readers agreed on 293/298, a third reading settled the rest; measured once with the reader that
draw 14 measured. --draw 15 needs the same flags as --draw 12.

Draw 16 ("chat-heldout-13", draw_chat16) is the blind set of the round that learns from draw 15: drawn
as draw 15 on questions none of draws 8-15 drew (256 replies; the smaller files ran out), labelled
blind (two readers agreed on 252/256, a third reading settled 4) and committed before that round,
measured once after it (docs/scoring.md). Draw 17 ("chat-tune-17", draw_chat17) is that round's training rows, drawn after draw 16 from what is
left (538 replies; two readers agreed on 533, a third reading settled 5). --draw 16 and --draw 17
need the same flags as --draw 12.
"""

from __future__ import annotations

import argparse
import functools
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


def _drawn_once(how):
    """Each chat draw is drawn from the ones before it, which draw from theirs: without this, draw N
    would redraw draw 8 2^(N-8) times. Memoised per set of git directories (the rows are never
    mutated; callers get a new list)."""
    done = {}

    @functools.wraps(how)
    def once(dirs: dict[str, str]) -> list[dict]:
        key = tuple(sorted(dirs.items()))
        if key not in done:
            done[key] = how(dirs)
        return list(done[key])
    return once


def _ranked(path: str, entries, skip: set | None = None) -> dict[bool, list]:
    """`entries` ((key, question, reply, extra) for each reply of the file at `path`) split by
    whether the reply holds a negation word, each ordered by the sha256 of "<path>#<key>":
    (digest, key, question, reply, extra); replies whose (question, reply) is in `skip` left out."""
    keyed = {True: [], False: []}
    for key, question, reply, extra in entries:
        if skip and (question, reply) in skip:
            continue
        digest = hashlib.sha256(f"{path}#{key}".encode()).digest()
        keyed[bool(NEGATION.search(reply))].append((digest, key, question, reply, extra))
    return {negated: sorted(found, key=lambda k: k[0]) for negated, found in keyed.items()}


def _replies(git_dir: str, commit: str, path: str, skip: set | None = None) -> dict[bool, list]:
    """A memory system's LoCoMo results file ({conversation: [{question, response, category}]}),
    ranked by `_ranked`; each entry's extra is (conversation, index, item)."""
    data = json.loads(git_show(git_dir, commit, path))
    return _ranked(path, ((f"{conv}#{i}", item["question"], str(item.get("response", "")).strip(), (conv, i, item))
                          for conv, items in data.items() for i, item in enumerate(items)), skip)


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
                     for _, _, _, reply, (conv, i, item) in chosen]
    return rows


def draw3(git_dir: str) -> list[dict]:
    rows, seen = [], set()
    for commit, path in FILES3:
        ranked = _replies(git_dir, commit, path, skip=seen)
        for negated, take in ((True, None), (False, 50)):
            for _, _, question, reply, (conv, i, item) in ranked[negated][:take]:
                seen.add((question, reply))
                rows.append(_row(MEMOBASE, commit, path, conv, i, item, reply, "real-heldout-3"))
    return rows


# Draw 4 (chat-tune, chat-heldout): chat assistants replying in their own words to questions about a
# conversation history (LongMemEval, whose "_abs" questions ask about something the history never
# mentions), as published with each run; only sources under a permissive licence:
#   m4cd4r4/claude-echoes (MIT): Claude Haiku 4.5 and Claude Sonnet 4.6 over retrieved chat messages;
#   Hunk0724/LongMemEval (MIT, a fork of LongMemEval): Llama 3.1 8B Instruct, step-by-step replies
#     with LongMemEval's own prompts; its logged prompts also give every question's text.
# (Gemini runs published without a licence and L-Eval's GPL predictions were looked at and left out.)
# Each question belongs to one split, by the parity of the second byte of
# sha256("<benchmark>#<question id>"), so no question has replies in both. Per file and split, the
# replies with a negation word and the others are each ordered by sha256("<path>#<key>") and the
# first N of each taken, leaving out replies over CHAT_MAX_CHARS characters, empty ones, and any
# (question, reply) already drawn.
ECHOES = ("m4cd4r4/claude-echoes", "71d19042d5462d66890aa8bd27696077e10edbaf")
LLAMA = ("Hunk0724/LongMemEval", "6dc5c8170f616cae408cc298713cb4f0829dff8a")
_LLAMA_LOGS = "generation_logs/fullhistory_stella_userfact/llama3.1-8b-128k"
# The LongMemEval question texts, from the prompts logged with the oracle run
LME_QUESTIONS = f"{_LLAMA_LOGS}/con/longmemeval_oracle.json_testlog_top1000context_jsonformat_useronlyfalse_20251215-1521.jsonl"
CHAT_MAX_CHARS = 2000
CHAT_FILES = [  # (repo, path, answering model, replies with a negation word and others per split)
    *((ECHOES, f"benchmarks/results/{run}.jsonl", model, 30, 10) for run, model in (
        ("haiku_full", "claude-haiku-4-5-20251001"), ("haiku_bm25_temporal", "claude-haiku-4-5-20251001"),
        ("sonnet_hybrid", "claude-sonnet-4-6"), ("sonnet_bm25_temporal", "claude-sonnet-4-6"))),
    (LLAMA, LME_QUESTIONS, "llama-3.1-8b-instruct", 30, 10),
    (LLAMA, "generation_logs/rag_stella_userfact_turn_old/llama3.1-8b-128k/con/longmemeval_s_cleaned.json_retrievallog_"
            "turn_flat-stella_testlog_top50context_jsonformat_useronlyfalse_20251212-0340.jsonl", "llama-3.1-8b-instruct", 30, 10),
]
CHAT_SPLITS = ("chat-tune", "chat-heldout")
# Draw 5 (chat-heldout-2): the other runs of the same two repositories at the same commits, on only the
# LongMemEval questions draw 4 never drew (no question id in either of its splits), one split, per file
# the first N replies with a negation word and M others, drawn as in draw 4. The runs whose files the
# stored snapshots lack (claude-echoes' haiku_reranked, sonnet_patched and sonnet_reranked; the fork's
# cot oracle run and its rag_stella_none and rag_stella_userfact_turn runs) are left out. The five
# "bc_only" runs answer the same 166 questions with different context sizes, so each gives fewer.
CHAT_SPLIT5 = "chat-heldout-2"
_LLAMA_BC = f"{_LLAMA_LOGS}/con/longmemeval_oracle_bc_only.json_testlog_top1000context_jsonformat_useronlyfalse"
CHAT_FILES5 = [  # (repo, path, answering model, replies with a negation word, others)
    *((ECHOES, f"benchmarks/results/{run}.jsonl", model, 20, 6) for run, model in (
        ("haiku_bm25", "claude-haiku-4-5-20251001"), ("haiku_hybrid", "claude-haiku-4-5-20251001"),
        ("haiku_hybrid2", "claude-haiku-4-5-20251001"), ("haiku_temporal", "claude-haiku-4-5-20251001"),
        ("sonnet_bm25", "claude-sonnet-4-6"))),
    (LLAMA, f"{_LLAMA_LOGS}/cot/longmemeval_oracle_answer_only.json_testlog_top1000context_jsonformat_useronlyfalse"
            "_20251220-0712.jsonl", "llama-3.1-8b-instruct", 20, 6),
    (LLAMA, "generation_logs/rag_stella_userfact_turn_old/llama3.1-8b-128k/con/longmemeval_s_cleaned.json_retrievallog_"
            "turn_flat-stella.timefilteredgpt-4o_testlog_top50context_jsonformat_useronlyfalse_20251212-1054.jsonl",
     "llama-3.1-8b-instruct", 20, 6),
    *((LLAMA, f"{_LLAMA_BC}_{run}.jsonl", "llama-3.1-8b-instruct", 11, 3) for run in (
        "con500_1k_20251217-0615", "con1500_2k_20251217-0720", "con2500_3k_20251217-0747", "con3500_4k_20251216-1221",
        "con5500_6k_20251217-0822")),
]


def _chat_entries(git_dir: str, repo: tuple, path: str, questions: dict) -> tuple[str, list]:
    """(benchmark, [(key, question, reply, (split key, question type))]) for one file of CHAT_FILES,
    keyed by LongMemEval's question id."""
    text = git_show(git_dir, repo[1], path)
    rows = json.loads(text) if path.endswith(".json") else [json.loads(line) for line in text.splitlines() if line.strip()]
    return "LongMemEval", [(r["question_id"], questions[r["question_id"]], str(r["hypothesis"]).strip(),
                            (r["question_id"], r.get("question_type", ""))) for r in rows]


def lme_questions(git_dir: str) -> dict[str, str]:
    """LongMemEval's question texts by question id, from the prompts of LLAMA's logged oracle run."""
    out = {}
    for line in git_show(git_dir, LLAMA[1], LME_QUESTIONS).splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["question_id"]] = re.search(r"\nQuestion: (.*?)\nAnswer", row["prompt"], re.S).group(1)
    return out


def _question_split(benchmark: str, question_id: str) -> str:
    """Draw 4's split of a question."""
    return CHAT_SPLITS[hashlib.sha256(f"{benchmark}#{question_id}".encode()).digest()[1] % 2]


def _draw_chat_files(dirs: dict[str, str], files: list, splits: tuple[str, ...], split_of,
                     excluded: frozenset = frozenset()) -> list[dict]:
    """Per file of `files` and per split, the first replies of `_ranked` (each question's split given
    by `split_of(benchmark, question id)`), leaving out the question ids in `excluded`."""
    questions = lme_questions(dirs[LLAMA[0]])
    rows, seen = [], set()
    for repo, path, model, n_neg, n_other in files:
        benchmark, entries = _chat_entries(dirs[repo[0]], repo, path, questions)
        ranked = _ranked(path, [e for e in entries if e[2] and len(e[2]) <= CHAT_MAX_CHARS and e[3][0] not in excluded])
        for split in splits:
            for negated, take in ((True, n_neg), (False, n_other)):
                chosen = []
                for _, key, question, reply, (split_key, kind) in ranked[negated]:
                    if len(chosen) == take:
                        break
                    if split_of(benchmark, split_key) == split and (question, reply) not in seen:
                        seen.add((question, reply))
                        chosen.append({"question": question, "text": reply, "refusal": None, "category": kind,
                                       "benchmark": benchmark, "model": model,
                                       "source": f"{repo[0]}@{repo[1]}:{path}#{key}", "split": split})
                rows += chosen
    return rows


@_drawn_once
def draw_chat(dirs: dict[str, str]) -> list[dict]:
    """Draw 4 from the git directories of the two repositories ({owner/name: git dir})."""
    return _draw_chat_files(dirs, CHAT_FILES, CHAT_SPLITS, _question_split)


@_drawn_once
def draw_chat5(dirs: dict[str, str]) -> list[dict]:
    """Draw 5 (chat-heldout-2): CHAT_FILES5 on the questions of which draw 4 has no reply."""
    drawn = frozenset(row["source"].rsplit("#", 1)[1] for row in draw_chat(dirs))
    return _draw_chat_files(dirs, CHAT_FILES5, (CHAT_SPLIT5,), lambda *_: CHAT_SPLIT5, excluded=drawn)


# Draw 6 (chat-heldout-3): another benchmark and other assistants, so that nothing of it was tuned on:
# MTRAG (IBM's multi-turn RAG benchmark: conversations grounded in passages of four domains, whose
# UNANSWERABLE turns ask for something the passages do not hold), as published in two repositories
# under Apache-2.0:
#   pashaAbri/mt-rag-benchmark (a fork of IBM/mt-rag-benchmark; Apache-2.0, the LICENSE it carries at
#     MTRAG_FORK's commit): its own runs of nine chat models with the MTRAG paper's prompt ("... If no
#     answer can be found in the documents, say, 'I do not have specific information'"; greedy, at most
#     200 tokens) on MTRAG's reference setting, of which it published only the tasks with null metrics:
#     the 55 UNANSWERABLE turns (no passage given, the conversation so far and the question) and 10
#     CONVERSATIONAL ones, one file per model; the model is the api_model_id of the run's config
#     (scripts/generation_scripts/model_invocation/llm_configs/, same commit): gpt-4o and gpt-4o-mini
#     (OpenAI), and through Together AI Llama 3.1 8B/70B/405B Instruct Turbo, Qwen2.5 7B/72B Instruct
#     Turbo, Mixtral 8x22B Instruct v0.1 and Command R+ (c4ai-command-r-plus).
#   IBM/mt-rag-benchmark (Apache-2.0): the paper's own replies of GPT-4o and Llama 3.1 405B Instruct on
#     its human-evaluation subset (159 tasks with the reference passages: 135 ANSWERABLE, 15 PARTIAL,
#     7 UNANSWERABLE, 2 CONVERSATIONAL), mtrag-human/evaluations/reference_subset_with_human_evaluations.json
#     (its "reference" rows are the human-written targets, not a model, and are left out).
# The question is the task's last user turn; "category" is MTRAG's answerability. CONVERSATIONAL turns
# ("Thanks!") ask for nothing and are left out. Per file (per model for IBM's file, which holds both),
# the replies with a negation word and the others are each ordered by sha256("<path>#<key>") and the
# first N of each taken, leaving out replies over DRAW6_MAX_CHARS characters, empty ones, and any reply
# whose text (whitespace-stripped) was already drawn, for any question: the fork's runs repeat the
# prompt's own sentence word for word over a hundred times, and the set counts it once or twice. One
# split; MTRAG shares no question with LongMemEval, so draws 4-5 have none of these questions.
MTRAG = ("IBM/mt-rag-benchmark", "cc5b1d481b391181b89f7ced860308482e785463")
MTRAG_FORK = ("pashaAbri/mt-rag-benchmark", "4a7d04e4738f395e077041f215dcb363b3dbfdc7")
CHAT_SPLIT6 = "chat-heldout-3"
DRAW6_MAX_CHARS = 2500
_FORK_RUNS = "scripts/generation_scripts/reference/results/null_metrics_subset"
_MTRAG_SUBSET = "mtrag-human/evaluations/reference_subset_with_human_evaluations.json"
CHAT_FILES6 = [  # (repo, path, model id in the file (IBM's file) or None, answering model, negated, others)
    *((MTRAG_FORK, f"{_FORK_RUNS}/{run}_reference_evaluated_null_metrics.jsonl", None, model, 16, 10)
      for run, model in (("gpt_4o", "gpt-4o"), ("gpt_4o_mini", "gpt-4o-mini"),
                         ("llama_3.1_8b", "llama-3.1-8b-instruct-turbo"), ("llama_3.1_70b", "llama-3.1-70b-instruct-turbo"),
                         ("llama_3.1_405b", "llama-3.1-405b-instruct-turbo"), ("qwen_2.5_7b", "qwen2.5-7b-instruct-turbo"),
                         ("qwen_2.5_72b", "qwen2.5-72b-instruct-turbo"), ("mixtral_8x22b", "mixtral-8x22b-instruct-v0.1"),
                         ("command_r_plus", "c4ai-command-r-plus"))),
    *((MTRAG, _MTRAG_SUBSET, model, model, 22, 14) for model in ("gpt-4o", "llama-3.1-405b-instruct")),
]


def _mtrag_entries(git_dir: str, repo: tuple, path: str, model_id: str | None) -> list:
    """[(key, question, reply, answerability)] for one file of CHAT_FILES6: a run of the fork (one
    JSON line per task, keyed by MTRAG's task id) or IBM's evaluation file (the replies of `model_id`,
    keyed by "<model id>/<task id>"); CONVERSATIONAL turns left out."""
    text = git_show(git_dir, repo[1], path)
    if model_id is None:
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        found = [(r["task_id"], r["input"], r["Answerability"], r["predictions"][0]["text"]) for r in rows]
    else:
        data = json.loads(text)
        tasks = {t["task_id"]: t for t in data["tasks"]}
        found = [(f"{model_id}/{e['task_id']}", tasks[e["task_id"]]["input"], tasks[e["task_id"]]["Answerability"],
                  e["model_response"]) for e in data["evaluations"] if e["model_id"] == model_id]
    return [(key, turns[-1]["text"].strip(), str(reply).strip(), answerability[0])
            for key, turns, answerability, reply in found if answerability != ["CONVERSATIONAL"]]


@_drawn_once
def draw_chat6(dirs: dict[str, str]) -> list[dict]:
    """Draw 6 (chat-heldout-3) from the git directories of MTRAG's two repositories."""
    rows, seen = [], set()
    for repo, path, model_id, model, n_neg, n_other in CHAT_FILES6:
        entries = _mtrag_entries(dirs[repo[0]], repo, path, model_id)
        ranked = _ranked(path, [e for e in entries if e[2] and len(e[2]) <= DRAW6_MAX_CHARS])
        rows += _take_unseen(ranked, n_neg, n_other, seen, lambda key, question, reply, answerability: {
            "question": question, "text": reply, "refusal": None, "category": answerability, "benchmark": "MTRAG",
            "model": model, "source": f"{repo[0]}@{repo[1]}:{path}#{key}", "split": CHAT_SPLIT6})
    return rows


def _take_unseen(ranked: dict[bool, list], n_neg: int | None, n_other: int | None, seen: set, row) -> list[dict]:
    """The first `n_neg` replies with a negation word and the first `n_other` without (None: all) of
    `ranked` (_ranked's answer), skipping any reply whose text is in `seen` (and adding each taken
    one to it); `row(key, question, reply, extra)` makes each row."""
    rows = []
    for negated, take in ((True, n_neg), (False, n_other)):
        chosen = []
        for _, key, question, reply, extra in ranked[negated]:
            if len(chosen) == take:
                break
            if reply not in seen:
                seen.add(reply)
                chosen.append(row(key, question, reply, extra))
        rows += chosen
    return rows


# Draw 7 (chat-heldout-4): another benchmark's questions, asked of a chat model that writes full
# sentences, under settings where the answer is often out of its reach:
#   ChicagoHAI/dialogue-agent-memory-bd8d (README, "License": code MIT, report CC BY 4.0, data subject to
#     the original datasets' licences; LoCoMo's questions, CC BY-NC 4.0, are in draws 1-3 as well), the
#     only commit with results, 611275f: results/locomo_results.json, written by src/run_experiments.py
#     with src/memory_gap_detector.py at that commit: for 30 questions of LoCoMo (three of each of its
#     ten conversations), gpt-4o-mini (temperature 0.7; system prompt "You are a helpful dialogue agent.
#     Use the conversation history to answer the user's question.") replied four times, once per memory
#     setting, which is the row's "category": full_context (the whole conversation), recent_10 (its
#     last 10 turns), semantic_5 (the 5 turns most similar to the question) and no_memory (no
#     conversation at all). Each question has a gold answer in the whole conversation; in the last
#     three settings the model is often not given it.
# Keyed "<index in the file>/<setting>". The replies with a negation word and the others are each
# ordered by sha256("<path>#<key>") and all of them taken, leaving out replies over DRAW7_MAX_CHARS
# characters (none), empty ones, and any reply whose text (whitespace-stripped) was already drawn (four
# recent_10 and semantic_5 replies repeat another word for word). One split. None of these questions
# is in draws 4-6 (LongMemEval, MTRAG); 13 of the 30 are among draws 1-3's LoCoMo questions, answered
# there by memory systems in a few words.
# Looked at and left out: L-Eval's predictions (GPL-3.0), dial481/locomo-audit's GPT-4o-mini /
# GPT-4.1-mini full-context LoCoMo replies (CC BY-NC 4.0), LugmanS/longmemeval's Gemini runs (no
# licence), NoMIRACL's baselines (Apache-2.0, but the prompt asks for "Yes, answer is present" or "I
# don't know", not an answer), RAGTruth's responses (MIT, but the file is not in the stored snapshot),
# and LongMemEval runs of other repositories (draws 4-5 already hold 442 of its 500 questions).
DIALOGUE_GAPS = ("ChicagoHAI/dialogue-agent-memory-bd8d", "611275feb9ea350cf59ac24c6c2f9627d72b8e4b")
CHAT_SPLIT7 = "chat-heldout-4"
DRAW7_MAX_CHARS = 2500
CHAT_FILES7 = [  # (repo, path, answering model, replies with a negation word, others; None: all)
    (DIALOGUE_GAPS, "results/locomo_results.json", "gpt-4o-mini", None, None),
]


def _dialogue_gap_entries(git_dir: str, repo: tuple, path: str) -> list:
    """[(key, question, reply, memory setting)] for the file of CHAT_FILES7."""
    data = json.loads(git_show(git_dir, repo[1], path))
    return [(f"{i}/{setting}", item["query"].strip(), str(reply).strip(), setting)
            for i, item in enumerate(data) for setting, reply in item["responses"].items()]


@_drawn_once
def draw_chat7(dirs: dict[str, str]) -> list[dict]:
    """Draw 7 (chat-heldout-4) from the git directory of ChicagoHAI/dialogue-agent-memory-bd8d."""
    rows, seen = [], set()
    for repo, path, model, n_neg, n_other in CHAT_FILES7:
        entries = _dialogue_gap_entries(dirs[repo[0]], repo, path)
        ranked = _ranked(path, [e for e in entries if e[2] and len(e[2]) <= DRAW7_MAX_CHARS])
        rows += _take_unseen(ranked, n_neg, n_other, seen, lambda key, question, reply, setting: {
            "question": question, "text": reply, "refusal": None, "category": setting, "benchmark": "LoCoMo",
            "model": model, "source": f"{repo[0]}@{repo[1]}:{path}#{key}", "split": CHAT_SPLIT7})
    return rows


# Draw 8 (chat-heldout-5): other benchmarks again, reading comprehension over a passage, so that nothing of
# it was tuned on: two open chat models asked questions about a passage, half of them about a passage that
# does not hold the answer, as published with the paper "Detecting (Un)answerability in Large Language
# Models with Linear Directions" (Lavi, Milo, Geva, 2025):
#   MaorLavi/unanswerability-directions (MIT, the LICENSE at UNANS_DIRECTIONS' commit; the questions come
#     from SQuAD 2.0 (CC BY-SA 4.0), Natural Questions (CC BY-SA 3.0) and MuSiQue (CC BY 4.0), as the
#     repository's data/ splits them): pipeline/runs/<model>/<dataset>/evaluations/<prompt>/completions/
#     baseline_{ans,unans}_completions.json, the replies of the models without any intervention (the
#     "baseline" of the paper; its other runs steer the model and are left out): gemma3 is
#     google/gemma-3-12b-it and llama3 is meta-llama/Meta-Llama-3-8B-Instruct (the model paths of its
#     notebooks), each prompt in the model's chat template, greedy, at most 64 new tokens (model_base.py at
#     that commit), so that a long reply stops mid-sentence as published. 1,000 prompts per file: "Given the
#     following passage and question, answer the question" (standard_prompt), or the same with 'If it cannot
#     be answered based on the passage, reply "unanswerable"' (abstain_aware_prompt), then the passage, the
#     question and "Answer:". In the unans files the passage does not hold the answer: SQuAD 2.0's
#     unanswerable questions with their paragraph, and Natural Questions and MuSiQue questions whose
#     evidence was taken out of the passage. The question is the prompt's "Question:" line; "category" is
#     "<unanswerable|answerable>/<prompt>". The repository's RepLiQA completions are not in the stored
#     snapshot (files of 4 MiB and more) and are left out, as is a second run of llama3's nq standard_prompt
#     (a test/ folder); evaluations/*/gpt_classification_results.json (a GPT model's reading of these
#     replies) is not used, and the readers should not see it.
# Per file the replies with a negation word and the others are each ordered by sha256("<path>#<index in
# the file>") and the first N of each taken (mostly from the unans files, a few from the ans files),
# leaving out replies over DRAW8_MAX_CHARS characters (none), empty ones, and any reply whose text
# (whitespace-stripped) was already drawn, for any question (the abstain_aware runs repeat "unanswerable"
# hundreds of times). One split. None of these benchmarks is in draws 1-7 (LoCoMo, LongMemEval, MTRAG).
# Looked at for draw 8 and left out (besides the sources named for draws 4-7):
#   yinzhangyue/SelfAware, BunsenFeng/AbstainQA, SalesforceAIResearch/FaithEval, chen700564/RGB,
#     SalesforceAIResearch/Unanswerability_RAGE, SalesforceAIResearch/ConvoMem, lovodkin93/unanswerability,
#     facebookresearch/AbstentionBench (its README only), THUIR/MemoryBench, MemTensor/MemOS,
#     getzep/zep-papers (grades only, LoCoMo category 5 left out), declare-lab/trust-align,
#     vectorize-io/hindsight: data, prompts and code, no published model replies in the stored copies;
#   swan28pande/LifelongAgent (full-sentence LoCoMo replies of a chat model under four memory settings):
#     no licence, and no snapshot can be had; alirza-gz/Policy-Aware-Multi-Agent-RAG-for-Unanswerable-
#     Question-Detection-in-Educational-Domain- (SciQ, templated abstentions), msb1/rag-bench,
#     Jay-ju/locomo-benchmark-eval, TuringK/AbstentionBench (a fork's analysis CSVs): no licence;
#   francisdu53/exia-ghost-benchmarks (LoCoMo with category 5): CC BY-NC 4.0, and terse;
#   stateletlab/statelet-longmemeval: FSL; LongMemEval runs of other repositories: draws 4-5 hold 442
#     of its 500 questions and 29 of its 30 abstention questions;
#   LongBench forks' pred/*/qasper.jsonl (Llama 2 chat on Qasper, MIT): the files hold no question
#     text, and LongBench's data with the questions is in no stored repository;
#   Heman10x-NGU/palimp, raj-chinagundi/locomo_pipeline, SheldonAntony/engram-eval, Portll/veld,
#     verygoodplugins/automem, tfufuz1/memfuse, atakanelik34/Bilinc, predictable-labs/ryumem: retrieval
#     scores, retrieved passages or multiple-choice letters, not written replies.
UNANS_DIRECTIONS = ("MaorLavi/unanswerability-directions", "bb6285e14e2759d5ae88fda0c14ab48cd9526551")
CHAT_SPLIT8 = "chat-heldout-5"
DRAW8_MAX_CHARS = 2500
_UNANS_RUNS = "pipeline/runs/{model}/{dataset}/evaluations/{prompt}/completions/baseline_{kind}_completions.json"
_UNANS_MODELS = {"gemma3": "gemma-3-12b-it", "llama3": "meta-llama-3-8b-instruct"}
_UNANS_BENCHMARKS = {"squad": "SQuAD 2.0", "nq": "Natural Questions", "musique": "MuSiQue"}
CHAT_FILES8 = [  # (repo, path, answering model, benchmark, category, replies with a negation word, others)
    (UNANS_DIRECTIONS, _UNANS_RUNS.format(model=model, dataset=dataset, prompt=prompt, kind=kind), _UNANS_MODELS[model],
     _UNANS_BENCHMARKS[dataset], f"{'unanswerable' if kind == 'unans' else 'answerable'}/{prompt}", n_neg, n_other)
    for model in _UNANS_MODELS for dataset in _UNANS_BENCHMARKS for prompt in ("standard_prompt", "abstain_aware_prompt")
    for kind, n_neg, n_other in (("unans", 11, 7), ("ans", 3, 1))
]


def _unans_entries(git_dir: str, repo: tuple, path: str) -> list:
    """[(key, question, reply, None)] for one file of CHAT_FILES8 (a JSON list of {prompt, response}),
    keyed by the index in the file; the question is the prompt's "Question:" line."""
    rows = json.loads(git_show(git_dir, repo[1], path))
    out = []
    for i, row in enumerate(rows):
        found = re.findall(r"Question:(.*?)\n\s*Answer:", row["prompt"], re.S)
        if len(found) != 1:
            sys.exit(f"{Path(sys.argv[0]).name}: {path}#{i}: no single Question: line in the prompt")
        out.append((str(i), found[0].strip(), str(row["response"]).strip(), None))
    return out


def _draw_unans(dirs: dict[str, str], split: str, earlier: tuple = (), counts=None) -> list[dict]:
    """The draw `split` from the git directory of MaorLavi/unanswerability-directions: per file of
    CHAT_FILES8, the first replies in sha256 order (with and without a negation word: the file's
    counts, or `counts(category)`'s), skipping any whose question is in an `earlier` draw and any
    whose text is in an earlier draw or already taken."""
    before = [r for how in earlier for r in how(dirs)]
    asked, rows, seen = {r["question"] for r in before}, [], {r["text"] for r in before}
    for repo, path, model, benchmark, category, n_neg, n_other in CHAT_FILES8:
        if counts:
            n_neg, n_other = counts(category)
        entries = _unans_entries(dirs[repo[0]], repo, path)
        ranked = _ranked(path, [e for e in entries if e[2] and len(e[2]) <= DRAW8_MAX_CHARS and e[1] not in asked])
        rows += _take_unseen(ranked, n_neg, n_other, seen, lambda key, question, reply, _: {
            "question": question, "text": reply, "refusal": None, "category": category, "benchmark": benchmark,
            "model": model, "source": f"{repo[0]}@{repo[1]}:{path}#{key}", "split": split})
    return rows


@_drawn_once
def draw_chat8(dirs: dict[str, str]) -> list[dict]:
    """Draw 8 (chat-heldout-5) from the git directory of MaorLavi/unanswerability-directions."""
    return _draw_unans(dirs, CHAT_SPLIT8)


# Draw 9 (chat-heldout-6): the blind set of chat round 5, which tuned on draw 8. The same files as draw
# 8 (same models, benchmarks and prompts), on questions draw 8 never drew: per file, the replies after
# those draw 8 took in the same sha256 order, skipping any whose question (or text) is in draw 8,
# the same counts again.
CHAT_SPLIT9 = "chat-heldout-6"


@_drawn_once
def draw_chat9(dirs: dict[str, str]) -> list[dict]:
    """Draw 9 (chat-heldout-6) from the git directory of MaorLavi/unanswerability-directions."""
    return _draw_unans(dirs, CHAT_SPLIT9, (draw_chat8,))


# Draw 10 (chat-heldout-7): the blind set of chat round 6, which tuned on draws 4-9. The same files
# again, on questions neither draw 8 nor draw 9 drew, the same counts again.
CHAT_SPLIT10 = "chat-heldout-7"


@_drawn_once
def draw_chat10(dirs: dict[str, str]) -> list[dict]:
    """Draw 10 (chat-heldout-7) from the git directory of MaorLavi/unanswerability-directions."""
    return _draw_unans(dirs, CHAT_SPLIT10, (draw_chat8, draw_chat9))


# Draw 11 (chat-heldout-8): the blind set of chat round 7, which tuned on draws 4-10. Two parts, drawn
# before anyone read them: the files of draws 8-10 again, on questions none of them drew, the same
# counts (264 replies); and the chat assistants of draws 4-5 on the LongMemEval questions neither draw
# has a reply to (58 of its 500, nearly all answerable: a test of hedged answers), per file of
# CHAT_FILES and CHAT_FILES5 the first DRAW11_LME replies with a negation word and others, drawn as
# in draw 4.
CHAT_SPLIT11 = "chat-heldout-8"
DRAW11_LME = (5, 3)


@_drawn_once
def draw_chat11(dirs: dict[str, str]) -> list[dict]:
    """Draw 11 (chat-heldout-8) from the git directories of draws 4-5's two repositories and of
    MaorLavi/unanswerability-directions."""
    passage = _draw_unans(dirs, CHAT_SPLIT11, (draw_chat8, draw_chat9, draw_chat10))
    drawn = frozenset(row["source"].rsplit("#", 1)[1] for row in draw_chat(dirs) + draw_chat5(dirs))
    files = [(repo, path, model, *DRAW11_LME) for repo, path, model, _, _ in CHAT_FILES + CHAT_FILES5]
    return passage + _draw_chat_files(dirs, files, (CHAT_SPLIT11,), lambda *_: CHAT_SPLIT11, excluded=drawn)


# Draw 12 (chat-heldout-9): the blind set of chat round 8, which tuned on draw 11. Two parts, drawn
# before anyone read them: the passage-QA files again on questions none of draws 8-11 drew, the same
# counts (264 replies); and every reply of MTRAG's human-evaluation subset (the paper's GPT-4o and
# Llama 3.1 405B, answerable and partially answerable turns: a test of hedged answers) to a question
# draw 6 never drew, up to DRAW6_MAX_CHARS characters.
CHAT_SPLIT12 = "chat-heldout-9"


@_drawn_once
def draw_chat12(dirs: dict[str, str]) -> list[dict]:
    """Draw 12 (chat-heldout-9) from the git directories of MTRAG's two repositories, draws 4-5's two
    repositories and MaorLavi/unanswerability-directions."""
    passage = _draw_unans(dirs, CHAT_SPLIT12, (draw_chat8, draw_chat9, draw_chat10, draw_chat11))
    asked, rows, seen = {r["question"] for r in draw_chat6(dirs)}, [], set()
    for model in ("gpt-4o", "llama-3.1-405b-instruct"):
        entries = _mtrag_entries(dirs[MTRAG[0]], MTRAG, _MTRAG_SUBSET, model)
        ranked = _ranked(_MTRAG_SUBSET + "#" + model,
                         [e for e in entries if e[2] and len(e[2]) <= DRAW6_MAX_CHARS and e[1] not in asked])
        rows += _take_unseen(ranked, None, None, seen, lambda key, question, reply, answerability: {
            "question": question, "text": reply, "refusal": None, "category": answerability, "benchmark": "MTRAG",
            "model": model, "source": f"{MTRAG[0]}@{MTRAG[1]}:{_MTRAG_SUBSET}#{key}", "split": CHAT_SPLIT12})
    return passage + rows


# Draw 13 (chat-heldout-10): the blind set of chat round 9, which tuned on draw 12. Two parts, drawn
# before anyone read them: the passage-QA files again on questions none of draws 8-12 drew, the same
# counts (264 replies); and every reply of the fork's nine MTRAG runs (CHAT_FILES6) that draw 6 did not
# take, up to DRAW6_MAX_CHARS characters, each text once: the same 55 UNANSWERABLE turns, answered by
# the same nine models, but replies nobody has read (a test of declines written by chat models).
CHAT_SPLIT13 = "chat-heldout-10"


@_drawn_once
def draw_chat13(dirs: dict[str, str]) -> list[dict]:
    """Draw 13 (chat-heldout-10) from the git directories of MTRAG's two repositories, draws 4-5's two
    repositories and MaorLavi/unanswerability-directions."""
    passage = _draw_unans(dirs, CHAT_SPLIT13, (draw_chat8, draw_chat9, draw_chat10, draw_chat11, draw_chat12))
    rows, seen = [], {r["text"] for r in draw_chat6(dirs)}
    for repo, path, model_id, model, _, _ in CHAT_FILES6:
        if repo != MTRAG_FORK:
            continue
        entries = _mtrag_entries(dirs[repo[0]], repo, path, model_id)
        ranked = _ranked(path, [e for e in entries if e[2] and len(e[2]) <= DRAW6_MAX_CHARS])
        rows += _take_unseen(ranked, None, None, seen, lambda key, question, reply, answerability: {
            "question": question, "text": reply, "refusal": None, "category": answerability, "benchmark": "MTRAG",
            "model": model, "source": f"{repo[0]}@{repo[1]}:{path}#{key}", "split": CHAT_SPLIT13})
    return passage + rows


# Draw 14 (chat-heldout-11): the blind set of the learned reader's second version (features version 2
# and the minimal pairs), drawn after it was trained: the passage-QA files again, on questions none of
# draws 8-13 drew, the same counts (264 replies).
CHAT_SPLIT14 = "chat-heldout-11"


@_drawn_once
def draw_chat14(dirs: dict[str, str]) -> list[dict]:
    """Draw 14 (chat-heldout-11) from the git directories of draw 13's repositories."""
    return _draw_unans(dirs, CHAT_SPLIT14, (draw_chat8, draw_chat9, draw_chat10, draw_chat11, draw_chat12, draw_chat13))


# Draw 15 (chat-heldout-12): a blind set of hedged answers, drawn after the learned reader's second
# version was shipped and before anyone read it. The false-refusal goal is about answers that hold a
# negation word ("the passage does not say X, but it was Y"), and draw 14 held only 19 of them, too few
# to tell 2% from 10%. So: the passage-QA files again, on questions none of draws 8-14 drew, only
# replies with a negation word (NEGATION: the naive reading's cue, not br-eval's reader), the first
# DRAW15_ANSWERABLE per answerable file (where the passage holds the answer, so most such replies
# answer with a caveat) and the first DRAW15_UNANSWERABLE per unanswerable standard_prompt file (where
# a model that answers anyway often hedges); the abstain_aware unanswerable files are left out (their
# negated replies are nearly all declines). Each text once, as in draw 8.
CHAT_SPLIT15 = "chat-heldout-12"
DRAW15_ANSWERABLE, DRAW15_UNANSWERABLE = 22, 14


def _draw_negated(dirs: dict[str, str], split: str, earlier: tuple, answerable: int | None, unanswerable: int) -> list[dict]:
    """Replies with a negation word from the passage-QA files, on questions none of the `earlier`
    draws drew: per answerable file the first `answerable` (None: all), per unanswerable
    standard_prompt file the first `unanswerable`, in sha256 order, each text once."""
    def counts(category: str) -> tuple[int | None, int]:
        if category.startswith("answerable/"):
            return answerable, 0
        return (unanswerable if category == "unanswerable/standard_prompt" else 0), 0
    return _draw_unans(dirs, split, earlier, counts)


_BEFORE15 = (draw_chat8, draw_chat9, draw_chat10, draw_chat11, draw_chat12, draw_chat13, draw_chat14)


@_drawn_once
def draw_chat15(dirs: dict[str, str]) -> list[dict]:
    """Draw 15 (chat-heldout-12) from the git directories of draw 13's repositories."""
    return _draw_negated(dirs, CHAT_SPLIT15, _BEFORE15, DRAW15_ANSWERABLE, DRAW15_UNANSWERABLE)


# Draw 16 (chat-heldout-13): the blind set of the round that learns from draw 15, drawn and labelled
# before that round: drawn as draw 15, on questions none of draws 8-15 drew.
CHAT_SPLIT16 = "chat-heldout-13"


@_drawn_once
def draw_chat16(dirs: dict[str, str]) -> list[dict]:
    """Draw 16 (chat-heldout-13) from the git directories of draw 13's repositories."""
    return _draw_negated(dirs, CHAT_SPLIT16, (*_BEFORE15, draw_chat15), DRAW15_ANSWERABLE, DRAW15_UNANSWERABLE)


# Draw 17 (chat-tune-17): training rows for that round, drawn after draw 16 from what is left: every
# remaining reply with a negation word of the answerable files, and the first DRAW17_UNANSWERABLE of
# each unanswerable standard_prompt file, on questions none of draws 8-16 drew.
CHAT_SPLIT17 = "chat-tune-17"
DRAW17_UNANSWERABLE = 30


@_drawn_once
def draw_chat17(dirs: dict[str, str]) -> list[dict]:
    """Draw 17 (chat-tune-17) from the git directories of draw 13's repositories."""
    return _draw_negated(dirs, CHAT_SPLIT17, (*_BEFORE15, draw_chat15, draw_chat16), None, DRAW17_UNANSWERABLE)


CHAT_DRAW = Path(__file__).with_name("refusal_chat_draw.jsonl")        # draw 4, as drawn (unlabelled)
CHAT_LABELS = Path(__file__).with_name("refusal_chat_labels.jsonl")    # draw 4 with the readers' labels
CHAT_DRAWS = {  # draw: (how it is drawn, the draw as drawn, the draw with the readers' labels)
    4: (draw_chat, CHAT_DRAW, CHAT_LABELS),
    **{n: (how, Path(__file__).with_name(f"refusal_chat_draw{n}.jsonl"), Path(__file__).with_name(f"refusal_chat_labels{n}.jsonl"))
       for n, how in ((5, draw_chat5), (6, draw_chat6), (7, draw_chat7), (8, draw_chat8), (9, draw_chat9),
                      (10, draw_chat10), (11, draw_chat11), (12, draw_chat12), (13, draw_chat13), (14, draw_chat14),
                      (15, draw_chat15), (16, draw_chat16), (17, draw_chat17))},
}
CHAT_FLAGS = {4: {"echoes": ECHOES, "llama": LLAMA}, 5: {"echoes": ECHOES, "llama": LLAMA},  # draw: {flag: repo}
              6: {"mtrag": MTRAG, "mtrag_fork": MTRAG_FORK}, 7: {"dialogue_gaps": DIALOGUE_GAPS},
              8: {"unans_directions": UNANS_DIRECTIONS}, 9: {"unans_directions": UNANS_DIRECTIONS},
              10: {"unans_directions": UNANS_DIRECTIONS},
              11: {"echoes": ECHOES, "llama": LLAMA, "unans_directions": UNANS_DIRECTIONS},
              **{n: {"echoes": ECHOES, "llama": LLAMA, "unans_directions": UNANS_DIRECTIONS, "mtrag": MTRAG,
                     "mtrag_fork": MTRAG_FORK} for n in (12, 13, 14, 15, 16, 17)}}
LABELS = {"declines": True, "answers": False}


def sheet_id(row: dict) -> str:
    """The id a reader sees for a drawn row (it names neither the source nor the split)."""
    return hashlib.sha256(row["source"].encode()).hexdigest()[:12]


def write_sheets(rows: list[dict], folder: str) -> None:
    """One sheet per split of `rows` for the readers: id, question and reply only, ordered by id, with
    an empty label and note to fill in (see refusal_labelling_guide.md)."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    for split in dict.fromkeys(r["split"] for r in rows):
        sheet = sorted(({"id": sheet_id(r), "question": r["question"], "reply": r["text"], "label": None, "note": ""}
                        for r in rows if r["split"] == split), key=lambda r: r["id"])
        write_draw(sheet, str(Path(folder) / f"{split}.jsonl"))


def _read_labels(path: str) -> dict[str, dict]:
    out = {}
    for n, line in enumerate(Path(path).read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("label") not in LABELS:
            sys.exit(f"{Path(sys.argv[0]).name}: {path}:{n}: label must be one of {sorted(LABELS)}, not {row.get('label')!r}")
        out[row["id"]] = row
    return out


def merge(first: list[str], second: list[str], third: list[str], number: int = 4) -> int:
    """Join two readers' labelled sheets (and a third reading of the rows they disagree on) to the
    shipped chat draw `number` (4 to 13) and write its labelled file (CHAT_DRAWS); with a row
    unlabelled or a disagreement unsettled, list them and write nothing."""
    _, drawn, labelled = CHAT_DRAWS[number]
    rows = [json.loads(line) for line in drawn.read_text("utf-8").splitlines() if line.strip()]
    a, b, c = ({k: v for path in paths for k, v in _read_labels(path).items()} for paths in (first, second, third))
    out, open_rows = [], []
    for row in rows:
        key = sheet_id(row)
        if key not in a or key not in b:
            open_rows.append(f"{key}: not labelled by both readers")
            continue
        notes = [n for n in (a[key].get("note"), b[key].get("note")) if n]
        if a[key]["label"] == b[key]["label"]:
            label, by = a[key]["label"], "two readers, agreeing"
        elif key in c:
            label = c[key]["label"]
            by = f"two readers disagreed; settled by a third reading: {c[key].get('reason') or c[key].get('note', '')}"
        else:
            open_rows.append(f"{key}: {a[key]['label']} / {b[key]['label']}: {row['question']!r} -> {row['text'][:300]!r}")
            continue
        out.append({**row, "refusal": LABELS[label], "labelled_by": by, **({"reader_notes": notes} if notes else {})})
    if open_rows:
        print("\n".join(open_rows))
        print(f"{len(open_rows)} rows still open; {labelled.name} not written")
        return 1
    agree = sum(r["labelled_by"] == "two readers, agreeing" for r in out)
    print(f"readers agree on {agree}/{len(out)}")
    write_draw(out, str(labelled))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mem0", help="a git directory of mem0ai/mem0 (draws 1-2)")
    ap.add_argument("--memobase", help="a git directory of memodb-io/memobase (draw 3)")
    for flag, repo, draws in (("--echoes", ECHOES, "4-5"), ("--llama", LLAMA, "4-5"), ("--mtrag", MTRAG, "6"),
                              ("--mtrag-fork", MTRAG_FORK, "6"), ("--dialogue-gaps", DIALOGUE_GAPS, "7"),
                              ("--unans-directions", UNANS_DIRECTIONS, "8-10")):
        ap.add_argument(flag, help=f"a git directory of {repo[0]} (draws {draws})")
    ap.add_argument("--draw", type=int, choices=sorted(CHAT_DRAWS), default=4,
                    help="the chat draw that --out, --sheets and --merge work on (default 4)")
    ap.add_argument("--out", help="write the unlabelled draw here")
    ap.add_argument("--sheets", help="write the chat draw's reader sheets into this folder")
    ap.add_argument("--check", action="store_true", help="compare with the shipped files (every draw the git directories give)")
    ap.add_argument("--merge", nargs=2, metavar=("FIRST", "SECOND"),
                    help="two readers' labelled sheets (comma-separated files each) to join to the shipped chat draw")
    ap.add_argument("--third", default="", help="with --merge: the third reading of the rows they disagree on")
    args = ap.parse_args()
    if args.merge:
        return merge(*(p.split(",") for p in args.merge), [p for p in args.third.split(",") if p], args.draw)
    memory = (args.mem0, args.memobase)
    pairs = ((args.echoes, args.llama), (args.mtrag, args.mtrag_fork), (args.dialogue_gaps,), (args.unans_directions,))
    if any(any(given) != all(given) for given in (memory, *pairs)) or not any(all(given) for given in (memory, *pairs)):
        ap.error("give --mem0 and --memobase (draws 1-3), --echoes and --llama (draws 4-5), --mtrag and "
                 "--mtrag-fork (draw 6), --dialogue-gaps (draw 7), or --unans-directions (draws 8-10); several at once are fine")
    rows = draw(args.mem0) + draw(args.mem0, second=True) + draw3(args.memobase) if all(memory) else []
    chat_draws = {n: how({repo[0]: getattr(args, flag) for flag, repo in CHAT_FLAGS[n].items()})
                  for n, (how, _, _) in CHAT_DRAWS.items()
                  if all(getattr(args, flag) for flag in CHAT_FLAGS[n]) and (args.check or n == args.draw)}
    if (args.out or args.sheets) and any(all(p) for p in pairs) and args.draw not in chat_draws:
        ap.error(f"--draw {args.draw} needs " + " and ".join(f"--{flag.replace('_', '-')}" for flag in CHAT_FLAGS[args.draw]))
    chat_rows = chat_draws.get(args.draw, [])
    if args.out:
        write_draw(rows + chat_rows, args.out)
    if args.sheets:
        write_sheets(chat_rows, args.sheets)
    status = 0
    if args.check and rows:
        status |= check_shipped(rows, Path(__file__).with_name("refusal_real_labels.jsonl"), ("text", "question"))
    for n, drawn_rows in chat_draws.items() if args.check else ():
        _, drawn, labelled = CHAT_DRAWS[n]
        status |= check_shipped(drawn_rows, labelled if labelled.exists() else drawn, ("text", "question"))
    return status


if __name__ == "__main__":
    sys.exit(main())
