"""`br-eval verify`: both SHA256SUMS layers, every kind of finding, --strict, --json, --deep, and
nothing outside the snapshot is ever touched."""

from __future__ import annotations

import builtins
import hashlib
import io
import json
import os
from pathlib import Path

import pytest

from beyondrecall import checksums
from evaluator.cli import main

MARKERS = {".complete", ".sample"}


def rewrite_sums(root: Path) -> None:
    """Recompute both lists over what is on disk now (as a careless re-publication would)."""
    def digest(p: Path) -> str:
        return hashlib.sha256(p.read_bytes()).hexdigest()

    bench = root / "benchmark"
    lines = sorted(f"{digest(p)}  {p.relative_to(bench).as_posix()}" for p in bench.rglob("*")
                   if p.is_file() and p.name != "SHA256SUMS")
    (bench / "SHA256SUMS").write_text("".join(l + "\n" for l in lines))
    top = sorted(f"{digest(p)}  {p.relative_to(root).as_posix()}" for p in root.rglob("*")
                 if p.is_file() and p.name not in MARKERS
                 and p.relative_to(root).as_posix() != "checksums/SHA256SUMS")
    (root / "checksums" / "SHA256SUMS").write_text("".join(l + "\n" for l in top))


def run(capsys, *argv):
    code = main(["verify", "--no-progress", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def findings(out: str) -> list[tuple[str, str]]:
    rows = []
    for line in out.splitlines():
        kind, _, rest = line.partition(" ")
        if kind in checksums.PROBLEM_KINDS:
            rows.append((kind, rest.split(": ", 1)[0]))
    return rows


def test_sample_verifies_clean(sample_snapshot, capsys):
    code, out, err = run(capsys, "--data", str(sample_snapshot))
    assert code == 0, out + err
    assert findings(out) == []
    assert "OK" in out and "Traceback" not in err
    n_files = len((sample_snapshot / "checksums" / "SHA256SUMS").read_text().splitlines())
    assert f"verified {n_files} files" in out


def test_each_file_is_hashed_once(sample_snapshot, monkeypatch):
    calls = []
    real = checksums.hash_file
    monkeypatch.setattr(checksums, "hash_file", lambda p, *a, **k: calls.append(p) or real(p, *a, **k))
    report = checksums.verify_snapshot(sample_snapshot, workers=2, progress=False)
    assert report.ok
    assert len(calls) == len(set(calls)) == report.files_hashed
    bench_entries = len((sample_snapshot / "benchmark" / "SHA256SUMS").read_text().splitlines())
    assert report.entries > report.files_hashed >= bench_entries  # benchmark files in both lists


def test_missing_file(sample_copy, capsys):
    (sample_copy / "benchmark" / "images" / "photo_museum.png").unlink()
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 1
    assert ("missing", "benchmark/images/photo_museum.png") in findings(out)


def test_mismatch(sample_copy, capsys):
    video = sample_copy / "benchmark" / "videos" / "clip_kitchen.mp4"
    data = bytearray(video.read_bytes())
    data[len(data) // 2] ^= 0xFF
    video.write_bytes(bytes(data))
    code, out, err = run(capsys, "--data", str(sample_copy))
    assert code == 1
    assert findings(out) == [("mismatch", "benchmark/videos/clip_kitchen.mp4")]
    assert "benchmark/SHA256SUMS line" in out and "checksums/SHA256SUMS line" in out
    assert "1 problem(s): 1 mismatch" in err


def test_malformed_line_reports_its_number(sample_copy, capsys):
    top = sample_copy / "checksums" / "SHA256SUMS"
    lines = top.read_text().splitlines()
    lines.insert(2, "this is not a checksum line")
    lines.insert(5, "abc123  benchmark/README.md")  # too short to be a sha256
    top.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 1
    bad = [l for l in out.splitlines() if l.startswith("malformed")]
    assert len(bad) == 2
    assert bad[0].startswith("malformed checksums/SHA256SUMS: line 3:")
    assert bad[1].startswith("malformed checksums/SHA256SUMS: line 6:")


def test_binary_marker_and_crlf_lines_are_accepted(sample_copy, capsys):
    top = sample_copy / "checksums" / "SHA256SUMS"
    text = top.read_text().replace("  ", " *", 3).replace("\n", "\r\n")
    top.write_text(text)
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 0, out


def test_duplicate_with_different_hashes(sample_copy, capsys):
    top = sample_copy / "checksums" / "SHA256SUMS"
    with top.open("a") as fh:
        fh.write(f"{'0' * 64}  docs/CHANGELOG.md\n")
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 1
    assert ("duplicate", "docs/CHANGELOG.md") in findings(out)
    # The same path listed twice with the same hash is harmless.
    lines = top.read_text().splitlines()[:-1]
    lines.append(next(l for l in lines if l.endswith("docs/CHANGELOG.md")))
    top.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 0, out


def test_unsafe_paths_are_reported_and_never_touched(sample_copy, tmp_path, capsys, monkeypatch):
    outside = tmp_path / "outside"
    outside.write_bytes(b"secret")
    outside_digest = hashlib.sha256(b"secret").hexdigest()
    link = sample_copy / "benchmark" / "images" / "sneaky.png"
    link.symlink_to(outside)
    top = sample_copy / "checksums" / "SHA256SUMS"
    with top.open("a") as fh:
        fh.write(f"{outside_digest}  ../outside\n")
        fh.write(f"{outside_digest}  {outside}\n")                      # absolute
        fh.write(f"{outside_digest}  benchmark/../../outside\n")
        fh.write(f"{outside_digest}  benchmark/images/sneaky.png\n")    # symlink leading out
    with (sample_copy / "benchmark" / "SHA256SUMS").open("a") as fh:
        fh.write(f"{outside_digest}  ../../outside\n")
        fh.write(f"{outside_digest}  ../metadata/VERSION.json\n")       # escapes benchmark/

    touched = []
    target = os.path.realpath(outside)

    def guard(fn):
        def wrapper(path, *a, **k):
            if isinstance(path, (str, bytes, os.PathLike)) and not isinstance(path, int):
                p = os.fsdecode(path)
                if os.path.abspath(p) == target or os.path.abspath(p) == str(outside):
                    touched.append((fn.__name__, p))
            return fn(path, *a, **k)
        wrapper.__name__ = fn.__name__
        return wrapper

    for mod, name in [(os, "open"), (os, "stat"), (os, "lstat"), (os, "readlink"),
                      (builtins, "open"), (io, "open")]:
        monkeypatch.setattr(mod, name, guard(getattr(mod, name)))
    code, out, _ = run(capsys, "--data", str(sample_copy), "--deep")
    monkeypatch.undo()
    assert touched == []
    assert code == 1
    unsafe = {p for k, p in findings(out) if k == "unsafe"}
    assert unsafe == {"../outside", str(outside), "benchmark/../../outside",
                      "benchmark/images/sneaky.png", "../../outside", "../metadata/VERSION.json"}
    assert "leads outside the snapshot" in out and "absolute path" in out
    assert "escapes its root" in out


def test_unlisted_is_fatal_only_with_strict(sample_copy, capsys):
    (sample_copy / "benchmark" / "images" / "extra.png").write_bytes(b"not listed")
    code, out, err = run(capsys, "--data", str(sample_copy))
    assert code == 0
    assert findings(out) == [("unlisted", "benchmark/images/extra.png")]
    assert "not fatal without --strict" in out
    code, out, _ = run(capsys, "--data", str(sample_copy), "--strict")
    assert code == 1 and ("unlisted", "benchmark/images/extra.png") in findings(out)


def test_uncovered_media_paths(sample_copy, capsys):
    # A media file the task files use, dropped from both lists.
    for rel, name in [("benchmark/SHA256SUMS", "images/report_a.pdf"),
                      ("checksums/SHA256SUMS", "benchmark/images/report_a.pdf")]:
        f = sample_copy / rel
        f.write_text("".join(l + "\n" for l in f.read_text().splitlines()
                             if not l.endswith("  " + name)))
    # Keep the lists' own hashes consistent so only the coverage problem remains.
    top = sample_copy / "checksums" / "SHA256SUMS"
    new_bench = hashlib.sha256((sample_copy / "benchmark" / "SHA256SUMS").read_bytes()).hexdigest()
    top.write_text("".join((new_bench + "  benchmark/SHA256SUMS\n") if l.endswith("  benchmark/SHA256SUMS")
                           else l + "\n" for l in top.read_text().splitlines()))
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 1
    assert sorted(findings(out)) == [("uncovered", "benchmark/images/report_a.pdf"),
                                     ("unlisted", "benchmark/images/report_a.pdf")]
    assert "named in retrieval/high_density_information_extraction" in out


def test_missing_list_and_missing_task_media(sample_copy, capsys):
    (sample_copy / "checksums" / "SHA256SUMS").unlink()
    task = sample_copy / "benchmark" / "retrieval" / "Temporal Anchoring.json"
    data = json.loads(task.read_text())
    data[0]["conversation"][0]["turns"][0]["media"] = ["images/ghost.png"]
    task.write_text(json.dumps(data))
    rewrite_sums(sample_copy)
    (sample_copy / "checksums" / "SHA256SUMS").unlink()
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 1
    rows = findings(out)
    assert ("missing", "checksums/SHA256SUMS") in rows
    assert ("uncovered", "benchmark/images/ghost.png") in rows


def test_json_output(sample_copy, capsys):
    (sample_copy / "benchmark" / "videos" / "clip_parade.mp4").unlink()
    code, out, err = run(capsys, "--data", str(sample_copy), "--json")
    assert code == 1
    obj = json.loads(out)  # exactly one JSON object on stdout
    assert obj["ok"] is False and obj["problems"] == 1
    assert obj["findings"] == [{"kind": "missing", "path": "benchmark/videos/clip_parade.mp4",
                                "detail": obj["findings"][0]["detail"], "fatal": True}]
    assert set(obj) >= {"snapshot", "files_hashed", "bytes_hashed", "lists", "counts", "summary"}
    assert obj["lists"] == {"checksums/SHA256SUMS": obj["lists"]["checksums/SHA256SUMS"],
                            "benchmark/SHA256SUMS": obj["lists"]["benchmark/SHA256SUMS"]}


def test_deep_reports_audio_and_catches_corrupt_media(sample_copy, capsys):
    code, out, _ = run(capsys, "--data", str(sample_copy), "--deep", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["ok"]
    videos = {m["path"]: m for m in obj["media"] if m["type"] == "video"}
    assert videos["benchmark/videos/clip_timelapse_silent.mp4"]["audio"] is False
    assert videos["benchmark/videos/clip_parade.mp4"]["audio"] is True
    assert videos["benchmark/videos/clip_parade.mp4"]["audio_codec"] == "aac"
    assert all(v["ok"] and v["codec"] == "h264" for v in videos.values())
    pdfs = {m["path"]: m for m in obj["media"] if m["type"] == "pdf"}
    assert pdfs["benchmark/images/report_a.pdf"]["pages"] == 4 == pdfs["benchmark/images/report_a.pdf"]["kept_pages"]

    bench = sample_copy / "benchmark"
    png = bench / "images" / "photo_bakery.png"
    png.write_bytes(png.read_bytes()[: len(png.read_bytes()) // 2])       # truncated image
    (bench / "images" / "lease_summary_b.pdf").write_bytes(b"%PDF-1.7\n garbage")
    video = bench / "videos" / "clip_kitchen.mp4"
    video.write_bytes(b"\x00" * 64 + video.read_bytes()[64:2000])          # broken video
    pdf_map = json.loads((bench / "PDF_PREPROCESSING.json").read_text())
    pdf_map["files"]["images/report_a.pdf"]["kept_pages"] = [1, 2, 5]     # page map disagrees
    (bench / "PDF_PREPROCESSING.json").write_text(json.dumps(pdf_map))
    rewrite_sums(sample_copy)  # the hashes alone can no longer tell
    code, out, _ = run(capsys, "--data", str(sample_copy))
    assert code == 0, out
    code, out, err = run(capsys, "--data", str(sample_copy), "--deep")
    assert code == 1
    corrupt = sorted(p for k, p in findings(out) if k == "corrupt")
    assert corrupt == ["benchmark/images/lease_summary_b.pdf", "benchmark/images/photo_bakery.png",
                       "benchmark/images/report_a.pdf", "benchmark/videos/clip_kitchen.mp4"]
    assert "4 pages but PDF_PREPROCESSING.json keeps 3" in out


def test_hugging_face_cache_layout_with_blob_symlinks(sample_snapshot, tmp_path, capsys):
    """snapshot_download without local_dir: files are symlinks into ../../blobs/."""
    repo = tmp_path / "datasets--x--y"
    snap = repo / "snapshots" / ("c" * 40)
    blobs = repo / "blobs"
    blobs.mkdir(parents=True)
    for src in sample_snapshot.rglob("*"):
        if src.is_file():
            rel = src.relative_to(sample_snapshot)
            blob = blobs / hashlib.sha256(src.read_bytes()).hexdigest()
            blob.write_bytes(src.read_bytes())
            dst = snap / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.symlink_to(os.path.relpath(blob, dst.parent))
    code, out, _ = run(capsys, "--data", str(snap), "--deep")
    assert code == 0, out


def test_usage_errors_exit_2(sample_snapshot, capsys):
    assert main(["verify", "--data", str(sample_snapshot), "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--no-such-flag"])
    assert exc.value.code == 2


def test_not_a_snapshot_is_one_line(tmp_path, capsys):
    code = main(["verify", "--data", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err


def test_deep_decodes_identical_copies_once(sample_snapshot):
    from media_cache.check import decode_check

    seen = []

    def decode(path, kind):
        seen.extend([path] if kind == "video" else [])
        return decode_check(path, kind)

    report = checksums.verify_snapshot(sample_snapshot, progress=False, decode=decode)
    videos = [m for m in report.media if m["type"] == "video"]
    # VID_0007.mp4 is a byte-identical copy of clip_parade.mp4: four files, three decodes.
    assert len(videos) == 4 and len(seen) == 3 and all(m["ok"] for m in videos)
    copy = next(m for m in videos if m["path"].endswith("VID_0007.mp4"))
    assert copy["audio"] is True
