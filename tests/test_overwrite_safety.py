"""--overwrite loses nothing until the new run starts, and a run that has ended writes nothing more
(evaluator/results.py RunDir.set_aside / restore_aside / discard_aside, close(final=True))."""

from __future__ import annotations

import json

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
    assert _run(sample_snapshot, out) == 0       # a resume: it rewrites results.json (its date)
    assert "put back the files an --overwrite run set aside" in capsys.readouterr().err
    after = _files(out)
    assert json.loads(after.pop("results.json"))["results"] == \
        json.loads(before.pop("results.json"))["results"]
    assert after == before


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


# -- readers: a folder whose journal moved on from results.json, or mixes runs ---------------------
def _task_run(sample_snapshot, out, *extra):
    return main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--output_path", str(out), *extra])


def test_report_says_when_the_journal_holds_answers_results_json_does_not_count(
        sample_snapshot, tmp_path, capsys):
    # the audit: a rerun stopped by Ctrl-C after answering 3 more items; report printed the old
    # "3/7* 4 failed" with no hint that the journal held 6 answers
    full, part = tmp_path / "full", tmp_path / "part"
    assert _task_run(sample_snapshot, full) == 0
    assert _task_run(sample_snapshot, part, "--limit", "3") == 0
    journal = "samples_memory_update.jsonl"
    have = {line.split('"key": ')[1].split(",")[0] for line in (part / journal).read_text().splitlines()}
    more = [line for line in (full / journal).read_text().splitlines()
            if line.split('"key": ')[1].split(",")[0] not in have]
    with open(part / journal, "a") as fh:       # what the stopped rerun had answered
        fh.write("\n".join(more) + "\n")
    capsys.readouterr()
    assert main(["report", str(part)]) == 0
    out = capsys.readouterr().out
    assert "not yet scored: memory_update (journal: 7 answered, 0 failed; results.json: 3, 0)" in out
    assert main(["report", str(full)]) == 0
    assert "not yet scored" not in capsys.readouterr().out


def test_compare_and_view_say_when_a_line_was_answered_under_other_settings(
        sample_snapshot, tmp_path, capsys):
    # the audit: a line pasted from a baseline run moved compare's memory_update from 0.170 to
    # 0.183 with no warning (run, score and merge refuse such a folder)
    clean, mixed, other = tmp_path / "clean", tmp_path / "mixed", tmp_path / "other"
    assert _task_run(sample_snapshot, clean, "--model", "mock") == 0
    assert _task_run(sample_snapshot, mixed, "--model", "mock", "--limit", "6") == 0
    assert _task_run(sample_snapshot, other) == 0
    journal = "samples_memory_update.jsonl"
    with open(mixed / journal, "a") as fh:
        fh.write((other / journal).read_text().splitlines()[-1] + "\n")
    capsys.readouterr()
    assert main(["compare", str(clean), str(mixed)]) == 0
    out = capsys.readouterr()
    assert "1 line(s) were answered under other settings than its results.json records" in out.out + out.err
    assert main(["compare", str(clean), str(other)]) == 0
    out = capsys.readouterr()
    assert "answered under other settings" not in out.out + out.err
    # each side names its system: a baseline's folder never passes for a model's by its name
    assert "\nA: agent: full-context; model: mock" in out.out
    assert "\nB: agent: weight-free baseline, no model\n" in out.out
    pytest.importorskip("jinja2")
    assert main(["view", str(mixed), "-o", str(tmp_path / "page.html"), "--no-thumbnails"]) == 0
    assert "br-eval: warning: mixed: memory_update: 1 line(s) were answered under other " \
           "settings" in capsys.readouterr().err


def test_a_shard_never_restores_another_shards_overwrite(tmp_path):
    # the regression hunt: shard 1 starting beside shard 0's --overwrite put shard 0's old
    # journal back while shard 0 was answering afresh
    out = tmp_path / "run"
    zero, one = RunDir(out, (0, 2)), RunDir(out, (1, 2))
    journal = zero.journal_path("memory_update")
    journal.write_text('{"key": "k/memory_update/1/q0", "task": "memory_update"}\n')
    zero.set_aside([journal])
    assert one.restore_aside() == 0 and not journal.exists()
    assert zero.restore_aside() == 1 and journal.exists()


def test_a_fifo_planted_as_the_lock_is_one_line_naming_it(sample_snapshot, tmp_path, capsys):
    import os

    out = tmp_path / "run"
    out.mkdir()
    os.mkfifo(out / ".br-eval.lock")
    assert main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--output_path", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".br-eval.lock is not a regular file" in err


def test_report_beside_a_running_shard_shows_results_json_with_a_warning(sample_snapshot, tmp_path,
                                                                          capsys):
    # the audit: report, view and compare tried to merge newer shard parts and failed while a
    # shard was still running (or on a read-only copy)
    import os

    from evaluator.runlock import RunLock

    out = tmp_path / "run"
    for i in (0, 1):
        assert _run(sample_snapshot, out, "--shard", f"{i}/2") == 0
    assert main(["merge", str(out)]) == 0
    part = out / "results.shard-0-of-2.json"
    later = os.stat(out / "results.json").st_mtime + 10
    os.utime(part, (later, later))                     # a shard wrote after the merge
    capsys.readouterr()
    with RunLock(out, (1, 2), "run"):                  # and shard 1 is running again
        assert main(["report", str(out)]) == 0
    err = capsys.readouterr().err
    assert "cannot be joined now" in err and "showing results.json as it was written" in err
