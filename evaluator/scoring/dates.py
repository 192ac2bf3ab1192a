"""Dates written in words or ISO, read as dates, and the rule that uses them: a reply that states
one date is scored against a reference that is a date by whether the dates agree.

Token F1 and ROUGE-L count shared words, so against the reference "12 July 2023" the right
"2023-07-12" scores 0 and the wrong "13 July 2023" 0.667. The rule (`date_verdict`, applied per
reference by evaluator.scoring.tasks.score_answer): when a reference is a date and nothing else
(`date_of`: one date, with at most "on", "in", "the", a weekday and punctuation around it) and the
reply states exactly one date (`dates_in`, written once), the reply
matches that reference fully (exact_match, token_f1, contains and rougeL_f 1) when the two agree
at the reference's precision (day, or month for "July 2023"), and not at all (0) when they do
not: a reply that gives only the month of a reference's day does not agree. A reply with no date
or with several keeps its lexical score, and so does one that names another day in words the
reader does not take as a date (an ordinal such as "the 25th", a range "12-14 July 2023", a month
name outside its date): its one date may not be its answer.

What reads as a date: "12 July 2023", "12th of July, 2023", "July 12, 2023", "Jul 12 2023",
"2023-07-12", and to the month "July 2023", "2023-07" (English month names and their common
abbreviations, any case, but "May" and "March" only capitalised). Not read: numeric day/month forms ("12/07/2023" is 12 July or 7
December), a year alone, and dates without a year. A day the month does not have is no date.
"""

from __future__ import annotations

import re
from datetime import date

from beyondrecall.timestamps import MONTHS     # month name -> number, the card's reader's
from evaluator.scoring.metrics import answer_text

# -- word lists (data) ----------------------------------------------------------------------------
MONTH_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
                       "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
# month names that are also common words: a month only when capitalised ("May 2021")
LOWERCASE_WORDS = ("may", "march")
# what may stand beside the date in a reference that is a date and nothing else
FILLER = ("on", "in", "the", "of", "it", "was", "monday", "tuesday", "wednesday", "thursday",
          "friday", "saturday", "sunday")

_MONTH = r"(?P<month>" + "|".join(sorted({*MONTHS, *MONTH_ABBREVIATIONS}, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4})"
_PATTERNS = (
    re.compile(rf"\b(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH},?\s+{_YEAR}\b", re.I),   # 12 July 2023
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I),                      # July 12, 2023
    re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})(?:-(?P<day>\d{1,2}))?(?![\d-])"),  # 2023-07-12
    re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.I),                                # July 2023
)
_WORD = re.compile(r"[a-z0-9]+")

Day = tuple[int, int, int | None]       # (year, month, day or None for a month)


def _value(m: re.Match) -> Day | None:
    month = m["month"]
    if month.lower() in LOWERCASE_WORDS and not month[0].isupper():
        return None                     # "she may 2021 ..." is no date
    month = int(month) if month.isdigit() else MONTHS.get(month.lower(), MONTH_ABBREVIATIONS.get(
        month.lower().rstrip(".")))
    day = int(m["day"]) if m.groupdict().get("day") else None
    try:
        date(int(m["year"]), month or 0, day or 1)
    except ValueError:
        return None
    return int(m["year"]), month, day


def _spans(text: str) -> list[tuple[int, int, Day]]:
    """Every date in `text` with its span, earlier patterns first, none overlapping."""
    found: list[tuple[int, int, Day]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end, _ in found):
                continue
            value = _value(m)
            if value is not None:
                found.append((m.start(), m.end(), value))
    return sorted(found)


def dates_in(text: object) -> list[Day]:
    """The distinct dates `text` states, in order."""
    out: list[Day] = []
    for _, _, value in _spans(answer_text(text)):
        if value not in out:
            out.append(value)
    return out


def date_of(reference: object) -> Day | None:
    """The date a reference is, when it is one date and nothing else (see the module docstring)."""
    text = answer_text(reference)
    spans = _spans(text)
    if len(spans) != 1:
        return None
    start, end, value = spans[0]
    rest = _WORD.findall((text[:start] + " " + text[end:]).lower())
    return value if all(w in FILLER for w in rest) else None


# a day, month or range outside the reply's one full date: the reply names another day in a
# way the date reader does not read ("... five days later, on the 25th", "12-14 July 2023",
# "Not on 12 July 2023 - it was the 14th"), so the one date it reads may not be its answer
_OTHER_DAY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}\s*(?:[-\u2013\u2014]|to|and|until|till)\s*$|"
                        r"^\s*(?:[-\u2013\u2014]|to|until|till)\s*(?:the\s+)?\d{1,2}\b|\b(?:"
                        + "|".join(sorted({*MONTHS, *MONTH_ABBREVIATIONS}, key=len, reverse=True))
                        + r")\b", re.IGNORECASE)


def _names_another_day(text: str) -> bool:
    spans = _spans(text)
    if not spans:
        return False
    start, end, _ = spans[0]
    return any(_OTHER_DAY.search(part) for part in (text[:start], text[end:]))


def date_verdict(reply: object, reference: object) -> bool | None:
    """True / False when the rule decides (the reference is a date, the reply states one date,
    names no other day, and it agrees / does not at the reference's precision); None when it
    does not apply."""
    meant = date_of(reference)
    if meant is None:
        return None
    said = dates_in(reply)
    if len(said) != 1 or len(_spans(answer_text(reply))) != 1 or _names_another_day(answer_text(reply)):
        return None
    (year, month, day), (y, m, d) = meant, said[0]
    return (year, month) == (y, m) and (day is None or day == d)


__all__ = ["MONTHS", "MONTH_ABBREVIATIONS", "LOWERCASE_WORDS", "FILLER", "dates_in", "date_of", "date_verdict"]
