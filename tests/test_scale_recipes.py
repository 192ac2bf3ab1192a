"""The scale-out recipes of docs/runs.md ("Scaling out", linked from the README), run as far as
this machine allows: the Slurm array script with its environment simulated (4 array tasks against two fake OpenAI-compatible servers listed in a
servers file, then `br-eval merge`), and the Kubernetes Indexed Job manifest's consistency and
command line. What this cannot show: a real scheduler, a real shared filesystem, real vLLM."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_models_openai import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "docs" / "runs.md").read_text()


def block(lang, containing):
    for m in re.finditer(rf"```{lang}\n(.*?)```", README, re.S):
        if containing in m.group(1):
            return m.group(1)
    raise AssertionError(f"no {lang} block with {containing!r} in docs/runs.md")


def test_slurm_array_script_runs_each_shard_and_merges(sample_snapshot, tmp_path):
    script = block("bash", "#SBATCH --array")
    n = int(re.search(r"--array=0-(\d+)", script)[1]) + 1
    assert f"--shards {n}" in script
    # This machine has no cluster: br-eval is this checkout, the tasks a small group of the
    # sample; everything else (the servers file, the env vars, the flags) is the script's own.
    script = script.replace("br-eval run", f"{sys.executable} -m evaluator.cli run")
    script = script.replace("--tasks beyondrecall", f"--tasks management --data {sample_snapshot}")
    with FakeOpenAIServer() as a, FakeOpenAIServer() as b:
        (tmp_path / "servers.txt").write_text(f"{a.base_url}\n{b.base_url}\n")
        out = tmp_path / "out"
        for i in range(n):
            env = {**os.environ, "PYTHONPATH": str(REPO), "OUT": str(out),
                   "SLURM_ARRAY_TASK_ID": str(i), "SLURM_ARRAY_TASK_COUNT": str(n),
                   "SLURM_ARRAY_TASK_MIN": "0"}
            env.pop("JOB_COMPLETION_INDEX", None)
            done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr
        assert a.requests and b.requests                     # both servers in the file were used
    assert sorted(p.name for p in out.glob("results.shard-*")) == [
        f"results.shard-{i}-of-{n}.json" for i in range(n)]
    merged = subprocess.run([sys.executable, "-m", "evaluator.cli", "merge", str(out),
                             "--no-progress"], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=300)
    assert merged.returncode == 0, merged.stderr
    res = json.loads((out / "results.json").read_text())["results"]
    assert res and all(r["n_done"] == r["n_expected"] for r in res.values())


def test_kubernetes_indexed_job_manifest():
    yaml = pytest.importorskip("yaml")
    job = yaml.safe_load(block("yaml", "completionMode: Indexed"))
    spec = job["spec"]
    assert job["kind"] == "Job" and spec["completionMode"] == "Indexed"
    command = spec["template"]["spec"]["containers"][0]["command"]
    assert command[:2] == ["br-eval", "run"]
    assert command[command.index("--shards") + 1] == str(spec["completions"])
    # The command line parses, and with the index Kubernetes sets, names the right shard.
    from evaluator.cli import build_parser
    from evaluator.sharding import parse_shard

    args = build_parser().parse_args(command[1:])
    assert parse_shard(args.shard, args.shards, {"JOB_COMPLETION_INDEX": "3"}) == (3, 4)
    mounts = spec["template"]["spec"]["containers"][0]["volumeMounts"]
    assert args.output_path.startswith(mounts[0]["mountPath"])   # on the shared volume
