"""The content-addressed store: keys, hashing memo, atomic and concurrent writes, info, prune."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import media_cache.store as store_mod
from media_cache import MediaCache, MediaError, entry_key
from media_cache.store import Store
from media_cache.synthetic import make_image, make_pdf

REPO = Path(__file__).resolve().parents[1]


def test_import_is_light_and_independent():
    code = ("import sys, media_cache; "
            "bad = [m for m in ('av','PIL','numpy','torch','open_clip','pymupdf','fitz','decord',"
            "'beyondrecall','evaluator') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_default_root(monkeypatch, tmp_path):
    monkeypatch.setenv("BR_EVAL_CACHE", str(tmp_path / "c"))
    assert MediaCache().root == tmp_path / "c"
    monkeypatch.delenv("BR_EVAL_CACHE")
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    assert MediaCache().root == tmp_path / "home" / "media"
    monkeypatch.delenv("BR_EVAL_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert MediaCache().root == tmp_path / "xdg" / "br-eval" / "media"


def test_key_depends_on_content_op_params_and_version(monkeypatch):
    sha = "a" * 64
    k = entry_key("pdf_pages", sha, {"dpi": 144})
    assert k == entry_key("pdf_pages", sha, {"dpi": 144})
    assert k != entry_key("pdf_pages", "b" * 64, {"dpi": 144})
    assert k != entry_key("pdf_pages", sha, {"dpi": 72})
    assert k != entry_key("image", sha, {"dpi": 144})
    monkeypatch.setitem(store_mod.PRODUCER_VERSIONS, "pdf_pages", 99)
    assert k != entry_key("pdf_pages", sha, {"dpi": 144})


def test_same_bytes_under_another_path_is_a_hit(tmp_path):
    cache = MediaCache(tmp_path / "cache")
    a = make_pdf(tmp_path / "a.pdf", pages=2)
    other = tmp_path / "elsewhere" / "renamed.pdf"
    other.parent.mkdir()
    shutil.copyfile(a, other)
    first = cache.pdf_pages(a)
    second = cache.pdf_pages(other)
    assert not first.from_cache and second.from_cache
    assert first.pages[0].image_path == second.pages[0].image_path
    assert cache.stats["pdf_pages:miss"] == 1 and cache.stats["pdf_pages:hit"] == 1


def test_file_is_hashed_once_per_process_and_memo_persists(tmp_path, monkeypatch):
    calls = []
    real = store_mod.sha256_file
    monkeypatch.setattr(store_mod, "sha256_file", lambda p: calls.append(p) or real(p))
    monkeypatch.setattr(store_mod, "_sha_memo", {})
    img = make_image(tmp_path / "x.png", fmt="PNG")
    cache = MediaCache(tmp_path / "cache")
    sha = cache.sha256(img)
    assert cache.sha256(img) == sha and MediaCache(tmp_path / "cache").sha256(img) == sha
    assert len(calls) == 1
    # A new process (simulated by an empty in-process memo) reads the persisted memo.
    monkeypatch.setattr(store_mod, "_sha_memo", {})
    assert MediaCache(tmp_path / "cache").sha256(img) == sha
    assert len(calls) == 1
    # Changing the file changes size/mtime: hashed again, new value.
    time.sleep(0.01)
    make_image(img, fmt="PNG", seed=5)
    assert cache.sha256(img) != sha
    assert len(calls) == 2


def test_missing_source_is_a_media_error_naming_it(tmp_path):
    cache = MediaCache(tmp_path / "cache")
    with pytest.raises(MediaError, match="nope.png"):
        cache.image(tmp_path / "nope.png")


def test_failed_build_leaves_nothing(tmp_path):
    store = Store(tmp_path / "cache")

    def build(tmp):
        (tmp / "half.bin").write_bytes(b"x")
        raise MediaError("boom")

    with pytest.raises(MediaError, match="boom"):
        store.get_or_create("image", "c" * 64, {}, build)
    leftovers = [p for p in (tmp_path / "cache").rglob("*") if p.is_file() or p.name.startswith(".tmp-")]
    assert leftovers == [tmp_path / "cache" / store_mod.MARKER]   # the cache's marker only
    assert store.info().entries == 0


def test_broken_entry_is_rebuilt(tmp_path):
    cache = MediaCache(tmp_path / "cache")
    pdf = make_pdf(tmp_path / "a.pdf", pages=2)
    first = cache.pdf_pages(pdf)
    first.pages[1].image_path.unlink()         # someone deleted an artifact
    again = cache.pdf_pages(pdf)
    assert not again.from_cache and again.pages[1].image_path.is_file()


# ---- concurrency ------------------------------------------------------------------------------

def _prepare_pdf_child(root, pdf, barrier, queue):
    barrier.wait(timeout=60)
    result = MediaCache(root).pdf_pages(pdf)
    queue.put((result.from_cache, str(result.pages[0].image_path)))


def _race_child(root, barrier, queue):
    # No lock: both processes build at the same moment and race on the final rename.
    store = Store(root)
    store._key_lock = lambda key: contextlib.nullcontext()

    def build(tmp):
        (tmp / "payload.txt").write_text(str(os.getpid()))
        barrier.wait(timeout=60)
        return {"pid": os.getpid()}

    entry = store.get_or_create("image", "d" * 64, {}, build)
    queue.put((entry.from_cache, entry.data["pid"], (entry.path / "payload.txt").read_text()))


def _run_two(target, *args):
    ctx = multiprocessing.get_context("spawn")
    barrier, queue = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args, barrier, queue)) for _ in range(2)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return results


def test_two_processes_preparing_the_same_entry(tmp_path):
    root = tmp_path / "cache"
    pdf = make_pdf(tmp_path / "a.pdf", pages=3)
    results = _run_two(_prepare_pdf_child, str(root), str(pdf))
    assert sorted(r[0] for r in results) == [False, True]     # one built it, one reused it
    assert results[0][1] == results[1][1]
    info = Store(root).info()
    assert info.ops["pdf_pages"].entries == 1 and info.invalid == 0 and info.temp == 0


def test_rename_race_keeps_one_valid_entry(tmp_path):
    root = tmp_path / "cache"
    results = _run_two(_race_child, str(root))
    assert sorted(r[0] for r in results) == [False, True]
    winner_pid = {r[1] for r in results}
    assert len(winner_pid) == 1                              # both see the same published entry
    assert {r[2] for r in results} == {str(p) for p in winner_pid}
    info = Store(root).info()
    assert info.entries == 1 and info.temp == 0 and info.invalid == 0


# ---- info and prune ---------------------------------------------------------------------------

def test_info_and_prune(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    cache = MediaCache(root)
    keep = cache.pdf_pages(make_pdf(tmp_path / "keep.pdf", pages=2))
    cache.image(make_image(tmp_path / "a.webp", fmt="WEBP"))
    # An entry written by an older producer version.
    monkeypatch.setitem(store_mod.PRODUCER_VERSIONS, "image", 0)
    old = cache.image(make_image(tmp_path / "b.webp", fmt="WEBP", seed=3))
    monkeypatch.undo()
    # A stale temp folder from an interrupted write, and a fresh one (a running prepare).
    shard = keep.pages[0].image_path.parent.parent
    stale_tmp = shard / ".tmp-deadbeef-old"
    stale_tmp.mkdir()
    (stale_tmp / "x").write_bytes(b"123")
    long_ago = time.time() - 7200
    os.utime(stale_tmp, (long_ago, long_ago))
    fresh_tmp = shard / ".tmp-cafe-new"
    fresh_tmp.mkdir()
    # A folder whose name is not the key its manifest describes.
    renamed = shard / ("0" * 64)
    shutil.copytree(keep.pages[0].image_path.parent, renamed)
    # A hash memo for a file that no longer exists.
    gone = make_image(tmp_path / "gone.png", fmt="PNG")
    cache.sha256(gone)
    gone.unlink()

    info = cache.store.info()
    assert info.ops["pdf_pages"].entries == 1 and info.ops["image"].entries == 1
    assert info.invalid == 2 and info.temp == 2
    assert info.total_bytes > 0

    dry = cache.store.prune(dry_run=True)
    assert dry.removed_invalid == 2 and renamed.exists()

    report = cache.store.prune()
    assert report.removed_invalid == 2 and report.removed_temp == 1 and report.removed_memos == 1
    assert report.kept == 2
    assert not renamed.exists() and not stale_tmp.exists() and fresh_tmp.exists()
    assert not old.path.exists()
    assert keep.pages[0].image_path.is_file()
    after = cache.store.info()
    assert after.invalid == 0 and after.entries == 2
    # What survived still serves hits.
    assert cache.pdf_pages(tmp_path / "keep.pdf").from_cache

    everything = cache.store.prune(everything=True)
    assert everything.freed_bytes > 0 and cache.store.info().entries == 0


def test_manifest_records_key_inputs(tmp_path):
    cache = MediaCache(tmp_path / "cache")
    pdf = make_pdf(tmp_path / "a.pdf", pages=1)
    res = cache.pdf_pages(pdf, dpi=50)
    entry = res.pages[0].image_path.parent
    m = json.loads((entry / "manifest.json").read_text())
    assert m["op"] == "pdf_pages" and m["params"] == {"dpi": 50} and m["source"] == res.sha256
    assert entry.name == entry_key("pdf_pages", res.sha256, {"dpi": 50})
    assert "page_0000.png" in m["files"]
    assert str(tmp_path) not in json.dumps(m)           # no path ever enters an entry


def test_prune_leaves_a_running_staging_folder_alone(tmp_path):
    """get_or_create_from_source stages a first-sight decode in <op>/.tmp-stage-*: prune must
    treat that folder as one temp item (kept while fresh, removed when stale), never as a shard
    whose files are invalid entries."""
    cache = MediaCache(tmp_path / "cache")
    op_dir = tmp_path / "cache" / "video_frames"
    running = op_dir / ".tmp-stage-running"
    running.mkdir(parents=True)
    (running / "frame_000001.png").write_bytes(b"png")
    stale = op_dir / ".tmp-stage-crashed"
    stale.mkdir()
    (stale / "frame_000001.png").write_bytes(b"png")
    long_ago = time.time() - 7200
    os.utime(stale, (long_ago, long_ago))
    report = cache.store.prune()
    assert report.removed_invalid == 0 and report.removed_temp == 1
    assert (running / "frame_000001.png").exists() and not stale.exists()


def test_verify_hands_its_hashes_to_the_media_cache(sample_copy, monkeypatch, tmp_path):
    """`br-eval verify` hashes every file; the media cache reuses those hashes for files that
    have not changed since, instead of reading the same bytes again."""
    from evaluator.cli import main
    from media_cache import MediaCache, store

    monkeypatch.setenv("BR_EVAL_CACHE", str(tmp_path / "cache"))
    store._sha_memo.clear()
    video = next((sample_copy / "benchmark").rglob("*.mp4"))
    changed = next(p for p in (sample_copy / "benchmark").rglob("*.png"))
    assert main(["verify", "--data", str(sample_copy), "--no-progress"]) == 0
    cache = MediaCache(tmp_path / "cache")
    assert cache.store.known_source_sha256(video) == store.sha256_file(video)
    calls = []
    monkeypatch.setattr(store, "sha256_file", lambda p: calls.append(p) or "0" * 64)
    assert cache.sha256(video) != "0" * 64 and not calls          # no second read of the bytes
    # a file changed after verify is hashed again, never answered from the old hash
    changed.write_bytes(changed.read_bytes() + b"\0")
    assert cache.sha256(changed) == "0" * 64 and calls
    # a remembered hash for a file that has changed since it was stat'ed is refused
    st = video.stat()
    assert not cache.remember_sha256(video, "f" * 64, st.st_size + 1, st.st_mtime_ns, st.st_ino)
