"""Shared by the scripts that draw labelled samples from published model replies
(make_mc_real.py, make_refusal_real.py): read a file at a commit of a local git directory, write a
draw, and check the shipped sample against a fresh draw."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def git_show(git_dir: str, commit: str, path: str) -> str:
    """The text of `path` at `commit`; a missing clone or commit is one line and exit 2."""
    try:
        return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
                              check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        sys.exit(f"{Path(sys.argv[0]).name}: cannot read {path} at {commit[:7]} from {git_dir}: "
                 f"{detail.strip().splitlines()[-1] if detail.strip() else exc}")


def write_draw(rows: list[dict], out: str) -> None:
    with open(out, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} rows -> {out}")


def check_shipped(rows: list[dict], shipped: Path, fields: tuple[str, ...]) -> int:
    """0 when the shipped file holds exactly the drawn rows, each with the same `fields`."""
    have = {r["source"]: r for r in map(json.loads, shipped.read_text("utf-8").splitlines())}
    bad = [r["source"] for r in rows
           if r["source"] not in have or any(have[r["source"]][f] != r[f] for f in fields)]
    print(f"{len(rows) - len(bad)}/{len(rows)} shipped rows match the published files")
    return 1 if bad or len(have) != len(rows) else 0
