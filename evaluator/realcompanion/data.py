"""The RealCompanion release as typed records: the one place that turns its files into data.

The paper publishes five files per relationship (the conversation, the profile, the persona, the
chat gold and the questions); their exact shapes are not known to us. `shapes.py` finds them in
the plausible layouts and formats and gives their rows under br-eval's field names; this module
checks what the rows say and builds the records below, which every task works on. br-eval's own
layout (what the generated sample writes, docs/realcompanion.md) is one folder
per participant (`U01`, `U02`, ...) with:

- `conversation.jsonl` one message a line, in order: id, day, seq, time, speaker, session, text
- `profile.jsonl`      one claim a line: id, text, confidence, valid_from, valid_to, citations, audit
- `persona.json`       {"slots": {name: {"value", "strength", "evidence"}}}
- `chat.jsonl`         one probe a line (see `Probe`)
- `questions.jsonl`    one written question a line: qid, category, question, answer, evidence_ids,
                       asked_after

Message ids: the released id, else the `day{n}-{j}` key made from day and seq (j: the message's
place in its day when seq is absent); a citation may name a message by either. Every cited id
must exist; a dangling citation is a DataError naming the file, the line (or row) and the id.
A shape br-eval does not read goes through `--rc-adapter` (`adapter.py`). Standard library only,
so `br-eval ls` stays fast.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from beyondrecall.errors import DataError, NoDataError
from evaluator.realcompanion.shapes import day_key

CONVERSATION = "conversation.jsonl"
PROFILE = "profile.jsonl"
PERSONA = "persona.json"
CHAT = "chat.jsonl"
QUESTIONS = "questions.jsonl"
FILES = (CONVERSATION, PROFILE, PERSONA, CHAT, QUESTIONS)

SPEAKERS = ("user", "companion")
STRATA = ("proportional", "enriched", "abstention")
LOCI = ("thread", "none", "profile", "episode", "companion")
MEMORY_LOCI = frozenset({"profile", "episode", "companion"})
ON_SCREEN = ("clear", "borderline", "not_on_screen")   # section D.4's verdicts, canonical spelling
AUDITS = ("supported", "repairable", "unsupported", "pending", "pruned_supported", "unjudged")


# -- records -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Message:
    id: str
    position: int            # 0-based index in the participant's conversation
    day: int | None
    seq: int | None
    time: str | None         # ISO 8601 as released
    speaker: str             # "user" | "companion"
    session: str
    text: str


@dataclass(frozen=True, slots=True)
class Claim:
    id: str
    text: str
    confidence: float | None
    valid_from: str | None
    valid_to: str | None
    citations: tuple[str, ...]
    audit: str | None


@dataclass(frozen=True, slots=True)
class PersonaSlot:
    name: str
    value: Any
    strength: Any
    evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Probe:
    participant: str
    probe_id: str
    message_id: str
    position: int                        # the probe message's position; its pool is [0, position)
    text: str                            # the probe message's text (the participant's own words)
    stratum: str                         # proportional | enriched | abstention
    scoreable: bool
    ok: bool
    locus: str                           # thread | none | profile | episode | companion
    tier: str | None
    category: str | None
    rule: str | None
    referent_text: str | None
    gold_response: str | None
    grounding_ids: tuple[str, ...]
    reference_ids: tuple[str, ...]
    profile_ids: tuple[str, ...]
    reference_positions: tuple[int, ...]  # positions of reference_ids, ascending, all < position
    on_screen: str | None = None          # D.4 verdict: clear | borderline | not_on_screen | None

    @property
    def memory_bearing(self) -> bool:
        """The referent lives outside the current thread (profile, episode or companion)."""
        return self.locus in MEMORY_LOCI

    @property
    def memory_bearing_strict(self) -> bool:
        """The strict reading (Table 21): memory-bearing and its referent is not already on
        screen; a row without a verdict keeps its recorded label."""
        return self.memory_bearing and self.on_screen not in ("clear", "borderline")

    @property
    def has_reference_set(self) -> bool:
        """R(p) is not empty (see `has_reference_set`)."""
        return has_reference_set(self.reference_ids, self.profile_ids)

    @property
    def needs_nothing(self) -> bool:
        """The misfire population: cold opens and probes with no referent (locus none)."""
        return is_misfire_population(self.cold_open, self.locus)

    @property
    def cold_open(self) -> bool:
        """A session opener kept as a restraint control (the abstention stratum)."""
        return self.stratum == "abstention"

    @property
    def key(self) -> str:
        return f"{self.participant}/{self.probe_id}"


@dataclass(frozen=True, slots=True)
class Question:
    participant: str
    qid: str
    category: str | None
    question: str
    answer: Any
    evidence_ids: tuple[str, ...]
    asked_after: str                     # message id
    asked_after_position: int

    @property
    def visible_until(self) -> int:
        """History for this question is messages[:visible_until] (the asked_after message included)."""
        return self.asked_after_position + 1


def has_reference_set(reference_ids, profile_ids) -> bool:
    """One definition of "probes with a reference set" for Table 5 and every whole-corpus
    contrast: the probe's reference set R(p), "the specific records (e.g., prior profile
    statements or earlier episode messages) that the gold response draws upon", is not empty,
    i.e. it cites an earlier message (reference_ids) or a profile claim (profile_ids): every
    scoreable probe with a referent, thread probes included (1,413 on br-eval's paper-size
    generated corpus: the 120 no-referent probes cite nothing). This is not the paper's "1,477
    chat probes": probes with a referent number at most 1,533 - 120 = 1,413, so the 1,477 hold at
    least 64 no-referent probes; and the paper's R(p) holds no record of the recent window, which
    would leave thread probes (referents 1-2 messages back) without one."""
    return bool(reference_ids) or bool(profile_ids)


def formal_locus(locus: str | None) -> str | None:
    """The formal locus lambda* of a released (or reported) locus: "the formal locus takes a
    value in the two stores, and the released field refines it: thread and none carry rho* = 0,
    and companion refines episode" -> profile | episode, None where rho* = 0."""
    if locus in ("episode", "companion"):
        return "episode"
    return "profile" if locus == "profile" else None


def is_misfire_population(cold_open: bool, locus: str | None) -> bool:
    """One definition for every task: misfire is measured on the cold opens and the scoreable
    probes with no referent ("434 cold opens plus 120 'needs no past' probes"); thread probes,
    whose referent is on screen, are not in it."""
    return bool(cold_open) or locus == "none"


def normalize_on_screen(value, where: str) -> str | None:
    """A released on-screen verdict in canonical spelling ("not on screen", "not-on-screen" and
    "NOT_ON_SCREEN" are all `not_on_screen`); None when absent; DataError when unknown."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise DataError(f"{where}: field 'on_screen' should be a string, got {type(value).__name__}")
    canon = re.sub(r"[\s\-]+", "_", value.strip().lower())
    if canon not in ON_SCREEN:
        raise DataError(f"{where}: on_screen {value!r} is not one of clear, borderline, "
                        f"not on screen")
    return canon


# Row-level predicates shared by the loader and the fast counter in `__init__` (canonical rows
# from `shapes`, whose stratum may still be spelled as released).
def _stratum(row: dict) -> str | None:
    from evaluator.realcompanion.shapes import STRATUM_VALUES, norm

    return STRATUM_VALUES.get(norm(row.get("stratum") or ""))


def is_cold_open_row(row: dict) -> bool:
    return _stratum(row) == "abstention" and row.get("ok", True) is not False


def is_scoreable_row(row: dict) -> bool:
    """Not a cold open, not withdrawn (ok false), and not marked unscoreable."""
    return (_stratum(row) != "abstention" and row.get("ok", True) is not False
            and row.get("scoreable", True) is True)


@dataclass
class Participant:
    pid: str
    path: Path
    messages: tuple[Message, ...]
    claims: tuple[Claim, ...]
    persona: dict[str, PersonaSlot]
    probes: tuple[Probe, ...]            # every chat gold row, in file order
    questions: tuple[Question, ...]
    _positions: dict[str, int] = field(repr=False, default_factory=dict)
    _bm25: Any = field(repr=False, default=None)
    sources: dict = field(repr=False, default_factory=dict)   # kind -> the file read

    def position(self, message_id: str) -> int:
        try:
            return self._positions[message_id]
        except KeyError:
            where = self.sources.get("conversation", self.path / CONVERSATION)
            raise DataError(f"{where}: no message {message_id!r}") from None

    def message(self, message_id: str) -> Message:
        return self.messages[self.position(message_id)]

    def history(self, position: int) -> tuple[Message, ...]:
        """Every message strictly before `position`: a probe's pool, nothing at or after it."""
        return self.messages[:max(0, position)]

    @property
    def scoreable_probes(self) -> tuple[Probe, ...]:
        return tuple(p for p in self.probes if p.scoreable and not p.cold_open)

    @property
    def cold_opens(self) -> tuple[Probe, ...]:
        return tuple(p for p in self.probes if p.cold_open and p.ok)

    @property
    def retrieval_probes(self) -> tuple[Probe, ...]:
        """Scoreable probes with at least one reference message (the retrieval task's items)."""
        return tuple(p for p in self.scoreable_probes if p.reference_positions)

    @property
    def claims_by_id(self) -> dict[str, Claim]:
        return {c.id: c for c in self.claims}

    def bm25(self):
        """The participant's pool-exact BM25 index (built once, on first use)."""
        if self._bm25 is None:
            from evaluator.realcompanion.bm25 import PrefixBM25

            self._bm25 = PrefixBM25([m.text for m in self.messages])
        return self._bm25

    def bm25_top_k(self, query: str, before: int, k: int = 10) -> list[tuple[Message, float]]:
        """BM25's top k over the messages strictly before `before`, best first; equal scores
        rank the more recent message first."""
        index = self.bm25()
        return [(self.messages[pos], score) for pos, score in index.top_k(query, before, k)]


@dataclass
class Release:
    root: Path
    participants: tuple[Participant, ...]
    is_sample: bool = False
    files: tuple[Path, ...] = ()          # every file read, in reading order

    def participant(self, pid: str) -> Participant:
        for p in self.participants:
            if p.pid == pid:
                return p
        raise DataError(f"{self.root}: no participant {pid!r}")

    @property
    def n_messages(self) -> int:
        return sum(len(p.messages) for p in self.participants)


# -- reading -------------------------------------------------------------------------------------
def _field(obj: dict, name: str, kind, where: str, *, required: bool = True, default=None):
    if name not in obj or obj[name] is None:
        if required:
            raise DataError(f"{where}: missing field {name!r}")
        return default
    value = obj[name]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise DataError(f"{where}: field {name!r} should be {_kind_name(kind)}, "
                        f"got {type(value).__name__}")
    return value


def _kind_name(kind) -> str:
    names = {str: "a string", int: "an integer", bool: "true or false", list: "a list",
             dict: "an object"}
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


def _ids(obj: dict, name: str, where: str) -> tuple[str, ...]:
    values = _field(obj, name, list, where, required=False, default=[])
    for v in values:
        if not isinstance(v, str):
            raise DataError(f"{where}: {name} should list string ids, found {v!r}")
    return tuple(values)


class _MessageKeys:
    """Message ids as released, and the `day{n}-{j}` keys that name them (citations may use
    either; `day{n}-{j}` in any spelling `shapes.day_key` reads)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.positions: dict[str, int] = {}
        self.by_day_key: dict[str, str | None] = {}       # None: two messages share the key

    def add(self, mid: str, position: int, day: int | None, seq: int | None) -> None:
        self.positions[mid] = position
        for key in {day_key(mid), None if day is None or seq is None else f"day{day}-{seq}"}:
            if key is not None and key != mid:
                self.by_day_key[key] = mid if self.by_day_key.get(key, mid) == mid else None

    def resolve(self, ids, where: str, name: str) -> tuple[str, ...]:
        """The cited ids as message ids; a DataError naming the first that names no message."""
        out = []
        for i in ids:
            if i in self.positions:
                out.append(i)
                continue
            key = day_key(i)
            mid = (key if key in self.positions else self.by_day_key.get(key)) if key else None
            if mid is None:
                why = ("names two messages" if key in self.by_day_key
                       else f"which is not in {self.path}")
                raise DataError(f"{where}: {name} cites {i!r}, {why}")
            out.append(mid)
        return tuple(out)


def _check_cited(ids, known: dict, where: str, name: str, target: Path) -> None:
    for i in ids:
        if i not in known:
            raise DataError(f"{where}: {name} cites {i!r}, which is not in {target}")


def load_participant(folder: Path) -> Participant:
    """One participant folder, its five files in any shape `shapes` reads."""
    from evaluator.realcompanion.shapes import participant_layout

    folder = Path(folder)
    return _participant(participant_layout(folder), folder.name)


def _participant(layout, pid: str) -> Participant:
    """The typed records of one participant, checked (see the module docstring)."""
    from evaluator.realcompanion.shapes import (LOCUS_VALUES, SPEAKER_VALUES, STRATUM_VALUES,
                                                value_of)

    paths = layout.files_of[pid]
    conv_path = paths["conversation"]
    messages: list[Message] = []
    keys = _MessageKeys(conv_path)
    lines: dict[str, str] = {}
    last_order = None
    day_count: dict[int, int] = {}
    for where, obj in layout.rows(pid, "conversation"):
        speaker = value_of(SPEAKER_VALUES, _field(obj, "speaker", str, where), where, "speaker")
        text = _field(obj, "text", str, where)
        day = _field(obj, "day", int, where, required=False)
        seq = _field(obj, "seq", int, where, required=False)
        if day is not None and seq is None:     # j: the message's place in its day (a reading)
            seq = day_count[day] = day_count.get(day, 0) + 1
        mid = _field(obj, "id", str, where, required=False)
        if mid is None:
            if day is None:
                raise DataError(f"{where}: missing field 'id' (and no day to make a "
                                f"day{{n}}-{{j}} key from)")
            mid = f"day{day}-{seq}"
        if mid in keys.positions:
            raise DataError(f"{where}: message id {mid!r} repeats {lines[mid]}")
        if day is not None and seq is not None:
            if last_order is not None and (day, seq) <= last_order:
                raise DataError(f"{where}: message {mid!r} (day {day}, seq {seq}) is out of order; "
                                f"the file must list messages in conversation order")
            last_order = (day, seq)
        keys.add(mid, len(messages), day, seq)
        lines[mid] = where
        messages.append(Message(mid, len(messages), day, seq, _time(obj, where), speaker,
                                str(_field(obj, "session", (str, int), where, required=False,
                                           default="")), text))
    if not messages:
        raise DataError(f"{conv_path}: no messages" + (f" for participant {pid!r}"
                                                       if layout.by_column else ""))
    positions = keys.positions

    prof_path = paths["profile"]
    claims: list[Claim] = []
    claim_ids: dict[str, str] = {}
    for where, obj in layout.rows(pid, "profile"):
        cid = _field(obj, "id", str, where)
        if cid in claim_ids:
            raise DataError(f"{where}: claim id {cid!r} repeats {claim_ids[cid]}")
        claim_ids[cid] = where
        citations = keys.resolve(_ids(obj, "citations", where), where, "citations")
        audit = _field(obj, "audit", str, where, required=False)
        if audit is not None:
            audit = re.sub(r"[\s\-]+", "_", audit.strip().lower())
            if audit not in AUDITS:
                raise DataError(f"{where}: audit {obj['audit']!r} is not one of "
                                f"{', '.join(AUDITS)}")
        conf = _field(obj, "confidence", (int, float), where, required=False)
        claims.append(Claim(cid, _field(obj, "text", str, where),
                            None if conf is None else float(conf),
                            _field(obj, "valid_from", str, where, required=False),
                            _field(obj, "valid_to", str, where, required=False), citations, audit))

    persona: dict[str, PersonaSlot] = {}
    for where, slot in layout.persona(pid):
        name = str(slot["slot"])
        if name in persona:
            raise DataError(f"{where}: slot {name!r} given twice")
        evidence = keys.resolve(_ids(slot, "evidence", where), where, "evidence")
        persona[name] = PersonaSlot(name, slot.get("value"), slot.get("strength"), evidence)

    chat_path = paths["chat"]
    probes: list[Probe] = []
    probe_lines: dict[str, str] = {}
    for where, obj in layout.rows(pid, "chat"):
        message_id = keys.resolve([_field(obj, "message_id", str, where)], where,
                                  "message_id")[0]
        # a row without its own id is named by its probe message (a probe is a message)
        probe_id = str(_field(obj, "probe_id", (str, int), where, required=False,
                              default=message_id))
        if probe_id in probe_lines:
            raise DataError(f"{where}: probe_id {probe_id!r} repeats {probe_lines[probe_id]}")
        probe_lines[probe_id] = where
        pos = positions[message_id]
        if messages[pos].speaker != "user":
            raise DataError(f"{where}: probe message {message_id!r} is a companion message; "
                            f"probes are the participant's own messages")
        stratum = value_of(STRATUM_VALUES, _field(obj, "stratum", str, where), where, "stratum")
        locus = value_of(LOCUS_VALUES, _field(obj, "locus", str, where), where, "locus")
        grounding = keys.resolve(_ids(obj, "grounding_ids", where), where, "grounding_ids")
        references = keys.resolve(_ids(obj, "reference_ids", where), where, "reference_ids")
        for r in references:
            if positions[r] >= pos:
                raise DataError(f"{where}: reference_ids cites {r!r}, which is not before the "
                                f"probe message {message_id!r}")
        profile_ids = _ids(obj, "profile_ids", where)
        _check_cited(profile_ids, claim_ids, where, "profile_ids", prof_path)
        ok = bool(_field(obj, "ok", bool, where, required=False, default=True))
        # a withdrawn row (ok false: phase E did not pass it) is never scored, whatever
        # `scoreable` says or when it is absent
        scoreable = ok and bool(_field(obj, "scoreable", bool, where, required=False, default=True))
        probes.append(Probe(
            pid, probe_id, message_id, pos, messages[pos].text, stratum, scoreable, ok, locus,
            _opt_str(obj, "tier", where), _opt_str(obj, "category", where),
            _opt_str(obj, "rule", where), _opt_str(obj, "referent_text", where),
            _opt_str(obj, "gold_response", where), grounding, references, profile_ids,
            tuple(sorted({positions[r] for r in references})),
            normalize_on_screen(obj.get("on_screen"), where)))

    questions: list[Question] = []
    q_lines: dict[str, str] = {}
    for where, obj in layout.rows(pid, "questions"):
        qid = str(_field(obj, "qid", (str, int), where))
        if qid in q_lines:
            raise DataError(f"{where}: qid {qid!r} repeats {q_lines[qid]}")
        q_lines[qid] = where
        asked_after = keys.resolve([_field(obj, "asked_after", str, where)], where,
                                   "asked_after")[0]
        evidence = keys.resolve(_ids(obj, "evidence_ids", where), where, "evidence_ids")
        after = positions[asked_after]
        for e in evidence:
            if positions[e] > after:
                raise DataError(f"{where}: evidence_ids cites {e!r}, which comes after "
                                f"asked_after {asked_after!r}")
        if "answer" not in obj:
            raise DataError(f"{where}: missing field 'answer'")
        questions.append(Question(pid, qid, _opt_str(obj, "category", where),
                                  _field(obj, "question", str, where), obj["answer"], evidence,
                                  asked_after, after))

    return Participant(pid, layout.folder(pid), tuple(messages), tuple(claims), persona,
                       tuple(probes), tuple(questions), positions, sources=dict(paths))


def _time(obj: dict, where: str) -> str | None:
    """A message's `time` as released, once it is known to read as a date and time (ISO 8601 or
    the Beyond Recall card's formats, `beyondrecall.timestamps.parse_strict`); None when absent."""
    from beyondrecall.timestamps import parse_strict

    value = _field(obj, "time", str, where, required=False)
    if value is not None:
        try:
            parse_strict(value)
        except ValueError:
            raise DataError(f"{where}: time {value!r} is not a date and time br-eval reads "
                            f"(ISO 8601, or one of the Beyond Recall card's formats)") from None
    return value


def _opt_str(obj: dict, name: str, where: str) -> str | None:
    value = obj.get(name)
    if value is None:
        return None
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise DataError(f"{where}: field {name!r} should be a string, got {type(value).__name__}")
    return str(value)


def write_release(release: Release, out_dir: Path) -> list[Path]:
    """Write a release's records in br-eval's own layout (one folder per participant, the five
    files of the README's table); returns the files written, in reading order."""
    out_dir = Path(out_dir)
    written: list[Path] = []

    def jsonl(path: Path, rows) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        written.append(path)

    for p in release.participants:
        folder = out_dir / p.pid
        folder.mkdir(parents=True)
        jsonl(folder / CONVERSATION, ({"id": m.id, "day": m.day, "seq": m.seq, "time": m.time,
                                       "speaker": m.speaker, "session": m.session, "text": m.text}
                                      for m in p.messages))
        jsonl(folder / PROFILE, ({"id": c.id, "text": c.text, "confidence": c.confidence,
                                  "valid_from": c.valid_from, "valid_to": c.valid_to,
                                  "citations": list(c.citations), "audit": c.audit}
                                 for c in p.claims))
        (folder / PERSONA).write_text(json.dumps({"slots": {
            s.name: {"value": s.value, "strength": s.strength, "evidence": list(s.evidence)}
            for s in p.persona.values()}}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(folder / PERSONA)
        jsonl(folder / CHAT, ({"probe_id": q.probe_id, "message_id": q.message_id,
                               "stratum": q.stratum, "scoreable": q.scoreable, "ok": q.ok,
                               "locus": q.locus, "tier": q.tier, "category": q.category,
                               "rule": q.rule, "referent_text": q.referent_text,
                               "gold_response": q.gold_response,
                               "grounding_ids": list(q.grounding_ids),
                               "reference_ids": list(q.reference_ids),
                               "profile_ids": list(q.profile_ids), "on_screen": q.on_screen}
                              for q in p.probes))
        jsonl(folder / QUESTIONS, ({"qid": q.qid, "category": q.category, "question": q.question,
                                    "answer": q.answer, "evidence_ids": list(q.evidence_ids),
                                    "asked_after": q.asked_after} for q in p.questions))
    return written


def release_files(root) -> list[Path]:
    """Every file the reader reads for the release in `root`."""
    from evaluator.realcompanion.shapes import discover

    return discover(root).files()


def load_release(root: str | os.PathLike, *, is_sample: bool | None = None) -> Release:
    from evaluator.realcompanion.shapes import discover

    root = Path(root)
    layout = discover(root)
    participants = tuple(_participant(layout, pid) for pid in layout.participants)
    if is_sample is None:
        is_sample = (root / ".sample").exists()
    return Release(root, participants, is_sample, files=tuple(layout.files()))


# -- where the data comes from -------------------------------------------------------------------
def rc_data_dir(rc_data: str | os.PathLike | None = None, *, any_shape: bool = False) -> Path:
    """The RealCompanion folder to read: `rc_data` (--rc_data), else `$BR_EVAL_RC_DATA`, else
    the default download folder (`br-eval download --dataset realcompanion --repo ...`) when it
    holds files the reader reads (`shapes.holds_release`), or with `any_shape` (an
    `--rc-adapter` reads it: a shape only the adapter knows) any entry not hidden. The same order
    as Beyond Recall's (`beyondrecall.snapshot.resolve_dir`), and the one every command that
    reads RealCompanion data goes through (run, ls, show, verify, --rc-adapter). A folder named
    must exist (what it holds is checked when it is read, or by `--rc-adapter`); NoDataError when
    none was named and none is downloaded (evaluator/datasets.py then uses the generated
    sample)."""
    from beyondrecall.hub import default_dir_for
    from beyondrecall.snapshot import resolve_dir
    from evaluator.realcompanion.shapes import holds_release

    downloaded = default_dir_for("realcompanion")
    return resolve_dir(rc_data, flag="--rc_data", env="BR_EVAL_RC_DATA", default=downloaded,
                       holds=_holds_anything if any_shape else holds_release,
                       name="RealCompanion data",
                       hint=f"download a Hub mirror into {downloaded} (`br-eval download "
                            f"--dataset realcompanion --repo OWNER/NAME`)")


def _holds_anything(root: Path) -> bool:
    """Whether `root` is a folder with an entry not hidden (the Hub client's `.cache/` and the
    revision file alone are an interrupted download). Opens no file."""
    try:
        return any(not p.name.startswith(".") for p in Path(root).iterdir())
    except OSError:
        return False
