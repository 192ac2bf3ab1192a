"""CLIP captions and embeddings through open_clip, with a tiny model built in the test.

The model here has random weights (one-layer towers, 16-d embeddings), so these tests CANNOT show
caption quality: the labels it picks are meaningless. They show that weights are loaded from the
path users pass (a local checkpoint, or an existing Hugging Face cache entry for a pretrained
tag), that captions and embeddings come out in the documented shape, that both are cached and
reused without loading the model again, that images are encoded in batches, and that missing
weights give one line instead of a download.
"""

from __future__ import annotations

import json
import re
import socket

import numpy as np
import pytest

open_clip = pytest.importorskip("open_clip")
torch = pytest.importorskip("torch")

from media_cache import MediaCache, MediaError, MissingWeightsError  # noqa: E402
from media_cache import clip as clip_mod  # noqa: E402
from media_cache.synthetic import make_image, make_pdf  # noqa: E402
from tests.clip_models import TINY_CLIP, register_tiny_clip  # noqa: E402

NAME = "br-eval-tiny-clip"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("tiny_clip")
    config = register_tiny_clip(d, NAME)
    torch.manual_seed(0)
    model = open_clip.create_model(NAME)
    from safetensors.torch import save_file

    st = d / "open_clip_model.safetensors"
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(st))
    pt = d / "tiny.pt"
    torch.save(model.state_dict(), pt)
    return {"config": config, "safetensors": st, "pt": pt, "dir": d}


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a test tried to open a network connection")
    monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.fixture
def fresh_process_state(monkeypatch):
    """Forget models and arrays memoised in this process, as a new process would."""
    monkeypatch.setattr(clip_mod, "_models", {})
    monkeypatch.setattr(clip_mod, "_text_arrays", {})


@pytest.fixture
def images(tmp_path):
    return [make_image(tmp_path / f"img{i}.png", size=(40, 30), fmt="PNG", seed=i) for i in range(5)]


@pytest.fixture
def vocab(tmp_path):
    f = tmp_path / "vocab.txt"
    f.write_text("# my labels\ndog\nbeach\nball\n\nkitchen\ndog\nsunset\n")
    return f


def direct_embedding(checkpoint, image_path):
    """The same embedding computed by hand with open_clip, to check the weights were loaded."""
    from PIL import Image

    model, _, preprocess = open_clip.create_model_and_transforms(NAME, pretrained=str(checkpoint))
    model.eval()
    with torch.inference_mode(), Image.open(image_path) as im:
        e = model.encode_image(preprocess(im.convert("RGB")).unsqueeze(0))
    return torch.nn.functional.normalize(e, dim=-1)[0].numpy()


def test_captions_and_embeddings_from_a_local_checkpoint(tmp_path, tiny, images, vocab,
                                                         fresh_process_state):
    cache = MediaCache(tmp_path / "cache")
    caps = cache.clip_captions(images, model=NAME, pretrained=tiny["safetensors"],
                               vocabulary=vocab, top_k=3)
    assert len(caps) == len(images)
    labels = {"dog", "beach", "ball", "kitchen", "sunset"}
    for cap, img in zip(caps, images):
        assert cap.source == img and not cap.from_cache
        assert re.fullmatch(r"a photo of: [a-z]+ \(\d\.\d\d\), [a-z]+ \(\d\.\d\d\), [a-z]+ \(\d\.\d\d\)", cap.text)
        assert len(cap.labels) == 3 and {label for label, _ in cap.labels} <= labels
        scores = [s for _, s in cap.labels]
        assert scores == sorted(scores, reverse=True) and 0 < sum(scores) <= 1.0001
        emb = np.load(cap.embedding_path)
        assert emb.shape == (16,) and emb.dtype == np.float32
        assert np.linalg.norm(emb) == pytest.approx(1, abs=1e-5)
    np.testing.assert_allclose(np.load(caps[2].embedding_path),
                               direct_embedding(tiny["safetensors"], images[2]), atol=1e-5)
    assert len({c.embedding_path for c in caps}) == 5
    # 5 images, batch 32: one image batch; the 5-label vocabulary: one text batch.
    assert cache.stats["clip_forward_calls"] == 2 and cache.stats["clip_model_loads"] == 1


def test_cached_captions_do_not_load_or_run_the_model(tmp_path, tiny, images, vocab,
                                                      fresh_process_state, monkeypatch):
    root = tmp_path / "cache"
    first = MediaCache(root).clip_captions(images, model=NAME, pretrained=tiny["safetensors"],
                                           vocabulary=vocab)
    # A new process: nothing in memory, and building a model would fail loudly.
    monkeypatch.setattr(clip_mod, "_models", {})
    monkeypatch.setattr(clip_mod, "_text_arrays", {})

    def must_not_build(*args, **kwargs):
        raise AssertionError("the model was built although everything is cached")
    monkeypatch.setattr(open_clip, "create_model_and_transforms", must_not_build)
    cache = MediaCache(root)
    again = cache.clip_captions(images, model=NAME, pretrained=tiny["safetensors"], vocabulary=vocab)
    assert again == first and all(c.from_cache for c in again)
    assert cache.stats["clip_forward_calls"] == 0 and cache.stats["clip_model_loads"] == 0
    # top_k and a single-image call reuse the same cached embedding.
    one = cache.clip_caption(images[0], model=NAME, pretrained=tiny["safetensors"],
                             vocabulary=vocab, top_k=1)
    assert one.embedding_path == first[0].embedding_path and len(one.labels) == 1
    assert one.labels[0] == first[0].labels[0]


def test_images_are_encoded_in_batches_and_same_content_once(tmp_path, tiny, images, vocab,
                                                             fresh_process_state):
    cache = MediaCache(tmp_path / "cache")
    dup = tmp_path / "copy_of_img0.png"
    dup.write_bytes(images[0].read_bytes())
    seen = []
    caps = cache.clip_captions([*images, dup], model=NAME, pretrained=tiny["pt"],
                               vocabulary=vocab, batch_size=2, progress=seen.append)
    # 5 distinct contents in batches of 2 -> 3 image forward calls, plus 1 for the vocabulary.
    assert cache.stats["clip_forward_calls"] == 4
    assert caps[-1].embedding_path == caps[0].embedding_path
    assert sum(seen) == 6


def test_default_vocabulary_and_other_inputs(tmp_path, tiny, fresh_process_state):
    vocab = clip_mod.load_vocabulary()
    assert len(vocab.labels) >= 300 and len(set(vocab.labels)) == len(vocab.labels)
    assert {"a dog", "a beach", "people hiking"} <= set(vocab.labels)
    cache = MediaCache(tmp_path / "cache")
    page = cache.pdf_pages(make_pdf(tmp_path / "a.pdf", pages=1), dpi=36).pages[0]
    webp = make_image(tmp_path / "x.webp", fmt="WEBP")
    caps = cache.clip_captions([page.image_path, webp], model=str(tiny["config"]),
                               pretrained=tiny["safetensors"])
    assert all(c.text.startswith("a photo of: ") and len(c.labels) == 3 for c in caps)
    assert all(label in vocab.labels for c in caps for label, _ in c.labels)


def test_pretrained_tag_found_in_an_existing_hub_cache(tmp_path, tiny, images, vocab, monkeypatch,
                                                       fresh_process_state):
    import huggingface_hub.constants as hf_constants
    import open_clip.pretrained as oc_pretrained

    hub = tmp_path / "hub"
    snap = hub / "models--test-org--tiny-clip" / "snapshots" / ("a" * 40)
    snap.mkdir(parents=True)
    (snap / "open_clip_model.safetensors").write_bytes(tiny["safetensors"].read_bytes())
    (hub / "models--test-org--tiny-clip" / "refs").mkdir()
    (hub / "models--test-org--tiny-clip" / "refs" / "main").write_text("a" * 40)
    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(hub))
    monkeypatch.setitem(oc_pretrained._PRETRAINED, NAME, {"tiny": {"hf_hub": "test-org/tiny-clip/"}})
    cache = MediaCache(tmp_path / "cache")
    cap = cache.clip_caption(images[1], model=NAME, pretrained="tiny", vocabulary=vocab)
    np.testing.assert_allclose(np.load(cap.embedding_path),
                               direct_embedding(tiny["safetensors"], images[1]), atol=1e-5)
    # Same weights by path: the key holds the weights' sha256, not how they were named, but a
    # tag may carry its own preprocessing, so it is a separate entry only if that differs.
    by_path = cache.clip_caption(images[1], model=NAME, pretrained=tiny["safetensors"], vocabulary=vocab)
    np.testing.assert_allclose(np.load(by_path.embedding_path), np.load(cap.embedding_path), atol=1e-6)


def test_missing_weights_say_how_to_provide_them(tmp_path, tiny, images, monkeypatch):
    import huggingface_hub.constants as hf_constants

    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(tmp_path / "empty_hub"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    cache = MediaCache(tmp_path / "cache")
    for pretrained in (None, "laion2b_s34b_b79k"):
        with pytest.raises(MissingWeightsError) as err:
            cache.clip_caption(images[0], model="ViT-B-32", pretrained=pretrained)
        msg = str(err.value)
        # The default tag is fetched by name; offline, the miss says what to run online.
        assert "\n" not in msg and "--clip-pretrained" in msg and "HF_HUB_OFFLINE is set" in msg
        assert ("`hf download laion/CLIP-ViT-B-32-laion2B-s34B-b79K open_clip_model.safetensors`"
                in msg), msg
    with pytest.raises(MediaError, match="no such CLIP checkpoint"):
        cache.clip_caption(images[0], model=NAME, pretrained=tmp_path / "nope.safetensors")
    with pytest.raises(MediaError, match="not a pretrained|neither a file"):
        cache.clip_caption(images[0], model="ViT-B-32", pretrained="no-such-tag")
    assert cache.store.info().entries == 0


def test_undecodable_image_names_the_file(tmp_path, tiny, vocab, fresh_process_state):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"nope")
    with pytest.raises(MediaError, match="bad.jpg"):
        MediaCache(tmp_path / "cache").clip_caption(bad, model=NAME, pretrained=tiny["pt"],
                                                    vocabulary=vocab)


def test_local_dir_and_cached_hf_hub_models(tmp_path, tiny, images, vocab, monkeypatch,
                                            fresh_process_state):
    """open_clip's own folder layout (config + weights), given directly or found in the hub cache."""
    import huggingface_hub.constants as hf_constants

    hub = tmp_path / "hub"
    repo = hub / "models--test-org--tiny-dir"
    snap = repo / "snapshots" / ("b" * 40)
    snap.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("b" * 40)
    (snap / "open_clip_config.json").write_text(json.dumps({"model_cfg": TINY_CLIP, "preprocess_cfg": {}}))
    (snap / "open_clip_model.safetensors").write_bytes(tiny["safetensors"].read_bytes())
    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(hub))
    cache = MediaCache(tmp_path / "cache")
    expected = direct_embedding(tiny["safetensors"], images[3])
    local = cache.clip_caption(images[3], model=f"local-dir:{snap}", vocabulary=vocab)
    hf = cache.clip_caption(images[3], model="hf-hub:test-org/tiny-dir", vocabulary=vocab)
    for cap in (local, hf):
        np.testing.assert_allclose(np.load(cap.embedding_path), expected, atol=1e-5)
    with pytest.raises(MissingWeightsError, match="test-org/not-cached is not in the Hugging Face "
                       "cache and HF_HUB_OFFLINE is set: run `hf download test-org/not-cached"):
        cache.clip_caption(images[3], model="hf-hub:test-org/not-cached", vocabulary=vocab)
