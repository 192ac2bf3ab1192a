"""Built-in agents: the weight-free baseline and five memory strategies over a chat model.

- `baseline`     no model: BM25 over the visible turns; answers with the best-matching turn (or,
                 for a multiple-choice question, the option closest to the top turns) and refuses
                 when nothing matches; a query whose options describe a JSON answer
                 (`options["json"]`, see `BaselineAgent.answer_json`) gets that JSON, filled the
                 same way. Real, low scores; runs offline on any machine.
- `full-context` all visible history, cut from the front to a token budget.
- `rag`          top-k turns (turn text, PDF page text, captions) by BM25, or by dense or hybrid
                 retrieval over an embeddings endpoint (`retriever=embed|hybrid`,
                 evaluator.agents.dense_index), plus the last few turns.
- `mem0`         mem0's memory (evaluator.agents.mem0_agent): its retrieved memories plus the
                 last few turns, answered as `rag` answers.
- `recent`       the last N turns.
- `none`         the question alone.

What a model-backed agent's prompt holds (the user message, in this order): `People in this
conversation: Maya, Jon` (the trajectory's `persons`, see `persons_text`), for `mem0` its
`RETRIEVED MEMORIES` (`memory_parts`), `CONVERSATION HISTORY`,
the chosen turns as `person: content` lines under one `Session date: ...` line per session (a turn
whose own time differs from its session's gets it in brackets before the speaker), `Current
time: ...` (the question's timestamp, when it has one) and `Question: ...`. Every time is shown as
released with its parsed UTC value beside it (`when_text`): `8:27 am on 23 October, 2025
(2025-10-23 08:27 UTC)`.

Token counting is an estimate (one token per 4 characters of text) plus a fixed 765 tokens per
image, as MemEye and Mem-Gallery count images. Media reach a model as images when it takes images
(`supports_images`, true for VLM backends) and as text (PDF page text, captions) otherwise;
`--agent_args media=text|images|none` overrides. A video's audio reaches the model as audio when
the backend takes it (`supports_audio`: openai with audio=true, hf audio-language models) or
`media="images,audio"` asks for it, and as its transcript (`--asr`) otherwise.
"""

from __future__ import annotations

import functools
import math
import os
import re
import time
from datetime import datetime, timezone
from pathlib import Path

from beyondrecall.timestamps import written_day
from evaluator.agents.dense_index import EMBED_ARGS
from evaluator.agents.protocol import Agent, Answer, MemorySession, MemoryTurn, Query

IMAGE_TOKENS = 765
AUDIO_TOKENS_PER_SECOND = 25      # Qwen2-Audio: one token per 40 ms of audio
_MEDIA_WORDS = ("images", "text", "none", "audio")
REFUSAL = "I don't know: the conversation does not say."

SYSTEM_PROMPT = (
    "You are an assistant with a long-term memory of a multimodal conversation. Answer the "
    "question using only the conversation history below, including its images, documents and "
    "videos. If the history does not contain the answer, say that you don't know. When the "
    "question lists lettered options, answer with the letter. Answer concisely."
)


PERSONS_MAX_CHARS = 300       # the `People in this conversation:` line is cut here ("...")


def text_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


_LINE_BREAKS = re.compile(r"\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")   # where str.splitlines breaks


def when_text(raw: str | None, value: datetime) -> str:
    """A time as the built-in prompts show it: the string exactly as released (only a line break
    inside it shown as a space, so it stays on its line) and its parsed UTC value in brackets,
    `8:27 am on 23 October, 2025 (2025-10-23 08:27 UTC)`; the UTC value alone where the data
    has no string (`2025-10-23 08:27 UTC`). Seconds are shown when they are not zero; a naive
    value is taken as UTC, never as the machine's local time."""
    utc = value.replace(tzinfo=timezone.utc) if value.tzinfo is None else \
        value.astimezone(timezone.utc)
    parsed = f"{utc:%Y-%m-%d %H:%M}" + (f":{utc:%S}" if utc.second else "") + " UTC"
    shown = _LINE_BREAKS.sub(" ", raw) if isinstance(raw, str) else ""
    return f"{shown} ({parsed})" if shown.strip() else parsed


def persons_text(persons) -> str | None:
    """The trajectory's `persons` as the built-in prompts show it, one short line: a list of
    names joined by ", " (`Maya, Jon`), a string as it is, anything else as compact JSON;
    whitespace runs shown as one space; cut to PERSONS_MAX_CHARS characters ("..." marks the
    cut). None when there is nothing to show."""
    import json

    if isinstance(persons, str):
        text = persons
    elif isinstance(persons, (list, tuple)) and all(isinstance(p, str) for p in persons):
        text = ", ".join(persons)
    elif persons is None or persons in ([], {}, ()):
        return None
    else:
        text = json.dumps(persons, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    if len(text) > PERSONS_MAX_CHARS:
        text = text[:PERSONS_MAX_CHARS - 3] + "..."
    return text or None


def prompt_sources() -> list[Path]:
    """The files that decide what a built-in agent sends or answers: every module of
    `evaluator.agents` (this file's prompts and their layout, the protocol's records and media
    renderings, the BM25 index), and the rule that reads a reply's answer after its reasoning
    (evaluator/scoring/readable.py, `visible_reply`)."""
    here = Path(__file__).resolve().parent
    return sorted(here.glob("*.py")) + [here.parent / "scoring" / "readable.py"]


@functools.lru_cache(maxsize=1)
def prompt_digest() -> str:
    """sha256 over `prompt_sources()` (each file's name and bytes) and the agents' BM25
    tokenizer name, computed once per process: the built-in agents' part of a run's agent
    identity, so a run folder answered with other prompts is never resumed as the same agent."""
    import hashlib

    from evaluator.text import AGENT_BM25

    h = hashlib.sha256()
    for path in prompt_sources():
        data = path.read_bytes()
        h.update(f"{path.name}\0{len(data)}\0".encode())
        h.update(data)
    h.update(f"tokenizer\0{AGENT_BM25.name}".encode())
    return h.hexdigest()


def _as_int(value, default: int) -> int:
    return default if value is None else int(value)


class _Collecting(Agent):
    AGENT_ARGS: dict[str, str] = {}      # the --agent_args keys this agent reads, and what they do
    COUNTS: dict[str, int] = {}          # its whole-number keys and their least value, checked
                                         # before the first item (check_agent_args)

    def __init__(self, model=None, **agent_args) -> None:
        super().__init__(model)
        self.args = agent_args
        self.turns: list[MemoryTurn] = []
        self.sessions: dict[int, MemorySession] = {}

    def write(self, session: MemorySession) -> None:
        self.sessions[session.index] = session
        self.turns.extend(session.turns)


class BaselineAgent(_Collecting):
    """BM25 retrieval that answers with the best-matching turn, or refuses."""

    AGENT_ARGS = {"window": "the last N turns that count as the recent thread, not retrieval (3)"}
    COUNTS = {"window": 0}

    def answer(self, query: Query) -> Answer:
        from evaluator.agents.text_index import Bm25Index
        from evaluator.scoring import extract_options

        if isinstance(query.options.get("json"), dict):
            return self.answer_json(query.options["json"])

        docs = [_turn_search_text(t) for t in self.turns]
        index = Bm25Index(docs)
        options = extract_options(query.text)
        question_only = _strip_options(query.text, options)
        ranked = index.ranked(question_only, k=3)
        hits = [(i, s) for i, s in ranked if s > 0]
        if options:
            evidence = " ".join(docs[i] for i, _ in hits) or ""
            if not evidence:
                return Answer(REFUSAL, relied_on=[])
            ev_index = Bm25Index([evidence])
            best = max(sorted(options), key=lambda L: ev_index.scores(options[L])[0])
            return Answer(best, relied_on=[self.turns[i].ref for i, _ in hits])
        if not hits or _too_weak(question_only, docs[hits[0][0]]):
            return Answer(REFUSAL, relied_on=[], **self.decisions(None))
        best = self.turns[hits[0][0]]
        if _WHEN.match(query.text):
            # A "when" question: the day of the best evidence as its string writes it (a time at
            # 20:00 -05:00 is on the 23rd, though on the 24th in UTC), not its words
            day = written_day(best.time_raw) if best.time_raw else best.time.date()
            return Answer(f"{day.day} {day:%B %Y}", relied_on=[best.ref],
                          **self.decisions(hits[0][0]))
        return Answer(best.content, relied_on=[best.ref], **self.decisions(hits[0][0]))

    def decisions(self, best: int | None) -> dict:
        """What the BM25 gate decided, as the agent protocol's decision fields: it retrieved
        (rho-hat = 1) when a turn passed the gate and lies outside the last `window` turns
        (agent arg, default 3, the chat track's recent window); the locus is "thread" for a turn
        inside that window, "companion" for a companion turn outside it, else "episode" (the
        baseline keeps no profile store), and "none" when the gate stayed shut."""
        if best is None:
            return {"retrieved": False, "locus": "none", "evidence_ids": []}
        window = _as_int(self.args.get("window"), 3)
        turn = self.turns[best]
        ids = [turn.id] if turn.id else []
        if best >= len(self.turns) - window:
            return {"retrieved": False, "locus": "thread", "evidence_ids": ids}
        return {"retrieved": True, "locus": "companion" if turn.person == "companion" else "episode",
                "evidence_ids": ids}


    def answer_json(self, spec: dict) -> Answer:
        """A JSON answer without a model, for a query whose `options["json"]` describes one.

        Each key of `spec` names a field of the answer and says what goes in it (generic words,
        no task's name):
        - `{"claims_about": PERSON, "max": N}`: a list of `{"text", "citations"}` claims: PERSON's
          own first-person statements (latest N, default 20, in history order), each citing its
          message id where the data has ids.
        - `{"values_for": [NAME, ...], "from": PERSON}`: an object giving, for each name, the
          first 80 characters of PERSON's message that best matches the name's words (BM25),
          when one matches at all.
        Any other field spec is answered with null."""
        import json

        from evaluator.agents.text_index import Bm25Index

        out: dict = {}
        for field_name, want in spec.items():
            want = want if isinstance(want, dict) else {}
            if "claims_about" in want:
                turns = [t for t in self.turns if t.person == want["claims_about"]]
                limit = int(want.get("max", 20))
                claims, seen = [], set()
                for t in reversed(turns):
                    if _FIRST_PERSON.search(t.content) and t.content not in seen:
                        seen.add(t.content)
                        claims.append({"text": t.content, "citations": [t.id] if t.id else []})
                    if len(claims) >= limit:
                        break
                out[field_name] = claims[::-1]
            elif "values_for" in want:
                turns = [t for t in self.turns if t.person == want.get("from", "user")]
                index = Bm25Index([t.content for t in turns])
                values = {}
                for name in want["values_for"] or ():
                    ranked = index.ranked(re.sub(r"[._]+", " ", str(name)), k=1)
                    if ranked and ranked[0][1] > 0:
                        values[name] = turns[ranked[0][0]].content[:80]
                out[field_name] = values
            else:
                out[field_name] = None
        return Answer(json.dumps(out), relied_on=None)


_FIRST_PERSON = re.compile(r"\b(i am|i'm|i work|i live|i have|i've|i moved|i started|my)\b", re.I)
MIN_SHARED_TERMS = 2
_WHEN = re.compile(r"^\s*(when|on what date|on which (day|date)|what date)\b", re.IGNORECASE)


def _too_weak(question: str, doc: str) -> bool:
    """The best turn shares fewer than two of the question's search terms (all of them for a
    one-term question): the baseline refuses rather than answer with a loosely related turn,
    e.g. "What is the name of Lena's dentist?" against a turn that only mentions Lena."""
    from evaluator.agents.text_index import tokenize

    q = set(tokenize(question))
    return len(q & set(tokenize(doc))) < min(MIN_SHARED_TERMS, len(q))


def _strip_options(text: str, options: dict) -> str:
    for body in options.values():
        text = text.replace(body, " ")
    return text


def _turn_search_text(turn: MemoryTurn, with_media_text: bool = False) -> str:
    """The speaker's name is searchable too: people say "I", questions say "Priya"."""
    text = f"{turn.person}: {turn.content}"
    if not with_media_text or not turn.media:
        return text
    return text + "\n" + "\n".join(m.text() for m in turn.media)


class _PromptAgent(_Collecting):
    """Builds one prompt from chosen turns and asks the model once."""

    AGENT_ARGS = {"media": "images, text or none, optionally with audio (images+audio): how media "
                           "reach the model (default: images when it takes them, else text)"}
    memory_cost = None   # a MemoryCost for agents whose memory spends calls (journal: memory_cost)

    @classmethod
    def identity(cls, agent_args: dict) -> dict | None:
        """What identifies this agent's memory system beyond br-eval's code (package versions,
        configuration, the embedding model and its dimension learned from the endpoint), or None;
        it goes into results.json's agent identity, so a changed one refuses to resume."""
        return None

    def memory_parts(self, query: Query) -> list:
        """Text parts placed before CONVERSATION HISTORY (a memory system's retrieved memories)."""
        return []

    def decisions_of(self, chosen: list[MemoryTurn]) -> dict:
        """The Answer's decision fields (retrieved, locus, evidence_ids); {}: not reported."""
        return {}

    def _media_words(self) -> list[str]:
        from evaluator.errors import EvalError

        raw = self.args.get("media")
        words = [w for w in re.split(r"[,+\s]+", str(raw or "").strip().lower()) if w]
        bad = [w for w in words if w not in _MEDIA_WORDS]
        if bad or len([w for w in words if w != "audio"]) > 1:
            raise EvalError(f"--agent_args media={raw!r}: use one of images, text, none, optionally "
                            "with audio (e.g. media=\"images,audio\" or media=images+audio)")
        return words

    def media_mode(self) -> str:
        visual = [w for w in self._media_words() if w != "audio"]
        if visual:
            return visual[0]
        return "images" if getattr(self.model, "supports_images", True) else "text"

    def audio_mode(self) -> bool:
        """Send videos' audio tracks as audio parts (else their transcripts, when --asr is on)."""
        from evaluator.errors import EvalError

        takes = bool(getattr(self.model, "supports_audio", False))
        if "audio" in self._media_words():
            if not takes:
                raise EvalError("--agent_args media asks for audio but the model takes none "
                                "(openai: --model_args audio=true; hf: an audio-language model)")
            return True
        return takes and self.args.get("media") in (None, "")

    def media_parts(self, media, mode: str, audio: bool) -> list:
        from evaluator.models.base import AudioPart, ImagePart, TextPart

        parts: list = []
        for m in media:
            if mode == "images":
                parts.extend(ImagePart(p) for p in m.images())
            elif mode == "text":
                parts.append(TextPart(m.text() + "\n"))
            if m.kind != "video":
                continue
            if audio:
                wav = m.audio()
                if wav is not None:
                    parts.append(AudioPart(wav))
            elif mode == "images":
                # text() already carries the transcript; next to frames it is sent on its own.
                speech = m.transcript()
                if speech:
                    parts.append(TextPart(f"[speech in {m.rel_path.rsplit('/', 1)[-1]}] {speech}\n"))
        return parts

    def choose(self, query: Query) -> list[MemoryTurn]:
        raise NotImplementedError

    def session_line(self, t: MemoryTurn) -> str:
        """The header over a session's chosen turns: its date as released and in UTC."""
        s = self.sessions.get(t.session_index)
        if s is None:                 # a turn written without its session: its own time
            return f"Session date: {when_text(t.time_raw, t.time)}\n"
        return f"Session date: {when_text(s.date_raw, s.date)}\n"

    def own_time(self, t: MemoryTurn) -> str:
        """`[time] ` for a turn whose time differs from its session's (an explicit timestamp),
        else nothing: most turns inherit their session's date, shown once in its header."""
        s = self.sessions.get(t.session_index)
        if s is not None and (t.time_raw, t.time) == (s.date_raw, s.date):
            return ""
        return f"[{when_text(t.time_raw, t.time)}] "

    def answer(self, query: Query) -> Answer:
        from evaluator.errors import EvalError
        from evaluator.models.base import Message, TextPart

        if self.model is None:
            raise EvalError(f"agent {type(self).__name__} needs a model: pass --model hf|openai|mock")
        mode = self.media_mode()
        audio = self.audio_mode()
        chosen = self.choose(query)

        def media_parts(media) -> list:
            return self.media_parts(media, mode, audio)

        parts: list = []
        session = None
        for t in chosen:
            if t.session_index != session:
                session = t.session_index
                parts.append(TextPart(self.session_line(t)))
            parts.append(TextPart(f"{self.own_time(t)}{t.person}: {t.content}\n"))
            parts.extend(media_parts(t.media))
        q_parts: list = []
        if query.cutoff is not None:
            q_parts.append(TextPart(f"Current time: {when_text(query.cutoff_raw, query.cutoff)}\n"))
        q_parts.append(TextPart(f"Question: {query.text}\n"))
        q_parts.extend(media_parts(query.media))
        history = [TextPart("CONVERSATION HISTORY\n")] + parts if parts else \
            [TextPart("CONVERSATION HISTORY\n(none)\n")]
        history = self.memory_parts(query) + history
        people = persons_text(query.persons)
        if people:
            history.insert(0, TextPart(f"People in this conversation: {people}\n"))
        messages = [Message.text("system", SYSTEM_PROMPT),
                    Message("user", tuple(history + q_parts))]
        gen = self.model.generate(messages, **self.args.get("gen_kwargs", {}))
        extra = {"cached": gen.cached}
        if getattr(gen, "served_model", None) is not None:
            extra["served_model"] = gen.served_model
            extra["requested_model"] = gen.requested_model
        if self.memory_cost is not None:
            extra["memory_cost"] = self.memory_cost.as_dict()
        raw = gen.raw if isinstance(getattr(gen, "raw", None), dict) else {}
        if isinstance(raw.get("endpoint"), str):
            extra["endpoint"] = raw["endpoint"]
        from evaluator.scoring.readable import generation_answer

        # a reasoning model's answer is what follows its <think> block (a block that never
        # closes holds no answer: "", an empty reply); a cut reply is noted
        text, notes = generation_answer(gen.text, raw)
        extra.update(notes)
        decided = self.decisions_of(chosen)
        return Answer(text, relied_on=decided.pop("relied_on", [t.ref for t in chosen]),
                      input_tokens=gen.input_tokens, output_tokens=gen.output_tokens,
                      prompt=messages, extra=extra, **decided)


class FullContextAgent(_PromptAgent):
    AGENT_ARGS = {**_PromptAgent.AGENT_ARGS,
                  "max_context_tokens": "token budget of the history, cut from the front (32000)"}
    COUNTS = {"max_context_tokens": 1}

    def cost(self, t: MemoryTurn, mode: str) -> int:
        cost = text_tokens(t.content) + 8 + text_tokens(self.own_time(t))
        audio = self.audio_mode()
        for m in t.media:
            if mode == "images":
                cost += IMAGE_TOKENS * len(m.images())
            elif mode == "text":
                cost += text_tokens(m.text())
            if m.kind == "video" and audio:
                wav = m.audio()
                if wav is not None:   # 16 kHz float32: 64,000 bytes a second
                    cost += math.ceil(max(0, os.path.getsize(wav) - 44) / 64000 * AUDIO_TOKENS_PER_SECOND)
            elif m.kind == "video" and mode == "images":
                cost += text_tokens(m.transcript() or "")
        return cost

    def budget(self, query: Query) -> int:
        """max_context_tokens (default 32,000), bounded by the model's context length when the
        backend knows it (preflight learns it from the server): 90% of the window (our token
        count is an estimate) less the answer's max_tokens and the system prompt and question."""
        budget = _as_int(self.args.get("max_context_tokens"), 32000)
        window = getattr(self.model, "context_length", None)
        if isinstance(window, int) and not isinstance(window, bool) and window > 0:
            from evaluator.models._common import resolve_gen_kwargs

            answer = resolve_gen_kwargs(self.args.get("gen_kwargs") or {})["max_tokens"]
            overhead = text_tokens(SYSTEM_PROMPT) + text_tokens(query.text) + 64 + \
                text_tokens(persons_text(query.persons) or "")
            overhead += sum(IMAGE_TOKENS * len(m.images()) if self.media_mode() == "images"
                            else text_tokens(m.text()) for m in query.media)
            budget = min(budget, int(window * 0.9) - answer - overhead)
        return max(budget, 0)

    def choose(self, query: Query) -> list[MemoryTurn]:
        budget = self.budget(query)
        mode = self.media_mode()
        kept: list[MemoryTurn] = []
        used = 0
        for t in reversed(self.turns):        # cut from the front: keep the newest that fit
            c = self.cost(t, mode)
            if not kept or kept[-1].session_index != t.session_index:
                c += text_tokens(self.session_line(t))    # its session's header line
            if used + c > budget:
                break
            kept.append(t)
            used += c
        return kept[::-1]


class RecentAgent(_PromptAgent):
    AGENT_ARGS = {**_PromptAgent.AGENT_ARGS, "n": "the last N turns (20)"}
    COUNTS = {"n": 0}

    def choose(self, query: Query) -> list[MemoryTurn]:
        n = _as_int(self.args.get("n"), 20)
        return self.turns[-n:] if n > 0 else []


class NoneAgent(_PromptAgent):
    def choose(self, query: Query) -> list[MemoryTurn]:
        return []


class RagAgent(_PromptAgent):
    """Retrieval over the visible turns: BM25 (default), dense (`retriever=embed`, cosine over an
    OpenAI-compatible /v1/embeddings endpoint) or both fused (`retriever=hybrid`, reciprocal rank
    fusion, evaluator.agents.dense_index); the `top_k` turns plus the last `last` turns."""

    AGENT_ARGS = {**_PromptAgent.AGENT_ARGS, "top_k": "turns retrieved (10)",
                  "last": "plus the last N turns (4)",
                  "retriever": "bm25 (default), embed (dense: cosine over an embeddings "
                               "endpoint) or hybrid (BM25 + dense, reciprocal rank fusion, k=60)",
                  **EMBED_ARGS}
    COUNTS = {"top_k": 1, "last": 0}

    @classmethod
    def identity(cls, agent_args: dict) -> dict | None:
        from evaluator.agents.dense_index import RRF_K, embedder_from_args, retriever_of

        retriever = retriever_of(agent_args)
        if retriever == "bm25":
            return None            # as before dense retrieval existed: old folders resume
        embedder = embedder_from_args(agent_args, f"--agent rag with retriever={retriever}")
        out = {"retriever": retriever, "embedding": embedder.probe(refresh=True)}
        if retriever == "hybrid":
            out["fusion"] = f"reciprocal rank fusion, k={RRF_K}, over BM25 (score > 0) and dense"
        return out

    def __init__(self, model=None, **agent_args) -> None:
        from evaluator.agents.dense_index import retriever_of

        super().__init__(model, **agent_args)
        self.retriever = retriever_of(self.args)
        self._vectors: list = []           # one array of vectors per written session
        if self.retriever != "bm25":
            from evaluator.models.embeddings import MemoryCost

            self.memory_cost = MemoryCost()

    def _embedder(self):
        from evaluator.agents.dense_index import embedder_from_args

        return embedder_from_args(self.args, f"--agent rag with retriever={self.retriever}")

    def write(self, session: MemorySession) -> None:
        super().write(session)
        if self.retriever == "bm25" or not session.turns:
            return
        started = time.perf_counter()
        with_media = self.media_mode() != "none"
        docs = [_turn_search_text(t, with_media) for t in session.turns]
        self._vectors.append(self._embedder().embed(docs, self.memory_cost.write))
        self.memory_cost.write.seconds += time.perf_counter() - started

    def choose(self, query: Query) -> list[MemoryTurn]:
        from evaluator.agents.text_index import Bm25Index

        k = _as_int(self.args.get("top_k"), 10)
        last = _as_int(self.args.get("last"), 4)
        with_media = self.media_mode() != "none"
        started = time.perf_counter()
        bm25 = dense = None
        if self.retriever in ("bm25", "hybrid"):
            index = Bm25Index([_turn_search_text(t, with_media) for t in self.turns])
            bm25 = [i for i, s in index.ranked(query.text) if s > 0]
        if self.retriever in ("embed", "hybrid") and self.turns:
            import numpy as np

            from evaluator.agents.dense_index import dense_ranked

            q = self._embedder().embed([query.text], self.memory_cost.read)[0]
            dense = [i for i, _ in dense_ranked(np.concatenate(self._vectors), q)]
        if self.retriever == "bm25":
            ranked = bm25[:k]
        elif self.retriever == "embed":
            ranked = (dense or [])[:k]
        else:
            from evaluator.agents.dense_index import rrf

            ranked = [i for i, _ in rrf([bm25, dense or []], k)]
        if self.memory_cost is not None:
            self.memory_cost.read.seconds += time.perf_counter() - started
        recent = range(max(0, len(self.turns) - last), len(self.turns))
        self._retrieved = [i for i in ranked if i not in recent]     # best first
        return [self.turns[i] for i in sorted(set(ranked) | set(recent))]   # chronological

    def decisions_of(self, chosen: list[MemoryTurn]) -> dict:
        """retrieved: a turn came in by retrieval from before the last `last` turns; evidence
        ids: those turns' message ids, best first; locus: not reported (rag keeps one store)."""
        found = [self.turns[i] for i in getattr(self, "_retrieved", [])]
        return {"retrieved": bool(found), "locus": None,
                "evidence_ids": [t.id for t in found if t.id]}


BUILTIN_AGENTS = {
    "baseline": BaselineAgent,
    "full-context": FullContextAgent,
    "rag": RagAgent,
    "recent": RecentAgent,
    "none": NoneAgent,
    # its own module (it imports this one): loaded when named; mem0 itself only when it runs
    "mem0": "evaluator.agents.mem0_agent:Mem0Agent",
}


def resolve_agent(spec: str):
    """A built-in name or `package.module:Class` (the current folder and --include_path folders
    are searched)."""
    from evaluator.errors import UsageError
    from evaluator.plugins import load_attr

    if spec in BUILTIN_AGENTS:
        cls = BUILTIN_AGENTS[spec]
        if isinstance(cls, str):
            import importlib

            module, _, name = cls.partition(":")
            cls = getattr(importlib.import_module(module), name)
        return cls
    if ":" not in spec:
        import difflib

        close = difflib.get_close_matches(spec, list(BUILTIN_AGENTS), n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise UsageError(f"unknown agent {spec!r}{hint}: use one of {', '.join(BUILTIN_AGENTS)} "
                         "or package.module:Class")
    cls = load_attr(spec, "--agent", "class")
    for method in ("write", "answer"):
        if not callable(getattr(cls, method, None)):
            raise UsageError(f"--agent {spec}: {spec.partition(':')[2]} has no {method}() method")
    return cls


def accepted_agent_args(cls) -> list[str] | None:
    """The --agent_args keys an agent class takes: its `AGENT_ARGS` (a mapping of key to help, or
    a list of keys) when it has one, else the named parameters of its `__init__` after `model`;
    None (any key) for an `__init__` with `**kwargs` and no AGENT_ARGS."""
    import inspect

    declared = getattr(cls, "AGENT_ARGS", None)
    if declared is not None:
        return [str(k) for k in declared]
    try:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]    # after self
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params if p.name != "model"
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _takes_keyword(cls, name: str) -> bool:
    import inspect

    try:
        params = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD or p.name == name for p in params)


def check_agent_args(spec: str, agent_args: dict, gen_kwargs: dict | None = None) -> None:
    """One UsageError line, before the first item, for an --agent_args key the agent does not
    take (with the closest key it does take), or --gen_kwargs for an agent that takes none."""
    from evaluator.errors import UsageError, did_you_mean

    cls = resolve_agent(spec)
    if gen_kwargs and not _takes_keyword(cls, "gen_kwargs"):
        raise UsageError(f"--gen_kwargs: --agent {spec} does not take gen_kwargs (its __init__ "
                         "has no gen_kwargs parameter and no **kwargs); drop --gen_kwargs or "
                         "accept gen_kwargs in the agent")
    accepted = accepted_agent_args(cls)
    if accepted is None:
        return
    for key in agent_args:
        if key not in accepted:
            takes = f"it takes {', '.join(accepted)}" if accepted else "it takes none"
            raise UsageError(f"--agent_args {key}: --agent {spec} does not take it"
                             f"{did_you_mean(key, accepted)} ({takes})")
    for key, least in getattr(cls, "COUNTS", {}).items():
        value = agent_args.get(key)
        if value is None:
            continue
        try:
            ok = not isinstance(value, bool) and int(value) == float(value) and int(value) >= least
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise UsageError(f"--agent_args {key}={value}: --agent {spec} takes a whole number of "
                             f"at least {least}")


def agent_args_help() -> str:
    """`--agent_args` keys per built-in agent, for --help."""
    return "; ".join(f"{name}: {', '.join(f'{k}=' for k in resolve_agent(name).AGENT_ARGS) or 'none'}"
                     for name in BUILTIN_AGENTS)
