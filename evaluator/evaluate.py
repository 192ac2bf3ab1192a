"""`evaluate()`: the one entry point of a run, and the one loop that runs every task.

    evaluate(tasks, agent, model, judge, data, ...) ->
        resolve the tasks and data; refuse a folder that holds other answers; prepare each task
        (settings checked, data loaded) before anything is journaled ->
        [solve phase] every item of every task not yet in the journal, with bounded concurrency
            across the whole run: solve (fresh agent), score without a judge, append a Sample ->
        [judge phase] every answered item the judge has not graded yet (or failed on) ->
        aggregate each task from its journal -> results.json -> EvalResults

`br-eval run` parses flags and calls `evaluate`; `br-eval score` calls `rescore`, which runs the
judge phase and the aggregation over an existing folder without the agent; `br-eval merge` calls
`merge`, the aggregation over a sharded folder's journals. Tasks are declared in
evaluator/task.py's shape; journal lines are written only by evaluator/results.py.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluator.context import MediaSettings, RunContext, RunSettings
from evaluator.errors import EvalError, ItemFailed, UsageError, one_line, record_failure
from evaluator.records import Sample, TaskResult
from evaluator.results import RunDir, mend_surrogates, provenance
from evaluator.runlock import RunLock
from evaluator.sharding import assign, shard_filter
from evaluator.task import edited_replies, reply_digest

@dataclass
class EvalResults:
    run_dir: Path
    tasks: dict[str, TaskResult]
    header: dict = field(default_factory=dict)

    @property
    def results_path(self) -> Path:
        return self.run_dir / "results.json"

    @property
    def n_failed(self) -> int:
        return sum(r.n_failed for r in self.tasks.values())

    def __getitem__(self, task: str) -> dict:
        """A task's results.json entry."""
        return self.tasks[task].to_json()


def public(args: dict) -> dict:
    """Never write keys into results files: values of key-like names, and the secrets of URLs
    (evaluator.errors.redact_url)."""
    from evaluator.errors import redact_url

    def secret(k: str) -> bool:
        k = k.lower()
        return k in {"key", "token", "password", "secret"} or k.endswith(
            ("_key", "_token", "_secret", "_password")) and not k.startswith("max_")

    return {k: ("***" if secret(k) else redact_url(v)) for k, v in args.items()}


def default_output_path(agent: str, model: str | None, model_args: dict) -> str:
    import re

    name = agent.split(":")[-1]
    if model:
        name += f"-{model}"
        label = model_args.get("pretrained") or model_args.get("model")
        if label:
            name += "-" + re.sub(r"[^A-Za-z0-9._-]+", "_", str(label).split("/")[-1])
    return f"br-eval-results/{name}"


# Built-in agents that answer with a model; `baseline` needs none.
MODEL_AGENTS = ("full-context", "rag", "recent", "none", "mem0")


def evaluate(tasks, *, agent: str | None = None, agent_args: dict | None = None,
             model: Any = None, model_args: dict | None = None, gen_kwargs: dict | None = None,
             judge: Any = None, judge_args: dict | None = None, judge_repeats: int = 1,
             data=None, rc_data=None, task_files: dict | None = None, output_path=None,
             media: MediaSettings | None = None, limit: int | None = None, seed: int = 0,
             num_concurrent: int | None = None, log_samples: bool = False, use_cache=None,
             conditions=None, detector: str | None = None, include_path=None,
             lenient_time: bool = False, overwrite: bool = False, raise_errors: bool = False,
             progress: bool | None = None, announce: bool = True,
             shard: tuple[int, int] | None = None, executor=None,
             unanswerable: str | None = None) -> EvalResults:
    """Run `tasks` (names, groups, or TaskSpecs) and return their results.

    agent: a built-in name or "package.module:Class" (default: `full-context` when a model is
    given, else the weight-free `baseline`). model / judge: a backend name ("hf", "openai",
    "mock") built from model_args / judge_args, or a live object (a ChatModel, a Judge); a
    backend answers one tiny request (the preflight) before anything is journaled. data: the
    Beyond Recall snapshot (default: the configured one, else the generated sample); rc_data: the
    RealCompanion folder (default: the generated sample). output_path: the run folder (rerunning
    into it resumes). raise_errors: stop at the first failing item with its traceback (for
    developing an agent). progress: None shows a bar when stderr is a terminal and periodic lines
    when it is not. announce: print the first lines (agent, model, data). shard: (I, N) runs
    shard I of N (evaluator/sharding.py) into its own journal files of output_path. executor:
    None runs items on local threads; an evaluator.ray_executor.RayExecutor runs them on Ray.
    unanswerable: which questions are unanswerable, `gold-text` (None: the default) or a file
    of question keys (evaluator.scoring.unanswerable).
    """
    from evaluator.registry import TaskSpec, resolve

    specs = [t for t in tasks if isinstance(t, TaskSpec)] + resolve(
        [t for t in ([tasks] if isinstance(tasks, str) else tasks) if not isinstance(t, TaskSpec)])
    if not specs:
        raise UsageError("no task given: pass --task NAME (see `br-eval ls`)")
    if limit is not None and limit < 1:
        raise UsageError("--limit must be at least 1")
    if judge_repeats < 1:
        raise UsageError("--judge_repeats must be at least 1")
    from evaluator.scoring.unanswerable import rule as read_unanswerable

    unanswerable_rule = read_unanswerable(unanswerable)
    media = media or MediaSettings()
    if media.dpi is not None:         # (media_cache is imported only when a dpi is given)
        from media_cache.pdf import DEFAULT_DPI

        if media.dpi == DEFAULT_DPI:  # the default, named: the same pages as no --dpi
            media = dataclasses.replace(media, dpi=None)
    if media.fps is not None and media.fps <= 0:
        raise UsageError("--fps must be positive")
    agent_args, model_args = dict(agent_args or {}), dict(model_args or {})
    gen_kwargs, judge_args = dict(gen_kwargs or {}), dict(judge_args or {})
    if judge_repeats > 1:
        judge_args["repeats"] = judge_repeats
    # settings for a model or judge the run does not have would reach nothing, and the run would
    # look made with them
    _no_judge_no_judge_args(judge, judge_args)
    if model is None and model_args:
        raise UsageError("--model_args without --model: pass --model openai|hf|mock to answer "
                         "with a model, or drop --model_args")
    from evaluator.plugins import add_include_paths

    add_include_paths([include_path] if isinstance(include_path, (str, Path)) else include_path)
    if isinstance(conditions, str):         # the task that uses them checks the names
        conditions = [c.strip() for c in conditions.split(",") if c.strip()]
    conditions = tuple(conditions) if conditions else None
    declared = [(spec, spec.load()) for spec in specs]
    agent_tasks = [t for _, t in declared if t.uses_agent]
    agent = agent or ("full-context" if model is not None else "baseline")
    agent_identity = None
    if agent_tasks:
        agent_identity = _agent_identity(agent)     # an unknown agent is one line, first
        from evaluator.agents.builtin import check_agent_args

        check_agent_args(agent, agent_args, gen_kwargs)   # so is a key the agent does not take
        if agent in MODEL_AGENTS and model is None:
            raise UsageError(f"--agent {agent} answers with a model: pass --model hf|openai|mock "
                             "with --model_args (or --agent baseline, which needs none)")
        if agent == "baseline" and gen_kwargs:
            raise UsageError("--gen_kwargs: the weight-free baseline uses no model, so generation "
                             "settings would reach nothing: pass --model (and --model_args) to answer "
                             "with a model, or drop --gen_kwargs")
        if agent == "baseline" and model is not None and not conditions:
            raise UsageError("--agent baseline uses no model, so --model would not be asked: drop "
                             "--agent to use full-context, or name another agent")
        agent_identity = _memory_identity(agent_identity, agent, agent_args)

    model_name = model if isinstance(model, str) or model is None else getattr(model, "name", "custom")
    if isinstance(model, str):
        from evaluator.models import split_model_args

        answer_args, transport_args = split_model_args(model, model_args)
    else:
        answer_args = {"model_id": getattr(model, "model_id", None)} if model is not None else {}
        transport_args = {}
    data_info = snapshot = None
    if any(s.suite == "beyondrecall" for s in specs):
        from beyondrecall.identity import snapshot_info

        from evaluator.datasets import data_dir

        snapshot = data_dir("beyondrecall", data)
        data_info = snapshot_info(snapshot, task_files=task_files).__dict__
    rc_tasks = [t for _, t in declared if t.suite == "realcompanion"]
    if rc_tasks:
        rc_data = rc_tasks[0].resolve_data(rc_data)   # once, so a sample notice shows once
    elif rc_data is not None:
        rc_data = Path(rc_data)

    asr_identity = None
    if media.asr:
        from media_cache import MediaCache
        from media_cache.asr import resolve_asr

        asr_identity = resolve_asr(media.asr, MediaCache().sha256).identity
    clip_identity = None
    if media.captions:
        # Fail before any question rather than record the same missing-weights error on each;
        # the weights' digest is part of the settings (new weights at the same path).
        from media_cache import MediaCache
        from media_cache.clip import resolve_clip

        clip_identity = resolve_clip(media.clip_model or "ViT-B-32", media.clip_pretrained,
                                     MediaCache().sha256).identity
    # The run's one settings record (tasks and data identity are filled in once the folder's
    # earlier runs are known).
    settings = RunSettings(
        agent=agent, agent_source=agent_identity, model=model_name,
        model_args=public(answer_args), agent_args=agent_args, gen_kwargs=gen_kwargs,
        media=media, lenient_time=bool(lenient_time),
        transport={"model_args": public(transport_args), "num_concurrent": num_concurrent},
        judge=judge if isinstance(judge, str) else getattr(judge, "backend", None),
        judge_args=public(judge_args), limit=limit, seed=seed,
        data=str(snapshot) if snapshot else None, rc_data=str(rc_data) if rc_data else None,
        task_files={k: str(v) for k, v in (task_files or {}).items()} or None,
        conditions=conditions, detector=detector, asr_identity=asr_identity,
        clip_identity=clip_identity,
        unanswerable=unanswerable_rule.describe())

    # absolute: an agent that changes the working folder must not move where answers go
    out = Path(output_path or default_output_path(agent, model_name, model_args)).absolute()
    created = not out.exists()
    run_dir = RunDir(out, shard)
    lock = RunLock(out, shard, "run").acquire()      # one writer: a second run stops here
    started = False
    try:
        if run_dir.restore_aside():     # an --overwrite run that was killed before it started
            print(f"br-eval: {out}: put back the files an --overwrite run set aside and never "
                  "replaced (it stopped before its first question)", file=sys.stderr)
        if overwrite:
            # set aside, not deleted: a run refused below (another shard's settings, a server
            # that is down) puts them back; the first write of the new run discards them
            mine = ([run_dir.journal_path(s.name) for s in specs] if shard else
                    list(out.glob("samples_*.jsonl")) + list(run_dir.result_parts().values()))
            run_dir.set_aside(mine + [run_dir.results_path])
        previous = run_dir.read_results()
        identity = {"data_fingerprint": data_info and data_info.get("fingerprint"),
                    "rc_data": str(rc_data) if rc_data else None}
        headers = folder_headers(run_dir)
        if not agent_tasks:
            # no agent answers here: keep the folder's agent settings, which its agent tasks'
            # answers were made under (results.json keeps one record)
            from evaluator.registry import any_uses_agent

            for _, header in headers:
                if any_uses_agent(header["config"].get("tasks")) and header["config"].get("settings"):
                    settings = settings.with_answer_settings_of(RunSettings.from_config(header["config"]))
                    break
        for where, header in headers:
            identity = _check_resumable(out, header, settings.answer(), identity,
                                        header.get("config", {}).get("data_identity", {}), where,
                                        uses_agent=bool(agent_tasks))
        names = list(dict.fromkeys(previous.get("config", {}).get("tasks", [])
                                   + [s.name for s in specs]))
        settings = dataclasses.replace(settings, tasks=tuple(names), data_identity=identity)

        cache_path = None
        if use_cache is not None:
            from beyondrecall.snapshot import home_dir

            cache_path = Path(use_cache) if use_cache else home_dir() / "responses.sqlite"
        if executor is not None:        # workers build their own model from the same settings
            executor.bind(model, model_args, cache_path)
        if isinstance(model, str):
            from evaluator.models import make_model

            model = make_model(model, model_args, cache_path=cache_path)
        if isinstance(judge, str):
            from evaluator.scoring import make_judge

            judge = make_judge(judge, judge_args, cache_path=cache_path)
        if num_concurrent is None:
            num_concurrent = getattr(model, "concurrency", 1) if model is not None else 1
            if num_concurrent > 1 and agent_tasks and not _thread_safe(agent):
                print(f"br-eval: answering one question at a time: --agent {agent} does not "
                      "declare THREAD_SAFE = True (pass --num_concurrent N to run N at once)",
                      file=sys.stderr)
                num_concurrent = 1
        if num_concurrent < 1:
            raise UsageError("--num_concurrent must be at least 1")
        # what the run used, not what was typed (None: the model's default)
        settings = dataclasses.replace(settings, transport={**settings.transport,
                                                            "num_concurrent": int(num_concurrent)})
        ctx = RunContext(settings=settings, run_dir=run_dir, log_samples=log_samples,
                         model=model, judge=judge, num_concurrent=int(num_concurrent),
                         raise_errors=raise_errors, show_progress=_show(progress))
        for _, task in declared:
            task.prepare(ctx)
        plans = [_Plan(ctx, task) for _, task in declared]

        # The model and judge are asked one tiny request first, but only when there is
        # something left for them: a finished run re-prints without a server.
        ask_model = any(p.todo for p in plans if p.task.uses_agent)
        ask_judge = judge is not None and (any(p.todo for p in plans) or bool(judge_jobs(ctx, plans)))
        model_info = _preflight(model, judge if ask_judge else None, gen_kwargs, agent_args,
                                specs, agent_tasks, contact=ask_model)
        ctx.source = answer_source(model_info, agent_tasks)
        _check_learned_context(out, previous, model_info, answer_args, plans, ask_model)
        if announce:
            _announce(agent, agent_tasks, model_info, judge, specs, data_info, rc_data, out)
        for plan in plans:
            plan.say(ctx)

        # A folder may be filled by several runs (other tasks, a larger --limit): keep what the
        # earlier ones recorded.
        header = {"config": settings.to_config(), "data": data_info or previous.get("data"),
                  **provenance()}
        if model_info is not None and (ask_model or "model" not in previous):
            header["model"] = model_info
        if judge is not None:
            from evaluator.scoring.judge import calibration_for

            header["judge"] = {**judge.describe(), "calibration": calibration_for(judge)}
        started = True
        run_dir.discard_aside()
        run_dir.write_results(header)
        try:
            results = run_loop(ctx, plans, progress=progress, executor=executor)
            for line in reply_lines(ctx, plans):
                print(f"br-eval: {line}", file=sys.stderr)
        finally:
            run_dir.close(final=True)
    except BaseException:
        if not started:
            run_dir.restore_aside()
        if created:           # a run that stopped before writing anything leaves no folder
            _remove_if_only_locks(out)
        raise
    finally:
        lock.release()
    return EvalResults(out, results, header)


def _remove_if_only_locks(folder: Path) -> None:
    """Remove `folder` when it holds nothing but br-eval's lock files (never anything else)."""
    try:
        names = [p.name for p in folder.iterdir()]
        if all(n.startswith(".br-eval") and n.endswith(".lock") for n in names):
            for n in names:
                (folder / n).unlink()
            folder.rmdir()
    except OSError:
        pass


def answer_source(model_info: dict | None, agent_tasks) -> dict | None:
    """What each journal line records about who answered it (the date is added per line)."""
    if not agent_tasks:
        return None
    if not model_info:
        return {"model": None}
    served = (model_info.get("preflight") or {}).get("served_model")
    return {"model": model_info.get("model_id"), "endpoint": model_info.get("base_url"),
            "served_model": served}


def folder_headers(run_dir: RunDir) -> list[tuple[str, dict]]:
    """Every header a run folder holds that answers in it were written under: results.json
    and each shard's results part (a shard run, an unsharded run and merge all read them)."""
    out = []
    plain = RunDir(run_dir.path, create=False)
    for where, reader in [("results.json", plain)] + [
            (p.name, RunDir(run_dir.path, shard, create=False))
            for shard, p in plain.result_parts().items()]:
        header = reader.read_results()
        if header.get("config"):
            out.append((where, header))
    return out


def _agent_identity(agent: str) -> dict:
    """What identifies the agent's code, so a rerun after editing it is not taken as the same
    agent: for a built-in, the package version and the digest of the code that builds its
    prompts and answers (`evaluator.agents.builtin.prompt_digest`); for a user class, a sha256
    over its package's code (`plugins.source_fingerprint`)."""
    from evaluator import __version__
    from evaluator.agents.builtin import BUILTIN_AGENTS, prompt_digest, resolve_agent
    from evaluator.plugins import source_fingerprint

    cls = resolve_agent(agent)
    if agent in BUILTIN_AGENTS:
        return {"builtin": True, "version": __version__, "source_sha256": prompt_digest()}
    return {"builtin": False, "source_sha256": source_fingerprint(cls)}


def _thread_safe(agent: str) -> bool:
    """Whether the agent's class may answer several questions at once on threads: the built-ins
    may; a user's class when it says so (`THREAD_SAFE = True`): one that keeps state in module
    globals or class attributes would otherwise mix questions' memories, silently."""
    from evaluator.agents.builtin import BUILTIN_AGENTS, resolve_agent

    return agent in BUILTIN_AGENTS or getattr(resolve_agent(agent), "THREAD_SAFE", False) is True


def _memory_identity(identity: dict, agent: str, agent_args: dict) -> dict:
    """The agent identity plus what its class's `identity(agent_args)` says about its memory
    system (package and version, configuration, embedding model and the dimension its endpoint
    answers with: one request to it), under "memory"; unchanged for an agent without one."""
    import json

    from evaluator.agents.builtin import resolve_agent

    hook = getattr(resolve_agent(agent), "identity", None)
    try:
        extra = hook(dict(agent_args)) if callable(hook) else None
    except Exception as exc:
        if type(exc).__module__.partition(".")[0] in ("evaluator", "media_cache", "beyondrecall"):
            raise                       # a built-in agent's own error (a usage error: exit 2)
        # the user's code: one line, not a traceback
        raise EvalError(f"--agent {agent}: its identity() failed ({type(exc).__name__}: {exc})") from None
    try:
        # as results.json will hold it: a tuple read back as a list must compare equal on resume
        extra = json.loads(json.dumps(extra, allow_nan=False)) if extra else None
    except (TypeError, ValueError, RecursionError) as exc:
        raise EvalError(f"--agent {agent}: its identity() must return JSON data (dicts, lists, "
                        f"text, numbers): {exc}") from None
    return {**identity, "memory": extra} if extra else identity


def _check_resumable(out: Path, previous: dict, settings: dict, identity: dict,
                     old_identity: dict, where: str = "results.json", uses_agent: bool = True) -> dict:
    """Refuse to resume into a folder answered on other data or with other answer-changing
    settings (transport settings: URLs, keys, timeouts, concurrency may change). `previous` is
    one header of the folder (`where`: results.json or a shard's part). The answer-changing
    settings are compared only when both this run and the folder's tasks use an agent
    (`uses_agent`): realcompanion/retrieval's lines depend on none of them. Returns the data
    identity to record."""
    from evaluator.registry import any_uses_agent

    config = previous.get("config", {})
    differences = []
    for k, v in identity.items():
        if v and old_identity.get(k) and old_identity[k] != v:
            differences.append(f"data {k}: {old_identity[k]} -> {v}")
    old = config.get("settings")
    if not (uses_agent and any_uses_agent(config.get("tasks"))):
        old = None
    if old is not None and "transport" not in config and isinstance(old.get("model_args"), dict):
        # a folder from before settings were split: its model_args still hold transport keys
        from evaluator.models import split_model_args

        if old.get("model") in ("hf", "openai", "mock"):
            old = {**old, "model_args": split_model_args(old["model"], old["model_args"])[0]}
    if old is not None:
        for key in sorted(set(old) | set(settings)):
            a, b = old.get(key), settings.get(key)
            if key not in old and not b or key == "agent_source" and a is None:
                continue                        # a folder from before the setting existed
            if key == "unanswerable" and a is None:
                from evaluator.scoring.unanswerable import UnanswerableRule

                a = UnanswerableRule().describe()   # before the rule was recorded: gold-text
            if isinstance(a, dict) and isinstance(b, dict):
                for sub in sorted(set(a) | set(b)):
                    if a.get(sub) != b.get(sub):
                        differences.append(f"{key}.{sub}: {a.get(sub)!r} -> {b.get(sub)!r}")
            elif a != b:
                differences.append(f"{key}: {a!r} -> {b!r}")
    source = settings.get("agent_source") or {}
    if source.get("builtin") is False and not source.get("source_sha256") and not differences:
        raise EvalError(f"{out} holds answers, and the agent's code cannot be read (a class "
                        "defined without a source file) to check it is the code that wrote them; "
                        "pass --overwrite to start it afresh, or another --output_path")
    if differences:
        edited = any(d.startswith("agent_source") for d in differences)
        why = ("the agent's source changed since its answers were written; " if edited else "")
        raise EvalError(f"{out} holds answers made with other settings ({where}: "
                        f"{'; '.join(differences)}); {why}pass --overwrite to start it afresh, "
                        "or another --output_path")
    return {k: v or old_identity.get(k) for k, v in identity.items()}


def _preflight(model, judge, gen_kwargs: dict, agent_args: dict, specs, agent_tasks,
               contact: bool = True) -> dict | None:
    """One tiny request to the model and to the judge before anything is journaled: a run that
    cannot work stops here with one line. Returns what results.json records about the model
    (`contact` False: nothing is left to ask it, so it is described, not asked)."""
    from evaluator.models import describe_model, preflight

    info = None
    if model is not None and not contact:
        info = {**describe_model(model, gen_kwargs), "preflight": None}
    elif model is not None:
        modes = set(str(agent_args.get("media", "")).lower().replace("+", ",").split(",")) - {""}
        has_media = bool(agent_tasks) and any(s.suite == "beyondrecall" for s in specs)
        images = has_media and ("images" in modes if modes
                                else bool(getattr(model, "supports_images", False)))
        audio = has_media and bool(getattr(model, "supports_audio", False)) and (
            not modes or "audio" in modes)
        learned = preflight(model, images=images, audio=audio, gen_kwargs=gen_kwargs)
        info = {**describe_model(model, gen_kwargs), "preflight": learned}
    if judge is not None:
        preflight(judge.model, gen_kwargs=getattr(judge, "gen_kwargs", None))
    return info


def _no_judge_no_judge_args(judge, judge_args: dict) -> None:
    """--judge_args (or --judge_repeats, kept in them as `repeats`) without --judge: one line."""
    if judge is None and judge_args:
        flag = "judge_repeats" if set(judge_args) == {"repeats"} else "judge_args"
        raise UsageError(f"--{flag} without --judge: pass --judge openai (or mock) to grade with "
                         "a judge, or drop it")


def _check_learned_context(out, previous: dict, model_info: dict | None, answer_args: dict,
                           plans: list, asked: bool) -> None:
    """A context length the backend reported (not given in --model_args) bounds the history
    the prompt agents send: answers made under another one are not this run's."""
    if not asked or "context_length" in answer_args or not any(p.done for p in plans):
        return
    before = (previous.get("model") or {}).get("context_length")
    now = (model_info or {}).get("context_length")
    if "model" in previous and before is None and now is not None:
        # e.g. llama.cpp's /props, read since: no context_length= gives back "none known"
        where = (model_info or {}).get("context_length_source") or "the server"
        raise EvalError(f"{out}: its answers were made without a known context length; this run "
                        f"learned {now} from {where}, which bounds the history the agent sends: "
                        "pass --overwrite or another --output_path to answer under it")
    if "model" in previous and before != now:
        raise EvalError(f"{out}: its answers were made with the model's context length {before} "
                        f"(as the server reported it); it now reports {now}, which changes the "
                        f"history the agent sends: pass --model_args context_length={before} to "
                        "continue, or --overwrite / another --output_path")


def _announce(agent, agent_tasks, model_info, judge, specs, data_info, rc_data, out) -> None:
    """The first lines of a run: which agent, model and data it measures."""
    lines = []
    if agent_tasks:
        what = "weight-free baseline, no model" if agent == "baseline" else agent
        lines.append(f"agent: {what}")
    if model_info:
        served = (model_info.get("preflight") or {}).get("served_model")
        name = model_info.get("model_id")
        lines.append(f"model: {model_info.get('backend')} {name}"
                     + (f" (the server answers as {served})" if served and served != name else "")
                     + (f" at {model_info['base_url']}" if model_info.get("base_url") else "")
                     + (" (not asked: every item is already answered)"
                        if "preflight" in model_info and model_info["preflight"] is None else ""))
    if judge is not None:
        lines.append(f"judge: {judge.backend} {judge.model_id}")
        if model_info and judge.model_id and judge.model_id == model_info.get("model_id") \
                and agent_tasks and model_info.get("backend") != "mock":
            print(f"br-eval: warning: the judge is the model under test ({judge.model_id}); a "
                  "model grading its own replies tends to favour them: judge with another model "
                  "for numbers you publish", file=sys.stderr)
    if data_info:
        label = "generated sample" if data_info.get("is_sample") else \
            f"revision {data_info.get('revision') or 'unknown'}"
        lines.append(f"data: {data_info.get('path')} ({label})")
        lines += [data_info["task_files_note"]] if data_info.get("task_files_note") else []
    if rc_data:
        lines.append(f"RealCompanion data: {rc_data}")
    lines.append(f"output: {out}")
    # on stdout, before the report: stderr keeps the progress and a stopped run's one error line
    for line in lines:
        print(f"br-eval: {line}", flush=True)


def _show(progress: bool | None) -> bool:
    return sys.stderr.isatty() if progress is None else bool(progress) and sys.stderr.isatty()


# -- the loop ----------------------------------------------------------------------------------------
class _Plan:
    """One task's items, what its journal already holds, and what is left to do."""

    def __init__(self, ctx: RunContext, task) -> None:
        self.task = task
        self.all_items = task.items(ctx)
        self.items = self.all_items if ctx.limit is None else self.all_items[:ctx.limit]
        mine = shard_filter(self.all_items, ctx.run_dir.shard)
        if mine is not None:          # --shard I/N: whole clusters, chosen over all items
            self.all_items = [it for it in self.all_items if str(it.cluster) in mine]
            self.items = [it for it in self.items if str(it.cluster) in mine]
        self.by_key = {it.key: it for it in self.all_items}
        self.keys = {it.key for it in self.items}
        latest = {s.key: s for s in ctx.run_dir.latest_samples(task.name)}
        done = [latest[it.key] for it in self.items if it.key in latest and latest[it.key].solved]
        task.check_resume(ctx, done)
        check_answers_match(ctx, task, self.by_key, done)
        self.done = done
        done_keys = {s.key for s in done}
        self.todo = [it for it in self.items if it.key not in done_keys]

    def say(self, ctx: RunContext) -> None:
        """The task's data warnings and what a rerun reuses, after the run's first lines."""
        task = self.task
        self.warn(ctx)
        if self.done and self.todo:
            print(f"br-eval: {task.name}: resuming, {len(self.done)} of {len(self.items)} "
                  f"{task.unit}s already done", file=sys.stderr)
        if self.done and task.uses_agent:
            for line in reuse_lines(self.done, ctx.source):
                print(f"br-eval: {task.name}: {line}", file=sys.stderr)
        if self.done and ctx.judge is not None:
            line = judgment_reuse_line(self.done, ctx.judge)
            if line:
                print(f"br-eval: {task.name}: {line}", file=sys.stderr)

    def warn(self, ctx: RunContext) -> None:
        """The task's data warnings, one line each on stderr (`run` and `score` alike)."""
        for line in self.task.data_warnings(ctx):
            print(f"br-eval: warning: {line}", file=sys.stderr)

    @classmethod
    def existing(cls, ctx: RunContext, task, select) -> "_Plan":
        """A plan over a finished journal (`score`, `merge`): `select(all items)` are the items
        it aggregates; nothing is left to do."""
        plan = cls.__new__(cls)
        plan.task = task
        plan.all_items = task.items(ctx)
        plan.by_key = {it.key: it for it in plan.all_items}
        plan.items = select(plan.all_items)
        plan.keys = {it.key for it in plan.items}
        plan.todo, plan.done = [], []
        return plan


def check_answers_match(ctx: RunContext, task, by_key: dict, done: list[Sample], *,
                        rescoring: bool = False) -> None:
    """Refuse journal lines that answered other settings or another version of their item
    (a task file edited in place, another --task-file, changed media), or whose reply changed
    after it was scored, unless `rescoring` (`score` scores them again): naming the first."""
    where = ctx.run_dir.journal_path(task.name).name
    edited = [] if rescoring else edited_replies(task, done)
    if edited:
        raise EvalError(f"{ctx.run_dir.path}: {where}: the reply of {edited[0].key} "
                        f"({len(edited)} line(s) in all) is not the one its scores were computed "
                        "on (edited after scoring?); `br-eval score` re-scores it, --overwrite "
                        "answers afresh")
    current = ctx.settings.digest()
    # a task without an agent: no answer-changing setting reaches its lines (AGENT_FREE_DIGEST)
    other = [s for s in done if s.settings_fp and s.settings_fp != current] if task.uses_agent else []
    if other:
        raise EvalError(f"{ctx.run_dir.path}: {where}: {len(other)} answer(s) were made under "
                        f"other settings than this run's (first: {other[0].key}); the folder "
                        "mixes runs: pass --overwrite to start it afresh, or another --output_path")
    data_fp = task.data_fingerprint(ctx) if done else None
    older = []
    for s in done:
        if s.item_fp and s.item_fp != task.fingerprint(ctx, by_key[s.key]):
            if s.item_fp in task.legacy_fingerprints(ctx, by_key[s.key]):
                older.append(s)
                continue
            label = task.data_label(ctx)
            also = (f" (the data changed: {s.data_fp} -> {data_fp})"
                    if s.data_fp and data_fp and s.data_fp != data_fp else "")
            raise EvalError(f"{ctx.run_dir.path}: {where}: the answer to {s.key} was made for "
                            f"another version of that item than {label} holds now{also}; "
                            "`br-eval run` with --overwrite answers afresh, or use another "
                            "--output_path")
    if older:
        print(f"br-eval: warning: {task.name}: {len(older)} answer(s) written by an older br-eval "
              "whose item fingerprint did not cover PDF page maps: their page maps cannot be "
              "checked (`br-eval run` with --overwrite redoes them)", file=sys.stderr)


def reuse_lines(done: list[Sample], current: dict | None) -> list[str]:
    """What a rerun says about the answers it reuses: how many, from when, served by whom."""
    groups: dict[tuple, list[str]] = {}
    unchecked = 0
    for s in done:
        src = s.source or {}
        served = served_by(s) or src.get("model")
        groups.setdefault((served, src.get("endpoint")), []).append(str(src.get("date") or ""))
        unchecked += not s.item_fp
    lines = []
    for (served, endpoint), dates in groups.items():
        known = sorted(d for d in dates if d)
        when = (f" from {known[0][:10]}" + (f" to {known[-1][:10]}" if known[-1][:10] != known[0][:10]
                                             else "")) if known else " (undated: older br-eval)"
        who = f", served by {served}" if served else ""
        at = f" at {endpoint}" if endpoint else ""
        moved = ""
        asks = str((current or {}).get("endpoint") or "").split("|")    # base_url=A|B: either
        if current and endpoint not in asks and (endpoint or served):
            moved = f" (this run asks {current.get('endpoint') or 'a local model'})"
        lines.append(f"{len(dates)} answer(s) reused{when}{who}{at}{moved}")
    if unchecked:
        lines.append(f"{unchecked} reused answer(s) carry no item fingerprint (written by an "
                     "older br-eval) and cannot be checked against the data: pass --overwrite "
                     "to redo them")
    return lines


def served_by(sample: Sample) -> str | None:
    """The model that answered a line, as its server reported it on that reply (older lines:
    the run's preflight, in `source`)."""
    return sample.model_reported or (sample.source or {}).get("served_model")


def judge_endpoint(judge) -> str | None:
    """Where the judge is served (redacted), None for a local or mock judge."""
    return getattr(getattr(judge, "model", None), "public_url", None)


def judgment_reuse_line(done: list[Sample], judge) -> str | None:
    """What a rerun with a judge says about the grades it keeps: the same judge (model, prompts,
    settings) graded them, so they are not asked again; where they were graded, when that is not
    where this run's judge is served."""
    jid, here = judge_id(judge), judge_endpoint(judge)
    kept = [s for s in done if s.judge and s.judge.get("id") == jid and not s.judge.get("error")]
    if not kept:
        return None
    where = sorted({str(s.judge.get("endpoint") or "an unrecorded endpoint (older br-eval)")
                    for s in kept})
    moved = "" if where == [str(here)] or here is None else \
        f", graded at {', '.join(where)} (this run's judge: {here})"
    return (f"{len(kept)} judgment(s) reused from this judge "
            f"({judge.describe().get('model_id')}){moved}")


class Progress:
    """A tqdm bar in a terminal; without one (nohup, a batch log), a line when each task starts
    and ends and a periodic line every `every_s` seconds, so a log shows the run is alive.
    `jobs` are (plan, item) pairs: their task names give the per-task lines."""

    def __init__(self, ctx: RunContext, jobs: list, label: str, enabled: bool,
                 every_s: float = 30.0) -> None:
        self.total, self.label, self.done = len(jobs), label, 0
        self.per_task: dict[str, list[int]] = {}
        for plan, _ in jobs:
            self.per_task.setdefault(plan.task.name, [0, 0])[1] += 1
        self.bar = None
        self.lines = enabled and not ctx.show_progress and self.total > 0
        self.every_s, self.last = every_s, time.monotonic()
        if ctx.show_progress and self.total:
            from tqdm import tqdm

            from evaluator.errors import progress_stream

            self.bar = tqdm(total=self.total, desc=label, unit="item", file=progress_stream(),
                            dynamic_ncols=True, leave=False)
        elif self.lines:
            for name, (_, n) in self.per_task.items():
                self._line(f"{name}: {n} item(s) to do" + (" (judging)" if label == "judging"
                                                            else ""))

    @staticmethod
    def _line(text: str) -> None:
        print(f"br-eval: {text}", file=sys.stderr, flush=True)

    def update(self, job=None) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
            return
        if not self.lines:
            return
        if job is not None:
            count = self.per_task[job[0].task.name]
            count[0] += 1
            if count[0] == count[1]:
                self._line(f"{job[0].task.name}: {count[1]}/{count[1]} done")
        if time.monotonic() - self.last >= self.every_s:
            self.last = time.monotonic()
            self._line(f"{self.label}: {self.done}/{self.total}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _each(ctx: RunContext, jobs: list, work, bar: Progress) -> None:
    """Run work(job) for every job, at most ctx.num_concurrent at once, across all tasks. On
    Ctrl-C or a run-stopping error, items in flight finish and reach the journal; queued ones
    are dropped (a rerun does them)."""
    try:
        if ctx.num_concurrent <= 1 or len(jobs) <= 1:
            for job in jobs:
                work(job)
                bar.update(job)
            return
        from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

        pool = ThreadPoolExecutor(ctx.num_concurrent)
        try:
            pending = {pool.submit(work, job): job for job in jobs}
            while pending:
                finished, _ = wait(pending, return_when=FIRST_EXCEPTION)
                for f in finished:
                    f.result()
                    bar.update(pending.pop(f))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    finally:
        bar.close()


def score_item(ctx: RunContext, task, item, sample: Sample, judge=None) -> str | None:
    """`task.score`, recording on the line the scorer version that scored it."""
    from evaluator.scoring.version import scorer_version

    error = task.score(ctx, item, sample, judge)
    sample.scorer_version = scorer_version()
    sample.reply_fp = reply_digest(task, sample)
    return error


def solve_item(ctx: RunContext, task, item) -> Sample:
    """Solve and score (without a judge) one item into a new Sample; an agent, model or media
    failure is recorded in it, an EvalError stops the run. Local threads and Ray workers alike."""
    sample = Sample(item.key, task.name, item.cluster)
    started = time.perf_counter()
    sample.settings_fp = ctx.settings.digest(task.uses_agent)
    try:
        sample.item_fp = task.fingerprint(ctx, item)
        sample.data_fp = task.data_fingerprint(ctx)
        task.solve(ctx, item, sample)
        # half an emoji at the end of a reply: no encoder (stemmer, journal, page) takes it
        sample.prediction = mend_surrogates(sample.prediction)
        score_item(ctx, task, item, sample, None)
    except SystemExit as exc:       # sys.exit() in the agent's code: the run stops and says so
        raise EvalError(f"{item.key}: the agent called sys.exit({exc.code!r}) while answering; "
                        "the run stopped (finished answers are kept)") from None
    except (KeyboardInterrupt, EvalError):
        raise
    except Exception as exc:  # an agent, model or media failure is this item's error
        record_failure(sample, exc)
    sample.seconds = round(time.perf_counter() - started, 4)
    if ctx.source is not None and task.uses_agent:
        # the run's model, overridden by what this line's own reply reported (its served model,
        # the endpoint of several that answered it)
        sample.source = {**ctx.source, **(sample.source or {}), "date": _utc_now()}
    return sample


def _utc_now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_loop(ctx: RunContext, plans: list, *, progress: bool | None = None,
             executor=None) -> dict[str, TaskResult]:
    """Solve, judge and aggregate the tasks of `plans` (`_Plan`s of prepared declarations) into
    ctx.run_dir. executor: None solves on local threads (`_each`); a RayExecutor solves each
    cluster on a Ray worker and streams the samples back; the journal is written here either
    way."""
    lock = threading.Lock()
    enabled = progress is not False

    def solve(job) -> None:
        plan, item = job
        sample = solve_item(ctx, plan.task, item)
        if sample.failed and ctx.raise_errors:
            with lock:
                ctx.run_dir.append(sample)
            raise ItemFailed(sample)
        with lock:
            ctx.run_dir.append(sample)

    jobs = [(plan, item) for plan in plans for item in plan.todo]
    label = plans[0].task.name if len(plans) == 1 else f"{len(plans)} tasks"
    bar = Progress(ctx, jobs, label, enabled)
    if executor is None:
        _each(ctx, jobs, solve, bar)
    else:
        executor.each(ctx, jobs, ctx.run_dir.append, bar)
    if ctx.judge is not None:
        judge_phase(ctx, plans, lock, enabled)
    results = {}
    for plan in plans:
        results[plan.task.name] = aggregate_task(ctx, plan)
        ctx.run_dir.write_results({"results": {plan.task.name: results[plan.task.name].to_json()}})
    return results


def judge_id(judge) -> str:
    import hashlib
    import json

    blob = json.dumps(judge.describe(), sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def judge_jobs(ctx: RunContext, plans: list) -> list:
    """(plan, sample) for every answered item that this judge has not graded yet or failed on."""
    jid = judge_id(ctx.judge)
    jobs = []
    for plan in plans:
        for s in ctx.run_dir.latest_samples(plan.task.name):
            if s.key not in plan.by_key or not s.solved or not plan.task.needs_judge(s):
                continue
            if s.judge and s.judge.get("id") == jid and not s.judge.get("error"):
                continue
            jobs.append((plan, s))
    return jobs


def judge_phase(ctx: RunContext, plans: list, lock, enabled: bool = True) -> int:
    """Grade every answered item that this judge has not graded yet or failed on. Returns the
    number of items whose judgment failed."""
    jid = judge_id(ctx.judge)
    jobs = judge_jobs(ctx, plans)
    failures = []

    def grade(job) -> None:
        plan, sample = job
        started = time.perf_counter()
        try:
            error = score_item(ctx, plan.task, plan.by_key[sample.key], sample, ctx.judge)
            sample.error = sample.error_kind = sample.traceback = None
        except (KeyboardInterrupt, SystemExit, EvalError):
            raise
        except Exception as exc:
            record_failure(sample, exc)
            sample.error_kind = "judge"
            error = sample.error
            if isinstance(sample.metrics, dict) and "primary" in sample.metrics:
                sample.metrics["primary"] = None     # the unjudged score is not the item's score
        sample.judge = {"id": jid, "error": error,
                        "seconds": round(time.perf_counter() - started, 4),
                        "endpoint": judge_endpoint(ctx.judge)}
        if error:
            failures.append(sample.key)
        with lock:
            ctx.run_dir.append(sample)

    _each(ctx, jobs, grade, Progress(ctx, jobs, "judging", enabled))
    return len(failures)


def aggregate_task(ctx: RunContext, plan) -> TaskResult:
    task = plan.task
    lines = ctx.run_dir.read_samples(task.name)
    latest = {s.key: s for s in lines}
    if len(latest) < len(lines):
        # Retries and judgments appended later lines for some keys: keep one line per key
        # (atomic rewrite; the latest attempt wins, as on reading).
        ctx.run_dir.rewrite(task.name, list(latest.values()))
    # every item the folder's journal holds, not only this run's --limit: results.json, report,
    # compare and view then describe the same lines (a --limit rerun into a finished folder
    # reported its 2 items as 7/7 done)
    selected = [latest[it.key] for it in plan.all_items if it.key in latest]
    lines = [s.to_json() for s in selected]
    # Once a judge graded some of a task's items, the others it should grade await it (a run
    # killed in its judge phase, then resumed or scored without --judge; items added by a later
    # run without a judge): their lexical score is not the task's primary, and the task is
    # incomplete until `br-eval score --judge` grades them. One number never blends the two.
    from evaluator.task import awaiting_judge

    awaiting = awaiting_judge(task, selected)
    pending = [i for i, s in enumerate(selected) if s.key in awaiting]
    for i in pending:
        m = lines[i].get("metrics")
        if isinstance(m, dict):
            lines[i]["metrics"] = {**m, "primary": None, "judge_pending": True}
    metrics = task.aggregate(ctx, lines)
    if any(s.judge for s in selected):
        from evaluator.scoring.judge import agreement_summary

        agreement = agreement_summary(lines)
        if agreement:
            metrics["judge_agreement"] = agreement
    # A judge that failed on an answered item is a judge error, not a failed item: the item is
    # answered (done) and unscored until `br-eval score` grades it.
    failed = [s for s in selected if s.failed and s.error_kind != "judge"]
    judge_errors = [s for s in selected if s.error_kind == "judge" and s.failed
                    or (s.judge or {}).get("error")]
    kinds: dict[str, int] = {}
    for s in failed:
        kinds[s.error_kind or "agent"] = kinds.get(s.error_kind or "agent", 0) + 1
    n_done = sum(1 for k, s in latest.items() if k in plan.by_key and s.solved)
    sources = answer_sources(selected)
    if sources:
        metrics["answer_sources"] = sources
    notes = reply_notes(selected)
    if notes["n_cut"]:
        metrics["n_cut"] = notes["n_cut"]
    if notes["n_reasoning_removed"]:
        metrics["n_reasoning_removed"] = notes["n_reasoning_removed"]
    costs = [s.fields["memory_cost"] for s in selected
             if s.solved and isinstance(s.fields.get("memory_cost"), dict)]
    if costs:
        from evaluator.models.embeddings import sum_costs

        metrics["memory_cost"] = sum_costs(costs)
    versions: dict[str, int] = {}
    for s in selected:
        if not s.failed or s.error_kind == "judge":
            v = s.scorer_version or "not recorded"
            versions[v] = versions.get(v, 0) + 1
    metrics["scorer_versions"] = versions
    first = failed[0] if failed else (judge_errors[0] if judge_errors else None)
    return TaskResult(task=task.name, suite=task.suite, unit=task.unit,
                      primary_metric=metrics.pop("primary_metric", None),
                      primary=metrics.pop("primary", None), n_expected=len(plan.all_items),
                      n_done=n_done, n_failed=len(failed), metrics=metrics,
                      errors_by_kind=kinds, n_judge_errors=len(judge_errors),
                      n_judge_pending=len(pending),
                      first_error=(f"{first.key}: {first.error or (first.judge or {}).get('error')}"
                                   if first else None))


def reply_notes(samples: list[Sample]) -> dict[str, int]:
    """Over a task's answered lines: replies cut at the token limit (`finish: "length"`),
    replies whose reasoning was removed, and those whose reasoning never closed (no answer)."""
    solved = [s for s in samples if s.solved]
    removed = [s.fields["reasoning_removed"] for s in solved
               if isinstance(s.fields.get("reasoning_removed"), dict)]
    return {"n_cut": sum(1 for s in solved if s.fields.get("finish") == "length"),
            "n_reasoning_removed": len(removed),
            "n_reasoning_unclosed": sum(1 for r in removed if r.get("unclosed"))}


def reply_lines(ctx: RunContext, plans: list) -> list[str]:
    """The end of a run's word on its replies, over the folder's journals of the tasks run: how
    many had reasoning removed, how many were cut at the token limit (and what to raise)."""
    from evaluator.models._common import resolve_gen_kwargs
    from evaluator.models.base import ModelUsageError

    notes = {"n_cut": 0, "n_reasoning_removed": 0, "n_reasoning_unclosed": 0}
    for plan in plans:
        if plan.task.uses_agent:
            for k, v in reply_notes(ctx.run_dir.latest_samples(plan.task.name)).items():
                notes[k] += v
    lines = []
    if notes["n_reasoning_removed"]:
        unclosed = notes["n_reasoning_unclosed"]
        lines.append(f"{notes['n_reasoning_removed']} reply(ies) held reasoning (<think> ...) that is "
                     "not the answer: scored on the text without it"
                     + (f"; {unclosed} never closed it (no answer: scored as empty)" if unclosed else ""))
    if notes["n_cut"]:
        try:
            now = f" (now {resolve_gen_kwargs(ctx.settings.gen_kwargs)['max_tokens']})"
        except ModelUsageError:      # settings a model of the user's own takes as they are
            now = ""
        lines.append(f"warning: {notes['n_cut']} reply(ies) were cut at the token limit "
                     f"(finish_reason=length) and are scored as given: raise max_tokens with "
                     f"--gen_kwargs max_tokens=N{now} (a reasoning model thinks first) and answer "
                     "afresh (--overwrite or another --output_path)")
    return lines


def answer_sources(samples: list[Sample]) -> list[dict]:
    """Who answered a task's items: one entry per (model, endpoint, served model) with its count
    and date range, so results.json never attributes reused answers to this run's server."""
    groups: dict[tuple, dict] = {}
    for s in samples:
        if not s.source or not s.solved:
            continue
        src = s.source
        key = (src.get("model"), src.get("endpoint"), served_by(s))
        g = groups.setdefault(key, {"model": key[0], "endpoint": key[1], "served_model": key[2],
                                    "n": 0, "first": None, "last": None})
        g["n"] += 1
        date = src.get("date")
        if date:
            g["first"] = min(g["first"] or date, date)
            g["last"] = max(g["last"] or date, date)
    return list(groups.values())


# -- re-scoring a finished run -------------------------------------------------------------------------
def rescore(run_path, *, judge=None, judge_args: dict | None = None, use_cache=None,
            seed: int | None = None, progress: bool | None = None) -> tuple[EvalResults, int]:
    """`br-eval score`: without a judge, recompute the deterministic metrics of every answered
    item (a scorer fix applies to old runs); with one, judge what this judge has not graded yet
    or failed on. The agent is never called. Returns the results and the judge failures."""
    if needs_merge(run_path):             # a sharded run: join the shards first
        merge(run_path, progress=progress)
    run_dir = RunDir(run_path, create=False)
    lock = RunLock(run_path, None, "score").acquire()
    try:
        return _rescore(run_dir, judge, judge_args, use_cache, seed, progress)
    finally:
        lock.release()


def _rescore(run_dir: RunDir, judge, judge_args, use_cache, seed, progress):
    from evaluator.registry import TASKS

    run_path = run_dir.path
    results = run_dir.read_results()
    if not results:
        raise EvalError(f"{run_path}: no results.json (not a br-eval run folder?)")
    config = results.get("config", {})
    names = [t for t in config.get("tasks", []) if t in TASKS and run_dir.has_journal(t)]
    if not names:
        raise EvalError(f"{run_path}: no journals to score")
    settings = RunSettings.from_config(config, (results.get("data") or {}).get("path"))
    if seed is not None:
        settings = dataclasses.replace(settings, seed=seed)
    data = settings.data
    if any(TASKS[t].suite == "beyondrecall" for t in names) and not (data and Path(data).exists()):
        raise EvalError(f"{run_path}: the run's Beyond Recall data ({data}) is not there")
    cache_path = None
    if use_cache is not None:
        from beyondrecall.snapshot import home_dir

        cache_path = Path(use_cache) if use_cache else home_dir() / "responses.sqlite"
    _no_judge_no_judge_args(judge, judge_args)
    judge_kind = judge
    if isinstance(judge, str):
        from evaluator.scoring import make_judge

        judge = make_judge(judge, judge_args or {}, cache_path=cache_path)
    ctx = RunContext(settings=settings, run_dir=run_dir, judge=judge,
                     show_progress=_show(progress))
    tasks = [TASKS[t].load() for t in names]
    for task in tasks:
        task.prepare(ctx)
    plans = []
    for task in tasks:
        latest = run_dir.latest_samples(task.name)
        done = {s.key for s in latest}
        plan = _Plan.existing(ctx, task, lambda items: [it for it in items if it.key in done])
        plan.warn(ctx)                 # what `run` said about the data, said again
        answered = [s for s in latest if s.solved and s.key in plan.by_key]
        task.check_scorable(ctx, answered)
        check_answers_match(ctx, task, plan.by_key, answered, rescoring=True)
        edited = edited_replies(task, answered)
        if edited:
            # scores and judgment were of another reply: both go, and this scoring redoes them
            print(f"br-eval: warning: {task.name}: {len(edited)} reply(ies) changed after they "
                  f"were scored (first: {edited[0].key}); scored again"
                  + (", judged again when a --judge is given" if any(s.judge for s in edited)
                     else ""), file=sys.stderr)
            for s in edited:
                s.judge = None
                if s.error_kind == "judge":
                    s.error = s.error_kind = s.traceback = None
                score_item(ctx, task, plan.by_key[s.key], s, None)
            run_dir.rewrite(task.name, latest)
        plans.append(plan)
    if judge is not None and judge_jobs(ctx, plans):
        # the same one-line check `run --judge` makes, before the first item is judged
        from evaluator.models import preflight

        preflight(judge.model, gen_kwargs=getattr(judge, "gen_kwargs", None))
    failures = 0
    try:
        if judge is not None:
            failures = judge_phase(ctx, plans, threading.Lock(), progress is not False)
        else:
            from evaluator.scoring.version import scorer_version

            for plan in plans:
                samples = run_dir.latest_samples(plan.task.name)
                kept = sum(1 for s in samples if s.judge and not s.failed
                           and s.scorer_version != scorer_version())
                if kept:    # a judged line needs its judge to be scored again
                    print(f"br-eval: warning: {plan.task.name}: {kept} judged line(s) keep the "
                          "scorer version that scored them; `br-eval score ... --judge ...` "
                          "re-scores them", file=sys.stderr)
                for s in samples:
                    if s.failed or s.judge or s.key not in plan.by_key:
                        continue
                    try:
                        score_item(ctx, plan.task, plan.by_key[s.key], s, None)
                    except Exception as exc:
                        raise EvalError(f"{s.key}: cannot be scored ({one_line(exc)})") from None
                run_dir.rewrite(plan.task.name, samples)
        out = {plan.task.name: aggregate_task(ctx, plan) for plan in plans}
        run_dir.write_results({"results": {n: r.to_json() for n, r in out.items()}})
    finally:
        run_dir.close()
    # scorer_version, rules_versions, the br-eval that scored, and when results.json was written
    update: dict = provenance()
    new_config = dict(config)
    if seed is not None:                             # the intervals were drawn with it
        new_config["seed"] = seed
    if judge is not None:
        from evaluator.scoring.judge import calibration_for

        update["judge"] = {**judge.describe(), "calibration": calibration_for(judge)}  # as `run`
        new_config.update(judge=judge_kind if isinstance(judge_kind, str)
                          else getattr(judge, "backend", None), judge_args=public(judge_args or {}))
    if new_config != config:
        update["config"] = new_config
    run_dir.write_results(update)
    return EvalResults(Path(run_path), out, run_dir.read_results()), failures


# -- merging a sharded run's shards (`br-eval merge`; who owns what: evaluator/sharding.py) --
def merge(run_path, *, progress: bool | None = None, quiet: bool = False) -> tuple[dict, list[str]]:
    """Aggregate every shard's journal of a sharded folder into results.json (the same
    Task.aggregate an unsharded run uses, over the union of the shards' lines). Returns the
    written results and the problems found (missing shard parts, shards with items not done),
    each one line; the problems are also printed unless `quiet`."""
    run_dir = RunDir(run_path, create=False)
    with RunLock(run_path, None, "merge"):
        return _merge(run_dir, quiet, progress)


def _merge(run_dir, quiet: bool, progress) -> tuple[dict, list[str]]:
    from evaluator.registry import TASKS, any_uses_agent

    run_path = run_dir.path
    parts = run_dir.result_parts()
    if not parts:
        raise EvalError(f"{run_path}: no shard results (results.shard-I-of-N.json); "
                        "nothing to merge")
    counts = sorted({n for _, n in parts})
    if len(counts) > 1:
        raise EvalError(f"{run_path}: shard parts of different shard counts ({', '.join(map(str, counts))}); "
                        "keep one sharding per folder")
    count = counts[0]
    headers = {i: RunDir(run_path, (i, count), create=False).read_results() for i, _ in parts}
    first = headers[min(headers)]

    def what_counts(h: dict, k: str) -> dict:
        # what must agree across shards: settings, tasks (as a set), seed, limit, judge, data
        # identity; not transport (concurrency, endpoints) nor where each node mounts the data
        out = dict(h.get(k) or {})
        for key in (("transport", "data", "rc_data") if k == "config" else ("path",)):
            out.pop(key, None)
        if k == "config":
            out["tasks"] = sorted(out.get("tasks") or [])
        return out

    for i, h in headers.items():
        for k in ("config", "data"):
            if what_counts(h, k) != what_counts(first, k):
                raise EvalError(f"{run_path}: shard {i}/{count} ran with other {k} than shard "
                                f"{min(headers)}/{count}; they cannot be merged")
    problems = [f"shard {i}/{count}: missing (no results.shard-{i}-of-{count}.json)"
                for i in range(count) if (i, count) not in parts]
    config = first.get("config", {})
    settings = RunSettings.from_config(config, (first.get("data") or {}).get("path"))
    # An earlier unsharded run in the folder (results.json) must have had the shards' settings.
    names = [t for t in config.get("tasks", []) if t in TASKS]
    for where, header in folder_headers(run_dir):
        _check_resumable(run_path, header, settings.answer(), {}, {}, where,
                         uses_agent=any_uses_agent(names))
    data = settings.data
    if any(TASKS[t].suite == "beyondrecall" for t in names) and not (data and Path(data).exists()):
        raise EvalError(f"{run_path}: the run's Beyond Recall data ({data}) is not there")
    ctx = RunContext(settings=settings, run_dir=run_dir, show_progress=_show(progress))
    results = {}
    for name in names:
        task = TASKS[name].load()
        task.prepare(ctx)
        plan = _Plan.existing(ctx, task, lambda items: items if ctx.limit is None
                              else items[:ctx.limit])
        latest_lines = run_dir.latest_samples(name)
        # every journal line joined (the shards' and any unsharded one) must answer this
        # run's settings and the items as they are now
        check_answers_match(ctx, task, plan.by_key,
                            [s for s in latest_lines if s.solved and s.key in plan.by_key])
        owner = assign(plan.all_items, count)
        latest = {s.key: s for s in latest_lines}
        for i in range(count):
            if (i, count) not in parts:
                continue
            mine = [it for it in plan.items if owner[str(it.cluster)] == i]
            done = sum(1 for it in mine if it.key in latest and not latest[it.key].failed)
            if done < len(mine):
                problems.append(f"shard {i}/{count}: {name}: {done} of {len(mine)} "
                                f"{task.unit}s done (partial: rerun that shard)")
        results[name] = aggregate_task(ctx, plan).to_json()
    run_dir.close()
    from evaluator.scoring.overall import overall

    header = {k: v for k, v in first.items() if k not in ("results", "shard", "overall")}
    out = {**header, "results": results, "overall": overall(results)}
    if problems:
        out["merge_problems"] = problems
    from evaluator.results import write_json

    write_json(run_dir.results_path, out)
    if not quiet:
        for p in problems:
            print(f"br-eval: merge: {p}", file=sys.stderr)
    return out, problems


def needs_merge(run_path) -> bool:
    """A sharded folder whose results.json is missing or older than a shard's part."""
    run_dir = RunDir(run_path, create=False)
    parts = run_dir.result_parts()
    if not parts:
        return False
    if not run_dir.results_path.exists():
        return True
    at = run_dir.results_path.stat().st_mtime
    return any(p.stat().st_mtime > at for p in parts.values())


class _CallableModule(type(sys)):
    """`from evaluator import evaluate` gives this module (Python imports a package's submodule
    under that name), so calling the module runs `evaluate()`: the convention of
    `from inspect_ai import eval`, without `import evaluator` importing the run loop."""

    def __call__(self, *args, **kwargs) -> EvalResults:
        return evaluate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
