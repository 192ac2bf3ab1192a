"""`MediaCache`: the public entry point. See the package docstring for the API."""

from __future__ import annotations

import contextlib

import os
from pathlib import Path
from typing import Iterable, Sequence

from media_cache.errors import MediaError
from media_cache.store import Store
from media_cache.types import (AudioTrack, Caption, Frame, ImageInput, PdfPage, PdfPages,
                               Segment, Transcript, VideoFrames)

PathLike = str | os.PathLike


class MediaCache:
    """Media files -> model-ready inputs, computed once and kept on disk by content.

    `root` defaults to `$BR_EVAL_CACHE`, else `$BR_EVAL_HOME/media`, else
    `$XDG_CACHE_HOME/br-eval/media`, else `~/.cache/br-eval/media`. Every method takes a media file path and returns a frozen record
    whose paths point into the cache; the same content under another path is a cache hit.
    """

    def __init__(self, root: Path | str | None = None, *, verify: bool = False) -> None:
        """`verify`: check the CRC-32 of every file of an entry before using it (what
        `br-eval prepare` does), not only its size (always checked)."""
        self.store = Store(root, verify=verify)
        with contextlib.suppress(OSError):      # a read-only cache still serves what it holds
            self.store.ensure_root()

    def check_usable(self) -> None:
        """MediaError naming the folder when the cache can be neither written nor read from
        (unwritable and empty): every question with media would fail, so a run stops first."""
        reason = self.store.unwritable()
        if reason is not None and not self.store.has_entries():
            raise MediaError(f"media cache {self.root}: cannot be written ({reason}) and holds "
                             "nothing prepared; point $BR_EVAL_CACHE at a writable folder, or run "
                             "`br-eval prepare` into this one where it is writable")

    @property
    def root(self) -> Path:
        return self.store.root

    @property
    def stats(self):
        """Counter: "<op>:hit"/"<op>:miss" per operation, "clip_model_loads", "clip_forward_calls"."""
        return self.store.stats

    def sha256(self, path: PathLike) -> str:
        """sha256 of the file's bytes (memoised by path, size, mtime, inode and ctime)."""
        return self.store.source_sha256(Path(path))

    def remember_sha256(self, path: PathLike, sha: str, size: int, mtime_ns: int, ino: int,
                        ctime_ns: int | None = None) -> bool:
        """Reuse a sha256 computed elsewhere for the file in the state (size, mtime, inode and,
        when given, ctime) it was hashed in; ignored (False) when the file has changed since."""
        return self.store.remember_source_sha256(Path(path), sha, size, mtime_ns, ino, ctime_ns)

    # ---- images ------------------------------------------------------------------------------

    def image(self, path: PathLike) -> ImageInput:
        """Decode an image fully (MediaError naming the file if it cannot) and return a
        PNG/JPEG a model can read, inside the cache: a copy of the file when it already is one,
        else a PNG conversion (never the benchmark's own file, which an agent could change)."""
        from media_cache.image import build_image

        source = Path(path)
        sha = self.sha256(source)
        entry = self.store.get_or_create("image", sha, {}, lambda tmp: build_image(source, tmp), source)
        d = entry.data
        out_path = entry.path / d["file"]
        return ImageInput(source, sha, out_path, d["format"], d["source_format"], d["width"],
                          d["height"], d["normalized"], entry.from_cache)

    # ---- PDFs ---------------------------------------------------------------------------------

    def pdf_pages(self, path: PathLike, *, dpi: int | None = None,
                  page_map: Sequence[tuple[int, bool]] | None = None) -> PdfPages:
        """Every page as a PNG at `dpi` (default 144) with its extracted text.

        `page_map` gives (original 1-based page number, is_evidence) for each page of the file,
        in order (Beyond Recall's PDF_PREPROCESSING.json); its length must equal the page count.
        Without it, original_page = index + 1 and is_evidence = None. The map is applied to the
        cached rendering, so it never changes the cache key.
        """
        from media_cache.pdf import DEFAULT_DPI, build_pdf_pages, check_page_map

        dpi = int(dpi if dpi is not None else DEFAULT_DPI)
        if not 1 <= dpi <= 1200:
            raise MediaError(f"dpi must be between 1 and 1200, got {dpi}")
        source = Path(path)
        sha = self.sha256(source)
        entry = self.store.get_or_create("pdf_pages", sha, {"dpi": dpi},
                                         lambda tmp: build_pdf_pages(source, tmp, dpi), source)
        d = entry.data
        mapped = check_page_map(source, page_map, d["page_count"])
        pages = tuple(
            PdfPage(i, orig, ev, entry.path / p["file"], p["text"], p["width"], p["height"],
                    p.get("dpi", dpi))
            for i, (p, (orig, ev)) in enumerate(zip(d["pages"], mapped)))
        return PdfPages(source, sha, dpi, pages, entry.from_cache)

    # ---- video --------------------------------------------------------------------------------

    def video_frames(self, path: PathLike, *, num_frames: int | None = None,
                     fps: float | None = None, backend: str = "pyav") -> VideoFrames:
        """Sampled RGB frames (PNG) with their frame numbers and times; exactly one of
        `num_frames` (uniform, see media_cache.video) and `fps` (a frame every 1/fps s)."""
        from media_cache.video import BACKENDS, build_video_frames

        if (num_frames is None) == (fps is None):
            raise MediaError("give exactly one of num_frames and fps")
        if num_frames is not None:
            if isinstance(num_frames, bool) or int(num_frames) != num_frames or num_frames < 1:
                raise MediaError(f"num_frames must be a positive integer, got {num_frames!r}")
            params = {"num_frames": int(num_frames), "backend": backend}
        else:
            if not float(fps) > 0:
                raise MediaError(f"fps must be positive, got {fps!r}")
            params = {"fps": float(fps), "backend": backend}
        if backend not in BACKENDS:
            raise MediaError(f"unknown video backend {backend!r} (choose from {', '.join(BACKENDS)})")
        source = Path(path)
        entry = self.store.get_or_create_from_source(
            "video_frames", source, params,
            lambda tmp: build_video_frames(source, tmp, num_frames=params.get("num_frames"),
                                           fps=params.get("fps"), backend=backend))
        sha = self.sha256(source)
        d = entry.data
        frames = tuple(Frame(f["index"], f["time"], entry.path / f["file"]) for f in d["frames"])
        return VideoFrames(source, sha, frames, d["duration"], d["has_audio"], d["frame_count"],
                           d["avg_fps"], d["width"], d["height"], d["sampling"], d["backend"],
                           entry.from_cache)

    def audio(self, path: PathLike) -> AudioTrack:
        """The first audio track as 16 kHz mono float32 WAV. No audio stream gives
        has_audio=False (not an error); a file that does not decode is a MediaError."""
        from media_cache.audio import build_audio

        source = Path(path)
        entry = self.store.get_or_create_from_source("audio", source, {},
                                                     lambda tmp: build_audio(source, tmp))
        sha = self.sha256(source)
        d = entry.data
        wav = entry.path / d["file"] if d["file"] else None
        return AudioTrack(source, sha, d["has_audio"], wav, d["duration"], d["sample_rate"],
                          entry.from_cache)

    def transcript(self, path: PathLike, *, model: PathLike, language: str | None = None,
                   task: str = "transcribe", max_new_tokens: int | None = None,
                   batch_size: int = 8, device: str | None = None) -> Transcript:
        """Speech recognition of the video's first audio track with a local transformers model
        (`model`: a folder, or a Hub id fetched by name: media_cache.hub). Cached by the video's
        content, the model's files and the settings: a hit neither extracts audio nor loads the
        model. A video without audio gives has_audio=False and empty text (no model is run)."""
        from media_cache import asr
        from media_cache.audio import read_wav_float32

        if task not in ("transcribe", "translate"):
            raise MediaError(f"ASR task must be transcribe or translate, got {task!r}")
        if max_new_tokens is not None and int(max_new_tokens) < 1:
            raise MediaError(f"ASR max_new_tokens must be at least 1, got {max_new_tokens!r}")
        if batch_size < 1:
            raise MediaError(f"ASR batch_size must be at least 1, got {batch_size}")
        spec = asr.resolve_asr(model, self.sha256)
        source = Path(path)
        sha = self.sha256(source)
        params = {"model": spec.identity, "language": language, "task": task,
                  "chunk_seconds": asr.CHUNK_SECONDS,
                  "max_new_tokens": int(max_new_tokens) if max_new_tokens else None}

        def build(tmp: Path) -> dict:
            track = self.audio(source)
            if not track.has_audio:
                return {"has_audio": False, "segments": [], "text": ""}
            samples, rate = read_wav_float32(track.wav_path)
            loaded = asr.load_asr(spec, device)
            before = loaded.generate_calls
            segments = asr.transcribe(loaded, samples, rate, language=language, task=task,
                                      max_new_tokens=max_new_tokens, batch_size=batch_size)
            self.stats["asr_generate_calls"] += loaded.generate_calls - before
            return {"has_audio": True, "segments": segments, "text": asr.transcript_text(segments)}

        entry = self.store.get_or_create("asr", sha, params, build, source)
        d = entry.data
        segments = tuple(Segment(s["start"], s["end"], s["text"]) for s in d["segments"])
        return Transcript(source, sha, d["has_audio"], d["text"], segments, spec.label,
                          entry.from_cache)

    # ---- CLIP ---------------------------------------------------------------------------------

    def clip_caption(self, path: PathLike, *, model: str | None = None,
                     pretrained: PathLike | None = None,
                     vocabulary: PathLike | None = None, top_k: int = 3,
                     device: str | None = None) -> Caption:
        """Zero-shot caption and embedding of one image (an original, a frame or a page PNG)."""
        return self.clip_captions([path], model=model, pretrained=pretrained,
                                  vocabulary=vocabulary, top_k=top_k, device=device)[0]

    def clip_captions(self, paths: Iterable[PathLike], *, model: str | None = None,
                      pretrained: PathLike | None = None,
                      vocabulary: PathLike | None = None, top_k: int = 3,
                      batch_size: int = 32, device: str | None = None,
                      template: str | None = None, progress=None) -> list[Caption]:
        """Captions for many images; uncached images are encoded `batch_size` at a time.

        The model is loaded only when something is missing from the cache. `progress`, if
        given, is called with the number of images finished after each batch.
        """
        import numpy as np

        from media_cache import clip
        from media_cache.delivery import to_8bit
        from media_cache.image import open_image

        paths = [Path(p) for p in paths]
        model = model or clip.DEFAULT_MODEL
        template = template or clip.DEFAULT_TEMPLATE
        if "{}" not in template:
            raise MediaError(f"CLIP prompt template must contain '{{}}', got {template!r}")
        if batch_size < 1:
            raise MediaError(f"batch_size must be at least 1, got {batch_size}")
        spec = clip.resolve_clip(model, pretrained, lambda p: self.sha256(p))
        vocab = clip.load_vocabulary(vocabulary)
        loaded = None

        def get_model():
            nonlocal loaded
            if loaded is None:
                fresh = (spec.identity_key, device or clip.default_device()) not in clip._models
                loaded = clip.load_clip(spec, device)
                if fresh:
                    self.stats["clip_model_loads"] += 1
            return loaded

        def build_text(tmp: Path) -> dict:
            m = get_model()
            before = m.forward_calls
            emb = clip.encode_texts(m, [template.format(label) for label in vocab.labels])
            self.stats["clip_forward_calls"] += m.forward_calls - before
            np.save(tmp / "text.npy", emb)
            return {"file": "text.npy", "labels": list(vocab.labels),
                    "logit_scale": clip.logit_scale(m)}

        text_entry = self.store.get_or_create(
            "clip_text", vocab.sha256, {"model": spec.identity, "template": template}, build_text)
        labels = text_entry.data["labels"]
        scale = float(text_entry.data["logit_scale"])
        text_emb = clip.text_array(text_entry.path / text_entry.data["file"])

        params = {"model": spec.identity}
        shas = [self.sha256(p) for p in paths]
        entries: dict[str, object] = {}
        missing: dict[str, Path] = {}
        for p, sha in zip(paths, shas):
            if sha in entries or sha in missing:
                continue
            hit = self.store.lookup("clip_image", sha, params)
            if hit is not None:
                entries[sha] = hit
                self.stats["clip_image:hit"] += 1
            else:
                missing[sha] = p
        done = len(paths) - len(missing)
        if progress and done:
            progress(done)
        todo = list(missing.items())
        for start in range(0, len(todo), batch_size):
            chunk = todo[start:start + batch_size]
            images = []
            for sha, p in chunk:
                im = open_image(p)
                images.append(to_8bit(im).convert("RGB"))
                im.close()
            m = get_model()
            before = m.forward_calls
            emb = clip.encode_images(m, images)
            self.stats["clip_forward_calls"] += m.forward_calls - before
            for (sha, p), row in zip(chunk, emb):
                def build(tmp: Path, row=row) -> dict:
                    np.save(tmp / "embedding.npy", row)
                    return {"file": "embedding.npy", "dim": int(row.shape[0])}
                entries[sha] = self.store.get_or_create("clip_image", sha, params, build, p)
            if progress:
                progress(len(chunk))

        out = []
        for p, sha in zip(paths, shas):
            entry = entries[sha]
            emb_path = entry.path / entry.data["file"]
            text, top = clip.caption_from(np.load(emb_path), text_emb, labels, scale, top_k)
            out.append(Caption(p, sha, text, top, emb_path, spec.label,
                               entry.from_cache and sha not in missing))
        return out
