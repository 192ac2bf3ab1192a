"""The checkout ignores what br-eval writes into it by default."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from evaluator.evaluate import default_output_path

REPO = Path(__file__).resolve().parents[1]


def test_default_run_folder_is_git_ignored(tmp_path):
    top = default_output_path("baseline", None, {}).split("/")[0]
    patterns = [line.strip() for line in (REPO / ".gitignore").read_text().splitlines()]
    assert f"{top}/" in patterns or top in patterns
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the pattern is listed, git's reading of it is not checked")
    # git's own reading of the file, in a scratch repository with the same .gitignore.
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copy(REPO / ".gitignore", tmp_path / ".gitignore")
    out = tmp_path / default_output_path("rag", "openai", {"model": "org/m"})
    out.mkdir(parents=True)
    (out / "results.json").write_text("{}")
    res = subprocess.run(["git", "-C", str(tmp_path), "check-ignore", "-q",
                          str(out.relative_to(tmp_path) / "results.json")])
    assert res.returncode == 0


def test_top_level_is_the_fixed_layout():
    """The project's top level is fixed (beyondrecall/, evaluator/, media_cache/, tests/,
    pyproject.toml, README.md, plus .ci/ and bench/): a new folder there is a layout change."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    files = subprocess.run(["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    top = {f.split("/")[0] for f in files}
    assert top <= {"beyondrecall", "evaluator", "media_cache", "tests", "pyproject.toml",
                   "README.md", ".ci", "bench", ".gitignore"}, sorted(top)
