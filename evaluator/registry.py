"""The task registry for both suites: name -> where the task is declared. `br-eval ls` and
`evaluate()` read it.

A task's declaration (a `evaluator.task.Task` subclass) is named as "module:Class" and imported
only when the task runs, so listing tasks stays fast. The Beyond Recall entries derive from the
card's Tasks table (beyondrecall/card.py `TASKS`, through beyondrecall.records.DIMENSIONS); each
one's scoring policy is evaluator/scoring/policy.py's, checked when the task is loaded.
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
    declaration: str     # "module:Class", a evaluator.task.Task subclass
    unit: str            # the word for one item

    def load(self):
        """The task's declaration, instantiated for this name."""
        module, _, cls = self.declaration.partition(":")
        return getattr(importlib.import_module(module), cls)(self.name)


def any_uses_agent(names) -> bool:
    """Whether any of these tasks is answered by an agent (an unknown name counts as one):
    only then do a folder's answer-changing settings (agent, model, media, ...) mean anything."""
    return any(TASKS[n].load().uses_agent if n in TASKS else True for n in names or ())


TASKS: dict[str, TaskSpec] = {}
for _dim, _names in DIMENSIONS.items():
    for _n in _names:
        TASKS[_n] = TaskSpec(_n, "beyondrecall", _dim, _n.replace("_", " "),
                             "evaluator.beyondrecall_task:BeyondRecallTask", "question")

RC_TASKS = {
    "realcompanion/retrieval": ("retrieval baselines and controls, demand rate, restraint",
                                "evaluator.realcompanion.retrieval_task:RetrievalTask", "probe"),
    "realcompanion/chat": ("Chat track: replies to probes under context conditions",
                           "evaluator.realcompanion.chat_track:ChatTask", "probe"),
    "realcompanion/question": ("Question track: written questions about the history",
                               "evaluator.realcompanion.question_track:QuestionTask", "question"),
    "realcompanion/reconstruction": ("Reconstruction track: profile and persona from history",
                                     "evaluator.realcompanion.reconstruction_track:"
                                     "ReconstructionTask", "participant"),
}
for _n, (_desc, _decl, _unit) in RC_TASKS.items():
    TASKS[_n] = TaskSpec(_n, "realcompanion", "realcompanion", _desc, _decl, _unit)

GROUPS = {**{d: list(n) for d, n in DIMENSIONS.items()}, "realcompanion": list(RC_TASKS)}

# Per suite other than Beyond Recall: "module:function" counting its tasks' items for `br-eval ls`
# from the files alone, called as fn(data_dir or None) -> {task: {count, units, participants,
# note}, "_data": {path, is_sample}}.
SUITE_COUNTERS = {"realcompanion": "evaluator.realcompanion:counts"}


def resolve(names: list[str]) -> list[TaskSpec]:
    """Task names, `dimension/task`, group names (a dimension, `realcompanion`), `beyondrecall`,
    or `all`, comma- or space-separated; returns specs in registry order without duplicates."""
    from evaluator.errors import UsageError

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
                import difflib

                close = difflib.get_close_matches(name, [*TASKS, *GROUPS], n=1, cutoff=0.75)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise UsageError(f"unknown task {name!r}{hint}; `br-eval ls` lists the tasks")
    return [spec for n, spec in TASKS.items() if n in wanted]
