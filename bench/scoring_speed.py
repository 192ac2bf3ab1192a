"""How long deterministic scoring takes per answer, next to a reference measured in the same run.

    python bench/scoring_speed.py [--n 1269] [--seed 0]

Generates `n` synthetic (question, prediction, gold) triples shaped like Beyond Recall's (short
factual answers, multiple-choice questions, refusals, and one long summary in every twenty) and
times `score_answer` on them against the reference: SQuAD's own token F1 (normalise, split,
Counter overlap; no stemming), the minimum any F1 scorer does. Then aggregation with 2,000
bootstrap resamples clustered by trajectory.
"""

from __future__ import annotations

import argparse
import random
import re
import string
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

WORDS = ("red blue car house moved street city doctor nurse sister brother trip rome oslo paris "
         "monday tuesday may june bought sold painted garden kitchen dog cat guitar lesson "
         "meeting project deadline office train plane hotel beach mountain birthday gift").split()


def squad_f1(pred: str, gold: str) -> float:
    exclude = set(string.punctuation)

    def norm(s):
        s = "".join(ch for ch in s.lower() if ch not in exclude)
        return " ".join(re.sub(r"\b(a|an|the)\b", " ", s).split())

    p, g = norm(pred).split(), norm(gold).split()
    same = sum((Counter(p) & Counter(g)).values())
    if not p or not g or same == 0:
        return float(p == g)
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def make_items(n: int, seed: int) -> list[tuple[str, str, str, str, bool]]:
    from evaluator.scoring import TASK_PRIMARY

    rng = random.Random(seed)
    tasks = sorted(TASK_PRIMARY)
    items = []
    for i in range(n):
        task = tasks[i % len(tasks)]
        kind = i % 20
        if kind == 0:          # a long summary against a long reference
            items.append(("long_term_semantic_summary", "Summarise what you know about the user.",
                          sentence(rng, 400), sentence(rng, 250), True))
        elif kind < 5:         # multiple choice
            opts = "\n".join(f"({l}) {sentence(rng, 3)}" for l in "ABCD")
            items.append((task, f"Which one is true?\n{opts}", f"The answer is ({rng.choice('ABCD')}).",
                          rng.choice("ABCD"), False))
        elif kind < 7:         # refusal_to_answer
            items.append(("refusal_to_answer", "What is the dog's name?",
                          rng.choice(["I don't know.", "Rex, I think.", sentence(rng, 8)]),
                          rng.choice(["The conversation does not mention a dog.", "Rex"]), False))
        else:                  # short factual answers
            items.append((task, "Where did she go?", sentence(rng, rng.randint(3, 40)),
                          sentence(rng, rng.randint(1, 6)), False))
    return items


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1269)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    from evaluator.scoring import aggregate, score_answer

    items = make_items(args.n, args.seed)
    score_answer(*items[1][:4])       # warm up (stemmer, phrase list)

    t0 = time.perf_counter()
    for task, q, pred, gold, _ in items:
        squad_f1(pred, gold)
    reference = time.perf_counter() - t0

    t0 = time.perf_counter()
    rows = []
    for i, (task, q, pred, gold, _) in enumerate(items):
        rows.append({"key": f"x/{task}/{i // 2}/q{i % 2}", "metrics": score_answer(task, q, pred, gold)})
    ours = time.perf_counter() - t0

    short = [it for it in items if not it[4]]
    longs = [it for it in items if it[4]]
    t0 = time.perf_counter()
    for task, q, pred, gold, _ in longs:
        score_answer(task, q, pred, gold)
    long_time = time.perf_counter() - t0

    t0 = time.perf_counter()
    for task, q, pred, gold, _ in short:
        score_answer(task, q, pred, gold)
    short_time = time.perf_counter() - t0

    t0 = time.perf_counter()
    aggregate(rows, "temporal_anchoring")
    agg = time.perf_counter() - t0

    n = len(items)
    print(f"answers: {n} ({len(short)} short or multiple choice, {len(longs)} long summaries of "
          "400 vs 250 tokens)")
    print(f"reference, SQuAD token F1 only:        {reference / n * 1e3:8.3f} ms per answer")
    print(f"br-eval score_answer (all metrics):    {ours / n * 1e3:8.3f} ms per answer "
          f"({ours:.2f} s in all, {ours / reference:.1f}x the reference)")
    print(f"  a short or multiple-choice answer:   {short_time / len(short) * 1e3:8.3f} ms each")
    if longs:
        print(f"  a long summary (ROUGE-L):   {long_time / len(longs) * 1e3:8.3f} ms each")
    print(f"aggregate (11 metrics, 2,000 clustered bootstrap resamples): {agg * 1e3:.1f} ms")
    encoder_speed()
    return 0


def transformers_reader(enc):
    """transformers' BertModel holding the encoder's weights, as `read(ids, types) -> log-odds`
    (the head as refusal_encoder applies it), and the keys load_state_dict left (missing,
    unexpected): the reference the numpy forward pass is timed against here and checked against
    in tests/test_refusal_encoder.py. Needs torch and transformers."""
    import torch
    import transformers

    w = enc.w
    config = transformers.BertConfig(vocab_size=len(enc.vocab), hidden_size=384, num_hidden_layers=enc.layers,
                                     num_attention_heads=enc.heads, intermediate_size=1536,
                                     max_position_embeddings=w["embeddings.position_embeddings.weight"].shape[0])
    bert = transformers.BertModel(config, add_pooling_layer=False).eval()
    keys = bert.load_state_dict({k: torch.from_numpy(v) for k, v in w.items() if not k.startswith("head.")},
                                strict=False)

    def read(ids, types) -> float:
        with torch.no_grad():
            h = bert(input_ids=torch.tensor([ids]), token_type_ids=torch.tensor([types])).last_hidden_state[0].numpy()
        return float((h[0] + h.mean(0)) @ w["head.weight"][0] + w["head.bias"][0])

    return read, (keys.missing_keys, keys.unexpected_keys)


def encoder_speed(n: int = 200) -> None:
    """The refusal reader's encoder (numpy) on n real chat replies with their questions (draw 16),
    uncached, next to transformers' BertModel (torch, one thread) with the same weights on the same
    ids, when torch is installed."""
    import json

    from evaluator.scoring import refusal_encoder as E

    path = Path(__file__).resolve().parent.parent / "tests" / "data" / "refusal_chat_labels16.jsonl"
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()][:n]
    enc = E.encoder()
    t0 = time.perf_counter()
    ours = [enc.log_odds(r.get("question") or "", r["text"]) for r in rows]
    numpy_time = time.perf_counter() - t0
    chars = sum(len(r["text"]) for r in rows) / len(rows)
    print(f"refusal encoder, numpy (br-eval):      {numpy_time / len(rows) * 1e3:8.1f} ms per reading "
          f"({len(rows)} real chat replies, {chars:.0f} characters on average)")
    try:
        import torch
        import transformers
    except ImportError:
        print("  reference: torch and transformers are not installed (pip install 'br-eval[vlm]')")
        return
    torch.set_num_threads(1)
    reference, _ = transformers_reader(enc)
    pairs = [E.pair_ids(r.get("question") or "", r["text"], enc.vocab) for r in rows]
    t0 = time.perf_counter()
    theirs = [reference(ids, types) for ids, types in pairs]
    torch_time = time.perf_counter() - t0
    gap = max(abs(a - b) for a, b in zip(ours, theirs))
    print(f"  reference, transformers BertModel (torch, 1 thread): {torch_time / len(rows) * 1e3:6.1f} ms per reading "
          f"(largest log-odds difference {gap:.4f})")


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
