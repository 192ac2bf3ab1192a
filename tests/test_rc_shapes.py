"""The RealCompanion reader on the plausible shapes of the real release (issue 24): each shape is
built on disk from the generated sample (other file names, JSON / JSONL / CSV, other field
spellings, ids only as day{n}-{j} keys, one folder per participant or one file per kind with a
participant column, inside an unpacked archive's folder) and must give the same records as
br-eval's own layout; a shape it cannot read is one line naming the file and the field; an
`--rc-adapter` reads anything else."""

import csv
import json
import shutil
import textwrap
from pathlib import Path

import pytest

from beyondrecall.errors import DataError
from evaluator.realcompanion import counts
from evaluator.realcompanion.data import load_release
from evaluator.realcompanion.sample import generate_sample


@pytest.fixture(scope="module")
def native(tmp_path_factory) -> Path:
    return generate_sample(tmp_path_factory.mktemp("rc") / "native", scale=0.04)


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def kinds(native: Path, pid: str) -> dict:
    folder = native / pid
    return {"conversation": rows_of(folder / "conversation.jsonl"),
            "profile": rows_of(folder / "profile.jsonl"),
            "persona": json.loads((folder / "persona.json").read_text()),
            "chat": rows_of(folder / "chat.jsonl"),
            "questions": rows_of(folder / "questions.jsonl")}


def pids(native: Path) -> list[str]:
    return sorted(d.name for d in native.iterdir() if d.is_dir())


def respell(row: dict, names: dict) -> dict:
    return {names.get(k, k): v for k, v in row.items()}


def odd_key(mid: str) -> str:        # day12-7 -> "Day 12_7": the same key in another spelling
    day, seq = mid[3:].split("-")
    return f"Day {day}_{seq}"


def write_csv(path: Path, rows: list[dict]) -> None:
    fields = sorted({k for r in rows for k in r})
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: (json.dumps(v) if isinstance(v, list) else
                            "" if v is None else str(v).lower() if isinstance(v, bool) else v)
                        for k, v in r.items()})


def same_records(a, b) -> None:
    assert [p.pid for p in a.participants] == [p.pid for p in b.participants]
    for pa, pb in zip(a.participants, b.participants):
        assert pa.messages == pb.messages, pa.pid
        assert pa.claims == pb.claims and pa.persona == pb.persona
        assert pa.probes == pb.probes and pa.questions == pb.questions


# -- shape 1: one folder per participant, other names, formats and spellings ---------------------
def folder_shape(native: Path, dest: Path) -> Path:
    for pid in pids(native):
        k = kinds(native, pid)
        out = dest / pid
        out.mkdir(parents=True)
        # conversation: CSV, no id column (ids are the day{n}-{j} keys), other field names
        write_csv(out / "messages.csv", [respell({x: v for x, v in m.items() if x != "id"},
                                                 {"speaker": "Role", "text": "Content",
                                                  "time": "timestamp", "session": "session_id"})
                                         for m in k["conversation"]])
        # profile: a JSON list, citations spelled "Day 3_4", audit verdicts in words
        (out / f"{pid}_claims.json").write_text(json.dumps([
            respell(c | {"citations": [odd_key(x) for x in c["citations"]],
                         "audit": (c["audit"] or "").replace("_", " ").title() or None},
                    {"id": "claim_id", "text": "claim", "citations": "cites", "audit": "verdict"})
            for c in k["profile"]]))
        # persona: slot rows in JSONL
        (out / "persona.jsonl").write_text("".join(
            json.dumps({"slot": name, **slot}) + "\n" for name, slot in k["persona"]["slots"].items()))
        # chat gold: an object holding one list, paper-ish field names and values
        strata = {"proportional": "natural-rate", "enriched": "enriched", "abstention": "cold open"}
        (out / "chat_gold.json").write_text(json.dumps({"participant": pid, "rows": [
            respell(r | {"stratum": strata[r["stratum"]], "locus": r["locus"].upper(),
                         "message_id": odd_key(r["message_id"]),
                         "reference_ids": [odd_key(x) for x in r["reference_ids"]],
                         "ok": "yes" if r["ok"] else "no"},
                    {"probe_id": "id", "message_id": "probe_dayid", "stratum": "bucket",
                     "gold_response": "gold", "grounding_ids": "grounding_dayids",
                     "reference_ids": "reference_dayids", "profile_ids": "profile_refs",
                     "rule": "ruleC", "on_screen": "on screen verdict"})
            for r in k["chat"]]}))
        # questions: JSONL with other names
        (out / "qa.jsonl").write_text("".join(json.dumps(respell(
            q, {"qid": "question_id", "question": "prompt", "answer": "gold_answer",
                "evidence_ids": "evidence", "asked_after": "cutoff"})) + "\n"
            for q in k["questions"]))
    return dest


# -- shape 2: one file per kind with a participant column, in an archive's folder -------------------
def column_shape(native: Path, dest: Path) -> Path:
    top = dest / "RealCompanion-release-v1"
    top.mkdir(parents=True)
    every = {pid: kinds(native, pid) for pid in pids(native)}
    write_csv(top / "conversation.csv", [{"participant_id": pid, **m} for pid, k in every.items()
                                         for m in k["conversation"]])
    (top / "profile.jsonl").write_text("".join(json.dumps({"pid": pid, **c}) + "\n"
                                               for pid, k in every.items() for c in k["profile"]))
    grouped = {}
    for pid, k in every.items():              # grouped persona objects: {"big_five": {...}}
        g: dict = {}
        for name, slot in k["persona"]["slots"].items():
            group, _, leaf = name.partition(".")
            g.setdefault(group, {})[leaf] = slot
        grouped[pid] = g
    (top / "persona.json").write_text(json.dumps(grouped))
    (top / "chat.json").write_text(json.dumps({pid: k["chat"] for pid, k in every.items()}))
    write_csv(top / "questions.csv", [{"subject": pid, **q} for pid, k in every.items()
                                      for q in k["questions"]])
    (dest / "README.txt").write_text("downloaded from OSF\n")
    return dest


def test_each_plausible_shape_gives_the_records_of_br_evals_layout(native, tmp_path):
    want = load_release(native)
    for name, build in (("folders", folder_shape), ("columns", column_shape)):
        root = build(native, tmp_path / name)
        got = load_release(root)
        same_records(got, want)
        assert counts(root)["realcompanion/chat"] == counts(native)["realcompanion/chat"], name
        assert counts(root)["realcompanion/retrieval"]["note"] == \
            counts(native)["realcompanion/retrieval"]["note"]
    # the retrieval journal's data fingerprint covers every file read, in any shape
    from evaluator.realcompanion.retrieval_task import release_fingerprint

    prints = {release_fingerprint(load_release(r)) for r in (native, tmp_path / "folders",
                                                              tmp_path / "columns")}
    assert len(prints) == 3


@pytest.mark.parametrize("case", ["speaker", "integer", "two-lists", "disagree", "participant",
                                  "dangling-day-key", "csv-cells"])
def test_a_shape_it_cannot_read_is_one_line_naming_file_and_field(native, tmp_path, case):
    root = folder_shape(native, tmp_path / "r")
    u = root / "U03"
    if case == "speaker":
        text = (u / "messages.csv").read_text().splitlines()
        text[4] = text[4].replace(",user,", ",robot,").replace(",companion,", ",robot,")
        (u / "messages.csv").write_text("\n".join(text) + "\n")
        expect = (f"{u / 'messages.csv'}:5: speaker 'robot' is not one of companion, user")
    elif case == "integer":
        text = (u / "messages.csv").read_text().splitlines()
        head = text[0].split(",")
        cells = next(csv.reader([text[2]]))
        cells[head.index("day")] = "twelve"
        text[2] = ",".join(json.dumps(c) if "," in c else c for c in cells)
        (u / "messages.csv").write_text("\n".join(text) + "\n")
        expect = f"{u / 'messages.csv'}:3: field 'day' should be an integer, got 'twelve'"
    elif case == "two-lists":
        data = json.loads((u / "chat_gold.json").read_text())
        data["extra"] = [{"x": 1}]
        (u / "chat_gold.json").write_text(json.dumps(data))
        expect = f"{u / 'chat_gold.json'}: expected a list of objects, or an object holding one"
    elif case == "disagree":
        rows = rows_of(u / "qa.jsonl")
        rows[1]["qid"] = "other"
        (u / "qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        expect = f"{u / 'qa.jsonl'}:2: fields 'question_id' and 'qid' both give qid and disagree"
    elif case == "participant":
        root = column_shape(native, tmp_path / "c")
        top = root / "RealCompanion-release-v1"
        rows = rows_of(top / "profile.jsonl")
        del rows[3]["pid"]
        (top / "profile.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        expect = f"{top / 'profile.jsonl'}:4: no participant field (participant, participantid, pid"
    elif case == "dangling-day-key":
        claims = json.loads((u / "U03_claims.json").read_text())
        claims[0]["cites"] = ["Day 999_1"]
        (u / "U03_claims.json").write_text(json.dumps(claims))
        expect = f"{u / 'U03_claims.json'}: row 1: citations cites 'Day 999_1', which is not in"
    else:
        with open(u / "messages.csv", "a") as fh:
            fh.write("1,2,3,4,5,6,7,8,9,10,11\n")
        expect = f"{u / 'messages.csv'}:"
    with pytest.raises(DataError) as err:
        load_release(root)
    line = str(err.value)
    assert "\n" not in line and line.startswith(expect), line


def test_two_files_of_one_kind_and_a_missing_kind_are_named(native, tmp_path):
    root = folder_shape(native, tmp_path / "r")
    shutil.copy(root / "U02" / "qa.jsonl", root / "U02" / "questions.json")
    with pytest.raises(DataError, match=r"U02: two files hold the questions: qa.jsonl and "
                                        r"questions.json; keep one"):
        load_release(root)
    (root / "U02" / "questions.json").unlink()
    (root / "U05" / "persona.jsonl").unlink()
    with pytest.raises(DataError, match=r"U05: no file for the persona"):
        load_release(root)


ADAPTER = textwrap.dedent('''
    """Reads a made-up shape: one JSON file per participant, {"log": [...], "facts": [...], ...}."""
    import json
    from pathlib import Path


    def read(root):
        out = {}
        for f in sorted(Path(root).glob("*.relationship")):
            d = json.loads(f.read_text())
            out[f.stem] = {"messages": d["log"], "claims": d["facts"], "persona": d["who"],
                           "chat_gold": d["probes"], "questions": d["qa"]}
        return out


    def broken(root):
        out = read(root)
        first = next(iter(out))
        out[first]["chat_gold"][2]["locus"] = "elsewhere"
        return out
''')


def odd_release(native: Path, folder: Path) -> Path:
    """The release in the made-up shape ADAPTER reads (and br-eval's reader does not)."""
    folder.mkdir(parents=True)
    for pid in pids(native):
        k = kinds(native, pid)
        (folder / f"{pid}.relationship").write_text(json.dumps(
            {"log": k["conversation"], "facts": k["profile"], "who": k["persona"],
             "probes": k["chat"], "qa": k["questions"]}))
    return folder


def use_adapter(tmp_path: Path, monkeypatch) -> None:
    """ADAPTER as the module my_rc_reader, importable from the working folder."""
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "my_rc_reader.py").write_text(ADAPTER)
    monkeypatch.chdir(tmp_path / "mods")


def test_an_adapter_reads_any_other_shape_through_every_command(native, tmp_path, capsys,
                                                                monkeypatch):
    from evaluator.cli import main

    src = odd_release(native, tmp_path / "odd")
    use_adapter(tmp_path, monkeypatch)
    with pytest.raises(DataError, match="no RealCompanion release found"):
        load_release(src)                            # the reader does not know this shape
    assert main(["ls", "--json", "--rc-data", str(src), "--rc-adapter", "my_rc_reader:read"]) == 0
    out = capsys.readouterr()
    rows = {r["task"]: r for r in json.loads(out.out)["tasks"]}
    assert rows["realcompanion/chat"]["count"] == counts(native)["realcompanion/chat"]["count"]
    assert "--rc-adapter my_rc_reader:read read" in out.err
    adapted = Path(out.err.split("are in ")[1].splitlines()[0])
    same_records(load_release(adapted), load_release(native))
    # a run journals through the adapted folder, which its settings record keeps
    assert main(["run", "--no-progress", "--tasks", "realcompanion/retrieval", "--limit", "3",
                 "--rc-data", str(src), "--rc-adapter", "my_rc_reader:read",
                 "--output_path", str(tmp_path / "run")]) == 0
    cfg = json.loads((tmp_path / "run" / "results.json").read_text())["config"]
    assert cfg["rc_data"] == str(adapted)
    capsys.readouterr()
    # the adapter's rows are checked like files: one line naming adapter, participant, row, field
    assert main(["ls", "--rc-data", str(src), "--rc-adapter", "my_rc_reader:broken"]) == 1
    err = [l for l in capsys.readouterr().err.splitlines() if "sample snapshot" not in l]
    assert len(err) == 1 and err[0].startswith(
        "br-eval: error: --rc-adapter my_rc_reader:broken: participant 'U01' chat row 3: locus "
        "'elsewhere' is not one of")


def test_an_adapter_reads_the_folder_every_command_finds(native, tmp_path, capsys, monkeypatch):
    """--rc-adapter without --rc-data reads $BR_EVAL_RC_DATA, else the download folder
    (realcompanion.data.rc_data_dir, as `run` finds RealCompanion data), in ls, run and show,
    and its first line names the folder it read."""
    from evaluator.cli import main

    home = tmp_path / "home"
    monkeypatch.setenv("BR_EVAL_HOME", str(home))
    monkeypatch.delenv("BR_EVAL_RC_DATA", raising=False)
    use_adapter(tmp_path, monkeypatch)
    adapter = ["--rc-adapter", "my_rc_reader:read"]
    want = counts(native)["realcompanion/chat"]["count"]

    def ls():
        code = main(["ls", "--json", *adapter])
        out = capsys.readouterr()
        rows = {r["task"]: r for r in json.loads(out.out)["tasks"]} if code == 0 else {}
        return code, rows, out.err

    def read_line(folder):
        return (f"br-eval: --rc-adapter my_rc_reader:read read {folder} ({len(pids(native))} "
                "participants)")

    code, _, err = ls()                         # nothing named, nothing downloaded
    assert code == 2 and err.count("\n") == 1 and err.startswith(
        "br-eval: error: --rc-adapter my_rc_reader:read has no folder to read: no RealCompanion "
        "data: pass --rc_data DIR, set $BR_EVAL_RC_DATA, or download a Hub mirror into ")

    src = odd_release(native, tmp_path / "odd")
    monkeypatch.setenv("BR_EVAL_RC_DATA", str(src))
    code, rows, err = ls()
    assert code == 0 and rows["realcompanion/chat"]["count"] == want, err
    assert err.splitlines()[0].startswith(read_line(src))
    adapted = Path(err.splitlines()[0].split("are in ")[1])
    code = main(["run", "--no-progress", "--tasks", "realcompanion/retrieval", "--limit", "2",
                 *adapter, "--output_path", str(tmp_path / "run")])
    out = capsys.readouterr()
    assert code == 0 and out.err.splitlines()[0].startswith(read_line(src)), out.err
    assert json.loads((tmp_path / "run" / "results.json").read_text())["config"]["rc_data"] \
        == str(adapted)
    key = json.loads((tmp_path / "run" / "samples_realcompanion_retrieval.jsonl").read_text()
                     .splitlines()[0])["key"]
    assert main(["show", key, *adapter]) == 0
    out = capsys.readouterr()
    assert out.err.splitlines()[0].startswith(read_line(src)) and key.split("/")[2] in out.out

    # a mirror in the download folder, in a shape only the adapter reads, comes after the variable
    monkeypatch.delenv("BR_EVAL_RC_DATA")
    mirror = home / "data" / "RealCompanion"
    (mirror / ".cache" / "huggingface").mkdir(parents=True)   # an interrupted download: no folder
    code, _, err = ls()
    assert code == 2 and "has no folder to read" in err
    shutil.copytree(src, mirror, dirs_exist_ok=True)
    code, rows, err = ls()
    assert code == 0 and rows["realcompanion/chat"]["count"] == want, err
    assert err.splitlines()[0].startswith(read_line(mirror))
    monkeypatch.setenv("BR_EVAL_RC_DATA", str(src))
    code, rows, err = ls()
    assert code == 0 and err.splitlines()[0].startswith(read_line(src))
