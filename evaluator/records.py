"""The typed records of a run, and the one place they are turned into JSON and back.

A run folder holds `samples_<task>.jsonl` (one `Sample` per line, appended as each item finishes;
a later line for the same key replaces an earlier one) and `results.json` (the run's header and
one `TaskResult` per task). The viewer, `compare`, `merge`, `score` and `report` read only these.

Journal lines are flat JSON objects: the fields of `SAMPLE_FIELDS` plus the task's own fields
(question, answer, conditions, persona, ...) at the top level, so a line reads without this
module. Lines written by br-eval 0.1.0 (before `Sample` existed) load unchanged: their
`cutoff`/`visible_*`/`media_used` keys are gathered into `inputs`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 2

# Every field of a journal line that br-eval itself writes, with its meaning. The task's own
# fields (see each task module's docstring) sit beside these.
SAMPLE_FIELDS: dict[str, str] = {
    "schema": "journal schema version (2; lines without it are version 1)",
    "key": "the item's stable key: dimension/task/trajectory_id/qN (Beyond Recall) or "
           "realcompanion/<track>/<participant>/<item id>",
    "task": "the task name as `br-eval ls` lists it",
    "cluster": "the unit intervals resample: the trajectory id or the participant id",
    "inputs": "what the agent was given: cutoff, visible sessions/turns/media, messages, media "
              "inputs used (frame indices, pages)",
    "prediction": "the agent's reply text (null when the item failed)",
    "metrics": "the item's scores; `primary` is the task's primary metric for this item; on a "
               "multiple-choice item also `choice`, `choice_strict`, `gold_choice`, "
               "`mc_accuracy_strict` and `choice_trace` (the letter reader's cues that fired: "
               "[cue, letter, start, end, text], the last 40); `gold_unread: true` when the "
               "question lists options but its reference answer is no option letter (scored "
               "as an open answer)",
    "judge": "the judge phase's record: {id, error}; null when no judge ran on this item",
    "scorer_version": "the scorer version (evaluator.scoring.version) that scored this line",
    "reply_fp": "16 hex digits of the reply the line's scores were computed on: a reply changed "
                "after scoring (edited by hand) is refused on resume and re-scored by `score`",
    "prompt_hash": "sha256 of the request as sent (media by content-addressed path)",
    "prompt": "the full request, only with --log_samples",
    "model_reported": "the model name the backend's responses reported, when it reports one",
    "input_tokens": "tokens read by the model (backend's count, else null)",
    "output_tokens": "tokens written by the model (backend's count, else null)",
    "error": "one line: `Type: message`, when the item failed (never scored as 0)",
    "error_kind": "model | media | data | agent | judge (a reply that cannot be read is no "
                  "error: it scores 0, see `unreadable` in metrics)",
    "traceback": "the failed item's Python traceback",
    "seconds": "wall time of solving and scoring the item",
    "item_fp": "16 hex digits of what the answer depends on in the data (question, references, "
               "visible history, media digests): resume refuses a line whose item changed",
    "data_fp": "16 hex digits of the data files the task read (the task file's bytes)",
    "settings_fp": "16 hex digits of the answer-changing settings (results.json "
                   "config.settings) the line was answered under",
    "source": "who answered and when: {model, endpoint, served_model, date}: the endpoint and "
              "served model this line's reply came from (the run's preflight when the reply did "
              "not say); reused answers keep their own",
    "finish": "the server's finish_reason when it was not \"stop\" (\"length\": the reply was cut "
              "at max_tokens; scored as given); built-in agents only",
    "reasoning_removed": "{chars, unclosed}: the reply held reasoning (<think>, <thinking>, "
                         "<reasoning>) that is not its answer: how many characters were removed; "
                         "unclosed: true when the block never closed (no answer: an empty reply); "
                         "built-in agents only",
}

# results.json: the header fields and each task's TaskResult fields.
RESULTS_FIELDS: dict[str, str] = {
    "config": "the run's settings: tasks, settings (answer-changing), judge, limit, seed, data "
              "identity",
    "data": "the Beyond Recall snapshot: path, fingerprint, Hub revision, whether it is the "
            "generated sample",
    "judge": "the judge's description (model, prompts) when one ran",
    "br_eval_version": "the package version", "git_hash": "the checkout's commit, when known",
    "scorer_version": "digest of the scoring code, prompts and word lists that scored the run "
                      "(evaluator.scoring.version); scores compare only under one version",
    "rules_versions": "per answer reader with rules kept as data, its own rules version "
                      "({\"choice\": ...}: the multiple-choice letter reader's cue table, word lists "
                      "and engine; evaluator.scoring.version.rules_versions)",
    "overall": "per suite: the mean of its tasks' primary means (evaluator.scoring.overall)",
    "date": "when results.json was last written (UTC)",
    "results": "task name -> TaskResult",
}

TASK_RESULT_FIELDS: dict[str, str] = {
    "task": "task name", "suite": "beyondrecall | realcompanion", "unit": "what one item is",
    "primary_metric": "the name of the primary metric (docs/scoring.md)",
    "primary": "{mean, ci95, n, n_clusters}: the primary metric with its 95% cluster interval",
    "n_expected": "items the task has in the data", "n_done": "items answered (not failed)",
    "n_failed": "items whose latest attempt failed (no reply: model, transport, media, data or "
                "agent error); never scored as 0",
    "n_judge_errors": "answered items the judge failed to grade (no primary score; "
                      "`br-eval score --judge ...` retries them)",
    "n_judge_pending": "answered items a judge is to grade and never did, in a task it graded in "
                       "part (no primary score; written only when not 0; `br-eval score --judge "
                       "...` grades them)",
    "complete": "every item answered and scored: n_done == n_expected, no failure, no judge "
                "error, none awaiting the judge",
    "errors_by_kind": "failed items per error kind", "first_error": "the first failure's line",
    "n_cut": "answered items whose reply was cut at the token limit (finish_reason length); "
             "present when any was",
    "n_reasoning_removed": "answered items whose reply held reasoning that was removed "
                           "before scoring; present when any was",
}


@dataclass
class Sample:
    """What happened to one item. `fields` holds the task's own fields."""

    key: str
    task: str
    cluster: str | None = None
    inputs: dict[str, Any] = field(default_factory=dict)
    prediction: str | None = None
    metrics: dict[str, Any] | None = None
    judge: dict[str, Any] | None = None
    scorer_version: str | None = None
    reply_fp: str | None = None
    prompt_hash: str | None = None
    prompt: Any = None
    model_reported: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    error: str | None = None
    error_kind: str | None = None
    traceback: str | None = None
    seconds: float | None = None
    item_fp: str | None = None
    data_fp: str | None = None
    settings_fp: str | None = None
    source: dict[str, Any] | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return bool(self.error)

    @property
    def solved(self) -> bool:
        """The agent answered (a judge that failed afterwards does not undo that)."""
        return not self.error or self.error_kind == "judge"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema": SCHEMA_VERSION, "key": self.key, "task": self.task,
                               "cluster": self.cluster}
        out.update(self.fields)
        for name in ("inputs", "prediction", "metrics", "judge", "scorer_version", "reply_fp",
                     "prompt_hash", "prompt",
                     "model_reported", "input_tokens", "output_tokens", "error", "error_kind",
                     "traceback", "seconds", "item_fp", "data_fp", "settings_fp", "source"):
            value = getattr(self, name)
            if value is not None and value != {} or name in ("prediction", "metrics"):
                out[name] = value
        return out

    @classmethod
    def from_json(cls, line: dict[str, Any], task: str | None = None) -> "Sample":
        line = dict(line)
        line.pop("schema", None)
        known = {n: line.pop(n) for n in list(line) if n in _CORE}
        inputs = dict(known.pop("inputs", None) or {})
        for old in _V1_INPUTS:            # version-1 lines kept these at the top level
            if old in line:
                inputs[old] = line.pop(old)
        return cls(key=str(known.pop("key")), task=str(known.pop("task", None) or task or ""),
                   inputs=inputs, fields=line, **known)

    def dumps(self) -> str:
        # ensure_ascii: a lone surrogate from the data cannot make the write fail.
        return json.dumps(self.to_json(), ensure_ascii=True, default=str)


_CORE = {"key", "task", "cluster", "inputs", "prediction", "metrics", "judge", "scorer_version",
         "reply_fp", "prompt_hash",
         "prompt", "model_reported", "input_tokens", "output_tokens", "error", "error_kind",
         "traceback", "seconds", "item_fp", "data_fp", "settings_fp", "source"}
_V1_INPUTS = ("cutoff", "visible_sessions", "visible_turns", "visible_media", "media_used",
              "visible_messages", "messages_read")


def latest_by_key(samples: list[Sample]) -> list[Sample]:
    """The journal may hold a failed attempt and a later success for a key: keep the last."""
    out: dict[str, Sample] = {}
    for s in samples:
        out[s.key] = s
    return list(out.values())


@dataclass
class TaskResult:
    """One task's aggregate. `metrics` holds the task's own figures (per condition, per
    category, retrieval tables, ...), written beside the typed fields."""

    task: str
    suite: str
    unit: str
    primary_metric: str | None
    primary: dict | None
    n_expected: int
    n_done: int
    n_failed: int
    metrics: dict[str, Any] = field(default_factory=dict)
    errors_by_kind: dict[str, int] = field(default_factory=dict)
    first_error: str | None = None
    n_judge_errors: int = 0
    n_judge_pending: int = 0       # answered items a judge is to grade and never did (evaluate)

    @property
    def complete(self) -> bool:
        return (self.n_done >= self.n_expected and self.n_failed == 0 and not self.n_judge_errors
                and not self.n_judge_pending)

    def to_json(self) -> dict[str, Any]:
        out = dict(self.metrics)
        out.update({"task": self.task, "suite": self.suite, "unit": self.unit,
                    "primary_metric": self.primary_metric, "primary": self.primary,
                    "n_expected": self.n_expected, "n_done": self.n_done,
                    "n_failed": self.n_failed, "n_judge_errors": self.n_judge_errors,
                    "complete": self.complete})
        if self.n_judge_pending:
            out["n_judge_pending"] = self.n_judge_pending
        if self.errors_by_kind:
            out["errors_by_kind"] = self.errors_by_kind
        if self.first_error:
            out["first_error"] = self.first_error
        return out

    @classmethod
    def from_json(cls, name: str, entry: dict[str, Any]) -> "TaskResult":
        entry = dict(entry)
        typed = {k: entry.pop(k, None) for k in ("task", "suite", "unit", "primary_metric",
                                                 "primary", "n_expected", "n_done", "n_failed",
                                                 "errors_by_kind", "first_error",
                                                 "n_judge_errors", "n_judge_pending")}
        entry.pop("complete", None)
        n_failed = int(typed["n_failed"] or 0)
        n_done = typed["n_done"]
        if n_done is None:                       # a version-1 results.json
            n_done = int(entry.get("n_samples", entry.get("n_scored", 0)) or 0) - n_failed
        return cls(task=typed["task"] or name, suite=typed["suite"] or "",
                   unit=typed["unit"] or "item", primary_metric=typed["primary_metric"],
                   primary=typed["primary"],
                   n_expected=int(typed["n_expected"] if typed["n_expected"] is not None
                                  else n_done + n_failed),
                   n_done=int(n_done), n_failed=n_failed, metrics=entry,
                   errors_by_kind=typed["errors_by_kind"] or {},
                   first_error=typed["first_error"],
                   n_judge_errors=int(typed["n_judge_errors"] or 0),
                   n_judge_pending=int(typed["n_judge_pending"] or 0))
