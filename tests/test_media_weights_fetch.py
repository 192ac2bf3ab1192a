"""CLIP and speech-recognition weights fetched by name, from a Hub served on 127.0.0.1.

The server is tests/test_download.py's FakeHub; the real huggingface_hub client downloads into a
Hugging Face cache under tmp_path. The models are tiny and random (see test_media_clip.py and
tests/audio_models.py): this shows where weights come from and what identity is recorded, not
caption or transcript quality.
"""

from __future__ import annotations


import numpy as np
import pytest

open_clip = pytest.importorskip("open_clip")
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from media_cache import MediaCache, MediaError, MissingWeightsError  # noqa: E402
from media_cache import asr as asr_mod  # noqa: E402
from media_cache import clip as clip_mod  # noqa: E402
from media_cache.synthetic import make_image  # noqa: E402
from tests.clip_models import register_tiny_clip  # noqa: E402
from tests.test_download import FakeHub  # noqa: E402

NAME = "br-eval-fetch-clip"
OLD, NEW = "1" * 40, "2" * 40


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    from safetensors.torch import save_file

    from tests.audio_models import tiny_whisper

    d = tmp_path_factory.mktemp("fetch")
    config = register_tiny_clip(d, NAME)
    out = {}
    for seed in (0, 1):
        torch.manual_seed(seed)
        st = d / f"clip{seed}.safetensors"
        save_file({k: v.contiguous() for k, v in open_clip.create_model(NAME).state_dict().items()},
                  str(st))
        out[seed] = st.read_bytes()
    whisper = tiny_whisper(d / "whisper")
    out["whisper"] = {p.name: p.read_bytes() for p in whisper.iterdir() if p.is_file()}
    return out


@pytest.fixture
def hub(weights, tmp_path, monkeypatch):
    import huggingface_hub.constants as hf_constants
    import open_clip.pretrained as oc_pretrained

    repos = {"test-org/tiny-clip": {"refs": {"main": NEW, "v1": OLD},
                                    "commits": {OLD: {"open_clip_model.safetensors": weights[0]},
                                                NEW: {"open_clip_model.safetensors": weights[1]}}},
             "test-org/tiny-whisper": {"refs": {"main": NEW},
                                       "commits": {NEW: weights["whisper"]}}}
    monkeypatch.setitem(oc_pretrained._PRETRAINED, NAME, {"tiny": {"hf_hub": "test-org/tiny-clip/"}})
    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setattr(clip_mod, "_models", {})
    monkeypatch.setattr(clip_mod, "_text_arrays", {})
    with FakeHub(repos) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        monkeypatch.setattr(hf_constants, "ENDPOINT", server.url)
        monkeypatch.setattr(hf_constants, "HUGGINGFACE_CO_URL_TEMPLATE",
                            server.url + "/{repo_id}/resolve/{revision}/{filename}")
        monkeypatch.setenv("HF_HUB_OFFLINE", "0")
        yield server


def test_clip_tag_is_fetched_pinned_and_then_found_offline(hub, weights, tmp_path, monkeypatch):
    cache = MediaCache(tmp_path / "cache")
    spec = clip_mod.resolve_clip(NAME, "tiny", cache.sha256)
    assert spec.identity["repo"] == "test-org/tiny-clip" and spec.identity["revision"] == NEW
    assert spec.checkpoint.read_bytes() == weights[1]
    assert str(tmp_path / "hf-cache") in str(spec.checkpoint)
    pinned = clip_mod.resolve_clip(NAME, "tiny@v1", cache.sha256)
    assert pinned.identity["revision"] == OLD and pinned.checkpoint.read_bytes() == weights[0]
    assert pinned.identity_key != spec.identity_key
    img = make_image(tmp_path / "a.png", size=(40, 30), fmt="PNG", seed=0)
    cap = cache.clip_caption(img, model=NAME, pretrained="tiny", vocabulary=None)
    assert cap.embedding_path.is_file()

    # Offline, the cached copy is used and the server is not asked again.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    before = len(hub.log)
    again = clip_mod.resolve_clip(NAME, "tiny", cache.sha256)
    assert again.identity == spec.identity and len(hub.log) == before
    assert cache.clip_caption(img, model=NAME, pretrained="tiny").from_cache


def test_asr_repo_id_is_fetched_into_the_hf_cache(hub, weights, tmp_path, monkeypatch):
    cache = MediaCache(tmp_path / "cache")
    spec = asr_mod.resolve_asr("test-org/tiny-whisper", cache.sha256)
    assert spec.identity["repo"] == "test-org/tiny-whisper" and spec.identity["revision"] == NEW
    assert (spec.folder / "config.json").is_file()
    assert {n: (spec.folder / n).read_bytes() for n in spec.identity["weights"]} == {
        n: weights["whisper"][n] for n in spec.identity["weights"]}
    assert asr_mod.load_asr(spec, "cpu").model_type == "whisper"
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert asr_mod.resolve_asr("test-org/tiny-whisper", cache.sha256).identity == spec.identity


def test_unknown_repo_and_revision_are_one_line(hub, tmp_path, monkeypatch):
    cache = MediaCache(tmp_path / "cache")
    with pytest.raises(MediaError, match="Hub repo test-org/nope not found") as info:
        asr_mod.resolve_asr("test-org/nope", cache.sha256)
    assert "\n" not in str(info.value)
    with pytest.raises(MediaError, match="revision 'v9' does not exist in test-org/tiny-clip"):
        clip_mod.resolve_clip(NAME, "tiny@v9", cache.sha256)
    # Offline with an empty cache: one line naming the command to run online.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(MissingWeightsError, match="run `hf download test-org/tiny-clip "
                       "open_clip_model.safetensors --revision v1` while online"):
        clip_mod.resolve_clip(NAME, "tiny@v1", cache.sha256)
