"""RealCompanion data: the loader on the generated sample, its errors, the sample itself."""

import json
import shutil
from pathlib import Path

import pytest

from beyondrecall.errors import DataError
from evaluator.realcompanion import counts
from evaluator.datasets import data_dir
from evaluator.realcompanion.data import load_participant, load_release
from evaluator.realcompanion.sample import DEFAULT_SCALE, generate_sample


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    return generate_sample(tmp_path_factory.mktemp("rc") / "sample")


@pytest.fixture()
def copy(sample, tmp_path) -> Path:
    dst = tmp_path / "release"
    shutil.copytree(sample, dst)
    return dst


def _rewrite(path: Path, edit) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    edit(rows)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_loader_reads_the_sample_with_the_documented_shape(sample):
    release = load_release(sample)
    assert release.is_sample
    assert [p.pid for p in release.participants] == [f"U{i:02d}" for i in range(1, 11)]
    sizes = sorted(len(p.messages) for p in release.participants)
    # two long relationships dominate the corpus, as in the paper (73% of messages)
    assert (sizes[-1] + sizes[-2]) / sum(sizes) > 0.6
    no_memory = [p.pid for p in release.participants
                 if not any(q.memory_bearing for q in p.scoreable_probes)]
    assert len(no_memory) == 3
    for part in release.participants:
        ids = [m.id for m in part.messages]
        assert len(set(ids)) == len(ids)
        assert [m.position for m in part.messages] == list(range(len(ids)))
        assert all(m.id == f"day{m.day}-{m.seq}" for m in part.messages)
        assert len(part.persona) >= 10 and part.claims and part.questions
        for probe in part.probes:
            assert part.messages[probe.position].id == probe.message_id
            assert part.messages[probe.position].speaker == "user"
            assert all(r < probe.position for r in probe.reference_positions)
            if probe.cold_open:      # a session opener
                assert not probe.reference_ids
                assert probe.position == 0 or part.messages[probe.position - 1].session != \
                    part.messages[probe.position].session
        for q in part.questions:
            assert q.visible_until == part.position(q.asked_after) + 1
            assert all(part.position(e) < q.visible_until for e in q.evidence_ids)
        claims = part.claims_by_id
        for probe in part.probes:
            assert all(c in claims for c in probe.profile_ids)
    memory = [q for p in release.participants for q in p.scoreable_probes if q.memory_bearing]
    thread = [q for p in release.participants for q in p.scoreable_probes if q.locus == "thread"]
    assert len(memory) >= 30 and len(thread) >= 60
    # memory-bearing references lie outside the thread, thread references right before the probe
    assert min(q.position - q.reference_positions[-1] for q in memory) >= 3
    assert max(q.position - q.reference_positions[0] for q in memory) >= 200
    assert max(q.position - q.reference_positions[0] for q in thread) <= 6


def test_counts_for_ls_agree_with_the_loader(sample):
    release = load_release(sample)
    found = counts(sample)
    # retrieval journals the same probes as chat (every scoreable probe and cold open); the
    # note says how many carry references (the retrieval metrics' own population)
    from evaluator.realcompanion.retrieval_task import task_probes

    assert found["realcompanion/retrieval"] == {
        "participants": 10, "units": "probes", "count": len(task_probes(release)),
        "note": f"{sum(len(p.retrieval_probes) for p in release.participants)} with references"}
    assert found["realcompanion/chat"]["count"] == sum(
        len(p.scoreable_probes) + len(p.cold_opens) for p in release.participants)
    assert found["realcompanion/question"]["count"] == sum(len(p.questions) for p in release.participants)
    assert found["realcompanion/reconstruction"]["count"] == 10


def test_the_sample_is_deterministic_and_scales(tmp_path, sample):
    again = generate_sample(tmp_path / "again")
    for f in sorted(sample.rglob("*.json*")):
        assert f.read_bytes() == (again / f.relative_to(sample)).read_bytes(), f
    small = load_release(generate_sample(tmp_path / "small", scale=DEFAULT_SCALE / 2))
    assert small.n_messages < load_release(sample).n_messages


def test_bm25_top_k_for_part_two_sees_only_the_past(sample):
    part = load_release(sample).participant("U10")
    probe = next(p for p in part.scoreable_probes if p.memory_bearing)
    top = part.bm25_top_k(probe.text, before=probe.position, k=10)
    assert len(top) == 10 and all(m.position < probe.position for m, _ in top)
    assert [s for _, s in top] == sorted((s for _, s in top), reverse=True)
    assert part.history(probe.position)[-1].position == probe.position - 1


def test_dangling_citation_names_file_line_and_id(copy):
    chat = copy / "U03" / "chat.jsonl"
    _rewrite(chat, lambda rows: rows[1].__setitem__("reference_ids", ["day999-1"]))
    with pytest.raises(DataError) as err:
        load_participant(copy / "U03")
    assert f"{chat}:2:" in str(err.value) and "'day999-1'" in str(err.value)


@pytest.mark.parametrize("file,field", [("profile.jsonl", "citations"),
                                        ("questions.jsonl", "evidence_ids"),
                                        ("chat.jsonl", "profile_ids")])
def test_every_cited_id_must_exist(copy, file, field):
    path = copy / "U09" / file
    _rewrite(path, lambda rows: rows[2].__setitem__(field, ["nope-7"]))
    with pytest.raises(DataError) as err:
        load_participant(copy / "U09")
    assert f"{path}:3:" in str(err.value) and "'nope-7'" in str(err.value) and field in str(err.value)


def test_persona_evidence_must_exist(copy):
    path = copy / "U02" / "persona.json"
    data = json.loads(path.read_text())
    slot = sorted(data["slots"])[0]
    data["slots"][slot]["evidence"] = ["day0-0"]
    path.write_text(json.dumps(data))
    with pytest.raises(DataError, match=r"persona.json: slot .* cites 'day0-0'"):
        load_participant(copy / "U02")


def test_malformed_line_names_file_and_line(copy):
    conv = copy / "U01" / "conversation.jsonl"
    lines = conv.read_text().splitlines()
    lines[4] = lines[4][:-10]            # a truncated write
    conv.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError) as err:
        load_release(copy)
    assert str(err.value).startswith(f"{conv}:5: not valid JSON")


def test_references_must_come_before_the_probe(copy):
    chat = copy / "U05" / "chat.jsonl"

    def edit(rows):
        row = next(r for r in rows if r["reference_ids"])
        row["reference_ids"] = [row["message_id"]]
    _rewrite(chat, edit)
    with pytest.raises(DataError, match="not before the probe"):
        load_participant(copy / "U05")


def test_out_of_order_messages_and_missing_files_are_errors(copy):
    conv = copy / "U04" / "conversation.jsonl"
    lines = conv.read_text().splitlines()
    lines[2], lines[3] = lines[3], lines[2]
    conv.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"conversation.jsonl:4: .*out of order"):
        load_participant(copy / "U04")
    (copy / "U06" / "questions.jsonl").unlink()
    with pytest.raises(DataError, match=r"U06: no file for the questions"):
        load_participant(copy / "U06")
    with pytest.raises(DataError, match=r"U06: no file for the questions"):
        load_release(copy)
    (copy / "empty").mkdir()
    with pytest.raises(DataError, match="no RealCompanion release found"):
        load_release(copy / "empty")


def test_default_data_is_the_cached_sample_with_one_notice(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    first = data_dir("realcompanion", None)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "generated RealCompanion sample" in err
    assert first.parent == tmp_path / "home" and (first / ".complete").exists()
    stamp = (first / "U01" / "conversation.jsonl").stat().st_mtime_ns
    assert data_dir("realcompanion", None, quiet=True) == first
    assert (first / "U01" / "conversation.jsonl").stat().st_mtime_ns == stamp   # not rewritten
    assert capsys.readouterr().err == ""
    with pytest.raises(DataError, match="no such folder"):
        data_dir("realcompanion", tmp_path / "absent")


def _rc_run(tmp_path, capsys, *extra) -> tuple[int, str, dict | None]:
    """`br-eval run` on two RealCompanion questions with the mock model, through the CLI: its
    exit code, what it printed (the header on stdout, notices and errors on stderr) and its
    results.json."""
    from evaluator.cli import main

    out = tmp_path / f"run{len(list(tmp_path.glob('run*')))}"
    code = main(["run", "--tasks", "realcompanion/question", "--model", "mock", "--limit", "2",
                 "--output_path", str(out), *extra])
    printed = capsys.readouterr()
    results = json.loads((out / "results.json").read_text()) if code == 0 else None
    return code, printed.err + printed.out, results


def _mirror(folder: Path) -> Path:
    """A RealCompanion release as `br-eval download --dataset realcompanion --repo ...` leaves it:
    the participant folders, the Hub client's .cache/ and the revision file (not a sample)."""
    generate_sample(folder, scale=0.02, seed=5)
    (folder / ".sample").unlink()
    (folder / ".complete").unlink()
    (folder / ".cache" / "huggingface").mkdir(parents=True)
    (folder / ".br-eval-revision.json").write_text('{"repo": "someone/rc-mirror", "commit": "abc"}')
    return folder


def test_a_downloaded_realcompanion_mirror_is_what_a_run_reads(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    monkeypatch.setenv("BR_EVAL_HOME", str(home))
    monkeypatch.delenv("BR_EVAL_RC_DATA", raising=False)
    mirror = _mirror(home / "data" / "RealCompanion")    # beyondrecall.hub.default_dir_for
    code, err, results = _rc_run(tmp_path, capsys)
    assert code == 0, err
    assert f"br-eval: RealCompanion data: {mirror}\n" in err and "sample" not in err
    assert results["config"]["rc_data"] == str(mirror)
    # $BR_EVAL_RC_DATA comes before the download folder, --rc_data before both
    other = _mirror(tmp_path / "elsewhere")
    monkeypatch.setenv("BR_EVAL_RC_DATA", str(other))
    code, err, results = _rc_run(tmp_path, capsys)
    assert code == 0 and results["config"]["rc_data"] == str(other), err
    code, err, results = _rc_run(tmp_path, capsys, "--rc_data", str(mirror))
    assert code == 0 and results["config"]["rc_data"] == str(mirror), err
    monkeypatch.setenv("BR_EVAL_RC_DATA", str(tmp_path / "absent"))
    code, err, _ = _rc_run(tmp_path, capsys)
    assert code != 0 and err == f"br-eval: error: $BR_EVAL_RC_DATA={tmp_path / 'absent'}: no such folder\n"


def test_a_download_folder_without_realcompanion_files_is_the_sample(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    monkeypatch.setenv("BR_EVAL_HOME", str(home))
    monkeypatch.delenv("BR_EVAL_RC_DATA", raising=False)
    folder = home / "data" / "RealCompanion"
    (folder / ".cache" / "huggingface" / "download").mkdir(parents=True)   # an interrupted download
    (folder / ".cache" / "huggingface" / "download" / "chat.jsonl.metadata").write_text("x")
    (folder / "README.md").write_text("# a mirror\n")
    (folder / "docs").mkdir()
    code, err, results = _rc_run(tmp_path, capsys)
    sample = home / "realcompanion-sample-v2"
    assert code == 0, err
    assert err.startswith(f"br-eval: using the generated RealCompanion sample at {sample} ")
    assert results["config"]["rc_data"] == str(sample)
    # a mirror holding some of the files is read, and reading it says what is missing
    shutil.rmtree(folder)
    _mirror(folder)
    (folder / "U03" / "questions.jsonl").unlink()
    code, err, _ = _rc_run(tmp_path, capsys)
    assert code != 0 and err.count("\n") == 1 and "sample" not in err
    assert f"{folder / 'U03'}: no file for the questions" in err


def _sha256sums(root: Path, skip=()) -> str:
    import hashlib

    return "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(root).as_posix()}\n"
                   for p in sorted(root.rglob("*.json*")) if p.name not in skip)


def test_verify_a_release_against_the_checksums_given_with_it(copy, capsys):
    from evaluator.cli import main

    def verify(*extra):
        code = main(["verify", "--rc-data", str(copy), *extra])
        out = capsys.readouterr()
        return code, out.out + out.err

    code, text = verify()                       # no list: nothing can be verified
    assert code == 1 and "missing SHA256SUMS: no checksum list" in text
    (copy / "SHA256SUMS").write_text(_sha256sums(copy))
    code, text = verify()
    assert code == 0 and "verified 50 files" in text and "OK" in text
    conv = copy / "U02" / "conversation.jsonl"
    conv.write_text(conv.read_text().replace("day1-1", "day1-1", 1) + "\n")
    code, text = verify()
    assert code == 1 and f"mismatch U02/conversation.jsonl: sha256 is" in text
    outside = copy.parent / "outside.txt"
    outside.write_text("not part of the release\n")
    (copy / "U01" / "link.txt").symlink_to(outside)
    (copy / "SHA256SUMS").write_text(_sha256sums(copy, skip={"questions.jsonl"})
                                     + "0" * 64 + "  ../outside.txt\n" + "0" * 64 + "  U01/link.txt\n")
    code, text = verify("--json")
    found = {(f["kind"], f["path"]) for f in json.loads(text.splitlines()[0])["findings"]}
    assert ("unsafe", "../outside.txt") in found and ("unsafe", "U01/link.txt") in found
    assert ("uncovered", "U07/questions.jsonl") in found and code == 1


def test_verify_finds_the_release_as_run_does(tmp_path, monkeypatch, capsys):
    """`verify --dataset realcompanion`: --rc-data, else $BR_EVAL_RC_DATA, else the download
    folder (realcompanion.data.rc_data_dir), the folder named on the first line."""
    from evaluator.cli import main

    home = tmp_path / "home"
    monkeypatch.setenv("BR_EVAL_HOME", str(home))
    monkeypatch.delenv("BR_EVAL_RC_DATA", raising=False)

    def verify(*extra):
        code = main(["verify", "--dataset", "realcompanion", *extra])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, err = verify()                   # nothing named or downloaded: never the sample
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("br-eval: error: no RealCompanion data: pass --rc_data DIR, set "
                          "$BR_EVAL_RC_DATA, or download a Hub mirror into ")
    mirror = _mirror(home / "data" / "RealCompanion")
    (mirror / "SHA256SUMS").write_text(_sha256sums(mirror))
    code, out, err = verify()
    assert code == 0, out + err
    assert out.splitlines()[0] == f"br-eval: RealCompanion data: {mirror}"
    assert out.splitlines()[-1].endswith(": OK")
    other = _mirror(tmp_path / "elsewhere")     # no checksum list: a finding
    monkeypatch.setenv("BR_EVAL_RC_DATA", str(other))
    code, out, err = verify()
    assert code == 1 and out.splitlines()[0] == f"br-eval: RealCompanion data: {other}"
    assert "missing SHA256SUMS: no checksum list" in out
    code, out, err = verify("--rc-data", str(mirror), "--json")   # stdout stays one object
    assert code == 0 and json.loads(out)["snapshot"] == str(mirror)
    assert err == f"br-eval: RealCompanion data: {mirror}\n"
    monkeypatch.setenv("BR_EVAL_RC_DATA", str(tmp_path / "absent"))
    code, out, err = verify()
    assert code == 1 and err == f"br-eval: error: $BR_EVAL_RC_DATA={tmp_path / 'absent'}: no such folder\n"
    # flags that only mean something for Beyond Recall are refused, not ignored
    for extra in (["--deep"], ["--strict"], ["--data", str(tmp_path)]):
        code, out, err = verify("--rc-data", str(mirror), *extra)
        assert code == 2 and out == "" and err == (
            f"br-eval verify: error: {extra[0]} is for Beyond Recall snapshots; a RealCompanion "
            "release is verified against its own SHA256SUMS only\n")
    assert main(["verify", "--dataset", "beyondrecall", "--rc-data", str(mirror)]) == 2
    assert "does not go with --dataset beyondrecall" in capsys.readouterr().err


def test_withdrawn_rows_are_never_scored_even_without_a_scoreable_field(copy, sample):
    before = load_release(sample)
    for folder in sorted(copy.glob("U*")):
        _rewrite(folder / "chat.jsonl", lambda rows: [r.pop("scoreable") for r in rows])
    after = load_release(copy)
    n = lambda rel: sum(len(p.scoreable_probes) for p in rel.participants)  # noqa: E731
    withdrawn = [q for p in after.participants for q in p.probes if not q.ok]
    assert withdrawn and not any(q.scoreable for q in withdrawn)
    assert n(after) == n(before)
    assert counts(copy)["realcompanion/chat"]["count"] == counts(sample)["realcompanion/chat"]["count"]
    # a row marked scoreable but withdrawn is still not scored
    _rewrite(copy / "U09" / "chat.jsonl",
             lambda rows: [r.__setitem__("scoreable", True) for r in rows if r["ok"] is False])
    assert n(load_release(copy)) == n(before)
    assert counts(copy)["realcompanion/chat"]["count"] == counts(sample)["realcompanion/chat"]["count"]


def test_a_malformed_message_time_names_file_and_line(copy):
    conv = copy / "U03" / "conversation.jsonl"
    _rewrite(conv, lambda rows: rows[6].__setitem__("time", "yesterday at 5"))
    with pytest.raises(DataError) as err:
        load_participant(copy / "U03")
    assert str(err.value).startswith(f"{conv}:7: time 'yesterday at 5' is not a date and time")


def test_the_paper_size_corpus_reproduces_the_papers_counts_by_construction(tmp_path):
    """br-eval's generated corpus at scale 1 is built to the paper's counts; a reader or
    population that drifts shows up here as a number that moved."""
    from evaluator.evaluate import evaluate

    root = generate_sample(tmp_path / "paper", scale=1.0)
    release = load_release(root)
    sizes = sorted(len(p.messages) for p in release.participants)
    assert (len(release.participants), release.n_messages, sizes[-1] + sizes[-2]) == \
        (10, 27_218, 19_870)
    probes = [q for p in release.participants for q in p.probes]
    scoreable = [q for p in release.participants for q in p.scoreable_probes]
    proportional = [q for q in scoreable if q.stratum == "proportional"]
    assert (len(probes), len(scoreable), len(proportional)) == (2_034, 1_533, 1_169)
    assert sum(q.memory_bearing for q in proportional) == 40
    assert sum(q.memory_bearing for q in scoreable) == 404
    assert sum(q.locus == "none" for q in scoreable) == 120
    assert sum(len(p.cold_opens) for p in release.participants) == 434
    # the reference-set population (Table 5, the contrasts): every scoreable probe with a referent
    assert sum(q.has_reference_set for q in scoreable) == 1_413 == 1_533 - 120
    assert counts(root)["realcompanion/chat"]["count"] == 1_533 + 434
    # the same populations through the retrieval task's journal and aggregation
    m = evaluate(["realcompanion/retrieval"], rc_data=root, output_path=tmp_path / "run",
                 progress=False)["realcompanion/retrieval"]
    d = m["demand_rate"]["estimate"]
    assert (d["k"], d["n"]) == (40, 1_169)
    assert m["window_coverage"]["n"] == 404
    cell = m["restraint"]["bm25_top"]
    assert (cell["auroc_memory_vs_no_referent"]["n_pos"], cell["auroc_memory_vs_no_referent"]["n_neg"],
            cell["auroc_memory_vs_cold_opens"]["n_neg"]) == (404, 120, 434)
    assert m["retrieval"]["true_gold"]["BM25"]["all"]["n_probes"] == 1_413
    # the detector's "6 of 40" population: the proportional stratum where its threshold is set
    assert (cell["detection_rate_proportional"]["n"], cell["false_alarms_proportional"]["n"],
            cell["n_proportional"]) == (40, 1_129, 1_169)
    # the offset-permuted control (memory-bearing probes) never holds a true reference (it held
    # one for 907 of the 1,413 probes when thread probes took part)
    lines = [json.loads(x) for x in
             (tmp_path / "run" / "samples_realcompanion_retrieval.jsonl").read_text().splitlines()]
    offsets = [(s["retrieval"]["gold"]["offset_permuted"], s["reference_ids"]) for s in lines
               if s["retrieval"] and s["retrieval"]["gold"]["offset_permuted"]]
    assert 0.9 * 404 < len(offsets) <= 404 and not any(set(g) & set(r) for g, r in offsets)
