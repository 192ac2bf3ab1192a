"""Agents used by the run tests (loaded through `--agent agents_for_tests:Class`)."""

from evaluator.agents import Agent, Answer

RECORD: list[dict] = []          # one entry per question, filled by RecordingAgent
INSTANCES = {"count": 0}


class RecordingAgent(Agent):
    """Writes down everything it is given; touches every media input (images and text)."""

    def __init__(self, model=None, **agent_args):
        INSTANCES["count"] += 1
        self.sessions = []
        self.entry = {"turns": [], "media": [], "session_dates": [], "prepared": []}

    def write(self, session):
        self.sessions.append(session)
        self.entry["session_dates"].append(session.date)
        for t in session.turns:
            self.entry["turns"].append((t.session_index, t.turn_index, t.time, t.content))
            for m in t.media:
                self.entry["media"].append(m.rel_path)
                self.entry["prepared"].extend(m.images())

    def answer(self, query):
        self.entry["key"] = query.key
        self.entry["cutoff"] = query.cutoff
        self.entry["query_media"] = [m.rel_path for m in query.media]
        for m in query.media:
            self.entry["prepared"].extend(m.images())
        self.entry["n_sessions_written"] = len(self.sessions)
        RECORD.append(self.entry)
        return Answer("I don't know", relied_on=[])


class InterruptingAgent(Agent):
    """Answers like the baseline but raises KeyboardInterrupt on the Nth question (Ctrl-C)."""

    calls = {"n": 0, "stop_at": 5}

    def __init__(self, model=None, **agent_args):
        from evaluator.agents.builtin import BaselineAgent

        self.inner = BaselineAgent(model)

    def write(self, session):
        self.inner.write(session)

    def answer(self, query):
        InterruptingAgent.calls["n"] += 1
        if InterruptingAgent.calls["n"] == InterruptingAgent.calls["stop_at"]:
            raise KeyboardInterrupt
        return self.inner.answer(query)


class ExplodingAgent(Agent):
    def write(self, session):
        pass

    def answer(self, query):
        raise RuntimeError("memory backend unavailable")


class CrashingAgent(Agent):
    """Answers like the baseline, but the process running its 3rd question dies at once
    (os._exit: a killed Ray worker), once per flag file $BR_EVAL_HOME/crash-flag."""

    calls = {"n": 0}

    def __init__(self, model=None, **agent_args):
        from evaluator.agents.builtin import BaselineAgent

        self.inner = BaselineAgent(model)

    def write(self, session):
        self.inner.write(session)

    def answer(self, query):
        import os

        flag = os.path.join(os.environ["BR_EVAL_HOME"], "crash-flag")
        CrashingAgent.calls["n"] += 1
        if CrashingAgent.calls["n"] == 3 and not os.path.exists(flag):
            open(flag, "w").close()
            os._exit(1)
        return self.inner.answer(query)


VIEWS: dict[str, dict] = {}      # question key -> what ViewAgent was given


class ViewAgent(Agent):
    """Keeps the MemorySessions and the Query it is given, whole (tests of what agents see)."""

    def __init__(self, model=None, **agent_args):
        self.sessions = []

    def write(self, session):
        self.sessions.append(session)

    def answer(self, query):
        VIEWS[query.key] = {"sessions": self.sessions, "query": query}
        if isinstance(query.persons, list):
            query.persons.append("intruder")      # must not reach the next question's agent
        return Answer("I don't know", relied_on=[])


class OddTextAgent(Agent):
    """Replies with an Answer whose text is `agent_args["text"]` read as JSON (`null`, `42`,
    `["a"]`): the agent protocol's text must be a string, None meaning no reply."""

    def __init__(self, model=None, **agent_args):
        super().__init__(model)
        import json

        text = agent_args.get("text")      # --agent_args may have read the value already
        if text == "lone-surrogate":       # half an emoji, as a cut model reply can hold
            self.text = "half \ud83d an emoji"
        else:
            self.text = json.loads(text) if isinstance(text, str) else text

    def write(self, session):
        pass

    def answer(self, query):
        from evaluator.agents.protocol import Answer

        return Answer(self.text)
