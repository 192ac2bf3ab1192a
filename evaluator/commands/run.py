"""`br-eval run` (the default command): parse the flags, call `evaluator.evaluate`, print."""

from __future__ import annotations

import sys

from evaluator.commands._common import add_alias, add_data_arg, add_lenient_arg, add_rc_args

def add_arguments(parser) -> None:
    # Accepted values come from where they are checked, so --help lists every one.
    from evaluator.agents.builtin import agent_args_help
    from evaluator.models import model_args_help
    from evaluator.realcompanion.chat_track import CONDITIONS

    parser.add_argument("--tasks", "--task", dest="tasks", action="append", default=None,
                        metavar="TASKS",
                        help="task names, dimensions (management, reasoning, retrieval), "
                             "realcompanion, beyondrecall or all; comma-separated or repeated")
    parser.add_argument("--agent", default=None,
                        help="full-context (the default with --model), rag, recent, none, "
                             "mem0, baseline (the default without --model: weight-free, no "
                             "model), or "
                             "package.module:Class (searched in the current folder and "
                             "--include_path)")
    add_alias(parser, "include_path", action="append", default=None, metavar="DIR",
              help="a folder to import --agent/--detector modules from (repeatable)")
    parser.add_argument("--model", default=None, choices=["hf", "openai", "mock"],
                        help="model backend for the agent (default: none)")
    add_alias(parser, "model_args", default="", help=f"backend settings, k=v,... ({model_args_help()})")
    add_alias(parser, "agent_args", default="", help="agent settings, k=v,... "
              f"({agent_args_help()}; media=images|text|none, optionally +audio; your own "
              "agent: its AGENT_ARGS)")
    add_alias(parser, "gen_kwargs", default="", help="generation settings, k=v,... (every "
              "backend sends temperature=0,max_tokens=512 unless set here; stop=a|b gives two "
              "stop strings)")
    parser.add_argument("--judge", default=None, choices=["openai", "mock"],
                        help="score with an LLM judge on an OpenAI-compatible server")
    add_alias(parser, "judge_args", default="", help="judge settings: openai: base_url=,model=,api_key=,max_tokens=,seed=,timeout=,"
                   "max_retries=,backoff=,concurrency=,prompt=,temporal_prompt=,update_prompt=,"
                   "abstention_prompt=,repeats=; mock: replies= (docs/scoring.md, \"A judge\")")
    add_alias(parser, "judge_repeats", type=int, default=1, metavar="K",
              help="judge each item K times; the most frequent verdict counts and the agreement "
                   "is reported")
    parser.add_argument("--limit", type=int, default=None, help="at most N questions per task")
    from evaluator.commands._common import add_unanswerable_arg

    add_unanswerable_arg(parser)
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
    add_rc_args(parser)
    parser.add_argument("--frames", type=int, default=8, help="frames sampled per video")
    parser.add_argument("--fps", type=float, default=None, help="sample videos at this rate instead")
    parser.add_argument("--dpi", type=int, default=None, help="PDF rendering resolution")
    parser.add_argument("--captions", action="store_true", help="add CLIP captions to media text")
    parser.add_argument("--clip-model", "--clip_model", dest="clip_model", default=None)
    parser.add_argument("--clip-pretrained", "--clip_pretrained", dest="clip_pretrained",
                        default=None, help="open_clip checkpoint file, or a pretrained tag[@revision] fetched from the Hub")
    parser.add_argument("--video-backend", "--video_backend", dest="video_backend",
                        default="pyav", choices=["pyav", "decord"])
    parser.add_argument("--conditions", default=None, metavar="C0,C1,...",
                        help="realcompanion/chat: fixed context conditions for the --model "
                             f"generator ({' '.join(CONDITIONS)}) instead of the agent's own memory")
    parser.add_argument("--detector", default=None,
                        help="realcompanion/retrieval: restraint detector package.module:function")
    add_lenient_arg(parser)
    parser.add_argument("--asr", default=None, metavar="MODEL",
                        help="speech-recognition model folder or Hub id[@revision] (e.g. openai/whisper-tiny): video "
                             "transcripts for models that take no audio")
    parser.add_argument("--asr-language", "--asr_language", dest="asr_language", default=None)
    parser.add_argument("--raise", "--debug", dest="raise_errors", action="store_true",
                        help="stop at the first failing item and show its traceback")
    parser.add_argument("--no-progress", "--no_progress", dest="progress", action="store_false")
    parser.add_argument("--overwrite", action="store_true",
                        help="start the run folder afresh even if it holds other settings")
    parser.add_argument("--shard", default=None, metavar="I/N",
                        help="run shard I of N (0-based; whole trajectories/participants) into "
                             "its own files of --output_path; `br-eval merge` joins the shards")
    parser.add_argument("--executor", default="local", choices=["local", "ray"],
                        help="local threads (default), or Ray: one task per trajectory/participant "
                             "on a Ray cluster (pip install 'br-eval[ray]')")
    add_alias(parser, "ray_address", default=None, metavar="ADDR",
              help="Ray cluster to join (default: start a local one)")
    add_alias(parser, "ray_num_gpus", type=float, default=0, metavar="G",
              help="GPUs per Ray task (an agent with a local model)")
    add_alias(parser, "ray_num_cpus", type=float, default=1, metavar="C", help="CPUs per Ray task")
    parser.add_argument("--shards", type=int, default=None, metavar="N",
                        help="N shards, this one's index from SLURM_ARRAY_TASK_ID or "
                             "JOB_COMPLETION_INDEX")


def kv(text: str, flag: str) -> dict:
    from evaluator.errors import UsageError
    from evaluator.models import parse_kv_args

    try:
        return parse_kv_args(text or "")
    except ValueError as exc:
        raise UsageError(f"--{flag}: {exc}") from None


def main(args) -> int:
    from evaluator.context import MediaSettings

    if not args.tasks:
        print("br-eval: error: no task given: pass --task NAME (see `br-eval ls`)", file=sys.stderr)
        return 2
    media = MediaSettings(frames=args.frames, fps=args.fps, dpi=args.dpi, captions=args.captions,
                          clip_model=args.clip_model, clip_pretrained=args.clip_pretrained,
                          video_backend=args.video_backend, asr=args.asr,
                          asr_language=args.asr_language)
    from evaluator.sharding import parse_shard

    shard = parse_shard(args.shard, args.shards)
    executor = None
    if args.executor == "ray":
        from evaluator.ray_executor import RayExecutor

        executor = RayExecutor(args.ray_address, args.ray_num_gpus, args.ray_num_cpus)
    from evaluator.errors import ItemFailed

    try:
        results = run_evaluate(args, media, shard, executor)
    except ItemFailed as exc:          # --raise: the item's own traceback, then stop
        print(exc.sample.traceback or "", file=sys.stderr, end="")
        print(f"br-eval: stopped at {exc} (--raise); it is journaled, rerun without --raise "
              "to go on", file=sys.stderr)
        return 1
    return report(results, shard)


def run_evaluate(args, media, shard, executor):
    from evaluator.commands._common import task_files_of
    from evaluator.evaluate import evaluate

    rc_data = args.rc_data
    if args.rc_adapter:        # the adapter's records, checked, in br-eval's layout
        from evaluator.plugins import add_include_paths
        from evaluator.realcompanion.adapter import adapted_data_dir

        add_include_paths(args.include_path)
        rc_data = str(adapted_data_dir(args.rc_data, args.rc_adapter))

    return evaluate(
        args.tasks, agent=args.agent, agent_args=kv(args.agent_args, "agent_args"),
        model=args.model, model_args=kv(args.model_args, "model_args"),
        gen_kwargs=kv(args.gen_kwargs, "gen_kwargs"), judge=args.judge,
        judge_args=kv(args.judge_args, "judge_args"), judge_repeats=args.judge_repeats,
        data=args.data, rc_data=rc_data, task_files=task_files_of(args),
        include_path=args.include_path, raise_errors=args.raise_errors,
        output_path=args.output_path, media=media, limit=args.limit, seed=args.seed,
        num_concurrent=args.num_concurrent, log_samples=args.log_samples,
        use_cache=args.use_cache, conditions=args.conditions, detector=args.detector,
        lenient_time=args.lenient_time, overwrite=args.overwrite, unanswerable=args.unanswerable,
        progress=None if args.progress else False, shard=shard,
        executor=executor)


def report(results, shard=None) -> int:
    from evaluator.commands.report import print_table

    entries = {n: r.to_json() for n, r in results.tasks.items()}
    header = results.header
    if shard is None:
        # the folder as results.json holds it: the model an earlier run recorded (a rerun that
        # asks nothing does not rewrite it), and tasks of earlier runs, which its overall covers
        from evaluator.results import RunDir

        header = RunDir(results.run_dir, create=False).read_results() or header
        entries = {**(header.get("results") or {}), **entries}
    print_table(header | {"results": entries}, only=list(results.tasks))
    print(f"results: {results.results_path}"
          + (f" (shard {shard[0]}/{shard[1]}: `br-eval merge {results.run_dir}` joins the shards)"
             if shard else ""))
    judge_errors = sum(r.n_judge_errors for r in results.tasks.values())
    if judge_errors:
        print(f"br-eval: the judge failed on {judge_errors} answered item(s): judge errors, not "
              "scores (`judge.error` in the samples journals); `br-eval score "
              f"{results.run_dir} --judge ...` retries them", file=sys.stderr)
    from evaluator.commands._common import pending_judge_line

    pending = pending_judge_line(results, results.run_dir)
    if pending:
        print(pending, file=sys.stderr)
    if results.n_failed:
        units = {r.unit for r in results.tasks.values() if r.n_failed}
        unit = units.pop() if len(units) == 1 else "item"
        first = next((r.first_error for r in results.tasks.values()
                      if r.n_failed and r.first_error), None)
        print(f"br-eval: {results.n_failed} {unit}(s) failed"
              + (f" (first: {first})" if first else "")
              + "; see `error` and `traceback` in the samples journals; rerun the same command "
              "to retry them, or add --raise to stop at the first with its traceback",
              file=sys.stderr)
    return 1 if results.n_failed or judge_errors or pending else 0
