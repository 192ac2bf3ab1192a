"""realcompanion/retrieval end to end on the generated sample: methods, controls, journal,
resume, detectors, and the statistics against hand-computed values."""

import json
import math
import textwrap

import numpy as np
import pytest

from evaluator.evaluate import evaluate
from evaluator.errors import EvalError
from evaluator.realcompanion.data import load_release
from evaluator.realcompanion.retrieval import ParticipantRetrieval, plan_controls
from evaluator.realcompanion.retrieval_task import aggregate, task_probes
from evaluator.realcompanion.sample import generate_sample
from evaluator.stats import (auroc, expected_random_hit, participant_bootstrap,
                                           wilson)
from evaluator.stats import cluster_bootstrap

TASK = "realcompanion/retrieval"


def retrieval(out, sample=None, **kw) -> dict:
    """The retrieval task through evaluate(), as `br-eval run` does; its results.json entry."""
    return evaluate([TASK], rc_data=sample, output_path=out, progress=False, **kw)[TASK]


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return generate_sample(tmp_path_factory.mktemp("rc") / "sample")


@pytest.fixture(scope="module")
def release(sample):
    return load_release(sample)


@pytest.fixture(scope="module")
def full_run(sample, tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    metrics = retrieval(out, sample)
    return out, metrics


def _cell(metrics, gold, method, pop, metric, kind="pooled"):
    return metrics["retrieval"][f"{gold}_gold"][method][pop][kind][metric]["mean"]


def test_run_writes_one_journal_line_per_probe(full_run, release):
    out, metrics = full_run
    lines = [json.loads(x) for x in (out / "samples_realcompanion_retrieval.jsonl").read_text().splitlines()]
    probes = task_probes(release)
    assert [s["key"] for s in lines] == [f"{TASK}/{p.participant}/{p.probe_id}" for p in probes]
    assert metrics["n_probes"] == len(probes)
    assert metrics["n_retrieval_probes"] == sum(len(p.retrieval_probes) for p in release.participants)
    with_refs = [s for s in lines if s["retrieval"]]
    assert all(set(s["retrieval"]["ranks"]["true"]) == {"RANDOM", "RECENCY", "RECENCY-USER", "BM25",
                                                        "ORACLE", "BROKEN-ORACLE",
                                                        "BROKEN-ORACLE+FILL"} for s in with_refs)
    assert all(s["retrieval"] is None for s in lines if s["cold_open"])
    # nothing a method returned, and no substituted gold, lies at or after the probe
    for s in with_refs:
        part = release.participant(s["participant"])
        assert s["pool_size"] == s["position"]
        for mid in s["retrieval"]["bm25_top10"] + sum((g or [] for g in s["retrieval"]["gold"].values()), []):
            assert part.position(mid) < s["position"]
        ranks = s["retrieval"]["ranks"]["true"]
        assert all(1 <= r <= s["pool_size"] for m, rs in ranks.items() for r in rs
                   if m != "BROKEN-ORACLE")
        assert all(r is None for r in ranks["BROKEN-ORACLE"])    # returns only the partner's
    # the journal alone gives the metrics back
    again = aggregate(lines, seed=0)
    assert again["retrieval"] == metrics["retrieval"] and again["restraint"] == metrics["restraint"]


def test_metric_layout_pooled_and_macro_with_intervals(full_run):
    _, m = full_run
    cell = m["retrieval"]["true_gold"]["BM25"]["memory_bearing"]
    assert set(cell["pooled"]) == set(cell["macro"]) == {"hit@1", "hit@5", "hit@10", "all@1",
                                                         "all@5", "all@10", "recall@1",
                                                         "recall@5", "recall@10", "mrr"}
    assert cell["n_participants"] == 7            # three participants have no memory-bearing probe
    lo, hi = cell["pooled"]["hit@5"]["ci95"]
    assert lo <= cell["pooled"]["hit@5"]["mean"] <= hi and lo < hi
    assert m["settings"]["seed"] == 0 and "sha256" in m["settings"]["random_streams"]
    from evaluator.realcompanion.text import window_counter

    assert m["window_coverage"]["tokenizer"] == window_counter()[0]
    assert m["data"]["is_sample"] and m["data"]["participants"] == 10


def test_oracle_is_perfect_and_the_broken_oracle_is_not(full_run):
    _, m = full_run
    for pop in ("all", "memory_bearing"):
        for k in ("hit@1", "hit@5", "hit@10", "mrr"):
            assert _cell(m, "true", "ORACLE", pop, k) == 1.0
            assert _cell(m, "true", "ORACLE", pop, k, "macro") == 1.0
        # the paper's broken oracle returns another probe's references and nothing else: exactly 0
        for k in ("hit@1", "hit@5", "hit@10", "recall@5", "mrr"):
            assert _cell(m, "true", "BROKEN-ORACLE", pop, k) == 0.0
        # br-eval's padded variant, under its own name: no better than chance on this pool
        chance = m["retrieval"]["true_gold"]["RANDOM"][pop]["expected_pooled"]["hit@10"]
        assert _cell(m, "true", "BROKEN-ORACLE+FILL", pop, "hit@10") < chance + 0.06
        assert _cell(m, "true", "BROKEN-ORACLE+FILL", pop, "hit@1") < 0.06
    # the content method beats chance on distant probes, recency does not reach them
    assert _cell(m, "true", "BM25", "memory_bearing", "hit@5") > 0.2
    assert _cell(m, "true", "RECENCY", "memory_bearing", "hit@5") < 0.05


def test_recency_collapses_under_randomised_gold_and_survives_offsets(full_run):
    _, m = full_run
    true_r = _cell(m, "true", "RECENCY", "all", "hit@5")
    randomised = _cell(m, "position_randomised", "RECENCY", "all", "hit@5")
    expected = m["retrieval"]["position_randomised_gold"]["RANDOM"]["all"]["expected_pooled"]["hit@5"]
    assert true_r > 0.5 and randomised < 0.12 and abs(randomised - expected) < 0.06
    # offsets (memory-bearing probes only) keep distances: recency keeps its score; BM25 on
    # distant probes loses its content hits
    for k in ("hit@5", "mrr"):
        assert abs(_cell(m, "offset_permuted", "RECENCY", "memory_bearing", k)
                   - _cell(m, "true", "RECENCY", "memory_bearing", k)) < 0.1
    assert _cell(m, "offset_permuted", "BM25", "memory_bearing", "hit@5") < \
        _cell(m, "true", "BM25", "memory_bearing", "hit@5") / 2


def test_random_matches_its_expectation_over_seeds(release):
    """RANDOM's hit@10 averaged over seeds is within 4 standard errors of 1 - C(n-g,k)/C(n,k)."""
    hits, expected = [], []
    for seed in range(6):
        plan = plan_controls(release, seed)
        for part in release.participants:
            engine = ParticipantRetrieval(part)
            for p in part.retrieval_probes:
                rec = engine.retrieval_record(p, plan, seed, engine.bm25_scores(p))
                hits.append(min(rec["ranks"]["true"]["RANDOM"]) <= 10)
                expected.append(expected_random_hit(p.position, len(p.reference_positions), 10))
    e = np.array(expected)
    se = math.sqrt((e * (1 - e)).sum()) / len(e)
    assert abs(np.mean(hits) - e.mean()) < 4 * se


def test_resume_skips_done_probes_and_gives_the_same_metrics(full_run, sample, tmp_path):
    src, metrics = full_run
    lines = (src / "samples_realcompanion_retrieval.jsonl").read_text().splitlines(keepends=True)
    keep = len(lines) // 2
    # an interrupted run: half the lines, then a torn write
    (tmp_path / "samples_realcompanion_retrieval.jsonl").write_text("".join(lines[:keep]) + lines[keep][:40])
    resumed = retrieval(tmp_path, sample)
    after = (tmp_path / "samples_realcompanion_retrieval.jsonl").read_text().splitlines()
    assert len(after) == len(lines)
    assert [json.loads(x)["key"] for x in after] == [json.loads(x)["key"] for x in lines]
    for name in ("retrieval", "restraint", "demand_rate", "reach", "window_coverage", "summary"):
        assert resumed[name] == metrics[name], name
    # a third run finds everything done and writes nothing
    assert retrieval(tmp_path, sample)["retrieval"] == metrics["retrieval"]
    assert len((tmp_path / "samples_realcompanion_retrieval.jsonl").read_text().splitlines()) == len(lines)
    # resuming with another seed would mix two experiments: refused
    with pytest.raises(EvalError, match="--seed 0"):
        retrieval(tmp_path, sample, seed=3)


def test_score_refuses_a_journal_of_an_earlier_layout(full_run, sample, tmp_path, capsys):
    """Lines of another journal version (its controls were computed otherwise) are not scored
    again and shown under today's readings: `score` says so in one line, as `run` does."""
    import shutil

    from evaluator.cli import main

    src, _ = full_run
    out = tmp_path / "old"
    shutil.copytree(src, out)
    path = out / "samples_realcompanion_retrieval.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    for line in lines:
        line["journal_version"] = 2
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    capsys.readouterr()
    assert main(["score", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert "journal version 2" in err[-1] and "--overwrite" in err[-1]


def test_limit_and_seed_are_honoured(sample, tmp_path):
    m = retrieval(tmp_path, sample, limit=7, seed=5)
    lines = [json.loads(x) for x in (tmp_path / "samples_realcompanion_retrieval.jsonl").read_text().splitlines()]
    assert len(lines) == 7 == m["n_probes"] and all(s["seed"] == 5 for s in lines)
    assert m["settings"]["seed"] == 5


def test_demand_rate_reach_and_misfire(full_run, release):
    _, m = full_run
    prop = [p for part in release.participants for p in part.scoreable_probes
            if p.stratum == "proportional"]
    k = sum(p.memory_bearing for p in prop)
    assert m["demand_rate"]["estimate"] == wilson(k, len(prop))
    assert 0.01 < m["demand_rate"]["estimate"]["rate"] < 0.1
    memory = [p for part in release.participants for p in part.retrieval_probes if p.memory_bearing]
    far = sorted(p.position - p.reference_positions[0] for p in memory)
    assert m["reach"]["farthest_reference"]["max"] == far[-1]
    assert m["reach"]["farthest_reference"]["median"] == float(np.median(far))
    shares = m["window_coverage"]["messages"]
    assert shares["10"]["rate"] == 0.0 and shares["10000"]["rate"] == 1.0
    assert [shares[str(n)]["k"] for n in (10, 50, 100, 500, 1000)] == sorted(
        shares[str(n)]["k"] for n in (10, 50, 100, 500, 1000))
    bm = m["restraint"]["bm25_top"]
    assert bm["fires_on_proportional"] >= k       # the threshold fires at the demand rate (ties add)
    assert bm["misfire_rate"]["n"] == bm["misfire_rate_no_referent"]["n"] + bm["misfire_rate_cold_opens"]["n"]
    assert 0.0 <= bm["auroc_memory_vs_no_referent"]["auroc"] <= 1.0
    assert bm["auroc_memory_vs_cold_opens"]["n_neg"] == sum(len(p.cold_opens) for p in release.participants)


def test_a_user_detector_from_the_command_line(sample, tmp_path, monkeypatch):
    (tmp_path / "my_detectors.py").write_text(textwrap.dedent("""
        def oracle_like(probe, pool):
            assert all(m.position < probe.position for m in pool) and len(pool) == probe.position
            return 1.0 if probe.memory_bearing else 0.0
        def boom(probe, pool):
            if probe.position > 30:
                raise RuntimeError("model down")
            return 0.5
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    m = retrieval(tmp_path / "a", sample, detector="my_detectors:oracle_like")
    mine = m["restraint"]["my_detectors:oracle_like"]
    assert mine["auroc_memory_vs_no_referent"]["auroc"] == 1.0
    assert mine["auroc_memory_vs_cold_opens"]["auroc"] == 1.0
    assert mine["misfire_rate"]["rate"] == 0.0 and mine["detection_rate_memory_bearing"]["rate"] == 1.0
    assert "bm25_top" in m["restraint"]

    with pytest.raises(EvalError, match=r"my_detectors:boom: failed on probe U\d\d/p\d+ .*model down"):
        retrieval(tmp_path / "b", sample, detector="my_detectors:boom")
    assert (tmp_path / "b" / "samples_realcompanion_retrieval.jsonl").read_text().strip()  # kept
    for bad, msg in [("nocolon", "expected package.module:function"),
                     ("no_such_mod_xyz:f", "cannot import"), ("my_detectors:absent", "no function")]:
        with pytest.raises(EvalError, match=msg):
            retrieval(tmp_path / "c", sample, detector=bad)


def test_default_data_runs_on_the_cached_sample(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BR_EVAL_HOME", str(tmp_path / "home"))
    m = retrieval(tmp_path / "out", limit=3)
    assert m["data"]["is_sample"] and "generated RealCompanion sample" in capsys.readouterr().err


# -- statistics against hand-computed values ------------------------------------------------------
def test_wilson_interval_by_hand():
    w = wilson(5, 10)       # p = 0.5: centre 0.5, half-width 1.96*sqrt(.025+.0096)/1.384 = 0.2634
    assert w["rate"] == 0.5 and w["ci95"] == pytest.approx([0.2366, 0.7634], abs=1e-4)
    assert wilson(0, 10)["ci95"] == pytest.approx([0.0, 0.2775], abs=1e-4)
    assert wilson(0, 10)["ci95"][0] == 0.0 and wilson(10, 10)["ci95"][1] == 1.0
    assert wilson(40, 1169)["ci95"] == pytest.approx([0.0252, 0.0463], abs=1e-4)
    assert wilson(0, 0) is None


def test_auroc_by_hand():
    # pairs: 0.9 beats 3, 0.8 beats 3, 0.4 beats 0.1, ties 0.4 (half) -> 7.5 / 9
    assert auroc([0.9, 0.8, 0.4], [0.5, 0.4, 0.1]) == pytest.approx(7.5 / 9)
    assert auroc([2, 3], [0, 1]) == 1.0 and auroc([0, 1], [2, 3]) == 0.0
    assert auroc([1, 1, 1], [1, 1]) == 0.5
    assert auroc([], [1]) is None


def test_bootstrap_pooled_matches_cluster_bootstrap_and_macro_weights_participants():
    values = [1, 1, 1, 1, 0, 0, 1, 0]
    clusters = ["A", "A", "A", "A", "B", "B", "C", "C"]
    est = participant_bootstrap(values, clusters, seed=4)
    ref = cluster_bootstrap(values, clusters, seed=4)
    assert est["pooled"]["mean"] == ref.mean == 5 / 8
    assert est["pooled"]["ci95"] == pytest.approx([ref.ci_low, ref.ci_high])
    assert est["macro"]["mean"] == pytest.approx((1 + 0 + 0.5) / 3)
    assert est["macro"]["n_participants"] == 3
    assert expected_random_hit(10, 1, 5) == pytest.approx(0.5)
    assert expected_random_hit(10, 2, 1) == pytest.approx(0.2)
