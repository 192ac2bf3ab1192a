"""`br-eval run` with real backends: an OpenAI-compatible server on 127.0.0.1 (through the
openai client) and a tiny random-weight LLaVA through transformers.

The tiny model's weights are random, so its answers are noise: this CANNOT show answer quality.
It shows that images, video frames and PDF pages travel from the media cache through the chat
template to the model, and that the run records and scores what comes back."""

import base64
import json


from beyondrecall import load_task
from evaluator.cli import main
from test_models_hf import tiny_llava, tiny_tokenizer  # noqa: F401  (fixture + helper)
from test_models_openai import FakeOpenAIServer, chat_completion, error_body
from test_media_clip import tiny  # noqa: F401  (a tiny open_clip checkpoint)


def journal(path, task):
    return [json.loads(l) for l in (path / f"samples_{task}.jsonl").read_text().splitlines()]


def test_openai_backend_run_with_media_and_a_retried_500(sample_snapshot, tmp_path):
    task = "cross_modal_semantic_matching"
    with FakeOpenAIServer() as srv:
        # the preflight's text and image probes pass, then the first question's call fails once
        srv.script = [None, None, (500, error_body("overloaded"))]
        out = tmp_path / "run"
        code = main(["run", "--no-progress", "--task", task, "--data", str(sample_snapshot),
                     "--agent", "rag", "--model", "openai", "--frames", "3",
                     "--model_args", f"base_url={srv.base_url},model=tiny-vlm,backoff=0.01,concurrency=2",
                     "--output_path", str(out), "--log_samples"])
        assert code == 0
        requests = srv.questions
        assert len(srv.requests) == len(requests) + 2               # text and image probes
    n = load_task(sample_snapshot, task).n_questions
    assert len(requests) == n + 1                                  # one retry
    samples = journal(out, task)
    assert len(samples) == n and not any(s.get("error") for s in samples)
    assert all(s["prediction"].startswith("echo:") and s["input_tokens"] == 42 for s in samples)
    # images arrived as data URLs: question photos, and 3 frames for each video
    urls = [p["image_url"]["url"] for r in requests[1:] for m in r["messages"]
            if isinstance(m["content"], list) for p in m["content"] if p["type"] == "image_url"]
    assert urls and all(u.startswith("data:image/") for u in urls)
    assert base64.b64decode(urls[0].split(",", 1)[1])[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0", b"\xff\xd8\xff\xdb")
    videos = [u for s in samples for u in s["inputs"]["media_used"] if u["kind"] == "video" and not u.get("text")]
    assert videos and all(len(u["frames"]) == 3 for u in videos)
    assert all(s["prompt_hash"] and s["prompt"] for s in samples)


def test_openai_server_down_is_recorded_not_scored(sample_snapshot, tmp_path, capsys):
    with FakeOpenAIServer() as srv:
        srv.script = [None, None] + [(503, error_body("down"))] * 50      # up at the preflight
        out = tmp_path / "run"
        code = main(["run", "--no-progress", "--task", "memory_update", "--limit", "2",
                     "--data", str(sample_snapshot), "--agent", "recent", "--model", "openai",
                     "--model_args", f"base_url={srv.base_url},model=m,backoff=0.01,max_retries=1",
                     "--output_path", str(out)])
    assert code == 1
    err = capsys.readouterr().err
    assert "2 question(s) failed" in err and "Traceback" not in err
    samples = journal(out, "memory_update")
    assert all(s["error_kind"] == "model" and "503" in s["error"] for s in samples)
    res = json.loads((out / "results.json").read_text())["results"]["memory_update"]
    assert res["n_failed"] == 2 and res["n_scored"] == 0


def test_hf_backend_run_with_images_frames_and_pages(sample_snapshot, tmp_path, tiny_llava,
                                                     monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "run"
    tasks = "cross_modal_semantic_matching,cross_modal_relational_reasoning"
    code = main(["run", "--no-progress", "--tasks", tasks, "--limit", "2",
                 "--data", str(sample_snapshot), "--agent", "recent", "--agent_args", "n=2",
                 "--model", "hf", "--frames", "2", "--model_args",
                 f"pretrained={tiny_llava},max_new_tokens=3,device=cpu",
                 "--output_path", str(out)])
    assert code == 0
    used = [u for t in tasks.split(",") for s in journal(out, t) for u in s["inputs"]["media_used"]]
    kinds = {u["kind"] for u in used}
    assert "video" in kinds and "image" in kinds
    for t in tasks.split(","):
        for s in journal(out, t):
            assert not s.get("error") and isinstance(s["prediction"], str)
            assert s["input_tokens"] > 0 and s["metrics"]["primary"] is not None


def test_use_cache_answers_a_second_run_without_the_server(sample_snapshot, tmp_path):
    cache = tmp_path / "responses.sqlite"
    common = ["run", "--no-progress", "--task", "cross_modal_relational_reasoning",
              "--data", str(sample_snapshot), "--agent", "full-context", "--model", "openai",
              "--use_cache", str(cache)]
    with FakeOpenAIServer() as srv:
        args = f"base_url={srv.base_url},model=m,backoff=0.01"
        assert main(common + ["--model_args", args, "--output_path", str(tmp_path / "a")]) == 0
        first = len(srv.questions)
        assert main(common + ["--model_args", args, "--output_path", str(tmp_path / "b")]) == 0
        assert first > 0 and len(srv.questions) == first         # all served from SQLite
    a = journal(tmp_path / "a", "cross_modal_relational_reasoning")
    b = journal(tmp_path / "b", "cross_modal_relational_reasoning")
    by_key = lambda rows: {s["key"]: (s["prediction"], s["prompt_hash"]) for s in rows}
    assert by_key(a) == by_key(b)           # lines may come in another order (4 at once)


def test_score_with_a_judge_rescoring_without_the_agent(sample_snapshot, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--no-progress", "--task", "memory_update", "--data", str(sample_snapshot),
                 "--output_path", str(out)]) == 0
    before = journal(out, "memory_update")

    def grade(body):
        return chat_completion(json.dumps({"score": 1, "reason": "scripted"}))

    with FakeOpenAIServer() as srv:
        srv.completion = grade
        assert main(["score", str(out), "--no-progress", "--judge", "openai", "--judge_args",
                     f"base_url={srv.base_url},model=judge-1,backoff=0.01"]) == 0
        n_calls = len(srv.questions)           # the judge's preflight is not a judgment
    after = journal(out, "memory_update")
    assert [s["prediction"] for s in after] == [s["prediction"] for s in before]   # no agent
    assert n_calls == len(before)
    res = json.loads((out / "results.json").read_text())
    r = res["results"]["memory_update"]
    assert r["primary_metric"] == "judge" and r["primary"]["mean"] == 1.0
    assert res["judge"]["model_id"] == "judge-1" and res["judge"]["prompts"]


def test_sigint_keeps_finished_answers_and_stops_queued_ones(sample_snapshot, tmp_path):
    """A real Ctrl-C (SIGINT) to `br-eval run` answering two questions at a time."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    with FakeOpenAIServer(delay=0.3) as srv:
        args = ["run", "--no-progress", "--tasks", "beyondrecall", "--data", str(sample_snapshot),
                "--agent", "none", "--model", "openai", "--num_concurrent", "2",
                "--model_args", f"base_url={srv.base_url},model=m", "--output_path", str(out)]
        # A shell starts a background job with SIGINT ignored, and a child inherits that (Python
        # then never raises KeyboardInterrupt): give the run Ctrl-C's default, as a terminal does.
        proc = subprocess.Popen([sys.executable, "-m", "evaluator.cli", *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "HF_HUB_OFFLINE": "1"},
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.time() + 30
        while time.time() < deadline and len(srv.questions) < 4:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stopped = time.time()
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
        assert time.time() - stopped < 3           # queued questions did not run on
        def lines():
            return sum(len(p.read_text().splitlines()) for p in out.glob("samples_*.jsonl"))

        before = lines()
        assert 3 <= before < 30
        asked = len(srv.questions)
        assert main(args) == 0                       # the rerun does only what is left
        total = lines()
        assert total == 44 and len(srv.questions) - asked == 44 - before


def test_captions_reach_a_text_only_prompt(sample_snapshot, tmp_path, tiny):
    """--captions with a tiny random-weight open_clip model (registered from its JSON config,
    loaded from a local checkpoint): the question's photo reaches a text prompt as the CLIP
    caption the media cache computed. Random weights: the caption's words mean nothing."""
    from media_cache import MediaCache

    out = tmp_path / "run"
    rfile = tmp_path / "r.json"
    rfile.write_text(json.dumps(["ok"]))
    task = "cross_modal_semantic_matching"
    assert main(["run", "--no-progress", "--task", task, "--data", str(sample_snapshot),
                 "--agent", "none", "--agent_args", "media=text", "--model", "mock",
                 "--model_args", f"replies={rfile}", "--captions",
                 "--clip-model", str(tiny["config"]), "--clip-pretrained", str(tiny["safetensors"]),
                 "--output_path", str(out), "--log_samples"]) == 0
    q = next(q for _, q in load_task(sample_snapshot, task).questions()
             if q.media and q.media[0].endswith((".png", ".jpg")))
    sample = next(s for s in journal(out, task) if s["key"] == str(q.key))
    caption = MediaCache().clip_captions([sample_snapshot / "benchmark" / q.media[0]],
                                         model=str(tiny["config"]),
                                         pretrained=str(tiny["safetensors"]))[0].text
    prompt_text = json.dumps(sample["prompt"])
    assert caption and json.dumps(caption)[1:-1] in prompt_text


def test_a_base_url_query_goes_after_the_request_path_for_model_and_judge(sample_snapshot, tmp_path,
                                                                          capsys):
    """Azure's style, `base_url=https://h/v1?api-version=...`: the openai client appends each
    request's path to base_url, so the query travels as the client's default_query and every
    request goes to /v1/chat/completions?api-version=...; a key in the query stays masked."""
    query = "api-version=2024-06-01&api-key=sk-azure-0123456789"
    out = tmp_path / "run"
    with FakeOpenAIServer() as srv, FakeOpenAIServer() as judge:
        judge.completion = lambda body: chat_completion('{"score": 1, "reason": "same"}')
        code = main(["run", "--no-progress", "--task", "temporal_anchoring", "--limit", "2",
                     "--data", str(sample_snapshot), "--agent", "recent", "--model", "openai",
                     "--model_args", f"base_url={srv.base_url}?{query},model=m,backoff=0.01",
                     "--judge", "openai", "--judge_args",
                     f"base_url={judge.base_url}/?{query},model=j,backoff=0.01",
                     "--output_path", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert len(srv.questions) == 2 and len(judge.requests) >= 2
    for request in srv.requests + judge.requests:
        assert request["path"] == f"/v1/chat/completions?{query}"
    written = printed.out + printed.err + "".join(p.read_text() for p in out.glob("*.json*"))
    assert "api-version=2024-06-01&api-key=***" in written and "sk-azure-0123456789" not in written
