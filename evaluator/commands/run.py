"""`br-eval run` (the default command): run an agent on tasks and score it."""

from __future__ import annotations

import sys

from evaluator.commands._common import add_alias, add_data_arg, add_lenient_arg

# Settings that change the answers: a run folder holding answers made with other settings is
# not resumed into (its journal would mix two configurations).
ANSWER_SETTINGS = ("agent", "model", "model_args", "agent_args", "gen_kwargs", "frames", "fps",
                   "dpi", "captions", "clip_model", "clip_pretrained", "video_backend")


def add_arguments(parser) -> None:
    parser.add_argument("--tasks", "--task", dest="tasks", action="append", default=None,
                        metavar="TASKS",
                        help="task names, dimensions (management, reasoning, retrieval), "
                             "realcompanion, beyondrecall or all; comma-separated or repeated")
    parser.add_argument("--agent", default="baseline",
                        help="baseline (default, weight-free), full-context, rag, recent, none, "
                             "or package.module:Class")
    parser.add_argument("--model", default=None, choices=["hf", "openai", "mock"],
                        help="model backend for the agent (default: none)")
    add_alias(parser, "model_args", default="", help="backend settings, k=v,... "
              "(hf: pretrained=,dtype=,device=; openai: base_url=,model=,concurrency=; "
              "mock: replies=FILE)")
    add_alias(parser, "agent_args", default="", help="agent settings, k=v,... "
              "(max_context_tokens=, top_k=, last=, n=, media=images|text|none)")
    add_alias(parser, "gen_kwargs", default="", help="generation settings, k=v,... "
              "(temperature=0,max_tokens=256)")
    parser.add_argument("--judge", default=None, choices=["openai", "mock"],
                        help="score with an LLM judge on an OpenAI-compatible server")
    add_alias(parser, "judge_args", default="", help="judge settings: base_url=,model=,api_key=")
    parser.add_argument("--limit", type=int, default=None, help="at most N questions per task")
    parser.add_argument("--seed", type=int, default=0, help="seed for sampling and bootstrap")
    add_alias(parser, "output_path", default=None, metavar="DIR",
              help="run folder (default: ./br-eval-results/<agent>[-<model>]); rerunning into it "
                   "resumes")
    add_alias(parser, "log_samples", action="store_true",
              help="also write each full prompt into the samples journal")
    add_alias(parser, "use_cache", nargs="?", const="", default=None, metavar="SQLITE",
              help="cache model and judge responses in SQLite (default file in the br-eval home)")
    add_alias(parser, "num_concurrent", type=int, default=None,
              help="questions answered at once (default: the backend's concurrency, else 1)")
    add_data_arg(parser)
    parser.add_argument("--rc-data", "--rc_data", dest="rc_data", default=None, metavar="DIR",
                        help="RealCompanion folder (default: the generated sample)")
    parser.add_argument("--frames", type=int, default=8, help="frames sampled per video")
    parser.add_argument("--fps", type=float, default=None, help="sample videos at this rate instead")
    parser.add_argument("--dpi", type=int, default=None, help="PDF rendering resolution")
    parser.add_argument("--captions", action="store_true", help="add CLIP captions to media text")
    parser.add_argument("--clip-model", "--clip_model", dest="clip_model", default=None)
    parser.add_argument("--clip-pretrained", "--clip_pretrained", dest="clip_pretrained",
                        default=None, help="local open_clip checkpoint file")
    parser.add_argument("--video-backend", "--video_backend", dest="video_backend",
                        default="pyav", choices=["pyav", "decord"])
    parser.add_argument("--conditions", default=None, metavar="C0,C1,...",
                        help="realcompanion/chat: fixed context conditions for the --model "
                             "generator (C0 C1 C2 C3 C4 C4m) instead of the agent's own memory")
    parser.add_argument("--detector", default=None,
                        help="realcompanion/retrieval: restraint detector package.module:function")
    add_lenient_arg(parser)
    parser.add_argument("--no-progress", "--no_progress", dest="progress", action="store_false")
    parser.add_argument("--overwrite", action="store_true",
                        help="start the run folder afresh even if it holds other settings")


def _kv(text: str, flag: str) -> dict:
    from evaluator.errors import EvalError
    from evaluator.models import parse_kv_args

    try:
        return parse_kv_args(text or "")
    except ValueError as exc:
        raise EvalError(f"--{flag}: {exc}") from None


def default_output_path(args) -> str:
    import re

    name = args.agent.split(":")[-1]
    if args.model:
        name += f"-{args.model}"
        ident = _kv(args.model_args, "model_args")
        label = ident.get("pretrained") or ident.get("model")
        if label:
            name += "-" + re.sub(r"[^A-Za-z0-9._-]+", "_", str(label).split("/")[-1])
    return f"br-eval-results/{name}"


def main(args) -> int:
    from pathlib import Path

    from evaluator.context import RunContext
    from evaluator.errors import EvalError
    from evaluator.registry import resolve
    from evaluator.results import RunDir, provenance

    if not args.tasks:
        print("br-eval: error: no task given: pass --task NAME (see `br-eval ls`)", file=sys.stderr)
        return 2
    if args.fps is not None and args.fps <= 0:
        raise EvalError("--fps must be positive")
    specs = resolve(args.tasks)
    model_args = _kv(args.model_args, "model_args")
    agent_args = _kv(args.agent_args, "agent_args")
    gen_kwargs = _kv(args.gen_kwargs, "gen_kwargs")
    judge_args = _kv(args.judge_args, "judge_args")
    if gen_kwargs:
        agent_args = {**agent_args, "gen_kwargs": gen_kwargs}
    if args.limit is not None and args.limit < 1:
        raise EvalError("--limit must be at least 1")

    settings = {"agent": args.agent, "model": args.model, "model_args": _public(model_args),
                "agent_args": {k: v for k, v in agent_args.items() if k != "gen_kwargs"},
                "gen_kwargs": gen_kwargs, "frames": None if args.fps else args.frames,
                "fps": args.fps, "dpi": args.dpi, "captions": args.captions,
                "clip_model": args.clip_model, "clip_pretrained": args.clip_pretrained,
                "video_backend": args.video_backend}
    data_info = None
    snapshot = None
    if any(s.suite == "beyondrecall" for s in specs):
        from beyondrecall.snapshot import resolve_data_dir, snapshot_info

        snapshot = resolve_data_dir(args.data)
        data_info = snapshot_info(snapshot).__dict__
    rc_data = Path(args.rc_data) if args.rc_data else None
    if any(s.suite == "realcompanion" for s in specs):
        from evaluator.realcompanion.data import resolve_rc_data

        rc_data = Path(resolve_rc_data(args.rc_data))   # once, so the sample notice shows once

    out = Path(args.output_path or default_output_path(args))
    run_dir = RunDir(out)
    if args.overwrite:
        for f in list(out.glob("samples_*.jsonl")) + [run_dir.results_path]:
            f.unlink(missing_ok=True)
    previous = run_dir.read_results()
    # The journal's keys say nothing about which data answered them: a folder that holds answers
    # on other data or with other settings is never resumed into.
    identity = {"data_fingerprint": data_info and data_info.get("fingerprint"),
                "rc_data": str(rc_data) if rc_data else None}
    old_identity = previous.get("config", {}).get("data_identity", {})
    clashes = [k for k, v in identity.items() if v and old_identity.get(k) and old_identity[k] != v]
    old_settings = previous.get("config", {}).get("settings")
    if old_settings is not None and old_settings != settings:
        clashes += sorted(k for k in set(old_settings) | set(settings)
                          if old_settings.get(k) != settings.get(k))
    if clashes:
        raise EvalError(f"{out} holds a run with other settings or data ({', '.join(clashes)}); "
                        "pass another --output_path, or --overwrite to start it afresh")
    identity = {k: v or old_identity.get(k) for k, v in identity.items()}

    if args.captions:
        # Fail before any question rather than record the same missing-weights error on each.
        from media_cache import MediaCache
        from media_cache.clip import resolve_clip

        resolve_clip(args.clip_model or "ViT-B-32", args.clip_pretrained, MediaCache().sha256)

    use_cache = None
    if args.use_cache is not None:
        from beyondrecall.snapshot import home_dir

        use_cache = Path(args.use_cache) if args.use_cache else home_dir() / "responses.sqlite"

    ctx = RunContext(run_dir=run_dir, seed=args.seed, limit=args.limit,
                     log_samples=args.log_samples, data=snapshot,
                     rc_data=rc_data, agent=args.agent,
                     model=args.model, model_args=model_args, gen_kwargs=gen_kwargs,
                     agent_args=agent_args, judge=args.judge, judge_args=judge_args,
                     use_cache=use_cache, show_progress=args.progress and sys.stderr.isatty(),
                     extra={"frames": args.frames, "fps": args.fps, "dpi": args.dpi,
                            "captions": args.captions, "clip_model": args.clip_model,
                            "clip_pretrained": args.clip_pretrained,
                            "video_backend": args.video_backend, "detector": args.detector,
                            "conditions": args.conditions,
                            "lenient_time": args.lenient_time,
                            "num_concurrent": args.num_concurrent})
    if args.model:
        from evaluator.models import make_model

        ctx.extra["_model"] = make_model(args.model, model_args, cache_path=use_cache)
        if ctx.extra["num_concurrent"] is None:
            ctx.extra["num_concurrent"] = getattr(ctx.extra["_model"], "concurrency", 1)
    if args.judge:
        from evaluator.scoring import make_judge

        ctx.extra["_judge"] = make_judge(args.judge, judge_args, cache_path=use_cache)

    # A folder may be filled by several runs (other tasks, a larger --limit): keep what the
    # earlier ones recorded.
    tasks = list(dict.fromkeys(previous.get("config", {}).get("tasks", []) + [s.name for s in specs]))
    header = {"config": {"tasks": tasks, "settings": settings,
                         "judge": args.judge, "judge_args": _public(judge_args),
                         "limit": args.limit, "seed": args.seed,
                         "rc_data": str(rc_data) if rc_data else None,
                         "data_identity": identity},
              "data": data_info or previous.get("data"), **provenance()}
    if ctx.extra.get("_judge") is not None:
        header["judge"] = ctx.extra["_judge"].describe()
    run_dir.write_results(header)
    failed = 0
    try:
        for spec in specs:
            metrics = spec.load_runner()(ctx, spec)
            run_dir.write_results({"results": {spec.name: metrics}})
            failed += int(metrics.get("n_failed", 0) or 0)
    finally:
        run_dir.close()
    from evaluator.commands.report import print_table

    print_table(run_dir.read_results(), only=[s.name for s in specs])
    print(f"results: {run_dir.results_path}")
    if failed:
        print(f"br-eval: {failed} question(s) failed (see `error` in the samples journals); "
              "rerun the same command to retry them", file=sys.stderr)
        return 1
    return 0


def _public(args: dict) -> dict:
    """Never write keys into results files."""
    def secret(k: str) -> bool:
        k = k.lower()
        return k in {"key", "token", "password", "secret"} or k.endswith(
            ("_key", "_token", "_secret", "_password")) and not k.startswith("max_")

    return {k: ("***" if secret(k) else v) for k, v in args.items()}
