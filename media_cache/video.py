"""Video frames: which frames to take (the same for every backend) and how to decode them.

Frame numbering
    Frames are numbered 0..N-1 in presentation order. N and every frame's time come from one
    demux pass with PyAV (packets only, nothing decoded): the video stream's packets, minus
    empty and discard-flagged ones, sorted by presentation timestamp. Frame i's time is
    (pts_i - pts_0) * time_base seconds. Both backends decode frames by these numbers.

Uniform sampling (`num_frames=k`)
    index_i = floor((2i + 1) * N / (2k)) for i = 0..k-1: the middle frame of each of k equal
    segments (integer arithmetic, so no float rounding can differ between machines). When
    k > N the repeated indices collapse and every frame is returned once.

Rate sampling (`fps=f`)
    For t_j = j / f (j = 0, 1, ... while t_j < end, end = last frame's time + 1 / average
    frame rate, when the last frame stops showing), the frame on screen at t_j: the last frame
    whose time is <= t_j. Repeats (f above the video's own rate) collapse.

Decoding (PyAV, the default)
    A stream: packets are demuxed and decoded in order and only the chosen frames are converted
    to RGB and written out, so memory holds a few frames, never the video. For sparse targets
    it seeks to the keyframe at or before a target whenever that keyframe lies ahead of what
    has been decoded (what decord does too), and falls back to a plain decode from the start
    if a seek lands anywhere unexpected. Frames are matched by presentation timestamp.

decord
    `VideoReader.get_batch` on the same indices, in chunks of 16. decord numbers frames the
    same way; if its frame count differs from PyAV's the file is refused rather than mislabelled.

Both convert to RGB24 with libswscale, honouring the stream's colour tags; on the test videos
the two backends agree pixel for pixel (tests/test_media_video.py checks it).

Rotation
    Frames are stored upright: a display matrix (phones film portrait video as landscape frames
    plus a 90 degree matrix) is applied in quarter turns, and the recorded width and height are
    the displayed ones. PyAV reads it from each frame; decord turns the frames itself (and PyAV's
    first frame tells what to expect). Mirroring in a matrix is not applied.
"""

from __future__ import annotations

import bisect
import math
import os
import struct
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Callable

from media_cache.errors import MediaError

DEFAULT_NUM_FRAMES = 8
# A sampling that picks more frames than this is refused (naming the file): frames are stored
# uncompressed, 2.6 MiB each at 720p.
MAX_FRAMES = 1024
BACKENDS = ("pyav", "decord")
_DECORD_CHUNK = 16


@dataclass(frozen=True)
class VideoProbe:
    frame_count: int
    pts: tuple[int, ...]            # presentation timestamps, sorted (index = frame number)
    keyframe: tuple[bool, ...]
    times: tuple[float, ...]        # seconds since the first frame
    timed: bool                     # False when the stream has no timestamps (numbered by order)
    duration: float
    avg_fps: float
    width: int
    height: int
    has_audio: bool
    from_index: bool = False        # read from the container's index (see probe_video)


def _av_errors():
    import av

    # Every PyAV error derives from FFmpegError; plain OSError (disk full while writing a frame)
    # is deliberately not caught, so it is not misreported as a damaged video.
    return (av.FFmpegError, ValueError, UnicodeDecodeError, RuntimeError)


def open_container(source: Path):
    """The file opened for reading with PyAV, after its MP4 sample-table claims are checked
    (media_cache.mp4: libavformat indexes every claimed sample while it opens a file)."""
    import av

    from media_cache.mp4 import check_claims

    if not Path(source).is_file():
        raise MediaError(f"{source}: no such file")
    check_claims(Path(source))
    try:
        return av.open(str(source), mode="r")
    except (*_av_errors(), OSError) as exc:
        raise MediaError(f"{source}: cannot open media ({exc})") from None


# Packets read to check that a stream's timestamps need no reordering before its index is used.
_INDEX_CHECK_PACKETS = 48


def probe_video(source: Path, *, use_index: bool = True) -> VideoProbe:
    """Frame count, timestamps and keyframes of the first video stream (see "Frame numbering").

    The definition is the demux pass. MP4/MOV files carry that packet list in their header
    (the sample tables, which libavformat keeps as the stream's index), so for them the list
    is read from the index instead of demuxing the whole file, when the index provably equals
    the packets: one entry per sample, and the stream has no composition offsets (presentation
    time = decode time, checked on the first packets; decoding then checks every frame it
    produces, see _decode_seeking, and any disagreement redoes the probe the long way).
    `use_index=False` always demuxes.
    """
    probe, container = _probe(source, use_index)
    container.close()
    return probe


def _probe(source: Path, use_index: bool = True):
    """probe_video, returning the open container too (the caller closes it)."""
    container = open_container(source)
    try:
        if not container.streams.video:
            raise MediaError(f"{source}: no video stream")
        stream = container.streams.video[0]
        has_audio = bool(container.streams.audio)
        entries = _index_entries(container, stream) if use_index else None
        from_index = entries is not None
        if entries is None:
            if use_index:     # the check above has read packets: start again from the top
                container.close()
                container = open_container(source)
                stream = container.streams.video[0]
            entries = _packet_entries(source, container, stream)
        if not entries:
            raise MediaError(f"{source}: video stream has no frames")
        rate = stream.average_rate or stream.guessed_rate
        timed = all(ts is not None for ts, _ in entries)
        if timed:
            entries.sort(key=lambda e: e[0])
            tb = stream.time_base or Fraction(1, 1)
            first, num, den = entries[0][0], tb.numerator, tb.denominator
            # int / int is correctly rounded: the same floats as float(Fraction), much faster
            times = tuple((ts - first) * num / den for ts, _ in entries)
            pts = tuple(ts for ts, _ in entries)
        else:   # e.g. raw elementary streams: number frames by decode order at the nominal rate
            step = 1.0 / float(rate) if rate else 0.0
            times = tuple(i * step for i in range(len(entries)))
            pts = tuple(range(len(entries)))
        if container.duration is not None and container.duration > 0:
            duration = container.duration / 1_000_000
        else:
            duration = times[-1] + (1.0 / float(rate) if rate else 0.0)
        avg_fps = float(rate) if rate else (len(entries) / duration if duration else 0.0)
        ctx = stream.codec_context
        return VideoProbe(len(entries), pts, tuple(k for _, k in entries), times, timed,
                          float(duration), avg_fps, int(ctx.width or 0), int(ctx.height or 0),
                          has_audio, from_index), container
    except BaseException:
        container.close()
        raise


def _packet_entries(source, container, stream) -> list[tuple[int | None, bool]]:
    """(pts, keyframe) of every non-empty, non-discarded packet, in demux order; at most
    MAX_SAMPLES of them (media_cache.mp4), else the file is refused."""
    from media_cache.mp4 import MAX_SAMPLES

    entries: list[tuple[int | None, bool]] = []
    discard_all = _discard_all()
    if discard_all is not None:       # skip the other streams' packets instead of reading them
        for other in container.streams:
            if other.index != stream.index:
                other.discard = discard_all
    try:
        for packet in container.demux(stream):
            if packet.size == 0 or packet.is_discard:
                continue
            ts = packet.pts if packet.pts is not None else packet.dts
            entries.append((ts, bool(packet.is_keyframe)))
            if len(entries) > MAX_SAMPLES:
                raise MediaError(f"{source}: the video stream has more than {MAX_SAMPLES:,} frames, "
                                 "over br-eval's limit per file")
    except _av_errors() as exc:
        raise MediaError(f"{source}: cannot read video packets ({exc})") from None
    return entries


def _discard_all():
    try:
        from av.stream import Discard      # PyAV >= 15
    except ImportError:
        return None
    return getattr(Discard, "all", None)


def _index_entries(container, stream) -> list[tuple[int, bool]] | None:
    """The packet list from an MP4/MOV index, or None when it cannot be shown to equal it."""
    if "mov" not in (container.format.name or "").split(","):
        return None
    index = getattr(stream, "index_entries", None)     # PyAV >= 15
    try:
        n = len(index) if index is not None else 0
        if n == 0 or n != int(stream.frames or 0):
            return None
        entries = [(e.timestamp, bool(e.is_keyframe)) for e in index
                   if e.size > 0 and not e.is_discard]
        if not entries:
            return None
        # Presentation time must equal decode time (no B-frame reordering, no offset): the first
        # packets demuxed must carry exactly the index's timestamps, in the same order.
        checked = 0
        for packet in container.demux(stream):
            if packet.size == 0 or packet.is_discard:
                continue
            if packet.pts is None or packet.pts != packet.dts or checked >= len(entries) \
                    or packet.pts != entries[checked][0]:
                return None
            checked += 1
            if checked >= _INDEX_CHECK_PACKETS:
                break
        if checked == 0 or any(b[0] <= a[0] for a, b in zip(entries, entries[1:])):
            return None
        return entries
    except (*_av_errors(), AttributeError, TypeError):
        return None


def uniform_indices(frame_count: int, num_frames: int) -> list[int]:
    """Middle frame of each of `num_frames` equal segments (see the module docstring)."""
    if num_frames < 1:
        raise MediaError(f"num_frames must be at least 1, got {num_frames}")
    return sorted({(2 * i + 1) * frame_count // (2 * num_frames) for i in range(num_frames)})


def rate_indices(times: tuple[float, ...] | list[float], fps: float,
                 end: float | None = None) -> list[int]:
    """The frame on screen at every 1/fps seconds until `end` (see the module docstring).

    `end` defaults to the last frame's time plus the last frame interval. Computed per frame,
    not by stepping through the sample times: frame i is chosen when some sample time j/fps
    falls in [times[i], times[i+1]), so a gap of 1e9 s between two frames costs nothing.
    """
    if not fps > 0:
        raise MediaError(f"fps must be positive, got {fps}")
    if not times:
        return []
    if end is None:
        end = times[-1] + (times[-1] - times[-2] if len(times) > 1 else 0.0)
    out: list[int] = []
    eps = 1e-9
    n = len(times)
    for i in range(n):
        # Last of equal times wins (the frame on screen); skip the others.
        if i + 1 < n and times[i + 1] <= times[i]:
            continue
        j = max(0, math.ceil((times[i] - eps) * fps))
        while j > 0 and (j - 1) / fps + eps >= times[i]:
            j -= 1
        while j / fps + eps < times[i]:
            j += 1
        t = j / fps
        if j and t >= end - eps:
            break
        if i + 1 < n and not t + eps < times[i + 1]:
            continue
        out.append(i)
    return out


def choose_indices(probe: VideoProbe, num_frames: int | None, fps: float | None,
                   source: Path | None = None) -> tuple[list[int], str]:
    if (num_frames is None) == (fps is None):
        raise MediaError("give exactly one of num_frames and fps")
    if num_frames is not None:
        indices, sampling = uniform_indices(probe.frame_count, int(num_frames)), f"num_frames={int(num_frames)}"
    else:
        end = probe.times[-1] + (1.0 / probe.avg_fps if probe.avg_fps > 0 else 0.0)
        indices, sampling = rate_indices(probe.times, float(fps), end), f"fps={float(fps):g}"
    if len(indices) > MAX_FRAMES:
        raise MediaError(f"{source}: {sampling} picks {len(indices)} frames, over br-eval's "
                         f"limit of {MAX_FRAMES} per video; use fewer frames or a lower fps")
    return indices, sampling


class _SeekMiss(Exception):
    """A seek did not land where the packet index said; decode from the start instead."""


class _IndexMismatch(Exception):
    """Decoded frames disagree with a probe read from the container's index: probe again by
    demuxing every packet (see probe_video)."""


def decode_pyav(source: Path, probe: VideoProbe, indices: list[int],
                emit: Callable[[int, "object"], None], container=None) -> None:
    """Call emit(index, rgb24 av.VideoFrame) for each chosen frame, in index order.

    `container`: the probe's open container, reused for the seeking decode (the caller closes
    it). With a probe read from the index, any frame that disagrees with it raises
    _IndexMismatch (the caller probes again by demuxing)."""
    errors = _av_errors()
    done: set[int] = set()

    def emit_frame(i, frame):
        emit(i, frame.reformat(format="rgb24"), quarter_turns(frame))
        done.add(i)

    try:
        if probe.timed:
            try:
                _decode_seeking(source, probe, indices, emit_frame, done, container)
                return
            except _SeekMiss:
                if probe.from_index:
                    raise _IndexMismatch from None
        elif probe.from_index:
            raise _IndexMismatch
        _decode_sequential(source, probe, [i for i in indices if i not in done], emit_frame)
    except (MediaError, _IndexMismatch):
        raise
    except errors as exc:
        raise MediaError(f"{source}: cannot decode video ({exc})") from None


def quarter_turns(frame) -> int:
    """Counter-clockwise quarter turns (numpy.rot90's k) that show a decoded frame upright."""
    degrees = getattr(frame, "rotation", None)     # FFmpeg's counter-clockwise display rotation
    if degrees is None:   # PyAV < 13: read the matrix itself (av_display_rotation_get, no scaling)
        degrees = 0.0
        for sd in getattr(frame, "side_data", ()):
            if "DISPLAYMATRIX" in str(getattr(sd, "type", "")).upper():
                m = struct.unpack("=9i", bytes(sd)[:36])
                degrees = -math.degrees(math.atan2(m[1], m[0]))
    return round(degrees / 90) % 4


def display_turns(source: Path) -> int:
    """quarter_turns of the first frame PyAV decodes (the display matrix is the stream's)."""
    container = open_container(source)
    try:
        for frame in container.decode(container.streams.video[0]):
            return quarter_turns(frame)
        return 0
    except _av_errors() as exc:
        raise MediaError(f"{source}: cannot decode video ({exc})") from None
    finally:
        container.close()


def _decode_seeking(source, probe, indices, emit_frame, done, container=None) -> None:
    keyframes = [i for i, k in enumerate(probe.keyframe) if k] or [0]
    want = {probe.pts[i]: i for i in indices}
    reused = container is not None    # the probe has read packets from it: always seek first
    container = container or open_container(source)
    check = probe.from_index
    try:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        frames = None
        floor = None          # after a seek, frames before the keyframe are leftovers
        last_pts = None       # latest frame the decoder produced
        expect = 0            # frame number the next decoded frame must have (index probes)
        for t in indices:
            if t in done:
                continue
            target = probe.pts[t]
            k = keyframes[max(bisect.bisect_right(keyframes, t) - 1, 0)]
            key_pts = probe.pts[k]
            if frames is None and k == 0 and not reused:
                frames = container.decode(stream)
            elif frames is None or last_pts is None or key_pts > last_pts:
                container.seek(key_pts, backward=True, any_frame=False, stream=stream)
                frames = container.decode(stream)
                floor, last_pts, expect = key_pts, None, k
            for frame in frames:
                p = frame.pts
                if p is None:
                    raise _SeekMiss
                if floor is not None and p < floor:
                    continue
                if check:     # every frame decoded is the next one of the index, in order
                    if expect >= probe.frame_count or p != probe.pts[expect]:
                        raise _IndexMismatch
                    expect += 1
                last_pts = p
                i = want.get(p)
                if i is not None and i not in done:
                    emit_frame(i, frame)
                if p >= target:
                    break
            if t not in done:
                raise _SeekMiss
    finally:
        if not reused:
            container.close()


def _decode_sequential(source, probe, indices, emit_frame) -> None:
    if not indices:
        return
    remaining = set(indices)
    want = {probe.pts[i]: i for i in indices} if probe.timed else None
    container = open_container(source)
    try:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        for order, frame in enumerate(container.decode(stream)):
            if want is not None and frame.pts is not None:
                i = want.get(frame.pts)
            else:
                i = order if order in remaining else None
            if i is not None and i in remaining:
                emit_frame(i, frame)
                remaining.discard(i)
                if not remaining:
                    break
    finally:
        container.close()
    if remaining:
        missing = min(remaining)
        raise MediaError(f"{source}: frame {missing} (of {probe.frame_count}) was not produced by "
                         "the decoder (damaged or truncated video)")


def decode_decord(source: Path, probe: VideoProbe, indices: list[int],
                  emit: Callable[[int, "object"], None]) -> None:
    """Call emit(index, upright rgb24 ndarray) for each chosen frame, in index order."""
    try:
        import decord
    except ImportError:
        raise MediaError("the decord backend needs the `decord` package (pip install 'br-eval[decord]'); "
                         "or use --backend pyav") from None
    turns = display_turns(source)
    h, w = (probe.width, probe.height) if turns % 2 else (probe.height, probe.width)
    try:
        reader = decord.VideoReader(str(source), ctx=decord.cpu(0))
    except Exception as exc:   # decord raises its own DECORDError and RuntimeError
        raise MediaError(f"{source}: decord cannot open video ({exc})") from None
    try:
        if len(reader) != probe.frame_count:
            raise MediaError(f"{source}: decord counts {len(reader)} frames where PyAV counts "
                             f"{probe.frame_count}; use --backend pyav for this file")
        # decord turns the frames itself, but fails to batch some quarter-turned sizes (it pads
        # their rows): those are read one by one.
        step = 1 if turns % 2 else _DECORD_CHUNK
        for start in range(0, len(indices), step):
            chunk = indices[start:start + step]
            try:
                batch = (reader.get_batch(chunk).asnumpy() if step > 1
                         else reader[chunk[0]].asnumpy()[None])
            except Exception as exc:
                raise MediaError(f"{source}: decord cannot decode frames {chunk[0]}..{chunk[-1]} ({exc})") from None
            for i, rgb in zip(chunk, batch):
                emit(i, _decord_upright(source, rgb, h, w))
            del batch
    finally:
        del reader


def _decord_upright(source, rgb, h: int, w: int):
    """A decord frame as an (h, w, 3) array: rows padded to an alignment are cut back."""
    if rgb.shape == (h, w, 3):
        return rgb
    if rgb.shape[0] == h and rgb.size % h == 0 and rgb.size // h >= w * 3:
        return rgb.reshape(h, -1)[:, :w * 3].reshape(h, w, 3)
    raise MediaError(f"{source}: decord gives {rgb.shape[1]}x{rgb.shape[0]} frames where PyAV "
                     f"shows {w}x{h} (display rotation); use --backend pyav for this file")


class PngWriter:
    """Writes RGB frames as PNG files on background threads while the decoder goes on.

    Stored without compression (filter "none", zlib stored blocks): lossless, about 3 ms to
    write and 3 ms to read back for a 720p frame, where a compressed PNG costs 20 ms to write
    and 16 ms to read; the price is disk, 2.6 MiB per 720p frame. What is sent to a server is
    compressed on the way (media_cache.delivery.encode_image). The work per frame is a copy,
    adler32, crc32 and the write: all release the GIL, so it runs beside a decoder that keeps
    about 1.5 cores busy. At most `2 * workers` frames wait in memory. A failed write raises
    from a later `write` or from `close`, which waits for the last file.
    """

    def __init__(self, out_dir: Path, workers: int | None = None) -> None:
        import threading
        from concurrent.futures import ThreadPoolExecutor

        self.out_dir = out_dir
        workers = workers or max(1, min(2, (os.cpu_count() or 1) - 1))
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="png")
        self.slots = threading.BoundedSemaphore(2 * workers)
        self.pending: list = []
        self.local = threading.local()           # one row buffer per writer thread

    def write(self, name: str, rgb, turns: int = 0) -> None:
        """`rgb`: an rgb24 av.VideoFrame or an (H, W, 3) uint8 array, written turned by `turns`
        counter-clockwise quarter turns."""
        self.slots.acquire()
        try:
            self.pending.append(self.pool.submit(self._write, self.out_dir / name, rgb, turns))
        except BaseException:
            self.slots.release()
            raise
        while self.pending and self.pending[0].done():    # surface a failed write early
            self.pending.pop(0).result()

    def _write(self, path: Path, rgb, turns: int = 0) -> None:
        try:
            rgb = rgb if hasattr(rgb, "shape") else rgb.to_ndarray()
            if turns:
                import numpy as np

                rgb = np.ascontiguousarray(np.rot90(rgb, turns))
            self.local.rows = write_png(path, rgb, getattr(self.local, "rows", None))
        finally:
            self.slots.release()

    def close(self) -> None:
        try:
            for future in self.pending:
                future.result()
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pending = []


def write_png(path: Path, rgb, rows=None):
    """An (H, W, 3) uint8 array as an 8-bit RGB PNG: filter "none", deflate stored blocks.

    The zlib stream is laid out by hand (stored blocks of 65,535 bytes around slices of one
    buffer, then adler32) and written with writev: the pixels are copied once, into the row
    buffer, where zlib.compress(level=0) would copy them again. `rows`: a reusable
    (H, W*3+1) uint8 buffer whose first column is zero; returned (a new one if it had another
    shape), for the next frame.
    """
    import struct
    import zlib

    import numpy as np

    h, w, _ = rgb.shape
    if rows is None or rows.shape != (h, w * 3 + 1):
        rows = np.zeros((h, w * 3 + 1), dtype=np.uint8)      # column 0: filter "none"
    rows[:, 1:] = rgb.reshape(h, w * 3)
    raw = memoryview(rows).cast("B")
    idat = [b"\x78\x01"]                                   # zlib header: deflate, no dictionary
    for start in range(0, len(raw), 65535):
        block = raw[start:start + 65535]
        final = start + len(block) == len(raw)
        idat.append(struct.pack("<BHH", final, len(block), len(block) ^ 0xFFFF))
        idat.append(block)
    idat.append(struct.pack(">I", zlib.adler32(raw)))
    crc = zlib.crc32(b"IDAT")
    for piece in idat:
        crc = zlib.crc32(piece, crc)
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)   # 8-bit RGB
    head = (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
            + struct.pack(">I", sum(len(p) for p in idat)) + b"IDAT")
    tail = struct.pack(">I", crc) + struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        # At most 16 pieces (~1 MiB) per writev: one multi-MiB write at the start of a new file
        # costs ~10x more kernel time on ext4 here (Linux 6.18: 7 ms for a 2.6 MiB frame where
        # 1 MiB writes take 0.7 ms; bench/media.py shows it in the cold-frame figures).
        vec = [head, *idat, tail]
        while vec:                          # writev may also write fewer bytes than asked
            done = os.writev(fd, vec[:16])
            while vec and done >= len(vec[0]):
                done -= len(vec[0])
                vec.pop(0)
            if vec and done:
                vec[0] = memoryview(vec[0])[done:]
    finally:
        os.close(fd)
    return rows


def build_video_frames(source: Path, out_dir: Path, *, num_frames: int | None, fps: float | None,
                       backend: str, probe: VideoProbe | None = None) -> dict:
    """Producer of the `video_frames` operation: frame_NNNNNNN.png for each chosen frame."""
    if backend not in BACKENDS:
        raise MediaError(f"unknown video backend {backend!r} (choose from {', '.join(BACKENDS)})")
    container = None
    if probe is None:
        if backend == "pyav":     # one open container serves the probe and the decode
            probe, container = _probe(source)
        else:
            probe = probe_video(source)
    try:
        return _build_frames(source, out_dir, probe, container, num_frames, fps, backend)
    except _IndexMismatch:
        for item in out_dir.iterdir():
            if item.name.startswith("frame_"):
                item.unlink()
        probe = probe_video(source, use_index=False)
        return _build_frames(source, out_dir, probe, None, num_frames, fps, backend)
    finally:
        if container is not None:
            container.close()


def _build_frames(source, out_dir, probe, container, num_frames, fps, backend) -> dict:
    indices, sampling = choose_indices(probe, num_frames, fps, source)
    written: dict[int, str] = {}
    size = [probe.width, probe.height]        # displayed: swapped by a quarter-turn rotation
    writer = PngWriter(out_dir)

    def emit(i: int, rgb, turns: int = 0) -> None:
        name = f"frame_{i:07d}.png"
        writer.write(name, rgb, turns)
        if not written:
            h, w = rgb.shape[:2] if hasattr(rgb, "shape") else (rgb.height, rgb.width)
            size[:] = (h, w) if turns % 2 else (w, h)
        written[i] = name

    try:
        if backend == "pyav":
            decode_pyav(source, probe, indices, emit, container)
        else:
            decode_decord(source, probe, indices, emit)
    finally:
        writer.close()
    missing = [i for i in indices if i not in written]
    if missing:
        raise MediaError(f"{source}: frame {missing[0]} could not be decoded")
    return {
        "frames": [{"index": i, "time": probe.times[i], "file": written[i]} for i in indices],
        "duration": probe.duration, "has_audio": probe.has_audio,
        "frame_count": probe.frame_count, "avg_fps": probe.avg_fps,
        "width": size[0], "height": size[1], "sampling": sampling, "backend": backend,
    }
