"""A lexical refusal detector: does a reply (or a gold answer) say the history does not tell?

The phrase list lives in `refusal_phrases.txt` in this package (sections explained there). It is
deliberately plain and auditable; an LLM judge is the better instrument for unusual phrasings.
An empty reply is not a refusal (it is simply a wrong answer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from evaluator.scoring.metrics import normalize_answer

PHRASES_FILE = "refusal_phrases.txt"
_SECTIONS = ("refusal", "hedge", "answer-markers", "whole")


@dataclass(frozen=True)
class RefusalLexicon:
    refusal: tuple[str, ...]
    hedge: tuple[str, ...]
    answer_markers: tuple[str, ...]
    whole: frozenset[str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_refusal_re", _phrase_regex(self.refusal))
        object.__setattr__(self, "_hedge_re", _phrase_regex(self.hedge))
        object.__setattr__(self, "_marker_re", _phrase_regex(self.answer_markers))

    def matches(self, text: object) -> bool:
        norm = normalize_answer(text)
        if not norm:
            return False
        if norm in self.whole:
            return True
        if self._refusal_re is not None and self._refusal_re.search(norm):
            return True
        if self._hedge_re is not None:
            for m in self._hedge_re.finditer(norm):
                if self._marker_re is None or not self._marker_re.search(norm, m.end()):
                    return True
        return False


def _phrase_regex(phrases: tuple[str, ...]) -> re.Pattern | None:
    if not phrases:
        return None
    # Longest first so an alternation never stops at a shorter prefix; whole words only.
    body = "|".join(re.escape(p) for p in sorted(set(phrases), key=len, reverse=True))
    return re.compile(rf"(?<!\S)(?:{body})(?!\S)")


def parse_lexicon(text: str) -> RefusalLexicon:
    sections: dict[str, list[str]] = {name: [] for name in _SECTIONS}
    current = None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
            if current not in sections:
                raise ValueError(f"{PHRASES_FILE}: line {n}: unknown section [{current}]")
            continue
        if current is None:
            raise ValueError(f"{PHRASES_FILE}: line {n}: phrase before any [section]")
        phrase = normalize_answer(line)
        if phrase:
            sections[current].append(phrase)
    return RefusalLexicon(tuple(sections["refusal"]), tuple(sections["hedge"]),
                          tuple(sections["answer-markers"]), frozenset(sections["whole"]))


@lru_cache(maxsize=1)
def default_lexicon() -> RefusalLexicon:
    from importlib.resources import files

    return parse_lexicon(files("evaluator.scoring").joinpath(PHRASES_FILE).read_text("utf-8"))


def is_refusal(text: object) -> bool:
    """True when the text declines to answer or says the information is not available."""
    return default_lexicon().matches(text)
