"""Load and validate the 11 task files of a snapshot (the card's "Data Schema" and
"Identifiers and optional fields").

One pass over the JSON, no per-turn heavy work: each distinct timestamp string is parsed once and
each distinct media path is checked once (a `stat`, never an `open`).
"""

from __future__ import annotations

import gc
import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from beyondrecall.errors import DataError
from beyondrecall.records import (DIMENSIONS, TASK_DIMENSION, TASK_NAMES, Question, QuestionKey,
                                  Session, TaskData, Trajectory, Turn)
from beyondrecall.sums import listed_paths, unsafe_reason
from beyondrecall.timestamps import TimestampParser

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
README_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)


def task_name_for_stem(stem: str) -> str:
    """Any usual spelling of a task's name -> its canonical name, or the normalised text.

    `Conflict Detection`, `conflict-detection`, `conflict_detection`, `ConflictDetection`,
    `management_conflict_detection`, `Management - Conflict Detection` -> `conflict_detection`.
    """
    text = _NON_ALNUM.sub("_", _CAMEL.sub("_", stem.strip()).lower()).strip("_")
    if text in TASK_DIMENSION:
        return text
    for dimension in DIMENSIONS:
        if text.startswith(dimension + "_") and text[len(dimension) + 1:] in TASK_DIMENSION:
            return text[len(dimension) + 1:]
    return text


def _shown(path) -> str:
    """A path as text that always prints (a non-UTF-8 file name shows as \\xNN escapes)."""
    return os.fsencode(str(path)).decode("utf-8", "backslashreplace")


@dataclass
class TaskFiles:
    """Where each task's file is, and how it was found (`discover_task_files`)."""

    files: dict[str, Path] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)       # worth saying, never fatal
    seen: list[str] = field(default_factory=list)        # JSON files seen (snapshot-relative)
    ambiguous: dict[str, list[Path]] = field(default_factory=dict)
    source: dict[str, str] = field(default_factory=dict)  # task -> "card config X" | "folder" | "--task-file"

    def missing_message(self, snapshot: Path, task: str) -> str:
        dim = TASK_DIMENSION[task]
        if task in self.ambiguous:
            both = ", ".join(_shown(p) for p in self.ambiguous[task])
            return (f"{snapshot}: task {dim}/{task} has more than one file ({both}); "
                    f"choose one with --task-file {task}=PATH")
        seen = ", ".join(self.seen[:12]) + (" ..." if len(self.seen) > 12 else "") or "none"
        return (f"{snapshot}: no task file for {task} ({dim}); JSON files seen: {seen}; "
                f"point at it with --task-file {task}=PATH")


def parse_task_file_args(values) -> dict[str, Path]:
    """`--task-file TASK=PATH` values (TASK a task name or dimension/task) -> {task: path}."""
    out: dict[str, Path] = {}
    for raw in values or ():
        name, sep, path = str(raw).partition("=")
        if not sep or not path.strip():
            raise DataError(f"--task-file {raw!r}: expected TASK=PATH")
        name = name.strip()
        task = name.split("/", 1)[1] if "/" in name else name
        task = task_name_for_stem(task)
        if task not in TASK_DIMENSION:
            raise DataError(f"--task-file {raw!r}: unknown task {name!r}; known: {', '.join(TASK_NAMES)}")
        out[task] = Path(path.strip()).expanduser()
    return out


def _read_card_configs(snapshot: Path, notes: list[str]) -> list[tuple[str, list[str]]] | None:
    """The dataset card's front matter `configs` -> [(config_name, [data file patterns])], the
    `test` split's files where splits are named. None when the card has no usable configs."""
    readme = snapshot / "README.md"
    if not readme.is_file():
        return None
    try:
        text = readme.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    m = README_FRONT_MATTER.match(text)
    if not m:
        return None
    try:
        import yaml  # a huggingface_hub dependency

        meta = yaml.safe_load(m.group(1))
    except ImportError:  # pragma: no cover
        notes.append("README.md front matter not read (PyYAML is not installed); scanning folders")
        return None
    except Exception as exc:  # YAML errors of every kind, RecursionError included
        notes.append(f"README.md front matter is not valid YAML ({type(exc).__name__}); "
                     "scanning folders")
        return None
    configs = meta.get("configs") if isinstance(meta, dict) else None
    if not isinstance(configs, list):
        return None
    out = []
    for c in configs:
        if not isinstance(c, dict) or not isinstance(c.get("config_name"), str):
            continue
        df = c.get("data_files")
        patterns: list[str] = []
        items = [df] if isinstance(df, (str, dict)) else df if isinstance(df, list) else []
        any_split = [e for e in items if isinstance(e, dict) and "split" in e]
        for e in items:
            if isinstance(e, str):
                patterns.append(e)
            elif isinstance(e, dict) and "split" in e:
                if str(e.get("split")) == "test" or len(any_split) == 1:
                    p = e.get("path")
                    patterns.extend([p] if isinstance(p, str) else
                                    [x for x in p if isinstance(x, str)] if isinstance(p, list) else [])
            elif isinstance(e, dict):   # {split: path}
                p = e.get("test", next(iter(e.values()), None) if len(e) == 1 else None)
                patterns.extend([p] if isinstance(p, str) else
                                [x for x in p if isinstance(x, str)] if isinstance(p, list) else [])
        out.append((c["config_name"], patterns))
    return out or None


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def discover_task_files(snapshot: Path, overrides: dict[str, Path] | None = None) -> TaskFiles:
    """Find the 11 task files: `--task-file` overrides, then the dataset card's front matter
    (`configs` with `data_files`, the card's "Only the 11 task JSON files are configured as
    data"), then a scan of `benchmark/<dimension>/*.json` accepting the usual spellings of a task's
    name. A JSON file that is no task's is a note.

    Task files found in the snapshot must resolve inside it (symlinks into a Hugging Face
    cache's blobs/ allowed), and a file the card names must be covered by a checksum list when
    the snapshot has one: else a DataError naming it, and nothing is opened. `--task-file`
    overrides are the user's own choice and are not held to this (a run announces them)."""
    from beyondrecall.paths import inside, snapshot_roots

    snapshot = Path(snapshot)
    bench = snapshot / "benchmark"
    if not bench.is_dir():
        raise DataError(f"{snapshot}: not a Beyond Recall snapshot (no benchmark/ folder)")
    roots = snapshot_roots(snapshot)
    out = TaskFiles()
    for task, path in (overrides or {}).items():
        for cand in (path, snapshot / path):
            if _regular(cand):
                out.files[task], out.source[task] = Path(cand), "--task-file"
                break
        else:
            raise DataError(f"--task-file {task}={_shown(path)}: not a readable file")

    configs = _read_card_configs(snapshot, out.notes)
    listed = None
    for name, patterns in configs or ():
        task = task_name_for_stem(name)
        for pat in patterns:
            reason = unsafe_reason(pat)
            if reason:
                raise DataError(f"{snapshot / 'README.md'}: config {name!r} names data file "
                                f"{_shown(pat)!r}: {reason}; not opened")
        paths = sorted({p for pat in patterns for p in snapshot.glob(pat) if _regular(p)})
        for p in paths:
            if not inside(p, roots):
                raise DataError(f"{snapshot / 'README.md'}: config {name!r} names "
                                f"{_shown(p.relative_to(snapshot).as_posix())}, a symlink leading "
                                "outside the snapshot; not opened")
        if task not in TASK_DIMENSION and len(paths) == 1:
            task = task_name_for_stem(paths[0].stem)
        if task not in TASK_DIMENSION:
            out.notes.append(f"README.md config {name!r} is not one of the 11 tasks; ignored")
            continue
        if task in out.files:
            continue
        if len(paths) != 1:
            out.notes.append(f"README.md config {name!r}: data_files {patterns} match "
                             f"{len(paths)} files; looking for {task} in benchmark/ instead")
            continue
        if listed is None:
            listed = listed_paths(snapshot) or "no lists"
        rel = paths[0].relative_to(snapshot).as_posix()
        if listed != "no lists" and rel not in listed:
            raise DataError(f"{snapshot / 'README.md'}: config {name!r} names {_shown(rel)}, which no "
                            "checksum list covers; not used")
        out.files[task], out.source[task] = paths[0], f"card config {name}"

    found: dict[str, list[Path]] = {}
    for dimension in DIMENSIONS:
        folder = bench / dimension
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() != ".json":
                continue
            rel = _shown(path.relative_to(snapshot).as_posix())
            out.seen.append(rel)
            if not _regular(path):
                out.notes.append(f"{rel}: not a regular file; not opened")
                continue
            if not inside(path, roots):
                raise DataError(f"{snapshot}: {rel} is a symlink leading outside the snapshot; "
                                "not opened")
            name = task_name_for_stem(path.stem)
            if TASK_DIMENSION.get(name) != dimension:
                if any(p.resolve() == path.resolve() for p in out.files.values()):
                    continue
                out.notes.append(f"{rel}: not one of the {dimension} task files; ignored")
                continue
            found.setdefault(name, []).append(path)
    for task, paths in found.items():
        if task in out.files:
            for p in paths:
                if p.resolve() != Path(out.files[task]).resolve():
                    out.notes.append(f"{_shown(p.relative_to(snapshot).as_posix())}: another file "
                                     f"for {task}; using {_shown(out.files[task])} "
                                     f"({out.source[task]})")
        elif len(paths) == 1:
            out.files[task], out.source[task] = paths[0], "folder"
        else:
            out.ambiguous[task] = paths
    return out


def find_task_files(snapshot: Path, overrides: dict[str, Path] | None = None) -> dict[str, Path]:
    """Map task name -> file (see `discover_task_files`)."""
    return discover_task_files(snapshot, overrides).files


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
        from beyondrecall.paths import allowed_roots

        self.bench = str(bench)
        self.check_exists = check_exists
        self.roots = allowed_roots(bench)
        self._seen: dict[str, str | None] = {}

    def problem(self, path: object) -> str | None:
        """None when the path is a valid, existing regular file inside benchmark/; else why not."""
        if not isinstance(path, str):
            return f"media path must be a string, got {type(path).__name__}"
        if path in self._seen:
            return self._seen[path]
        from beyondrecall.paths import media_problem

        _, reason = media_problem(self.bench, path, roots=self.roots, must_exist=self.check_exists)
        self._seen[path] = reason
        return reason


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
    return tuple(v for v in value if isinstance(v, str))


def _text(value, where: str, field: str, problems: _Problems, required: bool = True) -> str:
    if isinstance(value, str):
        return value
    if value is None and not required:
        return ""
    problems.add(f"{where}: field {field!r} must be a string, got "
                 f"{'nothing' if value is None else type(value).__name__}")
    return ""


MAX_DEPTH = 100   # deeper JSON values (answers, persons) are a listed problem, not a RecursionError
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _too_deep(value, limit: int = MAX_DEPTH) -> bool:
    if type(value) not in (list, dict):
        return False
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return True
        if type(v) is list:
            stack.extend((x, d + 1) for x in v if type(x) in (list, dict))
        elif type(v) is dict:
            stack.extend((x, d + 1) for x in v.values() if type(x) in (list, dict))
    return False


def _lone_surrogates(value, where: str = "") -> list[str]:
    """Places in a loaded JSON value whose text holds a lone surrogate (valid JSON, not valid
    Unicode: it cannot be printed or written as UTF-8)."""
    out: list[str] = []
    stack = [(value, where)]
    while stack and len(out) < 5:
        v, w = stack.pop()
        if type(v) is str:
            m = _SURROGATE.search(v)
            if m:
                out.append(f"{w or 'value'} (U+{ord(m.group()):04X})")
        elif type(v) is list:
            stack.extend((x, f"{w}[{i}]") for i, x in reversed(list(enumerate(v))))
        elif type(v) is dict:
            for k, x in reversed(list(v.items())):
                if _SURROGATE.search(k):
                    out.append(f"{w or 'value'} key (U+{ord(_SURROGATE.search(k).group()):04X})")
                stack.append((x, f"{w}.{k}" if w else k))
    return out


def read_task_json(path: Path) -> tuple[list, bool]:
    """A task file's top-level array, and whether its text escapes a surrogate (the loader then
    looks for lone surrogates); a DataError of one line when it is not such a file."""
    if not _regular(path):
        raise DataError(f"{_shown(path)}: not a regular file; not opened")
    try:
        with open(path, "rb") as fh:
            blob = fh.read()
        raw = json.loads(blob)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except ValueError as exc:       # an integer over Python's 4,300-digit limit
        raise DataError(f"{path}: not readable as JSON ({str(exc).split(':')[0]})") from None
    except RecursionError:
        raise DataError(f"{path}: JSON nested too deeply to read") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not isinstance(raw, list):
        raise DataError(f"{path}: expected an array of trajectories, got {type(raw).__name__}")
    return raw, _SURROGATE_ESCAPE.search(blob) is not None


def load_task_file(path: Path, task: str, bench: Path, *, check_media: bool = True,
                   lenient: bool = False, problems: _Problems | None = None,
                   parse_time: TimestampParser | None = None) -> TaskData:
    problems = problems or _Problems(collect=False)
    parse_time = parse_time or TimestampParser(lenient=lenient)
    checker = _MediaChecker(bench, check_media)
    dimension = TASK_DIMENSION[task]
    data = TaskData(task, dimension, Path(path))
    try:
        raw, check_text = read_task_json(path)
    except DataError as exc:
        problems.add(str(exc))
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
        if check_text:
            bad = _lone_surrogates(rec)
            if bad:
                problems.add(f"{path}: trajectory #{pos}: text is not valid Unicode (lone "
                             f"surrogate in {', '.join(bad)})")
                continue
        rid = rec.get("id")
        if rid is None or isinstance(rid, (dict, list, bool)):
            problems.add(f"{path}: trajectory #{pos}: missing or invalid field 'id'")
            rid = f"#{pos}"
        tid = str(rid)
        if _too_deep(rec.get("persons")):
            problems.add(f"{path}: trajectory {tid}: field 'persons' is nested more than "
                         f"{MAX_DEPTH} levels deep")
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
            if q.get("answer") is None:   # nothing to score a reply against, on any run
                problems.add(f"{where_q}: field 'answer' is required"
                             + (" (it is null)" if "answer" in q else ""))
            elif _too_deep(q["answer"]):
                problems.add(f"{where_q}: field 'answer' is nested more than {MAX_DEPTH} levels deep")
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
               lenient: bool = False, task_files: dict[str, Path] | None = None) -> list[TaskData]:
    """Load the named tasks (default: all 11). Stops at the first problem with a DataError.

    `task_files`: {task: path} from `--task-file TASK=PATH` (see `parse_task_file_args`)."""
    snapshot = Path(snapshot)
    found = discover_task_files(snapshot, task_files)
    wanted = resolve_task_names(names) if names else list(TASK_NAMES)
    missing = [t for t in wanted if t not in found.files]
    if missing:
        raise DataError(found.missing_message(snapshot, missing[0])
                        + (f" (also missing: {', '.join(missing[1:])})" if missing[1:] else ""))
    parser = TimestampParser(lenient=lenient)
    with _GcPaused():
        return [load_task_file(found.files[t], t, snapshot / "benchmark", check_media=check_media,
                               lenient=lenient, parse_time=parser) for t in wanted]


def load_task(snapshot: Path, name: str, **kwargs) -> TaskData:
    """One task; keyword arguments as `load_tasks` (`check_media`, `lenient`, `task_files`)."""
    return load_tasks(snapshot, [name], **kwargs)[0]


@dataclass
class Validation:
    """What `br-eval validate` reports: problems stop a run, notes do not."""

    tasks: list[TaskData]
    problems: list[str]
    notes: list[str]
    task_files: TaskFiles | None = None


def check_snapshot(snapshot: Path, names=None, *, lenient: bool = False,
                   task_files: dict[str, Path] | None = None) -> Validation:
    """Check every task file, collecting every problem instead of stopping at the first, and
    the notes of task-file discovery."""
    snapshot = Path(snapshot)
    problems = _Problems(collect=True)
    try:
        found = discover_task_files(snapshot, task_files)
    except DataError as exc:
        return Validation([], [str(exc)], [])
    wanted = resolve_task_names(names) if names else list(TASK_NAMES)
    for t in wanted:
        if t not in found.files:
            problems.add(found.missing_message(snapshot, t))
    parser = TimestampParser(lenient=lenient)
    with _GcPaused():
        loaded = [load_task_file(found.files[t], t, snapshot / "benchmark", problems=problems,
                                 parse_time=parser) for t in wanted if t in found.files]
    return Validation(loaded, problems.items, list(found.notes), found)


def validate_snapshot(snapshot: Path, names=None, *, lenient: bool = False,
                      task_files: dict[str, Path] | None = None) -> tuple[list[TaskData], list[str]]:
    """(tasks, problems): `check_snapshot` without the notes."""
    v = check_snapshot(snapshot, names, lenient=lenient, task_files=task_files)
    return v.tasks, v.problems
