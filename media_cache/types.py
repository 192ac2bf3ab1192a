"""What the cache hands back: small frozen records pointing at files inside the cache.

Every record has `to_dict()` (JSON-ready, paths as strings) so a run's journal can say exactly
which inputs a model saw. `from_cache` says whether the entry already existed (it is not part of
equality: a cold and a warm result for the same content compare equal).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path


def _jsonable(value):
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


class _Record:
    def to_dict(self) -> dict:
        return _jsonable(asdict(self))


@dataclass(frozen=True)
class ImageInput(_Record):
    source: Path           # the file asked about
    sha256: str            # of the source file's bytes
    path: Path             # a PNG or JPEG a model can read, in the cache (a copy when the source is one)
    format: str            # format of `path`: "PNG" or "JPEG"
    source_format: str     # what Pillow called the source ("WEBP", "GIF", "PNG", ...)
    width: int             # of the image at `path` (EXIF orientation applied)
    height: int
    normalized: bool       # True when `path` is converted, not a byte copy of the source
    from_cache: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class PdfPage(_Record):
    index: int                  # 0-based page in the (cropped) file
    original_page: int          # 1-based page number in the original document (page map), else index + 1
    is_evidence: bool | None    # from the page map; None when no map was given
    image_path: Path            # PNG rendered at `PdfPages.dpi`
    text: str                   # the page's extracted text
    width: int                  # pixels
    height: int
    dpi: int | None = None      # rendering dpi: the asked one, lower when the page was capped


@dataclass(frozen=True)
class PdfPages(_Record):
    source: Path
    sha256: str
    dpi: int
    pages: tuple[PdfPage, ...]
    from_cache: bool = field(default=False, compare=False)

    @property
    def evidence_pages(self) -> tuple[PdfPage, ...]:
        return tuple(p for p in self.pages if p.is_evidence)


@dataclass(frozen=True)
class Frame(_Record):
    index: int          # frame number in the video stream (0-based, presentation order)
    time: float         # seconds since the stream's first frame
    image_path: Path    # RGB PNG


@dataclass(frozen=True)
class VideoFrames(_Record):
    source: Path
    sha256: str
    frames: tuple[Frame, ...]
    duration: float       # seconds (container duration; else last frame time + one frame)
    has_audio: bool
    frame_count: int      # frames in the stream, counted from its packets
    avg_fps: float
    width: int
    height: int
    sampling: str         # "num_frames=8" or "fps=1"
    backend: str          # "pyav" or "decord"
    from_cache: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class AudioTrack(_Record):
    source: Path
    sha256: str
    has_audio: bool             # False for a video without an audio stream (not an error)
    wav_path: Path | None       # 16 kHz mono float32 WAV; None without audio
    duration: float             # seconds of audio written (0.0 without audio)
    sample_rate: int
    from_cache: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Segment(_Record):
    start: float        # seconds into the audio track
    end: float
    text: str


@dataclass(frozen=True)
class Transcript(_Record):
    source: Path
    sha256: str                     # of the video file (the audio is a function of it)
    has_audio: bool                 # False: no audio stream, empty text, no model was run
    text: str                       # the segments' text joined with spaces
    segments: tuple[Segment, ...]   # one per 30 s window of the 16 kHz track
    model: str                      # the --asr path as given
    from_cache: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Caption(_Record):
    source: Path
    sha256: str
    text: str                               # "a photo of: dog (0.41), beach (0.22), ball (0.10)"
    labels: tuple[tuple[str, float], ...]   # top-k (label, probability over the vocabulary)
    embedding_path: Path                    # .npy, float32, L2-normalised image embedding
    model: str                              # "<model>:<pretrained>" as asked
    from_cache: bool = field(default=False, compare=False)
