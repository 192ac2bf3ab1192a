"""A damaged copy of a run folder (issue 22, item 14): every command that reads it (`view`,
`report`, `compare`, `score`, `merge`) prints one `br-eval: ...` line and exits 1, never a
traceback; commands that read a folder never create it; a failed write leaves no `*.tmp`.

The folder is a finished run of memory_update in two shards, merged (so `merge` has shard parts to
read). A "results" damage is done to results.json and to both shard parts (results.json is then
made the newest, so `report` and `score` read it rather than merging first); a "journal" damage is
done to both shard journals. `report` reads results.json, so a journal damage leaves it
working (exit 0; a warning says the journal could not be checked against it). NaN and Infinity, which JSON does not have, are read as missing values (the
report shows `-`), not as damage."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evaluator.cli import main

TASK = "memory_update"


@pytest.fixture(scope="module")
def finished(sample_snapshot, tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("damage")
    out = base / "run"
    for i in range(2):
        assert main(["run", "--no-progress", "--tasks", TASK, "--data", str(sample_snapshot),
                     "--agent", "none", "--model", "mock", "--model_args", "replies=The old harbour.",
                     "--shard", f"{i}/2", "--output_path", str(out)]) == 0
    assert main(["merge", "--no-progress", str(out)]) == 0
    return out


def _results_files(run: Path) -> list[Path]:
    return sorted(run.glob("results*.json"))


def _journals(run: Path) -> list[Path]:
    return sorted(run.glob("samples_*.jsonl"))


def _edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _edit_lines(path: Path, change) -> None:
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    change(lines)
    path.write_text("".join(x if isinstance(x, str) else json.dumps(x) + "\n" for x in lines))


def _set(keys, value):
    def change(d):
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value
    return change


def _to_dir(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "x").write_text("x")


def _unreadable(path: Path) -> None:
    path.chmod(0)


def _binary(path: Path) -> None:
    rng = random.Random(path.name)
    path.write_bytes(bytes(rng.randrange(256) for _ in range(3000)) + b"\n\x00\xff\n")


def _first_line(value):
    def change(lines):
        lines[0] = value
    return change


def _each_line(change_one):
    def change(lines):
        for line in lines:
            change_one(line)
    return change


RESULTS_DAMAGE = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "empty": lambda p: p.write_text(""),
    "not an object": lambda p: p.write_text("[1, 2, 3]\n"),
    "results is a list": lambda p: _edit_json(p, _set(["results"], [1, 2])),
    "config is a string": lambda p: _edit_json(p, _set(["config"], "tasks")),
    "tasks is a number": lambda p: _edit_json(p, _set(["config", "tasks"], 7)),
    "task entry is a string": lambda p: _edit_json(p, _set(["results", TASK], "done")),
    "n_done is text": lambda p: _edit_json(p, _set(["results", TASK, "n_done"], "many")),
    "primary is a string": lambda p: _edit_json(p, _set(["results", TASK, "primary"], "0.5")),
    "ci95 is a number": lambda p: _edit_json(p, _set(["results", TASK, "primary", "ci95"], 3)),
    "data is a list": lambda p: _edit_json(p, _set(["data"], ["x"])),
    "a directory": _to_dir,
    "unreadable": _unreadable,
}

JOURNAL_DAMAGE = {
    "a line that is not an object": lambda p: _edit_lines(p, _first_line("[1, 2, 3]\n")),
    "a line that is a string": lambda p: _edit_lines(p, _first_line('"key"\n')),
    "a line without key": lambda p: _edit_lines(p, lambda ls: ls[0].pop("key")),
    "metrics is a list": lambda p: _edit_lines(p, _each_line(_set(["metrics"], [1.0]))),
    "primary is a string": lambda p: _edit_lines(p, _each_line(_set(["metrics", "primary"], "1"))),
    "inputs is a string": lambda p: _edit_lines(p, _each_line(_set(["inputs"], "all"))),
    "prediction is a number": lambda p: _edit_lines(p, _each_line(_set(["prediction"], 3))),
    "binary garbage": _binary,
    "a directory": _to_dir,
    "unreadable": _unreadable,
}

CASES = ([("results", name) for name in RESULTS_DAMAGE]
         + [("journal", name) for name in JOURNAL_DAMAGE])
COMMANDS = ("view", "report", "compare", "score", "merge")


def _damaged_copy(finished: Path, tmp_path: Path, target: str, name: str) -> Path:
    run = tmp_path / "run"
    shutil.copytree(finished, run)
    (run / "report.html").unlink(missing_ok=True)
    if target == "results":
        for path in _results_files(run):
            RESULTS_DAMAGE[name](path)
        newest = max(p.stat().st_mtime for p in run.iterdir()) + 10
        os.utime(run / "results.json", (newest, newest))
    else:
        for path in _journals(run):
            JOURNAL_DAMAGE[name](path)
    return run


def _argv(command: str, run: Path, clean: Path, tmp_path: Path) -> list[str]:
    return {"view": ["view", str(run), "-o", str(tmp_path / "out" / "r.html"), "--no-thumbnails"],
            "report": ["report", str(run)],
            "compare": ["compare", str(clean), str(run)],
            "score": ["score", "--no-progress", str(run)],
            "merge": ["merge", "--no-progress", str(run)]}[command]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("target,name", CASES)
def test_a_damaged_run_folder_is_one_line_and_exit_1(finished, tmp_path, capsys, target, name,
                                                      command):
    if name == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a chmod 000 file anyway")
    run = _damaged_copy(finished, tmp_path, target, name)
    clean = finished
    capsys.readouterr()
    rc = main(_argv(command, run, clean, tmp_path))       # a traceback fails the test here
    out, err = capsys.readouterr()
    if target == "journal" and command == "report":
        assert rc == 0, err                                # report reads results.json only
        return
    lines = err.strip().splitlines()
    assert rc == 1, (out, err)
    assert len(lines) == 1 and lines[0].startswith("br-eval: "), err
    assert "Traceback" not in out + err
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("command", COMMANDS)
def test_nan_and_infinity_are_read_as_missing_values(finished, tmp_path, capsys, command):
    run = tmp_path / "copy" / "run"
    shutil.copytree(finished, run)
    for path in _results_files(run):
        data = json.loads(path.read_text())
        data["results"][TASK]["primary"]["mean"] = float("nan")
        data["results"][TASK]["primary"]["ci95"] = [float("-inf"), float("inf")]
        data["results"][TASK]["n_expected"] = float("inf")
        path.write_text(json.dumps(data))
    for path in _journals(run):
        lines = [json.loads(x) for x in path.read_text().splitlines()]
        for i, line in enumerate(lines):
            line["metrics"] = {k: (float("nan") if i % 2 else float("-inf"))
                               if isinstance(v, float) else v for k, v in line["metrics"].items()}
        path.write_text("".join(json.dumps(x) + "\n" for x in lines))
        assert "NaN" in path.read_text() and "-Infinity" in path.read_text()
    newest = max(p.stat().st_mtime for p in run.iterdir()) + 10
    os.utime(run / "results.json", (newest, newest))
    capsys.readouterr()
    rc = main(_argv(command, run, finished, tmp_path))
    out, err = capsys.readouterr()
    assert rc == 0, err
    shown = out.replace(str(tmp_path), "").lower()
    assert "nan" not in shown and "inf" not in shown, out
    if command == "report":
        row = next(line for line in out.splitlines() if line.startswith(TASK))
        assert row.split()[3] == "-", row                     # the score shows as missing
    if command == "view":
        html = (tmp_path / "out" / "r.html").read_text()
        payload = html.split('id="payload">', 1)[1].split("</script>", 1)[0]
        json.loads(payload, parse_constant=lambda c: pytest.fail(f"{c} in the page's JSON"))


# -- commands that read a folder never create it -------------------------------------------------
@pytest.mark.parametrize("command", COMMANDS)
def test_a_mistyped_folder_is_one_line_and_is_not_created(finished, tmp_path, capsys, command):
    missing = tmp_path / "no-such-run"
    capsys.readouterr()
    rc = main(_argv(command, missing, finished, tmp_path))
    _, err = capsys.readouterr()
    assert rc == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("br-eval: ") and "no-such-run" in lines[0], err
    assert not missing.exists()


# -- failed writes leave no temporary file ---------------------------------------------------------
def test_view_into_a_folder_writes_report_html_there_and_leaves_no_tmp(finished, tmp_path, capsys):
    out_dir = tmp_path / "reports"
    out_dir.mkdir()
    assert main(["view", str(finished), "-o", str(out_dir), "--no-thumbnails"]) == 0
    assert (out_dir / "report.html").stat().st_size > 10_000
    assert not list(tmp_path.rglob("*.tmp")) and not list(finished.glob("*.tmp"))


def _br_eval_with_file_size_limit(args: list[str], limit: int) -> subprocess.CompletedProcess:
    """br-eval in a child whose writes past `limit` bytes fail (EFBIG), as on a full disk."""
    import resource
    import signal

    def limit_writes():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run([sys.executable, "-m", "evaluator", *args], capture_output=True,
                          text=True, env=env, preexec_fn=limit_writes, timeout=300)


@pytest.mark.parametrize("command", ["view", "score"])
def test_a_failed_write_is_one_line_and_leaves_no_tmp(finished, tmp_path, command):
    run = tmp_path / "run"
    shutil.copytree(finished, run)
    def files():        # the writer's lock file says who held the folder last: not run data
        return {p.name: p.read_bytes() for p in run.iterdir() if not p.name.endswith(".lock")}

    before = files()
    args = (["view", str(run), "-o", str(tmp_path / "r.html"), "--no-thumbnails"]
            if command == "view" else ["score", "--no-progress", str(run)])
    # view: the page is megabytes; score: results.json is a few kilobytes
    done = _br_eval_with_file_size_limit(args, 64 * 1024 if command == "view" else 512)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("br-eval: "), done.stderr
    assert not list(tmp_path.rglob("*.tmp"))
    assert not (tmp_path / "r.html").exists()
    assert files() == before     # nothing half-written
