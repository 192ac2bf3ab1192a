"""The RealCompanion suite: ten human/AI-companion relationships as data (`shapes.py` finds and
reads the release's files, `data.py` checks them into records, `adapter.py` runs a user's reader,
`verify.py` checks a release against its SHA256SUMS), a synthetic sample (`sample.py`), pool-exact
BM25 (`bm25.py`), the tasks (`retrieval_task.py`, `chat_track.py`, `question_track.py`,
`reconstruction_track.py`) and the paper's tables (`tables.py`). Importing the package is cheap:
standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

TASK_UNITS = {
    "realcompanion/retrieval": "probes",
    "realcompanion/chat": "probes",
    "realcompanion/question": "questions",
    "realcompanion/reconstruction": "participants",
}


def counts(rc_data: str | os.PathLike | None) -> dict[str, dict]:
    """Sizes of the four realcompanion/* tasks for `br-eval ls`, from the files alone (no typed
    records, no citation checks): retrieval and chat = scoreable probes plus cold opens (the items
    both tasks journal; retrieval's note says how many have references); question = questions;
    reconstruction = participants.
    Without `rc_data`, the generated sample (made once, quietly) is counted."""
    from evaluator.datasets import data_dir
    from evaluator.realcompanion.data import is_cold_open_row, is_scoreable_row
    from evaluator.realcompanion.shapes import discover

    root = data_dir("realcompanion", rc_data, quiet=True)
    layout = discover(Path(root))
    retrieval = chat = questions = 0
    for pid in layout.participants:
        for _, row in layout.rows(pid, "chat"):
            scoreable = is_scoreable_row(row)
            retrieval += int(scoreable and bool(row.get("reference_ids")))
            chat += int(scoreable or is_cold_open_row(row))
        questions += len(layout.rows(pid, "questions"))
    n = len(layout.participants)
    sizes = {"realcompanion/retrieval": chat, "realcompanion/chat": chat,
             "realcompanion/question": questions, "realcompanion/reconstruction": n}
    out = {task: {"participants": n, "units": TASK_UNITS[task], "count": sizes[task]}
           for task in TASK_UNITS}
    out["realcompanion/retrieval"]["note"] = f"{retrieval} with references"
    out["_data"] = {"path": str(root), "is_sample": (Path(root) / ".sample").exists()}
    return out
