"""The 11 Beyond Recall tasks, one class for all: for every question a fresh agent gets only the
question's visible history (the card's cutoff rule), answers, and is scored.

A task is declared by its data facts (beyondrecall/card.py `TASKS`: dimension, file name, the
card's counts), from which evaluator/registry.py derives its entry, and its scoring policy
(evaluator/scoring/policy.py `BEYOND_RECALL`), which scoring reads instead of the task's name.

Task fields of a journal line: trajectory_id, question_index, question, answer (the reference),
relied_on; `inputs` holds cutoff, visible_sessions, visible_turns, visible_media and media_used
(frame indices, pages).
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import asdict, is_dataclass
from pathlib import Path

from evaluator.records import Sample
from evaluator.results import mend_surrogates
from evaluator.task import Item, Task, content_digest, plain


def prompt_hash(prompt) -> str | None:
    """sha256 of the request as sent (image parts by their cached, content-addressed path)."""
    if prompt is None:
        return None
    blob = json.dumps(plain(prompt), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def _file_digest(path: Path) -> str | None:
    """The task file's `data_fp`: sha256[:16] through the data layer's one hashing loop (a FIFO is
    refused, never waited on; a link the loader accepted is followed)."""
    from beyondrecall.hashing import hash_file

    try:
        return hash_file(str(path), follow_symlinks=True)[0][:16]
    except OSError:
        return None


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
    extra = answer.extra or {}
    reported = extra.get("served_model")
    if reported:
        sample.model_reported = reported
    # who answered this line, as its own reply says (solve_item adds the run's model and date)
    own = {"served_model": reported, "endpoint": extra.get("endpoint")}
    sample.source = {k: v for k, v in own.items() if isinstance(v, str) and v} or None
    cost = extra.get("memory_cost")
    if cost is not None:      # what the memory system spent writing and reading (built-ins)
        sample.fields["memory_cost"] = cost
    for name in ("finish", "reasoning_removed"):     # the built-in agents' reply notes
        if extra.get(name):
            sample.fields[name] = extra[name]


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
    if answer.text is None:
        answer.text = ""              # no reply: an empty one (scores 0, counted as `empty`)
    elif not isinstance(answer.text, str):
        raise TypeError(f"answer() returned an Answer whose text is "
                        f"{type(answer.text).__name__}, expected str")
    if len(answer.text) > MAX_REPLY_CHARS:
        raise ValueError(f"answer() returned {len(answer.text):,} characters, over br-eval's bound "
                         f"of {MAX_REPLY_CHARS:,} for one reply (each is kept whole in the journal)")
    for name in ("input_tokens", "output_tokens"):
        setattr(answer, name, _token_count(getattr(answer, name), name))
    # half an emoji (a lone surrogate) cannot be encoded by anything downstream: every task of
    # both suites reads the mended text (U+FFFD)
    answer.text = mend_surrogates(answer.text)
    return answer


# One reply's bound: 4 M characters is at most 16 MB of UTF-8, well under the journal's 64 MiB
# line limit (evaluator/results.py), so a line br-eval writes is a line it can read back.
MAX_REPLY_CHARS = 4_000_000


def _token_count(value, name: str):
    """An Answer's token count as the journal holds it: None, or a whole number >= 0 (numpy's
    integers too); anything else is the agent's error, before a line is written that the next
    run would refuse as damaged."""
    import math
    import numbers

    if value is None:
        return None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) >= 0:
        return int(value)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and value >= 0:
        return int(value)
    raise TypeError(f"answer() returned an Answer whose {name} is {value!r}, expected a whole "
                    "number of tokens (or None)")


def media_preparer(ctx):
    from beyondrecall.pdfmap import read_pdf_map
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

    def __init__(self, name: str | None = None) -> None:
        from evaluator.errors import EvalError
        from evaluator.scoring.policy import BEYOND_RECALL

        super().__init__(name)
        if self.name not in BEYOND_RECALL:
            raise EvalError(f"task {self.name} has no scoring policy: declare one in "
                            "evaluator/scoring/policy.py (BEYOND_RECALL)")
        self.policy = BEYOND_RECALL[self.name]      # what scoring reads, never the name

    def _task(self, ctx):
        from beyondrecall.loader import load_task

        return ctx.shared(("br_task", str(ctx.data), self.name),
                          lambda: load_task(Path(ctx.data), self.name, lenient=ctx.lenient_time,
                                            task_files=ctx.task_files))

    def prepare(self, ctx) -> None:
        from evaluator.errors import UsageError

        task = self._task(ctx)
        unknown = ctx.unanswerable.unknown_keys(self.name, (q.key for _, q in task.questions()))
        if unknown:
            raise UsageError(f"--unanswerable {ctx.unanswerable.file}: {unknown[0]} names no "
                             f"question of {self.name}"
                             + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))

    def data_warnings(self, ctx) -> list[str]:
        """A warning when questions list options but their gold answer is no option letter under
        the strict reading: they are scored as open answers (evaluator.scoring.tasks)."""
        from evaluator.scoring.tasks import gold_unread_count, gold_unread_warning

        line = gold_unread_warning(self.name, gold_unread_count(
            (str(q.key), q.question, q.answer) for _, q in self._task(ctx).questions()))
        return [line] if line else []

    def items(self, ctx) -> list[Item]:
        return [Item(str(q.key), str(traj.id), (traj, q)) for traj, q in self._task(ctx).questions()]

    def fingerprint(self, ctx, item: Item) -> str:
        """The question (text, reference, time as released, query media), the trajectory's
        persons and its visible history (sessions, turns, media), media by content digest and a
        PDF with its page map."""
        return self._fingerprint(ctx, item, page_maps=True)

    def legacy_fingerprints(self, ctx, item: Item) -> list[str]:
        """The fingerprint as br-eval wrote it before page maps were part of it: a line carrying
        it is not of another item, but its page maps cannot be checked."""
        old = self._fingerprint(ctx, item, page_maps=False)
        return [old] if old != self.fingerprint(ctx, item) else []

    def _fingerprint(self, ctx, item: Item, *, page_maps: bool) -> str:
        from beyondrecall.visibility import visible_history

        traj, q = item.payload
        prep = media_preparer(ctx)

        def media(paths):
            out = []
            for p in paths or ():
                try:
                    out.append([p, prep.cache.sha256(prep.benchmark_dir / p)])
                except Exception as exc:   # missing or unreadable: solving reports it
                    out.append([p, f"unreadable: {type(exc).__name__}"])
                page_map = prep.pdf_map.get(p) if page_maps else None
                if page_map is not None:   # which original pages, which carry evidence: the
                    out[-1].append([list(page_map.original_pages),    # model sees them
                                    sorted(page_map.evidence_pages)])
            return out

        history = visible_history(traj, q)
        return content_digest({
            "question": [q.question, q.answer, q.timestamp_raw, media(q.media)],
            "persons": traj.persons,
            "history": [[vs.session.index, vs.session.date_raw, vs.date,
                         [[vt.index, vt.turn.timestamp_raw, vt.time, vt.turn.person, vt.turn.content,
                           media(vt.turn.media)] for vt in vs.turns]]
                        for vs in history.sessions]})

    def data_label(self, ctx) -> str:
        return str(self._task(ctx).path)

    def data_fingerprint(self, ctx) -> str | None:
        path = Path(self._task(ctx).path)
        return ctx.shared(("br_task_file_sha", str(path)), lambda: _file_digest(path))

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
        # Times reach the agent parsed (compared by the cutoff rule) and as released; `persons`
        # as loaded, copied so that one question's agent cannot change what the next one sees.
        persons = copy.deepcopy(traj.persons)
        sessions = [MemorySession(vs.index, vs.date, [
            MemoryTurn(vs.index, vt.index, vt.time, vt.turn.person, vt.turn.content,
                       prep.wrap(vt.turn.media, usage), time_raw=vt.time_raw)
            for vt in vs.turns], date_raw=vs.date_raw, persons=persons)
            for vs in history.sessions]
        query = Query(str(q.key), traj.task, q.question, prep.wrap(q.media, usage), q.timestamp,
                      cutoff_raw=q.timestamp_raw, persons=persons)
        sample.inputs.update(visible_sessions=history.n_sessions, visible_turns=history.n_turns,
                             visible_media=len(history.media_paths()), media_used=usage)
        answer = ask(ctx, sessions, query)
        record_answer(ctx, sample, answer)
        sample.fields["relied_on"] = answer.relied_on

    def needs_judge(self, sample: Sample) -> bool:
        from evaluator.scoring import needs_judge

        return needs_judge(self.policy, sample.fields.get("question"), sample.fields.get("answer"),
                           sample.prediction or "")

    def score(self, ctx, item, sample: Sample, judge=None) -> str | None:
        from evaluator.scoring import score_sample

        # the question and reference from the data, not the journal's copy: a line edited by
        # hand cannot move its own reference (its item fingerprint ties it to this data)
        _, q = item.payload
        gold = q.answer
        sample.fields.update(question=q.question, answer=gold)
        rule = ctx.unanswerable
        sample.metrics = score_sample(self.policy, q.question, sample.prediction,
                                      gold, judge=judge,
                                      unanswerable=rule.classify(item.key, gold, q.question),
                                      refusal_in_references=rule.refusal_in_references(gold))
        return sample.metrics.get("judge_error") if judge is not None else None

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        from evaluator.scoring import aggregate

        out = aggregate(lines, self.name, seed=ctx.seed)
        out["unanswerable_rule"] = ctx.unanswerable.name
        return out
