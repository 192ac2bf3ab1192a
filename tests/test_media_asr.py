"""cache.transcript: speech recognition of a video's audio track with a tiny random-weight Whisper.

The Whisper is built here from a config (tests/audio_models.py) and saved to a tmp folder, the
way a user's checkpoint would be. Its weights are random, so this CANNOT show transcript quality:
it shows that the track reaches the model in 30 s windows, that the text is what the model
decodes for those windows, and that the cache keys on content, model files and settings.
"""

from __future__ import annotations

import pytest

from media_cache import MediaCache, MediaError, MissingWeightsError
from media_cache import asr as asr_mod
from media_cache.synthetic import make_video

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def whisper(tmp_path_factory):
    from tests.audio_models import tiny_whisper

    return tiny_whisper(tmp_path_factory.mktemp("tiny-whisper"))


@pytest.fixture(scope="module")
def videos(tmp_path_factory):
    d = tmp_path_factory.mktemp("asr-videos")
    return {"long": make_video(d / "long.mp4", seconds=35, fps=2, width=32, height=32),
            "silent": make_video(d / "silent.mkv", seconds=1, fps=4, width=32, height=32,
                                 audio=False)}


@pytest.fixture
def cache(tmp_path):
    return MediaCache(tmp_path / "cache")


def test_transcript_is_what_the_model_decodes_per_30s_window(cache, whisper, videos):
    from media_cache.audio import read_wav_float32

    tr = cache.transcript(videos["long"], model=whisper, language="en", max_new_tokens=30)
    assert tr.has_audio and not tr.from_cache and tr.model == str(whisper)
    assert [(s.start, s.end) for s in tr.segments][0] == (0.0, 30.0)
    assert len(tr.segments) == 2 and tr.segments[1].start == 30.0
    assert abs(tr.segments[1].end - cache.audio(videos["long"]).duration) < 1e-3

    # The same windows through the model by hand give the same text.
    loaded = asr_mod.load_asr(asr_mod.resolve_asr(whisper, cache.sha256), "cpu")
    samples, rate = read_wav_float32(cache.audio(videos["long"]).wav_path)
    fe = loaded.processor.feature_extractor
    expected = []
    for start in (0, 30 * rate):
        feats = fe([samples[start:start + 30 * rate]], sampling_rate=rate, return_tensors="pt",
                   return_attention_mask=True)
        out = loaded.model.generate(feats["input_features"], attention_mask=feats["attention_mask"],
                                    language="en", task="transcribe", max_new_tokens=30)
        expected.append(loaded.processor.batch_decode(out, skip_special_tokens=True)[0].strip())
    assert [s.text for s in tr.segments] == expected
    assert tr.text == " ".join(t for t in expected if t)
    # The tiny model is rigged to say "beach" at every step (tests/audio_models.py): the text is
    # decoded words, not special tokens, and an empty text cannot pass here.
    assert "beach" in tr.segments[0].text and "<|" not in tr.text


def test_cached_transcript_loads_nothing_and_keys_on_content_model_and_settings(
        cache, whisper, videos, tmp_path, monkeypatch):
    import shutil

    first = cache.transcript(videos["long"], model=whisper, max_new_tokens=4)
    calls = cache.stats["asr_generate_calls"]
    assert calls == 1    # both windows in one batch

    def no_load(*a, **k):
        raise AssertionError("a cached transcript must not load the model")

    monkeypatch.setattr(asr_mod, "load_asr", no_load)
    copy = tmp_path / "renamed.mp4"
    shutil.copy(videos["long"], copy)
    again = cache.transcript(copy, model=whisper, max_new_tokens=4)     # same bytes, other path
    assert again.from_cache and again.text == first.text and again.segments == first.segments
    assert cache.stats["audio:miss"] == 1     # the hit did not even extract the audio again
    monkeypatch.undo()

    # Other settings, or a model whose weights differ, are misses.
    assert not cache.transcript(videos["long"], model=whisper, max_new_tokens=3).from_cache
    other = tmp_path / "other-whisper"
    shutil.copytree(whisper, other)
    from transformers import WhisperForConditionalGeneration

    torch.manual_seed(1)
    m = WhisperForConditionalGeneration.from_pretrained(other)
    for p in m.parameters():
        p.data.add_(0.01)
    m.save_pretrained(other)
    assert not cache.transcript(videos["long"], model=other, max_new_tokens=4).from_cache


def test_video_without_audio_has_an_empty_transcript_and_runs_no_model(cache, whisper, videos,
                                                                       monkeypatch):
    monkeypatch.setattr(asr_mod, "load_asr", lambda *a, **k: pytest.fail("no audio, no model"))
    tr = cache.transcript(videos["silent"], model=whisper)
    assert tr.has_audio is False and tr.text == "" and tr.segments == ()


def test_bad_model_folders_are_one_line_errors(cache, videos, tmp_path):
    # A Hub id is fetched by name; offline (the test session), a miss says what to run online.
    with pytest.raises(MissingWeightsError, match="openai/whisper-tiny is not in the Hugging Face "
                       "cache and HF_HUB_OFFLINE is set: run `hf download openai/whisper-tiny`") as info:
        cache.transcript(videos["long"], model="openai/whisper-tiny")
    assert "\n" not in str(info.value)
    with pytest.raises(MediaError, match="not a model folder"):
        cache.transcript(videos["long"], model=str(tmp_path / "no" / "such" / "folder"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(MediaError, match="no config.json"):
        cache.transcript(videos["long"], model=tmp_path / "empty")
    (tmp_path / "empty" / "config.json").write_text("{}")
    with pytest.raises(MissingWeightsError, match="no weights"):
        cache.transcript(videos["long"], model=tmp_path / "empty")


def test_generation_is_always_bounded_by_the_decoder_length(cache, whisper, videos):
    # The tiny decoder has 64 positions: the default 224 new tokens is capped to 60, so a
    # random model that never emits end-of-text still stops (unbounded, it ran for minutes).
    tr = cache.transcript(videos["silent"].with_name("long.mp4"), model=whisper)
    assert tr.has_audio and all(len(s.text) < 60 * 16 for s in tr.segments)


def test_chunks_cover_the_track_and_drop_only_a_tiny_tail():
    import numpy as np

    windows = asr_mod.chunks(np.zeros(16000 * 61 + 800, dtype="float32"), 16000)
    assert [(s, e) for s, e, _ in windows] == [(0.0, 30.0), (30.0, 60.0), (60.0, 61.05)]
    windows = asr_mod.chunks(np.zeros(16000 * 30 + 100, dtype="float32"), 16000)
    assert [(s, e) for s, e, _ in windows] == [(0.0, 30.0)]
