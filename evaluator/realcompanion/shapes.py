"""Where a RealCompanion release keeps its five files per relationship, and how to read their rows.

The paper releases, per relationship, the conversation, the profile, the persona, the chat gold
and the questions, every citation a `day{n}-{j}` message key; the exact shapes are not known to
us. This module finds and reads them in the plausible shapes, as `beyondrecall.loader` does for
the card's task files; `data.py` then checks what they say. Standard library only.

Layouts (`discover`):
- one folder per participant (its name is the participant id), each holding the five files;
- one file per kind at the top, every row naming its participant (`participant` column);
- either of them inside one wrapping folder (an unpacked archive), up to two levels down.
A file's kind comes from its name, compared without case or separators and, inside a participant
folder, with the folder's name removed from its start or end (`U01_chat.csv`): see `FILE_NAMES`.

Formats, by extension: `.jsonl`/`.ndjson` (one object a line), `.json` (a list of objects; an
object holding one list of objects, its other plain values applying to every row; at the top of
a one-file-per-kind release, an object of participant id -> list), `.csv` (a header row; list
cells as a JSON array or ids separated by `;`, `|`, `,` or spaces). Field names are read in the
spellings of `FIELDS` (case, `_`, `-` and spaces ignored); values are coerced to what the field
holds (integers, true/false, numbers, id lists); fields not listed are ignored. The persona is a
`{"slots": {...}}` object, a flat or grouped object of slots (`{"big_five": {"openness": ...}}`
is the slot `big_five.openness`), or rows with a `slot` column.

Bounds: a file over `MAX_FILE_BYTES` is refused, a CSV cell over `MAX_CELL` characters too, JSON
nested deeper than the interpreter allows is an error line. Anything this module cannot read is
one DataError naming the file (and line or row) and the field.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from beyondrecall.errors import DataError

KINDS = ("conversation", "profile", "persona", "chat", "questions")
KIND_WORDS = {"conversation": "the conversation", "profile": "the profile",
              "persona": "the persona", "chat": "the chat gold", "questions": "the questions"}
EXTENSIONS = (".jsonl", ".ndjson", ".json", ".csv")
MAX_FILE_BYTES = 512 << 20
MAX_CELL = 16 << 20


def norm(name: str) -> str:
    """A field or file name compared without case, separators or punctuation."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


# File names (normalised) of each kind; br-eval's own names come first.
FILE_NAMES = {
    "conversation": ("conversation", "conversations", "messages", "conv", "dialogue", "dialog",
                     "transcript", "history"),
    "profile": ("profile", "profiles", "claims", "profileclaims"),
    "persona": ("persona", "personas", "personafile"),
    "chat": ("chat", "chatgold", "gold", "probes", "chatprobes", "chattrack"),
    "questions": ("questions", "question", "qa", "questiontrack", "questionsgold"),
}
_KIND_OF_NAME = {n: kind for kind, names in FILE_NAMES.items() for n in names}

# field -> accepted spellings (normalised with `norm`), per kind; br-eval's own name first.
PARTICIPANT = ("participant", "participantid", "pid", "subject", "subjectid", "userid", "uid",
               "relationship", "relationshipid")
FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "conversation": {
        "id": ("id", "messageid", "msgid", "messagekey", "key", "dayid", "turnid"),
        "day": ("day", "dayindex", "dayn", "daynumber"),
        "seq": ("seq", "j", "indexinday", "seqinday", "positioninday", "sequence"),
        "time": ("time", "timestamp", "datetime", "createdat", "sentat", "date"),
        "speaker": ("speaker", "role", "sender", "author", "from", "who"),
        "session": ("session", "sessionid", "thread", "threadid", "conversationid"),
        "text": ("text", "content", "message", "body", "utterance"),
    },
    "profile": {
        "id": ("id", "claimid", "key"),
        "text": ("text", "claim", "statement", "content"),
        "confidence": ("confidence", "conf"),
        "valid_from": ("validfrom", "from", "since", "start", "validstart"),
        "valid_to": ("validto", "to", "until", "end", "validend"),
        "citations": ("citations", "cites", "evidence", "evidenceids", "messageids", "dayids",
                      "citationids", "sources"),
        "audit": ("audit", "verdict", "auditverdict", "auditstatus", "status"),
    },
    "persona": {
        "slot": ("slot", "name", "slotname", "field", "key"),
        "value": ("value", "content", "text"),
        "strength": ("strength", "confidence", "hold", "held"),
        "evidence": ("evidence", "evidenceids", "citations", "cites", "dayids"),
    },
    "chat": {
        "probe_id": ("probeid", "id", "rowid", "itemid", "probekey"),
        "message_id": ("messageid", "probemessageid", "probemessage", "probedayid", "dayid",
                       "messagekey"),
        "stratum": ("stratum", "bucket", "samplingbucket", "samplebucket", "samplingstratum"),
        "scoreable": ("scoreable", "isscoreable", "scorable"),
        "ok": ("ok", "passed", "retained", "isok"),
        "locus": ("locus", "verifiedlocus", "referentlocus"),
        "tier": ("tier",),
        "category": ("category", "cat"),
        "rule": ("rule", "rulec", "ruleid"),
        "referent_text": ("referenttext", "referent"),
        "gold_response": ("goldresponse", "gold", "goldreply", "referencereply",
                          "referenceresponse", "goldtext"),
        "grounding_ids": ("groundingids", "groundingdayids", "grounding", "groundingkeys",
                          "groundingmessages"),
        "reference_ids": ("referenceids", "references", "referencedayids", "referenceset",
                          "episoderefs", "episodeids", "episodereferences"),
        "profile_ids": ("profileids", "profilerefs", "claimids", "profilereferences",
                        "profileclaims"),
        "on_screen": ("onscreen", "onscreenverdict"),
    },
    "questions": {
        "qid": ("qid", "id", "questionid", "itemid"),
        "category": ("category", "cat", "type"),
        "question": ("question", "text", "prompt"),
        "answer": ("answer", "goldanswer", "gold", "referenceanswer"),
        "evidence_ids": ("evidenceids", "evidence", "citations", "evidencedayids", "cites",
                         "dayids"),
        "asked_after": ("askedafter", "askedafterid", "cutoff", "cutoffid", "askedat"),
    },
}
INT_FIELDS = {"day", "seq"}
BOOL_FIELDS = {"scoreable", "ok"}
NUMBER_FIELDS = {"confidence"}
LIST_FIELDS = {"citations", "evidence", "grounding_ids", "reference_ids", "profile_ids",
               "evidence_ids"}
ANY_FIELDS = {"answer", "value", "strength"}          # any JSON value, kept as given
_TRUE, _FALSE = {"true", "yes", "y", "1", "t"}, {"false", "no", "n", "0", "f"}

# value spellings -> canonical
SPEAKER_VALUES = {**dict.fromkeys(("user", "human", "participant", "person", "me"), "user"),
                  **dict.fromkeys(("companion", "assistant", "ai", "bot", "model", "agent",
                                   "character"), "companion")}
STRATUM_VALUES = {**dict.fromkeys(("proportional", "natural", "naturalrate", "unconditioned"),
                                  "proportional"),
                  **dict.fromkeys(("enriched", "deephistory", "census", "memory"), "enriched"),
                  **dict.fromkeys(("abstention", "coldopen", "coldopens", "sessionopener",
                                   "opener"), "abstention")}
LOCUS_VALUES = {**{v: v for v in ("thread", "none", "profile", "episode", "companion")},
                **dict.fromkeys(("currentthread", "inthread"), "thread"),
                **dict.fromkeys(("noreferent", "nothing"), "none"),
                "profileclaim": "profile", "pastepisode": "episode", "episodic": "episode",
                **dict.fromkeys(("companionsaid", "companionturn"), "companion")}
_DAY_KEY = re.compile(r"^\s*d(?:ay)?\s*(\d+)\s*[-_:/.]\s*(\d+)\s*$", re.IGNORECASE)


def day_key(text) -> str | None:
    """`day{n}-{j}` in its canonical spelling for any of "day12-7", "Day 12_7", "d12-7"; None
    when `text` is not such a key."""
    m = _DAY_KEY.match(str(text))
    return f"day{int(m[1])}-{int(m[2])}" if m else None


# -- finding the files ---------------------------------------------------------------------------
def kind_of(path: Path, strip: str | None = None) -> str | None:
    """The kind a file holds, from its name; None for other files (README, SHA256SUMS, ...)."""
    name = path.name
    lower = name.lower()
    ext = next((e for e in EXTENSIONS if lower.endswith(e)), None)
    if ext is None or name.startswith("."):
        return None
    stem = norm(name[:-len(ext)])
    if strip:
        s = norm(strip)
        if s and stem.startswith(s) and stem != s:
            stem = stem[len(s):]
        elif s and stem.endswith(s) and stem != s:
            stem = stem[:-len(s)]
    return _KIND_OF_NAME.get(stem)


def _kinds_in(folder: Path, strip: str | None = None) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        kind = kind_of(path, strip) if path.is_file() else None
        if kind is None:
            continue
        if kind in found:
            raise DataError(f"{folder}: two files hold {KIND_WORDS[kind]}: {found[kind].name} and "
                            f"{path.name}; keep one")
        found[kind] = path
    return found


def _looked_for(kind: str) -> str:
    return f"a {'/'.join(FILE_NAMES[kind][:3])}.jsonl|.json|.csv file"


@dataclass
class Layout:
    """Where each participant's five files are. `by_column`: one file per kind at `root`, rows
    naming their participant; else one folder per participant."""

    root: Path
    by_column: bool
    files_of: dict[str, dict[str, Path]]          # participant -> kind -> file
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def participants(self) -> list[str]:
        return list(self.files_of)

    def folder(self, pid: str) -> Path:
        return self.root if self.by_column else self.root / pid

    def files(self) -> list[Path]:
        """Every file the reader reads, each once, in reading order."""
        out: list[Path] = []
        for kinds in self.files_of.values():
            out += [kinds[k] for k in KINDS if kinds[k] not in out]
        return out

    def rows(self, pid: str, kind: str) -> list[tuple[str, dict]]:
        """(where, canonical row) of one participant's file of `kind` (not the persona)."""
        path = self.files_of[pid][kind]
        if not self.by_column:
            return read_rows(path, kind)
        return self._grouped(kind).get(pid, [])

    def persona(self, pid: str) -> list[tuple[str, dict]]:
        """(where, canonical slot row with `slot`) for one participant's persona."""
        path = self.files_of[pid]["persona"]
        if not self.by_column:
            return read_persona(path)
        return self._grouped("persona").get(pid, [])

    def _grouped(self, kind: str) -> dict[str, list]:
        if kind not in self._cache:
            path = self.files_of[self.participants[0]][kind] if self.participants else None
            rows = read_persona(path, by_participant=True) if kind == "persona" \
                else read_rows(path, kind, by_participant=True)
            groups: dict[str, list] = {}
            for where, row in rows:
                pid = row.get("participant")
                if pid is None:
                    raise DataError(f"{where}: no participant field ({', '.join(PARTICIPANT[:3])}, "
                                    f"...): a release with one file per kind names the participant "
                                    f"on every row")
                groups.setdefault(str(pid), []).append((where, row))
            if kind != "conversation":
                known = set(self._grouped("conversation"))
                for pid, rows in groups.items():
                    if pid not in known:
                        raise DataError(f"{rows[0][0]}: field participant names {pid!r}, who has "
                                        f"no messages in {self.files_of[self.participants[0]]['conversation']}")
            self._cache[kind] = groups
        return self._cache[kind]


def discover(root) -> Layout:
    """The layout of the release in `root` (see the module docstring)."""
    root = Path(root)
    if not root.is_dir():
        raise DataError(f"{root}: no such RealCompanion folder")
    top = root
    for _ in range(3):
        kinds = _kinds_in(root)
        if kinds:
            missing = [k for k in KINDS if k not in kinds]
            if missing:
                raise DataError(f"{root}: no file for {KIND_WORDS[missing[0]]} (looked for "
                                f"{_looked_for(missing[0])} next to {kinds[next(iter(kinds))].name})")
            layout = Layout(root, True, {})
            files = {k: kinds[k] for k in KINDS}
            layout.files_of = {"": files}               # to find the conversation file
            pids = sorted(layout._grouped("conversation"))
            if not pids:
                raise DataError(f"{kinds['conversation']}: no messages")
            layout.files_of = {pid: files for pid in pids}
            return layout
        folders = [d for d in sorted(root.iterdir()) if d.is_dir() and not d.name.startswith(".")]
        found = {d.name: _kinds_in(d, strip=d.name) for d in folders}
        found = {name: kinds for name, kinds in found.items() if kinds}
        if len(found) == 1 == len(folders) and _names_participants(
                found[folders[0].name]["conversation"] if "conversation" in found[folders[0].name]
                else None):
            root = folders[0]                   # an archive's folder holding one file per kind
            continue
        if found:
            for name, kinds in found.items():
                missing = [k for k in KINDS if k not in kinds]
                if missing:
                    raise DataError(f"{root / name}: no file for {KIND_WORDS[missing[0]]} (each "
                                    f"participant folder needs the five files; looked for "
                                    f"{_looked_for(missing[0])})")
            return Layout(root, False, {name: {k: kinds[k] for k in KINDS}
                                        for name, kinds in found.items()})
        if len(folders) != 1:
            break
        root = folders[0]                               # an unpacked archive's wrapping folder
    raise DataError(f"{top}: no RealCompanion release found (expected one folder per participant "
                    f"with its five files, e.g. U01/conversation.jsonl, or one file per kind with "
                    f"a participant column; docs/realcompanion.md, \"RealCompanion format and tasks\")")


def holds_release(root) -> bool:
    """Whether `root` holds files this reader reads: a file named for one of the five kinds
    (`kind_of`) at the top or in a non-hidden folder down to the depth `discover` looks (one
    folder per participant inside up to two wrapping folders). Opens no file. An empty folder, or
    one holding only other files (a README, the Hub client's `.cache/`), holds none; a folder
    with some of the files holds a release, and reading it says what is missing."""
    def walk(folder: Path, depth: int) -> bool:
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            return False
        for path in entries:
            if path.name.startswith("."):
                continue
            if path.is_file() and kind_of(path, strip=folder.name if depth else None):
                return True
            if depth < 3 and path.is_dir() and walk(path, depth + 1):
                return True
        return False

    root = Path(root)
    return root.is_dir() and walk(root, 0)


def _names_participants(conversation: Path | None) -> bool:
    """The conversation file's first row has a participant field (one file per kind)."""
    if conversation is None:
        return False
    rows = raw_rows(conversation, by_participant=True)
    return bool(rows) and isinstance(rows[0][1], dict) and any(
        _spellings("conversation").get(norm(k)) == "participant" for k in rows[0][1])


def participant_layout(folder) -> Layout:
    """One participant folder read as a release of one."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataError(f"{folder}: no such folder")
    kinds = _kinds_in(folder, strip=folder.name)
    for k in KINDS:
        if k not in kinds:
            raise DataError(f"{folder}: no file for {KIND_WORDS[k]} (each participant folder "
                            f"needs the five files; looked for {_looked_for(k)})")
    return Layout(folder.parent, False, {folder.name: kinds})


# -- reading rows ---------------------------------------------------------------------------------
def _read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DataError(f"{path}: {size} bytes, over br-eval's bound of {MAX_FILE_BYTES} "
                            f"for a RealCompanion file")
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _json(text: str, where: str):
    try:
        return json.loads(text)
    except RecursionError:
        raise DataError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:
        raise DataError(f"{where}: not valid JSON ({getattr(exc, 'msg', exc)})") from None


def raw_rows(path: Path, *, by_participant: bool = False) -> list[tuple[str, object]]:
    """(where, raw row) for every row of a JSONL, JSON or CSV file."""
    path = Path(path)
    text = _read_text(path)
    lower = path.name.lower()
    if lower.endswith(".csv"):
        return _csv_rows(path, text)
    if lower.endswith((".jsonl", ".ndjson")):
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                out.append((f"{path}:{n}", _json(line, f"{path}:{n}")))
        return out
    return _json_rows(path, _json(text, str(path)), by_participant)


def _csv_rows(path: Path, text: str) -> list[tuple[str, dict]]:
    csv.field_size_limit(MAX_CELL)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    out = []
    try:
        for row in reader:
            where = f"{path}:{reader.line_num}"
            if None in row:
                raise DataError(f"{where}: more cells than the header has columns")
            out.append((where, {k: v for k, v in row.items() if k is not None and v != ""}))
    except csv.Error as exc:
        raise DataError(f"{path}:{reader.line_num}: not valid CSV ({exc})") from None
    return out


def _is_rows(value) -> bool:
    return isinstance(value, list) and all(isinstance(x, dict) for x in value)


def _json_rows(path: Path, data, by_participant: bool) -> list[tuple[str, object]]:
    if isinstance(data, list):
        return [(f"{path}: row {i}", row) for i, row in enumerate(data, 1)]
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected a list of objects, got {type(data).__name__}")
    lists = [k for k, v in data.items() if _is_rows(v)]
    if by_participant and len(lists) > 1 and len(lists) == len(data):
        pfield = next(iter(PARTICIPANT))          # {"U01": [...], "U02": [...]}
        return [(f"{path}: {k!r} row {i}", {**row, pfield: k}) for k in lists
                for i, row in enumerate(data[k], 1)]
    if len(lists) == 1:                            # {"messages": [...], "participant": "U01"}
        shared = {k: v for k, v in data.items() if k != lists[0] and not isinstance(v, (list, dict))}
        return [(f"{path}: {lists[0]!r} row {i}", {**shared, **row})
                for i, row in enumerate(data[lists[0]], 1)]
    raise DataError(f"{path}: expected a list of objects, or an object holding one list of "
                    f"objects (found {len(lists)} lists among keys {', '.join(map(repr, list(data)[:6]))})")


def canonical(kind: str, raw, where: str, *, with_participant: bool = True) -> dict:
    """A raw row with its fields under br-eval's names and coerced to their types."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    names = _names(kind)
    out: dict = {}
    given: dict[str, str] = {}
    for key, value in raw.items():
        name = names.get(key, _UNSEEN)
        if name is _UNSEEN:
            name = names[key] = _spellings(kind).get(norm(key))
        if name is None or value is None:
            continue
        if name in out and out[name] != value:
            raise DataError(f"{where}: fields {given[name]!r} and {key!r} both give {name} "
                            f"and disagree")
        out[name] = value
        given[name] = key
    for name, value in out.items():
        if not _plain(name, value):
            out[name] = _coerce(name, value, f"{where}: field {given[name]!r}")
    if not with_participant:
        out.pop("participant", None)
    elif "participant" in out:
        out["participant"] = str(out["participant"])
    return out


_UNSEEN = object()
_SPELLINGS: dict[str, dict[str, str]] = {}
_NAMES: dict[str, dict] = {}


def _names(kind: str) -> dict:
    """Raw key -> field name (None: not a field), filled as keys are met."""
    return _NAMES.setdefault(kind, {})


def _plain(name: str, value) -> bool:
    """`value` already has the type `name` holds (the common case, checked fast)."""
    if name in ANY_FIELDS:
        return True
    t = type(value)
    if name in INT_FIELDS:
        return t is int
    if name in BOOL_FIELDS:
        return t is bool
    if name in NUMBER_FIELDS:
        return t is float
    if name in LIST_FIELDS:
        return t is list and all(type(x) is str for x in value)
    return t is str


def _spellings(kind: str) -> dict[str, str]:
    if kind not in _SPELLINGS:
        table = {s: "participant" for s in PARTICIPANT}
        for name, names in FIELDS[kind].items():
            for s in names:
                table.setdefault(s, name)
        _SPELLINGS[kind] = table
    return _SPELLINGS[kind]


def _coerce(name: str, value, where: str):
    if name in ANY_FIELDS:
        return value
    if name in INT_FIELDS:
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise DataError(f"{where} should be an integer, got {value!r}")
    if name in BOOL_FIELDS:
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, str)) and str(value).strip().lower() in _TRUE | _FALSE:
            return str(value).strip().lower() in _TRUE
        raise DataError(f"{where} should be true or false, got {value!r}")
    if name in NUMBER_FIELDS:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        try:
            return float(str(value))
        except ValueError:
            raise DataError(f"{where} should be a number, got {value!r}") from None
    if name in LIST_FIELDS:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                value = _json(text, where)
            else:
                value = [x for x in re.split(r"[;|,\s]+", text) if x]
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list) or not all(
                isinstance(x, (str, int)) and not isinstance(x, bool) for x in value):
            raise DataError(f"{where} should list ids, got {value!r}")
        return [str(x) for x in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value) if not isinstance(value, float) or not value.is_integer() \
            else str(int(value))
    if not isinstance(value, str):
        raise DataError(f"{where} should be a string, got {type(value).__name__}")
    return value


def value_of(table: dict[str, str], value: str, where: str, name: str) -> str:
    """A released value in its canonical spelling (speaker, stratum, locus)."""
    canon = table.get(norm(value))
    if canon is None:
        known = ", ".join(sorted(set(table.values())))
        raise DataError(f"{where}: {name} {value!r} is not one of {known}")
    return canon


def read_rows(path: Path, kind: str, *, by_participant: bool = False) -> list[tuple[str, dict]]:
    return [(where, canonical(kind, raw, where, with_participant=by_participant))
            for where, raw in raw_rows(path, by_participant=by_participant)]


def read_persona(path: Path, *, by_participant: bool = False) -> list[tuple[str, dict]]:
    """(where, {"slot", "value", "strength", "evidence"[, "participant"]}) for every slot."""
    path = Path(path)
    lower = path.name.lower()
    if lower.endswith(".json"):
        data = _json(_read_text(path), str(path))
        if isinstance(data, dict):
            if by_participant:                         # {"U01": {...persona...}, ...}
                out = []
                for pid, persona in data.items():
                    if not isinstance(persona, dict):
                        raise DataError(f"{path}: {pid!r}: expected a persona object, got "
                                        f"{type(persona).__name__}")
                    out += [(w, {**row, "participant": str(pid)})
                            for w, row in persona_slots(persona, f"{path}: {pid!r}")]
                return out
            return persona_slots(data, str(path))
    rows = raw_rows(path, by_participant=by_participant)
    out = []
    for where, raw in rows:
        row = canonical("persona", raw, where, with_participant=by_participant)
        if "slot" not in row:
            raise DataError(f"{where}: no slot name (fields slot, name, ...)")
        row.setdefault("evidence", [])
        out.append((where, row))
    return out


def persona_slots(obj: dict, where: str) -> list[tuple[str, dict]]:
    """The slots of a persona object: `{"slots": {...}}`, flat, or grouped by dotted names."""
    slots = next((v for k, v in obj.items() if norm(k) == "slots"), None)
    if isinstance(slots, dict):
        obj = slots
    elif isinstance(slots, list):
        out = []
        for i, raw in enumerate(slots, 1):
            row = canonical("persona", raw, f"{where}: slot {i}", with_participant=False)
            if "slot" not in row:
                raise DataError(f"{where}: slot {i}: no slot name (fields slot, name, ...)")
            row.setdefault("evidence", [])
            out.append((f"{where}: slot {row['slot']!r}", row))
        return out
    values = set(FIELDS["persona"]["value"])
    out: list[tuple[str, dict]] = []

    def walk(node: dict, prefix: str) -> None:
        for name, value in node.items():
            full = f"{prefix}{name}"
            at = f"{where}: slot {full!r}"
            if isinstance(value, dict) and not any(norm(k) in values for k in value):
                walk(value, full + ".")
                continue
            row = canonical("persona", value, at, with_participant=False) \
                if isinstance(value, dict) else {"value": value}
            row["slot"] = full
            row.setdefault("evidence", [])
            out.append((at, row))
    walk(obj, "")
    return out
