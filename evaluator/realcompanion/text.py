"""The two tokenizers of the RealCompanion tasks, both offline and dependency-light.

- `bm25_terms`: what BM25 indexes and queries with. Lower-cased `\\w+` words, English stop words
  removed, Snowball English stemmer (PyStemmer). Name: "bm25-en-snowball-v1".
- `count_tokens`: what window-coverage budgets ("fits in T tokens") count. Every `\\w+` word and
  every single non-space punctuation character is one token. Name: "regex-wordpunct-v1". It needs
  no download. It is not OpenAI's cl100k_base (the paper's counter, which splits rare and long
  words into several tokens), so token-window shares are not directly comparable with the paper's.
"""

from __future__ import annotations

import re

BM25_TOKENIZER = "bm25-en-snowball-v1"
WINDOW_TOKENIZER = "regex-wordpunct-v1"

_WORD = re.compile(r"\w+")
_WORD_OR_PUNCT = re.compile(r"\w+|[^\w\s]")

STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most
my myself no nor not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves im ive id ill youre youve dont didnt doesnt isnt wasnt cant
s t d ll m re ve
""".split())

_stemmer = None


def _stem_words(words: list[str]) -> list[str]:
    global _stemmer
    if _stemmer is None:
        import Stemmer  # PyStemmer: C Snowball stemmer, a declared dependency

        _stemmer = Stemmer.Stemmer("english")
    return _stemmer.stemWords(words)


def bm25_terms(text: str) -> list[str]:
    """One message or query -> its BM25 terms, in order, repeats kept."""
    words = [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]
    return _stem_words(words) if words else []


def bm25_terms_many(texts: list[str]) -> list[list[str]]:
    """`bm25_terms` for many texts with one stemmer call (the stemmer caches repeated words)."""
    lowered = [[w for w in _WORD.findall(t.lower()) if w not in STOPWORDS] for t in texts]
    flat = [w for ws in lowered for w in ws]
    stemmed = _stem_words(flat) if flat else []
    out, at = [], 0
    for ws in lowered:
        out.append(stemmed[at:at + len(ws)])
        at += len(ws)
    return out


def count_tokens(text: str) -> int:
    """Tokens of `text` under the regex-wordpunct-v1 tokenizer (see the module docstring)."""
    return len(_WORD_OR_PUNCT.findall(text))
