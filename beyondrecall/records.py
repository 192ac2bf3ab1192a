"""Typed records for the Beyond Recall release (the card's "Data Schema").

Records keep the original strings next to parsed values: outputs cite what the file said, and
nothing is rewritten. Times are timezone-aware UTC datetimes (see `timestamps`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from beyondrecall.card import TASKS

# Derived from the card's Tasks table (beyondrecall.card.TASKS), where each task is declared once:
# dimension -> its tasks, task -> its dimension, and every task name, grouped by dimension.
DIMENSIONS: dict[str, tuple[str, ...]] = {
    d: tuple(f.name for f in TASKS.values() if f.dimension == d)
    for d in dict.fromkeys(f.dimension for f in TASKS.values())}
TASK_DIMENSION: dict[str, str] = {t: d for d, tasks in DIMENSIONS.items() for t in tasks}
TASK_NAMES: tuple[str, ...] = tuple(TASK_DIMENSION)


@dataclass(frozen=True, slots=True, order=True)
class QuestionKey:
    """`dimension/task/trajectory_id/qN`, N the zero-based position in `questions`."""

    dimension: str
    task: str
    trajectory_id: str
    index: int

    def __str__(self) -> str:
        return f"{self.dimension}/{self.task}/{self.trajectory_id}/q{self.index}"

    @classmethod
    def parse(cls, text: str) -> "QuestionKey":
        """The trajectory id is everything between `task/` and `/qN`, so an id that itself
        contains `/` stays addressable."""
        parts = text.strip().split("/")
        if len(parts) < 4 or not parts[-1].startswith("q") or not parts[-1][1:].isdigit() \
                or not parts[-1][1:].isascii():
            raise ValueError(f"question key {text!r} is not dimension/task/trajectory_id/qN")
        dimension, task, q = parts[0], parts[1], parts[-1]
        tid = "/".join(parts[2:-1])
        if TASK_DIMENSION.get(task) != dimension:
            raise ValueError(f"question key {text!r}: unknown dimension/task pair {dimension}/{task}")
        return cls(dimension, task, tid, int(q[1:]))


@dataclass(slots=True)
class Turn:
    index: int                      # position in its session's `turns`
    person: str
    content: str
    media: tuple[str, ...]          # paths relative to benchmark/, validated
    timestamp: datetime | None      # explicit turn time, None when absent or null
    timestamp_raw: str | None


@dataclass(slots=True)
class Session:
    index: int                      # position in the trajectory's `conversation`
    date: datetime
    date_raw: str
    turns: list[Turn]


@dataclass(slots=True)
class Question:
    index: int
    key: QuestionKey
    question: str
    answer: object                  # reference answer: for scoring only, never shown to an agent
    media: tuple[str, ...]          # query input, not history
    timestamp: datetime | None      # the cutoff; None means all history is visible
    timestamp_raw: str | None


@dataclass(slots=True)
class Trajectory:
    task: str
    dimension: str
    id: str                         # task-local; kept as the string form of the JSON value
    persons: object
    sessions: list[Session]
    questions: list[Question]

    @property
    def n_turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


@dataclass(slots=True)
class TaskData:
    name: str
    dimension: str
    path: Path
    trajectories: list[Trajectory] = field(default_factory=list)

    @property
    def n_questions(self) -> int:
        return sum(len(t.questions) for t in self.trajectories)

    def questions(self):
        for traj in self.trajectories:
            for q in traj.questions:
                yield traj, q

    def media_paths(self) -> set[str]:
        """Every media path the task names: history turns and question inputs."""
        out: set[str] = set()
        for traj in self.trajectories:
            for s in traj.sessions:
                for t in s.turns:
                    out.update(t.media)
            for q in traj.questions:
                out.update(q.media)
        return out
