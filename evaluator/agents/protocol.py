"""The agent protocol: what a user implements to put their memory system on the benchmark.

The harness creates a NEW agent object for every question (that is the isolated memory), hands
it the question's visible sessions in chronological order, then asks the question:

    from evaluator.agents import Agent, Answer

    class LastTurnAgent(Agent):
        def __init__(self, model=None, **agent_args):
            self.turns = []

        def write(self, session):              # a MemorySession, oldest first
            self.turns.extend(session.turns)

        def answer(self, query):               # a Query: text, its own media, the cutoff
            last = self.turns[-1].content if self.turns else "I don't know."
            return Answer(last)

Times: `MemoryTurn.time`, `MemorySession.date` and `Query.cutoff` are the parsed values (timezone-
aware UTC, what the cutoff rule compares); `time_raw`, `date_raw` and `cutoff_raw` are the strings
as the data released them, never rewritten ("8:27 am on 23 October, 2025",
"2025-10-23T23:30:00-05:00"). `MemorySession.persons` and `Query.persons` carry the trajectory's
`persons` field as released (Beyond Recall: the speakers' names; None where the data has none).

Run it with `br-eval --task conflict_detection --agent mypkg.agents:LastTurnAgent`. `model` is
the chat model named by `--model/--model_args` (built once per run, shared by every question;
None when no model is named); `--agent_args k=v,...` arrive as keyword arguments.

A class wrapping a memory system may say what identifies it beyond its source file with a
classmethod `identity(agent_args) -> dict | None` (package versions, configuration, an embedding
model and the dimension its endpoint answers with): called once per run before anything is
journaled, it goes into results.json's agent identity (`agent_source.memory`), so a run folder
answered by another version is never resumed as the same agent (the built-in `rag` and `mem0`
use it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from beyondrecall.files import media_kind


class MediaInput:
    """One media file as model-ready inputs, prepared on first use through the media cache.

    `kind` is "image", "pdf" or "video". `images()` gives image files for a VLM (the image
    itself, rendered PDF pages, or sampled video frames); `audio()` gives a video's audio track
    as a cached 16 kHz mono float32 WAV path (None for a video without audio, an image or a PDF);
    `transcript()` gives the track's speech-recognition text when the run has `--asr` (else
    None); `text()` gives a text rendering for text-only models (PDF page text, CLIP captions
    when enabled, the transcript when `--asr` is on). Only media of visible turns and
    of the question itself are ever wrapped: nothing after the cutoff can be reached from here.
    """

    __slots__ = ("rel_path", "kind", "_abs", "_prep", "_usage")

    def __init__(self, rel_path: str, abs_path: Path, prep: "MediaPreparer", usage: list) -> None:
        self.rel_path = rel_path
        # One reading of a file name (beyondrecall.files); a name with no known media extension
        # is tried as an image, which the media cache then opens by its content.
        self.kind = media_kind(rel_path) or "image"
        self._abs = abs_path
        self._prep = prep
        self._usage = usage

    @property
    def path(self) -> Path:
        """The original file (read-only)."""
        return self._abs

    def images(self) -> list[str]:
        return self._prep.images(self, self._usage)

    def text(self) -> str:
        return self._prep.text(self, self._usage)

    def audio(self) -> str | None:
        return self._prep.audio(self, self._usage)

    def transcript(self) -> str | None:
        return self._prep.transcript(self, self._usage)

    def __repr__(self) -> str:
        return f"MediaInput({self.rel_path!r}, kind={self.kind!r})"


@dataclass(slots=True)
class MemoryTurn:
    session_index: int
    turn_index: int
    time: datetime                  # effective time, parsed, UTC (explicit timestamp, else session date)
    person: str
    content: str
    media: list[MediaInput] = field(default_factory=list)
    id: str | None = None           # a stored message id where the data has one (RealCompanion)
    time_raw: str | None = None     # `time` as released (e.g. "8:27 am on 23 October, 2025");
                                    # None where the data has no string for it

    @property
    def ref(self) -> tuple[int, int]:
        return (self.session_index, self.turn_index)

    def copy(self) -> "MemoryTurn":
        """A fresh turn with its own media list: what one item's agent does to it cannot reach
        another item (every field, positionally: five times faster than copy.copy)."""
        return MemoryTurn(self.session_index, self.turn_index, self.time, self.person,
                          self.content, list(self.media), self.id, self.time_raw)


@dataclass(slots=True)
class MemorySession:
    index: int                      # original session index
    date: datetime                  # visible date, parsed, UTC
    turns: list[MemoryTurn]
    date_raw: str | None = None     # `date` as released; None where the data has no string for it
    persons: Any = None             # the trajectory's `persons` as released (JSON value), or None


@dataclass(slots=True)
class Query:
    key: str                        # dimension/task/trajectory_id/qN
    task: str
    text: str
    media: list[MediaInput]         # query input, not history
    cutoff: datetime | None         # parsed, UTC; None: all history is visible
    options: dict = field(default_factory=dict)   # task hints, e.g. persona slots to fill
    cutoff_raw: str | None = None   # the question's timestamp as released, or None
    persons: Any = None             # the trajectory's `persons` as released (JSON value), or None


@dataclass(slots=True)
class Answer:
    text: str
    relied_on: list[tuple[int, int]] | None = None   # (session index, turn index) pairs
    input_tokens: int | None = None
    output_tokens: int | None = None
    prompt: Any = None              # what was sent to a model (hashed; logged with --log_samples)
    extra: dict = field(default_factory=dict)
    # The system's own decisions (RealCompanion chat/question tracks; None = not reported):
    retrieved: bool | None = None   # rho-hat: it looked beyond the recent window for this reply
    locus: str | None = None        # lambda-hat: thread | none | profile | episode | companion
    evidence_ids: list[str] | None = None   # the message ids (MemoryTurn.id) it used

    def decisions(self) -> dict:
        """The reported decisions as journal fields (None where not reported); a locus outside
        the four stores is a TypeError naming it."""
        if self.locus is not None and self.locus not in LOCI:
            raise TypeError(f"Answer.locus {self.locus!r} is not one of {', '.join(LOCI)}")
        if self.retrieved is not None and not isinstance(self.retrieved, bool):
            raise TypeError(f"Answer.retrieved should be true, false or None, got {self.retrieved!r}")
        return {"retrieved": self.retrieved, "reported_locus": self.locus,
                "evidence_ids": None if self.evidence_ids is None
                else [str(i) for i in self.evidence_ids]}


LOCI = ("thread", "none", "profile", "episode", "companion")   # "none": nothing was needed


class Agent:
    """Base class (optional: any class with `write` and `answer` works)."""

    def __init__(self, model=None, **agent_args) -> None:
        self.model = model

    def write(self, session: MemorySession) -> None:
        raise NotImplementedError

    def answer(self, query: Query) -> Answer | str:
        raise NotImplementedError


class MediaPreparer:
    """Turns MediaInputs into images/text through `media_cache`, once per file and setting.

    Settings: frames per video (`num_frames`) or `fps`, PDF `dpi`, `captions` (CLIP; needs
    `clip_model` and `clip_pretrained`), `asr_model` (a local speech-recognition model folder,
    e.g. Whisper: video transcripts, cached; `asr_language` pins the language). Usage (frame indices, pages) is appended to the
    question's usage list for its journal line.
    """

    def __init__(self, benchmark_dir: Path, *, num_frames: int | None = 8, fps: float | None = None,
                 dpi: int | None = None, captions: bool = False, clip_model: str | None = None,
                 clip_pretrained: str | None = None, video_backend: str = "pyav",
                 pdf_map: dict | None = None, cache=None, asr_model: str | None = None,
                 asr_language: str | None = None) -> None:
        self.benchmark_dir = Path(benchmark_dir)
        self.num_frames = None if fps else num_frames
        self.fps = fps
        self.dpi = dpi
        self.captions = captions
        self.clip_model = clip_model
        self.clip_pretrained = clip_pretrained
        self.video_backend = video_backend
        self.pdf_map = pdf_map or {}
        self._safe: set[str] = set()       # media paths already checked to stay in benchmark/
        self._cache = cache
        self.asr_model = asr_model
        self.asr_language = asr_language

    @property
    def cache(self):
        if self._cache is None:
            from media_cache import MediaCache

            self._cache = MediaCache()
        return self._cache

    def wrap(self, paths, usage: list) -> list[MediaInput]:
        if not paths:                      # most turns carry no media: the hot path
            return []
        from beyondrecall.paths import resolve_media  # refuses paths that leave benchmark/

        for p in paths:
            if p not in self._safe:        # resolved once per run, not once per question
                resolve_media(self.benchmark_dir, p)
                self._safe.add(p)
        return [MediaInput(p, self.benchmark_dir / p, self, usage) for p in paths]

    def _page_map(self, rel: str):
        entry = self.pdf_map.get(rel)
        if entry is None:
            return None
        return [(p, p in entry.evidence_pages) for p in entry.original_pages]

    def _pdf(self, m: MediaInput):
        kwargs = {"page_map": self._page_map(m.rel_path)}
        if self.dpi:
            kwargs["dpi"] = self.dpi
        return self.cache.pdf_pages(m.path, **kwargs)

    def _video(self, m: MediaInput):
        if self.fps:
            return self.cache.video_frames(m.path, fps=self.fps, backend=self.video_backend)
        return self.cache.video_frames(m.path, num_frames=self.num_frames,
                                       backend=self.video_backend)

    def images(self, m: MediaInput, usage: list) -> list[str]:
        if m.kind == "pdf":
            pages = self._pdf(m).pages
            usage.append({"path": m.rel_path, "kind": "pdf",
                          "pages": [p.original_page for p in pages]})
            return [str(p.image_path) for p in pages]
        if m.kind == "video":
            frames = self._video(m).frames
            usage.append({"path": m.rel_path, "kind": "video",
                          "frames": [f.index for f in frames]})
            return [str(f.image_path) for f in frames]
        img = self.cache.image(m.path)
        usage.append({"path": m.rel_path, "kind": "image"})
        return [str(img.path)]

    def _caption(self, image_paths: list[str]) -> list[str]:
        if not self.captions:
            return []
        caps = self.cache.clip_captions(image_paths, model=self.clip_model,
                                        pretrained=self.clip_pretrained)
        return [c.text for c in caps]

    def text(self, m: MediaInput, usage: list) -> str:
        if m.kind == "pdf":
            pages = self._pdf(m).pages
            usage.append({"path": m.rel_path, "kind": "pdf", "text": True,
                          "pages": [p.original_page for p in pages]})
            parts = [f"[page {p.original_page}] {p.text.strip()}" for p in pages]
            return f"[document {Path(m.rel_path).name}]\n" + "\n".join(parts)
        if m.kind == "video":
            vf = self._video(m)
            caps = self._caption([str(f.image_path) for f in vf.frames])
            usage.append({"path": m.rel_path, "kind": "video", "text": True,
                          "frames": [f.index for f in vf.frames] if caps else []})
            lines = [f"[{f.time:.1f}s] {c}" for f, c in zip(vf.frames, caps)]
            audio = "with audio" if vf.has_audio else "no audio"
            speech = self.transcript(m, usage) if vf.has_audio else None
            if speech is not None:
                lines.append(f"[speech] {speech}" if speech else "[speech] (none recognised)")
            return f"[video {Path(m.rel_path).name}, {vf.duration:.1f}s, {audio}]" + \
                ("\n" + "\n".join(lines) if lines else "")
        caps = self._caption([str(self.cache.image(m.path).path)]) if self.captions else []
        usage.append({"path": m.rel_path, "kind": "image", "text": True})
        return f"[image {Path(m.rel_path).name}]" + (f" {caps[0]}" if caps else "")

    def audio(self, m: MediaInput, usage: list) -> str | None:
        if m.kind != "video":
            return None
        track = self.cache.audio(m.path)
        if not track.has_audio:
            return None
        usage.append({"path": m.rel_path, "kind": "video", "audio": True,
                      "seconds": round(track.duration, 3)})
        return str(track.wav_path)

    def transcript(self, m: MediaInput, usage: list) -> str | None:
        """The video's speech as text (cached per content, model and settings); None without
        `asr_model`, for a non-video, or for a video without audio."""
        if not self.asr_model or m.kind != "video":
            return None
        tr = self.cache.transcript(m.path, model=self.asr_model, language=self.asr_language)
        if not tr.has_audio:
            return None
        usage.append({"path": m.rel_path, "kind": "video", "transcript": tr.model})
        return tr.text
