"""How each task's answers are scored, declared once per task: its scoring policy.

A Beyond Recall task is declared in two places, one per package, keyed by the same name: its data
facts (dimension, file name, the card's counts) in beyondrecall/card.py's `TASKS` (the data layer
knows nothing about scoring), and its scoring policy here. Everything else derives from these two
tables: the registry's entries (evaluator/registry.py, from the data facts), the primary metric
table (`evaluator.scoring.tasks.TASK_PRIMARY`) and the judge's prompt choice
(`evaluator.scoring.judge.prompt_kind_for`). Scoring reads a task's policy, never its name.
tests/test_task_declaration.py checks that both tables name the same 11 tasks, and that a 12th
task declared by one line in each is listed, loaded, run and scored.

The policy sits under evaluator/scoring/, so changing it changes `scorer_version`
(evaluator.scoring.version): that is a task's scoring version. Nothing is derived in this module,
so a declaration added at its end reaches every derived table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TaskPolicy:
    """How a question of one task is scored (a multiple-choice question is always scored by
    its letter, `mc_accuracy`, whatever the policy; see evaluator.scoring.tasks).

    answer_metric: the deterministic metric that grades an open answer when no judge ran
      (`token_f1` or `rougeL_f`; any metric `score_answer` computes).
    judge_prompt: the judge's prompt kind for an open answer (`answer`, `temporal`, `update`:
      evaluator.scoring.judge.PROMPT_FILES), as LongMemEval picks one per question type.
    refusal_aware: the primary metric is `refusal_acc`: a refusal scores 1 when declining is
      right (the question is unanswerable or a reference answer is itself a refusal) and 0
      otherwise; an answer to an unanswerable question scores 0; an answer to an answerable one
      is graded by the judge or `answer_metric`. With a judge, whether a reply to an
      unanswerable question declines is decided by the judge's abstention prompt.
    """

    answer_metric: str = "token_f1"
    judge_prompt: str = "answer"
    refusal_aware: bool = False

    @property
    def primary_metric(self) -> str:
        """The primary metric's name for an open answer graded without a judge."""
        return "refusal_acc" if self.refusal_aware else self.answer_metric


# The 11 Beyond Recall tasks (the same names as beyondrecall.card.TASKS).
BEYOND_RECALL: dict[str, TaskPolicy] = {
    "conflict_detection": TaskPolicy(),
    "long_term_semantic_summary": TaskPolicy(answer_metric="rougeL_f"),
    "memory_update": TaskPolicy(judge_prompt="update"),
    "refusal_to_answer": TaskPolicy(refusal_aware=True),
    "causal_intent_inference": TaskPolicy(),
    "cross_modal_relational_reasoning": TaskPolicy(),
    "temporal_logic_state_evolution": TaskPolicy(judge_prompt="temporal"),
    "cross_modal_semantic_matching": TaskPolicy(),
    "high_density_information_extraction": TaskPolicy(),
    "property_state_retrieval": TaskPolicy(),
    "temporal_anchoring": TaskPolicy(judge_prompt="temporal"),
}

# Other tasks scored by evaluator.scoring.tasks: RealCompanion's written questions are free-text
# answers like the tasks above.
OTHER: dict[str, TaskPolicy] = {"realcompanion/question": TaskPolicy()}


def policy_of(task: str | TaskPolicy) -> TaskPolicy | None:
    """The policy of the task named `task` (a policy passes through); None for an unknown name."""
    if isinstance(task, TaskPolicy):
        return task
    return BEYOND_RECALL.get(task, OTHER.get(task))


__all__ = ["TaskPolicy", "BEYOND_RECALL", "OTHER", "policy_of"]
