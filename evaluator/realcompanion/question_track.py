"""The Question track (`realcompanion/question`): written questions about a participant's life.

A fresh agent is given the conversation up to and including each question's `asked_after`
message, then the question. Answers are scored like Beyond Recall's free-text answers
(normalised exact match, stemmed token F1, contains; the judge's 0/0.5/1 when `--judge` is given,
which is then the primary metric), overall and per question category.
"""

from __future__ import annotations

TASK = "realcompanion/question"


def run(ctx, spec=None) -> dict:
    from evaluator.agents.protocol import Query
    from evaluator.errors import record_failure
    from evaluator.realcompanion.tracks import (ask, history_views, load_rc,
                                                resolve_agent_and_model, run_items)
    from evaluator.scoring import score_sample

    root, release = load_rc(ctx)
    judge = ctx.extra.get("_judge")
    agent_cls, model = resolve_agent_and_model(ctx)
    views = history_views(release)
    questions = [q for p in release.participants for q in p.questions]
    if ctx.limit is not None:
        questions = questions[:ctx.limit]

    def work(key, q):
        sample = {"key": key, "participant": q.participant, "qid": q.qid, "category": q.category,
                  "question": q.question, "answer": q.answer, "asked_after": q.asked_after,
                  "visible_messages": q.visible_until}
        try:
            ans = ask(agent_cls, model, ctx.agent_args, views[q.participant].sessions_before(q.visible_until),
                      Query(key, TASK, q.question, [], None))
            sample.update(prediction=ans.text, relied_on=ans.relied_on,
                          input_tokens=ans.input_tokens, output_tokens=ans.output_tokens)
            sample["metrics"] = score_sample(TASK, q.question, ans.text, q.answer, judge=judge)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            record_failure(sample, exc)
        return sample

    samples = run_items(ctx, TASK, [(f"{TASK}/{q.participant}/{q.qid}", q) for q in questions], work)
    return aggregate(samples, seed=ctx.seed, root=root, release=release)


def aggregate(samples: list[dict], *, seed: int = 0, root=None, release=None) -> dict:
    from evaluator.scoring import aggregate as score_aggregate

    def participant(s):
        return s["participant"]

    out = score_aggregate(samples, TASK, cluster_of=participant, seed=seed)
    out["per_category"] = {}
    for cat in sorted({str(s.get("category")) for s in samples}):
        subset = [s for s in samples if str(s.get("category")) == cat]
        agg = score_aggregate(subset, TASK, cluster_of=participant, seed=seed)
        out["per_category"][cat] = {"n": len(subset), "primary": agg["primary"],
                                    "token_f1": agg["metrics"].get("token_f1")}
    if release is not None:
        out["data"] = {"path": str(root), "is_sample": release.is_sample,
                       "participants": len(release.participants)}
    return out
