"""What the dataset card publishes about the release: constants only (imports nothing of br-eval).

The card's fingerprint ("The original benchmark fingerprint remains 27f12c8e...") is taken to be
the sha256 of the bytes of `benchmark/SHA256SUMS` (the frozen inventory), which is what
`beyondrecall.identity.snapshot_info().inventory_fingerprint` computes. A snapshot is compared
with these tables by beyondrecall.counts (and its fingerprint by beyondrecall.identity); the
differences are notes, never errors: the card may be updated before br-eval is.

`TASKS` is the card's "Tasks" table and the one place a Beyond Recall task's data facts are
declared: its name, dimension (the folder under benchmark/), the file name as the card spells it,
and the card's counts. Everything else about a task's data derives from it (beyondrecall.records:
DIMENSIONS, TASK_DIMENSION, TASK_NAMES; the loader's spellings; the sample generator's file
names; the counts compared by beyondrecall.counts; evaluator/registry.py's entries). How a task is
scored is declared beside it, keyed by the same name, in evaluator/scoring/policy.py (this package
knows nothing about scoring); tests/test_task_declaration.py checks the two cover the same tasks.
Nothing is derived in this module, so a declaration added at its end reaches every derived table.
"""

from dataclasses import dataclass

CARD_FINGERPRINT = "27f12c8e8f9b99a435dc7e1525eef0d00f44added1d0a04c612cd1bfbb2bbe23"
FINGERPRINT_BYTES = "the bytes of benchmark/SHA256SUMS"

DATA_VERSION = "1.0.0"   # "The data version is 1.0.0": the release these tables describe


@dataclass(frozen=True)
class TaskFacts:
    """One row of the card's "Tasks" table."""

    name: str            # canonical: what users type and the task part of a question key
    dimension: str       # management | reasoning | retrieval: the folder under benchmark/
    file_stem: str       # the task file's name as the card spells it (benchmark/<dim>/<stem>.json)
    trajectories: int    # the card's count for data version DATA_VERSION
    questions: int       # QA pairs


TASKS: dict[str, TaskFacts] = {f.name: f for f in (
    TaskFacts("conflict_detection", "management", "Conflict Detection", 71, 71),
    TaskFacts("long_term_semantic_summary", "management", "Long Term Semantic Summary", 71, 71),
    TaskFacts("memory_update", "management", "Memory Update", 116, 156),
    TaskFacts("refusal_to_answer", "management", "Refusal To Answer", 108, 108),
    TaskFacts("causal_intent_inference", "reasoning", "Causal Intent Inference", 121, 121),
    TaskFacts("cross_modal_relational_reasoning", "reasoning", "Cross Modal Relational Reasoning",
              73, 124),
    TaskFacts("temporal_logic_state_evolution", "reasoning", "Temporal Logic State Evolution",
              110, 125),
    TaskFacts("cross_modal_semantic_matching", "retrieval", "Cross Modal Semantic Matching",
              116, 116),
    TaskFacts("high_density_information_extraction", "retrieval",
              "High Density Information Extraction", 123, 123),
    TaskFacts("property_state_retrieval", "retrieval", "Property State Retrieval", 139, 139),
    TaskFacts("temporal_anchoring", "retrieval", "Temporal Anchoring", 115, 115),
)}
# The card's "Statistics" table.
TOTALS = {"tasks": 11, "trajectories": 1_163, "questions": 1_269, "sessions": 23_775,
          "turns": 345_738, "questions_with_cutoff": 40}
MEDIA_REFERENCED = {"image": 4_378, "pdf": 93, "video": 338}   # referenced packaged files
MEDIA_DISTINCT = {"image": 1_720, "pdf": 73, "video": 314}     # exact-byte distinct content


__all__ = ["CARD_FINGERPRINT", "FINGERPRINT_BYTES", "DATA_VERSION", "TaskFacts", "TASKS", "TOTALS",
           "MEDIA_REFERENCED", "MEDIA_DISTINCT"]
