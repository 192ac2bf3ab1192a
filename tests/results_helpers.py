"""Comparing runs' results in tests."""


def scores(results: dict) -> dict:
    """results.json's per-task entries less `answer_sources` (who answered, with dates), so two
    runs of the same answers compare equal."""
    return {t: {k: v for k, v in e.items() if k != "answer_sources"} for t, e in results.items()}
