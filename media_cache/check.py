"""Does a media file decode? The check behind `br-eval verify --deep`.

The verifier (beyondrecall.checksums) decides which files to check, groups byte-identical copies
and turns the answers into findings; it never opens media itself (beyondrecall may not import
media_cache, so the evaluator's verify command hands it `decode_check`). Opening media is this
package's business, with its bounds: a video is opened through `media_cache.video.open_container`,
so its MP4 header claims are checked first (media_cache.mp4: a 1.6 KB file claiming 20 million
frames is refused before libavformat builds a 1.4 GB index), exactly as `prepare` and a run
open it.

`decode_check(path, kind)` returns facts about the file and raises on any decoding failure:
- image: every pixel decoded (Pillow's decompression-bomb warning silenced: large photos trip it;
  its error, at twice the limit, is a failure);
- pdf: every page loaded (not rendered), encrypted files refused;
- video: the first and the last frame of the first video stream decoded; says whether there is
  an audio track.
"""

from __future__ import annotations

import threading

KINDS = ("image", "pdf", "video")
_pdf_lock = threading.Lock()   # PyMuPDF is not thread-safe; the verifier checks on a thread pool


def decode_check(path: str, kind: str) -> dict:
    """Facts about the decoded file (format and size, page count, codecs and frame times);
    an exception when it does not decode."""
    if kind == "image":
        return _check_image(path)
    if kind == "pdf":
        with _pdf_lock:
            return _check_pdf(path)
    if kind == "video":
        return _check_video(path)
    raise ValueError(f"unknown media kind {kind!r}; known: {', '.join(KINDS)}")


def _check_image(path: str) -> dict:
    import warnings

    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # large photos trip the decompression-bomb warning
        with Image.open(path) as im:
            im.load()  # decodes every pixel
            return {"format": im.format, "width": im.width, "height": im.height}


def _check_pdf(path: str) -> dict:
    import pymupdf

    with pymupdf.open(path) as doc:
        if doc.needs_pass:
            raise ValueError("PDF is encrypted")
        for i in range(doc.page_count):
            doc.load_page(i)
        return {"pages": doc.page_count}


def _check_video(path: str) -> dict:
    from pathlib import Path

    from media_cache.video import open_container

    with open_container(Path(path)) as container:
        if not container.streams.video:
            raise ValueError("no video stream")
        vs = container.streams.video[0]
        first = next(container.decode(vs), None)
        if first is None:
            raise ValueError("video stream has no decodable frame")
        # Seek near the end (to the keyframe before it) and decode to the last frame.
        duration = container.duration  # microseconds (av.time_base)
        if duration and duration > 2_000_000:
            container.seek(int(duration - 1_500_000), backward=True, any_frame=False)
        last = None
        for last in container.decode(vs):
            pass
        if last is None:
            raise ValueError("cannot decode the last frame")
        audio = container.streams.audio
        return {"codec": vs.codec_context.name, "width": vs.width, "height": vs.height,
                "first_frame_time": first.time, "last_frame_time": last.time,
                "audio": bool(audio), "audio_codec": audio[0].codec_context.name if audio else None}


__all__ = ["KINDS", "decode_check"]
