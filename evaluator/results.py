"""A run's output folder: `samples_<task>.jsonl` journals and `results.json`.

The journal is appended one line per finished item and flushed at once, so Ctrl-C or a crash
loses nothing finished; a rerun into the same folder reads it and skips what is done. A torn last
line (the process died mid-write) is ignored on reading and cut by the rerun; a complete last line
that only lacks its newline is kept. What a line holds: `evaluator.records`.
"""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from evaluator.errors import EvalError
from evaluator.records import Sample, latest_by_key


def journal_name(task: str) -> str:
    """`samples_conflict_detection.jsonl`; `realcompanion/chat` -> `samples_realcompanion_chat.jsonl`."""
    return "samples_" + task.replace("/", "_") + ".jsonl"


class RunDir:
    """The one writer and reader of a run folder's journals and results.json."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EvalError(f"cannot create output folder {self.path}: {exc.strerror}") from None
        self._handles: dict[str, object] = {}

    # -- journal ---------------------------------------------------------------------------
    def journal_path(self, task: str) -> Path:
        return self.path / journal_name(task)

    def read_lines(self, task: str) -> list[dict]:
        """Every complete JSON line of the task's journal. A final line that does not parse was
        torn by a crash mid-write and is dropped (the rerun redoes that item); a final line that
        parses but lacks its newline is complete and kept."""
        path = self.journal_path(task)
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
        """Replace a journal atomically with one line per sample."""
        self.close()
        tmp = self.journal_path(task).with_suffix(".jsonl.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            for s in samples:
                fh.write(s.dumps() + "\n")
        os.replace(tmp, self.journal_path(task))

    def close(self) -> None:
        for fh in self._handles.values():
            fh.close()
        self._handles.clear()

    # -- results.json ------------------------------------------------------------------------
    @property
    def results_path(self) -> Path:
        return self.path / "results.json"

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
        tmp = self.results_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(merged, indent=2, ensure_ascii=False, default=str) + "\n",
                       encoding="utf-8")
        os.replace(tmp, self.results_path)


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

    return {"br_eval_version": __version__, "git_hash": git_hash(),
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
