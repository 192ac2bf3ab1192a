"""The 11 Beyond Recall tasks, declared once: for every question a fresh agent gets only the
question's visible history (the card's cutoff rule), answers, and is scored.

Task fields of a journal line: trajectory_id, question_index, question, answer (the reference),
relied_on; `inputs` holds cutoff, visible_sessions, visible_turns, visible_media and media_used
(frame indices, pages).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, is_dataclass
from pathlib import Path

from evaluator.records import Sample
from evaluator.task import Item, Task


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
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def plain_prompt(prompt):
    return json.loads(json.dumps(prompt, default=lambda o: asdict(o) if is_dataclass(o) else str(o)))


def record_answer(ctx, sample: Sample, answer) -> None:
    """The parts of an Answer every task journals the same way."""
    sample.prediction = answer.text
    sample.input_tokens = answer.input_tokens
    sample.output_tokens = answer.output_tokens
    sample.prompt_hash = prompt_hash(answer.prompt)
    if ctx.log_samples and answer.prompt is not None:
        sample.prompt = plain_prompt(answer.prompt)
    reported = (answer.extra or {}).get("served_model")
    if reported:
        sample.model_reported = reported


def ask(ctx, sessions, query):
    """A fresh agent (one isolated memory): write the sessions, ask, return an Answer."""
    from evaluator.agents.protocol import Answer

    agent = ctx.agent_class()(model=ctx.model, **ctx.agent_kwargs())
    for s in sessions:
        agent.write(s)
    answer = agent.answer(query)
    if isinstance(answer, str):
        answer = Answer(answer)
    if not isinstance(answer, Answer):
        raise TypeError(f"answer() returned {type(answer).__name__}, expected Answer or str")
    return answer


def media_preparer(ctx):
    from beyondrecall.snapshot import read_pdf_map
    from evaluator.agents.protocol import MediaPreparer

    snapshot = Path(ctx.data)
    m = ctx.media

    def build():
        return MediaPreparer(snapshot / "benchmark", num_frames=m.frames, fps=m.fps, dpi=m.dpi,
                             captions=m.captions, clip_model=m.clip_model,
                             clip_pretrained=m.clip_pretrained, video_backend=m.video_backend,
                             pdf_map=read_pdf_map(snapshot), asr_model=m.asr,
                             asr_language=m.asr_language)
    return ctx.shared(("preparer", str(snapshot)), build)


def usable_media_cache(prep, task) -> bool:
    """Stop the run (EvalError, one line naming the folder) before its first answer when the
    task has media and the media cache can be neither written nor read from: every question
    with media would otherwise fail one by one."""
    from media_cache.errors import MediaError

    from evaluator.errors import EvalError

    if task.media_paths():
        try:
            prep.cache.check_usable()
        except MediaError as exc:
            raise EvalError(str(exc)) from None
    return True


class BeyondRecallTask(Task):
    suite = "beyondrecall"
    unit = "question"

    def _task(self, ctx):
        from beyondrecall.loader import load_task

        return ctx.shared(("br_task", str(ctx.data), self.name),
                          lambda: load_task(Path(ctx.data), self.name, lenient=ctx.lenient_time,
                                            task_files=ctx.task_files))

    def prepare(self, ctx) -> None:
        self._task(ctx)

    def items(self, ctx) -> list[Item]:
        return [Item(str(q.key), str(traj.id), (traj, q)) for traj, q in self._task(ctx).questions()]

    def solve(self, ctx, item: Item, sample: Sample) -> None:
        from beyondrecall.timestamps import iso_utc
        from beyondrecall.visibility import visible_history
        from evaluator.agents.protocol import MemorySession, MemoryTurn, Query

        traj, q = item.payload
        prep = media_preparer(ctx)
        ctx.shared(("media cache usable", self.name), lambda: usable_media_cache(prep, self._task(ctx)))
        sample.fields.update(trajectory_id=traj.id, question_index=q.index, question=q.question,
                             answer=q.answer)
        sample.inputs["cutoff"] = iso_utc(q.timestamp)
        history = visible_history(traj, q)
        usage: list[dict] = []
        sessions = [MemorySession(vs.index, vs.date, [
            MemoryTurn(vs.index, vt.index, vt.time, vt.turn.person, vt.turn.content,
                       prep.wrap(vt.turn.media, usage)) for vt in vs.turns])
            for vs in history.sessions]
        query = Query(str(q.key), traj.task, q.question, prep.wrap(q.media, usage), q.timestamp)
        sample.inputs.update(visible_sessions=history.n_sessions, visible_turns=history.n_turns,
                             visible_media=len(history.media_paths()), media_used=usage)
        answer = ask(ctx, sessions, query)
        record_answer(ctx, sample, answer)
        sample.fields["relied_on"] = answer.relied_on

    def needs_judge(self, sample: Sample) -> bool:
        from evaluator.scoring import needs_judge

        return needs_judge(self.name, sample.fields.get("question"), sample.fields.get("answer"))

    def score(self, ctx, item, sample: Sample, judge=None) -> str | None:
        from evaluator.scoring import score_sample

        sample.metrics = score_sample(self.name, sample.fields.get("question"), sample.prediction,
                                      sample.fields.get("answer"), judge=judge)
        return sample.metrics.get("judge_error") if judge is not None else None

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        from evaluator.scoring import aggregate

        return aggregate(lines, self.name, seed=ctx.seed)
