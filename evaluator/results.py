"""A run's output folder: `samples_<task>.jsonl` journals and `results.json`.

The journal is appended one line per finished question and flushed at once, so Ctrl-C or a crash
loses nothing finished; a rerun into the same folder reads it and skips what is done. A torn last
line (the process died mid-write) is ignored on reading and rewritten by the rerun.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from evaluator.errors import EvalError


def journal_name(task: str) -> str:
    """`samples_conflict_detection.jsonl`; `realcompanion/chat` -> `samples_realcompanion_chat.jsonl`."""
    return "samples_" + task.replace("/", "_") + ".jsonl"


class RunDir:
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

    def read_samples(self, task: str) -> list[dict]:
        """Every complete line of the task's journal (a torn final line is dropped)."""
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
            except ValueError:
                if n == len(lines):   # torn final write: the rerun redoes that question
                    continue
                raise EvalError(f"{path}: line {n} is not valid JSON; the journal is damaged") from None
        return out

    def done_keys(self, task: str, *, include_errors: bool = False) -> set[str]:
        """Keys already finished. Errored samples are retried unless include_errors."""
        return {s["key"] for s in self.read_samples(task)
                if include_errors or not s.get("error")}

    def append_sample(self, task: str, sample: dict) -> None:
        fh = self._handles.get(task)
        if fh is None:
            path = self.journal_path(task)
            # Cut a torn final line so the next record starts on a line of its own.
            if path.exists() and path.stat().st_size:
                with open(path, "rb+") as raw:
                    data = raw.read()
                    if not data.endswith(b"\n"):
                        raw.seek(data.rfind(b"\n") + 1)
                        raw.truncate()
            fh = self._handles[task] = open(path, "a", encoding="utf-8")
        fh.write(json.dumps(sample, ensure_ascii=False, default=str) + "\n")
        fh.flush()

    def rewrite_samples(self, task: str, samples: list[dict]) -> None:
        """Replace a journal atomically (used by `br-eval score` when re-scoring)."""
        self.close()
        tmp = self.journal_path(task).with_suffix(".jsonl.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            for s in samples:
                fh.write(json.dumps(s, ensure_ascii=False, default=str) + "\n")
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


# -- statistics ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    mean: float
    ci_low: float
    ci_high: float
    n: int
    n_clusters: int

    def as_dict(self) -> dict:
        return {"mean": self.mean, "ci95": [self.ci_low, self.ci_high], "n": self.n,
                "n_clusters": self.n_clusters}


def cluster_bootstrap(values: list[float], clusters: list[str], *, n_boot: int = 2000,
                      seed: int = 0) -> Estimate | None:
    """Mean with a 95% percentile interval, resampling whole clusters (trajectories or
    participants) with replacement, so questions that share a history are not counted as
    independent evidence. None when there are no values."""
    pairs = [(v, c) for v, c in zip(values, clusters) if v is not None and not
             (isinstance(v, float) and math.isnan(v))]
    if not pairs:
        return None
    import numpy as np

    by_cluster: dict[str, list[float]] = {}
    for v, c in pairs:
        by_cluster.setdefault(str(c), []).append(float(v))
    names = sorted(by_cluster)
    sums = np.array([sum(by_cluster[c]) for c in names])
    counts = np.array([len(by_cluster[c]) for c in names])
    mean = float(sums.sum() / counts.sum())
    if len(names) < 2:
        return Estimate(mean, mean, mean, int(counts.sum()), len(names))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(names), size=(n_boot, len(names)))
    boot = sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return Estimate(mean, float(lo), float(hi), int(counts.sum()), len(names))


def seeded_random(seed: int, *parts: object) -> random.Random:
    """A Random seeded from `seed` and a label, stable across runs and Python versions."""
    import hashlib

    h = hashlib.sha256(("|".join(map(str, (seed, *parts)))).encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))
