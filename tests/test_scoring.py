"""Deterministic scoring: every expected value here is computed by hand in the comment next to it."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.scoring import (TASK_PRIMARY, ScoringError, aggregate, contains, exact_match,
                               extract_choice, extract_options, gold_choice, is_refusal,
                               lcs_length, normalize_answer, primary_metric, rouge_l,
                               score_answer, token_f1)
from evaluator.scoring.refusal import explain

ALL_TASKS = ("conflict_detection", "long_term_semantic_summary", "memory_update",
             "refusal_to_answer", "causal_intent_inference", "cross_modal_relational_reasoning",
             "temporal_logic_state_evolution", "cross_modal_semantic_matching",
             "high_density_information_extraction", "property_state_retrieval",
             "temporal_anchoring")


# -- normalisation and text metrics ---------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("The Cat's  hat!", "cats hat"),
    ("An apple, a pear and THE end.", "apple pear and end"),     # "and" stays (SQuAD, not LoCoMo)
    ("Don’t — stop…", "dont stop"),                              # Unicode punctuation goes too
    ("  theatre  ", "theatre"),                                  # "the" only as a whole word
    ("", ""),
    (42, "42"),
    (3.0, "3"),
    (None, ""),
])
def test_normalize_answer(text, expected):
    assert normalize_answer(text) == expected


def test_exact_match():
    assert exact_match("the Eiffel Tower.", "Eiffel tower") == 1.0
    assert exact_match("Eiffel", "Eiffel Tower") == 0.0
    assert exact_match("3", 3) == 1.0
    assert exact_match("blue", ["red", "Blue!"]) == 1.0      # any acceptable answer


def test_token_f1_hand_computed():
    # pred stems [she, adopt, two, cat], gold [two, cat]: 2 shared, P = 2/4, R = 2/2 -> 2/3
    assert token_f1("She adopted two cats", "two cats") == pytest.approx(2 / 3)
    # counts are clipped: red x2 vs x1 and blue x1 vs x2 -> 2 shared of 3 and 3 -> 2/3
    assert token_f1("red red blue", "red blue blue") == pytest.approx(2 / 3)
    assert token_f1("green", "blue") == 0.0
    # best of several gold answers: "dog" vs ["cat", "dog"] -> 1
    assert token_f1("dog", ["cat", "dog"]) == 1.0
    # SQuAD's empty rule
    assert token_f1("", "") == 1.0
    assert token_f1("", "x") == 0.0
    assert token_f1("the", "x") == 0.0       # normalises to empty


def test_token_f1_stems_with_snowball():
    assert token_f1("cat", "cats") == 1.0
    assert token_f1("cat", "cats", stem=False) == 0.0
    assert token_f1("running", "runs") == 1.0          # run / run
    assert token_f1("generously", "generous") == 1.0   # Snowball keeps "generous" (Porter: "gener")


def test_contains_whole_tokens():
    assert contains("I think it was the Eiffel Tower in Paris.", "Eiffel Tower") == 1.0
    assert contains("concatenate", "cat") == 0.0
    assert contains("a black cat", "cat") == 1.0
    assert contains("the tower", ["Louvre", "tower"]) == 1.0
    assert contains("", "") == 1.0
    assert contains("something", "the") == 0.0          # an empty gold matches only an empty reply


def test_rouge_l_hand_computed():
    # pred [cat, sat, on, mat, today], gold [cat, was, on, mat]: LCS = cat on mat = 3;
    # P = 3/5, R = 3/4, F = 2*0.6*0.75/1.35 = 2/3
    assert rouge_l("The cat sat on the mat today", "the cat was on a mat") == pytest.approx(2 / 3)
    # Order matters for ROUGE-L but not for token F1: LCS("green blue red", "blue green red") = 2
    assert rouge_l("green blue red", "blue green red") == pytest.approx(2 / 3)
    assert token_f1("green blue red", "blue green red") == 1.0
    assert rouge_l("alpha", "beta") == 0.0
    assert rouge_l("", "") == 0.0       # rouge-score: no tokens on a side is 0 (issue 16)


def test_lcs_length_examples():
    assert lcs_length(list("xyzw"), list("ywx")) == 2       # y, w
    assert lcs_length(list("abcbdab"), list("bdcaba")) == 4  # the CLRS example
    assert lcs_length([], list("abc")) == 0


def _lcs_reference(a, b):
    best = 0
    for n in range(1, min(len(a), len(b)) + 1):
        for combo in itertools.combinations(range(len(a)), n):
            sub = [a[i] for i in combo]
            it = iter(b)
            if all(any(x == y for y in it) for x in sub):
                best = n
    return best


def _lcs_table(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a, 1):
        for j, y in enumerate(b, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if x == y else max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("abcdefg"), max_size=120), st.lists(st.sampled_from("abcdeh"), max_size=90))
def test_bit_parallel_lcs_matches_the_textbook_table(a, b):
    assert lcs_length(a, b) == _lcs_table(a, b)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=7), st.lists(st.sampled_from("abce"), max_size=7))
def test_lcs_matches_brute_force(a, b):
    assert lcs_length(a, b) == _lcs_reference(a, b)
    assert lcs_length(a, b) == lcs_length(b, a)


# -- multiple choice --------------------------------------------------------------------------------
@pytest.mark.parametrize("question, expected", [
    ("What colour was the car?\n(A) red\n(B) blue\n(C) dark red",
     {"A": "red", "B": "blue", "C": "dark red"}),
    ("Which city?\nA. Paris\nB. Rome", {"A": "Paris", "B": "Rome"}),
    ("Which city?\nA) Paris\nB) Rome\nC) Oslo", {"A": "Paris", "B": "Rome", "C": "Oslo"}),
    ("Which? (A) red, (B) blue, or (C) green. Answer with the letter.",
     {"A": "red", "B": "blue", "C": "green"}),
    ("Pick one: A) the red one B) the blue one", {"A": "the red one", "B": "the blue one"}),
    ("Did she go? A. Yes B. No", {"A": "Yes", "B": "No"}),
    ("Why did she leave early?", {}),
    ("He met A. Smith at B. Jones's place.", {}),       # initials, not options
    ("Which one? (B) x (C) y", {}),                      # must start at A
    ("Only one: (A) x", {}),                             # at least two options
])
def test_extract_options(question, expected):
    assert extract_options(question) == expected


OPTIONS = {"A": "red", "B": "blue", "C": "dark red"}


@pytest.mark.parametrize("reply, expected", [
    ("B", "B"), ("(b)", "B"), ("B.", "B"), ("**B**", "B"), ("[C]", "C"),
    ("Answer: B", "B"), ("The answer is (C).", "C"), ("Final answer: A", "A"),
    ("the answer is b", "B"),
    ("I first thought A, but the answer is C", "C"),     # the explicit statement wins
    ("C) dark red", "C"), ("(A) because it matched the photo", "A"),
    ("I think it is dark red.", "C"),                    # the longest matching option text
    ("It was blue.", "B"),
    ("A red car", "A"),                                  # "A" + option A's text
    ("red or blue", None),                               # two options named
    ("It is not (A), it is (B)", "B"),                   # "not (A)" negates A (issue 16)
    ("It is (A) or (B)", None),                          # two letters asserted alike
    ("I don't know", None),
    ("", None),
])
def test_extract_choice(reply, expected):
    assert extract_choice(reply, OPTIONS) == expected


def test_extract_choice_lowercase_a_is_an_article():
    options = {"A": "a cat", "B": "a dog"}
    # "is a dog" must not read as option A
    assert extract_choice("The answer is a dog", options) == "B"


def test_gold_choice_forms():
    assert gold_choice("B", OPTIONS) == "B"
    assert gold_choice("(C) dark red", OPTIONS) == "C"
    assert gold_choice("blue", OPTIONS) == "B"
    assert gold_choice(["purple", "red"], OPTIONS) == "A"
    assert gold_choice("purple", OPTIONS) is None


# -- refusals -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "I don't know.", "I don’t know", "The conversation doesn't mention it.", "Unknown",
    "N/A", "There is no information about that.", "Not sure.",
    "That was never mentioned in our chats", "I cannot answer that based on the history",
    "The answer cannot be determined from the conversation.", "I'm unable to determine that.",
    "I don't know: the conversation does not say.",
])
def test_is_refusal_positive(text):
    assert is_refusal(text)


@pytest.mark.parametrize("text", [
    "Blue", "", "No", "Nothing.", "He can't find his keys", "They do not know each other",
    "I don't remember exactly, but it was in May.",      # a hedge followed by an answer
    "I'm not sure, I think it was the blue one",
    "The unknown caller was her brother",
])
def test_is_refusal_negative(text):
    assert not is_refusal(text)


def test_refusal_reads_clauses_and_who_is_unsure():
    # (replaces the phrase-list file test: the phrase list is gone, issue 16)
    assert [k for _, k in explain("I'm not sure, I think it was the blue one")] == ["hedge", "guess"]
    assert [k for _, k in explain("Sorry, it wasn't mentioned.")] == ["filler", "refuse"]
    assert not is_refusal("She was not sure about the job, but she took it anyway.")
    assert is_refusal("I don't know, though.")


# -- per-answer scoring ---------------------------------------------------------------------------------
def test_every_task_has_a_primary_metric():
    # every Beyond Recall task has one (other suites may add theirs, e.g. "realcompanion/question")
    assert {t for t in TASK_PRIMARY if "/" not in t} == set(ALL_TASKS)
    assert primary_metric("long_term_semantic_summary") == "rougeL_f"
    assert primary_metric("long_term_semantic_summary", judged=True) == "judge"
    assert primary_metric("refusal_to_answer", judged=True) == "refusal_acc"
    assert primary_metric("temporal_anchoring") == "token_f1"
    assert primary_metric("temporal_anchoring", multiple_choice=True, judged=True) == "mc_accuracy"
    with pytest.raises(ScoringError):
        primary_metric("no_such_task")


@pytest.mark.parametrize("task", ALL_TASKS)
def test_score_answer_every_task(task):
    # (a reference that is a date is scored by the dates: test_scoring_dates.py)
    out = score_answer(task, "When did she move to Oslo?", "She moved in late spring.", "late spring")
    # stems [she, move, in, late, spring] vs [late, spring]: P = 2/5, R = 1 -> 4/7
    assert out["token_f1"] == pytest.approx(4 / 7)
    assert out["contains"] == 1.0 and out["exact_match"] == 0.0
    assert out["primary"] == pytest.approx(out[out["primary_metric"]])
    expected = {"long_term_semantic_summary": "rougeL_f", "refusal_to_answer": "refusal_acc"}
    assert out["primary_metric"] == expected.get(task, "token_f1")


def test_multiple_choice_question_uses_mc_accuracy():
    q = "Which car did he keep?\n(A) the red one\n(B) the blue one"
    right = score_answer("memory_update", q, "Answer: B", "B")
    wrong = score_answer("memory_update", q, "The answer is (A).", "B")
    assert (right["primary_metric"], right["primary"], right["choice"]) == ("mc_accuracy", 1.0, "B")
    assert (wrong["primary"], wrong["choice"], wrong["gold_choice"]) == (0.0, "A", "B")
    # A judge score does not replace the letter
    judged = score_answer("memory_update", q, "B", "B", judge_score=0.0)
    assert judged["primary"] == 1.0


def test_summary_primary_is_rouge_l_or_judge():
    out = score_answer("long_term_semantic_summary", "Summarise", "The cat sat on the mat today",
                       "the cat was on a mat")
    assert out["primary"] == pytest.approx(2 / 3)
    judged = score_answer("long_term_semantic_summary", "Summarise", "x", "y", judge_score=0.5)
    assert (judged["primary_metric"], judged["primary"]) == ("judge", 0.5)


def test_refusal_to_answer_scoring():
    task, q = "refusal_to_answer", "What is his dog's name?"
    unanswerable = "The conversation never mentions a dog."
    # unanswerable: refusing is right, answering is wrong
    r = score_answer(task, q, "I don't know.", unanswerable)
    assert (r["primary"], r["answerable"], r["false_refusal"]) == (1.0, False, False)
    r = score_answer(task, q, "His dog is called Rex.", unanswerable)
    assert (r["primary"], r["refused"]) == (0.0, False)
    # answerable: a refusal scores 0 and is a false refusal; an answer is graded by token F1
    r = score_answer(task, q, "I don't know.", "Rex")
    assert (r["primary"], r["false_refusal"]) == (0.0, True)
    r = score_answer(task, q, "His dog is Rex", "Rex")   # [hi, dog, is, rex] vs [rex] -> 2/5
    assert r["primary"] == pytest.approx(0.4)
    # with a judge the answerable part is the judge's score; a plain decline shares no word with the
    # reference, so a lenient judge's 1 cannot rescue it (a hedged right answer: tests/test_judge.py)
    assert score_answer(task, q, "His dog is Rex", "Rex", judge_score=1.0)["primary"] == 1.0
    assert score_answer(task, q, "I don't know", "Rex", judge_score=1.0)["primary"] == 0.0
    assert score_answer(task, q, "I don't know", unanswerable, judge_score=0.0)["primary"] == 1.0
    # a gold list holding both a refusal and a value accepts either
    both = ["Rex", "not mentioned"]
    assert score_answer(task, q, "I don't know", both)["primary"] == 1.0
    assert score_answer(task, q, "Rex", both)["primary"] == 1.0


def test_the_scorer_reads_the_reply_against_its_question():
    # one reply, two questions: it declines the one about footballs and answers the one about
    # baseballs (the question reaches the refusal reader). A known misread kept in view: on the
    # footballs question the rules decline and the linear model barely disagrees, so the encoder
    # breaks the tie, and reads an answer (docs/scoring.md, "The encoder"); a judge decides it.
    from evaluator.scoring.refusal import reading

    reply = "You have 15 autographed baseballs. Autographed footballs aren't mentioned anywhere."
    unanswerable = "The conversation never mentions autographed footballs."
    footballs = "How many autographed footballs have I added?"
    r = score_answer("refusal_to_answer", footballs, reply, unanswerable)
    read = reading(reply, footballs)
    assert read["rules"] is True and read["decided_by"] == "encoder"
    assert (r["refused"], r["refused_detector"], r["primary"]) == (False, False, 0.0)
    r = score_answer("refusal_to_answer", footballs, reply, unanswerable, judge_refused=True)
    assert (r["refused"], r["refusal_by"], r["primary"]) == (True, "judge", 1.0)
    r = score_answer("refusal_to_answer", "How many autographed baseballs have I added?", reply, "15")
    assert (r["refused"], r["false_refusal"]) == (False, False) and r["primary"] > 0
    r = score_answer("memory_update", footballs, reply, "3")
    assert r["false_refusal"] is read["refusal"] is False      # the same misread, on another task


def test_false_refusal_is_reported_on_other_tasks_without_changing_the_metric():
    r = score_answer("property_state_retrieval", "What colour is the car?",
                     "I don't know the colour of the car", "the car is red")
    assert r["false_refusal"] is True
    assert r["primary"] == r["token_f1"] > 0


def test_judge_error_leaves_no_primary_score():
    r = score_answer("memory_update", "Where?", "Oslo", "Oslo", judge_error="timeout")
    assert r["primary"] is None and r["judge"] is None and r["judge_error"] == "timeout"
    assert r["token_f1"] == 1.0          # the deterministic metrics are still there
    r = score_answer("refusal_to_answer", "Where?", "Oslo", "Oslo", judge_error="timeout")
    assert r["primary"] is None
    # an unanswerable refusal question: the judge's abstention prompt decides refusal (issue 16),
    # so its failure leaves no score either; the detector's verdict is still recorded
    r = score_answer("refusal_to_answer", "Where?", "I don't know", "not mentioned",
                     judge_error="timeout")
    assert r["primary"] is None and r["refused_detector"] is True
    r = score_answer("refusal_to_answer", "Where?", "I don't know", "not mentioned",
                     judge_refused=False)
    assert r["primary"] == 0.0 and r["refused_detector"] is True and r["refusal_by"] == "judge"
    assert score_answer("refusal_to_answer", "Where?", "I don't know", "not mentioned")["primary"] == 1.0


def test_gold_forms_and_bad_input():
    assert score_answer("temporal_anchoring", "How many?", "3", 3)["exact_match"] == 1.0
    assert score_answer("temporal_anchoring", "How many?", "3 cats", 3.0)["contains"] == 1.0
    assert score_answer("temporal_anchoring", "Who?", "Bob", ["Alice", "Bob"])["primary"] == 1.0
    assert score_answer("temporal_anchoring", "Who?", None, "Bob")["primary"] == 0.0
    with pytest.raises(ScoringError, match="no reference answer"):
        score_answer("temporal_anchoring", "Who?", "Bob", None)
    with pytest.raises(ScoringError, match="unknown task"):
        score_answer("nope", "Who?", "Bob", "Bob")


# -- aggregation ------------------------------------------------------------------------------------------
def _sample(key, **metrics):
    return {"key": key, "metrics": {"primary_metric": "token_f1", "answerable": True, **metrics}}


def test_aggregate_counts_means_and_clusters():
    samples = [
        _sample("retrieval/temporal_anchoring/t1/q0", primary=1.0, token_f1=1.0, refused=False),
        _sample("retrieval/temporal_anchoring/t1/q1", primary=0.5, token_f1=0.5, refused=False),
        _sample("retrieval/temporal_anchoring/t2/q0", primary=0.0, token_f1=0.0, refused=True,
                false_refusal=True),
        {"key": "retrieval/temporal_anchoring/t3/q0", "error": "model call failed"},
        _sample("retrieval/temporal_anchoring/t4/q0", primary=None, token_f1=0.25, judge=None,
                judge_error="judge call failed", refused=False),
    ]
    out = aggregate(samples, "temporal_anchoring", n_boot=200)
    assert (out["n_samples"], out["n_scored"], out["n_failed"], out["n_judge_errors"]) == (5, 3, 1, 1)
    assert out["primary"]["mean"] == pytest.approx(0.5)           # (1 + 0.5 + 0) / 3
    assert out["primary"]["n_clusters"] == 2                       # t1 and t2
    lo, hi = out["primary"]["ci95"]
    assert 0.0 <= lo <= 0.5 <= hi <= 1.0
    # deterministic metrics still count the judge-failed sample: (1 + .5 + 0 + .25) / 4
    assert out["metrics"]["token_f1"]["mean"] == pytest.approx(0.4375)
    assert out["metrics"]["token_f1"]["n_clusters"] == 3
    assert out["false_refusal_rate"]["mean"] == pytest.approx(0.25)   # 1 of 4 answerable
    assert out["n_false_refusals"] == 1
    assert out["primary_metric"] == "token_f1"
    assert out["metrics"]["mc_accuracy"] is None


def test_aggregate_mixed_primary_metrics_and_flat_samples():
    samples = [
        {"key": "reasoning/causal_intent_inference/1/q0", "primary": 1.0, "primary_metric": "mc_accuracy"},
        {"key": "reasoning/causal_intent_inference/2/q0", "primary": 0.0, "primary_metric": "token_f1"},
    ]
    out = aggregate(samples, "causal_intent_inference", n_boot=50)
    assert out["primary_metric"] == "mixed"
    assert out["primary_metric_counts"] == {"mc_accuracy": 1, "token_f1": 1}
    assert out["primary"]["mean"] == 0.5


def test_aggregate_nothing_scored():
    out = aggregate([{"key": "a/b/c/q0", "error": "x"}], "memory_update")
    assert out["n_scored"] == 0 and out["primary"] is None
    assert out["primary_metric"] == "token_f1"


def test_aggregate_on_real_score_answer_output():
    rows = []
    for i, (pred, gold) in enumerate([("I don't know", "not mentioned"), ("Rex", "Rex"),
                                       ("I don't know", "Rex")]):
        rows.append({"key": f"management/refusal_to_answer/{i}/q0",
                     "metrics": score_answer("refusal_to_answer", "Dog?", pred, gold)})
    out = aggregate(rows, "refusal_to_answer", n_boot=50)
    assert out["primary"]["mean"] == pytest.approx(2 / 3)
    assert out["false_refusal_rate"]["mean"] == pytest.approx(0.5)    # 1 of 2 answerable
