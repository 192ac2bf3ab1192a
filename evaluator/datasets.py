"""Which data a command reads, for both suites: the one place that decides "no data given -> the
generated sample".

The readers only find data: `beyondrecall.snapshot.resolve_data_dir` (--data, $BR_EVAL_DATA,
the default download folder) and `evaluator.realcompanion.data.rc_data_dir` (--rc_data,
$BR_EVAL_RC_DATA, the default download folder) return a folder or raise, `NoDataError` when
nothing was given or found. Here, and only here, that error becomes the suite's generated
sample: written once into $BR_EVAL_HOME (`sample-v<N>`, `realcompanion-sample-v<N>`; a temporary
folder when that is not writable) and announced in one line on stderr unless `quiet`. The sample generators (beyondrecall.sample,
evaluator.realcompanion.sample) are imported here and nowhere else in the packages
(tests/test_repo_hygiene.py checks it).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

SUITES = ("beyondrecall", "realcompanion")


def data_dir(suite: str, given: str | os.PathLike | None = None, *, quiet: bool = False) -> Path:
    """The folder `suite` reads: what the user gave (or its environment variable, or the
    downloaded data), else the suite's generated sample. A DataError (one line) when what
    was given is not usable."""
    from beyondrecall.errors import NoDataError

    try:
        return _find(suite, given)
    except NoDataError:
        pass
    path = generated_sample(suite)
    if not quiet:
        print(f"br-eval: using {_notice(suite, path)}", file=sys.stderr)
    return path


def generated_sample(suite: str) -> Path:
    """The suite's generated sample, written into sample_dir(suite) the first time (a temporary
    folder when that is not writable)."""
    path = sample_dir(suite)
    if not (path / ".complete").exists():
        try:
            _generate(suite, path)
        except OSError:   # $BR_EVAL_HOME not writable: a folder of this process's own
            path = Path(tempfile.mkdtemp(prefix=f"br-eval-{suite}-sample-"))
            _generate(suite, path)
    return path


def sample_dir(suite: str) -> Path:
    """Where the suite's generated sample is kept: $BR_EVAL_HOME/<name>-v<generator version>."""
    from beyondrecall.snapshot import home_dir

    if suite == "beyondrecall":
        from beyondrecall.sample import GENERATOR_VERSION

        return home_dir() / f"sample-v{GENERATOR_VERSION}"
    if suite == "realcompanion":
        from evaluator.realcompanion.sample import SAMPLE_VERSION

        return home_dir() / f"realcompanion-sample-v{SAMPLE_VERSION}"
    raise ValueError(f"unknown suite {suite!r}; known: {', '.join(SUITES)}")


def _find(suite: str, given) -> Path:
    if suite == "beyondrecall":
        from beyondrecall.snapshot import resolve_data_dir

        return resolve_data_dir(given)
    if suite == "realcompanion":
        from evaluator.realcompanion.data import rc_data_dir

        return rc_data_dir(given)
    raise ValueError(f"unknown suite {suite!r}; known: {', '.join(SUITES)}")


def _notice(suite: str, path: Path) -> str:
    if suite == "beyondrecall":
        from beyondrecall.snapshot import HUB_REPO

        return (f"the generated sample snapshot at {path} (not the real benchmark); run "
                f"`br-eval download` to fetch {HUB_REPO}")
    return (f"the generated RealCompanion sample at {path} (synthetic, not the real release); "
            f"pass --rc_data DIR for the real one")


def _generate(suite: str, path: Path) -> None:
    if suite == "beyondrecall":
        from beyondrecall.sample import generate_sample
    else:
        from evaluator.realcompanion.sample import generate_sample
    generate_sample(path)


__all__ = ["SUITES", "data_dir", "sample_dir"]
