"""Issue 17 (items 2, 3, 5, 7 in test_release_shapes, 8, 9 in test_timestamps, 11, 13): hostile
snapshots are listed problems, never hangs, tracebacks or files opened outside benchmark/."""

import json
import os
import subprocess
import sys

import pytest

from evaluator.cli import main
from snapshot_builder import minimal_snapshot, session, traj, turn, write_image

DATE = "9:00 am on 1 May, 2024"
import evaluator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(evaluator.__file__)))   # the code under test


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli_subprocess(*args, timeout=120):
    """In a child process, so that a hang fails the test instead of stalling the suite."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "evaluator.cli", *args], capture_output=True,
                          timeout=timeout, env=env, cwd=ROOT)


def one_line_error(code, err):
    assert code != 0
    assert "Traceback" not in err
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1, err
    return lines[0]


# --- item 2: verify --deep never opens a non-regular file ---------------------------------------
@pytest.mark.parametrize("as_json", [False, True])
def test_deep_verify_never_opens_a_fifo(sample_copy, as_json):
    bench = sample_copy / "benchmark"
    listed = bench / "images" / "photo_bakery.png"
    listed.unlink()
    os.mkfifo(listed)                                   # listed, and referenced by a task
    os.mkfifo(bench / "videos" / "unlisted.mp4")        # not listed
    r = cli_subprocess("verify", "--data", str(sample_copy), "--deep", "--no-progress",
                       *(["--json"] if as_json else []), timeout=120)
    out = r.stdout.decode()
    assert r.returncode == 1 and b"Traceback" not in r.stderr
    if as_json:
        obj = json.loads(out)
        rows = {(f["kind"], f["path"]): f["detail"] for f in obj["findings"]}
    else:
        rows = {tuple(l.split(": ", 1)[0].split(" ", 1)): l for l in out.splitlines()
                if not l.startswith("note:")}
    assert ("missing", "benchmark/images/photo_bakery.png") in rows
    assert ("unreadable", "benchmark/videos/unlisted.mp4") in rows


def test_hash_file_refuses_a_fifo_without_blocking(tmp_path):
    from beyondrecall.hashing import hash_file

    os.mkfifo(tmp_path / "f")
    with pytest.raises(OSError, match="not a regular file"):
        hash_file(str(tmp_path / "f"))


# --- item 3: media that leads out of benchmark/ is refused everywhere ---------------------------
@pytest.fixture
def escaping_snapshot(tmp_path):
    secret = tmp_path / "elsewhere" / "secret.png"
    secret.parent.mkdir()
    write_image(tmp_path / "elsewhere-root", "x.png")
    os.replace(tmp_path / "elsewhere-root" / "benchmark" / "x.png", secret)
    snap = tmp_path / "snap"
    minimal_snapshot(snap, "memory_update", [traj(
        [session(DATE, turn("look", media=["images/evil.png"]),
                 turn("and", media=["linked/secret.png"]))],
        [{"question": "what?", "answer": "x"}])])
    (snap / "benchmark" / "images").mkdir()
    (snap / "benchmark" / "images" / "evil.png").symlink_to(secret)
    (snap / "benchmark" / "linked").symlink_to(secret.parent, target_is_directory=True)
    return snap


def test_escaping_symlinks_are_refused_in_validate(escaping_snapshot, capsys):
    code, out, err = cli(capsys, "validate", "--data", str(escaping_snapshot))
    assert code == 1
    bad = [l for l in out.splitlines() if "leads outside benchmark/" in l]
    assert len(bad) == 2 and "'images/evil.png'" in bad[0] and "'linked/secret.png'" in bad[1]


@pytest.mark.parametrize("command", [
    ["show", "management/memory_update/0/q0"], ["prepare", "--tasks", "memory_update"],
    ["run", "--no-progress", "--tasks", "memory_update", "--agent",
     "agents_for_tests:RecordingAgent"]])
def test_escaping_symlinks_are_refused_in_show_prepare_run(escaping_snapshot, tmp_path, capsys,
                                                           command):
    extra = ["--output_path", str(tmp_path / "out")] if command[0] == "run" else []
    code, out, err = cli(capsys, *command, "--data", str(escaping_snapshot), *extra)
    line = one_line_error(code, err)
    assert "'images/evil.png' leads outside benchmark/" in line


def test_media_preparer_refuses_an_escaping_path(escaping_snapshot):
    from beyondrecall.errors import DataError
    from evaluator.agents.protocol import MediaPreparer

    prep = MediaPreparer(escaping_snapshot / "benchmark")
    with pytest.raises(DataError, match="leads outside benchmark/"):
        prep.wrap(["images/evil.png"], [])


def test_resolver_allows_hugging_face_blobs(tmp_path):
    from beyondrecall.paths import resolve_media

    blobs = tmp_path / "datasets--a--b" / "blobs"
    bench = tmp_path / "datasets--a--b" / "snapshots" / ("c" * 40) / "benchmark"
    (bench / "images").mkdir(parents=True)
    blobs.mkdir()
    (blobs / "abc").write_bytes(b"x")
    (bench / "images" / "a.png").symlink_to(os.path.relpath(blobs / "abc", bench / "images"))
    assert resolve_media(bench, "images/a.png") == (blobs / "abc").resolve()


# --- item 5: text that is not valid Unicode -----------------------------------------------------
def _surrogate_snapshot(root):
    minimal_snapshot(root, "memory_update", [traj([session(DATE, turn("hi"))],
                                                  [{"question": "q?", "answer": "a"}])])
    f = next((root / "benchmark" / "management").glob("Memory*.json"))
    f.write_text(f.read_text().replace('"hi"', '"bad \\ud800 text"'))
    return root


def test_lone_surrogate_is_a_listed_problem(tmp_path, capsys):
    snap = _surrogate_snapshot(tmp_path)
    code, out, err = cli(capsys, "validate", "--data", str(snap))
    assert code == 1
    assert "trajectory #0: text is not valid Unicode (lone surrogate in " \
           "conversation[0].turns[0].content (U+D800))" in out
    code, out, err = cli(capsys, "show", "management/memory_update/0/q0", "--data", str(snap))
    assert "not valid Unicode" in one_line_error(code, err)
    code, out, err = cli(capsys, "run", "--no-progress", "--tasks", "memory_update", "--data",
                         str(snap), "--output_path", str(tmp_path / "out"))
    assert "not valid Unicode" in one_line_error(code, err)


@pytest.mark.parametrize("args", [[], ["--json"], ["--deep", "--json"], ["--deep"]])
def test_non_utf8_file_name_in_verify(sample_copy, args):
    name = os.path.join(os.fsencode(sample_copy / "benchmark" / "images"), b"bad\xffname.png")
    with open(name, "wb") as fh:
        fh.write(b"x")
    r = cli_subprocess("verify", "--data", str(sample_copy), "--no-progress", *args)
    assert b"Traceback" not in r.stderr and r.returncode == 1
    r.stdout.decode("utf-8")                           # the output is valid UTF-8 ...
    if "--json" in args:
        obj = json.loads(r.stdout)                     # ... and valid JSON
        assert {"kind": "unsafe", "path": "benchmark/images/bad\\xffname.png",
                "detail": "file name is not valid UTF-8; not opened", "fatal": True} \
            in obj["findings"]
    else:
        assert b"unsafe benchmark/images/bad\\xffname.png: file name is not valid UTF-8" in r.stdout


# --- item 8: deeply nested JSON ----------------------------------------------------------------
@pytest.mark.parametrize("shape", ["file", "answer"])
def test_deeply_nested_json_is_a_listed_problem(tmp_path, capsys, shape):
    minimal_snapshot(tmp_path, "memory_update", [traj([session(DATE, turn("hi"))],
                                                      [{"question": "q?", "answer": "a"}])])
    f = next((tmp_path / "benchmark" / "management").glob("Memory*.json"))
    if shape == "file":
        f.write_text("[" * 200_000 + "]" * 200_000)
        want = "JSON nested too deeply to read"
    else:
        # 500 levels: json reads it (5,000 it refuses, the case above), later writers would not
        f.write_text(f.read_text().replace('"answer": "a"', '"answer": ' + "[" * 500 + "]" * 500))
        want = "field 'answer' is nested more than 100 levels deep"
    code, out, err = cli(capsys, "validate", "--data", str(tmp_path))
    assert code == 1 and want in out and "Traceback" not in err
    code, out, err = cli(capsys, "show", "management/memory_update/0/q0", "--data", str(tmp_path))
    assert want in one_line_error(code, err)
    code, out, err = cli(capsys, "run", "--no-progress", "--tasks", "memory_update", "--data",
                         str(tmp_path), "--output_path", str(tmp_path / "out"))
    assert want in one_line_error(code, err)


# --- item 11: verify --deep decodes by content ------------------------------------------------
def test_deep_verify_decodes_by_content_and_names_misnamed_and_empty_files(sample_copy, capsys):
    from test_verify import rewrite_sums

    images = sample_copy / "benchmark" / "images"
    (images / "0copy.mp4").write_bytes((images / "photo_bakery.png").read_bytes())
    (images / "empty.png").write_bytes(b"")
    (sample_copy / "benchmark" / "videos" / "empty.mp4").write_bytes(b"")
    rewrite_sums(sample_copy)
    code, out, err = cli(capsys, "verify", "--data", str(sample_copy), "--deep", "--json",
                         "--no-progress")
    obj = json.loads(out)
    bad = {(f["kind"], f["path"]): f["detail"] for f in obj["findings"] if f["fatal"]}
    assert bad == {
        ("misnamed", "benchmark/images/0copy.mp4"): "content is a image but the name says video",
        ("corrupt", "benchmark/images/empty.png"): "does not decode (ValueError: empty file (0 bytes))",
        ("corrupt", "benchmark/videos/empty.mp4"): "does not decode (ValueError: empty file (0 bytes))",
    }
    media = {m["path"]: m for m in obj["media"]}
    assert media["benchmark/images/photo_bakery.png"]["ok"]               # not called corrupt
    assert media["benchmark/images/0copy.mp4"]["type"] == "image"
    assert media["benchmark/images/empty.png"]["type"] == "empty" != "pdf"


def test_deep_verify_decodes_every_file_a_task_names_whatever_its_name(sample_copy, capsys):
    """A task's media with an extension no media kind has is decoded by its content too: random
    bytes are corrupt, a JPEG named .jfif decodes (it was passed without being opened)."""
    import io

    from PIL import Image
    from test_verify import rewrite_sums

    images = sample_copy / "benchmark" / "images"
    (images / "scan.jfif").write_bytes(bytes(range(100)))
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buf, format="JPEG")
    (images / "photo.jfif").write_bytes(buf.getvalue())
    task = sample_copy / "benchmark" / "reasoning" / "Cross Modal Relational Reasoning.json"
    data = json.loads(task.read_text())
    data[0]["questions"][0]["media"] = ["images/scan.jfif"]
    data[1]["questions"][0]["media"] = ["images/photo.jfif"]
    task.write_text(json.dumps(data))
    rewrite_sums(sample_copy)
    code, out, _ = cli(capsys, "verify", "--data", str(sample_copy), "--deep", "--json",
                       "--no-progress")
    obj = json.loads(out)
    bad = {(f["kind"], f["path"]) for f in obj["findings"] if f["fatal"]}
    assert code == 1 and bad == {("corrupt", "benchmark/images/scan.jfif")}
    media = {m["path"]: m for m in obj["media"]}
    assert media["benchmark/images/photo.jfif"]["ok"] and media["benchmark/images/photo.jfif"]["type"] == "image"


# --- item 13: a trajectory id holding '/' stays addressable ------------------------------------
def test_trajectory_id_with_a_slash_is_addressable(tmp_path, capsys):
    minimal_snapshot(tmp_path, "memory_update", [traj([session(DATE, turn("hi"))],
                                                      [{"question": "which?", "answer": "a"}],
                                                      tid="a/b")])
    code, out, err = cli(capsys, "show", "management/memory_update/a/b/q0", "--data", str(tmp_path))
    assert code == 0 and "QUESTION: which?" in out
