"""A task a judge graded in part is never printed as one number blending the judge's grades with
token F1 for the rest (evaluate.aggregate_task, `n_judge_pending`): the rest await the judge."""

from __future__ import annotations

import json

from evaluator.cli import main

JUDGE = ["--judge", "mock", "--judge_args", "replies=Score: 1"]


def _run(sample_snapshot, out, *extra):
    return main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--output_path", str(out), *extra])


def test_items_added_without_the_judge_await_it_and_the_task_is_incomplete(sample_snapshot,
                                                                            tmp_path, capsys):
    # the audit: killed in its judge phase and resumed without --judge, memory_update printed
    # "mixed: judge score (0/0.5/1) on 3, token F1 on 4  0.397  7/7", complete, exit 0
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, "--limit", "2", *JUDGE) == 0
    capsys.readouterr()
    assert _run(sample_snapshot, out) == 1
    err = capsys.readouterr().err
    assert "5 answered item(s) await the judge" in err and "memory_update 5" in err
    entry = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    assert entry["n_judge_pending"] == 5 and entry["complete"] is False
    assert entry["primary_metric"] == "judge" and entry["primary"]["n"] == 2
    capsys.readouterr()
    assert main(["score", str(out), *JUDGE]) == 0
    entry = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    assert "n_judge_pending" not in entry and entry["complete"] is True
    assert entry["primary_metric"] == "judge" and entry["primary"]["n"] == 7


def test_a_run_without_any_judge_has_nothing_pending(sample_snapshot, tmp_path):
    out = tmp_path / "run"
    assert _run(sample_snapshot, out) == 0
    entry = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    assert "n_judge_pending" not in entry and entry["complete"] is True


def test_compare_and_view_leave_out_the_items_awaiting_the_judge_as_report_does(sample_snapshot,
                                                                                tmp_path, capsys):
    # the regression hunt: report printed 0.667 over the 2 judged items, compare 0.286 over all 7
    # (the 5 awaiting the judge at token F1 0)
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, "--limit", "2", *JUDGE) == 0
    assert _run(sample_snapshot, out) == 1
    entry = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    capsys.readouterr()
    assert main(["compare", str(out), str(out), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["tasks"]["memory_update"]
    assert row["n"] == entry["primary"]["n"] == 2
    assert abs(row["mean_a"] - entry["primary"]["mean"]) < 1e-9


def test_the_unanswerable_rule_records_the_text_older_folders_recorded():
    # part of every line's settings digest: another wording refuses every older folder's resume
    from evaluator.scoring.unanswerable import GOLD_TEXT, RULES

    assert RULES[GOLD_TEXT] == ("every reference answer reads as a refusal (the refusal reader's "
                                "phrase rules run on the reference text)")
