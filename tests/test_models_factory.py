"""make_model's argument checking and parse_kv_args (lm-eval style --model_args)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from evaluator.errors import EvalError
from evaluator.models import make_model, parse_kv_args
from evaluator.models._common import normalize_gen_kwargs, truncate_at_stop
from evaluator.models.cache import CachedChatModel
from evaluator.models.mock_backend import MockChatModel


def test_parse_kv_args_converts_like_lm_eval():
    assert parse_kv_args("pretrained=Qwen/Qwen2-VL-2B-Instruct,dtype=bfloat16,max_new_tokens=64,"
                         "trust_remote_code=True,temperature=0.5,revision=none") == {
        "pretrained": "Qwen/Qwen2-VL-2B-Instruct", "dtype": "bfloat16", "max_new_tokens": 64,
        "trust_remote_code": True, "temperature": 0.5, "revision": "none"}
    assert parse_kv_args("base_url=http://127.0.0.1:8000/v1, model = m ,") == {
        "base_url": "http://127.0.0.1:8000/v1", "model": "m"}
    assert parse_kv_args("") == {} and parse_kv_args(None) == {}


def test_parse_kv_args_quoted_values_stay_strings_and_may_hold_commas():
    assert parse_kv_args('stop="a,b",seed=\'7\',note="x=y"') == {"stop": "a,b", "seed": "7", "note": "x=y"}
    assert parse_kv_args("key=abc=def") == {"key": "abc=def"}


@pytest.mark.parametrize("text, message", [
    ("a=1,b", "bad key=value argument 'b'"),
    ("=1", "empty key"),
    ("a=1,a=2", "key 'a' given twice"),
    ('a="open', "unclosed quote"),
])
def test_parse_kv_args_errors(text, message):
    with pytest.raises(EvalError, match=message):
        parse_kv_args(text)


def test_unknown_kind_lists_the_known_ones():
    with pytest.raises(EvalError, match=r"unknown model backend 'vllm' \(choose from: openai, hf, mock\)"):
        make_model("vllm", {})


def test_missing_required_args_name_them_with_an_example():
    with pytest.raises(EvalError, match=r"the openai backend needs --model_args model \(e.g. --model_args base_url="):
        make_model("openai", {"base_url": "http://127.0.0.1:1/v1"})
    with pytest.raises(EvalError, match=r"the hf backend needs --model_args pretrained"):
        make_model("hf", {"dtype": "bfloat16"})


def test_unknown_and_mistyped_args_are_rejected():
    with pytest.raises(EvalError, match=r"unknown --model_args for the openai backend: modle \(accepted: base_url"):
        make_model("openai", {"base_url": "http://x/v1", "modle": "m"})
    with pytest.raises(EvalError, match=r"concurrency='many' for the openai backend should be int"):
        make_model("openai", {"base_url": "http://x/v1", "model": "m", "concurrency": "many"})
    with pytest.raises(EvalError, match="need max_retries >= 0, concurrency >= 1"):
        make_model("openai", {"base_url": "http://x/v1", "model": "m", "concurrency": 0})


def test_cache_path_wraps_the_model(tmp_path):
    model = make_model("mock", {"replies": "x", "model_id": "scripted"}, cache_path=tmp_path / "c.sqlite")
    assert isinstance(model, CachedChatModel) and isinstance(model.inner, MockChatModel)
    assert (model.name, model.model_id) == ("mock", "scripted")
    assert (tmp_path / "c.sqlite").exists()


def test_gen_kwargs_normalisation():
    assert normalize_gen_kwargs({"max_new_tokens": "32", "until": "\n", "temperature": 0}) == {
        "max_tokens": 32, "stop": ["\n"], "temperature": 0.0}
    with pytest.raises(EvalError, match="given twice"):
        normalize_gen_kwargs({"max_tokens": 3, "max_new_tokens": 4})
    with pytest.raises(EvalError, match="wrong type"):
        normalize_gen_kwargs({"max_tokens": 2.5})
    with pytest.raises(EvalError, match="at least 1"):
        normalize_gen_kwargs({"max_tokens": 0})
    assert truncate_at_stop("a. b! c", [". ", "!"]) == "a" and truncate_at_stop("abc", ["x"]) == "abc"


def test_importing_the_models_package_stays_light():
    code = ("import sys, evaluator.models, evaluator.models.cache, evaluator.models.mock_backend, "
            "evaluator.models.openai_backend, evaluator.models.hf_backend; "
            "print(sorted(m for m in ('openai', 'transformers', 'torch', 'PIL', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
