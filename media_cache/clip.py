"""CLIP image embeddings and zero-shot captions with open_clip.

`pretrained` is either a local checkpoint file (.safetensors/.bin/.pt/.pth) or an open_clip
pretrained tag, optionally pinned to a Hub revision as `tag@revision` (default for ViT-B-32:
DEFAULT_PRETRAINED). A tag's weights are fetched from the Hugging Face Hub repo open_clip names
for it, into the normal Hugging Face cache (media_cache.hub); with HF_HUB_OFFLINE=1 only that
cache is read (tags open_clip serves only by URL must already be in ~/.cache/clip). `model` is
an open_clip model name, a path to a model-config JSON file (registered with open_clip under its
file stem), `local-dir:DIR` (open_clip_config.json plus weights in DIR) or
`hf-hub:org/repo[@revision]` (fetched the same way). Fetched weights are identified by the repo,
the resolved commit and the file's sha256.

What is cached (see media_cache.store):
- `clip_image`: one image's L2-normalised embedding, keyed by the image file's sha256 and the
  model identity (model name, weights sha256, config sha256, preprocessing override).
- `clip_text`: the vocabulary's prompt embeddings and the model's logit scale, keyed by the
  vocabulary's sha256 plus the model identity and prompt template.
A caption is a cheap product of the two (softmax over the vocabulary), so changing `top_k` or
the vocabulary never re-encodes an image, and a fully cached call never loads the model.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from media_cache import hub
from media_cache.device import default_device, load_once
from media_cache.errors import MediaError, MissingWeightsError

DEFAULT_MODEL = "ViT-B-32"
DEFAULT_PRETRAINED = "laion2b_s34b_b79k"    # open_clip's tag for ViT-B-32 (LAION-2B), on the Hub
DEFAULT_TEMPLATE = "a photo of {}."
DEFAULT_TOP_K = 3
DEFAULT_BATCH_SIZE = 32
VOCABULARY_FILE = Path(__file__).with_name("clip_vocabulary.txt")
_CHECKPOINT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".ckpt")
_PREFERRED_IN_DIR = ("open_clip_model.safetensors", "open_clip_pytorch_model.safetensors",
                     "open_clip_pytorch_model.bin", "open_clip_pytorch_model.pth",
                     "model.safetensors", "pytorch_model.bin", "pytorch_model.pth", "model.pth")

_lock = threading.Lock()
_models: dict[tuple[str, str], "LoadedClip"] = {}
_text_arrays: dict[str, object] = {}


def _how_to_provide(model: str, pretrained: str | None) -> str:
    what = f"{model}" + (f" / {pretrained}" if pretrained else "")
    return (f"CLIP weights for {what} are not on this machine: pass --clip-pretrained with an "
            f"open_clip pretrained tag of --clip-model {model} (fetched from the Hugging Face Hub "
            f"unless HF_HUB_OFFLINE is set) or a local .safetensors, .bin or .pt checkpoint")


@dataclass(frozen=True)
class Vocabulary:
    labels: tuple[str, ...]
    sha256: str          # of the normalised label list, not of the file's bytes
    path: Path


def load_vocabulary(path: Path | str | None = None) -> Vocabulary:
    """One label per line; blank lines and lines starting with '#' are ignored, repeats dropped."""
    path = Path(path) if path is not None else VOCABULARY_FILE
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise MediaError(f"{path}: cannot read vocabulary ({exc})") from None
    labels: list[str] = []
    seen: set[str] = set()
    for line in lines:
        label = line.strip()
        if label and not label.startswith("#") and label not in seen:
            seen.add(label)
            labels.append(label)
    if not labels:
        raise MediaError(f"{path}: vocabulary has no labels")
    sha = hashlib.sha256("\n".join(labels).encode("utf-8")).hexdigest()
    return Vocabulary(tuple(labels), sha, path)


@dataclass(frozen=True)
class ClipSpec:
    """A resolved model: what open_clip needs to build it, and the identity used in cache keys."""

    model: str                      # as the user asked
    pretrained: str | None
    open_clip_name: str             # name passed to open_clip.create_model_and_transforms
    checkpoint: Path | None         # weights file (None for local-dir:, found by open_clip)
    config_file: Path | None        # a JSON config to register with open_clip first
    identity: dict = field(hash=False)
    create_kwargs: dict = field(hash=False)

    @property
    def label(self) -> str:
        return f"{self.model}:{self.pretrained}" if self.pretrained else self.model

    @property
    def identity_key(self) -> str:
        return json.dumps(self.identity, sort_keys=True)


def _find_checkpoint_in_dir(folder: Path) -> Path | None:
    for name in _PREFERRED_IN_DIR:
        if (folder / name).is_file():
            return folder / name
    found = sorted(p for p in folder.iterdir() if p.suffix in _CHECKPOINT_SUFFIXES and p.is_file())
    return found[0] if found else None


def resolve_clip(model: str, pretrained: str | os.PathLike | None, sha256_file) -> ClipSpec:
    """Find (or fetch by name) the weights and describe the model for cache keys.

    `sha256_file(path)` hashes a file (the store's memoised hasher). Only the pretrained-tag
    case imports open_clip; a local checkpoint is resolved with the standard library.
    """
    pretrained = os.fspath(pretrained) if pretrained is not None else None
    identity: dict = {"model": model}
    create_kwargs: dict = {}
    config_file = None

    if model.startswith("hf-hub:"):
        repo, revision = hub.split_revision(model[len("hf-hub:"):])
        what, hint = f"--clip-model {model}", "or pass --clip-model local-dir:/path/to/folder"
        config = hub.fetch_file(repo, ["open_clip_config.json"], revision, what=what, hint=hint)
        # The weights from the same commit as the config.
        hub.fetch_file(repo, list(_PREFERRED_IN_DIR), config.commit, what=what, hint=hint)
        identity.update(repo=repo, revision=config.commit)
        model = "local-dir:" + str(config.path.parent)
    if model.startswith("local-dir:"):
        folder = Path(model[len("local-dir:"):]).expanduser()
        if not (folder / "open_clip_config.json").is_file():
            raise MediaError(f"{folder}: no open_clip_config.json for --clip-model {model}")
        checkpoint = _find_checkpoint_in_dir(folder)
        if checkpoint is None:
            raise MissingWeightsError(_how_to_provide(model, pretrained))
        identity.update(weights=sha256_file(checkpoint),
                        config=sha256_file(folder / "open_clip_config.json"))
        return ClipSpec(identity["model"], None, model, None, None, identity, create_kwargs)

    open_clip_name = model
    if model.endswith(".json"):
        config_file = Path(model).expanduser()
        if not config_file.is_file():
            raise MediaError(f"{config_file}: no such model config file")
        open_clip_name = config_file.stem
        identity["config"] = sha256_file(config_file)
    if not pretrained and model == DEFAULT_MODEL:
        pretrained = DEFAULT_PRETRAINED
    if not pretrained:
        raise MissingWeightsError(_how_to_provide(model, pretrained))
    checkpoint = Path(pretrained).expanduser()
    if checkpoint.is_file():
        identity["weights"] = sha256_file(checkpoint)
        return ClipSpec(model, pretrained, open_clip_name, checkpoint, config_file, identity,
                        create_kwargs)
    if os.sep in pretrained or checkpoint.suffix in _CHECKPOINT_SUFFIXES:
        raise MediaError(f"{checkpoint}: no such CLIP checkpoint file")

    # An open_clip pretrained tag (`tag@revision` pins the Hub revision).
    import open_clip

    tag, revision = hub.split_revision(pretrained)
    cfg = open_clip.get_pretrained_cfg(open_clip_name, tag)
    if not cfg:
        raise MediaError(f"--clip-pretrained {pretrained}: neither a file nor a pretrained tag of "
                         f"{model} known to open_clip")
    found: Path | None = None
    if cfg.get("file") and Path(cfg["file"]).is_file():
        found = Path(cfg["file"])
    if found is None and cfg.get("hf_hub"):
        # open_clip's form: "org/repo/filename", or "org/repo/" for its default file name.
        repo, filename = os.path.split(cfg["hf_hub"])
        filename = filename or "open_clip_pytorch_model.bin"
        candidates = [filename]
        if filename == "open_clip_pytorch_model.bin":
            candidates.insert(0, "open_clip_model.safetensors")
        elif filename.endswith((".bin", ".pth")):
            candidates.insert(0, filename[:-4] + ".safetensors")
        fetched = hub.fetch_file(repo, candidates, revision,
                                 what=f"CLIP weights for {model} / {pretrained}",
                                 hint="or pass --clip-pretrained /path/to/open_clip_model.safetensors")
        found = fetched.path
        identity.update(repo=repo, revision=fetched.commit)
    if found is None and cfg.get("url"):
        local = Path(os.path.expanduser("~/.cache/clip")) / os.path.basename(cfg["url"])
        if local.is_file():
            found = local
    if found is None:
        raise MissingWeightsError(_how_to_provide(model, pretrained))
    # The tag's own preprocessing (mean/std/resize) and activation, as open_clip would apply.
    preprocess = {k: cfg[k] for k in ("mean", "std", "interpolation", "resize_mode") if k in cfg}
    if preprocess.get("mean"):
        create_kwargs["image_mean"] = tuple(preprocess["mean"])
    if preprocess.get("std"):
        create_kwargs["image_std"] = tuple(preprocess["std"])
    if preprocess.get("interpolation"):
        create_kwargs["image_interpolation"] = preprocess["interpolation"]
    if preprocess.get("resize_mode"):
        create_kwargs["image_resize_mode"] = preprocess["resize_mode"]
    if cfg.get("quick_gelu"):
        create_kwargs["force_quick_gelu"] = True
    identity.update(weights=sha256_file(found), preprocess=preprocess,
                    quick_gelu=bool(cfg.get("quick_gelu")))
    return ClipSpec(model, pretrained, open_clip_name, found, config_file, identity, create_kwargs)


@dataclass
class LoadedClip:
    model: object
    preprocess: object
    tokenizer: object
    device: str
    forward_calls: int = 0    # encode_image / encode_text calls, for tests and stats


def load_clip(spec: ClipSpec, device: str | None = None) -> LoadedClip:
    """Build the model once per process (memoised by identity and device)."""
    device = device or default_device()
    return load_once(_models, _lock, (spec.identity_key, device), lambda: _build(spec, device))


def _build(spec: ClipSpec, device: str) -> LoadedClip:
    try:
        import open_clip
        import torch  # noqa: F401
    except ImportError as exc:
        raise MediaError(f"CLIP captions need open_clip and torch (pip install 'br-eval[clip]'): {exc}") from None
    if spec.config_file is not None:
        open_clip.add_model_config(spec.config_file)
    try:
        model, _, preprocess = open_clip.create_model_and_transforms(
            spec.open_clip_name,
            pretrained=str(spec.checkpoint) if spec.checkpoint is not None else None,
            device=device, **spec.create_kwargs)
        tokenizer = open_clip.get_tokenizer(spec.open_clip_name)
    except (RuntimeError, ValueError, KeyError, OSError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        raise MediaError(f"cannot load CLIP {spec.label}: {first}") from None
    model.eval()
    return LoadedClip(model, preprocess, tokenizer, device)


def encode_images(loaded: LoadedClip, images) -> "object":
    """L2-normalised float32 embeddings (numpy, one row per PIL image)."""
    import torch

    batch = torch.stack([loaded.preprocess(im) for im in images]).to(loaded.device)
    with torch.inference_mode():
        feats = loaded.model.encode_image(batch)
        loaded.forward_calls += 1
        feats = torch.nn.functional.normalize(feats.float(), dim=-1)
    return feats.cpu().numpy().astype("float32")


def encode_texts(loaded: LoadedClip, texts: list[str], batch_size: int = 256) -> "object":
    import numpy as np
    import torch

    out = []
    for start in range(0, len(texts), batch_size):
        tokens = loaded.tokenizer(texts[start:start + batch_size]).to(loaded.device)
        with torch.inference_mode():
            feats = loaded.model.encode_text(tokens)
            loaded.forward_calls += 1
            out.append(torch.nn.functional.normalize(feats.float(), dim=-1).cpu().numpy())
    return np.concatenate(out).astype("float32")


def logit_scale(loaded: LoadedClip) -> float:
    scale = getattr(loaded.model, "logit_scale", None)
    if scale is None:
        return 100.0
    return float(scale.detach().exp().reshape(-1)[0].cpu())


def caption_from(embedding, text_embeddings, labels, scale: float, top_k: int) -> tuple[str, tuple]:
    """Top-k labels by softmax over the whole vocabulary, as a short caption string."""
    import numpy as np

    logits = scale * (text_embeddings @ embedding.astype("float32"))
    logits = logits - logits.max()
    probs = np.exp(logits)
    probs /= probs.sum()
    k = max(1, min(int(top_k), len(labels)))
    # Stable order: by probability, then by vocabulary position (ties never depend on sort noise).
    order = sorted(range(len(labels)), key=lambda i: (-float(probs[i]), i))[:k]
    top = tuple((labels[i], round(float(probs[i]), 4)) for i in order)
    text = "a photo of: " + ", ".join(f"{label} ({score:.2f})" for label, score in top)
    return text, top


def text_array(path: Path):
    """Vocabulary embeddings, loaded from the cache once per process."""
    import numpy as np

    key = str(path)
    with _lock:
        if key in _text_arrays:
            return _text_arrays[key]
    arr = np.load(path)
    with _lock:
        _text_arrays[key] = arr
    return arr
