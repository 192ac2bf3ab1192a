"""beyondrecall.files: the one reading of a media file's kind and the one byte-size printer."""

from __future__ import annotations

import pytest

from beyondrecall.files import IMAGE_EXTS, PDF_EXTS, VIDEO_EXTS, human_bytes, media_kind


@pytest.mark.parametrize("path,kind", [
    ("images/a.png", "image"), ("images/A.JPG", "image"), ("x.jpeg", "image"), ("x.webp", "image"),
    ("x.gif", "image"), ("x.bmp", "image"), ("x.TIFF", "image"), ("x.tif", "image"),
    ("images/handbook.pdf", "pdf"), ("H.PDF", "pdf"),
    ("videos/v.mp4", "video"), ("v.MOV", "video"), ("v.mkv", "video"), ("v.webm", "video"),
    ("v.avi", "video"), ("v.m4v", "video"),
    ("notes.txt", None), ("no_extension", None), ("folder.mp4/inside", None), ("", None),
    ("images\\win.png", "image"),
])
def test_media_kind_by_extension(path, kind):
    assert media_kind(path) == kind


def test_extension_sets_are_disjoint_and_dotted():
    assert not (IMAGE_EXTS & PDF_EXTS or IMAGE_EXTS & VIDEO_EXTS or PDF_EXTS & VIDEO_EXTS)
    assert all(e.startswith(".") and e == e.lower() for e in IMAGE_EXTS | PDF_EXTS | VIDEO_EXTS)


def test_every_reader_of_a_kind_uses_the_one_function(tmp_path):
    import beyondrecall.checksums as checksums
    import beyondrecall.sample as sample
    import evaluator.agents.protocol as protocol
    import evaluator.commands.prepare as prepare

    for module in (checksums, sample, protocol, prepare):
        assert module.media_kind is media_kind, module.__name__
    # The agents' MediaInput tries a name with no media extension as an image (as before).
    assert protocol.MediaInput("images/scan", tmp_path / "scan", None, []).kind == "image"
    assert protocol.MediaInput("videos/v.MKV", tmp_path / "v.MKV", None, []).kind == "video"


@pytest.mark.parametrize("n,text", [
    (0, "0 B"), (999, "999 B"), (1000, "1.0 KB"), (1536, "1.5 KB"), (999_949, "999.9 KB"),
    (999_960, "1.0 MB"), (20_000_000, "20.0 MB"), (7_300_000_000, "7.3 GB"), (2e12, "2.0 TB"),
])
def test_human_bytes_is_decimal(n, text):
    assert human_bytes(n) == text


def test_every_printer_uses_the_one_byte_size():
    import beyondrecall.checksums as checksums
    import beyondrecall.hub as hub
    import evaluator.commands.cache as cache

    for module in (checksums, hub, cache):
        assert module.human_bytes is human_bytes, module.__name__


def test_hub_space_check_speaks_in_the_same_units(tmp_path, monkeypatch):
    import shutil
    from types import SimpleNamespace

    import beyondrecall.hub as hub

    monkeypatch.setattr(shutil, "disk_usage", lambda p: SimpleNamespace(free=1_500_000))
    api = SimpleNamespace(list_repo_tree=lambda *a, **k: [
        SimpleNamespace(path="benchmark/big.mp4", size=2_500_000_000)])
    with pytest.raises(OSError, match=r"need 2\.5 GB, 1\.5 MB free"):
        hub._check_space(api, "org/repo", "c" * 40, tmp_path)
