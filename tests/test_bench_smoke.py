"""Every bench script still runs (nothing else runs them: bench/throughput.py once broke silently
when the run loop changed). Each is started as `python bench/X.py` at a tiny size, offline, and
must exit 0 and print its main figure lines; what it needs and cannot find is one line and exit 1.

Timings are not checked (the figures at these sizes say nothing); the goals the scripts print
(OK / MISSED / met) never decide their exit code. Not here: bench/throughput.py (its own test in
test_endpoints.py), bench/media.py and bench/media_release.py (they generate 720p video first,
too slow for a test), run by hand. bench/view.py's render rows need Chromium and
chromedriver; without them the script says so and only its build rows are checked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def bench(script: str, *args, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / script), *map(str, args)],
                          check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if check:
        assert proc.returncode == 0, f"bench/{script} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc


def lines_with(out: str, *starts: str) -> None:
    for start in starts:
        assert any(line.lstrip().startswith(start) for line in out.splitlines()), \
            f"no line starting {start!r} in:\n{out}"


def test_load_and_filter(sample_snapshot):
    out = bench("load_and_filter.py", sample_snapshot).stdout
    lines_with(out, "plain json.load (reference)", "br-eval load_tasks", "visible history, all questions")


def test_run_overhead(sample_snapshot):
    out = bench("run_overhead.py", sample_snapshot).stdout
    lines_with(out, "load + visible history (floor)", "run, null agent, end to end",
               "harness overhead per question", "run, BM25 baseline, end to end")


def test_view(sample_snapshot):
    out = bench("view.py", sample_snapshot).stdout
    lines_with(out, "items: ", "report build (incl. thumbnails)", "report file size")
    if shutil.which("chromium") and shutil.which("chromedriver"):
        lines_with(out, "reference: runtime-only page", "time to first render", "open one item's drill-down",
                   "reference: every item built up front")
    else:
        lines_with(out, "chromium / chromedriver not installed")


def test_scoring_speed():
    out = bench("scoring_speed.py", "--n", 40).stdout
    lines_with(out, "answers: 40", "reference, SQuAD token F1 only:", "br-eval score_answer (all metrics):",
               "aggregate (11 metrics, 2,000 clustered bootstrap resamples):")


def test_scoring_quality():
    from labelsets import MC_HELDOUT, REFUSAL_HELDOUT, TUNE

    out = bench("scoring_quality.py").stdout
    lines_with(out, f"refusal/{TUNE}", f"refusal/{REFUSAL_HELDOUT}", f"multiple_choice/{TUNE}",
               f"multiple_choice/{MC_HELDOUT}")


def test_rc_tracks():
    out = bench("rc_tracks.py").stdout
    lines_with(out, "chat, agent mode", "chat, conditions C0-C4m", "question (full-context)",
               "reconstruction (full-context)")


def test_rc_retrieval():
    from evaluator.realcompanion.retrieval import GOLD_SETS, METHODS

    out = bench("rc_retrieval.py", "--scale", "0.02", "--naive-probes", 5).stdout
    # the label once said 6 methods x 3 gold sets after the task had grown to 7 and 4
    lines_with(out, f"whole retrieval task, fast path (load, index, {len(METHODS)} methods, {len(GOLD_SETS)} gold sets,",
               "BM25 alone, fast path", "br-eval naive_scores (reference)",
               "checks on the measured probes: fast == naive scores bit for bit on 5/5")


def test_verify(tmp_path):
    out = bench("verify.py", "--size-gb", "0.02", "--repeats", 1, "--dir", tmp_path).stdout
    lines_with(out, "sha256sum -c", "br-eval verify --workers 1", "br-eval verify --workers 2", "goal 1 worker")
    assert not any(tmp_path.iterdir())        # its temporary snapshot is removed


def test_audio():
    pytest.importorskip("torch")          # the transcript rows time a tiny Whisper (br-eval[vlm])
    out = bench("audio.py", "--lengths", 3, "--repeat", 1).stdout
    lines_with(out, "raw PyAV decode -> 16 kHz mono", "cache cold (audio -> WAV)", "cache warm (audio)",
               "transcript cold", "transcript hit")


def test_backends():
    out = bench("backends.py", 3).stdout
    lines_with(out, "request, local server: OpenAIChatModel", "preflight (GET /models",
               "unreachable server stops after", "reference: the same server through generate()",
               "trickling reply")


def test_hf_threads():
    pytest.importorskip("transformers")   # it builds a random-weight LLaVA (br-eval[vlm])
    out = bench("hf_threads.py", 4, 1, 32).stdout
    lines_with(out, "reference: generation on the caller's thread", "br-eval: one model thread",
               "br-eval at 4 callers / reference at 4 callers")


def test_judge_calibration_with_a_mock_judge():
    out = bench("judge_calibration.py", "--judge", "mock", "--judge_args", "replies=Score: 1").stdout
    # the mock accepts everything: every wrong answer is a false accept, no right one rejected
    lines_with(out, "judge mock                                100.0%          0.0%",
               "reference: token F1 >= 0.5                 25.7%         29.5%",
               "(105 wrong, 105 right judged; 0 judge errors)")


@pytest.mark.parametrize("script,args,message", [
    ("judge_calibration.py", ["--judge", "mock"], "the judge failed on every wrong answer"),
    ("judge_calibration.py", ["--judge", "openai"], "the openai judge needs --judge_args base_url=...,model=..."),
    ("judge_calibration.py", ["--judge", "openai", "--judge_args", "base_url=http://127.0.0.1:9/v1,model=m"],
     "cannot reach the server at http://127.0.0.1:9/v1"),
    ("load_and_filter.py", ["{missing}"], "not a Beyond Recall snapshot"),
    ("rc_tracks.py", ["{missing}"], "no such folder"),
    ("audio.py", ["--lengths", "1", "--asr", "{missing}"], "not a model folder"),
])
def test_missing_input_is_one_line(tmp_path, script, args, message):
    missing = tmp_path / "missing"
    proc = bench(script, *[a.format(missing=missing) for a in args], check=False)
    # 2 for a usage mistake (a judge without its arguments), 1 for the rest, as br-eval exits
    code = 2 if "needs --judge_args" in message else 1
    assert proc.returncode == code and message in proc.stderr and "Traceback" not in proc.stderr, \
        proc.stderr


def test_a_missing_optional_module_is_one_line(monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    monkeypatch.setattr(sys, "argv", ["bench/view.py"])
    from _common import run

    def main():
        import selenium_that_is_not_installed  # noqa: F401

    assert run(main) == 1
    assert capsys.readouterr().err == ("bench/view.py: needs the Python module "
                                       "'selenium_that_is_not_installed', which is not installed\n")


def test_memory_writes(sample_snapshot):
    out = bench("memory_writes.py", "--data", sample_snapshot, "--questions", 2).stdout
    lines_with(out, "history: memory_update, 2 question(s)", "rag (BM25 index)", "rag (embed)",
               "mem0", "rag (embed) / rag (BM25 index), time per turn")
