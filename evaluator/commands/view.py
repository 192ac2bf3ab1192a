"""`br-eval view RUN_DIR [RUN_DIR ...]`: one self-contained HTML report (no network needed)."""

from __future__ import annotations

import sys


def add_arguments(parser) -> None:
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="run folders (hold results.json)")
    parser.add_argument("-o", "--output", help="the HTML file to write, or a folder to write "
                        "report.html in (default RUN_DIR/report.html of the first run)")
    parser.add_argument("--open", action="store_true", help="open the report in the default browser")
    parser.add_argument("--no-thumbnails", action="store_true",
                        help="leave media thumbnails out (a smaller file)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed of the paired comparison")


def main(args) -> int:
    from pathlib import Path

    from evaluator.errors import EvalError

    try:
        import jinja2  # noqa: F401
    except ModuleNotFoundError:
        raise EvalError("br-eval view needs Jinja2: pip install 'br-eval[view]'") from None
    from evaluator.view.report import write_report
    from evaluator.view.runs import foreign_warnings, load_run

    from evaluator.commands._common import merged

    runs = [load_run(merged(p)) for p in args.run_dirs]
    for run in runs:            # the page shows them as they are; the folder mixes runs
        for line in foreign_warnings(run):
            print(f"br-eval: warning: {line}", file=sys.stderr)
    out = Path(args.output) if args.output else runs[0].path / "report.html"
    out = write_report(runs, out, thumbnails=not args.no_thumbnails, seed=args.seed)
    size = out.stat().st_size
    print(f"report: {out} ({size / 1e6:.1f} MB, {sum(len(r.samples) for r in runs)} journals)")
    if args.open:
        import webbrowser

        webbrowser.open(out.resolve().as_uri())
    return 0
