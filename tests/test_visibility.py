"""The card's "Time parsing and history visibility", one example per sentence, plus properties."""

import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from beyondrecall import load_task, visible_history
from beyondrecall.errors import DataError
from beyondrecall.records import Question, QuestionKey, Session, Trajectory, Turn
from snapshot_builder import minimal_snapshot, session, traj, turn

UTC = timezone.utc
D = "{h}:00 am on {d} May, 2024"


def load(tmp_path, trajectories):
    minimal_snapshot(tmp_path, "memory_update", trajectories)
    return load_task(tmp_path, "memory_update")


def seen(history):
    return [(vs.index, [vt.index for vt in vs.turns]) for vs in history.sessions]


def history_of(task, q=0, t=0):
    tr = task.trajectories[t]
    return visible_history(tr, tr.questions[q])


def test_turn_visible_when_effective_time_at_or_before_cutoff(tmp_path):
    # "a history turn is visible when its effective time is less than or equal to the cutoff"
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=1), turn("a")), session(D.format(h=9, d=2), turn("b")),
         session(D.format(h=9, d=3), turn("c"))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=9, d=2)}])])
    assert seen(history_of(task)) == [(0, [0]), (1, [0])]  # equal time is visible


def test_explicit_turn_timestamp_wins_else_session_date(tmp_path):
    # "A turn's explicit timestamp is used when present; otherwise it inherits its session's date."
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=1), turn("early"),
                 turn("late", timestamp="2024-05-05T00:00:00Z"), turn("inherits"))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=10, d=1)}])])
    h = history_of(task)
    assert seen(h) == [(0, [0, 2])]
    assert all(vt.time == datetime(2024, 5, 1, 9, tzinfo=UTC) for vt in h.sessions[0].turns)


def test_future_turns_and_their_media_never_enter(tmp_path):
    # "Future turns and their media must not enter that question's memory state."
    from snapshot_builder import write_image
    write_image(tmp_path, "images/past.png")
    write_image(tmp_path, "images/future.png")
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=1), turn("p", media=["images/past.png"])),
         session(D.format(h=9, d=9), turn("f", media=["images/future.png"]))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=9, d=5)}])])
    assert history_of(task).media_paths() == ["images/past.png"]


def test_question_media_is_query_input_not_history(tmp_path):
    from snapshot_builder import write_image
    write_image(tmp_path, "images/q.png")
    task = load(tmp_path, [traj([session(D.format(h=9, d=1), turn("p"))],
                                [{"question": "q", "answer": "x", "media": ["images/q.png"]}])])
    h = history_of(task)
    assert h.media_paths() == [] and h.question.media == ("images/q.png",)


def test_only_sessions_with_visible_turns_are_retained(tmp_path):
    # "Retain only sessions with visible turns."
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=1), turn("a")), session(D.format(h=9, d=1)),
         session(D.format(h=9, d=8), turn("b", timestamp="2024-05-09T00:00:00"))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=9, d=3)}])])
    assert seen(history_of(task)) == [(0, [0])]


def test_turns_sorted_by_effective_time_then_index(tmp_path):
    # "Sort turns by effective time and their original index"
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=2), turn("t0", timestamp="2024-05-02T09:00:00Z"), turn("t1"),
                 turn("t2", timestamp="2024-05-01T09:00:00Z"), turn("t3"))],
        [{"question": "q", "answer": "x"}])])
    assert seen(history_of(task)) == [(0, [2, 0, 1, 3])]


def test_sessions_sorted_by_date_then_index(tmp_path):
    # "... and sessions by session date and original index."
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=3), turn("c")), session(D.format(h=9, d=1), turn("a")),
         session(D.format(h=9, d=3), turn("c2")), session(D.format(h=9, d=2), turn("b"))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=9, d=3)}])])
    assert [i for i, _ in seen(history_of(task))] == [1, 3, 0, 2]


def test_session_date_moves_to_earliest_retained_turn(tmp_path):
    # "If an explicitly timestamped retained turn precedes its enclosing session date and the
    # latter is after the cutoff, the evaluator uses the earliest retained turn time as that
    # session's visible date."
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=2), turn("b")),
         session(D.format(h=9, d=9), turn("x", timestamp="2024-05-03T08:00:00Z"),
                 turn("y", timestamp="2024-05-01T08:00:00Z"), turn("z"))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=9, d=5)}])])
    h = history_of(task)
    assert seen(h) == [(1, [1, 0]), (0, [0])]  # visible date 1 May sorts before 2 May
    assert h.sessions[0].date == datetime(2024, 5, 1, 8, tzinfo=UTC)
    assert h.sessions[0].session.date == datetime(2024, 5, 9, 9, tzinfo=UTC)


def test_visible_times_keep_the_strings_they_were_parsed_from(tmp_path):
    # "Do not ... rewrite the original strings": each visible time carries its string as
    # released, including a session date moved by the rule above (the turn's own string).
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=2), turn("b")),
         session(D.format(h=9, d=9), turn("x", timestamp="2024-05-03T08:00:00Z"),
                 turn("y", timestamp="2024-05-01T03:00:00-05:00"), turn("z"))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=9, d=5)}])])
    h = history_of(task)
    assert [(vs.date_raw, [vt.time_raw for vt in vs.turns]) for vs in h.sessions] == [
        ("2024-05-01T03:00:00-05:00", ["2024-05-01T03:00:00-05:00", "2024-05-03T08:00:00Z"]),
        (D.format(h=9, d=2), [D.format(h=9, d=2)])]
    assert h.sessions[0].date == datetime(2024, 5, 1, 8, tzinfo=UTC)      # compared parsed


def test_session_date_kept_when_not_after_cutoff(tmp_path):
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=4), turn("x", timestamp="2024-05-01T08:00:00Z"), turn("y"))],
        [{"question": "q", "answer": "x", "timestamp": D.format(h=9, d=5)}])])
    assert history_of(task).sessions[0].date == datetime(2024, 5, 4, 9, tzinfo=UTC)


def test_without_question_timestamp_all_history_chronological(tmp_path):
    # "Without a question timestamp, use all supplied history in chronological order."
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=9), turn("late")), session(D.format(h=9, d=1), turn("early"))],
        [{"question": "q", "answer": "x"}, {"question": "q", "answer": "x", "timestamp": None}])])
    for q in (0, 1):
        h = history_of(task, q)
        assert h.cutoff is None and seen(h) == [(1, [0]), (0, [0])]


def test_parsing_failure_stops_instead_of_exposing_history(tmp_path):
    # "Parsing failures stop evaluation rather than exposing full history."
    minimal_snapshot(tmp_path, "memory_update", [traj(
        [session(D.format(h=9, d=1), turn("a"))],
        [{"question": "q", "answer": "x", "timestamp": "sometime in May"}])])
    with pytest.raises(DataError, match="question 0 field 'timestamp'"):
        load_task(tmp_path, "memory_update")


def test_isolated_per_question(tmp_path):
    # "...starts an isolated memory state for each question after selecting its visible history."
    task = load(tmp_path, [traj(
        [session(D.format(h=9, d=1), turn("a")), session(D.format(h=9, d=5), turn("b"))],
        [{"question": "q0", "answer": "x", "timestamp": D.format(h=9, d=2)},
         {"question": "q1", "answer": "x"}])])
    h0, h1 = history_of(task, 0), history_of(task, 1)
    assert seen(h0) == [(0, [0])] and seen(h1) == [(0, [0]), (1, [0])]
    assert h0.sessions is not h1.sessions


# ---- properties ---------------------------------------------------------------------------
BASE = datetime(2024, 1, 1, tzinfo=UTC)
offsets = st.integers(min_value=0, max_value=40)


@st.composite
def trajectories(draw):
    n_sessions = draw(st.integers(0, 6))
    sessions = []
    for si in range(n_sessions):
        date = BASE + timedelta(hours=draw(offsets))
        turns = []
        for ti in range(draw(st.integers(0, 5))):
            ts = draw(st.none() | offsets.map(lambda h: BASE + timedelta(hours=h)))
            turns.append(Turn(ti, "A", f"s{si}t{ti}", (), ts, None))
        sessions.append(Session(si, date, "", turns))
    cutoff = draw(st.none() | offsets.map(lambda h: BASE + timedelta(hours=h)))
    q = Question(0, QuestionKey("management", "memory_update", "0", 0), "q", "a", (), cutoff, None)
    return Trajectory("memory_update", "management", "0", None, sessions, [q])


@settings(max_examples=300, deadline=None)
@given(trajectories())
def test_property_nothing_after_cutoff_and_sorted(tr):
    h = visible_history(tr, tr.questions[0])
    flat = [(vs, vt) for vs in h.sessions for vt in vs.turns]
    if h.cutoff is not None:
        assert all(vt.time <= h.cutoff for _, vt in flat)
        assert all(vs.date <= h.cutoff or vs.date == vs.session.date for vs in h.sessions)
    # every visible turn is exactly one whose effective time qualifies; nothing is lost
    expected = {(s.index, t.index) for s in tr.sessions for t in s.turns
                if h.cutoff is None or (t.timestamp or s.date) <= h.cutoff}
    assert {(vs.index, vt.index) for vs, vt in flat} == expected
    keys = [(vs.date, vs.index) for vs in h.sessions]
    assert keys == sorted(keys)
    for vs in h.sessions:
        tk = [(vt.time, vt.index) for vt in vs.turns]
        assert tk == sorted(tk) and vs.turns


@settings(max_examples=200, deadline=None)
@given(trajectories(), st.randoms(use_true_random=False))
def test_property_input_order_matters_only_through_original_index(tr, rnd):
    before = visible_history(tr, tr.questions[0])
    shuffled = list(tr.sessions)
    rnd.shuffle(shuffled)
    for s in shuffled:
        rnd.shuffle(s.turns)
    tr.sessions = shuffled
    after = visible_history(tr, tr.questions[0])
    assert [(vs.index, vs.date, [vt.index for vt in vs.turns]) for vs in before.sessions] == \
           [(vs.index, vs.date, [vt.index for vt in vs.turns]) for vs in after.sessions]


def test_property_independent_of_tz(tmp_path):
    minimal_snapshot(tmp_path, "memory_update", [traj(
        [session("11:30 pm on 1 May, 2024", turn("a")), session("2024-05-02T01:00:00+02:00", turn("b")),
         session("2024-05-02T00:30:00", turn("c"))],
        [{"question": "q", "answer": "x", "timestamp": "23:45 on 1 May, 2024"}])])
    code = ("import sys,json;from beyondrecall import load_task,visible_history;"
            "from evaluator.commands.show import history_as_dict;"
            "t=load_task(sys.argv[1],'memory_update').trajectories[0];"
            "print(json.dumps(history_as_dict(visible_history(t,t.questions[0]))))")
    outs = {subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                           text=True, check=True, env={**os.environ, "TZ": tz}).stdout
            for tz in ("UTC", "Pacific/Kiritimati", "America/Los_Angeles")}
    assert len(outs) == 1
    assert '"index": 1' in outs.pop()  # 01:00+02:00 is 23:00 UTC on 1 May: visible


def test_a_turn_nanoseconds_after_the_cutoff_is_not_visible(tmp_path):
    # .NET's round-trip format writes seven fraction digits; cut to microseconds, a turn 100 ns
    # after the cutoff would equal it and be shown ("visible when ... less than or equal")
    cutoff = "2025-10-23T23:30:00.0000005Z"
    task = load(tmp_path, [traj(
        [session("2025-10-23T23:30:00Z", turn("before")),
         session("2025-10-23T23:30:00.0000005Z", turn("equal")),
         session("2025-10-23T23:30:00.0000006Z", turn("100 ns after")),
         session("2025-10-24T05:00:00.000000501+05:30", turn("1 ns after, other offset")),
         session("2025-10-23T23:30:00.000000999Z", turn("still after"))],
        [{"question": "q", "answer": "x", "timestamp": cutoff}])])
    h = history_of(task)
    assert [vt.turn.content for vs in h.sessions for vt in vs.turns] == ["before", "equal"]
