"""The Question track (`realcompanion/question`): written questions about a participant's life.

A fresh agent is given the conversation up to and including each question's `asked_after`
message, then the question. Answers are scored like Beyond Recall's free-text answers
(normalised exact match, stemmed token F1, contains; the judge's 0/0.5/1 when `--judge` is given,
which is then the primary metric), overall and per question category.

The paper aggregates "both pooled over items and macro-averaged across subjects" and bootstraps
over participants: `primary` is the pooled mean (every scored question weighs one) and
`primary_macro` the macro mean (each participant's own mean weighs one), both with 95% intervals
from the same resamples of whole participants (evaluator.stats.participant_bootstrap).
"""

from __future__ import annotations

from evaluator.records import Sample
from evaluator.realcompanion.tracks import RealCompanionTask
from evaluator.task import Item

TASK = "realcompanion/question"


class QuestionTask(RealCompanionTask):
    name = TASK
    suite = "realcompanion"
    unit = "question"

    def prepare(self, ctx) -> None:
        from evaluator.realcompanion.tracks import load_rc

        load_rc(ctx)

    def items(self, ctx) -> list[Item]:
        from evaluator.realcompanion.tracks import load_rc

        _, release = load_rc(ctx)
        return [Item(f"{TASK}/{q.participant}/{q.qid}", q.participant, q)
                for p in release.participants for q in p.questions]

    def solve(self, ctx, item: Item, sample: Sample) -> None:
        from evaluator.agents.protocol import Query
        from evaluator.beyondrecall_task import ask, record_answer
        from evaluator.realcompanion.tracks import history_views

        from evaluator.realcompanion.tracks import load_rc

        q = item.payload
        _, release = load_rc(ctx)
        part = release.participant(q.participant)
        speakers = [part.message(e).speaker for e in q.evidence_ids]
        sample.fields.update(participant=q.participant, qid=q.qid, category=q.category,
                             question=q.question, answer=q.answer, asked_after=q.asked_after,
                             evidence_ids_gold=list(q.evidence_ids),
                             companion_origin=bool(speakers) and all(
                                 sp == "companion" for sp in speakers) if speakers else None)
        sample.inputs["visible_messages"] = q.visible_until
        ans = ask(ctx, history_views(ctx)[q.participant].sessions_before(q.visible_until),
                  Query(item.key, TASK, q.question, [], None))
        record_answer(ctx, sample, ans)
        sample.fields["relied_on"] = ans.relied_on
        sample.fields.update(ans.decisions())

    def describe_item(self, ctx, item: Item) -> list[str]:
        q = item.payload
        return [f"{item.key}  (category {q.category})",
                f"visible: the first {q.visible_until} message(s), through {q.asked_after}",
                f"QUESTION: {q.question}", f"reference answer: {q.answer}"]

    def needs_judge(self, sample: Sample) -> bool:
        from evaluator.scoring import needs_judge

        return needs_judge(TASK, sample.fields.get("question"), sample.fields.get("answer"),
                           sample.prediction or "")

    def score(self, ctx, item, sample: Sample, judge=None) -> str | None:
        from evaluator.scoring import score_sample

        sample.metrics = score_sample(TASK, sample.fields.get("question"), sample.prediction,
                                      sample.fields.get("answer"), judge=judge)
        return sample.metrics.get("judge_error") if judge is not None else None

    def tables(self, entry: dict) -> str:
        from evaluator.realcompanion.tables import paper_tables

        return paper_tables(self.name, entry)

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        from evaluator.realcompanion.tracks import data_info

        out = aggregate(lines, seed=ctx.seed)
        out["data"] = data_info(ctx)
        return out


def macro_over_participants(samples: list[dict], *, seed: int = 0) -> dict | None:
    """The primary score macro-averaged over participants: the mean of each participant's own
    mean over its scored questions, with the 95% interval of the same participant resamples as
    `primary`'s (whose pooled mean it sits beside). None when nothing is scored."""
    from evaluator.scoring.tasks import sample_metrics
    from evaluator.stats import participant_bootstrap

    values, clusters = [], []
    for s in samples:
        v = sample_metrics(s).get("primary")
        if s.get("error") or not isinstance(v, (int, float)):     # bools count as 0/1
            continue
        values.append(float(v))
        clusters.append(s["participant"])
    est = participant_bootstrap(values, clusters, seed=seed)
    if est is None:
        return None
    macro = est["macro"]
    return {"mean": macro["mean"], "ci95": macro["ci95"], "n": macro["n"],
            "n_clusters": macro["n_participants"],
            "rule": "mean of the participants' own means (each participant weighs one); "
                    "`primary` is the mean over items"}


def aggregate(samples: list[dict], *, seed: int = 0) -> dict:
    from evaluator.scoring import aggregate as score_aggregate

    def participant(s):
        return s["participant"]

    out = score_aggregate(samples, TASK, cluster_of=participant, seed=seed)
    out["primary_macro"] = macro_over_participants(samples, seed=seed)
    out["per_category"] = {}
    for cat in sorted({str(s.get("category")) for s in samples}):
        subset = [s for s in samples if str(s.get("category")) == cat]
        agg = score_aggregate(subset, TASK, cluster_of=participant, seed=seed)
        out["per_category"][cat] = {"n": len(subset), "primary": agg["primary"],
                                    "token_f1": agg["metrics"].get("token_f1")}
    from evaluator.realcompanion.chat_track import companion_origin

    ok = [s for s in samples if not s.get("error")]
    out["companion_origin"] = companion_origin(ok, group="category")
    out["companion_origin"]["population"] = "questions with evidence ids (V7)"
    reported = [s for s in ok if s.get("evidence_ids") is not None and s.get("evidence_ids_gold")]
    if reported:
        from evaluator.stats import participant_bootstrap

        cov = [len(set(s["evidence_ids"]) & set(s["evidence_ids_gold"])) / len(set(s["evidence_ids_gold"]))
               for s in reported]
        out["evidence_coverage"] = participant_bootstrap(cov, [s["participant"] for s in reported],
                                                         seed=seed)
    else:
        out["evidence_coverage"] = {"value": None, "note": "not reported: the agent gave no evidence_ids"}
    from evaluator.realcompanion.chat_track import evidence_hit_at_5

    hits = [(evidence_hit_at_5(s, "evidence_ids_gold"), s["participant"]) for s in reported]
    if hits:
        from evaluator.stats import participant_bootstrap

        out["evidence_hit_at_5"] = participant_bootstrap([h for h, _ in hits], [c for _, c in hits],
                                                         seed=seed)
    else:
        out["evidence_hit_at_5"] = {"value": None, "note": "not reported: the agent gave no "
                                                          "evidence_ids"}
    from evaluator.realcompanion.chat_track import COVERAGE_RULE, replied

    out["coverage"] = {"answered": sum(1 for s in ok if replied(
        s.get("prediction"), (s.get("metrics") or {}).get("unreadable"))),
        "items": len(samples), "rule": COVERAGE_RULE}
    return out
