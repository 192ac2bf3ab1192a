"""Train the learned refusal model (evaluator/scoring/refusal_model.json) from the labelled sets.

    python tests/data/train_refusal_model.py          # writes the model file, prints its figures
    python tests/data/train_refusal_model.py --check  # retrains and compares with the shipped file

Training rows: every row of every labelled refusal set (labelsets.REFUSAL_FILES), except the
splits in labelsets.MODEL_HELDOUT, kept for measuring the frozen model once. The model's weights are
fitted on all of them. The thresholds at which the model overrides the phrase rules are chosen on
held-out readings: for each set in labelsets.RULES_FRESH (sets the rules were never tuned on), a
model trained without that set reads it; `refusal_model.choose_override` picks, from those
readings and the rules' verdicts, the smallest thresholds at which the overrides were right 95% of
the time. Deterministic: the same rows give the same file.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))

from labelsets import MODEL_HELDOUT, REFUSAL_FILES, RULES_FRESH, load  # noqa: E402

from evaluator.scoring import refusal_model as M  # noqa: E402

DECIMALS = 4
SETTINGS = {"l2": 1.0, "steps": 1500, "min_rows": 2}


def training_rows() -> list[dict]:
    """Every labelled refusal row outside MODEL_HELDOUT, with its group (its split), but for rows
    that repeat a held-out row word for word, question and reply (two writers can write the same
    short reply to the same question: writers 12 and 40 did, and 10 and 63)."""
    labelled = {name: load(name) for name in REFUSAL_FILES}
    held = {(r["text"], r.get("question") or None) for part in labelled.values() for r in part
            if r["split"] in MODEL_HELDOUT}
    rows = []
    for name, part in labelled.items():
        for r in part:
            if r["split"] in MODEL_HELDOUT or (r["text"], r.get("question") or None) in held:
                continue
            rows.append({"text": r["text"], "question": r.get("question") or None,
                         "refusal": bool(r["refusal"]), "group": f"{name}:{r['split']}", "file": name})
    return rows


_HELD_OUT_INPUT: list = []          # (labelled rows, rows), set by build() before the pool forks


def _fit_without(group: str) -> tuple[dict[str, float], float]:
    labelled, rows = _HELD_OUT_INPUT
    return M.train([x for x, r in zip(labelled, rows) if r["group"] != group], **SETTINGS)


def build(progress=print) -> dict:
    from evaluator.scoring.refusal import rules_verdict

    rows = training_rows()
    feats = [M.features(r["text"], r["question"]) for r in rows]
    labelled = [(f, int(r["refusal"])) for f, r in zip(feats, rows)]
    t0 = time.perf_counter()
    weights, bias = M.train(labelled, **SETTINGS)
    progress(f"model: {len(rows)} rows, {len(weights)} features, {time.perf_counter() - t0:.1f} s")
    fresh = sorted({r["group"] for r in rows if r["group"].split(":", 1)[1] in RULES_FRESH})
    readings, per_group = [], {}
    _HELD_OUT_INPUT[:] = [labelled, rows]
    # each fit is independent and deterministic, so they run in parallel and are read in order
    with multiprocessing.get_context("fork").Pool(min(len(fresh), os.cpu_count() or 1)) as pool:
        for k, (group, (w, b)) in enumerate(zip(fresh, pool.imap(_fit_without, fresh)), 1):
            right = n = 0
            for f, r in zip(feats, rows):
                if r["group"] == group:
                    lo = M.score(f, w, b)
                    readings.append((group, lo, rules_verdict(r["text"], r["question"]), int(r["refusal"])))
                    right += (lo > 0) == r["refusal"]
                    n += 1
            per_group[group] = {"rows": n, "model_held_out": right}
            progress(f"  held out {k}/{len(fresh)} {group}: model {right}/{n}")
    override = M.choose_override([(lo, rule, y) for _, lo, rule, y in readings])
    # the reader held out twice over: for each set, the thresholds chosen without it, on model
    # readings that never saw their own set either
    for group in fresh:
        o = M.choose_override([(lo, rule, y) for g, lo, rule, y in readings if g != group])
        mine = [(lo, rule, y) for g, lo, rule, y in readings if g == group]
        per_group[group]["combined_held_out"] = sum(M.decide(lo, rule, o) == bool(y) for lo, rule, y in mine)
        per_group[group]["rules"] = sum(rule == bool(y) for lo, rule, y in mine)
        # false refusals: answers read as declines, by the reader and by the model alone
        per_group[group]["answers"] = sum(not y for lo, rule, y in mine)
        per_group[group]["false_refusals"] = sum(M.decide(lo, rule, o) and not y for lo, rule, y in mine)
        per_group[group]["model_false_refusals"] = sum(lo > 0 and not y for lo, rule, y in mine)
    files: dict[str, int] = {}
    for r in rows:
        files[r["file"]] = files.get(r["file"], 0) + 1
    return {
        "features_version": M.FEATURES_VERSION,
        "settings": SETTINGS,
        "trained_on": {"rows": len(rows), "files": files, "held_out_splits": sorted(MODEL_HELDOUT)},
        "override": override,
        "override_chosen_on": {"groups": per_group, "rows": len(readings)},
        "bias": round(bias, DECIMALS),
        "weights": {f: round(x, DECIMALS) for f, x in sorted(weights.items()) if round(x, DECIMALS) != 0.0},
    }


def difference_from_shipped() -> float:
    """Retrain on the labelled rows and return the largest difference between the rounded weights
    (and bias) and the shipped file's."""
    shipped = M.model()
    rows = training_rows()
    weights, bias = M.train([(M.features(r["text"], r["question"]), int(r["refusal"])) for r in rows], **SETTINGS)
    worst = max(abs(round(weights.get(f, 0.0), DECIMALS) - shipped["weights"].get(f, 0.0))
                for f in set(weights) | set(shipped["weights"]))
    return max(worst, abs(round(bias, DECIMALS) - shipped["bias"]))


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        worst = difference_from_shipped()
        print(f"largest weight or bias difference from the shipped file: {worst:.6f}")
        return 0 if worst <= 2 * 10 ** -DECIMALS else 1
    model = build()
    M.MODEL_FILE.write_text(json.dumps(model, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {M.MODEL_FILE} ({M.MODEL_FILE.stat().st_size // 1024} KiB), override {model['override']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
