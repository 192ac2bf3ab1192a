"""Multiple choice: find the options a question lists and the option a reply chose.

Options are recognised when a question lists at least two consecutive letters starting at A,
either one per line ("(A) red", "A. red", "A) red", "A: red", "[A] red") or inline with
parenthesised or right-bracketed letters ("... (A) red (B) blue", "... A) red B) blue"), and as a last resort
inline "A. red B. blue".
"""

from __future__ import annotations

import re

from evaluator.scoring.metrics import normalize_answer

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


# -- reading the choice out of a reply ------------------------------------------------------------
_MARKUP = re.compile(r"[*_`#]+")
_BARE_LETTER = re.compile(r"[\(\[]?\s*([A-Za-z])\s*[\)\]]?\s*[.:!]?")
_EXPLICIT = re.compile(
    r"(?i:\b(?:final\s+answer|answer|option|choice|correct\s+(?:answer|option|choice))"
    r"(?:\s+(?:is|would\s+be|should\s+be|=))?\s*[:=\-]?\s*)"
    r"(\(\s*[A-Za-z]\s*\)|\[\s*[A-Za-z]\s*\]|[A-Za-z])(?![A-Za-z0-9'’])")
_LEADING = re.compile(r"^[\(\[]?([A-Z])(?:[\)\]]|[.:](?=\s|$))")
_LEADING_SPACE = re.compile(r"^([A-Z])\s+(\S.*)$", re.DOTALL)
_PAREN_LETTER = re.compile(r"\(([A-Z])\)")


def _letter_of(token: str) -> tuple[str, bool]:
    """('B', wrapped) from 'B', '(b)', '[B]'."""
    wrapped = token[0] in "(["
    return token.strip("()[] ").upper(), wrapped


def _by_option_text(text: str, options: dict[str, str]) -> str | None:
    padded = f" {normalize_answer(text)} "
    if not padded.strip():
        return None
    hits = {}
    for letter, option in options.items():
        norm = normalize_answer(option)
        if norm and f" {norm} " in padded:
            hits[letter] = norm
    # "dark red" also contains the option "red": keep only matches not inside a longer match.
    kept = [l for l, n in hits.items()
            if not any(o != l and len(m) > len(n) and f" {n} " in f" {m} " for o, m in hits.items())]
    return kept[0] if len(kept) == 1 else None


def extract_choice(prediction: str, options: dict[str, str]) -> str | None:
    """The option letter a reply chose, or None when it names none or several.

    Tried in order: the whole reply is a letter ("B", "(b)", "B."); an explicit statement
    ("Answer: B", "The answer is (B).", the last one wins); a leading letter ("B) blue",
    "(B) because ..."); a single parenthesised letter anywhere; the text of exactly one option.
    A lower-case "a" only counts when it stands alone or in brackets (it is usually an article).
    """
    if not options or prediction is None:
        return None
    text = _MARKUP.sub("", str(prediction)).strip()
    if not text:
        return None
    letters = set(options)

    m = _BARE_LETTER.fullmatch(text)
    if m and m.group(1).upper() in letters:
        return m.group(1).upper()

    explicit = None
    for m in _EXPLICIT.finditer(text):
        letter, wrapped = _letter_of(m.group(1))
        if letter not in letters or (m.group(1) == "a" and not wrapped):
            continue
        explicit = letter
    if explicit:
        return explicit

    m = _LEADING.match(text)
    if m and m.group(1) in letters:
        return m.group(1)
    m = _LEADING_SPACE.match(text)
    if m and m.group(1) in letters:
        # "B blue" names option B; "A red car" is an article when "red car" is another option.
        rest = _by_option_text(m.group(2), options)
        if rest == m.group(1):
            return rest

    parens = {l for l in _PAREN_LETTER.findall(text) if l in letters}
    if len(parens) == 1:
        return parens.pop()

    return _by_option_text(text, options)


def gold_choice(gold: object, options: dict[str, str]) -> str | None:
    """The letter of the gold answer ("B", "(B) blue" or the option text "blue"); with a list of
    gold answers, the first that names an option."""
    candidates = gold if isinstance(gold, (list, tuple)) else [gold]
    for g in candidates:
        if g is None:
            continue
        letter = extract_choice(str(g), options)
        if letter:
            return letter
    return None
