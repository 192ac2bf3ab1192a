"""What a user's agent class may do and what br-eval does about it: token counts and reply sizes
checked before a line is written (a line br-eval writes is a line it reads back), sys.exit() and
os.chdir() inside an agent, and one question at a time unless the class says it is thread-safe."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import threading
import time

import pytest

from evaluator.cli import main
from evaluator.evaluate import evaluate
from evaluator.models.mock_backend import MockChatModel

TASK = "memory_update"

AGENT = textwrap.dedent("""
    import os, sys, threading, time
    import numpy as np
    from evaluator.agents.protocol import Answer

    class Odd:
        def __init__(self, model=None, kind="", **kw):
            self.kind = kind
        def write(self, session):
            pass
        def answer(self, query):
            k = self.kind
            if k == "np":
                return Answer("x", input_tokens=np.int64(12), output_tokens=3.0)
            if k in ("half", "text", "nan", "minus", "bool"):
                value = {"half": 12.5, "text": "12", "nan": float("nan"), "minus": -1, "bool": True}[k]
                return Answer("x", input_tokens=value)
            if k == "big":
                return "y" * 2000
            if k == "exit":
                sys.exit(0)
            if k == "thread":           # a background worker it never stops
                threading.Thread(target=time.sleep, args=(300,), name="flusher").start()
                return "x"
            if k == "chdir":
                os.chdir(os.environ["ELSEWHERE"])
                return "x"
            return "x"

    class Busy:
        active = 0
        most = 0
        lock = threading.Lock()
        def __init__(self, model=None, **kw):
            pass
        def write(self, session):
            pass
        def answer(self, query):
            cls = type(self)
            with cls.lock:
                cls.active += 1
                cls.most = max(cls.most, cls.active)
            time.sleep(0.05)
            with cls.lock:
                cls.active -= 1
            return "x"

    class SafeBusy(Busy):
        THREAD_SAFE = True
        active = 0
        most = 0
""")


@pytest.fixture
def agents(tmp_path, monkeypatch):
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "conduct_agents.py").write_text(AGENT)
    monkeypatch.syspath_prepend(str(folder))
    yield
    sys.modules.pop("conduct_agents", None)


def _run(sample_snapshot, out, kind, *extra):
    return main(["run", "--no-progress", "--task", TASK, "--limit", "2", "--data",
                 str(sample_snapshot), "--output_path", str(out), "--agent", "conduct_agents:Odd",
                 "--agent_args", f"kind={kind}", *extra])


def _lines(out):
    return [json.loads(line) for line in (out / f"samples_{TASK}.jsonl").read_text().splitlines()]


def test_numpy_and_whole_float_token_counts_are_journaled_as_integers(sample_snapshot, tmp_path,
                                                                      agents):
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, "np") == 0
    assert {(line["input_tokens"], line["output_tokens"]) for line in _lines(out)} == {(12, 3)}


@pytest.mark.parametrize("kind", ["half", "text", "nan", "minus", "bool"])
def test_a_token_count_that_is_not_a_whole_number_is_the_agents_error(sample_snapshot, tmp_path,
                                                                      capsys, agents, kind):
    # the audit: 12.5 or "12" was written, and every later command refused the folder as damaged
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, kind) == 1
    for line in _lines(out):
        assert line["error_kind"] == "agent" and "input_tokens" in line["error"]
    capsys.readouterr()
    assert main(["report", str(out)]) == 0           # the folder reads back
    assert "damaged" not in capsys.readouterr().err


def test_a_reply_over_the_bound_is_the_agents_error(sample_snapshot, tmp_path, agents,
                                                    monkeypatch):
    import evaluator.beyondrecall_task as bt

    monkeypatch.setattr(bt, "MAX_REPLY_CHARS", 1000)
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, "big") == 1
    for line in _lines(out):
        assert line["error_kind"] == "agent" and "over br-eval's bound" in line["error"]


def test_sys_exit_in_an_agent_stops_the_run_with_one_line(sample_snapshot, tmp_path, capsys,
                                                          agents):
    # the audit: sys.exit(0) in answer() ended br-eval with exit 0 and nothing said
    assert _run(sample_snapshot, tmp_path / "run", "exit") == 1
    err = capsys.readouterr().err
    assert "the agent called sys.exit(0)" in err and "Traceback" not in err


def test_an_agent_that_changes_the_working_folder_does_not_move_the_run(sample_snapshot, tmp_path,
                                                                       agents, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "run").mkdir(parents=True)
    monkeypatch.setenv("ELSEWHERE", str(elsewhere))
    monkeypatch.chdir(tmp_path)
    try:
        assert main(["run", "--no-progress", "--task", TASK, "--limit", "2", "--data",
                     str(sample_snapshot), "--output_path", "run", "--agent", "conduct_agents:Odd",
                     "--agent_args", "kind=chdir"]) == 0
    finally:
        os.chdir(tmp_path)
    assert len(_lines(tmp_path / "run")) == 2
    assert not list((elsewhere / "run").iterdir())


class _Wide(MockChatModel):
    concurrency = 4          # as the openai backend's default


@pytest.mark.parametrize("cls, most", [("Busy", 1), ("SafeBusy", 4)])
def test_a_users_class_answers_one_question_at_a_time_unless_it_says_it_is_thread_safe(
        sample_snapshot, tmp_path, capsys, agents, cls, most):
    # the audit: a class keeping one store in a module global scored 0.144 alone and 0.080 on
    # the openai backend's 4 default threads, with transport.num_concurrent recorded as None
    import conduct_agents

    out = tmp_path / "run"
    evaluate([TASK], agent=f"conduct_agents:{cls}", model=_Wide(), data=sample_snapshot,
             output_path=out, progress=False, announce=False)
    err = capsys.readouterr().err
    assert getattr(conduct_agents, cls).most == most
    assert ("answering one question at a time" in err) == (most == 1)
    header = json.loads((out / "results.json").read_text())
    assert header["config"]["transport"]["num_concurrent"] == most


def test_a_thread_the_agent_leaves_running_does_not_keep_br_eval_alive(sample_snapshot, tmp_path,
                                                                       agents):
    # the audit: a non-daemon thread started by the agent kept the finished process alive
    import subprocess

    code = tmp_path / "code"
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), *sys.path])}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "evaluator", "run", "--no-progress", "--task", TASK,
                           "--limit", "1", "--data", str(sample_snapshot), "--output_path", str(out),
                           "--agent", "conduct_agents:Odd", "--agent_args", "kind=thread"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert time.perf_counter() - started < 60
    assert "1 thread(s)" in done.stderr and "flusher" in done.stderr
    assert json.loads((out / "results.json").read_text())["results"][TASK]
