"""What an agent is given: each time as released next to its parsed UTC value, the trajectory's
`persons`, and a built-in agent identity that changes with the code that builds its prompts.

The trajectory mixes the card's free-text form with an ISO value carrying an offset
(`2025-10-23T23:30:00-05:00` is 04:30 UTC on 24 October): shown as UTC only, that session would
appear under another day than the one the data says."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timezone

import pytest

import agents_for_tests as A
from beyondrecall import load_task, visible_history
from evaluator.evaluate import evaluate
from evaluator.models.base import TextPart
from evaluator.models.mock_backend import MockChatModel
from snapshot_builder import minimal_snapshot, session, traj, turn

TASK = "temporal_anchoring"
KEY = "retrieval/temporal_anchoring/0/q{}"
UTC = timezone.utc
OFFSET = "2025-10-23T23:30:00-05:00"


def snapshot(root):
    t = traj([session("8:27 am on 23 October, 2025", turn("I adopted a cat named Pixel.", "Maya")),
              session(OFFSET, turn("Pixel knocked over the lamp.", "Jon")),
              session("9:00 am on 30 October, 2025", turn("We moved to Lisbon.", "Maya"),
                      turn("The movers were late.", "Jon",
                           timestamp="9:30:15 am on 30 October, 2025"))],
             [{"question": "What did Maya adopt?", "answer": "a cat",
               "timestamp": "11:45 pm on 23 October, 2025"},       # before the offset session
              {"question": "What did Pixel knock over?", "answer": "the lamp",
               "timestamp": "2025-10-24T00:00:00-05:00"},
              {"question": "Where did they move?", "answer": "Lisbon"}])
    t["persons"] = ["Maya", "Jon"]
    return minimal_snapshot(root, TASK, [t])


def visible(data) -> dict:
    task = load_task(data, TASK)
    return {str(q.key): [vs.index for vs in visible_history(tr, q).sessions]
            for tr, q in task.questions()}


def test_a_user_agent_gets_each_time_as_released_and_parsed_and_the_persons(tmp_path):
    data = snapshot(tmp_path / "snap")
    A.VIEWS.clear()
    evaluate([TASK], agent="agents_for_tests:ViewAgent", data=data, output_path=tmp_path / "run",
             progress=False, announce=False)
    seen = {k: [s.index for s in v["sessions"]] for k, v in A.VIEWS.items()}
    # the cutoff compares parsed values: 23:30 at -05:00 is after 11:45 pm UTC on 23 October
    assert seen == visible(data) == {KEY.format(0): [0], KEY.format(1): [0, 1],
                                     KEY.format(2): [0, 1, 2]}

    q0 = A.VIEWS[KEY.format(0)]
    assert q0["query"].cutoff_raw == "11:45 pm on 23 October, 2025"
    assert q0["query"].cutoff == datetime(2025, 10, 23, 23, 45, tzinfo=UTC)

    q1 = A.VIEWS[KEY.format(1)]
    first, offset = q1["sessions"]
    assert (first.date_raw, first.date) == ("8:27 am on 23 October, 2025",
                                            datetime(2025, 10, 23, 8, 27, tzinfo=UTC))
    assert (offset.date_raw, offset.date) == (OFFSET, datetime(2025, 10, 24, 4, 30, tzinfo=UTC))
    assert [(t.time_raw, t.time) for t in offset.turns] == [(OFFSET, offset.date)]
    assert q1["query"].cutoff_raw == "2025-10-24T00:00:00-05:00"
    assert q1["query"].cutoff == datetime(2025, 10, 24, 5, 0, tzinfo=UTC)

    last = A.VIEWS[KEY.format(2)]["sessions"][2]
    assert [(t.time_raw, t.time) for t in last.turns] == [
        ("9:00 am on 30 October, 2025", datetime(2025, 10, 30, 9, 0, tzinfo=UTC)),
        ("9:30:15 am on 30 October, 2025", datetime(2025, 10, 30, 9, 30, 15, tzinfo=UTC))]
    assert A.VIEWS[KEY.format(2)]["query"].cutoff_raw is None

    # persons reach every session and the query; each question gets its own copy (ViewAgent
    # appends to it, and no later question sees that)
    for view in A.VIEWS.values():
        assert view["query"].persons == ["Maya", "Jon", "intruder"]
        assert all(s.persons is view["query"].persons for s in view["sessions"])


def _user_text(call) -> str:
    user = [m for m in call["messages"] if m.role == "user"][0]
    return "".join(p.text for p in user.content if isinstance(p, TextPart))


def test_the_builtin_prompt_shows_the_released_strings_with_utc_beside_them(tmp_path):
    data = snapshot(tmp_path / "snap")
    model = MockChatModel("I don't know")
    evaluate([TASK], agent="full-context", model=model, data=data, output_path=tmp_path / "run",
             progress=False, announce=False, num_concurrent=1)
    prompts = {q: _user_text(c) for c in model.calls for q in
               ("What did Maya adopt?", "What did Pixel knock over?", "Where did they move?")
               if f"Question: {q}\n" in _user_text(c)}
    assert len(prompts) == 3 == len(model.calls)
    adopt, knock, move = (prompts[q] for q in ("What did Maya adopt?",
                                                "What did Pixel knock over?",
                                                "Where did they move?"))
    assert adopt == ("People in this conversation: Maya, Jon\n"
                     "CONVERSATION HISTORY\n"
                     "Session date: 8:27 am on 23 October, 2025 (2025-10-23 08:27 UTC)\n"
                     "Maya: I adopted a cat named Pixel.\n"
                     "Current time: 11:45 pm on 23 October, 2025 (2025-10-23 23:45 UTC)\n"
                     "Question: What did Maya adopt?\n")
    assert ("Session date: 2025-10-23T23:30:00-05:00 (2025-10-24 04:30 UTC)\n"
            "Jon: Pixel knocked over the lamp.\n"
            "Current time: 2025-10-24T00:00:00-05:00 (2025-10-24 05:00 UTC)\n") in knock
    assert "Lisbon" not in knock                     # the cutoff is unchanged
    assert ("Session date: 9:00 am on 30 October, 2025 (2025-10-30 09:00 UTC)\n"
            "Maya: We moved to Lisbon.\n"
            "[9:30:15 am on 30 October, 2025 (2025-10-30 09:30:15 UTC)] Jon: The movers were "
            "late.\n") in move
    assert "Current time" not in move


def test_persons_text_is_one_short_line():
    from evaluator.agents.builtin import PERSONS_MAX_CHARS, persons_text

    assert persons_text(["Maya", "Jon"]) == "Maya, Jon"
    assert persons_text("Maya and\nJon") == "Maya and Jon"
    assert persons_text([{"name": "Maya", "role": "user"}]) == '[{"name": "Maya", "role": "user"}]'
    assert persons_text(None) is None and persons_text([]) is None and persons_text("  ") is None
    long = persons_text([f"person{i}" for i in range(200)])
    assert len(long) == PERSONS_MAX_CHARS and long.endswith("...")


@pytest.fixture
def agents_copy(tmp_path, monkeypatch):
    """The built-in agents' prompt sources, copied where a test may edit them."""
    from evaluator.agents import builtin

    folder = tmp_path / "agents"
    folder.mkdir()
    for path in builtin.prompt_sources():
        shutil.copy(path, folder / path.name)
    monkeypatch.setattr(builtin, "prompt_sources", lambda: sorted(folder.glob("*.py")))
    builtin.prompt_digest.cache_clear()
    yield folder
    builtin.prompt_digest.cache_clear()


def test_editing_the_prompt_source_changes_the_recorded_agent_identity(tmp_path, agents_copy):
    from evaluator.agents import builtin

    data = snapshot(tmp_path / "snap")
    out = tmp_path / "run"
    common = dict(agent="full-context", data=data, output_path=out, progress=False,
                  announce=False)
    evaluate([TASK], model=MockChatModel("I don't know"), **common)
    before = json.loads((out / "results.json").read_text())["config"]["settings"]["agent_source"]
    assert before["builtin"] is True and before["source_sha256"] == builtin.prompt_digest()

    source = agents_copy / "builtin.py"
    source.write_text(source.read_text().replace("Answer concisely.", "Answer in one word."))
    builtin.prompt_digest.cache_clear()
    assert builtin.prompt_digest() != before["source_sha256"]
    # the folder's answers came from the old prompts: resuming into it is refused, one line
    from evaluator.errors import EvalError

    with pytest.raises(EvalError, match=r"agent_source\.source_sha256.*the agent's source changed"):
        evaluate([TASK], model=MockChatModel("I don't know"), **common)


def test_when_text_keeps_the_line_and_never_uses_the_local_timezone(monkeypatch):
    import time

    from evaluator.agents.builtin import when_text

    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        assert when_text(None, datetime(2025, 10, 23, 8, 27)) == "2025-10-23 08:27 UTC"
        # the string as released ("Do not ... rewrite the original strings"): only its line
        # break becomes a space, so the time stays on its prompt line
        assert when_text(" 8:27  am on 23 October,\n2025 ", datetime(2025, 10, 23, 8, 27, 5,
                                                                    tzinfo=UTC)) == \
            " 8:27  am on 23 October, 2025  (2025-10-23 08:27:05 UTC)"
        assert when_text("8:27\u202fam on 23\tOctober, 2025", datetime(2025, 10, 23, 8, 27,
                                                                     tzinfo=UTC)) == \
            "8:27\u202fam on 23\tOctober, 2025 (2025-10-23 08:27 UTC)"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_baseline_answers_a_when_question_with_the_day_the_data_writes():
    # 20:00 at -05:00 is 23 October as released, 24 October in UTC (what the cutoff compares)
    from beyondrecall.timestamps import parse_strict
    from evaluator.agents.builtin import BaselineAgent
    from evaluator.agents.protocol import MemorySession, MemoryTurn, Query

    raw = "2025-10-23T20:00:00-05:00"
    when = parse_strict(raw)
    agent = BaselineAgent()
    agent.write(MemorySession(0, when, [MemoryTurn(0, 0, when, "user", "I moved to Oslo today.",
                                                   time_raw=raw)], date_raw=raw))
    answer = agent.answer(Query("retrieval/x/0/q0", "x", "When did I move to Oslo?", [], None))
    assert when.day == 24 and answer.text == "23 October 2025"
