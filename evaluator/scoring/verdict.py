"""The yes/no verdict a text opens with, and the rule that uses it: a reply whose opening verdict
contradicts its reference's scores 0 on every lexical metric.

Token F1, ROUGE-L and exact match count shared words, so a reference that opens with a verdict
("Yes. Mira first said she was allergic to peanuts, then ...") is matched best by the same
sentence with the verdict flipped ("No. Mira first said ...": token F1 0.96), and a right bare
"Yes." scores 0.08. The rule (`contradicts`, applied per reference by
evaluator.scoring.tasks.score_answer): when the reference and the reply both open with a verdict
and the verdicts differ, the reply does not match that reference (exact_match, token_f1,
contains and rougeL_f count it as 0); with several references the others still count. A reply
without an opening verdict ("She said both.", "Mira contradicted herself") keeps its lexical
score: the rule only takes away what words shared with the reverse answer gave.

A verdict is one of the words below opening the text (after markup and opening quotes), followed
by punctuation or the end of the text: "Yes.", "No, she ...", "**Yes** -- she ...", "Nope!". A
word followed by another word is not a verdict ("No idea", "No specific date", "Yes she did"), nor
one glued by a hyphen ("No-one"). A gold `True` / `False` reads as "yes" / "no"
(evaluator.scoring.metrics.answer_text), so it opens with a verdict too.
"""

from __future__ import annotations

import re

from evaluator.scoring.metrics import answer_text

# -- word lists (data) ----------------------------------------------------------------------------
YES_WORDS = ("yes", "yeah", "yep", "yup")
NO_WORDS = ("no", "nope", "nah")
# what may come before the verdict: markup, opening quotes and brackets, a list bullet
LEAD = r"[\s*_`\"'“‘(\[>#]*"
# what must follow it: punctuation (a hyphen only with spaces around it) or the end of the text
AFTER = r"(?=[*_`\"'”’)\]]*(?:\s*[.,!;:…]|\s+[-–—]+\s|\s*[–—]|\s*$))"

VERDICT = re.compile(rf"^{LEAD}({'|'.join(YES_WORDS + NO_WORDS)})\b(?!\.\s*\d){AFTER}", re.IGNORECASE)


# a question that asks yes or no opens with an auxiliary ("Did she ...?", "Has Omar ...?")
YES_NO_QUESTION = re.compile(r"^\W*(?:did|does|do|has|have|had|is|was|are|were|can|could|will|would|"
                             r"should|may|might|must)\b", re.IGNORECASE)
# a question asked in the negative ("Has Grace still not explained ...?"): "Yes, she still hasn't"
# and "No, she hasn't" agree, so a verdict cannot be read against the reference's
NEGATIVE_QUESTION = re.compile(r"\b(?:not|never|no\s+longer)\b|n['’]t\b", re.IGNORECASE)


def _asked(question: object) -> str:
    """The question's first line (options follow it)."""
    text = question.strip() if isinstance(question, str) else ""
    return text.splitlines()[0] if text else ""


def asks_yes_no(question: object) -> bool:
    """The question asks yes or no."""
    return bool(YES_NO_QUESTION.match(_asked(question)))


def opening_verdict(text: object) -> str | None:
    """"yes" or "no" when `text` opens with a yes/no verdict (see the module docstring), else None."""
    m = VERDICT.match(answer_text(text))
    if not m:
        return None
    return "yes" if m.group(1).lower() in YES_WORDS else "no"


def contradicts(reply: object, reference: object, question: object = None) -> bool:
    """Whether the reply's opening verdict is the reverse of the reference's (both must have one;
    never for a question asked in the negative, where "yes" and "no" can mean the same)."""
    if NEGATIVE_QUESTION.search(_asked(question)):
        return False
    said, meant = opening_verdict(reply), opening_verdict(reference)
    return said is not None and meant is not None and said != meant


__all__ = ["YES_WORDS", "NO_WORDS", "VERDICT", "YES_NO_QUESTION", "NEGATIVE_QUESTION", "asks_yes_no",
           "opening_verdict", "contradicts"]
