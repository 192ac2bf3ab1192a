"""Writing safely and reading hostile bytes (issue 22, items 5, 7, 10, 11, 12):

* nothing is written through a symbolic link planted in a run folder (temporary files are new
  files of their own, journals are opened with O_NOFOLLOW, a linked journal or results.json is
  refused with one line);
* API keys carried in a base_url never reach results.json, a journal, the report or the terminal;
* control characters from a server (its model name, its error text) reach the terminal escaped;
* the HTML report's embedded JSON survives replies that try to end the script element, and its
  Content-Security-Policy runs only the page's own scripts;
* a reply ending in half a surrogate pair is scored, re-scored, reported and viewed.

Servers are fake OpenAI-compatible servers on 127.0.0.1 (tests/test_models_preflight.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evaluator.cli import main
from test_models_openai import error_body, is_preflight
from test_models_preflight import Server

TASK = "memory_update"
ROOT = Path(__file__).resolve().parent.parent
SECRET_TEXT = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI me@laptop\n"


def _run(snapshot, out: Path, *extra: str, replies: str = "The old harbour.") -> int:
    return main(["run", "--no-progress", "--tasks", TASK, "--data", str(snapshot), "--agent", "none",
                 "--model", "mock", "--model_args", f"replies={replies}", "--output_path", str(out),
                 *extra])


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """br-eval in a child process, its stdout and stderr as bytes (what a terminal would get)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "evaluator", *args], capture_output=True,
                          env=env, timeout=timeout)


@pytest.fixture(scope="module")
def finished(sample_snapshot, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("safety") / "run"
    assert _run(sample_snapshot, out) == 0
    return out


# -- item 5: planted links -------------------------------------------------------------------------
# (command, the name planted as a link to a file outside the folder, expected exit status)
PLANTED = [
    ("run", "results.json.tmp", 0),
    ("run", f"samples_{TASK}.jsonl.tmp", 0),
    ("run", f"samples_{TASK}.jsonl", 1),
    ("run", "results.json", 1),
    ("score", "results.json.tmp", 0),
    ("score", f"samples_{TASK}.jsonl.tmp", 0),
    ("score", f"samples_{TASK}.jsonl", 1),
    ("view", "report.html.tmp", 0),
    ("view", "report.html", 1),
    ("view", "results.json", 1),
    ("report", "results.json", 1),
]


@pytest.mark.parametrize("command,name,expected", PLANTED)
def test_nothing_is_written_through_a_planted_link(sample_snapshot, finished, tmp_path, capsys,
                                                   command, name, expected):
    outside = tmp_path / "home" / ".ssh" / "id_ed25519.pub"
    outside.parent.mkdir(parents=True)
    outside.write_text(SECRET_TEXT)
    run = tmp_path / "run"
    shutil.copytree(finished, run)
    (run / "report.html").unlink(missing_ok=True)
    if command == "run":
        # the first item failed: the rerun retries it, and then rewrites the journal with one
        # line per key (through a temporary file) and results.json
        journal = run / f"samples_{TASK}.jsonl"
        lines = [json.loads(x) for x in journal.read_text().splitlines()]
        lines[0].update(prediction=None, metrics=None, error="RuntimeError: x", error_kind="model")
        journal.write_text("".join(json.dumps(x) + "\n" for x in lines))
    planted = run / name
    planted.unlink(missing_ok=True)
    planted.symlink_to(outside)
    argv = {"run": ["run", "--no-progress", "--tasks", TASK, "--data", str(sample_snapshot),
                    "--agent", "none", "--model", "mock", "--model_args", "replies=The old harbour.",
                    "--output_path", str(run)],
            "score": ["score", "--no-progress", str(run)],
            "view": ["view", str(run), "--no-thumbnails"],
            "report": ["report", str(run)]}[command]
    capsys.readouterr()
    rc = main(argv)
    err = capsys.readouterr().err
    assert outside.read_text() == SECRET_TEXT
    assert planted.is_symlink() and os.readlink(planted) == str(outside)
    assert rc == expected, err
    if expected:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "symbolic link" in lines[0], err
    else:
        assert (run / name.replace(".tmp", "") if name.endswith(".tmp") else run / name).exists()
    assert not [p for p in run.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]


def test_a_journal_linked_after_the_check_is_still_not_followed(tmp_path, monkeypatch):
    """O_NOFOLLOW at open: a link made between the check and the open is not followed either."""
    from evaluator.errors import EvalError
    from evaluator.records import Sample
    from evaluator.results import RunDir

    outside = tmp_path / "outside.txt"
    outside.write_text(SECRET_TEXT)
    run = tmp_path / "run"
    run.mkdir()
    (run / "samples_t.jsonl").symlink_to(outside)
    monkeypatch.setattr(os.path, "islink", lambda p: False)     # the check sees no link
    with pytest.raises(EvalError, match="symbolic link"):
        RunDir(run).append(Sample("k", "t"))
    assert outside.read_text() == SECRET_TEXT


def test_whole_file_writes_use_a_new_temporary_file_each_time(tmp_path, monkeypatch):
    """write_atomic creates `<name>.<random>.tmp` with O_EXCL|O_NOFOLLOW and removes it when the
    write fails."""
    from evaluator import results

    seen = []
    real_open = os.open

    def spy(path, flags, *args):
        if str(path).endswith(".tmp"):
            seen.append((Path(path).name, flags))
        return real_open(path, flags, *args)

    monkeypatch.setattr(results.os, "open", spy)
    results.write_atomic(tmp_path / "results.json", "{}\n")
    results.write_atomic(tmp_path / "results.json", "{}\n")
    assert len(seen) == 2 and seen[0][0] != seen[1][0]
    for name, flags in seen:
        assert re.fullmatch(r"results\.json\.[0-9a-f]{12}\.tmp", name)
        assert flags & os.O_EXCL and flags & os.O_CREAT and flags & os.O_NOFOLLOW

    def chunks():
        yield "part of a file"
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        results.write_atomic(tmp_path / "results.json", chunks())
    assert (tmp_path / "results.json").read_text() == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]


# -- item 7: secrets in URLs -----------------------------------------------------------------------
def test_redact_url_masks_userinfo_and_key_like_parameters():
    from evaluator.errors import redact_url

    assert redact_url("https://user:KEY@host/v1") == "https://***@host/v1"
    assert redact_url("https://TOKEN@host/v1") == "https://***@host/v1"
    assert redact_url("http://h:8000/v1?api-key=K1&model=m") == "http://h:8000/v1?api-key=***&model=m"
    assert redact_url("http://h/v1?api_key=K&key=K2&access_token=T#x") == \
        "http://h/v1?api_key=***&key=***&access_token=***#x"
    assert redact_url("https://h/x?sig=S&X-Amz-Signature=S2&password=p&secret=s&monkey=1") == \
        "https://h/x?sig=***&X-Amz-Signature=***&password=***&secret=***&monkey=1"
    assert redact_url("calling http://u:p@10.0.0.1/v1?token=abc failed: 401") == \
        "calling http://***@10.0.0.1/v1?token=*** failed: 401"
    assert redact_url("no url, e-mail me@example.org") == "no url, e-mail me@example.org"


def test_api_keys_in_base_url_reach_no_file_and_no_terminal(sample_snapshot, tmp_path, capsys):
    with Server() as srv:
        fails = {"n": 0}

        def chat(body, headers):                 # preflight passes; the questions fail
            if is_preflight(body):
                return None
            fails["n"] += 1
            return 400, error_body("bad request"), {}

        srv.chat = chat
        host = srv.base_url.split("//", 1)[1]
        url = f"http://alice:SEKRET-ONE@{host}?api-key=SEKRET-TWO"
        out = tmp_path / "run"
        rc = main(["run", "--no-progress", "--tasks", TASK, "--data", str(sample_snapshot),
                   "--agent", "none", "--model", "openai",
                   "--model_args", f"base_url={url},model=m,max_retries=0",
                   "--output_path", str(out)])
    assert rc == 1 and fails["n"] > 0
    assert main(["report", str(out)]) == 0
    assert main(["view", str(out), "--no-thumbnails"]) == 0
    shown = capsys.readouterr()
    files = {p.name: p.read_text() for p in out.iterdir()}
    assert set(files) >= {"results.json", f"samples_{TASK}.jsonl", "report.html"}
    for where, text in [*files.items(), ("stdout", shown.out), ("stderr", shown.err)]:
        assert "SEKRET" not in text, where
    results = json.loads(files["results.json"])
    assert results["model"]["base_url"] == f"http://***@{host}?api-key=***"
    assert results["config"]["transport"]["model_args"]["base_url"] == f"http://***@{host}?api-key=***"
    first = json.loads(files[f"samples_{TASK}.jsonl"].splitlines()[0])
    assert first["error_kind"] == "model" and "***@" in first["error"]


# -- item 12: control characters reach the terminal escaped ----------------------------------------
HOSTILE = "evil\x1b]0;pwned\x07\x1b[2J\r\u202eAll 11 tasks passed\x9b"


def _no_raw_controls(data: bytes) -> None:
    text = data.decode("utf-8")
    raw = [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0
           or c == "\u202e"]
    assert not raw, raw


def test_a_hostile_served_model_name_reaches_the_terminal_escaped(sample_snapshot, tmp_path):
    out = tmp_path / "run"
    with Server(served_model=HOSTILE) as srv:
        done = _cli("run", "--no-progress", "--tasks", TASK, "--data", str(sample_snapshot),
                    "--limit", "2", "--agent", "none", "--model", "openai",
                    "--model_args", f"base_url={srv.base_url},model=m", "--output_path", str(out))
    assert done.returncode == 0, done.stderr
    both = done.stdout + done.stderr
    _no_raw_controls(both)
    assert b"the server answers as evil\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\u202eAll 11 tasks passed" in both
    # the name is kept as the server sent it (data), and shown escaped by every command
    assert json.loads((out / "results.json").read_text())["model"]["served_model"] == HOSTILE
    report = _cli("report", str(out))
    assert report.returncode == 0
    _no_raw_controls(report.stdout + report.stderr)
    assert b"answered as evil\\x1b]0;pwned" in report.stdout


def test_a_hostile_server_error_reaches_the_terminal_as_one_escaped_line(sample_snapshot, tmp_path):
    with Server() as srv:
        srv.chat = lambda body, h: (400, error_body(f"no such model {HOSTILE}"), {})
        done = _cli("run", "--no-progress", "--tasks", TASK, "--data", str(sample_snapshot),
                    "--agent", "none", "--model", "openai",
                    "--model_args", f"base_url={srv.base_url},model=m",
                    "--output_path", str(tmp_path / "run"))
    assert done.returncode == 1
    _no_raw_controls(done.stdout + done.stderr)
    errors = [line for line in done.stderr.decode().splitlines() if "error" in line]
    assert len(errors) == 1 and "pwned\\x07\\x1b[2J" in errors[0], done.stderr
    assert "\\u202eAll 11 tasks passed\\x9b" in errors[0]


def test_terminal_text_escapes_controls_and_keeps_newlines_and_tabs():
    from evaluator.errors import terminal_text

    assert terminal_text("a\x1b[2Jb\rc\x07d\x00e\x7f\x85") == "a\\x1b[2Jb\\x0dc\\x07d\\x00e\\x7f\\x85"
    assert terminal_text("line 1\n\tline 2 é 😀") == "line 1\n\tline 2 é 😀"
    assert terminal_text("\u202eabc\u2066x\u200f") == "\\u202eabc\\u2066x\\u200f"
    assert terminal_text("abc\ud83d") == "abc\\ud83d"


# -- item 10: the report's embedded data and its script policy -------------------------------------
INJECTED = ["ends a comment <!-- and never closes it",
            "</script><script>window.__pwned = 1</script>",
            "<script>window.__pwned = 2</script>",
            "<img src=x onerror=\"window.__pwned = 3\"> & \u2028 \u2029 ]]> -->"]


def hostile_run(snapshot, tmp_path) -> Path:
    """A finished run whose replies try to escape the report's script element, and whose journal
    holds a NaN metric and an Infinity."""
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(INJECTED * 3))
    out = tmp_path / "hostile"
    assert _run(snapshot, out, "--num_concurrent", "1", replies=str(replies)) == 0
    journal = out / f"samples_{TASK}.jsonl"
    lines = [json.loads(x) for x in journal.read_text().splitlines()]
    lines[0]["metrics"]["primary"] = float("nan")
    lines[1]["metrics"]["primary"] = float("inf")
    journal.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert "NaN" in journal.read_text()
    return out


def test_the_report_embeds_hostile_replies_as_strict_json_under_a_hashed_policy(sample_snapshot,
                                                                                  tmp_path):
    run = hostile_run(sample_snapshot, tmp_path)
    assert main(["view", str(run), "--no-thumbnails"]) == 0
    html = (run / "report.html").read_text()
    payload = re.search(r'<script type="application/json" id="payload">(.*?)</script>', html, re.S)
    data = json.loads(payload.group(1), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    predictions = {r["p"] for it in data["items"] for r in it["r"]}
    assert predictions == set(INJECTED)
    assert not re.search(r"[<>&\u2028\u2029]", payload.group(1))
    metrics = {it["k"]: it["r"][0]["m"] for it in data["items"]}
    assert list(metrics.values())[0]["primary"] is None                 # NaN: missing
    assert list(metrics.values())[1]["primary"] is None                 # Infinity: missing
    # the policy names each inline script by its hash, and nothing else may run
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script_src
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 2
    for text in scripts:
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in script_src


# -- item 11: half a surrogate pair ----------------------------------------------------------------
def test_a_reply_ending_in_half_a_surrogate_pair_is_scored_reported_and_viewed(sample_snapshot,
                                                                              tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text('["The old harbour.\\ud83d", "abc\\ud83d"]')
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, "--num_concurrent", "1", replies=str(replies)) == 0
    lines = [json.loads(x) for x in (out / f"samples_{TASK}.jsonl").read_text().splitlines()]
    assert not any(x.get("error") for x in lines)
    assert lines[0]["prediction"] == "The old harbour.\ufffd"
    # a journal written before the fix holds the lone half itself (as the escape \ud83d)
    lines[1]["prediction"] = "abc\ud83d"
    (out / f"samples_{TASK}.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=True) + "\n" for x in lines))
    assert "abc\\ud83d" in (out / f"samples_{TASK}.jsonl").read_text()
    for args in (["score", "--no-progress", str(out)], ["report", str(out)],
                 ["view", str(out), "-o", str(tmp_path / "x" / "report.html")]):
        done = _cli(*args)
        assert done.returncode == 0, (args, done.stderr)
        assert b"Traceback" not in done.stderr
    html = (tmp_path / "x" / "report.html").read_text(encoding="utf-8")
    assert "abc\ufffd" in html


def test_progress_bars_draw_on_the_stream_under_the_escaping_wrapper(monkeypatch):
    """A bar draws with carriage returns (its own text); everything else printed is escaped."""
    import io

    from tqdm import tqdm

    from evaluator.errors import TerminalStream, progress_stream

    raw = io.StringIO()
    monkeypatch.setattr(sys, "stderr", TerminalStream(raw))
    print("served: a\rb", file=sys.stderr)
    with tqdm(total=2, desc="memory_update", file=progress_stream(), mininterval=0) as bar:
        bar.update(2)
    text = raw.getvalue()
    assert text.startswith("served: a\\x0db\n")
    assert "\rmemory_update: 100%" in text
