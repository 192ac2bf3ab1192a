"""The one rule for replies that cannot be read, for every task of both suites.

A reply that cannot be read scores 0 and stays in the denominator, with its reason recorded on
the item (`unreadable`) and counted per task (`n_unreadable` in results.json):

- `empty`: the reply is empty or only whitespace;
- `unparseable`: the task asks for a form the reply does not have: no option letter can be read
  from a reply to a multiple-choice question (and the reply is not a refusal, which is read as
  one), or a reconstruction reply holds no JSON object of the asked shape.

An empty reply is never sent to the judge: it scores 0 on every metric (a chat reply that says
nothing conveys none of the reference, recalls nothing and so holds back).

Only a failure to get a reply leaves an item unscored: the model or transport failed after its
retries, its media or data could not be read, or the agent raised. Such an item is counted in
`n_failed` (never as 0), and the task is marked incomplete wherever it is printed.
"""

from __future__ import annotations

from collections.abc import Iterable

REASONS = ("empty", "unparseable")


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
