"""Cases where this session's first versions of the scoring rules scored a right answer wrong
(found by an audit of 190 realistic replies; each assertion failed on 1f62b64)."""

from __future__ import annotations

import pytest

from evaluator.scoring import score_answer
from evaluator.scoring.dates import date_verdict
from evaluator.scoring.unanswerable import gold_text_unanswerable


@pytest.mark.parametrize("question, reference", [
    # a yes/no question: the silence is its answer ("no")
    ("Did Lena ever mention her dentist's name?", "Lena never mentioned her dentist's name."),
    ("Has Omar ever shared a photo of his dog?", "Omar has never shared a photo of his dog."),
    # a clause after the silence gives or bounds the answer
    ("What did Priya say about the flat?", "Priya didn't mention the rent; she only said the flat is bright."),
    ("When did the flight leave?", "Grace never specified the airline, only that it left at 6 am."),
    ("Who is Lena's dentist?", "Lena never mentioned a dentist other than Dr. Hale."),
    ("Who is her dentist?", "Lena never talked about her dentist until Thursday, when she said it is Dr. Hale."),
    # what was said, and habits, are facts
    ("What did Omar say?", "Omar never said sorry."),
    ("What did her brother say at the wedding?", "Her brother never said a word at the wedding."),
    ("What are Lena's passwords?", "Lena never shares her passwords."),
])
def test_references_that_answer_stay_answerable(question, reference):
    assert gold_text_unanswerable(reference, question) is False


@pytest.mark.parametrize("question, reference", [
    ("What is Lena's dentist's name?", "Lena never mentioned her dentist."),
    ("How old is Sofia's brother?", "Sofia hasn't told me her brother's age."),
])
def test_a_plain_silence_about_a_wh_question_is_still_unanswerable(question, reference):
    assert gold_text_unanswerable(reference, question) is True


def test_a_yes_no_answer_to_a_silence_question_is_scored_as_an_answer():
    m = score_answer("refusal_to_answer", "Did Lena ever mention her dentist's name?",
                     "No, she never did.", "Lena never mentioned her dentist's name.")
    assert m["answerable"] is True and m["false_refusal"] is not True


@pytest.mark.parametrize("question, reply, reference", [
    ("Has Grace still not explained why she bought hiking boots?", "Yes, she still hasn't explained it.",
     "No. Grace only said she ordered hiking boots."),            # asked in the negative
    ("Which bus does she take?", "No. 12, same as before.", "Yes, she still takes the No. 12 bus."),
])
def test_no_verdict_is_read_where_yes_and_no_agree_or_no_is_a_number(question, reply, reference):
    m = score_answer("conflict_detection", question, reply, reference)
    assert "verdict_contradicts" not in m and m["token_f1"] > 0


@pytest.mark.parametrize("reply, reference", [
    ("She signed the lease on 20 December 2023 and got the keys five days later, on the 25th.", "25 December 2023"),
    ("It was first set for 1 October 2025, but she moved it forward to the 24th of September.", "24 September 2025"),
    ("She was away 12\u201314 July 2023.", "12 July 2023"),
    ("from the 12th to 19 July 2023", "12 July 2023"),
    ("Not on 12 July 2023 as I first thought \u2014 it was actually the 14th.", "12 July 2023"),
])
def test_a_reply_that_names_another_day_keeps_its_lexical_score(reply, reference):
    assert date_verdict(reply, reference) is None


@pytest.mark.parametrize("reply", ["Both A and C.", "The answer is A and C.", "A and C are correct.",
                                   "A and C.\n\nA says 30 and C says 25.", "A/C"])
def test_a_framed_list_of_the_right_letters_is_right(reply):
    q = "Which two statements contradict each other?\n(A) She is 30\n(B) She likes tea\n(C) She is 25\n(D) None"
    assert score_answer("conflict_detection", q, reply, "A, C")["mc_accuracy"] == 1.0


def test_a_negation_that_adds_a_detail_does_not_reverse_a_reconstructed_value():
    from evaluator.realcompanion.reconstruction_track import polarity_differs

    for gold, pred in [("The user applied for a job at Lumen Schools.",
                        "The user applied for a job at Lumen Schools and has not heard back yet."),
                       ("Married", "Married, no children"), ("Speaks English and Spanish", "Speaks English and Spanish, not French")]:
        assert not polarity_differs(gold, pred)
    for gold, pred in [("Berlin", "not Berlin"), ("The user swims", "It is false that the user swims"),
                       ("a morning person", "not a morning person")]:
        assert polarity_differs(gold, pred)
