"""`br-eval download`: fetch a release from the Hugging Face Hub, record its commit, verify it.

RealCompanion has no Hub repository that any source names: `--dataset realcompanion` alone says
where its paper publishes it and how to point `--rc-data` at a copy (no network call, exit 1);
with `--repo OWNER/NAME` it downloads a mirror the user names.

Honours HF_ENDPOINT, HF_TOKEN (or `hf auth login`) and HF_HUB_OFFLINE. A rerun after an
interruption resumes: finished files are kept and not fetched again.
"""

from __future__ import annotations

import sys


def add_arguments(parser) -> None:
    parser.add_argument("--dataset", choices=("beyondrecall", "realcompanion"),
                        default="beyondrecall",
                        help="which release (default: beyondrecall; realcompanion alone says "
                             "where its paper publishes it: it is not on the Hub)")
    parser.add_argument("--repo", default=None, metavar="OWNER/NAME",
                        help="Hub dataset repository (default: Moritze-Chenyu/BeyondRecall; with "
                             "--dataset realcompanion, a mirror you name)")
    parser.add_argument("--revision", default=None, metavar="REV",
                        help="branch, tag or commit sha to pin (default: main)")
    parser.add_argument("--local-dir", "--local_dir", dest="local_dir", default=None, metavar="DIR",
                        help="where to put the snapshot (default: the folder the other "
                             "commands look in)")
    parser.add_argument("--workers", type=int, default=8, metavar="N",
                        help="parallel file transfers, also used for verifying (default: 8)")
    parser.add_argument("--no-verify", "--no_verify", dest="no_verify", action="store_true",
                        help="skip the checksum verification after the download")
    parser.add_argument("--no-progress", "--no_progress", dest="no_progress", action="store_true",
                        help="no progress bars on stderr")


def main(args) -> int:
    if args.workers < 1:
        print(f"br-eval download: error: --workers must be at least 1 (got {args.workers})",
              file=sys.stderr)
        return 2
    from beyondrecall.hub import download

    progress = not args.no_progress
    result = download(repo=args.repo, dataset=args.dataset, revision=args.revision,
                      local_dir=args.local_dir, max_workers=args.workers, progress=progress)
    where = f"{result.repo}@{result.commit or result.revision}"
    if result.offline:
        print(f"br-eval download: offline (HF_HUB_OFFLINE): using the copy of {where} in "
              f"{result.path}", file=sys.stderr)
    else:
        print(f"br-eval download: {where} is in {result.path}", file=sys.stderr)
    if args.dataset == "realcompanion":
        print(f"br-eval download: pass --rc-data {result.path} to the other commands",
              file=sys.stderr)
    if args.no_verify:
        return 0
    if args.dataset == "realcompanion":
        from evaluator.commands.verify import print_report
        from evaluator.realcompanion.verify import LISTS, verify_release

        if not any((result.path / name).is_file() for name in LISTS):
            print(f"br-eval download: {result.repo} publishes no SHA256SUMS list; nothing to "
                  f"verify", file=sys.stderr)
            return 0
        return print_report(verify_release(result.path, workers=min(args.workers, 4)))
    if not ((result.path / "checksums" / "SHA256SUMS").is_file()
            or (result.path / "benchmark" / "SHA256SUMS").is_file()):
        print(f"br-eval download: {result.repo} publishes no SHA256SUMS lists; nothing to verify",
              file=sys.stderr)
        return 0
    from beyondrecall.checksums import verify_snapshot
    from evaluator.commands.verify import print_report, share_hashes

    report = verify_snapshot(result.path, workers=min(args.workers, 4),
                             progress=progress and sys.stderr.isatty())
    share_hashes(report)
    code = print_report(report)
    if result.offline and any(f.kind == "missing" for f in report.findings):
        print("br-eval download: the copy is incomplete, and offline (HF_HUB_OFFLINE) nothing can "
              "be fetched: rerun without HF_HUB_OFFLINE to fetch the missing files",
              file=sys.stderr)
    return code
