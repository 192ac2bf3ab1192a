"""Model weights fetched by name from the Hugging Face Hub (CLIP and speech-recognition models).

A name is a Hub repo id, optionally pinned as `org/repo@revision` (a branch, tag or commit).
Files go into the normal Hugging Face cache (HF_HOME / HF_HUB_CACHE), so a second run, or the hf
backend, finds them there. With HF_HUB_OFFLINE=1 only that cache is read and a miss is one line
saying what to run online. What a caller records is the resolved commit (`Fetched.commit`), so a
moving branch never hides a change of weights behind the same cache key.
"""

from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from media_cache.errors import MediaError, MissingWeightsError


def offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def split_revision(name: str) -> tuple[str, str | None]:
    """`org/repo@rev` -> ("org/repo", "rev"); no `@` -> (name, None)."""
    base, sep, rev = name.partition("@")
    return (base, rev or None) if sep else (name, None)


@dataclass(frozen=True)
class Fetched:
    path: Path          # a file (fetch_file) or a snapshot folder (fetch_snapshot)
    repo: str
    commit: str         # the resolved commit sha


def _commit_of(path: Path) -> str:
    # The cache layout is models--org--repo/snapshots/<commit>/<file>.
    for parent in (path, *path.parents):
        if parent.parent.name == "snapshots":
            return parent.name
    return "unknown"


@contextlib.contextmanager
def _client():
    """huggingface_hub reads HF_HUB_OFFLINE once at import: hold it at the environment's value now."""
    try:
        from huggingface_hub import constants
    except ImportError as exc:
        raise MediaError(f"fetching weights by name needs huggingface_hub "
                         f"(pip install huggingface_hub): {exc}") from None
    saved = constants.HF_HUB_OFFLINE
    hf_logger = logging.getLogger("huggingface_hub")
    saved_level = hf_logger.level
    hf_logger.setLevel(logging.ERROR)
    constants.HF_HUB_OFFLINE = offline()
    try:
        yield
    finally:
        constants.HF_HUB_OFFLINE = saved
        hf_logger.setLevel(saved_level)


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def _failure(exc: BaseException, what: str, repo: str, revision: str | None, hint: str,
             download_cmd: str) -> MediaError:
    from huggingface_hub import errors as hfe

    at = f" at revision {revision}" if revision else ""
    if isinstance(exc, (hfe.LocalEntryNotFoundError, hfe.OfflineModeIsEnabled)):
        if offline():
            return MissingWeightsError(
                f"{what}: {repo}{at} is not in the Hugging Face cache and HF_HUB_OFFLINE is set: "
                f"run `{download_cmd}` while online (or rerun without HF_HUB_OFFLINE), {hint}")
        return MissingWeightsError(f"{what}: cannot reach the Hub to fetch {repo}{at} and it is "
                                   f"not in the Hugging Face cache ({_first_line(exc)}); {hint}")
    if isinstance(exc, hfe.RevisionNotFoundError):
        return MediaError(f"{what}: revision {revision!r} does not exist in {repo}")
    if isinstance(exc, hfe.RepositoryNotFoundError):
        return MediaError(f"{what}: Hub repo {repo} not found (a private or gated repo also needs "
                          f"a token: HF_TOKEN or `hf auth login`)")
    if isinstance(exc, hfe.HFValidationError):
        return MediaError(f"{what}: {repo!r} is neither a local path nor a Hub repo id")
    return MediaError(f"{what}: cannot fetch {repo}{at} ({type(exc).__name__}: {_first_line(exc)})")


def fetch_file(repo: str, filenames: list[str], revision: str | None, *, what: str,
               hint: str) -> Fetched:
    """The first of `filenames` that the repo has, downloaded into (or found in) the HF cache."""
    with _client():
        from huggingface_hub import errors as hfe
        from huggingface_hub import hf_hub_download

        missing: BaseException | None = None
        for name in filenames:
            try:
                path = Path(hf_hub_download(repo, name, revision=revision,
                                            local_files_only=offline()))
                return Fetched(path, repo, _commit_of(path))
            except hfe.LocalEntryNotFoundError as exc:   # not cached (offline) or Hub unreachable
                missing = missing or exc
            except hfe.EntryNotFoundError:               # the repo lacks this name: try the next
                continue
            except Exception as exc:  # noqa: BLE001 - turned into one line
                raise _failure(exc, what, repo, revision, hint, _download_cmd(repo, name, revision)
                               ) from None
        if missing is not None:
            raise _failure(missing, what, repo, revision, hint,
                           _download_cmd(repo, filenames[0], revision)) from None
        raise MissingWeightsError(f"{what}: {repo} has none of {', '.join(filenames)}; {hint}")


def _download_cmd(repo: str, name: str | None, revision: str | None) -> str:
    return (f"hf download {repo}" + (f" {name}" if name else "")
            + (f" --revision {revision}" if revision else ""))


def fetch_snapshot(repo: str, revision: str | None, patterns: list[str], *, what: str,
                   hint: str) -> Fetched:
    """The files of `repo` matching `patterns`, downloaded into (or found in) the HF cache."""
    with _client():
        from huggingface_hub import snapshot_download

        try:
            path = Path(snapshot_download(repo, revision=revision, allow_patterns=patterns,
                                          local_files_only=offline()))
        except Exception as exc:  # noqa: BLE001 - turned into one line
            raise _failure(exc, what, repo, revision, hint,
                           _download_cmd(repo, None, revision)) from None
        return Fetched(path, repo, _commit_of(path))
