"""cache.video_frames and cache.audio on real H.264/AAC, Matroska and VP9 files made with PyAV."""

from __future__ import annotations

import zlib

import av
import numpy as np
import pytest
from PIL import Image

import media_cache.video as video_mod
from media_cache import MediaCache, MediaError
from media_cache.audio import read_wav_float32
from media_cache.synthetic import make_video
from media_cache.video import rate_indices, uniform_indices


@pytest.fixture(scope="module")
def videos(tmp_path_factory):
    d = tmp_path_factory.mktemp("videos")
    return {
        # B-frames and a short GOP, so frames are reordered and seeking has keyframes to use.
        "mp4": make_video(d / "clip.mp4", seconds=4, fps=10, width=64, height=48,
                          options={"g": 8, "bf": 2}),
        "mkv": make_video(d / "silent.mkv", seconds=2, fps=10, width=66, height=50, audio=False),
        "webm": make_video(d / "vp9.webm", seconds=2, fps=10, codec="libvpx-vp9", audio=False),
    }


@pytest.fixture
def cache(tmp_path):
    return MediaCache(tmp_path / "cache")


def raw_frames(path):
    """Every frame, decoded plainly with PyAV: the reference."""
    with av.open(str(path)) as c:
        return [(f.time, f.to_ndarray(format="rgb24")) for f in c.decode(video=0)]


def pixels(path):
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


def test_uniform_formula():
    assert uniform_indices(10, 3) == [1, 5, 8]            # floor((2i+1)*10/6)
    assert uniform_indices(40, 8) == [2, 7, 12, 17, 22, 27, 32, 37]
    assert uniform_indices(3, 8) == [0, 1, 2]             # fewer frames than asked: each once
    assert uniform_indices(1, 1) == [0]
    with pytest.raises(MediaError):
        uniform_indices(10, 0)


def test_rate_formula():
    times = [i / 10 for i in range(20)]                    # 10 fps, 2 s
    assert rate_indices(times, 1) == [0, 10]
    assert rate_indices(times, 3) == [0, 3, 6, 10, 13, 16]
    assert rate_indices(times, 25) == list(range(20))     # above the video's rate: every frame once
    assert rate_indices(times, 1, end=5.0) == [0, 10, 19]   # the last frame stays on screen


@pytest.mark.parametrize("kind", ["mp4", "mkv", "webm"])
def test_frames_equal_a_plain_full_decode(cache, videos, kind):
    reference = raw_frames(videos[kind])
    res = cache.video_frames(videos[kind], num_frames=5)
    n = len(reference)
    assert res.frame_count == n                    # counted from packets, also where the container has no count
    assert [f.index for f in res.frames] == uniform_indices(n, 5)
    for f in res.frames:
        t, rgb = reference[f.index]
        assert f.time == pytest.approx(t, abs=1e-6)
        assert np.array_equal(pixels(f.image_path), rgb)
    assert res.width == reference[0][1].shape[1] and res.height == reference[0][1].shape[0]
    assert res.avg_fps == pytest.approx(10)
    assert res.duration == pytest.approx(n / 10, abs=0.15)


def test_fps_sampling_and_times(cache, videos):
    res = cache.video_frames(videos["mp4"], fps=2)
    assert [f.index for f in res.frames] == list(range(0, 40, 5))
    assert [f.time for f in res.frames] == pytest.approx([i * 0.5 for i in range(8)])
    assert res.sampling == "fps=2"


@pytest.mark.parametrize("kind", ["mp4", "mkv", "webm"])
@pytest.mark.parametrize("sampling", [{"num_frames": 7}, {"fps": 3.0}, {"num_frames": 1000}])
def test_decord_and_pyav_give_identical_frames(cache, videos, kind, sampling):
    a = cache.video_frames(videos[kind], backend="pyav", **sampling)
    b = cache.video_frames(videos[kind], backend="decord", **sampling)
    assert not b.from_cache and b.backend == "decord"
    assert [(f.index, f.time) for f in a.frames] == [(f.index, f.time) for f in b.frames]
    for fa, fb in zip(a.frames, b.frames):
        assert np.array_equal(pixels(fa.image_path), pixels(fb.image_path)), f"frame {fa.index} differs"


def test_seek_fallback_gives_the_same_frames(cache, videos, monkeypatch, tmp_path):
    first = cache.video_frames(videos["mp4"], num_frames=6)

    def always_miss(*args, **kwargs):
        raise video_mod._SeekMiss

    monkeypatch.setattr(video_mod, "_decode_seeking", always_miss)
    other = MediaCache(tmp_path / "other")
    second = other.video_frames(videos["mp4"], num_frames=6)
    assert not second.from_cache
    for a, b in zip(first.frames, second.frames):
        assert a.index == b.index and np.array_equal(pixels(a.image_path), pixels(b.image_path))


def test_second_call_is_a_hit_and_params_are_part_of_the_key(cache, videos):
    a = cache.video_frames(videos["mp4"], num_frames=4)
    b = cache.video_frames(videos["mp4"], num_frames=4)
    c = cache.video_frames(videos["mp4"], num_frames=5)
    assert not a.from_cache and b.from_cache and not c.from_cache
    assert a == b
    assert a.to_dict()["frames"][0]["index"] == a.frames[0].index


def test_exactly_one_of_num_frames_and_fps(cache, videos):
    with pytest.raises(MediaError, match="exactly one"):
        cache.video_frames(videos["mp4"])
    with pytest.raises(MediaError, match="exactly one"):
        cache.video_frames(videos["mp4"], num_frames=4, fps=1.0)
    with pytest.raises(MediaError, match="fps"):
        cache.video_frames(videos["mp4"], fps=0)
    with pytest.raises(MediaError, match="backend"):
        cache.video_frames(videos["mp4"], num_frames=2, backend="opencv")


def test_audio_track_is_16k_mono_float32(cache, videos):
    track = cache.audio(videos["mp4"])
    assert track.has_audio and track.sample_rate == 16000
    assert track.duration == pytest.approx(4.0, abs=0.1)
    # Read back by an independent decoder (FFmpeg through PyAV) and by the header parser.
    with av.open(str(track.wav_path)) as c:
        s = c.streams.audio[0]
        assert (s.codec_context.name, s.sample_rate, s.channels) == ("pcm_f32le", 16000, 1)
        decoded = np.concatenate([f.to_ndarray().reshape(-1) for f in c.decode(s)])
    samples, rate = read_wav_float32(track.wav_path)
    assert rate == 16000 and samples.dtype == np.float32
    assert np.array_equal(decoded, samples)
    assert len(samples) == round(track.duration * 16000)
    # The 440 Hz tone survives AAC and resampling.
    segment = samples[4000:20000]
    peak_hz = np.fft.rfftfreq(len(segment), 1 / 16000)[np.argmax(np.abs(np.fft.rfft(segment)))]
    assert peak_hz == pytest.approx(440, abs=2)
    # Stereo -> mono is FFmpeg's standard downmix (L + R) / sqrt(2), what `ffmpeg -ac 1` does:
    # two identical 0.3-amplitude channels give 0.3 * sqrt(2).
    assert np.abs(samples[4000:20000]).max() == pytest.approx(0.3 * np.sqrt(2), abs=0.03)
    assert cache.audio(videos["mp4"]).from_cache


def test_video_without_audio_is_flagged_not_an_error(cache, videos):
    frames = cache.video_frames(videos["mkv"], num_frames=2)
    assert frames.has_audio is False
    track = cache.audio(videos["mkv"])
    assert track.has_audio is False and track.wav_path is None and track.duration == 0.0
    assert cache.video_frames(videos["mp4"], num_frames=2).has_audio is True


@pytest.mark.parametrize("backend", ["pyav", "decord"])
def test_undecodable_video_names_the_file(cache, tmp_path, videos, backend):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x00\x01not a video" * 100)
    with pytest.raises(MediaError, match="junk.mp4"):
        cache.video_frames(junk, num_frames=3, backend=backend)
    with pytest.raises(MediaError, match="junk.mp4"):
        cache.audio(junk)
    data = videos["mp4"].read_bytes()
    truncated = tmp_path / "cut.mp4"
    truncated.write_bytes(data[: len(data) // 3])    # index (moov) at the end is gone
    with pytest.raises(MediaError, match="cut.mp4"):
        cache.video_frames(truncated, num_frames=3, backend=backend)
    assert cache.store.info().entries == 0


def test_first_sight_hashes_while_decoding(videos, tmp_path, monkeypatch):
    """On a file never hashed, the key's sha256 runs on a second thread while frames decode;
    the result is the same entry a hash-first build makes, and nothing is left staged."""
    import shutil
    import threading

    import media_cache.store as store_mod

    source = tmp_path / "fresh.mp4"
    shutil.copy(videos["mp4"], source)
    store_mod._sha_memo.clear()
    threads = []
    real_hash = store_mod.sha256_file
    monkeypatch.setattr(store_mod, "sha256_file",
                        lambda p: threads.append(threading.current_thread().name) or real_hash(p))
    overlapped = MediaCache(tmp_path / "c1").video_frames(source, num_frames=4)
    assert not overlapped.from_cache and threads and threads[0] != threading.main_thread().name
    assert overlapped.sha256 == real_hash(source)
    store_mod._sha_memo.clear()
    hash_first = MediaCache(tmp_path / "c2")
    hash_first.sha256(source)                                   # known hash: plain path
    plain = hash_first.video_frames(source, num_frames=4)
    assert [f.index for f in plain.frames] == [f.index for f in overlapped.frames]
    assert all(pixels(a.image_path).tobytes() == pixels(b.image_path).tobytes()
               for a, b in zip(plain.frames, overlapped.frames))
    # the same bytes under another name: the staged decode is dropped, the entry reused
    twin = tmp_path / "twin.mp4"
    shutil.copy(source, twin)
    again = MediaCache(tmp_path / "c1").video_frames(twin, num_frames=4)
    assert again.from_cache and again.sha256 == overlapped.sha256
    leftovers = [p for p in (tmp_path / "c1").rglob("*") if p.name.startswith(store_mod.TMP_PREFIX)]
    assert leftovers == []
    # a file that does not decode: one MediaError naming it, nothing staged left behind
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"\x00" * 4096)
    with pytest.raises(MediaError, match="bad.mp4"):
        MediaCache(tmp_path / "c1").video_frames(bad, num_frames=4)
    assert [p for p in (tmp_path / "c1").rglob("*") if p.name.startswith(store_mod.TMP_PREFIX)] == []


def _vfr_video(path, bf=0):
    """H.264 at irregular intervals (33 ms twice, then 100 ms), time base 1/1000."""
    from fractions import Fraction

    with av.open(str(path), "w") as c:
        s = c.add_stream("libx264", rate=30)
        s.width, s.height, s.pix_fmt = 64, 48, "yuv420p"
        s.time_base = s.codec_context.time_base = Fraction(1, 1000)
        s.options = {"preset": "ultrafast", "bf": str(bf), "g": "10"}
        rng, t = np.random.default_rng(1), 0
        for i in range(60):
            frame = av.VideoFrame.from_ndarray(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8),
                                               format="rgb24")
            frame.pts, frame.time_base = t, Fraction(1, 1000)
            t += 33 if i % 3 else 100
            for p in s.encode(frame):
                c.mux(p)
        for p in s.encode(None):
            c.mux(p)
    return path


@pytest.mark.parametrize("bf", [0, 2])
def test_index_probe_equals_the_demux_pass_on_variable_frame_rate(tmp_path, videos, bf):
    """MP4 frame numbering read from the container's index is the demux pass's, exactly; a
    stream with reordered (B-)frames or a container without a full index is demuxed instead."""
    from dataclasses import replace

    vfr = _vfr_video(tmp_path / f"vfr{bf}.mp4", bf=bf)
    for path, indexed in ((vfr, bf == 0), (videos["mp4"], False), (videos["mkv"], False)):
        fast = video_mod.probe_video(path)
        slow = video_mod.probe_video(path, use_index=False)
        assert fast.from_index is indexed and not slow.from_index
        assert replace(fast, from_index=False) == slow
    times = video_mod.probe_video(vfr).times
    assert len(set(round(b - a, 3) for a, b in zip(times, times[1:]))) > 1   # really VFR


@pytest.mark.parametrize("sampling", [{"num_frames": 7}, {"fps": 4.0}])
def test_index_path_gives_the_frames_of_the_demux_path(tmp_path, sampling):
    vfr = _vfr_video(tmp_path / "vfr.mp4")
    out_fast, out_slow = tmp_path / "fast", tmp_path / "slow"
    out_fast.mkdir()
    out_slow.mkdir()
    fast = video_mod.build_video_frames(vfr, out_fast, backend="pyav", **{"num_frames": None, "fps": None, **sampling})
    slow = video_mod.build_video_frames(vfr, out_slow, backend="pyav", probe=video_mod.probe_video(vfr, use_index=False),
                                        **{"num_frames": None, "fps": None, **sampling})
    assert video_mod.probe_video(vfr).from_index
    assert fast == slow
    for f in fast["frames"]:
        assert np.array_equal(pixels(out_fast / f["file"]), pixels(out_slow / f["file"]))


def test_index_disagreeing_with_decoded_frames_is_probed_again(tmp_path, monkeypatch):
    """A (hypothetical) index whose timestamps are not the frames' presentation times is caught
    while decoding (a target frame never appears): the probe is redone by demuxing, the frames
    are the demux path's and no file of the first attempt is kept."""
    vfr = _vfr_video(tmp_path / "vfr.mp4")
    real = video_mod._index_entries
    calls = []

    def shifted(container, stream):
        entries = real(container, stream)
        calls.append(entries is not None)
        return [(ts + 1 if i else ts, key) for i, (ts, key) in enumerate(entries)]

    monkeypatch.setattr(video_mod, "_index_entries", shifted)
    out = tmp_path / "out"
    out.mkdir()
    got = video_mod.build_video_frames(vfr, out, num_frames=5, fps=None, backend="pyav")
    assert calls == [True]
    monkeypatch.undo()
    ref_dir = tmp_path / "ref"
    ref_dir.mkdir()
    ref = video_mod.build_video_frames(vfr, ref_dir, num_frames=5, fps=None, backend="pyav",
                                       probe=video_mod.probe_video(vfr, use_index=False))
    assert got == ref
    assert sorted(p.name for p in out.iterdir()) == sorted(f["file"] for f in ref["frames"])
    for f in ref["frames"]:
        assert np.array_equal(pixels(out / f["file"]), pixels(ref_dir / f["file"]))


@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (40, 30000), (2800, 4200)])
def test_stored_png_writer_is_lossless_and_valid_for_two_decoders(tmp_path, shape):
    """write_png lays the zlib stream out by hand: every chunk's CRC is right, and Pillow and
    FFmpeg's PNG decoder both read back the exact pixels, including rows longer than one 64 KiB
    stored block (40 x 30000), more pieces than one writev takes (2800 x 4200) and a row buffer
    of the wrong size."""
    rgb = np.random.default_rng(sum(shape)).integers(0, 256, (*shape, 3), dtype=np.uint8)
    path = tmp_path / "f.png"
    video_mod.write_png(path, rgb, rows=np.zeros((2, 2), np.uint8))   # wrong-size buffer: replaced
    with Image.open(path) as im:
        assert im.mode == "RGB" and np.array_equal(np.asarray(im), rgb)
    with av.open(str(path)) as c:
        decoded = next(c.decode(video=0)).to_ndarray(format="rgb24")
    assert np.array_equal(decoded, rgb)
    data, pos, kinds = path.read_bytes(), 8, []
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        assert int.from_bytes(data[pos + 8 + length:pos + 12 + length], "big") == zlib.crc32(kind + body)
        kinds.append(kind)
        pos += 12 + length
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]


def test_png_writer_reports_a_failed_write_and_leaves_no_thread(tmp_path):
    import threading

    writer = video_mod.PngWriter(tmp_path / "missing-folder")
    with pytest.raises(FileNotFoundError):      # from write() if the thread already failed, else close()
        try:
            writer.write("frame_0000000.png", np.zeros((4, 4, 3), np.uint8))
        finally:
            writer.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("png")]


def test_png_is_written_in_writes_of_about_one_mib(tmp_path, monkeypatch):
    """One multi-MiB write at the start of a new file costs ~10x the kernel time of 1 MiB writes
    on ext4 here (see write_png); a 720p frame goes out in writes of at most ~1 MiB."""
    import os

    sizes = []
    real = os.writev

    def spy(fd, buffers):
        sizes.append(sum(len(b) for b in buffers))
        return real(fd, buffers)

    monkeypatch.setattr(video_mod.os, "writev", spy)
    rgb = np.zeros((720, 1280, 3), np.uint8)
    video_mod.write_png(tmp_path / "f.png", rgb)
    assert sum(sizes) == (tmp_path / "f.png").stat().st_size
    assert len(sizes) > 1 and max(sizes) <= 16 * 65540
