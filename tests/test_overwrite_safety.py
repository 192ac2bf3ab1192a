"""--overwrite loses nothing until the new run starts, and a run that has ended writes nothing more
(evaluator/results.py RunDir.set_aside / restore_aside / discard_aside, close(final=True))."""

from __future__ import annotations

import pytest

from evaluator.cli import main
from evaluator.errors import EvalError
from evaluator.records import Sample
from evaluator.results import RunDir


def _run(sample_snapshot, out, *extra):
    return main(["run", "--no-progress", "--tasks", "management", "--data", str(sample_snapshot),
                 "--output_path", str(out), *extra])


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


def test_an_overwrite_whose_judge_is_down_keeps_the_finished_run(sample_snapshot, tmp_path, capsys):
    # the audit: a typo in the judge's URL deleted results.json and every journal, then the
    # preflight failed
    out = tmp_path / "run"
    assert _run(sample_snapshot, out) == 0
    before = _files(out)
    capsys.readouterr()
    assert _run(sample_snapshot, out, "--overwrite", "--judge", "openai", "--judge_args",
                "base_url=http://127.0.0.1:9/v1,model=j,timeout=2,max_retries=0") == 1
    assert _files(out) == before
    assert not (out / RunDir.ASIDE).exists()


def test_an_overwrite_of_one_shard_refused_for_its_settings_keeps_the_shard(sample_snapshot,
                                                                              tmp_path, capsys):
    # the audit: --shard 0/2 --overwrite with another agent deleted shard 0's journals and part,
    # then refused the run because shard 1 was made with other settings
    out = tmp_path / "run"
    for i in (0, 1):
        assert _run(sample_snapshot, out, "--shard", f"{i}/2") == 0
    assert main(["merge", str(out)]) == 0
    before = _files(out)
    capsys.readouterr()
    assert _run(sample_snapshot, out, "--shard", "0/2", "--overwrite", "--model", "mock") == 1
    assert "other settings" in capsys.readouterr().err
    assert _files(out) == before


def test_an_overwrite_that_starts_discards_the_old_files(sample_snapshot, tmp_path):
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, "--limit", "1") == 0
    assert _run(sample_snapshot, out, "--overwrite", "--model", "mock") == 0
    assert not (out / RunDir.ASIDE).exists() and not (out / (RunDir.ASIDE + ".done")).exists()
    assert '"agent": "full-context"' in (out / "results.json").read_text()


def test_files_set_aside_by_a_killed_overwrite_are_put_back(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert _run(sample_snapshot, out) == 0
    before = _files(out)
    run_dir = RunDir(out)
    run_dir.set_aside(sorted(out.glob("samples_*.jsonl")) + [out / "results.json"])  # then killed
    assert not (out / "results.json").exists()
    capsys.readouterr()
    assert _run(sample_snapshot, out) == 0
    assert "put back the files an --overwrite run set aside" in capsys.readouterr().err
    assert _files(out) == before


def test_a_run_that_has_ended_writes_no_more_lines(tmp_path):
    # the audit: after a second Ctrl-C the lock was released while answering threads still
    # appended to the journal, under the next process's lock
    run_dir = RunDir(tmp_path / "run")
    line = Sample(task="memory_update", key="k/1/q0", prediction="x")
    run_dir.append(line)
    run_dir.close(final=True)
    with pytest.raises(EvalError, match="the run has ended"):
        run_dir.append(line)
    assert (tmp_path / "run" / "samples_memory_update.jsonl").read_text().count("\n") == 1
