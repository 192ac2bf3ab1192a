"""Hostile inputs, second audit: each is one clear line and a non-zero exit (or a failed item
naming the server), never a traceback, a hang, a silent skip or an empty answer.

Task files (a 5,000-digit integer, JSON that is not an array, `"answer": null`), checksum lists
(a FIFO, a link to /dev/zero or out of the snapshot, a list longer than it says), and model
servers (content that is not text, JSON nested too deeply, HTML pages, retry lines)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from evaluator.cli import main
from evaluator.models.base import ModelCallError
from evaluator.models.openai_backend import OpenAIChatModel
from local_http import JsonHandler, LocalServer
from snapshot_builder import minimal_snapshot, session, traj, turn
from test_models_openai import FakeOpenAIServer, ask, chat_completion, is_preflight

DATE = "9:00 am on 1 May, 2024"
ROOT = Path(__file__).resolve().parents[1]


def cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def cli_subprocess(*args, timeout=120):
    """In a child process: a hang fails the test, and log lines reach stderr as a user sees them."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "evaluator.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


def one_line_error(code, err):
    assert code != 0
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def task_file(root: Path) -> Path:
    return next((root / "benchmark" / "management").glob("Memory*.json"))


# --- 1. an integer over Python's 4,300-digit limit ----------------------------------------------
def test_an_integer_over_pythons_digit_limit_is_one_line(tmp_path, capsys):
    minimal_snapshot(tmp_path, "memory_update", [traj([session(DATE, turn("hi"))],
                                                      [{"question": "q?", "answer": "a"}])])
    f = task_file(tmp_path)
    f.write_text(f.read_text().replace('"id": 0', '"id": ' + "9" * 5000, 1))
    want = "integer string conversion"
    code, out, err = cli(capsys, "validate", "--data", tmp_path)
    assert code == 1 and f"{f}: " in out and want in out and "Traceback" not in err
    code, out, err = cli(capsys, "run", "--no-progress", "--tasks", "memory_update", "--data",
                         tmp_path, "--output_path", tmp_path / "out")
    line = one_line_error(code, err)
    assert str(f) in line and want in line


# --- 2. `ls` holds a task file to the loader's rules --------------------------------------------
@pytest.mark.parametrize("content, want", [
    ("5", "expected an array of trajectories, got int"),
    ("null", "expected an array of trajectories, got NoneType"),
    ('"abc"', "expected an array of trajectories, got str"),
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply to read"),
], ids=["int", "null", "str", "deep"])
def test_ls_refuses_a_task_file_that_is_not_an_array(tmp_path, capsys, content, want):
    minimal_snapshot(tmp_path, "memory_update", [traj([session(DATE, turn("hi"))],
                                                      [{"question": "q?", "answer": "a"}])])
    task_file(tmp_path).write_text(content)
    code, out, err = cli(capsys, "ls", "--data", tmp_path)
    line = one_line_error(code, err)
    assert want in line and str(task_file(tmp_path)) in line


# --- 3. checksum lists that are not regular files, or lead out, or say they are small -----------
@pytest.mark.parametrize("shape", ["fifo", "dev-zero", "link-out"])
@pytest.mark.parametrize("which", ["checksums/SHA256SUMS", "benchmark/SHA256SUMS"])
def test_a_checksum_list_that_is_not_a_regular_file_in_the_snapshot_is_not_read(
        sample_copy, tmp_path, shape, which):
    sums = sample_copy / which
    outside = tmp_path / "elsewhere"
    outside.write_bytes(sums.read_bytes())
    sums.unlink()
    if shape == "fifo":
        os.mkfifo(sums)
    else:
        sums.symlink_to("/dev/zero" if shape == "dev-zero" else outside)
    r = cli_subprocess("verify", "--data", sample_copy, "--no-progress", timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    reason = "not a regular file" if shape == "fifo" else "a symlink leading outside the snapshot"
    assert f"unreadable {which}: {reason}; not read" in r.stdout.splitlines()


def test_a_checksum_list_is_read_within_its_bound_whatever_its_size_says(tmp_path, monkeypatch):
    """A file whose size is not what it holds (/proc files say 0; a list may grow while read)
    is still read no further than the bound."""
    from beyondrecall import sums

    if not os.path.isfile("/proc/self/maps"):
        pytest.skip("needs /proc")
    monkeypatch.setattr(sums, "MAX_LIST_BYTES", 1024)
    entries, findings = sums.read_sums(Path("/proc/self/maps"), "SHA256SUMS", "")
    assert entries == [] and [f.line() for f in findings] == \
        ["malformed SHA256SUMS: over 1.0 KB, br-eval's limit for a checksum list; not read"]


def test_a_checksum_list_line_over_its_bound_refuses_the_list(sample_copy, capsys):
    sums = sample_copy / "benchmark" / "SHA256SUMS"
    sums.write_bytes(sums.read_bytes() + b"0" * 64 + b"  " + b"a" * 100_000 + b"\n")
    code, out, err = cli(capsys, "verify", "--data", sample_copy, "--no-progress")
    assert code == 1 and "Traceback" not in err
    n = len(sums.read_bytes().splitlines())
    assert (f"malformed benchmark/SHA256SUMS: line {n} is over 65.5 KB, br-eval's limit for a "
            "checksum list line; not read") in out.splitlines()


# --- 4. a question without a reference answer ---------------------------------------------------
@pytest.mark.parametrize("answer", ["null", "absent"])
def test_a_question_without_an_answer_stops_validate_and_run(tmp_path, capsys, answer):
    question = {"question": "q?", "answer": None} if answer == "null" else {"question": "q?"}
    minimal_snapshot(tmp_path, "memory_update", [traj([session(DATE, turn("hi"))], [question])])
    want = f"{task_file(tmp_path)}: trajectory 0 question 0: field 'answer' is required"
    code, out, err = cli(capsys, "validate", "--data", tmp_path)
    assert code == 1 and want in out
    code, out, err = cli(capsys, "run", "--no-progress", "--tasks", "memory_update", "--data",
                         tmp_path, "--output_path", tmp_path / "out")
    assert want in one_line_error(code, err)
    assert not list((tmp_path / "out").glob("**/samples_*.jsonl"))   # stopped before any item


def test_an_answer_of_another_type_still_validates(tmp_path, capsys):
    minimal_snapshot(tmp_path, "memory_update", [traj([session(DATE, turn("hi"))], [
        {"question": "q?", "answer": {"city": "Paris"}}, {"question": "q2?", "answer": 0}])])
    code, out, err = cli(capsys, "validate", "--data", tmp_path, "--tasks", "memory_update")
    assert code == 0, out


# --- 5. replies whose content is not text -------------------------------------------------------
@pytest.fixture
def server():
    with FakeOpenAIServer() as srv:
        yield srv


def model_for(server, **kwargs) -> OpenAIChatModel:
    return OpenAIChatModel(server.base_url, "m", backoff=0.01, max_retries=1, **kwargs)


def reply(**message) -> dict:
    body = chat_completion("x", model="m")
    body["choices"][0]["message"] = message if message else None
    return body


def test_content_as_a_list_of_text_parts_is_the_reply(server):
    server.script = [(200, reply(role="assistant", content=[{"type": "text", "text": "Paris"},
                                                           {"type": "text", "text": "is it"}]))]
    assert model_for(server).generate(ask("q")).text == "Paris\nis it"


@pytest.mark.parametrize("message, what", [
    ({"role": "assistant", "content": 12345}, "content of type int, not text"),
    ({}, "no message"),
    ({"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
     "tool calls and no content"),
    ({"role": "assistant", "content": None, "reasoning_content": "It is Paris."},
     "reasoning_content and no content"),
    ({"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": "x"}}]},
     "content is a list of 1 part(s) without text"),
])
def test_a_reply_without_text_is_a_model_error_naming_the_server(server, message, what):
    server.script = [(200, reply(**message))] * 2
    with pytest.raises(ModelCallError) as info:
        model_for(server).generate(ask("q"))
    text = str(info.value)
    assert server.base_url in text and f"the reply holds no text answer ({what}" in text
    assert len(server.requests) == 2         # a server error: retried, here the same twice


def test_an_empty_string_is_still_an_empty_reply(server):
    server.script = [(200, reply(role="assistant", content=""))]
    assert model_for(server).generate(ask("q")).text == ""


def test_the_preflight_accepts_a_thinking_models_reply_without_content(server):
    server.script = [(200, reply(role="assistant", content=None, reasoning_content="Hmm"))]
    info = model_for(server).preflight(images=False)
    assert info["requested_model"] == "m" and is_preflight(server.requests[0])


# --- 6, 7. bodies that are not JSON an API would send -------------------------------------------
class RawServer(LocalServer):
    """Answers every request with the next (status, body bytes, content type) of `script`."""

    def __init__(self, script):
        self.script, self.requests = list(script), 0
        server = self

        class Handler(JsonHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                server.requests += 1
                status, body, ctype = server.script.pop(0) if len(server.script) > 1 else server.script[0]
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.serve(Handler)


def test_json_nested_too_deeply_is_a_model_error_naming_the_server_and_retried():
    with RawServer([(200, b"[" * 100_000 + b"]" * 100_000, "application/json")]) as srv:
        model = OpenAIChatModel(srv.base_url, "m", backoff=0.01, max_retries=2)
        with pytest.raises(ModelCallError) as info:
            model.generate(ask("q"))
        assert srv.requests == 2             # retried once, then the same error twice
    assert srv.base_url in str(info.value) and "invalid JSON in the reply (nested too deeply" in str(info.value)


HTML_500 = b"<html><head><style>p {color: red}</style></head><body><p>" + b"A" * 400 + b"</p></body></html>"


def test_an_html_error_page_is_named_not_dumped_and_its_retry_line_is_prefixed():
    with RawServer([(500, HTML_500, "text/html")]) as srv:
        model = OpenAIChatModel(srv.base_url, "m", backoff=0.01, max_retries=1)
        code = ("from evaluator.models.openai_backend import OpenAIChatModel;"
                "from evaluator.models.base import Message, TextPart;"
                f"m = OpenAIChatModel({srv.base_url!r}, 'm', backoff=0.01, max_retries=1);"
                "m.generate([Message('user', (TextPart('q'),))])")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT)
        retry = [line for line in r.stderr.splitlines() if "retrying" in line]
        assert len(retry) == 1 and retry[0].startswith("br-eval: warning: openai backend: ")
        with pytest.raises(ModelCallError) as info:
            model.generate(ask("q"))
    text = str(info.value)
    assert "HTTP 500: an HTML page: AAAA" in text and "<" not in text and "color" not in text
    assert "A" * 200 not in text               # an excerpt of the page's text, not all of it


@pytest.fixture
def plain_http_server(tmp_path):
    """`python -m http.server`: GET gives 404 pages, POST an HTML 501 page."""
    handler = lambda *a, **k: SimpleHTTPRequestHandler(*a, directory=str(tmp_path), **k)  # noqa: E731
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_a_server_that_is_no_openai_api_is_one_line_saying_so(plain_http_server, sample_snapshot,
                                                              tmp_path):
    r = cli_subprocess("run", "--no-progress", "--task", "memory_update", "--limit", "1",
                       "--model", "openai", "--model_args", f"base_url={plain_http_server},model=m",
                       "--data", sample_snapshot, "--output_path", tmp_path / "out", timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if "501" in line or "<" in line]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("br-eval: error: preflight") and f"{plain_http_server} model 'm': HTTP 501: " \
        "an HTML page, not an OpenAI-compatible API (is base_url the server's /v1?): " in lines[0]
    assert "<" not in lines[0] and len(lines[0]) < 600


@pytest.mark.parametrize("depth", [900, 50_000])
def test_a_reply_with_json_nested_too_deep_is_read_not_raised(depth):
    """A model reply is untrusted: JSON nested past the stack (within the reply's size cap) is
    read as malformed JSON, never a RecursionError while scoring."""
    from evaluator.scoring.choice import extract_choice
    from evaluator.scoring.choice_reply import NO_FIELD, json_answer

    reply = '{"answer": ' + "[" * depth + '"B"' + "]" * depth + "}"
    value = json_answer(reply)
    assert value is NO_FIELD or isinstance(value, str)
    extract_choice(reply, {"A": "red", "B": "blue"})          # no exception
