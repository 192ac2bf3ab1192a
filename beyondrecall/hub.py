"""Download a release from the Hugging Face Hub with `huggingface_hub.snapshot_download`.

What the client does (huggingface_hub 2.4), and therefore what a test server must answer:
  GET  /api/datasets/{repo}/revision/{rev}            -> {"id", "sha", ...}  (we call it first to
                                                         learn the commit, then pin the download
                                                         to that sha so both agree)
  GET  /api/datasets/{repo}/tree/{sha}?recursive=True -> [{"type": "file", "path", "size", "oid"}]
  HEAD /datasets/{repo}/resolve/{sha}/{path}          -> X-Repo-Commit, ETag, Content-Length
  GET  /datasets/{repo}/resolve/{sha}/{path}          -> the bytes; `Range: bytes=N-` -> 206
Files land in `local_dir` (`<local_dir>/.cache/huggingface/` keeps the client's per-file
metadata). A file is written to a temporary name and renamed when complete; a dropped
connection is retried from the last byte with a Range request (up to 5 times) within one run,
and a rerun after a failed run fetches only the files that are not complete yet.

Environment, read at call time: `HF_ENDPOINT` (the Hub URL), `HF_TOKEN` (or the token saved by
`hf auth login`), `HF_HUB_OFFLINE` (no network: use what is already in `local_dir`). The client
reads `HF_HUB_OFFLINE` once at import; we set `huggingface_hub.constants.HF_HUB_OFFLINE` from the
environment for the duration of each call, so changing the variable between calls works.

Every failure becomes a one-line `DataError`: offline with nothing cached, unknown repo or
revision, gated without access, disk full, interrupted transfer (rerun to resume), Hub errors.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import shutil
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from beyondrecall.errors import DataError
from beyondrecall.files import human_bytes
from beyondrecall.snapshot import HUB_REPO, REVISION_FILE, default_download_dir, home_dir

# The datasets `download` knows, and their Hub repository when a source names one. RealCompanion
# has none: its paper publishes the data on OSF and the code on anonymous.4open.science, so no
# repository is guessed; `--repo` fetches a Hub mirror the user names.
DATASETS: dict[str, str | None] = {"beyondrecall": HUB_REPO, "realcompanion": None}
REALCOMPANION_RELEASE = (
    "RealCompanion is not fetched from the Hugging Face Hub: no source names a repository for it. "
    "Its paper (Behnam, Kim, Yang) publishes the data on OSF (the view link is in the paper's "
    "footnote) and the code and reproduction map on anonymous.4open.science. Fetch by hand, for "
    "each of the ten relationships, its five files (the conversation, the profile, the persona, "
    "the chat gold and the questions; citations are day{n}-{j} message keys), and the release's "
    "SHA256SUMS list if it has one, into one folder (a subfolder per relationship, or one file per "
    "kind with a participant column; JSON, JSONL or CSV: docs/realcompanion.md, \"RealCompanion format and "
    "tasks\"). Then `br-eval verify --rc-data DIR` checks it against SHA256SUMS, `br-eval ls "
    "--rc-data DIR` shows what br-eval reads, and `br-eval run --tasks realcompanion --rc-data "
    "DIR` runs it (`--rc-adapter package.module:function` for a shape br-eval does not read). A Hub "
    "mirror you keep yourself downloads with `--dataset realcompanion --repo OWNER/NAME`."
)


def default_dir_for(dataset: str) -> Path:
    if dataset == "realcompanion":
        return home_dir() / "data" / "RealCompanion"
    return default_download_dir()


@dataclass(frozen=True)
class DownloadResult:
    path: Path
    repo: str
    commit: str | None      # resolved sha (None only offline without a recorded revision)
    revision: str           # what was asked for
    offline: bool


def _truthy(value: str | None) -> bool:
    return (value or "").strip().upper() in {"1", "ON", "YES", "TRUE"}


def _endpoint() -> str:
    return (os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")


@contextlib.contextmanager
def _client_state(offline: bool, progress: bool):
    """Hold huggingface_hub's offline switch and progress bars at what this call wants."""
    from huggingface_hub import constants
    from huggingface_hub.utils import (are_progress_bars_disabled, disable_progress_bars,
                                       enable_progress_bars)

    saved_offline = constants.HF_HUB_OFFLINE
    bars_were_disabled = are_progress_bars_disabled()
    # The client logs each retry and fallback as a multi-line warning; failures reach the user
    # as our one-line error instead.
    hf_logger = logging.getLogger("huggingface_hub")
    saved_level = hf_logger.level
    hf_logger.setLevel(logging.ERROR)
    constants.HF_HUB_OFFLINE = offline
    if not progress:
        disable_progress_bars()
    # The client's bars draw with carriage returns: they go to the stream under br-eval's
    # escaping wrapper (evaluator.errors.TerminalStream), when it has one.
    saved_stderr = sys.stderr
    sys.stderr = getattr(sys.stderr, "unescaped", sys.stderr) if progress else sys.stderr
    try:
        yield
    finally:
        sys.stderr = saved_stderr
        constants.HF_HUB_OFFLINE = saved_offline
        hf_logger.setLevel(saved_level)
        if not progress and not bars_were_disabled:
            enable_progress_bars()


def _has_token() -> bool:
    try:
        from huggingface_hub import get_token

        return bool(get_token())
    except Exception:  # a broken token file must not hide the real error
        return bool(os.environ.get("HF_TOKEN"))


def explain(exc: BaseException, *, repo: str, revision: str, local_dir: Path,
            endpoint: str) -> str:
    """One line saying what went wrong and what to do about it."""
    from huggingface_hub import errors as hfe

    rerun = "rerun `br-eval download` to resume (finished files are kept)"
    if isinstance(exc, hfe.GatedRepoError):
        how = (f"request access at {endpoint}/datasets/{repo}, then pass a token of the "
               f"account that has it: set HF_TOKEN=hf_... or run `hf auth login`")
        if _has_token():
            return f"{repo} is a gated dataset and your token has no access to it (yet): {how}"
        return f"{repo} is a gated dataset and no token was given: {how}"
    if isinstance(exc, hfe.RevisionNotFoundError):
        return f"revision {revision!r} does not exist in dataset {repo} at {endpoint}"
    if isinstance(exc, hfe.RepositoryNotFoundError):
        return (f"dataset {repo} not found at {endpoint} (check --repo; a private dataset also "
                f"needs a token: HF_TOKEN or `hf auth login`)")
    if isinstance(exc, hfe.DisabledRepoError):
        return f"dataset {repo} is disabled on {endpoint}"
    if isinstance(exc, hfe.IncompleteSnapshotError):
        return (f"the copy of {repo} in {local_dir} is incomplete and {endpoint} cannot be "
                f"reached; {rerun} once the network is back")
    if isinstance(exc, (hfe.LocalEntryNotFoundError, hfe.OfflineModeIsEnabled)):
        if _truthy(os.environ.get("HF_HUB_OFFLINE")):
            return (f"offline (HF_HUB_OFFLINE is set) and no copy of {repo} is in {local_dir}; "
                    f"unset HF_HUB_OFFLINE to download it")
        return (f"cannot reach {endpoint} and no copy of {repo} is in {local_dir}; check the "
                f"network or HF_ENDPOINT and rerun `br-eval download`")
    if isinstance(exc, hfe.HFValidationError):
        return f"invalid repository id {repo!r}: {str(exc).splitlines()[0]}"
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return f"disk full in {local_dir} ({exc.strerror or exc}): free some space, then {rerun}"
    if isinstance(exc, hfe.HfHubHTTPError):
        status = getattr(getattr(exc, "response", None), "status_code", None)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if status is not None and status >= 500:
            return f"{endpoint} answered HTTP {status} ({first}); try again later: {rerun}"
        return f"the Hub refused the request: {first}"
    name = type(exc).__name__
    module = type(exc).__module__ or ""
    text = (str(exc).splitlines() or [name])[0]
    if "Consistency check failed" in text:
        return f"transfer interrupted (a file arrived incomplete); {rerun}"
    if module.startswith("httpx"):
        if "Connect" in name:
            return f"cannot connect to {endpoint} ({text}); check the network or HF_ENDPOINT"
        return f"transfer interrupted ({name}: {text}); {rerun}"
    if isinstance(exc, OSError):
        return f"cannot write into {local_dir}: {exc.strerror or text}"
    return f"download failed ({name}: {text})"


def _check_space(api, repo: str, commit: str, local_dir: Path) -> None:
    """Fail before transferring anything when the missing files cannot fit on the disk."""
    needed = 0
    for entry in api.list_repo_tree(repo, repo_type="dataset", revision=commit, recursive=True):
        size = getattr(entry, "size", None)
        if size is None:
            continue  # a folder
        target = local_dir / entry.path
        try:
            if target.is_file() and target.stat().st_size == size:
                continue
        except OSError:
            pass
        needed += size
    probe = local_dir
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    if needed > free:
        raise OSError(errno.ENOSPC, f"need {human_bytes(needed)}, {human_bytes(free)} free")


def write_revision_file(local_dir: Path, *, repo: str, commit: str, revision: str,
                        endpoint: str) -> None:
    record = {"repo": repo, "commit": commit, "revision": revision,
              "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "endpoint": endpoint}
    tmp = local_dir / (REVISION_FILE + ".tmp")
    tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, local_dir / REVISION_FILE)


def read_revision_file(local_dir: Path) -> dict | None:
    try:
        return json.loads((Path(local_dir) / REVISION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def download(*, repo: str | None = None, dataset: str = "beyondrecall", revision: str | None = None,
             local_dir: str | os.PathLike | None = None, max_workers: int = 8,
             progress: bool = True) -> DownloadResult:
    """Fetch (or resume) a dataset snapshot into `local_dir`; record the resolved commit."""
    if dataset not in DATASETS:
        raise DataError(f"unknown dataset {dataset!r} (known: {', '.join(DATASETS)})")
    repo = repo or DATASETS[dataset]
    if repo is None:                     # no source names a repository: say where it is instead
        raise DataError(REALCOMPANION_RELEASE)
    asked = revision or "main"
    target = Path(local_dir).expanduser() if local_dir else default_dir_for(dataset)
    endpoint = _endpoint()
    offline = _truthy(os.environ.get("HF_HUB_OFFLINE"))
    try:
        import huggingface_hub  # noqa: F401  (lazy: heavy, and only this command needs it)
    except ImportError:  # pragma: no cover - core dependency
        raise DataError("huggingface_hub is not installed: pip install huggingface-hub") from None
    from huggingface_hub import HfApi, snapshot_download

    def fail(exc: BaseException):
        raise DataError(explain(exc, repo=repo, revision=asked, local_dir=target,
                                endpoint=endpoint)) from None

    with _client_state(offline, progress):
        if offline:
            try:
                path = snapshot_download(repo, repo_type="dataset", revision=revision,
                                         local_dir=target, local_files_only=True)
            except Exception as exc:
                fail(exc)
            recorded = read_revision_file(Path(path)) or {}
            if recorded.get("repo") not in (None, repo):
                raise DataError(f"offline, and {target} holds {recorded['repo']}, not {repo}")
            held = recorded.get("commit") or ""
            if revision and recorded and not (revision == recorded.get("revision") or (
                    len(revision) >= 7 and held.startswith(revision.lower()))):
                # a pin that cannot be checked offline against another copy: not this snapshot
                raise DataError(f"offline, and {target} holds {repo}@{held[:12] or '?'} (downloaded "
                                f"as {recorded.get('revision') or '?'}), not --revision {revision}: "
                                "download it with the network, or drop --revision to use this copy")
            return DownloadResult(Path(path), repo, recorded.get("commit"), asked, True)
        try:
            api = HfApi(endpoint=endpoint)
            info = api.dataset_info(repo, revision=asked)
            commit = info.sha
            if not commit:
                raise DataError(f"{endpoint} gave no commit sha for {repo}@{asked}")
            target.mkdir(parents=True, exist_ok=True)
            _check_space(api, repo, commit, target)
            path = snapshot_download(repo, repo_type="dataset", revision=commit,
                                     local_dir=target, endpoint=endpoint,
                                     max_workers=max_workers)
        except DataError:
            raise
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            fail(exc)
    write_revision_file(Path(path), repo=repo, commit=commit, revision=asked, endpoint=endpoint)
    return DownloadResult(Path(path), repo, commit, asked, False)


__all__ = ["download", "DownloadResult", "explain", "DATASETS", "REALCOMPANION_RELEASE",
           "default_dir_for", "read_revision_file", "write_revision_file"]
