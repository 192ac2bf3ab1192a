"""Hostile input to the media layer (issue 17 items 1, 10, 12, 13): nothing outside br-eval's own
files is touched, nothing hangs, a file over a limit is named and the others go on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from evaluator.cli import main
from media_cache import MediaCache, MediaError
from media_cache import store as store_mod
from media_cache.synthetic import make_image

REPO = Path(__file__).resolve().parents[1]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _photos(tmp_path: Path) -> Path:
    photos = tmp_path / "photos"
    (photos / "sub").mkdir(parents=True)
    for name in ("a.jpg", "b.png", "sub/c.txt"):
        (photos / name).write_bytes(b"precious " + name.encode())
    return photos


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# ---- item 1: prune removes only what br-eval wrote --------------------------------------------

def test_prune_never_follows_symlinks(tmp_path, capsys):
    photos = _photos(tmp_path)
    before = _files(photos)
    root = tmp_path / "cache"
    cache = MediaCache(root)
    img = cache.image(make_image(tmp_path / "a.webp", fmt="WEBP"))
    entry = img.path.parent
    # A symlinked op folder, a symlinked shard, a symlinked "entry" and links inside an entry.
    os.symlink(photos, root / "video_frames")
    os.symlink(photos, root / "pdf_pages")          # op folder that does not exist yet as a link
    os.symlink(photos, entry.parent.parent / "zz")
    os.symlink(photos, entry.parent / ("a" * 64))
    os.symlink(photos / "a.jpg", entry.parent / ("b" * 64))
    hashes = root / ".hashes"
    if hashes.is_dir():     # a shard name the memo does not use (its shards follow the tmp path's hash)
        os.symlink(photos, hashes / next(f"{i:02x}" for i in range(256) if not (hashes / f"{i:02x}").exists()))
    stale_link_tmp = entry.parent / ".tmp-0000-stale"
    os.symlink(photos, stale_link_tmp)
    # A stale entry (older version) holding a link to the photos: the link goes, not the photos.
    stale = entry.parent / ("c" * 64)
    stale.mkdir()
    os.symlink(photos, stale / "link")
    (stale / "manifest.json").write_text(json.dumps(
        {"key": "c" * 64, "op": "image", "version": 0, "source": "d" * 64, "params": {},
         "files": ["link/a.jpg"], "data": {}}))

    code, out, _ = run_cli(capsys, "cache", "prune", "--temp-age", "0", "--cache-dir", str(root))
    assert code == 0 and out.startswith("removed 1 stale"), out
    assert _files(photos) == before and not stale.exists()
    code, out, _ = run_cli(capsys, "cache", "prune", "--all", "--cache-dir", str(root))
    assert code == 0 and _files(photos) == before
    assert not img.path.exists()                      # the real entry is gone
    assert (root / "video_frames").is_symlink()       # links are left alone, never followed


def test_prune_refuses_a_folder_that_is_not_a_cache(tmp_path, capsys):
    docs = _photos(tmp_path)
    # Even folders that look like cache layout: no marker, no prune.
    (docs / "image" / "ab").mkdir(parents=True)
    (docs / "image" / "ab" / ".tmp-old").mkdir()
    before = _files(docs)
    for extra in ([], ["--all"], ["--dry-run"]):
        code, out, err = run_cli(capsys, "cache", "prune", *extra, "--cache-dir", str(docs))
        assert code != 0 and out == ""
        assert err.count("\n") == 1 and "not a br-eval media cache" in err and str(docs) in err
        assert _files(docs) == before and (docs / "image" / "ab" / ".tmp-old").is_dir()
    with pytest.raises(MediaError, match="not a br-eval media cache"):
        store_mod.Store(docs).prune()


def test_prune_leaves_unrecognised_files_alone(tmp_path):
    root = tmp_path / "cache"
    cache = MediaCache(root)
    img = cache.image(make_image(tmp_path / "a.webp", fmt="WEBP"))
    shard = img.path.parent.parent
    notes = [root / "image" / "notes.txt", shard / "notes.txt", root / "mine.txt",
             root / "photos" / "x.jpg", shard / ("e" * 64) / "x.jpg", root / ".hashes" / "note.txt"]
    for n in notes:
        n.parent.mkdir(parents=True, exist_ok=True)
        n.write_bytes(b"keep")
    report = cache.store.prune(everything=True, temp_age=0)
    assert report.removed_invalid == 1 and report.left_alone >= 3
    assert all(n.read_bytes() == b"keep" for n in notes)
    assert not img.path.exists()


def test_a_new_cache_carries_the_marker(tmp_path):
    root = tmp_path / "fresh"
    MediaCache(root).image(make_image(tmp_path / "a.png", fmt="PNG"))
    assert (root / store_mod.MARKER).is_file()
    assert store_mod.Store(root).prune().kept == 1      # no refusal on br-eval's own cache


# ---- item 12: prepare --workers leaves no orphans ---------------------------------------------

_POOL_SCRIPT = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, sys.argv[1])
    from evaluator.commands.prepare import worker_pool
    pool = worker_pool(2)
    futures = [pool.submit(time.sleep, 120) for _ in range(2)]
    deadline = time.time() + 30
    while len(pool._processes) < 2 and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)         # let the initializers run
    print(" ".join(str(p) for p in pool._processes), flush=True)
    time.sleep(120)
""")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            state = next(line for line in f if line.startswith("State:"))
        return "Z" not in state.split()[1]          # a zombie has exited
    except (FileNotFoundError, StopIteration, ProcessLookupError):
        return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc to see processes")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_prepare_workers_exit_when_the_parent_dies(sig):
    parent = subprocess.Popen([sys.executable, "-c", _POOL_SCRIPT, str(REPO)],
                              stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(p) for p in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(w) for w in workers)
        parent.send_signal(sig)
        parent.wait(timeout=10)
        deadline = time.time() + 10
        while any(_alive(w) for w in workers) and time.time() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "orphaned prepare workers still running"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for w in locals().get("workers", []):
            if _alive(w):
                os.kill(w, signal.SIGKILL)


# ---- item 10: media bounds --------------------------------------------------------------------

def _stepping_reference(times, fps, end):
    """The definition spelled out: the frame on screen at every multiple of 1/fps before end."""
    import bisect

    out, j = [], 0
    while True:
        t = j / fps
        if j and t >= end - 1e-9:
            return out
        i = bisect.bisect_right(times, t + 1e-9) - 1
        if not out or out[-1] != i:
            out.append(i)
        j += 1


def test_rate_sampling_is_per_frame_not_per_step():
    import random

    from media_cache.video import rate_indices

    started = time.perf_counter()
    assert rate_indices([0.0, 1e9], 1.0) == [0, 1]
    assert rate_indices([0.0, 0.5, 1e9, 1e9 + 0.04], 25.0, 1e9 + 0.08) == [0, 1, 2, 3]
    assert time.perf_counter() - started < 0.1
    rng = random.Random(7)
    for _ in range(500):
        times = [0.0]
        for _ in range(rng.randint(0, 30)):
            times.append(times[-1] + rng.choice([0.0, 0.001, 0.04, 1 / 30, 0.5, 2.0]))
        fps = rng.choice([0.5, 1, 3, 10, 29.97, 30, 100])
        end = times[-1] + rng.choice([0.0, 0.04, 0.5])
        assert rate_indices(times, fps, end) == _stepping_reference(times, fps, end)


def test_too_many_frames_is_refused_naming_the_file(tmp_path, monkeypatch):
    from media_cache import video as video_mod
    from media_cache.synthetic import make_video

    clip = make_video(tmp_path / "clip.mp4", seconds=1, fps=10)
    monkeypatch.setattr(video_mod, "MAX_FRAMES", 4)
    with pytest.raises(MediaError, match=r"clip\.mp4: fps=10 picks 10 frames, over br-eval's limit of 4"):
        MediaCache(tmp_path / "cache").video_frames(clip, fps=10)
    assert len(MediaCache(tmp_path / "cache").video_frames(clip, num_frames=4).frames) == 4


def test_huge_pdf_pages_are_rendered_within_the_pixel_cap(tmp_path):
    import pymupdf

    from media_cache.pdf import MAX_PAGE_PIXELS

    path = tmp_path / "huge.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=8000, height=8000)
    page.insert_text((100, 100), "tiny file, giant page", fontsize=40)
    doc.new_page(width=612, height=792).insert_text((72, 72), "a letter page")
    doc.save(path)
    doc.close()
    assert path.stat().st_size < 5000
    started = time.perf_counter()
    pages = MediaCache(tmp_path / "cache").pdf_pages(path, dpi=144)
    assert time.perf_counter() - started < 30
    big, letter = pages.pages
    assert big.width * big.height <= MAX_PAGE_PIXELS and big.dpi < 144
    assert (big.width, big.height) == (round(8000 * big.dpi / 72), round(8000 * big.dpi / 72))
    assert "giant page" in big.text
    assert (letter.dpi, letter.width, letter.height) == (144, 1224, 1584)   # untouched


def test_too_long_audio_is_named_and_prepare_goes_on(sample_copy, tmp_path, capsys, monkeypatch):
    from media_cache import audio as audio_mod

    monkeypatch.setattr(audio_mod, "MAX_AUDIO_SECONDS", 0.5)
    code, out, err = run_cli(capsys, "prepare", "--data", str(sample_copy), "--cache-dir",
                             str(tmp_path / "cache"), "--frames", "2", "--dpi", "30")
    assert code == 1 and "Traceback" not in err
    too_long = [line for line in err.splitlines() if "over br-eval's limit of" in line]
    assert too_long and all(".mp4" in line and "audio track is" in line for line in too_long)
    prepared = int(out.split(" prepared")[0].rsplit(" ", 1)[-1])
    assert prepared > 0                                     # images, PDFs, frames still done
    info = MediaCache(tmp_path / "cache").store.info()
    assert info.ops["image"].entries > 0 and info.ops["pdf_pages"].entries > 0
    assert info.ops.get("audio") is None or info.ops["audio"].bytes < 1000   # only "no audio" records
