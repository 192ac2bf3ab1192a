"""`realcompanion/retrieval`: retrieval baselines and controls, demand rate, reach, restraint.

No model is involved. For every probe of the task (scoreable probes and cold opens) one journal
line is written as soon as it is computed, holding the rank of every gold message under every
method and control, the detector scores and the reach; all metrics are then computed from the
journal alone, so a rerun into the same folder skips finished probes and aggregates the same way.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from pathlib import Path

from evaluator.errors import EvalError
from evaluator.realcompanion.data import Probe, Release
from evaluator.records import Sample
from evaluator.realcompanion.tracks import RealCompanionTask
from evaluator.task import Item

TASK = "realcompanion/retrieval"
JOURNAL_VERSION = 3    # 3: offset-permuted gold: memory-bearing probes, no true reference
K_VALUES = (1, 5, 10)
WINDOW_MESSAGES = (10, 50, 100, 500, 1000, 2000, 5000, 10000)
WINDOW_TOKENS = (8_000, 32_000, 128_000, 200_000, 1_000_000)
BUILTIN_DETECTOR = "bm25_top"
POPULATIONS = ("all", "memory_bearing")


def task_probes(release: Release) -> list[Probe]:
    """The probes this task journals, in participant order then conversation order: every
    scoreable probe (with or without references) and every cold open."""
    out = []
    for part in release.participants:
        chosen = [p for p in part.probes if (p.scoreable and not p.cold_open)
                  or (p.cold_open and p.ok)]
        out.extend(sorted(chosen, key=lambda p: (p.position, p.probe_id)))
    return out


def sample_key(task: str, probe: Probe) -> str:
    return f"{task}/{probe.participant}/{probe.probe_id}"


def release_fingerprint(release: Release) -> str:
    """sha256 over every file the release was read from (its path under the root, then its
    bytes), so a resumed journal is known to match its data."""
    h = hashlib.sha256()
    for path in release.files:
        h.update(f"{Path(path).relative_to(release.root).as_posix()}\0".encode())
        h.update(Path(path).read_bytes())
    return h.hexdigest()


def load_detector(spec: str):
    """A user restraint detector, "package.module:function", called as fn(probe, pool) -> float
    where pool is the tuple of messages strictly before the probe."""
    from evaluator.plugins import load_attr

    fn = load_attr(spec, "--detector", "function")
    if not callable(fn):
        raise EvalError(f"--detector {spec!r}: {spec.partition(':')[2]!r} is not a function")
    return fn


class RetrievalTask(RealCompanionTask):
    """No agent or model: every probe's line is computed from the release alone."""

    name = TASK
    suite = "realcompanion"
    unit = "probe"
    uses_agent = False

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)
        self._lock = threading.Lock()      # one participant's engine at a time

    def _state(self, ctx):
        def build():
            from evaluator.realcompanion.retrieval import plan_controls
            from evaluator.realcompanion.tracks import load_rc

            _, release = load_rc(ctx)
            detector_fn = load_detector(ctx.detector) if ctx.detector else None
            return {"fingerprint": release_fingerprint(release), "detector_fn": detector_fn,
                    "plan": plan_controls(release, ctx.seed), "engines": {}}
        return ctx.shared(("rc_retrieval", self.name), build)

    def _detectors(self, ctx) -> list[str]:
        return [BUILTIN_DETECTOR] + ([str(ctx.detector)] if ctx.detector else [])

    def prepare(self, ctx) -> None:
        self._state(ctx)

    def items(self, ctx) -> list[Item]:
        from evaluator.realcompanion.tracks import load_rc

        _, release = load_rc(ctx)
        return [Item(sample_key(self.name, p), p.participant, p) for p in task_probes(release)]

    def tables(self, entry: dict) -> str:
        from evaluator.realcompanion.tables import paper_tables

        return paper_tables(self.name, entry)

    def describe_item(self, ctx, item: Item) -> list[str]:
        p = item.payload
        return [f"{item.key}  (pool: the {p.position} message(s) before the probe)",
                f"PROBE: {p.text}", f"references: {', '.join(p.reference_ids) or '-'}"]

    def question_and_gold(self, ctx, item: Item) -> tuple[str | None, str | None]:
        """The probe, and the reference messages it should retrieve (id, speaker, text)."""
        from beyondrecall.errors import DataError
        from evaluator.realcompanion.tracks import load_rc

        p = item.payload
        if not p.reference_ids:
            return p.text, None
        person = load_rc(ctx)[1].participant(p.participant)
        refs = []
        for mid in p.reference_ids:
            try:
                m = person.message(mid)
                refs.append(f"[{mid}] {m.speaker}: {m.text}")
            except DataError:
                refs.append(f"[{mid}] (not in the conversation)")
        return p.text, "\n".join(refs)

    def check_scorable(self, ctx, done) -> None:
        old = [s for s in done if not s.failed and s.fields.get("journal_version") != JOURNAL_VERSION]
        if old:
            raise EvalError(
                f"{ctx.run_dir.journal_path(self.name)}: {old[0].key} was written with journal "
                f"version {old[0].fields.get('journal_version')!r} (this br-eval writes "
                f"{JOURNAL_VERSION}: its controls changed), so its figures cannot be scored again; "
                f"`br-eval run --task {self.name} --overwrite` into the folder redoes the task "
                "(it needs no agent)")

    def check_resume(self, ctx, done) -> None:
        _check_resumable([s.to_json() for s in done], ctx.seed, self._state(ctx)["fingerprint"],
                         self._detectors(ctx), ctx.run_dir.journal_path(self.name))

    def solve(self, ctx, item: Item, sample: Sample) -> None:
        from evaluator.realcompanion.retrieval import ParticipantRetrieval
        from evaluator.realcompanion.tracks import load_rc

        state = self._state(ctx)
        probe = item.payload
        with self._lock:
            engine = state["engines"].get(probe.participant)
            if engine is None:
                _, release = load_rc(ctx)
                state["engines"].clear()          # probes come participant by participant
                engine = state["engines"][probe.participant] = ParticipantRetrieval(
                    release.participant(probe.participant))
            line = _probe_line(self.name, probe, engine, state["plan"], ctx.seed,
                               state["fingerprint"], state["detector_fn"], ctx.detector)
        line.pop("key")
        sample.fields.update(line)

    def score(self, ctx, item, sample: Sample, judge=None) -> str | None:
        ranks = (sample.fields.get("retrieval") or {}).get("ranks", {}).get("true", {})
        bm25 = ranks.get("BM25")
        sample.metrics = {"primary": None if not bm25 or not sample.fields.get("memory_bearing")
                          else _rank_metrics(bm25)["hit@5"]}
        return None

    def aggregate(self, ctx, lines: list[dict]) -> dict:
        from evaluator.realcompanion.tracks import load_rc

        root, release = load_rc(ctx)
        lines = [s for s in lines if not s.get("error")]
        metrics = aggregate(lines, seed=ctx.seed, detectors=self._detectors(ctx))
        if ctx.limit is None:
            metrics["question_track_detection"] = question_detection(
                release, lines, self._detectors(ctx), self._state(ctx)["detector_fn"], ctx.seed)
        sample_info = None
        if release.is_sample:
            try:
                sample_info = json.loads((Path(root) / ".sample").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                sample_info = {}
        metrics["data"] = {"path": str(root), "is_sample": release.is_sample, "sample": sample_info,
                           "participants": len(release.participants),
                           "messages": release.n_messages,
                           "fingerprint": self._state(ctx)["fingerprint"],
                           "probes_scored": len(lines)}
        return metrics


def _check_resumable(existing: list[dict], seed: int, fingerprint: str, detectors: list[str],
                     journal: Path) -> None:
    from evaluator.realcompanion.text import FALLBACK_TOKENIZER, window_counter

    tokenizer = window_counter()[0]
    for s in existing:
        if s.get("error"):
            continue
        why = None
        if s.get("journal_version") != JOURNAL_VERSION:
            why = f"journal version {s.get('journal_version')!r} (this br-eval writes {JOURNAL_VERSION})"
        elif s.get("seed") != seed:
            why = f"--seed {s.get('seed')} (this run uses {seed})"
        elif s.get("data_fingerprint") != fingerprint:
            why = "different RealCompanion data"
        elif (s.get("window_tokenizer") or FALLBACK_TOKENIZER) != tokenizer:
            why = (f"token windows counted with {s.get('window_tokenizer') or FALLBACK_TOKENIZER} "
                   f"(this run counts with {tokenizer})")
        elif not set(detectors) <= set(s.get("detectors") or {}):
            missing = sorted(set(detectors) - set(s.get("detectors") or {}))
            why = f"other detectors (no {', '.join(missing)})"
        if why:
            raise EvalError(f"{journal}: {s.get('key')} was written with {why}; rerun with the "
                            f"same settings, or pass --overwrite (or another --output_path) to "
                            "redo it")


def _probe_line(task, probe: Probe, engine, plan, seed, fingerprint, detector_fn,
                detector_spec) -> dict:
    scores = engine.bm25_scores(probe)
    detector_scores = {BUILTIN_DETECTOR: float(scores.max()) if len(scores) else 0.0}
    if detector_fn is not None:
        pool = engine.participant.history(probe.position)
        try:
            value = float(detector_fn(probe, pool))
        except Exception as exc:
            raise EvalError(f"--detector {detector_spec}: failed on probe "
                            f"{probe.participant}/{probe.probe_id} ({exc!r}); finished probes "
                            f"are kept in the journal") from None
        if not math.isfinite(value):
            raise EvalError(f"--detector {detector_spec}: returned {value} for probe "
                            f"{probe.participant}/{probe.probe_id}; scores must be finite")
        detector_scores[str(detector_spec)] = value
    has_refs = bool(probe.reference_positions) and not probe.cold_open
    return {
        "key": sample_key(task, probe), "journal_version": JOURNAL_VERSION, "seed": seed,
        "data_fingerprint": fingerprint, "participant": probe.participant,
        "probe_id": probe.probe_id, "message_id": probe.message_id,
        "position": probe.position, "pool_size": probe.position, "stratum": probe.stratum,
        "scoreable": probe.scoreable, "locus": probe.locus,
        "memory_bearing": probe.memory_bearing, "cold_open": probe.cold_open,
        "memory_bearing_strict": probe.memory_bearing_strict, "on_screen": probe.on_screen,
        "n_references": len(probe.reference_positions),
        "reference_ids": list(probe.reference_ids),
        "reference_distances": [probe.position - r for r in probe.reference_positions],
        "grounding_ids": list(probe.grounding_ids),
        "detectors": detector_scores,
        "reach": engine.reach(probe) if has_refs else None,
        "window_tokenizer": engine.window_tokenizer,
        "retrieval": engine.retrieval_record(probe, plan, seed, scores) if has_refs else None,
    }


# -- aggregation (journal lines only) ----------------------------------------------------------------
def _rank_metrics(ranks: list) -> dict[str, float]:
    """hit@k (any gold in the top k), all@k (every gold), recall@k (the share of gold in the top
    k: "the proportion of required turns that appear within the top five") and MRR. A rank of
    None is a gold message the method did not return: a miss at every k."""
    got = [r for r in ranks if r is not None]
    best = min(got) if got else None
    out = {f"hit@{k}": float(best is not None and best <= k) for k in K_VALUES}
    out.update({f"all@{k}": float(len(got) == len(ranks) and max(got) <= k) for k in K_VALUES})
    out.update({f"recall@{k}": sum(1 for r in got if r <= k) / len(ranks) for k in K_VALUES})
    out["mrr"] = 0.0 if best is None else 1.0 / best
    return out


METRIC_NAMES = tuple([f"hit@{k}" for k in K_VALUES] + [f"all@{k}" for k in K_VALUES]
                     + [f"recall@{k}" for k in K_VALUES] + ["mrr"])


def _retrieval_metrics(lines: list[dict], seed: int, n_boot: int) -> dict:
    from evaluator.realcompanion.retrieval import CONTROL_METHODS, GOLD_SETS, METHODS
    from evaluator.stats import expected_random_hit, participant_bootstrap

    scored = [s for s in lines if s.get("retrieval")]
    out: dict = {}
    for gold in GOLD_SETS:
        methods = METHODS if gold == "true" else CONTROL_METHODS
        block: dict = {}
        for method in methods:
            per_pop: dict = {}
            for pop in POPULATIONS:
                rows = [s for s in scored if (pop == "all" or s["memory_bearing"])
                        and s["retrieval"]["ranks"].get(gold)]
                entry: dict = {"n_probes": len(rows),
                               "n_participants": len({s["participant"] for s in rows}),
                               "pooled": {}, "macro": {}}
                clusters = [s["participant"] for s in rows]
                values = [_rank_metrics(s["retrieval"]["ranks"][gold][method]) for s in rows]
                for name in METRIC_NAMES:
                    est = participant_bootstrap([v[name] for v in values], clusters,
                                                n_boot=n_boot, seed=seed)
                    for kind in ("pooled", "macro"):
                        entry[kind][name] = (None if est is None else
                                             {"mean": est[kind]["mean"], "ci95": est[kind]["ci95"]})
                if gold == "true":           # Table 38: the by-subject values
                    by: dict[str, list] = {}
                    for s, v in zip(rows, values):
                        by.setdefault(s["participant"], []).append(v)
                    entry["per_participant"] = {
                        pid: {"n": len(vs), **{m: sum(v[m] for v in vs) / len(vs)
                                               for m in ("hit@5", "recall@5", "mrr")}}
                        for pid, vs in sorted(by.items())}
                if method == "RANDOM" and rows:
                    entry["expected_pooled"] = {
                        f"hit@{k}": sum(expected_random_hit(
                            s["pool_size"], len(s["retrieval"]["ranks"][gold]["RANDOM"]), k)
                            for s in rows) / len(rows) for k in K_VALUES}
                per_pop[pop] = entry
            block[method] = per_pop
        out[f"{gold}_gold"] = block
    return out


def _demand_rate(lines: list[dict]) -> dict:
    from evaluator.stats import wilson

    prop = [s for s in lines if s["stratum"] == "proportional" and s["scoreable"]
            and not s["cold_open"]]
    k = sum(1 for s in prop if s["memory_bearing"])
    per: dict[str, dict] = {}
    for s in prop:
        row = per.setdefault(s["participant"], {"n": 0, "memory_bearing": 0})
        row["n"] += 1
        row["memory_bearing"] += int(s["memory_bearing"])
    k_strict = sum(1 for s in prop if s.get("memory_bearing_strict", s["memory_bearing"]))
    return {"stratum": "proportional (scoreable probes)", "estimate": wilson(k, len(prop)),
            "estimate_strict": wilson(k_strict, len(prop)),
            "strict_rule": "memory-bearing and not on screen (on_screen neither clear nor "
                           "borderline; rows without a verdict keep their recorded label)",
            "n_with_verdict": sum(1 for s in prop if s.get("on_screen") is not None),
            "per_participant": dict(sorted(per.items()))}


def _reach(lines: list[dict]) -> tuple[dict, dict]:
    from evaluator.stats import describe, wilson
    from evaluator.realcompanion.text import FALLBACK_TOKENIZER

    def describe_rows(rows):
        return {"n": len(rows),
                "nearest_reference": describe([s["reach"]["nearest"] for s in rows]),
                "farthest_reference": describe([s["reach"]["farthest"] for s in rows])}

    with_reach = [s for s in lines if s.get("reach") and not s.get("cold_open")]
    rows = [s for s in with_reach if s["memory_bearing"]]
    thread = [s for s in with_reach if s["locus"] == "thread"]
    # top level: memory-bearing probes (as before); by_population: the paper's "a median of 2
    # messages (in-thread) to 450 messages (out-of-thread)" side by side
    reach = {"unit": "messages between the probe and its reference (1 = the message just before)",
             **describe_rows(rows),
             "by_population": {"thread": describe_rows(thread), "memory_bearing": describe_rows(rows)}}

    def windows(rows):
        return {
            "n": len(rows),
            "messages": {str(n): wilson(sum(1 for s in rows if s["reach"]["farthest"] <= n),
                                        len(rows)) for n in WINDOW_MESSAGES},
            "tokens": {str(t): wilson(sum(1 for s in rows if s["reach"]["tokens_to_farthest"] <= t),
                                      len(rows)) for t in WINDOW_TOKENS}}

    strict = [s for s in rows if s.get("memory_bearing_strict", True)]
    not_clear = [s for s in rows if s.get("on_screen") != "clear"]
    coverage = {
        "population": "memory-bearing probes with references",
        "populations": "Table 34's three (the paper's 404 / 250 / 205), read as the recorded "
                       "reading, the rows whose referent is not clearly on screen, and the "
                       "strict reading (neither clear nor borderline)",
        "rule": "a window of N messages (or T tokens) is the run of messages just before the probe; "
                "a probe is covered when all its references lie inside it",
        "tokenizer": ", ".join(sorted({s.get("window_tokenizer") or FALLBACK_TOKENIZER
                                       for s in rows})) or None,
        **windows(rows),
        "strict": windows(strict),
        "not_clearly_on_screen": windows(not_clear),
        "blocks": _block_coverage(rows),
        "blocks_strict": _block_coverage(strict),
    }
    return reach, coverage


def _block_coverage(rows: list[dict]) -> dict:
    """Figure 4: the share of probes whose every reference lies inside each chat condition's
    block (C1: the 3 messages before the probe; C3m: the 10 before; C2: the grounding messages;
    C3: C1's and C2's; C4/C4m: BM25's top 10; C0: nothing)."""
    from evaluator.realcompanion.chat_track import BM25_K, CONDITIONS, RECENT_N
    from evaluator.stats import wilson

    def covered(s, cond):
        refs = s["reference_ids"]
        dist = dict(zip(refs, s.get("reference_distances") or [s["reach"]["farthest"]] * len(refs)))
        grounding = set(s.get("grounding_ids") or [])
        top = set((s.get("retrieval") or {}).get("bm25_top10") or [])
        inside = {"C0": lambda r: False, "C1": lambda r: dist[r] <= RECENT_N,
                  "C3m": lambda r: dist[r] <= BM25_K, "C2": lambda r: r in grounding,
                  "C3": lambda r: r in grounding or dist[r] <= RECENT_N,
                  "C4": lambda r: r in top, "C4m": lambda r: r in top}[cond]
        return all(inside(r) for r in refs)

    return {c: wilson(sum(1 for s in rows if covered(s, c)), len(rows)) for c in CONDITIONS}


def _restraint(lines: list[dict], detectors: list[str], seed: int, misfire_threshold,
               n_boot: int) -> dict:
    from evaluator.stats import auroc_with_interval, wilson

    scoreable = [s for s in lines if s["scoreable"] and not s["cold_open"]]
    positives = [s for s in scoreable if s["memory_bearing"]]
    no_referent = [s for s in scoreable if s["locus"] == "none"]
    cold = [s for s in lines if s["cold_open"]]
    proportional = [s for s in scoreable if s["stratum"] == "proportional"]
    demand_k = sum(1 for s in proportional if s["memory_bearing"])
    out = {}
    for name in detectors:
        def score(s):
            return s["detectors"][name]

        vs = {}
        for label, negatives in (("no_referent", no_referent), ("cold_opens", cold)):
            vs[label] = auroc_with_interval([score(s) for s in positives],
                                            [s["participant"] for s in positives],
                                            [score(s) for s in negatives],
                                            [s["participant"] for s in negatives], seed=seed,
                                            n_boot=n_boot)
        if misfire_threshold is not None:
            threshold, rule = float(misfire_threshold), "given (--misfire_threshold)"
        elif demand_k and proportional:
            ranked = sorted((score(s) for s in proportional), reverse=True)
            threshold = ranked[demand_k - 1]
            rule = (f"fires at the demand rate: the {demand_k}-th highest score among the "
                    f"{len(proportional)} scoreable proportional probes")
        else:
            threshold, rule = None, "no memory-bearing proportional probe: the detector never fires"

        def fires(s):
            return threshold is not None and score(s) >= threshold

        need_nothing = no_referent + cold
        prop_memory = [s for s in proportional if s["memory_bearing"]]
        prop_other = [s for s in proportional if not s["memory_bearing"]]
        out[name] = {
            "auroc_memory_vs_no_referent": vs["no_referent"],
            "auroc_memory_vs_cold_opens": vs["cold_opens"],
            "threshold": threshold, "threshold_rule": rule,
            "misfire_rate": wilson(sum(map(fires, need_nothing)), len(need_nothing)),
            "misfire_rate_no_referent": wilson(sum(map(fires, no_referent)), len(no_referent)),
            "misfire_rate_cold_opens": wilson(sum(map(fires, cold)), len(cold)),
            # every memory-bearing scoreable probe (the AUROC positives), not the paper's 40
            "detection_rate_memory_bearing": wilson(sum(map(fires, positives)), len(positives)),
            # on the stratum where the threshold is set: the paper's 6 of 40 and its 40 false alarms
            "detection_rate_proportional": wilson(sum(map(fires, prop_memory)), len(prop_memory)),
            "false_alarms_proportional": wilson(sum(map(fires, prop_other)), len(prop_other)),
            "fires_on_proportional": sum(map(fires, proportional)),
            "n_proportional": len(proportional),
        }
    return out


class _QuestionProbe:
    """A written question seen by a detector as a probe: `text` is the question, `position` is
    where its pool ends (the asked_after message is visible, so it is in the pool)."""

    def __init__(self, q) -> None:
        self.participant, self.probe_id, self.text = q.participant, q.qid, q.question
        self.message_id = None
        self.position = q.visible_until
        self.question = q


def question_detection(release, lines: list[dict], detectors: list[str], detector_fn,
                       seed: int, n_boot: int | None = None) -> dict:
    """The same detectors scored on the written questions (positives: every question, whose
    evidence the conversation holds) against the same negatives as the chat probes (no-referent
    probes, cold opens): the paper's "同一检测器在编写问题上达 0.802" (the same detector reaches
    0.802 on written questions: they leak lexical cues). Computed from the release at aggregation time (questions are not journaled)."""
    from evaluator.stats import N_BOOT, auroc_with_interval

    n_boot = n_boot or N_BOOT
    scoreable = [s for s in lines if s["scoreable"] and not s["cold_open"]]
    negatives = {"no_referent": [s for s in scoreable if s["locus"] == "none"],
                 "cold_opens": [s for s in lines if s["cold_open"]]}
    out: dict = {"positives": "written questions", "n_questions": 0}
    scores: dict[str, list[float]] = {d: [] for d in detectors}
    failed: dict[str, str] = {}
    clusters: list[str] = []
    for part in release.participants:
        index = part.bm25()
        for q in part.questions:
            sc = index.scores(q.question, q.visible_until)
            scores[BUILTIN_DETECTOR].append(float(sc.max()) if len(sc) else 0.0)
            for name in detectors:
                if name == BUILTIN_DETECTOR or detector_fn is None or name in failed:
                    continue
                try:
                    scores[name].append(float(detector_fn(_QuestionProbe(q),
                                                          part.history(q.visible_until))))
                except Exception as exc:    # noqa: BLE001 - a probe-only detector: noted, not fatal
                    failed[name] = (f"not computed: the detector failed on question "
                                    f"{q.participant}/{q.qid} ({type(exc).__name__}: {exc})")
            clusters.append(part.pid)
    out["n_questions"] = len(clusters)
    for name in detectors:
        if name in failed:
            out[name] = {"value": None, "note": failed[name]}
            continue
        out[name] = {f"auroc_questions_vs_{label}": auroc_with_interval(
            scores[name], clusters, [s["detectors"][name] for s in neg],
            [s["participant"] for s in neg], seed=seed, n_boot=n_boot)
            for label, neg in negatives.items()}
    return out


def aggregate(lines: list[dict], *, seed: int = 0, detectors: list[str] | None = None,
              misfire_threshold=None, n_boot: int | None = None) -> dict:
    """Every metric of the task from journal lines alone."""
    from evaluator.realcompanion.bm25 import B, K1, VARIANT
    from evaluator.realcompanion.retrieval import STREAMS
    from evaluator.stats import N_BOOT
    from evaluator.realcompanion.text import BM25_TOKENIZER

    n_boot = n_boot or N_BOOT
    detectors = detectors or [BUILTIN_DETECTOR]
    retrieval = _retrieval_metrics(lines, seed, n_boot)
    demand = _demand_rate(lines)
    reach, coverage = _reach(lines)
    restraint = _restraint(lines, detectors, seed, misfire_threshold, n_boot)

    def pooled(gold, method, pop, metric):
        cell = retrieval[f"{gold}_gold"].get(method, {}).get(pop, {}).get("pooled", {}).get(metric)
        return None if cell is None else cell["mean"]

    summary = {}
    for method in ("RANDOM", "RECENCY", "RECENCY-USER", "BM25", "ORACLE", "BROKEN-ORACLE"):
        summary[f"hit@5 {method} memory-bearing"] = pooled("true", method, "memory_bearing", "hit@5")
        summary[f"hit@5 {method} all"] = pooled("true", method, "all", "hit@5")
    summary["hit@5 RECENCY all, position-randomised gold"] = pooled("position_randomised",
                                                                    "RECENCY", "all", "hit@5")
    summary["demand rate"] = demand["estimate"]["rate"] if demand["estimate"] else None
    top = restraint[BUILTIN_DETECTOR]
    for label in ("no_referent", "cold_opens"):
        cell = top[f"auroc_memory_vs_{label}"]
        summary[f"AUROC {BUILTIN_DETECTOR} vs {label.replace('_', ' ')}"] = (
            None if cell is None else cell["auroc"])
    summary[f"misfire rate {BUILTIN_DETECTOR}"] = (None if top["misfire_rate"] is None
                                                   else top["misfire_rate"]["rate"])
    primary = retrieval["true_gold"]["BM25"]["memory_bearing"]["pooled"]["hit@5"]
    return {
        # what `br-eval report` and the run summary table show for this task
        "primary_metric": "hit@5 (BM25, memory-bearing probes)",
        "primary": primary,
        "n_scored": len(lines),
        "n_failed": 0,             # a failing probe stops the run with an error, never a 0
        "summary": summary,
        "n_probes": len(lines),
        "n_retrieval_probes": sum(1 for s in lines if s.get("retrieval")),
        "retrieval": retrieval,
        "demand_rate": demand,
        "reach": reach,
        "window_coverage": coverage,
        "restraint": restraint,
        "settings": {
            "seed": seed,
            "random_streams": "numpy default_rng(first 8 bytes of sha256('seed|participant|"
                              "probe_id|purpose')), purposes: " + ", ".join(STREAMS),
            "bootstrap": f"{n_boot} participant resamples, seed {seed}, percentile 95% interval",
            "bm25": {"variant": VARIANT, "k1": K1, "b": B, "tokenizer": BM25_TOKENIZER,
                     "ties": "equal scores rank the more recent message first"},
            "k": list(K_VALUES),
            "mrr": "1 / rank of the best-ranked reference in the method's full order of the pool",
            "pooled_vs_macro": "pooled: mean over probes; macro: mean over participants of "
                               "their own means (participants without probes in the population "
                               "are left out)",
        },
    }
