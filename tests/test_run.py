"""`br-eval run` end to end on the generated sample: baseline, mock model, isolation, resume."""

import json

import pytest

import agents_for_tests as A
from beyondrecall import load_tasks, visible_history
from beyondrecall.records import TASK_NAMES
from evaluator.cli import main


def run(args, capsys=None):
    code = main(["run", "--no-progress", *args])
    return code


def results_of(path):
    return json.loads((path / "results.json").read_text())


def journal(path, task):
    return [json.loads(l) for l in (path / f"samples_{task}.jsonl").read_text().splitlines()]


def test_all_eleven_tasks_with_the_default_baseline(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert run(["--tasks", "beyondrecall", "--data", str(sample_snapshot),
                "--output_path", str(out)]) == 0
    res = results_of(out)
    tasks = load_tasks(sample_snapshot)
    assert set(res["results"]) == set(TASK_NAMES)
    for t in tasks:
        r = res["results"][t.name]
        assert r["n_scored"] == t.n_questions and r["n_failed"] == 0
        lines = journal(out, t.name)
        assert len(lines) == t.n_questions
        assert all("prediction" in s and "metrics" in s and "visible_turns" in s["inputs"] for s in lines)
    assert res["data"]["fingerprint"] and res["br_eval_version"]
    assert res["config"]["settings"]["agent"] == "baseline"
    primaries = [res["results"][t]["primary"]["mean"] for t in TASK_NAMES]
    assert 0 < sum(primaries) / len(primaries) < 1    # real and low: neither zero nor perfect


def test_mock_model_replying_gold_scores_one(sample_snapshot, tmp_path):
    tasks = load_tasks(sample_snapshot)
    # Scripted in question order (one worker answers tasks and questions in file order).
    replies = [q.answer if isinstance(q.answer, str) else json.dumps(q.answer)
               for t in tasks for _, q in t.questions()]
    rfile = tmp_path / "replies.json"
    rfile.write_text(json.dumps(replies))
    out = tmp_path / "run"
    assert run(["--tasks", "beyondrecall", "--data", str(sample_snapshot), "--agent", "none",
                "--model", "mock", "--model_args", f"replies={rfile}", "--num_concurrent", "1",
                "--output_path", str(out)]) == 0
    res = results_of(out)
    for name in TASK_NAMES:
        assert res["results"][name]["primary"]["mean"] == pytest.approx(1.0), name


def test_isolation_no_future_turn_media_or_cache_entry(sample_snapshot, tmp_path):
    A.RECORD.clear()
    A.INSTANCES["count"] = 0
    out = tmp_path / "run"
    assert run(["--tasks", "beyondrecall", "--data", str(sample_snapshot),
                "--agent", "agents_for_tests:RecordingAgent", "--output_path", str(out)]) == 0
    tasks = load_tasks(sample_snapshot)
    n_questions = sum(t.n_questions for t in tasks)
    assert len(A.RECORD) == n_questions == A.INSTANCES["count"]   # a fresh memory per question
    by_key = {e["key"]: e for e in A.RECORD}
    saw_cutoff_exclusion = False
    for t in tasks:
        for traj, q in t.questions():
            e = by_key[str(q.key)]
            h = visible_history(traj, q)
            expected = [(vs.index, vt.index) for vs in h.sessions for vt in vs.turns]
            assert [(s, i) for s, i, _, _ in e["turns"]] == expected   # nothing carried over
            if q.timestamp is not None:
                assert all(time <= q.timestamp for _, _, time, _ in e["turns"])
                future = {m for s in traj.sessions for u in s.turns for m in u.media} - set(h.media_paths())
                assert not future & set(e["media"])
                saw_cutoff_exclusion |= len(expected) < traj.n_turns
            assert set(e["media"]) <= set(h.media_paths())
            assert e["query_media"] == list(q.media)
    assert saw_cutoff_exclusion
    # every prepared (cached) input came from a visible or query media file of that question
    used = [json.loads(l) for t in TASK_NAMES
            for l in (out / f"samples_{t}.jsonl").read_text().splitlines()]
    for s in used:
        traj_q = [(tr, q) for t in tasks for tr, q in t.questions() if str(q.key) == s["key"]][0]
        allowed = set(visible_history(*traj_q).media_paths()) | set(traj_q[1].media)
        assert {u["path"] for u in s["inputs"]["media_used"]} <= allowed


def test_interrupted_run_resumes_to_the_same_results(sample_snapshot, tmp_path):
    clean = tmp_path / "clean"
    assert run(["--tasks", "management", "--data", str(sample_snapshot),
                "--agent", "baseline", "--output_path", str(clean)]) == 0
    resumed = tmp_path / "resumed"
    A.InterruptingAgent.calls.update(n=0, stop_at=5)
    args = ["--tasks", "management", "--data", str(sample_snapshot),
            "--agent", "agents_for_tests:InterruptingAgent", "--output_path", str(resumed)]
    assert main(["run", "--no-progress", *args]) == 130
    done = sum(len(journal(resumed, t)) for t in ("conflict_detection",)
               if (resumed / f"samples_{t}.jsonl").exists())
    assert done == 4                                      # finished work kept
    A.InterruptingAgent.calls.update(n=0, stop_at=10**9)
    assert run(args) == 0
    a, b = results_of(clean)["results"], results_of(resumed)["results"]
    assert set(a) == set(b)
    for task in a:
        assert a[task]["primary"] == b[task]["primary"], task
        assert len(journal(resumed, task)) == a[task]["n_scored"]


def test_other_settings_refuse_to_mix(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert run(["--task", "conflict_detection", "--data", str(sample_snapshot),
                "--output_path", str(out), "--limit", "1"]) == 0
    capsys.readouterr()
    assert run(["--task", "conflict_detection", "--data", str(sample_snapshot),
                "--output_path", str(out), "--agent", "none", "--model", "mock"]) == 1
    err = capsys.readouterr().err
    assert "other settings" in err and err.count("\n") == 1


def test_failing_agent_is_an_error_not_a_zero(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert run(["--task", "conflict_detection", "--data", str(sample_snapshot),
                "--agent", "agents_for_tests:ExplodingAgent", "--output_path", str(out)]) == 1
    r = results_of(out)["results"]["conflict_detection"]
    assert r["n_scored"] == 0 and r["n_failed"] == len(journal(out, "conflict_detection"))
    assert r["primary"] is None or r["primary"].get("mean") is None
    assert "memory backend unavailable" in journal(out, "conflict_detection")[0]["error"]
    assert "Traceback" not in capsys.readouterr().err


def test_score_recomputes_from_the_journal(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert run(["--task", "memory_update", "--data", str(sample_snapshot),
                "--output_path", str(out)]) == 0
    before = results_of(out)["results"]["memory_update"]
    lines = journal(out, "memory_update")
    for s in lines:
        s["metrics"] = {"primary": 0.0}            # corrupt the stored scores
    (out / "samples_memory_update.jsonl").write_text("".join(json.dumps(s) + "\n" for s in lines))
    assert main(["score", str(out), "--no-progress"]) == 0
    assert results_of(out)["results"]["memory_update"]["primary"] == before["primary"]


def test_unknown_task_and_agent_one_line(tmp_path, capsys):
    assert main(["--task", "memory_recall"]) == 2
    assert "unknown task 'memory_recall'" in capsys.readouterr().err
    assert main(["--task", "memory_update", "--agent", "nope.mod:Cls",
                 "--output_path", str(tmp_path / "x")]) == 2
    assert "cannot import nope.mod" in capsys.readouterr().err


def test_secrets_never_reach_results(sample_snapshot, tmp_path, capsys):
    from test_models_openai import FakeOpenAIServer, error_body

    out = tmp_path / "run"
    # Nothing listens on port 9 of 127.0.0.1: the preflight stops the run before anything is
    # written, with one line that does not hold the key.
    assert run(["--task", "conflict_detection", "--data", str(sample_snapshot), "--limit", "1",
                "--agent", "none", "--model", "openai", "--model_args",
                "base_url=http://127.0.0.1:9/v1,model=m,api_key=sk-SECRET,max_retries=0",
                "--output_path", str(out)]) == 1
    err = capsys.readouterr().err
    assert "sk-SECRET" not in err and len(err.strip().splitlines()) == 1
    assert not (out / "samples_conflict_detection.jsonl").exists()
    # A server that passes the preflight, then fails echoing the key: journal and results
    # never hold it.
    with FakeOpenAIServer() as srv:
        srv.script = [None, None] + [(500, error_body("bad auth Bearer sk-SECRET"))] * 10
        assert run(["--task", "conflict_detection", "--data", str(sample_snapshot), "--limit", "1",
                    "--agent", "none", "--model", "openai", "--model_args",
                    f"base_url={srv.base_url},model=m,api_key=sk-SECRET,max_retries=0",
                    "--output_path", str(out)]) == 1
    assert "sk-SECRET" not in (out / "samples_conflict_detection.jsonl").read_text()
    text = (out / "results.json").read_text()
    assert "sk-SECRET" not in text and '"api_key": "***"' in text


def test_other_data_refuses_to_mix_and_tasks_accumulate(sample_snapshot, tmp_path, capsys):
    import shutil
    other = tmp_path / "other"
    shutil.copytree(sample_snapshot, other)
    with open(other / "benchmark" / "SHA256SUMS", "a") as fh:   # another fingerprint
        fh.write("\n")
    out = tmp_path / "run"
    base = ["--output_path", str(out), "--limit", "1"]
    assert run(["--task", "memory_update", "--data", str(sample_snapshot), *base]) == 0
    assert run(["--task", "temporal_anchoring", "--data", str(sample_snapshot), *base]) == 0
    res = results_of(out)
    assert res["config"]["tasks"] == ["memory_update", "temporal_anchoring"]
    assert set(res["results"]) == {"memory_update", "temporal_anchoring"}
    capsys.readouterr()
    assert run(["--task", "memory_update", "--data", str(other), *base]) == 1
    assert "data_fingerprint" in capsys.readouterr().err
    assert run(["--task", "memory_update", "--data", str(other), *base, "--overwrite"]) == 0
    assert set(results_of(out)["results"]) == {"memory_update"}


def test_captions_without_weights_stop_before_any_question(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert run(["--task", "cross_modal_semantic_matching", "--data", str(sample_snapshot),
                "--captions", "--output_path", str(out)]) == 1
    err = capsys.readouterr().err
    assert "is not in the Hugging Face cache and HF_HUB_OFFLINE is set" in err and err.count("\n") == 1
    assert not list(out.glob("samples_*.jsonl"))
