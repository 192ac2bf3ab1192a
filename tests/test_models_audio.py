"""Audio message parts: a video's cached 16 kHz track reaching the openai backend (input_audio
parts, against a fake server on 127.0.0.1 through the real openai client), the hf backend (a tiny
random-weight Qwen2-Audio built from a config, tests/audio_models.py), the mock and the response
cache. The Qwen2-Audio's weights are random: the tests show the samples reach its audio encoder
as the processor's features, never what a real model would make of them."""

from __future__ import annotations

import base64
import io
import shutil
import wave

import numpy as np
import pytest

from evaluator.errors import EvalError
from evaluator.models import make_model
from evaluator.models.base import AudioPart, Message, ModelCallError, TextPart
from tests.test_models_hf import spy_on_generate
from evaluator.models.cache import request_key
from media_cache import MediaCache
from media_cache.audio import read_wav_float32
from media_cache.synthetic import make_video
from tests.test_models_openai import FakeOpenAIServer, error_body, model_for


@pytest.fixture(scope="module")
def track(tmp_path_factory):
    d = tmp_path_factory.mktemp("audio-track")
    video = make_video(d / "clip.mp4", seconds=2, fps=4, width=32, height=32)
    return MediaCache(d / "cache").audio(video)


@pytest.fixture
def server():
    with FakeOpenAIServer() as srv:
        yield srv


def ask_with_audio(wav) -> list[Message]:
    return [Message("user", (TextPart("What did they say?"), AudioPart(str(wav))))]


def test_openai_sends_the_track_as_an_input_audio_wav(server, track):
    model = model_for(server, audio=True)
    assert model.supports_audio
    generation = model.generate(ask_with_audio(track.wav_path))
    assert generation.text == "echo: What did they say?"
    parts = server.requests[0]["messages"][0]["content"]
    audio = [p for p in parts if p["type"] == "input_audio"]
    assert len(audio) == 1 and audio[0]["input_audio"]["format"] == "wav"
    with wave.open(io.BytesIO(base64.b64decode(audio[0]["input_audio"]["data"]))) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16000)
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    samples, _ = read_wav_float32(track.wav_path)
    assert pcm.size == samples.size and samples.std() > 0.01     # the real track, not silence
    assert np.abs(pcm / 32767 - samples).max() < 1e-3


def test_openai_without_audio_true_refuses_audio_parts(server, track):
    model = model_for(server)
    assert model.supports_audio is False
    with pytest.raises(ModelCallError, match="audio=true"):
        model.generate(ask_with_audio(track.wav_path))
    assert server.requests == []
    assert make_model("openai", {"base_url": server.base_url, "model": "m",
                                 "audio": "true"}).supports_audio is True


def test_openai_audio_preflight_turns_a_rejection_into_one_error_line(server):
    model = model_for(server, audio=True, max_retries=0)
    model.preflight(images=False, audio=True)                  # an audio-capable server: passes
    probes = [r for r in server.requests if isinstance(r["messages"][0]["content"], list)]
    assert [p["type"] for p in probes[0]["messages"][0]["content"]] == ["text", "input_audio"]
    assert probes[0]["max_tokens"] == 1
    server.script.extend([None, (400, error_body("Unknown part type: input_audio"))])
    with pytest.raises(EvalError) as info:
        model.preflight(images=False, audio=True)
    msg = str(info.value)
    assert "HTTP 400: Unknown part type: input_audio" in msg and "audio=true" in msg
    assert "\n" not in msg
    before = len(server.requests)
    model_for(server).preflight(images=False, audio=False)     # audio off: no audio probe
    assert len(server.requests) == before + 1


def test_response_cache_keys_audio_by_content(track, tmp_path):
    copy = tmp_path / "same.wav"
    shutil.copy(track.wav_path, copy)
    other = tmp_path / "other.wav"
    raw = bytearray(track.wav_path.read_bytes())
    raw[-4:] = b"\x00\x00\x80\x3f"            # last sample = 1.0
    other.write_bytes(bytes(raw))
    key = lambda p: request_key("openai", "m", {}, ask_with_audio(p))   # noqa: E731
    assert key(track.wav_path) == key(copy) != key(other)


def test_mock_counts_audio_and_refuses_it_unless_declared(track):
    mock = make_model("mock", {"replies": "ok", "supports_audio": True})
    assert mock.generate(ask_with_audio(track.wav_path)).raw["audio"] == 1
    with pytest.raises(ModelCallError, match="supports_audio"):
        make_model("mock", {"replies": "ok"}).generate(ask_with_audio(track.wav_path))


# ---- hf: a tiny Qwen2-Audio ----------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_qwen2_audio(tmp_path_factory):
    pytest.importorskip("transformers")
    pytest.importorskip("torch")
    from tests.audio_models import tiny_qwen2_audio as build

    return build(tmp_path_factory.mktemp("tiny-qwen2-audio"))


def test_hf_audio_model_gets_the_track_through_its_processor(tiny_qwen2_audio, track, monkeypatch):
    import torch

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = make_model("hf", {"pretrained": str(tiny_qwen2_audio), "device": "cpu",
                              "max_new_tokens": 3})
    assert model.supports_audio and not model.supports_images
    model.load()
    seen = spy_on_generate(model)
    messages = [Message.text("system", "you remember the user's life."),
                Message("user", (TextPart("what did they say in the video?"),
                                 AudioPart(str(track.wav_path))))]
    generation = model.generate(messages)
    assert 1 <= generation.output_tokens <= 3

    samples, rate = read_wav_float32(track.wav_path)
    fe = model._processor.feature_extractor
    expected = fe([samples], sampling_rate=rate, return_tensors="pt", return_attention_mask=True)
    assert torch.allclose(seen["input_features"], expected["input_features"], atol=1e-5)
    # ~2 s of audio = one feature frame per 10 ms of the 3000 (the rest is padding).
    frames = int(seen["feature_attention_mask"].sum())
    assert frames == int(expected["attention_mask"].sum()) and abs(frames - samples.size / 160) <= 1
    audio_token = model._tokenizer.convert_tokens_to_ids("<|AUDIO|>")
    n_audio = int((seen["input_ids"][0] == audio_token).sum())
    # The one placeholder was expanded to Qwen2-Audio's count for this length (two stride-2 steps).
    assert n_audio == (((frames - 1) // 2 + 1) - 2) // 2 + 1
    prompt = model._tokenizer.decode(seen["input_ids"][0][seen["input_ids"][0] != audio_token])
    assert prompt.startswith("SYSTEM: you remember the user's life.\nUSER: what did they say in the video?")


def test_hf_models_without_an_audio_encoder_refuse_audio(tmp_path, track, monkeypatch):
    pytest.importorskip("transformers")
    from tests.test_models_hf import llama_config, tiny_tokenizer
    from transformers import LlamaForCausalLM

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    tokenizer = tiny_tokenizer()
    LlamaForCausalLM(llama_config(len(tokenizer))).save_pretrained(tmp_path / "llama")
    tokenizer.save_pretrained(tmp_path / "llama")
    model = make_model("hf", {"pretrained": str(tmp_path / "llama"), "device": "cpu"})
    assert model.supports_audio is False
    with pytest.raises(EvalError, match="takes no audio"):
        model.generate(ask_with_audio(track.wav_path))
