"""Load and validate the 11 task files of a snapshot (the card's "Data Schema" and
"Identifiers and optional fields").

One pass over the JSON, no per-turn heavy work: each distinct timestamp string is parsed once and
each distinct media path is checked once (a `stat`, never an `open`).
"""

from __future__ import annotations

import gc
import json
import os
import posixpath
import re
from pathlib import Path

from beyondrecall.errors import DataError
from beyondrecall.records import (DIMENSIONS, TASK_DIMENSION, TASK_NAMES, Question, QuestionKey,
                                  Session, TaskData, Trajectory, Turn)
from beyondrecall.timestamps import TimestampParser

_STEM_SEP = re.compile(r"[\s\-]+")


def task_name_for_stem(stem: str) -> str:
    """`Conflict Detection` / `conflict-detection` -> `conflict_detection`."""
    return _STEM_SEP.sub("_", stem.strip().lower())


def find_task_files(snapshot: Path) -> dict[str, Path]:
    """Map task name -> file for `<snapshot>/benchmark/<dimension>/*.json`."""
    bench = Path(snapshot) / "benchmark"
    if not bench.is_dir():
        raise DataError(f"{snapshot}: not a Beyond Recall snapshot (no benchmark/ folder)")
    found: dict[str, Path] = {}
    for dimension in DIMENSIONS:
        folder = bench / dimension
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            name = task_name_for_stem(path.stem)
            if TASK_DIMENSION.get(name) != dimension:
                raise DataError(f"{path}: file name maps to task {name!r}, which is not one of "
                                f"the {dimension} tasks ({', '.join(DIMENSIONS[dimension])})")
            if name in found:
                raise DataError(f"{path}: task {name!r} is also in {found[name]}")
            found[name] = path
    return found


def resolve_task_names(names) -> list[str]:
    """Accept task names, `dimension/task`, dimensions, or `all`; keep the canonical order."""
    wanted: set[str] = set()
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        if name == "all":
            wanted.update(TASK_NAMES)
        elif name in DIMENSIONS:
            wanted.update(DIMENSIONS[name])
        elif "/" in name and name.split("/", 1)[1] in TASK_DIMENSION \
                and TASK_DIMENSION[name.split("/", 1)[1]] == name.split("/", 1)[0]:
            wanted.add(name.split("/", 1)[1])
        elif name in TASK_DIMENSION:
            wanted.add(name)
        else:
            raise DataError(f"unknown task {name!r}; known: {', '.join(TASK_NAMES)} "
                            f"(or a dimension: {', '.join(DIMENSIONS)})")
    return [t for t in TASK_NAMES if t in wanted]


class _Problems:
    """Raise on the first problem, or collect them all (for `br-eval validate`)."""

    def __init__(self, collect: bool) -> None:
        self.collect = collect
        self.items: list[str] = []

    def add(self, message: str) -> None:
        if not self.collect:
            raise DataError(message)
        self.items.append(message)


class _MediaChecker:
    def __init__(self, bench: Path, check_exists: bool) -> None:
        self.bench = str(bench)
        self.check_exists = check_exists
        self._seen: dict[str, str | None] = {}

    def problem(self, path: object) -> str | None:
        """None when the path is a valid, existing file inside benchmark/; else the reason."""
        if not isinstance(path, str):
            return f"media path must be a string, got {type(path).__name__}"
        if path in self._seen:
            return self._seen[path]
        self._seen[path] = reason = self._check(path)
        return reason

    def _check(self, path: str) -> str | None:
        if not path.strip():
            return "empty media path"
        if "\\" in path or "\x00" in path:
            return f"media path {path!r} contains a backslash or NUL"
        if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
            return f"media path {path!r} is absolute (paths are relative to benchmark/)"
        norm = posixpath.normpath(path)
        if norm == ".." or norm.startswith("../") or norm == ".":
            return f"media path {path!r} escapes benchmark/"
        if self.check_exists and not os.path.isfile(os.path.join(self.bench, norm)):
            return f"media file {path!r} does not exist under benchmark/"
        return None


def _media_list(value, where: str, checker: _MediaChecker, problems: _Problems) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.add(f"{where}.media: expected a list of paths, got {type(value).__name__}")
        return ()
    for item in value:
        reason = checker.problem(item)
        if reason:
            problems.add(f"{where}.media: {reason}")
    return tuple(value)


def _text(value, where: str, field: str, problems: _Problems, required: bool = True) -> str:
    if isinstance(value, str):
        return value
    if value is None and not required:
        return ""
    problems.add(f"{where}: field {field!r} must be a string, got "
                 f"{'nothing' if value is None else type(value).__name__}")
    return "" if value is None else str(value)


def load_task_file(path: Path, task: str, bench: Path, *, check_media: bool = True,
                   lenient: bool = False, problems: _Problems | None = None,
                   parse_time: TimestampParser | None = None) -> TaskData:
    problems = problems or _Problems(collect=False)
    parse_time = parse_time or TimestampParser(lenient=lenient)
    checker = _MediaChecker(bench, check_media)
    dimension = TASK_DIMENSION[task]
    data = TaskData(task, dimension, Path(path))
    try:
        with open(path, "rb") as fh:
            raw = json.load(fh)
    except json.JSONDecodeError as exc:
        problems.add(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
        return data
    except UnicodeDecodeError as exc:
        problems.add(f"{path}: not UTF-8 text ({exc.reason})")
        return data
    if not isinstance(raw, list):
        problems.add(f"{path}: expected an array of trajectories, got {type(raw).__name__}")
        return data

    def timestamp(value, where):
        if value is None:
            return None, None  # absent or null: unspecified
        try:
            return parse_time(value, where), value
        except DataError as exc:
            problems.add(str(exc))
            return None, None

    seen_ids: set[str] = set()
    for pos, rec in enumerate(raw):
        if not isinstance(rec, dict):
            problems.add(f"{path}: trajectory #{pos}: expected an object, got {type(rec).__name__}")
            continue
        rid = rec.get("id")
        if rid is None or isinstance(rid, (dict, list, bool)):
            problems.add(f"{path}: trajectory #{pos}: missing or invalid field 'id'")
            rid = f"#{pos}"
        tid = str(rid)
        if tid in seen_ids:
            problems.add(f"{path}: trajectory id {tid}: duplicate id")
        seen_ids.add(tid)
        where_t = f"{path}: trajectory {tid}"
        conv = rec.get("conversation")
        if not isinstance(conv, list):
            problems.add(f"{where_t}: field 'conversation' must be a list of sessions")
            conv = []
        sessions: list[Session] = []
        for si, sess in enumerate(conv):
            where_s = f"{where_t} session {si}"
            if not isinstance(sess, dict):
                problems.add(f"{where_s}: expected an object")
                continue
            date_raw = sess.get("date")
            if date_raw is None:
                problems.add(f"{where_s}: field 'date' is required")
                continue
            date, _ = timestamp(date_raw, f"{where_s} field 'date'")
            if date is None:
                continue
            turns_raw = sess.get("turns")
            if not isinstance(turns_raw, list):
                problems.add(f"{where_s}: field 'turns' must be a list")
                turns_raw = []
            turns: list[Turn] = []
            append = turns.append
            for ti, turn in enumerate(turns_raw):
                # Fast path, no calls: a dict with string person/content, no media, no timestamp
                # (almost every turn of the release). Anything else takes the checked path below.
                if type(turn) is dict:
                    person = turn.get("person")
                    content = turn.get("content")
                    media = turn.get("media")
                    if (type(person) is str and type(content) is str
                            and (media is None or (type(media) is list and not media))
                            and turn.get("timestamp") is None):
                        append(Turn(ti, person, content, (), None, None))
                        continue
                where_u = f"{where_s} turn {ti}"
                if not isinstance(turn, dict):
                    problems.add(f"{where_u}: expected an object")
                    continue
                ts, ts_raw = timestamp(turn.get("timestamp"), f"{where_u} field 'timestamp'")
                append(Turn(
                    ti,
                    _text(turn.get("person"), where_u, "person", problems),
                    _text(turn.get("content"), where_u, "content", problems),
                    _media_list(turn.get("media"), where_u, checker, problems),
                    ts, ts_raw,
                ))
            sessions.append(Session(si, date, date_raw, turns))
        qs_raw = rec.get("questions")
        if not isinstance(qs_raw, list):
            problems.add(f"{where_t}: field 'questions' must be a list")
            qs_raw = []
        questions: list[Question] = []
        for qi, q in enumerate(qs_raw):
            where_q = f"{where_t} question {qi}"
            if not isinstance(q, dict):
                problems.add(f"{where_q}: expected an object")
                continue
            cutoff, cutoff_raw = timestamp(q.get("timestamp"), f"{where_q} field 'timestamp'")
            if "answer" not in q:
                problems.add(f"{where_q}: field 'answer' is required")
            questions.append(Question(
                qi, QuestionKey(dimension, task, tid, qi),
                _text(q.get("question"), where_q, "question", problems),
                q.get("answer"),
                _media_list(q.get("media"), where_q, checker, problems),
                cutoff, cutoff_raw,
            ))
        data.trajectories.append(Trajectory(task, dimension, tid, rec.get("persons"),
                                            sessions, questions))
    return data


class _GcPaused:
    """Pause the cyclic garbage collector while building records.

    Loading allocates ~1.5 million small objects and none of them form cycles, yet each
    allocation burst triggers collections that traverse the whole growing heap: pausing it
    halves the load time. The previous state is restored even on error.
    """

    def __enter__(self):
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was_enabled:
            gc.enable()


def load_tasks(snapshot: Path, names=None, *, check_media: bool = True,
               lenient: bool = False) -> list[TaskData]:
    """Load the named tasks (default: all 11). Stops at the first problem with a DataError."""
    snapshot = Path(snapshot)
    files = find_task_files(snapshot)
    wanted = resolve_task_names(names) if names else list(TASK_NAMES)
    missing = [t for t in wanted if t not in files]
    if missing:
        raise DataError(f"{snapshot}: no task file for {', '.join(missing)} under benchmark/<dimension>/")
    parser = TimestampParser(lenient=lenient)
    with _GcPaused():
        return [load_task_file(files[t], t, snapshot / "benchmark", check_media=check_media,
                               lenient=lenient, parse_time=parser) for t in wanted]


def load_task(snapshot: Path, name: str, **kwargs) -> TaskData:
    return load_tasks(snapshot, [name], **kwargs)[0]


def validate_snapshot(snapshot: Path, names=None, *, lenient: bool = False) -> tuple[list[TaskData], list[str]]:
    """Check every task file and collect every problem instead of stopping at the first."""
    snapshot = Path(snapshot)
    problems = _Problems(collect=True)
    try:
        files = find_task_files(snapshot)
    except DataError as exc:
        return [], [str(exc)]
    wanted = resolve_task_names(names) if names else list(TASK_NAMES)
    for t in wanted:
        if t not in files:
            problems.add(f"{snapshot}: no task file for {TASK_DIMENSION[t]}/{t}")
    parser = TimestampParser(lenient=lenient)
    with _GcPaused():
        loaded = [load_task_file(files[t], t, snapshot / "benchmark", problems=problems,
                                 parse_time=parser) for t in wanted if t in files]
    return loaded, problems.items
