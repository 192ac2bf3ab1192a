"""Scoring for both suites: deterministic metrics, multiple choice, refusals, the LLM judge.

Everything imported here is standard library only; the judge (`evaluator.scoring.judge`) and the
response cache (`evaluator.scoring.cache`) are imported on first use.
"""

from evaluator.scoring.choice import extract_choice, extract_options, gold_choice, strict_choice
from evaluator.scoring.metrics import (contains, exact_match, lcs_length, normalize_answer,
                                       rouge_l, token_f1)
from evaluator.scoring.refusal import is_refusal
from evaluator.scoring.tasks import (TASK_PRIMARY, ScoringError, aggregate, needs_judge,
                                     primary_metric, score_answer, score_sample)

__all__ = [
    "TASK_PRIMARY", "ScoringError", "aggregate", "contains", "exact_match", "extract_choice",
    "extract_options", "gold_choice", "is_refusal", "lcs_length", "needs_judge",
    "normalize_answer", "primary_metric", "rouge_l", "score_answer", "score_sample", "strict_choice",
    "token_f1",
    "Judge", "JudgeResult", "make_judge", "judge_chat_reply", "judge_value_match",
    "JudgeCache",
]

_LAZY = {"Judge": "judge", "JudgeResult": "judge", "make_judge": "judge",
         "judge_chat_reply": "judge", "judge_value_match": "judge", "JudgeCache": "cache"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"evaluator.scoring.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'evaluator.scoring' has no attribute {name!r}")
