"""MP4/MOV sample-table claims, read before libavformat opens a file.

An MP4 header says how many samples (video frames, audio packets) a track has in a few bytes,
and libavformat builds an index entry for every claimed sample while it opens the file: a 1.6 KB
file claiming 20 million frames took 1.4 GB and a second in `av.open` alone, before br-eval
could look at it. So `check_claims` reads the claims first, from box headers and the sample
tables only (nothing is decoded), and refuses the file, naming it, when:
- a track's samples of a fixed size cannot fit in the file (count x size > file size), or its
  table of sizes (or a fragment's table) is shorter than the count it states;
- the samples libavformat indexes one by one, over all tracks and fragments, number more than
  MAX_SAMPLES (about 9 h of 30 fps video; uncompressed audio is indexed by chunk, so it counts
  its chunks, which are listed in the file, not its samples);
- reading the claims would take more than MAX_HEADER_BYTES of moov/moof boxes or MAX_BOXES
  boxes.
A file that does not start like an ISO media file (Matroska, WebM, AVI, ...) is left to the
demuxer, whose packets are counted as they are read (media_cache.video).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

from media_cache.errors import MediaError

MAX_SAMPLES = 1_000_000                 # samples indexed one by one, per file
MAX_HEADER_BYTES = 64 * 1024 * 1024     # moov + moof boxes read, per file
MAX_BOXES = 1_000_000                   # boxes walked, per file

# Box types an ISO media file (MP4, MOV, 3GP, M4A) starts with.
_FIRST = {b"ftyp", b"moov", b"mdat", b"free", b"skip", b"wide", b"pnot", b"styp", b"sidx", b"uuid"}
_DESCEND = {b"trak", b"mdia", b"minf", b"stbl", b"traf"}
_U32 = struct.Struct(">I")


class _Budget:
    def __init__(self, source: Path) -> None:
        self.source, self.boxes, self.header_bytes = source, 0, 0

    def box(self) -> None:
        self.boxes += 1
        if self.boxes > MAX_BOXES:
            raise MediaError(f"{self.source}: more than {MAX_BOXES:,} MP4 boxes, over br-eval's limit")

    def header(self, n: int) -> None:
        self.header_bytes += n
        if self.header_bytes > MAX_HEADER_BYTES:
            raise MediaError(f"{self.source}: MP4 header boxes over br-eval's limit of "
                             f"{MAX_HEADER_BYTES // (1024 * 1024)} MiB")


def check_claims(source: Path) -> None:
    """Raise MediaError naming `source` when its MP4/MOV header claims more than is allowed."""
    try:
        size = os.path.getsize(source)
        with open(source, "rb") as f:
            head = f.read(8)
            if len(head) < 8 or head[4:8] not in _FIRST:
                return
            budget = _Budget(source)
            total = 0
            for kind, start, end in _file_boxes(f, size, budget):
                if kind not in (b"moov", b"moof"):
                    continue
                budget.header(end - start)
                f.seek(start)
                data = memoryview(f.read(end - start))
                if kind == b"moov":
                    for trak_start, trak_end in _children(data, 0, len(data), b"trak", budget):
                        total += _track_samples(source, data, trak_start, trak_end, size, budget)
                else:
                    total += _fragment_samples(source, data, budget)
                if total > MAX_SAMPLES:
                    raise MediaError(f"{source}: the MP4 header claims {total:,} samples or more, over "
                                     f"br-eval's limit of {MAX_SAMPLES:,} per file")
    except OSError as exc:
        raise MediaError(f"{source}: cannot read ({exc.strerror or exc})") from None


def _file_boxes(f, size: int, budget: _Budget):
    """(type, payload start, payload end) of each top-level box, reading headers only."""
    pos = 0
    while pos + 8 <= size:
        budget.box()
        f.seek(pos)
        head = f.read(16)
        box = _header(head, 0, len(head), size - pos)
        if box is None:
            return
        kind, hdr, length = box
        yield kind, pos + hdr, pos + length
        pos += length


def _header(data, pos: int, end: int, room: int):
    """(type, header length, box length) of the box at `pos`, or None when it is malformed
    (libavformat reports that itself). `room`: bytes left in the parent."""
    if pos + 8 > end:
        return None
    length, kind = _U32.unpack_from(data, pos)[0], bytes(data[pos + 4:pos + 8])
    hdr = 8
    if length == 1:
        if pos + 16 > end:
            return None
        length, hdr = struct.unpack_from(">Q", data, pos + 8)[0], 16
    elif length == 0:
        length = room
    if length < hdr:
        return None
    return kind, hdr, min(length, room)


def _boxes(data, start: int, end: int, budget: _Budget):
    pos = start
    while pos + 8 <= end:
        budget.box()
        box = _header(data, pos, end, end - pos)
        if box is None:
            return
        kind, hdr, length = box
        yield kind, pos + hdr, pos + length
        pos += length


def _children(data, start: int, end: int, wanted: bytes, budget: _Budget):
    for kind, s, e in _boxes(data, start, end, budget):
        if kind == wanted:
            yield s, e


def _tables(data, start: int, end: int, budget: _Budget, out: dict) -> dict:
    """The payload spans of the boxes under a trak/traf, by type (the first of each)."""
    for kind, s, e in _boxes(data, start, end, budget):
        if kind in _DESCEND:
            _tables(data, s, e, budget, out)
        else:
            out.setdefault(kind, (s, e))
    return out


def _u32(data, span, offset: int) -> int | None:
    s, e = span
    return _U32.unpack_from(data, s + offset)[0] if s + offset + 4 <= e else None


def _track_samples(source, data, start: int, end: int, file_size: int, budget: _Budget) -> int:
    """The samples of one moov track that libavformat indexes one by one (checked first)."""
    boxes = _tables(data, start, end, budget, {})
    if b"stsz" in boxes:
        span = boxes[b"stsz"]
        sample_size, count = _u32(data, span, 4), _u32(data, span, 8)
        if sample_size is None or count is None:
            return 0
        if sample_size and count * sample_size > file_size:
            raise MediaError(f"{source}: an MP4 track claims {count:,} samples of {sample_size:,} bytes, "
                             f"more than the file's {file_size:,} bytes hold (damaged or hostile header)")
        if not sample_size and 12 + 4 * count > span[1] - span[0]:
            raise MediaError(f"{source}: an MP4 track claims {count:,} samples but lists the sizes of "
                             f"{max(span[1] - span[0] - 12, 0) // 4:,} (damaged or hostile header)")
    elif b"stz2" in boxes:
        span = boxes[b"stz2"]
        field, count = _u32(data, span, 4), _u32(data, span, 8)
        if field is None or count is None:
            return 0
        if 12 + (count * (field & 0xFF) + 7) // 8 > span[1] - span[0]:
            raise MediaError(f"{source}: an MP4 track claims {count:,} samples but lists fewer sizes "
                             "(damaged or hostile header)")
    else:
        return 0
    # libavformat indexes uncompressed audio (one time-to-sample entry of duration 1) by chunk.
    hdlr, stts = boxes.get(b"hdlr"), boxes.get(b"stts")
    if hdlr is not None and bytes(data[hdlr[0] + 8:hdlr[0] + 12]) == b"soun" and stts is not None \
            and _u32(data, stts, 4) == 1 and _u32(data, stts, 12) == 1:
        chunks = boxes.get(b"stco") or boxes.get(b"co64")
        return (_u32(data, chunks, 4) or 0) if chunks is not None else 0
    return count


# trun flags -> bytes each optional field takes (per run, then per sample)
_TRUN_RUN_FIELDS = ((0x1, 4), (0x4, 4))
_TRUN_SAMPLE_FIELDS = ((0x100, 4), (0x200, 4), (0x400, 4), (0x800, 4))


def _fragment_samples(source, data, budget: _Budget) -> int:
    """The samples of one moof (every trun of every traf)."""
    total = 0
    for traf_start, traf_end in _children(data, 0, len(data), b"traf", budget):
        for kind, s, e in _boxes(data, traf_start, traf_end, budget):
            if kind != b"trun":
                continue
            flags, count = _u32(data, (s, e), 0), _u32(data, (s, e), 4)
            if flags is None or count is None:
                continue
            flags &= 0xFFFFFF
            run = sum(n for bit, n in _TRUN_RUN_FIELDS if flags & bit)
            per_sample = sum(n for bit, n in _TRUN_SAMPLE_FIELDS if flags & bit)
            if 8 + run + count * per_sample > e - s:
                raise MediaError(f"{source}: an MP4 fragment claims {count:,} samples but lists "
                                 "fewer (damaged or hostile header)")
            total += count
    return total
