"""What the three RealCompanion tracks share: the release, a participant's history as agent
sessions, asking an agent, token estimates and participant-clustered statistics.

A participant's history becomes the same `MemorySession`s the Beyond Recall tasks use (one per
`session` id, in conversation order; a turn's `person` is the speaker, its `id` the message id),
so any agent runs on both suites unchanged. Each item gets a fresh agent that is given only the
messages it may see (evaluator.beyondrecall_task.ask, the same for both suites).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from pathlib import Path

from evaluator.task import Task

_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)


class RealCompanionTask(Task):
    """What the four RealCompanion tasks share: their data folder (the generated sample by
    default, said once on stderr)."""

    suite = "realcompanion"

    def resolve_data(self, given):
        from evaluator.datasets import data_dir

        return data_dir("realcompanion", given)

    def fingerprint(self, ctx, item) -> str:
        """The item itself and its participant's whole release (conversation, profile,
        persona): every item reads the conversation, so any change to it is a change."""
        from evaluator.task import content_digest

        participant = participant_digests(ctx).get(str(item.cluster))
        payload = None if getattr(item.payload, "pid", None) else item.payload
        return content_digest([payload, participant])

    def data_label(self, ctx) -> str:
        return str(load_rc(ctx)[0])

    def data_fingerprint(self, ctx) -> str | None:
        from evaluator.task import content_digest

        return content_digest(sorted(participant_digests(ctx).items()))


def load_rc(ctx):
    """(root, Release) for the run, loaded once and shared by the four tasks."""
    from evaluator.datasets import data_dir
    from evaluator.realcompanion.data import load_release

    def build():
        root = data_dir("realcompanion", ctx.rc_data)
        return Path(root), load_release(root)
    return ctx.shared(("rc_release", str(ctx.rc_data)), build)


def participant_digests(ctx) -> dict[str, str]:
    """Participant id -> digest of its messages, claims and persona, computed once per run."""
    from evaluator.task import content_digest

    _, release = load_rc(ctx)
    return ctx.shared(("rc_digests", str(ctx.rc_data)), lambda: {
        p.pid: content_digest([p.messages, p.claims, p.persona]) for p in release.participants})


def history_views(ctx) -> dict:
    """Participant id -> HistoryView, built once per run."""
    _, release = load_rc(ctx)
    return ctx.shared(("rc_views", str(ctx.rc_data)),
                      lambda: {p.pid: HistoryView(p) for p in release.participants})


def data_info(ctx) -> dict:
    root, release = load_rc(ctx)
    return {"path": str(root), "is_sample": release.is_sample,
            "participants": len(release.participants)}


def estimate_tokens(text: str) -> int:
    """One token per 4 characters: the same estimate the Beyond Recall agents budget with."""
    return math.ceil(len(text) / 4)


class HistoryView:
    """A participant's messages as agent turns, built once and sliced per item."""

    def __init__(self, participant) -> None:
        from beyondrecall.timestamps import parse_strict
        from evaluator.agents.protocol import MemoryTurn

        self.participant = participant
        self.turns: list = []
        self.session_of: list[int] = []        # session ordinal of each message
        self.session_dates: list[datetime] = []
        last_session = None
        for m in participant.messages:
            when = parse_strict(m.time) if m.time else None   # the loader checked it reads
            if when is None:   # no time released: order still comes from the conversation
                when = _EPOCH + timedelta(days=int(m.day or 0))
            if m.session != last_session:
                self.session_dates.append(when)
                last_session = m.session
            ordinal = len(self.session_dates) - 1
            self.session_of.append(ordinal)
            self.turns.append(MemoryTurn(ordinal, m.position, when, m.speaker, m.text, [], m.id))

    def sessions_before(self, position: int) -> list:
        """Every message strictly before `position`, grouped into sessions, oldest first: fresh
        turn objects for each item, so one item's agent cannot change what a later one sees (an
        isolated memory, as the Beyond Recall tasks give)."""
        from evaluator.agents.protocol import MemorySession

        out: list = []
        for turn in self.turns[:max(0, position)]:
            if not out or out[-1].index != turn.session_index:
                out.append(MemorySession(turn.session_index,
                                         self.session_dates[turn.session_index], []))
            out[-1].turns.append(turn.copy())
        return out
