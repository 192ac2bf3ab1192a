"""What the refusal reader (evaluator.scoring.refusal) reads: a reply split into clauses
(`clauses`: sentence by sentence, at commas, semicolons, colons, dashes and brackets) and a question
read for what it asks (`read_question`: the kinds of value asked, from the word lists ASKS, and the
stems of the words that name what it asks about, `content_stems`)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from evaluator.scoring import refusal_cues as rules
from evaluator.scoring.metrics import answer_text, normalize_answer
from evaluator.text import STOPWORDS_REALCOMPANION, stem_words


class Asked(NamedTuple):
    """What a question asks: the kinds of value (see ASKS) and the stems of the words that name
    what it asks about."""
    kinds: frozenset
    words: frozenset
    focus: frozenset = frozenset()   # the stems of the words that name the thing asked for (see FOCUS)


@lru_cache(maxsize=8192)
def content_stems(norm: str) -> frozenset:
    """The stems of the words of a normalised text that can name a thing (no stop or frame words)."""
    words = [w for w in norm.split() if w not in STOPWORDS_REALCOMPANION and w not in rules.FRAME_WORDS
             and len(w) > 1]
    return frozenset(stem_words(words))


def question_text(question: object) -> str | None:
    text = answer_text(question).strip()
    return text or None


@lru_cache(maxsize=4096)
def read_question(question: str | None) -> Asked | None:
    """What `question` asks (None when there is no question)."""
    if not question:
        return None
    norm = normalize_answer(question)
    kinds = {kind for kind, p in rules.ASK_PATTERNS if p.search(norm)}
    if re.search(r"(?:^|[.?!]\s+)when\b", question.strip(), re.IGNORECASE):
        kinds.add("date")
    if re.search(r"\bor\b", norm) and rules.COMPARE.search(norm):
        kinds.add("choice")
    # a choice ("Which did I do first, A or B?") is answered by naming an option, not its noun
    return Asked(frozenset(kinds), content_stems(norm), frozenset() if "choice" in kinds else focus_stems(norm))


def focus_stems(norm: str) -> frozenset:
    """The stems a clause names when it names what a normalised question asks for: the wh-word's
    own words ("where": where, location, place ...; rules.FOCUS_WORDS) and the noun after "what" /
    "which" ("Which county ...?": county)."""
    words = {w for wh, named in rules.FOCUS_WORDS.items() if re.search(rf"\b{wh}\b", norm) for w in named}
    words |= {m.group(1) for m in rules.FOCUS_NOUN.finditer(norm)}
    return frozenset(stem_words(sorted(words)))


def names_focus(clause: str, asked: Asked) -> frozenset:
    """The focus stems of `asked` that a normalised clause names."""
    return frozenset(stem_words(clause.split())) & asked.focus if asked.focus else frozenset()


def clauses(text: str) -> list[tuple[str, bool, int, bool]]:
    """(normalised clause, ended with a question mark, sentence number, inside brackets) for each
    clause of `text`; a sentence ends at ".", "!", "?" or a line break."""
    out = []
    sentences = []
    for line in text.split("\n"):
        marker = rules.LIST_MARKER.match(line)              # "12. " opening a line is no sentence end
        at = marker.end() if marker else 0
        pieces = rules.SENTENCE_END.split(line[at:])
        pieces[0] = line[:at] + pieces[0]
        sentences += [p for p in pieces if p.strip()]
    for sentence, piece in enumerate(sentences):
        depth = 0
        asked = piece.rstrip().endswith("?")
        parts = []
        for segment in re.split(r"([()\[\]])", piece):
            if segment in ("(", "["):
                depth += 1
            elif segment in (")", "]"):
                depth = max(depth - 1, 0)
            else:
                segment = rules.IT_IS.sub("it is", segment)  # "it's" stays apart from the possessive "its"
                parts += [(n, depth > 0) for n in (normalize_answer(p) for p in rules.SPLIT.split(segment)) if n]
        # "?" closes the clause it ends: only the piece's last clause is a question
        out.extend((norm, asked and i == len(parts) - 1, sentence, aside) for i, (norm, aside) in enumerate(parts))
    return out
