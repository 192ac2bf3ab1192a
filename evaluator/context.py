"""What every task is given for one run: typed settings, the live model and judge, the output
folder, and a thread-safe store for what the run's tasks share (a loaded release, a media
preparer), each built once."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from evaluator.results import RunDir


@dataclass(frozen=True)
class MediaSettings:
    """How media become model inputs (part of what changes answers)."""

    frames: int | None = 8              # frames sampled per video (None when fps is set)
    fps: float | None = None            # sample videos at this rate instead
    dpi: int | None = None              # PDF rendering resolution (None: media_cache's default)
    captions: bool = False              # add CLIP captions to media text
    clip_model: str | None = None
    clip_pretrained: str | None = None
    video_backend: str = "pyav"
    asr: str | None = None              # local speech-recognition model folder: transcripts
    asr_language: str | None = None

    def as_dict(self) -> dict:
        out = {"frames": None if self.fps else self.frames, "fps": self.fps, "dpi": self.dpi,
               "captions": self.captions, "clip_model": self.clip_model,
               "clip_pretrained": self.clip_pretrained, "video_backend": self.video_backend}
        if self.asr:
            out.update(asr=self.asr, asr_language=self.asr_language)
        return out


def _default_unanswerable():
    from evaluator.scoring.unanswerable import UnanswerableRule

    return UnanswerableRule()


@dataclass
class RunContext:
    run_dir: RunDir | None = None       # None: reading items only (`br-eval show`)
    seed: int = 0
    limit: int | None = None             # at most this many items per task
    log_samples: bool = False            # journals are always written; this adds full prompts
    data: Path | None = None             # Beyond Recall snapshot
    rc_data: Path | None = None          # RealCompanion folder (resolved; the sample by default)
    task_files: dict | None = None       # --task-file TASK=PATH overrides
    lenient_time: bool = False
    agent: str = "baseline"              # built-in name or "package.module:Class"
    agent_args: dict[str, Any] = field(default_factory=dict)
    gen_kwargs: dict[str, Any] = field(default_factory=dict)
    model: Any = None                    # the live backend (evaluator.models), or None
    judge: Any = None                    # the live judge (evaluator.scoring.judge), or None
    media: MediaSettings = field(default_factory=MediaSettings)
    conditions: tuple[str, ...] | None = None   # realcompanion/chat: fixed context conditions
    detector: str | None = None          # realcompanion/retrieval: user restraint detector
    unanswerable: Any = field(default_factory=lambda: _default_unanswerable())  # --unanswerable
    num_concurrent: int = 1
    raise_errors: bool = False           # --raise: stop at the first failing item
    show_progress: bool = False
    _shared: dict = field(default_factory=dict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def shared(self, key, build: Callable[[], Any]):
        """`build()` once per key for the whole run (threads wait for the first build)."""
        with self._lock:
            if key not in self._shared:
                self._shared[key] = build()
            return self._shared[key]

    def agent_class(self):
        from evaluator.agents.builtin import resolve_agent

        return self.shared(("agent", self.agent), lambda: resolve_agent(self.agent))

    def agent_kwargs(self) -> dict:
        return {**self.agent_args, "gen_kwargs": self.gen_kwargs} if self.gen_kwargs \
            else dict(self.agent_args)
