"""Where the data lives and what a snapshot says about itself.

Data folder, in order: `--data DIR`, `$BR_EVAL_DATA`, the default download folder when it holds a
snapshot, else the generated sample (written into the user cache on first use, with a notice).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from beyondrecall.errors import DataError

HUB_REPO = "Moritze-Chenyu/BeyondRecall"
REVISION_FILE = ".br-eval-revision.json"   # written by `br-eval download` next to the snapshot


def home_dir() -> Path:
    """`$BR_EVAL_HOME`, else `$XDG_CACHE_HOME/br-eval`, else `~/.cache/br-eval`."""
    if os.environ.get("BR_EVAL_HOME"):
        return Path(os.environ["BR_EVAL_HOME"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "br-eval"


def default_download_dir() -> Path:
    return home_dir() / "data" / "BeyondRecall"


def sample_dir() -> Path:
    from beyondrecall.sample import GENERATOR_VERSION

    return home_dir() / f"sample-v{GENERATOR_VERSION}"


def is_snapshot(path: Path) -> bool:
    return (Path(path) / "benchmark").is_dir()


def resolve_data_dir(data: str | os.PathLike | None = None, *, quiet: bool = False) -> Path:
    if data:
        path = Path(data).expanduser()
        if not path.exists():
            raise DataError(f"--data {path}: no such folder")
        if not is_snapshot(path):
            raise DataError(f"--data {path}: not a Beyond Recall snapshot (no benchmark/ folder)")
        return path
    env = os.environ.get("BR_EVAL_DATA")
    if env:
        path = Path(env).expanduser()
        if not is_snapshot(path):
            raise DataError(f"$BR_EVAL_DATA={env}: not a Beyond Recall snapshot (no benchmark/ folder)")
        return path
    downloaded = default_download_dir()
    if is_snapshot(downloaded):
        return downloaded
    return ensure_sample(quiet=quiet)


def ensure_sample(quiet: bool = False) -> Path:
    path = sample_dir()
    if not (path / ".complete").exists():
        from beyondrecall.sample import generate_sample

        generate_sample(path)
    if not quiet:
        print(f"br-eval: using the generated sample snapshot at {path} (not the real benchmark); "
              f"run `br-eval download` to fetch {HUB_REPO}", file=sys.stderr)
    return path


@dataclass(frozen=True)
class SnapshotInfo:
    path: str
    data_version: str | None
    revision: str | None          # Hub commit sha recorded by `br-eval download`
    repo: str | None
    fingerprint: str | None       # sha256 of benchmark/SHA256SUMS (the card's frozen inventory)
    is_sample: bool


def snapshot_info(path: Path) -> SnapshotInfo:
    path = Path(path)
    version = None
    vfile = path / "metadata" / "VERSION.json"
    if vfile.is_file():
        try:
            v = json.loads(vfile.read_text(encoding="utf-8"))
            version = str(v.get("version") or v.get("data_version")) if isinstance(v, dict) else str(v)
        except (OSError, ValueError):
            version = None
    revision = repo = None
    rfile = path / REVISION_FILE
    if rfile.is_file():
        try:
            r = json.loads(rfile.read_text(encoding="utf-8"))
            revision, repo = r.get("commit"), r.get("repo")
        except (OSError, ValueError):
            pass
    sums = path / "benchmark" / "SHA256SUMS"
    fingerprint = hashlib.sha256(sums.read_bytes()).hexdigest() if sums.is_file() else None
    return SnapshotInfo(str(path), version, revision, repo, fingerprint,
                        (path / ".sample").exists())


@dataclass(frozen=True)
class PdfPageMap:
    """One cropped PDF's entry in benchmark/PDF_PREPROCESSING.json."""

    path: str                          # relative to benchmark/
    original_pages: tuple[int, ...]    # original 1-based page number of each kept page, in order
    evidence_pages: frozenset[int]     # original page numbers that carry annotated evidence
    original_page_count: int | None
    sha256: str | None


def read_pdf_map(snapshot: Path) -> dict[str, PdfPageMap]:
    """Read benchmark/PDF_PREPROCESSING.json; an absent file gives an empty map.

    br-eval's reading of the file (the real schema is not published): an object with a "files"
    object keyed by the PDF path relative to benchmark/, each with "kept_pages" (original 1-based
    page numbers in the cropped file's order), "evidence_pages", and optionally
    "original_page_count" and "sha256". A list of such objects with a "path" key is accepted too.
    """
    f = Path(snapshot) / "benchmark" / "PDF_PREPROCESSING.json"
    if not f.is_file():
        return {}
    try:
        raw = json.loads(f.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise DataError(f"{f}: invalid JSON ({exc})") from None
    entries = raw.get("files", raw) if isinstance(raw, dict) else raw
    if isinstance(entries, dict):
        entries = [dict(v, path=k) for k, v in entries.items() if isinstance(v, dict)]
    out: dict[str, PdfPageMap] = {}
    for i, e in enumerate(entries if isinstance(entries, list) else []):
        try:
            out[e["path"]] = PdfPageMap(
                e["path"], tuple(int(p) for p in e["kept_pages"]),
                frozenset(int(p) for p in e.get("evidence_pages", ())),
                e.get("original_page_count"), e.get("sha256"))
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{f}: entry {i}: cannot read page map ({exc!r})") from None
    return out
