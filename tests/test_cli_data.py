"""`br-eval ls / show / validate` through the real entry point."""

import json
import os
import subprocess
import sys
import time

from evaluator.cli import main
from snapshot_builder import minimal_snapshot, session, traj, turn

DATE = "9:00 am on {d} May, 2024"


def make(tmp_path):
    return minimal_snapshot(tmp_path, "memory_update", [traj(
        [session(DATE.format(d=1), turn("I live in Paris")),
         session(DATE.format(d=9), turn("I moved to Rome", person="B"))],
        [{"question": "Where do I live?", "answer": "Paris", "timestamp": DATE.format(d=2)},
         {"question": "Where do I live now?", "answer": "Rome"}], tid=0)])


def test_show_json_is_exactly_what_the_agent_sees(tmp_path, capsys):
    make(tmp_path)
    assert main(["show", "management/memory_update/0/q0", "--data", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"key": "management/memory_update/0/q0", "cutoff": "2024-05-02T09:00:00Z",
                   "cutoff_raw": DATE.format(d=2), "persons": ["A", "B"],
                   "visible": {"sessions": 1, "turns": 1},
                   "sessions": [{"index": 0, "date": "2024-05-01T09:00:00Z",
                                 "date_raw": DATE.format(d=1), "session_date": "2024-05-01T09:00:00Z",
                                 "session_date_raw": DATE.format(d=1), "turns": [
                       {"index": 0, "time": "2024-05-01T09:00:00Z", "time_raw": DATE.format(d=1),
                        "person": "A", "content": "I live in Paris", "media": []}]}],
                   "question": {"text": "Where do I live?", "media": []}, "video_audio": {}}
    assert main(["show", "management/memory_update/0/q1", "--data", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    # times as the agent's prompt shows them: as released, parsed UTC beside them
    assert "== session 1  9:00 am on 9 May, 2024 (2024-05-09 09:00 UTC)" in text
    assert "persons: A, B" in text
    assert "I moved to Rome" in text and "Where do I live now?" in text and "Rome" not in text.split("QUESTION")[1].replace("Where do I live now?", "")


def test_show_bad_keys_one_line(tmp_path, capsys):
    make(tmp_path)
    for key, msg in [("memory_update/0/q0", "is not dimension/task"),
                     ("management/memory_update/9/q0", "no trajectory '9'"),
                     ("management/memory_update/0/q7", "q7 does not exist"),
                     ("retrieval/memory_update/0/q0", "unknown dimension/task")]:
        assert main(["show", key, "--data", str(tmp_path)]) == 1
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1 and "Traceback" not in err


def test_validate_exit_codes(tmp_path, capsys):
    make(tmp_path)
    assert main(["validate", "--data", str(tmp_path)]) == 0
    assert "no problems" in capsys.readouterr().out
    bad = tmp_path / "bad"
    minimal_snapshot(bad, "memory_update", [traj([session("nope", turn("a"))], [], tid=4)])
    assert main(["validate", "--data", str(bad)]) == 1
    out = capsys.readouterr()
    assert "trajectory 4 session 0 field 'date'" in out.out and "1 problem(s)" in out.err


def test_ls_counts(tmp_path, capsys):
    make(tmp_path)
    assert main(["ls", "--data", str(tmp_path), "--json"]) == 0
    rows = {r["task"]: r for r in json.loads(capsys.readouterr().out)["tasks"]}
    assert rows["memory_update"]["count"] == 2 and rows["memory_update"]["trajectories"] == 1
    assert rows["conflict_detection"]["count"] == 1
    assert "realcompanion/retrieval" in rows


def test_missing_data_folder_one_line(tmp_path, capsys):
    assert main(["ls", "--data", str(tmp_path / "nope")]) == 1
    assert "no such folder" in capsys.readouterr().err


def test_ls_imports_nothing_heavy(tmp_path):
    make(tmp_path)
    code = ("import sys,time;t=time.perf_counter();from evaluator.cli import main;"
            "rc=main(['ls','--data',sys.argv[1]]);"
            "heavy=[m for m in ('torch','av','fitz','open_clip','transformers','decord','bm25s',"
            "'huggingface_hub','dateparser','numpy') if m in sys.modules];"
            "print(heavy, file=sys.stderr);sys.exit(rc)")
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                       env={**os.environ, "HF_HUB_OFFLINE": "1"})
    elapsed = time.perf_counter() - start
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().endswith("[]"), r.stderr
    assert elapsed < 2.0  # "well under a second" on a quiet machine; CI shares 2 cores


def test_no_arguments_prints_help_and_usage_exit(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "usage: br-eval" in err and "br-eval ls" in err
    assert main(["run", "--limit", "3"]) == 2
    assert "no task given" in capsys.readouterr().err
