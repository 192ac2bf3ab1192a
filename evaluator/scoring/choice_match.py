"""What every stage of the letter reader (evaluator.scoring.choice) shares: the cue patterns
compiled once (`RX`, from choice_cues.py: a grouped cue is one named alternative of its group's
pattern), a fired cue (`Hit`, noted by `hit`), a letter the reply names (`Mention`, with its
standing), and the span helpers that match a pattern just before a position (`ends_with`, within
LOOKBACK) or an option's text at one (`text_at`, `phrase_spans`)."""

from __future__ import annotations

import re
from typing import NamedTuple

from evaluator.scoring import choice_cues as rules


class Hit(NamedTuple):
    """A cue that fired: its name, the letter it concerns (None for the reply as a whole), and
    where in the text it read (the text as that stage reads it: `text` is that piece, cut to 60
    characters)."""

    cue: str
    letter: str | None
    start: int
    end: int
    text: str


def _group_id(name: str) -> str:
    return "c_" + name.replace("-", "_")


def _compile() -> dict[str, re.Pattern]:
    out = {name: re.compile(p) for name, p in rules.PARTS.items()}
    for cue in rules.CUES:
        if cue.pattern and not cue.group:
            out[cue.name] = re.compile(cue.pattern)
    for group in rules.GROUPS.values():
        members = [c for c in rules.CUES if c.group == group.name]
        out[group.name] = re.compile(group.head + "|".join(f"(?P<{_group_id(c.name)}>{c.pattern})"
                                                           for c in members) + group.tail)
    return out


RX = _compile()
CUE_OF_GROUP = {_group_id(c.name): c.name for c in rules.CUES if c.group}
NO_FIELD = object()
DESCRIBED, PLAIN, LABELLED, DECISIVE = 0, 1, 2, 3
LEVEL_NAMES = {DESCRIBED: "described", PLAIN: "plain", LABELLED: "labelled", DECISIVE: "decisive"}


def hit(hits: list | None, cue: str, letter: str | None, start: int, end: int, text: str) -> None:
    if hits is not None:
        hits.append(Hit(cue, letter, start, end, text[start:end][:60]))


def window_start(text: str, end: int) -> int:
    """Where the patterns that read the words before position `end` start looking. They are
    anchored at `end` and reach back a few words, so they search the text (whole, so "^" still means
    its start) from LOOKBACK characters before it: a long reasoning reply stays linear, not
    quadratic, in its length."""
    while end > 0 and text[end - 1].isspace():       # (no copy of the text: this runs per letter)
        end -= 1
    return max(0, end - rules.LOOKBACK)


def ends_with(pattern: re.Pattern, text: str, end: int) -> re.Match | None:
    """`pattern` (anchored at its end) matched against the text just before position `end`."""
    return pattern.search(text, window_start(text, end), end)


def text_at(text: str, at: int, option: str, ahead: re.Pattern | None = None) -> int | None:
    """Where an option's text found at `at` (ignoring case, as a whole word) ends, or None; with
    `ahead`, only when that pattern matches right after it. (A string comparison: a pattern
    compiled per option text would be compiled again for nearly every question.)"""
    end = at + len(option)
    if not option or text[at:end].lower() != option.lower():
        return None
    if ahead is None:
        return None if text[end:end + 1].isalnum() or text[end:end + 1] == "_" else end
    return end if ahead.match(text, end) else None



def unwrapped(tex: str) -> str:
    """TeX without its one-argument commands, three deep ("\\boxed{\\text{(B)}}" is "(B)")."""
    for _ in range(3):
        tex = RX["latex-wrap"].sub(r"\1", tex)
    return tex



class Mention:
    """A letter the reply names: where, how firmly (DECISIVE: an answer label, a conclusion, a check
    mark; LABELLED: "option B", "I choose B"; PLAIN: standing alone; DESCRIBED: "D is green"),
    whether it is listed with another letter ("A or B") or offered as one candidate ("it could also
    be B"), and whether it is stated as the present or latest value ("now it's B")."""
    __slots__ = ("start", "end", "letter", "level", "joined", "current")

    def __init__(self, start: int, end: int, letter: str, level: int, joined: bool, current: bool = False):
        self.start, self.end, self.letter, self.level, self.joined = start, end, letter, level, joined
        self.current = current



def phrase_spans(padded: str, phrase: str) -> list[tuple[int, int]]:
    """Where `phrase` stands between spaces in `padded`; two occurrences may share the space between
    them. (str.find, not a pattern compiled per option text.)"""
    found, needle, at = [], f" {phrase} ", padded.find(f" {phrase} ")
    while at >= 0:
        found.append((at + 1, at + 1 + len(phrase)))
        at = padded.find(needle, at + 1 + len(phrase))
    return found
