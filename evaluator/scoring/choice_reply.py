"""The letter reader's first three stages (evaluator.scoring.choice): the reply put in one form
(`plain_script`, a JSON answer field `json_answer`, `reply_text`: reasoning blocks, \\boxed{},
checkboxes), its last "Answer:" line (`final_answer_line`), and the rewrites the letter cues read
(`letters_in_math`, `english_labels`, `ordinals_as_letters`, `compound_pairs`, `unglued`). Each
notes the cues that fired (choice_cues.json, stages reply, answer line and rewrite)."""

from __future__ import annotations

import ast
import json
import unicodedata

from evaluator.scoring import choice_cues as rules
from evaluator.scoring.choice_match import NO_FIELD, RX, hit, unwrapped
from evaluator.scoring.metrics import normalize_answer


# -- stage 1: the reply -----------------------------------------------------------------------------
def plain_script(text: str, hits: list | None) -> str:
    """NFKC, CJK punctuation as Latin, a space wherever Latin letters or digits touch another script."""
    out = RX["script-edge"].sub(" ", unicodedata.normalize("NFKC", text).translate(_CJK_PUNCT))
    if hits is not None and out != text:
        hit(hits, "plain-script", None, 0, len(out), out)
    return out


_CJK_PUNCT = str.maketrans(rules.CJK_PUNCTUATION)
_ANSWER_KEY = RX["answer-key"]


def json_answer(prediction: str):
    """The value of a JSON (or Python dict) reply's answer field: the shallowest one, the last of
    those ({"answer": "B", "considered": [{"option": "A"}]} answers B; {"result": {"answer": "B"}}
    too); a field whose value is an object is read through that object's own answer field or its
    text ({"answer": {"letter": "B"}}, {"answer": {"text": "blue"}}). NO_FIELD when the reply is
    not such an object or has no answer field; the regex reading (json-answer-text) covers
    malformed ones."""
    start, end = prediction.find("{"), prediction.rfind("}")
    if start < 0 or end < start:
        return NO_FIELD
    chunk = prediction[start:end + 1]
    try:
        data = json.loads(chunk)
    except (ValueError, RecursionError):       # too deep to read: no field, like malformed
        try:
            data = ast.literal_eval(chunk)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return NO_FIELD
    found: list[tuple[int, int, object]] = []          # (depth, order, value)

    def walk(node, depth):
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str) and _ANSWER_KEY.match(key.strip()):
                    found.append((depth, len(found), value))
                walk(value, depth + 1)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value, depth + 1)

    try:
        walk(data, 0)
    except RecursionError:                     # nested deeper than the stack: read as malformed
        return NO_FIELD
    if not found:
        return NO_FIELD
    value = min(found, key=lambda f: (f[0], -f[1]))[2]
    if isinstance(value, dict):
        inner = json_answer(json.dumps(value))
        if inner is not NO_FIELD:
            return inner
        value = [v for v in value.values() if isinstance(v, str)]
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value if v is not None) or None
    return None if value is None else str(value)




def reply_text(prediction: str, hits: list | None) -> str:
    """The part of a reply that answers: without a reasoning block that an answer follows, with
    \\boxed{} read as an answer label and markdown checkboxes as check marks."""
    closes = list(RX["reasoning-block"].finditer(prediction))
    if closes:
        hit(hits, "reasoning-block", None, closes[-1].start(), closes[-1].end(), prediction)
        after = prediction[closes[-1].end():]
        prediction = after if RX["has-word"].search(after) else prediction[:closes[-1].start()]
    for name, rewrite in (("reasoning-open-tag", lambda p: RX["reasoning-open-tag"].sub(" ", p)),
                          ("boxed", lambda p: RX["boxed"].sub(
                              lambda m: " answer: " + RX["latex-wrap"].sub(r"\1", m.group(1)) + " ", p)),
                          ("checked-box", lambda p: RX["checked-box"].sub(r"\1✅", p)),
                          ("empty-box", lambda p: RX["empty-box"].sub(r"\1❌", p))):
        if hits is not None and (m := RX[name].search(prediction)):
            hit(hits, name, None, m.start(), m.end(), prediction)
        prediction = rewrite(prediction)
    return prediction


# -- stage 2: the answer line ---------------------------------------------------------------------------
def final_answer_line(answered: str, options: dict[str, str], hits: list | None):
    """What the reply's last line says after "Answer:" (the format reasoning prompts ask for):
    the letter it names alone or with its option's text ("Answer: C", "Answer: \\( \\text{(H)} \\)",
    "Answer: (F) C, A, B, D"), the option whose whole text it gives ("Answer: $EDBCFGKH_A$"), None
    when it names none ("Answer: None of the above"), or NO_FIELD when the last line is no such
    answer or names something else (read with the rest of the reply)."""
    line_rx = RX["final-answer-line"]
    lines = [line for line in answered.splitlines() if RX["has-word"].search(line)]
    m = line_rx.match(lines[-1]) if lines else None
    if not m:
        return NO_FIELD
    hit(hits, "final-answer-line", None, m.start(1), m.end(1), lines[-1])
    if any((e := line_rx.match(line)) and e.group(1) != m.group(1) for line in lines[:-1]):
        hit(hits, "answer-line-conflict", None, 0, len(lines[-1]), lines[-1])
        return NO_FIELD                  # ("Answer: B\nAnswer: A" states two answers)
    plain = RX["markup"].sub(" ", unwrapped(m.group(1))).strip()
    said = normalize_answer(plain)
    texts = {k: normalize_answer(RX["markup"].sub(" ", v)) for k, v in options.items()}
    by_text = [k for k, t in texts.items() if said and t == said]
    line = lines[-1]
    if len(by_text) == 1 and not RX["lone-letter"].fullmatch(plain):
        hit(hits, "answer-line-text", by_text[0], m.start(1), m.end(1), line)
        return by_text[0]
    lone = RX["answer-line-letter"].fullmatch(plain)
    if lone and lone.group(1).upper() in options:
        hit(hits, "answer-line-letter", lone.group(1).upper(), m.start(1), m.end(1), line)
        return lone.group(1).upper()
    labelled = RX["answer-line-labelled"].fullmatch(plain)
    if labelled and labelled.group(1) in options and normalize_answer(labelled.group(2)) in texts.values():
        hit(hits, "answer-line-labelled", labelled.group(1), m.start(1), m.end(1), line)
        return labelled.group(1)          # its own text, or (a slip) another option's: the letter stands
    if RX["answer-line-none"].fullmatch(plain):
        hit(hits, "answer-line-none", None, m.start(1), m.end(1), line)
        return None
    return NO_FIELD


# -- stage 3: rewrite ------------------------------------------------------------------------------------
def letters_in_math(text: str, hits: list | None) -> str:
    """TeX maths with the letters of its formulas taken out: "\\(A\\) is the area" and "$h_{AB}$" name
    variables and points, not options. A letter alone in maths counts where it is stated as the
    answer ("Answer: \\( \\text{(H)} \\)", "Answer: $C$", "$B$ is correct")."""
    def read(m):
        body = unwrapped(next(g for g in m.groups() if g is not None))
        if " answer: " in body:               # \boxed{} inside maths, already read as an answer label
            return " " + body + " "
        if RX["lone-letter"].fullmatch(body):
            before = RX["markup"].sub(" ", text[max(0, m.start() - 120):m.start()])
            if (RX["answer-label"].search(before) or RX["conclusion"].search(before)
                    or RX["strong-after"].match(RX["markup"].sub(" ", text[m.end():m.end() + 80]))):
                hit(hits, "maths-answer-letter", body.strip().strip("()[].").upper() or None,
                     m.start(), m.end(), text)
                return " " + body.strip() + " "
        hit(hits, "maths", None, m.start(), m.end(), text)
        return " ⋯ "

    return RX["maths"].sub(read, text)


_FOREIGN = [(name, RX[name], english) for name, english in rules.FOREIGN_ENGLISH.items()]


def english_labels(text: str, hits: list | None) -> str:
    """The words of an answer statement in other languages as their English counterparts (the
    foreign-* cues, in table order; an ASCII reply without a Latin trigger word has none)."""
    if text.isascii() and not RX["latin-foreign"].search(text):
        return text
    for name, pattern, english in _FOREIGN:
        if hits is not None and (m := pattern.search(text)):
            hit(hits, name, None, m.start(), m.end(), text)
        text = pattern.sub(english, text)
    return text


def ordinals_as_letters(text: str, options: dict[str, str], hits: list | None) -> str:
    letters = sorted(options)

    def letter(m):
        word = m.group(1).lower()
        i = len(letters) - 1 if word == "last" else rules.ORDINALS.index(word)
        if i < len(letters):
            hit(hits, "ordinal", letters[i], m.start(), m.end(), text)
            return f"option {letters[i]}"
        return m.group(0)

    return RX["ordinal"].sub(letter, text)


def compound_pairs(text: str, hits: list | None) -> str:
    if hits is not None:
        for m in RX["compound-pair"].finditer(text):
            hit(hits, "compound-pair", None, m.start(), m.end(), text)
    return RX["compound-pair"].sub("#/#", text)


def unglued(text: str, options: dict[str, str], hits: list | None) -> str:
    def split(m):
        option = options.get(m.group(2))
        rest = text[m.end():]
        if option and rest[:len(option)].lower() == option.lower() and not rest[len(option):len(option) + 1].isalnum():
            hit(hits, "glued-letter", m.group(2), m.start(), m.end(), text)
            return m.group(1) + " "
        return m.group(0)

    return RX["glued-letter"].sub(split, text)
