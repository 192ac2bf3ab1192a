"""The engine both answer readers share: a table of named cues, read in its order.

A reader's rules are a table (a JSON file beside the reader: each cue's name, stage, effect, doc and
examples, and what that reader needs besides) and word lists joined into patterns. This module holds
the mechanics the two readers (evaluator.scoring.choice, evaluator.scoring.refusal) have in common,
once: loading a table (`load_table`), joining a word list into a pattern (`alt`, `bounded`,
`phrases`), pairing a stage's cues with their tests in table order (`steps`: a cue whose effect the
engine does not know, or that has no test, is an error when the module loads), running them in
that order (`firing`), noting what fired (`noter`) and digesting the rules into a rules version
(`digest`). What an effect does is the reader's own; this module knows none.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple


def load_table(path: Path) -> tuple:
    """The rows of a cue table (a JSON list), in table order."""
    return tuple(json.loads(Path(path).read_text("utf-8")))


# -- word lists as patterns ---------------------------------------------------------------------------
def alt(words: Iterable[str], sep: str = r"\s+") -> str:
    """`(?:w1|w2|...)`: entries in a small pattern dialect (a space stands for `sep`, anything else
    is regular-expression syntax), in the order given."""
    return "(?:" + "|".join(w.replace(" ", sep) for w in words) + ")"


def bounded(words: Iterable[str], sep: str = r"\s+") -> str:
    """Each dialect entry as a whole word: `\\bw1\\b|\\bw2\\b|...`."""
    return "|".join(r"\b" + w.replace(" ", sep) + r"\b" for w in words)


def phrases(words: Iterable[str]) -> str:
    """An alternation of plain phrases (no pattern syntax: each is escaped), longest first, a space
    standing for any white space."""
    return "(?:" + "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in words),
                                   key=len, reverse=True)) + ")"


# -- cues read in table order ---------------------------------------------------------------------------
class Step(NamedTuple):
    """One cue as the engine runs it: its name, its effect and its test (the reader's function;
    whatever it returns that is true means the cue fired, and is handed back by `firing`)."""

    name: str
    effect: str
    test: Callable[..., Any]


def steps(cues: Iterable[tuple[str, str, Any]], test_for: Callable[[Any], Callable | None],
          effects: Iterable[str]) -> tuple[Step, ...]:
    """The steps of one stage: `cues` are (name, effect, row) in table order, `test_for(row)` the
    reader's test for a row (None: it has none), `effects` the effects this stage knows."""
    known, out = set(effects), []
    for name, effect, row in cues:
        if effect not in known:
            raise ValueError(f"cue {name!r}: effect {effect!r} is not one this stage knows ({', '.join(sorted(known))})")
        test = test_for(row)
        if test is None:
            raise ValueError(f"cue {name!r} has no test")
        out.append(Step(name, effect, test))
    return tuple(out)


def firing(run: Iterable[Step], *args) -> Iterator[tuple[Step, Any]]:
    """(step, what its test returned) for each step of `run`, in order, whose test fires on `args`;
    the reader stops where an effect ends the reading."""
    for step in run:
        found = step.test(*args)
        if found:
            yield step, found


def noter(fired: list | None) -> Callable[[Any], None]:
    """The function that notes a fired cue into `fired` (nothing when there is no list: not tracing)."""
    return fired.append if fired is not None else _ignore


def _ignore(_: Any) -> None:
    return None


def digest(rules: object, files: Iterable[Path]) -> str:
    """12 hex digits of sha256 over the JSON of `rules` (what the table and the word lists say) and
    the bytes of `files` (the engine's source): a reader's rules version."""
    h = hashlib.sha256(json.dumps(rules, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    for path in files:
        h.update(hashlib.sha256(Path(path).read_bytes()).digest())
    return h.hexdigest()[:12]
