"""`br-eval cache`: inspect (`info`, the default) or clean (`prune`) the media cache.

`info` prints the cache folder, its size, and entries and bytes per operation, plus what `prune`
would remove, and lists damaged entries (a file missing or of another size than when it was
written; `--verify` also reads every file and checks its recorded CRC-32). `br-eval prepare`
rebuilds damaged entries from their source files. `prune` removes entries written by an older producer version, folders whose name
is not the key their manifest describes, entries with missing files, temporary folders of
interrupted writes older than --temp-age, stale lock files and hash memos of changed or deleted
files. `prune --all` removes every entry. Prune only ever removes what br-eval wrote and recognises
(entries whose manifest parses, its own temporaries, memos and locks); it never follows a symbolic
link, leaves anything else alone, and refuses a folder without the cache's marker file.
"""

from __future__ import annotations

import argparse
import sys

from beyondrecall.files import human_bytes


def add_cache_dir_arg(parser, default=None) -> None:
    parser.add_argument("--cache-dir", "--cache_dir", dest="cache_dir", default=default, metavar="DIR",
                        help="media cache folder (default: $BR_EVAL_CACHE, else $BR_EVAL_HOME/media, "
                             "else ~/.cache/br-eval/media)")


def add_arguments(parser) -> None:
    add_cache_dir_arg(parser)
    sub = parser.add_subparsers(dest="cache_action", metavar="ACTION")
    info = sub.add_parser("info", help="size and entry counts per operation (the default)")
    # SUPPRESS: an action's own default must not overwrite `br-eval cache --cache-dir X info`.
    add_cache_dir_arg(info, default=argparse.SUPPRESS)
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.add_argument("--verify", action="store_true",
                      help="also read every file and check the CRC-32 recorded when it was written "
                           "(sizes are always checked)")
    prune = sub.add_parser("prune", help="remove entries that no longer match a key, and leftovers")
    add_cache_dir_arg(prune, default=argparse.SUPPRESS)
    prune.add_argument("--dry-run", "--dry_run", dest="dry_run", action="store_true",
                       help="only say what would be removed")
    prune.add_argument("--all", dest="everything", action="store_true",
                       help="remove every entry (empty the cache)")
    prune.add_argument("--temp-age", "--temp_age", dest="temp_age", type=float, default=3600.0,
                       metavar="SECONDS",
                       help="remove unfinished writes older than this (default: %(default)g; "
                            "younger ones may belong to a running prepare)")


def main(args) -> int:
    from media_cache.store import Store

    action = getattr(args, "cache_action", None) or "info"
    store = Store(args.cache_dir)
    if action == "prune":
        if args.temp_age < 0:
            print("br-eval cache: error: --temp-age must be >= 0", file=sys.stderr)
            return 2
        return _prune(store, args)
    return _info(store, getattr(args, "json", False), getattr(args, "verify", False))


def _info(store, as_json: bool, verify: bool = False) -> int:
    from beyondrecall.files import printable

    info = store.info(verify=verify)
    if as_json:
        import json

        print(json.dumps({
            "root": str(info.root), "total_bytes": info.total_bytes, "entries": info.entries,
            "operations": {op: {"entries": o.entries, "bytes": o.bytes} for op, o in sorted(info.ops.items())},
            "invalid": info.invalid, "invalid_bytes": info.invalid_bytes,
            "temporary": info.temp, "temporary_bytes": info.temp_bytes, "hash_memos": info.hash_memos,
            "damaged": [{"operation": op, "entry": str(path), "problem": problem}
                        for op, path, problem in info.damaged],
            "checksums_verified": verify,
        }))
        return 1 if info.damaged else 0
    print(f"media cache: {info.root}")
    if not info.root.is_dir():
        print("  (empty: nothing prepared yet; see `br-eval prepare`)")
        return 0
    print(f"  {info.entries} entries, {human_bytes(info.total_bytes)} in all")
    if info.ops:
        width = max(len(op) for op in info.ops)
        print(f"  {'operation'.ljust(width)}  {'entries':>8}  {'size':>10}")
        for op, o in sorted(info.ops.items()):
            print(f"  {op.ljust(width)}  {o.entries:>8}  {human_bytes(o.bytes):>10}")
    print(f"  source hash memos: {info.hash_memos}")
    if not info.marked:
        print("  (no br-eval marker file: `br-eval cache prune` will refuse this folder)")
    if info.foreign:
        print(f"  {info.foreign} items that are not br-eval entries (prune leaves them alone)")
    if info.invalid or info.temp:
        print(f"  stale or invalid entries: {info.invalid} ({human_bytes(info.invalid_bytes)}); "
              f"unfinished writes: {info.temp} ({human_bytes(info.temp_bytes)}); "
              "`br-eval cache prune` removes them")
    for op, path, problem in info.damaged:
        print(printable(f"  damaged {op} entry {path}: {problem}"))
    if info.damaged:
        print(f"  {len(info.damaged)} damaged entries ({human_bytes(info.damaged_bytes)}): `br-eval "
              "prepare` rebuilds them from their media files (a run does too, as it uses them)",
              file=sys.stderr)
        return 1
    return 0


def _prune(store, args) -> int:
    report = store.prune(temp_age=args.temp_age, everything=args.everything, dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    alone = (f"; left alone {report.left_alone} items that are not br-eval entries"
             if report.left_alone else "")
    if args.everything:
        print(f"{verb} every entry under {store.root}: {report.removed_invalid} entries, "
              f"{report.removed_temp} unfinished writes, {report.removed_memos} hash memos "
              f"({human_bytes(report.freed_bytes)}){alone}")
        return 0
    print(f"{verb} {report.removed_invalid} stale or invalid entries, {report.removed_temp} "
          f"unfinished writes, {report.removed_locks} lock files, {report.removed_memos} hash memos "
          f"({human_bytes(report.freed_bytes)}); kept {report.kept} entries in {store.root}{alone}")
    return 0
