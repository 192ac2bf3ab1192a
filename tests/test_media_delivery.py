"""Delivery of cached media to models (issue 18): pixels decoded once per run for local models,
request bytes encoded as asked for servers, frames stored for fast writing and reading."""

from __future__ import annotations

import base64
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from evaluator.errors import EvalError
from evaluator.models import make_model
from evaluator.models.base import ImagePart, Message, TextPart
from evaluator.models.cache import CachedChatModel, ResponseCache
from evaluator.models.openai_backend import OpenAIChatModel
from media_cache import MediaCache
from media_cache import delivery
from media_cache.synthetic import make_video
from tests.test_models_openai import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh_memos():
    delivery.pixel_memo.clear()
    delivery.encoded_memo.clear()
    yield
    delivery.pixel_memo.clear()
    delivery.encoded_memo.clear()


def noisy(path: Path, size=(96, 64), mode="RGB", fmt="PNG", seed=0, **save) -> Path:
    rng = np.random.default_rng(seed)
    arr = rng.integers(0, 256, (size[1], size[0], len(mode)), dtype=np.uint8)
    Image.fromarray(arr, mode).save(path, format=fmt, **save)
    return path


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("frames")
    video = make_video(tmp / "v.mp4", seconds=1, fps=10, width=160, height=96)
    return MediaCache(tmp / "cache").video_frames(video, num_frames=3), video


# ---- stored frames ----------------------------------------------------------------------------

def test_frames_are_stored_uncompressed_and_lossless(frames):
    vf, video = frames
    import av

    with av.open(str(video)) as c:
        decoded = [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]
    for fr in vf.frames:
        raw = vf.width * vf.height * 3
        assert fr.image_path.stat().st_size >= raw          # zlib level 0: no compression work
        with Image.open(fr.image_path) as im:
            assert im.format == "PNG" and np.array_equal(np.asarray(im), decoded[fr.index])


# ---- pixels for local models ------------------------------------------------------------------

def test_pixels_are_decoded_once_per_run(tmp_path, monkeypatch):
    path = noisy(tmp_path / "page.png")
    calls = []
    real = delivery.quiet_open
    monkeypatch.setattr(delivery, "quiet_open", lambda p: calls.append(p) or real(p))
    a = delivery.load_rgb(path)
    b = delivery.load_rgb(str(path))
    assert a is b and len(calls) == 1 and a.mode == "RGB"
    with Image.open(path) as im:
        assert np.array_equal(np.asarray(a), np.asarray(im.convert("RGB")))
    # Rewritten with other bytes: decoded again, the new pixels.
    noisy(path, seed=5)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    c = delivery.load_rgb(path)
    assert len(calls) == 2 and not np.array_equal(np.asarray(c), np.asarray(a))


def test_pixel_memo_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(delivery.pixel_memo, "capacity", 2 * 96 * 64 * 3)
    paths = [noisy(tmp_path / f"{i}.png", seed=i) for i in range(3)]
    for p in paths:
        delivery.load_rgb(p)
    assert len(delivery.pixel_memo.items) == 2 and delivery.pixel_memo.size <= 2 * 96 * 64 * 3


def test_hf_backend_reads_images_through_the_memo(tmp_path, monkeypatch):
    from evaluator.models import hf_backend

    path = noisy(tmp_path / "frame.png")
    calls = []
    real = delivery.quiet_open
    monkeypatch.setattr(delivery, "quiet_open", lambda p: calls.append(p) or real(p))
    assert hf_backend._load_image(str(path)) is hf_backend._load_image(str(path))
    assert len(calls) == 1


# ---- bytes for servers ------------------------------------------------------------------------

def decode(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGB"))


def test_png_default_sends_compact_files_as_they_are_and_compresses_stored_frames(tmp_path, frames):
    vf, _ = frames
    compact = noisy(tmp_path / "a.png", size=(64, 64), mode="RGB")          # incompressible
    gradient = tmp_path / "g.png"
    Image.fromarray(np.tile(np.arange(64, dtype=np.uint8), (64, 1))).save(gradient)
    assert delivery.encode_image(gradient) == (gradient.read_bytes(), "image/png")
    data, mime = delivery.encode_image(compact)    # zlib stores noise raw: re-encoded, same pixels
    with Image.open(compact) as im:
        assert mime == "image/png" and np.array_equal(decode(data), np.asarray(im))
    jpg = noisy(tmp_path / "b.jpg", fmt="JPEG")
    assert delivery.encode_image(jpg) == (jpg.read_bytes(), "image/jpeg")
    frame = vf.frames[0].image_path
    data, mime = delivery.encode_image(frame)
    assert mime == "image/png" and len(data) < frame.stat().st_size / 2
    with Image.open(frame) as im:
        assert np.array_equal(decode(data), np.asarray(im))         # lossless: same pixels


def test_jpeg_webp_and_max_side(tmp_path, frames):
    vf, _ = frames
    frame = vf.frames[1].image_path
    png, _ = delivery.encode_image(frame)
    jpeg, mime = delivery.encode_image(frame, "jpeg", 80)
    assert mime == "image/jpeg" and jpeg[:3] == b"\xff\xd8\xff" and len(jpeg) < len(png)
    low, _ = delivery.encode_image(frame, "jpeg", 20)
    assert len(low) < len(jpeg)
    webp, mime = delivery.encode_image(frame, "webp")
    assert mime == "image/webp" and webp[8:12] == b"WEBP"
    small, mime = delivery.encode_image(frame, "png", None, 64)
    with Image.open(io.BytesIO(small)) as im:
        assert max(im.size) == 64 and im.size == (64, round(64 * vf.height / vf.width))
    rgba = noisy(tmp_path / "t.png", mode="RGBA")
    assert decode(delivery.encode_image(rgba, "jpeg")[0]).shape == (64, 96, 3)


def test_encoded_bytes_are_memoised(tmp_path, monkeypatch):
    path = noisy(tmp_path / "a.png")
    calls = []
    real = delivery._encode
    monkeypatch.setattr(delivery, "_encode", lambda p, e: calls.append(e) or real(p, e))
    first = delivery.encode_image(path, "jpeg", 70)
    assert delivery.encode_image(path, "jpeg", 70) == first and len(calls) == 1
    delivery.encode_image(path, "jpeg", 71)
    assert len(calls) == 2


@pytest.mark.parametrize("kwargs, message", [
    ({"image_format": "gif"}, "image_format must be one of png, jpeg, webp"),
    ({"image_format": "jpeg", "image_quality": 0}, "image_quality must be an integer from 1 to 100"),
    ({"image_format": "png", "image_quality": 80}, "applies to image_format=jpeg or webp"),
    ({"max_image_side": 4}, "max_image_side must be an integer of at least 16"),
])
def test_bad_encoding_options_are_one_line(kwargs, message):
    args = {"base_url": "http://127.0.0.1:1/v1", "model": "m", **kwargs}
    with pytest.raises(EvalError, match=message):
        make_model("openai", args)


def test_openai_requests_follow_the_encoding_and_record_it(frames, tmp_path):
    vf, _ = frames
    images = [str(f.image_path) for f in vf.frames]
    messages = [Message("user", (*[ImagePart(p) for p in images], TextPart("what happened?")))]
    sizes = {}
    with FakeOpenAIServer() as server:
        for fmt, extra in (("png", {}), ("jpeg", {"image_quality": 60}), ("webp", {"max_image_side": 80})):
            model = make_model("openai", {"base_url": server.base_url, "model": "m",
                                          "image_format": fmt, **extra})
            model.generate(messages)
            body = server.requests[-1]
            urls = [p["image_url"]["url"] for p in body["messages"][0]["content"] if p["type"] == "image_url"]
            assert all(u.startswith(f"data:image/{fmt};base64,") for u in urls)
            sizes[fmt] = sum(len(u) for u in urls)
            if fmt == "png":
                sent = [decode(base64.b64decode(u.split(",", 1)[1])) for u in urls]
                for arr, p in zip(sent, images):
                    with Image.open(p) as im:
                        assert np.array_equal(arr, np.asarray(im))
            if fmt == "webp":
                with Image.open(io.BytesIO(base64.b64decode(urls[0].split(",", 1)[1]))) as im:
                    assert max(im.size) == 80
    assert sizes["jpeg"] < sizes["png"]
    raw_png = sum(len(base64.b64encode(Path(p).read_bytes())) for p in images)
    assert sizes["png"] < raw_png               # stored frames are not sent uncompressed
    desc = make_model("openai", {"base_url": "http://x/v1", "model": "m", "image_format": "jpeg"}).describe()
    assert desc["image_encoding"] == {"image_format": "jpeg", "image_quality": 90,
                                      "max_image_side": None, "lossless": False}
    assert OpenAIChatModel("http://x/v1", "m").describe()["image_encoding"]["lossless"] is True


def test_response_cache_key_names_the_encoding(tmp_path, frames):
    vf, _ = frames
    messages = [Message("user", (ImagePart(str(vf.frames[0].image_path)), TextPart("q")))]
    cache = ResponseCache(tmp_path / "r.sqlite")
    keys = {CachedChatModel(OpenAIChatModel("http://x/v1", "m", **kw), cache).key(messages, {})
            for kw in ({}, {"image_format": "jpeg"}, {"image_format": "jpeg", "image_quality": 50},
                       {"max_image_side": 64})}
    assert len(keys) == 4


# ---- issue 17 item 13: a huge image is one line of ours ----------------------------------------

def test_a_12000_pixel_square_png_is_one_line_of_ours(tmp_path):
    big = tmp_path / "big.png"
    Image.new("1", (12000, 12000)).save(big)
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from media_cache import MediaCache, MediaError\n"
        "from media_cache.delivery import load_rgb\n"
        "for f in (lambda p: MediaCache(sys.argv[2]).image(p), load_rgb):\n"
        "    try:\n"
        "        f(sys.argv[1])\n"
        "    except MediaError as exc:\n"
        "        print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(big), str(tmp_path / "cache")],
                         capture_output=True, text=True, timeout=120)
    assert out.stderr == ""                         # no DecompressionBombWarning lines
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 2
    assert all(str(big) in line and "144,000,000 pixels" in line and "skipped" in line for line in lines)
