"""Untrusted bytes from media, checksum lists, the dataset card and caches (issue 22 items 6, 9,
13 and the read-only cache of 14): each is refused or repaired with one line naming the file,
within a documented bound. (Replies from servers, item 8: tests/test_models_preflight.py.)"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

import pytest

from evaluator.cli import main
from media_cache import MediaCache, MediaError

REPO = Path(__file__).resolve().parents[1]


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_measured(*argv, timeout=120) -> tuple[int, str, str, float, float]:
    """`br-eval ARGV` in a fresh process: (exit code, stdout, stderr, seconds, peak RSS MiB).
    The peak is the process's own (VmHWM, which starts afresh at exec; ru_maxrss would keep the
    forking test process's size on Linux)."""
    script = textwrap.dedent("""
        import resource, sys
        from evaluator.cli import main
        code = main(sys.argv[1:])
        try:
            with open("/proc/self/status") as f:
                peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
        except (OSError, StopIteration):
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"PEAK_RSS_KIB {peak}", file=sys.stderr)
        sys.exit(code)
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1")
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", script, *map(str, argv)], capture_output=True,
                          text=True, env=env, timeout=timeout)
    took = time.monotonic() - started
    err_lines = proc.stderr.splitlines()
    peak = [int(line.split()[1]) for line in err_lines if line.startswith("PEAK_RSS_KIB ")]
    err = "\n".join(line for line in err_lines if not line.startswith("PEAK_RSS_KIB "))
    return proc.returncode, proc.stdout, err, took, (peak[0] / 1024 if peak else float("nan"))


# ---- hostile media files (item 9) -------------------------------------------------------------

_MP4_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"moof", b"traf"}


def mp4_payload(data: bytes, kind: bytes, start: int = 0, end: int | None = None) -> int | None:
    """Offset of the payload of the first `kind` box (depth first), or None."""
    end = len(data) if end is None else end
    pos = start
    while pos + 8 <= end:
        size, typ = struct.unpack_from(">I4s", data, pos)
        if typ == kind:
            return pos + 8
        if typ in _MP4_CONTAINERS:
            found = mp4_payload(data, kind, pos + 8, pos + size)
            if found is not None:
                return found
        pos += size
    return None


def mp4_claiming(path: Path, frames: int, *, fragmented: bool = False) -> Path:
    """A real two-frame H.264 MP4 (PyAV) whose header is patched to claim `frames` frames: in its
    sample tables (every sample 16 bytes), or, fragmented, in its fragment's run (no per-sample
    fields, so the claim costs no bytes)."""
    import av
    import numpy as np

    options = {"movflags": "frag_keyframe+empty_moov"} if fragmented else {}
    with av.open(str(path), "w", format="mp4", options=options) as container:
        stream = container.add_stream("libx264", rate=10)
        stream.width = stream.height = 16
        stream.pix_fmt = "yuv420p"
        stream.options = {"preset": "ultrafast"}
        for i in range(2):
            frame = av.VideoFrame.from_ndarray(np.full((16, 16, 3), 60 * i, np.uint8), format="rgb24")
            frame.pts = i
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    data = bytearray(path.read_bytes())
    if fragmented:
        trun = mp4_payload(data, b"trun")
        struct.pack_into(">II", data, trun, 0x000005, frames)      # data offset, first flags only
    else:
        stts, stsc, stsz = (mp4_payload(data, k) for k in (b"stts", b"stsc", b"stsz"))
        assert struct.unpack_from(">I", data, stts + 4)[0] == 1     # one time-to-sample entry
        struct.pack_into(">I", data, stts + 8, frames)              # ... of `frames` samples
        struct.pack_into(">I", data, stsc + 12, frames)             # all in the first chunk
        struct.pack_into(">II", data, stsz + 4, 16, frames)         # each 16 bytes
    path.write_bytes(bytes(data))
    return path


def pdf_sharing_one_stream(path: Path, inflated_mib: int, pages: int = 40) -> Path:
    """A PDF whose `pages` pages all draw one FlateDecode content stream of `inflated_mib` MiB of
    blanks: about 1 KB per MiB (each MiB a full-flushed deflate block, so the block repeats)."""
    import zlib

    import pymupdf

    mib = b" " * (1 << 20)
    packer = zlib.compressobj(9)
    first = packer.compress(mib) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(mib) + packer.flush(zlib.Z_FULL_FLUSH)
    raw = first + block * (inflated_mib - 1) + packer.flush()
    doc = pymupdf.open()
    for _ in range(pages):
        doc.new_page()
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, raw, compress=False)
    doc.xref_set_key(xref, "Filter", "/FlateDecode")
    for page in doc:
        doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
    doc.save(path)
    doc.close()
    return path


def test_prepare_refuses_an_mp4_claiming_20_million_frames_and_a_pdf_bomb_quickly_in_bounded_memory(
        sample_copy, tmp_path):
    """A 1.6 KB MP4 claiming 20 million frames (libavformat alone took 1.4 GB to open it) and a
    1 MB PDF whose 40 pages share one stream inflating to 1 GiB (minutes of rendering): `prepare`
    names each in a media error, prepares the rest, and stays within seconds and 400 MiB."""
    videos, images = sample_copy / "benchmark" / "videos", sample_copy / "benchmark" / "images"
    mp4_claiming(videos / "clip_parade.mp4", 20_000_000)
    pdf_sharing_one_stream(images / "report_a.pdf", 1024)
    assert (videos / "clip_parade.mp4").stat().st_size < 4000
    assert (images / "report_a.pdf").stat().st_size < 1_200_000
    code, out, err, took, peak = run_measured("prepare", "--data", sample_copy, "--cache-dir",
                                              tmp_path / "cache", "--frames", "2", "--dpi", "30",
                                              "--no-progress")
    assert code == 1 and "Traceback" not in err, err
    assert "clip_parade.mp4: an MP4 track claims 20,000,000 samples of 16 bytes, more than the file's" in err
    assert "report_a.pdf: page 1's content inflates to over 64 MiB, over br-eval's limit per page" in err
    assert " 0 failed" not in out and int(out.split(" prepared")[0].rsplit(" ", 1)[-1]) > 0
    print(f"prepare: {took:.2f} s, peak RSS {peak:.0f} MiB")
    assert took < 20 and peak < 400, (took, peak)



def test_verify_deep_refuses_an_mp4_claiming_20_million_frames_in_bounded_memory(sample_copy):
    """`verify --deep` opens videos through media_cache (media_cache.check), so the MP4 header
    check refuses the file before libavformat indexes 20 million claimed frames (1.4 GB when
    the verifier opened videos with PyAV itself): a `corrupt` finding naming the claim."""
    mp4_claiming(sample_copy / "benchmark" / "videos" / "clip_parade.mp4", 20_000_000)
    code, out, err, took, peak = run_measured("verify", "--data", sample_copy, "--deep",
                                              "--no-progress", "--workers", "1")
    assert code == 1 and "Traceback" not in err, err
    assert ("corrupt benchmark/videos/clip_parade.mp4: does not decode (MediaError: an MP4 track "
            "claims 20,000,000 samples of 16 bytes") in out, out
    print(f"verify --deep: {took:.2f} s, peak RSS {peak:.0f} MiB")
    assert peak < 400, peak

@pytest.mark.parametrize("fragmented", [False, True], ids=["sample-tables", "fragment"])
def test_an_mp4_header_claim_is_checked_before_the_file_is_opened(tmp_path, fragmented):
    clip = mp4_claiming(tmp_path / "claims.mp4", 20_000_000, fragmented=fragmented)
    started = time.monotonic()
    with pytest.raises(MediaError, match=r"claims\.mp4: .*claims 20,000,000 samples"):
        MediaCache(tmp_path / "cache").video_frames(clip, num_frames=8)
    assert time.monotonic() - started < 2


def test_frame_counts_over_the_limit_are_refused_from_the_index_and_while_demuxing(tmp_path, monkeypatch):
    from media_cache import mp4
    from media_cache.synthetic import make_video

    mp4_clip = make_video(tmp_path / "clip.mp4", seconds=1, fps=10, audio=False)
    mkv_clip = make_video(tmp_path / "clip.mkv", seconds=1, fps=10, audio=False)
    monkeypatch.setattr(mp4, "MAX_SAMPLES", 9)
    with pytest.raises(MediaError, match=r"clip\.mp4: the MP4 header claims 10 samples or more, over "
                                         r"br-eval's limit of 9 per file"):
        MediaCache(tmp_path / "cache").video_frames(mp4_clip, num_frames=2)
    with pytest.raises(MediaError, match=r"clip\.mkv: the video stream has more than 9 frames"):
        MediaCache(tmp_path / "cache").video_frames(mkv_clip, num_frames=2)
    monkeypatch.setattr(mp4, "MAX_SAMPLES", 10)
    assert len(MediaCache(tmp_path / "cache").video_frames(mp4_clip, num_frames=2).frames) == 2
    assert len(MediaCache(tmp_path / "cache").video_frames(mkv_clip, num_frames=2).frames) == 2


def test_pdf_pages_sharing_a_stream_count_it_for_each_page(tmp_path):
    """40 pages each drawing one 40 MiB stream: every page is under the page limit, the PDF is
    not; refused before any page is rendered. A stream under both limits renders as before."""
    from media_cache.pdf import MAX_PDF_CONTENT_BYTES

    assert 40 * 40 * 2**20 > MAX_PDF_CONTENT_BYTES
    shared = pdf_sharing_one_stream(tmp_path / "shared.pdf", 40)
    started = time.monotonic()
    with pytest.raises(MediaError, match=r"shared\.pdf: pages 1-7's content inflates to over 256 MiB"):
        MediaCache(tmp_path / "cache").pdf_pages(shared, dpi=30)
    assert time.monotonic() - started < 3
    fine = pdf_sharing_one_stream(tmp_path / "fine.pdf", 2, pages=3)
    assert len(MediaCache(tmp_path / "cache").pdf_pages(fine, dpi=30).pages) == 3


# ---- checksum lists (item 9) ------------------------------------------------------------------

def _peak_mib(fn) -> tuple[object, float]:
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("junk", ["10M-lines", "40MB"])
def test_a_huge_checksum_list_is_refused_unread_in_bounded_memory(sample_copy, capsys, junk):
    sums = sample_copy / "benchmark" / "SHA256SUMS"
    with open(sums, "wb") as f:
        if junk == "10M-lines":
            f.write(b"x\n" * 10_000_000)            # 20 MB: under the byte limit, over the lines'
        else:
            f.write(b"0" * 40_000_000)             # one line, over the byte limit
    started = time.monotonic()
    (code, out, err), peak = _peak_mib(lambda: run_cli(capsys, "verify", "--data", sample_copy))
    assert code == 1 and "Traceback" not in err
    reason = ("more than 200,000 lines, over br-eval's limit for a checksum list; not read"
              if junk == "10M-lines" else "40.0 MB, over br-eval's limit of 33.6 MB for a checksum list; not read")
    assert f"malformed benchmark/SHA256SUMS: {reason}" in out.splitlines()
    assert sum(line.startswith("malformed") for line in out.splitlines()) == 1
    (code, out, err), peak_validate = _peak_mib(lambda: run_cli(capsys, "validate", "--data", sample_copy))
    assert code == 0 and "Traceback" not in err
    assert time.monotonic() - started < 20
    assert peak < 64 and peak_validate < 64, (peak, peak_validate)


def test_malformed_lines_are_listed_up_to_a_bound(sample_copy, capsys):
    sums = sample_copy / "benchmark" / "SHA256SUMS"
    good = sums.read_bytes()
    sums.write_bytes(good + b"not a checksum line\n" * 500)
    code, out, _ = run_cli(capsys, "verify", "--data", sample_copy)
    malformed = [line for line in out.splitlines() if line.startswith("malformed")]
    assert code == 1 and len(malformed) == 21
    assert "malformed benchmark/SHA256SUMS: 480 more malformed lines, not listed one by one" in malformed


# ---- the dataset card's data_files (item 6) ---------------------------------------------------

def _card(snapshot: Path, data_file: str) -> None:
    (snapshot / "README.md").write_text(textwrap.dedent(f"""\
        ---
        configs:
        - config_name: management_conflict_detection
          data_files:
          - split: test
            path: "{data_file}"
        ---
        # Beyond Recall
        """))


def _outside_task_file(tmp_path: Path, snapshot: Path) -> Path:
    """The conflict-detection task file, copied outside the snapshot (a question rewritten)."""
    task = json.loads((snapshot / "benchmark" / "management" / "Conflict Detection.json").read_text())
    records = task if isinstance(task, list) else next(v for v in task.values() if isinstance(v, list))
    records[0]["question"] = "PLANTED QUESTION FROM OUTSIDE THE SNAPSHOT"
    out = tmp_path / "outside" / "x.json"
    out.parent.mkdir()
    out.write_text(json.dumps(task))
    return out


@pytest.mark.parametrize("where", ["dotdot", "absolute", "symlink", "unlisted"])
def test_a_card_naming_a_task_file_outside_the_snapshot_or_unlisted_stops_verify_validate_run(
        sample_copy, tmp_path, capsys, where):
    outside = _outside_task_file(tmp_path, sample_copy)
    if where == "dotdot":
        _card(sample_copy, os.path.relpath(outside, sample_copy))
        why = "path escapes its root; not opened"
    elif where == "absolute":
        _card(sample_copy, str(outside))
        why = "absolute path; not opened"
    elif where == "symlink":
        (sample_copy / "benchmark" / "management" / "linked.json").symlink_to(outside)
        _card(sample_copy, "benchmark/management/linked.json")
        why = "benchmark/management/linked.json, a symlink leading outside the snapshot; not opened"
    else:
        extra = sample_copy / "benchmark" / "extra" / "cd.json"
        extra.parent.mkdir()
        shutil.copy(outside, extra)
        _card(sample_copy, "benchmark/extra/cd.json")
        why = "benchmark/extra/cd.json, which no checksum list covers; not used"
    for argv in (["verify", "--data", sample_copy, "--no-progress"],
                 ["run", "--no-progress", "--task", "conflict_detection", "--limit", "1",
                  "--data", sample_copy, "--output_path", tmp_path / "run"]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 1 and "Traceback" not in err, (argv[0], out, err)
        assert err.strip().splitlines() == [err.strip()] and "README.md: config " \
            "'management_conflict_detection'" in err and why in err, (argv[0], err)
    assert not (tmp_path / "run" / "samples_conflict_detection.jsonl").exists()
    code, out, err = run_cli(capsys, "validate", "--data", sample_copy)
    assert code == 1 and why in out


def test_task_files_chosen_on_the_command_line_are_used_and_announced(sample_copy, tmp_path, capsys):
    outside = _outside_task_file(tmp_path, sample_copy)
    code, out, err = run_cli(capsys, "run", "--no-progress", "--task", "conflict_detection",
                             "--limit", "1", "--data", sample_copy, "--output_path", tmp_path / "run",
                             "--task-file", f"conflict_detection={outside}")
    assert code == 0, err
    first = out.splitlines()[:6]
    assert (f"br-eval: task files given with --task-file (your choice, used as given; no checksum "
            f"list covers them): conflict_detection={outside}") in first
    assert (tmp_path / "run" / "samples_conflict_detection.jsonl").read_text().count("\n") == 1


# ---- media-cache entries are verified before use (item 13) ------------------------------------

def _entry_files(cache_dir: Path, op: str) -> list[Path]:
    return sorted(p for p in (cache_dir / op).rglob("*.png") if p.parent.name != "manifest.json")


def test_cache_info_lists_damaged_entries_and_prepare_rebuilds_them(sample_copy, tmp_path, capsys):
    cache_dir = tmp_path / "cache"
    prepare = ["prepare", "--data", sample_copy, "--cache-dir", cache_dir, "--frames", "2", "--dpi", "30",
               "--no-progress"]
    assert run_cli(capsys, *prepare)[0] == 0
    assert run_cli(capsys, "cache", "--cache-dir", cache_dir, "info", "--verify")[0] == 0
    truncated = _entry_files(cache_dir, "video_frames")[0]
    size = truncated.stat().st_size
    with open(truncated, "r+b") as f:
        f.truncate(size // 2)
    flipped = _entry_files(cache_dir, "pdf_pages")[0]
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0x01                       # same size, other bytes
    flipped.write_bytes(bytes(data))

    code, out, err = run_cli(capsys, "cache", "--cache-dir", cache_dir, "info")
    assert code == 1
    damaged = [line.strip() for line in out.splitlines() if "damaged " in line]
    assert damaged == [f"damaged video_frames entry {truncated.parent}: {truncated.name} is "
                       f"{size // 2:,} bytes, {size:,} when written"]     # sizes only: the flip unseen
    code, out, _ = run_cli(capsys, "cache", "--cache-dir", cache_dir, "info", "--verify")
    assert code == 1 and (f"damaged pdf_pages entry {flipped.parent}: {flipped.name} does not match the "
                          "CRC-32 recorded when it was written") in out
    assert json.loads(run_cli(capsys, "cache", "--cache-dir", cache_dir, "info", "--json")[1])["damaged"]

    code, out, err = run_cli(capsys, *prepare)
    assert code == 0 and " 2 prepared" in out, out + err
    assert truncated.stat().st_size == size and flipped.read_bytes() != bytes(data)
    assert run_cli(capsys, "cache", "--cache-dir", cache_dir, "info", "--verify")[0] == 0


def _journal_lines(out: Path, task: str) -> list[dict]:
    path = out / f"samples_{task}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


RUN_WITH_MEDIA = ["run", "--no-progress", "--task", "cross_modal_relational_reasoning",
                  "--agent", "agents_for_tests:RecordingAgent"]


def test_a_run_rebuilds_a_truncated_cache_entry_before_using_it(sample_copy, tmp_path, capsys, monkeypatch):
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("BR_EVAL_CACHE", str(cache_dir))
    assert run_cli(capsys, *RUN_WITH_MEDIA, "--data", sample_copy, "--output_path", tmp_path / "a")[0] == 0
    frames = _entry_files(cache_dir, "video_frames")
    sizes = {f: f.stat().st_size for f in frames}
    for f in frames:
        f.write_bytes(b"")                               # every frame emptied after the run
    code, _, err = run_cli(capsys, *RUN_WITH_MEDIA, "--data", sample_copy, "--output_path", tmp_path / "b")
    assert code == 0, err
    assert all(not line.get("error") for line in _journal_lines(tmp_path / "b", "cross_modal_relational_reasoning"))
    assert {f: f.stat().st_size for f in frames} == sizes        # rebuilt from the video


def test_a_damaged_entry_that_cannot_be_rebuilt_fails_its_questions_as_media_errors_naming_the_file(
        sample_copy, tmp_path, capsys, monkeypatch):
    import tempfile

    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("BR_EVAL_CACHE", str(cache_dir))
    assert run_cli(capsys, *RUN_WITH_MEDIA, "--data", sample_copy, "--output_path", tmp_path / "a")[0] == 0
    for f in _entry_files(cache_dir, "video_frames"):
        f.write_bytes(f.read_bytes()[:100])
    # The cache can no longer be written (what a read-only folder gives a user who is not root).
    real_mkdtemp = tempfile.mkdtemp

    def read_only(*args, dir=None, **kwargs):
        if dir is not None and str(dir).startswith(str(cache_dir)):
            raise PermissionError(13, "Permission denied", str(dir))
        return real_mkdtemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkdtemp", read_only)
    run_cli(capsys, *RUN_WITH_MEDIA, "--data", sample_copy, "--output_path", tmp_path / "b")
    failed = [line for line in _journal_lines(tmp_path / "b", "cross_modal_relational_reasoning")
              if line.get("error")]
    assert failed and all(line["error_kind"] == "media" for line in failed), [l["error"] for l in failed]
    import re

    for line in failed:          # the journal's error is shortened; its traceback has it whole
        assert re.match(rf"MediaError: {re.escape(str(sample_copy))}/benchmark/videos/\w+\.mp4", line["error"])
        assert re.search(r"videos/\w+\.mp4: its cache entry \S+ is damaged \(frame_\d+\.png is 100 bytes, "
                         rf"[\d,]+ when written\) and the media cache {re.escape(str(cache_dir))} cannot be "
                         r"written \(Permission denied\)", line["traceback"]), line["traceback"]


def test_an_unwritable_empty_media_cache_stops_the_run_before_its_first_item(sample_copy, tmp_path,
                                                                            capsys, monkeypatch):
    unwritable = Path("/sys/br-eval-media-cache-test")    # mkdir fails there, for root too
    assert not unwritable.exists()
    monkeypatch.setenv("BR_EVAL_CACHE", str(unwritable))
    code, out, err = run_cli(capsys, *RUN_WITH_MEDIA, "--data", sample_copy, "--output_path", tmp_path / "run")
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()]
    assert err.startswith(f"br-eval: error: media cache {unwritable}: cannot be written (")
    assert _journal_lines(tmp_path / "run", "cross_modal_relational_reasoning") == []


# ---- the --use_cache response cache (item 13) -------------------------------------------------

def test_a_response_cache_row_that_is_not_json_is_dropped_and_the_model_asked_again(tmp_path):
    import sqlite3

    from evaluator.models.base import Message
    from evaluator.models.cache import CachedChatModel, ResponseCache
    from evaluator.models.mock_backend import MockChatModel

    db = tmp_path / "responses.sqlite"
    inner = MockChatModel(["first", "second"])
    model = CachedChatModel(inner, ResponseCache(db))
    ask = [Message.text("user", "q")]
    assert model.generate(ask).text == "first"
    model.cache.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("UPDATE responses SET raw = '{\"call\": 1, trunc'").rowcount == 1
    again = CachedChatModel(inner, ResponseCache(db))
    answer = again.generate(ask)
    assert answer.text == "second" and not answer.cached and inner.call_count == 2
    assert again.cache.dropped == 1
    hit = again.generate(ask)                               # the fresh answer took the row's place
    assert hit.cached and hit.text == "second" and inner.call_count == 2
