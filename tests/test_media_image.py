"""cache.image: full decode, PNG/JPEG kept, other formats and odd modes normalised."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from media_cache import MediaCache, MediaError
from media_cache.synthetic import make_image


@pytest.fixture
def cache(tmp_path):
    return MediaCache(tmp_path / "cache")


def test_png_and_jpeg_are_served_as_byte_copies_in_the_cache(cache, tmp_path):
    # never the benchmark's own file: an agent that rewrites what it is given (a naive resize in
    # place) would change it for every later question and run
    png = make_image(tmp_path / "a.png", size=(40, 30), fmt="PNG")
    jpg = make_image(tmp_path / "b.jpg", size=(40, 30), fmt="JPEG", quality=90)
    for src, fmt in ((png, "PNG"), (jpg, "JPEG")):
        got = cache.image(src)
        assert got.path != src and got.path.is_relative_to(cache.root) and not got.normalized
        assert got.path.read_bytes() == src.read_bytes()
        assert (got.format, got.width, got.height) == (fmt, 40, 30)
        assert len(got.sha256) == 64
        again = cache.image(src)
        assert again.from_cache and again == got


def test_webp_and_gif_become_png_with_the_same_pixels(cache, tmp_path):
    webp = make_image(tmp_path / "a.webp", size=(20, 10), fmt="WEBP", lossless=True)
    got = cache.image(webp)
    assert got.normalized and got.format == "PNG" and got.source_format == "WEBP"
    assert got.path.suffix == ".png" and got.path.is_file()
    with Image.open(webp) as a, Image.open(got.path) as b:
        assert b.format == "PNG"
        assert np.array_equal(np.asarray(a.convert("RGB")), np.asarray(b.convert("RGB")))
    gif = make_image(tmp_path / "a.gif", size=(20, 10), fmt="GIF")
    g = cache.image(gif)
    assert g.normalized and g.source_format == "GIF" and (g.width, g.height) == (20, 10)


def test_cmyk_jpeg_and_exif_rotation_are_normalised(cache, tmp_path):
    cmyk = make_image(tmp_path / "c.jpg", size=(16, 8), mode="CMYK", fmt="JPEG")
    got = cache.image(cmyk)
    assert got.normalized and Image.open(got.path).mode == "RGB"

    im = Image.new("RGB", (30, 10), (200, 10, 10))
    exif = im.getexif()
    exif[0x0112] = 6                       # "rotate 90 CW to display"
    rotated = tmp_path / "r.jpg"
    im.save(rotated, format="JPEG", exif=exif)
    r = cache.image(rotated)
    assert r.normalized and (r.width, r.height) == (10, 30)


@pytest.mark.parametrize("name,data", [
    ("garbage.png", b"this is not an image at all"),
    ("empty.jpg", b""),
])
def test_undecodable_image_names_the_file(cache, tmp_path, name, data):
    bad = tmp_path / name
    bad.write_bytes(data)
    with pytest.raises(MediaError, match=name):
        cache.image(bad)


def test_truncated_image_is_an_error(cache, tmp_path):
    good = make_image(tmp_path / "full.png", size=(64, 64), fmt="PNG")
    data = good.read_bytes()
    bad = tmp_path / "truncated.png"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(MediaError, match="truncated.png"):
        cache.image(bad)
    assert cache.store.info().entries == 0       # nothing half-written was kept
