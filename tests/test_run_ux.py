"""A run that cannot work stops before the first question; one that works says what it measured.

Each test is one case of the "run UX" issue, through the real CLI against the fake
OpenAI-compatible server on 127.0.0.1 (subprocesses where the behaviour is the process's: exit
codes, stderr without a terminal).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from evaluator.cli import main
from test_models_openai import FakeOpenAIServer, error_body


def _journal(out, task="memory_update"):
    path = out / f"samples_{task}.jsonl"
    return [json.loads(l) for l in path.read_text().splitlines()] if path.exists() else None


def _base(sample_snapshot, out, *extra):
    return ["run", "--no-progress", "--task", "memory_update", "--limit", "2",
            "--data", str(sample_snapshot), "--output_path", str(out), *extra]


def test_model_without_agent_runs_full_context_and_says_so(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    with FakeOpenAIServer() as srv:
        assert main(_base(sample_snapshot, out, "--model", "openai", "--model_args",
                          f"base_url={srv.base_url},model=m")) == 0
        assert len(srv.questions) == 2                  # the model answered, not the baseline
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "br-eval: agent: full-context"
    results = json.loads((out / "results.json").read_text())
    assert results["config"]["settings"]["agent"] == "full-context"
    assert all(s["prediction"].startswith("echo:") for s in _journal(out))


@pytest.mark.parametrize("case", ["rag-without-model", "wrong-model", "server-down", "typo",
                                  "unknown-model-arg", "limit-0", "unknown-task",
                                  "text-only-server"])
def test_setup_mistakes_stop_before_anything_is_journaled(sample_snapshot, tmp_path, capsys, case):
    out = tmp_path / "run"
    with FakeOpenAIServer() as srv:
        openai = ["--model", "openai", "--model_args", f"base_url={srv.base_url},model=m"]
        args, code, words = {
            "rag-without-model": (["--agent", "rag"], 2, "--agent rag answers with a model"),
            "wrong-model": (openai, 1, "404"),
            "server-down": (["--model", "openai", "--model_args",
                             "base_url=http://127.0.0.1:9/v1,model=m"], 1, "127.0.0.1:9"),
            "typo": (openai + ["--gen_kwargs", "temperatur=0"], 2, "temperatur"),
            "unknown-model-arg": (["--model", "openai", "--model_args",
                                   f"base_url={srv.base_url},model=m,tempo=1"], 2, "tempo"),
            "limit-0": (["--limit", "0"], 2, "--limit"),
            "unknown-task": (["--task", "memory_recall"], 2, "unknown task"),
            "text-only-server": (openai, 1, "supports_images=false"),
        }[case]
        if case == "wrong-model":
            srv.script = [(404, error_body("The model `m` does not exist."))]
        if case == "text-only-server":
            srv.script = [None, (400, error_body("this model does not accept image input"))]
        started = time.monotonic()
        assert main(_base(sample_snapshot, out, *args)) == code
        assert time.monotonic() - started < 10           # no minutes of retries
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Traceback" not in err[0], err
    assert _journal(out) is None and not (out / "results.json").exists()
    # the obvious fix is not refused as "a run with other settings": nothing was written
    if case == "rag-without-model":
        with FakeOpenAIServer() as srv:
            assert main(_base(sample_snapshot, out, "--agent", "rag", "--model", "openai",
                              "--model_args", f"base_url={srv.base_url},model=m")) == 0


def test_exit_codes_of_usage_errors_in_a_real_process(sample_snapshot, tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    for args in (["--task", "memory_recall"], ["--task", "memory_update", "--limit", "0"],
                 ["--task", "memory_update", "--agent", "nope.mod:Cls"]):
        r = subprocess.run([sys.executable, "-m", "evaluator.cli", *args, "--data",
                            str(sample_snapshot), "--output_path", str(tmp_path / "x")],
                           capture_output=True, text=True, env=env, timeout=60)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)


def test_resume_allows_transport_changes_and_names_answer_changes(sample_snapshot, tmp_path,
                                                                    capsys):
    out = tmp_path / "run"
    with FakeOpenAIServer() as srv, FakeOpenAIServer() as other:
        first = ["--model", "openai", "--model_args", f"base_url={srv.base_url},model=m,timeout=5"]
        assert main(_base(sample_snapshot, out, *first)) == 0
        # another server, a longer timeout, more concurrency: transport, resumed
        moved = ["--model", "openai", "--model_args",
                 f"base_url={other.base_url},model=m,timeout=60,concurrency=8"]
        assert main(_base(sample_snapshot, out, *moved, "--num_concurrent", "3")) == 0
        assert len(other.questions) == 0                 # nothing left to answer
        capsys.readouterr()
        assert main(_base(sample_snapshot, out, *moved, "--gen_kwargs", "temperature=0.7")) == 1
    err = capsys.readouterr().err
    assert "gen_kwargs.temperature: None -> 0.7" in err and "--overwrite" in err


def test_editing_ones_agent_refuses_the_rerun_and_include_path_finds_it(sample_snapshot,
                                                                         tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    source = textwrap.dedent("""
        class Echo:
            def __init__(self, model=None, **kw):
                pass
            def write(self, session):
                pass
            def answer(self, query):
                return "VERSION"
    """)
    (folder / "myagent_ux.py").write_text(source.replace("VERSION", "one"))
    out = tmp_path / "run"
    args = _base(sample_snapshot, out, "--agent", "myagent_ux:Echo")
    assert main(args) == 2                               # not importable from here
    err = capsys.readouterr().err
    assert "--include_path" in err and "myagent_ux" in err
    assert main(args + ["--include_path", str(folder)]) == 0
    assert {s["prediction"] for s in _journal(out)} == {"one"}
    (folder / "myagent_ux.py").write_text(source.replace("VERSION", "two"))
    sys.modules.pop("myagent_ux", None)
    capsys.readouterr()
    assert main(args + ["--include_path", str(folder)]) == 1
    assert "the agent's source changed" in capsys.readouterr().err


def test_failed_item_keeps_its_traceback_and_raise_stops_at_it(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_base(sample_snapshot, out, "--agent", "agents_for_tests:ExplodingAgent")) == 1
    lines = _journal(out)
    assert all(s["error_kind"] == "agent" and "Traceback" in s["traceback"]
               and "agents_for_tests.py" in s["traceback"] for s in lines)
    capsys.readouterr()
    out2 = tmp_path / "run2"
    assert main(_base(sample_snapshot, out2, "--agent", "agents_for_tests:ExplodingAgent",
                      "--raise")) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "--raise" in err
    assert len(_journal(out2)) == 1                      # stopped at the first failure


def test_partial_tasks_are_counted_and_marked(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_base(sample_snapshot, out)) == 0
    r = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    assert r["n_done"] == 2 and r["n_expected"] > 2 and r["complete"] is False
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"2/{r['n_expected']}*" in text and "partial: memory_update" in text
    assert "agent: weight-free baseline, no model" in text and "generated sample" in text
    assert "token F1" in text


def test_generation_defaults_are_sent_and_recorded_with_the_served_model(sample_snapshot,
                                                                        tmp_path):
    out = tmp_path / "run"
    with FakeOpenAIServer() as srv:
        def served_as_other(body):
            reply = FakeOpenAIServer.completion(body)
            reply["model"] = "llama-3-8b-q4.gguf"
            return reply
        srv.completion = served_as_other
        assert main(_base(sample_snapshot, out, "--agent", "none", "--model", "openai",
                          "--model_args", f"base_url={srv.base_url},model=m")) == 0
        bodies = srv.questions
    assert all(b["temperature"] == 0 and b["max_tokens"] == 512 for b in bodies)
    results = json.loads((out / "results.json").read_text())
    assert results["model"]["generation"]["temperature"] == 0
    assert results["model"]["generation"]["max_tokens"] == 512
    assert all(s["model_reported"] == "llama-3-8b-q4.gguf" for s in _journal(out))


def test_dimension_and_overall_means_in_the_table(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--tasks", "management", "--limit", "1", "--data",
                 str(sample_snapshot), "--output_path", str(out)]) == 0
    text = capsys.readouterr().out
    rows = json.loads((out / "results.json").read_text())["results"]
    means = [rows[t]["primary"]["mean"] for t in rows]
    # --limit 1 leaves each task incomplete, so both means carry the mark `*`
    assert f"management (mean of 4 of 4 tasks)*: {sum(means) / len(means):.3f}" in text
    assert "Beyond Recall overall (mean of 4 of 11 tasks)*" in text


def test_progress_lines_without_a_terminal(sample_snapshot, tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    r = subprocess.run([sys.executable, "-m", "evaluator.cli", "--task", "memory_update",
                        "--data", str(sample_snapshot), "--output_path", str(tmp_path / "x")],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0
    assert "br-eval: memory_update: 7 item(s) to do" in r.stderr
    assert "br-eval: memory_update: 7/7 done" in r.stderr


def test_a_folder_from_before_the_settings_split_resumes_on_another_server(sample_snapshot,
                                                                          tmp_path):
    """br-eval 0.1.0 kept base_url inside settings.model_args: moving servers still resumes."""
    out = tmp_path / "run"
    with FakeOpenAIServer() as srv, FakeOpenAIServer() as other:
        args = ["--agent", "none", "--model", "openai"]
        assert main(_base(sample_snapshot, out, *args, "--model_args",
                          f"base_url={srv.base_url},model=m")) == 0
        results = json.loads((out / "results.json").read_text())
        config = results["config"]
        config["settings"]["model_args"] = {"base_url": srv.base_url, "model": "m"}
        del config["transport"], config["settings"]["agent_source"]
        (out / "results.json").write_text(json.dumps(results))
        assert main(_base(sample_snapshot, out, *args, "--model_args",
                          f"base_url={other.base_url},model=m")) == 0
        assert other.questions == []                     # everything was already answered
