"""The sample snapshot generator: layout, determinism, checksums, real media, visibility cases."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

import pytest

import beyondrecall as br
from beyondrecall.identity import snapshot_info
from beyondrecall.pdfmap import read_pdf_map
from beyondrecall.records import DIMENSIONS
from beyondrecall.sample import FULL_COUNTS, TASK_FILES, generate_sample, main as sample_main
from beyondrecall.timestamps import parse_strict


def _sums(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        digest, name = line.split("  ", 1)
        out[name] = digest
    return out


def _all_files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_generation_is_deterministic_and_seed_dependent(sample_snapshot, tmp_path):
    again = generate_sample(tmp_path / "again")
    assert (again / "checksums" / "SHA256SUMS").read_bytes() == \
        (sample_snapshot / "checksums" / "SHA256SUMS").read_bytes()
    assert _all_files(again) == _all_files(sample_snapshot)
    other = generate_sample(tmp_path / "seed1", seed=1)
    a, b = _sums(sample_snapshot / "benchmark" / "SHA256SUMS"), _sums(other / "benchmark" / "SHA256SUMS")
    assert a["images/photo_harbour.png"] != b["images/photo_harbour.png"]
    assert a["videos/clip_parade.mp4"] != b["videos/clip_parade.mp4"]


def test_layout_matches_the_card(sample_snapshot):
    root = sample_snapshot
    for task, (dim, stem) in TASK_FILES.items():
        assert (root / "benchmark" / dim / f"{stem}.json").is_file(), task
    assert (root / "benchmark" / "management" / "Conflict Detection.json").is_file()
    assert (root / "benchmark" / "retrieval" / "High Density Information Extraction.json").is_file()
    for rel in ["benchmark/README.md", "benchmark/RELEASE_STATS.json",
                "benchmark/PDF_PREPROCESSING.json", "benchmark/SHA256SUMS",
                "metadata/VERSION.json", "metadata/task_stats.json", "docs/CHANGELOG.md",
                "checksums/SHA256SUMS", ".complete", ".sample"]:
        assert (root / rel).is_file(), rel
    assert json.loads((root / "metadata" / "VERSION.json").read_text())["version"] == "1.0.0"
    info = snapshot_info(root)
    assert info.is_sample and info.data_version == "1.0.0" and len(info.fingerprint) == 64
    kinds = {p.suffix for p in (root / "benchmark" / "images").iterdir()}
    assert {".png", ".jpg", ".pdf"} <= kinds
    assert all(p.suffix == ".mp4" for p in (root / "benchmark" / "videos").iterdir())
    size = sum((root / f).stat().st_size for f in _all_files(root))
    assert size < 2_000_000
    assert not [p for p in root.parent.iterdir() if p.name.startswith(".snapshot.tmp")]


def test_loader_reads_every_task_without_problems(sample_snapshot):
    loaded, problems = br.validate_snapshot(sample_snapshot)
    assert problems == []
    tasks = br.load_tasks(sample_snapshot)
    assert [t.name for t in tasks] == list(br.TASK_NAMES)
    stats = json.loads((sample_snapshot / "benchmark" / "RELEASE_STATS.json").read_text())
    assert stats["trajectories"] == sum(len(t.trajectories) for t in tasks)
    assert stats["turns"] == sum(tr.n_turns for t in tasks for tr in t.trajectories)
    for t in tasks:
        assert len(t.trajectories) >= 3, t.name
        assert all(len(tr.sessions) >= 3 and tr.n_turns >= 9 for tr in t.trajectories)
    questions = [q for t in tasks for _, q in t.questions()]
    assert any(q.timestamp is None for q in questions)
    assert sum(q.timestamp is not None for q in questions) == stats["questions_with_cutoff"] > 5
    assert any(q.media for q in questions)
    turns = [u for t in tasks for tr in t.trajectories for s in tr.sessions for u in s.turns]
    assert any(u.timestamp is not None for u in turns)
    assert {m.rsplit(".", 1)[1] for t in tasks for m in t.media_paths()} == {"png", "jpg", "pdf", "mp4"}


def test_raw_json_varies_optional_fields_and_time_formats(sample_snapshot):
    media_forms, raw_times = set(), []
    for path in (sample_snapshot / "benchmark").glob("*/*.json"):
        if path.parent.name not in DIMENSIONS:
            continue
        for tr in json.loads(path.read_text()):
            assert isinstance(tr["id"], int) and len(tr["persons"]) == 2
            for s in tr["conversation"]:
                raw_times.append(s["date"])
                for u in s["turns"]:
                    m = u.get("media", "absent")
                    media_forms.add("absent" if m == "absent" else "null" if m is None
                                    else "empty" if m == [] else "paths")
                    if "timestamp" in u:
                        raw_times.append(u["timestamp"])
            raw_times += [q["timestamp"] for q in tr["questions"] if q.get("timestamp")]
    assert media_forms == {"absent", "null", "empty", "paths"}
    assert any(" am on " in t or " pm on " in t for t in raw_times)           # the main format
    assert any(t.count(":") == 2 and " on " in t for t in raw_times)          # with seconds
    assert any(" on " in t and not t.split(" on ")[0].endswith(("am", "pm")) for t in raw_times)
    assert any(t[:2].isdigit() and t[2] == " " for t in raw_times)            # %d %B %Y %H:%M
    assert any("T" in t and "+02:00" in t for t in raw_times)                 # ISO with offset
    for t in raw_times:
        parse_strict(t)


def test_checksum_lists_cover_everything_and_hold(sample_snapshot):
    root = sample_snapshot
    top = _sums(root / "checksums" / "SHA256SUMS")
    assert set(top) == _all_files(root) - {"checksums/SHA256SUMS", ".complete", ".sample"}
    bench = _sums(root / "benchmark" / "SHA256SUMS")
    assert set(bench) == {f[len("benchmark/"):] for f in _all_files(root)
                          if f.startswith("benchmark/")} - {"SHA256SUMS"}
    for rel, digest in top.items():
        assert hashlib.sha256((root / rel).read_bytes()).hexdigest() == digest, rel
    for rel, digest in bench.items():
        assert top["benchmark/" + rel] == digest
    # Byte-identical copies under different names, as the release keeps repeated files.
    by_hash: dict[str, list[str]] = {}
    for rel, digest in bench.items():
        by_hash.setdefault(digest, []).append(rel)
    assert sum(len(v) > 1 for v in by_hash.values()) >= 2


def test_media_decodes(sample_snapshot):
    import av
    import pymupdf
    from PIL import Image

    bench = sample_snapshot / "benchmark"
    formats = set()
    for p in sorted((bench / "images").iterdir()):
        if p.suffix in (".png", ".jpg"):
            with Image.open(p) as im:
                im.load()
                formats.add(im.format)
                assert 64 <= im.width <= 160 and 64 <= im.height <= 160
                assert len(im.convert("RGB").getcolors(maxcolors=1 << 16)) > 5  # drawn, not blank
    assert formats == {"PNG", "JPEG"}
    pdf_map = read_pdf_map(sample_snapshot)
    assert len(pdf_map) >= 2
    for rel, entry in pdf_map.items():
        data = (bench / rel).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry.sha256
        with pymupdf.open(stream=data, filetype="pdf") as doc:
            assert doc.page_count == len(entry.original_pages) < entry.original_page_count
            first_evidence = min(entry.evidence_pages)
            page_text = doc[entry.original_pages.index(first_evidence)].get_text()
            assert f"Original page {first_evidence}" in page_text
    audio_flags = {}
    for p in sorted((bench / "videos").iterdir()):
        with av.open(str(p)) as c:
            v = c.streams.video[0]
            assert v.codec_context.name == "h264" and (v.width, v.height) == (96, 64)
            frames = [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]
            assert 20 <= len(frames) <= 75
            assert (frames[0] != frames[-1]).any()  # the box moved
            audio_flags[p.name] = bool(c.streams.audio)
            if c.streams.audio:
                assert c.streams.audio[0].codec_context.name == "aac"
    assert sum(not a for a in audio_flags.values()) == 1 and sum(audio_flags.values()) >= 2


def _find(tasks, pred):
    for t in tasks:
        for tr, q in t.questions():
            h = br.visible_history(tr, q)
            if pred(tr, q, h):
                return tr, q, h
    return None


def test_every_visibility_rule_is_exercised(sample_snapshot):
    tasks = br.load_tasks(sample_snapshot)

    def hides_late_turn(tr, q, h):
        # A turn stamped after the cutoff, inside a session dated before it, is not visible.
        if q.timestamp is None:
            return False
        shown = {(s.index, t.index) for s, t in h.turns()}
        return any(s.date <= q.timestamp and u.timestamp and u.timestamp > q.timestamp
                   and (s.index, u.index) not in shown and any(vs.index == s.index for vs in h.sessions)
                   for s in tr.sessions for u in s.turns)

    def moves_session_date(tr, q, h):
        return any(vs.date < vs.session.date for vs in h.sessions)

    def reorders_turns(tr, q, h):
        return any([vt.index for vt in vs.turns] != sorted(vt.index for vt in vs.turns)
                   for vs in h.sessions)

    def ties_by_index(tr, q, h):
        return any(len(vs.turns) > 1 and any(
            a.time == b.time and (a.turn.timestamp is None) != (b.turn.timestamp is None)
            and a.index < b.index for a, b in zip(vs.turns, vs.turns[1:])) for vs in h.sessions)

    def reorders_sessions(tr, q, h):
        return [vs.index for vs in h.sessions] != sorted(vs.index for vs in h.sessions)

    for rule in (hides_late_turn, moves_session_date, reorders_turns, ties_by_index,
                 reorders_sessions):
        assert _find(tasks, rule), rule.__name__
    tr, q, h = _find(tasks, moves_session_date)
    assert "Harbour Road" not in " ".join(t.turn.content for _, t in h.turns())
    files_out_of_order = [tr for t in tasks for tr in t.trajectories
                          if [s.date for s in tr.sessions] != sorted(s.date for s in tr.sessions)]
    assert files_out_of_order


def _history_text(h) -> str:
    return " ".join(t.turn.content for _, t in h.turns()).lower()


def test_content_reads_like_the_tasks(sample_snapshot):
    tasks = {t.name: t for t in br.load_tasks(sample_snapshot)}
    # Memory update: the cutoff answer is the older value, the full-history one the newer.
    pairs = [(tr.questions[0], tr.questions[1]) for tr in tasks["memory_update"].trajectories
             if len(tr.questions) >= 2 and tr.questions[1].timestamp is not None
             and tr.questions[0].question == tr.questions[1].question]
    assert pairs
    for full, cut in pairs:
        assert full.answer != cut.answer
    # Refusal: answers say the conversation does not say, or pick that option.
    for _, q in tasks["refusal_to_answer"].questions():
        assert "does not say" in q.answer or ("does not say" in q.question and q.answer in "ABCD")
    mc = [q for t in tasks.values() for _, q in t.questions() if "(A)" in q.question]
    assert mc and all(q.answer in ("A", "B", "C", "D") and "(D)" in q.question for q in mc)
    assert any("contradict" in q.question for _, q in tasks["conflict_detection"].questions())
    assert all(q.question.startswith("When") for _, q in tasks["temporal_anchoring"].questions())
    assert any(q.question.startswith("Summarize")
               for _, q in tasks["long_term_semantic_summary"].questions())
    # Answers are findable in the visible history often (a retrieval baseline can score), and
    # a cutoff answer never leaks a later value.
    findable = total = 0
    for t in tasks.values():
        for tr, q in t.questions():
            if q.answer in ("A", "B", "C", "D") or "does not say" in q.answer:
                continue
            total += 1
            findable += q.answer.lower().rstrip(".") in _history_text(br.visible_history(tr, q))
    assert total and findable / total > 0.4
    for full, cut in pairs:
        tr = next(x for x in tasks["memory_update"].trajectories if cut in x.questions)
        assert full.answer.lower() not in _history_text(br.visible_history(tr, cut))


def test_concurrent_generation_into_one_folder(tmp_path):
    dest = tmp_path / "race" / "snap"
    results, errors = [], []

    def run():
        try:
            results.append(generate_sample(dest))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and results == [dest] * 3
    assert os.listdir(dest.parent) == ["snap"]  # losers removed their temporary folders
    assert (dest / ".complete").is_file()
    _, problems = br.validate_snapshot(dest)
    assert problems == []


def test_refuses_to_write_into_a_foreign_folder(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(br.DataError, match="not a generated snapshot"):
        generate_sample(tmp_path / "mine")
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"
    assert os.listdir(tmp_path) == ["mine"]


def test_full_scale_has_the_cards_counts(tmp_path, capsys):
    assert sample_main([str(tmp_path / "full"), "--scale", "full"]) == 0
    assert "1163 trajectories, 1269 questions, 23775 sessions, 345738 turns" in capsys.readouterr().out
    stats = json.loads((tmp_path / "full" / "benchmark" / "RELEASE_STATS.json").read_text())
    assert stats["questions_with_cutoff"] == 40
    per_task = json.loads((tmp_path / "full" / "metadata" / "task_stats.json").read_text())
    for task, (n_traj, n_q) in FULL_COUNTS.items():
        entry = per_task[f"{br.TASK_DIMENSION[task]}/{task}"]
        assert (entry["trajectories"], entry["questions"]) == (n_traj, n_q)
    # Media are referenced by many paths but few distinct contents.
    assert stats["media"]["images"]["referenced_files"] > 5 * stats["media"]["images"]["distinct_content"]
    tasks = br.load_tasks(tmp_path / "full", ["memory_update", "temporal_anchoring"])
    assert len(tasks[0].trajectories) == 116 and tasks[0].n_questions == 156


# -- no data given: the evaluator's one fallback (evaluator/datasets.py) -------------------------
def test_resolving_data_never_generates_it(tmp_path, monkeypatch):
    """The reader finds data or says none was found; it writes nothing."""
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BR_EVAL_DATA", raising=False)
    with pytest.raises(br.NoDataError, match=r"no Beyond Recall data: pass --data DIR, set "
                                             r"\$BR_EVAL_DATA, or run `br-eval download`"):
        br.resolve_data_dir(None)
    assert not (tmp_path / "home").exists()
    with pytest.raises(br.DataError, match="no such folder") as err:
        br.resolve_data_dir(tmp_path / "absent")
    assert not isinstance(err.value, br.NoDataError)   # a wrong --data is never the sample


@pytest.mark.parametrize("suite,folder,notice", [
    ("beyondrecall", "sample-v1", "using the generated sample snapshot at "),
    ("realcompanion", "realcompanion-sample-v2", "using the generated RealCompanion sample at "),
])
def test_no_data_given_is_the_generated_sample_said_once(suite, folder, notice, tmp_path,
                                                         monkeypatch, capsys):
    from evaluator.datasets import data_dir

    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BR_EVAL_DATA", raising=False)
    first = data_dir(suite)
    err = capsys.readouterr().err
    assert first == tmp_path / "home" / folder and (first / ".sample").exists()
    assert err.count("\n") == 1 and err.startswith(f"br-eval: {notice}{first} ")
    stamp = (first / ".complete").stat().st_mtime_ns
    assert data_dir(suite, quiet=True) == first                    # kept, not written again
    assert (first / ".complete").stat().st_mtime_ns == stamp and capsys.readouterr().err == ""
    with pytest.raises(br.DataError, match="no such folder"):     # a wrong folder is an error
        data_dir(suite, tmp_path / "absent")
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("suite", ["beyondrecall", "realcompanion"])
def test_an_unwritable_home_gets_the_sample_in_a_folder_of_its_own(suite, tmp_path, monkeypatch,
                                                                    capsys):
    from evaluator.datasets import data_dir

    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "file" / "home"))   # mkdir fails here
    monkeypatch.delenv("BR_EVAL_DATA", raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    path = data_dir(suite, quiet=True)
    assert path.parent == tmp_path and path.name.startswith(f"br-eval-{suite}-sample-")
    assert (path / ".complete").exists() and (path / ".sample").exists()
