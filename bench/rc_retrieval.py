"""Time realcompanion/retrieval on a corpus of the paper's size against the naive way.

    python bench/rc_retrieval.py [--scale 1.0] [--naive-probes 120] [--naive-all]

At scale 1.0 the generated corpus has the paper's sizes (27,218 messages, 1,967 probes of which
1,413 have references). The script times, in the same run:

1. the whole task as `br-eval --task realcompanion/retrieval` runs it (load, index, seven methods,
   four gold sets, the detector, the journal and every aggregate with its bootstrap intervals);
2. the BM25 part of it alone (pool-exact fast path) over every probe;
3. the naive way: one BM25 index built from scratch over each probe's pool, both with br-eval's
   own reference (`naive_scores`) and with bm25s. Unless --naive-all, this runs on a fixed,
   evenly spaced subset of probes and is extrapolated to all probes in proportion to the pool
   sizes (index building is linear in the pool), and the output says so.

It also checks, on the measured subset, that the fast path gives the naive path's scores bit for
bit and the same top 10 as bm25s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--naive-probes", type=int, default=120,
                        help="probes timed the naive way (evenly spaced); extrapolated to all")
    parser.add_argument("--naive-all", action="store_true", help="time the naive way on every probe")
    args = parser.parse_args()

    import numpy as np

    from evaluator.evaluate import evaluate
    from evaluator.realcompanion.bm25 import naive_scores, top_k_order
    from evaluator.realcompanion.data import load_release
    from evaluator.realcompanion.retrieval import GOLD_SETS, METHODS
    from evaluator.realcompanion.retrieval_task import TASK, task_probes
    from evaluator.realcompanion.sample import generate_sample

    with tempfile.TemporaryDirectory(prefix="br-eval-bench-rc-") as tmp:
        t0 = time.perf_counter()
        root = generate_sample(Path(tmp) / "sample", scale=args.scale)
        t_gen = time.perf_counter() - t0

        t0 = time.perf_counter()
        metrics = evaluate([TASK], rc_data=root, output_path=Path(tmp) / "run", progress=False,
                           announce=False)[TASK]
        t_task = time.perf_counter() - t0

        release = load_release(root)
        probes = task_probes(release)
        n_refs = sum(len(p.retrieval_probes) for p in release.participants)
        t0 = time.perf_counter()
        for part in release.participants:
            part.bm25()
        t_index = time.perf_counter() - t0
        t0 = time.perf_counter()
        for p in probes:
            index = release.participant(p.participant).bm25()
            index.scores(index.doc_terms[p.position], p.position)
        t_fast_bm25 = time.perf_counter() - t0

        if args.naive_all or args.naive_probes >= len(probes):
            subset = probes
        else:
            step = len(probes) / args.naive_probes
            subset = [probes[int(j * step)] for j in range(args.naive_probes)]
        import bm25s

        t_own = t_bm25s = 0.0
        same_scores = same_top10 = 0
        for p in subset:
            index = release.participant(p.participant).bm25()
            i, query = p.position, index.doc_terms[p.position]
            fast = index.scores(query, i)
            t0 = time.perf_counter()
            naive = naive_scores(index.doc_terms[:i], query)
            t_own += time.perf_counter() - t0
            same_scores += bool(np.array_equal(fast, naive))
            t0 = time.perf_counter()
            if i:
                retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene", dtype="float64")
                retriever.index(index.doc_terms[:i], show_progress=False)
                terms = sorted(set(query) & set(retriever.vocab_dict))
                lib = retriever.get_scores(terms) if terms else np.zeros(i)
            else:
                lib = np.zeros(0)
            t_bm25s += time.perf_counter() - t0
            same_top10 += list(top_k_order(lib, 10)) == list(top_k_order(fast, 10))
        pool_all = sum(p.position for p in probes)
        pool_sub = sum(p.position for p in subset) or 1
        factor = pool_all / pool_sub
        measured = "all probes" if subset is probes else f"{len(subset)} of {len(probes)} probes"

    print(f"corpus: scale {args.scale}, {release.n_messages:,} messages, "
          f"{len(release.participants)} participants, {len(probes):,} task probes "
          f"({n_refs:,} with references); generated in {t_gen:.1f} s")
    print(f"whole retrieval task, fast path (load, index, {len(METHODS)} methods, {len(GOLD_SETS)} gold sets, detector, "
          f"journal, aggregation with bootstrap): {t_task:.2f} s   (goal: < 60 s)")
    print(f"  BM25 alone, fast path: index build {t_index:.2f} s + scoring all {len(probes):,} "
          f"probes {t_fast_bm25:.2f} s")
    print(f"naive BM25, one index built per probe, measured on {measured}:")
    for label, t in (("br-eval naive_scores (reference)", t_own), ("bm25s, float64", t_bm25s)):
        est = t * factor
        note = "" if subset is probes else f" -> extrapolated to all probes: {est:.1f} s"
        print(f"  {label:<34} {t:.2f} s{note}")
        print(f"    whole task with this naive BM25 instead: ~{t_task - t_fast_bm25 + est:.1f} s "
              f"({est / max(t_fast_bm25, 1e-9):.0f}x the fast BM25 scoring)")
    print(f"checks on the measured probes: fast == naive scores bit for bit on {same_scores}/"
          f"{len(subset)}; same top 10 as bm25s on {same_top10}/{len(subset)}")
    s = metrics["summary"]
    print("headline numbers on this synthetic corpus (not the paper's data): "
          + "; ".join(f"{k} {v:.3f}" for k, v in s.items() if v is not None))
    return 0


if __name__ == "__main__":
    from _common import run

    sys.exit(run(main))
