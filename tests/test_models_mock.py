"""The scripted mock backend: every way of giving replies, failures on call N, recorded calls."""

from __future__ import annotations

import json

import pytest

from evaluator.errors import EvalError
from evaluator.models import make_model
from evaluator.models.base import ChatModel, Generation, ImagePart, Message, ModelCallError, TextPart
from evaluator.models.mock_backend import MockChatModel


def user(text: str) -> list[Message]:
    return [Message.text("system", "sys"), Message.text("user", text)]


def test_list_replies_cycle_in_order():
    model = MockChatModel(["a", "b", "c"])
    assert isinstance(model, ChatModel)
    assert [model.generate(user("q")).text for _ in range(5)] == ["a", "b", "c", "a", "b"]


def test_dict_replies_match_a_substring_of_the_last_user_message():
    model = MockChatModel({"colour": "red", "where": "Lisbon"}, default="I don't know")
    conversation = [Message.text("user", "where did we go?"), Message.text("assistant", "hm"),
                    Message.text("user", "what colour was the mug?")]
    assert model.generate(conversation).text == "red"          # only the LAST user message counts
    assert model.generate(user("where was it?")).text == "Lisbon"
    assert model.generate(user("who?")).text == "I don't know"
    longest = MockChatModel({"now?": "short key", "Where does Priya live now?": "Elm Street"})
    assert longest.generate(user("Question: Where does Priya live now?")).text == "Elm Street"
    assert longest.generate(user("Who is her manager now?")).text == "short key"
    with pytest.raises(ModelCallError, match="no scripted reply matches"):
        MockChatModel({"x": "y"}).generate(user("nothing here"))


def test_callable_replies_see_the_messages():
    model = MockChatModel(lambda messages: f"{len(messages)} messages")
    assert model.generate(user("q")).text == "2 messages"
    model = MockChatModel(lambda messages: Generation("custom", input_tokens=1, output_tokens=2))
    assert model.generate(user("q")).output_tokens == 2


def test_reply_files(tmp_path):
    listing = tmp_path / "replies.json"
    listing.write_text(json.dumps(["one", "two"]))
    model = make_model("mock", {"replies": str(listing)})
    assert [model.generate(user("q")).text for _ in range(3)] == ["one", "two", "one"]

    mapping = tmp_path / "by_question.json"
    mapping.write_text(json.dumps({"mug": "red"}))
    assert make_model("mock", {"replies": str(mapping)}).generate(user("the mug?")).text == "red"

    lines = tmp_path / "replies.jsonl"
    lines.write_text('"first"\n\n"second"\n')
    assert make_model("mock", {"replies": str(lines)}).generate(user("q")).text == "first"

    matched = tmp_path / "matched.jsonl"
    matched.write_text('{"match": "mug", "reply": "red"}\n{"match": "trip", "reply": "Lisbon"}\n')
    assert make_model("mock", {"replies": str(matched)}).generate(user("our trip")).text == "Lisbon"


def test_bad_reply_files_fail_with_one_line(tmp_path):
    with pytest.raises(EvalError, match="replies file not found"):
        make_model("mock", {"replies": str(tmp_path / "missing.json")})
    truncated = tmp_path / "truncated.json"
    truncated.write_text('["one", "tw')
    with pytest.raises(EvalError, match="invalid JSON"):
        make_model("mock", {"replies": str(truncated)})
    wrong = tmp_path / "wrong.json"
    wrong.write_text("[1, 2]")
    with pytest.raises(EvalError, match="expected a list of strings"):
        make_model("mock", {"replies": str(wrong)})
    bad_line = tmp_path / "bad.jsonl"
    bad_line.write_text('"ok"\n{oops\n')
    with pytest.raises(EvalError, match=r"bad.jsonl:2: invalid JSON"):
        make_model("mock", {"replies": str(bad_line)})


def test_a_plain_string_is_a_single_reply():
    model = make_model("mock", {"replies": "I don't know"})
    assert model.generate(user("q")).text == "I don't know"


def test_fail_on_call_n_and_generate_many_keeps_going():
    model = make_model("mock", {"replies": "ok", "fail_on": 2})
    assert model.generate(user("1")).text == "ok"
    with pytest.raises(ModelCallError, match=r"scripted failure \(call 2\)"):
        model.generate(user("2"))
    assert model.generate(user("3")).text == "ok"

    model = make_model("mock", {"replies": "ok", "fail_on": "2;4"})
    results = model.generate_many([user(str(i)) for i in range(5)])
    assert [isinstance(r, ModelCallError) for r in results] == [False, True, False, True, False]


def test_records_every_call_for_isolation_checks(tmp_path):
    model = MockChatModel("ok")
    image = ImagePart(str(tmp_path / "frame.png"))
    model.generate([Message("user", (TextPart("look"), image))], max_tokens=5)
    model.generate(user("second"))
    assert model.call_count == 2
    assert model.calls[0]["messages"][0].content[1] == image
    assert model.calls[0]["gen_kwargs"] == {"max_tokens": 5}
    assert model.calls[1]["messages"][-1].content[0].text == "second"


def test_stop_strings_cut_the_reply_and_bad_settings_fail():
    model = MockChatModel("answer: red\nreasoning: ...")
    assert model.generate(user("q"), stop=["\n"]).text == "answer: red"
    with pytest.raises(EvalError, match="unknown generation setting"):
        model.generate(user("q"), beams=4)
    assert model.call_count == 1
