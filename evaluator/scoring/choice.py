"""Multiple choice: find the options a question lists and the option a reply chose.

Three readers: `extract_options` (the options a question lists), `extract_choice` (the flexible
reading of a reply: an engine over the cue table of choice_cues.py / choice_cues.json, able to
name the cues that decided) and `strict_choice` (the final `Answer: X` line only), which also reads
the gold letter (`gold_choice`). `rules_version()` digests the flexible reader's rules.

Options are recognised when a question lists at least two consecutive letters starting at A,
either one per line ("(A) red", "A. red", "A) red", "A: red", "[A] red") or inline with
parenthesised or right-bracketed letters ("... (A) red (B) blue", "... A) red B) blue"), and as a last resort
inline "A. red B. blue".
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, overload

from evaluator.scoring import choice_cues as rules
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
# The rules are data (evaluator/scoring/choice_cues.py and choice_cues.json): named cues, the groups
# they are read in and the parts they share, built from word lists. This engine compiles them once and reads a reply
# stage by stage, the letter cues in table order; `extract_choice(..., trace=True)` names the cues
# that fired.
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


_RX = _compile()
_CUE_OF_GROUP = {_group_id(c.name): c.name for c in rules.CUES if c.group}
_NO_FIELD = object()
DESCRIBED, PLAIN, LABELLED, DECISIVE = 0, 1, 2, 3
_LEVEL_NAMES = {DESCRIBED: "described", PLAIN: "plain", LABELLED: "labelled", DECISIVE: "decisive"}


def _hit(hits: list | None, cue: str, letter: str | None, start: int, end: int, text: str) -> None:
    if hits is not None:
        hits.append(Hit(cue, letter, start, end, text[start:end][:60]))


def _window_start(text: str, end: int) -> int:
    """Where the patterns that read the words before position `end` start looking. They are
    anchored at `end` and reach back a few words, so they search the text (whole, so "^" still means
    its start) from LOOKBACK characters before it: a long reasoning reply stays linear, not
    quadratic, in its length."""
    while end > 0 and text[end - 1].isspace():       # (no copy of the text: this runs per letter)
        end -= 1
    return max(0, end - rules.LOOKBACK)


def _ends_with(pattern: re.Pattern, text: str, end: int) -> re.Match | None:
    """`pattern` (anchored at its end) matched against the text just before position `end`."""
    return pattern.search(text, _window_start(text, end), end)


def _text_at(text: str, at: int, option: str, ahead: re.Pattern | None = None) -> int | None:
    """Where an option's text found at `at` (ignoring case, as a whole word) ends, or None; with
    `ahead`, only when that pattern matches right after it. (A string comparison: a pattern
    compiled per option text would be compiled again for nearly every question.)"""
    end = at + len(option)
    if not option or text[at:end].lower() != option.lower():
        return None
    if ahead is None:
        return None if text[end:end + 1].isalnum() or text[end:end + 1] == "_" else end
    return end if ahead.match(text, end) else None


# -- stage 1: the reply -----------------------------------------------------------------------------
def _plain_script(text: str, hits: list | None) -> str:
    """NFKC, CJK punctuation as Latin, a space wherever Latin letters or digits touch another script."""
    out = _RX["script-edge"].sub(" ", unicodedata.normalize("NFKC", text).translate(_CJK_PUNCT))
    if hits is not None and out != text:
        _hit(hits, "plain-script", None, 0, len(out), out)
    return out


_CJK_PUNCT = str.maketrans(rules.CJK_PUNCTUATION)
_ANSWER_KEY = _RX["answer-key"]


def _json_answer(prediction: str):
    """The value of a JSON (or Python dict) reply's answer field: the shallowest one, the last of
    those ({"answer": "B", "considered": [{"option": "A"}]} answers B; {"result": {"answer": "B"}}
    too); a field whose value is an object is read through that object's own answer field or its
    text ({"answer": {"letter": "B"}}, {"answer": {"text": "blue"}}). _NO_FIELD when the reply is
    not such an object or has no answer field; the regex reading (json-answer-text) covers
    malformed ones."""
    start, end = prediction.find("{"), prediction.rfind("}")
    if start < 0 or end < start:
        return _NO_FIELD
    chunk = prediction[start:end + 1]
    try:
        data = json.loads(chunk)
    except ValueError:
        try:
            data = ast.literal_eval(chunk)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return _NO_FIELD
    found: list[tuple[int, int, object]] = []          # (depth, order, value)

    def walk(node, depth):
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str) and _ANSWER_KEY.match(key.strip()):
                    found.append((depth, len(found), value))
                walk(value, depth + 1)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value, depth + 1)

    walk(data, 0)
    if not found:
        return _NO_FIELD
    value = min(found, key=lambda f: (f[0], -f[1]))[2]
    if isinstance(value, dict):
        inner = _json_answer(json.dumps(value))
        if inner is not _NO_FIELD:
            return inner
        value = [v for v in value.values() if isinstance(v, str)]
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value if v is not None) or None
    return None if value is None else str(value)


def _unwrapped(tex: str) -> str:
    """TeX without its one-argument commands, three deep ("\\boxed{\\text{(B)}}" is "(B)")."""
    for _ in range(3):
        tex = _RX["latex-wrap"].sub(r"\1", tex)
    return tex


def _reply_text(prediction: str, hits: list | None) -> str:
    """The part of a reply that answers: without a reasoning block that an answer follows, with
    \\boxed{} read as an answer label and markdown checkboxes as check marks."""
    closes = list(_RX["reasoning-block"].finditer(prediction))
    if closes:
        _hit(hits, "reasoning-block", None, closes[-1].start(), closes[-1].end(), prediction)
        after = prediction[closes[-1].end():]
        prediction = after if _RX["has-word"].search(after) else prediction[:closes[-1].start()]
    for name, rewrite in (("reasoning-open-tag", lambda p: _RX["reasoning-open-tag"].sub(" ", p)),
                          ("boxed", lambda p: _RX["boxed"].sub(
                              lambda m: " answer: " + _RX["latex-wrap"].sub(r"\1", m.group(1)) + " ", p)),
                          ("checked-box", lambda p: _RX["checked-box"].sub(r"\1✅", p)),
                          ("empty-box", lambda p: _RX["empty-box"].sub(r"\1❌", p))):
        if hits is not None and (m := _RX[name].search(prediction)):
            _hit(hits, name, None, m.start(), m.end(), prediction)
        prediction = rewrite(prediction)
    return prediction


# -- stage 2: the answer line ---------------------------------------------------------------------------
def _final_answer_line(answered: str, options: dict[str, str], hits: list | None):
    """What the reply's last line says after "Answer:" (the format reasoning prompts ask for):
    the letter it names alone or with its option's text ("Answer: C", "Answer: \\( \\text{(H)} \\)",
    "Answer: (F) C, A, B, D"), the option whose whole text it gives ("Answer: $EDBCFGKH_A$"), None
    when it names none ("Answer: None of the above"), or _NO_FIELD when the last line is no such
    answer or names something else (read with the rest of the reply)."""
    line_rx = _RX["final-answer-line"]
    lines = [line for line in answered.splitlines() if _RX["has-word"].search(line)]
    m = line_rx.match(lines[-1]) if lines else None
    if not m:
        return _NO_FIELD
    _hit(hits, "final-answer-line", None, m.start(1), m.end(1), lines[-1])
    if any((e := line_rx.match(line)) and e.group(1) != m.group(1) for line in lines[:-1]):
        _hit(hits, "answer-line-conflict", None, 0, len(lines[-1]), lines[-1])
        return _NO_FIELD                  # ("Answer: B\nAnswer: A" states two answers)
    plain = _RX["markup"].sub(" ", _unwrapped(m.group(1))).strip()
    said = normalize_answer(plain)
    texts = {k: normalize_answer(_RX["markup"].sub(" ", v)) for k, v in options.items()}
    by_text = [k for k, t in texts.items() if said and t == said]
    line = lines[-1]
    if len(by_text) == 1 and not _RX["lone-letter"].fullmatch(plain):
        _hit(hits, "answer-line-text", by_text[0], m.start(1), m.end(1), line)
        return by_text[0]
    lone = _RX["answer-line-letter"].fullmatch(plain)
    if lone and lone.group(1).upper() in options:
        _hit(hits, "answer-line-letter", lone.group(1).upper(), m.start(1), m.end(1), line)
        return lone.group(1).upper()
    labelled = _RX["answer-line-labelled"].fullmatch(plain)
    if labelled and labelled.group(1) in options and normalize_answer(labelled.group(2)) in texts.values():
        _hit(hits, "answer-line-labelled", labelled.group(1), m.start(1), m.end(1), line)
        return labelled.group(1)          # its own text, or (a slip) another option's: the letter stands
    if _RX["answer-line-none"].fullmatch(plain):
        _hit(hits, "answer-line-none", None, m.start(1), m.end(1), line)
        return None
    return _NO_FIELD


# -- stage 3: rewrite ------------------------------------------------------------------------------------
def _letters_in_math(text: str, hits: list | None) -> str:
    """TeX maths with the letters of its formulas taken out: "\\(A\\) is the area" and "$h_{AB}$" name
    variables and points, not options. A letter alone in maths counts where it is stated as the
    answer ("Answer: \\( \\text{(H)} \\)", "Answer: $C$", "$B$ is correct")."""
    def read(m):
        body = _unwrapped(next(g for g in m.groups() if g is not None))
        if " answer: " in body:               # \boxed{} inside maths, already read as an answer label
            return " " + body + " "
        if _RX["lone-letter"].fullmatch(body):
            before = _RX["markup"].sub(" ", text[max(0, m.start() - 120):m.start()])
            if (_RX["answer-label"].search(before) or _RX["conclusion"].search(before)
                    or _RX["strong-after"].match(_RX["markup"].sub(" ", text[m.end():m.end() + 80]))):
                _hit(hits, "maths-answer-letter", body.strip().strip("()[].").upper() or None,
                     m.start(), m.end(), text)
                return " " + body.strip() + " "
        _hit(hits, "maths", None, m.start(), m.end(), text)
        return " ⋯ "

    return _RX["maths"].sub(read, text)


_FOREIGN = [(name, _RX[name], english) for name, english in rules.FOREIGN_ENGLISH.items()]


def _english_labels(text: str, hits: list | None) -> str:
    """The words of an answer statement in other languages as their English counterparts (the
    foreign-* cues, in table order; an ASCII reply without a Latin trigger word has none)."""
    if text.isascii() and not _RX["latin-foreign"].search(text):
        return text
    for name, pattern, english in _FOREIGN:
        if hits is not None and (m := pattern.search(text)):
            _hit(hits, name, None, m.start(), m.end(), text)
        text = pattern.sub(english, text)
    return text


def _ordinals_as_letters(text: str, options: dict[str, str], hits: list | None) -> str:
    letters = sorted(options)

    def letter(m):
        word = m.group(1).lower()
        i = len(letters) - 1 if word == "last" else rules.ORDINALS.index(word)
        if i < len(letters):
            _hit(hits, "ordinal", letters[i], m.start(), m.end(), text)
            return f"option {letters[i]}"
        return m.group(0)

    return _RX["ordinal"].sub(letter, text)


def _compound_pairs(text: str, hits: list | None) -> str:
    if hits is not None:
        for m in _RX["compound-pair"].finditer(text):
            _hit(hits, "compound-pair", None, m.start(), m.end(), text)
    return _RX["compound-pair"].sub("#/#", text)


def _unglued(text: str, options: dict[str, str], hits: list | None) -> str:
    def split(m):
        option = options.get(m.group(2))
        rest = text[m.end():]
        if option and rest[:len(option)].lower() == option.lower() and not rest[len(option):len(option) + 1].isalnum():
            _hit(hits, "glued-letter", m.group(2), m.start(), m.end(), text)
            return m.group(1) + " "
        return m.group(0)

    return _RX["glued-letter"].sub(split, text)


# -- stage 4: letters -------------------------------------------------------------------------------------
class _Mention:
    """A letter the reply names: where, how firmly (DECISIVE: an answer label, a conclusion, a check
    mark; LABELLED: "option B", "I choose B"; PLAIN: standing alone; DESCRIBED: "D is green"),
    whether it is listed with another letter ("A or B") or offered as one candidate ("it could also
    be B"), and whether it is stated as the present or latest value ("now it's B")."""
    __slots__ = ("start", "end", "letter", "level", "joined", "current")

    def __init__(self, start: int, end: int, letter: str, level: int, joined: bool, current: bool = False):
        self.start, self.end, self.letter, self.level, self.joined = start, end, letter, level, joined
        self.current = current


class _Reply:
    """What the letter cues share across one reply's letters."""
    __slots__ = ("text", "options", "letters", "hits", "partners", "rejected", "conditional", "rejected_at",
                 "short", "first_word", "asking", "previous_end", "text_until", "bracketed_texts")

    def __init__(self, text: str, options: dict[str, str], hits: list | None):
        self.text, self.options, self.letters, self.hits = text, options, set(options), hits
        self.partners: set[int] = set()           # where the second letter of "A or B" stands
        self.rejected: set[int] = set()           # ... and of "not A or C"
        self.conditional: set[int] = set()        # ... and of "not sure whether it's A or B"
        self.rejected_at: dict[str, int] = {}     # where each rejected letter was rejected
        self.short = len(_RX["word"].findall(text)) <= rules.SHORT_REPLY_WORDS
        first = _RX["has-word"].search(text)
        self.first_word = first.start() if first else len(text)
        self.asking = [(q.start(), q.end(), q.lastgroup) for q in _RX["asking"].finditer(text)]
        self.previous_end = 0                     # where the previous letter (asserted or not) ended
        self.text_until = 0                       # the end of an option's text that follows its letter
        self.bracketed_texts = {o.strip() for o in options.values()
                                if _RX["bracketed-letter-text"].fullmatch(o.strip())}


class _Letter:
    """One letter as the letter cues read it."""
    __slots__ = ("m", "raw", "wrapped", "letter", "start", "end", "lo", "after", "delta", "lead", "shift",
                 "other", "other_at", "_mark", "decided", "labelled", "described", "joined", "current",
                 "answered")

    def __init__(self, m: re.Match, raw: str):
        self.m, self.raw, self.wrapped, self.letter = m, raw, m.group(3) is None, raw.upper()
        self.start, self.end = m.start(), m.end()
        self.other, self.other_at, self._mark = None, -1, None
        self.decided = self.labelled = self.described = self.joined = self.current = self.answered = False

    def span_after(self, s: int, e: int) -> tuple[int, int]:
        """A span of `after` as a span of the text ("'s" read as " is" adds a character)."""
        return self.end + max(0, s - self.delta), self.end + max(0, e - self.delta)


def _before(r: _Reply, s: _Letter, pattern: re.Pattern, end: int | None = None):
    m = pattern.search(r.text, s.lo, s.start if end is None else end)
    return (m.start(), m.end(), m.lastgroup) if m else None


def _after(s: _Letter, pattern: re.Pattern, at: int = 0):
    """`pattern` matched at the start of the text after the letter (`at` characters further on:
    a slice, so that "^" anchors there)."""
    m = pattern.match(s.after[at:] if at else s.after)
    return (*s.span_after(at + m.start(), at + m.end()), m.lastgroup) if m else None


def _own(found):
    """A group's match credited to the cue that ran it, not to the group's alternative."""
    return found and (found[0], found[1], None)


def _letter_span(s: _Letter):
    return (s.start, s.end, None)


def _mark(r: _Reply, s: _Letter) -> tuple[int, str, tuple]:
    """(+1 / -1 / 0, the cue, its span): a check mark or a "yes" cell (+1), a cross or a "no" cell
    (-1) beside the letter, overridden by a verdict after a dash or colon (also after the option's
    own text: "B) blue – correct"). Outside a table row, a cell holding the letter's own option
    text ("B|No" where B is "No") is no verdict."""
    if s._mark is not None:
        return s._mark
    option, after = r.options[s.letter], s.after
    line_before = r.text[r.text.rfind("\n", 0, s.start) + 1:s.start]
    line_after = after.split("\n", 1)[0]
    value, cue, span = 0, "", (s.start, s.end, None)
    if _RX["mark-first-on-line"].match(line_before):
        m = _RX["mark-before"].search(line_before)
        if m:
            value = 1 if m.group(1) in rules.CHECKS else -1
            base = s.start - len(line_before)
            cue, span = ("mark-check" if value > 0 else "mark-cross"), (base + m.start(1), base + m.end(1), None)
    else:
        m = _RX["mark-after"].match(line_after)
        if m:
            value = 1 if m.group(1) in rules.CHECKS else -1
            cue, span = ("mark-check" if value > 0 else "mark-cross"), (*s.span_after(m.start(1), m.end(1)), None)
        elif (cell := _RX["cell-after"].match(line_after)) and (
                "|" in line_before or cell.group(1).lower() != option.lower()):
            value = 1 if cell.group(1).lower() in rules.YES_CELLS else -1
            cue, span = ("cell-yes" if value > 0 else "cell-no"), (*s.span_after(cell.start(1), cell.end(1)), None)
    own_end = _text_at(after, _RX["own-text-lead"].match(after).end(), option, _RX["dash-ahead"])
    verdict = _RX["verdict-after"].match(after[own_end:] if own_end else after)
    if verdict and normalize_answer(verdict.group(1)) != normalize_answer(option):
        value = 1 if verdict.group(1).lower() in rules.POSITIVE_VERDICTS else -1
        at = own_end or 0
        cue, span = ("verdict-yes" if value > 0 else "verdict-no"), (*s.span_after(at + verdict.start(1), at + verdict.end(1)), None)
    s._mark = (value, cue, span)
    return s._mark


def _marked(sign: int, name: str):
    def test(r, s):
        value, cue, span = _mark(r, s)
        return span if value == sign and cue == name else None
    return test


def _in_name_the(r: _Reply, s: _Letter):
    """"the B train": a capital between "the" and a noun (not "the B option")."""
    before, after = r.text[s.lo:s.start], s.after
    if (_RX["the-before"].search(before) and _RX["noun-after"].match(after)
            and not (_RX["predicate-after"].match(after) or _RX["letter-noun-after"].match(after))):
        return _letter_span(s)
    return None


def _in_name_capitalised(r: _Reply, s: _Letter):
    """"with Jay B": after a capitalised word mid-sentence, unless that word is a common one or an
    option's ("..., Definitely B")."""
    before = r.text[s.lo:s.start]
    m = _RX["name-before"].search(before)
    if not m:
        return None
    previous = before[:m.start()].rstrip()
    word = m.group(1).lower()
    if bool(previous) and previous[-1] not in ".!?:;\n*>-–—(\"'“‘" and word not in rules.NOT_NAMES and not (
            word.endswith("ly") or any(word in normalize_answer(o).split() for o in r.options.values())):
        return (s.lo + m.start(1), s.lo + m.end(1), None)
    return None


def _is_initial(r: _Reply, s: _Letter):
    if s.wrapped or s.labelled:
        return None
    after = s.after
    if _RX["double-initial"].match(after):
        return _letter_span(s)            # "B. J. told you", "A.B. Carter"
    m = _RX["initial-after"].match(after)
    if not m:
        return None
    word = m.group(1).lower()
    if word not in rules.SENTENCE_OPENERS and not word.endswith("ly") and not any(
            normalize_answer(o).split()[:1] == [word] for o in r.options.values()):
        return (*s.span_after(m.start(1), m.end(1)), None)
    return None


def _alone(r: _Reply, s: _Letter) -> bool:
    return r.first_word >= s.start and bool(_RX["alone-on-line"].match(s.after))


def _quoted(r: _Reply, s: _Letter) -> bool:
    return r.text[s.start - 1:s.start] in "'‘" and s.after[:1] in "'’"


def _article_a(r: _Reply, s: _Letter):
    if s.raw != "A" or s.wrapped or s.labelled or _alone(r, s) or _quoted(r, s):
        return None
    if (_before(r, s, _RX["sentence-start"]) and not _RX["predicate-after"].match(s.after) and not s.other
            and not (r.short and _RX["lower-end"].match(s.after))):
        return _letter_span(s)
    return None


def _lower_case_word(r: _Reply, s: _Letter):
    if s.raw.islower() and not s.wrapped and not (
            (s.labelled and _RX["lower-after-label"].match(s.after))
            or (r.short and s.raw != "i" and _RX["lower-end"].match(s.after))):
        return _letter_span(s)
    return None


def _opening_letter(r: _Reply, s: _Letter):
    if (r.first_word >= s.start and _RX["opening-end"].match(s.after)
            and not any(e.group(1) in r.letters and e.group(1) != s.letter
                        for e in _RX["enumerated"].finditer(r.text))):
        return _letter_span(s)
    return None


def _stays_rejected(r: _Reply, s: _Letter):
    if not s.decided and s.letter in r.rejected_at and not _RX["revision"].search(r.text, r.rejected_at[s.letter], s.start):
        return _letter_span(s)
    return None


def _describes(r: _Reply, s: _Letter):
    m = _RX["describes-own-text"].match(s.after)
    if m and _text_at(s.after, m.end(), r.options[s.letter]) is not None:
        return (*s.span_after(m.start(), m.end()), None)
    return None


def _rejecting_verdict(r: _Reply, s: _Letter):
    m = _RX["rejecting-verdict"].match(s.after)
    if not m:
        return None
    dash = _RX["dash-lead"].match(s.after)         # "D: no pets" names D's text, it is no verdict
    if dash and _text_at(s.after, dash.end(), r.options[s.letter]) is not None:
        return None
    return (*s.span_after(m.start(), m.end()), None)


def _asked(r: _Reply, s: _Letter):
    if s.answered:
        return None
    for a, b, cue in r.asking:
        if a <= s.start < b:
            return (a, b, cue)
    return None


def _cut_option_word(r: _Reply, s: _Letter) -> int:
    """Where the text before the letter ends once a trailing "option"/"choice" is cut ("I pick
    option B" reads "I pick")."""
    m = _RX["option-word-end"].search(r.text, s.lo, s.start)
    return m.start() if m else s.start


def _test_for(cue: rules.Cue):
    """The test of one letter cue (or of its group): a function (reply, letter) -> (start, end,
    group id or None) when it fires, else None."""
    name, rx = cue.name, _RX.get(cue.group or cue.name)
    code = {
        "not-an-option": lambda r, s: _letter_span(s) if s.letter not in r.letters else None,
        "inside-own-text": lambda r, s: _letter_span(s) if s.start < r.text_until else None,
        "bracketed-option-text": lambda r, s: _letter_span(s) if s.wrapped and s.m.group(0).strip() in r.bracketed_texts else None,
        "word-part-after": lambda r, s: None if s.wrapped else _after(s, rx),
        "glued-before": lambda r, s: None if s.wrapped else _before(r, s, rx),
        "the-x-noun": lambda r, s: None if s.wrapped else _in_name_the(r, s),
        "after-capitalised-word": lambda r, s: None if s.wrapped else _in_name_capitalised(r, s),
        "conditional-partner": lambda r, s: _letter_span(s) if s.m.start(s.m.lastindex) in r.conditional else None,
        "rejected-partner": lambda r, s: _letter_span(s) if s.m.start(s.m.lastindex) in r.rejected else None,
        "mark-cross": _marked(-1, "mark-cross"), "cell-no": _marked(-1, "cell-no"),
        "verdict-no": _marked(-1, "verdict-no"), "mark-check": _marked(1, "mark-check"),
        "cell-yes": _marked(1, "cell-yes"), "verdict-yes": _marked(1, "verdict-yes"),
        "rejecting-verdict": _rejecting_verdict,
        "asked-question": _asked,
        "questioned": lambda r, s: None if s.answered else _after(s, rx),
        "strong-after-own-text": lambda r, s: _own(_after(s, _RX["strong-after"], s.shift)) if s.shift else None,
        "answer-word": lambda r, s: _before(r, s, rx, _cut_option_word(r, s)),
        "arrow-at-end": lambda r, s: _before(r, s, rx) if _RX["end-of-reply"].match(s.after) else None,
        "option-named": lambda r, s: _before(r, s, _RX["option-word-end"]),
        "lower-case-word": _lower_case_word,
        "pronoun-i": lambda r, s: _letter_span(s) if s.raw == "I" and not (
            s.wrapped or s.labelled or _alone(r, s) or _quoted(r, s)) else None,
        "article-a": _article_a,
        "pronoun-i-before-verb": lambda r, s: _after(s, rx) if s.raw == "I" and not s.wrapped else None,
        "initial": _is_initial,
        "opening-letter": _opening_letter,
        "stays-rejected": _stays_rejected,
        "describes-own-text": _describes,
        "listed-with-next": lambda r, s: (s.end, s.end, None) if s.other else None,
        "listed-after": lambda r, s: _letter_span(s) if (s.start in r.partners or s.m.start(s.m.lastindex) in r.partners) else None,
        "peer-too": lambda r, s: _after(s, rx) if (_RX["peer-too"].match(s.after) and _before(r, s, _RX["clause-open"])) else None,
        "list-as-question": lambda r, s: _after(s, _RX["question-follows"]) if s.joined else None,
        "current-before": lambda r, s: (s.start, s.start, None) if rx.search(s.lead) else None,
    }
    if name in code:
        return code[name]
    if cue.looks_at == "before":
        return lambda r, s: _before(r, s, rx)
    if cue.looks_at == "after":
        return lambda r, s: _after(s, rx)
    raise ValueError(f"letter cue {name!r} has no test")         # (a test checks every cue has one)


def _steps(phase: tuple[str, ...]) -> list[tuple[rules.Cue, object]]:
    """The letter cues of `phase` (cue names, in table order), a group once, with their tests."""
    out, seen = [], set()
    for cue in rules.CUES:
        if cue.stage != "letter" or cue.name not in phase:
            continue
        if cue.group:
            if cue.group in seen:
                continue
            seen.add(cue.group)
        out.append((cue, _test_for(cue)))
    return out


_LETTER_CUES = [c.name for c in rules.CUES if c.stage == "letter" and c.name != "letter-token"]
_TOKEN_PHASE = ("not-an-option", "inside-own-text", "bracketed-option-text")
_NAME_PHASE = tuple(c.name for c in rules.CUES if c.stage == "letter" and (
    c.name in ("word-part-after", "the-x-noun", "after-capitalised-word") or c.group == "word-part-before"))
_TOKEN_STEPS = _steps(_TOKEN_PHASE)
_NAME_STEPS = _steps(_NAME_PHASE)
_STANDING_STEPS = _steps(tuple(n for n in _LETTER_CUES if n not in _TOKEN_PHASE + _NAME_PHASE))
_ENDS = {"not a letter", "condition", "reject", "reject list", "question", "stays rejected"}


def _fire(r: _Reply, s: _Letter, steps) -> bool:
    """Run `steps` on the letter in order; True when one ends its reading (it states nothing)."""
    for cue, test in steps:
        effect = cue.effect
        if (effect == "decide" and s.decided) or (effect == "label" and s.labelled) or (
                effect == "describe" and (s.decided or s.described)) or (effect == "list" and s.joined) or (
                effect == "current" and s.current):
            continue
        found = test(r, s)
        if not found:
            continue
        if r.hits is not None:
            start, end, group_id = found
            _hit(r.hits, _CUE_OF_GROUP[group_id] if group_id in _CUE_OF_GROUP else cue.name, s.letter,
                 start, end, r.text)
        if effect in _ENDS:
            if effect == "condition" and s.other:
                r.conditional.add(s.other_at)
            elif effect == "reject list":
                if s.other and _RX["or-and-slash"].search(s.other.group(0)):
                    r.rejected.add(s.other_at)
                r.rejected_at.setdefault(s.letter, s.end)
            elif effect == "reject":
                r.rejected_at.setdefault(s.letter, s.end)
            return True
        if effect == "decide":
            s.decided = s.labelled = True
            s.answered = s.answered or cue.name == "answered-yes"
        elif effect == "label":
            s.labelled = True
        elif effect == "describe":
            s.described = True
        elif effect == "list":
            s.joined = True
            if cue.name == "listed-with-next":
                r.partners.add(s.other_at)
        elif effect == "current":
            s.current = True
    return False


def _mentions(text: str, options: dict[str, str], hits: list | None) -> list[_Mention]:
    """The letters the reply asserts, in order: each letter token (cue letter-token) read through
    the letter cues in table order, in three phases: is it an option letter at all, is it part of
    a word or a name, then its standing (conditions, rejections, questions, decisive statements,
    labels, words that are not letters, descriptions, lists, the current value)."""
    r = _Reply(text, options, hits)
    out = []
    for m in _RX["letter-token"].finditer(text):
        s = _Letter(m, m.group(1) or m.group(2) or m.group(3))
        if _fire(r, s, _TOKEN_STEPS):
            continue
        s.lo = _window_start(text, s.start)
        after = text[s.end:]
        s.after = _RX["contracted-is"].sub(" is", after)        # "B's the answer"
        s.delta = len(s.after) - len(after)
        # the words that lead up to this letter in its sentence: "..., but now it's B"
        s.lead = _RX["sentence-break"].split(text[r.previous_end:s.start])[-1]
        r.previous_end = s.end
        if _fire(r, s, _NAME_STEPS):
            continue
        option = options[s.letter]
        lead = _RX["wrapped-label-lead"] if s.wrapped else _RX["label-lead"]
        s.shift = _text_at(s.after, lead.match(s.after).end(), option) or 0
        r.text_until = s.end + s.shift
        other = _RX["listed-with-next"].match(s.after[s.shift:])
        if other and (other.group(1).upper() not in r.letters or (
                not _RX["or-and"].search(other.group(0))
                and _RX["clause-verb"].match(s.after[s.shift + other.end():]))):
            other = None                  # "I'd answer D; C is a distractor": a new clause, not a list
        if other:
            s.other, s.other_at = other, s.end + s.shift + other.start(1)
        if _fire(r, s, _STANDING_STEPS):
            continue
        _hit(hits, "letter-token", s.letter, s.start, s.end, text)
        out.append(_Mention(s.start, s.end, s.letter, DECISIVE if s.decided else DESCRIBED if s.described
                            else LABELLED if s.labelled else PLAIN, s.joined, s.current))
    return out


# -- stage 5: settle -----------------------------------------------------------------------------------------
def _superseded(text: str, mentions: list, marker: str, hits: list | None) -> str | None | bool:
    """The letter stated after the last marker that has statements on both sides (None when
    several letters follow it), or False when no marker splits the statements."""
    for mark in reversed(list(_RX[marker].finditer(text))):
        later = {m.letter for m in mentions if m.start >= mark.end()}
        if later and any(m.start < mark.start() for m in mentions):
            letter = later.pop() if len(later) == 1 else None
            _hit(hits, marker, letter, mark.start(), mark.end(), text)
            return letter
    return False


def _revised(text: str, mentions: list[_Mention], hits: list | None) -> str | None:
    """The letter a revision commits to, whatever the standing of what it revises ("Answer: A, but
    actually B"): the firmest letter stated after the last revision that follows a statement."""
    for mark in reversed(list(_RX["revision"].finditer(text))):
        later = [m for m in mentions if m.start >= mark.end()]
        if later and any(m.start < mark.start() for m in mentions):
            top = max(m.level for m in later)
            letters = {m.letter for m in later if m.level == top}
            if len(letters) == 1:
                letter = letters.pop()
                _hit(hits, "revision", letter, mark.start(), mark.end(), text)
                return letter
            return None
    return None


def _settle(text: str, mentions: list[_Mention], hits: list | None) -> str | None:
    """One letter from mentions of equal standing: the letter when they agree. When they differ,
    the final committed statement wins: the letter stated after the last revision, else the one
    letter stated as the present or latest value, else, between answer statements, the one after
    a contrast, then after a conclusion; otherwise None (two letters asserted)."""
    letters = {m.letter for m in mentions}
    if len(letters) == 1:
        return mentions[0].letter
    revised = _superseded(text, mentions, "revision", hits)
    if revised is not False:
        return revised
    current = [m for m in mentions if m.current]
    if len({m.letter for m in current}) == 1 and len({m.letter for m in current}) < len(letters):
        _hit(hits, "current-value", current[0].letter, current[0].start, current[0].end, text)
        return current[0].letter
    if mentions[0].level == DECISIVE:
        contrasted = _superseded(text, mentions, "contrast", hits)
        if contrasted is not False:
            return contrasted
        concluded = _superseded(text, mentions, "concluding", hits)
        if concluded is not False:        # "The answer is B. <working> Therefore ... option E."
            return concluded
    _hit(hits, "two-letters", None, mentions[0].start, mentions[-1].end, text)
    return None


def _settle_letters(text: str, mentions: list[_Mention], hits: list | None):
    """The letter the mentions settle on, None, or _NO_FIELD when there are none to settle."""
    if mentions and all(m.level < DECISIVE for m in mentions):
        for u in _RX["cannot-tell-which"].finditer(text):
            if u.start() > mentions[-1].end:
                _hit(hits, "cannot-tell-which", None, u.start(), u.end(), text)
                return None               # "A in one message, B in another; I can't tell which you meant"
    revised = _revised(text, [m for m in mentions if not m.joined], hits)
    if revised:
        return revised
    joined = [m for m in mentions if m.joined]
    if joined:
        # "A or B" is two candidates, unless a committed statement follows the list
        later = [m for m in mentions if m.start > joined[-1].end]
        if later and _RX["statement-break"].search(text[joined[-1].end:later[0].start]):
            top = max(m.level for m in later)
            _hit(hits, "list-then-statement", None, joined[-1].end, later[0].start, text)
            return _settle(text, [m for m in later if m.level == top], hits)
        decisive = [m for m in later if m.level == DECISIVE]
        if decisive:
            _hit(hits, "list-then-statement", None, joined[-1].end, decisive[0].start, text)
            return _settle(text, decisive, hits)
        _hit(hits, "list-left-open", None, joined[0].start, joined[-1].end, text)
        return None
    for level in (DECISIVE, LABELLED, PLAIN, DESCRIBED):
        tier = [m for m in mentions if m.level == level]
        if tier:
            if hits is not None:
                hits.append(Hit("firmest-standing", None, tier[0].start, tier[-1].end, _LEVEL_NAMES[level]))
            return _settle(text, tier, hits)
    return _NO_FIELD


# -- stage 7: option text --------------------------------------------------------------------------------------
def _phrase_spans(padded: str, phrase: str) -> list[tuple[int, int]]:
    """Where `phrase` stands between spaces in `padded`; two occurrences may share the space between
    them. (str.find, not a pattern compiled per option text.)"""
    found, needle, at = [], f" {phrase} ", padded.find(f" {phrase} ")
    while at >= 0:
        found.append((at + 1, at + 1 + len(phrase)))
        at = padded.find(needle, at + 1 + len(phrase))
    return found


def _by_option_text(text: str, options: dict[str, str], hits: list | None) -> str | None:
    """The one option whose text the reply states, matched as a whole phrase. An occurrence inside
    a longer option's occurrence ("red" in "dark red") does not count, an option named after "not"
    or as the former value ("changed it from red", "red at first", "used to be red") is not chosen,
    an option named only in a question ("Was it blue?", "blue, I guess?") is not stated, one offered
    as an alternative ("or maybe red") makes the reply name none, and several options are settled as
    letters are ("You said red, but later blue": the latest)."""
    unasked = _RX["asking"].sub(" ", text)
    if hits is not None:
        for q in _RX["asking"].finditer(text):
            _hit(hits, "option-in-question", None, q.start(), q.end(), text)
        for q in _RX["no-determiner"].finditer(unasked):
            _hit(hits, "no-determiner", None, q.start(), q.end(), unasked)
    padded = f" {normalize_answer(_RX['no-determiner'].sub(' ', unasked))} "
    if not padded.strip():
        return None
    spans: dict[str, list[tuple[int, int]]] = {}
    norms = {letter: normalize_answer(option) for letter, option in options.items()}
    for letter, norm in norms.items():
        if norm:
            spans[letter] = _phrase_spans(padded, norm)
    # the options whose text holds another's as a phrase ("dark red" holds "red")
    holders = {letter: [o for o in spans if len(norms[o]) > len(norms[letter]) and f" {norms[letter]} " in f" {norms[o]} "]
               for letter in spans}
    stated: list[_Mention] = []
    for letter, found in spans.items():
        for start, end in found:
            if any(s <= start and end <= e for o in holders[letter] for s, e in spans[o]):
                _hit(hits, "inside-longer-option", letter, start, end, padded)
            elif _ends_with(_RX["option-text-negated"], padded, start):
                _hit(hits, "option-text-negated", letter, start, end, padded)
            elif _RX["option-text-former"].match(padded[end:]):
                _hit(hits, "option-text-former", letter, start, end, padded)
            else:
                alternative = bool(_ends_with(_RX["alternative-before"], padded, start))
                if alternative:
                    _hit(hits, "option-text-alternative", letter, start, end, padded)
                stated.append(_Mention(start, end, letter, PLAIN, alternative))
    if not stated or any(m.joined for m in stated):
        return None                       # "blue, I guess? Or maybe red."
    stated.sort(key=lambda m: m.start)
    for i, m in enumerate(stated):        # "You said red, but later blue", "Now it's blue"
        _hit(hits, "option-text", m.letter, m.start, m.end, padded)
        m.current = bool(_RX["current-before"].search(padded[stated[i - 1].end if i else 0:m.start]))
        if m.current:
            _hit(hits, "option-text-current", m.letter, m.start, m.end, padded)
        if _ends_with(_RX["conclusion"], padded, m.start) or _ends_with(_RX["answer-label"], padded, m.start):
            m.level = DECISIVE            # "..., so the answer is blue"
            _hit(hits, "option-text-conclusion", m.letter, m.start, m.end, padded)
    top = max(m.level for m in stated)
    return _settle(padded, [m for m in stated if m.level == top], hits)


# -- the reader -------------------------------------------------------------------------------------------------
def _read(prediction: object, options: dict[str, str], hits: list | None) -> str | None:
    if not options or prediction is None:
        return None
    prediction = _plain_script(str(prediction), hits)
    value = _json_answer(prediction)
    if value is not _NO_FIELD:
        if value is None or value.strip().lower() in ("", "null", "none"):
            _hit(hits, "json-answer-null", None, 0, len(prediction), prediction)
            return None
        _hit(hits, "json-answer-field", None, 0, len(prediction), prediction)
        return _read(value, options, hits)
    fields = list(_RX["json-answer-text"].finditer(prediction))
    if fields:
        field, value = fields[-1], fields[-1].group(1)
        inner = value.strip("[]'\" ")
        if value.lower() in ("null", "none") or not inner:
            _hit(hits, "json-answer-null", None, field.start(), field.end(), prediction)
            return None
        _hit(hits, "json-answer-text", None, field.start(), field.end(), prediction)
        return _read(inner, options, hits)
    answered = _reply_text(prediction, hits)
    markup = _RX["markup"]
    reply = markup.sub(" ", answered).strip()
    if hits is not None and (m := markup.search(answered)):
        _hit(hits, "markup", None, m.start(), m.end(), answered)
    if not reply:
        return None
    final = _final_answer_line(answered, options, hits)
    if final is not _NO_FIELD:
        return final
    # letters are read without TeX formulas, with answer words of other languages in English and
    # "the second option" as "option B"; option texts are matched in the reply as written
    text = markup.sub(" ", _letters_in_math(answered, hits)).strip()
    text = _ordinals_as_letters(_english_labels(text, hits), options, hits).strip()
    text = _unglued(_compound_pairs(text, hits), options, hits)
    m = _RX["whole-reply-letter"].fullmatch(text)
    if m and m.group(1).upper() in options:
        _hit(hits, "whole-reply-letter", m.group(1).upper(), m.start(1), m.end(1), text)
        return m.group(1).upper()
    settled = _settle_letters(text, _mentions(text, options, hits), hits)
    if settled is not _NO_FIELD:
        return settled
    from evaluator.scoring.refusal import is_refusal

    if is_refusal(reply):
        _hit(hits, "refusal", None, 0, len(reply), reply)
        return None
    return _by_option_text(reply, {k: unicodedata.normalize("NFKC", v) for k, v in options.items()}, hits)


@overload
def extract_choice(prediction: object, options: dict[str, str]) -> str | None: ...
@overload
def extract_choice(prediction: object, options: dict[str, str], *, trace: bool) -> Any: ...


def extract_choice(prediction, options, *, trace=False):
    """The option letter a reply chose, or None when it names none or asserts several (the
    flexible reading). With `trace=True`, `(letter, hits)`: the cues that fired, in the order they
    fired (`Hit`: cue name, letter, span, the piece of text read).

    The rules are the cue table of evaluator/scoring/choice_cues.py, read in its order: the reply
    (script, JSON answer field, reasoning block, \\boxed{}, checkboxes, markup), a last line
    "Answer: X", rewrites (TeX maths, other languages, ordinals, letter pairs, glued letters), a
    reply that is one letter, each letter through the letter cues (option letter, word or name,
    conditions, rejections, questions, decisive statements and labels, articles and initials, the
    opening letter, descriptions, lists, the current value), settling the letters (revision, list
    then statement, the firmest standing, the current value, contrast, conclusion), a refusal,
    then the text of exactly one option. Each cue's docstring and examples say what it reads;
    evaluator/scoring/CHOICE_HISTORY.md says when and why each was added.
    """
    hits: list[Hit] | None = [] if trace else None
    letter = _read(prediction, options, hits)
    return (letter, hits) if trace else letter


# -- the strict reading ------------------------------------------------------------------------------------
_STRICT_LINE = re.compile(r"(?i)^(?:final\s+)?answer\s*[:：]\s*(.*?)\s*$")
_STRICT_MARKUP = re.compile(r"[*_`]+")
_STRICT_LETTER = re.compile(r"[\(\[]?([A-Z])[\)\]]?\.?")
_STRICT_LABELLED = re.compile(r"[\(\[]?([A-Z])(?:[\)\]][.:]?|[.:])\s+(\S.*?)\.?")


def strict_choice(text: object, options: dict[str, str]) -> str | None:
    """The option letter a reply states in the strict form only (lm-eval's strict-match beside the
    flexible extract_choice; Inspect's `ANSWER: $LETTER`), or None.

    The last line with text (markdown emphasis `*`, `_`, backticks ignored) is read: either it is
    `Answer: X` / `ANSWER: X` / `Final answer: X`, and X is read, or the reply is that one line, and
    the whole line is read. X is a capital option letter, alone or bracketed (`B`, `(B)`, `[B]`,
    `B.`), or followed by its own option's text (`(B) blue`, `B. blue`, `B: blue`), or the whole
    text of exactly one option (`blue`). Nothing else is read: no reasoning, no lower-case letter,
    no letter inside a sentence. The gold answer is read with these steps (gold_choice)."""
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
    said_norm = normalize_answer(said)
    by_text = [k for k, v in options.items() if said_norm and normalize_answer(v) == said_norm]
    return by_text[0] if len(by_text) == 1 else None


def gold_choice(gold: object, options: dict[str, str]) -> str | None:
    """The letter of the gold answer ("B", "(B) blue" or the option text "blue"), read by the strict
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


def trace_record(hits: list[Hit]) -> list[list]:
    """A journal's form of a trace: [cue, letter, start, end, text] per hit, the last
    TRACE_LIMIT of them (a long reasoning reply fires many; its final statements decide)."""
    return [[h.cue, h.letter, h.start, h.end, h.text] for h in hits[-rules.TRACE_LIMIT:]]


@lru_cache(maxsize=1)
def rules_version() -> str:
    """12 hex digits of sha256 over the letter reader's rules: the cue table (each cue's name,
    stage, position, effect, pattern, group and the parts it uses; not its prose or examples), the
    groups, the parts, the word lists and numbers kept as data (choice_cues.py), and this engine's
    source (choice.py). results.json records it per run under `rules_versions.choice`."""
    data = {}
    for name, value in sorted(vars(rules).items()):
        if not name.isupper() or name in ("CUES", "CUE", "GROUPS", "EXAMPLE_OPTIONS", "YES_NO"):
            continue
        if isinstance(value, (frozenset, set)):
            value = sorted(value)
        if isinstance(value, (str, int, tuple, list, dict)):
            data[name] = value
    data["CUES"] = [[c.name, c.stage, c.looks_at, c.effect, c.pattern, c.group, list(c.uses)] for c in rules.CUES]
    data["GROUPS"] = [[g.name, g.looks_at, g.head, g.tail] for g in rules.GROUPS.values()]
    h = hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    h.update(hashlib.sha256(Path(__file__).read_bytes()).digest())
    return h.hexdigest()[:12]
