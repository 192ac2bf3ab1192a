"""Issue 13: read the real release whatever its exact shape (task files, PDF maps, checksum
lines, the card's fingerprint and counts), and every generator variant gives the same results."""

import json
import os
import shutil
from pathlib import Path

import pytest

from beyondrecall import load_tasks
from beyondrecall.card import CARD_FINGERPRINT
from beyondrecall.errors import DataError
from beyondrecall.loader import discover_task_files, task_name_for_stem
from beyondrecall.sample import VARIANTS, generate_sample
from beyondrecall.identity import snapshot_info
from beyondrecall.pdfmap import read_pdf_map, read_pdf_preprocessing
from evaluator.cli import main
from snapshot_builder import minimal_snapshot


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    root = tmp_path_factory.mktemp("variants")
    return {v: generate_sample(root / v, variant=v) for v in VARIANTS}


def _journal(path, task):
    rows = [json.loads(l) for l in (path / f"samples_{task}.jsonl").read_text().splitlines()]
    keep = ("key", "prediction", "metrics", "inputs")
    return sorted(({k: r.get(k) for k in keep} for r in rows), key=lambda r: r["key"])


def test_every_variant_loads_validates_verifies_and_runs_like_the_default(variants, tmp_path,
                                                                          capsys):
    default = variants["default"]
    want_tasks = load_tasks(default)
    want_pdf = read_pdf_map(default)
    tasks = "high_density_information_extraction,cross_modal_semantic_matching"
    runs = {}
    for v, snap in variants.items():
        got = load_tasks(snap)
        assert [(t.name, [(str(q.key), q.question, q.answer, q.media) for _, q in t.questions()])
                for t in got] == \
               [(t.name, [(str(q.key), q.question, q.answer, q.media) for _, q in t.questions()])
                for t in want_tasks], v
        assert {k: (e.original_pages, e.evidence_pages) for k, e in read_pdf_map(snap).items()} \
            == {k: (e.original_pages, e.evidence_pages) for k, e in want_pdf.items()}, v
        code, out, err = cli(capsys, "validate", "--data", str(snap))
        assert code == 0 and "no problems" in out and "ignored" not in out, (v, out, err)
        code, out, err = cli(capsys, "verify", "--data", str(snap), "--deep", "--no-progress")
        assert code == 0, (v, out, err)
        assert "misnamed" not in out and "corrupt" not in out
        out_dir = tmp_path / v
        code = main(["run", "--no-progress", "--tasks", tasks, "--data", str(snap),
                     "--agent", "agents_for_tests:RecordingAgent", "--output_path", str(out_dir)])
        assert code == 0, v
        runs[v] = {t: _journal(out_dir, t) for t in tasks.split(",")}
        capsys.readouterr()
    pages = [u["pages"] for r in runs["default"]["high_density_information_extraction"]
             for u in r["inputs"]["media_used"] if u["kind"] == "pdf"]
    assert pages and [2, 5] in [p[1:3] for p in pages]    # the cropped pages' original numbers
    for v, r in runs.items():
        assert r == runs["default"], v


def test_variant_pdf_maps_read_as_the_default(variants):
    want = read_pdf_map(variants["default"])
    assert sorted(want) == ["images/lease_summary_b.pdf", "images/report_a.pdf"]
    for v in ("pdfmap-list", "pdfmap-zero-based", "pdfmap-identity"):
        got = read_pdf_map(variants[v])
        assert {k: (e.original_pages, e.evidence_pages) for k, e in got.items()} == \
               {k: (e.original_pages, e.evidence_pages) for k, e in want.items()}, v
    ident = read_pdf_preprocessing(variants["pdfmap-identity"]).entries["images/club_handbook.pdf"]
    assert ident.identity and ident.original_sha256


@pytest.mark.parametrize("stem", ["memory_update", "MemoryUpdate", "memory-update",
                                  "Memory Update", "management_memory_update",
                                  "Management - Memory Update", "MEMORY UPDATE"])
def test_file_name_spellings(stem):
    assert task_name_for_stem(stem) == "memory_update"


def test_card_configs_win_over_the_folder_scan(tmp_path):
    minimal_snapshot(tmp_path)
    folder = tmp_path / "benchmark" / "management"
    (folder / "Memory Update.json").rename(folder / "data.json")
    (tmp_path / "README.md").write_text(
        "---\nconfigs:\n- config_name: management-memory_update\n  data_files:\n"
        "  - split: test\n    path: benchmark/management/data.json\n---\n# card\n")
    found = discover_task_files(tmp_path)
    assert found.files["memory_update"].name == "data.json"
    assert found.source["memory_update"] == "card config management-memory_update"
    assert found.notes == []
    assert len(load_tasks(tmp_path)) == 11


def test_missing_task_names_the_task_the_files_seen_and_the_flag(tmp_path, capsys):
    minimal_snapshot(tmp_path)
    folder = tmp_path / "benchmark" / "management"
    (folder / "Conflict Detection.json").rename(folder / "cd_final_v2.json")
    with pytest.raises(DataError) as exc:
        load_tasks(tmp_path, ["conflict_detection"])
    msg = str(exc.value)
    assert "no task file for conflict_detection (management)" in msg
    assert "benchmark/management/cd_final_v2.json" in msg
    assert "--task-file conflict_detection=PATH" in msg
    # the flag points at it, in validate and show alike
    code, out, err = cli(capsys, "validate", "--data", str(tmp_path), "--task-file",
                         f"conflict_detection={folder / 'cd_final_v2.json'}")
    assert code == 0, out + err
    assert "note: benchmark/management/cd_final_v2.json: not one of the management task files" \
        not in out
    code, out, err = cli(capsys, "show", "management/conflict_detection/0/q0", "--data", str(tmp_path),
                         "--task-file", "management/conflict_detection=benchmark/management/cd_final_v2.json")
    assert code == 0 and "QUESTION" in out
    code, out, err = cli(capsys, "validate", "--data", str(tmp_path), "--task-file", "nope=x.json")
    assert code == 1 and "unknown task 'nope'" in err and "Traceback" not in err


def test_two_files_for_one_task_is_an_error_only_for_that_task(tmp_path):
    minimal_snapshot(tmp_path)
    folder = tmp_path / "benchmark" / "management"
    shutil.copy(folder / "Memory Update.json", folder / "memory-update.json")
    assert len(load_tasks(tmp_path, ["conflict_detection"])) == 1
    with pytest.raises(DataError, match="more than one file.*--task-file memory_update=PATH"):
        load_tasks(tmp_path, ["memory_update"])


@pytest.mark.parametrize("content, expected", [
    ({"files": {"benchmark/a.pdf": {"kept_pages": [1, 3]}}}, {"a.pdf": (1, 3)}),
    ({"a.pdf": {"pages": [0, 2]}}, {"a.pdf": (1, 3)}),                        # 0-based
    ({"a.pdf": {"kept_page_indices": [1, 2]}}, {"a.pdf": (2, 3)}),            # index: 0-based
    ([{"path": "a.pdf", "original_pages": [2, 4]}], {"a.pdf": (2, 4)}),
    ({"entries": [{"pdf": "benchmark/a.pdf", "page_mapping": {"1": 5, "2": 7}}]}, {"a.pdf": (5, 7)}),
    ({"a.pdf": {"page_map": [{"cropped": 1, "original": 4}]}}, {"a.pdf": (4,)}),
    ({"a.pdf": [3, 4]}, {"a.pdf": (3, 4)}),
    ({"a.pdf": {"sha256": "ab" * 32}, "b.pdf": None}, {}),                    # identity maps
])
def test_pdf_map_shapes(tmp_path, content, expected):
    (tmp_path / "benchmark").mkdir()
    (tmp_path / "benchmark" / "PDF_PREPROCESSING.json").write_text(json.dumps(content))
    got = read_pdf_map(tmp_path)
    assert {k: v.original_pages for k, v in got.items()} == expected


@pytest.mark.parametrize("content", ['"just a string"', "[1, 2, 3]", "{not json",
                                     '{"a.pdf": {"pages": "all"}}', "[" * 100000])
def test_pdf_map_unreadable_shape_is_one_warning_and_identity_maps(tmp_path, content, capsys):
    (tmp_path / "benchmark").mkdir()
    (tmp_path / "benchmark" / "PDF_PREPROCESSING.json").write_text(content)
    assert read_pdf_map(tmp_path) == {}
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("br-eval: warning: benchmark/PDF_PREPROCESSING.json")


def test_verify_deep_pdf_hash_rules(sample_copy, capsys):
    from test_verify import rewrite_sums

    bench = sample_copy / "benchmark"
    m = json.loads((bench / "PDF_PREPROCESSING.json").read_text())
    m["files"]["images/report_a.pdf"]["sha256"] = "0" * 64           # the source's, say
    m["files"]["images/lease_summary_b.pdf"]["sha256"] = "not-a-hash"
    m["files"]["images/club_handbook.pdf"] = {"original_sha256": "1" * 64}   # identity map
    (bench / "PDF_PREPROCESSING.json").write_text(json.dumps(m))
    rewrite_sums(sample_copy)
    code, out, err = cli(capsys, "verify", "--data", str(sample_copy), "--deep", "--no-progress")
    assert code == 0, out + err
    assert "note benchmark/images/report_a.pdf: PDF_PREPROCESSING.json sha256 000000000000... is " \
           "not this file's (which the checksum lists confirm): taken as the original-file " \
           "hash, not checked" in out
    assert "note benchmark/images/club_handbook.pdf: PDF_PREPROCESSING.json lists the " \
           "original-file hash, not checked" in out
    assert "'not-a-hash' is not a sha256; not checked" in out
    # a hash named as the cropped file's is compared
    m["files"]["images/report_a.pdf"] = dict(m["files"]["images/report_a.pdf"],
                                             cropped_sha256="2" * 64)
    (bench / "PDF_PREPROCESSING.json").write_text(json.dumps(m))
    rewrite_sums(sample_copy)
    code, out, err = cli(capsys, "verify", "--data", str(sample_copy), "--deep", "--no-progress")
    assert code == 1 and "corrupt benchmark/images/report_a.pdf: sha256" in out


def test_bsd_checksum_lines_read_as_sha256sum_reads_them():
    from beyondrecall.sums import parse_sums

    h = "ab" * 32
    text = (f"SHA256 (images/a b.png) = {h}\n\\SHA256 (images/x\\ny.png) = {h}\n"
            f"SHA256 (odd) = (name).png) = {h}\nSHA1 (c.png) = {h}\n")
    entries, findings = parse_sums(text, "benchmark/SHA256SUMS", "benchmark")
    assert [e.target for e in entries] == ["benchmark/images/a b.png", "benchmark/images/x\ny.png",
                                           "benchmark/odd) = (name).png"]
    assert [f.kind for f in findings] == ["malformed"]


def test_fingerprint_note_in_verify_and_validate(sample_snapshot, capsys):
    fp = snapshot_info(sample_snapshot).inventory_fingerprint
    for cmd in ("verify", "validate"):
        code, out, err = cli(capsys, cmd, "--data", str(sample_snapshot), "--no-progress"
                             if cmd == "verify" else "--lenient-time")
        assert code == 0
        assert (f"note: inventory fingerprint {fp} (sha256 of the bytes of benchmark/SHA256SUMS) "
                f"differs from the card's {CARD_FINGERPRINT}") in out


def test_fingerprint_equal_to_the_card_is_said(tmp_path, monkeypatch):
    import beyondrecall.card as card
    from beyondrecall.identity import fingerprint_note

    minimal_snapshot(tmp_path)
    (tmp_path / "benchmark" / "SHA256SUMS").write_text("")
    info = snapshot_info(tmp_path)
    monkeypatch.setattr(card, "CARD_FINGERPRINT", info.inventory_fingerprint)
    assert snapshot_info(tmp_path).matches_card is True
    assert fingerprint_note(snapshot_info(tmp_path)).endswith("equals the card's")


def test_counts_against_the_card_and_release_stats(tmp_path, capsys):
    minimal_snapshot(tmp_path)
    (tmp_path / "benchmark" / "RELEASE_STATS.json").write_text(json.dumps({
        "trajectories": 11, "questions": 12,
        "tasks": {"management/memory_update": {"trajectories": 0, "questions": 0}},
        "source_counts": {"images": 1865}}))
    code, out, err = cli(capsys, "validate", "--data", str(tmp_path))
    assert code == 0, err
    notes = [l[len("note: "):] for l in out.splitlines() if l.startswith("note: ")]
    assert "conflict_detection: 1 trajectories and 1 QA pairs; the card's table says 71 and 71" in notes
    assert "memory_update: 0 trajectories and 0 QA pairs; the card's table says 116 and 156" in notes
    assert "trajectories: 10 in the snapshot; the card says 1,163" in notes
    assert "image referenced files: 0 in the snapshot; the card says 4,378" in notes
    assert "trajectories: 10 in the snapshot; RELEASE_STATS.json says 11" in notes
    assert "questions: 10 in the snapshot; RELEASE_STATS.json says 12" in notes
    assert not any("memory_update: 0 trajectories in the snapshot; RELEASE_STATS" in n for n in notes)
    assert any(n.startswith("RELEASE_STATS.json source_counts/images = 1865") for n in notes)


def test_content_fingerprint_without_sha256sums_keeps_resume_from_mixing(sample_snapshot,
                                                                         tmp_path, capsys):
    """Issue 17 item 7: with no benchmark/SHA256SUMS, data is identified by its task files."""
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        shutil.copytree(sample_snapshot, d)
        (d / "benchmark" / "SHA256SUMS").unlink()
    task = next((b / "benchmark" / "management").glob("Memory*.json"))
    data = json.loads(task.read_text())
    data[0]["questions"][0]["question"] += " (other data)"
    task.write_text(json.dumps(data))
    ia, ib = snapshot_info(a), snapshot_info(b)
    assert ia.fingerprint.startswith("tasks:") and ia.fingerprint_source == "task files"
    assert ia.fingerprint != ib.fingerprint
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--tasks", "memory_update", "--data", str(a),
                 "--output_path", str(out)]) == 0
    code = main(["run", "--no-progress", "--tasks", "memory_update", "--data", str(b),
                 "--output_path", str(out)])
    err = capsys.readouterr().err
    assert code != 0 and "data_fingerprint" in err


def _relink(link: Path, target: Path) -> None:
    """Put `link`'s bytes (through any link it is) at `target` and make `link` a relative symlink
    to it."""
    target.write_bytes(link.read_bytes())
    link.unlink()
    link.symlink_to(os.path.relpath(target, link.parent))


def _hub_cache(snapshot: Path, repo: Path) -> Path:
    """`snapshot` as `snapshot_download` without local_dir lays it out in the Hugging Face cache:
    repo/snapshots/<rev>/<path> -> ../../blobs/<sha256> (relative links, as the client writes)."""
    import hashlib

    snap, blobs = repo / "snapshots" / ("c" * 40), repo / "blobs"
    blobs.mkdir(parents=True)
    for src in sorted(snapshot.rglob("*")):
        if src.is_file():
            blob = blobs / hashlib.sha256(src.read_bytes()).hexdigest()
            blob.write_bytes(src.read_bytes())
            dst = snap / src.relative_to(snapshot)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.symlink_to(os.path.relpath(blob, dst.parent))
    return snap


def test_a_hugging_face_cache_snapshot_without_sha256sums_is_fingerprinted_by_content(
        sample_snapshot, tmp_path, capsys):
    """Task files that are symlinks into the cache repo's blobs/ are hashed (their bytes, as a
    plain copy's), and so is a link the loader reads (one inside the snapshot); a symlink leading
    out of both is still not read."""
    plain = tmp_path / "plain"
    shutil.copytree(sample_snapshot, plain)
    for sums in plain.rglob("SHA256SUMS"):
        sums.unlink()
    snap = _hub_cache(plain, tmp_path / "hub" / "datasets--someone--BeyondRecall")
    info, cached = snapshot_info(plain), snapshot_info(snap)
    assert cached.fingerprint_source == "task files" and cached.fingerprint == info.fingerprint
    # a run on the plain copy resumes on the cache's copy: the same data by content
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--tasks", "memory_update", "--limit", "2", "--data",
                 str(plain), "--output_path", str(out)]) == 0
    assert main(["run", "--no-progress", "--tasks", "memory_update", "--limit", "2", "--data",
                 str(snap), "--output_path", str(out)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    # a task file linked elsewhere inside the snapshot (as the loader reads it) is hashed by its
    # bytes: the same fingerprint ...
    task = next((snap / "benchmark" / "management").glob("Memory*.json"))
    _relink(task, snap / "memory_update_copy.json")
    assert snapshot_info(snap).fingerprint == info.fingerprint
    # ... and one escaping the cache repo is refused whole, in one line
    _relink(task, tmp_path / "outside.json")
    assert snapshot_info(snap).fingerprint is None
    code, _, err = cli(capsys, "run", "--no-progress", "--tasks", "memory_update", "--data",
                       str(snap), "--output_path", str(tmp_path / "run2"))
    assert code != 0 and err.count("\n") == 1 and "a symlink leading outside the snapshot" in err


def test_a_checksum_list_linked_from_outside_the_snapshot_is_not_its_fingerprint(sample_snapshot, tmp_path):
    """benchmark/SHA256SUMS follows the task files' link rule: a list inside the snapshot (or a
    Hugging Face cache's blobs/) reached by a link is read; one linked from outside is not read,
    and the fingerprint falls back to the task files' content."""
    snap = tmp_path / "snap"
    shutil.copytree(sample_snapshot, snap)
    sums = snap / "benchmark" / "SHA256SUMS"
    listed = snapshot_info(snap)
    assert listed.fingerprint_source == "benchmark/SHA256SUMS"
    _relink(sums, snap / "sums-copy")
    assert snapshot_info(snap).fingerprint == listed.fingerprint
    _relink(sums, tmp_path / "elsewhere-SHA256SUMS")
    info = snapshot_info(snap)
    assert info.fingerprint_source == "task files" and info.fingerprint.startswith("tasks:")


def test_only_a_hub_cache_folder_lends_its_blobs(sample_snapshot, tmp_path):
    """A folder of one's own called snapshots/ (no `datasets--owner--name` repo folder above it)
    gains no second root: a task file linked into its sibling blobs/ is not read."""
    from beyondrecall.paths import snapshot_roots

    plain = tmp_path / "plain"
    shutil.copytree(sample_snapshot, plain)
    for sums in plain.rglob("SHA256SUMS"):
        sums.unlink()
    cached = _hub_cache(plain, tmp_path / "hub" / "datasets--someone--BeyondRecall")
    own = _hub_cache(plain, tmp_path / "mine")
    assert len(snapshot_roots(cached)) == 2 and len(snapshot_roots(own)) == 1
    assert snapshot_info(cached).fingerprint == snapshot_info(plain).fingerprint
    assert snapshot_info(own).fingerprint != snapshot_info(plain).fingerprint


def test_task_file_flag_in_verify_and_prepare(tmp_path, capsys):
    minimal_snapshot(tmp_path / "snap")
    snap = tmp_path / "snap"
    folder = snap / "benchmark" / "reasoning"
    (folder / "Causal Intent Inference.json").rename(tmp_path / "cii.json")
    code, out, err = cli(capsys, "prepare", "--data", str(snap), "--cache-dir",
                         str(tmp_path / "cache"), "--no-progress")
    assert code == 1 and "--task-file causal_intent_inference=PATH" in err
    code, out, err = cli(capsys, "prepare", "--data", str(snap), "--cache-dir",
                         str(tmp_path / "cache"), "--no-progress",
                         "--task-file", f"causal_intent_inference={tmp_path / 'cii.json'}")
    assert code == 0, err
    # verify reads the media the pointed-at file names (here: one no list covers)
    data = json.loads((tmp_path / "cii.json").read_text())
    data[0]["conversation"][0]["turns"][0]["media"] = ["images/x.png"]
    (tmp_path / "cii.json").write_text(json.dumps(data))
    code, out, err = cli(capsys, "verify", "--data", str(snap), "--no-progress",
                         "--task-file", f"causal_intent_inference={tmp_path / 'cii.json'}")
    assert "uncovered benchmark/images/x.png: named in reasoning/causal_intent_inference" in out


# -- a gold answer that lists options but is no readable letter: a warning, never silence ------------
_MC_QUESTION = "Which colour did A paint the fence? (A) red (B) blue (C) green"


def _mc_snapshot(root, gold):
    from snapshot_builder import session, traj, turn

    return minimal_snapshot(root, "conflict_detection", [traj(
        [session("9:00 am on 1 May, 2024", turn("I painted the fence blue."), turn("Nice.", "B"))],
        [{"question": _MC_QUESTION, "answer": gold},
         {"question": "What did A paint?", "answer": "the fence"}])])


@pytest.mark.parametrize("gold, unread", [("The answer is B", True),
                                          ("B) blue, because A said so\nin May", True),
                                          ("B", False), ("(B) blue", False)])
def test_unreadable_gold_letter_warns_once_per_task_in_validate_and_run(tmp_path, capsys, gold,
                                                                        unread):
    snap = _mc_snapshot(tmp_path / "snap", gold)
    key = "management/conflict_detection/0/q0"
    code, out, err = cli(capsys, "validate", "--data", str(snap))
    assert code == 0, out + err
    assert ("multiple choice: conflict_detection: 1 question(s) list options, "
            f"{int(unread)} with a reference answer that is no option letter") in out
    warned = [l for l in (out + err).splitlines() if "warning:" in l]
    shown = " ".join(gold.split())
    if unread:
        assert len(warned) == 1, out + err
        assert warned[0] == (
            f"warning: conflict_detection: 1 of 1 question(s) listing options have a reference "
            f"answer that is no option letter (first: {key}, gold {shown!r}); scored as open "
            "answers; a gold letter is read as 'B', '(B) text', the option's text or a list of letters 'A, C'")
    else:
        assert warned == [], out + err

    # `run` and `score` print it once per task, as one line
    expected = [f"br-eval: warning: conflict_detection: 1 of 1 question(s) listing options have a "
                f"reference answer that is no option letter (first: {key}, gold {shown!r}); scored "
                "as open answers; a gold letter is read as 'B', '(B) text', the option's text or a list of letters 'A, C'"] if unread else []
    run = tmp_path / "run"
    code, out, err = cli(capsys, "run", "--no-progress", "--task", "conflict_detection", "--data",
                         str(snap), "--output_path", str(run))
    assert code == 0, out + err
    assert [l for l in (out + err).splitlines() if "warning:" in l] == expected, out + err
    lines = {r["key"]: r for r in map(json.loads, (run / "samples_conflict_detection.jsonl")
                                      .read_text().splitlines())}
    m = lines[key]["metrics"]
    assert m["gold_choice"] == (None if unread else "B")
    assert m.get("gold_unread", False) is unread
    assert m["primary_metric"] == ("token_f1" if unread else "mc_accuracy")
    assert "gold_unread" not in lines["management/conflict_detection/0/q1"]["metrics"]

    # `score` re-reads the same data and says the same line once, not per question
    code, out, err = cli(capsys, "score", str(run), "--no-progress")
    assert code == 0, out + err
    assert [l for l in (out + err).splitlines() if "warning:" in l] == expected, out + err


def test_a_long_gold_is_cut_and_escaped_in_the_warning(tmp_path, capsys):
    gold = "The answer is B \x1b[31m" + "because " * 30
    snap = _mc_snapshot(tmp_path, gold)
    code, out, err = cli(capsys, "validate", "--data", str(snap))
    assert code == 0, out + err
    warned = [l for l in out.splitlines() if l.startswith("warning:")]
    assert len(warned) == 1 and "\x1b" not in warned[0]
    shown = warned[0].split("gold ", 1)[1].split("); scored", 1)[0]
    assert shown.startswith("'The answer is B \\x1b[31mbecause because") and shown.endswith("...'")
    assert len(shown) < 100
