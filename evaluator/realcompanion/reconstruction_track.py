"""The Reconstruction track (`realcompanion/reconstruction`): from a participant's full history
the agent writes a profile (claims citing message ids) and a persona (slot name -> value).

The agent reads every message, then gets one query whose `options` say what to write:
`{"format": "reconstruction", "persona_slots": [...], "json": {...}}` (`json` describes the
answer's fields in generic words, see `output_fields`); the query text says the same for model
agents. It must answer with JSON:
    {"profile": [{"text": "...", "citations": ["day12-7", ...]}, ...],
     "persona": {"slot name": "value", ...}}
(a ```json fence around it is fine). A reply that is not such JSON, or is empty, cannot be read:
it scores 0 (no slot or claim predicted, every gold slot and claim missed) and stays in every
denominator, with `unreadable` saying why (evaluator.scoring.readable, the rule of every task).

Scoring, F1 = 2TP / (2TP + FP + FN), pooled over participants and per participant:
- persona: a predicted slot is a true positive when its value matches the gold value of the same
  slot (the judge's yes/no with `--judge`, else `MATCH_RULE`: normalised token F1 >= 0.5 and the
  same polarity, see `polarity_differs`); a wrong value counts
  as a false positive and its gold slot as a false negative; extra slots are false positives.
  Slots the release leaves empty (null) are not positives: a value predicted for one is a false
  positive, and leaving it empty costs nothing.
- profile: gold claims are those the release's audit kept (supported, pruned_supported,
  repairable); predicted and gold claims are matched one to one, greedily by token F1, a pair
  counting when it passes the same rule.
Tokens the agent read and wrote (reported by the backend, else estimated at 4 characters a
token) sit next to the scores.
"""

from __future__ import annotations

import json
import re

from evaluator.records import Sample
from evaluator.realcompanion.tracks import RealCompanionTask
from evaluator.task import Item

TASK = "realcompanion/reconstruction"
MATCH_F1 = 0.5
# The polarity check of the judge-free match: the words that make a value or claim a denial.
# Compared after `evaluator.text.normalize_text` (lower-cased, punctuation deleted, so "isn't"
# and "isn’t" are "isnt"); a closed list, since "-nt" alone also ends "want" and "event".
NEGATION_WORDS = frozenset("""
not no never none nobody nothing neither nor false cannot
isnt arent wasnt werent dont doesnt didnt hasnt havent hadnt wont wouldnt cant couldnt shouldnt
mustnt neednt mightnt shant aint
""".split())
MATCH_RULE = (f"judge yes/no when --judge, else normalised token F1 >= {MATCH_F1} and the same "
              "polarity (a value or claim that negates words the other says plainly is no match)")
GOLD_AUDITS = frozenset({"supported", "pruned_supported", "repairable"})

INSTRUCTION = (
    "You have read your whole conversation history with this user. Write what you know about "
    "them as JSON with two keys: \"profile\", a list of claims, each {{\"text\": a short factual "
    "sentence about the user, \"citations\": [ids of the messages that support it]}}; and "
    "\"persona\", an object giving a value for each of these slots where the history supports "
    "one: {slots}. Answer with the JSON only."
)


def output_fields(slots: list[str]) -> dict:
    """The answer's JSON in the agents' generic words (`options["json"]`, read by the weight-free
    baseline): the user's claims with citations, and a value for each persona slot."""
    return {"profile": {"claims_about": "user"}, "persona": {"values_for": slots, "from": "user"}}


class JudgeFailed(RuntimeError):
    """The judge could not grade a slot or claim: the participant has no judged score yet."""

    error_kind = "judge"


class OutputError(ValueError):
    """The agent's reconstruction is not the JSON the track asks for (scored as `unparseable`)."""


def parse_reconstruction(text: str) -> tuple[list[dict], dict[str, str]]:
    body = text.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", body, re.S)
    if fence:
        body = fence.group(1).strip()
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        raise OutputError("malformed JSON: no JSON object in the answer")
    try:
        data = json.loads(body[start:end + 1])
    except ValueError as exc:
        raise OutputError(f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise OutputError("malformed JSON: expected an object with profile and persona")
    profile = data.get("profile", [])
    persona = data.get("persona", {})
    if not isinstance(profile, list) or not isinstance(persona, dict):
        raise OutputError("malformed JSON: profile must be a list and persona an object")
    claims = []
    for i, c in enumerate(profile):
        if isinstance(c, str):
            c = {"text": c, "citations": []}
        if not isinstance(c, dict) or not isinstance(c.get("text"), str):
            raise OutputError(f"malformed JSON: profile[{i}] has no text")
        cites = c.get("citations") or []
        claims.append({"text": c["text"], "citations": [str(x) for x in cites]
                       if isinstance(cites, list) else []})
    return claims, {str(k): "" if v is None else str(v) for k, v in persona.items()}


def _norm_slot(name: str) -> str:
    return re.sub(r"\s+", " ", name.strip().lower())


# words after a negation it governs ("not Berlin", "doesn't drink coffee"): a negation whose next
# NEGATION_SCOPE words share none with the other text adds a detail ("... and has not heard back
# yet", "Married, no children") and does not reverse it
NEGATION_SCOPE = 3
# stems of verbs of giving something up, read as negations by the polarity check: "stopped
# drinking coffee" says what "doesn't drink coffee" says, and the opposite of "drinks coffee"
CESSATION_STEMS = frozenset({"stop", "quit", "ceas"})


def _negated_words(words: list[str]) -> set[str]:
    """The words within NEGATION_SCOPE after each negation word of `words`."""
    out: set[str] = set()
    for i, w in enumerate(words):
        if w in NEGATION_WORDS:
            out.update(words[i + 1:i + 1 + NEGATION_SCOPE])
    return out


def polarity_differs(gold: str, pred: str) -> bool:
    """The judge-free match's polarity check: one text negates words the other says plainly
    ("not Berlin" against "Berlin", "It is false that the user swims" against "The user swims"):
    a negation in one (`NEGATION_WORDS`, and the verbs of `CESSATION_STEMS`) whose scope (the next NEGATION_SCOPE words, stemmed)
    holds a word of the other, when the other does not negate that word too. Token F1 counts
    "not" as one word among many, so without this check a denial of every gold value scored as
    a match; a negation that only adds a detail ("..., no children") leaves the match alone."""
    from evaluator.text import normalize_text, stem_words

    def words(text: str) -> list[str]:
        plain = normalize_text(text).split()
        return [w if w in NEGATION_WORDS else "not" if s in CESSATION_STEMS else s
                for w, s in zip(plain, stem_words(plain))]

    g, p = words(gold), words(pred)
    for a, b in ((g, p), (p, g)):
        reversed_here = (_negated_words(a) & set(b)) - _negated_words(b) - NEGATION_WORDS
        if reversed_here:
            return True
    return False


def _matches(gold: str, pred: str, slot: str, judge) -> tuple[bool, float]:
    """(match, token F1): the judge's yes/no, or without a judge `MATCH_RULE`."""
    from evaluator.scoring import token_f1

    f1 = token_f1(pred, gold)
    if judge is None:
        return f1 >= MATCH_F1 and not polarity_differs(gold, pred), f1
    from evaluator.scoring import judge_value_match

    r = judge_value_match(judge, slot=slot, gold_value=gold, predicted_value=pred)
    if r["error"]:
        raise JudgeFailed(f"judge failed: {r['error']}")
    return bool(r["match"]), f1


def _empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def score_persona(gold: dict, pred: dict[str, str], judge=None) -> dict:
    """TP/FP/FN over persona slots. A slot the release leaves empty (null value: the paper fills
    slots "only where the conversation supports them") is not a positive: it adds no false
    negative, and a prediction for it is a false positive. A blank predicted value is no
    prediction."""
    gold_by = {_norm_slot(k): (k, s.value) for k, s in gold.items()}
    tp = fp = 0
    matched = set()
    details = []
    for name, value in pred.items():
        if _empty(value):
            continue
        g = gold_by.get(_norm_slot(name))
        if g is None:
            fp += 1
            details.append({"slot": name, "predicted": value, "match": False, "reason": "no such slot"})
            continue
        if _empty(g[1]):
            fp += 1
            details.append({"slot": g[0], "predicted": value, "gold": None, "match": False,
                            "reason": "the release leaves this slot empty"})
            continue
        ok, f1 = _matches(str(g[1]), value, g[0], judge)
        if ok and g[0] not in matched:
            tp += 1
            matched.add(g[0])
        else:
            fp += 1
        details.append({"slot": g[0], "predicted": value, "gold": g[1], "match": ok, "f1": f1})
        if judge is None and f1 >= MATCH_F1 and not ok:
            details[-1]["reason"] = "polarity differs"
    fn = sum(1 for _, v in gold_by.values() if not _empty(v)) - len(matched)
    return {"tp": tp, "fp": fp, "fn": fn, "details": details}


def score_profile(gold_claims, pred_claims: list[dict], judge=None) -> dict:
    from evaluator.scoring import token_f1

    gold = [c for c in gold_claims if (c.audit or "supported") in GOLD_AUDITS]
    pairs = sorted(((token_f1(p["text"], g.text), i, j) for i, p in enumerate(pred_claims)
                    for j, g in enumerate(gold)), key=lambda t: (-t[0], t[1], t[2]))
    used_p, used_g, links = set(), set(), []
    for f1, i, j in pairs:
        if i in used_p or j in used_g:
            continue
        if judge is None and f1 < MATCH_F1:
            break                                   # sorted: nothing later can pass
        if judge is not None and f1 == 0:
            break
        ok, _ = _matches(gold[j].text, pred_claims[i]["text"], "profile claim", judge)
        if ok:
            used_p.add(i)
            used_g.add(j)
            links.append({"predicted": i, "gold": gold[j].id, "f1": f1})
    tp = len(links)
    return {"tp": tp, "fp": len(pred_claims) - tp, "fn": len(gold) - tp, "links": links,
            "n_gold": len(gold)}


def f1_of(tp: int, fp: int, fn: int) -> dict:
    denom = 2 * tp + fp + fn
    return {"f1": (2 * tp / denom) if denom else None,
            "precision": tp / (tp + fp) if tp + fp else None,
            "recall": tp / (tp + fn) if tp + fn else None, "tp": tp, "fp": fp, "fn": fn}


class ReconstructionTask(RealCompanionTask):
    name = TASK
    suite = "realcompanion"
    unit = "participant"

    def prepare(self, ctx) -> None:
        from evaluator.realcompanion.tracks import load_rc

        load_rc(ctx)

    def items(self, ctx) -> list[Item]:
        from evaluator.realcompanion.tracks import load_rc

        _, release = load_rc(ctx)
        return [Item(f"{TASK}/{p.pid}", p.pid, p) for p in release.participants]

    def solve(self, ctx, item: Item, sample: Sample) -> None:
        from evaluator.agents.protocol import Query
        from evaluator.beyondrecall_task import ask, record_answer
        from evaluator.realcompanion.tracks import estimate_tokens, history_views

        p = item.payload
        slots = list(p.persona)
        sample.fields["participant"] = p.pid
        sample.inputs["messages_read"] = len(p.messages)
        query = Query(item.key, TASK, INSTRUCTION.format(slots=", ".join(slots)), [], None,
                      options={"format": "reconstruction", "persona_slots": slots,
                               "json": output_fields(slots)})
        ans = ask(ctx, history_views(ctx)[p.pid].sessions_before(len(p.messages)), query)
        record_answer(ctx, sample, ans)
        sample.fields["tokens_read"] = ans.input_tokens if ans.input_tokens is not None else \
            sum(estimate_tokens(m.text) for m in p.messages)
        sample.fields["tokens_written"] = ans.output_tokens if ans.output_tokens is not None else \
            estimate_tokens(ans.text)
        sample.fields["tokens_estimated"] = ans.input_tokens is None

    def describe_item(self, ctx, item: Item) -> list[str]:
        p = item.payload
        return [item.key, f"visible: all {len(p.messages)} message(s)",
                f"QUESTION: {INSTRUCTION.format(slots=', '.join(p.persona))}"]

    def needs_judge(self, sample: Sample) -> bool:
        return True

    def score(self, ctx, item: Item, sample: Sample, judge=None) -> str | None:
        from evaluator.scoring.readable import reason

        p = item.payload
        try:
            claims, persona = parse_reconstruction(sample.prediction or "")
            unreadable, why = reason(sample.prediction), None
        except OutputError as exc:          # nothing read: no prediction, so every gold is missed
            claims, persona = [], {}
            unreadable, why = reason(sample.prediction, parsed=False), str(exc)
        sample.fields["unreadable"] = unreadable
        sample.fields["unreadable_why"] = why
        known = {m.id for m in p.messages}
        persona_scores = score_persona(p.persona, persona, judge)     # JudgeFailed: a judge error
        profile_scores = score_profile(p.claims, claims, judge)
        sample.fields["dangling_citations"] = sum(1 for c in claims for x in c["citations"]
                                                  if x not in known)
        sample.fields["persona"], sample.fields["profile"] = persona_scores, profile_scores
        sample.metrics = {"persona_f1": f1_of(persona_scores["tp"], persona_scores["fp"],
                                              persona_scores["fn"])["f1"],
                          "profile_f1": f1_of(profile_scores["tp"], profile_scores["fp"],
                                              profile_scores["fn"])["f1"],
                          "unreadable": unreadable}
        if unreadable:                       # the rule: an unreadable reply scores 0
            sample.metrics["persona_f1"] = sample.metrics["profile_f1"] = 0.0
        sample.metrics["primary"] = sample.metrics["persona_f1"]
        # the participant's weight in the pooled F1 (its denominator), so that the weighted mean
        # of the participants' F1 is the task's primary (compare and the overall use it)
        sample.metrics["primary_weight"] = (2 * persona_scores["tp"] + persona_scores["fp"]
                                            + persona_scores["fn"])
        return None

    def tables(self, entry: dict) -> str:
        from evaluator.realcompanion.tables import paper_tables

        return paper_tables(self.name, entry)

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        from evaluator.realcompanion.tracks import data_info

        out = aggregate(lines, seed=ctx.seed)
        out["data"] = data_info(ctx)
        return out


def _f1_interval(ok: list[dict], part: str, seed: int, n_boot: int = 2000):
    """95% interval of the pooled F1, resampling participants (their TP/FP/FN together)."""
    if len(ok) < 2:
        return None
    import numpy as np

    from evaluator.stats import ratio_bootstrap

    def f1(sums):
        tp, fp, fn = sums.T
        denom = 2 * tp + fp + fn
        return np.divide(2 * tp, denom, out=np.full_like(denom, np.nan), where=denom > 0)

    return ratio_bootstrap([[s[part]["tp"], s[part]["fp"], s[part]["fn"]] for s in ok],
                           statistic=f1, n_boot=n_boot, seed=seed)


def aggregate(samples: list[dict], seed: int = 0) -> dict:
    """Pooled and per-participant F1 over every participant whose reply was obtained: an
    unreadable reply is in the pool with no prediction (its gold slots and claims are false
    negatives) and its own F1 is 0; only a failed item (no reply) is left out, in n_failed."""
    from evaluator.scoring.readable import count

    ok = [s for s in samples if not s.get("error")]
    out: dict = {"primary_metric": "persona_f1", "n_samples": len(samples), "n_scored": len(ok),
                 "n_failed": len(samples) - len(ok), "match_rule": MATCH_RULE,
                 "n_unreadable": count(s.get("unreadable") for s in ok)}
    judged = any(s.get("judge") for s in ok)
    out["decided_by"] = {"slot and claim match": {
        "judge" if judged else f"token F1 >= {MATCH_F1} and the same polarity": len(ok)}} \
        if ok else {}
    for part in ("persona", "profile"):
        tp = sum(s[part]["tp"] for s in ok)
        fp = sum(s[part]["fp"] for s in ok)
        fn = sum(s[part]["fn"] for s in ok)
        per = {s["participant"]: f1_of(s[part]["tp"], s[part]["fp"], s[part]["fn"]) for s in ok}
        for s in ok:
            if s.get("unreadable"):
                per[s["participant"]]["f1"] = 0.0
        f1s = [v["f1"] for v in per.values() if v["f1"] is not None]
        out[part] = {"pooled": f1_of(tp, fp, fn),
                     "macro_f1": sum(f1s) / len(f1s) if f1s else None,
                     "per_participant": per}
    for part in ("persona", "profile"):
        out[part]["pooled"]["ci95"] = _f1_interval(ok, part, seed)
    pooled = out["persona"]["pooled"]["f1"]
    out["primary"] = None if pooled is None else {
        "mean": pooled, "ci95": out["persona"]["pooled"]["ci95"], "n": len(ok),
        "n_clusters": len(ok)}
    out["tokens"] = {"read": sum(s.get("tokens_read") or 0 for s in ok),
                     "written": sum(s.get("tokens_written") or 0 for s in ok),
                     "estimated": any(s.get("tokens_estimated") for s in ok)}
    out["errors"] = [s["error"] for s in samples if s.get("error")]
    return out
