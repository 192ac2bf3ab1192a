"""`br-eval merge RUN_DIR`: join the shards of a sharded run (`br-eval run --shard I/N`) into one
results.json, aggregated exactly as an unsharded run would be. Missing or partial shards are
named (one line each) and the exit status is 1; what the shards finished is still merged."""

from __future__ import annotations

import sys


def add_arguments(parser) -> None:
    parser.add_argument("run_dir", help="the shared run folder the shards wrote into")
    parser.add_argument("--no-progress", "--no_progress", dest="progress", action="store_false")


def main(args) -> int:
    from evaluator.commands.report import print_table
    from evaluator.evaluate import merge

    results, problems = merge(args.run_dir, progress=None if args.progress else False)
    print_table(results)
    print(f"results: {args.run_dir.rstrip('/')}/results.json")
    if problems:
        print(f"br-eval: merge: {len(problems)} shard problem(s) (above); rerun the named shards "
              "and merge again", file=sys.stderr)
        return 1
    return 0
