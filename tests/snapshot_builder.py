"""Write tiny hand-made snapshots for loader and visibility tests (media via Pillow)."""

from __future__ import annotations

import json
from pathlib import Path

from beyondrecall.records import DIMENSIONS, TASK_DIMENSION


def write_task(root: Path, task: str, trajectories: list, stem: str | None = None) -> Path:
    dim = TASK_DIMENSION[task]
    folder = root / "benchmark" / dim
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem or task.replace('_', ' ').title()}.json"
    path.write_text(json.dumps(trajectories), encoding="utf-8")
    return path


def write_image(root: Path, rel: str, color=(200, 30, 30)) -> Path:
    from PIL import Image

    path = root / "benchmark" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), color).save(path)
    return path


def minimal_snapshot(root: Path, task: str = "memory_update", trajectories=None) -> Path:
    """A snapshot whose given task has the given trajectories and every other task one
    trivial trajectory."""
    for names in DIMENSIONS.values():
        for name in names:
            if name == task:
                continue
            write_task(root, name, [{"id": 0, "persons": ["A", "B"], "conversation": [
                {"date": "9:00 am on 1 May, 2024", "turns": [{"person": "A", "content": "hi"}]}],
                "questions": [{"question": "q?", "answer": "a"}]}])
    write_task(root, task, trajectories or [])
    return root


def traj(sessions, questions, tid=0):
    return {"id": tid, "persons": ["A", "B"], "conversation": sessions, "questions": questions}


def session(date, *turns):
    return {"date": date, "turns": list(turns)}


def turn(content, person="A", **extra):
    return {"person": person, "content": content, **extra}
