"""Retrieval methods and controls for one probe's pool (every message strictly before it).

Each method is a total order over the pool; what we record is the 1-based rank of every gold
message in that order, which is enough to recompute hit@k, all@k and MRR later:

- RANDOM         a seeded random order.
- RECENCY        most recent first.
- RECENCY-USER   the participant's own messages, most recent first, then the companion's, most
                 recent first (so the order covers the whole pool and MRR stays defined).
- BM25           pool-exact BM25 with the probe's text as the query; equal scores, more recent first.
- ORACLE         the true references first (most recent first), then the rest by recency.

Controls (the paper names three twice: "offset-permuted, position-randomized, broken-oracle" and,
in Table 29, "offset-permuted, broken oracle, 20 pool messages"; br-eval runs all four):
- BROKEN-ORACLE  the oracle fed another probe's references (same participant, disjoint from this
                 probe's, at least one inside this pool) and returning those and nothing else;
                 scored against the true references it is exactly 0 (a gold message it does not
                 return has no rank: a miss at every k, reciprocal rank 0).
- BROKEN-ORACLE+FILL (br-eval's extra) the same partner's references first, then the rest of the
                 pool in a seeded random order: near chance rather than exactly 0.
- offset-permuted gold (memory-bearing probes only): the true references are replaced by the
                 messages at the distances of another memory-bearing probe's references (drawn
                 from any participant), measured back from this probe, never a partner whose
                 distances land on one of this probe's own references. Distances survive, content
                 does not: a purely positional method keeps its score, a content method should
                 fall to its positional baseline. Thread probes get none: their references lie
                 1-2 messages back, so another thread probe's distances mostly land on them.
- 20 pool messages (gold set `pool20`): the references are replaced by 20 messages drawn
                 uniformly from the pool (all of it when smaller). Position and content are both
                 gone: recency collapses to chance.
- position-randomized gold (the paper's control; the reading: as many messages as the true
                 references, drawn uniformly from the pool, so only their positions change).
RANDOM, RECENCY, RECENCY-USER and BM25 are scored against each substituted gold set.

Every random choice comes from its own stream, seeded by sha256(seed|participant|probe|purpose),
so a probe's result does not depend on which other probes run, in what order, or on a resume.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from evaluator.realcompanion.data import Participant, Probe, Release

METHODS = ("RANDOM", "RECENCY", "RECENCY-USER", "BM25", "ORACLE", "BROKEN-ORACLE",
           "BROKEN-ORACLE+FILL")
CONTROL_METHODS = ("RANDOM", "RECENCY", "RECENCY-USER", "BM25")
GOLD_SETS = ("true", "offset_permuted", "pool20", "position_randomised")
POOL_GOLD = 20
STREAMS = ("random", "broken-oracle", "broken-oracle-fill", "offset-permuted",
           "position-randomised", "pool-20")
TOP_K_LOGGED = 10


def stream(seed: int, participant: str, probe_id: str, purpose: str):
    import numpy as np

    from evaluator.stats import stream_seed

    return np.random.default_rng(stream_seed(seed, participant, probe_id, purpose))


# -- control partners ------------------------------------------------------------------------------
def offset_positions(position: int, partner: Probe) -> list[int]:
    """The offset-permuted gold of a probe at `position`: the messages at the partner's
    reference distances, counted back from the probe (those that fall inside its pool)."""
    distances = {partner.position - r for r in partner.reference_positions}
    return sorted(position - d for d in distances if d <= position)


@dataclass
class ControlPlan:
    broken_partner: dict[str, Probe | None]   # probe key -> whose references the broken oracle gets
    offset_partner: dict[str, Probe | None]   # probe key -> whose distances replace the gold


def plan_controls(release: Release, seed: int) -> ControlPlan:
    """Pick every retrieval probe's partners, from the whole release, deterministically."""
    probes = [p for part in release.participants for p in part.retrieval_probes]
    broken: dict[str, Probe | None] = {}
    offset: dict[str, Probe | None] = {}

    # Offset partners: memory-bearing probes only (a thread probe's references lie 1-2 messages
    # back, so the message at another thread probe's distance is mostly its own reference), any
    # participant, with a distance that fits in this pool and lands on none of p's references.
    group = sorted((p for p in probes if p.memory_bearing),
                   key=lambda q: (q.position - q.reference_positions[-1], q.participant,
                                  q.probe_id))
    nearest = [q.position - q.reference_positions[-1] for q in group]
    for p in group:
        eligible = bisect.bisect_right(nearest, p.position)   # nearest distance <= pool size
        own = set(p.reference_positions)
        rng = stream(seed, p.participant, p.probe_id, "offset-permuted")
        for j in rng.permutation(eligible):
            q = group[int(j)]
            if q is not p and own.isdisjoint(offset_positions(p.position, q)):
                offset[p.key] = q
                break

    # Broken-oracle partners: same participant, disjoint references, one of them in this pool.
    for part in release.participants:
        group = sorted(part.retrieval_probes, key=lambda q: (q.reference_positions[0], q.probe_id))
        firsts = [q.reference_positions[0] for q in group]
        for p in part.retrieval_probes:
            eligible = bisect.bisect_left(firsts, p.position)     # first reference < position
            own = set(p.reference_positions)
            rng = stream(seed, p.participant, p.probe_id, "broken-oracle")
            chosen = None
            if eligible:
                for j in rng.permutation(eligible):
                    q = group[int(j)]
                    if q is not p and own.isdisjoint(q.reference_positions):
                        chosen = q
                        break
            broken[p.key] = chosen
    return ControlPlan(broken, offset)


# -- per-participant engine ------------------------------------------------------------------------
class ParticipantRetrieval:
    """Everything computed once per participant: the BM25 index, who spoke where, token counts."""

    def __init__(self, participant: Participant):
        import numpy as np

        from evaluator.realcompanion.text import window_counter

        self.participant = participant
        self.index = participant.bm25()
        is_user = np.array([m.speaker == "user" for m in participant.messages], dtype=bool)
        self.is_user = is_user
        self.user_cum = np.concatenate([[0], np.cumsum(is_user)]).astype(np.int64)
        self.window_tokenizer, count = window_counter()
        tokens = np.array(count([m.text for m in participant.messages]), dtype=np.int64)
        self.token_cum = np.concatenate([[0], np.cumsum(tokens)]).astype(np.int64)

    # rank functions: (pool size i, gold positions array) -> ranks array
    @staticmethod
    def recency_ranks(i: int, gold):
        return i - gold

    def recency_user_ranks(self, i: int, gold):
        import numpy as np

        users_after = self.user_cum[i] - self.user_cum[gold + 1]      # user messages in (g, i)
        companions_after = (i - gold - 1) - users_after
        return np.where(self.is_user[gold], users_after + 1,
                        self.user_cum[i] + companions_after + 1)

    @staticmethod
    def fed_first_ranks(i: int, fed, fill_scores, gold):
        """Ranks when the `fed` positions come first (most recent first) and the rest of the pool
        follows in descending `fill_scores` (values in [0, 1))."""
        import numpy as np

        from evaluator.realcompanion.bm25 import ranks_of

        combined = np.array(fill_scores, dtype=np.float64, copy=True)
        if len(fed):
            fed = np.asarray(fed, dtype=np.int64)
            combined[fed] = 2.0 + fed / max(1, i)
        return ranks_of(combined, gold)

    def bm25_scores(self, probe: Probe):
        return self.index.scores(self.index.doc_terms[probe.position], probe.position)

    def retrieval_record(self, probe: Probe, plan: ControlPlan, seed: int, bm25_scores) -> dict:
        """Ranks of the gold sets under every method, plus what the controls used."""
        import numpy as np

        from evaluator.realcompanion.bm25 import ranks_of, top_k_order

        i = probe.position
        pid, qid = probe.participant, probe.probe_id
        msgs = self.participant.messages
        true_gold = np.array(probe.reference_positions, dtype=np.int64)

        golds: dict[str, object] = {"true": true_gold}
        partner = plan.offset_partner.get(probe.key)
        if partner is not None:
            golds["offset_permuted"] = np.array(offset_positions(i, partner), dtype=np.int64)
        else:
            golds["offset_permuted"] = None
        rng = stream(seed, pid, qid, "position-randomised")
        golds["position_randomised"] = np.sort(rng.choice(i, size=min(len(true_gold), i),
                                                          replace=False)).astype(np.int64)
        rng = stream(seed, pid, qid, "pool-20")
        golds["pool20"] = np.sort(rng.choice(i, size=min(POOL_GOLD, i),
                                             replace=False)).astype(np.int64)

        random_scores = stream(seed, pid, qid, "random").random(i)
        ranks: dict[str, dict | None] = {}
        for name, gold in golds.items():
            if gold is None or len(gold) == 0:
                ranks[name] = None
                continue
            r = {"RANDOM": ranks_of(random_scores, gold),
                 "RECENCY": self.recency_ranks(i, gold),
                 "RECENCY-USER": self.recency_user_ranks(i, gold),
                 "BM25": ranks_of(bm25_scores, gold)}
            if name == "true":
                recency_fill = np.arange(i, dtype=np.float64) / max(1, i)
                r["ORACLE"] = self.fed_first_ranks(i, true_gold, recency_fill, gold)
                broken = plan.broken_partner.get(probe.key)
                fed = ([x for x in broken.reference_positions if x < i] if broken is not None
                       else [])
                fill = stream(seed, pid, qid, "broken-oracle-fill").random(i)
                r["BROKEN-ORACLE+FILL"] = self.fed_first_ranks(i, fed, fill, gold)
                returned = sorted(fed, reverse=True)            # most recent first, nothing else
                at = {x: n for n, x in enumerate(returned, 1)}
                r["BROKEN-ORACLE"] = [at.get(int(g)) for g in gold]
            ranks[name] = {m: [None if x is None else int(x) for x in v] for m, v in r.items()}

        record = {
            "ranks": ranks,
            "gold": {name: (None if g is None else [msgs[int(x)].id for x in g])
                     for name, g in golds.items()},
            "partners": {
                "broken_oracle": (None if plan.broken_partner.get(probe.key) is None
                                  else plan.broken_partner[probe.key].probe_id),
                "offset_permuted": (None if partner is None
                                    else f"{partner.participant}/{partner.probe_id}"),
            },
            "bm25_top10": [msgs[int(p)].id for p in top_k_order(bm25_scores, TOP_K_LOGGED)],
        }
        return record

    def reach(self, probe: Probe) -> dict | None:  # any probe with references (thread too)
        """Distances (messages) from the probe to its nearest and farthest reference, and the
        tokens from the farthest reference up to the message before the probe."""
        if not probe.reference_positions:
            return None
        i = probe.position
        first, last = probe.reference_positions[0], probe.reference_positions[-1]
        return {"nearest": i - last, "farthest": i - first,
                "tokens_to_farthest": int(self.token_cum[i] - self.token_cum[first])}
