"""The strict reading of a multiple-choice reply (`strict_choice`: the final `Answer: X` line only,
as lm-eval's strict-match beside the flexible evaluator.scoring.choice.extract_choice) and the gold
letter, read by the strict steps only (`gold_choice`). Both read a list of option letters
("A, C", "A and C") as one answer, the set of its letters, written `"A, C"` (`letter_set` reads it
back): a question whose reference is such a list is scored by comparing letter sets."""

from __future__ import annotations

import re

from evaluator.scoring.metrics import normalize_answer


_STRICT_LINE = re.compile(r"(?i)^(?:final\s+)?answer\s*[:：]\s*(.*?)\s*$")
_STRICT_MARKUP = re.compile(r"[*_`]+")
_STRICT_LETTER = re.compile(r"[\(\[]?([A-Z])[\)\]]?\.?")
_STRICT_LABELLED = re.compile(r"[\(\[]?([A-Z])(?:[\)\]][.:]?|[.:])\s+(\S.*?)\.?")
# a list of two or more letters, each alone or bracketed, joined by ",", ";", "&", "+" or "and"
# ("A, C", "A and C", "(A), (C)", "A, B and D"); never by "or" (a hedge between two, not a set)
_LIST_ITEM = r"[\(\[]?([A-Z])[\)\]]?"
_LIST_JOIN = r"\s*(?:[,;&+]\s*(?:and\s+)?|\s+and\s+)"
_STRICT_LIST = re.compile(rf"{_LIST_ITEM}(?:{_LIST_JOIN}{_LIST_ITEM})+\.?")
_LIST_LETTER = re.compile(_LIST_ITEM)


def letter_set(choice: str | None) -> frozenset[str]:
    """The letters of a choice as `strict_choice` and `gold_choice` write it ("B", "A, C")."""
    return frozenset(choice.split(", ")) if choice else frozenset()


def _letter_list(said: str, options: dict[str, str]) -> str | None:
    """"A, C" for a list of two or more distinct option letters (see _STRICT_LIST), else None."""
    if not _STRICT_LIST.fullmatch(said):
        return None
    letters = [m.group(1) for m in _LIST_LETTER.finditer(said)]
    if len(set(letters)) != len(letters) or not all(k in options for k in letters):
        return None
    return ", ".join(sorted(letters))


# A list in a framed first line ("Both A and C.", "The answer is A and C.", "A and C are correct.",
# "A/C"), read only where the reference is a set of letters and the strict form found none; not in
# a line that also says something is wrong ("A and B are wrong; C"), nor with two lists.
_LOOSE_LIST = re.compile(rf"(?<![A-Za-z]){_LIST_ITEM}(?:(?:{_LIST_JOIN}|\s*/\s*){_LIST_ITEM})+(?![A-Za-z])")
_LOOSE_NEGATIVE = re.compile(r"(?i)\b(?:not|no|wrong|incorrect|false|neither|nor|except)\b|n['’]t\b")


def loose_letter_list(text: object, options: dict[str, str]) -> str | None:
    """"A, C" for one list of two or more distinct option letters in the reply's first line (see
    _LOOSE_LIST), else None."""
    if not options or not isinstance(text, str) or not text.strip():
        return None
    line = _STRICT_MARKUP.sub("", text.strip().splitlines()[0])
    found = list(_LOOSE_LIST.finditer(line))
    if len(found) != 1 or _LOOSE_NEGATIVE.search(line):
        return None
    letters = [m.group(1) for m in _LIST_LETTER.finditer(found[0].group(0))]
    if len(set(letters)) != len(letters) or not all(k in options for k in letters):
        return None
    return ", ".join(sorted(letters))


def strict_choice(text: object, options: dict[str, str]) -> str | None:
    """The option letter a reply states in the strict form only (lm-eval's strict-match beside the
    flexible extract_choice; Inspect's `ANSWER: $LETTER`), or None.

    The last line with text (markdown emphasis `*`, `_`, backticks ignored) is read: either it is
    `Answer: X` / `ANSWER: X` / `Final answer: X`, and X is read, or the reply is that one line, and
    the whole line is read. X is a capital option letter, alone or bracketed (`B`, `(B)`, `[B]`,
    `B.`), or followed by its own option's text (`(B) blue`, `B. blue`, `B: blue`), or the whole
    text of exactly one option (`blue`), or a list of two or more letters (`A, C`, `A and C`,
    `(A), (C)`; read as the set `"A, C"`, letters sorted). Nothing else is read: no reasoning, no
    lower-case letter, no letter inside a sentence. The gold answer is read with these steps
    (gold_choice)."""
    if not options or text is None:
        return None
    lines = [line for line in _STRICT_MARKUP.sub("", str(text)).splitlines() if line.strip()]
    if not lines:
        return None
    last = lines[-1].strip()
    labelled = _STRICT_LINE.match(last)
    if labelled:
        said = labelled.group(1)
    elif len(lines) == 1:
        said = last
    else:
        return None
    m = _STRICT_LETTER.fullmatch(said)
    if m:
        return m.group(1) if m.group(1) in options else None
    m = _STRICT_LABELLED.fullmatch(said)
    if m and m.group(1) in options and normalize_answer(m.group(2)) == normalize_answer(options[m.group(1)]):
        return m.group(1)
    listed = _letter_list(said, options)
    if listed:
        return listed
    said_norm = normalize_answer(said)
    by_text = [k for k, v in options.items() if said_norm and normalize_answer(v) == said_norm]
    return by_text[0] if len(by_text) == 1 else None


def gold_choice(gold: object, options: dict[str, str]) -> str | None:
    """The letter of the gold answer ("B", "(B) blue" or the option text "blue"), or the set of
    letters of a gold list of letters ("A, C": several options are right), read by the strict
    steps only (strict_choice), never by the heuristic reader; with a list of gold answers, the
    first that names an option."""
    candidates = gold if isinstance(gold, (list, tuple)) else [gold]
    for g in candidates:
        if g is None:
            continue
        letter = strict_choice(str(g), options)
        if letter:
            return letter
    return None
