"""Scoring one Beyond Recall answer, and aggregating a task's scored samples.

What differs between tasks is the task's scoring policy (evaluator.scoring.policy: its answer
metric, judge prompt and whether it is refusal-aware), declared once per task; scoring reads the
policy, never the task's name. Primary metric per question under the declared policies (the
README's "Scoring" section states the same):
- a question that lists options (A), (B), ...: `mc_accuracy` (the letter the flexible reader
  chose equals the gold letter), judge or not, as MemEye scores its multiple-choice variant;
  `mc_accuracy_strict` beside it reads only the strict form (`Answer: B`; choice.strict_choice),
  as lm-eval reports strict-match beside flexible-extract; the gold letter is read strictly; a
  gold list of letters ("A, C") is a set, matched only by a reply that lists the same set; the
  lexical metrics of such a question compare the letters too (never normalised text); in a
  refusal-aware task, declining an unanswerable multiple-choice question scores 1;
- a refusal-aware task (refusal_to_answer): `refusal_acc`, refusal-aware accuracy: when the gold
  answer is itself a refusal (the question is unanswerable) 1 if the agent refuses, else 0; when
  the gold answer is an answer, a refusal scores 0 (and counts as a false refusal) and otherwise
  the answer is graded like any other (judge score when a judge ran, else the policy's answer
  metric: token F1); with a judge, a reply it grades above 0 that shares a word with the
  reference is not a refusal, whatever the lexical detector read;
- every other task: its answer metric (`rougeL_f` for long_term_semantic_summary, `token_f1` for
  the others), or `judge` when a judge ran.
Every sample also gets exact_match, token_f1, contains, rougeL_f and the refusal flags, so any
metric can be compared across tasks. A reply whose opening yes/no verdict reverses a reference's
("No. ..." against "Yes. ...") does not match that reference on any of the four
(evaluator.scoring.verdict).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from evaluator.scoring.choice import (extract_choice, extract_options, gold_choice, strict_choice,
                                     trace_record)
from evaluator.scoring.choice_strict import letter_set, loose_letter_list
from evaluator.scoring.metrics import (answer_text, contains, exact_match, gold_candidates,
                                       rouge_l, token_f1)
from evaluator.scoring.policy import BEYOND_RECALL, OTHER, TaskPolicy, policy_of
from evaluator.scoring.readable import count as count_unreadable
from evaluator.scoring.readable import is_empty
from evaluator.scoring.readable import reason as readable_reason
from evaluator.scoring.refusal import is_refusal, rules_verdict
from evaluator.scoring.unanswerable import gold_text_unanswerable
from evaluator.scoring.unanswerable import any_reference_declines
from evaluator.scoring.dates import date_verdict
from evaluator.scoring.readable import visible_reply
from evaluator.scoring.verdict import contradicts

# Each task's primary metric for an open answer without a judge, derived from its policy.
TASK_PRIMARY: dict[str, str] = {name: p.primary_metric
                                for name, p in {**BEYOND_RECALL, **OTHER}.items()}

# The lexical metrics every answer gets (each the best over the references the reply does not
# contradict: verdict.py); on a multiple-choice question each is the letter comparison instead.
LEXICAL = {"exact_match": exact_match, "token_f1": token_f1, "contains": contains, "rougeL_f": rouge_l}

# Metrics averaged (with clustered intervals) by `aggregate`; booleans count as 0/1.
AGGREGATED = ("primary", "exact_match", "token_f1", "contains", "rougeL_f", "mc_accuracy",
              "mc_accuracy_strict", "judge", "refusal_acc", "refused")


class ScoringError(ValueError):
    """A sample that cannot be scored (no reference answer)."""


def task_policy(task: str | TaskPolicy) -> TaskPolicy:
    """The scoring policy of `task` (a name or the policy itself); ScoringError when unknown."""
    policy = policy_of(task)
    if policy is None:
        raise ScoringError(f"unknown task {task!r}")
    return policy


def primary_metric(task: str | TaskPolicy, *, multiple_choice: bool = False,
                   judged: bool = False) -> str:
    """The name of a question's primary metric (see the module docstring)."""
    policy = task_policy(task)
    if multiple_choice:
        return "mc_accuracy"
    if policy.refusal_aware:
        return "refusal_acc"
    return "judge" if judged else policy.answer_metric


def _multiple_choice(question: str, gold: object) -> tuple[dict, str | None]:
    """The question's options and the gold letter (None: not a multiple-choice question)."""
    options = extract_options(question or "")
    return options, (gold_choice(gold, options) if options else None)


def gold_unread(question: str, gold: object) -> bool:
    """Whether the question lists options but its reference answer is no option letter under the
    strict reading (gold_choice: "B", "(B) blue" or the option's text "blue"): such a question
    is scored as an open answer (token F1 or the judge), not as multiple choice."""
    options, letter = _multiple_choice(question, gold)
    no_gold = gold is None or (isinstance(gold, (list, tuple)) and all(g is None for g in gold))
    return bool(options) and letter is None and not no_gold       # no gold: not scored at all


GOLD_SHOWN_CHARS = 80       # a gold answer quoted in the warning is cut here ("...")
GOLD_UNREAD_EFFECT = ("scored as open answers; a gold letter is read as 'B', '(B) text', the "
                      "option's text or a list of letters 'A, C'")


def gold_unread_count(questions: Iterable[tuple[str, str, object]]) -> tuple[int, int, tuple | None]:
    """Over (key, question, gold) triples: how many list options, how many of those have a gold
    answer that is no option letter (gold_unread), and the first such (key, gold) or None."""
    listed = unread = 0
    first = None
    for key, question, gold in questions:
        if not extract_options(question or ""):
            continue
        listed += 1
        if gold_unread(question, gold):
            unread += 1
            first = first or (key, gold)
    return listed, unread, first


def gold_unread_warning(task: str, counted: tuple[int, int, tuple | None]) -> str | None:
    """One line for a task whose questions list options but whose gold answer is no option letter
    (`counted`: gold_unread_count's answer; None when there is none): how many, the first one's
    key and gold (escaped, cut to GOLD_SHOWN_CHARS), and what happens to them. A warning, never an
    error: the card does not say how gold letters are written."""
    listed, unread, first = counted
    if not unread:
        return None
    gold = first[1] if isinstance(first[1], str) else json.dumps(first[1], ensure_ascii=False)
    flat = " ".join(gold.split())
    flat = flat if len(flat) <= GOLD_SHOWN_CHARS else flat[:GOLD_SHOWN_CHARS - 3] + "..."
    return (f"{task}: {unread} of {listed} question(s) listing options have a reference answer "
            f"that is no option letter (first: {first[0]}, gold {flat!r}); {GOLD_UNREAD_EFFECT}")


def needs_judge(task: str | TaskPolicy, question: str, gold: object, reply: object = None) -> bool:
    """Whether the judge grades this question: every question except multiple choice (the
    letter decides) and an empty reply (it scores 0: evaluator.scoring.readable), whatever the
    task. On an unanswerable question of a refusal-aware task the judge decides whether the reply
    declines (the abstention prompt); elsewhere it grades the answer."""
    if _multiple_choice(question, gold)[1] is not None:
        return False
    return reply is None or not is_empty(answer_text(reply))


def score_answer(task: str | TaskPolicy, question: str, prediction: object, gold: object, *,
                 judge_score: float | None = None, judge_error: str | None = None,
                 judge_refused: bool | None = None, unanswerable: bool | None = None,
                 refusal_in_references: bool | None = None) -> dict:
    """Every metric for one answer plus `primary` (the task's primary metric, or None when the
    judge that should have graded it failed) and `primary_metric` (its name). `task` is the
    task's name or its policy (evaluator.scoring.policy).

    `gold` is a string, a number or a list of acceptable answers (each metric takes the best).
    Pass `judge_score` (0, 0.5 or 1) when a judge graded the answer, or `judge_error` when the
    judge was asked and failed: the sample then has no primary score (never a 0).
    `judge_refused`: the judge's verdict on whether the reply declines (the abstention prompt);
    when given it decides `refused`, and the lexical detector's verdict is kept beside it in
    `refused_detector` (`refusal_by` says which decided). A `judge_score` above 0 on an open
    question whose reply shares a word with the reference (token F1 above 0) also decides it: a
    reply the judge found right does not decline, whatever the detector read (`refusal_by: judge`).
    `unanswerable`: the question's class under the run's rule (evaluator.scoring.unanswerable);
    None applies the default gold-text rule. A refusal is right when the question is
    unanswerable or one of its reference answers is itself a refusal (a list of references that
    accepts a decline); `refusal_in_references=False` turns the second reason off (under
    `--unanswerable FILE` the file alone decides).
    A reply that cannot be read (empty; no option letter on a multiple-choice question) scores 0
    and says why in `unreadable` (evaluator.scoring.readable).
    exact_match, token_f1, contains and rougeL_f take the best over the references whose opening
    yes/no verdict the reply does not reverse, and are 0 when it reverses every one
    (`verdict_contradicts`; evaluator.scoring.verdict); against a reference that is a date, a
    reply that states one date scores 1 or 0 on them as the dates agree or not (`date_match`;
    evaluator.scoring.dates).
    On a multiple-choice question: `choice` (the flexible reading, extract_choice; when the gold is
    a list of letters, a reply that lists two or more letters in the strict form, "A, C" or
    "Answer: A and C", chose that set), `choice_trace` (the cues that decided it: [cue, letter,
    start, end, text] each, the last 40; see evaluator/scoring/choice_cues.py), `choice_strict`
    (strict_choice), `gold_choice` (the gold letter, or letters "A, C", read strictly),
    `mc_accuracy` and `mc_accuracy_strict`; exact_match, token_f1, contains and rougeL_f are
    `mc_accuracy` (letters compared as letters). A reply read as a letter does not decline
    (`refused` False); one read as no letter declines when the phrase rules say so. In a
    refusal-aware task, a decline of an unanswerable multiple-choice question has `mc_accuracy` 1.
    """
    policy = task_policy(task)
    if gold is None or (isinstance(gold, (list, tuple)) and not any(g is not None for g in gold)):
        raise ScoringError("the question has no reference answer")
    # a reasoning block is not the answer, whoever wrote the reply (a user's agent around a
    # reasoning model, lines written before the built-in agents removed it): readable.visible_reply
    pred = visible_reply(answer_text(prediction)).text
    candidates = gold_candidates(gold)
    empty = is_empty(pred)
    # a reference whose opening yes/no verdict the reply reverses is not matched (verdict.py)
    agreeing = [g for g in candidates if not contradicts(pred, g, question)]
    # a reference that is a date, against a reply that states one date: the dates decide (dates.py)
    dated = {i: date_verdict(pred, g) for i, g in enumerate(agreeing)}
    decided = [v for v in dated.values() if v is not None]
    worded = [g for i, g in enumerate(agreeing) if dated[i] is None]

    def lexical(metric) -> float:
        values = ([metric(pred, worded)] if worded else []) + [float(v) for v in decided]
        return max(values) if values else 0.0

    out: dict[str, object] = {
        **({name: lexical(metric) for name, metric in LEXICAL.items()} if agreeing
           else dict.fromkeys(LEXICAL, 0.0)),
        "mc_accuracy": None,
        "mc_accuracy_strict": None,
        "choice": None,
        "choice_strict": None,
        "gold_choice": None,
        "judge": judge_score,
    }
    if not agreeing:
        out["verdict_contradicts"] = True
    if decided:
        out["date_match"] = any(decided)

    options, gold_letter = _multiple_choice(question, gold)
    multiple_choice = gold_letter is not None
    if multiple_choice:
        out["choice"], hits = extract_choice(pred, options, trace=True)
        out["choice_strict"] = strict_choice(pred, options)
        if len(letter_set(gold_letter)) > 1:            # several options are right: a list answers
            listed = out["choice_strict"] if len(letter_set(out["choice_strict"])) > 1 else \
                loose_letter_list(pred, options)
            if listed:
                out["choice"] = listed
        out["choice_trace"] = trace_record(hits)
        out["gold_choice"] = gold_letter
        out["mc_accuracy"] = float(out["choice"] == gold_letter)
        out["mc_accuracy_strict"] = float(out["choice_strict"] == gold_letter)
        # letters are compared as letters, never as normalised text ("A" is an article to SQuAD)
        out.update(dict.fromkeys(LEXICAL, out["mc_accuracy"]))
        out.pop("verdict_contradicts", None)
        out.pop("date_match", None)
    elif options:
        out["gold_unread"] = True       # options listed, gold no letter: scored as an open answer
    if judge_error:
        out["judge_error"] = judge_error

    # what the question asks decides some replies; a multiple-choice reply is read by the phrase
    # rules alone, as the letter reader reads it (the learned model never saw choices), and a reply
    # the letter reader reads as a letter chose an option: it does not decline
    detector = (rules_verdict(pred, question) and out["choice"] is None if multiple_choice
                else is_refusal(pred, question))
    refused = detector if judge_refused is None else bool(judge_refused)
    out["refusal_by"] = "detector" if judge_refused is None else "judge"
    if judge_refused is None and detector and not multiple_choice and judge_score and out["token_f1"]:
        # the judge found the reference answer in a reply that shares words with it: a reply that
        # gives the answer does not decline, whatever its hedges ("the passage does not say X, but
        # it was Y"), so the detector's misreading cannot zero a right answer a judge graded. A
        # plain decline shares no word with the reference, so a lenient judge cannot rescue it.
        refused, out["refusal_by"] = False, "judge"
    out["refused_detector"] = detector
    if unanswerable is None:
        unanswerable = gold_text_unanswerable(gold, question)
    if refusal_in_references is None:       # reference answers are read by the gold-text rule's reader
        refusal_in_references = any_reference_declines(gold, question)
    refusal_right = unanswerable or refusal_in_references
    out["refused"] = refused
    out["answerable"] = not unanswerable
    out["false_refusal"] = refused and not refusal_right
    if multiple_choice and policy.refusal_aware and unanswerable and refused:
        out["mc_accuracy"] = 1.0        # declining is the right answer (as choosing the option that declines is)
    out["unreadable"] = readable_reason(pred, parsed=not multiple_choice or out["choice"] is not None
                                        or detector)

    judged = judge_score is not None or bool(judge_error)
    name = primary_metric(policy, multiple_choice=multiple_choice, judged=judged)
    out["primary_metric"] = name

    if policy.refusal_aware and not multiple_choice:
        if empty:
            acc = 0.0                                # nothing to read: 0 (readable.py)
        elif judge_refused is None and judge_error and unanswerable:
            acc = None                               # the abstention judge failed: no score
        elif refused:
            acc = 1.0 if refusal_right else 0.0     # a refusal is right only when declining is
        elif unanswerable:
            acc = 0.0                                # answered an unanswerable question
        elif judged:
            acc = judge_score                        # None when the judge failed: no score
        else:
            acc = out[policy.answer_metric]
        out["refusal_acc"] = acc
        out["primary"] = acc
    else:
        out["refusal_acc"] = None
        out["primary"] = out[name]
    return out


def score_sample(task: str | TaskPolicy, question: str, prediction: object, gold: object,
                 judge=None, *, unanswerable: bool | None = None,
                 refusal_in_references: bool | None = None) -> dict:
    """`score_answer`, asking `judge` (an evaluator.scoring.judge.Judge) first when one is given
    and the question needs it (`needs_judge`).

    The judge grades with the prompt of the task's policy (`judge.prompt_kind_for`: temporal,
    memory update, or the general one). On an unanswerable question of a refusal-aware task it
    decides whether the reply declines with the abstention prompt (score 1 = declines); the
    detector's verdict is recorded beside it (`refused_detector`). The judge's raw reply, reason,
    cache status, prompt kind and (with repeats) per-item agreement are kept under `judge_raw`,
    `judge_reason`, `judge_cached`, `judge_prompt`, `judge_repeats`, `judge_agreement`."""
    policy = task_policy(task)
    if unanswerable is None:
        unanswerable = gold_text_unanswerable(gold, question)
    if judge is None or not needs_judge(policy, question, gold, answer_text(prediction)):
        return score_answer(policy, question, prediction, gold, unanswerable=unanswerable,
                            refusal_in_references=refusal_in_references)
    from evaluator.scoring.judge import prompt_kind_for

    abstention = policy.refusal_aware and unanswerable
    kind = prompt_kind_for(policy, unanswerable=abstention)
    result = judge.grade(question, gold, answer_text(prediction), kind=kind)
    if abstention:
        declined = None if result.error else result.score >= 1
        out = score_answer(policy, question, prediction, gold, judge_error=result.error,
                           judge_refused=declined, unanswerable=unanswerable,
                           refusal_in_references=refusal_in_references)
        out["judge"] = None if result.error else result.score
    else:
        out = score_answer(policy, question, prediction, gold, judge_score=result.score,
                           judge_error=result.error, unanswerable=unanswerable,
                           refusal_in_references=refusal_in_references)
    out["judge_raw"] = result.raw
    out["judge_reason"] = result.reason
    out["judge_cached"] = result.cached
    out["judge_prompt"] = kind
    if result.repeats is not None:
        out["judge_repeats"] = result.repeats
        out["judge_agreement"] = result.agreement
    return out


def decided_by(rows: Iterable[dict], task: str | TaskPolicy | None = None
               ) -> dict[str, dict[str, int]]:
    """Which reader decided each kind of decision over a task's scored items, with counts:
    `refusal` (does the reply decline: `detector` or `judge`), `choice` (the option letter:
    always the `letter reader`), `open answer` (an answer's grade: `judge`, or the deterministic
    metric when no judge graded it; an unanswerable question of a refusal-aware task has none).
    Without a judge every count names a lexical rule."""
    policy = policy_of(task)
    refusal_aware = policy is not None and policy.refusal_aware
    out: dict[str, dict[str, int]] = {"refusal": {}, "choice": {}, "open answer": {}}

    def add(kind: str, by: str) -> None:
        out[kind][by] = out[kind].get(by, 0) + 1

    for m in rows:
        if m.get("refusal_by"):
            add("refusal", str(m["refusal_by"]))
        if m.get("mc_accuracy") is not None:
            add("choice", "letter reader")
        elif m.get("judge_prompt") != "abstention" and (
                m.get("answerable", True) or not refusal_aware):
            if m.get("judge") is not None or m.get("judge_error"):
                add("open answer", "judge")
            else:
                name = str(m.get("primary_metric") or "token_f1")
                add("open answer", "token_f1" if name in ("refusal_acc", "judge") else name)
    return {k: v for k, v in out.items() if v}


# -- aggregation ---------------------------------------------------------------------------------
def sample_metrics(sample: dict) -> dict:
    """A journal line's metrics: under "metrics" when present, else the line itself."""
    metrics = sample.get("metrics")
    return metrics if isinstance(metrics, dict) else sample


def default_cluster(sample: dict) -> str:
    """The trajectory of a Beyond Recall key (`dimension/task/trajectory_id/qN`); a sample may
    name its cluster explicitly (`cluster`, `trajectory_id` or `participant`)."""
    for field in ("cluster", "trajectory_id", "participant"):
        if sample.get(field) is not None:
            return str(sample[field])
    key = str(sample.get("key", ""))
    parts = key.split("/")
    return parts[2] if len(parts) == 4 else key


def _as_number(value: object) -> float | None:
    if value is None or isinstance(value, str):
        return None
    if isinstance(value, bool):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def aggregate(samples: Iterable[dict], task: str | None = None, *,
              cluster_of: Callable[[dict], str] = default_cluster, n_boot: int = 2000,
              seed: int = 0, metrics: Iterable[str] = AGGREGATED) -> dict:
    """Means with 95% bootstrap intervals clustered by trajectory, and the counts.

    A sample with a truthy "error" (the agent call failed) is counted in `n_failed` and in no
    mean. A sample whose judge failed (`judge_error`) is counted in `n_judge_errors`; its
    deterministic metrics still count, its primary score does not exist. `false_refusal_rate` is
    the share of answerable questions the agent refused.
    """
    from evaluator.stats import cluster_bootstrap

    samples = list(samples)
    ok = [s for s in samples if not s.get("error")]
    failed = len(samples) - len(ok)
    rows = [(sample_metrics(s), cluster_of(s)) for s in ok]

    out: dict[str, object] = {"task": task, "n_samples": len(samples), "n_failed": failed}
    scored = [(m, c) for m, c in rows if _as_number(m.get("primary")) is not None]
    out["n_scored"] = len(scored)
    out["n_judge_errors"] = sum(1 for m, _ in rows if m.get("judge_error"))
    out["n_unreadable"] = count_unreadable(m.get("unreadable") for m, _ in rows)
    out["decided_by"] = decided_by((m for m, _ in rows), task)
    out["n_unanswerable"] = sum(1 for m, _ in rows if m.get("answerable") is False)

    names: dict[str, int] = {}
    for m, _ in scored:
        name = str(m.get("primary_metric", "primary"))
        names[name] = names.get(name, 0) + 1
    policy = policy_of(task)
    # nothing scored (every judgment failed): the metric the items were to be scored by, so a
    # table never names token F1 for items a judge was to grade
    meant = {str(m["primary_metric"]) for m, _ in rows if m.get("primary_metric")}
    out["primary_metric"] = (next(iter(names)) if len(names) == 1
                             else "mixed" if names or len(meant) > 1 else
                             next(iter(meant)) if meant else
                             (policy.primary_metric if policy is not None else None))
    out["primary_metric_counts"] = names

    estimates: dict[str, object] = {}
    for metric in metrics:
        values, clusters = [], []
        for m, c in rows:
            v = _as_number(m.get(metric))
            if v is not None:
                values.append(v)
                clusters.append(c)
        est = cluster_bootstrap(values, clusters, n_boot=n_boot, seed=seed)
        estimates[metric] = est.as_dict() if est else None
    out["primary"] = estimates.pop("primary", None)
    out["metrics"] = estimates

    answerable = [(m, c) for m, c in rows if m.get("answerable", True)]
    if answerable:
        est = cluster_bootstrap([float(bool(m.get("false_refusal"))) for m, _ in answerable],
                                [c for _, c in answerable], n_boot=n_boot, seed=seed)
        out["false_refusal_rate"] = est.as_dict() if est else None
        out["n_false_refusals"] = sum(1 for m, _ in answerable if m.get("false_refusal"))
    else:
        out["false_refusal_rate"] = None
        out["n_false_refusals"] = 0
    return out
