"""`br-eval show KEY`: exactly what one question's agent would see."""

from __future__ import annotations

import json

from evaluator.commands._common import add_data_arg, add_lenient_arg, add_rc_args, task_files_of


def add_arguments(parser) -> None:
    parser.add_argument("key", help="question key dimension/task/trajectory_id/qN, "
                                    "e.g. management/memory_update/0/q0, or a RealCompanion key "
                                    "realcompanion/<track>/<participant>/<id>")
    add_data_arg(parser)
    add_rc_args(parser)
    add_lenient_arg(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object")


def history_as_dict(history) -> dict:
    """Everything `show` prints, as one object: the visible sessions (with each session's own
    released date, which a turn-level cutoff can move), their counts, and the question."""
    from beyondrecall.timestamps import iso_utc

    question = history.question
    return {
        "key": str(question.key),
        "cutoff": iso_utc(history.cutoff),
        "cutoff_raw": question.timestamp_raw,
        "persons": history.trajectory.persons,
        "visible": {"sessions": history.n_sessions, "turns": history.n_turns},
        "sessions": [
            {"index": vs.index, "date": iso_utc(vs.date), "date_raw": vs.date_raw,
             "session_date": iso_utc(vs.session.date), "session_date_raw": vs.session.date_raw,
             "turns": [{"index": vt.index, "time": iso_utc(vt.time), "time_raw": vt.time_raw,
                        "person": vt.turn.person, "content": vt.turn.content,
                        "media": list(vt.turn.media)}
                       for vt in vs.turns]}
            for vs in history.sessions
        ],
        "question": {"text": question.question, "media": list(question.media)},
    }


def videos_audio(history, bench) -> dict[str, str]:
    """{video path: "audio track" | "no audio" | "unreadable"} for every video the shown history
    and question carry: how its sound can reach a model (an audio track goes as audio or, with
    --asr, as a transcript)."""
    from evaluator.agents.protocol import media_kind

    paths = [rel for vs in history.sessions for vt in vs.turns for rel in vt.turn.media]
    paths += list(history.question.media)
    return {rel: video_audio(bench / rel) for rel in dict.fromkeys(paths) if media_kind(rel) == "video"}


def video_audio(path) -> str:
    """"audio track", "no audio" or "unreadable": whether a video has a sound track."""
    from media_cache.errors import MediaError
    from media_cache.video import _av_errors, open_container

    try:
        container = open_container(path)
    except MediaError:
        return "unreadable"
    try:
        return "audio track" if container.streams.audio else "no audio"
    except _av_errors():
        return "unreadable"
    finally:
        container.close()


def find_question(tasks, key):
    from beyondrecall.errors import DataError

    for task in tasks:
        for traj in task.trajectories:
            if traj.id == key.trajectory_id:
                if key.index < len(traj.questions):
                    return traj, traj.questions[key.index]
                raise DataError(f"{key}: trajectory {traj.id} has {len(traj.questions)} "
                                f"question(s); q{key.index} does not exist")
    raise DataError(f"{key}: no trajectory {key.trajectory_id!r} in task {key.task}")


def main(args) -> int:
    from beyondrecall import load_tasks, visible_history
    from beyondrecall.errors import DataError
    from beyondrecall.records import QuestionKey
    from evaluator.agents.builtin import persons_text, when_text
    from evaluator.datasets import data_dir

    if args.key.startswith("realcompanion/"):
        return show_realcompanion(args)
    try:
        key = QuestionKey.parse(args.key)
    except ValueError as exc:
        raise DataError(str(exc)) from None
    snapshot = data_dir("beyondrecall", args.data)
    tasks = load_tasks(snapshot, [key.task], lenient=args.lenient_time,
                       task_files=task_files_of(args))
    traj, question = find_question(tasks, key)
    history = visible_history(traj, question)
    audio = videos_audio(history, snapshot / "benchmark")
    if args.json:
        print(json.dumps({**history_as_dict(history), "video_audio": audio}, ensure_ascii=False,
                         indent=2))
        return 0
    cutoff = "none (all history)" if history.cutoff is None else \
        when_text(question.timestamp_raw, history.cutoff)
    print(f"{key}  cutoff: {cutoff}")
    people = persons_text(traj.persons)
    if people:
        print(f"persons: {people}")
    print(f"visible: {history.n_sessions} session(s), {history.n_turns} turn(s)")

    def listed(media) -> str:
        return ", ".join(rel if rel not in audio else
                         f"{rel} ({'+' if audio[rel] == 'audio track' else ''}{audio[rel]})"
                         for rel in media)

    for vs in history.sessions:
        moved = "" if vs.date == vs.session.date else \
            f"  (session date {when_text(vs.session.date_raw, vs.session.date)})"
        print(f"\n== session {vs.index}  {when_text(vs.date_raw, vs.date)}{moved}")
        for vt in vs.turns:
            media = f"  [media: {listed(vt.turn.media)}]" if vt.turn.media else ""
            print(f"  [{vt.index}] {when_text(vt.time_raw, vt.time)} {vt.turn.person}: "
                  f"{vt.turn.content}{media}")
    qmedia = f"  [media: {listed(question.media)}]" if question.media else ""
    print(f"\nQUESTION: {question.question}{qmedia}")
    return 0


def show_realcompanion(args) -> int:
    """A RealCompanion item, through its task's declaration (the same items a run journals)."""
    from evaluator.context import RunContext, RunSettings
    from evaluator.errors import UsageError
    from evaluator.datasets import data_dir
    from evaluator.realcompanion.adapter import adapted_data_dir
    from evaluator.registry import TASKS

    name = "/".join(args.key.split("/")[:2])
    if name not in TASKS:
        raise UsageError(f"{args.key}: no task {name!r}; `br-eval ls` lists the tasks")
    task = TASKS[name].load()
    ctx = RunContext(settings=RunSettings(rc_data=str(
        adapted_data_dir(args.rc_data, args.rc_adapter) if args.rc_adapter
        else data_dir("realcompanion", args.rc_data))))
    item = next((it for it in task.items(ctx) if it.key == args.key), None)
    if item is None:
        raise UsageError(f"{args.key}: no such item in {name} (keys look like "
                         f"{task.items(ctx)[0].key})")
    lines = task.describe_item(ctx, item)
    if args.json:
        print(json.dumps({"key": item.key, "cluster": item.cluster, "lines": lines},
                         ensure_ascii=False, indent=2))
    else:
        print("\n".join(lines))
    return 0
