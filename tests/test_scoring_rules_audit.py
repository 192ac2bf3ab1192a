"""The scoring-rules audit (a scripted agent on the shipped sample data found each of these):

1. whether a refusal_to_answer question is unanswerable is read from its reference: (a) a letter
   reference is read as its option's text ("B" behind "(B) The conversation does not say"); (b) a
   reference that says a person never mentioned, told, said or shared it declines, while answers
   that merely hold "never" or a reported "said" stay answers;
2. a reply whose opening yes/no verdict reverses the reference's matches nothing lexically;
3. a reference that is a list of option letters ("A, C") is a set of letters, compared as letters,
   never through SQuAD's article-dropping normalisation ("A" is not an article here);
4. the letter reader reads a leading letter followed by a dash and an explanation that names other
   letters, and a reply read as a letter is not a refusal.
Each test fails on the code before the audit's fixes.
"""

from __future__ import annotations

import json

import pytest

from evaluator.cli import main
from evaluator.scoring import score_answer, score_sample
from evaluator.scoring.choice import extract_choice, extract_options, gold_choice
from evaluator.scoring.unanswerable import UnanswerableRule, gold_text_unanswerable

# -- 1 (a): a letter reference is read as its option's text ----------------------------------------
DENTIST_MC = ("What is the name of Lena's dentist? (A) Dr. Hale (B) The conversation does not say "
              "(C) Dr. Ortiz (D) Dr. Lin")


def test_a_letter_reference_is_read_as_its_options_text():
    assert gold_text_unanswerable("B", DENTIST_MC)
    assert gold_text_unanswerable("(B)", DENTIST_MC)
    assert not gold_text_unanswerable("A", DENTIST_MC)         # Dr. Hale: an answer
    assert not gold_text_unanswerable("B")                     # no options to read it through
    # the rule as `validate` and a run ask it; without the question the scorer decides
    assert UnanswerableRule().classify("k", "B", DENTIST_MC) is True
    assert UnanswerableRule().classify("k", "A", DENTIST_MC) is False


@pytest.mark.parametrize("reply, primary", [("I don't know.", 1.0), ("B", 1.0),
                                            ("The conversation does not say.", 1.0), ("A", 0.0),
                                            ("Dr. Ortiz", 0.0)])
def test_declining_an_unanswerable_multiple_choice_question_is_right(reply, primary):
    m = score_sample("refusal_to_answer", DENTIST_MC, reply, "B")
    assert m["answerable"] is False and m["false_refusal"] is False
    assert m["primary_metric"] == "mc_accuracy" and m["primary"] == primary


def test_a_declining_agent_on_the_sample_scores_every_refusal_question(sample_snapshot, tmp_path,
                                                                       capsys):
    """The shipped sample's refusal_to_answer has one multiple-choice question whose reference is
    the letter of "The conversation does not say": validate counts all three unanswerable, and a
    run whose agent declines every question scores 1 on each, with no false refusal."""
    assert main(["validate", "--data", str(sample_snapshot), "--tasks", "refusal_to_answer"]) == 0
    assert "unanswerable: refusal_to_answer: 3 of 3 question(s)" in capsys.readouterr().out
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "refusal_to_answer", "--data", str(sample_snapshot),
                 "--agent", "agents_for_tests:RecordingAgent", "--output_path", str(out)]) == 0
    lines = [json.loads(l) for l in (out / "samples_refusal_to_answer.jsonl").read_text().splitlines()]
    assert any(l["metrics"]["primary_metric"] == "mc_accuracy" for l in lines)
    assert [l["metrics"]["primary"] for l in lines] == [1.0] * 3
    entry = json.loads((out / "results.json").read_text())["results"]["refusal_to_answer"]
    assert entry["n_unanswerable"] == 3 and entry["n_false_refusals"] == 0
    assert entry["primary"]["mean"] == 1.0


# -- 1 (b): a person's silence in the reference --------------------------------------------------
UNANSWERABLE_REFERENCES = [
    "Lena never mentioned her dentist.",
    "Sofia hasn't told me her brother's age.",
    "Sofia hasn’t told me her brother’s age.",
    "Lena didn't say what her dentist is called.",
    "Lena did not mention her dentist's name.",
    "She never shared her flight number.",
    "Sofia never shared her age with us.",
    "Tom has never talked about his brother.",
    "Lena has not mentioned the name of the hotel.",
    "Sofia never brought up her brother's age.",
    "Lena and Tom never said where they stayed.",
    "The user never mentioned a flight number.",
    "Mira doesn't say which gym she goes to.",
    "He never actually told us his age.",
    "Lena hasn't yet told me her age.",
    "Lena never told me.",
    "Lena never mentioned her dentist to me.",
    "Lena never discussed it.",
]
ANSWERABLE_REFERENCES = [
    "She never drinks coffee.",
    "He told me he never learned to swim.",
    "No, she said she never went.",
    "She said she never liked it.",
    "No, Lena never mentioned her dentist.",          # answers "Did Lena mention her dentist?"
    "Yes. She never mentioned it again.",
    "He never told his boss he was leaving.",          # another listener
    "She never told her mother.",
    "He never told anyone.",
    "She never mentioned it to her parents.",          # told someone else
    "She never mentioned it to him.",
    "He never discussed it with his wife.",
    "Lena never shares food with her sister.",
    "Lena never said no to dessert.",
    "Lena never mentioned her dentist, but she goes to Dr. Hale.",   # an answer follows
    "It never rained that week.",
    "Dr. Hale",
    "Rome",
]


def test_a_reference_that_says_it_was_never_mentioned_is_unanswerable_and_answers_stay_answers():
    misread = [r for r in UNANSWERABLE_REFERENCES if not gold_text_unanswerable(r)]
    misread += [r for r in ANSWERABLE_REFERENCES if gold_text_unanswerable(r)]
    assert misread == []
    for reference in UNANSWERABLE_REFERENCES:
        m = score_answer("refusal_to_answer", "What is it?", "I don't know.", reference)
        assert (m["answerable"], m["false_refusal"], m["primary"]) == (False, False, 1.0), reference
    for reference in ANSWERABLE_REFERENCES:
        m = score_answer("refusal_to_answer", "What is it?", "I don't know.", reference)
        assert (m["answerable"], m["false_refusal"], m["primary"]) == (True, True, 0.0), reference


def test_the_reference_reader_lists_accept_a_decline_alike():
    """A list of references with a person's silence among them accepts a decline (not a false
    refusal), as one with "It was not mentioned" does."""
    m = score_answer("refusal_to_answer", "Who is her dentist?", "I don't know.",
                     ["Dr. Hale", "Lena never mentioned her dentist."])
    assert m["answerable"] is True and m["refused"] is True and m["false_refusal"] is False


# -- 2: a reversed yes/no verdict ----------------------------------------------------------------
MIRA_YES = ("Yes. Mira first said she was allergic to peanuts, then said she eats peanut satay "
            "every week.")
MIRA_NO = MIRA_YES.replace("Yes.", "No.", 1)
LEXICAL = ("exact_match", "token_f1", "contains", "rougeL_f")


REVERSED = [(MIRA_YES, MIRA_NO), (MIRA_NO, MIRA_YES), (MIRA_YES, "No."), (MIRA_NO, "Yes"),
            (MIRA_YES, "**No**, " + MIRA_YES[5:]), (True, "No, she didn't."), (False, "Yes.")]
NO_VERDICT = ["Mira first said she was allergic to peanuts, then said she eats peanut satay every week.",
              "She said both.", "No idea, but she mentioned peanut satay every week.",
              "Nope-style answers aside, Mira first said she was allergic to peanuts."]


def test_a_reversed_verdict_scores_0_and_a_reply_without_one_keeps_its_lexical_score():
    from evaluator.scoring.metrics import rouge_l, token_f1

    for reference, reply in REVERSED:        # both orders; a bare verdict; a gold True / False
        m = score_answer("conflict_detection", "Did Mira contradict herself?", reply, reference)
        assert [m[name] for name in LEXICAL] == [0.0] * 4 and m["primary"] == 0.0, reply
        assert m["verdict_contradicts"] is True
        # ROUGE-L and a refusal-aware task's answer metric read it alike
        assert score_answer("long_term_semantic_summary", "?", reply, reference)["primary"] == 0.0
        assert score_answer("refusal_to_answer", "Did she?", reply, reference)["primary"] == 0.0
    for reply in NO_VERDICT:
        m = score_answer("conflict_detection", "Did Mira contradict herself?", reply, MIRA_YES)
        assert m["primary"] == token_f1(reply, MIRA_YES) > 0 and "verdict_contradicts" not in m
        assert score_answer("long_term_semantic_summary", "?", reply, MIRA_YES)["primary"] == \
            rouge_l(reply, MIRA_YES)


def test_an_agreeing_verdict_keeps_its_score_and_other_references_still_count():
    from evaluator.scoring.metrics import token_f1

    bare = token_f1("Yes.", MIRA_YES)
    assert bare > 0 and score_answer("conflict_detection", "?", "Yes.", MIRA_YES)["primary"] == bare
    # one reference reversed, another without a verdict: the other decides
    other = token_f1(MIRA_NO, "peanut satay every week")
    m = score_answer("conflict_detection", "?", MIRA_NO, [MIRA_YES, "peanut satay every week"])
    assert other > 0 and m["token_f1"] == other and m["primary"] == other


@pytest.mark.parametrize("text, verdict", [("Yes.", "yes"), ("No, she didn't.", "no"),
                                           ("**Yes** - she did", "yes"), ("Nope!", "no"),
                                           ("No", "no"), ("No idea.", None),
                                           ("No specific date mentioned.", None), ("No-one knows.", None),
                                           ("Yes?", None), ("Nothing.", None), (True, "yes")])
def test_the_opening_verdict(text, verdict):
    from evaluator.scoring.verdict import opening_verdict

    assert opening_verdict(text) == verdict


# -- 3: a list of option letters -----------------------------------------------------------------
COLOURS = "Which colours did she name? (A) red (B) blue (C) green (D) pink"


@pytest.mark.parametrize("reply, right", [("C", 0.0), ("A", 0.0), ("the", 0.0), ("A, C", 1.0),
                                          ("C, A", 1.0), ("A and C", 1.0), ("(A), (C)", 1.0),
                                          ("Answer: A and C", 1.0), ("A, B, C", 0.0),
                                          ("A or C", 0.0)])
def test_a_reference_list_of_letters_is_a_set(reply, right):
    m = score_answer("conflict_detection", COLOURS, reply, "A, C")
    assert m["primary_metric"] == "mc_accuracy" and "gold_unread" not in m
    assert m["gold_choice"] == "A, C"
    assert m["primary"] == right and all(m[name] == right for name in LEXICAL)


def test_a_single_letter_is_never_an_article():
    assert gold_choice("A, C", extract_options(COLOURS)) == "A, C"
    m = score_answer("conflict_detection", COLOURS, "the", "A")
    assert all(m[name] == 0.0 for name in LEXICAL) and m["mc_accuracy"] == 0.0
    m = score_answer("conflict_detection", COLOURS, "Answer: A", "A")
    assert all(m[name] == 1.0 for name in LEXICAL)


# -- 4: the letter reader and the refusal flag ---------------------------------------------------
CONFLICT_MC = ("Did Mira contradict herself about peanuts? (A) No, she was consistent "
               "(B) Not enough information (C) She never mentioned peanuts (D) Yes, she said both")


READ_D = ["D — A and B are unrelated.", "D - A and B are unrelated", "D: A and B are unrelated.",
          "D. A and B are unrelated.", "D, because A and B are unrelated.", "D — A, B and C are wrong."]
NAMES_NONE = ["D. A or B could also fit.", "D. A and B as well.", "D. Also A and B.",
              "D. A and B are also possible.", "Either A or B.", "A and B."]


def test_a_leading_letter_explained_by_a_list_of_others_is_read_and_alternatives_are_not():
    for reply in READ_D:
        m = score_answer("conflict_detection", CONFLICT_MC, reply, "D")
        assert (m["choice"], m["primary"], m["unreadable"]) == ("D", 1.0, None), reply
    options = extract_options(CONFLICT_MC)
    assert [r for r in NAMES_NONE if extract_choice(r, options) is not None] == []


def test_a_reply_read_as_a_letter_is_not_a_refusal():
    reply = "Option D. A is wrong because the conversation does not say she was consistent."
    m = score_answer("conflict_detection", CONFLICT_MC, reply, "D")
    assert m["choice"] == "D" and m["primary"] == 1.0
    assert m["refused"] is False and m["false_refusal"] is False
    # a reply read as no letter that declines is still a refusal (and a false one here)
    m = score_answer("conflict_detection", CONFLICT_MC, "I don't know.", "D")
    assert m["choice"] is None and m["refused"] is True and m["false_refusal"] is True
