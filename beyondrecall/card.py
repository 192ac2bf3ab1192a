"""What the dataset card publishes about the release: constants only (nothing to import).

The card's fingerprint ("The original benchmark fingerprint remains 27f12c8e...") is taken to be
the sha256 of the bytes of `benchmark/SHA256SUMS` (the frozen inventory), which is what
`beyondrecall.identity.snapshot_info().inventory_fingerprint` computes. A snapshot is compared
with these tables by beyondrecall.counts (and its fingerprint by beyondrecall.identity); the
differences are notes, never errors: the card may be updated before br-eval is.
"""

CARD_FINGERPRINT = "27f12c8e8f9b99a435dc7e1525eef0d00f44added1d0a04c612cd1bfbb2bbe23"
FINGERPRINT_BYTES = "the bytes of benchmark/SHA256SUMS"

# The card's "Tasks" table: task -> (trajectories, QA pairs).
TASK_COUNTS: dict[str, tuple[int, int]] = {
    "conflict_detection": (71, 71),
    "long_term_semantic_summary": (71, 71),
    "memory_update": (116, 156),
    "refusal_to_answer": (108, 108),
    "causal_intent_inference": (121, 121),
    "cross_modal_relational_reasoning": (73, 124),
    "temporal_logic_state_evolution": (110, 125),
    "cross_modal_semantic_matching": (116, 116),
    "high_density_information_extraction": (123, 123),
    "property_state_retrieval": (139, 139),
    "temporal_anchoring": (115, 115),
}
# The card's "Statistics" table.
TOTALS = {"tasks": 11, "trajectories": 1_163, "questions": 1_269, "sessions": 23_775,
          "turns": 345_738, "questions_with_cutoff": 40}
MEDIA_REFERENCED = {"image": 4_378, "pdf": 93, "video": 338}   # referenced packaged files
MEDIA_DISTINCT = {"image": 1_720, "pdf": 73, "video": 314}     # exact-byte distinct content


__all__ = ["CARD_FINGERPRINT", "FINGERPRINT_BYTES", "TASK_COUNTS", "TOTALS", "MEDIA_REFERENCED",
           "MEDIA_DISTINCT"]
