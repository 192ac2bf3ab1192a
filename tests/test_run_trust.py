"""A run folder never holds a wrong answer silently (issue 22, items 1-4): answers are tied to
the item, data and settings they answered; one writer at a time; reused answers are announced
with who served them; shards and merge refuse a folder that mixes runs."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evaluator.cli import main
from test_models_openai import FakeOpenAIServer

CD = "management/Conflict Detection.json"


def run(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["run", "--no-progress", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.err + captured.out


def journal(out: Path, task: str = "conflict_detection") -> list[dict]:
    return [json.loads(x) for x in (out / f"samples_{task}.jsonl").read_text().splitlines()]


def edited_copy(src: Path, dest: Path) -> Path:
    """The task file with its first question reworded: the same keys, another question."""
    data = json.loads(src.read_text(encoding="utf-8"))
    data[0]["questions"][0]["question"] += " (reworded)"
    dest.write_text(json.dumps(data), encoding="utf-8")
    return dest


def test_every_line_carries_its_fingerprints_and_source(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    code, _ = run(capsys, "--task", "conflict_detection", "--data", sample_snapshot,
                  "--output_path", out)
    assert code == 0
    lines = journal(out)
    assert lines and all(len(x["item_fp"]) == 16 and len(x["data_fp"]) == 16 for x in lines)
    assert len({x["settings_fp"] for x in lines}) == 1
    assert len({x["item_fp"] for x in lines}) == len(lines)      # one per item
    assert all(x["source"]["date"] for x in lines)


def test_rerun_after_switching_or_editing_the_task_file_refuses(sample_copy, tmp_path, capsys):
    out = tmp_path / "run"
    base = ["--task", "conflict_detection", "--data", sample_copy, "--output_path", out]
    assert run(capsys, *base)[0] == 0
    before = (out / "samples_conflict_detection.jsonl").read_bytes()

    alt = edited_copy(sample_copy / "benchmark" / CD, tmp_path / "alt.json")
    code, err = run(capsys, *base, "--task-file", f"conflict_detection={alt}")
    assert code == 1
    assert "management/conflict_detection/0/q0" in err and str(alt) in err and "--overwrite" in err
    assert "Traceback" not in err
    assert (out / "samples_conflict_detection.jsonl").read_bytes() == before

    # edited in place (the checksum list not updated): the same refusal
    edited_copy(sample_copy / "benchmark" / CD, sample_copy / "benchmark" / CD)
    code, err = run(capsys, *base)
    assert code == 1 and "management/conflict_detection/0/q0" in err and "Conflict Detection.json" in err

    # --overwrite answers afresh, on the new question
    assert run(capsys, *base, "--overwrite")[0] == 0
    assert journal(out)[0]["question"].endswith("(reworded)")


def test_score_refuses_a_journal_whose_items_changed(sample_copy, tmp_path, capsys):
    out = tmp_path / "run"
    assert run(capsys, "--task", "conflict_detection", "--data", sample_copy,
               "--output_path", out)[0] == 0
    edited_copy(sample_copy / "benchmark" / CD, sample_copy / "benchmark" / CD)
    capsys.readouterr()
    assert main(["score", str(out), "--no-progress"]) == 1
    assert "management/conflict_detection/0/q0" in capsys.readouterr().err


def test_an_unchanged_rerun_says_what_it_reuses(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    base = ["--task", "conflict_detection", "--data", sample_snapshot, "--output_path", out]
    assert run(capsys, *base)[0] == 0
    n = len(journal(out))
    code, err = run(capsys, *base)
    assert code == 0 and f"conflict_detection: {n} answer(s) reused from " in err


HOLD = """
import sys, time
from evaluator.runlock import RunLock
lock = RunLock(sys.argv[1]).acquire()
print("held", flush=True)
time.sleep(60)
"""


def test_a_second_writer_stops_at_once_and_a_dead_holder_is_taken_over(sample_snapshot,
                                                                       tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    try:
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        code, err = run(capsys, "--task", "conflict_detection", "--data", sample_snapshot,
                        "--output_path", out)
        assert code == 1 and time.monotonic() - started < 5
        assert f"is in use by br-eval pid {holder.pid}" in err
        assert not (out / "results.json").exists()
        capsys.readouterr()
        assert main(["score", str(out), "--no-progress"]) == 1
        assert f"pid {holder.pid}" in capsys.readouterr().err
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    # the kernel dropped the dead holder's lock: the next run takes it
    code, err = run(capsys, "--task", "conflict_detection", "--data", sample_snapshot,
                    "--output_path", out)
    assert code == 0, err


def test_concurrent_runs_into_one_folder_never_mix(sample_snapshot, tmp_path):
    """Two runs with other settings started at once into one folder: one writes, the other
    stops with one line; the journal holds one run's answers only."""
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    procs = [subprocess.Popen([sys.executable, "-m", "evaluator.cli", "run", "--no-progress",
                               "--tasks", "management", "--data", str(sample_snapshot),
                               "--frames", str(frames), "--output_path", str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for frames in (4, 8)]
    results = [(p.wait(60), p.stderr.read()) for p in procs]
    # whichever comes second stops: on the lock while the first runs, on the settings after it
    assert sorted(code for code, _ in results) == [0, 1], results
    assert any("in use by" in err or "other settings" in err for code, err in results if code)
    fps = {json.loads(x)["settings_fp"] for f in out.glob("samples_*.jsonl")
           for x in f.read_text().splitlines()}
    assert len(fps) == 1


def test_shards_with_other_settings_after_an_unsharded_run_refuse(sample_snapshot, tmp_path,
                                                                  capsys):
    out = tmp_path / "run"
    base = ["--task", "conflict_detection", "--data", sample_snapshot, "--output_path", out]
    assert run(capsys, *base)[0] == 0
    code, err = run(capsys, *base, "--frames", "4", "--shard", "0/2")
    assert code == 1 and "frames" in err and "results.json" in err
    assert not list(out.glob("samples_*shard*")) and not list(out.glob("results.shard*"))


def test_merge_refuses_a_plain_journal_from_another_run(sample_snapshot, tmp_path, capsys):
    out, other = tmp_path / "run", tmp_path / "other"
    for i in range(2):
        assert run(capsys, "--task", "conflict_detection", "--data", sample_snapshot,
                   "--output_path", out, "--shard", f"{i}/2")[0] == 0
    assert run(capsys, "--task", "conflict_detection", "--data", sample_snapshot,
               "--output_path", other, "--frames", "4")[0] == 0
    (out / "samples_conflict_detection.jsonl").write_bytes(
        (other / "samples_conflict_detection.jsonl").read_bytes())
    capsys.readouterr()
    assert main(["merge", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "other settings" in err and "Traceback" not in err


def test_answers_from_another_server_are_announced_and_attributed(sample_snapshot, tmp_path,
                                                                  capsys):
    out = tmp_path / "run"
    with FakeOpenAIServer() as first, FakeOpenAIServer() as second:
        def args(srv):
            return ["--task", "conflict_detection", "--limit", "2", "--data", sample_snapshot,
                    "--agent", "none", "--model", "openai", "--model_args",
                    f"base_url={srv.base_url},model=m", "--output_path", out]
        assert run(capsys, *args(first))[0] == 0
        code, err = run(capsys, *args(second))
        assert code == 0
        assert not second.questions            # nothing was asked again ...
        assert "2 answer(s) reused from " in err and first.base_url in err  # ... and it says so
        assert f"this run asks {second.base_url}" in err
    entry = json.loads((out / "results.json").read_text())["results"]["conflict_detection"]
    assert [s["endpoint"] for s in entry["answer_sources"]] == [first.base_url]
    assert entry["answer_sources"][0]["n"] == 2


def test_a_finished_run_reprints_without_its_server(sample_snapshot, tmp_path, capsys):
    """Nothing left to ask: no preflight, so re-printing works with the server gone."""
    out = tmp_path / "run"
    with FakeOpenAIServer() as srv:
        args = ["--task", "conflict_detection", "--data", sample_snapshot, "--agent", "none",
                "--model", "openai", "--model_args", f"base_url={srv.base_url},model=m",
                "--output_path", out]
        assert run(capsys, *args)[0] == 0
        n = len(srv.requests)
        code, err = run(capsys, *args)
        assert code == 0 and len(srv.requests) == n         # not one request more
    code, err = run(capsys, *args)                          # the server is gone
    assert code == 0 and "not asked: every item is already answered" in err
    assert json.loads((out / "results.json").read_text())["model"]["preflight"]["served_model"]


def test_score_with_a_judge_checks_the_judge_first(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert run(capsys, "--task", "memory_update", "--data", sample_snapshot,
               "--output_path", out)[0] == 0
    before = (out / "samples_memory_update.jsonl").read_bytes()
    started = time.monotonic()
    capsys.readouterr()
    code = main(["score", str(out), "--no-progress", "--judge", "openai", "--judge_args",
                 "base_url=http://127.0.0.1:9/v1,model=j,max_retries=0"])
    err = capsys.readouterr().err
    assert code != 0 and time.monotonic() - started < 20
    assert len([x for x in err.splitlines() if x.strip()]) == 1 and "127.0.0.1:9" in err
    assert (out / "samples_memory_update.jsonl").read_bytes() == before


def test_journal_lines_and_results_files_are_read_within_their_bounds(sample_snapshot, tmp_path,
                                                                      capsys, monkeypatch):
    """A hostile copy of a run folder with an oversized journal line or results.json is one
    line and exit 1 (the limits are lowered here so the files stay small)."""
    import evaluator.results as results

    out = tmp_path / "run"
    assert run(capsys, "--task", "conflict_detection", "--data", sample_snapshot,
               "--output_path", out)[0] == 0
    monkeypatch.setattr(results, "JOURNAL_LINE_MAX", 4096)
    journal_file = out / "samples_conflict_detection.jsonl"
    line = json.loads(journal_file.read_text().splitlines()[0])
    line["prediction"] = "x" * 5000
    journal_file.write_text(journal_file.read_text() + json.dumps(line) + "\n")
    n = len(journal_file.read_text().splitlines())
    capsys.readouterr()
    assert main(["score", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert f"line {n} is over 4096 bytes" in err and len(err.strip().splitlines()) == 1
    monkeypatch.setattr(results, "RESULTS_FILE_MAX", 1024)
    capsys.readouterr()
    assert main(["report", str(out)]) == 1
    err = capsys.readouterr().err
    assert "results.json: over 1024 bytes" in err and len(err.strip().splitlines()) == 1


def test_compare_names_paired_items_answered_for_other_versions(sample_copy, tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(capsys, "--task", "conflict_detection", "--data", sample_copy, "--output_path", a)[0] == 0
    alt = edited_copy(sample_copy / "benchmark" / CD, tmp_path / "alt.json")
    assert run(capsys, "--task", "conflict_detection", "--data", sample_copy, "--output_path", b,
               "--task-file", f"conflict_detection={alt}")[0] == 0
    capsys.readouterr()
    assert main(["compare", str(a), str(b)]) == 0
    err = capsys.readouterr().err
    assert ("conflict_detection: 1 paired item(s) were answered for different versions of the item "
            "(first: management/conflict_detection/0/q0)") in err


def test_a_run_that_cannot_start_leaves_no_folder_behind(sample_snapshot, tmp_path, capsys):
    """A server that is down stops the run before its first item, and the output folder it
    would have made is not left behind (an existing folder is never removed)."""
    out = tmp_path / "new-run"
    code, err = run(capsys, "--task", "conflict_detection", "--data", sample_snapshot, "--agent",
                    "none", "--model", "openai", "--model_args",
                    "base_url=http://127.0.0.1:9/v1,model=m,max_retries=0", "--output_path", out)
    assert code != 0 and "cannot reach the server" in err and not out.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    code, err = run(capsys, "--task", "conflict_detection", "--data", sample_snapshot, "--agent",
                    "none", "--model", "openai", "--model_args",
                    "base_url=http://127.0.0.1:9/v1,model=m,max_retries=0", "--output_path", kept)
    assert code != 0 and kept.is_dir()


def test_a_changed_pdf_page_map_is_a_changed_item(sample_copy, tmp_path, capsys):
    """The page map decides which pages of a cropped PDF the model sees, so it is part of the
    item: changed, the answers given for the old pages are not reused."""
    for sums in (sample_copy / "benchmark" / "SHA256SUMS", sample_copy / "checksums" / "SHA256SUMS"):
        sums.unlink(missing_ok=True)          # a user-built snapshot, no checksum lists
    out = tmp_path / "run"
    base = ["--task", "high_density_information_extraction", "--data", sample_copy, "--model",
            "mock", "--agent_args", "media=text", "--output_path", out]
    assert run(capsys, *base)[0] == 0
    before = journal(out, "high_density_information_extraction")
    page_map = sample_copy / "benchmark" / "PDF_PREPROCESSING.json"
    data = json.loads(page_map.read_text())
    data["files"]["images/report_a.pdf"].update(kept_pages=[1, 3, 7, 8], evidence_pages=[3, 7])
    page_map.write_text(json.dumps(data))
    code, err = run(capsys, *base)
    assert code == 1 and "--overwrite" in err and "reused" not in err
    assert journal(out, "high_density_information_extraction") == before


def test_score_scores_against_the_data_not_the_journal_copy_of_the_reference(sample_snapshot,
                                                                            tmp_path, capsys):
    out = tmp_path / "run"
    assert run(capsys, "--task", "memory_update", "--data", sample_snapshot,
               "--output_path", out)[0] == 0
    score = json.loads((out / "results.json").read_text())["results"]["memory_update"]["primary"]
    path = out / "samples_memory_update.jsonl"
    lines = journal(out, "memory_update")
    for line in lines:
        line["answer"] = line["prediction"]          # a hand-edited reference
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["score", str(out), "--no-progress"]) == 0
    again = json.loads((out / "results.json").read_text())["results"]["memory_update"]["primary"]
    assert again["mean"] == score["mean"] < 1
    assert [x["answer"] for x in journal(out, "memory_update")] != [x["prediction"] for x in lines]


def test_score_records_its_seed_and_judge_as_run_does(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    judge = ["--judge", "mock", "--judge_args", 'replies={"score": 1}']
    assert run(capsys, "--task", "memory_update", "--data", sample_snapshot, *judge,
               "--output_path", out)[0] == 0
    before = json.loads((out / "results.json").read_text())
    (out / "results.json").write_text(json.dumps({**before, "date": "2000-01-01T00:00:00Z"}))
    capsys.readouterr()
    assert main(["score", str(out), "--no-progress", "--seed", "7", *judge]) == 0
    assert f"results: {out / 'results.json'}" in capsys.readouterr().out
    after = json.loads((out / "results.json").read_text())
    assert after["config"]["seed"] == 7 and after["date"] > "2000-01-01T00:00:00Z"
    assert after["judge"] == before["judge"] and "calibration" in after["judge"]
    capsys.readouterr()
    assert main(["compare", str(out), str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == []


def test_compare_warns_when_a_task_was_scored_by_another_scorer_or_judge(sample_snapshot,
                                                                         tmp_path, capsys):
    """A folder filled by several runs keeps each line's scorer and judge; the header only says
    who wrote last. compare reads the lines of each task."""
    import shutil

    a, b = tmp_path / "A", tmp_path / "B"
    assert run(capsys, "--task", "memory_update", "--data", sample_snapshot, "--judge", "mock",
               "--judge_args", 'replies={"score": 1}', "--output_path", a)[0] == 0
    shutil.copytree(a, b)
    path = b / "samples_memory_update.jsonl"
    lines = journal(b, "memory_update")
    for line in lines:
        line["scorer_version"] = "0ld0ld0ld0ld"
        line["judge"]["id"] = "another-judge"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert any(w.startswith("memory_update: lines scored with scorer version") and "0ld0ld0ld0ld" in w
               for w in warnings)
    assert any(w.startswith("memory_update: lines scored with judge") for w in warnings)
    # `score` without the judge cannot re-score judged lines: it says so, and they keep their own
    assert main(["score", str(b), "--no-progress"]) == 0
    assert "memory_update: 7 judged line(s) keep the scorer version" in capsys.readouterr().err
    assert {x["scorer_version"] for x in journal(b, "memory_update")} == {"0ld0ld0ld0ld"}


def test_a_rerun_says_which_judgments_it_keeps_and_where_they_were_graded(sample_snapshot,
                                                                         tmp_path, capsys):
    """Grades of the same judge (model, prompts, settings) are kept on a rerun, as answers are;
    the rerun says so, and where they were graded when this run's judge is served elsewhere."""
    from test_models_openai import chat_completion

    out = tmp_path / "run"
    base = ["--task", "memory_update", "--data", sample_snapshot, "--output_path", out,
            "--judge", "openai"]
    with FakeOpenAIServer() as first:
        first.completion = lambda body: chat_completion(json.dumps({"score": 1, "reason": "ok"}))
        code, _ = run(capsys, *base, "--judge_args", f"base_url={first.base_url},model=j")
    assert code == 0
    n = len(journal(out, "memory_update"))
    assert {x["judge"]["endpoint"] for x in journal(out, "memory_update")} == {first.base_url}
    with FakeOpenAIServer() as second:
        second.completion = lambda body: chat_completion(json.dumps({"score": 0, "reason": "no"}))
        code, err = run(capsys, *base, "--judge_args", f"base_url={second.base_url},model=j")
    assert code == 0
    assert (f"memory_update: {n} judgment(s) reused from this judge (j), graded at "
            f"{first.base_url} (this run's judge: {second.base_url})") in err


def test_a_reply_edited_after_scoring_is_refused_on_resume_and_rescored_by_score(
        sample_snapshot, tmp_path, capsys):
    """Each line records the digest of the reply its scores were computed on (`reply_fp`): a
    reply changed by hand afterwards is never reused with the old scores."""
    import shutil

    out = tmp_path / "run"
    base = ["--task", "memory_update", "--data", sample_snapshot, "--output_path", out]
    assert run(capsys, *base)[0] == 0
    before = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    lines = journal(out, "memory_update")
    assert all(len(x["reply_fp"]) == 16 for x in lines)
    gold = lines[0]["answer"]
    assert lines[0]["metrics"]["primary"] < 1
    lines[0]["prediction"] = gold                     # the right answer, written in by hand
    (out / "samples_memory_update.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    unscored = tmp_path / "copy"
    shutil.copytree(out, unscored)
    code, err = run(capsys, *base)
    assert code == 1 and lines[0]["key"] in err and "edited after scoring" in err
    assert main(["compare", str(unscored), str(unscored), "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert any("memory_update: 1 line(s) hold a reply other than" in w for w in warnings)
    assert main(["score", str(out), "--no-progress"]) == 0
    assert "memory_update: 1 reply(ies) changed after they were scored" in capsys.readouterr().err
    after = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    assert journal(out, "memory_update")[0]["metrics"]["primary"] == 1.0
    assert after["primary"]["mean"] > before["primary"]["mean"]
    assert run(capsys, *base)[0] == 0                  # scored again: the folder is whole


def test_a_model_judging_its_own_replies_is_warned_about(sample_snapshot, tmp_path, capsys):
    from test_models_openai import chat_completion

    with FakeOpenAIServer() as srv:
        srv.completion = lambda body: chat_completion(json.dumps({"score": 1, "reason": "ok"}))
        args = ["--task", "memory_update", "--limit", "1", "--data", sample_snapshot,
                "--model", "openai", "--model_args", f"base_url={srv.base_url},model=m",
                "--judge", "openai"]
        code, err = run(capsys, *args, "--judge_args", f"base_url={srv.base_url},model=m",
                        "--output_path", tmp_path / "self")
        assert code == 0 and "the judge is the model under test (m)" in err
        code, err = run(capsys, *args, "--judge_args", f"base_url={srv.base_url},model=other",
                        "--output_path", tmp_path / "other")
        assert code == 0 and "the judge is the model under test" not in err


def test_a_run_whose_items_failed_shows_the_first_error(sample_snapshot, tmp_path, capsys):
    code, err = run(capsys, "--task", "memory_update", "--data", sample_snapshot,
                    "--agent", "agents_for_tests:ExplodingAgent", "--output_path", tmp_path / "r")
    assert code == 1
    line = next(x for x in err.splitlines() if "question(s) failed" in x)
    assert "7 question(s) failed (first: management/memory_update/" in line
    assert "RuntimeError: memory backend unavailable" in line and "--raise" in line


def test_the_end_of_run_header_names_the_model_of_reused_answers(sample_snapshot, tmp_path,
                                                                 capsys):
    from test_models_openai import chat_completion

    out = tmp_path / "run"
    with FakeOpenAIServer() as srv:
        srv.completion = lambda body: chat_completion(json.dumps({"score": 1, "reason": "ok"}))
        args = ["--task", "memory_update", "--limit", "2", "--data", sample_snapshot, "--model",
                "openai", "--model_args", f"base_url={srv.base_url},model=m", "--output_path", out]
        assert run(capsys, *args)[0] == 0
        code, printed = run(capsys, *args, "--judge", "openai", "--judge_args",
                            f"base_url={srv.base_url},model=j")
    assert code == 0
    table_header = [line for line in printed.splitlines() if line.startswith("model: ")]
    assert table_header and table_header[-1].startswith("model: openai m")


def test_a_context_length_the_server_reports_differently_refuses_the_resume(sample_snapshot,
                                                                            tmp_path, capsys):
    """full-context bounds the history it sends by the context length the server publishes
    (vLLM's max_model_len): answers made under another one are not reused silently."""
    from local_http import JsonHandler, LocalServer

    window = {"n": 4096}

    class Server(LocalServer):
        def __init__(self):
            class Handler(JsonHandler):
                def do_GET(self):
                    self.send_json(200, {"object": "list", "data": [
                        {"id": "m", "object": "model", "max_model_len": window["n"]}]})

                def do_POST(self):
                    body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                    self.send_json(200, {"id": "c", "object": "chat.completion", "created": 0,
                                         "model": "m", "choices": [{
                                             "index": 0, "finish_reason": "stop", "message": {
                                                 "role": "assistant", "content": "Harbour Road"}}],
                                         "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                                   "total_tokens": 2}})
            self.serve(Handler)

    out = tmp_path / "run"
    with Server() as srv:
        base = ["--task", "memory_update", "--data", sample_snapshot, "--model", "openai",
                "--model_args", f"base_url={srv.base_url},model=m", "--output_path", out]
        assert run(capsys, *base, "--limit", "2")[0] == 0
        window["n"] = 32768
        code, err = run(capsys, *base)
        assert code == 1 and "context length 4096" in err and "now reports 32768" in err
        assert len(journal(out, "memory_update")) == 2
        code, _ = run(capsys, "--task", "memory_update", "--data", sample_snapshot, "--model",
                      "openai", "--model_args",
                      f"base_url={srv.base_url},model=m,context_length=32768",
                      "--output_path", tmp_path / "explicit")
        assert code == 0


def test_new_clip_weights_at_the_same_path_refuse_the_resume(sample_snapshot, tmp_path, capsys):
    """The CLIP captions a model reads come from the weights' content, not their path: the
    settings carry the weights' digest (a random-weight tiny CLIP; shows the identity, not any
    caption's meaning)."""
    open_clip = pytest.importorskip("open_clip")
    torch = pytest.importorskip("torch")
    from clip_models import register_tiny_clip

    config = register_tiny_clip(tmp_path, "br-eval-trust-tiny-clip")
    weights = tmp_path / "weights.pt"
    torch.manual_seed(1)
    torch.save(open_clip.create_model(config.stem).state_dict(), weights)
    out = tmp_path / "run"
    args = ["--task", "cross_modal_semantic_matching", "--limit", "1", "--data", sample_snapshot,
            "--model", "mock", "--model_args", "supports_images=false", "--captions",
            "--clip-model", config, "--clip-pretrained", weights, "--frames", "2",
            "--output_path", out]
    assert run(capsys, *args)[0] == 0
    assert run(capsys, *args)[0] == 0                      # the same weights: reused
    torch.manual_seed(2)
    torch.save(open_clip.create_model(config.stem).state_dict(), weights)
    code, err = run(capsys, *args)
    assert code == 1 and "clip_identity" in err


def test_the_default_dpi_named_is_the_same_setting(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    base = ["--task", "high_density_information_extraction", "--limit", "1", "--data",
            sample_snapshot, "--output_path", out]
    assert run(capsys, *base)[0] == 0
    code, err = run(capsys, *base, "--dpi", "144")
    assert code == 0 and "1 answer(s) reused" in err
    assert run(capsys, *base, "--dpi", "100")[0] == 1


def test_answers_from_before_page_maps_were_fingerprinted_are_reused_with_a_warning(
        sample_copy, tmp_path, capsys, monkeypatch):
    """A folder written before the page map joined the item fingerprint holds the same items:
    it resumes and re-scores, saying that its page maps cannot be checked (it was refused as
    'another version of that item')."""
    from evaluator.beyondrecall_task import BeyondRecallTask

    out = tmp_path / "run"
    base = ["--task", "high_density_information_extraction", "--data", sample_copy,
            "--output_path", out]
    with monkeypatch.context() as m:     # the older br-eval's fingerprint
        m.setattr(BeyondRecallTask, "fingerprint",
                  lambda self, ctx, item: self._fingerprint(ctx, item, page_maps=False))
        assert run(capsys, *base, "--limit", "2")[0] == 0
    code, err = run(capsys, *base)
    assert code == 0 and "2 answer(s) reused" in err
    assert "whose item fingerprint did not cover PDF page maps" in err
    capsys.readouterr()
    assert main(["score", str(out), "--no-progress"]) == 0
    assert "cannot be checked" in capsys.readouterr().err
