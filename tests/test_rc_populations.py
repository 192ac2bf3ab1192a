"""Each paper figure a RealCompanion table quotes is printed on the population the quote is about
(or a reading says it is not): the detector's "6 of 40" on the proportional stratum where its
threshold is set, Table 41's coverage over readable replies, the offset-permuted control without
true references, and the quotes of Tables 4, 5, 8, 36, 37, 38, 40 and 41."""

import json

import pytest

from evaluator.evaluate import evaluate
from evaluator.models.mock_backend import MockChatModel
from evaluator.realcompanion.sample import generate_sample
from evaluator.realcompanion.tables import paper_tables


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return generate_sample(tmp_path_factory.mktemp("rcpop") / "sample")


@pytest.fixture(scope="module")
def retrieval(root, tmp_path_factory):
    out = tmp_path_factory.mktemp("rcpop_run")
    m = evaluate(["realcompanion/retrieval"], rc_data=root, output_path=out,
                 progress=False)["realcompanion/retrieval"]
    return m, _lines(out, "realcompanion_retrieval")


def _lines(out, task):
    return [json.loads(x) for x in (out / f"samples_{task}.jsonl").read_text().splitlines()]


def _block(text, title):
    return text[text.index(title):].split("\n\n")[0]


def test_detection_rate_is_printed_on_the_stratum_where_the_threshold_is_set(retrieval):
    m, lines = retrieval
    cell = m["restraint"]["bm25_top"]
    prop = [s for s in lines if s["scoreable"] and not s["cold_open"]
            and s["stratum"] == "proportional"]
    fires = lambda s: s["detectors"]["bm25_top"] >= cell["threshold"]  # noqa: E731
    mem = [s for s in prop if s["memory_bearing"]]
    other = [s for s in prop if not s["memory_bearing"]]
    det, fa = cell["detection_rate_proportional"], cell["false_alarms_proportional"]
    assert (det["k"], det["n"]) == (sum(map(fires, mem)), len(mem))
    assert (fa["k"], fa["n"]) == (sum(map(fires, other)), len(other))
    assert det["k"] + fa["k"] == cell["fires_on_proportional"]
    # the all-memory-bearing figure keeps its own name and is another population
    assert cell["detection_rate_memory_bearing"]["n"] > det["n"] == m["demand_rate"]["estimate"]["k"]
    text = paper_tables("realcompanion/retrieval", m)
    table = _block(text, "Detector at the demand-rate threshold")
    assert f"(n = {len(prop)})" in table and f"{len(mem)} of them memory-bearing" in table
    assert '"阈值抓到 40 个真需求中的 6 个、报 40 个误警"' in table
    assert f"{det['k']}/{det['n']}" in table and f"{fa['k']}/{fa['n']}" in table
    auroc = _block(text, "Detector AUROC")
    assert "6 个" not in auroc and "Detection, every memory-bearing probe" in auroc


def test_offset_permuted_gold_never_holds_a_true_reference(retrieval):
    m, lines = retrieval
    rows = [s for s in lines if s["retrieval"]]
    with_offset = [s for s in rows if s["retrieval"]["gold"]["offset_permuted"]]
    for s in with_offset:
        assert not set(s["retrieval"]["gold"]["offset_permuted"]) & set(s["reference_ids"]), s["key"]
    # memory-bearing probes only (a thread probe's references are where other thread probes'
    # distances land), nearly all of them
    mem = [s for s in rows if s["memory_bearing"]]
    assert all(s["memory_bearing"] for s in with_offset) and len(with_offset) >= 0.9 * len(mem)
    assert m["retrieval"]["offset_permuted_gold"]["RECENCY"]["all"]["n_probes"] == len(with_offset)
    table = _block(paper_tables("realcompanion/retrieval", m), "Table 33.")
    assert f"Offset-permuted (n={len(with_offset)})" in table and "memory-bearing probes only" in table


@pytest.mark.parametrize("task", ["realcompanion/chat", "realcompanion/question"])
def test_table_41_coverage_counts_only_readable_non_empty_replies(root, tmp_path, task):
    r = evaluate([task], rc_data=root, output_path=tmp_path, progress=False, agent="none",
                 model=MockChatModel(replies=["", "I remember that."]), limit=20)[task]
    lines = _lines(tmp_path, task.replace("/", "_"))
    replied = sum(1 for s in lines if (s.get("prediction") or "").strip())
    assert 0 < replied < len(lines) == 20
    assert r["coverage"]["answered"] == replied and r["coverage"]["items"] == 20
    if task.endswith("chat"):
        assert r["n_scored"] == 20                       # n_scored keeps its meaning
    text = paper_tables(task, r)
    table = _block(text, "Table 41.")
    assert table.splitlines()[-1].startswith(f"{replied}/20 ")
    assert "readable, non-empty reply" in table
    own = "0.137 as the chat track's" if task.endswith("chat") else "0.331 as the question track's"
    assert own in table and '"Codex 移植问答题准确率 44.5%、聊天 58.1%,hit@5 仅 0.331 / 0.137"' in table


def _cell(mean, n):
    return {"pooled": {"mean": mean, "ci95": [mean - 0.01, mean + 0.01], "n": n},
            "macro": {"mean": mean, "ci95": [mean - 0.01, mean + 0.01]}}


def test_chat_table_heads_quote_each_figure_for_its_own_population():
    rates = {"misfire_rate": _cell(0.3, 5), "content_with_references": _cell(1.0, 6)}
    decomposition = {"n": 6, "n_memory_bearing": 2, "pi": 0.3, "gamma1": 0.1, "gamma0": 0.1,
                     "pi_gamma1": 0.03, "one_minus_pi_gamma0": 0.07, "delta": 0.1,
                     "share_from_no_memory_rows": 0.7}
    r = {"content_metric": "content_match", "per_condition": {"C1": rates, "C2": rates},
         "populations": {"with_references": 6, "misfire": 5, "all": 12},
         "contrasts": {"C2-C1": {"n": 6, "difference": _cell(0.1, 6),
                                 "difference_all_items": _cell(0.05, 12),
                                 "difference_per_participant": {"U01": {"mean": 0.1, "n": 6}},
                                 "decomposition": {"reference_set/recorded": decomposition}}}}
    text = paper_tables("realcompanion/chat", r)
    table5 = _block(text, "Table 5.")
    assert "not the paper's 1,477" in table5 and '1,477 = "probes with a reference set"' not in table5
    table36 = _block(text, "Table 36.")
    assert '"Table 36 shows the C2 − C1 contrast as +0.149 [+0.107, +0.201]"' in table36
    assert '"+0.140 across both strata"' in table36 and "while the paper's differ" in table36
    table8 = _block(text, "Table 8.")
    assert "br-eval's Table 36 whole-corpus value" in table8 and "+0.149" in table8
    table40 = _block(text, "Table 40.")
    assert "across all judged rows" in table40 and "Pooled, all judged rows" in table40
    assert "+0.050 [+0.040, +0.060] (n=12)" in table40.splitlines()[-1]
    table37 = _block(text, "Table 37.")
    assert "29.2%(oracle 证据)到 60.8%(BM25 十条)" in table37 and "drops to 50.8 %" in table37


def test_tables_4_and_38_name_the_digests_conflict_over_0_424(retrieval):
    m, _ = retrieval
    text = paper_tables("realcompanion/retrieval", m)
    for title in ("Table 4.", "Table 38."):
        block = _block(text, title)
        assert '"hit@5 BM25 0.248(按主体平均 0.424)"' in block and "Table 38 here takes recall@5" in block
