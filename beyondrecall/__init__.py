"""The Beyond Recall release as data: files, schema, times, visibility, checksums, hub.

Knows nothing about agents or scores. Heavy libraries are imported inside functions.
"""

from beyondrecall.errors import DataError, TimestampError
from beyondrecall.loader import (check_snapshot, discover_task_files, find_task_files, load_task,
                                 load_tasks, parse_task_file_args, resolve_task_names,
                                 validate_snapshot)
from beyondrecall.records import (DIMENSIONS, TASK_DIMENSION, TASK_NAMES, Question, QuestionKey,
                                  Session, TaskData, Trajectory, Turn)
from beyondrecall.snapshot import resolve_data_dir, snapshot_info
from beyondrecall.visibility import VisibleHistory, VisibleSession, VisibleTurn, visible_history

__all__ = [
    "DataError", "TimestampError", "check_snapshot", "discover_task_files",
    "parse_task_file_args", "find_task_files", "load_task", "load_tasks",
    "resolve_task_names", "validate_snapshot", "DIMENSIONS", "TASK_DIMENSION", "TASK_NAMES",
    "Question", "QuestionKey", "Session", "TaskData", "Trajectory", "Turn", "resolve_data_dir",
    "snapshot_info", "VisibleHistory", "VisibleSession", "VisibleTurn", "visible_history",
]
