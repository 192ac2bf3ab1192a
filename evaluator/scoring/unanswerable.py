"""Which questions are unanswerable: one explicit rule, named in results.json and by `validate`.

An unanswerable question is one whose right reply declines. In refusal_to_answer, refusing it
scores 1 and answering it 0 (with `--judge`, the abstention prompt decides whether a reply
declines); in every task, a refusal of any other question counts as a false refusal.

The Beyond Recall release marks no question as unanswerable: its reference answer says so in
words ("The conversation does not say ..."). Two rules, chosen with `--unanswerable`:

- `gold-text` (the default): a question is unanswerable when every reference answer declines
  (`reference_declines`): the refusal reader's phrase rules
  (`evaluator.scoring.refusal.rules_verdict`; the learned model reads replies, never reference
  answers) read as a refusal the reference's text, where the reference is an option letter of a
  question that lists options ("B", "(B)"), the text of that option ("The conversation does not
  say"), and where a sentence opens with a person's silence ("Lena never mentioned her dentist.",
  "Sofia hasn't told me her brother's age."), that sentence with "You never" in the place of the
  person and the negation: the phrase rules read the user's silence ("You never told me") as a
  decline, and in a reference the person who never said it plays the user's part (SILENCE below).
  The rule depends on the refusal reader's rules, so it is covered by the scorer version.
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
import re
from dataclasses import dataclass
from pathlib import Path

GOLD_TEXT = "gold-text"
KEYS = "keys"
MAX_FILE_BYTES = 4 * 1024 * 1024
RULES = {
    # This text is recorded in the answer settings (results.json config.settings.unanswerable) and
    # so in every line's settings digest: a new wording would refuse every older folder's resume.
    # It names the rule; its details are the scorer version's (reference_declines, docs/scoring.md).
    GOLD_TEXT: "every reference answer reads as a refusal (the refusal reader's phrase rules run "
               "on the reference text)",
    KEYS: "the question is listed in the --unanswerable file",
}

# -- a person's silence (data) --------------------------------------------------------------------
# "Lena never mentioned her dentist.", "Sofia hasn't told me her brother's age.": a sentence that
# opens with a person (one to four words of at most 40 characters each; not opening with I, we, you,
# it, there, this, that, these, those, yes or no: SILENCE_NOT_PERSON), a negation, and a verb of
# telling. The phrase rules read the same
# sentence with "You never" in the place of the person and the negation ("You never mentioned her
# dentist."), as they read the user's silence. Not when "tell" names another listener than me, us
# or you ("He never told his boss he was leaving": an answer about the boss), nor when the telling
# went to someone else ("She never mentioned it to her parents", "He never discussed it with his
# wife"; "with" within three words of the verb), nor "said no to" ("She never said no to dessert"),
# nor in a reference that opens with a yes/no verdict ("No, she never mentioned it." answers "Did
# she mention it?"; evaluator.scoring.verdict).
SILENCE_NOT_PERSON = ("i", "we", "you", "it", "there", "this", "that", "these", "those", "yes", "no")
SILENCE_NEGATIONS = (r"(?:has|have|had|does|do|did)\s+(?:not|never)", r"(?:hasn|haven|hadn|doesn|don|didn)['’]?t",
                     r"never")
SILENCE_ADVERBS = ("ever", "yet", "once", "actually", "really", "explicitly", "specifically", "even")
# base forms and past forms only: "Lena never shares her passwords" is a habit, not a silence
SILENCE_VERBS = ("mention", "mentioned", "say", "said", "share", "shared", "bring up", "brought up",
                 "talk about", "talked about", "discuss", "discussed", "reveal", "revealed", "specify",
                 "specified")
TELL_VERBS = ("tell", "told")
# what is said, not a silence about a topic: "Omar never said sorry", "He never said a word"
SPEECH_ACTS = ("sorry", "goodbye", "good-bye", "bye", "a word", "thanks", "thank you", "hello", "hi",
               "please", "no", "yes")
# A silence is the whole reference: one sentence, no clause after it that gives or bounds an
# answer ("Priya didn't mention the rent; she only said the flat is bright", "... never specified
# the airline, only that it left at 6 am", "... never mentioned a dentist other than Dr. Hale").
CLAUSE_MARKS = r"[;,:(]|\b(?:but|only|until|other\s+than|except|before|after|when|while|though|although|so|because|since)\b"
LISTENERS = ("me", "us", "you")                 # the conversation's own people
_ALT = "|".join
_VERBS = _ALT(v.replace(" ", r"\s+") for v in SILENCE_VERBS)
SILENCE = re.compile(
    rf"(?:^|(?<=[.!?;]))(?P<lead>\s*)(?P<person>(?!(?:{_ALT(SILENCE_NOT_PERSON)})\b)[A-Za-z][\w'’.-]{{0,40}}"
    rf"(?:\s+[\w'’-]{{1,40}}){{0,3}}?)\s+(?:{_ALT(SILENCE_NEGATIONS)})(?:\s+(?:{_ALT(SILENCE_ADVERBS)}))?\s+"
    rf"(?P<verb>(?:{_VERBS})\b(?!\s+(?:{_ALT(SPEECH_ACTS)})\b)"
    rf"(?!\s+(?:(?:it|that|this|them|anything|so)\s+)?to\s+(?!(?:{_ALT(LISTENERS)})\b)"
    rf"|(?:\s+[\w'’-]{{1,40}}){{0,3}}?\s+with\s+(?!(?:{_ALT(LISTENERS)})\b)|\s+(?:no|yes)\s+to\b)"
    rf"|(?:{_ALT(TELL_VERBS)})\b(?=\s+(?:{_ALT(LISTENERS)})\b|\s*(?:[.,;:!?]|$)))",
    re.IGNORECASE)


def _person_as_user(reference: str) -> str:
    """The reference with each sentence that opens with a person's silence read as the user's."""
    return SILENCE.sub(lambda m: f"{m.group('lead')}You never {m.group('verb')}", reference)


def reference_declines(reference: object, options: dict[str, str] | None = None,
                       yes_no: bool = False) -> bool:
    """Whether one reference answer declines (see the module docstring): with `options` (the
    question's, evaluator.scoring.choice.extract_options), a reference that is an option letter
    (or a list of them, every one) is read as its options' texts. `yes_no`: the question asks
    yes or no ("Did Lena mention her dentist?"), so a person's silence answers it ("no")."""
    from evaluator.scoring.choice_strict import gold_choice, letter_set
    from evaluator.scoring.metrics import answer_text
    from evaluator.scoring.refusal import rules_verdict
    from evaluator.scoring.verdict import opening_verdict

    text = answer_text(reference)
    letters = letter_set(gold_choice(text, options)) if options else frozenset()
    if letters:
        return all(reference_declines(options[k]) for k in letters)
    if rules_verdict(text):
        return True
    if opening_verdict(text) is not None or yes_no or not _one_plain_sentence(text):
        return False
    as_user = _person_as_user(text)
    return as_user != text and rules_verdict(as_user)


def _one_plain_sentence(text: str) -> bool:
    """One sentence without a clause after its verb (CLAUSE_MARKS): a silence and nothing else."""
    body = text.strip().rstrip(".!")
    return not re.search(r"[.!?]\s", body) and not re.search(CLAUSE_MARKS, body, re.IGNORECASE)


def _options(question: object) -> dict[str, str]:
    from evaluator.scoring.choice_options import extract_options

    return extract_options(question) if isinstance(question, str) else {}


def gold_text_unanswerable(gold: object, question: object = None) -> bool:
    """The gold-text rule: every acceptable reference answer declines (`reference_declines`; pass
    the `question` so that a reference that is an option letter is read as its option's text)."""
    from evaluator.scoring.metrics import gold_candidates

    from evaluator.scoring.verdict import asks_yes_no

    options = _options(question)
    yes_no = asks_yes_no(question)
    return all(reference_declines(g, options, yes_no) for g in gold_candidates(gold))


def any_reference_declines(gold: object, question: object = None) -> bool:
    """Whether one of the acceptable reference answers declines (a list of references that
    accepts a decline), read as `gold_text_unanswerable` reads them."""
    from evaluator.scoring.metrics import gold_candidates

    from evaluator.scoring.verdict import asks_yes_no

    options = _options(question)
    yes_no = asks_yes_no(question)
    return any(reference_declines(g, options, yes_no) for g in gold_candidates(gold))


@dataclass(frozen=True)
class UnanswerableRule:
    name: str = GOLD_TEXT
    keys: frozenset[str] = frozenset()
    file: str | None = None
    sha256: str | None = None

    def classify(self, key: str, gold: object, question: object = None) -> bool | None:
        """Whether the question `key` with reference `gold` is unanswerable under this rule. The
        gold-text rule reads an option letter through the question's options, so it needs the
        `question`: without one it answers None, and the scorer applies the rule itself with the
        question it scores (evaluator.scoring.tasks.score_answer)."""
        if self.name == KEYS:
            return str(key) in self.keys
        return None if question is None else gold_text_unanswerable(gold, question)

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
