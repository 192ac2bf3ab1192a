"""The one rule for replies that cannot be read, for every task of both suites.

A reply that cannot be read scores 0 and stays in the denominator, with its reason recorded on
the item (`unreadable`) and counted per task (`n_unreadable` in results.json):

- `empty`: the reply is empty or only whitespace;
- `unparseable`: the task asks for a form the reply does not have: no option letter can be read
  from a reply to a multiple-choice question (and the reply is not a refusal, which is read as
  one), or a reconstruction reply holds no JSON object of the asked shape.

An empty reply is never sent to the judge: it scores 0 on every metric (a chat reply that says
nothing conveys none of the reference, recalls nothing and so holds back).

A reasoning model's reply is read as what it shows after its reasoning (`visible_reply`, the one
rule for the built-in agents' replies, the judge's and every reply score_answer scores): `<think>`, `<thinking>` and `<reasoning>`
blocks (any case) are not the answer. A reply whose block never closes (cut while thinking) holds
no answer: its visible text is "", an `empty` reply.

Only a failure to get a reply leaves an item unscored: the model or transport failed after its
retries, its media or data could not be read, or the agent raised. Such an item is counted in
`n_failed` (never as 0), and the task is marked incomplete wherever it is printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

REASONS = ("empty", "unparseable")

REASONING_TAGS = ("think", "thinking", "reasoning")   # DeepSeek-R1/Qwen3/QwQ, and prompted CoT
_TAGS = "|".join(REASONING_TAGS)
_BLOCK = re.compile(rf"<({_TAGS})>.*?</\1>", re.I | re.S)
_OPEN = re.compile(rf"<({_TAGS})>", re.I)
_CLOSE = re.compile(rf"</({_TAGS})>", re.I)


@dataclass(frozen=True)
class Visible:
    text: str              # what the reply shows: its answer, stripped
    removed: int = 0       # characters of reasoning (tags included) that are not the answer
    unclosed: bool = False  # a reasoning block opened and never closed (the reply was cut in it)


def visible_reply(reply: str | None) -> Visible:
    """The reply without its reasoning: every complete `<think>...</think>` (`<thinking>`,
    `<reasoning>`; any case) block removed; when a closing tag is left (the chat template opened
    the block in the prompt, as DeepSeek-R1's does), only what follows the last one; and from a
    block that never closes, nothing (it runs to the end of the reply)."""
    text = reply or ""
    if "<" not in text:
        return Visible(text.strip())
    kept = _BLOCK.sub("", text)
    closes = list(_CLOSE.finditer(kept))
    if closes:
        kept = kept[closes[-1].end():]
    opened = _OPEN.search(kept)
    if opened:
        kept = kept[:opened.start()]
    return Visible(kept.strip(), len(text) - len(kept), opened is not None)


def generation_answer(text: str | None, raw: object) -> tuple[str, dict]:
    """What a model's generation answers (`visible_reply`) and what the journal line notes about
    it: `reasoning_removed` ({chars, unclosed}) and `finish` (a finish reason other than "stop",
    from the backend's `raw`: "length" is a reply cut at max_tokens). The built-in agents and the
    chat track's conditions read a generation by this."""
    reply = visible_reply(text)
    notes: dict = {}
    if reply.removed:
        notes["reasoning_removed"] = {"chars": reply.removed,
                                      **({"unclosed": True} if reply.unclosed else {})}
    finish = raw.get("finish_reason") if isinstance(raw, dict) else None
    if isinstance(finish, str) and finish != "stop":
        notes["finish"] = finish
    return reply.text, notes


def is_empty(reply: object) -> bool:
    """The reply says nothing: None, or a string of whitespace only."""
    return reply is None or (isinstance(reply, str) and not reply.strip())


def reason(reply: object, *, parsed: bool = True) -> str | None:
    """`empty`, `unparseable` (the reply has text but `parsed` is False) or None (readable)."""
    if is_empty(reply):
        return "empty"
    return None if parsed else "unparseable"


def count(reasons: Iterable[str | None]) -> dict[str, int]:
    """{"empty": n, "unparseable": m}: how many replies of a task could not be read, per reason
    (both keys always present, so a zero is visible)."""
    out = {r: 0 for r in REASONS}
    for r in reasons:
        if r in out:
            out[r] += 1
    return out
