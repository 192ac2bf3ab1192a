"""What every task is given for one run: the frozen settings record (`RunSettings`, what
results.json stores whole as "config" and what resume, `score`, `merge` and Ray workers rebuild
from), the live model and judge, the output folder, and a thread-safe store for what the run's
tasks share (a loaded release, a media preparer), each built once."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from evaluator.results import RunDir



def settings_digest(answer_settings: dict) -> str:
    """`RunSettings.digest` of answer-changing settings as results.json records them
    (`config.settings`), so readers check journal lines against a folder's header."""
    blob = json.dumps(answer_settings, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


# What the lines of a task without an agent (realcompanion/retrieval) carry: no answer-changing
# setting reaches them, so they are never checked against a folder's agent or model.
AGENT_FREE_DIGEST = settings_digest({})

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

    @classmethod
    def from_dict(cls, d: dict) -> "MediaSettings":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


# The keys of RunSettings.answer() that are not the media settings.
_ANSWER_KEYS = ("agent", "agent_source", "model", "model_args", "agent_args", "gen_kwargs",
                "lenient_time", "unanswerable")


@dataclass(frozen=True)
class RunSettings:
    """Every setting of a run, built once by `evaluate()`. `to_config()` is results.json's
    "config" (stored whole); `from_config()` rebuilds the same record for resume, `score`,
    `merge` and Ray workers, so no setting travels field by field.

    `answer()` is the part that changes answers (resume refuses a change); `transport` (URLs,
    timeouts, concurrency) may change between resumes; secrets are masked before they get here.
    """

    tasks: tuple[str, ...] = ()
    agent: str = "baseline"             # built-in name or "package.module:Class"
    agent_source: dict | None = None    # what identifies the agent's code
    model: str | None = None            # backend name ("hf", "openai", "mock") or a label
    model_args: dict = field(default_factory=dict)      # answer-changing model args (public)
    agent_args: dict = field(default_factory=dict)
    gen_kwargs: dict = field(default_factory=dict)
    media: MediaSettings = field(default_factory=MediaSettings)
    lenient_time: bool = False
    unanswerable: dict | None = None    # which questions are unanswerable (scoring.unanswerable)
    transport: dict = field(default_factory=dict)       # model_args that don't change answers
    judge: str | None = None
    judge_args: dict = field(default_factory=dict)
    limit: int | None = None            # at most this many items per task
    seed: int = 0
    data: str | None = None             # Beyond Recall snapshot folder
    rc_data: str | None = None          # RealCompanion folder (resolved)
    task_files: dict | None = None      # --task-file TASK=PATH overrides
    conditions: tuple[str, ...] | None = None   # realcompanion/chat: fixed context conditions
    detector: str | None = None         # realcompanion/retrieval: user restraint detector
    asr_identity: dict | None = None
    clip_identity: dict | None = None   # the CLIP weights by content (a path can be overwritten)
    data_identity: dict = field(default_factory=dict)

    def answer(self) -> dict:
        """The answer-changing settings (results.json `config.settings`). The speech and CLIP
        models' identities (their files' digests) are in it when they are used: new weights at
        the same path make other answers."""
        out = {k: getattr(self, k) for k in _ANSWER_KEYS}
        out.update(self.media.as_dict())
        for name in ("asr_identity", "clip_identity"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        return out

    def digest(self, uses_agent: bool = True) -> str:
        """16 hex digits of the answer-changing settings: every journal line carries it
        (`AGENT_FREE_DIGEST` on a task that uses no agent)."""
        return settings_digest(self.answer()) if uses_agent else AGENT_FREE_DIGEST

    def with_answer_settings_of(self, other: "RunSettings") -> "RunSettings":
        """These settings with `other`'s answer-changing part (agent, model, media, rules)."""
        return dataclasses.replace(self, **{k: getattr(other, k) for k in (
            *_ANSWER_KEYS, "media", "asr_identity", "clip_identity")})

    def to_config(self) -> dict:
        return {"tasks": list(self.tasks), "settings": self.answer(),
                "transport": self.transport, "judge": self.judge, "judge_args": self.judge_args,
                "limit": self.limit, "seed": self.seed, "data": self.data,
                "rc_data": self.rc_data, "task_files": self.task_files or None,
                "conditions": list(self.conditions) if self.conditions else None,
                "detector": self.detector, "asr_identity": self.asr_identity,
                "clip_identity": self.clip_identity, "data_identity": self.data_identity}

    @classmethod
    def from_config(cls, config: dict, data: str | None = None) -> "RunSettings":
        """The record a results.json "config" stores (`data`: the header's data path, for
        folders written before the config held it)."""
        s = dict(config.get("settings") or {})
        media = MediaSettings.from_dict({k: v for k, v in s.items() if k not in _ANSWER_KEYS})
        if media.fps:
            media = dataclasses.replace(media, frames=None)
        return cls(tasks=tuple(config.get("tasks") or ()), agent=s.get("agent") or "baseline",
                   agent_source=s.get("agent_source"), model=s.get("model"),
                   model_args=dict(s.get("model_args") or {}),
                   agent_args=dict(s.get("agent_args") or {}),
                   gen_kwargs=dict(s.get("gen_kwargs") or {}), media=media,
                   lenient_time=bool(s.get("lenient_time", False)),
                   unanswerable=s.get("unanswerable"),
                   transport=dict(config.get("transport") or {}), judge=config.get("judge"),
                   judge_args=dict(config.get("judge_args") or {}), limit=config.get("limit"),
                   seed=int(config.get("seed") or 0), data=config.get("data") or data,
                   rc_data=config.get("rc_data"), task_files=config.get("task_files") or None,
                   conditions=tuple(config.get("conditions") or ()) or None,
                   detector=config.get("detector"), asr_identity=config.get("asr_identity"),
                   clip_identity=config.get("clip_identity"),
                   data_identity=dict(config.get("data_identity") or {}))


@dataclass
class RunContext:
    """The settings record plus what lives only in this process."""

    settings: RunSettings = field(default_factory=RunSettings)
    run_dir: RunDir | None = None       # None: reading items only (`br-eval show`)
    log_samples: bool = False            # journals are always written; this adds full prompts
    model: Any = None                    # the live backend (evaluator.models), or None
    judge: Any = None                    # the live judge (evaluator.scoring.judge), or None
    num_concurrent: int = 1
    raise_errors: bool = False           # --raise: stop at the first failing item
    show_progress: bool = False
    source: dict | None = None           # where answers come from: each journal line's `source`
    _shared: dict = field(default_factory=dict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    # The settings tasks read, under the names they have always used.
    seed = property(lambda self: self.settings.seed)
    limit = property(lambda self: self.settings.limit)
    lenient_time = property(lambda self: self.settings.lenient_time)
    agent = property(lambda self: self.settings.agent)
    agent_args = property(lambda self: self.settings.agent_args)
    gen_kwargs = property(lambda self: self.settings.gen_kwargs)
    media = property(lambda self: self.settings.media)
    conditions = property(lambda self: self.settings.conditions)
    detector = property(lambda self: self.settings.detector)

    @property
    def unanswerable(self):
        """The run's unanswerable rule (a keys file is read once and checked unchanged)."""
        from evaluator.scoring.unanswerable import from_record

        return self.shared(("unanswerable",), lambda: from_record(self.settings.unanswerable))

    @property
    def data(self) -> Path | None:
        return Path(self.settings.data) if self.settings.data else None

    @property
    def rc_data(self) -> Path | None:
        return Path(self.settings.rc_data) if self.settings.rc_data else None

    @property
    def task_files(self) -> dict | None:
        files = self.settings.task_files
        return {k: Path(v) for k, v in files.items()} if files else None

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
