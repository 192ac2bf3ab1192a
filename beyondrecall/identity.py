"""What identifies a snapshot: its inventory fingerprint (the sha256 of benchmark/SHA256SUMS, which
the dataset card publishes), else a fingerprint of its task files' bytes; its data version, the Hub
commit `br-eval download` recorded, and whether it is a generated sample (the `.sample` marker).

A resumed run, `merge` and `compare` check this identity. Reads only small metadata files and
hashes with beyondrecall.hashing; the task files are found by the loader.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from beyondrecall import card
from beyondrecall.errors import DataError
from beyondrecall.hashing import hash_file
from beyondrecall.loader import discover_task_files
from beyondrecall.paths import inside, snapshot_roots
from beyondrecall.records import TASK_NAMES
from beyondrecall.snapshot import REVISION_FILE


@dataclass(frozen=True)
class SnapshotInfo:
    path: str
    data_version: str | None
    revision: str | None          # Hub commit sha recorded by `br-eval download`
    repo: str | None
    # What identifies the data (a resumed run must match it): the inventory fingerprint when
    # benchmark/SHA256SUMS exists, else "tasks:<sha256 over the task files' bytes>", so data is
    # identified by content even without the list.
    fingerprint: str | None
    is_sample: bool
    inventory_fingerprint: str | None = None   # sha256 of benchmark/SHA256SUMS (the card's)
    fingerprint_source: str | None = None      # "benchmark/SHA256SUMS" | "task files"
    matches_card: bool | None = None           # inventory fingerprint == the card's
    # `--task-file` overrides: the user's own files, not the card's nor covered by the snapshot's
    # checksum lists; one line a run prints among its first (None without overrides)
    task_files_note: str | None = None


def tasks_fingerprint(path: Path, task_files: dict | None = None) -> str | None:
    """sha256 over (task name, sha256 of the file) for every task file found, in task order.
    A task file that is a symlink is hashed by the loader's rule (beyondrecall.paths.snapshot_roots):
    when its target, every link resolved, is a regular file inside the snapshot or, for a Hugging
    Face cache snapshot (`<repo>/snapshots/<rev>/benchmark/x -> ../../../blobs/<sha>`), in that
    repo's `blobs/`; any other symlink (elsewhere, dangling, a loop) is not read and counts as
    "unreadable"."""
    try:
        files = discover_task_files(path, task_files).files
    except DataError:
        return None
    if not files:
        return None
    roots = snapshot_roots(path)
    h = hashlib.sha256()
    for task in TASK_NAMES:
        if task in files:
            try:
                digest, _ = hash_file(_within(files[task], roots))
            except OSError:
                digest = "unreadable"
            h.update(f"{task} {digest}\n".encode())
    return h.hexdigest()


def _within(file: Path, roots: tuple[str, ...]) -> str:
    """The path to hash: a symlink whose target lies in one of the snapshot's `roots` becomes that
    target (opened without following links, so a target that is still a link, as in a loop, is
    refused); any other path is returned as given (a symlink then fails)."""
    if os.path.islink(file):
        real = os.path.realpath(file)
        if inside(real, roots):
            return real
    return str(file)


def snapshot_info(path: Path, *, task_files: dict | None = None) -> SnapshotInfo:
    """What identifies a snapshot (old callers: `snapshot_info(path)` and `.fingerprint` work as
    before; `task_files` are `--task-file` overrides, used only without benchmark/SHA256SUMS)."""
    path = Path(path)
    version = None
    vfile = path / "metadata" / "VERSION.json"
    if vfile.is_file():
        try:
            v = json.loads(vfile.read_text(encoding="utf-8"))
            version = str(v.get("version") or v.get("data_version")) if isinstance(v, dict) else str(v)
        except (OSError, ValueError, RecursionError):
            version = None
    revision = repo = None
    rfile = path / REVISION_FILE
    if rfile.is_file():
        try:
            r = json.loads(rfile.read_text(encoding="utf-8"))
            revision, repo = r.get("commit"), r.get("repo")
        except (OSError, ValueError, AttributeError, RecursionError):
            pass
    sums = path / "benchmark" / "SHA256SUMS"
    inventory = None
    if sums.is_file():   # streamed: the list is untrusted and may be huge
        try:             # a link is followed by the loader's rule (_within), as task files are
            inventory, _ = hash_file(_within(sums, snapshot_roots(path)))
        except OSError:  # a link leading out of the snapshot: not read (verify refuses it too)
            inventory = None
    if inventory:
        fingerprint, source = inventory, "benchmark/SHA256SUMS"
    else:
        content = tasks_fingerprint(path, task_files)
        fingerprint, source = (f"tasks:{content}", "task files") if content else (None, None)
    note = None
    if task_files:
        chosen = ", ".join(f"{task}={Path(p)}" for task, p in sorted(task_files.items()))
        note = (f"task files given with --task-file (your choice, used as given; no checksum list "
                f"covers them): {chosen}")
    return SnapshotInfo(str(path), version, revision, repo, fingerprint,
                        (path / ".sample").exists(), inventory, source,
                        None if inventory is None else inventory == card.CARD_FINGERPRINT, note)


def fingerprint_note(info) -> str:
    """One line: does the snapshot's inventory fingerprint equal the card's?"""
    fp = getattr(info, "inventory_fingerprint", None)
    if fp is None:
        return ("no benchmark/SHA256SUMS: the card's fingerprint "
                f"{card.CARD_FINGERPRINT} (sha256 of {card.FINGERPRINT_BYTES}) cannot be compared")
    if fp == card.CARD_FINGERPRINT:
        return f"inventory fingerprint {fp} (sha256 of {card.FINGERPRINT_BYTES}) equals the card's"
    return (f"inventory fingerprint {fp} (sha256 of {card.FINGERPRINT_BYTES}) differs from the "
            f"card's {card.CARD_FINGERPRINT}")


__all__ = ["SnapshotInfo", "snapshot_info", "tasks_fingerprint", "fingerprint_note"]
