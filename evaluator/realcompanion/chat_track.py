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
    C3m  the 10 messages before the probe under "RECENT CONVERSATION": the size-matched recency
         block for C4 (C4 - C3m is the paper's "BM25's ten vs the previous ten" comparison)
    C4m  the same 10 messages as C4 under "EARLIER MESSAGES" (the matched pair isolating the heading)

Scoring: with `--judge`, the judge records three fields per reply (content match 0-2 against the
gold response, used_memory, restraint), seeing the recent conversation (the 3 messages before the
probe, the same for every condition); without a judge, token F1 against the gold response,
labelled `token_f1_vs_gold`, and no used-memory figures (they need a judge).

Headline: the task's one score (its `primary`, the report's row and the RealCompanion overall)
is the agent's replies in agent mode; with `--conditions`, one condition's (`headline_condition`,
`HEADLINE_RULE`), named in results.json as `primary_condition`. A folder holds one set of
conditions: resuming it with another `--conditions` is refused (`check_resume`).

Populations (one definition each, README "RealCompanion tracks"): misfire = cold opens + probes
with no referent; appropriate application = memory-bearing probes; Table 5 and the whole-corpus
contrasts = probes with a reference set (`data.has_reference_set`); decomposition = the contrast's
own population and the proportional stratum, under the recorded and the strict reading; locus
accuracy compares formal loci (`data.formal_locus`: companion refines episode).
"""

from __future__ import annotations

from evaluator.records import Sample
from evaluator.realcompanion.tracks import RealCompanionTask
from evaluator.task import Item

TASK = "realcompanion/chat"
CONDITIONS = ("C0", "C1", "C2", "C3", "C4", "C3m", "C4m")
RECENT_N = 3
BM25_K = 10
CONTRASTS = (("C1", "C0"), ("C2", "C0"), ("C2", "C1"), ("C3", "C1"), ("C4", "C1"), ("C4", "C4m"),
             ("C4", "C3m"), ("C3", "C2"))
READINGS = ("recorded", "strict")
# Which condition's score is the task's headline (`primary`): C4, BM25's ten under "RETRIEVED
# MEMORIES" (a retrieval system's condition), when the run has it, else the last it has in
# this order. Not the order given to --conditions: C1,C0 and C0,C1 have one headline.
HEADLINE_ORDER = ("C0", "C1", "C2", "C3", "C3m", "C4m", "C4")
HEADLINE_RULE = ("agent mode: the agent's replies; with --conditions: C4 when the run has it, "
                 "else the run's condition that comes last in C0, C1, C2, C3, C3m, C4m "
                 "(whatever order --conditions gives)")

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
    if condition == "C3m":
        parts.append("RECENT CONVERSATION\n" + ("\n".join(_fmt(m) for m in pool[-BM25_K:])
                                                or "(none)"))
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


def judge_context(probe, participant) -> str:
    """The conversation the judge sees: the RECENT_N messages before the probe, the same for
    every condition (so the judge is not told which block the generator had)."""
    return "\n".join(_fmt(m) for m in participant.history(probe.position)[-RECENT_N:])


def _score(reply: str, probe, judge, context: str = "") -> dict:
    """One reply's scores. An empty reply is read as nothing (evaluator.scoring.readable): token
    F1 0 and, with a judge, never sent to it: content match 0, no memory used, restraint kept
    (the judge prompt's own definitions for a reply that brings up nothing)."""
    from evaluator.scoring import token_f1
    from evaluator.scoring.readable import reason

    unreadable = reason(reply)
    out = {"token_f1_vs_gold": 0.0 if unreadable else token_f1(reply, probe.gold_response or ""),
           "unreadable": unreadable}
    if judge is not None and unreadable:
        out.update(content_match=0, used_memory=False, restraint=True, judge_raw=None,
                   judge_error=None)
    elif judge is not None:
        from evaluator.scoring import judge_chat_reply

        j = judge_chat_reply(judge, probe=probe.text, reply=reply,
                             gold_response=probe.gold_response or "", context=context)
        out.update(content_match=j["content_match"], used_memory=j["used_memory"],
                   restraint=j["restraint"], judge_raw=j["raw"], judge_error=j["error"])
    return out


def headline_condition(conds) -> str | None:
    """The condition whose score is the task's headline (`HEADLINE_RULE`); "agent" in agent
    mode, None when nothing was scored."""
    conds = set(conds)
    if "agent" in conds:
        return "agent"
    ranked = [c for c in HEADLINE_ORDER if c in conds]
    return ranked[-1] if ranked else None


def describe_conditions(conds) -> str:
    """A journal line's or a run's conditions in words, for one-line errors."""
    conds = set(conds)
    if not conds or conds == {"agent"}:
        return "agent mode (no --conditions)"
    return "--conditions " + ",".join(c for c in CONDITIONS if c in conds)


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


class ChatTask(RealCompanionTask):
    name = TASK
    suite = "realcompanion"
    unit = "probe"

    def prepare(self, ctx) -> None:
        from evaluator.errors import UsageError
        from evaluator.realcompanion.tracks import load_rc

        parse_conditions(ctx.conditions)       # unknown names: one line, before any item
        if ctx.conditions and ctx.model is None:
            raise UsageError("--conditions need a generator: pass --model hf|openai|mock")
        load_rc(ctx)

    def items(self, ctx) -> list[Item]:
        from evaluator.realcompanion.tracks import load_rc

        _, release = load_rc(ctx)
        return [Item(f"{TASK}/{p.participant}/{p.probe_id}", p.participant, p)
                for p in items(release, None)]

    def check_resume(self, ctx, done) -> None:
        """Refuse to resume over lines answered under other conditions (or in the other mode):
        the headline condition is chosen from the conditions the lines hold, so a folder that
        mixed them would headline a condition only some of its items were answered under."""
        from evaluator.errors import EvalError

        want = set(ctx.conditions or ("agent",))
        for s in done:
            have = set(s.fields.get("conditions") or {})
            if have and have != want:
                raise EvalError(f"{ctx.run_dir.journal_path(self.name)}: {s.key} was answered "
                                f"under {describe_conditions(have)}, this run asks for "
                                f"{describe_conditions(want)}; rerun with the folder's "
                                "conditions, or pass --overwrite (or another --output_path) "
                                "to redo it")

    def solve(self, ctx, item: Item, sample: Sample) -> None:
        from evaluator.agents.protocol import Query
        from evaluator.beyondrecall_task import ask, prompt_hash, record_answer
        from evaluator.realcompanion.tracks import history_views, load_rc
        from evaluator.scoring.readable import generation_answer

        probe = item.payload
        _, release = load_rc(ctx)
        participant = release.participant(probe.participant)
        sample.fields.update(probe_fields(probe, participant))
        if ctx.conditions:
            replies, prompts = {}, {}
            tokens_in = tokens_out = 0
            for c in ctx.conditions:
                messages = condition_messages(c, probe, participant)
                gen = ctx.model.generate(messages, **ctx.gen_kwargs)
                text, notes = generation_answer(gen.text, gen.raw)     # as the built-in agents
                replies[c] = {"reply": text, **notes}
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
            sample.fields.update(ans.decisions())

    def tables(self, entry: dict) -> str:
        from evaluator.realcompanion.tables import paper_tables

        return paper_tables(self.name, entry)

    def describe_item(self, ctx, item: Item) -> list[str]:
        p = item.payload
        kind = "cold open" if p.cold_open else f"probe, locus {p.locus}, stratum {p.stratum}"
        return [f"{item.key}  ({kind})",
                f"visible: the {p.position} message(s) before the probe",
                f"PROBE ({p.participant} says): {p.text}",
                f"gold reply: {p.gold_response or '-'}"]

    def question_and_gold(self, ctx, item: Item) -> tuple[str | None, str | None]:
        return item.payload.text, item.payload.gold_response

    def needs_judge(self, sample: Sample) -> bool:
        return True

    def replies(self, sample: Sample):
        return {"prediction": sample.prediction,
                "conditions": {c: (e or {}).get("reply")
                               for c, e in (sample.fields.get("conditions") or {}).items()}}

    def score(self, ctx, item: Item, sample: Sample, judge=None) -> str | None:
        from evaluator.realcompanion.tracks import load_rc

        probe = item.payload
        errors = []
        context = ""
        if judge is not None:
            _, release = load_rc(ctx)
            context = judge_context(probe, release.participant(probe.participant))
        for cond, entry in sample.fields["conditions"].items():
            reply = entry["reply"]
            kept = {k: entry[k] for k in ("reasoning_removed", "finish") if k in entry}  # as answered
            entry.clear()
            entry.update(reply=reply, **kept, **_score(reply, probe, judge, context))
            if entry.get("judge_error"):       # "agent" is a condition's name, not the error's kind
                errors.append(entry["judge_error"] if cond == "agent"
                              else f"condition {cond}: {entry['judge_error']}")
        conds = sample.fields["conditions"]
        sample.metrics = {"token_f1_vs_gold": {c: e["token_f1_vs_gold"] for c, e in conds.items()}}
        if judge is not None:              # the judged primary, per condition (compare reads it)
            sample.metrics["content_match"] = {c: e.get("content_match") for c, e in conds.items()}
        return "; ".join(errors) or None

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        from evaluator.realcompanion.tracks import data_info

        # judged when a judge graded, or was asked and failed (a line keeps its judge record):
        # a run whose every judgment failed is still to be graded by the judge, never by token F1
        judged = ctx.judge is not None or any(s.get("judge") for s in lines) or any(
            r.get("content_match") is not None or r.get("judge_error")
            for s in lines for r in s.get("conditions", {}).values())
        out = aggregate(lines, seed=ctx.seed, judged=judged)
        out["data"] = data_info(ctx)
        out["generation"] = generation_settings(ctx)
        out["mode"] = "conditions" if any("agent" not in s.get("conditions", {}) for s in lines
                                          if not s.get("error")) else "agent"
        return out


def probe_fields(probe, participant) -> dict:
    """The journal fields every chat line carries about its probe (the populations come from
    these alone)."""
    refs = [participant.message(r) for r in probe.reference_ids]
    grounding = [participant.message(g) for g in probe.grounding_ids if g != probe.message_id]
    return {"participant": probe.participant, "probe_id": probe.probe_id, "stratum": probe.stratum,
            "locus": probe.locus, "cold_open": probe.cold_open,
            "memory_bearing": probe.memory_bearing,
            "memory_bearing_strict": probe.memory_bearing_strict, "on_screen": probe.on_screen,
            "category": probe.category, "pool_size": probe.position,
            "reference_ids": list(probe.reference_ids),
            "has_references": probe.has_reference_set and not probe.cold_open,
            "companion_origin": bool(refs) and all(m.speaker == "companion" for m in refs),
            # V7's second reading: the grounding citations other than the probe (None: it has none)
            "grounding_origin": (all(m.speaker == "companion" for m in grounding)
                                 if grounding else None)}


def generation_settings(ctx) -> dict:
    """The settings every generator request was made with (the backend defaults merged with
    --gen_kwargs: temperature 0 unless asked otherwise) and the judge's (always temperature 0)."""
    from evaluator.models._common import resolve_gen_kwargs

    out = {"generator": resolve_gen_kwargs(ctx.gen_kwargs or {}) if ctx.model is not None else None,
           "agent_mode_note": None if ctx.conditions else
           "agent mode: the agent makes its own requests; built-in agents pass --gen_kwargs"}
    out["judge"] = dict(ctx.judge.gen_kwargs) if ctx.judge is not None else None
    return out


def _reading_pick(reading: str):
    field = "memory_bearing" if reading == "recorded" else "memory_bearing_strict"
    return lambda s: bool(s.get(field, s.get("memory_bearing")))


def misfire_population(s: dict) -> bool:
    from evaluator.realcompanion.data import is_misfire_population

    return is_misfire_population(s.get("cold_open"), s.get("locus"))


def _decomposition(rows: list[tuple[dict, float]], pick) -> dict | None:
    if not rows:
        return None
    mem = [d for s, d in rows if pick(s)]
    other = [d for s, d in rows if not pick(s)]
    pi = len(mem) / len(rows)
    g1 = sum(mem) / len(mem) if mem else None
    g0 = sum(other) / len(other) if other else None
    delta = sum(d for _, d in rows) / len(rows)
    part0 = None if g0 is None else (1 - pi) * g0
    return {"n": len(rows), "n_memory_bearing": len(mem), "pi": pi, "gamma1": g1, "gamma0": g0,
            "pi_gamma1": None if g1 is None else pi * g1, "one_minus_pi_gamma0": part0,
            "delta": delta,
            "share_from_no_memory_rows": (None if part0 is None or delta == 0 else part0 / delta)}


def _not_reported(what: str) -> dict:
    return {"value": None, "note": f"not reported: the agent gave no {what}"}


def system_metrics(ok: list[dict], *, metric: str, seed: int) -> dict:
    """The paper's four metrics for a system that reports its decisions (agent mode): misfire
    rate MR (rho-hat = 1 on the misfire population), appropriate application AAR (rho-hat = 1 on
    memory-bearing probes), locus accuracy LA (lambda-hat = lambda* on memory-bearing probes),
    response consistency RC (the content metric on every probe), and evidence coverage (share
    of a memory-bearing probe's reference ids the agent cited). Pooled and macro with
    participant intervals; each under the recorded and strict reading where it depends on it.
    A decision the agent never reported is "not reported" (value None with a note), never 0."""
    from evaluator.realcompanion.data import formal_locus
    from evaluator.stats import participant_bootstrap

    rows = [s for s in ok if "agent" in s.get("conditions", {})]

    def est(pick, value):
        vals, cl = [], []
        for s in rows:
            if pick(s):
                v = value(s)
                if v is not None:
                    vals.append(float(v))
                    cl.append(s["participant"])
        out = participant_bootstrap(vals, cl, seed=seed)
        return out if out is not None else {"value": None, "note": "no probe in this population"}

    out: dict = {"n": len(rows)}
    reported_rho = any(s.get("retrieved") is not None for s in rows)
    reported_locus = any(s.get("reported_locus") is not None for s in rows)
    reported_ids = any(s.get("evidence_ids") is not None for s in rows)
    rho = lambda s: s.get("retrieved")  # noqa: E731
    out["misfire_rate"] = est(misfire_population, rho) if reported_rho else _not_reported("retrieved")
    out["misfire_rate_thread"] = (est(lambda s: s.get("locus") == "thread", rho) if reported_rho
                                  else _not_reported("retrieved"))
    for reading in READINGS:
        pick = _reading_pick(reading)
        out[f"appropriate_application_{reading}"] = (est(pick, rho) if reported_rho
                                                     else _not_reported("retrieved"))
        out[f"locus_accuracy_{reading}"] = (
            est(pick, lambda s: float(formal_locus(s.get("reported_locus"))
                                      == formal_locus(s.get("locus"))))
            if reported_locus else _not_reported("locus"))

        def coverage(s):
            refs = s.get("reference_ids") or []
            if not refs or s.get("evidence_ids") is None:
                return None
            return len(set(refs) & set(s["evidence_ids"])) / len(set(refs))
        out[f"evidence_coverage_{reading}"] = (
            est(lambda s, pick=pick: pick(s) and s.get("has_references", True), coverage)
            if reported_ids else _not_reported("evidence_ids"))
        out[f"evidence_hit_at_5_{reading}"] = (
            est(lambda s, pick=pick: pick(s) and bool(s.get("reference_ids")), evidence_hit_at_5)
            if reported_ids else _not_reported("evidence_ids"))
    out["locus_rule"] = ("formal locus: companion refines episode, so a reported episode or "
                         "companion matches a released episode or companion locus")
    out["response_consistency"] = est(lambda s: True,
                                      lambda s: s["conditions"]["agent"].get(metric))
    out["response_metric"] = metric
    return out


COVERAGE_RULE = ("items with a readable, non-empty reply among those run (an empty reply or a "
                 "failed item is not covered)")


def replied(reply, unreadable=None) -> bool:
    """Table 41's coverage: the reply can be read and says something (evaluator.scoring.readable:
    `unreadable` is the reason recorded when the line was scored)."""
    from evaluator.scoring.readable import is_empty

    return unreadable is None and not is_empty(reply)


def evidence_hit_at_5(s: dict, gold_field: str = "reference_ids") -> float | None:
    """Table 41's hit@5 of a system's own evidence: one of the first five ids it cited is a
    required one (None when it cited nothing it could be scored on)."""
    gold = set(s.get(gold_field) or [])
    cited = s.get("evidence_ids")
    if not gold or cited is None:
        return None
    return float(bool(gold & set(cited[:5])))


def per_participant(values, clusters) -> dict:
    """Participant -> {"mean", "n"}: the per-subject values the paper's by-subject tables print."""
    by: dict[str, list[float]] = {}
    for v, c in zip(values, clusters):
        by.setdefault(str(c), []).append(float(v))
    return {c: {"mean": sum(v) / len(v), "n": len(v)} for c, v in sorted(by.items())}


def companion_origin(rows: list[dict], *, group: str, pick=lambda s: True,
                     field: str = "companion_origin") -> dict:
    """V7: share of rows whose evidence messages (`field`: the row's verdict, None when it has
    none) were all sent by the companion, overall and per `group` value, with Wilson intervals."""
    from evaluator.stats import wilson

    chosen = [s for s in rows if pick(s) and s.get(field) is not None]
    per: dict = {}
    for s in chosen:
        per.setdefault(str(s.get(group)), []).append(bool(s[field]))
    return {"rule": "every evidence message was sent by the companion",
            "all": wilson(sum(bool(s[field]) for s in chosen), len(chosen)),
            f"per_{group}": {k: wilson(sum(v), len(v)) for k, v in sorted(per.items())}}


EPISODE_LEVEL_LOCI = ("profile", "episode")


def chat_companion_origin(ok: list[dict]) -> dict:
    """V7 on the chat track, each figure on the digest's population: the memory-bearing rows
    (recorded reading; "22.0 % ... of the 404"), per locus ("profile-level ... of 223"), the
    episode-level rows (locus profile or episode: "7.1 % ... of 339", 339 = 223 + 116) and the
    second reading (every row with a grounding citation other than the probe: "70.3 % ... of
    1,045 rows that carry one")."""
    mem = [s for s in ok if s.get("memory_bearing")]
    out = companion_origin(mem, group="locus")
    out["population"] = "memory-bearing rows (recorded reading)"
    out["episode_level"] = companion_origin(
        mem, group="locus", pick=lambda s: s.get("locus") in EPISODE_LEVEL_LOCI)["all"]
    out["episode_level_population"] = "memory-bearing rows whose locus is profile or episode"
    second = companion_origin(ok, group="locus", field="grounding_origin")
    second["population"] = "chat rows with a grounding citation other than the probe message"
    second["rule"] = "every grounding citation other than the probe was sent by the companion"
    out["second_reading"] = second
    return out


def aggregate(samples: list[dict], *, seed: int = 0, judged: bool) -> dict:
    from evaluator.stats import participant_bootstrap

    def by_participant(values, clusters, seed):
        return participant_bootstrap(values, clusters, seed=seed)

    ok = [s for s in samples if not s.get("error")]
    conds = sorted({c for s in ok for c in s.get("conditions", {})},
                   key=lambda c: (CONDITIONS + ("agent",)).index(c))
    metric = "content_match" if judged else "token_f1_vs_gold"
    from evaluator.scoring.readable import count

    out: dict = {"primary_metric": metric, "n_samples": len(samples),
                 "n_failed": len(samples) - len(ok), "n_scored": len(ok),
                 "content_metric": metric, "per_condition": {}, "contrasts": {},
                 "n_unreadable": count(r.get("unreadable") for s in ok
                                       for r in s.get("conditions", {}).values()),
                 "n_judge_errors": sum(1 for s in ok if any(
                     r.get("judge_error") for r in s.get("conditions", {}).values()))}
    n_replies = sum(len(s.get("conditions", {})) for s in ok)
    out["decided_by"] = {"content": {"judge" if judged else "token_f1_vs_gold": n_replies}} \
        if n_replies else {}
    if not judged:
        out["note"] = ("no judge: content is token F1 against the gold response; used-memory, "
                       "restraint, misfire and appropriate-application rates need --judge")
    with_refs = lambda s: bool(s.get("has_references", True))  # noqa: E731
    out["populations"] = {
        "all": len(ok),
        "with_references": sum(1 for s in ok if with_refs(s)),
        "misfire": sum(1 for s in ok if misfire_population(s)),
        "memory_bearing_recorded": sum(1 for s in ok if _reading_pick("recorded")(s)),
        "memory_bearing_strict": sum(1 for s in ok if _reading_pick("strict")(s)),
        "with_on_screen_verdict": sum(1 for s in ok if s.get("on_screen") is not None),
        "definitions": {
            "misfire": "cold opens and scoreable probes with no referent (locus none)",
            "with_references": "scoreable probes with a reference set R(p): an earlier message "
                               "or a profile claim the gold draws on, thread probes included "
                               "(Table 5 and the whole-corpus contrasts; not the paper's 1,477 "
                               "chat probes, see data.has_reference_set)",
            "memory_bearing_recorded": "locus profile, episode or companion",
            "memory_bearing_strict": "memory-bearing and not on screen (on_screen neither clear "
                                     "nor borderline; rows without a verdict keep their label)"}}

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
        entry = {"n_judge_errors": sum(1 for s in ok
                                       if (s["conditions"].get(c) or {}).get("judge_error")),
                 "content": by_participant(*values(c), seed),
                 "content_with_references": by_participant(*values(c, with_refs), seed)}
        for reading in READINGS:
            entry[f"content_memory_bearing_{reading}"] = by_participant(
                *values(c, _reading_pick(reading)), seed)
        if judged:
            entry["misfire_rate"] = by_participant(*values(c, misfire_population, "used_memory"),
                                                   seed)
            for reading in READINGS:
                entry[f"appropriate_application_{reading}"] = by_participant(
                    *values(c, _reading_pick(reading), "used_memory"), seed)
            entry["appropriate_application"] = entry["appropriate_application_recorded"]
            entry["used_memory"] = by_participant(*values(c, field="used_memory"), seed)
            entry["used_memory_per_participant"] = per_participant(*values(c, field="used_memory"))
            entry["restraint"] = by_participant(*values(c, field="restraint"), seed)
        out["per_condition"][c] = entry
    primary_cond = headline_condition(conds)
    if primary_cond:
        est = out["per_condition"][primary_cond]["content"]
        out["primary"] = est["pooled"] if est else None
        out["primary_condition"] = primary_cond
        out["primary_condition_rule"] = HEADLINE_RULE

    for a, b in CONTRASTS:
        if a not in conds or b not in conds:
            continue
        rows = []
        for s in ok:
            ra, rb = s["conditions"].get(a), s["conditions"].get(b)
            if ra is None or rb is None or ra.get(metric) is None or rb.get(metric) is None:
                continue
            rows.append((s, float(ra[metric]) - float(rb[metric])))

        def diff(pick):
            chosen = [(s, d) for s, d in rows if pick(s)]
            return by_participant([d for _, d in chosen], [s["participant"] for s, _ in chosen],
                                  seed)
        chosen = [(s, d) for s, d in rows if with_refs(s)]
        entry = {"population": "probes with a reference set",
                 "n": len(chosen),
                 "difference": diff(with_refs),
                 "difference_per_participant": per_participant(
                     [d for _, d in chosen], [s["participant"] for s, _ in chosen]),
                 "difference_all_items": diff(lambda s: True)}
        for reading in READINGS:
            entry[f"difference_memory_bearing_{reading}"] = diff(_reading_pick(reading))
        # each decomposition row is computed on the population whose contrast it decomposes:
        # the whole-corpus contrast's (its delta is `difference`'s pooled mean) and the
        # proportional stratum's (its pi is the demand rate: no-referent probes included)
        prop = [(s, d) for s, d in rows if s["stratum"] == "proportional" and not s.get("cold_open")]
        entry["decomposition"] = {f"{name}/{reading}": _decomposition(rows_of, _reading_pick(reading))
                                  for name, rows_of in (("reference_set", chosen), ("proportional", prop))
                                  for reading in READINGS}
        if prop:
            entry["decomposition_proportional"] = entry["decomposition"]["proportional/recorded"]
        out["contrasts"][f"{a}-{b}"] = entry

    if "agent" in conds:
        out["system"] = system_metrics(ok, metric=metric, seed=seed)
        # Table 41's coverage: n_scored counts an empty reply too, coverage does not
        out["coverage"] = {"answered": sum(1 for s in ok if replied(
            (s["conditions"].get("agent") or {}).get("reply"),
            (s["conditions"].get("agent") or {}).get("unreadable"))),
            "items": len(samples), "rule": COVERAGE_RULE}
    out["companion_origin"] = chat_companion_origin(ok)
    return out
