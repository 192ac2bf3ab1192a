"""Refusal detection: does a reply (or a gold answer) decline, or say the history does not tell?

The detector reads the reply sentence by sentence and clause by clause (clauses split at sentence
punctuation, commas, semicolons, colons, dashes and brackets; a clause inside brackets is an aside)
and gives each clause one kind:

- decline: the answer itself cannot be given: "I cannot calculate the number of days", "the exact
  total cannot be determined", "I don't have enough information to answer", "it's not possible to
  provide an accurate answer", "I can't tell where you shopped", a step-by-step reply's output
  "empty";
- refuse: the information asked for is absent or unknown to the speaker, whoever says so: the
  speaker does not know / remember / have a record ("I can't remember", "I have no idea", "I'm not
  able to determine that"), it was not mentioned / discussed / specified / given ("It isn't
  mentioned", "No specific date mentioned.", "None explicitly mentioned."), a source does not say
  or lacks it ("The conversation doesn't mention it", "You never told me that", "they don't specify
  how many", "none of them indicate which", "Neither the document nor the images state the time",
  "the name is cut off"), it is not in what was discussed ("The answer isn't in what we've
  discussed"), there is no record / information, the information is insufficient, or the whole
  clause is "Unknown", "N/A", "idk" ...;
- hedge: the speaker is unsure ("I'm not sure", "Hard to say", "It's unclear");
- caveat: a decline of completeness or certainty only ("I can't confirm a definitive count",
  "... enough information to fully answer", "no additional information"): it declines only when
  nothing was answered before it;
- commit: a concluded answer: what follows "Therefore", "So", "Total:", "I can conclude that",
  "Based on what's available", a tally ("That's at least 4 types"), advice given ("Here are some
  tips", "I'd suggest ...");
- guess: the clause still gives an answer ("I think it was May", "probably the red one", "it was
  in autumn", "about 5 days", "this suggests an increase");
- context: what the question, the user or the history said ("You mentioned a trip", "The question
  refers to an accident", "The messages mention that you visited Japan", "From Session 2, we know
  that"), and a relative clause hanging on it;
- filler: nothing either way ("Sorry", "Unfortunately", "Based on our conversation", "though",
  "Therefore,", the steps of a step-by-step reply, offers and suggestions to the user ("If you tell
  me, I'll remember it", "you could check your calendar"), pointers elsewhere ("I can suggest
  checking the official website", "It's best to research ..."), a question back);
- content: anything else.

Who is unsure matters: a refusal is always the speaker's (I / we), the user's ("you never told
me"), or a source's (it, that, the conversation, the photos ...); "She was not sure about the
job", "The results were unclear" and "The cause is unknown to her doctor" talk about a third party
and answer the question.

The reply's stance is then read in order (the word lists that drive each step are tuples in
evaluator/scoring/refusal_cues.py, data rather than ever-longer patterns):

0. A reply that only asks for the information it would need ("To answer accurately I would need
   more context; please share it") and takes no stance in any clause declines.
1. An explicit final answer ("Answer: ...", "the answer is ...", "my answer will be ...", a heading
   "Answer") decides by what follows the last one ("... **Answer:** No gift from grandpa is
   mentioned." declines; "I don't remember the exact day. Answer: in May" answers).
2. A reply that opens with a bare "No" and gives a reason of three words or more that is not the
   speaker or the user ("No, there is no information indicating she is") answers a yes/no question.
3. Otherwise, clause by clause: the first refuse, hedge or caveat declines, unless the reply's
   opening sentence already answered (an answer followed by "although the day isn't mentioned"
   answers); a decline of the answer itself declines at any point, overriding facts reported
   before it ("You spent 5 days in New York, but ... so I can't give the total"); a commit or a
   guess answers at any point ("I cannot find when you booked it ... making it approximately 5
   months ago"); content reverses a decline when it is narrated in the decline's own sentence ("I
   don't remember exactly, but she went in May"), follows a "but" there ("The doctor said the cause
   was unknown, but the diagnosis was a sprain."), or fills a sentence that opens with a contrast
   and declines nothing ("... However, the closest match is the soccer tournament on June 17").
   A contrast sentence that is a general remark ("However, he has performed in various venues",
   "it is known that ...") or that opens with an offer does not reverse a decline; an offer of
   general information after a decline ("However, I can provide some general information on ...")
   settles the reply as declining, except on a how-to question, where general steps answer; a
   concession opening a declining sentence ("While NASA has made advances in many fields, I have no
   information on ...") answers nothing.
   Evidence, context, asides and filler take no stance: "I don't know, though.", "I can't
   remember, but you could check your calendar" and "The messages don't mention a hamster; they
   discuss your cat Luna" decline. An empty reply is not a refusal (it is simply a wrong answer).
   A decline of precision only ("I cannot provide an exact number") after a concluded answer is a
   caveat. A step-by-step reply's last heading ("Step 3: Provide an answer", "Conclusion") and "the
   best answer is ..." work like "Answer:".
   A reply that opens with a bare verdict ("Unanswerable.", "Unknown.") declines whatever its
   reasoning goes on to say; a refusal or hedge opening with a concession before a statement in
   its own sentence ("Although the exact island isn't specified, Anna went to Indonesia") is
   background to it; after a first refusal of something the question does not ask about ("The
   passage does not mention Fiji;"), a statement that names what was asked answers.
4. A reply cut at its length limit (long, and not ending a sentence) is read up to its last,
   unfinished clause, which takes no stance unless it declines; a final answer cut inside a refusal
   word ("the answer is "unanswer") reads as that word, and one cut before it names anything ("the
   correct answer is: **The") leaves the reply before its label to decide.

With the question (`is_refusal(text, question)`, `explain(text, question)`; the scorer passes it),
the reply is read against what it asks (`read_question`: the kind of value asked, from word lists in
ASKS: a number, a total, a clock time, a date, a choice between named things; and the stems of the
words that name what is asked about, without the question's framing words). The same sentences
then decide either way, by what was asked (`against_question` and `_decide`):

- a refusal that names what was asked declines it ('declines-asked'), over an earlier answer
  that named less of it: enough of the question's naming words (one when it declines "at all"), or
  the question's focus, what its wh-word asks for ("where", "who", "when", "why", the noun after
  "what" / "which": "The passage states William Beckford had a son, but it does not mention where
  he died"), in the refusal or, when it points back ("... and the passage doesn't provide that
  information"), in what precedes it in its sentence; "The messages mention autographed baseballs: you have 15. There is no
  mention of autographed footballs." declines when footballs were asked and answers when baseballs
  were; "don't mention you replacing a bulb" declines "What bulb did I replace?" after a report of
  the bulb; for a choice ("A or B, which first?") an answer that does not pick leaves it declining;
- a report that repeats what was asked (with a value of the kind asked) answers first
  ('reports-asked'): "You mentioned your cat is called Luna, but her breed was never mentioned."
  answers "What is my cat's name?" and declines "What breed is my cat?";
- when a total was asked, a caveat that names the total declines ('declines-total': "A full total
  cannot be determined" after a partial sum); for a plain count, "at least 3 ... the list may not be
  complete" answers;
- an opening, a conclusion or a guess without a value of the kind asked answers nothing
  ('no-value': "You wake up 15 minutes earlier on Tuesdays, but the exact time isn't mentioned"
  declines "What time do I wake up?" and answers "How much earlier do I wake up?"); a date worked
  out from the question's own time words ("a week ago, which would be around June 15") answers
  nothing when a thing was asked ('time-frame'); a year asked wants a year ("In what year ...?"
  "In the early 18th century" answers nothing).
Without a question the reply is read alone, as before.

The reading is an engine over the cue table, refusal_cues.json (read by evaluator.scoring.cue_engine);
each stage runs its cues in table order, and which cues run, and in which order, is the table's:
- reply (`_judge`): whole-reply cues; effect `answer` (not a refusal), `decline` (a refusal) or
  `read` (what the cue found is read instead of the reply); a cue that needs the clauses reads them;
- clause (`clause_cues`): the first clause cue whose condition holds and whose pattern matches gives
  the clause its kind (the effect); a cue marked `caveat` gives 'caveat' when a cue of stage
  `clause caveat` matches too;
- clause in context (`_read`): a cue that fires gives its effect as the clause's kind;
- question (`against_question`): the first cue that fires gives the clause a kind named after the
  cue; its effect says how the decision counts that kind: `decline` (a decline of the answer
  itself), `report` (answers first, like content) or `none` (answers nothing);
- decide (`_decide`): per clause, cues in table order; effect `none` (the clause takes no stance),
  `decline` or `answer` (the reply's stance so far; the next clause is read), or a clause kind
  (the clause is read on as that kind).

Measured on tests/data/refusal_labels.jsonl (hand-written), tests/data/refusal_real_labels.jsonl
(real replies of two memory systems to LoCoMo questions) and tests/data/refusal_chat_labels.jsonl
(real replies of chat assistants to LongMemEval questions): bench/scoring_quality.py prints the
agreement on each tuning split and each held-out split, which was labelled before the rules it
measures and never tuned on.

Who decides a reply to an open question (`is_refusal`, `reading`): three readers vote, these phrase
rules, a linear model over words and clause features (refusal_model.py) and a fine-tuned encoder
that reads the question and the reply together (refusal_encoder.py); the encoder is asked only
where the other two disagree. The rules alone read multiple-choice replies and reference answers
(`rules_verdict`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from evaluator.scoring import refusal_cues as rules
from evaluator.scoring.cue_engine import digest, firing, noter, steps
from evaluator.scoring.metrics import answer_text, normalize_answer
from evaluator.scoring.refusal_text import Asked, clauses, content_stems, names_focus, question_text, read_question

CUES = rules.CUES
PATTERNS = rules.PATTERNS
# the kinds a clause cue gives (and that a decide cue may read a clause on as)
CLAUSE_KINDS = ("decline", "refuse", "hedge", "caveat", "commit", "guess", "context", "filler", "content")


def _stage(name: str) -> list[tuple[str, str, dict]]:
    return [(c["name"], c["effect"], c) for c in CUES if c["stage"] == name]


# -- stage clause: the first clause cue that holds gives the kind -------------------------------------
# a clause cue's condition besides its pattern (`when` in the table)
_WHEN = {"question mark": lambda clause, asked, after: asked,
         "after context": lambda clause, asked, after: after == "context",
         "after lead": lambda clause, asked, after: after == "lead",
         "at most 6 words": lambda clause, asked, after: len(clause.split()) <= 6}
_MATCH = {"search": "search", "start": "match", "whole": "fullmatch"}


def _matches(cue: dict) -> list:
    """The match functions of a cue's patterns (PATTERNS), as its `match` says."""
    return [getattr(p, _MATCH[cue.get("match", "search")]) for p in PATTERNS.get(cue["name"], ())]


def _caveat_test(cue: dict):
    tests = _matches(cue)
    return (lambda clause: any(t(clause) for t in tests)) if tests else None


_CAVEAT_STEPS = steps(_stage("clause caveat"), _caveat_test, CLAUSE_KINDS)


def _clause_test(cue: dict):
    """A clause cue's test on (clause, ends with "?", previous kind): true when its condition holds
    and a pattern matches (a cue with no pattern: its condition alone); for a cue marked `caveat`,
    the caveat step that also matches, if any."""
    tests, when, caveat = _matches(cue), _WHEN[cue["when"]] if cue.get("when") else None, cue.get("caveat")

    def test(clause, asked, after):
        if (when is not None and not when(clause, asked, after)) or (tests and not any(t(clause) for t in tests)):
            return None
        return caveat and next((step for step, _ in firing(_CAVEAT_STEPS, clause)), None) or True
    return test


_CLAUSE_STEPS = steps(_stage("clause"), _clause_test, CLAUSE_KINDS)


def clause_cues(clause: str, *, asked: bool = False, after: str | None = None) -> tuple[str, tuple[str, ...]]:
    """(kind, the cues that gave it) for one normalised clause: the first clause cue of the table
    (refusal_cues.json, stage "clause") whose condition holds and whose pattern matches gives the
    kind; a decline, refusal or hedge qualified by a caveat word is a 'caveat' (cue "caveat")."""
    for step, found in firing(_CLAUSE_STEPS, clause, asked, after):
        if found is not True:
            return found.effect, (step.name, found.name)
        return step.effect, (step.name,)
    return "content", ("content",)


def clause_kind(clause: str, *, asked: bool = False, after: str | None = None) -> str:
    """One kind for one normalised clause: 'decline' (the answer itself cannot be given), 'refuse'
    (the information is absent or unknown to the speaker), 'hedge', 'caveat' (a decline of
    completeness or certainty only), 'commit' (a concluded answer), 'guess', 'context' (what the
    question, the user or the history said), 'filler' or 'content'. `after` is the previous
    clause's kind ('context', or 'lead' after a bare conclusion word such as "Therefore,")."""
    return clause_cues(clause, asked=asked, after=after)[0]


def explain(text: object, question: object = None, *, cues: bool = False) -> list[tuple]:
    """[(clause, kind)] as the detector reads `text` (for debugging a verdict). With a question, the
    kinds it decided show as 'declines-asked', 'declines-total', 'reports-asked', 'no-value' and
    'time-frame' (see `against_question`); a 'declines-asked' clause that did not decline (the
    answer before it named as much of what was asked) shows as 'refuse'. With `cues=True`, each is
    (clause, kind, the names of the clause cues that gave the kind)."""
    question = question_text(question)
    fired: list = []
    read = _read(answer_text(text), question, fired)
    _, kinds = _decide(read, read_question(question))
    if cues:
        return [(clause, kind, names) for (clause, _, _, _), kind, names in zip(read, kinds, fired)]
    return [(clause, kind) for (clause, _, _, _), kind in zip(read, kinds)]


# -- stage clause in context: a clause read with the one before it --------------------------------------
# each cue's condition besides its pattern, on (clause, kind, previous clause's kind, (kind, sentence)
# of the last clause outside brackets, sentence)
_IN_CONTEXT = {
    # "your question asks about X, which is a different role" (not "which would be June 10th": a
    # value worked out from it)
    "relative-after-context": lambda clause, kind, prev, last, s: prev == "context" and kind == "content"
    and not rules.NUMBER.search(clause),
    # "The passage is about Krishnakumar Kunnath, an Indian playback singer": an appositive to a report
    "appositive-after-context": lambda clause, kind, prev, last, s: prev == "context" and last == ("context", s)
    and kind == "content" and len(clause.split()) <= 4 and not rules.NUMBER.search(clause),
    # "You mentioned three sessions in one message and five in another"
    "evidence-more": lambda clause, kind, prev, last, s: last == ("context", s) and kind in ("content", "guess"),
}


def _context_test(cue: dict):
    when, tests = _IN_CONTEXT.get(cue["name"]), _matches(cue)
    # a cue without patterns fires on its condition alone
    return when and (lambda *args: when(*args) and (not tests or any(t(args[0]) for t in tests)))


_CONTEXT_STEPS = steps(_stage("clause in context"), _context_test, CLAUSE_KINDS)


# -- stage question: a clause's kind read against what the question asks ------------------------------
class _Against(NamedTuple):
    """What the question cues read besides the clause and its kind."""
    asked: Asked
    opening: bool           # the clause is in the reply's first sentence that says anything
    rest: str               # what follows the clause in its sentence
    enough: int             # how many of the question's naming words name what was asked
    wanted: list            # the kinds of value asked for, of amount / clock / year / date
    before: str             # what precedes the clause in its sentence (_before)


def _overlap(clause: str, asked: Asked) -> int:
    """How many of the question's naming words `clause` repeats."""
    return len(content_stems(clause) & asked.words)


def _before(read: list[tuple[str, str, int, bool]], i: int) -> str:
    """What precedes clause `i` in its sentence, at most rules.ANTECEDENT_CLAUSES clauses (where a
    decline that points back finds what it names; the bound keeps a huge sentence linear)."""
    s = read[i][2]
    return " ".join(c for c, _, s2, _ in read[max(0, i - rules.ANTECEDENT_CLAUSES):i] if s2 == s)


def _names_count(clause: str, asked: Asked) -> bool:
    """Whether a clause names the count a question asks for: "how many men" when asked how many men."""
    counted = rules.HOW_MANY.search(clause) if "amount" in asked.kinds else None
    return counted is not None and bool(content_stems(counted.group(1)) & asked.words)


def _names_asked(clause: str, q: "_Against") -> bool:
    """Whether a decline names what was asked: enough of the question's naming words (one, for a
    decline "at all") or its focus, in the clause or, when the clause points back ("... and the passage doesn't provide that
    information"), in what precedes it in its sentence ("The question asks for the county, ...")."""
    named = clause + " " + q.before if rules.POINTS_BACK.search(clause) else clause
    # "... but it doesn't mention the Philippines at all": what the question is about never came up
    enough = 1 if rules.AT_ALL.search(clause) else q.enough
    return _overlap(named, q.asked) >= enough or bool(names_focus(named, q.asked)) or _names_count(clause, q.asked) \
        or rules.INABILITY_BACK.search(clause) is not None


_AGAINST = {
    "declines-total": lambda clause, kind, q: kind in ("caveat", "decline") and "total" in q.asked.kinds
    and rules.TOTAL.search(clause) and not rules.CERTAINTY.search(clause),
    "counts-none": lambda clause, kind, q: kind == "refuse" and bool(q.asked.kinds & {"amount", "exists"})
    and (rules.ABSENT_IN_SOURCE.search(clause) is not None or rules.SEE_NONE.search(clause) is not None),
    "declines-asked": lambda clause, kind, q: kind in ("refuse", "hedge")
    and (not rules.PRECISION.search(clause) or rules.UNSURE_WHICH.search(clause) is not None)
    and _names_asked(clause, q),
    "time-frame": lambda clause, kind, q: kind in ("content", "guess") and not q.asked.kinds & {"amount", "clock", "date"}
    and rules.WORKED_OUT.search(clause) and rules.VALUES["date"].search(clause),
    "no-value": lambda clause, kind, q: q.wanted and (kind in ("commit", "guess") or (kind == "content" and q.opening))
    and not any(rules.VALUES[k].search(clause + " " + q.rest) for k in q.wanted),
    "reports-asked": lambda clause, kind, q: kind == "context" and q.opening and not rules.QUESTION_SAYS.match(clause)
    and (_overlap(clause, q.asked) >= q.enough or "says" in q.asked.kinds)
    and (not q.wanted or any(rules.VALUES[k].search(clause) for k in q.wanted)),
}
_QUESTION_STEPS = steps(_stage("question"), lambda cue: _AGAINST.get(cue["name"]), ("decline", "report", "none"))
# the kinds the decision reads: declines of the answer itself (they override what was answered before
# them), all declines, and content (what answers first or reverses a decline)
ANSWER_DECLINES = ("decline", *(s.name for s in _QUESTION_STEPS if s.effect == "decline"))
DECLINES = (*ANSWER_DECLINES, "refuse", "hedge", "caveat")
REPORTS = tuple(s.name for s in _QUESTION_STEPS if s.effect == "report")
CONTENT = ("content", *REPORTS)


def _wanted(asked: Asked) -> list[str]:
    """The kinds of value the question asks for, of amount / clock / year / date (a year asked is
    the value wanted, not any date word)."""
    kinds = [k for k in ("amount", "clock", "year", "date") if k in asked.kinds]
    return [k for k in kinds if k != "date"] if "year" in kinds else kinds


def against_question(clause: str, kind: str, asked: Asked, *, opening: bool = False, rest: str = "",
                     before: str = "") -> str:
    """A clause's kind read against what the question asks (`opening`: the clause is in the
    reply's first sentence that says anything; `rest` and `before`: what follows and precedes it in
    its sentence): the first
    question cue of the table that fires gives the clause a kind named after the cue; otherwise
    the kind is unchanged. The cues (refusal_cues.json, stage "question"):
    - 'declines-total': a caveat or a decline that names the total when a total was asked ("A full
      total cannot be determined", "I don't have enough information to give a complete total"): a
      partial sum is no answer, so it declines like a decline of the answer itself, even after a
      concluded sum;
    - 'declines-asked': a refusal or hedge that repeats what the question asks about (at least
      ASKED_OVERLAP of its naming words) and does not merely doubt the value's precision
      ("There is no mention of autographed footballs" when asked how many autographed footballs);
      it declines over an earlier answer that repeats fewer of them (see _decide);
    - 'time-frame': a date worked out from the question's time words ("a week ago, which would be
      around June 15") when no date, time or number was asked: it answers nothing;
    - 'no-value': content in the opening without a value of the kind asked (no number when a
      count was asked, no clock time when a time was asked, nothing dated when a date was
      asked): it does not answer first; a conclusion or a guess without one (in what is left of
      its sentence) answers nothing;
    - 'reports-asked': evidence in the opening that repeats what was asked with a value of the
      kind asked ("You mentioned visiting 3 different doctors" when asked how many): it answers
      first, like content."""
    q = _Against(asked, opening, rest, min(rules.ASKED_OVERLAP, len(asked.words)) or rules.ASKED_OVERLAP,
                 _wanted(asked), before)
    return next((step.name for step, _ in firing(_QUESTION_STEPS, clause, kind, q)), kind)


def _read(text: str, question: str | None = None, fired: list | None = None) -> list[tuple[str, str, int, bool]]:
    """(clause, kind, sentence number, inside brackets) for each clause of `text`, read against
    `question` when there is one (`fired`, when given, gets each clause's cue names)."""
    out, prev, lead, last = [], None, False, (None, None)     # last: (kind, sentence) of the last clause outside brackets
    for clause, is_question, sentence, aside in clauses(text):
        kind, cues = clause_cues(clause, asked=is_question, after="lead" if lead else prev)
        for step, _ in firing(_CONTEXT_STEPS, clause, kind, prev, last, sentence):
            kind, cues = step.effect, cues + (step.name,)
            break
        if fired is not None:
            fired.append(cues)
        out.append((clause, kind, sentence, aside))
        if rules.CONCLUSION.fullmatch(clause):
            lead = True             # "Therefore," / "Total:" opens the clauses after it ...
        elif kind != "filler":
            lead = False            # ... up to the first that is not filler
        prev = kind
        if not aside:
            last = (kind, sentence)
    asked = read_question(question)
    if asked is not None:
        opening = next((s for _, kind, s, aside in out if kind != "filler" and not aside), None)
        rest, rest_sentence, read = "", None, []
        for i in range(len(out) - 1, -1, -1):       # rest: what follows the clause in its sentence
            c, k, s, a = out[i]
            if s != rest_sentence:
                rest, rest_sentence = "", s
            read.append((c, against_question(c, k, asked, opening=s == opening, rest=rest, before=_before(out, i)), s, a))
            rest = f"{c} {rest}"
        if fired is not None:       # a kind the question decided is a cue of its own
            fired[:] = [cues + ((new[1],) if new[1] != old[1] else ()) for cues, old, new in zip(fired, out, read[::-1])]
        out = read[::-1]
    return out


# -- stage decide: the clauses, read in order, leave the reply declining or answering -------------------
def _contrast_led(read: list[tuple[str, str, int, bool]]) -> set[int]:
    """The sentences that open with a contrast ("However, ...", "Based on the photo, though, ...",
    "But ...") and hold no decline: what they state holds instead of a decline before them."""
    led, seen, reports, offered = set(), set(), set(), set()
    for clause, kind, s, _ in read:
        if s in seen:
            continue
        if rules.CONTRAST.match(clause) or clause in ("though", "although") or rules.CONTRAST_OPEN.match(clause):
            led.add(s)
        if kind == "filler" and s not in seen and _points_elsewhere(clause):
            offered.add(s)          # "However, you can reach out to their office, which opens at 8:30"
            seen.add(s)
        if kind != "filler":
            seen.add(s)             # only the sentence's leading fillers and first clause count
            if kind == "context":
                reports.add(s)      # "However, the most recent message is from June 15, where ...": evidence
    # ... unless a value is worked out from it: "That said, you mentioned the weekend after your
    # birthday, which would be June 10th"
    reports -= {s for clause, _, s, _ in read if rules.WORKED_OUT.search(clause)}
    general = {s for clause, _, s, _ in read if rules.GENERAL_REMARK.search(clause)}
    return led - reports - offered - general - {s for _, kind, s, _ in read if kind in DECLINES}


def _points_elsewhere(clause: str) -> bool:
    """An offer or a pointer elsewhere (clause cues 'offer', 'pointer')."""
    return any(p.match(clause) for p in (rules.OFFER, rules.POINTER))


class _Decision:
    """The reply's stance as the decide cues read it, clause by clause."""

    def __init__(self, read: list[tuple[str, str, int, bool]], asked: Asked | None, cut: bool = False):
        self.read, self.asked, self.led, self.cut = read, asked, _contrast_led(read), cut
        self.opening = next((s for _, kind, s, aside in read if kind != "filler" and not aside), None)
        self.state, self.declined_at, self.concluded, self.settled = None, None, False, False
        self.off_target = False         # the decline named something, but nothing the question asks about
        # the question's words the answer's sentence repeated, whether it picked (a choice), whether
        # it was a report given first ("You mentioned ...")
        self.answered, self.picked, self.reported = frozenset(), False, False
        self.answered_at = None         # the sentence of the answer
        self.focused = frozenset()      # the focus words of the question that the answer's sentence named
        # per sentence, the index of its last decline and of its last statement (one pass, so that a
        # sentence of thousands of clauses is read in linear time)
        self.last_decline, self.last_statement, self.consequence = {}, {}, {}
        self.opens = {}                 # per sentence, the index of its first clause that is not filler
        self.last_stance = -1           # the last clause that takes a stance: where the reply ends up
        for j, (clause, kind, s, aside) in enumerate(read):
            if kind != "filler":
                self.opens.setdefault(s, j)
            if not aside and kind not in ("filler", "context", "no-value", "time-frame"):
                self.last_stance = j
            if kind in DECLINES:
                self.last_decline[s] = j
                if kind != "caveat" and rules.CONSEQUENCE.match(clause):
                    self.consequence[s] = j     # "..., so I can't read the number"
            if kind in (*CONTENT, "context") and not rules.GENERAL_REMARK.search(clause):
                self.last_statement[s] = j
        first = [clause for clause, _, s, _ in read if s == self.opening]
        self.verdict = len(first) == 1 and rules.WHOLE.match(first[0]) is not None   # "Unanswerable." opens it

    def answer_in(self, s: int) -> tuple[frozenset, bool, frozenset]:
        """(the question's words that sentence `s` repeats, whether it picks one of a choice's
        options, the question's focus words it names), read on its statements (declines left out)."""
        if self.asked is None:
            return frozenset(), False, frozenset()
        said = " ".join(c for c, k, s2, _ in self.read if s2 == s and k not in DECLINES)
        return content_stems(said) & self.asked.words, rules.COMPARE.search(said) is not None, names_focus(said, self.asked)

    def asked_is_choice(self) -> bool:
        return self.asked is not None and "choice" in self.asked.kinds

    def names_more(self, i: int, clause: str) -> bool:
        """Whether a decline (clause `i`) names more of what was asked than the answer did: more of
        the question's words, or (after a reported answer) one that the report did not."""
        if rules.WHICH_BACK.search(clause) and self.answered_at is not None \
                and (self.read[i][2] == self.answered_at or self.opens.get(self.read[i][2]) == i):
            return True                         # "The EU has numerous programmes, but it does not specify which ones"
        if _names_count(clause, self.asked) or rules.INABILITY_BACK.search(clause):
            return True                         # "... two new regiments. It doesn't specify how many men were in each",
                                                # "The car is on screen for a couple of frames. I can't read any of it."
        if rules.POINTS_BACK.search(clause):    # "... and the passage doesn't provide that information"
            clause = f"{_before(self.read, i)} {clause}"
        named = content_stems(clause) & self.asked.words
        return len(named) > len(self.answered) or (self.reported and bool(named - self.answered)) \
            or ("choice" in self.asked.kinds and not self.picked) or bool(names_focus(clause, self.asked) - self.focused)

    def misses_question(self, clause: str, kind: str) -> bool:
        """Whether a refusal names a thing of its own that is none of what the question asks about
        ("The passage does not mention Fiji" when asked where Anna went)."""
        return self.asked is not None and kind == "refuse" and any(p.search(clause) for p in rules.REFUSE["refuse-source"]) \
            and bool(content_stems(clause)) and not content_stems(clause) & self.asked.words \
            and not names_focus(clause, self.asked)

    def states_question(self, clause: str) -> bool:
        """Whether a clause is a statement of its own (not "including ...", "such as ...") that names
        what the question asks about."""
        return self.asked is not None and not rules.CONTINUATION.match(clause) \
            and bool(content_stems(clause) & self.asked.words or names_focus(clause, self.asked))

    def declines_later(self, i: int, s: int) -> bool:
        """Whether a decline follows clause `i` in its sentence `s`."""
        return self.last_decline.get(s, -1) > i

    def ends_declining_asked(self, i: int, clause: str) -> bool:
        """Whether clause `i`, the reply's last stance, declines what was asked: it names one of the
        question's words or its focus, says the speaker cannot read or make out the thing, draws a
        consequence ("so I can't say how it went"), names more of what was asked than the answer did, or as
    many and one it did not ("The video shows a woman in a kitchen. Her name is not said.")."""
        if i != self.last_stance or self.asked is None or self.cut or self.committed():
            return False
        named = content_stems(clause) & self.asked.words
        return rules.INABILITY_BACK.search(clause) is not None or rules.CONSEQUENCE.match(clause) is not None \
            or self.names_more(i, clause) or bool(named - self.answered) and len(named) >= len(self.answered)

    def committed(self) -> bool:
        """Whether the answer so far committed: a yes or no first, or a value of the kind asked."""
        if self.read and self.read[0][0] in ("yes", "no", "yeah", "yep", "nope"):
            return True
        said = " ".join(c for c, k, s, _ in self.read if s == self.answered_at and k not in DECLINES)
        return any(rules.VALUES[k].search(said) for k in _wanted(self.asked))

    def declined_as_consequence(self, i: int, s: int) -> bool:
        """Whether a decline that draws a consequence ("so I can't read it") follows clause `i` in `s`."""
        return self.consequence.get(s, -1) > i

    def states_later(self, i: int, s: int) -> bool:
        """Whether a statement (content or a report, no general remark) follows clause `i` in `s`."""
        return self.last_statement.get(s, -1) > i


# (decision, clause index, clause, its kind so far, sentence, inside brackets)
_DECIDE = {
    # a decline settled by an offer of general information: what follows is general
    "settled": lambda d, i, clause, kind, s, aside: d.settled,
    "general-after-decline": lambda d, i, clause, kind, s, aside: d.state == "decline"
    and rules.GENERAL_OFFER.match(clause) is not None and (d.asked is None or "procedure" not in d.asked.kinds),
    # "Unanswerable. The passage mentions ...": what follows a bare verdict is its reasoning
    "verdict-first": lambda d, i, clause, kind, s, aside: d.state == "decline" and d.verdict and d.declined_at == d.opening
    and s != d.opening,
    # "... However, the passage doesn" where the reply was cut at its length limit: a refusal begun
    "cut-negation": lambda d, i, clause, kind, s, aside: d.cut and i == len(d.read) - 1 and kind not in DECLINES
    and rules.CUT_NEGATION.search(clause) is not None,
    # "... Therefore, a good answer would be" where the reply was cut at its length limit
    "cut-off": lambda d, i, clause, kind, s, aside: d.cut and i == len(d.read) - 1 and kind not in DECLINES,
    # "Although the exact island isn't specified, Anna went to Indonesia": the sentence states it
    "conceded-decline": lambda d, i, clause, kind, s, aside: kind in ("refuse", "hedge", "declines-asked")
    and rules.CONCESSION.match(clause) is not None
    and d.states_later(i, s),
    # "(around March 15)", "(not a friend)": an aside takes no stance
    "aside": lambda d, i, clause, kind, s, aside: aside and kind != "filler",
    # "... I can see a 4 at the left edge. I can't make out the rest of it.": the reply ends declining
    # what was asked, after a description or a partial reading that concluded nothing
    "final-decline": lambda d, i, clause, kind, s, aside: kind in ("refuse", "hedge", "decline", "declines-asked")
    and d.state == "answer" and not d.concluded and not rules.PRECISION.search(clause) and not rules.CAVEAT.search(clause)
    and not rules.CERTAINTY_OF.search(clause) and not d.asked_is_choice()
    and d.ends_declining_asked(i, clause),
    # the answer named the asked thing as fully: a detail
    "detail-after-answer": lambda d, i, clause, kind, s, aside: kind == "declines-asked" and d.state == "answer"
    and not d.names_more(i, clause),
    # "... likely above 1300. I cannot provide an exact number."
    "precision-after-conclusion": lambda d, i, clause, kind, s, aside: kind == "decline" and d.concluded
    and rules.PRECISION.search(clause),
    "declines-answer": lambda d, i, clause, kind, s, aside: kind in ANSWER_DECLINES,
    "declines-first": lambda d, i, clause, kind, s, aside: kind in DECLINES and d.state is None,
    "commit-answers": lambda d, i, clause, kind, s, aside: kind in ("commit", "guess"),
    # answered first; a later decline of a detail keeps it
    # "While NASA has made advances in many fields, I have no information on its role in X": the
    # concession is background to the decline of its own sentence
    "concession-before-decline": lambda d, i, clause, kind, s, aside: kind in CONTENT and d.state is None
    and rules.CONCESSION.match(clause) is not None and d.declines_later(i, s),
    # "What did you suggest?" "I don't see that conversation. If you'd like, here are a few options: ...":
    # what follows a decline is fresh, not what was said before
    "fresh-after-decline": lambda d, i, clause, kind, s, aside: d.state == "decline" and d.asked is not None
    and "recall" in d.asked.kinds and kind not in DECLINES,
    # "The plate is mostly hidden behind the truck's bumper, so I can't read the number": the reason for
    # a decline its sentence concludes with
    "reason-before-decline": lambda d, i, clause, kind, s, aside: kind in (*CONTENT, "guess") and d.state is None
    and d.declined_as_consequence(i, s),
    "answers-first": lambda d, i, clause, kind, s, aside: kind in CONTENT and d.state is None and s == d.opening,
    # "The passage does not mention the River Irk, but rather the River Irwell"
    "instead-of-asked": lambda d, i, clause, kind, s, aside: kind in CONTENT and d.state == "decline"
    and s == d.declined_at and not d.off_target and rules.INSTEAD.match(clause) is not None,
    # "However, the closest match is ..."
    "contrast-led": lambda d, i, clause, kind, s, aside: kind in CONTENT and d.state == "decline" and s in d.led,
    # "The passage does not mention Fiji; Anna went to Bali."
    "answers-after-off-target": lambda d, i, clause, kind, s, aside: kind in CONTENT and d.state == "decline"
    and d.off_target and d.states_question(clause),
    # "... but she went in May"
    "narrated": lambda d, i, clause, kind, s, aside: kind in CONTENT and d.state == "decline"
    and s == d.declined_at and rules.NARRATIVE.match(clause),
    # "The cause was unknown, but the diagnosis was a sprain."
    "contrast-in-sentence": lambda d, i, clause, kind, s, aside: kind in CONTENT and d.state == "decline"
    and s == d.declined_at and rules.CONTRAST_OPEN.match(clause) and not d.declines_later(i, s),
}
_DECIDE_STEPS = steps(_stage("decide"), lambda cue: _DECIDE.get(cue["name"]), ("none", "decline", "answer", "settle", *CLAUSE_KINDS))


def _decide(read: list[tuple[str, str, int, bool]], asked: Asked | None = None,
            fired: list | None = None, cut: bool = False) -> tuple[bool, list[str]]:
    """(True when the clauses, read in order, leave the reply declining (see the module docstring),
    the kind each clause had in the decision). Each clause goes through the decide cues in table
    order: a cue whose effect is a clause kind reads the clause on as that kind ('detail-after-
    answer': a 'declines-asked' clause after an answer that repeated as much of the question is a
    detail, 'refuse'; 'precision-after-conclusion': a decline of precision only after a concluded
    answer is a 'caveat'); the first cue with effect `none`, `decline`, `answer` or `settle` ends the
    clause's reading (`decline` and `answer` set the reply's stance so far; `settle` keeps it for
    the rest of the reply: 'general-after-decline')."""
    d, note = _Decision(read, asked, cut), noter(fired)
    kinds = [kind for _, kind, _, _ in read]
    for i, (clause, _, s, aside) in enumerate(read):
        for step in _DECIDE_STEPS:
            if not step.test(d, i, clause, kinds[i], s, aside):
                continue
            note(step.name)
            if step.effect == "decline":
                d.off_target = d.state is None and d.misses_question(clause, kinds[i])
                d.state, d.declined_at, d.concluded = "decline", s, False
            elif step.effect == "answer":
                kind = kinds[i]
                d.reported = d.state is None and kind in REPORTS
                d.state, d.answered_at, (d.answered, d.picked, d.focused) = "answer", s, d.answer_in(s)
                d.concluded = kind == "commit" or d.concluded
            elif step.effect == "settle":
                d.settled = True
            elif step.effect != "none":
                kinds[i] = step.effect
                continue
            break
    return d.state == "decline", kinds


# -- stage reply: the whole reply -------------------------------------------------------------------------
class _Reply:
    """A reply as the whole-reply cues read it; its clauses are read when a cue (or the decision)
    first asks for them, and their cues are noted then."""

    def __init__(self, text: str, question: str | None, fired: list | None):
        self.text, self.question, self.fired, self._read = text, question, fired, None

    @property
    def read(self) -> list[tuple[str, str, int, bool]]:
        if self._read is None:
            noted = [] if self.fired is not None else None
            self._read = _read(self.text, self.question, noted)
            if noted:
                self.fired.extend(name for cues in noted for name in cues)
        return self._read


def _yes_no_reason(r: _Reply) -> bool:
    """"No, there is no information indicating she is": a yes/no answer, with its reason ("None.
    The memories do not mention them visiting any city together.")."""
    read = r.read
    return len(read) > 1 and read[0][0] in ("no", "nope", "none") and read[1][1] in ("refuse", "decline", "declines-asked") \
        and len(read[1][0].split()) >= 3 and not rules.PARTICIPANT.search(read[1][0])


def _final_answer(r: _Reply) -> str | None:
    """What follows the last explicit final answer ("Answer:", "the answer is"; on the label's line,
    up to a blank line), when it says anything. A reply cut at its length limit inside it: when it stops inside a refusal
    word ("the answer is "unanswer"), that word; when what is left names nothing ("Therefore, the
    answer is: **The"), what came before the label."""
    labels = list(rules.FINAL_ANSWER.finditer(r.text))
    if labels and labels[-1].start() > 0 and re.search(r"\w", r.text[labels[-1].end():]):
        # an answer on the label's own line is its paragraph: "Answer: X\n\nIt's designed to test ..."
        # goes on with commentary (after a label that ends its line, a heading, all of what follows)
        after = r.text[labels[-1].end():]
        if re.search(r"\w", after.split("\n", 1)[0]):
            after = re.split(r"\n\s*\n", after.strip(), maxsplit=1)[0]
        said = normalize_answer(after)
        at_end = said == normalize_answer(r.text[-len(after):])
        if at_end and (len(said) >= 4 and any(w.startswith(said) and w != said for w in rules.WHOLE_WORDS)
                       or is_cut(r.text) and rules.CUT_NEGATION.search(said)):
            return "unknown"                    # cut inside a refusal: "the answer is "unanswer", "... is not"
        if rules.ANSWER_NOT_GIVEN.match(said):
            # "Therefore, the answer is not explicitly stated in (the passage)": the answer declines,
            # unless its paragraph goes on ("... not given in the options. However, the closest is C")
            return after if len({sentence for _, _, sentence, _ in clauses(after)}) > 1 else "unknown"
        if not content_stems(said) and not rules.NUMERAL.search(said) and not rules.WHOLE.match(said) \
                or at_end and is_cut(r.text) and set(said.split()) <= rules.CUT_SOURCE_ONLY:
            # cut before it names anything: "the answer is: **The", "the answer is: **The passage does"
            return r.text[:labels[-1].start()]
        return after
    return None


def _asks_for_context(r: _Reply) -> bool:
    """"To answer accurately, I would need more context about who John is. If you have details,
    please share them!": a reply that asks for more information and takes no stance anywhere (no
    answer, guess or decline in any clause) declines."""
    if not rules.ASKS_FOR_CONTEXT.search(normalize_answer(r.text)):
        return False
    return all(kind in ("filler", "context") for _, kind, _, _ in r.read)


_WHOLE_REPLY = {
    "asks-for-context": _asks_for_context,
    "no-trigger": lambda r: not rules.TRIGGER.search(normalize_answer(r.text)),
    "final-answer": _final_answer,
    "yes-no-reason": _yes_no_reason,
}
_REPLY_STEPS = steps(_stage("reply"), lambda cue: _WHOLE_REPLY.get(cue["name"]), ("answer", "decline", "read"))


def _judge(text: str, question: str | None = None, fired: list | None = None) -> bool:
    """The verdict on a reply, read through the stages of the cue table in order (`fired`, when
    given, gets the name of each cue that fired): the whole-reply cues, then the decision over the
    clauses (read by the clause, clause-in-context and question cues)."""
    r = _Reply(text, question, fired)
    for step, found in firing(_REPLY_STEPS, r):
        noter(fired)(step.name)
        if step.effect == "read":
            return _judge(found, question, fired)       # e.g. what follows the last "Answer:" decides
        return step.effect == "decline"
    return _decide(r.read, read_question(question), fired, cut=is_cut(text))[0]


def is_cut(text: str) -> bool:
    """Whether a reply looks cut at its length limit: a long reply (CUT_MIN_WORDS words or more)
    that does not end a sentence."""
    return len(text.split()) >= rules.CUT_MIN_WORDS and not rules.SENTENCE_CLOSE.search(text.rstrip())


@lru_cache(maxsize=4096)
def _is_refusal_text(text: str, question: str | None = None) -> bool:
    return _judge(text, question)


def trace(text: object, question: object = None) -> list[str]:
    """The names of the cues (refusal_cues.json) that fired reading `text`, in reading order."""
    fired: list[str] = []
    _judge(answer_text(text), question_text(question), fired)
    return fired


def rules_verdict(text: object, question: object = None) -> bool:
    """The phrase rules' verdict alone (what `is_refusal` returned before the learned model joined
    it): what the letter reader and the gold-text rule ask, and what each round's tests read."""
    return _is_refusal_text(answer_text(text), question_text(question))


def reading(text: object, question: object = None) -> dict:
    """How `is_refusal` decided: {"rules": the phrase rules' verdict, "model": the linear model's
    log-odds (refusal_model.py), "encoder": the encoder's (refusal_encoder.py; None when not
    asked), "refusal": the verdict, "decided_by"}. Three readers vote: where the rules and the
    linear model agree they decide ("rules+model") and the encoder is not asked; where they
    disagree the encoder breaks the tie ("encoder"). An empty reply is not a refusal
    ("decided_by": "empty")."""
    from evaluator.scoring import refusal_encoder, refusal_model

    reply, asked = answer_text(text), question_text(question)
    rules_say = _is_refusal_text(reply, asked)
    if not reply.strip():
        return {"rules": rules_say, "model": None, "encoder": None, "refusal": False, "decided_by": "empty"}
    model_says = round(refusal_model.log_odds(reply, asked), 4)
    if (model_says > 0) == rules_say:
        return {"rules": rules_say, "model": model_says, "encoder": None, "refusal": rules_say,
                "decided_by": "rules+model"}
    encoder_says = refusal_encoder.log_odds(reply, asked or None)
    return {"rules": rules_say, "model": model_says, "encoder": encoder_says, "refusal": encoder_says > 0,
            "decided_by": "encoder"}


@lru_cache(maxsize=4096)
def _combined(text: str, question: str | None) -> bool:
    return reading(text, question)["refusal"]


def is_refusal(text: object, question: object = None) -> bool:
    """True when the reply declines to answer or says the information is not available. Pass the
    `question` when there is one: what it asks decides some replies (see the module docstring).
    The phrase rules, a linear model over words (refusal_model.py) and a fine-tuned encoder
    (refusal_encoder.py) vote; `reading` shows each. For replies to open questions: multiple-choice replies and
    reference answers are read by `rules_verdict`."""
    return _combined(answer_text(text), question_text(question))


# The reader's false refusals on hedged answers (answers that hold a negation word: "the passage does
# not mention X. However, it says Y") of real chat models, on its last blind set (draw 16,
# chat-heldout-13; docs/scoring.md "The encoder"). A run's header quotes it wherever the
# reader, not a judge, decided refusals; tests/test_scoring_quality.py ties it to the measurement.
HEDGED_MISREAD = {"misread": 7, "of": 57, "set": "draw 16"}


@lru_cache(maxsize=1)
def rules_version() -> str:
    """12 hex digits of sha256 over the refusal reader's rules: the cue table (each cue's name,
    stage, effect, match, condition and caveat flag, in order; not its prose or examples), the word
    lists and patterns (refusal_cues.py) and the engine's source (this module, refusal_text.py and
    cue_engine.py).
    results.json records it per run under `rules_versions.refusal`."""
    table = [[c["name"], c["stage"], c["effect"], c.get("match"), c.get("when"), c.get("caveat")] for c in CUES]
    here = Path(__file__).parent
    return digest(table, [here / f"{name}.py" for name in ("refusal", "refusal_text", "refusal_cues", "cue_engine",
                                                            "refusal_model", "refusal_encoder")]
                  + [here / "refusal_model.json", here / "refusal_encoder.npz"])
