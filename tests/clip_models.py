"""A tiny open_clip model config for tests: random weights, built from this config (what such a
test cannot show: any caption's meaning)."""

from __future__ import annotations

import json
from pathlib import Path

TINY_CLIP = {
    "embed_dim": 16,
    "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "patch_size": 16, "head_width": 16},
    "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1},
}


def register_tiny_clip(folder: Path, name: str) -> Path:
    """Write TINY_CLIP as `<folder>/<name>.json` and register it with open_clip under `name`."""
    import open_clip

    config = folder / f"{name}.json"
    config.write_text(json.dumps(TINY_CLIP))
    open_clip.add_model_config(config)
    return config
