"""The options a multiple-choice question lists: `extract_options`.

Options are recognised when a question lists at least two consecutive letters starting at A,
either one per line ("(A) red", "A. red", "A) red", "A: red", "[A] red") or inline with
parenthesised or right-bracketed letters ("... (A) red (B) blue", "... A) red B) blue"), and as a last resort
inline "A. red B. blue".
"""

from __future__ import annotations

import re


_LINE_OPTION = re.compile(r"^[ \t>*-]*(?:\(([A-Z])\)|\[([A-Z])\]|([A-Z])[.):])[ \t]+(\S.*?)[ \t]*$",
                          re.MULTILINE)
_INLINE_PAREN = re.compile(r"(?:(?<=\s)|^|(?<=[:?]))\(([A-Z])\)\s*")
_INLINE_BRACKET = re.compile(r"(?:(?<=\s)|^)([A-Z])\)\s+")
_INLINE_DOT = re.compile(r"(?:(?<=\s)|^)([A-Z])[.:]\s+")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
_TRAILING_JOINER = re.compile(r"(?:[\s,;]+(?:or|and))?[\s,;]*$", re.IGNORECASE)


def _consecutive_from_a(letters: list[str]) -> int:
    """How many of `letters` (in order) run A, B, C, ... without a gap."""
    n = 0
    for letter in letters:
        if letter != chr(ord("A") + n):
            break
        n += 1
    return n


def _inline_options(question: str, pattern: re.Pattern) -> dict[str, str]:
    marks = list(pattern.finditer(question))
    # Start at the first "A" so a stray capital before the list is ignored. "A." only opens a
    # list after a question mark, a colon or a line break ("He met A. Smith" lists nothing).
    starts = [i for i, m in enumerate(marks) if m.group(1) == "A" and (
        pattern is not _INLINE_DOT or not question[:m.start()].strip()
        or question[:m.start()].rstrip()[-1] in "?:" or question[:m.start()].endswith("\n"))]
    if not starts:
        return {}
    marks = marks[starts[0]:]
    n = _consecutive_from_a([m.group(1) for m in marks])
    if n < 2:
        return {}
    options: dict[str, str] = {}
    for i in range(n):
        end = marks[i + 1].start() if i + 1 < n else len(question)
        text = question[marks[i].end():end]
        if i + 1 == n:
            # The last option runs to the end of its line or sentence, not over any instructions.
            text = text.split("\n", 1)[0]
            text = _SENTENCE_END.split(text, 1)[0]
        text = _TRAILING_JOINER.sub("", text.strip())
        text = text.rstrip(" .")
        if not text:
            return {}
        options[marks[i].group(1)] = text
    return options


def extract_options(question: str) -> dict[str, str]:
    """{letter: option text} for the options the question lists, or {} when it lists none."""
    if not question:
        return {}
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for m in _LINE_OPTION.finditer(question):
        letter = m.group(1) or m.group(2) or m.group(3)
        if letter in seen:
            continue
        seen.add(letter)
        found.append((letter, m.group(4).strip()))
    starts = [i for i, (letter, _) in enumerate(found) if letter == "A"]
    if starts:
        found = found[starts[0]:]
        n = _consecutive_from_a([letter for letter, _ in found])
        if n >= 2:
            return dict(found[:n])
    for pattern in (_INLINE_PAREN, _INLINE_BRACKET, _INLINE_DOT):
        options = _inline_options(question, pattern)
        if options:
            return options
    return {}
