"""The two tokenizers of the RealCompanion tasks (both live in evaluator.text, the one tokenizer
module; this module names them for the RealCompanion code).

- `bm25_terms`: what BM25 indexes and queries with: `evaluator.text.REALCOMPANION_BM25`, the
  "bm25-en-snowball-v1" variant: lower-cased `\\w+` words, br-eval's English stop words
  (`STOPWORDS`) removed, the pinned Snowball English stemmer.
- `count_tokens`: what window-coverage budgets ("fits in T tokens") count. Every `\\w+` word and
  every single non-space punctuation character is one token. Name: "regex-wordpunct-v1". It needs
  no download. It is not OpenAI's cl100k_base (the paper's counter, which splits rare and long
  words into several tokens), so token-window shares are not directly comparable with the paper's.
"""

from __future__ import annotations

from evaluator.text import REALCOMPANION_BM25, STOPWORDS_REALCOMPANION as STOPWORDS
from evaluator.text import WINDOW_TOKENIZER, count_tokens

BM25_TOKENIZER = REALCOMPANION_BM25.name

__all__ = ["BM25_TOKENIZER", "WINDOW_TOKENIZER", "STOPWORDS", "bm25_terms", "bm25_terms_many",
           "count_tokens"]


def bm25_terms(text: str) -> list[str]:
    """One message or query -> its BM25 terms, in order, repeats kept."""
    return REALCOMPANION_BM25.terms(text)


def bm25_terms_many(texts: list[str]) -> list[list[str]]:
    """`bm25_terms` for many texts with one stemmer call (the stemmer caches repeated words)."""
    return REALCOMPANION_BM25.terms_many(texts)
