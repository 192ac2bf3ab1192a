"""Scores that mean what they say (issue 23): the judge decides what the README says it decides,
an unreadable reply is a 0 with a reason, judge failures are shown as judge errors, one
"overall", a scorer version in every results.json and journal line, and an explicit rule for
which questions are unanswerable.

Model and judge are fake OpenAI-compatible servers on 127.0.0.1 reached through the real
openai client (tests/test_models_openai.py), driven through `br-eval` itself.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from evaluator.cli import main
from evaluator.results import RunDir
from test_models_openai import FakeOpenAIServer, chat_completion


def _lines(out, task: str) -> list[dict]:
    return [s.to_json() for s in RunDir(out).latest_samples(task)]


def _results(out) -> dict:
    return json.loads((out / "results.json").read_text())


def _is_abstention(body: dict) -> bool:
    return "cannot be answered from those conversations" in body["messages"][-1]["content"]


def test_the_judge_decides_refusal_on_unanswerable_items_through_the_cli(sample_snapshot, tmp_path):
    """`br-eval run --task refusal_to_answer --judge openai ...` in a real subprocess: every
    unanswerable open question reaches the abstention prompt and the judge's verdict decides
    (`refusal_by: judge`), where the lexical detector reads the same reply as an answer."""
    with FakeOpenAIServer() as model, FakeOpenAIServer() as judge:
        model.completion = lambda body: chat_completion("It was on Tuesday, at the cafe by the station.",
                                                        body["model"])
        judge.completion = lambda body: chat_completion(json.dumps(
            {"score": 1, "reason": "declines"} if _is_abstention(body) else
            {"score": 0, "reason": "wrong"}))
        out = tmp_path / "run"
        proc = subprocess.run(
            [sys.executable, "-m", "evaluator.cli", "run", "--no-progress", "--task",
             "refusal_to_answer", "--data", str(sample_snapshot), "--agent", "none",
             "--model", "openai", "--model_args", f"base_url={model.base_url},model=m",
             "--judge", "openai", "--judge_args",
             f"base_url={judge.base_url},model=j,backoff=0.01", "--output_path", str(out)],
            capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        abstention_calls = [r for r in judge.questions if _is_abstention(r)]
    lines = _lines(out, "refusal_to_answer")
    unanswerable = [s for s in lines if s["metrics"]["answerable"] is False
                    and s["metrics"]["mc_accuracy"] is None]
    assert len(unanswerable) == 2 and len(abstention_calls) == 2
    for s in unanswerable:
        m = s["metrics"]
        assert m["refusal_by"] == "judge" and m["judge"] == 1.0 and m["judge_prompt"] == "abstention"
        assert m["refused_detector"] is False and m["refused"] is True   # the judge decided
        assert m["refusal_acc"] == 1.0
    entry = _results(out)["results"]["refusal_to_answer"]
    assert entry["decided_by"]["refusal"] == {"judge": 2, "detector": 1}   # the MC item: letter
    assert entry["decided_by"]["choice"] == {"letter reader": 1}


def test_without_a_judge_the_results_say_what_the_rules_decided(sample_snapshot, tmp_path,
                                                                  capsys):
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "refusal_to_answer,memory_update", "--data",
                 str(sample_snapshot), "--output_path", str(out)]) == 0
    r = _results(out)["results"]
    assert r["refusal_to_answer"]["decided_by"]["refusal"] == {"detector": 3}
    open_items = [s for s in _lines(out, "memory_update") if s["metrics"]["mc_accuracy"] is None]
    assert open_items
    assert r["memory_update"]["decided_by"]["open answer"] == {"token_f1": len(open_items)}
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert ("decided by rules, not a judge: refusal by the refusal reader (phrase rules and a learned model, "
            "no judge) on "
            f"{3 + len(_lines(out, 'memory_update'))} item(s)") in text
    # and how far to trust it, measured (tests/test_scoring_quality.py ties the figure to its set)
    assert "note: the refusal reader read 7 of 57 hedged answers of real chat models as declines" in text


# -- one "overall" --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rc_root(tmp_path_factory):
    from evaluator.realcompanion.sample import generate_sample

    root = tmp_path_factory.mktemp("rc") / "sample"
    generate_sample(root)
    return root


def _mock_run(out, tasks, replies, *extra):
    rfile = out.parent / f"{out.name}.replies.json"
    rfile.write_text(json.dumps(replies))
    assert main(["run", "--no-progress", "--tasks", tasks, "--agent", "none", "--model", "mock",
                 "--model_args", f"replies={rfile}", "--num_concurrent", "1",
                 "--output_path", str(out), *extra]) == 0


def test_one_overall_per_suite_in_results_report_compare_and_view(sample_snapshot, rc_root,
                                                                  tmp_path, capsys):
    """Both suites in one run: each suite's overall is the mean of its task means (never pooled
    across suites), and results.json, `report`, `compare` and `view` print the same value;
    compare's difference is the difference of those two values. A task cut by --limit is marked
    incomplete in each of them."""
    from evaluator.scoring.overall import task_mean

    tasks = "memory_update,temporal_anchoring,realcompanion/question,realcompanion/reconstruction"
    common = ["--data", str(sample_snapshot), "--rc_data", str(rc_root), "--limit", "12"]
    a, b = tmp_path / "A", tmp_path / "B"
    assert main(["run", "--no-progress", "--tasks", tasks, *common, "--output_path", str(a)]) == 0
    _mock_run(b, tasks, ["She moved to Harbour Road in May.", "I don't know.",
                         '{"profile": [], "persona": {"name": "Alex"}}', ""], *common)
    ra, rb = _results(a), _results(b)
    for r in (ra, rb):
        e = r["results"]
        br = (task_mean(e["memory_update"]) + task_mean(e["temporal_anchoring"])) / 2
        rc = (task_mean(e["realcompanion/question"])
              + task_mean(e["realcompanion/reconstruction"])) / 2
        assert r["overall"]["beyondrecall"]["mean"] == pytest.approx(br)
        assert r["overall"]["realcompanion"]["mean"] == pytest.approx(rc)
        assert r["overall"]["realcompanion"]["complete"] is False     # question: 12 of 332
        assert e["realcompanion/question"]["complete"] is False
    assert ra["overall"]["realcompanion"]["mean"] != pytest.approx(
        rb["overall"]["realcompanion"]["mean"])

    capsys.readouterr()
    assert main(["report", str(a)]) == 0
    text = capsys.readouterr().out
    assert (f"Beyond Recall overall (mean of 2 of 11 tasks)*: "
            f"{ra['overall']['beyondrecall']['mean']:.3f}") in text
    assert (f"RealCompanion overall (mean of 2 of 3 tasks)*: "
            f"{ra['overall']['realcompanion']['mean']:.3f}") in text

    assert main(["compare", str(a), str(b), "--json"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    assert set(cmp["overall"]) == {"beyondrecall", "realcompanion"}
    for suite, o in cmp["overall"].items():
        assert o["mean_a"] == pytest.approx(ra["overall"][suite]["mean"])
        assert o["mean_b"] == pytest.approx(rb["overall"][suite]["mean"])
        assert o["diff"]["mean"] == pytest.approx(o["mean_b"] - o["mean_a"])
        assert o["diff"]["ci95"][0] <= o["diff"]["mean"] <= o["diff"]["ci95"][1]
    assert cmp["overall"]["realcompanion"]["complete"] is False
    assert cmp["tasks"]["realcompanion/question"]["complete"] is False
    assert cmp["tasks"]["memory_update"]["complete"] is True
    assert main(["compare", str(a), str(b)]) == 0
    table = capsys.readouterr().out
    assert any(line.startswith("realcompanion/question*") for line in table.splitlines())
    assert any(line.startswith("overall (realcompanion, 2 of 3 tasks)*")
               for line in table.splitlines())

    from evaluator.view.report import _dimension_rows
    from evaluator.view.runs import load_run

    rows = {d["dimension"]: d for d in _dimension_rows(load_run(a))}
    assert rows["overall (realcompanion)"]["mean"] == pytest.approx(
        ra["overall"]["realcompanion"]["mean"])
    assert rows["overall (realcompanion)"]["complete"] is False


def test_compare_weighs_reconstruction_participants_as_its_pooled_f1(rc_root, tmp_path, capsys):
    """Reconstruction's primary is the F1 pooled over participants; compare's A and B columns
    are that same value (each participant weighted by its F1 denominator), not the mean of the
    participants' own F1."""
    from evaluator.realcompanion import reconstruction_track
    from evaluator.realcompanion.data import load_release

    release = load_release(rc_root)

    def replies(perfect: set[int]) -> list[str]:
        out = []
        for i, p in enumerate(release.participants):
            persona = {k: s.value for k, s in p.persona.items()}
            if i not in perfect:
                persona = dict(list(persona.items())[:1]) | {"invented.slot": "x"}
            claims = [c for c in p.claims if c.audit in reconstruction_track.GOLD_AUDITS]
            out.append(json.dumps({"profile": [{"text": c.text, "citations": list(c.citations)}
                                               for c in claims], "persona": persona}))
        return out

    a, b = tmp_path / "A", tmp_path / "B"
    common = ["--rc_data", str(rc_root)]
    _mock_run(a, "realcompanion/reconstruction", replies({0}), *common)
    _mock_run(b, "realcompanion/reconstruction", replies({0, 1, 2}), *common)
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["tasks"]["realcompanion/reconstruction"]
    for run, key in ((a, "mean_a"), (b, "mean_b")):
        entry = _results(run)["results"]["realcompanion/reconstruction"]
        assert row[key] == pytest.approx(entry["primary"]["mean"])
        assert entry["primary"]["mean"] != pytest.approx(entry["persona"]["macro_f1"])


# -- judge failures are judge errors --------------------------------------------------------------
def test_a_failing_judge_is_a_judge_error_in_every_table(sample_snapshot, rc_root, tmp_path,
                                                         capsys):
    """Every judge reply unparseable: each task's results entry counts judge errors (not failed
    items, not a silent "-"), the task is incomplete, report / view / the chat tables say so,
    and the journal's error names the judge's failure without an `agent:` prefix."""
    from evaluator.view.report import _task_rows
    from evaluator.view.runs import compare_runs, item_primary, load_run

    out = tmp_path / "run"
    with FakeOpenAIServer() as judge:
        judge.completion = lambda body: chat_completion("I cannot grade this.")
        code = main(["run", "--no-progress", "--tasks",
                     "memory_update,realcompanion/chat,realcompanion/reconstruction", "--limit",
                     "4", "--data", str(sample_snapshot), "--rc_data", str(rc_root), "--judge",
                     "openai", "--judge_args",
                     f"base_url={judge.base_url},model=j,backoff=0.01,max_retries=0",
                     "--output_path", str(out)])
    assert code == 1                     # judge errors leave items unscored: the run says so
    assert "the judge failed on 12 answered item(s)" in capsys.readouterr().err
    results = _results(out)["results"]
    for task in ("memory_update", "realcompanion/chat", "realcompanion/reconstruction"):
        e = results[task]
        assert (e["n_judge_errors"], e["n_failed"], e["n_done"]) == (4, 0, 4), task
        assert e["complete"] is False and e["primary"] is None
        assert "judge" in e["first_error"]
    for line in _lines(out, "realcompanion/chat"):
        assert line["judge"]["error"] and not line["judge"]["error"].startswith("agent:")
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    chat_row = next(l for l in text.splitlines() if l.startswith("realcompanion/chat "))
    assert "- (judge failed on 4)" in chat_row and chat_row.split()[-3:] == ["0", "4", "0"]
    assert "Judge errors: the judge failed on 4 probe(s)" in text
    rows = {r["task"]: r for r in _task_rows(load_run(out))}
    assert all(r["judge_errors"] == 4 and r["complete"] is False for r in rows.values())
    # with every judgment failed, no table falls back to the unjudged metric: the task is to be
    # graded by the judge, compare and view have no score for any item (they gave token F1 /
    # the reconstruction's unjudged F1, and compare an "overall" report did not have)
    assert results["memory_update"]["primary_metric"] == "judge"
    run = load_run(out)
    for task, samples in run.samples.items():
        assert [item_primary(s, run.tasks[task]) for s in samples] == [None] * 4, task
    assert compare_runs(run, load_run(out))["tasks"] == {}
    # `score` without the judge leaves judged lines as they were: still the judge's to grade
    assert main(["score", str(out), "--no-progress"]) == 1       # judge errors left
    again = _results(out)["results"]
    assert again["realcompanion/chat"]["primary_metric"] == "content_match"
    assert again["memory_update"]["primary_metric"] == "judge"
    assert all(again[t]["primary"] is None for t in again)


def test_realcompanion_tables_say_how_many_items_a_cell_covers_when_the_judge_failed_on_some(
        sample_snapshot, rc_root, tmp_path, capsys):
    """A column headed with its population's n never passes for the cell's n: where the judge
    failed on some items, each cell says how many it covers, and the question track's table
    says how many were scored and that the judge failed on the rest."""
    import itertools

    calls = itertools.count()
    good = json.dumps({"score": 1, "content_match": 2, "used_memory": "yes", "reason": "ok"})
    out = tmp_path / "run"
    with FakeOpenAIServer() as judge:
        judge.completion = lambda body: chat_completion(
            "I cannot grade this." if next(calls) % 3 == 0 else good)
        code = main(["run", "--no-progress", "--tasks", "realcompanion/chat,realcompanion/question",
                     "--limit", "40", "--rc_data", str(rc_root), "--judge", "openai",
                     "--judge_args", f"base_url={judge.base_url},model=j,backoff=0.01,max_retries=0",
                     "--output_path", str(out)])
    assert code == 1
    results = _results(out)["results"]
    assert results["realcompanion/chat"]["n_judge_errors"] > 0
    q = results["realcompanion/question"]
    assert q["n_judge_errors"] > 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    table35 = text[text.index("Table 35."):].split("\n\n")[0]
    assert " of " in table35 and "(n=" in table35
    assert f"Judge errors: the judge failed on {q['n_judge_errors']} question(s)" in text
    table41 = text[text.index("Table 41. Deployed memory systems by coverage (this run's agent, "
                              "question track)"):].split("\n\n")[0]
    assert f"{q['primary']['n']}/{q['coverage']['items']}" in table41


# -- one folder, one set of numbers ----------------------------------------------------------------
def test_a_limited_rerun_into_a_finished_folder_reports_every_answered_item(sample_snapshot,
                                                                            tmp_path, capsys):
    """results.json, report and compare describe the same journal lines: a --limit rerun into a
    folder that holds more answers neither reports 2 items as 7/7 done nor gives compare another
    overall than report."""
    import shutil

    full, rerun = tmp_path / "full", tmp_path / "rerun"
    args = ["run", "--no-progress", "--tasks", "memory_update,conflict_detection", "--data",
            str(sample_snapshot)]
    assert main(args + ["--output_path", str(full)]) == 0
    shutil.copytree(full, rerun)
    assert main(args + ["--limit", "2", "--output_path", str(rerun)]) == 0
    a, b = _results(full), _results(rerun)
    for task in ("memory_update", "conflict_detection"):
        ea, eb = a["results"][task], b["results"][task]
        assert eb["primary"]["n"] == eb["n_done"] == ea["primary"]["n"], task
        assert eb["primary"]["mean"] == ea["primary"]["mean"] and eb["complete"] is True
    assert b["overall"] == a["overall"]
    capsys.readouterr()
    assert main(["compare", str(full), str(rerun), "--json"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    suite = cmp["overall"]["beyondrecall"]
    assert suite["mean_b"] == pytest.approx(b["overall"]["beyondrecall"]["mean"])


def test_compare_marks_an_overall_over_fewer_tasks_and_names_the_missing_ones(sample_snapshot,
                                                                            tmp_path, capsys):
    a, b = tmp_path / "A", tmp_path / "B"
    base = ["run", "--no-progress", "--data", str(sample_snapshot)]
    assert main(base + ["--tasks", "memory_update,conflict_detection,temporal_anchoring",
                        "--output_path", str(a)]) == 0
    assert main(base + ["--tasks", "memory_update,conflict_detection", "--output_path", str(b)]) == 0
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--json"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    assert cmp["overall"]["beyondrecall"]["complete"] is False
    assert any(w.startswith("tasks differ") and "temporal_anchoring" in w for w in cmp["warnings"])
    assert main(["compare", str(a), str(b)]) == 0
    printed = capsys.readouterr().out
    assert "overall (beyondrecall, 2 of 11 tasks)*" in printed
    assert "* overall: a mean over fewer tasks than its suite has" in printed
    assert "incomplete in at least one run" not in printed      # both runs finished their tasks


def test_the_end_of_run_table_gives_the_folders_overall(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    base = ["run", "--no-progress", "--data", str(sample_snapshot), "--output_path", str(out)]
    assert main(base + ["--task", "conflict_detection"]) == 0
    capsys.readouterr()
    assert main(base + ["--task", "memory_update"]) == 0
    printed = capsys.readouterr().out
    mean = _results(out)["overall"]["beyondrecall"]["mean"]
    assert f"Beyond Recall overall (mean of 2 of 11 tasks)*: {mean:.3f}" in printed
    assert "includes 1 task(s) of this folder not listed above: conflict_detection" in printed
    assert main(["report", str(out)]) == 0
    assert f"(mean of 2 of 11 tasks)*: {mean:.3f}" in capsys.readouterr().out


def test_an_answer_without_text_is_empty_and_one_of_another_type_a_failure_in_every_task(
        sample_snapshot, rc_root, tmp_path, capsys):
    """Answer(None) is no reply: 0, counted as empty, in the denominator, in both suites (the
    reconstruction track failed on it). Answer(42) is the agent's error, counted as failed; the
    folder stays readable (it was journaled and then refused as damaged)."""
    tasks = "memory_update,realcompanion/question,realcompanion/reconstruction"
    base = ["run", "--no-progress", "--tasks", tasks, "--limit", "3", "--data",
            str(sample_snapshot), "--rc_data", str(rc_root),
            "--agent", "agents_for_tests:OddTextAgent"]
    none = tmp_path / "none"
    assert main(base + ["--agent_args", "text=null", "--output_path", str(none)]) == 0
    for task, entry in _results(none)["results"].items():
        assert entry["n_failed"] == 0 and entry["n_unreadable"]["empty"] == 3, task
        assert entry["primary"]["mean"] == 0.0 and entry["primary"]["n"] == 3, task
    lone = tmp_path / "lone"          # half an emoji: mended to U+FFFD, never an encode error
    assert main([*base[:3], tasks + ",realcompanion/chat", *base[4:], "--agent_args",
                 "text=lone-surrogate", "--output_path", str(lone)]) == 0
    for task, entry in _results(lone)["results"].items():
        assert entry["n_failed"] == 0, task
    for text in ("42", '["a"]'):
        odd = tmp_path / f"odd{len(text)}"
        capsys.readouterr()
        assert main(base + ["--agent_args", f"text={text}", "--output_path", str(odd)]) == 1
        err = capsys.readouterr().err
        assert "damaged" not in err
        for task, entry in _results(odd)["results"].items():
            assert entry["n_failed"] == 3 and entry["complete"] is False, task
            assert "expected str" in entry["first_error"], task
        assert main(["report", str(odd)]) == 0


# -- scorer version -------------------------------------------------------------------------------
def test_every_results_file_and_journal_line_carries_the_scorer_version(sample_snapshot, tmp_path):
    from evaluator.scoring.version import scorer_version

    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "memory_update", "--limit", "3", "--data",
                 str(sample_snapshot), "--output_path", str(out)]) == 0
    version = scorer_version()
    assert len(version) == 12 and int(version, 16) >= 0
    r = _results(out)
    assert r["scorer_version"] == version and r["br_eval_version"]
    assert r["results"]["memory_update"]["scorer_versions"] == {version: 3}
    assert [s["scorer_version"] for s in _lines(out, "memory_update")] == [version] * 3


def test_the_scorer_version_is_computed_from_the_package_files(tmp_path):
    """A copy of the packages outside any git checkout (as `pip install .` leaves them) gives the
    same scorer version with no git hash; editing a judge prompt or a scoring module changes it."""
    import shutil
    from pathlib import Path

    import evaluator
    from evaluator.scoring.version import scorer_version

    root = Path(evaluator.__file__).resolve().parent.parent
    site = tmp_path / "site-packages"
    for pkg in ("evaluator", "beyondrecall", "media_cache"):
        shutil.copytree(root / pkg, site / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    probe = ("import json; from evaluator.scoring.version import scorer_version; "
             "from evaluator.results import provenance; p = provenance(); "
             "print(json.dumps([scorer_version(), p['git_hash'], p['scorer_version']]))")

    def installed() -> list:
        proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              cwd=tmp_path, env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin",
                                                 "HF_HUB_OFFLINE": "1"}, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    assert installed() == [scorer_version(), None, scorer_version()]
    prompt = site / "evaluator" / "scoring" / "judge_abstention_prompt.txt"
    prompt.write_text(prompt.read_text() + "\n")
    edited = installed()[0]
    assert edited != scorer_version()
    track = site / "evaluator" / "realcompanion" / "reconstruction_track.py"
    track.write_text(track.read_text().replace("MATCH_F1 = 0.5", "MATCH_F1 = 0.6"))
    assert installed()[0] not in (edited, scorer_version())


def test_compare_warns_on_scorer_version_data_task_files_and_settings(sample_snapshot, tmp_path,
                                                                     capsys):
    import shutil

    a, b = tmp_path / "A", tmp_path / "B"
    assert main(["run", "--no-progress", "--task", "memory_update", "--limit", "3", "--data",
                 str(sample_snapshot), "--output_path", str(a)]) == 0
    shutil.copytree(a, b)
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == []      # the same test
    r = _results(b)
    r["scorer_version"] = "0123456789ab"
    r["data"]["fingerprint"] = "f" * 64
    r["config"]["task_files"] = {"memory_update": "/elsewhere/memory_update.json"}
    r["config"]["settings"]["unanswerable"] = {"rule": "keys", "file": "/k.txt"}
    r["results"]["memory_update"]["scorer_versions"] = {"0123456789ab": 2, "ba9876543210": 1}
    (b / "results.json").write_text(json.dumps(r))
    assert main(["compare", str(a), str(b)]) == 0
    err = capsys.readouterr().err
    assert f"scorer version differs: {_results(a)['scorer_version']} vs 0123456789ab" in err
    assert "B: journal lines scored by several scorer versions in memory_update" in err
    assert "Beyond Recall data differ" in err
    assert "task files differ" in err
    assert "unanswerable differs" in err


# -- which questions are unanswerable ---------------------------------------------------------------
def test_validate_lists_unanswerable_questions_per_task_and_rule(sample_snapshot, tmp_path, capsys):
    assert main(["validate", "--data", str(sample_snapshot)]) == 0
    out = capsys.readouterr().out
    assert "unanswerable rule: gold-text" in out
    assert "unanswerable: refusal_to_answer: 3 of 3 question(s)" in out    # one is multiple choice: "B", the option "The conversation does not say"
    assert "unanswerable: memory_update: 0 of 7 question(s)" in out
    keys = tmp_path / "keys.txt"
    keys.write_text("# the one the release should have marked\nmanagement/refusal_to_answer/0/q0\n")
    assert main(["validate", "--data", str(sample_snapshot), "--tasks", "refusal_to_answer",
                 "--unanswerable", str(keys)]) == 0
    out = capsys.readouterr().out
    assert "unanswerable rule: keys" in out
    assert "unanswerable: refusal_to_answer: 1 of 3 question(s)" in out
    keys.write_text(json.dumps(["management/refusal_to_answer/9/q0"]))
    assert main(["validate", "--data", str(sample_snapshot), "--tasks", "refusal_to_answer",
                 "--unanswerable", str(keys)]) == 1
    assert "management/refusal_to_answer/9/q0 names no question of refusal_to_answer" in \
        capsys.readouterr().out
    # a misspelt task names no task at all: one line, not a rule that silently lists nothing
    for typo in ("management/refusal_to_answr/0/q0", "management/Refusal To Answer/0/q0"):
        keys.write_text(typo + "\n")
        assert main(["validate", "--data", str(sample_snapshot), "--tasks", "refusal_to_answer",
                     "--unanswerable", str(keys)]) == 2
        assert "unknown dimension/task pair" in capsys.readouterr().err


def test_the_unanswerable_rule_is_chosen_recorded_and_kept_by_score(sample_snapshot, tmp_path,
                                                                    capsys):
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(["management/refusal_to_answer/0/q0"]))
    out = tmp_path / "run"
    args = ["run", "--no-progress", "--task", "refusal_to_answer", "--data", str(sample_snapshot),
            "--output_path", str(out)]
    assert main(args + ["--unanswerable", str(keys)]) == 0
    r = _results(out)
    rule = r["config"]["settings"]["unanswerable"]
    assert rule["rule"] == "keys" and rule["n_keys"] == 1 and rule["file"] == str(keys.resolve())
    entry = r["results"]["refusal_to_answer"]
    assert (entry["unanswerable_rule"], entry["n_unanswerable"]) == ("keys", 1)
    answerable = {s["key"]: s["metrics"]["answerable"] for s in _lines(out, "refusal_to_answer")}
    # q0 of trajectory 1 has a refusal as its reference, but the file does not list it
    assert answerable == {"management/refusal_to_answer/0/q0": False,
                          "management/refusal_to_answer/1/q0": True,
                          "management/refusal_to_answer/2/q0": True}
    capsys.readouterr()
    # re-scoring keeps the recorded rule; a resume under another rule is refused
    assert main(["score", str(out), "--no-progress"]) == 0
    assert _results(out)["results"]["refusal_to_answer"]["n_unanswerable"] == 1
    assert main(args) == 1
    assert "unanswerable" in capsys.readouterr().err
    keys.write_text(json.dumps([]))
    assert main(["score", str(out), "--no-progress"]) == 1
    assert "changed since the run" in capsys.readouterr().err
    # the default rule, on a fresh folder: every reference reads as a refusal (the multiple-choice
    # one, a letter, through its option's text "The conversation does not say")
    fresh = tmp_path / "fresh"
    assert main(args[:-1] + [str(fresh)]) == 0
    r = _results(fresh)
    assert r["config"]["settings"]["unanswerable"]["rule"] == "gold-text"
    assert r["results"]["refusal_to_answer"]["n_unanswerable"] == 3
    assert main(args[:-1] + [str(tmp_path / "bad"), "--unanswerable", str(tmp_path / "no")]) == 2
    assert "no such file" in capsys.readouterr().err


# -- a reply that cannot be read ------------------------------------------------------------------
def test_unreadable_replies_score_zero_in_the_denominator_with_their_reason(sample_snapshot,
                                                                           tmp_path):
    """Empty replies and a multiple-choice reply with no letter: each scores 0, stays in the
    mean and is counted by reason; an empty reply never reaches the judge."""
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps({"flight number": "Lisbon is lovely in spring.",
                                   "Question:": "   "}))        # the longest key that occurs
    out = tmp_path / "run"
    with FakeOpenAIServer() as judge:
        judge.completion = lambda body: chat_completion(json.dumps({"score": 1, "reason": "ok"}))
        assert main(["run", "--no-progress", "--tasks", "refusal_to_answer,memory_update",
                     "--data", str(sample_snapshot), "--agent", "none", "--model", "mock",
                     "--model_args", f"replies={replies}", "--judge", "openai", "--judge_args",
                     f"base_url={judge.base_url},model=j,backoff=0.01",
                     "--output_path", str(out)]) == 0
        assert judge.questions == []                 # nothing readable to grade
    r = _results(out)["results"]
    n_mu = len(_lines(out, "memory_update"))
    assert r["memory_update"]["n_unreadable"] == {"empty": n_mu, "unparseable": 0}
    assert r["memory_update"]["primary"] == {**r["memory_update"]["primary"], "mean": 0.0,
                                             "n": n_mu}
    assert r["refusal_to_answer"]["n_unreadable"] == {"empty": 2, "unparseable": 1}
    assert r["refusal_to_answer"]["primary"]["mean"] == 0.0
    assert r["refusal_to_answer"]["primary"]["n"] == 3 and r["refusal_to_answer"]["n_failed"] == 0
    mc = next(s for s in _lines(out, "refusal_to_answer") if s["metrics"]["gold_choice"])
    assert mc["metrics"]["unreadable"] == "unparseable" and mc["metrics"]["primary"] == 0.0


def test_report_of_a_run_stopped_before_it_scored_names_the_answers_it_holds(sample_snapshot,
                                                                           tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--output_path", str(out)]) == 0
    r = _results(out)
    r["results"], r["overall"] = {}, {}              # as a run stopped before aggregating leaves it
    (out / "results.json").write_text(json.dumps(r))
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "not yet scored: memory_update (the journal holds answers" in capsys.readouterr().out



def test_a_refusal_alternative_in_the_references_accepts_a_decline_unless_a_keys_file_decides():
    """gold-text rule: a list of references with a decline among them accepts a decline (not a
    false refusal); under --unanswerable FILE the file alone decides which questions do."""
    from evaluator.scoring import score_sample
    from evaluator.scoring.unanswerable import KEYS, UnanswerableRule

    gold = ["Paris", "It was not mentioned in our conversations."]
    reply = "I'm sorry, I don't know; you never told me that."
    default = UnanswerableRule()
    m = score_sample("refusal_to_answer", "Where does she live?", reply, gold,
                     unanswerable=default.classify("k", gold),
                     refusal_in_references=default.refusal_in_references(gold))
    assert (m["answerable"], m["refused"], m["false_refusal"], m["primary"]) == (True, True, False, 1.0)
    keys = UnanswerableRule(KEYS, frozenset())
    m = score_sample("refusal_to_answer", "Where does she live?", reply, gold,
                     unanswerable=keys.classify("k", gold),
                     refusal_in_references=keys.refusal_in_references(gold))
    assert (m["answerable"], m["refused"], m["false_refusal"], m["primary"]) == (True, True, True, 0.0)
