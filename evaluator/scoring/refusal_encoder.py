"""The encoder of the refusal reader: a small BERT (all-MiniLM-L6-v2, 6 layers, 384 wide) fine-tuned
to read (question, reply) pairs as "declines" or "answers", run here in numpy alone.

Why: the phrase rules and the linear model (refusal_model.py) read words, and stance is in how
the words relate ("the passage does not say who, but it names Judy Garland" answers; "the passage
names the cast, not who it is based on" declines). A cross-encoder reads the question and the reply
together. Trained on every labelled set except the model's held-out sets (tests/labelsets.py
MODEL_HELDOUT), it read those 1,718 rows at 96.2% against the rules-and-linear reader's 94.4%
(docs/scoring.md, "The encoder"); `refusal.reading` asks it where the phrase rules and the linear
model disagree.

The weights derive from sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), itself from
microsoft/MiniLM-L12-H384-uncased (MIT). The file (refusal_encoder.npz, made by
tests/data/train_refusal_encoder.py) holds every weight:
matrices as int8 with one float32 scale per row, vectors as float32, the WordPiece vocabulary and
the shape. The tokenizer is BERT's uncased WordPiece (the same ids as the `tokenizers` library's,
checked by tests/test_refusal_encoder.py on every labelled reply). Nothing is downloaded.

Deterministic: fixed weights, no sampling; float32 sums may differ in their last bits between BLAS
builds, so `log_odds` is rounded to 4 decimals. Bounds: the question is read as its first
MAX_QUESTION_TOKENS tokens, the reply as its first HEAD_TOKENS and last TAIL_TOKENS (a reply longer
than MAX_CHARS characters is cut to its first and last MAX_CHARS/2 before tokenizing), so one reading
is at most 323 positions, about 30 ms of CPU.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

from evaluator.errors import EvalError

MODEL_FILE = Path(__file__).with_name("refusal_encoder.npz")
MAX_CHARS = 20_000
MAX_QUESTION_TOKENS = 64
HEAD_TOKENS = 96
TAIL_TOKENS = 96
_LOCK = threading.Lock()


class EncoderFileError(EvalError):
    """refusal_encoder.npz is missing or not the file this code reads (one line, exit 1)."""


# -- the tokenizer: BERT's basic tokenizer (uncased) then greedy longest-match WordPiece --------
def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True                 # ASCII symbols count as punctuation, as in BERT
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def _words(text: str) -> list[str]:
    """Lower-cased, accent-stripped words and single punctuation marks; CJK characters apart."""
    kept = []
    for ch in text:
        cp = ord(ch)
        category = unicodedata.category(ch)
        if cp == 0 or cp == 0xFFFD or (category.startswith("C") and ch not in "\t\n\r"):
            continue
        if ch in " \t\n\r" or category == "Zs":
            kept.append(" ")
        elif _is_cjk(cp):
            kept.append(f" {ch} ")
        else:
            kept.append(ch)
    out = []
    for word in "".join(kept).split():
        word = unicodedata.normalize("NFD", word.lower())
        current = ""
        for ch in word:
            if unicodedata.category(ch) == "Mn":
                continue
            if _is_punctuation(ch):
                if current:
                    out.append(current)
                    current = ""
                out.append(ch)
            else:
                current += ch
        if current:
            out.append(current)
    return out


def token_ids(text: str, vocab: dict[str, int]) -> list[int]:
    """WordPiece ids of `text` (no [CLS]/[SEP]); a word with no piece sequence, or over 100
    characters, is one [UNK]."""
    unk = vocab["[UNK]"]
    ids: list[int] = []
    for word in _words(text):
        if len(word) > 100:
            ids.append(unk)
            continue
        pieces, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    found = vocab[piece]
                    break
                end -= 1
            if found is None:
                pieces = [unk]
                break
            pieces.append(found)
            start = end
        ids.extend(pieces)
    return ids


def pair_ids(question: str, reply: str, vocab: dict[str, int]) -> tuple[list[int], list[int]]:
    """([CLS] question [SEP] reply [SEP] ids, token types) within the bounds of the module doc."""
    if len(reply) > MAX_CHARS:
        reply = reply[:MAX_CHARS // 2] + " " + reply[-MAX_CHARS // 2:]
    q = token_ids(question[:MAX_CHARS], vocab)[:MAX_QUESTION_TOKENS]
    r = token_ids(reply, vocab)
    if len(r) > HEAD_TOKENS + TAIL_TOKENS:
        r = r[:HEAD_TOKENS] + [vocab["[SEP]"]] + r[-TAIL_TOKENS:]
    ids = [vocab["[CLS]"], *q, vocab["[SEP]"], *r, vocab["[SEP]"]]
    return ids, [0] * (len(q) + 2) + [1] * (len(r) + 1)


# -- the encoder ---------------------------------------------------------------------------------
class Encoder:
    """The fine-tuned encoder and its head, dequantized to float32 once."""

    def __init__(self, path: Path = MODEL_FILE):
        import numpy as np

        if not path.is_file():
            raise EncoderFileError(f"{path} is missing: the refusal reader cannot read replies "
                                   "(reinstall br-eval)")
        import zipfile

        try:
            with np.load(path, allow_pickle=False) as data:
                config = json.loads(bytes(data["config"]).decode())
                if config.get("format") != 1:
                    raise EncoderFileError(f"{path}: format {config.get('format')!r}, not 1")
                weights = {}
                for name in data.files:
                    if name.endswith(".scale") or name in ("config", "vocab"):
                        continue
                    w = data[name]
                    if w.dtype == np.int8:
                        w = w.astype(np.float32) * data[name + ".scale"][:, None]
                    weights[name] = np.ascontiguousarray(w, dtype=np.float32)
                vocab = bytes(data["vocab"]).decode("utf-8").split("\n")
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise EncoderFileError(f"{path} cannot be read ({type(exc).__name__}: {exc}): "
                                   "reinstall br-eval") from None
        self.config = config
        self.w = weights
        self.vocab = {token: i for i, token in enumerate(vocab)}
        self.heads, self.layers = int(config["heads"]), int(config["layers"])

    def log_odds(self, question: str, reply: str) -> float:
        import numpy as np

        ids, types = pair_ids(question, reply, self.vocab)
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:len(ids)]
             + w["embeddings.token_type_embeddings.weight"][types])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        width = x.shape[1]
        size = width // self.heads
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def dense(h, name):
                return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            q, k, v = (dense(x, f"attention.self.{n}").reshape(-1, self.heads, size).transpose(1, 0, 2)
                       for n in ("query", "key", "value"))
            scores = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(size))
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            attended = (scores @ v).transpose(1, 0, 2).reshape(-1, width)
            x = _layer_norm(dense(attended, "attention.output.dense") + x,
                            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            inner = _gelu(dense(x, "intermediate.dense"))
            x = _layer_norm(dense(inner, "output.dense") + x,
                            w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        pooled = x[0] + x.mean(0)           # [CLS] plus the mean over positions, as trained
        return float(pooled @ w["head.weight"][0] + w["head.bias"][0])


def _layer_norm(x, gain, bias, eps: float = 1e-12):
    import numpy as np

    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + np.float32(eps)) * gain + bias


def _gelu(x):
    """BERT's exact GELU, 0.5 x (1 + erf(x / sqrt 2)), with Abramowitz and Stegun's erf 7.1.26
    (absolute error under 1.5e-7, below float32's step near 1)."""
    import numpy as np

    z = np.abs(x) * np.float32(0.7071067811865476)
    t = 1 / (1 + np.float32(0.3275911) * z)
    poly = ((((np.float32(1.061405429) * t - np.float32(1.453152027)) * t + np.float32(1.421413741)) * t
             - np.float32(0.284496736)) * t + np.float32(0.254829592)) * t
    erf = np.sign(x) * (1 - poly * np.exp(-z * z))
    return np.float32(0.5) * x * (1 + erf)


@lru_cache(maxsize=1)
def encoder() -> Encoder:
    return Encoder()


@lru_cache(maxsize=8192)
def log_odds(reply: str, question: str | None) -> float:
    """The encoder's log-odds that `reply` declines `question` (rounded to 4 decimals)."""
    with _LOCK:        # one load, and one reading at a time: numpy releases the GIL to BLAS's threads
        return round(encoder().log_odds(question or "", reply), 4)

