"""The scorer version: which scoring rules produced a number.

`scorer_version()` is the first 12 hex digits of a sha256 over every file that turns replies into
scores: the scoring package (code, judge prompts, and any rule tables or word lists kept beside
it), the text module (normalisation, stemmer pin check, stop words), the statistics (intervals),
and the RealCompanion tracks' scoring and aggregation code (`SCORER_FILES`). It is computed from
the installed package files, so it is the same from a git checkout and after `pip install .`,
and it changes when any of those files changes, whatever the package version says.

results.json records it (with the package version and, from a git checkout, the commit), every
journal line records the version that scored it, and `br-eval compare` warns when two runs were
scored under different versions. br-eval's scores are comparable with other br-eval runs of the
same scorer version, not with numbers from other evaluators.

`scorer_files()` lists each file's own sha256. Each answer reader that keeps its rules as data
also has a rules version of its own (`rules_versions()`, `READERS`): results.json records them
beside `scorer_version` under `rules_versions` (`{"choice": ...}`: the multiple-choice letter
reader's cue table, word lists and engine, evaluator.scoring.choice.rules_version), so a changed
`mc_accuracy` can be traced to a changed letter reader rather than to any scoring file.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent          # evaluator/
# Every file under evaluator/scoring/ scores, except these (not read when scoring).
NOT_SCORING = {"scoring/judge_calibration.jsonl", "scoring/CHOICE_HISTORY.md"}
# The readers with a rules version of their own: name -> module with `rules_version()`.
READERS = {"choice": "evaluator.scoring.choice", "refusal": "evaluator.scoring.refusal"}
SCORER_FILES = ("text.py", "stats.py", "realcompanion/chat_track.py",
                "realcompanion/question_track.py", "realcompanion/reconstruction_track.py",
                "realcompanion/retrieval_task.py", "realcompanion/retrieval.py",
                "realcompanion/bm25.py", "realcompanion/text.py")


@lru_cache(maxsize=1)
def scorer_files() -> dict[str, str]:
    """{path relative to the evaluator package: sha256 of its bytes} for every scoring file
    (a listed file that is missing is recorded as "missing", so it still changes the digest)."""
    scoring = sorted(p for p in (PACKAGE / "scoring").rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    out = {}
    for path in scoring:
        rel = path.relative_to(PACKAGE).as_posix()
        if rel not in NOT_SCORING:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    for rel in SCORER_FILES:
        path = PACKAGE / rel
        out[rel] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
    return dict(sorted(out.items()))


def scorer_version() -> str:
    """12 hex digits of sha256 over (path, sha256) of every scoring file, in path order."""
    h = hashlib.sha256()
    for rel, digest in scorer_files().items():
        h.update(f"{rel}\0{digest}\n".encode())
    return h.hexdigest()[:12]


def rules_versions() -> dict[str, str]:
    """{reader: its rules version} for every reader in READERS."""
    import importlib

    return {name: importlib.import_module(module).rules_version() for name, module in READERS.items()}


def versions() -> dict[str, object]:
    """What results.json records about the scoring rules: `scorer_version` and `rules_versions`."""
    return {"scorer_version": scorer_version(), "rules_versions": rules_versions()}
