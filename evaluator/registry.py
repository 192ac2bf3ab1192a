"""The task registry for both suites. `br-eval ls` and `br-eval run` read it.

A task's runner and counter are named as "module:function" strings and imported only when used,
so listing tasks stays fast.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from beyondrecall.records import DIMENSIONS


@dataclass(frozen=True)
class TaskSpec:
    name: str            # what users type: "conflict_detection", "realcompanion/retrieval"
    suite: str           # "beyondrecall" | "realcompanion"
    group: str           # the dimension, or "realcompanion"
    description: str
    runner: str          # "module:function", called as fn(ctx: RunContext, spec) -> metrics dict

    def load_runner(self):
        module, _, fn = self.runner.partition(":")
        return getattr(importlib.import_module(module), fn)


_BR_RUNNER = "evaluator.runner:run_beyondrecall_task"

TASKS: dict[str, TaskSpec] = {}
for _dim, _names in DIMENSIONS.items():
    for _n in _names:
        TASKS[_n] = TaskSpec(_n, "beyondrecall", _dim, _n.replace("_", " "), _BR_RUNNER)

RC_TASKS = {
    "realcompanion/retrieval": ("retrieval baselines and controls, demand rate, restraint",
                                "evaluator.realcompanion.retrieval_task:run"),
    "realcompanion/chat": ("Chat track: replies to probes under context conditions",
                           "evaluator.realcompanion.chat_track:run"),
    "realcompanion/question": ("Question track: written questions about the history",
                               "evaluator.realcompanion.question_track:run"),
    "realcompanion/reconstruction": ("Reconstruction track: profile and persona from history",
                                     "evaluator.realcompanion.reconstruction_track:run"),
}
for _n, (_desc, _runner) in RC_TASKS.items():
    TASKS[_n] = TaskSpec(_n, "realcompanion", "realcompanion", _desc, _runner)

GROUPS = {**{d: list(n) for d, n in DIMENSIONS.items()}, "realcompanion": list(RC_TASKS)}


def resolve(names: list[str]) -> list[TaskSpec]:
    """Task names, `dimension/task`, group names (a dimension, `realcompanion`), `beyondrecall`,
    or `all`, comma- or space-separated; returns specs in registry order without duplicates."""
    from evaluator.errors import EvalError

    wanted: set[str] = set()
    for raw in names:
        for name in (p.strip() for p in raw.split(",")):
            if not name:
                continue
            if name == "all":
                wanted.update(TASKS)
            elif name == "beyondrecall":
                wanted.update(n for n, s in TASKS.items() if s.suite == "beyondrecall")
            elif name in GROUPS:
                wanted.update(GROUPS[name])
            elif name in TASKS:
                wanted.add(name)
            elif "/" in name and name.split("/", 1)[1] in TASKS \
                    and TASKS[name.split("/", 1)[1]].group == name.split("/", 1)[0]:
                wanted.add(name.split("/", 1)[1])
            else:
                raise EvalError(f"unknown task {name!r}; `br-eval ls` lists the tasks")
    return [spec for n, spec in TASKS.items() if n in wanted]
