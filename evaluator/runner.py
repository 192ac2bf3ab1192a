"""Run one Beyond Recall task: for every question, a fresh agent gets only the question's visible
history, answers, and is scored; each finished question is appended to the journal at once."""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import time
from dataclasses import asdict, is_dataclass
from pathlib import Path

from evaluator.context import RunContext
from evaluator.registry import TaskSpec


def prompt_hash(prompt) -> str | None:
    """sha256 of the request as sent (image parts by their cached, content-addressed path)."""
    if prompt is None:
        return None

    def plain(x):
        if is_dataclass(x):
            return {k: plain(v) for k, v in asdict(x).items()}
        if isinstance(x, (list, tuple)):
            return [plain(v) for v in x]
        if isinstance(x, dict):
            return {str(k): plain(v) for k, v in x.items()}
        return x if isinstance(x, (str, int, float, bool, type(None))) else str(x)

    blob = json.dumps(plain(prompt), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _plain_prompt(prompt):
    return json.loads(json.dumps(prompt, default=lambda o: asdict(o) if is_dataclass(o) else str(o)))


def _media_preparer(ctx: RunContext, snapshot: Path):
    from beyondrecall.snapshot import read_pdf_map
    from evaluator.agents.protocol import MediaPreparer

    shared = ctx.extra.setdefault("_shared", {})
    key = ("preparer", str(snapshot))
    if key not in shared:
        x = ctx.extra
        shared[key] = MediaPreparer(
            snapshot / "benchmark", num_frames=x.get("frames", 8), fps=x.get("fps"),
            dpi=x.get("dpi"), captions=bool(x.get("captions")), clip_model=x.get("clip_model"),
            clip_pretrained=x.get("clip_pretrained"),
            video_backend=x.get("video_backend") or "pyav", pdf_map=read_pdf_map(snapshot))
    return shared[key]


def answer_question(agent_cls, model, agent_args: dict, traj, question, prep):
    """One isolated memory: build it from the visible history only, then ask."""
    from beyondrecall.visibility import visible_history
    from evaluator.agents.protocol import Answer, MemorySession, MemoryTurn, Query

    history = visible_history(traj, question)
    usage: list[dict] = []
    agent = agent_cls(model=model, **agent_args)
    for vs in history.sessions:
        agent.write(MemorySession(vs.index, vs.date, [
            MemoryTurn(vs.index, vt.index, vt.time, vt.turn.person, vt.turn.content,
                       prep.wrap(vt.turn.media, usage)) for vt in vs.turns]))
    query = Query(str(question.key), traj.task, question.question, prep.wrap(question.media, usage),
                  question.timestamp)
    answer = agent.answer(query)
    if isinstance(answer, str):
        answer = Answer(answer)
    if not isinstance(answer, Answer):
        raise TypeError(f"answer() returned {type(answer).__name__}, expected Answer or str")
    return history, answer, usage




def run_beyondrecall_task(ctx: RunContext, spec: TaskSpec) -> dict:
    from beyondrecall.loader import load_task
    from beyondrecall.timestamps import iso_utc
    from evaluator.agents.builtin import resolve_agent
    from evaluator.scoring import score_sample
    from evaluator.errors import record_failure

    task_name = spec.name
    snapshot = Path(ctx.data)
    task = load_task(snapshot, task_name, lenient=bool(ctx.extra.get("lenient_time")))
    prep = _media_preparer(ctx, snapshot)
    agent_cls = resolve_agent(ctx.agent)
    model = ctx.extra.get("_model")
    judge = ctx.extra.get("_judge")

    questions = list(task.questions())
    if ctx.limit is not None:
        questions = questions[:ctx.limit]
    selected = {str(q.key) for _, q in questions}
    done = ctx.run_dir.done_keys(task_name)
    todo = [(t, q) for t, q in questions if str(q.key) not in done]
    if done and todo:
        print(f"br-eval: {task_name}: resuming, {len(selected & done)} of {len(selected)} "
              f"questions already done", file=sys.stderr)

    lock = threading.Lock()

    def one(item):
        traj, q = item
        started = time.perf_counter()
        sample = {"key": str(q.key), "task": task_name, "trajectory_id": traj.id,
                  "question_index": q.index, "cutoff": iso_utc(q.timestamp),
                  "question": q.question, "answer": q.answer}
        try:
            history, ans, usage = answer_question(agent_cls, model, ctx.agent_args, traj, q, prep)
            sample.update({
                "visible_sessions": history.n_sessions, "visible_turns": history.n_turns,
                "visible_media": len(history.media_paths()), "media_used": usage,
                "prompt_hash": prompt_hash(ans.prompt), "prediction": ans.text,
                "relied_on": ans.relied_on, "input_tokens": ans.input_tokens,
                "output_tokens": ans.output_tokens})
            if ctx.log_samples and ans.prompt is not None:
                sample["prompt"] = _plain_prompt(ans.prompt)
            sample["metrics"] = score_sample(task_name, q.question, ans.text, q.answer,
                                             judge=judge)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # an agent, model or media failure is this question's error
            record_failure(sample, exc)
        sample["seconds"] = round(time.perf_counter() - started, 4)
        with lock:
            ctx.run_dir.append_sample(task_name, sample)
        return sample

    workers = int(ctx.extra.get("num_concurrent") or 1)
    bar = ctx.progress(None, total=len(todo), desc=task_name)
    try:
        if workers <= 1:
            for item in todo:
                one(item)
                bar.update(1)
        else:
            from concurrent.futures import ThreadPoolExecutor, as_completed

            pool = ThreadPoolExecutor(workers)
            try:
                futures = [pool.submit(one, item) for item in todo]
                for f in as_completed(futures):
                    f.result()
                    bar.update(1)
            finally:
                # On Ctrl-C: questions in flight finish and reach the journal; queued ones are
                # dropped (a rerun does them) instead of running on after the interrupt.
                pool.shutdown(wait=True, cancel_futures=True)
    finally:
        bar.close()
    samples = [s for s in ctx.run_dir.read_samples(task_name) if s["key"] in selected]
    return summarize(task_name, samples, seed=ctx.seed, judge=judge)




def latest_by_key(samples: list[dict]) -> list[dict]:
    """The journal may hold an errored attempt and a later success for a key: keep the last."""
    out: dict[str, dict] = {}
    for s in samples:
        out[s["key"]] = s
    return list(out.values())


def summarize(task: str, samples: list[dict], *, seed: int = 0, judge=None) -> dict:
    from evaluator.scoring import aggregate

    samples = latest_by_key(samples)
    result = aggregate(samples, task, seed=seed)
    errors = [s for s in samples if s.get("error")]
    if errors:
        kinds: dict[str, int] = {}
        for s in errors:
            kinds[s.get("error_kind", "agent")] = kinds.get(s.get("error_kind", "agent"), 0) + 1
        result["errors_by_kind"] = kinds
        result["first_error"] = f"{errors[0]['key']}: {errors[0]['error']}"
    return result
