"""Multiple choice: find the options a question lists and the option a reply chose.

Three readers: `extract_options` (the options a question lists: choice_options.py),
`extract_choice` (the flexible reading of a reply: this module, an engine over the cue table of
choice_cues.py / choice_cues.json, able to name the cues that decided) and `strict_choice` (the
final `Answer: X` line only: choice_strict.py), which also reads the gold letter (`gold_choice`).
`rules_version()` digests the flexible reader's rules.

The engine reads a reply stage by stage, in the table's order: the reply, its answer line and the
rewrites (choice_reply.py), each letter through the letter cues in table order (their tests:
choice_letters.py), settling the letters, a refusal, the option text. What the stages share (the
compiled patterns, `Hit`, `Mention`, span helpers) is choice_match.py; how a table is loaded and
its cues paired with their tests is evaluator.scoring.cue_engine, shared with the refusal reader.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

from evaluator.scoring import choice_cues as rules
from evaluator.scoring.choice_letters import Letter, Reply, test_for
from evaluator.scoring.choice_match import (CUE_OF_GROUP, DECISIVE, DESCRIBED, LABELLED, LEVEL_NAMES, NO_FIELD, PLAIN,
                                            RX, Hit, Mention, ends_with, hit, phrase_spans, text_at, window_start)
from evaluator.scoring.choice_options import extract_options
from evaluator.scoring.choice_reply import (compound_pairs, english_labels, final_answer_line, json_answer,
                                            letters_in_math, ordinals_as_letters, plain_script, reply_text, unglued)
from evaluator.scoring.choice_strict import gold_choice, strict_choice
from evaluator.scoring.cue_engine import digest, steps
from evaluator.scoring.metrics import normalize_answer

__all__ = ["Hit", "extract_choice", "extract_options", "gold_choice", "rules_version", "strict_choice", "trace_record"]


# -- stage 4: letters -------------------------------------------------------------------------------------
# the effects a letter cue may have: those that end the letter's reading (it states nothing), and
# those that give it a standing or a property
_ENDS = {"not a letter", "condition", "reject", "reject list", "question", "stays rejected"}
_LETTER_EFFECTS = (*_ENDS, "decide", "label", "describe", "list", "current")


def _steps(phase: tuple[str, ...]):
    """The letter cues of `phase` (cue names), in table order, a group once, with their tests."""
    rows, seen = [], set()
    for cue in rules.CUES:
        if cue.stage != "letter" or cue.name not in phase or (cue.group and cue.group in seen):
            continue
        seen.add(cue.group)
        rows.append((cue.name, cue.effect, cue))
    return steps(rows, test_for, _LETTER_EFFECTS)


_LETTER_CUES = [c.name for c in rules.CUES if c.stage == "letter" and c.name != "letter-token"]
_TOKEN_PHASE = ("not-an-option", "inside-own-text", "bracketed-option-text")
_NAME_PHASE = tuple(c.name for c in rules.CUES if c.stage == "letter" and (
    c.name in ("word-part-after", "the-x-noun", "after-capitalised-word") or c.group == "word-part-before"))
_TOKEN_STEPS = _steps(_TOKEN_PHASE)
_NAME_STEPS = _steps(_NAME_PHASE)
_STANDING_STEPS = _steps(tuple(n for n in _LETTER_CUES if n not in _TOKEN_PHASE + _NAME_PHASE))


def _fire(r: Reply, s: Letter, run) -> bool:
    """Run the steps `run` on the letter in order; True when one ends its reading (it states nothing)."""
    for cue in run:
        effect = cue.effect
        if (effect == "decide" and s.decided) or (effect == "label" and s.labelled) or (
                effect == "describe" and (s.decided or s.described)) or (effect == "list" and s.joined) or (
                effect == "current" and s.current):
            continue
        found = cue.test(r, s)
        if not found:
            continue
        if r.hits is not None:
            start, end, group_id = found
            hit(r.hits, CUE_OF_GROUP[group_id] if group_id in CUE_OF_GROUP else cue.name, s.letter,
                 start, end, r.text)
        if effect in _ENDS:
            if effect == "condition" and s.other:
                r.conditional.add(s.other_at)
            elif effect == "reject list":
                if s.other and RX["or-and-slash"].search(s.other.group(0)):
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


def _mentions(text: str, options: dict[str, str], hits: list | None) -> list[Mention]:
    """The letters the reply asserts, in order: each letter token (cue letter-token) read through
    the letter cues in table order, in three phases: is it an option letter at all, is it part of
    a word or a name, then its standing (conditions, rejections, questions, decisive statements,
    labels, words that are not letters, descriptions, lists, the current value)."""
    r = Reply(text, options, hits)
    out = []
    for m in RX["letter-token"].finditer(text):
        s = Letter(m, m.group(1) or m.group(2) or m.group(3))
        if _fire(r, s, _TOKEN_STEPS):
            continue
        s.lo = window_start(text, s.start)
        after = text[s.end:]
        s.after = RX["contracted-is"].sub(" is", after)        # "B's the answer"
        s.delta = len(s.after) - len(after)
        # the words that lead up to this letter in its sentence: "..., but now it's B"
        s.lead = RX["sentence-break"].split(text[r.previous_end:s.start])[-1]
        r.previous_end = s.end
        if _fire(r, s, _NAME_STEPS):
            continue
        option = options[s.letter]
        lead = RX["wrapped-label-lead"] if s.wrapped else RX["label-lead"]
        s.shift = text_at(s.after, lead.match(s.after).end(), option) or 0
        r.text_until = s.end + s.shift
        other = RX["listed-with-next"].match(s.after[s.shift:])
        if other and (other.group(1).upper() not in r.letters or (
                not RX["or-and"].search(other.group(0))
                and RX["clause-verb"].match(s.after[s.shift + other.end():]))):
            other = None                  # "I'd answer D; C is a distractor": a new clause, not a list
        if other:
            s.other, s.other_at = other, s.end + s.shift + other.start(1)
        if _fire(r, s, _STANDING_STEPS):
            continue
        hit(hits, "letter-token", s.letter, s.start, s.end, text)
        out.append(Mention(s.start, s.end, s.letter, DECISIVE if s.decided else DESCRIBED if s.described
                            else LABELLED if s.labelled else PLAIN, s.joined, s.current))
    return out


# -- stage 5: settle -----------------------------------------------------------------------------------------
def _superseded(text: str, mentions: list, marker: str, hits: list | None) -> str | None | bool:
    """The letter stated after the last marker that has statements on both sides (None when
    several letters follow it), or False when no marker splits the statements."""
    for mark in reversed(list(RX[marker].finditer(text))):
        later = {m.letter for m in mentions if m.start >= mark.end()}
        if later and any(m.start < mark.start() for m in mentions):
            letter = later.pop() if len(later) == 1 else None
            hit(hits, marker, letter, mark.start(), mark.end(), text)
            return letter
    return False


def _revised(text: str, mentions: list[Mention], hits: list | None) -> str | None:
    """The letter a revision commits to, whatever the standing of what it revises ("Answer: A, but
    actually B"): the firmest letter stated after the last revision that follows a statement."""
    for mark in reversed(list(RX["revision"].finditer(text))):
        later = [m for m in mentions if m.start >= mark.end()]
        if later and any(m.start < mark.start() for m in mentions):
            top = max(m.level for m in later)
            letters = {m.letter for m in later if m.level == top}
            if len(letters) == 1:
                letter = letters.pop()
                hit(hits, "revision", letter, mark.start(), mark.end(), text)
                return letter
            return None
    return None


def _settle(text: str, mentions: list[Mention], hits: list | None) -> str | None:
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
        hit(hits, "current-value", current[0].letter, current[0].start, current[0].end, text)
        return current[0].letter
    if mentions[0].level == DECISIVE:
        contrasted = _superseded(text, mentions, "contrast", hits)
        if contrasted is not False:
            return contrasted
        concluded = _superseded(text, mentions, "concluding", hits)
        if concluded is not False:        # "The answer is B. <working> Therefore ... option E."
            return concluded
    hit(hits, "two-letters", None, mentions[0].start, mentions[-1].end, text)
    return None


def _settle_letters(text: str, mentions: list[Mention], hits: list | None):
    """The letter the mentions settle on, None, or NO_FIELD when there are none to settle."""
    if mentions and all(m.level < DECISIVE for m in mentions):
        for u in RX["cannot-tell-which"].finditer(text):
            if u.start() > mentions[-1].end:
                hit(hits, "cannot-tell-which", None, u.start(), u.end(), text)
                return None               # "A in one message, B in another; I can't tell which you meant"
    revised = _revised(text, [m for m in mentions if not m.joined], hits)
    if revised:
        return revised
    joined = [m for m in mentions if m.joined]
    if joined:
        # "A or B" is two candidates, unless a committed statement follows the list
        later = [m for m in mentions if m.start > joined[-1].end]
        if later and RX["statement-break"].search(text[joined[-1].end:later[0].start]):
            top = max(m.level for m in later)
            hit(hits, "list-then-statement", None, joined[-1].end, later[0].start, text)
            return _settle(text, [m for m in later if m.level == top], hits)
        decisive = [m for m in later if m.level == DECISIVE]
        if decisive:
            hit(hits, "list-then-statement", None, joined[-1].end, decisive[0].start, text)
            return _settle(text, decisive, hits)
        # "D — A and B are unrelated": a letter stated before the list, in an earlier clause, and
        # a list that offers no alternative and leaves that letter out: the list explains it
        earlier = [m for m in mentions if not m.joined and m.end <= joined[0].start]
        between = text[earlier[-1].end:joined[0].start] if earlier else ""
        listed, after = {m.letter for m in joined}, text[joined[-1].end:]
        if earlier and len(listed) > 1 and not {m.letter for m in earlier} & listed and (
                RX["statement-break"].search(between) or RX["explained-by"].match(between)) and not (
                RX["alternative-list"].search(text[joined[0].start:joined[-1].end])
                or RX["alternative-before"].search(text[:joined[0].start])
                or RX["alternative-after"].match(after) or RX["peer-too"].match(after)):
            top = max(m.level for m in earlier)
            hit(hits, "statement-then-list", None, earlier[-1].end, joined[0].start, text)
            return _settle(text, [m for m in earlier if m.level == top], hits)
        hit(hits, "list-left-open", None, joined[0].start, joined[-1].end, text)
        return None
    for level in (DECISIVE, LABELLED, PLAIN, DESCRIBED):
        tier = [m for m in mentions if m.level == level]
        if tier:
            if hits is not None:
                hits.append(Hit("firmest-standing", None, tier[0].start, tier[-1].end, LEVEL_NAMES[level]))
            return _settle(text, tier, hits)
    return NO_FIELD




# -- stage 7: option text --------------------------------------------------------------------------------------
def _by_option_text(text: str, options: dict[str, str], hits: list | None) -> str | None:
    """The one option whose text the reply states, matched as a whole phrase. An occurrence inside
    a longer option's occurrence ("red" in "dark red") does not count, an option named after "not"
    or as the former value ("changed it from red", "red at first", "used to be red") is not chosen,
    an option named only in a question ("Was it blue?", "blue, I guess?") is not stated, one offered
    as an alternative ("or maybe red") makes the reply name none, and several options are settled as
    letters are ("You said red, but later blue": the latest)."""
    unasked = RX["asking"].sub(" ", text)
    if hits is not None:
        for q in RX["asking"].finditer(text):
            hit(hits, "option-in-question", None, q.start(), q.end(), text)
        for q in RX["no-determiner"].finditer(unasked):
            hit(hits, "no-determiner", None, q.start(), q.end(), unasked)
    padded = f" {normalize_answer(RX['no-determiner'].sub(' ', unasked))} "
    if not padded.strip():
        return None
    spans: dict[str, list[tuple[int, int]]] = {}
    norms = {letter: normalize_answer(option) for letter, option in options.items()}
    for letter, norm in norms.items():
        if norm:
            spans[letter] = phrase_spans(padded, norm)
    # the options whose text holds another's as a phrase ("dark red" holds "red")
    holders = {letter: [o for o in spans if len(norms[o]) > len(norms[letter]) and f" {norms[letter]} " in f" {norms[o]} "]
               for letter in spans}
    stated: list[Mention] = []
    for letter, found in spans.items():
        for start, end in found:
            if any(s <= start and end <= e for o in holders[letter] for s, e in spans[o]):
                hit(hits, "inside-longer-option", letter, start, end, padded)
            elif ends_with(RX["option-text-negated"], padded, start):
                hit(hits, "option-text-negated", letter, start, end, padded)
            elif RX["option-text-former"].match(padded[end:]):
                hit(hits, "option-text-former", letter, start, end, padded)
            else:
                alternative = bool(ends_with(RX["alternative-before"], padded, start))
                if alternative:
                    hit(hits, "option-text-alternative", letter, start, end, padded)
                stated.append(Mention(start, end, letter, PLAIN, alternative))
    if not stated or any(m.joined for m in stated):
        return None                       # "blue, I guess? Or maybe red."
    stated.sort(key=lambda m: m.start)
    for i, m in enumerate(stated):        # "You said red, but later blue", "Now it's blue"
        hit(hits, "option-text", m.letter, m.start, m.end, padded)
        m.current = bool(RX["current-before"].search(padded[stated[i - 1].end if i else 0:m.start]))
        if m.current:
            hit(hits, "option-text-current", m.letter, m.start, m.end, padded)
        if ends_with(RX["conclusion"], padded, m.start) or ends_with(RX["answer-label"], padded, m.start):
            m.level = DECISIVE            # "..., so the answer is blue"
            hit(hits, "option-text-conclusion", m.letter, m.start, m.end, padded)
    top = max(m.level for m in stated)
    return _settle(padded, [m for m in stated if m.level == top], hits)


# -- the reader -------------------------------------------------------------------------------------------------
def _read(prediction: object, options: dict[str, str], hits: list | None) -> str | None:
    if not options or prediction is None:
        return None
    prediction = plain_script(str(prediction), hits)
    value = json_answer(prediction)
    if value is not NO_FIELD:
        if value is None or value.strip().lower() in ("", "null", "none"):
            hit(hits, "json-answer-null", None, 0, len(prediction), prediction)
            return None
        hit(hits, "json-answer-field", None, 0, len(prediction), prediction)
        return _read(value, options, hits)
    fields = list(RX["json-answer-text"].finditer(prediction))
    if fields:
        field, value = fields[-1], fields[-1].group(1)
        inner = value.strip("[]'\" ")
        if value.lower() in ("null", "none") or not inner:
            hit(hits, "json-answer-null", None, field.start(), field.end(), prediction)
            return None
        hit(hits, "json-answer-text", None, field.start(), field.end(), prediction)
        return _read(inner, options, hits)
    answered = reply_text(prediction, hits)
    markup = RX["markup"]
    reply = markup.sub(" ", answered).strip()
    if hits is not None and (m := markup.search(answered)):
        hit(hits, "markup", None, m.start(), m.end(), answered)
    if not reply:
        return None
    final = final_answer_line(answered, options, hits)
    if final is not NO_FIELD:
        return final
    # letters are read without TeX formulas, with answer words of other languages in English and
    # "the second option" as "option B"; option texts are matched in the reply as written
    text = markup.sub(" ", letters_in_math(answered, hits)).strip()
    text = ordinals_as_letters(english_labels(text, hits), options, hits).strip()
    text = unglued(compound_pairs(text, hits), options, hits)
    m = RX["whole-reply-letter"].fullmatch(text)
    if m and m.group(1).upper() in options:
        hit(hits, "whole-reply-letter", m.group(1).upper(), m.start(1), m.end(1), text)
        return m.group(1).upper()
    settled = _settle_letters(text, _mentions(text, options, hits), hits)
    if settled is not NO_FIELD:
        return settled
    from evaluator.scoring.refusal import rules_verdict     # the phrase rules: the learned model never saw choices

    if rules_verdict(reply):
        hit(hits, "refusal", None, 0, len(reply), reply)
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


def trace_record(hits: list[Hit]) -> list[list]:
    """A journal's form of a trace: [cue, letter, start, end, text] per hit, the last
    TRACE_LIMIT of them (a long reasoning reply fires many; its final statements decide)."""
    return [[h.cue, h.letter, h.start, h.end, h.text] for h in hits[-rules.TRACE_LIMIT:]]


@lru_cache(maxsize=1)
def rules_version() -> str:
    """12 hex digits of sha256 over the letter reader's rules: the cue table (each cue's name,
    stage, position, effect, pattern, group and the parts it uses; not its prose or examples), the
    groups, the parts, the word lists and numbers kept as data (choice_cues.py), and this engine's
    source (choice.py, its stage modules and cue_engine.py). results.json records it per run under
    `rules_versions.choice`."""
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
    return digest(data, [Path(__file__).with_name(f"{name}.py") for name in ENGINE])


# the flexible reader's engine: the modules its rules version digests besides the table and word lists
ENGINE = ("choice", "choice_match", "choice_reply", "choice_letters", "cue_engine")
