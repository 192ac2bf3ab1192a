import json

import pytest

from beyondrecall import load_task, load_tasks, validate_snapshot
from beyondrecall.errors import DataError
from beyondrecall.loader import task_name_for_stem
from beyondrecall.records import QuestionKey, TASK_NAMES
from snapshot_builder import minimal_snapshot, session, traj, turn, write_image

DATE = "9:00 am on 1 May, 2024"


@pytest.mark.parametrize("stem, name", [
    ("Conflict Detection", "conflict_detection"), ("conflict-detection", "conflict_detection"),
    ("Long Term Semantic Summary", "long_term_semantic_summary"),
    ("Temporal_Anchoring", "temporal_anchoring")])
def test_stem_mapping(stem, name):
    assert task_name_for_stem(stem) == name


def test_loads_all_eleven_with_keys(tmp_path):
    minimal_snapshot(tmp_path)
    tasks = load_tasks(tmp_path)
    assert [t.name for t in tasks] == list(TASK_NAMES)
    key = tasks[0].trajectories[0].questions[0].key
    assert str(key) == "management/conflict_detection/0/q0"
    assert QuestionKey.parse(str(key)) == key


def test_unknown_json_in_a_dimension_folder_is_a_note_not_an_error(tmp_path):
    """Changed by issue 13: it used to stop every run; now it is a note in validate."""
    from beyondrecall.loader import check_snapshot

    minimal_snapshot(tmp_path)
    (tmp_path / "benchmark" / "management" / "Memory Recall.json").write_text("[]")
    assert len(load_tasks(tmp_path)) == 11
    v = check_snapshot(tmp_path)
    assert v.problems == []
    assert v.notes == ["benchmark/management/Memory Recall.json: not one of the management task "
                       "files; ignored"]


def test_missing_task_file_is_an_error(tmp_path):
    minimal_snapshot(tmp_path)
    next((tmp_path / "benchmark" / "retrieval").glob("Temporal*.json")).unlink()
    with pytest.raises(DataError, match="no task file for temporal_anchoring"):
        load_tasks(tmp_path)


def test_media_absent_null_empty_mean_none(tmp_path):
    minimal_snapshot(tmp_path, "memory_update", [traj(
        [session(DATE, turn("a"), turn("b", media=None), turn("c", media=[]))],
        [{"question": "q", "answer": "x", "media": None}])])
    t = load_task(tmp_path, "memory_update").trajectories[0]
    assert [u.media for u in t.sessions[0].turns] == [(), (), ()]
    assert t.questions[0].media == ()


@pytest.mark.parametrize("path, message", [
    ("/etc/passwd", "is absolute"), ("../outside.png", "escapes benchmark/"),
    ("images/../../outside.png", "escapes benchmark/"), ("images/missing.png", "does not exist"),
    ("", "empty media path")])
def test_bad_media_paths(tmp_path, path, message, monkeypatch):
    (tmp_path / "outside.png").write_text("secret")
    minimal_snapshot(tmp_path / "snap", "memory_update", [traj(
        [session(DATE, turn("a"), turn("b", media=[path]))], [{"question": "q", "answer": "x"}],
        tid=7)])
    import os
    touched = []
    real_isfile = os.path.isfile
    monkeypatch.setattr(os.path, "isfile", lambda p: touched.append(str(p)) or real_isfile(p))
    with pytest.raises(DataError) as exc:
        load_task(tmp_path / "snap", "memory_update")
    text = str(exc.value)
    assert message in text and "trajectory 7 session 0 turn 1.media" in text
    assert "Memory Update.json" in text
    assert not any("outside" in p or p.startswith("/etc") for p in touched)


def test_date_required(tmp_path):
    minimal_snapshot(tmp_path, "memory_update", [traj(
        [{"turns": [turn("a")]}], [{"question": "q", "answer": "x"}], tid=3)])
    with pytest.raises(DataError, match="trajectory 3 session 0: field 'date' is required"):
        load_task(tmp_path, "memory_update")


@pytest.mark.parametrize("value", ["", "  ", "someday"])
def test_empty_or_malformed_timestamp_is_error(tmp_path, value):
    minimal_snapshot(tmp_path, "memory_update", [traj(
        [session(DATE, turn("a", timestamp=value))], [{"question": "q", "answer": "x"}], tid=2)])
    with pytest.raises(DataError, match="trajectory 2 session 0 turn 0 field 'timestamp'"):
        load_task(tmp_path, "memory_update")


def test_null_timestamp_is_unspecified(tmp_path):
    minimal_snapshot(tmp_path, "memory_update", [traj(
        [session(DATE, turn("a", timestamp=None))],
        [{"question": "q", "answer": "x", "timestamp": None}])])
    t = load_task(tmp_path, "memory_update").trajectories[0]
    assert t.sessions[0].turns[0].timestamp is None and t.questions[0].timestamp is None


def test_truncated_json(tmp_path):
    minimal_snapshot(tmp_path)
    path = next((tmp_path / "benchmark" / "management").glob("Memory*.json"))
    path.write_text(json.dumps([traj([session(DATE, turn("a"))], [])])[:-7])
    with pytest.raises(DataError, match="invalid JSON at line 1"):
        load_task(tmp_path, "memory_update")


def test_validate_collects_every_problem(tmp_path):
    write_image(tmp_path, "images/ok.png")
    minimal_snapshot(tmp_path, "memory_update", [traj(
        [session(DATE, turn("a", media=["images/ok.png"]), turn("b", media=["images/nope.png"])),
         {"turns": []}, session("bad date", turn("c"))],
        [{"question": "q", "answer": "x", "timestamp": ""}, {"question": "q2"}], tid=5)])
    _, problems = validate_snapshot(tmp_path)
    joined = "\n".join(problems)
    assert len(problems) == 5, joined
    for piece in ["session 0 turn 1.media", "session 1: field 'date'", "session 2 field 'date'",
                  "question 0 field 'timestamp'", "question 1: field 'answer'"]:
        assert piece in joined


def test_duplicate_trajectory_id(tmp_path):
    minimal_snapshot(tmp_path, "memory_update", [
        traj([session(DATE, turn("a"))], [], tid=1), traj([session(DATE, turn("a"))], [], tid=1)])
    with pytest.raises(DataError, match="duplicate id"):
        load_task(tmp_path, "memory_update")
