"""The tiny media a preflight sends: a 64x64 grey PNG and 0.1 s of silent 16 kHz WAV, written
with the standard library (no Pillow/numpy import on the way to the first question). 64 pixels,
because some VLM processors (Qwen2-VL) refuse images smaller than their 28-pixel patch grid."""

from __future__ import annotations

import base64
import io
import struct
import wave
import zlib
from functools import lru_cache


@lru_cache(maxsize=1)
def tiny_png_bytes(size: int = 64) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)          # 8-bit RGB
    rows = b"".join(b"\x00" + b"\x80\x80\x80" * size for _ in range(size))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


def tiny_png_data_url() -> str:
    return "data:image/png;base64," + base64.b64encode(tiny_png_bytes()).decode("ascii")


@lru_cache(maxsize=1)
def tiny_wav_base64(seconds: float = 0.1, rate: int = 16000) -> str:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"\x00\x00" * int(seconds * rate))
    return base64.b64encode(buffer.getvalue()).decode("ascii")
