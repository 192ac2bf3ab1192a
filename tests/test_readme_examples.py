"""The README's example outputs are real: each block's table lines are what the command it shows
prints today, on the generated sample (paths, dates and commit hashes aside). A retrained reader
or a changed table that leaves the README behind fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evaluator.cli import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", README, re.S)


def _block_after(command: str) -> str:
    """The untyped (output) block that follows the first block containing `command`."""
    for i, (_, body) in enumerate(BLOCKS):
        if command in body:
            for lang, out in BLOCKS[i + 1:]:
                if not lang:
                    return out
    raise AssertionError(f"README shows no output after {command!r}")


def _table_lines(text: str) -> list[str]:
    """The result table's lines, from its `task` header row on: task rows, overall rows, compare
    rows (whitespace-normalised; footnotes and file lines left out)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("task ")), len(lines))
    return [" ".join(line.split()) for line in lines[start:]
            if line.strip() and not line.startswith(("br-eval", "results:", "report:", "*",
                                                     "  (", "unreadable:", "..."))]


def _run(capsys, argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 0, argv
    return capsys.readouterr().out


@pytest.fixture
def sample_home(sample_snapshot, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return sample_snapshot


def test_the_first_run_block(sample_home, capsys):
    shown = _table_lines(_block_after("br-eval --task conflict_detection"))
    printed = _table_lines(_run(capsys, ["--task", "conflict_detection", "--data", str(sample_home),
                                         "--output_path", "x", "--no-progress"]))
    assert shown and printed == shown


def test_the_scale_out_block(sample_home, capsys):
    for i in (0, 1):
        _run(capsys, ["run", "--tasks", "management", "--shard", f"{i}/2", "--data",
                      str(sample_home), "--output_path", "runs/sharded", "--no-progress"])
    printed = _table_lines(_run(capsys, ["merge", "runs/sharded"]))
    shown = _table_lines(_block_after("br-eval merge runs/sharded"))
    assert shown and printed == shown


def test_your_own_agent_and_the_compare_block(sample_home, tmp_path, capsys, monkeypatch):
    code = next(body for lang, body in BLOCKS if lang == "python" and "class MyAgent" in body)
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "memory.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    data = ["--data", str(sample_home), "--no-progress"]
    mine = _table_lines(_run(capsys, ["--task", "memory_update", "--agent", "mypkg.memory:MyAgent",
                                      "--agent_args", "top_k=1", "--output_path", "runs/mine",
                                      *data]))
    assert mine == _table_lines(_block_after("--agent mypkg.memory:MyAgent --agent_args top_k=1"))
    _run(capsys, ["--task", "memory_update", "--output_path", "runs/bm25", *data])
    out = _run(capsys, ["compare", "runs/bm25", "runs/mine"])
    printed = _table_lines(out)
    block = _block_after("br-eval compare runs/bm25 runs/mine")
    shown = _table_lines(block)
    assert shown and printed == shown
    systems = [line for line in block.splitlines() if line.startswith(("A: ", "B: "))]
    assert systems and all(line in out.splitlines() for line in systems)


def test_the_verify_block(sample_home, capsys):
    shown = _block_after("br-eval verify                       # every file")
    capsys.readouterr()
    assert main(["verify", "--data", str(sample_home), "--no-progress"]) == 0
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    result = [line for line in shown.splitlines() if line.startswith("br-eval verify:")]
    assert result and result[0].split(" in ")[0] in printed      # files, size, lists, entries
    note = next(line for line in shown.splitlines() if line.startswith("note: inventory"))
    assert note in printed
