"""br-eval's RealCompanion format: the one place that reads the release from disk.

The real release is gated and its exact files are not known to us; this module reads the layout
documented in the README ("RealCompanion format and tasks"). A release laid out differently needs
a new `load_participant` (an adapter), nothing else: every task works on the typed records below.

One folder per participant (`U01`, `U02`, ...) with five files:

- `conversation.jsonl` one message a line, in order: id, day, seq, time, speaker, session, text
- `profile.jsonl`      one claim a line: id, text, confidence, valid_from, valid_to, citations, audit
- `persona.json`       {"slots": {name: {"value", "strength", "evidence"}}}
- `chat.jsonl`         one probe a line (see `Probe`)
- `questions.jsonl`    one written question a line: qid, category, question, answer, evidence_ids,
                       asked_after

Every cited id must exist; a dangling citation is a DataError naming the file, the line and the id.
Standard library only, so `br-eval ls` stays fast.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from beyondrecall.errors import DataError

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

_PARTICIPANT_DIR = re.compile(r"^U\d+$")


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


# Row-level predicates shared by the loader and the fast counter in `__init__`.
def is_cold_open_row(row: dict) -> bool:
    return row.get("stratum") == "abstention" and row.get("ok", True) is not False


def is_scoreable_row(row: dict) -> bool:
    """Not a cold open, not withdrawn (ok false), and not marked unscoreable."""
    return (row.get("stratum") != "abstention" and row.get("ok", True) is not False
            and row.get("scoreable", True) is True)


@dataclass
class Participant:
    pid: str
    path: Path
    messages: tuple[Message, ...]
    claims: tuple[Claim, ...]
    persona: dict[str, PersonaSlot]
    probes: tuple[Probe, ...]            # every chat.jsonl row, in file order
    questions: tuple[Question, ...]
    _positions: dict[str, int] = field(repr=False, default_factory=dict)
    _bm25: Any = field(repr=False, default=None)

    def position(self, message_id: str) -> int:
        try:
            return self._positions[message_id]
        except KeyError:
            raise DataError(f"{self.path / CONVERSATION}: no message {message_id!r}") from None

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

    def participant(self, pid: str) -> Participant:
        for p in self.participants:
            if p.pid == pid:
                return p
        raise DataError(f"{self.root}: no participant {pid!r}")

    @property
    def n_messages(self) -> int:
        return sum(len(p.messages) for p in self.participants)


# -- reading -------------------------------------------------------------------------------------
def participant_dirs(root: Path) -> list[Path]:
    """The participant folders of a release: `U<digits>` folders and any folder holding a
    conversation.jsonl, sorted by name."""
    root = Path(root)
    if not root.is_dir():
        raise DataError(f"{root}: no such RealCompanion folder")
    found = sorted(d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".")
                   and (_PARTICIPANT_DIR.match(d.name) or (d / CONVERSATION).is_file()))
    if not found:
        raise DataError(f"{root}: no participant folders (expected U01/, U02/, ... each with "
                        f"{CONVERSATION})")
    return found


def _require_file(folder: Path, name: str) -> Path:
    path = folder / name
    if not path.is_file():
        raise DataError(f"{path}: missing (each participant folder needs {', '.join(FILES)})")
    return path


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, object) for every non-blank line; a malformed line is a DataError."""
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None
    with fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise DataError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise DataError(f"{path}:{n}: expected a JSON object, got {type(obj).__name__}")
            yield n, obj


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


def _check_cited(ids, known: dict, where: str, name: str, target: Path) -> None:
    for i in ids:
        if i not in known:
            raise DataError(f"{where}: {name} cites {i!r}, which is not in {target}")


def load_participant(folder: Path) -> Participant:
    folder = Path(folder)
    pid = folder.name
    conv_path = _require_file(folder, CONVERSATION)

    messages: list[Message] = []
    positions: dict[str, int] = {}
    last_order = None
    for n, obj in iter_jsonl(conv_path):
        where = f"{conv_path}:{n}"
        mid = _field(obj, "id", str, where)
        speaker = _field(obj, "speaker", str, where)
        if speaker not in SPEAKERS:
            raise DataError(f"{where}: speaker {speaker!r} is not one of {', '.join(SPEAKERS)}")
        text = _field(obj, "text", str, where)
        day = _field(obj, "day", int, where, required=False)
        seq = _field(obj, "seq", int, where, required=False)
        if mid in positions:
            raise DataError(f"{where}: message id {mid!r} repeats line "
                            f"{_line_of(conv_path, positions[mid])}")
        if day is not None and seq is not None:
            if last_order is not None and (day, seq) <= last_order:
                raise DataError(f"{where}: message {mid!r} (day {day}, seq {seq}) is out of order; "
                                f"the file must list messages in conversation order")
            last_order = (day, seq)
        positions[mid] = len(messages)
        messages.append(Message(mid, len(messages), day, seq, _time(obj, where), speaker,
                                str(_field(obj, "session", (str, int), where, required=False,
                                           default="")), text))
    if not messages:
        raise DataError(f"{conv_path}: no messages")

    prof_path = _require_file(folder, PROFILE)
    claims: list[Claim] = []
    claim_ids: dict[str, int] = {}
    for n, obj in iter_jsonl(prof_path):
        where = f"{prof_path}:{n}"
        cid = _field(obj, "id", str, where)
        if cid in claim_ids:
            raise DataError(f"{where}: claim id {cid!r} repeats line {claim_ids[cid]}")
        claim_ids[cid] = n
        citations = _ids(obj, "citations", where)
        _check_cited(citations, positions, where, "citations", conv_path)
        audit = _field(obj, "audit", str, where, required=False)
        if audit is not None and audit not in AUDITS:
            raise DataError(f"{where}: audit {audit!r} is not one of {', '.join(AUDITS)}")
        conf = _field(obj, "confidence", (int, float), where, required=False)
        claims.append(Claim(cid, _field(obj, "text", str, where),
                            None if conf is None else float(conf),
                            _field(obj, "valid_from", str, where, required=False),
                            _field(obj, "valid_to", str, where, required=False), citations, audit))

    pers_path = _require_file(folder, PERSONA)
    try:
        raw = json.loads(pers_path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise DataError(f"{pers_path}: not valid JSON ({exc})") from None
    slots = raw.get("slots") if isinstance(raw, dict) else None
    if not isinstance(slots, dict):
        raise DataError(f"{pers_path}: expected an object with a \"slots\" object")
    persona: dict[str, PersonaSlot] = {}
    for name, slot in slots.items():
        where = f"{pers_path}: slot {name!r}"
        if not isinstance(slot, dict):
            raise DataError(f"{where}: expected an object with value, strength, evidence")
        evidence = _ids(slot, "evidence", where)
        _check_cited(evidence, positions, where, "evidence", conv_path)
        persona[name] = PersonaSlot(name, slot.get("value"), slot.get("strength"), evidence)

    chat_path = _require_file(folder, CHAT)
    probes: list[Probe] = []
    probe_lines: dict[str, int] = {}
    for n, obj in iter_jsonl(chat_path):
        where = f"{chat_path}:{n}"
        probe_id = str(_field(obj, "probe_id", (str, int), where))
        if probe_id in probe_lines:
            raise DataError(f"{where}: probe_id {probe_id!r} repeats line {probe_lines[probe_id]}")
        probe_lines[probe_id] = n
        message_id = _field(obj, "message_id", str, where)
        _check_cited([message_id], positions, where, "message_id", conv_path)
        pos = positions[message_id]
        if messages[pos].speaker != "user":
            raise DataError(f"{where}: probe message {message_id!r} is a companion message; "
                            f"probes are the participant's own messages")
        stratum = _field(obj, "stratum", str, where)
        if stratum not in STRATA:
            raise DataError(f"{where}: stratum {stratum!r} is not one of {', '.join(STRATA)}")
        locus = _field(obj, "locus", str, where)
        if locus not in LOCI:
            raise DataError(f"{where}: locus {locus!r} is not one of {', '.join(LOCI)}")
        grounding = _ids(obj, "grounding_ids", where)
        _check_cited(grounding, positions, where, "grounding_ids", conv_path)
        references = _ids(obj, "reference_ids", where)
        _check_cited(references, positions, where, "reference_ids", conv_path)
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

    q_path = _require_file(folder, QUESTIONS)
    questions: list[Question] = []
    q_lines: dict[str, int] = {}
    for n, obj in iter_jsonl(q_path):
        where = f"{q_path}:{n}"
        qid = str(_field(obj, "qid", (str, int), where))
        if qid in q_lines:
            raise DataError(f"{where}: qid {qid!r} repeats line {q_lines[qid]}")
        q_lines[qid] = n
        asked_after = _field(obj, "asked_after", str, where)
        _check_cited([asked_after], positions, where, "asked_after", conv_path)
        evidence = _ids(obj, "evidence_ids", where)
        _check_cited(evidence, positions, where, "evidence_ids", conv_path)
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

    return Participant(pid, folder, tuple(messages), tuple(claims), persona, tuple(probes),
                       tuple(questions), positions)


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


def _line_of(path: Path, position: int) -> int:
    """The line number of the position-th object of a JSONL file (only for error messages)."""
    seen = -1
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                seen += 1
                if seen == position:
                    return n
    return -1


def release_files(root) -> list[Path]:
    """Every file the reader reads for the release in `root`."""
    return [d / name for d in participant_dirs(Path(root)) for name in FILES if (d / name).is_file()]


def load_release(root: str | os.PathLike, *, is_sample: bool | None = None) -> Release:
    root = Path(root)
    participants = tuple(load_participant(d) for d in participant_dirs(root))
    if is_sample is None:
        is_sample = (root / ".sample").exists()
    return Release(root, participants, is_sample)


# -- where the data comes from -------------------------------------------------------------------
def sample_cache_dir() -> Path:
    from beyondrecall.snapshot import home_dir
    from evaluator.realcompanion.sample import SAMPLE_VERSION

    return home_dir() / f"realcompanion-sample-v{SAMPLE_VERSION}"


def resolve_rc_data(rc_data: str | os.PathLike | None, *, quiet: bool = False) -> Path:
    """The RealCompanion folder to use: `rc_data` when given (it must exist), else the generated
    sample, written once into the br-eval cache (or a temporary folder when the cache is not
    writable) with one notice line on stderr."""
    if rc_data:
        path = Path(rc_data).expanduser()
        if not path.is_dir():
            raise DataError(f"--rc_data {path}: no such folder")
        return path
    from evaluator.realcompanion.sample import generate_sample

    path = sample_cache_dir()
    if not (path / ".complete").exists():
        try:
            generate_sample(path)
        except OSError:
            path = Path(tempfile.mkdtemp(prefix="br-eval-realcompanion-sample-"))
            generate_sample(path)
    if not quiet:
        print(f"br-eval: using the generated RealCompanion sample at {path} (synthetic, not the "
              f"real release); pass --rc_data DIR for the real one", file=sys.stderr)
    return path
