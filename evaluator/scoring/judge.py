"""The LLM judge: any ChatModel at temperature 0, prompts from package files, every call cached.

Three judgments share the plumbing:
- `Judge.grade(question, gold, prediction)`: a Beyond Recall (or RealCompanion Question track)
  answer against the reference, score 0, 0.5 or 1 (`judge_prompt.txt`);
- `Judge.chat_reply(...)` / `judge_chat_reply(...)`: a RealCompanion Chat-track reply, content
  match 0-2 against the gold response, whether it used memory and whether it showed restraint
  (`chat_judge_prompt.txt`, given the recent conversation);
- `Judge.value_match(...)` / `judge_value_match(...)`: a persona or profile value against the
  gold value, match yes/no (`value_match_prompt.txt`).

A failing call is retried with exponential backoff, then recorded as an error for that sample;
an unparseable reply is an error too. Neither is ever a score of 0. The judge's backend, model id
and prompt sha256s are in `describe()`, which results.json records.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from evaluator.errors import EvalError, UsageError
from evaluator.models.base import Message
from evaluator.scoring.metrics import answer_text
from evaluator.scoring.policy import policy_of
from evaluator.scoring.readable import visible_reply

PROMPT_FILES = {"answer": "judge_prompt.txt", "temporal": "judge_temporal_prompt.txt",
                "update": "judge_update_prompt.txt", "abstention": "judge_abstention_prompt.txt",
                "chat": "chat_judge_prompt.txt", "value": "value_match_prompt.txt"}
PROMPT_FIELDS = {"answer": ("question", "reference", "response"),
                 "temporal": ("question", "reference", "response"),
                 "update": ("question", "reference", "response"),
                 "abstention": ("question", "reference", "response"),
                 "chat": ("context", "probe", "reference", "response"),
                 "value": ("slot", "reference", "response")}
# The grading prompt per question type, as LongMemEval's evaluate_qa.py picks one per type:
# temporal questions excuse an off-by-one in a count of days/weeks/months (the dataset card sets
# no tolerance of its own, so dates themselves must agree); memory updates accept "old, then new"
# only when the new value is stated as current; unanswerable questions use an abstention prompt.
# Which task gets which is its policy's `judge_prompt` (evaluator/scoring/policy.py).
ANSWER_KINDS = ("answer", "temporal", "update", "abstention")


def prompt_kind_for(task, *, unanswerable: bool = False) -> str:
    """Which grading prompt a question of `task` (a name or its evaluator.scoring.policy
    TaskPolicy) gets: "abstention" when its gold is a refusal, else its policy's `judge_prompt`
    ("answer" for a task without a policy)."""
    if unanswerable:
        return "abstention"
    policy = policy_of(task)
    return policy.judge_prompt if policy is not None else "answer"


_CACHE_VERSION = 1     # bump when the cache key's recipe changes


# -- prompts -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Prompt:
    kind: str
    source: str          # the package file name, or the path of a user's file
    text: str
    sha256: str

    def render(self, values: dict[str, str]) -> str:
        # One pass, so a "{reference}" typed inside an answer is never substituted again.
        pattern = re.compile(r"\{(" + "|".join(map(re.escape, values)) + r")\}")
        return pattern.sub(lambda m: values[m.group(1)], self.text)


def load_prompt(kind: str, path: str | os.PathLike | None = None) -> Prompt:
    """The prompt for `kind` ("answer", "chat", "value"): the package file, or `path`."""
    if kind not in PROMPT_FILES:
        raise ValueError(f"unknown judge prompt kind {kind!r}")
    if path is None:
        from importlib.resources import files

        source = PROMPT_FILES[kind]
        text = files("evaluator.scoring").joinpath(source).read_text("utf-8")
    else:
        source = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise EvalError(f"cannot read judge prompt {path}: {exc.strerror or exc}") from None
    missing = [f for f in PROMPT_FIELDS[kind] if "{" + f + "}" not in text]
    if missing:
        raise EvalError(f"judge prompt {source} lacks the placeholder(s) "
                        + ", ".join("{" + f + "}" for f in missing))
    return Prompt(kind, source, text, hashlib.sha256(text.encode("utf-8")).hexdigest())


def render_gold(gold: object) -> str:
    """A reference answer as the judge reads it; several acceptable answers are listed."""
    if isinstance(gold, (list, tuple)):
        items = [answer_text(g) for g in gold if g is not None]
        if len(items) == 1:
            return items[0]
        return "Any one of these is correct:\n" + "\n".join(f"- {g}" for g in items)
    return answer_text(gold)


# -- parsing the judge's reply -------------------------------------------------------------------
class JudgeParseError(ValueError):
    pass


def _visible_text(text: str) -> str:
    """The judge's reply without its reasoning (the agents' rule: readable.visible_reply)."""
    visible = visible_reply(text)
    if visible.unclosed and not visible.text:
        raise JudgeParseError("the judge's reply ends inside its reasoning (a <think> block never "
                              "closed: raise --judge_args max_tokens?), no verdict")
    return visible.text


def _json_objects(text: str) -> list[dict]:
    """Every JSON object embedded in `text` (code fences and prose around them are fine)."""
    decoder = json.JSONDecoder()
    found, i = [], text.find("{")
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            found.append({str(k).strip().lower(): v for k, v in obj.items()})
        i = text.find("{", end)
    return found


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        s = value.strip()
        if re.fullmatch(r"\d+\s*/\s*\d+", s):
            num, den = (float(x) for x in s.split("/"))
            return num / den if den else None
        try:
            return float(s)
        except ValueError:
            return None
    return None


def _yes_no(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        s = value.strip().strip(".").lower()
        if s in ("yes", "true", "y", "1"):
            return True
        if s in ("no", "false", "n", "0"):
            return False
    return None


# a number never read out of a longer one: "0.5/1" and "0,5" are not 0, "1.5" is not 1
_NUMBER = r"(\d+\s*/\s*\d+|\d*\.\d+|\d+)(?![\d/]|[.,]\d)"


def _last_labelled(text: str, label: str, value: str) -> str | None:
    """The value after the last `label:` in free text ("Score: 0.5", "**Used memory** - yes")."""
    pattern = re.compile(rf"(?i)\b{label}\b[\s*_`\"']*(?:is|=|:|-)?[\s*_`\"']*{value}")
    matches = list(pattern.finditer(text))
    return matches[-1].group(1) if matches else None


def _reason(objects: list[dict]) -> str | None:
    for obj in reversed(objects):
        for key in ("reason", "reasoning", "explanation", "rationale"):
            if isinstance(obj.get(key), str):
                return obj[key].strip()
    return None


def parse_answer_judgment(text: str) -> tuple[dict, str | None]:
    """({"score": 0.0 | 0.5 | 1.0}, reason) from a JSON object or a trailing "Score: x"."""
    visible = _visible_text(text)
    objects = [o for o in _json_objects(visible) if "score" in o]
    trailing = _trailing_score(visible)
    if objects:
        raw, reason = objects[-1]["score"], _reason(objects)
        if trailing is not None and _number(trailing) != _number(raw):
            raise JudgeParseError(f"the judge's reply gives two scores ({raw!r} in JSON, "
                                  f"{trailing!r} at its end)")
    else:
        raw, reason = trailing, None
    if raw is None:
        raise JudgeParseError("no score in the judge's reply (JSON, or `Score: x` at its end)")
    score = _number(raw)
    if score not in (0.0, 0.5, 1.0):
        raise JudgeParseError(f"judge score {raw!r} is not 0, 0.5 or 1")
    return {"score": score}, reason


def _trailing_score(visible: str) -> str | None:
    """The value of a `Score: x` the reply ends with (markdown and a final period allowed after
    it), else None: a score in the middle of the reasoning ("Score: 1. Wait, the reference says
    2019...") is not the verdict."""
    pattern = re.compile(rf"(?i)\bscore\b[\s*_`\"']*(?:is|=|:|-)?[\s*_`\"']*{_NUMBER}")
    matches = list(pattern.finditer(visible))
    if not matches or not re.fullmatch(r"[\s*_`\"'.)\]]*", visible[matches[-1].end():]):
        return None
    return matches[-1].group(1)


def parse_chat_judgment(text: str) -> tuple[dict, str | None]:
    """({"content_match": 0|1|2, "used_memory": bool, "restraint": bool | None}, reason).
    restraint is None when the reply leaves it out (a judge prompt of br-eval 0.1, or a judge
    that skipped it): it is then not reported, never counted as either answer."""
    visible = _visible_text(text)
    objects = [o for o in _json_objects(visible) if "content_match" in o or "used_memory" in o]
    if objects:
        obj = objects[-1]
        raw_match, raw_used, reason = obj.get("content_match"), obj.get("used_memory"), _reason(objects)
        raw_restraint = obj.get("restraint")
    else:
        raw_match = _last_labelled(visible, r"content[ _]match", r"(\d+)(?![\d.])")
        raw_used = _last_labelled(visible, r"used[ _]memory", r"(yes|no|true|false)\b")
        raw_restraint = _last_labelled(visible, r"restraint", r"(yes|no|true|false)\b")
        reason = None
    match = _number(raw_match)
    if match not in (0.0, 1.0, 2.0):
        raise JudgeParseError(f"content_match {raw_match!r} is not 0, 1 or 2")
    used = _yes_no(raw_used)
    if used is None:
        raise JudgeParseError(f"used_memory {raw_used!r} is not yes or no")
    restraint = None if raw_restraint is None else _yes_no(raw_restraint)
    if raw_restraint is not None and restraint is None:
        raise JudgeParseError(f"restraint {raw_restraint!r} is not yes or no")
    return {"content_match": int(match), "used_memory": used, "restraint": restraint}, reason


def parse_value_judgment(text: str) -> tuple[dict, str | None]:
    """({"match": bool}, reason)."""
    visible = _visible_text(text)
    objects = [o for o in _json_objects(visible) if "match" in o]
    if objects:
        raw, reason = objects[-1]["match"], _reason(objects)
    else:
        raw, reason = _last_labelled(visible, "match", r"(yes|no|true|false)\b"), None
    match = _yes_no(raw)
    if match is None:
        raise JudgeParseError(f"match {raw!r} is not yes or no")
    return {"match": match}, reason


_PARSERS: dict[str, Callable[[str], tuple[dict, str | None]]] = {
    "answer": parse_answer_judgment, "temporal": parse_answer_judgment,
    "update": parse_answer_judgment, "abstention": parse_answer_judgment,
    "chat": parse_chat_judgment, "value": parse_value_judgment}


# -- results -------------------------------------------------------------------------------------
@dataclass
class JudgeResult:
    values: dict = field(default_factory=dict)   # {"score"} | {"content_match", "used_memory"} | {"match"}
    raw: str | None = None                        # the judge's reply, verbatim
    reason: str | None = None
    error: str | None = None                      # set instead of values when the judgment failed
    cached: bool = False
    attempts: int = 0                             # model calls made (0 for a cache hit)
    kind: str | None = None                       # the prompt used ("answer", "temporal", ...)
    repeats: list | None = None                   # with repeats > 1: each judgment's values
    agreement: float | None = None                # share of the repeats that gave the kept values

    @property
    def score(self) -> float | None:
        return self.values.get("score")

    @property
    def ok(self) -> bool:
        return self.error is None

    def as_dict(self) -> dict:
        return asdict(self)


def _one_line(text: object, limit: int = 300) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


# -- the judge -----------------------------------------------------------------------------------
class Judge:
    """Wraps a ChatModel (evaluator.models.base) as a judge.

    cache: a JudgeCache, or a path to its SQLite file, or None. attempts/backoff_s/max_backoff_s:
    retries of a failing model call (delay backoff_s * 2**n, capped, with a little jitter).
    gen_kwargs: extra generation settings (e.g. max_tokens); temperature is always 0.
    prompt_paths: {"answer" | "chat" | "value": path} to use other prompt files.
    """

    def __init__(self, model, *, cache=None, attempts: int = 3, backoff_s: float = 1.0,
                 max_backoff_s: float = 30.0, gen_kwargs: dict | None = None,
                 prompt_paths: dict | None = None, sleep: Callable[[float], None] = time.sleep,
                 concurrency: int | None = None, repeats: int = 1) -> None:
        if attempts < 1:
            raise EvalError("judge: attempts must be at least 1")
        if int(repeats) < 1:
            raise EvalError("judge: repeats must be at least 1")
        self.repeats = int(repeats)
        self.model = model
        gen = dict(gen_kwargs or {})
        if float(gen.get("temperature", 0) or 0) != 0:
            raise EvalError("the judge runs at temperature 0; drop temperature from --judge_args")
        gen["temperature"] = 0.0
        self.gen_kwargs = gen
        self.attempts = int(attempts)
        self.backoff_s = float(backoff_s)
        self.max_backoff_s = float(max_backoff_s)
        self._sleep = sleep
        self.concurrency = int(concurrency or getattr(model, "concurrency", 1) or 1)
        prompt_paths = prompt_paths or {}
        unknown = set(prompt_paths) - set(PROMPT_FILES)
        if unknown:
            raise EvalError(f"judge: unknown prompt kind(s) {', '.join(sorted(unknown))}")
        self.prompts = {kind: load_prompt(kind, prompt_paths.get(kind)) for kind in PROMPT_FILES}
        if cache is not None and not hasattr(cache, "get"):
            from evaluator.scoring.cache import JudgeCache

            cache = JudgeCache(cache)
        self.cache = cache
        self._lock = threading.Lock()
        self.stats = {"calls": 0, "cache_hits": 0, "errors": 0}

    # -- identity ------------------------------------------------------------------------------
    @property
    def backend(self) -> str:
        return str(getattr(self.model, "name", type(self.model).__name__))

    @property
    def model_id(self) -> str:
        return str(getattr(self.model, "model_id", "unknown"))

    @property
    def prompt_sha256(self) -> str:
        """The answer-grading prompt's sha256 (results cite it)."""
        return self.prompts["answer"].sha256

    def describe(self) -> dict:
        """What results.json records so a judged number can be cited and reproduced (call counts
        stay in `stats`: they differ between a fresh and a cached run of the same judgment)."""
        return {
            "backend": self.backend,
            "model_id": self.model_id,
            "gen_kwargs": dict(self.gen_kwargs),
            "prompt_sha256": self.prompt_sha256,
            "prompts": {k: {"source": p.source, "sha256": p.sha256} for k, p in self.prompts.items()},
            "repeats": self.repeats,
        }

    # -- judgments -----------------------------------------------------------------------------
    def grade(self, question: str, gold: object, prediction: object, *,
              kind: str = "answer") -> JudgeResult:
        """Score an answer 0, 0.5 or 1 against the reference (`result.score`) with the grading
        prompt `kind` ("answer", "temporal", "update"; "abstention": 1 when the answer declines).
        With repeats > 1 the item is judged that many times (`result.repeats`, `result.agreement`)."""
        if kind not in ANSWER_KINDS:
            raise ValueError(f"unknown grading prompt {kind!r}")
        values = {"question": answer_text(question), "reference": render_gold(gold),
                  "response": answer_text(prediction)}
        if self.repeats == 1:
            result = self._judge(kind, values)
            result.kind = kind
            return result
        return self._repeated(kind, values)

    def _repeated(self, kind: str, values: dict[str, str]) -> JudgeResult:
        runs = [self._judge(kind, values, repeat=i) for i in range(self.repeats)]
        ok = [r for r in runs if r.ok]
        if not ok:
            out = runs[-1]
            out.kind, out.repeats, out.agreement = kind, [None] * len(runs), None
            return out
        scores = [r.score for r in ok]
        # the most frequent score; a tie goes to the lower score (a judge that cannot make up its
        # mind does not get the benefit of the doubt)
        kept = min(set(scores), key=lambda v: (-scores.count(v), v))
        first = next(r for r in ok if r.score == kept)
        return JudgeResult({"score": kept}, first.raw, first.reason,
                           cached=all(r.cached for r in runs),
                           attempts=sum(r.attempts for r in runs), kind=kind,
                           repeats=[r.score if r.ok else None for r in runs],
                           agreement=scores.count(kept) / len(runs))

    def grade_many(self, items: list[tuple[str, object, object]]) -> list[JudgeResult]:
        """`grade` over (question, gold, prediction) triples, `concurrency` at a time, in order."""
        if self.concurrency <= 1 or len(items) <= 1:
            return [self.grade(*item) for item in items]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(items))) as pool:
            return list(pool.map(lambda item: self.grade(*item), items))

    def chat_reply(self, *, probe: str, reply: str, gold_response: str,
                   context: str = "") -> JudgeResult:
        """Content match 0-2 against the gold response, used_memory yes/no, restraint yes/no."""
        return self._judge("chat", {"context": answer_text(context).strip() or "(none)",
                                    "probe": answer_text(probe),
                                    "reference": answer_text(gold_response),
                                    "response": answer_text(reply)})

    def value_match(self, *, slot: str, gold_value: object, predicted_value: object) -> JudgeResult:
        """Whether a persona/profile value states the same as the gold value."""
        return self._judge("value", {"slot": answer_text(slot),
                                     "reference": render_gold(gold_value),
                                     "response": answer_text(predicted_value)})

    # -- plumbing ------------------------------------------------------------------------------
    def cache_key(self, kind: str, values: dict[str, str], repeat: int = 0) -> str:
        from evaluator.scoring.cache import cache_key

        parts = dict(v=_CACHE_VERSION, backend=self.backend, model=self.model_id,
                     prompt=self.prompts[kind].sha256, gen=self.gen_kwargs, kind=kind,
                     fields=values)
        if repeat:
            parts["repeat"] = repeat     # the first judgment keeps the key of a single judgment
        return cache_key(**parts)

    def _count(self, name: str) -> None:
        with self._lock:
            self.stats[name] += 1

    def _judge(self, kind: str, values: dict[str, str], repeat: int = 0) -> JudgeResult:
        parse = _PARSERS[kind]
        key = self.cache_key(kind, values, repeat) if self.cache is not None else None
        if key is not None:
            hit = self.cache.get(key)
            if hit is not None and isinstance(hit.get("raw"), str):
                try:
                    parsed, reason = parse(hit["raw"])
                except JudgeParseError:
                    pass        # only parseable replies are stored; ignore a stale one
                else:
                    self._count("cache_hits")
                    return JudgeResult(parsed, hit["raw"], reason, cached=True)

        messages = [Message.text("user", self.prompts[kind].render(values))]
        generation, error, attempts = None, None, 0
        for attempt in range(1, self.attempts + 1):
            attempts = attempt
            self._count("calls")
            try:
                generation = self.model.generate(messages, **self.gen_kwargs)
                break
            except EvalError:
                raise           # a configuration problem (bad settings): stop the run, loudly
            except Exception as exc:  # noqa: BLE001 - any failed call is this sample's error
                error = f"{type(exc).__name__}: {_one_line(exc)}"
                if attempt < self.attempts:
                    delay = min(self.backoff_s * 2 ** (attempt - 1), self.max_backoff_s)
                    self._sleep(delay * (1 + 0.1 * random.random()))
        if generation is None:
            self._count("errors")
            tries = f" after {attempts} attempts" if attempts > 1 else ""
            return JudgeResult(error=f"judge call failed{tries}: {error}", attempts=attempts)

        raw = generation.text if isinstance(generation.text, str) else str(generation.text)
        try:
            parsed, reason = parse(raw)
        except JudgeParseError as exc:
            # Not cached: a rerun asks again rather than repeating an unusable reply.
            self._count("errors")
            return JudgeResult(raw=raw, error=f"unparseable judge reply: {exc}",
                               attempts=attempts)
        if key is not None:
            self.cache.put(key, {"raw": raw, "input_tokens": generation.input_tokens,
                                 "output_tokens": generation.output_tokens,
                                 "model_id": self.model_id})
        return JudgeResult(parsed, raw, reason, attempts=attempts)


# -- RealCompanion helpers -----------------------------------------------------------------------
def judge_chat_reply(judge: Judge, *, probe: str, reply: str, gold_response: str,
                     context: str = "") -> dict:
    """{"content_match": 0|1|2|None, "used_memory": bool|None, "restraint": bool|None, "raw",
    "reason", "error", "cached"}; the three judgments are None (never 0 / False) when the judge
    failed. `context` is the conversation the judged reply answers (the messages before the
    probe that the judge should see)."""
    r = judge.chat_reply(probe=probe, reply=reply, gold_response=gold_response, context=context)
    return {"content_match": r.values.get("content_match"), "used_memory": r.values.get("used_memory"),
            "restraint": r.values.get("restraint"),
            "raw": r.raw, "reason": r.reason, "error": r.error, "cached": r.cached}


def judge_value_match(judge: Judge, *, slot: str, gold_value: object,
                      predicted_value: object) -> dict:
    """{"match": bool|None, "raw", "reason", "error", "cached"}; None when the judge failed."""
    r = judge.value_match(slot=slot, gold_value=gold_value, predicted_value=predicted_value)
    return {"match": r.values.get("match"), "raw": r.raw, "reason": r.reason, "error": r.error,
            "cached": r.cached}


# -- construction from the command line ----------------------------------------------------------
JUDGE_KINDS = ("openai", "mock")
_GEN_ARGS = ("temperature", "max_tokens", "seed")
_OPENAI_ARGS = ("base_url", "model", "api_key", "timeout", "max_retries", "backoff",
                "concurrency")
_PROMPT_ARGS = {"prompt": "answer", "temporal_prompt": "temporal", "update_prompt": "update",
                "abstention_prompt": "abstention", "chat_prompt": "chat", "value_prompt": "value"}


def make_judge(kind: str, args: dict | None = None, *, cache_path=None, cache=None) -> Judge:
    """A Judge from `--judge KIND --judge_args k=v,...`.

    openai: base_url and model are required; api_key defaults to $BR_EVAL_JUDGE_API_KEY, then
    $OPENAI_API_KEY, then "EMPTY" (local servers need none); timeout, max_retries, backoff and
    concurrency go to the backend, which does the retrying. mock: the scripted backend
    (evaluator.models.mock_backend), for dry runs; `attempts` sets the judge's own retries.
    Any kind: max_tokens and seed are generation settings (temperature is always 0); prompt,
    temporal_prompt, update_prompt, abstention_prompt, chat_prompt, value_prompt name other
    prompt files; repeats=K judges every answer K times (see `agreement_summary`).
    cache_path: the SQLite response cache.
    """
    args = dict(args or {})
    try:
        repeats = int(args.pop("repeats", 1))
    except (TypeError, ValueError):
        raise UsageError("--judge_args repeats should be a whole number") from None
    if repeats < 1:
        raise UsageError("--judge_args repeats should be at least 1")
    gen = {k: args.pop(k) for k in _GEN_ARGS if k in args}
    try:
        nonzero = float(gen.get("temperature", 0) or 0) != 0
    except (TypeError, ValueError):
        nonzero = True
    if nonzero:
        raise UsageError("the judge runs at temperature 0; drop temperature from --judge_args")
    prompt_paths = {_PROMPT_ARGS[k]: args.pop(k) for k in list(args) if k in _PROMPT_ARGS}
    if cache is None and cache_path is not None:
        from evaluator.scoring.cache import JudgeCache

        cache = JudgeCache(cache_path)

    if kind == "openai":
        missing = [k for k in ("base_url", "model") if not args.get(k)]
        if missing:
            raise UsageError(f"the openai judge needs --judge_args {','.join(m + '=...' for m in missing)}"
                            " (e.g. --judge_args base_url=http://localhost:8000/v1,model=Qwen/Qwen2.5-7B-Instruct)")
        unknown = sorted(set(args) - set(_OPENAI_ARGS))
        if unknown:
            raise UsageError(f"unknown --judge_args for the openai judge: {', '.join(unknown)} "
                            f"(accepted: {', '.join(_OPENAI_ARGS + _GEN_ARGS + tuple(_PROMPT_ARGS))})")
        api_key = (args.pop("api_key", None) or os.environ.get("BR_EVAL_JUDGE_API_KEY")
                   or os.environ.get("OPENAI_API_KEY") or "EMPTY")
        try:
            from evaluator.models.openai_backend import OpenAIChatModel
        except ImportError as exc:
            raise EvalError(f"the openai judge is not available: {exc}") from None
        options = {}
        for name, convert in (("timeout", float), ("max_retries", int), ("backoff", float),
                              ("concurrency", int)):
            if name in args:
                try:
                    options[name] = convert(args.pop(name))
                except (TypeError, ValueError):
                    raise UsageError(f"--judge_args {name} should be a number") from None
        model = OpenAIChatModel(str(args.pop("base_url")), str(args.pop("model")), api_key, **options)
        model.args_flag = "--judge_args"
        # The backend retries (and knows which HTTP errors are worth retrying): no second layer.
        return Judge(model, cache=cache, attempts=1, gen_kwargs=gen, prompt_paths=prompt_paths,
                     repeats=repeats)

    if kind == "mock":
        attempts = args.pop("attempts", 3)
        from evaluator.models import make_model

        model = make_model("mock", args)
        try:
            attempts = int(attempts)
        except (TypeError, ValueError):
            raise UsageError("--judge_args attempts should be a whole number") from None
        return Judge(model, cache=cache, attempts=attempts, backoff_s=0.0, gen_kwargs=gen,
                     prompt_paths=prompt_paths, repeats=repeats)

    raise UsageError(f"unknown judge {kind!r} (choose from: {', '.join(JUDGE_KINDS)})")


# -- repeats and calibration ---------------------------------------------------------------------
def agreement_summary(samples) -> dict | None:
    """Over judged samples (score_sample outputs or JudgeResult.as_dict()s carrying
    `judge_agreement` / `agreement`): {"n_items", "mean_agreement", "share_unanimous"}; None when
    no sample was judged more than once."""
    values = []
    for s in samples:
        s = s.get("metrics", s) if isinstance(s, dict) else s
        a = s.get("judge_agreement", s.get("agreement")) if isinstance(s, dict) else None
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            values.append(float(a))
    if not values:
        return None
    return {"n_items": len(values), "mean_agreement": sum(values) / len(values),
            "share_unanimous": sum(v == 1.0 for v in values) / len(values)}


CALIBRATION_DATA = "judge_calibration.jsonl"


def calibration_key(judge: Judge) -> str:
    """The cache key of a calibration: judge backend, model id, generation settings and the
    sha256 of every prompt (a changed prompt or model is a different calibration)."""
    from evaluator.scoring.cache import cache_key

    return cache_key(v=_CACHE_VERSION, calibration=True, backend=judge.backend,
                     model=judge.model_id, gen=judge.gen_kwargs,
                     prompts={k: p.sha256 for k, p in sorted(judge.prompts.items())})


def load_calibration_rows(path=None) -> list[dict]:
    """The calibration set: rows {task, question, reference, response, correct, source}."""
    if path is None:
        path = Path(__file__).with_name(CALIBRATION_DATA)      # shipped with the package
    try:
        lines = Path(path).read_text("utf-8").splitlines()
    except OSError as exc:
        raise EvalError(f"cannot read the calibration set {path}: {exc.strerror or exc}") from None
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            assert isinstance(row["correct"], bool) and row["question"] and row["response"]
        except (ValueError, KeyError, TypeError, AssertionError):
            raise EvalError(f"{path}: line {n} is not a calibration row "
                            "({question, reference, response, correct})") from None
        rows.append(row)
    return rows


def calibrate(judge: Judge, rows: list[dict]) -> dict:
    """Run `judge` over known-right and known-wrong answers: false_accept = share of wrong answers
    scored above 0, false_reject = share of right answers scored below 1 (judge errors are
    counted apart and in neither rate)."""
    items = [(r["question"], r["reference"], r["response"]) for r in rows]
    kinds = [prompt_kind_for(r.get("task", ""), unanswerable=False) for r in rows]
    results = [judge.grade(q, g, p, kind=k) for (q, g, p), k in zip(items, kinds)]
    wrong = [res for res, r in zip(results, rows) if not r["correct"] and res.ok]
    right = [res for res, r in zip(results, rows) if r["correct"] and res.ok]
    return {
        "false_accept": sum(res.score > 0 for res in wrong) / len(wrong) if wrong else None,
        "false_reject": sum(res.score < 1 for res in right) / len(right) if right else None,
        "n_wrong": len(wrong), "n_right": len(right),
        "n_errors": sum(1 for res in results if not res.ok),
    }


def save_calibration(judge: Judge, figures: dict) -> None:
    """Store `figures` in the judge's response cache under `calibration_key(judge)`."""
    if judge.cache is None:
        raise EvalError("calibrate-judge needs a response cache to write into (--use_cache)")
    judge.cache.put(calibration_key(judge), {**figures, "judge": judge.describe(),
                                             "created": time.time()})


def calibration_for(judge: Judge | None) -> dict | None:
    """The calibration stored for this exact judge (backend, model, settings, prompts), as
    {"false_accept", "false_reject", "n_wrong", "n_right", "n_errors", ...}, or None."""
    if judge is None or judge.cache is None:
        return None
    hit = judge.cache.get(calibration_key(judge))
    if not hit or "false_accept" not in hit:
        return None
    return {k: hit.get(k) for k in ("false_accept", "false_reject", "n_wrong", "n_right",
                                    "n_errors", "created")}
