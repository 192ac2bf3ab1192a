"""A task, declared once: its items, how to solve and score one item, and how to aggregate.

Every task of both suites is a subclass of `Task` (Beyond Recall: evaluator/beyondrecall_task.py;
RealCompanion: evaluator/realcompanion/*_track.py and retrieval_task.py), registered by name in
evaluator/registry.py. The one loop that runs them all is evaluator/evaluate.py.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from evaluator.records import Sample


def plain(x):
    """A JSON-ready copy of `x`: dataclasses (slotted too) as dicts without their private
    fields, tuples as lists, anything else that JSON lacks (datetimes, paths) as its string."""
    if is_dataclass(x) and not isinstance(x, type):
        return {f.name: plain(getattr(x, f.name)) for f in fields(x) if not f.name.startswith("_")}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    return x if isinstance(x, (str, int, float, bool, type(None))) else str(x)


def content_digest(value) -> str:
    """16 hex digits of `value`'s canonical JSON: what journal lines are tied to."""
    blob = json.dumps(plain(value), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def reply_digest(task: "Task", sample: Sample) -> str:
    """A line's `reply_fp`: the digest of the reply its scores are computed on."""
    return content_digest(task.replies(sample))


def edited_replies(task: "Task", samples: list[Sample]) -> list[Sample]:
    """Answered lines whose reply is not the one their scores were computed on (edited by hand
    after scoring). Lines from before `reply_fp` existed cannot be checked and are not listed."""
    return [s for s in samples if s.solved and s.reply_fp and s.reply_fp != reply_digest(task, s)]


@dataclass(frozen=True)
class Item:
    key: str                 # stable across runs: the journal's key
    cluster: str             # the unit intervals resample (trajectory, participant)
    payload: Any             # what solve/score need (a question, a probe, a participant)


class Task:
    name: str = ""
    suite: str = ""
    unit: str = "item"                   # the word for one item: question, probe, participant
    uses_agent: bool = True              # False: computed without agent or model

    def __init__(self, name: str | None = None) -> None:
        if name:
            self.name = name

    def resolve_data(self, given):
        """The task's data folder for the run from what the user gave (None: the default); the
        loop resolves it once for all tasks of a suite, before the resume check."""
        return given

    def prepare(self, ctx) -> None:
        """Check the settings and load the data, before anything is journaled (raise EvalError
        or UsageError with one line)."""

    def data_warnings(self, ctx) -> list[str]:
        """Lines about the data's shape worth a warning at the start of a run (after `prepare`),
        one per fact; they never stop the run (default: none)."""
        return []

    def items(self, ctx) -> list[Item]:
        """Every item of the task in a fixed order (`--limit` takes the first N)."""
        raise NotImplementedError

    def fingerprint(self, ctx, item: Item) -> str:
        """16 hex digits of everything in the data that the item's answer and score depend on;
        a journal line whose item no longer has this fingerprint is not reused."""
        return content_digest(item.payload)

    def data_fingerprint(self, ctx) -> str | None:
        """16 hex digits of the data files the task read (None: not known)."""
        return None

    def data_label(self, ctx) -> str:
        """The data the task reads, as a resume refusal names it."""
        return "the task's data"

    def legacy_fingerprints(self, ctx, item: Item) -> list[str]:
        """Earlier forms of `fingerprint` for the same item content (an older br-eval's): a line
        carrying one is reused with a warning that what the form left out cannot be checked."""
        return []

    def check_scorable(self, ctx, done: list[Sample]) -> None:
        """Refuse (EvalError, one line) journal lines `score` cannot score again with this code:
        lines whose task-specific layout changed (a new journal version of the task)."""

    def check_resume(self, ctx, done: list[Sample]) -> None:
        """Refuse to resume over journal lines written under other task settings."""

    def solve(self, ctx, item: Item, sample: Sample) -> None:
        """Answer one item into `sample` (prediction, inputs, the task's fields). Raising
        records the item as failed; EvalError stops the whole run."""
        raise NotImplementedError

    def needs_judge(self, sample: Sample) -> bool:
        """Whether the judge phase has anything to grade on this sample."""
        return False

    def replies(self, sample: Sample) -> Any:
        """What the agent replied, as `score` reads it: the prediction. Its digest is the line's
        `reply_fp`, which ties the line's scores to the reply they were computed on."""
        return sample.prediction

    def score(self, ctx, item: Item, sample: Sample, judge=None) -> str | None:
        """Set `sample.metrics` (deterministic without a judge, judged with one). Returns the
        judge's error line when the judge failed on this sample, else None."""
        raise NotImplementedError

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        """Every metric of the task from its journal lines (the latest line per key)."""
        raise NotImplementedError

    def tables(self, entry: dict) -> str:
        """Extra tables `br-eval report` prints for this task's results.json entry ("" none)."""
        return ""

    def describe_item(self, ctx, item: Item) -> list[str]:
        """What `br-eval show KEY` prints for an item: what the agent is asked and what it sees."""
        return [item.key]

    def question_and_gold(self, ctx, item: Item) -> tuple[str | None, str | None]:
        """The item's question and reference as text, for the report, when its journal line
        does not carry them as `question` / `answer` fields (default: neither)."""
        return None, None


def awaiting_judge(task, samples: list[Sample]) -> set[str]:
    """Keys of a task's answered lines that a judge is to grade and never did, once a judge graded
    some of the task's lines (a run killed in its judge phase and resumed or scored without
    `--judge`; items a later run without a judge added): their lexical score is not the task's
    primary, in results.json, `report`, `compare` and `view` alike."""
    if not any(s.judge for s in samples):
        return set()
    return {s.key for s in samples if s.solved and not s.judge and task.needs_judge(s)}
