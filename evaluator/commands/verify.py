"""`br-eval verify`: check every file of a snapshot against both SHA256SUMS lists (with
`--dataset realcompanion` or `--rc-data DIR`: a RealCompanion release against its own list).

Prints one line per finding, `<kind> <path>: <detail>`, then one summary line (stderr when there
are problems). Exit 0 clean, 1 when any problem was found, 2 on usage errors.
"""

from __future__ import annotations

import os
import sys

from evaluator.commands._common import add_data_arg


def _default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def add_arguments(parser) -> None:
    add_data_arg(parser)
    parser.add_argument("--dataset", choices=("beyondrecall", "realcompanion"), default=None,
                        help="which data to verify (default: beyondrecall, or realcompanion with "
                             "--rc-data); RealCompanion's folder is found as `run` finds it: "
                             "--rc-data, $BR_EVAL_RC_DATA, the download folder")
    parser.add_argument("--rc-data", "--rc_data", dest="rc_data", default=None, metavar="DIR",
                        help="verify this RealCompanion release folder instead, against the "
                             "SHA256SUMS list given with it")
    parser.add_argument("--deep", action="store_true",
                        help="also decode every image, PDF (page count vs PDF_PREPROCESSING.json) "
                             "and video (first and last frame; reports audio)")
    parser.add_argument("--json", action="store_true", help="print the findings as one JSON object")
    parser.add_argument("--workers", type=int, default=_default_workers(), metavar="N",
                        help="hashing threads (default: %(default)s)")
    parser.add_argument("--strict", action="store_true",
                        help="files under benchmark/ that no list names are problems too")
    parser.add_argument("--no-progress", "--no_progress", dest="no_progress", action="store_true",
                        help="no progress bar on stderr")


def main(args) -> int:
    if args.workers < 1:
        print(f"br-eval verify: error: --workers must be at least 1 (got {args.workers})",
              file=sys.stderr)
        return 2
    if args.dataset == "realcompanion" or (args.rc_data and args.dataset is None):
        return verify_realcompanion(args)
    if args.rc_data:
        print("br-eval verify: error: --rc-data is RealCompanion's folder; it does not go with "
              "--dataset beyondrecall", file=sys.stderr)
        return 2
    from beyondrecall.checksums import verify_snapshot
    from media_cache.check import decode_check

    from evaluator.commands._common import task_files_of
    from evaluator.datasets import data_dir

    snapshot = data_dir("beyondrecall", args.data, quiet=args.json)
    # --deep: media are decoded by media_cache, within its bounds (the data layer opens none)
    report = verify_snapshot(snapshot, workers=args.workers, strict=args.strict,
                             decode=decode_check if args.deep else None,
                             progress=not args.no_progress and sys.stderr.isatty(),
                             task_files=task_files_of(args))
    share_hashes(report)
    return print_report(report, as_json=args.json)


def verify_realcompanion(args) -> int:
    """The RealCompanion release found as `run` finds it (realcompanion.data.rc_data_dir), against
    the checksum list given with it; the first line names the folder (stderr with --json)."""
    from evaluator.realcompanion.data import rc_data_dir
    from evaluator.realcompanion.verify import verify_release

    other = [flag for flag, given in (("--data", args.data), ("--task-file", args.task_file),
                                      ("--deep", args.deep), ("--strict", args.strict)) if given]
    if other:
        print(f"br-eval verify: error: {other[0]} is for Beyond Recall snapshots; a RealCompanion "
              "release is verified against its own SHA256SUMS only", file=sys.stderr)
        return 2
    root = rc_data_dir(args.rc_data)
    print(f"br-eval: RealCompanion data: {root}", file=sys.stderr if args.json else sys.stdout)
    return print_report(verify_release(root, workers=args.workers), as_json=args.json)


def share_hashes(report) -> int:
    """Give the media cache the sha256 of every media file verify just hashed (and found
    unchanged meanwhile), so preparing them later does not read the same bytes again."""
    from beyondrecall.files import media_kind
    from media_cache import MediaCache

    cache = MediaCache()
    kept = 0
    for real, (sha, size, mtime_ns, ino, ctime_ns) in report.hashed.items():
        if media_kind(real):
            kept += cache.remember_sha256(real, sha, size, mtime_ns, ino, ctime_ns)
    return kept


def print_report(report, as_json: bool = False) -> int:
    if as_json:
        import json

        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        for f in report.findings:
            print(f.line())
        if report.fingerprint.get("note"):
            print(f"note: {report.fingerprint['note']}")
        print(f"br-eval verify: {report.summary()}", file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1
