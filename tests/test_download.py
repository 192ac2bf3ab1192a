"""`br-eval download` against a small Hub server on 127.0.0.1, through the real huggingface_hub.

The server answers the endpoints snapshot_download calls (revision info, recursive tree listing,
HEAD/GET resolve with X-Repo-Commit, ETag, Content-Length and Range) and the Hub's error headers
(X-Error-Code: RepoNotFound / RevisionNotFound / GatedRepo). The test session sets
HF_HUB_OFFLINE=1 (conftest); each test here switches the client on for itself with
`monkeypatch.setenv("HF_HUB_OFFLINE", "0")` and `HF_ENDPOINT=<server>`: beyondrecall.hub reads
both at call time (it sets huggingface_hub.constants.HF_HUB_OFFLINE for the duration of a call).
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from beyondrecall.sample import generate_sample
from beyondrecall.identity import snapshot_info
from beyondrecall.snapshot import REVISION_FILE, default_download_dir, resolve_data_dir
from evaluator.cli import main

REPO = "Moritze-Chenyu/BeyondRecall"
GATED = "some-lab/RealCompanion-mirror"   # a gated mirror a user names with --repo
TOKEN = "hf_test_access"


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in (".complete", ".sample", REVISION_FILE)
            and not p.relative_to(root).as_posix().startswith(".cache/")}


def _git_oid(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class FakeHub:
    """repos: name -> {"refs": {ref: sha}, "commits": {sha: {path: bytes}}, "gated": bool}."""

    def __init__(self, repos: dict):
        self.repos = repos
        self.log: list[tuple[str, str, str | None]] = []   # (method, path, Range header)
        self.drop_once: set[str] = set()     # file paths whose next GET is cut mid-body
        self.drop_always: set[str] = set()
        self.lock = threading.Lock()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                hub.handle(self, head=True)

            def do_GET(self):
                hub.handle(self, head=False)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    # -- helpers ------------------------------------------------------------------------------
    def gets(self, since: int = 0) -> list[str]:
        return [p for m, p, _ in self.log[since:] if m == "GET" and "/resolve/" in p]

    @staticmethod
    def send(h, status: int, body: bytes = b"", headers: dict | None = None, head=False):
        h.send_response(status)
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        if not head:
            h.wfile.write(body)

    def error(self, h, status: int, code: str, message: str, head=False):
        self.send(h, status, json.dumps({"error": message}).encode(),
                  {"X-Error-Code": code, "X-Error-Message": message,
                   "Content-Type": "application/json"}, head)

    def resolve_rev(self, repo: dict, rev: str) -> str | None:
        rev = unquote(rev)
        if rev in repo["commits"]:
            return rev
        return repo["refs"].get(rev)

    def handle(self, h, head: bool):
        url = urlsplit(h.path)
        path = unquote(url.path)
        with self.lock:
            self.log.append(("HEAD" if head else "GET", path, h.headers.get("Range")))
        parts = path.strip("/").split("/")
        # Model repos (api/models/..., org/name/resolve/...) are served like dataset repos.
        if parts[:2] == ["api", "models"]:
            parts[1] = "datasets"
        elif len(parts) >= 4 and parts[2] == "resolve":
            parts = ["datasets", *parts]
        if parts[:2] == ["api", "datasets"] and len(parts) == 4:  # repo info: the default branch
            parts += ["revision", "main"]
        if parts[:2] == ["api", "datasets"] and len(parts) >= 6:
            repo_id = "/".join(parts[2:4])
            kind, rev = parts[4], parts[5]
        elif parts[:1] == ["datasets"] and len(parts) >= 6 and parts[3] == "resolve":
            repo_id = "/".join(parts[1:3])
            kind, rev = "resolve", parts[4]
        else:
            return self.send(h, 404, b"no such endpoint", head=head)
        repo = self.repos.get(repo_id)
        if repo is None:
            return self.error(h, 401, "RepoNotFound", "Repository not found", head)
        sha = self.resolve_rev(repo, rev)
        if sha is None:
            return self.error(h, 404, "RevisionNotFound", f"Invalid rev id: {rev}", head)
        files = repo["commits"][sha]
        if kind == "revision":
            body = {"id": repo_id, "sha": sha, "private": False,
                    "gated": "manual" if repo.get("gated") else False,
                    "siblings": [{"rfilename": p} for p in files]}
            return self.send(h, 200, json.dumps(body).encode(),
                             {"Content-Type": "application/json"}, head)
        if kind == "tree":
            prefix = "/".join(parts[6:])
            recursive = parse_qs(url.query).get("recursive", ["False"])[0].lower() == "true"
            entries, folders = [], set()
            for p, data in files.items():
                if prefix and not p.startswith(prefix + "/"):
                    continue
                rest = p[len(prefix) + 1:] if prefix else p
                if not recursive and "/" in rest:
                    folders.add((prefix + "/" if prefix else "") + rest.split("/")[0])
                    continue
                entries.append({"type": "file", "path": p, "size": len(data), "oid": _git_oid(data)})
                if recursive:
                    segs = p.split("/")[:-1]
                    folders.update("/".join(segs[:i + 1]) for i in range(len(segs)))
            entries += [{"type": "directory", "path": f, "oid": "0" * 40} for f in sorted(folders)]
            return self.send(h, 200, json.dumps(entries).encode(),
                             {"Content-Type": "application/json"}, head)
        # resolve
        if repo.get("gated") and h.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self.error(h, 401, "GatedRepo",
                              f"Access to dataset {repo_id} is restricted. You must have access "
                              f"to it and be authenticated to access it. Please log in.", head)
        file_path = "/".join(parts[5:])
        data = files.get(file_path)
        if data is None:
            return self.error(h, 404, "EntryNotFound", f"{file_path} does not exist", head)
        headers = {"X-Repo-Commit": sha, "ETag": f'"{_git_oid(data)}"', "Accept-Ranges": "bytes",
                   "Content-Type": "application/octet-stream"}
        start = 0
        rng = h.headers.get("Range")
        if rng and rng.startswith("bytes=") and not head:
            start = int(rng[6:].split("-")[0])
        body = data[start:]
        status = 206 if start else 200
        if start:
            headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        if head:
            return self.send(h, 200, data, headers, head=True)
        cut = False
        with self.lock:
            if file_path in self.drop_always:
                cut = True
            elif file_path in self.drop_once:
                self.drop_once.discard(file_path)
                cut = True
        if not cut:
            return self.send(h, status, body, headers)
        # Promise the whole body, send half of it, then drop the connection.
        h.send_response(status)
        for k, v in headers.items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body[: max(1, len(body) // 2)])
        h.wfile.flush()
        h.close_connection = True
        try:
            h.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory):
    base = tmp_path_factory.mktemp("hub-src")
    return {"new": _files(generate_sample(base / "seed0")),
            "old": _files(generate_sample(base / "seed1", seed=1))}


SHA_NEW, SHA_OLD, SHA_RC = "b" * 40, "a" * 40, "c" * 40


@pytest.fixture
def hub(snapshots, monkeypatch):
    rc_files = {"README.md": b"# RealCompanion (test stand-in)\n",
                "data/reconstruction.jsonl": b'{"id": 1, "text": "hello"}\n'}
    repos = {
        REPO: {"refs": {"main": SHA_NEW, "v1.0.0": SHA_OLD},
               "commits": {SHA_NEW: dict(snapshots["new"]), SHA_OLD: dict(snapshots["old"])}},
        GATED: {"refs": {"main": SHA_RC}, "commits": {SHA_RC: rc_files}, "gated": True},
    }
    with FakeHub(repos) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        monkeypatch.setenv("HF_HUB_OFFLINE", "0")
        monkeypatch.delenv("HF_TOKEN", raising=False)
        yield server


def cli(capsys, *argv):
    code = main(["download", "--no-progress", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line_error(err: str) -> str:
    lines = [l for l in err.splitlines() if l.strip()]
    assert "Traceback" not in err
    assert len(lines) == 1 and lines[0].startswith("br-eval: error: "), err
    return lines[0]


def test_download_records_the_commit_and_verifies(hub, snapshots, tmp_path, capsys):
    dest = tmp_path / "dl"
    code, out, err = cli(capsys, "--local-dir", str(dest), "--workers", "3")
    assert code == 0, err
    assert _files(dest) == snapshots["new"]
    record = json.loads((dest / REVISION_FILE).read_text())
    assert record["repo"] == REPO and record["commit"] == SHA_NEW and record["revision"] == "main"
    assert snapshot_info(dest).revision == SHA_NEW
    assert f"{REPO}@{SHA_NEW}" in err
    assert "OK" in out  # verified after the download
    assert any(m == "HEAD" and "/resolve/" in p for m, p, _ in hub.log)
    assert any("/revision/main" in p for _, p, _ in hub.log)
    assert any(f"/tree/{SHA_NEW}" in p for _, p, _ in hub.log)


def test_revision_pin(hub, snapshots, tmp_path, capsys):
    for rev in ("v1.0.0", SHA_OLD):
        dest = tmp_path / rev[:6]
        code, _, err = cli(capsys, "--local-dir", str(dest), "--revision", rev)
        assert code == 0, err
        assert (dest / "benchmark/images/photo_harbour.png").read_bytes() == \
            snapshots["old"]["benchmark/images/photo_harbour.png"]
        record = json.loads((dest / REVISION_FILE).read_text())
        assert record["commit"] == SHA_OLD and record["revision"] == rev
    assert snapshots["old"]["benchmark/images/photo_harbour.png"] != \
        snapshots["new"]["benchmark/images/photo_harbour.png"]


def test_dropped_connection_is_resumed_with_a_range_request(hub, snapshots, tmp_path, capsys,
                                                            monkeypatch):
    import huggingface_hub.constants as hc
    import huggingface_hub.file_download as fd

    # The client resumes from the last complete read chunk (10 MB by default); shrink the chunk
    # so this 20 KB file shows the Range request, and skip the client's 1 s retry pause.
    monkeypatch.setattr(hc, "DOWNLOAD_CHUNK_SIZE", 1024)
    monkeypatch.setattr(fd, "time", SimpleNamespace(sleep=lambda s: None))
    target = "benchmark/videos/clip_parade.mp4"
    hub.drop_once.add(target)
    dest = tmp_path / "dl"
    code, out, err = cli(capsys, "--local-dir", str(dest))
    assert code == 0, err
    assert (dest / target).read_bytes() == snapshots["new"][target]
    ranged = [r for m, p, r in hub.log if m == "GET" and p.endswith(target) and r]
    assert len(ranged) == 1 and ranged[0].startswith("bytes=")
    assert 0 < int(ranged[0][6:].split("-")[0]) < len(snapshots["new"][target])
    assert "OK" in out


def test_interrupted_run_then_rerun_fetches_only_what_is_missing(hub, snapshots, tmp_path,
                                                                   capsys, monkeypatch):
    import huggingface_hub.file_download as fd

    monkeypatch.setattr(fd, "time", SimpleNamespace(sleep=lambda s: None))  # skip retry pauses
    target = "benchmark/videos/clip_kitchen.mp4"
    hub.drop_always.add(target)
    dest = tmp_path / "dl"
    code, _, err = cli(capsys, "--local-dir", str(dest), "--workers", "2")
    assert code == 1
    line = one_line_error(err)
    assert "interrupted" in line and "rerun `br-eval download` to resume" in line
    assert not (dest / target).exists() and not (dest / REVISION_FILE).exists()
    done_before = {p for p in snapshots["new"] if (dest / p).is_file()}
    assert len(done_before) >= len(snapshots["new"]) // 2

    hub.drop_always.clear()
    mark = len(hub.log)
    code, out, err = cli(capsys, "--local-dir", str(dest), "--workers", "2")
    assert code == 0, err
    fetched = {p.split(f"/resolve/{SHA_NEW}/", 1)[1] for p in hub.gets(mark)}
    assert target in fetched
    assert not fetched & done_before  # finished files were not transferred again
    assert _files(dest) == snapshots["new"] and "OK" in out


def test_realcompanion_alone_says_where_the_paper_publishes_it(hub, tmp_path, capsys,
                                                               monkeypatch):
    """No source names a Hub repository for RealCompanion: nothing is fetched, nothing guessed."""
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    mark = len(hub.log)
    code, out, err = cli(capsys, "--dataset", "realcompanion")
    assert code == 1 and out == "" and "Traceback" not in err
    assert len(hub.log) == mark                       # no request at all
    assert len([l for l in err.splitlines() if l.strip()]) == 1   # one paragraph
    for needed in ("OSF", "anonymous.4open.science", "five files", "SHA256SUMS",
                   "--rc-data DIR", "br-eval verify --rc-data DIR", "--rc-adapter", "--repo"):
        assert needed in err, needed
    assert "Quislab" not in err and "huggingface.co/datasets" not in err
    assert not (tmp_path / "home" / "data").exists()


def test_gated_mirror_without_and_with_token(hub, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    mirror = ("--dataset", "realcompanion", "--repo", GATED)
    code, _, err = cli(capsys, *mirror)
    assert code == 1
    line = one_line_error(err)
    assert f"{GATED} is a gated dataset" in line and "no token" in line
    assert f"{hub.url}/datasets/{GATED}" in line and "HF_TOKEN" in line and "hf auth login" in line

    monkeypatch.setenv("HF_TOKEN", "hf_wrong")
    code, _, err = cli(capsys, *mirror)
    assert code == 1 and "your token has no access" in one_line_error(err)

    monkeypatch.setenv("HF_TOKEN", TOKEN)
    code, out, err = cli(capsys, *mirror)
    assert code == 0, err
    dest = tmp_path / "home" / "data" / "RealCompanion"
    assert (dest / "data" / "reconstruction.jsonl").read_bytes().startswith(b'{"id": 1')
    assert json.loads((dest / REVISION_FILE).read_text())["commit"] == SHA_RC
    assert f"--rc-data {dest}" in err and "publishes no SHA256SUMS" in err


def test_unknown_repo_and_revision(hub, tmp_path, capsys):
    code, _, err = cli(capsys, "--repo", "nobody/nothing", "--local-dir", str(tmp_path / "x"))
    assert code == 1 and "dataset nobody/nothing not found" in one_line_error(err)
    code, _, err = cli(capsys, "--revision", "v9", "--local-dir", str(tmp_path / "y"))
    assert code == 1 and "revision 'v9' does not exist" in one_line_error(err)


def test_offline_with_nothing_cached_then_with_a_copy(hub, tmp_path, capsys, monkeypatch):
    dest = tmp_path / "dl"
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    code, _, err = cli(capsys, "--local-dir", str(dest))
    assert code == 1
    line = one_line_error(err)
    assert "offline" in line and "HF_HUB_OFFLINE" in line
    assert hub.log == []  # not a single request

    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    assert cli(capsys, "--local-dir", str(dest))[0] == 0
    mark = len(hub.log)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    code, out, err = cli(capsys, "--local-dir", str(dest))
    assert code == 0, err
    assert "offline" in err and SHA_NEW in err and "OK" in out
    assert len(hub.log) == mark
    # a pin the copy does not hold is one line, not a success citing another commit
    for pin in ("v1.0.0", SHA_OLD):
        code, _, err = cli(capsys, "--local-dir", str(dest), "--revision", pin)
        assert code == 1 and f"not --revision {pin}" in one_line_error(err)
    # an incomplete copy: verify names what is missing, and the last line says what to do
    next(p for p in (dest / "benchmark").rglob("*.png")).unlink()
    code, _, err = cli(capsys, "--local-dir", str(dest))
    assert code == 1 and "rerun without HF_HUB_OFFLINE" in err.strip().splitlines()[-1]


def test_server_unreachable(tmp_path, capsys, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    code, _, err = cli(capsys, "--local-dir", str(tmp_path / "dl"))
    assert code == 1 and "cannot" in one_line_error(err)


def test_disk_full(hub, tmp_path, capsys, monkeypatch):
    import errno

    import beyondrecall.hub as hubmod
    import huggingface_hub.file_download as fd

    # Found before any transfer: the files do not fit.
    monkeypatch.setattr(hubmod.shutil, "disk_usage", lambda p: SimpleNamespace(free=1000))
    code, _, err = cli(capsys, "--local-dir", str(tmp_path / "a"))
    line = one_line_error(err)
    assert code == 1 and "disk full" in line and "free some space" in line
    assert hub.gets() == []
    monkeypatch.undo()
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")

    # Or while writing (ENOSPC from the file system).
    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fd, "_chmod_and_move", full)
    code, _, err = cli(capsys, "--local-dir", str(tmp_path / "b"))
    assert code == 1 and "disk full" in one_line_error(err)


def test_default_folder_is_where_the_other_commands_look(hub, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BR_EVAL_DATA", raising=False)
    code, _, err = cli(capsys)
    assert code == 0, err
    assert (default_download_dir() / REVISION_FILE).is_file()
    assert resolve_data_dir(None) == default_download_dir()


def test_verification_failure_after_download_exits_1(hub, snapshots, tmp_path, capsys):
    files = hub.repos[REPO]["commits"][SHA_NEW]
    files["benchmark/images/photo_museum.png"] = b"tampered on the server"
    code, out, err = cli(capsys, "--local-dir", str(tmp_path / "dl"))
    assert code == 1
    assert "mismatch benchmark/images/photo_museum.png" in out
