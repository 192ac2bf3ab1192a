"""Delivery of cached images to models: decoded pixels for local models, encoded bytes for servers.

Both are memoised in the process, keyed by the file's identity (real path, size, mtime_ns, inode, ctime_ns)
plus the settings, so the questions of one run share the work: a page or frame is decoded (or
encoded for a server) once per run, however many questions show it.

``load_rgb(path) -> PIL.Image``
    The image's pixels in RGB (alpha dropped, EXIF orientation as stored). Returned images are
    shared between callers: treat them as read-only (``.copy()`` before drawing on one).
    Memoised up to ``PIXEL_MEMO_BYTES`` of decoded pixels (least recently used out first).

``encode_image(path, image_format="png", quality=None, max_side=None) -> (bytes, mime)``
    What an API backend sends (see ``ImageEncoding``):
      png   lossless, the default. A PNG or JPEG file within ``max_side`` goes byte for byte,
            except a PNG stored without compression (br-eval's own video frames, written for
            speed), which is compressed losslessly first (Paeth, zlib level 1): the model sees
            the same pixels. Other formats, and resized images, become PNG.
      jpeg  every image re-encoded as JPEG at ``quality`` (default 90), alpha flattened on white.
      webp  every image re-encoded as lossy WebP at ``quality`` (default 90).
    ``max_side``: images whose longer side exceeds it are scaled down (Lanczos) to fit.
    Memoised up to ``ENCODED_MEMO_BYTES`` of encoded bytes.

Images over Pillow's decompression-bomb threshold are refused with one MediaError line (and
Pillow's multi-line warning is not printed; see ``quiet_open``).
"""

from __future__ import annotations

import io
import os
import re
import struct
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from media_cache.errors import MediaError

PIXEL_MEMO_BYTES = 1 << 30        # decoded pixels kept in the process (1 GiB)
ENCODED_MEMO_BYTES = 256 << 20    # encoded request bytes kept in the process
IMAGE_FORMATS = ("png", "jpeg", "webp")
DEFAULT_QUALITY = 90
# Beyond this many pixels an image is refused: Pillow's own decompression-bomb threshold (it
# warns above it and fails above twice it); a 12000x12000 image is 144 Mpx.
MAX_IMAGE_PIXELS = 89_478_485

_MIME = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp"}


class _Memo:
    """A thread-safe LRU map with a capacity in bytes."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.items: OrderedDict = OrderedDict()
        self.size = 0
        self.hits = 0
        self.misses = 0
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            item = self.items.get(key)
            if item is None:
                self.misses += 1
                return None
            self.items.move_to_end(key)
            self.hits += 1
            return item[0]

    def put(self, key, value, nbytes: int) -> None:
        with self.lock:
            if nbytes > self.capacity:
                return
            old = self.items.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self.items[key] = (value, nbytes)
            self.size += nbytes
            while self.size > self.capacity and self.items:
                _, (_, n) = self.items.popitem(last=False)
                self.size -= n

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.size = self.hits = self.misses = 0


pixel_memo = _Memo(PIXEL_MEMO_BYTES)
encoded_memo = _Memo(ENCODED_MEMO_BYTES)


def _identity(path) -> tuple:
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        raise MediaError(f"{path}: no such file") from None
    except OSError as exc:
        raise MediaError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return (real, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def to_8bit(im):
    """16/32-bit integer and float greyscale scaled to 8 bits (Pillow's convert clamps them,
    which turns a 16-bit image almost white): I;16 by its range (value >> 8), I the same when
    its values fit 0..65535, F by 255 when they fit 0..1; anything else by its own min..max."""
    import numpy as np
    from PIL import Image

    if not (im.mode.startswith("I;16") or im.mode in ("I", "F")):
        return im
    a = np.asarray(im)
    lo, hi = (np.nanmin(a), np.nanmax(a)) if a.size else (0, 0)
    if im.mode != "F" and lo >= 0 and hi <= 65535:
        out = (a.astype(np.uint32) >> 8).astype(np.uint8)
    else:
        a = a.astype(np.float64)
        if im.mode == "F" and lo >= 0 and hi <= 1:
            lo, hi = 0.0, 1.0
        scale = 255.0 / (hi - lo) if hi > lo else 0.0
        out = np.nan_to_num((a - lo) * scale + 0.5, nan=0.0).clip(0, 255).astype(np.uint8)
    return Image.fromarray(out, mode="L")


def quiet_open(path):
    """`PIL.Image.open` + `load()`; every failure is one MediaError line naming the file.

    An image over MAX_IMAGE_PIXELS (Pillow's own decompression-bomb threshold) is refused with
    br-eval's one line, instead of Pillow's multi-line DecompressionBombWarning on stderr (or,
    above twice the threshold, its error).
    """
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(path)
            im.load()
            return im
    except FileNotFoundError:
        raise MediaError(f"{path}: no such file") from None
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        found = re.search(r"\((\d+) pixels\)", str(exc))
        size = f"{int(found.group(1)):,} pixels" if found else "too many pixels"
        raise MediaError(f"{path}: image has {size}, over the limit of {MAX_IMAGE_PIXELS:,} "
                         "(a decompression bomb?); skipped") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise MediaError(f"{path}: cannot decode image ({' '.join(str(exc).split())[:200]})") from None


def load_rgb(path):
    """The image's RGB pixels, decoded once per run (see the module docstring)."""
    key = _identity(path)
    im = pixel_memo.get(key)
    if im is not None:
        return im

    raw = quiet_open(path)
    try:
        im = raw if raw.mode == "RGB" else to_8bit(raw).convert("RGB")
    finally:
        if im is not raw:
            raw.close()
    pixel_memo.put(key, im, im.width * im.height * 3)
    return im


# ---- encoding for servers ---------------------------------------------------------------------

@dataclass(frozen=True)
class ImageEncoding:
    """How an API backend encodes images (recorded in results and in the response-cache key)."""

    image_format: str = "png"
    image_quality: int | None = None      # jpeg/webp only; None means DEFAULT_QUALITY
    max_image_side: int | None = None     # None: images keep their size

    def __post_init__(self) -> None:
        fmt = str(self.image_format).lower()
        if fmt == "jpg":
            fmt = "jpeg"
        if fmt not in IMAGE_FORMATS:
            raise MediaError(f"image_format must be one of {', '.join(IMAGE_FORMATS)}, got {self.image_format!r}")
        object.__setattr__(self, "image_format", fmt)
        q = self.image_quality
        if q is not None:
            if isinstance(q, bool) or not isinstance(q, (int, float)) or int(q) != q or not 1 <= q <= 100:
                raise MediaError(f"image_quality must be an integer from 1 to 100, got {q!r}")
            if fmt == "png":
                raise MediaError("image_quality applies to image_format=jpeg or webp, not png (lossless)")
            object.__setattr__(self, "image_quality", int(q))
        s = self.max_image_side
        if s is not None:
            if isinstance(s, bool) or not isinstance(s, (int, float)) or int(s) != s or s < 16:
                raise MediaError(f"max_image_side must be an integer of at least 16, got {s!r}")
            object.__setattr__(self, "max_image_side", int(s))

    @property
    def quality(self) -> int | None:
        if self.image_format == "png":
            return None
        return self.image_quality if self.image_quality is not None else DEFAULT_QUALITY

    def describe(self) -> dict:
        """What a model sees: the format, the quality (lossy formats) and the size cap."""
        return {"image_format": self.image_format, "image_quality": self.quality,
                "max_image_side": self.max_image_side,
                "lossless": self.image_format == "png"}


def _png_size_and_stored(data: bytes) -> tuple[int, int, bool] | None:
    """(width, height, stored-without-compression) of a PNG, or None if it is not one.

    "Stored" means the first deflate block of the image data is a stored (BTYPE 00) block, as
    zlib level 0 writes; a compressed PNG starts with a Huffman block.
    """
    if len(data) < 33 or not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    pos, stored = 8, False
    while pos + 8 <= len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            body = data[pos + 8:pos + 8 + min(length, 3)]
            stored = len(body) == 3 and (body[2] >> 1) & 3 == 0
            break
        pos += 12 + length
    return width, height, stored


def _jpeg_or_png(head: bytes) -> str | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    return None


def encode_image(path, image_format: str = "png", quality: int | None = None,
                 max_side: int | None = None, *, encoding: ImageEncoding | None = None) -> tuple[bytes, str]:
    """(bytes, MIME type) to send for one image file (see the module docstring)."""
    enc = encoding or ImageEncoding(image_format, quality, max_side)
    key = (_identity(path), enc)
    hit = encoded_memo.get(key)
    if hit is not None:
        return hit
    data, mime = _encode(Path(path), enc)
    encoded_memo.put(key, (data, mime), len(data))
    return data, mime


def _encode(path: Path, enc: ImageEncoding) -> tuple[bytes, str]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise MediaError(f"{path}: no such file") from None
    except OSError as exc:
        raise MediaError(f"{path}: cannot read ({exc.strerror or exc})") from None
    kind = _jpeg_or_png(data[:32])
    if enc.image_format == "png" and kind is not None:
        if kind == "png":
            info = _png_size_and_stored(data)
            fits = info is not None and (enc.max_image_side is None or max(info[:2]) <= enc.max_image_side)
            if fits and not info[2]:
                return data, _MIME["png"]
        else:
            im = quiet_open(io.BytesIO(data))
            fits = enc.max_image_side is None or max(im.size) <= enc.max_image_side
            im.close()
            if fits:
                return data, _MIME["jpeg"]
    im = quiet_open(io.BytesIO(data)) if data else quiet_open(path)
    try:
        im = _fit(im, enc.max_image_side)
        out = io.BytesIO()
        if enc.image_format == "png":
            if im.mode == "RGB":
                return _png_rgb(im), _MIME["png"]
            if im.mode not in ("RGBA", "L", "LA", "P"):
                im = im.convert("RGBA" if "A" in im.getbands() else "RGB")
            im.save(out, format="PNG", compress_level=6)
        elif enc.image_format == "jpeg":
            im = _flatten(im)
            im.save(out, format="JPEG", quality=enc.quality)
        else:
            if im.mode not in ("RGB", "RGBA"):
                im = im.convert("RGBA" if "A" in im.getbands() else "RGB")
            im.save(out, format="WEBP", quality=enc.quality, method=4)
    except (OSError, ValueError) as exc:
        raise MediaError(f"{path}: cannot encode as {enc.image_format} ({exc})") from None
    return out.getvalue(), _MIME[enc.image_format]


def _png_rgb(im) -> bytes:
    """An RGB image as PNG with FFmpeg's encoder (Paeth, zlib level 1): about twice as fast as
    Pillow's, about as small (the form frames were stored in before they were stored raw)."""
    from fractions import Fraction

    import av
    import numpy as np

    ctx = av.CodecContext.create("png", "w")
    ctx.width, ctx.height, ctx.pix_fmt = im.width, im.height, "rgb24"
    ctx.time_base = Fraction(1, 1)
    ctx.options = {"pred": "paeth", "compression_level": "1"}
    frame = av.VideoFrame.from_ndarray(np.asarray(im), format="rgb24")
    frame.pts = 0
    packets = list(ctx.encode(frame)) + list(ctx.encode(None))
    return b"".join(bytes(p) for p in packets)


def _fit(im, max_side: int | None):
    if max_side is None or max(im.size) <= max_side:
        return im
    from PIL import Image

    scale = max_side / max(im.size)
    size = (max(1, round(im.width * scale)), max(1, round(im.height * scale)))
    if im.mode not in ("RGB", "RGBA", "L", "LA"):
        im = im.convert("RGBA" if "A" in im.getbands() or "transparency" in im.info else "RGB")
    return im.resize(size, Image.LANCZOS)


def _flatten(im):
    from PIL import Image

    if im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        bg = Image.new("RGB", rgba.size, (255, 255, 255))
        bg.paste(rgba, mask=rgba.getchannel("A"))
        return bg
    return im if im.mode in ("RGB", "L") else im.convert("RGB")

