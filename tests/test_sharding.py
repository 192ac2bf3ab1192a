"""Sharded runs: `--shard I/N` / `--shards N` from the scheduler's environment, whole clusters per
shard, `br-eval merge` equal to an unsharded run, missing and partial shards named, report and
score over shards, and two shards preparing the same media into one cache at once."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evaluator.cli import main
from evaluator.errors import UsageError
from evaluator.sharding import assign, parse_shard, shard_filter
from evaluator.task import Item
from results_helpers import scores

REPO = Path(__file__).resolve().parent.parent
TASKS = "management,reasoning,realcompanion/retrieval,realcompanion/question"


def cli(args, env=None, home=None):
    e = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", **(env or {})}
    for k in ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT",
              "JOB_COMPLETION_INDEX"):
        if k not in (env or {}):
            e.pop(k, None)
    if home:
        e["BR_EVAL_HOME"] = str(home)
    return subprocess.Popen([sys.executable, "-m", "evaluator.cli", *args], cwd=REPO, env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc):
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def results(path):
    return json.loads((path / "results.json").read_text())


# -- the index ---------------------------------------------------------------------------------
def test_shard_index_from_flags_and_schedulers():
    assert parse_shard("2/3") == (2, 3)
    assert parse_shard(None, None, {}) is None
    # Slurm: --array=0-2 and --array=1-3 both give 0-based indices.
    assert parse_shard(None, 3, {"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"}) == (2, 3)
    assert parse_shard(None, 3, {"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1",
                                 "SLURM_ARRAY_TASK_COUNT": "3"}) == (2, 3)
    assert parse_shard(None, 4, {"JOB_COMPLETION_INDEX": "0"}) == (0, 4)
    for bad, env in [("3/3", None), ("1-3", None), ("-1/2", None)]:
        with pytest.raises(UsageError):
            parse_shard(bad, None, env or {})
    with pytest.raises(UsageError, match="SLURM_ARRAY_TASK_COUNT is 4"):
        parse_shard(None, 3, {"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4"})
    with pytest.raises(UsageError, match="needs the shard index"):
        parse_shard(None, 3, {})
    with pytest.raises(UsageError, match="not both"):
        parse_shard("0/3", 3, {})


def test_assignment_whole_clusters_balanced_deterministic():
    # Ten clusters of very different sizes (RealCompanion-like), three shards.
    items = [Item(f"k{c}-{j}", f"p{c}", None) for c in range(10) for j in range((c + 1) * 3)]
    owners = assign(items, 3)
    assert owners == assign(list(reversed(items)), 3)         # order of items does not matter
    loads = [sum(1 for it in items if owners[it.cluster] == i) for i in range(3)]
    assert sum(loads) == len(items) and max(loads) - min(loads) <= 3
    parts = [shard_filter(items, (i, 3)) for i in range(3)]
    assert set().union(*parts) == {it.cluster for it in items}
    assert sum(len(p) for p in parts) == 10                    # each cluster in exactly one shard


# -- three processes, one folder -----------------------------------------------------------------
def test_three_shards_as_three_processes_merge_to_the_unsharded_results(sample_snapshot, tmp_path,
                                                                          capsys):
    base = ["run", "--no-progress", "--tasks", TASKS, "--data", str(sample_snapshot), "--seed", "7"]
    full = tmp_path / "full"
    sharded = tmp_path / "sharded"
    # The three ways of naming a shard: a Slurm array task, a Kubernetes Indexed Job, the flag.
    procs = [cli([*base, "--output_path", str(full)]),
             cli([*base, "--output_path", str(sharded), "--shards", "3"],
                 env={"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1",
                      "SLURM_ARRAY_TASK_COUNT": "3"}),
             cli([*base, "--output_path", str(sharded), "--shards", "3"],
                 env={"JOB_COMPLETION_INDEX": "1"}),
             cli([*base, "--output_path", str(sharded), "--shard", "2/3"])]
    for p in procs:
        code, out, err = finish(p)
        assert code == 0, err
    names = sorted(f.name for f in sharded.iterdir())
    assert "results.json" not in names
    assert [n for n in names if n.startswith("results.")] == [
        f"results.shard-{i}-of-3.json" for i in range(3)]
    assert "samples_conflict_detection.shard-2-of-3.jsonl" in names
    # Every key in exactly one shard, and a cluster never split.
    where = {}
    for i in range(3):
        for line in (sharded / f"samples_realcompanion_question.shard-{i}-of-3.jsonl").read_text().splitlines():
            s = json.loads(line)
            assert s["key"] not in where
            where[s["key"]] = (i, s["cluster"])
    assert len({c for _, c in where.values()}) == len({(i, c) for i, c in where.values()})

    capsys.readouterr()
    assert main(["merge", str(sharded), "--no-progress"]) == 0
    a, b = results(full), results(sharded)
    assert scores(a["results"]) == scores(b["results"])
    for key in ("config", "data", "br_eval_version"):
        assert a[key] == b[key], key
    assert "merge_problems" not in b

    # report and score read every shard.
    capsys.readouterr()
    assert main(["report", str(sharded), "--json"]) == 0
    assert scores(json.loads(capsys.readouterr().out)) == scores(a["results"])
    assert main(["score", str(sharded), "--no-progress"]) == 0
    assert scores(results(sharded)["results"]) == scores(a["results"])
    assert not (sharded / "samples_conflict_detection.jsonl").exists()   # lines stay in their shard


def test_missing_and_partial_shards_are_named_and_a_rerun_completes(sample_snapshot, tmp_path,
                                                                     capsys):
    out = tmp_path / "run"
    base = ["run", "--no-progress", "--tasks", "management", "--data", str(sample_snapshot),
            "--output_path", str(out)]
    for i in (0, 1):
        assert main([*base, "--shard", f"{i}/3"]) == 0
    journal = out / "samples_memory_update.shard-1-of-3.jsonl"
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:-1]) + "\n")           # shard 1 lost its last answer
    capsys.readouterr()
    assert main(["merge", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "shard 2/3: missing" in err
    assert f"shard 1/3: memory_update: {len(lines) - 1} of {len(lines)} questions done" in err
    assert "Traceback" not in err
    assert len(results(out)["merge_problems"]) == 2
    # Rerunning shard 1 redoes only its missing item; shard 2 runs; merge is then clean and
    # equals an unsharded run.
    assert main([*base, "--shard", "1/3"]) == 0
    assert len(journal.read_text().splitlines()) == len(lines)
    assert main([*base, "--shard", "2/3"]) == 0
    assert main(["merge", str(out), "--no-progress"]) == 0
    full = tmp_path / "full"
    assert main(["run", "--no-progress", "--tasks", "management", "--data", str(sample_snapshot),
                 "--output_path", str(full)]) == 0
    assert scores(results(full)["results"]) == scores(results(out)["results"])


def test_bad_shard_flag_is_one_line(sample_snapshot, tmp_path, capsys):
    assert main(["run", "--no-progress", "--tasks", "management", "--data", str(sample_snapshot),
                 "--output_path", str(tmp_path / "r"), "--shard", "3/3"]) == 2
    err = capsys.readouterr().err
    assert "not in 0..2" in err and err.count("\n") == 1
    assert main(["merge", str(tmp_path / "r")]) == 1
    assert "no such run folder" in capsys.readouterr().err     # merge never creates it
    (tmp_path / "r").mkdir()
    assert main(["merge", str(tmp_path / "r")]) == 1
    assert "nothing to merge" in capsys.readouterr().err


def test_two_shards_prepare_the_same_media_into_one_cache_at_once(sample_snapshot, tmp_path):
    """Two processes (the shards' `prepare` step on a shared filesystem) race on every media file:
    each entry ends up once and valid, and a third pass finds everything cached."""
    home = tmp_path / "home"
    args = ["prepare", "--data", str(sample_snapshot), "--no-progress"]
    procs = [cli(args, home=home) for _ in range(2)]
    for p in procs:
        code, out, err = finish(p)
        assert code == 0, err
    from media_cache.store import Store

    roots = [p for p in home.rglob("*") if p.is_dir() and (p / ".hashes").exists()]
    assert roots, "no media cache written"
    info = Store(roots[0]).info()
    assert info.entries > 0 and info.invalid == 0 and info.temp == 0
    code, out, err = finish(cli(args, home=home))
    assert code == 0 and " 0 prepared" in out + err, out + err


def test_shards_that_differ_in_transport_or_task_order_merge(sample_snapshot, tmp_path, capsys):
    """Nodes get their own --num_concurrent and may run a folder's tasks in another order:
    neither changes an answer, so merge joins them (it refused both as 'other config'); other
    answer-changing settings are still refused."""
    out = tmp_path / "run"
    base = ["run", "--no-progress", "--data", str(sample_snapshot), "--output_path", str(out)]
    for task in ("conflict_detection", "memory_update"):
        assert main(base + ["--task", task, "--shard", "0/2", "--num_concurrent", "1"]) == 0
    for task in ("memory_update", "conflict_detection"):
        assert main(base + ["--task", task, "--shard", "1/2", "--num_concurrent", "4"]) == 0
    capsys.readouterr()
    assert main(["merge", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())["results"]
    assert all(results[t]["complete"] for t in ("conflict_detection", "memory_update"))
    other = tmp_path / "other"
    base = ["run", "--no-progress", "--data", str(sample_snapshot), "--output_path", str(other),
            "--task", "memory_update"]
    assert main(base + ["--shard", "0/2", "--limit", "3"]) == 0
    assert main(base + ["--shard", "1/2"]) == 0
    capsys.readouterr()
    assert main(["merge", str(other)]) == 1
    assert "ran with other config" in capsys.readouterr().err
