"""A run's output folder: `samples_<task>.jsonl` journals and `results.json`.

The journal is appended one line per finished item and flushed at once, so Ctrl-C or a crash
loses nothing finished; a rerun into the same folder reads it and skips what is done. A torn last
line (the process died mid-write) is ignored on reading and cut by the rerun; a complete last line
that only lacks its newline is kept. What a line holds: `evaluator.records`.

Sharded runs (`--shard I/N`, evaluator/sharding.py) share one folder: shard I of N writes
`samples_<task>.shard-I-of-N.jsonl` and `results.shard-I-of-N.json` and reads only its own files;
an unsharded RunDir (merge, report, score, a later unsharded run) reads every shard's journal of
a task and then the plain journal, the latest line per key winning.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from evaluator.errors import EvalError
from evaluator.records import Sample, latest_by_key


def journal_name(task: str) -> str:
    """`samples_conflict_detection.jsonl`; `realcompanion/chat` -> `samples_realcompanion_chat.jsonl`."""
    return "samples_" + task.replace("/", "_") + ".jsonl"


def shard_suffix(shard: tuple[int, int]) -> str:
    """(1, 3) -> `shard-1-of-3` (0-based index)."""
    return f"shard-{shard[0]}-of-{shard[1]}"


SHARD_RE = re.compile(r"\.shard-(\d+)-of-(\d+)\.")


class RunDir:
    """The one writer and reader of a run folder's journals and results.json. `shard` (I, N):
    this process is shard I of N and writes its own journal files and results part."""

    def __init__(self, path: str | os.PathLike, shard: tuple[int, int] | None = None) -> None:
        self.path = Path(path)
        self.shard = shard
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EvalError(f"cannot create output folder {self.path}: {exc.strerror}") from None
        self._handles: dict[str, object] = {}

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
        return any(p.exists() for p in self.journal_files(task))

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
        if not path.exists():
            return []
        out = []
        with open(path, "rb") as fh:
            lines = fh.read().split(b"\n")
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except (ValueError, RecursionError):
                if n == len(lines):   # torn final write
                    continue
                raise EvalError(f"{path}: line {n} is not valid JSON; the journal is damaged") from None
        return out

    def read_samples(self, task: str) -> list[Sample]:
        return [Sample.from_json(line, task) for line in self.read_lines(task)]

    def latest_samples(self, task: str) -> list[Sample]:
        return latest_by_key(self.read_samples(task))

    def append(self, sample: Sample) -> None:
        """Append one line and flush it, so a crash loses nothing finished."""
        fh = self._handles.get(sample.task)
        if fh is None:
            path = self.journal_path(sample.task)
            self._repair_tail(path)
            fh = self._handles[sample.task] = open(path, "a", encoding="utf-8")
        fh.write(sample.dumps() + "\n")
        fh.flush()

    @staticmethod
    def _repair_tail(path: Path) -> None:
        """Before appending: a last line without its newline is either complete (give it the
        newline, so it survives) or torn (cut it, the rerun redoes that item)."""
        if not path.exists() or not path.stat().st_size:
            return
        with open(path, "rb+") as raw:
            data = raw.read()
            if data.endswith(b"\n"):
                return
            start = data.rfind(b"\n") + 1
            try:
                json.loads(data[start:])
                complete = True
            except (ValueError, RecursionError):
                complete = False
            if complete:
                raw.write(b"\n")
            else:
                raw.seek(start)
                raw.truncate()

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
            tmp = path.with_suffix(".jsonl.tmp")
            with open(tmp, "w", encoding="utf-8") as fh:
                for s in group:
                    fh.write(s.dumps() + "\n")
            os.replace(tmp, path)

    def close(self) -> None:
        for fh in self._handles.values():
            fh.close()
        self._handles.clear()

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
        if not self.results_path.exists():
            return {}
        try:
            return json.loads(self.results_path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise EvalError(f"{self.results_path}: not valid JSON ({exc})") from None

    def write_results(self, results: dict) -> None:
        """Atomic write; existing per-task entries for tasks not in `results` are kept."""
        merged = self.read_results()
        merged_tasks = merged.get("results", {})
        merged.update({k: v for k, v in results.items() if k != "results"})
        merged_tasks.update(results.get("results", {}))
        merged["results"] = merged_tasks
        from evaluator.scoring.overall import overall       # the one definition (README)
        merged["overall"] = overall(merged_tasks)
        tmp = self.results_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(merged, indent=2, ensure_ascii=False, default=str) + "\n",
                       encoding="utf-8")
        os.replace(tmp, self.results_path)


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
