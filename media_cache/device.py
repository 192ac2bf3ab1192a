"""Local models (CLIP, speech recognition): the device they run on when none is named, and
loading each once per process."""

from __future__ import annotations


def default_device() -> str:
    """"cuda" when torch sees a GPU, else "cpu" (also when torch is not installed)."""
    try:
        import torch
    except ImportError:
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_once(models: dict, lock, key, build):
    """`models[key]`, calling `build()` (outside the lock: loading takes seconds) the first time;
    when two threads load at once, the first to finish wins and both get its model."""
    with lock:
        if key in models:
            return models[key]
    loaded = build()
    with lock:
        return models.setdefault(key, loaded)
