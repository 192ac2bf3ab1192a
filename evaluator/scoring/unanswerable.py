"""Which questions are unanswerable: one explicit rule, named in results.json and by `validate`.

An unanswerable question is one whose right reply declines. In refusal_to_answer, refusing it
scores 1 and answering it 0 (with `--judge`, the abstention prompt decides whether a reply
declines); in every task, a refusal of any other question counts as a false refusal.

The Beyond Recall release marks no question as unanswerable: its reference answer says so in
words ("The conversation does not say ..."). Two rules, chosen with `--unanswerable`:

- `gold-text` (the default): a question is unanswerable when every reference answer reads as a
  refusal under the refusal reader's phrase rules (`evaluator.scoring.refusal.rules_verdict`, run
  on the reference text; the learned model reads replies, never reference answers). The rule
  depends on the refusal reader's rules, so it is covered by the scorer version.
- `FILE`: the question keys listed in FILE are unanswerable and every other question is
  answerable. FILE is a JSON list of keys, or text with one key per line (`#` starts a comment);
  at most `MAX_FILE_BYTES`. A listed key that names no question of a task being run or validated
  is an error.

`br-eval validate` prints, per task, how many questions the rule classes as unanswerable;
results.json records the rule under `config.settings.unanswerable` (and per task under
`unanswerable`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

GOLD_TEXT = "gold-text"
KEYS = "keys"
MAX_FILE_BYTES = 4 * 1024 * 1024
RULES = {
    GOLD_TEXT: "every reference answer reads as a refusal (the refusal reader's phrase rules run "
               "on the reference text)",
    KEYS: "the question is listed in the --unanswerable file",
}


def gold_text_unanswerable(gold: object) -> bool:
    """The gold-text rule: every acceptable reference answer reads as a refusal."""
    from evaluator.scoring.metrics import gold_candidates
    from evaluator.scoring.refusal import rules_verdict

    return all(rules_verdict(g) for g in gold_candidates(gold))


@dataclass(frozen=True)
class UnanswerableRule:
    name: str = GOLD_TEXT
    keys: frozenset[str] = frozenset()
    file: str | None = None
    sha256: str | None = None

    def classify(self, key: str, gold: object) -> bool:
        """Whether the question `key` with reference `gold` is unanswerable under this rule."""
        if self.name == KEYS:
            return str(key) in self.keys
        return gold_text_unanswerable(gold)

    def refusal_in_references(self, gold: object) -> bool | None:
        """Whether a refusal is right on an answerable question because a reference answer is
        itself a refusal: under a keys file, never (the file alone decides which questions
        accept a decline); under the gold-text rule, the scorer reads the references (None)."""
        return False if self.name == KEYS else None

    def describe(self) -> dict:
        """What results.json records (`config.settings.unanswerable`)."""
        out = {"rule": self.name, "definition": RULES[self.name]}
        if self.name == KEYS:
            out.update(file=self.file, sha256=self.sha256, n_keys=len(self.keys))
        return out

    def unknown_keys(self, task: str, task_keys) -> list[str]:
        """Listed keys of `task` (its name is the key's second part) that name no question."""
        if self.name != KEYS:
            return []
        known = set(map(str, task_keys))
        return sorted(k for k in self.keys if _task_of(k) == task and k not in known)


def _task_of(key: str) -> str | None:
    parts = key.split("/")
    return parts[1] if len(parts) >= 4 else None


def rule(spec: str | None = None) -> UnanswerableRule:
    """`--unanswerable` -> a rule: None or `gold-text` is the default, anything else a file of
    keys. Raises UsageError with one line when the file cannot be used."""
    if spec is None or str(spec) == GOLD_TEXT:
        return UnanswerableRule()
    from evaluator.errors import UsageError

    path = Path(spec)
    try:
        if not path.is_file():
            raise UsageError(f"--unanswerable {spec}: no such file (give a file of question keys, "
                             f"or {GOLD_TEXT})")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise UsageError(f"--unanswerable {spec}: larger than {MAX_FILE_BYTES} bytes")
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"--unanswerable {spec}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"--unanswerable {spec}: not UTF-8 text") from None
    if text.lstrip().startswith("["):
        try:
            keys = json.loads(text)
        except ValueError as exc:
            raise UsageError(f"--unanswerable {spec}: not valid JSON ({exc})") from None
        if not all(isinstance(k, str) for k in keys):
            raise UsageError(f"--unanswerable {spec}: the JSON list must hold key strings")
    else:
        keys = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        keys = [k for k in keys if k]
    from beyondrecall.records import QuestionKey

    for k in keys:
        try:
            QuestionKey.parse(k)        # a misspelt task would otherwise name no task run, silently
        except ValueError as exc:
            raise UsageError(f"--unanswerable {spec}: {exc}") from None
    return UnanswerableRule(KEYS, frozenset(keys), str(path.resolve()),
                            hashlib.sha256(data).hexdigest())


def from_record(record: dict | None) -> UnanswerableRule:
    """The rule a run recorded (results.json `config.settings.unanswerable`), for re-scoring it.
    A run from before the rule was recorded used the gold-text rule. The keys file must still
    hold what it held then."""
    if not record or record.get("rule", GOLD_TEXT) == GOLD_TEXT:
        return UnanswerableRule()
    from evaluator.errors import EvalError

    again = rule(record.get("file"))
    if again.sha256 != record.get("sha256"):
        raise EvalError(f"the --unanswerable file {record.get('file')} changed since the run "
                        "scored with it; restore it, or rerun")
    return again
