"""benchmark/PDF_PREPROCESSING.json, read: which original pages each cropped PDF keeps.

Its schema is not published, so every plausible shape is accepted (see `read_pdf_preprocessing`)
and what cannot be read is a warning, never an error: such a PDF is read as original. A leaf
(standard library only): the verifier, `br-eval prepare`, the run and the report read the map
through here.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class PdfPageMap:
    """One PDF's entry in benchmark/PDF_PREPROCESSING.json."""

    path: str                          # relative to benchmark/
    original_pages: tuple[int, ...]    # original 1-based page number of each kept page, in order;
                                       # empty for an identity map (the PDF is original)
    evidence_pages: frozenset[int]     # original page numbers that carry annotated evidence
    original_page_count: int | None
    sha256: str | None                 # a hash listed for the file, field name not saying whose
    identity: bool = False             # no page list: the file is the original PDF
    current_sha256: str | None = None  # a hash the entry names as the cropped/current file's
    original_sha256: str | None = None  # a hash the entry names as the source/original file's


@dataclass
class PdfMapReport:
    entries: dict[str, PdfPageMap]     # every PDF the file describes, identity maps included
    warnings: list[str]
    shape: str                         # how it was read, for messages


# How PDF_PREPROCESSING.json may name things (its schema is not published).
_PAGE_KEYS = ("kept_pages", "original_pages", "kept_original_pages", "selected_pages",
              "retained_pages", "pages_kept", "page_mapping", "page_map", "pages", "kept",
              "source_pages", "kept_page_indices", "page_indices", "original_page_indices")
_EVIDENCE_KEYS = ("evidence_pages", "evidence", "annotated_pages", "evidence_page_numbers",
                  "evidence_page_indices")
_COUNT_KEYS = ("original_page_count", "original_pages_count", "source_page_count",
               "num_original_pages", "original_num_pages", "total_pages")
_PATH_KEYS = ("path", "file", "pdf", "filename", "file_name", "relative_path", "cropped_path",
              "output", "output_path", "name")
_CURRENT_HASH = ("cropped_sha256", "output_sha256", "current_sha256", "sha256_cropped",
                 "cropped_hash", "file_sha256", "new_sha256", "processed_sha256")
_ORIGINAL_HASH = ("original_sha256", "source_sha256", "sha256_original", "original_hash",
                  "source_hash", "input_sha256", "old_sha256", "raw_sha256")
_PLAIN_HASH = ("sha256", "hash", "sha256sum", "checksum", "digest")
_WRAPPERS = ("files", "pdfs", "entries", "documents", "items", "mappings", "pdf_files", "data")
_shown_warnings: set[tuple[str, str]] = set()


def _norm_path(p: str) -> str:
    p = p.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p[len("benchmark/"):] if p.startswith("benchmark/") else p


def _pages(value, zero_hint: bool) -> tuple[list[int], bool] | None:
    """A page list in any plausible shape -> (pages in cropped order, zero-based?)."""
    if isinstance(value, dict):   # {cropped page: original page}
        try:
            items = sorted((int(k), int(v)) for k, v in value.items())
        except (TypeError, ValueError):
            return None
        return [v for _, v in items], zero_hint or any(v == 0 for _, v in items)
    if not isinstance(value, list):
        return None
    out = []
    for v in value:
        if isinstance(v, dict):    # {"cropped": i, "original": j}
            v = next((v[k] for k in ("original", "original_page", "source", "source_page",
                                     "orig", "from") if k in v), None)
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            return None
        try:
            out.append(int(v))
        except ValueError:
            return None
    return out, zero_hint or 0 in out


def _entry(rel: str, e: dict) -> PdfPageMap:
    page_key = next((k for k in _PAGE_KEYS if k in e and e[k] is not None), None)
    zero = False
    pages: list[int] = []
    if page_key is not None:
        got = _pages(e[page_key], zero_hint="ind" in page_key or "zero" in str(e.get("page_base", "")))
        if got is None:
            raise ValueError(f"field {page_key!r} is not a page list")
        pages, zero = got
        if "page_base" in e and str(e["page_base"]).strip() in ("0", "zero"):
            zero = True
    shift = 1 if zero else 0
    ev_key = next((k for k in _EVIDENCE_KEYS if k in e), None)
    evidence = []
    if ev_key is not None and e[ev_key] is not None:
        got = _pages(e[ev_key], zero_hint=zero or "ind" in ev_key)
        evidence = [p + (1 if zero or (got and got[1]) else 0) for p in (got[0] if got else [])]
    count = next((e[k] for k in _COUNT_KEYS if isinstance(e.get(k), int)), None)

    def hexval(keys):
        for k in keys:
            v = e.get(k)
            if isinstance(v, str):
                return v.strip().lower().removeprefix("sha256:")
        return None

    return PdfPageMap(rel, tuple(p + shift for p in pages), frozenset(evidence), count,
                      hexval(_PLAIN_HASH), identity=not pages,
                      current_sha256=hexval(_CURRENT_HASH), original_sha256=hexval(_ORIGINAL_HASH))


def read_pdf_preprocessing(snapshot: Path) -> PdfMapReport:
    """Read benchmark/PDF_PREPROCESSING.json in any plausible shape; never raises.

    Accepted: an object keyed by PDF path, a list of entries naming their path, or a wrapper
    object holding either (`files`, `pdfs`, `entries`, ... or its only list/object value); paths
    with or without `benchmark/`; page lists as original page numbers, 1-based or 0-based (a 0 in
    the list, or a field name with "index"), as a list, a {cropped: original} object or a list of
    {"cropped", "original"} objects, under the usual field names. An entry without a page list is
    an identity map (the original PDF, like the card's one uncropped file). What cannot be read is
    a warning, and those PDFs are read as original."""
    f = Path(snapshot) / "benchmark" / "PDF_PREPROCESSING.json"
    if not f.is_file():
        return PdfMapReport({}, [], "absent")
    try:
        raw = json.loads(f.read_bytes())
    except (ValueError, RecursionError) as exc:
        return PdfMapReport({}, [f"benchmark/PDF_PREPROCESSING.json is not readable JSON "
                                 f"({type(exc).__name__}); every PDF is read as original"], "unreadable")
    body, shape = raw, "object keyed by path"
    if isinstance(raw, dict):
        key = next((k for k in _WRAPPERS if isinstance(raw.get(k), (dict, list))), None)
        if key is None:
            containers = [k for k, v in raw.items() if isinstance(v, (dict, list))
                          and not str(k).lower().endswith(".pdf")]
            if len(containers) == 1 and not any(str(k).lower().endswith(".pdf") for k in raw):
                key = containers[0]
        if key is not None:
            body, shape = raw[key], f"wrapper {key!r}"
    entries: list[tuple[str, object]] = []
    if isinstance(body, dict):
        entries = [(str(k), v) for k, v in body.items()]
        shape += ", keyed by path"
    elif isinstance(body, list):
        for e in body:
            if isinstance(e, dict):
                pk = next((k for k in _PATH_KEYS if isinstance(e.get(k), str)), None)
                entries.append((e[pk] if pk else "", e))
        shape += ", list of entries"
    out: dict[str, PdfPageMap] = {}
    warnings: list[str] = []
    unread = []
    for path, e in entries:
        rel = _norm_path(path)
        if not rel.lower().endswith(".pdf"):
            if isinstance(e, dict) or not path:
                unread.append(path or "(no path)")
            continue
        if e is None or (isinstance(e, dict) and not e):
            out[rel] = PdfPageMap(rel, (), frozenset(), None, None, identity=True)
            continue
        if isinstance(e, list):   # path -> page list
            e = {"kept_pages": e}
        if not isinstance(e, dict):
            unread.append(rel)
            continue
        try:
            out[rel] = _entry(rel, e)
        except (ValueError, TypeError) as exc:
            warnings.append(f"benchmark/PDF_PREPROCESSING.json: {rel}: {exc}; read as original")
            out[rel] = PdfPageMap(rel, (), frozenset(), None, None, identity=True)
    if not entries and body not in ({}, [], None):
        warnings.append("benchmark/PDF_PREPROCESSING.json: shape not recognised (expected "
                        "entries keyed by or naming a .pdf path); every PDF is read as original")
    elif unread and not out:
        warnings.append("benchmark/PDF_PREPROCESSING.json: shape not recognised (no entries naming "
                        "a .pdf path); every PDF is read as original")
    elif unread:
        warnings.append(f"benchmark/PDF_PREPROCESSING.json: {len(unread)} entries without a .pdf "
                        f"path ignored (first: {unread[0]!r})")
    return PdfMapReport(out, warnings, shape)


def read_pdf_map(snapshot: Path, *, warn: bool = True) -> dict[str, PdfPageMap]:
    """The cropped PDFs' page maps, keyed by path relative to benchmark/ (identity maps left out:
    a PDF not in the result is read as original). Never raises; each warning is printed once per
    process on stderr."""
    report = read_pdf_preprocessing(snapshot)
    if warn:
        for w in report.warnings:
            if (str(snapshot), w) not in _shown_warnings:
                _shown_warnings.add((str(snapshot), w))
                print(f"br-eval: warning: {w}", file=sys.stderr)
    return {k: v for k, v in report.entries.items() if not v.identity}


__all__ = ["PdfPageMap", "PdfMapReport", "read_pdf_preprocessing", "read_pdf_map"]
