"""What a task runner is given: the run's settings, output folder and shared services."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluator.results import RunDir


@dataclass
class RunContext:
    run_dir: RunDir
    seed: int = 0
    limit: int | None = None            # at most this many questions/probes per task
    log_samples: bool = True            # journals are always written; this adds full prompts
    data: Path | None = None            # Beyond Recall snapshot (resolved by the run command)
    rc_data: Path | None = None         # RealCompanion folder; None means the generated sample
    agent: str = "baseline"             # built-in strategy name or "package.module:Class"
    model: str | None = None            # backend: "hf" | "openai" | "mock" | None
    model_args: dict[str, Any] = field(default_factory=dict)
    gen_kwargs: dict[str, Any] = field(default_factory=dict)
    agent_args: dict[str, Any] = field(default_factory=dict)
    judge: str | None = None            # "openai" or None
    judge_args: dict[str, Any] = field(default_factory=dict)
    use_cache: Path | None = None       # SQLite response cache file, when enabled
    show_progress: bool = True
    extra: dict[str, Any] = field(default_factory=dict)   # task-specific options

    def progress(self, iterable, total: int | None = None, desc: str = ""):
        """A progress bar on stderr (tqdm), silent when disabled or not a terminal."""
        from tqdm import tqdm

        return tqdm(iterable, total=total, desc=desc, unit="q", file=sys.stderr,
                    disable=not self.show_progress, dynamic_ncols=True, leave=False)
