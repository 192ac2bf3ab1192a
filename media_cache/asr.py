"""Speech recognition of audio tracks with a local transformers model (e.g. a Whisper checkpoint).

`model` is a local folder holding a transformers speech-to-text model (config.json, weights,
processor files), the kind AutoModelForSpeechSeq2Seq loads (Whisper and its relatives), or a
Hugging Face Hub repo id such as `openai/whisper-tiny`, optionally pinned as `repo@revision`.
A repo's config, processor files and weights (safetensors, else .bin) are fetched into the normal
Hugging Face cache (media_cache.hub); with HF_HUB_OFFLINE=1 only that cache is read. A fetched
model's identity also records the repo and the resolved commit.

What is cached (see media_cache.store): `asr`, one transcript per audio track, keyed by the
video file's sha256 (the audio is a pure function of it), the model identity (sha256 of its
config, weights, generation and preprocessor configs) and the settings (language, task, chunk
length, max_new_tokens). A cached transcript is returned without extracting audio or loading the
model. The audio is cut into `CHUNK_SECONDS` windows (Whisper's input length); each window is one
segment with its start and end time.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from media_cache import hub
from media_cache.device import default_device, load_once
from media_cache.errors import MediaError, MissingWeightsError

CHUNK_SECONDS = 30.0
MIN_CHUNK_SECONDS = 0.1     # a shorter tail is dropped (too short to hold a word)
# Tokens per 30 s window unless asked otherwise (fast speech is ~100-150 tokens per window). Always
# set: without a bound, Whisper's generate can run on far past its decoder's length.
DEFAULT_MAX_NEW_TOKENS = 224
_PROMPT_TOKENS = 4          # <|startoftranscript|><|lang|><|task|><|notimestamps|>
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth")
_SIDE_FILES = ("config.json", "generation_config.json", "preprocessor_config.json",
               "tokenizer.json", "tokenizer_config.json")

# What a Hub repo id fetches: configs, processor/tokenizer files, safetensors weights (.bin only
# when the repo has no safetensors); never TF/Flax/ONNX copies.
_HUB_PATTERNS = ["*.json", "*.txt", "*.model", "*.tiktoken", "*.safetensors"]

_lock = threading.Lock()
_models: dict[tuple[str, str], "LoadedAsr"] = {}


@dataclass(frozen=True)
class AsrSpec:
    """A resolved local model: its folder and the identity used in cache keys."""

    folder: Path
    label: str                              # as the user gave it
    identity: dict = field(hash=False)

    @property
    def identity_key(self) -> str:
        import json

        return json.dumps(self.identity, sort_keys=True)


def resolve_asr(model: str | os.PathLike, sha256_file) -> AsrSpec:
    """Find the folder (fetching a Hub repo id) and describe the model by its files' content.

    `sha256_file(path)` hashes a file (the store's memoised hasher, so weights are read once).
    """
    label = os.fspath(model)
    folder = Path(label).expanduser()
    source: dict = {}
    if not folder.is_dir():
        if folder.exists() or _looks_like_path(label):
            raise MediaError(f"--asr {label}: not a model folder (pass a folder with config.json "
                             "and weights, or a Hub repo id such as openai/whisper-tiny)")
        repo, revision = hub.split_revision(label)
        what = f"--asr {label}"
        hint = "or pass a local model folder"
        fetched = hub.fetch_snapshot(repo, revision, _HUB_PATTERNS, what=what, hint=hint)
        if not any(p.suffix == ".safetensors" for p in fetched.path.iterdir()):
            fetched = hub.fetch_snapshot(repo, fetched.commit, [*_HUB_PATTERNS, "*.bin"],
                                         what=what, hint=hint)
        folder = fetched.path
        source = {"repo": repo, "revision": fetched.commit}
    if not (folder / "config.json").is_file():
        raise MediaError(f"--asr {label}: no config.json in the folder: not a transformers model")
    weights = sorted(p for p in folder.iterdir()
                     if p.is_file() and p.suffix in _WEIGHT_SUFFIXES)
    if not weights:
        raise MissingWeightsError(f"--asr {label}: no weights (.safetensors or .bin) in the folder")
    identity = {"weights": {p.name: sha256_file(p) for p in weights}, **source}
    for name in _SIDE_FILES:
        if (folder / name).is_file():
            identity[name] = sha256_file(folder / name)
    return AsrSpec(folder, label, identity)


def _looks_like_path(name: str) -> bool:
    # A Hub id is "name" or "org/name" (maybe "@revision"); anything else path-shaped is a folder.
    return (name.startswith(("/", "./", "../", "~", "\\")) or name.split("@")[0].count("/") > 1
            or (os.sep != "/" and os.sep in name))


@dataclass
class LoadedAsr:
    model: object
    processor: object
    device: str
    model_type: str
    generate_calls: int = 0     # for tests and stats


def load_asr(spec: AsrSpec, device: str | None = None) -> LoadedAsr:
    """Load the processor and model once per process (memoised by identity and device)."""
    device = device or default_device()
    return load_once(_models, _lock, (spec.identity_key, device), lambda: _build(spec, device))


def _build(spec: AsrSpec, device: str) -> LoadedAsr:
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise MediaError(f"--asr needs torch and transformers (pip install 'br-eval[vlm]'): {exc}") from None
    try:
        processor = transformers.AutoProcessor.from_pretrained(spec.folder, local_files_only=True)
        dtype = torch.float16 if device.startswith("cuda") else torch.float32
        model = transformers.AutoModelForSpeechSeq2Seq.from_pretrained(
            spec.folder, local_files_only=True, dtype=dtype)
    except (OSError, ValueError, KeyError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        raise MediaError(f"--asr {spec.label}: cannot load a speech-recognition model: {first}") from None
    if getattr(processor, "feature_extractor", None) is None:
        raise MediaError(f"--asr {spec.label}: the folder has no feature extractor "
                         "(preprocessor_config.json)")
    model.to(device)
    model.eval()
    return LoadedAsr(model, processor, device, model.config.model_type)


def chunks(samples, sample_rate: int, seconds: float = CHUNK_SECONDS) -> list[tuple[float, float, object]]:
    """(start s, end s, samples) windows of at most `seconds`; a tail under 0.1 s is dropped."""
    step = int(round(seconds * sample_rate))
    out = []
    for start in range(0, len(samples), step):
        piece = samples[start:start + step]
        if len(piece) < MIN_CHUNK_SECONDS * sample_rate:
            continue
        out.append((start / sample_rate, (start + len(piece)) / sample_rate, piece))
    return out


def transcribe(loaded: LoadedAsr, samples, sample_rate: int, *, language: str | None = None,
               task: str = "transcribe", max_new_tokens: int | None = None,
               batch_size: int = 8) -> list[dict]:
    """Segments [{"start", "end", "text"}] of one mono float32 track, one per window."""
    import torch

    windows = chunks(samples, sample_rate)
    segments: list[dict] = []
    fe = loaded.processor.feature_extractor
    for i in range(0, len(windows), batch_size):
        batch = windows[i:i + batch_size]
        features = fe([w[2] for w in batch], sampling_rate=sample_rate, return_tensors="pt",
                      return_attention_mask=True)
        inputs = {"input_features": features["input_features"].to(loaded.device,
                                                                  dtype=loaded.model.dtype)}
        if "attention_mask" in features:
            inputs["attention_mask"] = features["attention_mask"].to(loaded.device)
        limit = int(max_new_tokens or DEFAULT_MAX_NEW_TOKENS)
        positions = getattr(loaded.model.config, "max_target_positions", None)
        if positions:
            limit = max(1, min(limit, int(positions) - _PROMPT_TOKENS))
        gen: dict = {"max_new_tokens": limit}
        if loaded.model_type == "whisper":
            if language:
                gen["language"] = language
            gen["task"] = task
        with torch.inference_mode():
            out = loaded.model.generate(**inputs, **gen)
        loaded.generate_calls += 1
        sequences = getattr(out, "sequences", out)
        texts = loaded.processor.batch_decode(sequences, skip_special_tokens=True)
        for (start, end, _), text in zip(batch, texts):
            segments.append({"start": round(start, 3), "end": round(end, 3), "text": text.strip()})
    return segments


def transcript_text(segments: list[dict]) -> str:
    return " ".join(s["text"] for s in segments if s["text"])
