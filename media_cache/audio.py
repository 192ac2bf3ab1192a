"""Audio tracks: decode the first audio stream to 16 kHz mono float32 and write a WAV file.

The stdlib `wave` module writes integer PCM only, so the WAV header is written here: a
WAVE_FORMAT_IEEE_FLOAT (format tag 3) `fmt ` chunk, the `fact` chunk the format requires, and
the samples as little-endian float32. The file is written as a stream; sizes are patched in at
the end, so a long track never sits in memory.
"""

from __future__ import annotations

import struct
from pathlib import Path

from media_cache.errors import MediaError

SAMPLE_RATE = 16_000
# Longer audio is refused (naming the file), before decoding when the container says how long it
# is and while decoding otherwise: 3 h is a 691 MB WAV. (The WAV header itself stops at 4 GiB.)
MAX_AUDIO_SECONDS = 3 * 3600
_FORMAT_IEEE_FLOAT = 3


def wav_header(n_samples: int, sample_rate: int = SAMPLE_RATE) -> bytes:
    data_bytes = n_samples * 4
    fmt = struct.pack("<HHIIHHH", _FORMAT_IEEE_FLOAT, 1, sample_rate, sample_rate * 4, 4, 32, 0)
    fact = struct.pack("<I", n_samples)
    riff_size = 4 + (8 + len(fmt)) + (8 + len(fact)) + (8 + data_bytes)
    return b"".join([
        b"RIFF", struct.pack("<I", riff_size), b"WAVE",
        b"fmt ", struct.pack("<I", len(fmt)), fmt,
        b"fact", struct.pack("<I", len(fact)), fact,
        b"data", struct.pack("<I", data_bytes),
    ])


def read_wav_float32(path: Path):
    """(samples as a float32 numpy array, sample rate) of a mono float32 WAV written here."""
    import numpy as np

    raw = Path(path).read_bytes()
    if raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        raise MediaError(f"{path}: not a WAV file")
    pos, rate, fmt_tag, channels, data = 12, None, None, None, None
    while pos + 8 <= len(raw):
        cid, size = raw[pos:pos + 4], struct.unpack("<I", raw[pos + 4:pos + 8])[0]
        body = raw[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            fmt_tag, channels, rate = struct.unpack("<HHI", body[:8])
        elif cid == b"data":
            data = body
        pos += 8 + size + (size & 1)
    if fmt_tag != _FORMAT_IEEE_FLOAT or channels != 1 or data is None:
        raise MediaError(f"{path}: not a mono float32 WAV")
    return np.frombuffer(data, dtype="<f4"), rate


def _declared_seconds(container, stream) -> float | None:
    try:
        if stream.duration is not None and stream.time_base:
            return float(stream.duration * stream.time_base)
        if container.duration is not None:
            return container.duration / 1_000_000
    except (TypeError, ValueError, ZeroDivisionError):
        pass
    return None


def _too_long(source: Path, seconds: float | None) -> str:
    said = f"{seconds / 3600:.1f} h" if seconds is not None else "more than that"
    return (f"{source}: audio track is {said}, over br-eval's limit of "
            f"{MAX_AUDIO_SECONDS / 3600:g} h; skipped")


def build_audio(source: Path, out_dir: Path) -> dict:
    """Producer of the `audio` operation: audio.wav, or has_audio=False without an audio stream."""
    import av
    import numpy as np

    from media_cache.video import _av_errors, open_container

    container = open_container(source)
    try:
        if not container.streams.audio:
            # Decoding must still work: a damaged video is an error even without audio.
            if not container.streams.video:
                raise MediaError(f"{source}: no audio or video stream")
            return {"has_audio": False, "file": None, "samples": 0, "sample_rate": SAMPLE_RATE,
                    "duration": 0.0}
        stream = container.streams.audio[0]
        declared = _declared_seconds(container, stream)
        if declared is not None and declared > MAX_AUDIO_SECONDS:
            raise MediaError(_too_long(source, declared))
        limit = MAX_AUDIO_SECONDS * SAMPLE_RATE
        resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        target = out_dir / "audio.wav"
        n = 0
        try:
            with open(target, "wb") as f:
                f.write(wav_header(0))

                def write(frames) -> int:
                    count = 0
                    for out in frames:
                        samples = np.ascontiguousarray(out.to_ndarray().reshape(-1), dtype="<f4")
                        f.write(samples.tobytes())
                        count += samples.size
                    return count

                for frame in container.decode(stream):
                    n += write(resampler.resample(frame))
                    if n > limit:
                        raise MediaError(_too_long(source, None))
                n += write(resampler.resample(None))
                f.seek(0)
                f.write(wav_header(n))
        except _av_errors() as exc:
            raise MediaError(f"{source}: cannot decode audio ({exc})") from None
        return {"has_audio": True, "file": "audio.wav", "samples": n, "sample_rate": SAMPLE_RATE,
                "duration": n / SAMPLE_RATE}
    finally:
        container.close()
