"""What a new user meets in the first hour (issue 25, items 5 and 8): usage errors as one line
with "did you mean", a --help that lists every accepted value, `show --json` carrying what the
text form shows, --agent_args keys checked against what the agent takes before the first item,
and `from evaluator import evaluate`."""

from __future__ import annotations

import json
import textwrap

import pytest

from evaluator.cli import main


def one_usage_line(capsys, argv) -> str:
    """stderr of a usage error that argparse raises (exit 2)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err, err
    return err


@pytest.mark.parametrize("argv, said", [
    (["run", "--taks", "conflict_detection"],
     "br-eval: error: unrecognized arguments: --taks conflict_detection; did you mean --tasks? "
     "(see br-eval run --help)"),
    (["--task", "x", "--agnet_args", "top_k=3"], "did you mean --agent_args?"),
    (["--task", "x", "--model", "opena"],
     "argument --model: invalid choice: 'opena' (choose from 'hf', 'openai', 'mock'); did you mean openai?"),
    (["cache", "prun"], "br-eval cache: error: argument ACTION: invalid choice: 'prun'"),
    (["run", "--limit", "ten"], "br-eval run: error: argument --limit: invalid int value: 'ten' "
                                "(see br-eval run --help)"),
])
def test_a_usage_error_is_one_line_with_did_you_mean(capsys, argv, said):
    assert said in one_usage_line(capsys, argv)


def test_an_unknown_command_is_one_line_naming_the_closest(capsys):
    assert main(["shwo", "management/memory_update/0/q0"]) == 2
    assert capsys.readouterr().err == "br-eval: error: unknown command 'shwo'; did you mean show?\n"
    assert main(["conflict_detection"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "commands: run, ls, show" in err and "--task" in err


def test_run_help_lists_every_accepted_value(capsys):
    from evaluator.agents.builtin import BUILTIN_AGENTS, resolve_agent
    from evaluator.models import _ARGS
    from evaluator.realcompanion.chat_track import CONDITIONS

    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")   # unwrap argparse's lines
    assert f"({' '.join(CONDITIONS)})" in text and "C3m" in CONDITIONS
    for kind, spec in _ARGS.items():
        assert f"{kind}: {', '.join(f'{k}=' for k in spec)}" in text
    for name in BUILTIN_AGENTS:       # mem0 included (its class is loaded when named)
        assert f"{name}: {', '.join(f'{k}=' for k in resolve_agent(name).AGENT_ARGS) or 'none'}" in text
    assert "window=" in text and "top_k=" in text


def test_show_json_carries_the_question_and_each_videos_audio(sample_snapshot, capsys):
    key = "reasoning/cross_modal_relational_reasoning/0/q0"
    assert main(["show", key, "--data", str(sample_snapshot)]) == 0
    text = capsys.readouterr().out
    assert main(["show", key, "--data", str(sample_snapshot), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    question = text.split("\nQUESTION: ", 1)[1].split("  [media:")[0].strip()
    assert shown["question"]["text"] == question
    assert "videos/clip_parade.mp4 (+audio track)" in text
    assert shown["video_audio"] == {"videos/clip_parade.mp4": "audio track"}
    assert f"visible: {shown['visible']['sessions']} session(s), {shown['visible']['turns']} turn(s)" in text
    for s in shown["sessions"]:
        for t in s["turns"]:
            assert f"{t['person']}: {t['content']}" in text
    assert main(["show", "reasoning/cross_modal_relational_reasoning/2/q0", "--data", str(sample_snapshot),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["video_audio"] == {"videos/clip_timelapse_silent.mp4": "no audio"}


# -- --agent_args keys ----------------------------------------------------------------------------
@pytest.mark.parametrize("agent, args, said", [
    ("rag", "topk=10", "br-eval: error: --agent_args topk: --agent rag does not take it; did you mean "
                       "top_k? (it takes media, top_k, last, retriever, embed_base_url"),
    ("rag", "bogus_setting=3", "--agent_args bogus_setting: --agent rag does not take it (it takes"),
    ("full-context", "max_context=900", "did you mean max_context_tokens?"),
    ("recent", "top_k=3", "--agent recent does not take it"),
])
def test_an_agent_arg_the_agent_does_not_take_stops_before_the_first_item(tmp_path, capsys, agent,
                                                                          args, said):
    out = tmp_path / "run"
    code = main(["--task", "conflict_detection", "--agent", agent, "--model", "mock",
                 "--agent_args", args, "--output_path", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and said in err and err.count("br-eval: error") == 1
    assert not out.exists()                   # nothing journaled, no folder made


def test_baseline_takes_window_and_nothing_else(tmp_path, capsys):
    assert main(["--task", "conflict_detection", "--agent_args", "windw=2", "--output_path",
                 str(tmp_path / "a"), "--no-progress"]) == 2
    assert "did you mean window?" in capsys.readouterr().err
    assert main(["--task", "conflict_detection", "--agent_args", "window=2", "--limit", "1",
                 "--output_path", str(tmp_path / "b"), "--no-progress"]) == 0


def test_gen_kwargs_without_a_model_stops_before_the_first_item(tmp_path, capsys):
    # the weight-free baseline asks no model: a generation setting (a typo or not) would reach
    # nothing, and a run that ignored it would look like one made with it
    out = tmp_path / "a"
    assert main(["--task", "conflict_detection", "--gen_kwargs", "temprature=0", "--output_path",
                 str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "--gen_kwargs: the weight-free baseline uses no model" in err[-1]
    assert not list(out.glob("samples_*.jsonl"))


@pytest.mark.parametrize("args, says", [
    (["--judge_args", "base_url=http://127.0.0.1:9/v1,model=j"], "--judge_args without --judge"),
    (["--judge_repeats", "3"], "--judge_repeats without --judge"),
    (["--model_args", "base_url=http://127.0.0.1:9/v1,model=m"], "--model_args without --model"),
    (["--judge", "openai"], "the openai judge needs --judge_args base_url=...,model=..."),
    (["--agent", "fullcontext"], "unknown agent 'fullcontext' (did you mean full-context?)"),
])
def test_settings_for_what_the_run_does_not_have_are_usage_errors(args, says, tmp_path, capsys):
    # settings that would reach nothing (no judge, no model) are refused, not ignored: a run
    # that ignored them would look made with them
    out = tmp_path / "a"
    assert main(["--task", "conflict_detection", *args, "--output_path", str(out),
                 "--no-progress"]) == 2
    assert says in capsys.readouterr().err.strip().splitlines()[-1]
    assert not out.exists() or not list(out.glob("samples_*.jsonl"))


@pytest.mark.parametrize("agent, arg", [("rag", "top_k=ten"), ("rag", "top_k=-1"),
                                         ("rag", "last=-2"), ("recent", "n=2.5"),
                                         ("full-context", "max_context_tokens=0"),
                                         ("baseline", "window=x")])
def test_a_built_in_agents_count_that_is_no_whole_number_stops_before_the_first_item(
        agent, arg, tmp_path, capsys):
    # each question would fail alone (int("ten")), or top_k=-1 would mean "all hits but one"
    model = [] if agent == "baseline" else ["--model", "mock"]
    out = tmp_path / "a"
    assert main(["--task", "memory_update", "--agent", agent, *model, "--agent_args", arg,
                 "--output_path", str(out), "--no-progress"]) == 2
    assert f"--agent_args {arg}: --agent {agent} takes a whole number of at least" in \
        capsys.readouterr().err.strip().splitlines()[-1]
    assert not out.exists() or not list(out.glob("samples_*.jsonl"))


def test_a_mistyped_task_names_the_closest_one(capsys):
    assert main(["--task", "conflict_detecton", "--no-progress"]) == 2
    assert "did you mean conflict_detection?" in capsys.readouterr().err


def test_a_user_agent_declares_its_keys(tmp_path, capsys):
    (tmp_path / "useragents.py").write_text(textwrap.dedent('''
        from evaluator.agents import Agent


        class _Base(Agent):
            def write(self, session):
                pass

            def answer(self, query):
                return "I don't know"


        class Declared(_Base):
            AGENT_ARGS = {"top_k": "how many notes"}

            def __init__(self, model=None, **agent_args):
                self.top_k = agent_args.get("top_k")


        class Signature(_Base):
            def __init__(self, model=None, depth=2, gen_kwargs=None):
                self.depth = depth


        class Anything(_Base):
            def __init__(self, model=None, **agent_args):
                self.args = agent_args
    '''))

    def run(agent, args, name):
        return main(["--task", "conflict_detection", "--agent", f"useragents:{agent}", "--include_path",
                     str(tmp_path), "--agent_args", args, "--limit", "1", "--no-progress",
                     "--output_path", str(tmp_path / name)])

    assert run("Declared", "topk=3", "d1") == 2
    assert "--agent useragents:Declared does not take it; did you mean top_k? (it takes top_k)" \
        in capsys.readouterr().err
    assert run("Declared", "top_k=3", "d2") == 0
    assert run("Signature", "dept=3", "s1") == 2
    assert "did you mean depth? (it takes depth, gen_kwargs)" in capsys.readouterr().err
    assert run("Signature", "depth=3", "s2") == 0
    assert run("Anything", "whatever=1", "a1") == 0      # **agent_args and no AGENT_ARGS: any key


def test_from_evaluator_import_evaluate_runs_and_import_evaluator_stays_light(sample_snapshot, tmp_path):
    """Issue 25, item 8: `from evaluator import evaluate` (as `from inspect_ai import eval`) runs
    an evaluation; `import evaluator` alone loads none of the run loop."""
    import subprocess
    import sys

    code = ("import sys, evaluator\n"
            "assert not [m for m in sys.modules if m.startswith('evaluator.')], sorted(sys.modules)\n"
            "from evaluator import evaluate\n"
            "res = evaluate(['memory_update'], data=sys.argv[1], output_path=sys.argv[2], limit=2,\n"
            "               announce=False, progress=False)\n"
            "print(type(res).__name__, res['memory_update']['primary']['n'])\n")
    out = subprocess.run([sys.executable, "-c", code, str(sample_snapshot), str(tmp_path / "run")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["EvalResults", "2"]


def test_gen_kwargs_for_a_user_agent_that_cannot_take_them_stops_before_the_first_item(tmp_path,
                                                                                       capsys):
    (tmp_path / "plainagents.py").write_text(textwrap.dedent('''
        from evaluator.agents import Agent


        class Plain(Agent):
            def __init__(self, model=None, depth=2):
                self.depth = depth

            def write(self, session):
                pass

            def answer(self, query):
                return "I don't know"
    '''))
    out = tmp_path / "run"
    code = main(["--task", "conflict_detection", "--agent", "plainagents:Plain", "--include_path",
                 str(tmp_path), "--gen_kwargs", "temperature=0", "--no-progress",
                 "--output_path", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "--gen_kwargs: --agent plainagents:Plain does not take gen_kwargs" in err
    assert not (out / "samples_conflict_detection.jsonl").exists()


def test_score_names_judge_repeats_and_says_judge_errors_need_a_judge(sample_snapshot, tmp_path,
                                                                      capsys):
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--judge", "mock", "--judge_args", 'replies={"score": 1},fail_on=1;2;3',
                 "--output_path", str(out)]) == 1
    capsys.readouterr()
    assert main(["score", str(out), "--judge_repeats", "2", "--no-progress"]) == 2
    assert "--judge_repeats without --judge" in capsys.readouterr().err
    # without a judge nothing can grade the judge error: score says so and exits 1
    assert main(["score", str(out), "--no-progress"]) == 1
    assert "judge error(s) left unscored" in capsys.readouterr().err.strip().splitlines()[-1]


def test_a_runs_first_lines_name_agent_and_data_and_stderr_keeps_only_errors(tmp_path, capsys):
    # the README: the first lines of a run (stdout) say which agent, model and data it uses;
    # stderr carries the progress lines and, for a run that stops, its one error line
    assert main(["--task", "conflict_detection", "--output_path", str(tmp_path / "r"),
                 "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "br-eval: agent: weight-free baseline, no model"
    assert "br-eval: agent:" not in captured.err
