"""Video audio as an agent input: MediaInput.audio()/transcript(), the built-in agents' choice of
audio parts or transcripts, rag indexing transcripts, `show` and `prepare --asr`. Videos are the
sample snapshot's real MP4s (two with an AAC track, one silent); the ASR model is the tiny
random-weight Whisper of tests/audio_models.py, rigged to say "beach": this CANNOT show transcript
quality, only that its text reaches the prompt and the index."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from evaluator.agents.builtin import FullContextAgent, RagAgent
from evaluator.agents.protocol import MediaPreparer, MemorySession, MemoryTurn, Query
from evaluator.errors import EvalError
from evaluator.models import make_model
from evaluator.models.base import AudioPart, ImagePart, TextPart
from media_cache import MediaCache

pytest.importorskip("transformers")
pytest.importorskip("torch")

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
WITH_AUDIO, SILENT = "videos/clip_parade.mp4", "videos/clip_timelapse_silent.mp4"


@pytest.fixture(scope="module")
def whisper(tmp_path_factory):
    from tests.audio_models import tiny_whisper

    return tiny_whisper(tmp_path_factory.mktemp("tiny-whisper"))


def preparer(snapshot, tmp_path, **kw):
    return MediaPreparer(snapshot / "benchmark", num_frames=2, cache=MediaCache(tmp_path / "c"), **kw)


def session(prep, usage):
    turns = [MemoryTurn(0, 0, T0, "user", "look at this clip", prep.wrap([WITH_AUDIO], usage)),
             MemoryTurn(0, 1, T0, "user", "and the quiet one", prep.wrap([SILENT], usage)),
             MemoryTurn(0, 2, T0, "assistant", "lovely colours", [])]
    return MemorySession(0, T0, turns)


def ask(agent_cls, model, sess, text="what was said?", **args):
    agent = agent_cls(model=model, **args)
    agent.write(sess)
    agent.answer(Query("k", "t", text, [], None))
    return [p for m in model.calls[-1]["messages"] for p in m.content]


def test_media_input_audio_is_a_cached_wav_or_none(sample_snapshot, tmp_path):
    from media_cache.audio import read_wav_float32

    usage: list = []
    prep = preparer(sample_snapshot, tmp_path)
    loud, quiet = prep.wrap([WITH_AUDIO, SILENT], usage)
    samples, rate = read_wav_float32(loud.audio())
    assert rate == 16000 and samples.size > 16000 * 0.5
    assert quiet.audio() is None and loud.transcript() is None      # no --asr: no transcript
    assert prep.wrap(["images/photo_harbour.png"], usage)[0].audio() is None
    assert {"path": WITH_AUDIO, "kind": "video", "audio": True,
            "seconds": round(samples.size / 16000, 3)} in usage


def test_audio_model_gets_audio_parts_text_model_gets_transcripts(sample_snapshot, tmp_path, whisper):
    usage: list = []
    prep = preparer(sample_snapshot, tmp_path, asr_model=str(whisper))
    sess = session(prep, usage)

    takes_audio = make_model("mock", {"replies": "ok", "supports_audio": True})
    parts = ask(FullContextAgent, takes_audio, sess)
    audio = [p for p in parts if isinstance(p, AudioPart)]
    assert len(audio) == 1 and audio[0].path == sess.turns[0].media[0].audio()
    assert not any(isinstance(p, TextPart) and "[speech" in p.text for p in parts)

    vlm = make_model("mock", {"replies": "ok"})                  # images, no audio
    parts = ask(FullContextAgent, vlm, sess)
    assert not any(isinstance(p, AudioPart) for p in parts)
    assert sum(isinstance(p, ImagePart) for p in parts) == 4     # 2 frames per video
    speech = [p.text for p in parts if isinstance(p, TextPart) and p.text.startswith("[speech in")]
    assert speech == [f"[speech in clip_parade.mp4] {sess.turns[0].media[0].transcript()}\n"]
    assert "beach" in speech[0]

    text_only = make_model("mock", {"replies": "ok", "supports_images": False})
    parts = ask(FullContextAgent, text_only, sess)
    video_text = [p.text for p in parts if isinstance(p, TextPart) and p.text.startswith("[video")]
    assert "[speech] beach" in video_text[0] and "with audio" in video_text[0]
    assert "[speech" not in video_text[1] and "no audio" in video_text[1]
    assert any(u.get("transcript") == str(whisper) for u in usage)

    # Explicit choices: audio next to text, and a clear error for a model without audio.
    parts = ask(FullContextAgent, takes_audio, sess, media="text+audio")
    assert any(isinstance(p, AudioPart) for p in parts) and not any(isinstance(p, ImagePart) for p in parts)
    with pytest.raises(EvalError, match="takes none"):
        ask(FullContextAgent, vlm, sess, media="images,audio")
    with pytest.raises(EvalError, match="media='pictures'"):
        ask(FullContextAgent, vlm, sess, media="pictures")


def test_rag_indexes_transcripts(sample_snapshot, tmp_path, whisper):
    model = make_model("mock", {"replies": "ok", "supports_images": False})
    with_asr = session(preparer(sample_snapshot, tmp_path, asr_model=str(whisper)), [])
    agent = RagAgent(model=model, top_k=1, last=0)
    agent.write(with_asr)
    assert [t.ref for t in agent.choose(Query("k", "t", "the beach?", [], None))] == [(0, 0)]
    without = session(preparer(sample_snapshot, tmp_path / "b"), [])
    agent = RagAgent(model=model, top_k=1, last=0)
    agent.write(without)
    assert agent.choose(Query("k", "t", "the beach?", [], None)) == []


def test_show_lists_each_videos_audio(sample_snapshot, capsys):
    from evaluator.cli import main

    assert main(["show", "reasoning/cross_modal_relational_reasoning/0/q0",
                 "--data", str(sample_snapshot)]) == 0
    assert "videos/clip_parade.mp4 (+audio track)" in capsys.readouterr().out
    assert main(["show", "reasoning/cross_modal_relational_reasoning/2/q0",
                 "--data", str(sample_snapshot)]) == 0
    assert "videos/clip_timelapse_silent.mp4 (no audio)" in capsys.readouterr().out


def test_prepare_asr_transcribes_each_audio_track_once(sample_snapshot, tmp_path, whisper, capsys):
    from evaluator.cli import main

    argv = ["prepare", "--data", str(sample_snapshot), "--tasks", "cross_modal_relational_reasoning",
            "--cache-dir", str(tmp_path / "c"), "--asr", str(whisper), "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "transcripts of 2 audio tracks" in out
    tr = MediaCache(tmp_path / "c").transcript(sample_snapshot / "benchmark" / WITH_AUDIO,
                                               model=whisper)
    assert tr.from_cache and "beach" in tr.text
    assert main(argv) == 0
    assert " 0 prepared" in capsys.readouterr().out
    assert main(argv[:-3] + ["--asr", str(tmp_path / "nope"), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "not a model folder" in err and "Traceback" not in err
