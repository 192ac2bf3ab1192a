"""Images: decode fully once, hand back a PNG/JPEG a model can read."""

from __future__ import annotations

import shutil

from pathlib import Path

from media_cache.errors import MediaError

# Modes every image loader reads without surprises; others (CMYK, 16-bit, float) are converted.
_PLAIN_MODES = {"RGB", "RGBA", "L", "LA", "P"}
_EXIF_ORIENTATION = 0x0112


def open_image(path: Path):
    """Open and fully decode an image with Pillow; MediaError naming the file if it cannot
    (one line, also for an image over the decompression-bomb limit: see media_cache.delivery)."""
    from media_cache.delivery import quiet_open

    return quiet_open(path)


def build_image(source: Path, out_dir: Path) -> dict:
    """Producer of the `image` operation: decode, and write `image.png` when conversion is needed.

    PNG and JPEG files are copied as they are, unless their pixel mode is unusual (CMYK, 16-bit)
    or an EXIF orientation would make a model see them rotated. Everything else (WEBP, GIF:
    its first frame, BMP, TIFF, ...) becomes an 8-bit RGB or RGBA PNG (deeper greyscale scaled:
    to_8bit).
    """
    from PIL import ImageOps

    from media_cache.delivery import to_8bit

    im = open_image(source)
    try:
        source_format = (im.format or "UNKNOWN").upper()
        orientation = 1
        try:
            orientation = int(im.getexif().get(_EXIF_ORIENTATION, 1) or 1)
        except (ValueError, TypeError, OSError, SyntaxError):
            orientation = 1
        usable_as_is = (source_format in ("PNG", "JPEG") and im.mode in _PLAIN_MODES
                        and orientation == 1)
        if usable_as_is:
            # a copy, not the source: an agent handed the benchmark's own file could change it
            # for every later question and run (verify would notice, nothing else)
            name = "image.png" if source_format == "PNG" else "image.jpg"
            shutil.copyfile(source, out_dir / name)
            return {"normalized": False, "file": name, "format": source_format,
                    "source_format": source_format, "width": im.width, "height": im.height,
                    "frames": int(getattr(im, "n_frames", 1))}
        try:
            converted = ImageOps.exif_transpose(im) if orientation != 1 else im
            has_alpha = converted.mode in ("RGBA", "LA", "PA") or (
                converted.mode == "P" and "transparency" in converted.info)
            converted = to_8bit(converted).convert("RGBA" if has_alpha else "RGB")
            converted.save(out_dir / "image.png", format="PNG", compress_level=1)
        except (OSError, ValueError) as exc:
            raise MediaError(f"{source}: cannot convert image ({exc})") from None
        return {"normalized": True, "file": "image.png", "format": "PNG",
                "source_format": source_format, "width": converted.width,
                "height": converted.height, "frames": int(getattr(im, "n_frames", 1))}
    finally:
        im.close()
