"""Every paper quote the RealCompanion tables print, and every quote of the paper in
docs/realcompanion.md, is the wording of the source documents (the English and the Chinese digest
of the paper, /work/shared/seeds/000_*.txt and 001_*.txt; shared/seeds/ in a checkout that has it).

A table's head (`tables._head(title, population, n, follows, reading)`) carries the paper's
sentence(s) in `follows`, each in double quotes (several quotes joined by "; "), and its `reading`
may quote the paper too; br-eval's own words stay outside the quotes. Each double-quoted fragment
is split at an elision ("..." or "…") and every piece must occur in the seed text after one
normalisation, applied to the seed and the quote alike:

- Unicode NFKC (full-width forms, "…" -> "...", no-break and narrow no-break spaces -> space);
- curly quotes and apostrophes -> straight ones;
- every dash or minus (Unicode category Pd, U+2212 MINUS SIGN) -> "-";
- whitespace runs -> one space; case is kept, nothing else is touched (LaTeX, backticks and
  punctuation are quoted as the seed has them).

The fragments are collected twice: statically, from every `_head(...)` call in tables.py (every
branch, whatever the results hold), and from the text `paper_tables` prints for constructed
results of the four tasks (what a reader sees)."""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest

from evaluator.realcompanion import tables
from evaluator.realcompanion.tables import paper_tables

REPO = Path(__file__).resolve().parents[1]
TABLES = Path(tables.__file__)
DOC = REPO / "docs" / "realcompanion.md"
# the RealCompanion documents: the English digest (000_) and the Chinese digest (001_)
SEED_NAMES = ("000_404a4067055f7944.txt", "001_3f0c77d070711e0e.txt")
# quotes in docs/realcompanion.md that are br-eval's own words, not the paper's: other pages'
# section names, br-eval's prompt headings, its own outputs and a scare-quoted phrase
DOC_OWN_WORDS = {"Scoring", "Memory agents", "Data", "Where the data comes from", "needs the past",
                 "RECENT CONVERSATION", "RETRIEVED MEMORIES", "EARLIER MESSAGES", "not reported",
                 "reading:"}
PLACEHOLDER = "\x00"          # a computed value inside a string: never in a seed

_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
           "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"'}


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = "".join(_QUOTES.get(ch, "-" if ch == "\u2212" or unicodedata.category(ch) == "Pd"
                               else ch) for ch in text)
    return re.sub(r"\s+", " ", text)


def _seed_dir() -> Path | None:
    for d in (Path("/work/shared/seeds"), REPO / "shared" / "seeds", REPO.parent / "shared" / "seeds"):
        if all((d / name).is_file() for name in SEED_NAMES):
            return d
    return None


@pytest.fixture(scope="module")
def seed():
    d = _seed_dir()
    if d is None:
        pytest.skip("the RealCompanion seed documents are not in this checkout")
    return normalise("\n".join((d / name).read_text(encoding="utf-8") for name in SEED_NAMES))


def fragments(text: str) -> list[str]:
    """The double-quoted fragments of a text (its quote marks normalised first)."""
    text = normalise(text)
    assert text.count('"') % 2 == 0, f"unbalanced double quotes in: {text}"
    return re.findall(r'"([^"]*)"', text)


def pieces(fragment: str) -> list[str]:
    """A fragment split at its elisions ("..." after NFKC), without empty pieces."""
    return [p.strip() for p in normalise(fragment).split("...") if p.strip()]


def missing(seed: str, quotes: list[tuple[str, str]]) -> list[str]:
    return [f"{where}: {piece!r} (in {frag!r})" for where, frag in quotes
            for piece in pieces(frag) if piece not in seed]


# -- the quotes of tables.py, statically ---------------------------------------------------------
class _Strings:
    """Evaluates a `follows` or `reading` argument to its text: string constants, f-strings (a
    computed value becomes PLACEHOLDER), `+`, module constants and a function's own local
    variable (its assignments and `+=` in order)."""

    def __init__(self, tree: ast.Module):
        self.module = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                       for t in node.targets if isinstance(t, ast.Name)}

    def text(self, node, func=None) -> str:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Constant) and node.value is None:
            return ""
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) else PLACEHOLDER
                           for v in node.values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.text(node.left, func) + self.text(node.right, func)
        if isinstance(node, ast.Name):
            local = [n for n in ast.walk(func) if isinstance(n, (ast.Assign, ast.AugAssign))
                     and any(isinstance(t, ast.Name) and t.id == node.id
                             for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
                     ] if func is not None else []
            if local:
                return "".join(self.text(n.value, func)
                               for n in sorted(local, key=lambda n: n.lineno))
            if node.id in self.module:
                return self.text(self.module[node.id])
        raise AssertionError(f"tables.py:{node.lineno}: a `_head` argument this test cannot "
                             f"read statically: {ast.unparse(node)}")


def head_quotes() -> list[tuple[str, str, str]]:
    """(where, argument, text) for the `follows` and `reading` of every `_head` call."""
    tree = ast.parse(TABLES.read_text(encoding="utf-8"))
    strings = _Strings(tree)
    out = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef):
            continue
        for call in ast.walk(func):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id == "_head"):
                continue
            args = dict(zip(("title", "population", "n", "follows", "reading"), call.args))
            args.update({k.arg: k.value for k in call.keywords})
            for name in ("follows", "reading"):
                if name in args:
                    out.append((f"tables.py:{call.lineno} {name}", name,
                                strings.text(args[name], func)))
    return out


def test_every_table_head_quotes_the_papers_follows_in_double_quotes():
    heads = head_quotes()
    follows = [text for _, name, text in heads if name == "follows"]
    calls = TABLES.read_text(encoding="utf-8").count("_head(") - 1     # less the definition
    assert len(follows) == calls >= 20
    for where, name, text in heads:
        if name == "follows":
            assert fragments(text), f"{where}: no quote of the paper in {text!r}"


def test_every_quote_in_the_table_heads_is_the_seeds_wording(seed):
    quotes = [(where, frag) for where, _, text in head_quotes() for frag in fragments(text)]
    assert len(quotes) >= 40
    bad = missing(seed, quotes)
    assert not bad, f"{len(bad)} of the tables' quotes are not in the seeds:\n" + "\n".join(bad)


# -- the quotes the tables print, from constructed results ----------------------------------------
def _cell(mean, n):
    return {"pooled": {"mean": mean, "ci95": [mean - 0.01, mean + 0.01], "n": n},
            "macro": {"mean": mean, "ci95": [mean - 0.01, mean + 0.01]}}


def _wilson(k, n):
    return {"k": k, "n": n, "rate": k / n, "ci95": [0.0, 1.0]}


def _auroc(pos, neg):
    return {"auroc": 0.55, "ci95": [0.5, 0.6], "n_pos": pos, "n_neg": neg}


def _results() -> dict:
    rates = {"misfire_rate": _cell(0.3, 5), "content_with_references": _cell(1.0, 6),
             "appropriate_application_recorded": _cell(0.5, 4), "used_memory": _cell(0.4, 12),
             "used_memory_per_participant": {"U01": {"mean": 0.4, "n": 12}}}
    dec = {"n": 6, "n_memory_bearing": 2, "pi": 0.3, "gamma1": 0.1, "gamma0": 0.1,
           "pi_gamma1": 0.03, "one_minus_pi_gamma0": 0.07, "delta": 0.1,
           "share_from_no_memory_rows": 0.7}
    origin = {"all": _wilson(1, 4), "episode_level": _wilson(1, 3),
              "per_locus": {"profile": _wilson(1, 2)},
              "second_reading": {"all": _wilson(2, 5), "per_locus": {"thread": _wilson(1, 1)}}}
    chat = {"content_metric": "content_match", "per_condition": {"C1": rates, "C2": rates},
            "populations": {"with_references": 6, "misfire": 5, "all": 12,
                            "memory_bearing_recorded": 4, "memory_bearing_strict": 3},
            "contrasts": {"C2-C1": {"n": 6, "difference": _cell(0.1, 6),
                                    "difference_all_items": _cell(0.05, 12),
                                    "difference_per_participant": {"U01": {"mean": 0.1, "n": 6}},
                                    "decomposition": {"reference_set/recorded": dec}}},
            "system": {"n": 12, "misfire_rate": _cell(0.2, 5)}, "n_samples": 12,
            "coverage": {"answered": 12, "items": 12}, "companion_origin": origin,
            "data": {"is_sample": True}}
    methods = {m: {"all": {"n_probes": 8, "pooled": {"hit@5": {"mean": 0.5}}},
                   "memory_bearing": {"n_probes": 4, "pooled": {"hit@5": {"mean": 0.25}},
                                      "per_participant": {"U01": {"n": 4, "recall@5": 0.25}}}}
               for m in tables.METHODS}
    cover = {"n": 4, "messages": {"10": {"rate": 0.5}}, "tokens": {"8000": {"rate": 0.5}},
             "tokenizer": "cl100k_base", "blocks": {"C2": {"rate": 1.0}},
             "blocks_strict": {"C2": {"rate": 1.0}}}
    cover.update(not_clearly_on_screen={**cover, "n": 3}, strict={**cover, "n": 2})
    detector = {"auroc_memory_vs_no_referent": _auroc(4, 2),
                "auroc_memory_vs_cold_opens": _auroc(4, 3), "misfire_rate": _wilson(1, 5),
                "detection_rate_memory_bearing": _wilson(1, 4),
                "detection_rate_proportional": _wilson(1, 2),
                "false_alarms_proportional": _wilson(1, 6), "n_proportional": 8}
    retrieval = {"retrieval": {"true_gold": methods, "offset_permuted_gold": methods},
                 "window_coverage": cover,
                 "demand_rate": {"estimate": _wilson(2, 8), "estimate_strict": _wilson(1, 8)},
                 "restraint": {"bm25_top": detector},
                 "question_track_detection": {
                     "n_questions": 5, "bm25_top": {
                         "auroc_questions_vs_no_referent": _auroc(5, 2),
                         "auroc_questions_vs_cold_opens": _auroc(5, 3)}},
                 "reach": {"by_population": {"thread": {"n": 3, "nearest_reference": {"median": 1},
                                                        "farthest_reference": {"median": 2}}}}}
    question = {"coverage": {"answered": 5, "items": 5}, "primary": {"mean": 0.4, "n": 5},
                "primary_metric": "judge", "companion_origin": {"all": _wilson(1, 5)}}
    reconstruction = {"persona": {"pooled": {"f1": 0.5, "tp": 1, "fp": 1, "fn": 1}},
                      "profile": {"pooled": {"f1": 0.5, "tp": 1, "fp": 1, "fn": 1}},
                      "n_scored": 2, "tokens": {"read": 10, "written": 2}}
    return {"realcompanion/chat": chat, "realcompanion/retrieval": retrieval,
            "realcompanion/question": question, "realcompanion/reconstruction": reconstruction}


def printed_heads() -> list[tuple[str, str]]:
    out = []
    for task, r in _results().items():
        for line in paper_tables(task, r).splitlines():
            for name in ("follows", "reading"):
                if line.startswith(f"  {name}: "):
                    out.append((f"{task} {name}", line[len(name) + 4:]))
    return out


def test_the_printed_heads_are_the_heads_of_tables_py():
    printed = printed_heads()
    static = [text for _, _, text in head_quotes()]
    # every table of every task prints (with its reading), and each printed `follows` and
    # `reading` is one the static collection checked (a computed value aside)
    assert sum(1 for where, _ in printed if where.endswith("follows")) == len(
        [1 for _, name, _ in head_quotes() if name == "follows"])
    for where, text in printed:
        assert any(re.fullmatch(".*".join(map(re.escape, s.split(PLACEHOLDER))), text)
                   for s in static), f"{where}: {text!r} is not a `_head` argument of tables.py"


def test_every_quote_the_tables_print_is_the_seeds_wording(seed):
    quotes = [(where, frag) for where, text in printed_heads() for frag in fragments(text)]
    bad = missing(seed, quotes)
    assert not bad, f"{len(bad)} printed quotes are not in the seeds:\n" + "\n".join(bad)


# -- the quotes of docs/realcompanion.md ---------------------------------------------------------
def doc_quotes() -> list[tuple[str, str]]:
    """Every double-quoted fragment of the RealCompanion page outside code spans, with its line."""
    out = []
    text = DOC.read_text(encoding="utf-8")
    plain = re.sub(r"`[^`]*`", lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    for m in re.finditer(r'"([^"]*)"', plain):
        out.append((f"docs/realcompanion.md:{plain.count(chr(10), 0, m.start()) + 1}",
                    m.group(1)))
    return out


def test_every_quote_of_the_paper_in_the_docs_is_the_seeds_wording(seed):
    quotes = [(where, q) for where, q in doc_quotes() if normalise(q).strip() not in DOC_OWN_WORDS]
    readings = DOC.read_text(encoding="utf-8").split("### RealCompanion readings")[1]
    assert len(quotes) >= 40 and len(fragments(readings)) >= 20
    bad = missing(seed, quotes)
    assert not bad, f"{len(bad)} of the doc's quotes are not in the seeds:\n" + "\n".join(bad)


def test_the_normalisation_is_the_documented_one():
    assert normalise("a\u2011b \u2212 c\u2013d\u2014e") == "a-b - c-d-e"
    assert normalise("22.0\u202f%\u00a0[x]\n  y") == "22.0 % [x] y"
    assert normalise("\u201cBM25\u2019s\u201d (\uff11)\u2026") == '"BM25\'s" (1)...'
    assert normalise("Use") != normalise("use")
    assert pieces("3.4% \u2026 1.3%") == ["3.4%", "1.3%"] == pieces("3.4% ... 1.3%")
    assert fragments('"a"; LA: "b ... c"') == ["a", "b ... c"]
