"""`br-eval verify --rc-data DIR`: a RealCompanion release against the checksum list given with it.

The paper names no checksum list, so verification needs one the user has: `SHA256SUMS` or
`checksums/SHA256SUMS` in the release folder, in `sha256sum` format (read by
`beyondrecall.sums.read_sums`, paths relative to the folder). Findings use the Beyond Recall
kinds: `missing` (a listed file, or no list at all), `mismatch`, `malformed`, `duplicate`,
`unsafe` (a path that leaves the folder, also through a symlink: never opened), `unreadable`, and
`uncovered` (a file the RealCompanion reader reads that no list vouches for). Files are hashed
once each, in 4 MiB blocks (`beyondrecall.hashing.hash_file`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

LISTS = ("SHA256SUMS", "checksums/SHA256SUMS")


def verify_release(root, *, workers: int = 4):
    """A `beyondrecall.checksums.VerifyReport` for the release in `root`."""
    from concurrent.futures import ThreadPoolExecutor

    from beyondrecall.checksums import VerifyReport
    from beyondrecall.hashing import hash_file
    from beyondrecall.sums import Finding, by_target, gather_list
    from evaluator.realcompanion.data import release_files

    t0 = time.perf_counter()
    root = Path(root)
    real_root = os.path.realpath(root)
    report = VerifyReport(str(root))
    findings = report.findings
    entries = []
    for name in LISTS:
        path = root / name
        if not path.is_file():
            continue
        read = gather_list(path, name, "", entries, findings)  # bounded and streamed, as for Beyond Recall
        if read is not None:
            report.lists[name] = read
    if not report.lists and not findings:
        findings.append(Finding("missing", "SHA256SUMS", "no checksum list in the release folder "
                                "(looked for " + " and ".join(LISTS) + "); nothing can be "
                                "verified without one"))
    report.entries = len(entries)
    expected, duplicates = by_target(entries)
    findings.extend(duplicates)

    resolved: dict[str, str] = {}
    for target, es in expected.items():
        real = os.path.realpath(os.path.join(real_root, target))
        if real != real_root and not real.startswith(real_root + os.sep):
            findings.append(Finding("unsafe", target, f"{es[0].list_name} line {es[0].line_no}: "
                                    f"leads outside the release folder; not opened"))
            continue
        if not os.path.exists(real):
            findings.append(Finding("missing", target, "listed but not found"))
        elif not os.path.isfile(real):
            findings.append(Finding("missing", target, "listed but not a regular file"))
        else:
            resolved[target] = real

    def work(target):
        try:
            return target, hash_file(resolved[target]), None
        except OSError as exc:
            return target, None, exc

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = list(pool.map(work, sorted(resolved)))
    for target, got, exc in results:
        if exc is not None:
            findings.append(Finding("unreadable", target, exc.strerror or str(exc)))
            continue
        digest, n = got
        report.files_hashed += 1
        report.bytes_hashed += n
        for e in expected[target]:
            if e.digest != digest:
                findings.append(Finding("mismatch", target, f"sha256 is {digest} but "
                                        f"{e.list_name} line {e.line_no} says {e.digest}"))

    if report.lists:
        covered = {os.path.realpath(os.path.join(real_root, t)) for t in expected}
        try:
            used = release_files(root)
        except Exception as exc:   # a release the reader cannot read is the reader's error
            from beyondrecall.errors import DataError

            if not isinstance(exc, DataError):
                raise
            used = []
        for path in used:
            if os.path.realpath(path) not in covered:
                rel = os.path.relpath(path, root)
                findings.append(Finding("uncovered", rel, "read by br-eval but in no checksum "
                                                          "list"))
    report.findings.sort(key=lambda f: (f.kind, f.path, f.detail))
    report.seconds = time.perf_counter() - t0
    return report
