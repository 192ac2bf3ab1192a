"""The device a local model (CLIP, speech recognition) runs on when none is named."""

from __future__ import annotations


def default_device() -> str:
    """"cuda" when torch sees a GPU, else "cpu" (also when torch is not installed)."""
    try:
        import torch
    except ImportError:
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"
