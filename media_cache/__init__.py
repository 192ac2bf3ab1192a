"""Media -> model-ready inputs (PDF pages, video frames, audio, CLIP captions), content-addressed.

Knows nothing about tasks or agents (never imports beyondrecall or evaluator). Heavy libraries
(av, pymupdf, decord, torch, open_clip, PIL, numpy) are imported inside the functions that use
them, so `import media_cache` costs only the standard library.

Public API
----------
``MediaCache(root: Path | str | None = None)``
    The cache. ``root`` defaults to ``$BR_EVAL_CACHE``, else ``$BR_EVAL_HOME/media``, else
    ``$XDG_CACHE_HOME/br-eval/media``, else ``~/.cache/br-eval/media``. An entry's key is the sha256 of the source file's bytes
    plus the operation, its parameters and the producer version (``PRODUCER_VERSIONS``); a path
    or question id never is. Each entry is a folder with ``manifest.json`` and its artifact
    files, written to a temporary folder and renamed into place (atomic; two processes preparing
    the same entry end with one valid entry). File hashes are memoised by
    (path, size, mtime_ns, inode, ctime_ns) in the process and on disk, so a file is read once.

``cache.image(path) -> ImageInput``
    Fully decodes the image (MediaError naming the file if it does not). ``.path`` is a PNG or
    JPEG a model can read: the original when it already is one, else a converted PNG. Also
    ``.sha256 .width .height .format .source_format .normalized``.

``cache.pdf_pages(path, *, dpi=144, page_map=None) -> PdfPages``
    ``.pages``: ``PdfPage(index, original_page, is_evidence, image_path, text, width, height)``.
    ``index`` is 0-based in the (cropped) file; ``original_page`` is 1-based, from ``page_map``
    (a sequence of (original_page, is_evidence), one per page; a length mismatch is a
    MediaError naming the file) else ``index + 1``; ``is_evidence`` is None without a map.

``cache.video_frames(path, *, num_frames=None, fps=None, backend="pyav") -> VideoFrames``
    Exactly one of ``num_frames`` and ``fps``. ``.frames``: ``Frame(index, time, image_path)``
    (index = frame number in presentation order, time in seconds since the first frame, RGB
    PNG); also ``.duration .has_audio .frame_count .avg_fps .width .height``. Uniform sampling
    takes frame floor((2i+1)·N/(2k)) for i < k (the middle of k equal segments); rate sampling
    takes the frame on screen at each multiple of 1/fps. Backends ``"pyav"`` (default) and
    ``"decord"`` decode the same frame numbers; see ``media_cache.video``.

``cache.audio(path) -> AudioTrack``
    ``.has_audio .wav_path .duration .sample_rate``: the first audio stream as a 16 kHz mono
    float32 WAV (IEEE-float format tag 3). No audio stream: ``has_audio=False``, ``wav_path``
    None. A file that does not decode: MediaError naming it.

``cache.transcript(path, *, model, language=None, task="transcribe") -> Transcript``
    ``.has_audio .text .segments`` (``Segment(start, end, text)``, one per 30 s window): speech
    recognition of the audio track with a local transformers model folder (e.g. Whisper; never
    downloaded). Cached by video content, model files and settings; a hit loads nothing.

``cache.clip_caption(path, *, model="ViT-B-32", pretrained, vocabulary=None, top_k=3) -> Caption``
``cache.clip_captions(paths, *, model, pretrained, vocabulary=None, top_k=3, batch_size=32)``
    ``Caption(text, labels, embedding_path, ...)``: text like
    ``"a photo of: dog (0.41), beach (0.22), ball (0.10)"``, ``labels`` the top-k
    (label, probability) pairs over the vocabulary (default: ``clip_vocabulary.txt`` shipped
    here), ``embedding_path`` an ``.npy`` float32 L2-normalised image embedding. ``pretrained``
    is a local checkpoint (.safetensors/.bin/.pt) or an open_clip tag fetched through the HF cache
    (media_cache.hub; HF_HUB_OFFLINE: cache only, MissingWeightsError says what to run). Image and
    vocabulary embeddings are cached; a fully cached call does not load the model.

``media_cache.check.decode_check(path, kind) -> dict``
    Whether an image, PDF or video decodes (what ``br-eval verify --deep`` reports), opened
    within this package's bounds (a video's MP4 header claims are checked first).

``cache.store.info()`` / ``cache.store.prune()``
    What ``br-eval cache info`` and ``br-eval cache prune`` print and do.

Every record has ``to_dict()`` and a ``from_cache`` flag (excluded from equality).
Errors: ``media_cache.errors.MediaError`` (one line, names the file).
"""

from media_cache.cache import MediaCache
from media_cache.errors import MediaError, MissingWeightsError
from media_cache.store import PRODUCER_VERSIONS, default_root, entry_key
from media_cache.types import (AudioTrack, Caption, Frame, ImageInput, PdfPage, PdfPages,
                               Segment, Transcript, VideoFrames)

# What `br-eval prepare` uses unless told otherwise; the agent runner should ask for the same.
from media_cache.pdf import DEFAULT_DPI
from media_cache.video import DEFAULT_NUM_FRAMES

__all__ = [
    "MediaCache", "MediaError", "MissingWeightsError", "PRODUCER_VERSIONS", "default_root",
    "entry_key", "AudioTrack", "Caption", "Frame", "ImageInput", "PdfPage", "PdfPages",
    "VideoFrames", "Segment", "Transcript", "DEFAULT_NUM_FRAMES", "DEFAULT_DPI",
]
