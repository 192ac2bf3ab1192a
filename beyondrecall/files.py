"""What a file is by its name, and how big it is in words: said once for the whole project.

`media_kind` is the one reading of a media file's kind from its extension (case-insensitive):
the checksum verifier, the card's media counts, `br-eval prepare`, `br-eval show`, the agents'
`MediaInput.kind` and the generated sample all use it.

`human_bytes` is the one byte-size printer: 1000-based decimal units (B, KB, MB, GB, TB; 1 KB =
1,000 bytes), as the README's sizes, the Hugging Face Hub's file sizes and the benchmarks' MB/s
count, so a printed figure compares directly with those. (Before, `br-eval cache` divided by 1000
under the same labels while `verify` divided by 1000.)

`printable` is the one way a file name from disk or a list is shown: undecodable bytes as `\\xNN`.
"""

from __future__ import annotations

import posixpath

IMAGE_EXTS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff"})
PDF_EXTS = frozenset({".pdf"})
VIDEO_EXTS = frozenset({".mp4", ".mov", ".mkv", ".webm", ".avi", ".m4v"})
MEDIA_KINDS = ("image", "pdf", "video")


def media_kind(path: str) -> str | None:
    """"image", "pdf" or "video" by the file name's extension; None for any other name."""
    ext = posixpath.splitext(str(path).replace("\\", "/"))[1].lower()
    if ext in IMAGE_EXTS:
        return "image"
    if ext in PDF_EXTS:
        return "pdf"
    if ext in VIDEO_EXTS:
        return "video"
    return None


_UNITS = ("B", "KB", "MB", "GB", "TB", "PB")


def human_bytes(n: int | float) -> str:
    """A byte count in words, 1000-based: `512 B`, `1.5 KB`, `20.0 MB`, `3.2 GB`."""
    size = float(n)
    for unit in _UNITS:
        text = f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        # Compare what is printed, so 999.96 KB reads `1.0 MB`, never `1000.0 KB`.
        if abs(float(text.split()[0])) < 1000 or unit == _UNITS[-1]:
            return text
        size /= 1000
    raise AssertionError("unreachable")


def printable(text: str) -> str:
    """Text with undecodable file-name bytes (surrogate escapes) as `\\xNN` and lone
    surrogates as `\\udNNN`: always printable, always valid JSON."""
    if not isinstance(text, str) or text.isascii():
        return text
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")
