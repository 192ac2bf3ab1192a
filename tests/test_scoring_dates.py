"""Dates against a reference that is a date (evaluator/scoring/dates.py): the dates decide, not
the words they share."""

from __future__ import annotations

import pytest

from evaluator.scoring import score_answer
from evaluator.scoring.dates import date_of, dates_in, date_verdict

GOLD = "12 July 2023"


@pytest.mark.parametrize("reply, right", [
    ("2023-07-12", True),                     # the audit: token F1 0
    ("It was on July 12, 2023.", True),
    ("the 12th of July, 2023", True),
    ("Wed, 12 Jul 2023", True),
    ("13 July 2023", False),                  # the audit: token F1 0.667
    ("12 July 2022", False),
    ("July 2023", False),                     # the month of a day does not agree (token F1 0.8)
    ("2023-07-13", False),
])
def test_a_reply_stating_one_date_is_scored_by_the_date(reply, right):
    m = score_answer("temporal_anchoring", "When did Mira move?", reply, GOLD)
    want = 1.0 if right else 0.0
    assert (m["exact_match"], m["token_f1"], m["contains"], m["rougeL_f"]) == (want,) * 4
    assert m["date_match"] is right


@pytest.mark.parametrize("reply", [
    "12/07/2023",                               # day/month order unknown: not read
    "She moved on 12 July 2023, then again on 3 Aug 2023.",   # two dates: words decide
    "Last summer.",
])
def test_other_replies_keep_their_lexical_score(reply):
    from evaluator.scoring.metrics import token_f1

    m = score_answer("temporal_anchoring", "When did Mira move?", reply, GOLD)
    assert "date_match" not in m and m["token_f1"] == token_f1(reply, GOLD)


def test_a_reference_that_is_more_than_a_date_is_read_as_words():
    assert date_of("12 July 2023, at the dentist") is None
    assert date_of("On Wednesday, 12 July 2023.") == (2023, 7, 12)
    assert date_of("In May 2021") == (2021, 5, None)
    m = score_answer("temporal_anchoring", "When?", "2023-07-12", "12 July 2023, at the dentist")
    assert "date_match" not in m


def test_a_month_reference_agrees_with_any_day_of_it():
    assert date_verdict("12 May 2021", "May 2021") is True
    assert date_verdict("12 June 2021", "May 2021") is False


def test_what_is_no_date():
    assert dates_in("she may 2021 be back") == []             # "may" the verb
    assert dates_in("31 February 2023") == [(2023, 2, None)]  # no such day: read to the month
    assert dates_in("in 2023") == [] and dates_in("12 July") == []
    assert dates_in("12 July 2023 ... on 12 July 2023") == [(2023, 7, 12)]


def test_one_reference_of_a_list_that_is_a_date_and_one_that_is_not():
    gold = ["12 July 2023", "the day after the party"]
    assert score_answer("temporal_anchoring", "When?", "2023-07-12", gold)["token_f1"] == 1.0
    wrong = score_answer("temporal_anchoring", "When?", "13 July 2023", gold)
    assert wrong["date_match"] is False and wrong["token_f1"] == 0.0
