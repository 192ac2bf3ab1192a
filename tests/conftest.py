"""Shared fixtures. Tests never touch the network or the user's cache:

* `HF_HUB_OFFLINE=1` is set before anything imports huggingface_hub (download tests that talk to
  their own 127.0.0.1 server switch the client back on for themselves, see test_download.py);
* `BR_EVAL_HOME` points at a temporary folder for the whole test session, so the generated
  sample, the media cache and downloads land there; `HF_HOME` too (the Hub client's cache and
  token file), and no `HF_TOKEN` leaks in from the user's shell.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
_HOME = tempfile.mkdtemp(prefix="br-eval-test-home-")
os.environ["BR_EVAL_HOME"] = _HOME
os.environ["HF_HOME"] = os.path.join(_HOME, "hf-home")  # the client's cache, refs and token file
os.environ.pop("HF_TOKEN", None)
os.environ.pop("HUGGING_FACE_HUB_TOKEN", None)
os.environ.pop("BR_EVAL_DATA", None)
os.environ.pop("BR_EVAL_RC_DATA", None)
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def sample_snapshot(tmp_path_factory) -> Path:
    """The generated sample snapshot (seed 0), shared by the session: do not modify it."""
    from beyondrecall.sample import generate_sample

    return generate_sample(tmp_path_factory.mktemp("sample") / "snapshot")


@pytest.fixture
def sample_copy(sample_snapshot, tmp_path) -> Path:
    """A fresh copy of the sample snapshot that a test may change."""
    dest = tmp_path / "snapshot"
    shutil.copytree(sample_snapshot, dest, symlinks=True)
    return dest
