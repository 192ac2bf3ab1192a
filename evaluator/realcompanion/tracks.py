"""What the three RealCompanion tracks share: the release, a participant's history as agent
sessions, asking an agent, token estimates and participant-clustered statistics.

A participant's history becomes the same `MemorySession`s the Beyond Recall tasks use (one per
`session` id, in conversation order; a turn's `person` is the speaker, its `id` the message id),
so any agent runs on both suites unchanged. Each item gets a fresh agent that is given only the
messages it may see.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from pathlib import Path

_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)


def load_rc(ctx):
    from evaluator.realcompanion.data import load_release, resolve_rc_data

    cache = ctx.extra.setdefault("_shared", {})
    key = ("rc_release", str(ctx.rc_data))
    if key not in cache:
        root = resolve_rc_data(ctx.rc_data)
        cache[key] = (Path(root), load_release(root))
    return cache[key]


def estimate_tokens(text: str) -> int:
    """One token per 4 characters: the same estimate the Beyond Recall agents budget with."""
    return math.ceil(len(text) / 4)


class HistoryView:
    """A participant's messages as agent turns, built once and sliced per item."""

    def __init__(self, participant) -> None:
        from beyondrecall.timestamps import parse_strict
        from evaluator.agents.protocol import MemoryTurn

        self.participant = participant
        self.turns: list = []
        self.session_of: list[int] = []        # session ordinal of each message
        self.session_dates: list[datetime] = []
        last_session = None
        for m in participant.messages:
            try:
                when = parse_strict(m.time) if m.time else None
            except ValueError:
                when = None
            if when is None:   # no usable time: order still comes from the conversation
                when = _EPOCH + timedelta(days=int(m.day or 0))
            if m.session != last_session:
                self.session_dates.append(when)
                last_session = m.session
            ordinal = len(self.session_dates) - 1
            self.session_of.append(ordinal)
            self.turns.append(MemoryTurn(ordinal, m.position, when, m.speaker, m.text, [], m.id))

    def sessions_before(self, position: int) -> list:
        """Every message strictly before `position`, grouped into sessions, oldest first."""
        from evaluator.agents.protocol import MemorySession

        out: list = []
        for turn in self.turns[:max(0, position)]:
            if not out or out[-1].index != turn.session_index:
                out.append(MemorySession(turn.session_index,
                                         self.session_dates[turn.session_index], []))
            out[-1].turns.append(turn)
        return out


def history_views(release) -> dict:
    return {p.pid: HistoryView(p) for p in release.participants}


def resolve_agent_and_model(ctx):
    from evaluator.agents.builtin import resolve_agent

    return resolve_agent(ctx.agent), ctx.extra.get("_model")


def ask(agent_cls, model, agent_args: dict, sessions: list, query):
    """A fresh agent: write the sessions, ask, and return an Answer."""
    from evaluator.agents.protocol import Answer

    agent = agent_cls(model=model, **agent_args)
    for s in sessions:
        agent.write(s)
    answer = agent.answer(query)
    if isinstance(answer, str):
        answer = Answer(answer)
    if not isinstance(answer, Answer):
        raise TypeError(f"answer() returned {type(answer).__name__}, expected Answer or str")
    return answer




def latest(samples: list[dict], keys: set[str] | None = None) -> list[dict]:
    out: dict[str, dict] = {}
    for s in samples:
        if keys is None or s.get("key") in keys:
            out[s["key"]] = s
    return list(out.values())


def by_participant(values, clusters, seed: int) -> dict | None:
    """Pooled and macro means with 95% intervals resampling participants."""
    from evaluator.realcompanion.stats import participant_bootstrap

    return participant_bootstrap(values, clusters, seed=seed)


def run_items(ctx, task: str, items: list, work) -> list[dict]:
    """Run `work(item) -> sample` for items not yet in the journal, append each as it finishes,
    and return the journal's latest line for every selected item. `items` are (key, item)."""
    keys = {k for k, _ in items}
    done = ctx.run_dir.done_keys(task)
    todo = [(k, it) for k, it in items if k not in done]
    bar = ctx.progress(None, total=len(todo), desc=task)
    try:
        for key, item in todo:
            sample = work(key, item)
            ctx.run_dir.append_sample(task, sample)
            bar.update(1)
    finally:
        bar.close()
    return latest(ctx.run_dir.read_samples(task), keys)
