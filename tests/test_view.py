"""`br-eval compare` and `br-eval view` on real runs of the generated sample (mock backend
scripted to be right on known items), and the paired statistics they use, against values computed
by hand. The browser checks are in test_view_browser.py."""

import json
import re
from html.parser import HTMLParser

import pytest

from beyondrecall import load_tasks
from evaluator.cli import main
from evaluator.stats import mcnemar_exact, paired_cluster_bootstrap, resamples

TASKS = ["memory_update", "temporal_anchoring", "cross_modal_semantic_matching"]
WRONG = "zzz qqq"
# memory_update has 7 questions, temporal_anchoring 4, cross_modal_semantic_matching 3 (media).
MU, TA = "memory_update", "temporal_anchoring"
RIGHT_A = {(MU, 0), (MU, 1), (MU, 2)}
RIGHT_B = {(MU, 0), (MU, 3), (MU, 4), (MU, 5), (MU, 6), (TA, 0)}


# -- statistics ---------------------------------------------------------------------------------
def test_mcnemar_exact_matches_the_binomial_tail_by_hand():
    # b=1, c=5: n=6, P(X<=1) = (1 + 6) / 64, two-sided doubles it.
    assert mcnemar_exact(1, 5) == pytest.approx(14 / 64)
    assert mcnemar_exact(5, 1) == pytest.approx(14 / 64)
    assert mcnemar_exact(2, 5) == pytest.approx(2 * (1 + 7 + 21) / 128)
    assert mcnemar_exact(0, 10) == pytest.approx(2 / 1024)
    assert mcnemar_exact(3, 3) == 1.0 and mcnemar_exact(0, 0) == 1.0


def test_paired_cluster_bootstrap_resamples_clusters_of_differences():
    a = [1, 0, 1, 0, 0, 1]
    b = [1, 1, 1, 1, 0, 0]
    clusters = ["x", "x", "y", "y", "z", "z"]
    est = paired_cluster_bootstrap(a, b, clusters, n_boot=500, seed=3)
    assert est["mean"] == pytest.approx(1 / 6) and est["n"] == 6 and est["n_clusters"] == 3
    # By hand: per-cluster sums of (b - a) are x: 1, y: 1, z: -1, each of 2 items; the interval
    # is the 2.5/97.5 percentiles of resampled sum / count over the shared draws.
    import numpy as np

    sums, counts = np.array([1.0, 1.0, -1.0]), np.array([2.0, 2.0, 2.0])
    idx = resamples(3, 500, 3)
    expect = np.percentile(sums[idx].sum(1) / counts[idx].sum(1), [2.5, 97.5])
    assert est["ci95"] == pytest.approx(list(expect))
    assert est["ci95"][0] < est["mean"] < est["ci95"][1]
    # a missing side drops the pair; one cluster gives a point interval
    assert paired_cluster_bootstrap([1, None], [0, 1], ["x", "x"])["n"] == 1
    assert paired_cluster_bootstrap([0, 0], [1, 1], ["x", "x"])["ci95"] == [1.0, 1.0]
    assert paired_cluster_bootstrap([], [], []) is None


# -- two scripted runs -----------------------------------------------------------------------------
def _questions(snapshot):
    out = []
    for t in load_tasks(snapshot, TASKS):
        for i, (traj, q) in enumerate(t.questions()):
            out.append((t.name, str(q.key), str(traj.id), q.question, q.answer, (t.name, i)))
    return out


def _scripted_run(snapshot, tmp_path, name, right: set[tuple[str, int]], extra=()):
    """right: (task, index of the question within the task) answered with the gold answer."""
    qs = _questions(snapshot)
    # Scripted in question order (one worker answers tasks and questions in file order).
    replies = [q[4] if q[5] in right else WRONG for q in qs]
    rfile = tmp_path / f"{name}.json"
    rfile.write_text(json.dumps(replies))
    out = tmp_path / name
    assert main(["run", "--no-progress", "--tasks", ",".join(TASKS), "--data", str(snapshot),
                 "--agent", "none", "--model", "mock", "--model_args", f"replies={rfile}",
                 "--num_concurrent", "1", "--output_path", str(out), *extra]) == 0
    return out, qs


@pytest.fixture(scope="module")
def two_runs(sample_snapshot, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cmp")
    a, qs = _scripted_run(sample_snapshot, tmp, "A", RIGHT_A)
    b, _ = _scripted_run(sample_snapshot, tmp, "B", RIGHT_B,
                         extra=["--gen_kwargs", "max_tokens=64"])
    return a, b, qs


def test_scripted_runs_score_exactly_the_scripted_items(two_runs):
    a, b, qs = two_runs
    for run, right in ((a, RIGHT_A), (b, RIGHT_B)):
        got = {}
        for task in TASKS:
            for line in (run / f"samples_{task}.jsonl").read_text().splitlines():
                s = json.loads(line)
                got[s["key"]] = s["metrics"]["primary"]
        assert got == {q[1]: (1.0 if q[5] in right else 0.0) for q in qs}


def test_compare_json_equals_hand_computed_values(two_runs, capsys):
    a, b, qs = two_runs
    assert sorted(q[0] for q in qs) == sorted([MU] * 7 + [TA] * 4 + [TASKS[2]] * 3)
    assert main(["compare", str(a), str(b), "--json"]) == 0
    out = capsys.readouterr()
    cmp = json.loads(out.out)
    # Both right: MU0; only A: MU1, MU2; only B: MU3-6, TA0; both wrong: the other 6 of 14.
    # The overall is the mean of the three task means (README "Overall"), not a pool of items:
    # A = (3/7 + 0 + 0) / 3, B = (5/7 + 1/4 + 0) / 3.
    overall = cmp["overall"]["beyondrecall"]
    assert (overall["n"], overall["n_tasks"], overall["of"]) == (14, 3, 11)
    assert overall["mean_a"] == pytest.approx(1 / 7)
    assert overall["mean_b"] == pytest.approx((5 / 7 + 1 / 4) / 3)
    assert overall["diff"]["mean"] == pytest.approx((2 / 7 + 1 / 4) / 3)
    for run, key in ((a, "mean_a"), (b, "mean_b")):       # the same value results.json holds
        assert json.loads((run / "results.json").read_text())["overall"]["beyondrecall"][
            "mean"] == pytest.approx(overall[key])
    mu = cmp["tasks"]["memory_update"]      # only A: 1, 2; only B: 3, 4, 5, 6
    assert (mu["won"], mu["lost"], mu["tied"]) == (4, 2, 1)
    assert mu["diff"]["mean"] == pytest.approx(2 / 7)
    assert mu["mcnemar"]["p"] == pytest.approx(2 * (1 + 6 + 15) / 2 ** 6)
    ta = cmp["tasks"]["temporal_anchoring"]  # only B: TA0
    assert (ta["won"], ta["lost"], ta["tied"]) == (1, 0, 3)
    assert ta["mcnemar"]["p"] == pytest.approx(1.0)
    # the interval resamples trajectories: its n_clusters is the number of (task, trajectory)s
    clusters = {(q[0], q[2]) for q in qs}
    assert overall["diff"]["n_clusters"] == len(clusters)
    assert overall["diff"]["ci95"][0] <= overall["diff"]["mean"] <= overall["diff"]["ci95"][1]
    cm = cmp["tasks"][TASKS[2]]
    assert (cm["won"], cm["lost"], cm["tied"], cm["diff"]["mean"]) == (0, 0, 3, 0.0)
    # different generation settings are warned about, naming the setting
    assert any(w.startswith("gen_kwargs differs") for w in cmp["warnings"])


def test_compare_table_and_warning_line(two_runs, capsys):
    a, b, _ = two_runs
    assert main(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr()
    assert "warning: the runs are not the same test: gen_kwargs differs" in out.err
    row = next(l for l in out.out.splitlines() if l.startswith("overall"))
    assert row.startswith("overall (beyondrecall, 3 of 11 tasks)")
    assert row.split()[6:9] == ["14", f"{1 / 7:.3f}", f"{(5 / 7 + 1 / 4) / 3:.3f}"]
    assert f"{(2 / 7 + 1 / 4) / 3:+.3f}" in row and row.split()[-4:] == ["-", "-", "-", "-"]


def test_compare_bad_folder_is_one_line(tmp_path, capsys):
    assert main(["compare", str(tmp_path / "nope"), str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such run folder" in err[0]
    assert not (tmp_path / "nope").exists()


# -- view --------------------------------------------------------------------------------------------
class _Refs(HTMLParser):
    """Every URL an element of the page would load (src, href, CSS url())."""

    def __init__(self):
        super().__init__()
        self.urls, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href", "data", "poster", "srcset", "action") and v:
                self.urls.append(v)


def _payload(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="payload">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_view_writes_one_offline_file_with_items_plots_and_thumbnails(two_runs, capsys):
    a, b, qs = two_runs
    assert main(["view", str(a), str(b)]) == 0
    out = a / "report.html"
    assert str(out) in capsys.readouterr().out
    html = out.read_text()
    refs = _Refs()
    refs.feed(html)
    assert all(u.startswith("data:") for u in refs.urls)     # the page makes its images in JS
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert not re.search(r"""<(script|link|img|iframe)[^>]+(src|href)=["']?(https?:)?//""", html)
    data = _payload(html)
    # every item of both runs, side by side
    assert len(data["items"]) == len(qs)
    q3 = next(q for q in qs if q[5] == (MU, 3))
    item = next(it for it in data["items"] if it["k"] == q3[1])
    assert item["q"] == q3[3] and item["a"] == q3[4]
    assert [r["s"] for r in item["r"]] == [0.0, 1.0] and [r["o"] for r in item["r"]] == ["wrong", "right"]
    assert item["r"][0]["p"] == WRONG
    # the header and the task table of each run
    assert [r["header"]["agent"] for r in data["runs"]] == ["none", "none"]
    assert data["runs"][0]["header"]["revision"] == "generated sample"
    assert {t["task"] for t in data["runs"][1]["tasks"]} == set(TASKS)
    assert data["comparison"]["tasks"]["memory_update"]["won"] == 4
    assert data["comparison"]["overall"]["beyondrecall"]["mean_a"] == pytest.approx(1 / 7)
    assert [d["mean"] for d in data["runs"][0]["dimensions"]
            if d["dimension"] == "overall (beyondrecall)"] == [pytest.approx(1 / 7)]
    assert "task_scores" in data["plots"]
    # media the agent saw: thumbnails are small JPEG data URIs
    with_media = [r for it in data["items"] for r in it["r"] if r and r.get("media")]
    used = sum(1 for run in (a, b) for t in TASKS
               for line in (run / f"samples_{t}.jsonl").read_text().splitlines()
               if json.loads(line)["inputs"].get("media_used"))
    assert used and len(with_media) == used
    for r in with_media:
        for m in r["media"]:
            for tid in m["thumbs"]:
                uri = data["thumbs"][tid]
                assert uri.startswith("data:image/jpeg;base64,") and len(uri) < 40_000


def test_view_thumbnails_of_pdf_pages_video_frames_and_images(sample_snapshot):
    """Each media kind from the media cache, with the run's settings."""
    import base64
    import io

    from PIL import Image

    from evaluator.records import Sample
    from evaluator.view.report import Thumbnails
    from evaluator.view.runs import RunData

    bench = sample_snapshot / "benchmark"
    pdf = next(bench.glob("images/*.pdf")).relative_to(bench).as_posix()
    video = next(bench.glob("videos/*.mp4")).relative_to(bench).as_posix()
    image = next(bench.glob("images/*.png")).relative_to(bench).as_posix()
    run = RunData(sample_snapshot, "r", {"data": {"path": str(sample_snapshot)},
                                        "config": {"settings": {"frames": 4}}}, {})
    s = Sample("k", "t", inputs={"media_used": [
        {"path": pdf, "kind": "pdf", "pages": [1]},
        {"path": video, "kind": "video", "frames": []},
        {"path": image, "kind": "image"},
        {"path": "../outside.png", "kind": "image"}]})
    th = Thumbnails()
    media = th.for_sample(run, s)
    assert [m["kind"] for m in media] == ["pdf", "video", "image"]
    assert len(media[0]["thumbs"]) == 1 and len(media[1]["thumbs"]) == 4
    assert len(th.failed) == 1 and "outside.png" in th.failed[0]     # refused, not fatal
    for tid in media[1]["thumbs"]:
        raw = base64.b64decode(th.uris[tid].split(",", 1)[1])
        with Image.open(io.BytesIO(raw)) as im:
            assert im.format == "JPEG" and im.width <= 160 and im.height <= 120


def test_view_of_a_folder_without_results_is_one_line(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["view", str(tmp_path / "empty")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no results.json" in err[0]


def test_view_reads_failed_items_with_their_error_kind(sample_snapshot, tmp_path):
    out = tmp_path / "failing"
    assert main(["run", "--no-progress", "--tasks", "memory_update", "--data", str(sample_snapshot),
                 "--agent", "none", "--model", "mock", "--model_args", "replies=x,fail_on=2",
                 "--num_concurrent", "1", "--output_path", str(out)]) in (0, 1)
    from evaluator.view.report import build_report
    from evaluator.view.runs import load_run

    data = _payload(build_report([load_run(out)], thumbnails=False))
    failed = [it["r"][0] for it in data["items"] if it["r"][0]["o"] == "failed"]
    assert len(failed) == 1 and failed[0]["ek"] == "model" and "scripted failure" in failed[0]["e"]
    assert failed[0]["tb"] and failed[0]["s"] is None
    assert data["runs"][0]["tasks"][0]["failed"] == 1


def test_view_shows_each_runs_own_version_of_a_changed_item(sample_snapshot, tmp_path):
    """Side by side, an item answered for another version (item_fp differs) shows that run's
    own question and reference, flagged; it was shown with the first run's text only."""
    import shutil

    from evaluator.view.report import build_report
    from evaluator.view.runs import load_run

    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--output_path", str(a)]) == 0
    shutil.copytree(a, b)
    path = b / "samples_memory_update.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines[0].update(item_fp="0" * 16, question="A DIFFERENT QUESTION?", answer="Elm Street")
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    data = _payload(build_report([load_run(a), load_run(b)], thumbnails=False))
    item = next(it for it in data["items"] if it["k"] == lines[0]["key"])
    assert item["changed"] and "v" not in item["r"][0]
    assert item["r"][1]["v"] == {"q": "A DIFFERENT QUESTION?", "a": "Elm Street"}
    others = [it for it in data["items"] if it["k"] != lines[0]["key"]]
    assert not any(it.get("changed") for it in others)


def test_view_embeds_long_texts_within_a_bound_and_says_so(sample_snapshot, tmp_path):
    from evaluator.view.report import MAX_TEXT_CHARS, build_report
    from evaluator.view.runs import load_run

    out = tmp_path / "long"
    assert main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--output_path", str(out)]) == 0
    path = out / "samples_memory_update.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines[0]["prediction"] = "word " * 40_000                  # 200,000 characters
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    data = _payload(build_report([load_run(out)], thumbnails=False))
    shown = next(it for it in data["items"] if it["k"] == lines[0]["key"])["r"][0]["p"]
    assert len(shown) < MAX_TEXT_CHARS + 200
    assert "180,000 more characters left out of this page" in shown


def test_view_and_compare_join_newer_shards_first(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "sharded"
    for task in ("memory_update", "temporal_anchoring"):
        for i in (0, 1):
            assert main(["run", "--no-progress", "--task", task, "--shard", f"{i}/2", "--data",
                         str(sample_snapshot), "--output_path", str(out)]) == 0
        if task == "memory_update":
            assert main(["merge", str(out)]) == 0
    assert main(["view", str(out), "-o", str(tmp_path / "r.html")]) == 0
    data = _payload((tmp_path / "r.html").read_text())
    assert {t["task"] for t in data["runs"][0]["tasks"]} == {"memory_update", "temporal_anchoring"}
    capsys.readouterr()
    assert main(["compare", str(out), str(out), "--json"]) == 0
    assert "temporal_anchoring" in json.loads(capsys.readouterr().out)["tasks"]


@pytest.mark.parametrize("present, said", [
    (["chromium"], "chromedriver is not installed"),
    (["chromedriver"], "chromium is not installed"),
    ([], "chromium and chromedriver are not installed"),
])
def test_the_browser_tests_skip_line_names_what_is_missing(tmp_path, present, said):
    """Issue 25, item 8: the skip said "chromium and chromedriver are not installed" when only
    chromedriver was missing. Collected in a child pytest whose PATH holds only `present`."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in present:
        tool = bin_dir / name
        tool.write_text("#!/bin/sh\nexit 0\n")
        tool.chmod(0o755)
    tests = Path(__file__).resolve().parent
    env = {k: v for k, v in os.environ.items() if k != "BR_EVAL_REQUIRE_BROWSER"}
    env["PATH"] = str(bin_dir)
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                          str(tests / "test_view_browser.py")], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=120)
    skipped = [line for line in out.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1 and skipped[0].endswith(
        f"{said} (Debian: apt-get install chromium chromium-driver)"), out.stdout + out.stderr


def test_an_outcome_reads_the_score_on_its_metrics_scale():
    """The chat track's content match runs 0-2: 1 is partial, 2 right (not 1 right)."""
    from evaluator.records import Sample
    from evaluator.view.runs import outcome

    s = Sample("realcompanion/chat/U01/p1", "realcompanion/chat", metrics={"primary": 1.0})
    assert outcome(s, 1.0, "content_match") == "partial"
    assert outcome(s, 2.0, "content_match") == "right" and outcome(s, 0.0, "content_match") == "wrong"
    assert outcome(s, 1.0, "token_f1") == "right"
