"""The history a question may see: the card's "Time parsing and history visibility", exactly.

For a question with a timestamp (its cutoff):
  1. a turn's effective time is its own timestamp when present, else its session's date;
  2. a turn is visible when its effective time <= the cutoff;
  3. only sessions with at least one visible turn are kept;
  4. turns are sorted by (effective time, original index);
  5. if an explicitly timestamped retained turn precedes its session's date and that date is after
     the cutoff, the session's visible date is the earliest retained turn time;
  6. sessions are sorted by (visible date, original index).
Without a question timestamp every turn is visible, in the same chronological order, and each
session keeps its own date.
Every comparison uses the parsed UTC values; each visible time also carries the string it was
parsed from (`VisibleTurn.time_raw`, `VisibleSession.date_raw`), so agents can be shown the
release's own strings (the card: "Do not ... rewrite the original strings").

Where the card reads two ways we chose, and the README says so:
  * rule 6 sorts by the *visible* date (the one rule 5 may move), so the dates an agent sees are
    always non-decreasing; for sessions rule 5 leaves alone this is the session date;
  * rule 5 uses the earliest retained turn time, which is the earliest retained explicit timestamp
    because every inherited time equals the (later) session date.
Filtering happens before anything else touches the history (media preparation, captions, memory
writes, retrieval indexes): callers get only these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from beyondrecall.records import Question, Session, Trajectory, Turn


@dataclass(slots=True)
class VisibleTurn:
    turn: Turn
    time: datetime              # effective time
    time_raw: str | None = None  # the string it was parsed from, as released (the turn's own
                                 # timestamp, else its session's date): never rewritten

    @property
    def index(self) -> int:
        return self.turn.index


@dataclass(slots=True)
class VisibleSession:
    session: Session
    date: datetime              # visible date (rule 5), else the session date
    turns: list[VisibleTurn]
    date_raw: str | None = None  # the string `date` was parsed from, as released: the session's
                                 # date, or under rule 5 the earliest retained turn's timestamp

    @property
    def index(self) -> int:
        return self.session.index


@dataclass(slots=True)
class VisibleHistory:
    trajectory: Trajectory
    question: Question
    cutoff: datetime | None
    sessions: list[VisibleSession]

    @property
    def n_sessions(self) -> int:
        return len(self.sessions)

    @property
    def n_turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)

    def turns(self):
        for s in self.sessions:
            for t in s.turns:
                yield s, t

    def media_paths(self) -> list[str]:
        """Media of visible turns, in order of first appearance (question media excluded)."""
        seen: dict[str, None] = {}
        for _, vt in self.turns():
            for m in vt.turn.media:
                seen.setdefault(m, None)
        return list(seen)


def _in_index_order(turns: list[Turn]) -> bool:
    return all(a.index < b.index for a, b in zip(turns, turns[1:]))


def _session_view(session: Session, cutoff: datetime | None) -> VisibleSession | None:
    date = session.date
    turns = session.turns
    if not any(t.timestamp is not None for t in turns):
        # Fast path (the whole current release): every turn inherits the session date.
        if cutoff is not None and date > cutoff:
            return None
        if not turns:
            return None
        # Same time for all: original index order (already the list order in loaded data).
        ordered = turns if _in_index_order(turns) else sorted(turns, key=lambda t: t.index)
        raw = session.date_raw
        return VisibleSession(session, date, [VisibleTurn(t, date, raw) for t in ordered], raw)
    kept = []
    for t in turns:
        if t.timestamp is not None:
            eff, raw = t.timestamp, t.timestamp_raw
        else:
            eff, raw = date, session.date_raw
        if cutoff is None or eff <= cutoff:
            kept.append(VisibleTurn(t, eff, raw))
    if not kept:
        return None
    kept.sort(key=lambda vt: (vt.time, vt.turn.index))
    visible_date, visible_raw = date, session.date_raw
    if cutoff is not None and date > cutoff:
        # Every retained turn is then explicitly timestamped (inherited times would be > cutoff).
        visible_date, visible_raw = kept[0].time, kept[0].time_raw
    return VisibleSession(session, visible_date, kept, visible_raw)


def visible_history(trajectory: Trajectory, question: Question) -> VisibleHistory:
    cutoff = question.timestamp
    sessions = []
    for s in trajectory.sessions:
        view = _session_view(s, cutoff)
        if view is not None:
            sessions.append(view)
    sessions.sort(key=lambda vs: (vs.date, vs.session.index))
    return VisibleHistory(trajectory, question, cutoff, sessions)
