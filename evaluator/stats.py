"""The statistics of both suites, in one place: cluster bootstraps, Wilson intervals, AUROC,
seeded random streams.

Intervals resample clusters (Beyond Recall trajectories, RealCompanion participants), not items,
wherever items share a history: ten relationships, not two thousand probes, are the independent
units. Every bootstrap draws its resamples from `resamples()`, so the same seed gives the same
draws whichever statistic is computed.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass

Z95 = 1.959963984540054
N_BOOT = 2000


def wilson(k: int, n: int, z: float = Z95) -> dict | None:
    """Rate k/n with its Wilson score interval; None when n is 0."""
    if n <= 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k == 0 else max(0.0, centre - half)       # exact ends, no rounding dust
    high = 1.0 if k == n else min(1.0, centre + half)
    return {"rate": p, "ci95": [low, high], "k": k, "n": n}


def auroc(positive_scores, negative_scores) -> float | None:
    """Area under the ROC curve: the chance a random positive outscores a random negative, ties
    counting one half (the Mann-Whitney U statistic over n_pos * n_neg). None if a side is empty."""
    import numpy as np

    pos = np.asarray(positive_scores, dtype=np.float64)
    neg = np.asarray(negative_scores, dtype=np.float64)
    if pos.size == 0 or neg.size == 0:
        return None
    values = np.concatenate([pos, neg])
    order = np.argsort(values, kind="mergesort")
    sorted_vals = values[order]
    # Mid-ranks (1-based) for tied values.
    starts = np.flatnonzero(np.r_[True, sorted_vals[1:] != sorted_vals[:-1]])
    ends = np.r_[starts[1:], len(values)]
    mid = (starts + ends + 1) / 2.0
    ranks = np.empty(len(values))
    ranks[order] = np.repeat(mid, ends - starts)
    u = ranks[:pos.size].sum() - pos.size * (pos.size + 1) / 2.0
    return float(u / (pos.size * neg.size))


def resamples(n_clusters: int, n_boot: int, seed: int):
    """n_boot rows of cluster indices drawn with replacement: the draws every bootstrap shares."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return rng.integers(0, n_clusters, size=(n_boot, n_clusters))


@dataclass(frozen=True)
class Estimate:
    mean: float
    ci_low: float
    ci_high: float
    n: int
    n_clusters: int

    def as_dict(self) -> dict:
        return {"mean": self.mean, "ci95": [self.ci_low, self.ci_high], "n": self.n,
                "n_clusters": self.n_clusters}


def cluster_bootstrap(values: list[float], clusters: list[str], *, n_boot: int = N_BOOT,
                      seed: int = 0) -> Estimate | None:
    """Mean with a 95% percentile interval, resampling whole clusters (trajectories or
    participants) with replacement, so items that share a history are not counted as
    independent evidence. None when there are no values."""
    est = participant_bootstrap(values, clusters, n_boot=n_boot, seed=seed)
    if est is None:
        return None
    pooled = est["pooled"]
    return Estimate(pooled["mean"], pooled["ci95"][0], pooled["ci95"][1], pooled["n"],
                    pooled["n_participants"])


def ratio_bootstrap(counts, *, statistic, n_boot: int = N_BOOT, seed: int = 0):
    """95% interval of `statistic(summed_counts)` over cluster resamples, where `counts` holds
    one row of counts per cluster (e.g. TP, FP, FN per participant) and `statistic` maps the
    column sums of each resample (an (n_boot, n_columns) array) to one value per resample
    (NaN where undefined). None with fewer than two clusters or no defined resample."""
    import numpy as np

    counts = np.asarray(counts, dtype=float)
    if len(counts) < 2:
        return None
    idx = resamples(len(counts), n_boot, seed)
    values = np.asarray(statistic(counts[idx].sum(axis=1)), dtype=float)
    values = values[~np.isnan(values)]
    return [float(x) for x in np.percentile(values, [2.5, 97.5])] if values.size else None


def stream_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from `seed` and labels: first 8 bytes of sha256('seed|part|part...')."""
    h = hashlib.sha256("|".join(map(str, (seed, *parts))).encode()).digest()
    return int.from_bytes(h[:8], "big")


def seeded_random(seed: int, *parts: object) -> random.Random:
    """A Random seeded from `seed` and labels, stable across runs and Python versions."""
    return random.Random(stream_seed(seed, *parts))


def participant_bootstrap(values, clusters, *, n_boot: int = N_BOOT, seed: int = 0) -> dict | None:
    """Pooled mean (over items) and macro mean (over participants' own means), each with a 95%
    percentile interval from the same participant resamples. None when there are no values."""
    import numpy as np

    by: dict[str, list[float]] = {}
    for v, c in zip(values, clusters):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            continue
        by.setdefault(str(c), []).append(float(v))
    if not by:
        return None
    names = sorted(by)
    sums = np.array([sum(by[c]) for c in names])
    counts = np.array([len(by[c]) for c in names], dtype=np.float64)
    means = sums / counts
    pooled, macro = float(sums.sum() / counts.sum()), float(means.mean())
    n, k = int(counts.sum()), len(names)
    if k < 2:
        pooled_ci, macro_ci = [pooled, pooled], [macro, macro]
    else:
        idx = resamples(k, n_boot, seed)
        pooled_ci = [float(x) for x in np.percentile(sums[idx].sum(1) / counts[idx].sum(1), [2.5, 97.5])]
        macro_ci = [float(x) for x in np.percentile(means[idx].mean(1), [2.5, 97.5])]
    return {"pooled": {"mean": pooled, "ci95": pooled_ci, "n": n, "n_participants": k},
            "macro": {"mean": macro, "ci95": macro_ci, "n": n, "n_participants": k}}


def auroc_with_interval(pos_scores, pos_clusters, neg_scores, neg_clusters, *,
                        n_boot: int = 1000, seed: int = 0) -> dict | None:
    """AUROC with a participant-resampling 95% interval (resamples lacking a side are skipped)."""
    import numpy as np

    point = auroc(pos_scores, neg_scores)
    if point is None:
        return None
    pos_by: dict[str, list[float]] = {}
    neg_by: dict[str, list[float]] = {}
    for s, c in zip(pos_scores, pos_clusters):
        pos_by.setdefault(str(c), []).append(float(s))
    for s, c in zip(neg_scores, neg_clusters):
        neg_by.setdefault(str(c), []).append(float(s))
    names = sorted(set(pos_by) | set(neg_by))
    out = {"auroc": point, "ci95": None, "n_pos": len(pos_scores), "n_neg": len(neg_scores),
           "n_participants": len(names)}
    if len(names) < 2:
        return out
    pos_arrays = [np.array(pos_by.get(c, []), dtype=np.float64) for c in names]
    neg_arrays = [np.array(neg_by.get(c, []), dtype=np.float64) for c in names]
    boots = []
    for row in resamples(len(names), n_boot, seed):
        p = np.concatenate([pos_arrays[i] for i in row])
        q = np.concatenate([neg_arrays[i] for i in row])
        if p.size and q.size:
            boots.append(auroc(p, q))
    if boots:
        out["ci95"] = [float(x) for x in np.percentile(boots, [2.5, 97.5])]
        out["n_boot_used"] = len(boots)
    return out


def describe(values) -> dict | None:
    """n, min, quartiles (numpy's linear interpolation), median and max of a list of numbers."""
    import numpy as np

    if not len(values):
        return None
    arr = np.asarray(values, dtype=np.float64)
    q1, med, q3 = np.percentile(arr, [25, 50, 75])
    return {"n": int(arr.size), "min": float(arr.min()), "q1": float(q1), "median": float(med),
            "q3": float(q3), "max": float(arr.max())}


def expected_random_hit(pool_size: int, n_gold: int, k: int) -> float:
    """Chance that a uniformly random ranking of `pool_size` items puts at least one of `n_gold`
    gold items in its top k: 1 - C(n - g, k) / C(n, k)."""
    n, g = pool_size, n_gold
    if g <= 0 or n <= 0:
        return 0.0
    if k >= n:
        return 1.0
    miss = 1.0
    for j in range(k):
        miss *= max(0, n - g - j) / (n - j)
    return 1.0 - miss


def paired_cluster_bootstrap(a, b, clusters, *, n_boot: int = N_BOOT, seed: int = 0) -> dict | None:
    """Mean of the paired differences b - a (one pair per item both runs scored) with a 95%
    percentile interval that resamples whole clusters (trajectories, participants) with
    replacement: `weighted_means_bootstrap` with one group and unit weights. Pairs with a
    missing side are dropped. None when no pair is left."""
    ones = [1.0] * len(a)
    est = weighted_means_bootstrap([(a, b, ones, ones, clusters, 1.0)], n_boot=n_boot, seed=seed)
    return None if est is None else est["diff"]


def weighted_means_bootstrap(groups, *, n_boot: int = N_BOOT, seed: int = 0) -> dict | None:
    """Two runs' mean over groups of each group's weighted mean, and B - A with a 95% interval.

    `groups`: (a, b, wa, wb, clusters, scale) per group (a task): the paired scores of runs A
    and B, each item's weight in each run and its cluster, and the group's scale (its means are
    divided by it). The statistic is mean_g [sum(wb b) / sum(wb) - sum(wa a) / sum(wa)] / scale_g;
    its interval resamples the clusters of all groups jointly (the same `resamples()` draws as
    every bootstrap; a resample that leaves a group without weight is skipped). Pairs with a
    missing value are dropped; a group without weight in either run is left out. None when no
    group is left."""
    import numpy as np

    def bad(z) -> bool:
        return z is None or (isinstance(z, float) and math.isnan(z))

    kept = []
    for a, b, wa, wb, clusters, scale in groups:
        rows = [(float(x), float(y), float(u), float(v), str(c))
                for x, y, u, v, c in zip(a, b, wa, wb, clusters)
                if not any(bad(z) for z in (x, y, u, v))]
        if sum(r[2] for r in rows) > 0 and sum(r[3] for r in rows) > 0:
            kept.append((rows, float(scale or 1.0)))
    if not kept:
        return None
    names = sorted({r[4] for rows, _ in kept for r in rows})
    index = {c: i for i, c in enumerate(names)}
    k = len(names)
    # per group and cluster: sum(wa a), sum(wa), sum(wb b), sum(wb)
    sa, swa, sb, swb = (np.zeros((len(kept), k)) for _ in range(4))
    for g, (rows, _) in enumerate(kept):
        for x, y, u, v, c in rows:
            i = index[c]
            sa[g, i] += u * x
            swa[g, i] += u
            sb[g, i] += v * y
            swb[g, i] += v
    scales = np.array([sc for _, sc in kept])
    mean_a = float(np.mean(sa.sum(1) / swa.sum(1) / scales))
    mean_b = float(np.mean(sb.sum(1) / swb.sum(1) / scales))
    diff = mean_b - mean_a
    if k < 2:
        ci = [diff, diff]
    else:
        idx = resamples(k, n_boot, seed)
        counts = np.zeros((n_boot, k))
        for r in range(n_boot):
            counts[r] = np.bincount(idx[r], minlength=k)
        wta, wtb = swa @ counts.T, swb @ counts.T          # groups x resamples
        ok = (wta > 0).all(0) & (wtb > 0).all(0)
        with np.errstate(invalid="ignore", divide="ignore"):
            d = ((sb @ counts.T) / wtb - (sa @ counts.T) / wta) / scales[:, None]
        d = d[:, ok].mean(0)
        ci = [float(x) for x in np.percentile(d, [2.5, 97.5])] if d.size else [diff, diff]
    n = sum(len(rows) for rows, _ in kept)
    return {"mean_a": mean_a, "mean_b": mean_b, "n": n,
            "diff": {"mean": diff, "ci95": ci, "n": n, "n_clusters": k}}


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar test for paired 0/1 outcomes: b = pairs only the first run got
    right, c = pairs only the second got right. Under the null the b + c discordant pairs split
    Binomial(b + c, 1/2); p = min(1, 2 * P(X <= min(b, c))). 1.0 when there is no discordant pair."""
    n = int(b) + int(c)
    if n == 0:
        return 1.0
    k = min(int(b), int(c))
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)
