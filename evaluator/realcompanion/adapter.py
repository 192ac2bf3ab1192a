"""`--rc-adapter package.module:function`: a reader of your own for a release shape br-eval does
not read.

The function is called once as `function(Path(folder))`, the folder found as `run` finds
RealCompanion data (`--rc-data DIR`, else `$BR_EVAL_RC_DATA`, else the download folder), and
returns the release as plain data: `{participant id: {kind: rows}}`, the kinds being conversation,
profile, persona, chat and questions (any spelling `shapes.FILE_NAMES` knows), rows being lists of
objects whose fields may use any spelling `shapes.FIELDS` knows, and the persona also any object
`shapes.persona_slots` reads. br-eval checks those records exactly as it checks files (an error
names the adapter, the participant, the kind, the row and the field), then writes them in its own
layout into `$BR_EVAL_HOME/realcompanion-adapted/<content digest>/` and uses that folder as
`--rc-data`: the run's settings record keeps it, so resume, `score` and `merge` read the same
records even if the adapter changes later; an unchanged adapter on unchanged data reuses the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from beyondrecall.errors import DataError


@dataclass
class MemoryLayout:
    """An adapter's result with the interface of `shapes.Layout`."""

    spec: str
    root: Path
    data: dict
    files_of: dict = field(default_factory=dict)
    by_column: bool = False

    def __post_init__(self) -> None:
        from evaluator.realcompanion.shapes import KIND_WORDS, KINDS, _KIND_OF_NAME, norm

        for pid, kinds in self.data.items():
            if not isinstance(kinds, dict):
                raise DataError(f"{self._at(pid)}: expected {{kind: rows}}, got "
                                f"{type(kinds).__name__}")
            named = {}
            for key, value in kinds.items():
                kind = _KIND_OF_NAME.get(norm(key))
                if kind is None:
                    raise DataError(f"{self._at(pid)}: {key!r} is none of the five kinds "
                                    f"({', '.join(KINDS)})")
                named[kind] = value
            missing = [k for k in KINDS if k not in named]
            if missing:
                raise DataError(f"{self._at(pid)}: no {KIND_WORDS[missing[0]]} ({missing[0]})")
            self.data[pid] = named
            self.files_of[pid] = {k: f"{self._at(pid)} {k}" for k in KINDS}

    def _at(self, pid) -> str:
        return f"--rc-adapter {self.spec}: participant {pid!r}"

    @property
    def participants(self) -> list[str]:
        return list(self.data)

    def folder(self, pid: str) -> Path:
        return self.root / pid

    def rows(self, pid: str, kind: str) -> list[tuple[str, dict]]:
        from evaluator.realcompanion.shapes import canonical

        rows = self.data[pid][kind]
        if not isinstance(rows, list):
            raise DataError(f"{self.files_of[pid][kind]}: expected a list of rows, got "
                            f"{type(rows).__name__}")
        out = []
        for i, raw in enumerate(rows, 1):
            where = f"{self.files_of[pid][kind]} row {i}"
            out.append((where, canonical(kind, raw, where, with_participant=False)))
        return out

    def persona(self, pid: str) -> list[tuple[str, dict]]:
        from evaluator.realcompanion.shapes import persona_slots

        value = self.data[pid]["persona"]
        where = self.files_of[pid]["persona"]
        if isinstance(value, list):
            value = {"slots": value}
        if not isinstance(value, dict):
            raise DataError(f"{where}: expected a persona object or slot rows, got "
                            f"{type(value).__name__}")
        return persona_slots(value, where)


def adapted_data_dir(rc_data, spec: str, *, quiet: bool = False) -> Path:
    """`--rc-adapter module:function`: the RealCompanion folder, found as every command finds it
    (`rc_data` from --rc-data, else $BR_EVAL_RC_DATA, else the download folder holding anything:
    data.rc_data_dir), read through the adapter, its records checked and written in br-eval's
    own layout (the folder a run then reads). No folder found is a usage error (exit 2): an
    adapter never reads the generated sample."""
    from beyondrecall.errors import NoDataError
    from evaluator.errors import UsageError
    from evaluator.realcompanion.data import rc_data_dir

    try:
        source = rc_data_dir(rc_data, any_shape=True)
    except NoDataError as exc:
        raise UsageError(f"--rc-adapter {spec} has no folder to read: {exc}") from None
    return adapt(source, spec, quiet=quiet)


def adapt(source, spec: str, *, quiet: bool = False) -> Path:
    """Read `source` with the adapter `spec`, check its records and return the folder holding
    them in br-eval's layout (see the module docstring)."""
    from beyondrecall.snapshot import home_dir
    from evaluator.errors import EvalError
    from evaluator.plugins import load_attr, source_fingerprint
    from evaluator.realcompanion.data import Release, _participant, write_release

    fn = load_attr(spec, "--rc-adapter", "function")
    if not callable(fn):
        raise EvalError(f"--rc-adapter {spec!r}: {spec.partition(':')[2]!r} is not a function")
    source = Path(source)
    try:
        data = fn(source)
    except Exception as exc:        # an error inside user code is still one line
        raise EvalError(f"--rc-adapter {spec}: failed on {source} ({type(exc).__name__}: "
                        f"{exc})") from None
    if not isinstance(data, dict) or not data:
        raise DataError(f"--rc-adapter {spec}: returned {type(data).__name__}; expected "
                        f"{{participant id: {{kind: rows}}}} with at least one participant")
    layout = MemoryLayout(spec, source, {str(k): v for k, v in data.items()})
    release = Release(source, tuple(_participant(layout, pid) for pid in layout.participants))

    base = home_dir() / "realcompanion-adapted"
    base.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".adapting-", dir=base))
    try:
        files = write_release(release, tmp)
        h = hashlib.sha256()
        for path in files:
            h.update(f"{path.relative_to(tmp).as_posix()}\0".encode())
            h.update(path.read_bytes())
        (tmp / ".adapted").write_text(json.dumps(
            {"adapter": spec, "adapter_sha256": source_fingerprint(fn), "source": str(source)},
            indent=1) + "\n", encoding="utf-8")
        final = base / h.hexdigest()[:16]
        if final.exists():
            shutil.rmtree(tmp)
        else:
            os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if not quiet:
        print(f"br-eval: --rc-adapter {spec} read {source} ({len(release.participants)} "
              f"participants); its records, checked, are in {final}", file=sys.stderr)
    return final
