"""`--executor ray`: each cluster of items (a trajectory, a participant) becomes a Ray task that
builds the task, its agent and model on a worker (with `--ray_num_gpus` / `--ray_num_cpus` of its
own) and yields one sample per item as it finishes; the driver alone appends them to the journal,
so resume, Ctrl-C and merge work as for a local run. At most `--num_concurrent` clusters run at
once. A worker that dies loses only the items it had not yielded yet: the rest of the run goes
on, the run ends with one error line naming the lost clusters, and a rerun does them.

`ray` is an optional extra: `pip install 'br-eval[ray]'`. The judge phase runs on the driver.
"""

from __future__ import annotations

import os
from pathlib import Path

from evaluator.errors import EvalError, UsageError

INSTALL_HINT = "pip install 'br-eval[ray]'"
_worker_state: dict = {}


class RayExecutor:
    def __init__(self, address: str | None = None, num_gpus: float = 0, num_cpus: float = 1,
                 init_kwargs: dict | None = None) -> None:
        try:
            import ray  # noqa: F401
        except ImportError:
            raise UsageError(f"--executor ray needs ray: {INSTALL_HINT}") from None
        if num_gpus < 0 or num_cpus < 0:
            raise UsageError("--ray_num_gpus and --ray_num_cpus must not be negative")
        self.address, self.num_gpus, self.num_cpus = address, num_gpus, num_cpus
        self.init_kwargs = dict(init_kwargs or {})
        self.model_spec = None

    def bind(self, model, model_args: dict, cache_path) -> None:
        """How workers build the model: a backend name and its args (or a picklable object)."""
        self.model_spec = (model, dict(model_args or {}), str(cache_path) if cache_path else None)

    def _start(self) -> None:
        import ray

        if ray.is_initialized():
            return
        kwargs = dict(self.init_kwargs)
        if self.address:
            kwargs["address"] = self.address
        else:
            # A local instance: workers import this checkout and find `module:Class` agents
            # where the driver does (its sys.path).
            import sys

            root = str(Path(__file__).resolve().parent.parent)
            path = os.pathsep.join(dict.fromkeys(
                [root] + [p for p in sys.path if p and os.path.isdir(p)]))
            env = kwargs.setdefault("runtime_env", {}).setdefault("env_vars", {})
            env.setdefault("PYTHONPATH", path)
            for name in ("BR_EVAL_HOME", "HF_HUB_OFFLINE", "HF_HOME"):
                if name in os.environ:
                    env.setdefault(name, os.environ[name])
        kwargs.setdefault("include_dashboard", False)
        kwargs.setdefault("log_to_driver", False)
        try:
            ray.init(**kwargs)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise EvalError(f"--executor ray: cannot start or reach Ray "
                            f"({self.address or 'local'}): {exc}") from None

    def each(self, ctx, jobs: list, append, bar) -> None:
        """Solve every (plan, item) job on Ray, one task per cluster, and append each sample
        on the driver as it streams back."""
        try:
            if not jobs:
                return
            import ray

            self._start()
            spec = _ctx_spec(ctx, self.model_spec)
            spec_ref = ray.put(spec)
            remote = ray.remote(_solve_cluster).options(
                num_returns="streaming", num_cpus=self.num_cpus, num_gpus=self.num_gpus,
                max_retries=0)
            groups: dict[tuple, list] = {}
            for plan, item in jobs:
                groups.setdefault((plan.task.name, str(item.cluster)), []).append(item.key)
            queue = list(groups.items())
            running: dict = {}
            lost: list[str] = []
            stop: BaseException | None = None
            try:
                while queue or running:
                    while queue and len(running) < max(1, ctx.num_concurrent) and stop is None:
                        (task, cluster), keys = queue.pop(0)
                        running[remote.remote(spec_ref, task, keys)] = f"{task}/{cluster}"
                    if not running:
                        break
                    ready, _ = ray.wait(list(running), num_returns=1)
                    gen = ready[0]
                    try:
                        ref = next(gen)
                    except StopIteration:
                        running.pop(gen)
                        continue
                    try:
                        kind, payload = ray.get(ref)
                    except ray.exceptions.RayError as exc:
                        lost.append(f"{running.pop(gen)} ({type(exc).__name__})")
                        continue
                    if kind == "stop":          # an EvalError on the worker stops the run
                        running.pop(gen)
                        stop = stop or EvalError(payload)
                        continue
                    from evaluator.records import Sample

                    append(Sample.from_json(payload))
                    bar.update()
            except KeyboardInterrupt:
                for gen in running:
                    ray.cancel(gen, force=True)
                raise
            if stop is not None:
                raise stop
            if lost:
                raise EvalError(f"--executor ray: {len(lost)} cluster(s) lost to failed workers "
                                f"({', '.join(lost[:5])}); what finished is kept: rerun the same "
                                "command to complete them")
        finally:
            bar.close()


def _ctx_spec(ctx, model_spec) -> dict:
    return {"run_dir": str(ctx.run_dir.path), "seed": ctx.seed, "limit": ctx.limit,
            "log_samples": ctx.log_samples, "data": ctx.data, "rc_data": ctx.rc_data,
            "lenient_time": ctx.lenient_time, "agent": ctx.agent, "agent_args": ctx.agent_args,
            "gen_kwargs": ctx.gen_kwargs, "media": ctx.media, "conditions": ctx.conditions,
            "detector": ctx.detector, "unanswerable": ctx.unanswerable, "model_spec": model_spec}


def _worker_ctx(spec: dict):
    """The run's context on this worker, built once per worker process and run."""
    key = repr(sorted((k, repr(v)) for k, v in spec.items()))
    state = _worker_state.get(key)
    if state is None:
        from evaluator.context import RunContext
        from evaluator.results import RunDir

        model = None
        model_spec = spec.get("model_spec")
        if model_spec and model_spec[0] is not None:
            model, model_args, cache_path = model_spec
            if isinstance(model, str):
                from evaluator.models import make_model

                model = make_model(model, model_args, cache_path=Path(cache_path) if cache_path else None)
        fields = {k: v for k, v in spec.items() if k not in ("run_dir", "model_spec")}
        ctx = RunContext(run_dir=RunDir(spec["run_dir"]), model=model, **fields)
        state = _worker_state[key] = {"ctx": ctx, "tasks": {}}
    return state


def _solve_cluster(spec: dict, task_name: str, keys: list[str]):
    """On a worker: yield ("sample", json) for each item of one cluster, in order;
    ("stop", line) when an EvalError stops the run."""
    from evaluator.evaluate import solve_item
    from evaluator.registry import TASKS

    try:
        state = _worker_ctx(spec)
        ctx = state["ctx"]
        task = state["tasks"].get(task_name)
        if task is None:
            task = TASKS[task_name].load()
            task.prepare(ctx)
            task._ray_items = {it.key: it for it in task.items(ctx)}
            state["tasks"][task_name] = task
        for key in keys:
            yield ("sample", solve_item(ctx, task, task._ray_items[key]).to_json())
    except EvalError as exc:
        yield ("stop", str(exc))


