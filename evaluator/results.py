"""A run's output folder: `samples_<task>.jsonl` journals and `results.json`.

The journal is appended one line per finished item and flushed at once, so Ctrl-C or a crash
loses nothing finished; a rerun into the same folder reads it and skips what is done. A torn last
line (the process died mid-write) is ignored on reading and cut by the rerun; a complete last line
that only lacks its newline is kept. What a line holds: `evaluator.records`.

Sharded runs (`--shard I/N`, evaluator/sharding.py) share one folder: shard I of N writes
`samples_<task>.shard-I-of-N.jsonl` and `results.shard-I-of-N.json` and reads only its own files;
an unsharded RunDir (merge, report, score, a later unsharded run) reads every shard's journal of
a task and then the plain journal, the latest line per key winning.

Nothing is written through a link or outside the folder: whole files (results.json, a rewritten
journal, the HTML report) are written by `write_atomic` (a temporary file of its own, created
exclusively, renamed into place); journals are opened for append with O_NOFOLLOW; a journal or
results.json that is a symbolic link is refused. What is read is checked: a line or a field of the
wrong shape is one error line naming the file (`check_header`, `check_line`); NaN and Infinity
(not JSON) are read as missing values; lone surrogates (half an emoji) in text become U+FFFD.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

from evaluator.errors import EvalError
from evaluator.records import Sample, latest_by_key


def journal_name(task: str) -> str:
    """`samples_conflict_detection.jsonl`; `realcompanion/chat` -> `samples_realcompanion_chat.jsonl`."""
    return "samples_" + task.replace("/", "_") + ".jsonl"


def shard_suffix(shard: tuple[int, int]) -> str:
    """(1, 3) -> `shard-1-of-3` (0-based index)."""
    return f"shard-{shard[0]}-of-{shard[1]}"


SHARD_RE = re.compile(r"\.shard-(\d+)-of-(\d+)\.")

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


# -- safe file primitives ----------------------------------------------------------------------------
def refuse_link(path: Path) -> None:
    """One line when `path` is a symbolic link: br-eval never reads or writes a run folder's
    files (or the report) through one."""
    if os.path.islink(path):
        raise _link_error(path)


def _link_error(path: Path) -> EvalError:
    return EvalError(f"{path} is a symbolic link; br-eval does not read or write through links "
                     "(remove it, or give another path)")


def _refuse_other(path: Path, st: os.stat_result) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise EvalError(f"{path} is a folder where a file should be; the run folder is damaged")
    if not stat.S_ISREG(st.st_mode):
        raise EvalError(f"{path} is not a regular file; the run folder is damaged")


def _open_nofollow(path: Path, flags: int, mode: int = 0o666) -> int:
    """os.open that never follows a link at `path` and returns only a regular file's fd."""
    refuse_link(path)
    try:
        fd = os.open(path, flags | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0), mode)
    except IsADirectoryError:
        raise EvalError(f"{path} is a folder where a file should be; the run folder is "
                        "damaged") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:             # a link appeared since the check
            raise _link_error(path) from None
        raise
    try:
        _refuse_other(path, os.fstat(fd))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


# Bounds on what br-eval reads back from a run folder (the folder may be a damaged or hostile
# copy): one journal line (a --log_samples prompt of a long context is about 1 MB) and one
# results file.
JOURNAL_LINE_MAX = 64 * 1024 * 1024
RESULTS_FILE_MAX = 64 * 1024 * 1024


def _size(n: int) -> str:
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n} bytes"


def read_bytes(path: Path, limit: int | None = None) -> bytes | None:
    """The bytes of the regular file `path` (never through a link; None when it does not exist);
    a file over `limit` bytes is refused with one line, unread."""
    try:
        fd = _open_nofollow(Path(path), os.O_RDONLY)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if limit is not None and os.fstat(fh.fileno()).st_size > limit:
            raise EvalError(f"{path}: over {_size(limit)}; not a results file br-eval "
                            "wrote (damaged?)")
        return fh.read()


def write_atomic(path: str | os.PathLike, text: str | Iterable[str]) -> Path:
    """Write `path` whole or not at all: the text (a string, or strings in turn) goes to a new
    temporary file beside it, `<name>.<random>.tmp`, created exclusively (O_CREAT|O_EXCL|
    O_NOFOLLOW: never an existing file, never a link planted in the folder), flushed to disk, then
    renamed over `path`. A `path` that is a link or a folder is refused; a failed write (a full
    disk) removes the temporary file and raises. Text that cannot be encoded (lone surrogates) is
    written as backslash escapes."""
    path = Path(path)
    refuse_link(path)
    if path.is_dir():
        raise EvalError(f"{path} is a folder; cannot write a file there")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    for _ in range(100):
        tmp = path.with_name(f"{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 collisions of 48 random bits
        raise EvalError(f"cannot create a temporary file beside {path}")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            for chunk in ([text] if isinstance(text, str) else text):
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def load_json(data: bytes):
    """json.loads where NaN and Infinity (which JSON does not have) read as None and lone
    surrogates in strings (half an emoji, escaped or raw) as U+FFFD."""
    value = json.loads(data, parse_constant=lambda _: None)
    if _SURROGATE_BYTES.search(data):
        value = mend_surrogates(value)
    return value


_SURROGATE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def mend_surrogates(value):
    """`value` (text, or lists and objects of it) with lone surrogates as U+FFFD."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [mend_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {mend_surrogates(k): mend_surrogates(v) for k, v in value.items()}
    return value


# -- shapes of what is read ----------------------------------------------------------------------------
# What the readers (report, view, compare, score, merge) rely on, field by field: a type, a tuple
# of types, a dict (an object with these fields; "*" for every value), or a one-element list (a
# list of that). Every field may also be null or absent; other fields are not checked (a task's
# own figures are read by the viewer as far as they have the shape it expects).
_NUM = (int, float)
_ESTIMATE = {"mean": _NUM, "rate": _NUM, "ci95": [_NUM], "n": int, "n_clusters": int}
_TASK_SHAPE = {"task": str, "suite": str, "unit": str, "primary_metric": str,
               "primary": _ESTIMATE, "n_expected": int, "n_done": int, "n_failed": int,
               "n_samples": int, "n_scored": int, "n_judge_errors": int, "n_judge_pending": int, "complete": bool,
               "errors_by_kind": {"*": int}, "first_error": str,
               "primary_metric_counts": {"*": int}, "primary_condition": str}
HEADER_SHAPE = {
    "config": {"tasks": [str], "settings": {"agent": str, "model": str, "model_args": dict,
                                            "agent_args": dict, "gen_kwargs": dict, "frames": int,
                                            "fps": _NUM, "dpi": int, "video_backend": str},
               "transport": dict, "judge": str, "judge_args": dict, "limit": int, "seed": int,
               "rc_data": str, "task_files": {"*": str}, "conditions": [str], "detector": str,
               "data_identity": {"data_fingerprint": str, "rc_data": str}},
    "data": {"path": str, "fingerprint": str, "revision": str, "data_version": (str, int, float),
             "is_sample": bool},
    "model": {"backend": str, "model_id": str, "base_url": str, "served_model": str,
              "preflight": {"served_model": str}, "generation": dict},
    "judge": {"backend": str, "model_id": str},
    "br_eval_version": str, "git_hash": str, "date": str,
    "results": {"*": _TASK_SHAPE},
}
LINE_SHAPE = {"key": str, "task": str, "cluster": (str, int), "inputs": dict, "prediction": str,
              "metrics": {"primary": (*_NUM, bool)}, "judge": dict, "prompt_hash": str,
              "model_reported": str, "input_tokens": int, "output_tokens": int, "error": str,
              "error_kind": str, "traceback": str, "seconds": _NUM}
_TYPE_WORDS = {dict: "an object", list: "a list", str: "text", int: "an integer",
               float: "a number", bool: "true or false"}


def shape_error(value, shape, where: str = "") -> str | None:
    """Where `value` departs from `shape` (see HEADER_SHAPE), in words; None when it fits."""
    if value is None:
        return None
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return f"{where or 'the whole'} should be an object, not {_word(value)}"
        for name, sub in shape.items():
            items = value.items() if name == "*" else [(name, value.get(name))]
            for k, v in items:
                problem = shape_error(v, sub, f"{where}.{k}" if where else str(k))
                if problem:
                    return problem
        return None
    if isinstance(shape, list):
        if not isinstance(value, list):
            return f"{where} should be a list, not {_word(value)}"
        for i, v in enumerate(value):
            problem = shape_error(v, shape[0], f"{where}[{i}]")
            if problem:
                return problem
        return None
    kinds = shape if isinstance(shape, tuple) else (shape,)
    if isinstance(value, bool) and bool not in kinds:
        return f"{where} should be {_words(kinds)}, not {_word(value)}"
    if not isinstance(value, kinds):
        return f"{where} should be {_words(kinds)}, not {_word(value)}"
    return None


def _word(value) -> str:
    return "null" if value is None else _TYPE_WORDS.get(type(value), type(value).__name__)


def _words(kinds) -> str:
    return " or ".join(dict.fromkeys(_TYPE_WORDS.get(k, k.__name__) for k in kinds))


class RunDir:
    """The one writer and reader of a run folder's journals and results.json. `shard` (I, N):
    this process is shard I of N and writes its own journal files and results part. `create`:
    make the folder when it is missing (a run); readers (report, score, merge, view, compare)
    pass False and get one line for a folder that is not there."""

    def __init__(self, path: str | os.PathLike, shard: tuple[int, int] | None = None, *,
                 create: bool = True) -> None:
        self.path = Path(path)
        self.shard = shard
        if not create:
            if not self.path.is_dir():
                raise EvalError(f"{self.path}: no such run folder")
        else:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise EvalError(f"cannot create output folder {self.path}: {exc.strerror}") from None
        self._handles: dict[str, object] = {}
        self._ended = False

    # -- journal ---------------------------------------------------------------------------
    def journal_path(self, task: str) -> Path:
        """The journal this RunDir appends to (its shard's own file when sharded)."""
        name = journal_name(task)
        if self.shard is not None:
            name = name[:-len(".jsonl")] + f".{shard_suffix(self.shard)}.jsonl"
        return self.path / name

    def shard_journals(self, task: str) -> list[Path]:
        """Every shard's journal of `task` in this folder, in shard order."""
        stem = journal_name(task)[:-len(".jsonl")]
        found = []
        for p in self.path.glob(f"{glob_escape(stem)}.shard-*-of-*.jsonl"):
            m = SHARD_RE.search(p.name[len(stem):])
            if m and p.name == f"{stem}.shard-{m[1]}-of-{m[2]}.jsonl":
                found.append(((int(m[2]), int(m[1])), p))
        return [p for _, p in sorted(found)]

    def journal_files(self, task: str) -> list[Path]:
        """The files whose lines make up `task`'s journal, oldest first: a shard reads its own;
        an unsharded RunDir reads every shard's, then the plain journal (which a later unsharded
        run into the folder appends to, so its lines win)."""
        if self.shard is not None:
            return [self.journal_path(task)]
        return self.shard_journals(task) + [self.journal_path(task)]

    def has_journal(self, task: str) -> bool:
        return any(p.exists() or p.is_symlink() for p in self.journal_files(task))

    def read_lines(self, task: str) -> list[dict]:
        """Every complete JSON line of the task's journal (all its files). A final line that does
        not parse was torn by a crash mid-write and is dropped (the rerun redoes that item); a
        final line that parses but lacks its newline is complete and kept."""
        out = []
        for path in self.journal_files(task):
            out.extend(self._read_file(path))
        return out

    @staticmethod
    def _read_file(path: Path) -> list[dict]:
        data = read_bytes(path)
        if data is None:
            return []
        out = []
        lines = data.split(b"\n")
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            if len(line) > JOURNAL_LINE_MAX:
                raise EvalError(f"{path}: line {n} is over {_size(JOURNAL_LINE_MAX)}; the "
                                "journal is damaged")
            try:
                value = load_json(line)
            except (ValueError, RecursionError):
                if n == len(lines):   # torn final write
                    continue
                raise EvalError(f"{path}: line {n} is not valid JSON; the journal is damaged") from None
            problem = ("the line should be an object, not " + _word(value)
                       if not isinstance(value, dict) else
                       "it has no key" if value.get("key") is None else
                       shape_error(value, LINE_SHAPE))
            if problem:
                raise EvalError(f"{path}: line {n}: {problem}; the journal is damaged")
            out.append(value)
        return out

    def read_samples(self, task: str) -> list[Sample]:
        return [Sample.from_json(line, task) for line in self.read_lines(task)]

    def latest_samples(self, task: str) -> list[Sample]:
        return latest_by_key(self.read_samples(task))

    def append(self, sample: Sample) -> None:
        """Append one line and flush it, so a crash loses nothing finished."""
        if self._ended:
            raise EvalError(f"{self.path}: the run has ended; {sample.key} was not written")
        fh = self._handles.get(sample.task)
        if fh is None:
            path = self.journal_path(sample.task)
            fd = _open_nofollow(path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
            try:
                self._repair_tail(fd)
            except BaseException:
                os.close(fd)
                raise
            fh = self._handles[sample.task] = os.fdopen(fd, "a", encoding="utf-8")
        fh.write(sample.dumps() + "\n")
        fh.flush()

    @staticmethod
    def _repair_tail(fd: int) -> None:
        """Before appending (to the open journal `fd`): a last line without its newline is either
        complete (give it the newline, so it survives) or torn (cut it, the rerun redoes that
        item)."""
        size = os.fstat(fd).st_size
        if not size or os.pread(fd, 1, size - 1) == b"\n":
            return
        data = os.pread(fd, size, 0)
        start = data.rfind(b"\n") + 1
        try:
            json.loads(data[start:])
            complete = True
        except (ValueError, RecursionError):
            complete = False
        if complete:
            os.write(fd, b"\n")
        else:
            os.ftruncate(fd, start)

    def rewrite(self, task: str, samples: list[Sample]) -> None:
        """Replace a journal atomically with one line per sample. Where the journal is several
        files (shards), each sample goes back to the file its key's latest line came from (new
        keys to journal_path), each file replaced atomically."""
        self.close()
        files = [p for p in self.journal_files(task) if p.exists()]
        home: dict[str, Path] = {}
        for path in files:
            for line in self._read_file(path):
                home[str(line.get("key"))] = path
        groups: dict[Path, list[Sample]] = {p: [] for p in files}
        for s in samples:
            groups.setdefault(home.get(s.key, self.journal_path(task)), []).append(s)
        for path, group in groups.items():
            write_atomic(path, (s.dumps() + "\n" for s in group))

    def close(self, final: bool = False) -> None:
        """Close the journals. `final`: the run is over (its lock is about to be released), so a
        thread still answering (a second Ctrl-C does not wait for them) can no longer write."""
        self._ended = self._ended or final
        for fh in list(self._handles.values()):
            fh.close()
        self._handles.clear()

    # -- --overwrite: set aside, then discard once the new run starts ----------------------------
    ASIDE = ".br-eval-overwritten"

    @property
    def _aside(self) -> Path:
        """This writer's set-aside folder: a shard's own, so a shard never restores another's."""
        return self.path / (self.ASIDE + (f".{shard_suffix(self.shard)}" if self.shard else ""))

    def set_aside(self, paths: Iterable[Path]) -> list[Path]:
        """Move `paths` (those that exist) into a hidden folder of the run folder. Until
        `discard_aside`, `restore_aside` puts them back: an --overwrite run that stops before
        its first write (a refused setting, a server that is down) loses nothing."""
        aside = self._aside
        refuse_link(aside)
        aside.mkdir(exist_ok=True)
        moved = []
        for i, path in enumerate(paths):
            if os.path.lexists(path):
                os.replace(path, aside / f"{i}-{path.name}")
                moved.append(path)
        return moved

    def restore_aside(self) -> int:
        """Put back what an --overwrite run that never started set aside (files the folder
        holds again are left as they are); returns how many came back."""
        aside = self._aside
        self._remove_aside(aside.with_name(aside.name + ".done"))   # killed while discarding
        if os.path.islink(aside) or not aside.is_dir():
            return 0
        back = 0
        for f in sorted(aside.iterdir()):
            dest = self.path / f.name.split("-", 1)[1]
            if not os.path.lexists(dest):
                os.replace(f, dest)
                back += 1
        self._remove_aside(aside)
        return back

    def discard_aside(self) -> None:
        """The overwriting run has started: the set-aside files are gone for good (renamed first,
        so a crash while deleting never restores them over the new run's files)."""
        aside = self._aside
        if os.path.islink(aside) or not aside.is_dir():
            return
        done = aside.with_name(aside.name + ".done")
        self._remove_aside(done)
        os.replace(aside, done)
        self._remove_aside(done)

    @staticmethod
    def _remove_aside(folder: Path) -> None:
        import shutil

        if os.path.islink(folder):
            folder.unlink()
        elif folder.is_dir():
            shutil.rmtree(folder)       # never follows links inside it

    # -- results.json ------------------------------------------------------------------------
    @property
    def results_path(self) -> Path:
        """results.json; a shard's own part `results.shard-I-of-N.json` (`br-eval merge` turns
        the parts into results.json)."""
        if self.shard is not None:
            return self.path / f"results.{shard_suffix(self.shard)}.json"
        return self.path / "results.json"

    def result_parts(self) -> dict[tuple[int, int], Path]:
        """{(I, N): path} of every shard's results part in the folder."""
        out = {}
        for p in self.path.glob("results.shard-*-of-*.json"):
            m = re.fullmatch(r"results\.shard-(\d+)-of-(\d+)\.json", p.name)
            if m:
                out[(int(m[1]), int(m[2]))] = p
        return dict(sorted(out.items(), key=lambda kv: (kv[0][1], kv[0][0])))

    def read_results(self) -> dict:
        """results.json (a shard's part), checked against HEADER_SHAPE; {} when there is none."""
        return read_results_file(self.results_path)

    def write_results(self, results: dict) -> None:
        """Atomic write; existing per-task entries for tasks not in `results` are kept."""
        merged = self.read_results()
        merged_tasks = merged.get("results", {})
        merged.update({k: v for k, v in results.items() if k != "results"})
        merged_tasks.update(results.get("results", {}))
        merged["results"] = merged_tasks
        from evaluator.scoring.overall import overall       # the one definition (README)
        merged["overall"] = overall(merged_tasks)
        write_json(self.results_path, merged)


def write_json(path: Path, value: dict) -> None:
    """results.json (or a shard's part), written by write_atomic."""
    write_atomic(path, json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n")


def read_results_file(path: Path) -> dict:
    """A results file, checked against HEADER_SHAPE; {} when there is none. Damage is one line."""
    data = read_bytes(path, RESULTS_FILE_MAX)
    if data is None:
        return {}
    try:
        value = load_json(data)
    except (ValueError, RecursionError) as exc:
        what = "empty" if not data.strip() else f"not valid JSON ({exc})"
        raise EvalError(f"{path}: {what}; results.json is damaged") from None
    problem = shape_error(value, HEADER_SHAPE)
    if problem:
        raise EvalError(f"{path}: {problem}; results.json is damaged")
    return value


def glob_escape(text: str) -> str:
    import glob

    return glob.escape(text)


# -- provenance ----------------------------------------------------------------------------------
def git_hash() -> str | None:
    """The commit of the br-eval checkout, when it runs from one."""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def provenance() -> dict:
    from evaluator import __version__

    from evaluator.scoring.version import versions

    return {"br_eval_version": __version__, "git_hash": git_hash(),
            **versions(),
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
