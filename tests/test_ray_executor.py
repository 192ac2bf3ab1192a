"""`--executor ray` on a local Ray instance (ray.init(num_cpus=2)): the same results.json as a
local run, the driver alone writes the journal, a worker killed mid-run loses nothing finished
and a rerun completes. Skipped only when ray is not installed (it is the optional extra
br-eval[ray])."""

import json
import os

import pytest

ray = pytest.importorskip("ray")

from evaluator.evaluate import evaluate  # noqa: E402
from evaluator.ray_executor import RayExecutor  # noqa: E402
from results_helpers import scores

TASKS = ["management", "realcompanion/question"]


@pytest.fixture(scope="module")
def executor():
    ex = RayExecutor(init_kwargs={"num_cpus": 2})
    yield ex
    ray.shutdown()


def results(path):
    return json.loads((path / "results.json").read_text())


def test_ray_run_equals_a_local_run(sample_snapshot, tmp_path, executor):
    local = evaluate(TASKS, data=sample_snapshot, output_path=tmp_path / "local", seed=3,
                     progress=False)
    remote = evaluate(TASKS, data=sample_snapshot, output_path=tmp_path / "ray", seed=3,
                      progress=False, executor=executor, num_concurrent=2)
    assert scores(results(tmp_path / "local")["results"]) == scores(results(tmp_path / "ray")["results"])
    assert local.n_failed == remote.n_failed == 0
    # The samples came from worker processes, not from this one.
    lines = (tmp_path / "ray" / "samples_memory_update.jsonl").read_text().splitlines()
    assert len(lines) == results(tmp_path / "local")["results"]["memory_update"]["n_expected"]


def test_killed_worker_loses_nothing_finished_and_a_rerun_completes(sample_snapshot, tmp_path,
                                                                    executor):
    from evaluator.errors import EvalError

    flag = os.path.join(os.environ["BR_EVAL_HOME"], "crash-flag")
    if os.path.exists(flag):
        os.unlink(flag)
    out = tmp_path / "run"
    args = dict(agent="agents_for_tests:CrashingAgent", data=sample_snapshot, output_path=out,
                progress=False, executor=executor, num_concurrent=2)
    with pytest.raises(EvalError, match="lost to failed workers"):
        evaluate(["management"], **args)
    assert os.path.exists(flag)                               # a worker did die
    done = sum(len((out / f).read_text().splitlines()) for f in os.listdir(out)
               if f.startswith("samples_"))
    assert done >= 2                                          # answers finished before it: kept
    rerun = evaluate(["management"], **args)
    assert rerun.n_failed == 0
    base = evaluate(["management"], data=sample_snapshot, output_path=tmp_path / "base",
                    progress=False)
    for task, r in base.tasks.items():
        assert rerun.tasks[task].primary == r.primary and rerun.tasks[task].n_done == r.n_done


def test_ray_workers_rebuild_the_run_settings_whole(sample_snapshot, tmp_path, executor):
    """--task-file and --lenient-time reach the workers (they rebuild the settings record from
    results.json's config), and `score` re-scores the run as it was run."""
    from evaluator.evaluate import rescore

    src = sample_snapshot / "benchmark" / "management" / "Conflict Detection.json"
    data = json.loads(src.read_text(encoding="utf-8"))
    data[0]["questions"][0]["question"] = "Which of these did Alice mention first? (override)"
    alt = tmp_path / "cd.json"
    alt.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "ray-override"
    evaluate(["conflict_detection"], data=sample_snapshot, output_path=out, seed=3,
             task_files={"conflict_detection": alt}, lenient_time=True, progress=False,
             executor=executor, num_concurrent=2)
    lines = [json.loads(x) for x in (out / "samples_conflict_detection.jsonl").read_text().splitlines()]
    first = next(x for x in lines if x["key"].endswith("/0/q0"))
    assert first["question"].endswith("(override)")
    config = results(out)["config"]
    assert config["settings"]["lenient_time"] is True
    assert config["task_files"] == {"conflict_detection": str(alt)}
    before = scores(results(out)["results"])
    rescored, failures = rescore(out, progress=False)
    assert failures == 0 and scores(results(out)["results"]) == before
