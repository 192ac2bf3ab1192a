"""What real OpenAI-compatible servers send back, read for what it is (llama.cpp, vLLM, DeepSeek,
OpenAI): a reasoning model's <think> block is not its answer, a reply cut at max_tokens is
counted and said, a content filter is a model error, `message.refusal` is the reply, each answer
is credited to the server that gave it, a model name the server does not list is warned about,
and a prompt longer than the server's context says what to set.

Every server is a fake on 127.0.0.1 reached through the real openai client (the plumbing of
tests/local_http.py and the FakeOpenAIServer of tests/test_models_openai.py). What it cannot show:
how a real reasoning model writes its blocks; it shows what br-eval does with the bytes.
"""

from __future__ import annotations

import json
import logging

import pytest

from evaluator.evaluate import evaluate
from evaluator.models import make_model, preflight
from evaluator.models.base import Message, ModelCallError
from evaluator.results import RunDir
from local_http import JsonHandler, LocalServer
from test_models_openai import FakeOpenAIServer, is_preflight

TASK = "memory_update"


def completion(content, *, finish="stop", model="m", **message) -> dict:
    """A chat completion whose one choice holds `content` (and any other message fields)."""
    return {"id": "x", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": finish,
                         "message": {"role": "assistant", "content": content, **message}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}


def question(body: dict) -> str:
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else " ".join(
        p.get("text", "") for p in content if p.get("type") == "text")


def run(srv_url: str, data, out, **kwargs):
    return evaluate([TASK], agent="full-context", model="openai",
                    model_args={"base_url": srv_url, "model": "m", "backoff": 0.01},
                    data=data, output_path=out, progress=False, announce=False, **kwargs)


def lines(out) -> list[dict]:
    return [s.to_json() for s in RunDir(out).latest_samples(TASK)]


# -- 1 and 2: reasoning blocks and replies cut at max_tokens ------------------------------------------
def test_the_answer_is_what_follows_the_think_block_and_cut_replies_are_counted(
        sample_snapshot, tmp_path, capsys):
    """`<think>I don't know...</think>\\n\\nHarbour Road` answers Harbour Road (token F1 1.0, not
    a refusal); a reply cut inside its think block holds no answer (empty, a 0 in the
    denominator), and the line, results.json and the end of the run say so."""
    def answer(body):
        if is_preflight(body):
            return completion("OK")
        if "Sofia" in question(body):     # cut at max_tokens while thinking
            return completion("<think>I don't know which phone; let me re", finish="length")
        return completion("<THINK>Hmm. I don't know, the history is unclear.</THINK>\n\nHarbour Road")

    out = tmp_path / "run"
    with FakeOpenAIServer() as srv:
        srv.completion = answer
        result = run(srv.base_url, sample_snapshot, out)
    err = capsys.readouterr().err
    by_answer = {}
    for line in lines(out):
        by_answer.setdefault(line["answer"], []).append(line)
    harbour = by_answer["Harbour Road"]
    assert len(harbour) == 2
    for line in harbour:
        assert line["prediction"] == "Harbour Road" and line["metrics"]["primary"] == 1.0
        assert not line["metrics"].get("refused")
        assert line["reasoning_removed"] == {"chars": len(
            "<THINK>Hmm. I don't know, the history is unclear.</THINK>")}
        assert "finish" not in line
    (cut,) = by_answer["Pixel 6"]
    assert cut["prediction"] == "" and cut["metrics"]["unreadable"] == "empty"
    assert cut["metrics"]["primary"] == 0.0 and not cut.get("error")      # scored, not failed
    assert cut["finish"] == "length"
    assert cut["reasoning_removed"]["unclosed"] is True
    entry = result[TASK]
    assert entry["n_done"] == 7 and entry["n_cut"] == 1 and entry["n_reasoning_removed"] == 7
    saved = json.loads((out / "results.json").read_text())["results"][TASK]
    assert saved["n_cut"] == 1 and saved["n_reasoning_removed"] == 7
    assert "7 reply(ies) held reasoning" in err and "1 never closed it" in err
    warning = [x for x in err.splitlines() if "cut at the token limit" in x]
    assert len(warning) == 1 and "finish_reason=length" in warning[0]
    assert "--gen_kwargs max_tokens=N (now 512)" in warning[0]


def test_one_rule_reads_reasoning_for_agents_and_the_judge():
    from evaluator.scoring.judge import JudgeParseError, parse_answer_judgment
    from evaluator.scoring.readable import visible_reply

    assert visible_reply("<thinking>x</thinking> <reasoning>y</reasoning>\nB").text == "B"
    assert visible_reply("the template opened it </think> Linden Street").text == "Linden Street"
    cut = visible_reply("<think>Score: 1 ... wait")
    assert cut.text == "" and cut.unclosed and cut.removed == len("<think>Score: 1 ... wait")
    assert visible_reply("Harbour Road").removed == 0
    # the judge reads its reply by the same rule: no verdict from inside an unclosed block
    assert parse_answer_judgment("<reasoning>Score: 0</reasoning> Score: 1")[0] == {"score": 1.0}
    with pytest.raises(JudgeParseError, match="never closed"):
        parse_answer_judgment("<think>The answer matches. Score: 1")


# -- 2 and 3: content filters, message.refusal, no choices ------------------------------------------
@pytest.mark.parametrize("content", ["", None, "Harbour"])
def test_a_content_filter_is_a_model_error_whatever_the_content(content):
    with FakeOpenAIServer() as srv:
        srv.completion = lambda body: completion(content, finish="content_filter")
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "backoff": 0.01})
        with pytest.raises(ModelCallError, match="content filter") as info:
            model.generate([Message.text("user", "q")])
        assert len(srv.requests) == 1               # asking again cannot change it
    assert "finish_reason content_filter" in str(info.value)


@pytest.mark.parametrize("content", ["", None])
def test_message_refusal_is_the_reply_when_content_is_empty(content):
    with FakeOpenAIServer() as srv:
        srv.completion = lambda body: completion(content, refusal="I can't help with that.")
        model = make_model("openai", {"base_url": srv.base_url, "model": "m"})
        assert model.generate([Message.text("user", "q")]).text == "I can't help with that."


def test_no_choices_is_said_in_words():
    with FakeOpenAIServer() as srv:
        srv.completion = lambda body: {**completion("x"), "choices": []}
        model = make_model("openai", {"base_url": srv.base_url, "model": "m", "max_retries": 0})
        with pytest.raises(ModelCallError) as info:
            model.generate([Message.text("user", "q")])
    assert "the server returned no choices" in str(info.value) and "ChatCompletion(" not in str(info.value)


# -- 4: each answer credited to the server that gave it ---------------------------------------------
def test_answer_sources_follow_what_each_line_was_served_by(sample_snapshot, tmp_path):
    out = tmp_path / "run"
    with FakeOpenAIServer() as a, FakeOpenAIServer() as b:
        a.completion = lambda body: completion("Harbour Road", model="model-a")
        b.completion = lambda body: completion("Harbour Road", model="model-b")
        run(f"{a.base_url}|{b.base_url}", sample_snapshot, out, num_concurrent=1)
        asked = {a.base_url: len(a.questions), b.base_url: len(b.questions)}
    assert all(asked.values())                      # both endpoints answered questions
    served = {a.base_url: "model-a", b.base_url: "model-b"}
    for line in lines(out):
        assert line["source"]["served_model"] == line["model_reported"] == served[line["source"]["endpoint"]]
    sources = json.loads((out / "results.json").read_text())["results"][TASK]["answer_sources"]
    got = {(s["endpoint"], s["served_model"]): s["n"] for s in sources}
    assert got == {(a.base_url, "model-a"): asked[a.base_url], (b.base_url, "model-b"): asked[b.base_url]}


# -- 5 and 6: a llama.cpp-like server ---------------------------------------------------------------
GGUF = "qwen2.5-7b-instruct-q4_k_m.gguf"


class LlamaCppLike(LocalServer):
    """llama.cpp's server as it answers: /v1/models lists the loaded GGUF (with n_ctx_train, its
    training context), /props its serving context (n_ctx), and any model name is answered,
    echoed back. A request whose last text is longer than `max_chars` gets `overflow` (status,
    body)."""

    def __init__(self, n_ctx: int | None = 4096, max_chars: int | None = None, overflow=None):
        self.n_ctx, self.max_chars, self.overflow = n_ctx, max_chars, overflow
        self.chats: list[dict] = []
        server = self

        class Handler(JsonHandler):
            def do_GET(self):
                if self.path == "/v1/models":
                    self.send_json(200, {"object": "list", "data": [
                        {"id": GGUF, "object": "model", "created": 0, "owned_by": "llamacpp",
                         "meta": {"n_ctx_train": 32768, "n_vocab": 152064}}]})
                elif self.path == "/props" and server.n_ctx:
                    self.send_json(200, {"default_generation_settings": {"n_ctx": server.n_ctx},
                                         "total_slots": 1, "model_path": f"/models/{GGUF}"})
                else:
                    self.send_json(404, {"error": {"code": 404, "message": "File Not Found",
                                                   "type": "not_found_error"}})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                server.chats.append(body)
                if server.max_chars and len(question(body)) > server.max_chars:
                    return self.send_json(*server.overflow)
                self.send_json(200, completion("Harbour Road", model=body["model"]))

        self.serve(Handler)


def test_a_model_name_the_server_does_not_list_is_warned_and_recorded(sample_snapshot, tmp_path,
                                                                      caplog):
    out = tmp_path / "run"
    with LlamaCppLike() as srv, caplog.at_level(logging.WARNING, logger="evaluator.models.openai"):
        model = make_model("openai", {"base_url": srv.base_url, "model": "gpt-4o"})
        info = preflight(model)
        evaluate([TASK], agent="full-context", model="openai", limit=1,
                 model_args={"base_url": srv.base_url, "model": "gpt-4o"},
                 data=sample_snapshot, output_path=out, progress=False, announce=False)
    warnings = [r.getMessage() for r in caplog.records if "does not list" in r.getMessage()]
    assert len(warnings) == 2 and "'gpt-4o'" in warnings[0] and GGUF in warnings[0]
    assert info["served_model"] == "gpt-4o" and info["model_listed"] is False
    assert info["listed_models"] == [GGUF]
    # its serving context from /props, not the training context of its listing
    assert (info["context_length"], info["context_length_source"]) == (4096, "/props")
    recorded = json.loads((out / "results.json").read_text())["model"]["preflight"]
    assert recorded["listed_models"] == [GGUF] and recorded["model_listed"] is False


def test_a_listed_model_name_is_not_warned_about(caplog):
    with LlamaCppLike(n_ctx=None) as srv, caplog.at_level(logging.WARNING,
                                                          logger="evaluator.models.openai"):
        info = preflight(make_model("openai", {"base_url": srv.base_url, "model": GGUF}))
    assert info["model_listed"] is True and not caplog.records
    assert info["context_length"] is None            # n_ctx_train is not the serving context


LLAMA_OLD = (400, {"error": {"code": 400, "message": "the request exceeds the available context size, "
                             "try increasing it", "type": "exceed_context_size_error"}})
LLAMA_NEW = (400, {"error": {"code": 400, "message": "request (9412 tokens) exceeds the available "
                             "context size (8192 tokens), try increasing it",
                             "type": "exceed_context_size_error", "n_prompt_tokens": 9412,
                             "n_ctx": 8192}})
VLLM = (400, {"object": "error", "message": "This model's maximum context length is 4096 tokens. "
              "However, you requested 5120 tokens (4608 in the messages, 512 in the completion). "
              "Please reduce the length of the messages or completion.",
              "type": "BadRequestError", "param": None, "code": 400})


@pytest.mark.parametrize("overflow, fix", [(LLAMA_OLD, "context_length=N"),
                                           (LLAMA_NEW, "context_length=8192"),
                                           (VLLM, "context_length=4096")])
def test_a_prompt_over_the_servers_context_says_what_to_set(overflow, fix):
    with LlamaCppLike(n_ctx=None, max_chars=200, overflow=overflow) as srv:
        model = make_model("openai", {"base_url": srv.base_url, "model": GGUF})
        with pytest.raises(ModelCallError) as info:
            model.generate([Message.text("user", "a long history " * 40)])
        assert len(srv.chats) == 1                  # a 400 is not retried
    message = str(info.value)
    assert "HTTP 400" in message and f"--model_args {fix}" in message
    assert "the prompt is longer than the server's context" in message


def test_a_context_overflow_under_a_known_context_length_asks_for_a_smaller_one(sample_snapshot,
                                                                               tmp_path):
    """The run learned 4096 from /props, full-context fits its history to it by an estimate,
    and the server still refuses: the item's error says to lower context_length."""
    out = tmp_path / "run"
    with LlamaCppLike(n_ctx=4096, max_chars=300, overflow=LLAMA_OLD) as srv:
        result = evaluate([TASK], agent="full-context", model="openai", limit=1,
                          model_args={"base_url": srv.base_url, "model": GGUF},
                          data=sample_snapshot, output_path=out, progress=False, announce=False)
    entry = result[TASK]
    assert entry["n_failed"] == 1
    assert "fits its history to context_length=4096" in entry["first_error"]
    assert "pass a smaller --model_args context_length" in entry["first_error"]


def test_a_context_learned_from_props_since_refuses_to_resume_in_one_line(sample_snapshot,
                                                                          tmp_path):
    """Answers made while the server reported no context length, resumed once /props gives one:
    the history full-context sends changes, so the rerun is refused, without suggesting the
    impossible `context_length=None`."""
    from evaluator.errors import EvalError

    out = tmp_path / "run"
    common = dict(agent="full-context", model="openai", data=sample_snapshot, output_path=out,
                  progress=False, announce=False)
    with LlamaCppLike(n_ctx=None) as srv:
        args = {"base_url": srv.base_url, "model": GGUF}
        evaluate([TASK], limit=1, model_args=args, **common)
        srv.n_ctx = 4096
        with pytest.raises(EvalError) as info:
            evaluate([TASK], limit=2, model_args=args, **common)
    message = str(info.value)
    assert "without a known context length" in message and "4096 from /props" in message
    assert "context_length=None" not in message and "--overwrite" in message


def test_score_answer_reads_any_reply_after_its_reasoning():
    # a user's agent around a reasoning model, or a line written before the built-in agents
    # removed the block: scored on what follows it (the regression hunt's old folders)
    from evaluator.scoring import score_answer

    m = score_answer("memory_update", "Where does Mira live now?",
                     "<think>I don't know... the history says Harbour Road</think>\n\nHarbour Road",
                     "Harbour Road")
    assert m["token_f1"] == 1.0 and not m.get("refused")
    cut = score_answer("memory_update", "Where does Mira live now?", "<think>let me see, Harbour", "Harbour Road")
    assert cut["token_f1"] == 0.0 and cut["unreadable"] == "empty"
