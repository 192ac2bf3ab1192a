"""Frozen verdicts: an answer reader's verdict on every labelled row, written once and checked by a
test, so that a change meant to leave verdicts alone (a refactoring, a new table layout) is seen to
leave every one. The frozen file holds the reader's verdict, not the label: where the reader and a
person disagree, the disagreement is frozen too. A change meant to move verdicts (a tuning round)
re-freezes and says in its commit which rows moved:

    python tests/frozen.py --freeze choice|refusal

Each reader's test module (tests/test_choice_frozen.py, tests/test_refusal_frozen.py) names its
file, its labelled sets and `verdicts(name)`: {row key: verdict} for one labelled set.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from pathlib import Path


def digest(*parts) -> str:
    """16 hex digits of sha256 over the JSON of `parts` (a row's key: what the reader reads)."""
    body = json.dumps(list(parts), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def check(frozen_path: Path, label_files: tuple[str, ...], verdicts) -> None:
    """Fail unless `verdicts(name)` gives the frozen verdict on every row of every labelled set."""
    frozen = json.loads(frozen_path.read_text("utf-8"))["files"]
    assert sorted(frozen) == sorted(label_files)
    for name in label_files:
        now = verdicts(name)
        missing = sorted(set(now) - set(frozen[name]))
        assert not missing, f"{name}: {len(missing)} rows have no frozen verdict (re-freeze?)"
        moved = [(k, frozen[name][k], v) for k, v in now.items() if frozen[name][k] != v]
        assert not moved, f"{name}: {len(moved)} verdicts moved, first (key, frozen, now): {moved[:5]}"
        assert len(now) == len(frozen[name])


def freeze(frozen_path: Path, about: str, label_files: tuple[str, ...], verdicts) -> None:
    out = {"about": about, "files": {name: dict(sorted(verdicts(name).items())) for name in label_files}}
    frozen_path.write_text(json.dumps(out, indent=0, ensure_ascii=False) + "\n", "utf-8")
    print(f"{sum(len(v) for v in out['files'].values())} verdicts -> {frozen_path}")


if __name__ == "__main__":
    readers = {"choice": "test_choice_frozen", "refusal": "test_refusal_frozen"}
    if len(sys.argv) != 3 or sys.argv[1] != "--freeze" or sys.argv[2] not in readers:
        sys.exit("usage: python tests/frozen.py --freeze choice|refusal")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    module = importlib.import_module(readers[sys.argv[2]])
    freeze(module.FROZEN, module.ABOUT, module.LABEL_FILES, module.verdicts)
