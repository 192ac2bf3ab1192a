"""The two `sha256sum` lists of a snapshot, read: `checksums/SHA256SUMS` (paths relative to the
snapshot root) and `benchmark/SHA256SUMS` (paths relative to `benchmark/`).

Lines are GNU (`<hex>  <path>`, `<hex> *<path>`) or BSD (`SHA256 (<path>) = <hex>`, what
`sha256sum --tag` writes), read as `sha256sum -c` reads them. A list is untrusted bytes: read
streaming within MAX_LIST_BYTES and MAX_LIST_LINES, and a listed path is judged on its text
(`unsafe_reason`) before anything may touch it. What cannot be read is a `Finding`, the record
`verify` (beyondrecall.checksums) reports. The loader uses `listed_paths` to hold the card's task
files to the lists; nothing here opens a listed file.
"""

from __future__ import annotations

import errno
import os
import posixpath
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from beyondrecall.files import human_bytes, printable
from beyondrecall.paths import inside, snapshot_roots

TOP_LIST = "checksums/SHA256SUMS"
BENCH_LIST = "benchmark/SHA256SUMS"

_LINE = re.compile(r"^(?P<hex>[0-9a-fA-F]{64}) (?P<mode>[ *])(?P<path>.+)$")
# BSD form, what `sha256sum --tag` writes and `sha256sum -c` reads: `SHA256 (path) = hex`
_BSD_LINE = re.compile(r"^SHA256 \((?P<path>.+)\) = (?P<hex>[0-9a-fA-F]{64})$")


@dataclass(frozen=True)
class Finding:
    kind: str
    path: str          # as the snapshot names it (snapshot-relative where it resolves)
    detail: str
    fatal: bool = True

    def __post_init__(self):
        # Paths from disk or a list may hold undecodable bytes (surrogate escapes): keep them
        # printable and JSON-valid, shown as \\xNN.
        object.__setattr__(self, "path", printable(self.path))
        object.__setattr__(self, "detail", printable(self.detail))

    def line(self) -> str:
        return f"{self.kind} {self.path}: {self.detail}"


@dataclass(frozen=True)
class ListEntry:
    list_name: str     # e.g. "benchmark/SHA256SUMS"
    line_no: int
    digest: str        # lower-case hex
    written: str       # the path as written in the list
    target: str        # snapshot-relative, normalised (posix)


def _unescape(path: str) -> str:
    """GNU sha256sum writes `\\` before the hex when a name holds a backslash or newline."""
    out, i = [], 0
    while i < len(path):
        ch = path[i]
        if ch == "\\" and i + 1 < len(path):
            nxt = path[i + 1]
            out.append({"n": "\n", "\\": "\\", "r": "\r"}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def unsafe_reason(path: str) -> str | None:
    """Why a list path may not be touched, judged on its text alone; None when it is fine."""
    if not path:
        return "empty path"
    if "\x00" in path:
        return "path contains NUL"
    if path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", path):
        return "absolute path"
    if "\\" in path:
        return "path contains a backslash"
    norm = posixpath.normpath(path)
    if norm == ".." or norm.startswith("../"):
        return "path escapes its root"
    if norm == ".":
        return "path names the root folder"
    return None


def parse_sums(text: str, list_name: str, base: str) -> tuple[list[ListEntry], list[Finding]]:
    """Parse one list given as text; `base` is the folder its paths are relative to ("" or
    "benchmark"). Files are read with `read_sums`, which bounds them."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()      # the newline that ends the last line
    return _parse_lines(lines, list_name, base)


# A checksum list is untrusted bytes: one over either bound is refused unread (a `malformed`
# problem), and at most MAX_MALFORMED_SHOWN malformed lines are listed one by one (then one line
# counts the rest). The release lists a few thousand files: 200,000 lines is 40 times that.
MAX_LIST_BYTES = 32 * 1024 * 1024
MAX_LIST_LINES = 200_000
MAX_MALFORMED_SHOWN = 20


MAX_LINE_BYTES = 64 * 1024   # a line is a hash and a path: 64 KiB is 16 times the longest path


def read_sums(path: Path, list_name: str, base: str, *,
              roots: tuple[str, ...] | None = None) -> tuple[list[ListEntry], list[Finding]]:
    """Read and parse one list file, streaming, within MAX_LIST_BYTES, MAX_LIST_LINES and
    MAX_LINE_BYTES (counted as read: a file that grows or lies about its size stops there).
    `roots` (beyondrecall.paths.snapshot_roots): a list that is a symlink leading out of them is
    not read. A FIFO, device or other non-regular file is never read (opened without blocking).
    OSError (a missing, unreadable or refused list) is the caller's to report."""
    if roots is not None and not inside(path, roots):
        raise OSError(errno.EPERM, "a symlink leading outside the snapshot; not read")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with open(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file; not read")
        if st.st_size > MAX_LIST_BYTES:
            return [], [Finding("malformed", list_name, f"{human_bytes(st.st_size)}, over br-eval's limit of "
                                                        f"{human_bytes(MAX_LIST_BYTES)} for a checksum "
                                                        "list; not read")]

        def lines():
            total = 0
            for no in range(1, MAX_LIST_LINES + 2):
                raw = f.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    return
                total += len(raw)
                if no > MAX_LIST_LINES:
                    raise _Refused(f"more than {MAX_LIST_LINES:,} lines, over br-eval's limit for "
                                   "a checksum list; not read")
                if total > MAX_LIST_BYTES:
                    raise _Refused(f"over {human_bytes(MAX_LIST_BYTES)}, br-eval's limit for a "
                                   "checksum list; not read")
                if len(raw) > MAX_LINE_BYTES:
                    raise _Refused(f"line {no} is over {human_bytes(MAX_LINE_BYTES)}, br-eval's "
                                   "limit for a checksum list line; not read")
                yield raw.rstrip(b"\n").decode("utf-8", errors="surrogateescape")
        try:
            return _parse_lines(lines(), list_name, base)
        except _Refused as exc:
            return [], [Finding("malformed", list_name, str(exc))]


class _Refused(Exception):
    pass


def gather_list(path: Path, list_name: str, base: str, entries: list, findings: list, *,
                roots: tuple[str, ...] | None = None) -> int | None:
    """Read one checksum list (read_sums, `roots` as there) into `entries` and `findings`: how
    many entries it holds, or None when it cannot be read (a "missing" or "unreadable" finding
    then says why)."""
    try:
        got, bad = read_sums(path, list_name, base, roots=roots)
    except FileNotFoundError:
        findings.append(Finding("missing", list_name, "checksum list not found"))
        return None
    except OSError as exc:
        findings.append(Finding("unreadable", list_name, exc.strerror or str(exc)))
        return None
    entries.extend(got)
    findings.extend(bad)
    return len(got)


def listed_paths(snapshot: Path) -> set[str] | None:
    """Snapshot-relative paths that either checksum list names (read as `verify` reads them);
    None when the snapshot has neither list."""
    out: set[str] = set()
    found = False
    for list_name, base in ((TOP_LIST, ""), (BENCH_LIST, "benchmark")):
        try:
            entries, _ = read_sums(Path(snapshot) / list_name, list_name, base,
                                   roots=snapshot_roots(snapshot))
        except FileNotFoundError:
            continue
        except OSError:
            entries = []
        found = True
        out.update(e.target for e in entries)
    return out if found else None


def _parse_lines(lines, list_name: str, base: str) -> tuple[list[ListEntry], list[Finding]]:
    entries: list[ListEntry] = []
    findings: list[Finding] = []
    malformed = 0
    for no, raw in enumerate(lines, start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        escaped = line.startswith("\\")
        body = line[1:] if escaped else line
        m = _LINE.match(body) or _BSD_LINE.match(body)
        if not m:
            malformed += 1
            if malformed <= MAX_MALFORMED_SHOWN:
                shown = line if len(line) <= 60 else line[:57] + "..."
                findings.append(Finding("malformed", list_name,
                                        f"line {no}: not '<sha256>  <path>' nor 'SHA256 (<path>) = <sha256>': {shown!r}"))
            continue
        written = _unescape(m["path"]) if escaped else m["path"]
        reason = unsafe_reason(written)
        if reason:
            findings.append(Finding("unsafe", written,
                                    f"{list_name} line {no}: {reason}; not opened"))
            continue
        norm = posixpath.normpath(written)
        target = f"{base}/{norm}" if base else norm
        entries.append(ListEntry(list_name, no, m["hex"].lower(), written, target))
    if malformed > MAX_MALFORMED_SHOWN:
        findings.append(Finding("malformed", list_name, f"{malformed - MAX_MALFORMED_SHOWN:,} more "
                                                        "malformed lines, not listed one by one"))
    return entries, findings


__all__ = ["TOP_LIST", "BENCH_LIST", "Finding", "ListEntry", "unsafe_reason", "parse_sums",
           "read_sums", "gather_list", "listed_paths", "MAX_LIST_BYTES", "MAX_LIST_LINES"]


def by_target(entries: list[ListEntry]) -> tuple[dict[str, list[ListEntry]], list[Finding]]:
    """The list entries grouped by target, and a `duplicate` finding for each target listed with
    different hashes (inside one list or across lists)."""
    expected: dict[str, list[ListEntry]] = {}
    for e in entries:
        expected.setdefault(e.target, []).append(e)
    findings = []
    for target, es in expected.items():
        if len({e.digest for e in es}) > 1:
            where = "; ".join(f"{e.list_name} line {e.line_no}: {e.digest[:12]}" for e in es)
            findings.append(Finding("duplicate", target, f"listed with different hashes ({where})"))
    return expected, findings
