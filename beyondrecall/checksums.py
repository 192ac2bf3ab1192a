"""Verify a snapshot against its two `sha256sum` lists (the card's "Download and Verification").

* `checksums/SHA256SUMS`: every published file, paths relative to the snapshot root;
* `benchmark/SHA256SUMS`: the frozen benchmark inventory, paths relative to `benchmark/`.

Findings are typed records `(kind, path, detail)`; kinds:

  missing    a listed file is not there (or is not a regular file)
  mismatch   its sha256 differs from the list
  malformed  a list line that is not `<64 hex>  <path>` / `<64 hex> *<path>` (detail: line number)
  duplicate  one path listed with different hashes (within a list or across the two lists)
  unsafe     a listed path that is absolute, escapes its root, or is a symlink leading outside the
             snapshot: reported and never opened or stat'ed
  unlisted   a file under benchmark/ that no list names (fatal only with `strict`)
  uncovered  a media path named in the task files that no list covers
  unreadable a listed file that exists but cannot be read (permissions, I/O error)
  corrupt    (`deep` only) a media file that does not decode (a zero-byte file included), or a
             PDF whose page count, or whose hash named as the current file's, disagrees with
             benchmark/PDF_PREPROCESSING.json
  misnamed   (`deep` only) a file whose content is another media type than its name says (a PNG
             named .mp4): each file is decoded by what its bytes are
  note       not a problem: e.g. an original-file hash in PDF_PREPROCESSING.json, not checked

The lists are read by beyondrecall.sums (GNU and BSD lines, as `sha256sum -c` reads them;
bounded), files hashed by beyondrecall.hashing. The deep check decodes through the `decode`
function its caller passes (the evaluator: media_cache.check.decode_check, media_cache's bounds
included); it hands it no FIFO, socket or device node, and file names that are not UTF-8 are
listed (as `\\xNN`), never opened.

Each file is hashed once, however many lists name it, streaming in large blocks on a thread pool
(hashlib releases the GIL), with a byte progress bar on stderr. Nothing is ever read outside the
snapshot: listed paths are checked as text first, then resolved one component at a time with
`lstat`/`readlink` inside the snapshot (symlinks into the enclosing Hugging Face cache's `blobs/`
folder are allowed, since `snapshot_download` without `local_dir` lays files out that way).
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from beyondrecall.errors import DataError
from beyondrecall.files import human_bytes, media_kind
from beyondrecall.hashing import hash_file
from beyondrecall.identity import fingerprint_note, snapshot_info
from beyondrecall.loader import discover_task_files, validate_snapshot
from beyondrecall.paths import snapshot_roots
from beyondrecall.pdfmap import read_pdf_preprocessing
from beyondrecall.sums import (BENCH_LIST, TOP_LIST, Finding, ListEntry, by_target, gather_list,
                              unsafe_reason)

PROBLEM_KINDS = ("missing", "mismatch", "malformed", "duplicate", "unsafe", "unlisted",
                 "uncovered", "unreadable", "corrupt", "misnamed", "note")


@dataclass
class VerifyReport:
    snapshot: str
    findings: list[Finding] = field(default_factory=list)
    files_hashed: int = 0
    bytes_hashed: int = 0
    entries: int = 0
    lists: dict[str, int] = field(default_factory=dict)     # list -> number of entries read
    media: list[dict] = field(default_factory=list)         # `deep` results, one per file
    strict: bool = False
    deep: bool = False
    seconds: float = 0.0
    fingerprint: dict = field(default_factory=dict)   # inventory vs the card's (a note)
    # real path -> (sha256, size, mtime_ns, inode, ctime_ns) for files unchanged while hashed:
    # what a media cache may reuse instead of hashing the same bytes again
    hashed: dict = field(default_factory=dict, repr=False)

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if f.fatal]

    @property
    def ok(self) -> bool:
        return not self.problems

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.kind] = out.get(f.kind, 0) + 1
        return out

    def summary(self) -> str:
        fatal, benign = {}, {}
        for f in self.findings:
            d = fatal if f.fatal else benign
            d[f.kind] = d.get(f.kind, 0) + 1
        head = (f"verified {self.files_hashed} files ({human_bytes(self.bytes_hashed)}) against "
                f"{len(self.lists)} list(s) with {self.entries} entries in {self.seconds:.1f} s")
        tail = (f"{sum(fatal.values())} problem(s): "
                + ", ".join(f"{n} {k}" for k, n in sorted(fatal.items()))) if fatal else "OK"
        if benign:
            tail += ("; also " + ", ".join(f"{n} {k}" for k, n in sorted(benign.items()))
                     + " (not fatal without --strict)")
        if self.deep:
            videos = [m for m in self.media if m["type"] == "video" and m.get("ok")]
            silent = [m["path"] for m in videos if not m.get("audio")]
            n = {t: sum(m["type"] == t for m in self.media) for t in ("image", "pdf", "video")}
            tail += (f"; deep: checked {n['image']} images, {n['pdf']} PDFs, {n['video']} videos "
                     f"({len(videos) - len(silent)} with audio, {len(silent)} without"
                     + (f": {', '.join(silent[:5])}" + (" ..." if len(silent) > 5 else "")
                        if silent else "") + ")")
        return f"{head}: {tail}"

    def to_json(self) -> dict:
        return {
            "snapshot": self.snapshot, "ok": self.ok, "strict": self.strict, "deep": self.deep,
            "files_hashed": self.files_hashed, "bytes_hashed": self.bytes_hashed,
            "lists": self.lists, "entries": self.entries, "seconds": round(self.seconds, 3),
            "counts": self.counts(), "problems": len(self.problems),
            "findings": [asdict(f) for f in self.findings],
            **({"media": self.media} if self.deep else {}),
            "fingerprint": self.fingerprint,
            "summary": self.summary(),
        }


# ---------------------------------------------------------------------------------------------
# Resolving paths without leaving the snapshot


class _Resolver:
    """Resolve snapshot-relative paths with lstat/readlink inside the allowed roots only."""

    def __init__(self, root: Path):
        self.root = os.path.realpath(root)
        self.allowed = [self.root]
        parent = os.path.dirname(self.root)
        if os.path.basename(parent) == "snapshots":  # a Hugging Face cache snapshot folder
            self.allowed.append(os.path.join(os.path.dirname(parent), "blobs"))
        self._dirs: dict[str, tuple[str, str | None]] = {}
        self._lock = threading.Lock()

    def _inside(self, path: str) -> str | None:
        for a in self.allowed:
            if path == a or path.startswith(a + os.sep):
                return a
        return None

    def resolve(self, rel: str) -> tuple[str | None, str | None]:
        """(absolute path with every symlink resolved, None) or (None, reason it is unsafe).
        A path that does not exist resolves to where it would be (the caller reports missing)."""
        parent, _, name = rel.rpartition("/")
        if parent:
            with self._lock:
                hit = self._dirs.get(parent)
            if hit is None:
                hit = self._walk(self.root, parent.split("/"))
                with self._lock:
                    self._dirs[parent] = hit
            base, reason = hit
            if reason:
                return None, reason
        else:
            base = self.root
        return self._walk(base, [name])

    def _walk(self, cur: str, parts: list[str]) -> tuple[str | None, str | None]:
        hops = 0
        stack = list(parts)
        while stack:
            part = stack.pop(0)
            if part in ("", "."):
                continue
            nxt = os.path.join(cur, part)
            try:
                st = os.lstat(nxt)
            except FileNotFoundError:
                return os.path.join(nxt, *stack), None
            except NotADirectoryError:
                return os.path.join(nxt, *stack), None
            if stat.S_ISLNK(st.st_mode):
                hops += 1
                if hops > 40:
                    return None, "too many levels of symbolic links"
                link = os.readlink(nxt)
                new = os.path.normpath(link if os.path.isabs(link) else os.path.join(cur, link))
                root = self._inside(new)
                if root is None:
                    return None, f"symlink to {link!r} leads outside the snapshot; not opened"
                rest = os.path.relpath(new, root)
                cur = root
                stack = ([] if rest == "." else rest.split(os.sep)) + stack
                continue
            cur = nxt
        return cur, None


def _bar_stream():
    """stderr for a progress bar: the stream under br-eval's escaping wrapper, when it has one
    (evaluator.errors.TerminalStream), since a bar draws with carriage returns."""
    import sys

    return getattr(sys.stderr, "unescaped", sys.stderr)


class _Progress:
    """A thread-safe tqdm byte bar on stderr (silent when disabled or not installed)."""

    def __init__(self, total: int, enabled: bool, desc: str):
        self.bar = None
        self.lock = threading.Lock()
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024,
                                desc=desc, leave=False, dynamic_ncols=True, mininterval=0.5,
                                file=_bar_stream())
            except ImportError:  # pragma: no cover - tqdm is a core dependency
                self.bar = None

    def __call__(self, n: int) -> None:
        if self.bar is not None:
            with self.lock:
                self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------------------------
# The whole check


def _task_media_paths(snapshot: Path, task_files=None) -> dict[str, str]:
    """media path (as the task files write it) -> first task naming it. Problems in the task
    files are `br-eval validate`'s business; a missing media file must not stop verify."""
    tasks, _ = validate_snapshot(snapshot, task_files=task_files)
    out: dict[str, str] = {}
    for t in tasks:
        for p in sorted(t.media_paths()):
            out.setdefault(p, f"{t.dimension}/{t.name}")
    return out


def verify_snapshot(snapshot: Path, *, workers: int = 4, decode=None, strict: bool = False,
                    progress: bool = True, task_files: dict | None = None) -> VerifyReport:
    """Check `snapshot` against both lists. `decode(path, kind) -> dict`, raising when the file
    does not decode, turns on the deep check (`--deep`): every media file under benchmark/ is
    decoded by it, each set of byte-identical copies once. The data layer never opens media
    itself; the evaluator passes media_cache.check.decode_check, which opens them within
    media_cache's bounds."""
    import time

    deep = decode is not None
    t0 = time.perf_counter()
    snapshot = Path(snapshot)
    if not (snapshot / "benchmark").is_dir():
        raise DataError(f"{snapshot}: not a Beyond Recall snapshot (no benchmark/ folder)")
    if workers < 1:
        raise DataError(f"--workers must be at least 1 (got {workers})")
    # A card naming a task file outside the snapshot, or one no list covers, stops verify here
    # (a DataError: one line, exit 1), before anything is hashed.
    discover_task_files(snapshot, task_files)
    report = VerifyReport(str(snapshot), strict=strict, deep=deep)
    resolver = _Resolver(snapshot)
    findings = report.findings

    # 1. Read both lists.
    entries: list[ListEntry] = []
    for list_name, base in ((TOP_LIST, ""), (BENCH_LIST, "benchmark")):
        read = gather_list(snapshot / list_name, list_name, base, entries, findings,
                           roots=snapshot_roots(snapshot))
        if read is not None:
            report.lists[list_name] = read
    report.entries = len(entries)

    # 2. Duplicates: one target, different expected hashes (inside a list or across lists).
    expected, duplicates = by_target(entries)
    findings.extend(duplicates)

    # 3. Resolve every target once, inside the snapshot.
    resolved: dict[str, str] = {}
    sizes: dict[str, int] = {}
    stats: dict[str, tuple] = {}
    for target in expected:
        real, reason = resolver.resolve(target)
        if reason:
            e = expected[target][0]
            findings.append(Finding("unsafe", target, f"{e.list_name} line {e.line_no}: {reason}"))
            continue
        try:
            st = os.stat(real)
        except FileNotFoundError:
            findings.append(Finding("missing", target, f"listed in {_lists_of(expected[target])} "
                                                       f"but not found"))
            continue
        except OSError as exc:
            findings.append(Finding("unreadable", target, exc.strerror or str(exc)))
            continue
        if not stat.S_ISREG(st.st_mode):
            findings.append(Finding("missing", target, "listed but not a regular file"))
            continue
        resolved[target] = real
        sizes[target] = st.st_size
        stats[target] = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)

    # 4. Hash each file once, largest first so the pool stays busy to the end.
    bar = _Progress(sum(sizes.values()), progress, "verify")
    digests: dict[str, str] = {}

    def work(target: str):
        try:
            return target, hash_file(resolved[target], bar), None
        except OSError as exc:
            return target, None, exc

    order = sorted(resolved, key=lambda t: -sizes[t])
    try:
        if workers == 1:
            results = map(work, order)
            results = list(results)
        else:
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="br-verify") as pool:
                results = list(pool.map(work, order))
    finally:
        bar.close()
    for target, got, exc in results:
        if exc is not None:
            findings.append(Finding("unreadable", target, exc.strerror or str(exc)))
            continue
        digest, n = got
        digests[target] = digest
        try:
            after = os.stat(resolved[target])
            if (after.st_size, after.st_mtime_ns, after.st_ino, after.st_ctime_ns) == \
                    stats[target] == (n, *stats[target][1:]):
                report.hashed[resolved[target]] = (digest, *stats[target])
        except OSError:
            pass
        report.files_hashed += 1
        report.bytes_hashed += n
        wrong: dict[str, list[ListEntry]] = {}
        for e in expected[target]:
            if e.digest != digest:
                wrong.setdefault(e.digest, []).append(e)
        for want, es in wrong.items():
            where = " and ".join(f"{e.list_name} line {e.line_no}" for e in es)
            findings.append(Finding("mismatch", target, f"sha256 is {digest} but {where} "
                                                        f"{'says' if len(es) == 1 else 'say'} {want}"))

    # 5. Files under benchmark/ that no list names.
    bench_root = snapshot / "benchmark"
    for dirpath, dirnames, filenames in os.walk(bench_root):
        dirnames.sort()
        for name in sorted(filenames + [d for d in dirnames if not _utf8(d)]):
            rel = Path(dirpath, name).relative_to(snapshot).as_posix()
            if not _utf8(rel):
                findings.append(Finding("unsafe", rel, "file name is not valid UTF-8; not opened"))
                continue
            if rel == BENCH_LIST or rel in expected:
                continue
            findings.append(Finding("unlisted", rel, "under benchmark/ but in no checksum list",
                                    fatal=strict))
        dirnames[:] = [d for d in dirnames if _utf8(d)]

    # 6. Media named by the task files that no list covers.
    task_media = _task_media_paths(snapshot, task_files)
    named = {f"benchmark/{posixpath.normpath(m)}" for m in task_media
             if isinstance(m, str) and not unsafe_reason(m)}
    for media, task in task_media.items():
        if not isinstance(media, str):
            continue
        norm = posixpath.normpath(media) if not unsafe_reason(media) else None
        if norm is None or f"benchmark/{norm}" not in expected:
            findings.append(Finding("uncovered", f"benchmark/{media}",
                                    f"named in {task} but no checksum list covers it"))

    # 7. Deep: decode media that exist inside the snapshot.
    if deep:
        bad = {f.path for f in findings if f.kind == "mismatch"}
        confirmed = {t for t in digests if t not in bad}
        _deep_checks(snapshot, resolver, resolved, digests, workers, progress, report, decode,
                     confirmed, named)

    report.findings.sort(key=lambda f: (PROBLEM_KINDS.index(f.kind), f.path, f.detail))
    info = snapshot_info(snapshot, task_files=task_files)
    report.fingerprint = {"inventory": info.inventory_fingerprint,
                          "matches_card": info.matches_card, "note": fingerprint_note(info)}
    report.seconds = time.perf_counter() - t0
    return report


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _lists_of(es: list[ListEntry]) -> str:
    return " and ".join(sorted({e.list_name for e in es}))


def sniff_type(path: str) -> str | None:
    """What a file is by its first bytes: "image", "pdf", "video", "empty", or None (unknown).
    Opens without following a final symlink and without blocking; never reads a non-regular
    file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(0, "not a regular file; not opened")
        head = os.read(fd, 1024)
    finally:
        os.close(fd)
    if not head:
        return "empty"
    if head.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM",
                        b"II*\x00", b"MM\x00*")) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP"):
        return "image"
    if b"%PDF-" in head:
        return "pdf"
    if head[4:8] == b"ftyp" or head.startswith(b"\x1a\x45\xdf\xa3") or \
            (head[:4] == b"RIFF" and head[8:12] == b"AVI "):
        return "video"
    return None


_HEX64 = re.compile(r"[0-9a-f]{64}")


def _pdf_hash_findings(rel: str, entry, digest: str | None, confirmed: bool) -> list[Finding]:
    """The hash rules for an entry of PDF_PREPROCESSING.json (see the module docstring of
    `beyondrecall.pdfmap.read_pdf_preprocessing`): compare a hash that is the current file's,
    say "original-file hash, not checked" for the source's, never call a PDF corrupt on a hash
    it cannot interpret."""
    out: list[Finding] = []
    src = "PDF_PREPROCESSING.json"
    if entry.original_sha256:
        out.append(Finding("note", rel, f"{src} lists the original-file hash, not checked",
                           fatal=False))
    for value, named in ((entry.current_sha256, True), (entry.sha256, False)):
        if not value or digest is None:
            continue
        if not _HEX64.fullmatch(value):
            out.append(Finding("note", rel, f"{src} hash {value[:80]!r} is not a sha256; not "
                                            "checked", fatal=False))
        elif value == digest:
            continue
        elif named or (entry.identity and not confirmed):
            out.append(Finding("corrupt", rel, f"sha256 {digest} but {src} says {value}"))
        elif confirmed:
            # The checksum lists vouch for these bytes, so the entry's hash is of something else:
            # the source PDF before cropping, most likely. br-eval cannot check that.
            out.append(Finding("note", rel, f"{src} sha256 {value[:12]}... is not this file's "
                                            "(which the checksum lists confirm): taken as the "
                                            "original-file hash, not checked", fatal=False))
        else:
            out.append(Finding("corrupt", rel, f"sha256 {digest} but {src} says {value} (and no "
                                               "checksum list confirms the file)"))
    return out


def _deep_checks(snapshot: Path, resolver: _Resolver, resolved: dict[str, str],
                 digests: dict[str, str], workers: int, progress: bool,
                 report: VerifyReport, decode, confirmed: set[str] | None = None,
                 named: set[str] = frozenset()) -> None:
    """Decode every media file under benchmark/ (by its name's kind), and every file a task
    names as media whatever its name (`named`: `benchmark/...` paths), by its content."""
    pdf_report = read_pdf_preprocessing(snapshot)
    for w in pdf_report.warnings:
        report.findings.append(Finding("malformed", "benchmark/PDF_PREPROCESSING.json",
                                       w.split(": ", 1)[-1], fatal=False))
    pdf_map = pdf_report.entries
    listed = set(resolved)
    # Every media file under benchmark/ (listed or not), resolved safely; only regular files.
    targets: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(snapshot / "benchmark"):
        dirnames[:] = sorted(d for d in dirnames if _utf8(d))
        for name in sorted(filenames):
            rel = Path(dirpath, name).relative_to(snapshot).as_posix()
            if media_kind(rel) is None and rel not in named or not _utf8(rel):
                continue
            real = resolved.get(rel)
            if real is None:
                real, reason = resolver.resolve(rel)
                if reason:
                    continue  # reported as unsafe when listed; never followed
            try:
                st = os.stat(real)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                if rel not in listed:
                    report.findings.append(Finding("unreadable", rel,
                                                   "not a regular file; not opened"))
                continue
            targets[rel] = real

    def check(rel: str) -> dict:
        info: dict = {"type": media_kind(rel)}
        try:
            kind = sniff_type(targets[rel]) or media_kind(rel)
            info["type"] = kind
            if kind == "empty":
                raise ValueError("empty file (0 bytes)")
            if kind is None:      # a task names it as media, and nothing reads it as media
                raise ValueError("named as media by a task, but by its content no image, PDF "
                                 "or video")
            info.update(decode(targets[rel], kind))
            info["ok"] = True
        except Exception as exc:  # any decoder error means the file is corrupt
            info["ok"] = False
            # the finding names the file: a message starting with its real path drops it
            text = str(exc).removeprefix(f"{targets[rel]}: ")
            info["error"] = f"{type(exc).__name__}: {text}".splitlines()[0][:200]
        return info

    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=len(targets), unit="file", desc="decode", leave=False,
                       dynamic_ncols=True, mininterval=0.5, file=_bar_stream())
        except ImportError:  # pragma: no cover
            bar = None
    # Byte-identical copies (the release keeps many) are decoded once: group by content hash;
    # the decoder is chosen by the content, so every copy gets the same, right answer.
    groups: dict[str, list[str]] = {}
    for rel in sorted(targets):
        groups.setdefault(digests.get(rel) or f"path:{rel}", []).append(rel)
    if bar is not None:
        bar.total = len(groups)
        bar.refresh()
    results = []
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="br-deep") as pool:
        for rels, info in zip(groups.values(), pool.map(check, [g[0] for g in groups.values()])):
            for rel in rels:
                one = dict(info, path=rel)
                by_name = media_kind(rel)
                if by_name is not None and one["type"] not in (by_name, "empty", None):
                    one["named_as"] = by_name
                results.append(one)
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    results.sort(key=lambda m: m["path"])
    for info in results:
        rel = info["path"]
        if "named_as" in info:
            report.findings.append(Finding(
                "misnamed", rel, f"content is a {info['type']} but the name says "
                                 f"{info['named_as']}" + ("" if info["ok"] else
                                                          f" (and it does not decode: {info['error']})")))
            continue
        if not info["ok"]:
            report.findings.append(Finding("corrupt", rel, f"does not decode ({info['error']})"))
        elif info["type"] == "pdf":
            entry = pdf_map.get(rel[len("benchmark/"):])
            if entry is None:
                continue
            if not entry.identity:
                info["kept_pages"] = len(entry.original_pages)
                if info["pages"] != len(entry.original_pages):
                    report.findings.append(Finding(
                        "corrupt", rel, f"{info['pages']} pages but PDF_PREPROCESSING.json keeps "
                                        f"{len(entry.original_pages)}"))
            else:
                info["identity_map"] = True
            digest = digests.get(rel)
            if digest is None and (entry.sha256 or entry.current_sha256):
                try:
                    digest = hash_file(targets[rel])[0]
                except OSError:
                    digest = None
            report.findings.extend(_pdf_hash_findings(rel, entry, digest,
                                                      rel in (confirmed or set())))
    report.media = results


__all__ = ["VerifyReport", "verify_snapshot", "sniff_type", "PROBLEM_KINDS"]
