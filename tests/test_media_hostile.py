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
from media_cache.synthetic import make_image, make_pdf

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
    os.symlink(photos, root / ".hashes" / "ab") if (root / ".hashes").is_dir() else None
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
