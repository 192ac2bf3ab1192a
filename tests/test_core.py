"""The evaluation core (evaluator/evaluate.py): one loop for every task of both suites.

Concurrency spans the whole run, a judge re-grades any task from its journal alone, and a run
killed with SIGKILL at any moment and rerun ends with the same results.json as a clean run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

from evaluator.cli import main
from evaluator.evaluate import evaluate
from evaluator.records import SAMPLE_FIELDS, Sample, TaskResult
from evaluator.results import RunDir
from test_models_openai import FakeOpenAIServer, chat_completion
from results_helpers import scores


def _results(out) -> dict:
    return scores(json.loads((out / "results.json").read_text())["results"])


def _timed(args) -> tuple[float, int]:
    t = time.perf_counter()
    code = main(args)
    return time.perf_counter() - t, code


def test_concurrency_spans_the_whole_run_for_both_suites(sample_snapshot, tmp_path):
    """A server answering in 0.4 s: 11 tasks x 1 question, and 12 chat probes, run one request at
    a time at --num_concurrent 1 and up to 8 at a time at 8, with identical metrics. The wall-clock check
    compares the time saved with the server time that concurrency can hide, so a slow machine's
    fixed start-up cost (the same in both runs) cannot fail it."""
    delay = 0.4
    with FakeOpenAIServer(delay=delay) as srv:
        model = ["--agent", "none", "--model", "openai", "--model_args",
                 f"base_url={srv.base_url},model=m"]
        for name, task in (("br", ["--tasks", "beyondrecall", "--limit", "1", "--data",
                                   str(sample_snapshot)]),
                           ("rc", ["--tasks", "realcompanion/chat", "--limit", "12"])):
            runs = {}
            for n in (1, 8):
                out = tmp_path / f"{name}{n}"
                srv.max_in_flight, first = 0, len(srv.requests)
                seconds, code = _timed(["run", "--no-progress", *task, *model, "--num_concurrent",
                                        str(n), "--output_path", str(out)])
                assert code == 0
                runs[n] = (seconds, _results(out), srv.max_in_flight, len(srv.requests) - first)
            calls = runs[1][3]
            assert calls == runs[8][3] >= 11
            # at 8: several requests in flight across tasks (a loop per task would keep 1), never
            # more than 8; a loaded machine may not fill all 8 before the first answers return
            assert runs[1][2] == 1 and 4 <= runs[8][2] <= 8, (name, runs[1][2], runs[8][2])
            hideable = (calls - -(-calls // 8)) * delay
            saved = runs[1][0] - runs[8][0]
            assert saved >= 0.6 * hideable, (name, runs[1][0], runs[8][0], hideable)
            assert runs[1][1] == runs[8][1]


def test_score_rejudges_a_realcompanion_chat_run_changing_only_judged_fields(tmp_path):
    out = tmp_path / "run"
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["I remember that, how did it go?", "Sounds good."]))
    assert main(["run", "--no-progress", "--task", "realcompanion/chat", "--limit", "8",
                 "--agent", "none", "--model", "mock", "--model_args", f"replies={replies}",
                 "--output_path", str(out)]) == 0
    before = {s.key: s for s in RunDir(out).latest_samples("realcompanion/chat")}

    def verdict(body):
        prompt = body["messages"][-1]["content"]
        used = "yes" if "remember" in prompt.split("Companion's reply:")[-1] else "no"
        return chat_completion(json.dumps({"content_match": 2 if used == "yes" else 1,
                                           "used_memory": used, "restraint": "yes",
                                           "reason": "scripted"}))

    with FakeOpenAIServer() as srv:
        srv.completion = verdict
        assert main(["score", str(out), "--no-progress", "--judge", "openai", "--judge_args",
                     f"base_url={srv.base_url},model=judge,backoff=0.01"]) == 0
        judged_calls = len(srv.questions)
        # a second `score` with the same judge finds nothing left to judge
        assert main(["score", str(out), "--no-progress", "--judge", "openai", "--judge_args",
                     f"base_url={srv.base_url},model=judge,backoff=0.01"]) == 0
        assert len(srv.questions) == judged_calls == len(before)
    after = {s.key: s for s in RunDir(out).latest_samples("realcompanion/chat")}
    assert after.keys() == before.keys()
    judged = {"content_match", "used_memory", "restraint", "judge_raw", "judge_error"}
    for key, s in after.items():
        b = s.to_json()
        a = before[key].to_json()
        assert s.judge and s.judge["error"] is None
        assert {k: v for k, v in b.items() if k not in ("judge", "conditions", "metrics")} == \
            {k: v for k, v in a.items() if k not in ("judge", "conditions", "metrics")}
        # the judged primary is the one metric the judge adds (compare and the overall read it)
        assert {k: v for k, v in b["metrics"].items() if k != "content_match"} == a["metrics"]
        assert b["metrics"]["content_match"] == {
            c: e["content_match"] for c, e in b["conditions"].items()}
        for cond, entry in b["conditions"].items():
            old = a["conditions"][cond]
            assert {k: v for k, v in entry.items() if k not in judged} == old
            assert entry["content_match"] in (1, 2)
    r = _results(out)["realcompanion/chat"]
    assert r["primary_metric"] == "content_match" and r["primary"]["mean"] >= 1.0


def _metrics_only(results: dict) -> dict:
    return {name: {k: v for k, v in entry.items() if k not in ("data",)}
            for name, entry in results.items()}


def test_sigkill_at_any_moment_then_rerun_gives_the_clean_run_results(sample_snapshot, tmp_path):
    """Both suites, a real subprocess killed with SIGKILL twice at random moments, then rerun."""
    rng = random.Random(7)
    with FakeOpenAIServer(delay=0.02) as srv:
        args = ["run", "--no-progress", "--tasks",
                "memory_update,conflict_detection,realcompanion/chat,realcompanion/question",
                "--limit", "12", "--data", str(sample_snapshot), "--agent", "none",
                "--model", "openai", "--model_args", f"base_url={srv.base_url},model=m",
                "--num_concurrent", "3"]
        clean = tmp_path / "clean"
        assert main(args + ["--output_path", str(clean)]) == 0
        killed = tmp_path / "killed"
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        for _ in range(2):
            proc = subprocess.Popen([sys.executable, "-m", "evaluator.cli", *args,
                                     "--output_path", str(killed)], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.8, 2.5))
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        assert main(args + ["--output_path", str(killed)]) == 0
    assert _metrics_only(_results(killed)) == _metrics_only(_results(clean))
    for task in ("memory_update", "realcompanion/chat"):
        keys = [s.key for s in RunDir(killed).read_samples(task)]
        assert len(keys) == len(set(keys))           # one line per key after the rerun


def test_journal_line_without_its_newline_survives_the_next_append(tmp_path):
    """Issue 17 item 6: a complete last line that lost only its newline is kept, not cut."""
    run_dir = RunDir(tmp_path)
    for i in range(3):
        run_dir.append(Sample(f"k{i}", "t", "c", prediction=str(i), metrics={"primary": 1.0}))
    run_dir.close()
    path = run_dir.journal_path("t")
    path.write_bytes(path.read_bytes().rstrip(b"\n"))            # the newline was never written
    run_dir = RunDir(tmp_path)
    assert [s.key for s in run_dir.read_samples("t")] == ["k0", "k1", "k2"]
    run_dir.append(Sample("k3", "t", "c", prediction="3"))
    run_dir.close()
    assert [s.key for s in RunDir(tmp_path).read_samples("t")] == ["k0", "k1", "k2", "k3"]
    # a torn (unparseable) last line is cut instead
    path.write_bytes(path.read_bytes() + b'{"key": "k4", "ta')
    run_dir = RunDir(tmp_path)
    run_dir.append(Sample("k5", "t", "c"))
    run_dir.close()
    assert [s.key for s in RunDir(tmp_path).read_samples("t")] == ["k0", "k1", "k2", "k3", "k5"]


def test_records_round_trip_and_version_1_lines_load():
    s = Sample("a/b/t/q0", "memory_update", "t", inputs={"cutoff": "x", "visible_turns": 3},
               prediction="p", metrics={"primary": 0.5}, input_tokens=3,
               fields={"question": "q?", "answer": "a"})
    assert Sample.from_json(json.loads(s.dumps())) == s
    assert set(json.loads(s.dumps())) - set(s.fields) <= set(SAMPLE_FIELDS)
    old = {"key": "a/b/t/q0", "task": "memory_update", "visible_turns": 3, "cutoff": "x",
           "media_used": [], "prediction": "p", "metrics": {"primary": 1.0}, "question": "q?"}
    loaded = Sample.from_json(old)
    assert loaded.inputs == {"visible_turns": 3, "cutoff": "x", "media_used": []}
    assert loaded.fields == {"question": "q?"}
    r = TaskResult("t", "beyondrecall", "question", "token_f1", {"mean": 1.0}, 4, 3, 1,
                   {"n_scored": 3})
    j = r.to_json()
    assert j["complete"] is False and j["n_expected"] == 4
    assert TaskResult.from_json("t", j) == r


def test_evaluate_is_the_python_entry_point(sample_snapshot, tmp_path):
    res = evaluate(["memory_update"], data=sample_snapshot, output_path=tmp_path / "r",
                   progress=False, announce=False)
    r = res.tasks["memory_update"]
    assert r.n_done == r.n_expected > 0 and r.complete and r.unit == "question"
    assert res["memory_update"]["primary"] == _results(tmp_path / "r")["memory_update"]["primary"]
