"""The tests of the letter cues (choice_cues.json, stage `letter`) whose test is code, not a
pattern alone: `test_for(cue)` gives each letter cue its test, a function (reply, letter) ->
(start, end, group id or None) when the cue fires; `Reply` holds what the cues share across one
reply's letters, `Letter` one letter as they read it. The engine (evaluator.scoring.choice) runs
the tests in table order."""

from __future__ import annotations

import re

from evaluator.scoring import choice_cues as rules
from evaluator.scoring.choice_match import RX, text_at
from evaluator.scoring.metrics import normalize_answer


class Reply:
    """What the letter cues share across one reply's letters."""
    __slots__ = ("text", "options", "letters", "hits", "partners", "rejected", "conditional", "rejected_at",
                 "short", "first_word", "asking", "previous_end", "text_until", "bracketed_texts")

    def __init__(self, text: str, options: dict[str, str], hits: list | None):
        self.text, self.options, self.letters, self.hits = text, options, set(options), hits
        self.partners: set[int] = set()           # where the second letter of "A or B" stands
        self.rejected: set[int] = set()           # ... and of "not A or C"
        self.conditional: set[int] = set()        # ... and of "not sure whether it's A or B"
        self.rejected_at: dict[str, int] = {}     # where each rejected letter was rejected
        self.short = len(RX["word"].findall(text)) <= rules.SHORT_REPLY_WORDS
        first = RX["has-word"].search(text)
        self.first_word = first.start() if first else len(text)
        self.asking = [(q.start(), q.end(), q.lastgroup) for q in RX["asking"].finditer(text)]
        self.previous_end = 0                     # where the previous letter (asserted or not) ended
        self.text_until = 0                       # the end of an option's text that follows its letter
        self.bracketed_texts = {o.strip() for o in options.values()
                                if RX["bracketed-letter-text"].fullmatch(o.strip())}


class Letter:
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


def _before(r: Reply, s: Letter, pattern: re.Pattern, end: int | None = None):
    m = pattern.search(r.text, s.lo, s.start if end is None else end)
    return (m.start(), m.end(), m.lastgroup) if m else None


def _after(s: Letter, pattern: re.Pattern, at: int = 0):
    """`pattern` matched at the start of the text after the letter (`at` characters further on:
    a slice, so that "^" anchors there)."""
    m = pattern.match(s.after[at:] if at else s.after)
    return (*s.span_after(at + m.start(), at + m.end()), m.lastgroup) if m else None


def _own(found):
    """A group's match credited to the cue that ran it, not to the group's alternative."""
    return found and (found[0], found[1], None)


def _letter_span(s: Letter):
    return (s.start, s.end, None)


def _mark(r: Reply, s: Letter) -> tuple[int, str, tuple]:
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
    if RX["mark-first-on-line"].match(line_before):
        m = RX["mark-before"].search(line_before)
        if m:
            value = 1 if m.group(1) in rules.CHECKS else -1
            base = s.start - len(line_before)
            cue, span = ("mark-check" if value > 0 else "mark-cross"), (base + m.start(1), base + m.end(1), None)
    else:
        m = RX["mark-after"].match(line_after)
        if m:
            value = 1 if m.group(1) in rules.CHECKS else -1
            cue, span = ("mark-check" if value > 0 else "mark-cross"), (*s.span_after(m.start(1), m.end(1)), None)
        elif (cell := RX["cell-after"].match(line_after)) and (
                "|" in line_before or cell.group(1).lower() != option.lower()):
            value = 1 if cell.group(1).lower() in rules.YES_CELLS else -1
            cue, span = ("cell-yes" if value > 0 else "cell-no"), (*s.span_after(cell.start(1), cell.end(1)), None)
    own_end = text_at(after, RX["own-text-lead"].match(after).end(), option, RX["dash-ahead"])
    verdict = RX["verdict-after"].match(after[own_end:] if own_end else after)
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


def _in_name_the(r: Reply, s: Letter):
    """"the B train": a capital between "the" and a noun (not "the B option")."""
    before, after = r.text[s.lo:s.start], s.after
    if (RX["the-before"].search(before) and RX["noun-after"].match(after)
            and not (RX["predicate-after"].match(after) or RX["letter-noun-after"].match(after))):
        return _letter_span(s)
    return None


def _in_name_capitalised(r: Reply, s: Letter):
    """"with Jay B": after a capitalised word mid-sentence, unless that word is a common one or an
    option's ("..., Definitely B")."""
    before = r.text[s.lo:s.start]
    m = RX["name-before"].search(before)
    if not m:
        return None
    previous = before[:m.start()].rstrip()
    word = m.group(1).lower()
    if bool(previous) and previous[-1] not in ".!?:;\n*>-–—(\"'“‘" and word not in rules.NOT_NAMES and not (
            word.endswith("ly") or any(word in normalize_answer(o).split() for o in r.options.values())):
        return (s.lo + m.start(1), s.lo + m.end(1), None)
    return None


def _is_initial(r: Reply, s: Letter):
    if s.wrapped or s.labelled:
        return None
    after = s.after
    if RX["double-initial"].match(after):
        return _letter_span(s)            # "B. J. told you", "A.B. Carter"
    m = RX["initial-after"].match(after)
    if not m:
        return None
    word = m.group(1).lower()
    if word not in rules.SENTENCE_OPENERS and not word.endswith("ly") and not any(
            normalize_answer(o).split()[:1] == [word] for o in r.options.values()):
        return (*s.span_after(m.start(1), m.end(1)), None)
    return None


def _alone(r: Reply, s: Letter) -> bool:
    return r.first_word >= s.start and bool(RX["alone-on-line"].match(s.after))


def _quoted(r: Reply, s: Letter) -> bool:
    return r.text[s.start - 1:s.start] in "'‘" and s.after[:1] in "'’"


def _article_a(r: Reply, s: Letter):
    if s.raw != "A" or s.wrapped or s.labelled or _alone(r, s) or _quoted(r, s):
        return None
    if (_before(r, s, RX["sentence-start"]) and not RX["predicate-after"].match(s.after) and not s.other
            and not (r.short and RX["lower-end"].match(s.after))):
        return _letter_span(s)
    return None


def _lower_case_word(r: Reply, s: Letter):
    if s.raw.islower() and not s.wrapped and not (
            (s.labelled and RX["lower-after-label"].match(s.after))
            or (r.short and s.raw != "i" and RX["lower-end"].match(s.after))):
        return _letter_span(s)
    return None


def _opening_letter(r: Reply, s: Letter):
    if (r.first_word >= s.start and RX["opening-end"].match(s.after)
            and not any(e.group(1) in r.letters and e.group(1) != s.letter
                        for e in RX["enumerated"].finditer(r.text))):
        return _letter_span(s)
    return None


def _stays_rejected(r: Reply, s: Letter):
    if not s.decided and s.letter in r.rejected_at and not RX["revision"].search(r.text, r.rejected_at[s.letter], s.start):
        return _letter_span(s)
    return None


def _describes(r: Reply, s: Letter):
    m = RX["describes-own-text"].match(s.after)
    if m and text_at(s.after, m.end(), r.options[s.letter]) is not None:
        return (*s.span_after(m.start(), m.end()), None)
    return None


def _rejecting_verdict(r: Reply, s: Letter):
    m = RX["rejecting-verdict"].match(s.after)
    if not m:
        return None
    dash = RX["dash-lead"].match(s.after)         # "D: no pets" names D's text, it is no verdict
    if dash and text_at(s.after, dash.end(), r.options[s.letter]) is not None:
        return None
    return (*s.span_after(m.start(), m.end()), None)


def _asked(r: Reply, s: Letter):
    if s.answered:
        return None
    for a, b, cue in r.asking:
        if a <= s.start < b:
            return (a, b, cue)
    return None


def _cut_option_word(r: Reply, s: Letter) -> int:
    """Where the text before the letter ends once a trailing "option"/"choice" is cut ("I pick
    option B" reads "I pick")."""
    m = RX["option-word-end"].search(r.text, s.lo, s.start)
    return m.start() if m else s.start


def test_for(cue: rules.Cue):
    """The test of one letter cue (or of its group): a function (reply, letter) -> (start, end,
    group id or None) when it fires, else None."""
    name, rx = cue.name, RX.get(cue.group or cue.name)
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
        "strong-after-own-text": lambda r, s: _own(_after(s, RX["strong-after"], s.shift)) if s.shift else None,
        "answer-word": lambda r, s: _before(r, s, rx, _cut_option_word(r, s)),
        "arrow-at-end": lambda r, s: _before(r, s, rx) if RX["end-of-reply"].match(s.after) else None,
        "option-named": lambda r, s: _before(r, s, RX["option-word-end"]),
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
        "peer-too": lambda r, s: _after(s, rx) if (RX["peer-too"].match(s.after) and _before(r, s, RX["clause-open"])) else None,
        "list-as-question": lambda r, s: _after(s, RX["question-follows"]) if s.joined else None,
        "current-before": lambda r, s: (s.start, s.start, None) if rx.search(s.lead) else None,
    }
    if name in code:
        return code[name]
    if cue.looks_at == "before":
        return lambda r, s: _before(r, s, rx)
    if cue.looks_at == "after":
        return lambda r, s: _after(s, rx)
    raise ValueError(f"letter cue {name!r} has no test")         # (a test checks every cue has one)
