"""The Chat track (`realcompanion/chat`): reply to each scoreable probe and each cold open.

Two modes:
- agent (default): the agent's own memory. A fresh agent is given every message before the
  probe (not the probe) and replies to the probe's text.
- conditions (`--conditions C0,C1,...`): fixed context blocks fed to one generator (`--model`),
  with the same system prompt, prompt shape and generation settings (temperature 0 unless
  `--gen_kwargs` says otherwise) for every condition. br-eval's definitions (the paper's digests
  do not define every condition):
    C0   no block
    C1   the 3 messages before the probe under "RECENT CONVERSATION"
    C2   the probe's recorded grounding messages under "RETRIEVED MEMORIES"
    C3   C1's block followed by C2's block
    C4   BM25's top 10 over the messages before the probe (query: the probe) under
         "RETRIEVED MEMORIES"
    C4m  the same 10 messages under "EARLIER MESSAGES" (the matched pair isolating the heading)

Scoring: with `--judge`, content match 0-2 against the gold response and whether the reply used
memory; without a judge, token F1 against the gold response, labelled `token_f1_vs_gold`, and no
used-memory figures (they need a judge).
"""

from __future__ import annotations

from evaluator.records import Sample
from evaluator.task import Item, Task

TASK = "realcompanion/chat"
CONDITIONS = ("C0", "C1", "C2", "C3", "C4", "C4m")
RECENT_N = 3
BM25_K = 10
CONTRASTS = (("C1", "C0"), ("C2", "C0"), ("C2", "C1"), ("C3", "C1"), ("C4", "C1"), ("C4", "C4m"),
             ("C3", "C2"))

SYSTEM_PROMPT = (
    "You are a warm, attentive AI companion in a conversation with one user that has lasted "
    "months. Reply to the user's latest message in one to three sentences, as the companion."
)


def _fmt(m) -> str:
    when = f"day {m.day}" if m.day is not None else (m.time or "")
    return f"[{when}] {m.speaker}: {m.text}"


def context_block(condition: str, probe, participant) -> str:
    """The block of messages a condition shows the generator ("" for C0)."""
    pool = participant.history(probe.position)
    recent = pool[-RECENT_N:]
    grounding = [participant.message(i) for i in probe.grounding_ids if i != probe.message_id]
    grounding = [m for m in grounding if m.position < probe.position]
    parts: list[str] = []
    if condition in ("C1", "C3"):
        parts.append("RECENT CONVERSATION\n" + "\n".join(_fmt(m) for m in recent))
    if condition in ("C2", "C3"):
        parts.append("RETRIEVED MEMORIES\n" + ("\n".join(_fmt(m) for m in grounding) or "(none)"))
    if condition in ("C4", "C4m"):
        top = [m for m, _ in participant.bm25_top_k(probe.text, probe.position, BM25_K)]
        heading = "RETRIEVED MEMORIES" if condition == "C4" else "EARLIER MESSAGES"
        parts.append(heading + "\n" + ("\n".join(_fmt(m) for m in top) or "(none)"))
    return "\n\n".join(parts)


def condition_messages(condition: str, probe, participant) -> list:
    from evaluator.models.base import Message

    block = context_block(condition, probe, participant)
    user = (block + "\n\n" if block else "") + f"USER: {probe.text}\nCOMPANION:"
    return [Message.text("system", SYSTEM_PROMPT), Message.text("user", user)]


def items(release, limit: int | None) -> list:
    out = []
    for p in release.participants:
        for probe in p.probes:
            if (probe.scoreable and not probe.cold_open) or (probe.cold_open and probe.ok):
                out.append(probe)
    return out[:limit] if limit is not None else out


def _score(reply: str, probe, judge) -> dict:
    from evaluator.scoring import token_f1

    out = {"token_f1_vs_gold": token_f1(reply, probe.gold_response or "")}
    if judge is not None:
        from evaluator.scoring import judge_chat_reply

        j = judge_chat_reply(judge, probe=probe.text, reply=reply,
                             gold_response=probe.gold_response or "")
        out.update(content_match=j["content_match"], used_memory=j["used_memory"],
                   judge_raw=j["raw"], judge_error=j["error"])
    return out


def parse_conditions(conditions) -> tuple[str, ...] | None:
    """`C0,C1` or a sequence -> a tuple of known conditions (UsageError naming unknown ones)."""
    from evaluator.errors import UsageError

    if not conditions:
        return None
    names = [c.strip() for c in conditions.split(",") if c.strip()] \
        if isinstance(conditions, str) else list(conditions)
    bad = [c for c in names if c not in CONDITIONS]
    if bad:
        raise UsageError(f"--conditions: unknown {', '.join(bad)} (known: {', '.join(CONDITIONS)})")
    return tuple(names)


class ChatTask(Task):
    name = TASK
    suite = "realcompanion"
    unit = "probe"

    def prepare(self, ctx) -> None:
        from evaluator.errors import UsageError
        from evaluator.realcompanion.tracks import load_rc

        if ctx.conditions and ctx.model is None:
            raise UsageError("--conditions need a generator: pass --model hf|openai|mock")
        load_rc(ctx)

    def items(self, ctx) -> list[Item]:
        from evaluator.realcompanion.tracks import load_rc

        _, release = load_rc(ctx)
        return [Item(f"{TASK}/{p.participant}/{p.probe_id}", p.participant, p)
                for p in items(release, None)]

    def solve(self, ctx, item: Item, sample: Sample) -> None:
        from evaluator.agents.protocol import Query
        from evaluator.beyondrecall_task import ask, prompt_hash, record_answer
        from evaluator.realcompanion.tracks import history_views, load_rc

        probe = item.payload
        sample.fields.update(participant=probe.participant, probe_id=probe.probe_id,
                             stratum=probe.stratum, locus=probe.locus, cold_open=probe.cold_open,
                             memory_bearing=probe.memory_bearing, category=probe.category,
                             pool_size=probe.position)
        if ctx.conditions:
            _, release = load_rc(ctx)
            participant = release.participant(probe.participant)
            replies, prompts = {}, {}
            tokens_in = tokens_out = 0
            for c in ctx.conditions:
                messages = condition_messages(c, probe, participant)
                gen = ctx.model.generate(messages, **ctx.gen_kwargs)
                replies[c] = {"reply": gen.text.strip()}
                prompts[c] = messages
                tokens_in += gen.input_tokens or 0
                tokens_out += gen.output_tokens or 0
                sample.model_reported = getattr(gen, "served_model", None) or sample.model_reported
            sample.fields["conditions"] = replies
            sample.prompt_hash = prompt_hash(prompts)
            if ctx.log_samples:
                from evaluator.beyondrecall_task import plain_prompt

                sample.prompt = plain_prompt(prompts)
            sample.input_tokens, sample.output_tokens = tokens_in or None, tokens_out or None
        else:
            view = history_views(ctx)[probe.participant]
            ans = ask(ctx, view.sessions_before(probe.position), Query(item.key, TASK, probe.text, [], None))
            record_answer(ctx, sample, ans)
            sample.fields["conditions"] = {"agent": {"reply": ans.text}}
            sample.fields["relied_on"] = ans.relied_on

    def describe_item(self, ctx, item: Item) -> list[str]:
        p = item.payload
        kind = "cold open" if p.cold_open else f"probe, locus {p.locus}, stratum {p.stratum}"
        return [f"{item.key}  ({kind})",
                f"visible: the {p.position} message(s) before the probe",
                f"PROBE ({p.participant} says): {p.text}",
                f"gold reply: {p.gold_response or '-'}"]

    def needs_judge(self, sample: Sample) -> bool:
        return True

    def score(self, ctx, item: Item, sample: Sample, judge=None) -> str | None:
        probe = item.payload
        errors = []
        for cond, entry in sample.fields["conditions"].items():
            reply = entry["reply"]
            entry.clear()
            entry.update(reply=reply, **_score(reply, probe, judge))
            if entry.get("judge_error"):
                errors.append(f"{cond}: {entry['judge_error']}")
        sample.metrics = {"token_f1_vs_gold": {c: e["token_f1_vs_gold"]
                                               for c, e in sample.fields["conditions"].items()}}
        return "; ".join(errors) or None

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        from evaluator.realcompanion.tracks import data_info

        judged = ctx.judge is not None or any(
            r.get("content_match") is not None for s in lines for r in s.get("conditions", {}).values())
        out = aggregate(lines, seed=ctx.seed, judged=judged)
        out["data"] = data_info(ctx)
        out["mode"] = "conditions" if any("agent" not in s.get("conditions", {}) for s in lines
                                          if not s.get("error")) else "agent"
        return out


def aggregate(samples: list[dict], *, seed: int = 0, judged: bool) -> dict:
    from evaluator.stats import participant_bootstrap

    def by_participant(values, clusters, seed):
        return participant_bootstrap(values, clusters, seed=seed)

    ok = [s for s in samples if not s.get("error")]
    conds = sorted({c for s in ok for c in s.get("conditions", {})},
                   key=lambda c: (CONDITIONS + ("agent",)).index(c))
    metric = "content_match" if judged else "token_f1_vs_gold"
    out: dict = {"primary_metric": metric, "n_samples": len(samples),
                 "n_failed": len(samples) - len(ok), "n_scored": len(ok),
                 "content_metric": metric, "per_condition": {}, "contrasts": {}}
    if not judged:
        out["note"] = ("no judge: content is token F1 against the gold response; used-memory, "
                       "misfire and appropriate-application rates need --judge")

    def values(cond, pick=lambda s: True, field=metric):
        vals, clusters = [], []
        for s in ok:
            r = s["conditions"].get(cond)
            if r is None or not pick(s) or r.get(field) is None:
                continue
            vals.append(float(r[field]))
            clusters.append(s["participant"])
        return vals, clusters

    for c in conds:
        entry = {"content": by_participant(*values(c), seed)}
        if judged:
            needs_none = lambda s: not s["memory_bearing"]        # thread/none loci and cold opens
            entry["misfire_rate"] = by_participant(*values(c, needs_none, "used_memory"), seed)
            entry["appropriate_application"] = by_participant(
                *values(c, lambda s: s["memory_bearing"], "used_memory"), seed)
        out["per_condition"][c] = entry
    primary_cond = "agent" if "agent" in conds else ("C4" if "C4" in conds else (conds[-1] if conds else None))
    if primary_cond:
        est = out["per_condition"][primary_cond]["content"]
        out["primary"] = est["pooled"] if est else None
        out["primary_condition"] = primary_cond

    for a, b in CONTRASTS:
        if a not in conds or b not in conds:
            continue
        diffs, clusters, rows = [], [], []
        for s in ok:
            ra, rb = s["conditions"].get(a), s["conditions"].get(b)
            if ra is None or rb is None or ra.get(metric) is None or rb.get(metric) is None:
                continue
            d = float(ra[metric]) - float(rb[metric])
            diffs.append(d)
            clusters.append(s["participant"])
            rows.append((s, d))
        entry = {"difference": by_participant(diffs, clusters, seed)}
        prop = [(s, d) for s, d in rows if s["stratum"] == "proportional"]
        if prop:
            mem = [d for s, d in prop if s["memory_bearing"]]
            other = [d for s, d in prop if not s["memory_bearing"]]
            pi = len(mem) / len(prop)
            g1 = sum(mem) / len(mem) if mem else None
            g0 = sum(other) / len(other) if other else None
            entry["decomposition_proportional"] = {
                "n": len(prop), "pi": pi, "gamma1": g1, "gamma0": g0,
                "pi_gamma1": None if g1 is None else pi * g1,
                "one_minus_pi_gamma0": None if g0 is None else (1 - pi) * g0,
                "delta": sum(d for _, d in prop) / len(prop)}
        out["contrasts"][f"{a}-{b}"] = entry
    return out
