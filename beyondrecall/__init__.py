"""The Beyond Recall release as data: files, schema, times, visibility, checksums, hub.

Knows nothing about agents or scores. Heavy libraries are imported inside functions. The modules
form a tree (tests/test_repo_hygiene.py): small modules at the bottom (errors, files, records,
card, hashing, paths, pdfmap, snapshot, sums, timestamps), the loader above them, then identity,
counts, visibility, the verifier (checksums) and the Hub client; the sample generator (sample.py)
is on top and no reader imports it.
"""

from beyondrecall.errors import DataError, NoDataError, TimestampError
from beyondrecall.identity import snapshot_info
from beyondrecall.loader import (check_snapshot, discover_task_files, find_task_files, load_task,
                                 load_tasks, parse_task_file_args, resolve_task_names,
                                 validate_snapshot)
from beyondrecall.records import (DIMENSIONS, TASK_DIMENSION, TASK_NAMES, Question, QuestionKey,
                                  Session, TaskData, Trajectory, Turn)
from beyondrecall.snapshot import resolve_data_dir
from beyondrecall.visibility import VisibleHistory, VisibleSession, VisibleTurn, visible_history

__all__ = [
    "DataError", "NoDataError", "TimestampError", "check_snapshot", "discover_task_files",
    "parse_task_file_args", "find_task_files", "load_task", "load_tasks",
    "resolve_task_names", "validate_snapshot", "DIMENSIONS", "TASK_DIMENSION", "TASK_NAMES",
    "Question", "QuestionKey", "Session", "TaskData", "Trajectory", "Turn", "resolve_data_dir",
    "snapshot_info", "VisibleHistory", "VisibleSession", "VisibleTurn", "visible_history",
]
