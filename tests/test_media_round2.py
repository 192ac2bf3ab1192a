"""Media audit, round 2: in-place rewrites and the hash memo, 16-bit images, cache write
failures named by media file, rotated videos."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import struct
import time
from pathlib import Path
from types import SimpleNamespace

import av
import numpy as np
import pytest
from PIL import Image

import media_cache.store as store_mod
import media_cache.video as video_mod
from evaluator.cli import main
from media_cache import MediaCache, MediaError
from media_cache.store import Store
from media_cache.synthetic import make_image, make_video


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _pixels(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB")).astype(int)


# ---- 1. a file rewritten in place with its size and mtime restored ---------------------------

def test_a_file_rewritten_in_place_with_size_and_mtime_restored_is_hashed_again(tmp_path, monkeypatch):
    monkeypatch.setattr(store_mod, "_sha_memo", {})
    a, b = tmp_path / "a.bmp", tmp_path / "b.bmp"      # BMP: the same size for any pixels
    Image.new("RGB", (16, 8), (255, 0, 0)).save(a)
    Image.new("RGB", (16, 8), (0, 0, 255)).save(b)
    assert a.stat().st_size == b.stat().st_size
    cache = MediaCache(tmp_path / "cache")
    first = cache.image(a)
    assert _pixels(first.path)[0, 0].tolist() == [255, 0, 0]

    before = a.stat()
    time.sleep(0.05)          # past the clock tick of the last change (ctime's granularity)
    with open(a, "r+b") as f:   # what cp -p, tar -x and rsync -t --inplace do: same inode,
        f.write(b.read_bytes())  # same size, mtime set back
    os.utime(a, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = a.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    true_sha = hashlib.sha256(a.read_bytes()).hexdigest()

    assert Store(tmp_path / "cache").prune(dry_run=True).removed_memos == 1   # its memo is stale
    # The same process (in-memory memo) and a new one (the memo on disk) both see the new bytes.
    assert cache.sha256(a) == true_sha
    monkeypatch.setattr(store_mod, "_sha_memo", {})
    again = MediaCache(tmp_path / "cache").image(a)
    assert again.sha256 == true_sha and not again.from_cache
    assert _pixels(again.path)[0, 0].tolist() == [0, 0, 255]
    # A hash computed elsewhere is refused when the file's ctime is not the one it was hashed at.
    assert not cache.remember_sha256(a, "0" * 64, after.st_size, after.st_mtime_ns, after.st_ino,
                                     after.st_ctime_ns - 1)


# ---- 2. 16-bit, 32-bit and float images ----------------------------------------------------

@pytest.mark.parametrize("kind", ["I;16 png", "I;16 tiff", "I wide tiff", "F tiff"])
def test_deep_images_are_scaled_to_8_bits_not_clamped(tmp_path, kind):
    ramp = np.linspace(0, 1, 64 * 32).reshape(32, 64)
    if kind.startswith("I;16"):
        im = Image.fromarray((ramp * 65535).astype(np.uint16))
        assert im.mode.startswith("I;16")
    elif kind == "I wide tiff":     # 32-bit values beyond 16 bits: scaled by their own range
        im = Image.fromarray((ramp * 4_000_000 - 1_000_000).astype(np.int32))
        assert im.mode == "I"
    else:
        im = Image.fromarray(ramp.astype(np.float32))
        assert im.mode == "F"
    src = tmp_path / ("deep.png" if kind.endswith("png") else "deep.tif")
    im.save(src)
    out = MediaCache(tmp_path / "cache").image(src)
    assert out.normalized and out.format == "PNG"
    px = _pixels(out.path)
    assert px.min() == 0 and px.max() == 255 and 125 <= px.mean() <= 130, (px.mean(), kind)
    assert np.all(np.diff(px[:, :, 0].ravel()) >= 0)              # still a ramp
    from media_cache.delivery import load_rgb                        # also for an original file
    assert 125 <= np.asarray(load_rgb(src)).mean() <= 130


# ---- 3. a cache that cannot be written: MediaError naming the media file and the entry -------

def _entry_named(message: str, cache_dir: Path, op: str) -> bool:
    return re.search(rf"entry {re.escape(str(cache_dir / op))}/[0-9a-f]{{2}}/[0-9a-f]{{64}}", message) is not None


@pytest.mark.parametrize("hash_known", [False, True])
def test_a_file_where_a_cache_folder_should_be_is_a_media_error_naming_the_file(tmp_path, monkeypatch,
                                                                                 hash_known):
    monkeypatch.setattr(store_mod, "_sha_memo", {})
    video = make_video(tmp_path / "clip.mp4", seconds=1, fps=5, audio=False)
    image = make_image(tmp_path / "x.webp", fmt="WEBP")
    cache_dir = tmp_path / "cache"
    cache = MediaCache(cache_dir)
    if hash_known:                    # a later run: the hashes are memoised, the path differs
        cache.sha256(video), cache.sha256(image)
    for op in ("video_frames", "image"):
        (cache_dir / op).write_text("not a folder")
    with pytest.raises(MediaError) as exc:
        cache.video_frames(video, num_frames=2)
    msg = str(exc.value)
    assert msg.startswith(f"{video}: ") and _entry_named(msg, cache_dir, "video_frames"), msg
    assert "cannot be written" in msg and "\n" not in msg
    with pytest.raises(MediaError) as exc:
        cache.image(image)
    assert str(exc.value).startswith(f"{image}: ") and _entry_named(str(exc.value), cache_dir, "image")


def test_a_full_disk_while_writing_frames_is_a_media_error_naming_the_file(tmp_path, monkeypatch):
    video = make_video(tmp_path / "clip.mp4", seconds=1, fps=5, audio=False)

    def full(path, rgb, rows=None):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(video_mod, "write_png", full)
    cache_dir = tmp_path / "cache"
    for attempt in ("first sight", "hash known"):
        with pytest.raises(MediaError) as exc:
            MediaCache(cache_dir).video_frames(video, num_frames=2)
        msg = str(exc.value)
        assert msg.startswith(f"{video}: ") and _entry_named(msg, cache_dir, "video_frames"), (attempt, msg)
        assert msg.endswith("cannot be written (No space left on device)"), msg
    assert not [p for p in cache_dir.rglob(".tmp-*")]           # nothing half-written left


def test_prepare_goes_on_past_files_it_cannot_write_and_exits_1(sample_copy, tmp_path, capsys, monkeypatch):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "video_frames").write_text("a file where a cache folder should be")
    code, out, err = run_cli(capsys, "prepare", "--data", sample_copy, "--cache-dir", cache_dir,
                             "--frames", "2", "--dpi", "30", "--no-progress")
    assert code == 1 and "Traceback" not in err
    failed = [line for line in err.splitlines() if line.startswith("br-eval prepare: videos/")]
    assert failed and all(".mp4: " in line and "entry " in line and "video_frames" in line for line in failed)
    prepared, cached, n_failed = map(int, re.search(r"(\d+) prepared, (\d+) already cached, (\d+) failed",
                                                    out).groups())
    assert n_failed == len(failed) and prepared > 0          # images and PDFs were prepared
    assert err.strip().splitlines()[-1].startswith(f"br-eval: error: {n_failed} of ")

    # A full disk: the same, with the errno's words.
    (cache_dir / "video_frames").unlink()

    def full(path, rgb, rows=None):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(video_mod, "write_png", full)
    code, out, err = run_cli(capsys, "prepare", "--data", sample_copy, "--cache-dir", cache_dir,
                             "--frames", "2", "--dpi", "30", "--no-progress")
    assert code == 1 and "Traceback" not in err
    failed = [line for line in err.splitlines() if line.startswith("br-eval prepare: videos/")]
    assert failed and all("(No space left on device)" in line for line in failed), failed


def test_a_run_whose_cache_cannot_be_written_records_media_errors_naming_the_file(
        sample_copy, tmp_path, capsys, monkeypatch):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "video_frames").write_text("a file where a cache folder should be")
    monkeypatch.setenv("BR_EVAL_CACHE", str(cache_dir))
    run_cli(capsys, "run", "--no-progress", "--task", "cross_modal_relational_reasoning",
            "--agent", "agents_for_tests:RecordingAgent", "--data", sample_copy,
            "--output_path", tmp_path / "run")
    journal = tmp_path / "run" / "samples_cross_modal_relational_reasoning.jsonl"
    failed = [s for s in map(json.loads, journal.read_text().splitlines()) if s.get("error")]
    assert failed
    for s in failed:
        assert s["error_kind"] == "media", s["error"]
        assert re.match(rf"MediaError: {re.escape(str(sample_copy))}/benchmark/videos/\w+\.mp4: ", s["error"])


# ---- 4. rotated videos -------------------------------------------------------------------------

# tkhd matrices (a, b, c, d in 16.16) for a display rotation of 90, 180 and 270 degrees clockwise
_MATRICES = {90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}


def _rotated_video(path: Path, degrees: int, width=64, height=48) -> Path:
    """A phone-style video: landscape frames plus a display matrix in the track header."""
    make_video(path, seconds=1, fps=10, width=width, height=height, audio=False)
    data = bytearray(path.read_bytes())
    at = data.find(b"tkhd") + 4 + 4 + 4 * 5 + 8 + 8    # version 0: the matrix after 36 bytes
    a, b, c, d = (v * 0x10000 for v in _MATRICES[degrees])
    data[at:at + 36] = struct.pack(">9i", a, b, 0, c, d, 0, 0, 0, 0x40000000)
    path.write_bytes(bytes(data))
    return path


def _upright_reference(path: Path) -> list[np.ndarray]:
    """Every frame as FFmpeg's own autorotation shows it: clockwise by -frame.rotation."""
    with av.open(str(path)) as c:
        frames = list(c.decode(video=0))
        assert frames[0].rotation != 0
        return [np.rot90(f.to_ndarray(format="rgb24"), round(f.rotation / 90)) for f in frames]


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_rotated_videos_are_stored_upright_by_both_backends(tmp_path, degrees):
    src = _rotated_video(tmp_path / f"r{degrees}.mp4", degrees)
    ref = _upright_reference(src)
    upright = (48, 64) if degrees != 180 else (64, 48)        # (width, height) as displayed
    backends = ["pyav"]
    try:
        import decord  # noqa: F401
        backends.append("decord")
    except ImportError:
        pass
    cache = MediaCache(tmp_path / "cache")
    for backend in backends:
        vf = cache.video_frames(src, num_frames=4, backend=backend)
        assert (vf.width, vf.height) == upright, backend
        for f in vf.frames:
            px = np.asarray(Image.open(f.image_path))
            assert px.shape == (upright[1], upright[0], 3) and np.array_equal(px, ref[f.index]), backend
    # 90 degrees clockwise is what a phone held upright writes: the first row of the picture
    # is the first column of the coded frame, read bottom to top.
    if degrees == 90:
        with av.open(str(src)) as c:
            coded = next(c.decode(video=0)).to_ndarray(format="rgb24")
        assert np.array_equal(ref[0][0], coded[::-1, 0])


def test_display_rotation_is_read_from_the_side_data_without_frame_rotation(tmp_path):
    src = _rotated_video(tmp_path / "r90.mp4", 90)
    with av.open(str(src)) as c:
        frame = next(c.decode(video=0))
        old_pyav = SimpleNamespace(side_data=list(frame.side_data))   # PyAV 12 has no .rotation
        assert video_mod.quarter_turns(frame) == video_mod.quarter_turns(old_pyav) == 3
