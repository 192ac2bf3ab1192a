"""Refusal detection: does a reply (or a gold answer) decline, or say the history does not tell?

The detector reads the reply clause by clause (split at sentence punctuation, commas, semicolons,
colons, dashes and brackets) and gives each clause one of five kinds:

- refuse: the speaker or the memory declines: the speaker does not know / remember / recall /
  have a record ("I can't remember", "I have no idea", "I'm not aware of that"), the information
  was not mentioned / discussed / specified / given ("It isn't mentioned", "That wasn't
  discussed", "No specific date mentioned.", "No specific activity with her dad is mentioned in the
  memories", "None explicitly mentioned.", "No specific mentions."), anyone did not mention it in a
  source ("Caroline did not mention running in her memories"), a source does not say ("The conversation doesn't mention it", "You never told me
  that", "The images do not show the brand"), there is no record / information / way to know,
  the information is insufficient or incomplete, it cannot be determined or answered, or the
  whole clause is "Unknown", "N/A", "idk", "Unanswerable" ...;
- hedge: the speaker is unsure ("I'm not sure", "Hard to say", "It's unclear");
- guess: the clause still gives an answer ("I think it was May", "probably the red one",
  "it was in autumn");
- filler: nothing either way ("Sorry", "Unfortunately", "Based on our conversation", "though",
  a question back to the user); what the user or the question said ("You mentioned a trip, but
  ...", "The question refers to an accident, but ...") is context, neither;
- content: anything else.

Who is unsure matters: a refusal is always the speaker's (I / we), the user's ("you never told
me"), or a source's (it, that, the conversation, the photos ...); "She was not sure about the
job", "The results were unclear" and "The cause is unknown to her doctor" talk about a third party
and answer the question.

A reply that opens with a bare "No" and gives a reason of three words or more that is not the
speaker or the user ("No, there is no information indicating she is", "No, no mention of
employees"; not "No, not specified", "No, I don't know", "No, you never told me") answers a yes/no
question. When the reply ends with
an explicit "Answer: ..." ("... **Answer:** No gift from grandpa is
mentioned."), what follows the last such label decides. Otherwise the reply is a refusal when it
has a refuse or hedge clause, no content or guess before the first
of them (an answer followed by "although the day isn't mentioned" is an answer), and no guess or
narrated answer after it ("I don't remember exactly, but it was in May" answers; "I don't know,
though." and "I can't remember, but you could check your calendar" do not). An empty reply is not
a refusal (it is simply a wrong answer).

Measured on tests/data/refusal_labels.jsonl (hand-written) and tests/data/refusal_real_labels.jsonl
(real replies of mem0's answering model to LoCoMo questions): bench/scoring_quality.py prints the
agreement on each tuning split and each held-out split, which was labelled before the rules it
measures and never tuned on.
"""

from __future__ import annotations

import re
from functools import lru_cache

from evaluator.scoring.metrics import answer_text, normalize_answer

# -- vocabulary ------------------------------------------------------------------------------------
_ADV = r"(?:really|honestly|just|simply|truly|actually|even|ever|exactly|explicitly|clearly|directly|yet|specifically|quite|fully|completely|precisely|currently|unfortunately|personally|still)"
_ADVS = rf"(?:{_ADV}\s+){{0,2}}"
_NEG_MODAL = (r"(?:do not|dont|did not|didnt|does not|doesnt|cannot|cant|can not|could not|couldnt|"
              r"am unable to|m unable to|am not able to|m not able to|im unable to|im not able to|"
              r"unable to|wont be able to|will not be able to|have no way to|never)")
_KNOW_VERBS = (r"(?:know|remember|recall|recollect|say|tell|determine|answer|find|see|confirm|verify|"
               r"access|locate|be certain|be sure|tell you|help with that|retrieve|identify)")
_PARTICIPLES = (r"(?:mentioned|discussed|specified|stated|provided|given|shared|covered|recorded|told|"
                r"indicated|included|disclosed|brought up|talked about|said|noted|addressed|shown|"
                r"visible|answered|clarified|known|revealed|documented|described|captured|listed|"
                r"explained|established|confirmed)")
_SOURCE = (r"(?:conversations?|chats?|history|dialogues?|dialogs?|documents?|docs?|images?|photos?|"
           r"pictures?|videos?|messages?|records?|texts?|transcripts?|logs?|memory|memories|context|"
           r"files?|screenshots?|it|this|that|you|we|i|there)")
_NEG_DO = (r"(?:does not|doesnt|did not|didnt|do not|dont|never|has not|hasnt|have not|havent|"
           r"had not|hadnt|wont|will not)")
_SOURCE_VERBS = (r"(?:mention(?:ed|s)?|say|said|specif(?:y|ied)|state[sd]?|include[sd]?|provide[sd]?|"
                 r"contain(?:ed|s)?|cover(?:ed|s)?|show(?:n|ed|s)?|reveal(?:ed|s)?|indicate[sd]?|tell|told|"
                 r"give|gave|address(?:ed)?|discuss(?:ed)?|talk(?:ed)? about|share[sd]?|shared|"
                 r"bring up|brings? (?:\w+ )?up|brought (?:\w+ )?up|come up|came up|appear(?:ed|s)?|answer(?:ed|s)?|describe[sd]?|"
                 r"list(?:ed|s)?|touch(?:ed)? on|note[sd]?)")
_INFO = (r"(?:info|information|details?|records?|mentions?|data|knowledge|memory|recollection|"
         r"indications?|evidence|context|specifics|clues?|idea|references?)")
_FIRST = r"(?:i|we|im|i am|were|we are|ive|i have|weve|id|i would|me)"
_NEG_BE = (r"(?:(?:is|was|are|were|be|been|has been|have been|had been)\s+(?:not|never)(?:\s+been)?|"
           r"isnt|wasnt|arent|werent|hasnt been|havent been|hadnt been|never been|not been|aint)")

_REFUSE = [re.compile(p) for p in (
    # the speaker does not know / remember / ... ("I honestly can't remember", "we don't know")
    rf"\b{_FIRST}\s+{_ADVS}{_NEG_MODAL}\s+{_ADVS}{_KNOW_VERBS}\b",
    rf"\b(?:i|we)\s+{_ADVS}(?:do not|dont)\s+(?:think|believe)\s+(?:that\s+)?(?:you|we|it|that|this)\b.*\b(?:ever|never)\b",
    rf"\b(?:i|we)\s+{_ADVS}(?:do not|dont|did not|didnt)\s+(?:really\s+)?have\s+(?:any\s+|that\s+|this\s+|those\s+|such\s+|enough\s+|much\s+|a\s+|an\s+|the\s+|relevant\s+|specific\s+|clear\s+|access\s+to\s+)*(?:{_INFO}|access|that|it|this|answer|recollection)\b",
    rf"\b(?:i|we)\s+(?:have|had|ve)\s+(?:no|zero)\s+(?:\w+\s+)?{_INFO}\b",
    r"^(?:i\s+|we\s+|ive\s+|i have\s+|honestly\s+|sorry\s+|really\s+|absolutely\s+)?(?:got\s+)?no\s+(?:idea|clue|recollection|memory)\b",
    r"\b(?:i|we)\s+(?:was not|wasnt|were not|werent|have not been|havent been|was never|were never)\s+told\b",
    rf"\b(?:im|i am|we are|were|i was|i m)\s+{_ADVS}(?:not|un)\s*aware\b",
    rf"^{_ADVS}(?:not|un)\s*aware\b",
    rf"\b(?:i|we)\s+{_ADVS}(?:lack|am lacking|m lacking)\b",
    # the user never told ("You never told me that", "you didn't mention it")
    rf"\byou\s+{_ADVS}{_NEG_DO}\s+{_ADVS}{_SOURCE_VERBS}\b",
    r"\byou\s+(?:mentioned|talked about|told me about|said|shared|described|discussed)\b.*\b(?:but|though|yet)\s+(?:not|never|didnt|did not|without)\b",
    # a source does not say ("The conversation doesn't mention it", "the photos don't show it")
    rf"\b{_SOURCE}\b(?:\s+\w+){{0,3}}?\s+{_NEG_DO}\s+{_ADVS}{_SOURCE_VERBS}\b",
    rf"\b(?:none|nothing|no part|neither)\s+(?:of|in)\s+(?:\w+\s+){{0,3}}?{_SOURCE}\b",
    r"\bnothing\s+(?:about|on|regarding|concerning)\s+(?:that|this|it|the|him|her|them)\b",
    # anyone who did not mention it in a source: "Caroline did not mention running in her memories"
    rf"\b{_NEG_DO}\s+{_ADVS}(?:mention(?:ed|s)?|specif(?:y|ied|ies)|br(?:ing|ings|ought)\s+up|talk(?:ed|s)?\s+about)\b"
    rf".*\bin\s+(?:(?:her|his|their|the|our|your|my|any|provided|given)\s+)*{_SOURCE}\b",
    r"\b(?:conversations?|chats?|history|dialogues?|documents?|images?|photos?|pictures?|videos?|messages?)\s+(?:\w+\s+)?lacks?\b",
    # passive: "It isn't mentioned", "The date was never given", "Not specified in the chat"
    rf"\b{_NEG_BE}\s+{_ADVS}{_PARTICIPLES}\b",
    rf"^(?:(?:its|it is|it was|that is|thats|this is|this was|that was|was|is|were|are)\s+)?(?:not|never)\s+{_ADVS}{_PARTICIPLES}\b",
    rf"^none\s+{_ADVS}(?:given|provided|mentioned|specified|stated|shared|listed|found)\b",
    # a reduced passive: "No specific date mentioned.", "No car accident mentioned in the memories",
    # "No explicit disagreement found"
    rf"^(?:(?:so|and|but|therefore|hence|thus)\s+)?(?:there\s+(?:is|was|are|were)\s+)?no\s+(?:[\w-]+\s+){{0,6}}?"
    rf"(?:(?:is|was|are|were|has been|have been)\s+)?{_ADVS}(?:{_PARTICIPLES}|found|noted|reported)"
    rf"(?:\s+(?:in|from|by|about|on|for|within|before|after|during|since|until|at|regarding)\b.*)?$",
    # "Gina says nothing specific", "she mentioned nothing about it"
    r"\b(?:says?|said|mentions?|mentioned|gives?|gave|shares?|shared|tells?|told)\s+nothing\s+(?:specific|about|on|regarding|of)\b",
    # not in a source, or the source is empty: "The signup date is not available in the memories",
    # "The memories for Melanie are empty"
    rf"\b(?:is|was|are|were)\s+(?:not|never)\s+{_ADVS}(?:available|present|included|found|recorded|listed|there)\s+"
    rf"(?:in|from)\s+(?:the\s+|her\s+|his\s+|their\s+|our\s+|your\s+|my\s+|any\s+|provided\s+|given\s+)*{_SOURCE}\b",
    rf"^(?:(?:the|her|his|their|our|your|my)\s+)?{_SOURCE}\b(?:\s+[\w-]+){{0,3}}?\s+(?:is|are|was|were)\s+empty\b",
    r"\b(?:it|that|this|what)\s+(?:never|didnt|did not|hasnt|has not)\s+(?:\w+\s+)?(?:came|come) up\b",
    r"\bnever\s+(?:came|come)\s+up\b",
    r"\b(?:not|isnt|nt|never)\s+something\s+(?:that\s+)?(?:you|we|i|ive|youve|weve)\b",
    rf"\b(?:not|isnt)\s+(?:part|in|anywhere in)\s+(?:of\s+)?(?:our|any|these|your|my)?\s*(?:\w+\s+)?{_SOURCE}\b",
    rf"^not\s+in\s+(?:\w+\s+){{0,2}}?{_SOURCE}\b",
    # no record / information / way to know
    rf"\b(?:there is|theres|there are|there was|there were|i have|i see|i found|with|contains?|"
    rf"shows?|has|have|had|got|is|are|^)\s*(?:no|not any|not much|little|zero)\s+(?:\w+\s+)?{_INFO}\b",
    rf"\bno\s+{_INFO}\s+(?:of|about|on|regarding|concerning|in|available|given|provided|for|that|was|is|to|whatsoever|at all|mentioned|found)\b",
    rf"^no\s+(?:\w+\s+)?{_INFO}$",
    r"\bno\s+way\s+(?:to|of|for me to|i can)\s+(?:know|tell|say|determine|knowing|telling|saying|determining|be sure|confirm|find)\b",
    # insufficient / incomplete information
    rf"\b(?:not enough|(?:isnt|is not|wasnt|was not|arent|are not|werent|were not) enough|insufficient|inadequate|incomplete|limited|missing|lacking|lack of|lacks|without(?: more| enough| further| additional)?)\s+(?:\w+\s+)?(?:{_INFO}|context|data)\b",
    rf"\b{_INFO}\s+(?:\w+\s+){{0,2}}?(?:is|was|are|were|seems|appears)\s+(?:\w+\s+)?(?:incomplete|insufficient|not enough|missing|lacking|unavailable|not available|limited|inadequate)\b",
    rf"\b(?:that|this|the|such|this specific|that specific)?\s*{_INFO}\s+(?:isnt|is not|wasnt|was not|arent|are not)\s+(?:\w+\s+)?(?:available|accessible|there|known|present|included)\b",
    # cannot be determined / answered; impossible to tell
    rf"\b(?:cannot|cant|can not|could not|couldnt|unable to)\s+be\s+{_ADVS}(?:determined|answered|inferred|known|confirmed|verified|identified|established|deduced|said|told|found|specified|ascertained)\b",
    r"\b(?:impossible|not possible|hard|difficult|no way)\s+(?:for me\s+)?to\s+(?:\w+\s+)?(?:determine|tell|say|answer|know|infer|confirm|verify|identify|establish|be sure|find)\b",
    rf"\b(?:question|this|that|it)\s+(?:is|seems|appears)\s+{_ADVS}(?:unanswerable|not answerable|impossible to answer)\b",
    r"\b(?:unanswerable|not answerable|cannot answer|cant answer|beats me)\b",
    # it / that is unknown / unclear
    r"\b(?:it|its|it is|it was|this|that|thats|answer|information|date|details?)\s+(?:is\s+|was\s+|remains\s+|stays\s+|seems\s+|appears\s+)?(?:still\s+)?(?:unknown|not known)\b",
    r"\b(?:unknown|not known|unclear|not clear|uncertain)\s+(?:from|based on|given)\b",
    rf"\b(?:unknown|not known|unclear|not clear|uncertain)\s+in\s+(?:our|your|my|these|those|any)?\s*{_SOURCE}\b",
    r"\b(?:but|and|yet)\s+(?:cant|cannot|couldnt|could not|did not|didnt|was unable to)\s+(?:find|locate|see)\b",
    r"\b(?:is|remains|was)\s+(?:still\s+)?(?:unknown|not known)\s*$",
)]
_REFUSE_AFTER_CONTEXT = re.compile(r"^(?:but|though|yet|and)\s+(?:not|never|didnt|did not|without|nothing)\b")
_WHOLE = re.compile(
    r"^(?:unknown|not known|na|n a|idk|i dunno|dunno|no idea|no clue|unanswerable|not applicable|"
    r"no answer|beats me|cannot answer|cant answer|cannot say|cant say|none given|no comment|"
    r"nothing mentioned|no info|no information|no data|insufficient data|undetermined|"
    r"indeterminate|not determinable|cannot tell|cant tell|not mentioned|unmentioned|"
    r"not stated|not specified|not given|not provided|not discussed|never mentioned|"
    r"unclear|uncertain|unsure|not sure)$")
_HEDGE = [re.compile(p) for p in (
    rf"\b(?:im|i am|i m|were|we are|i was)\s+{_ADVS}(?:not|un)\s*(?:\w+\s+)?(?:sure|certain)\b",
    rf"\b(?:im|i am|i m|were|we are)\s+{_ADVS}uncertain\b",
    rf"^{_ADVS}(?:not|un)\s*(?:\w+\s+)?(?:sure|certain)\b",
    rf"^{_ADVS}uncertain\b",
    rf"\b(?:i|we)\s+{_ADVS}(?:cant|cannot|can not|couldnt|could not)\s+be\s+(?:\w+\s+)?(?:sure|certain)\b",
    rf"\b(?:i|we)\s+{_ADVS}(?:do not|dont|did not|didnt)\s+{_ADVS}(?:know|remember|recall)\b",
    r"^(?:its\s+|it is\s+|that is\s+|thats\s+)?(?:hard|difficult|tough|tricky)\s+to\s+(?:say|tell|know)\b",
    r"^(?:its\s+|it is\s+|it was\s+|that is\s+|thats\s+|this is\s+|answer is\s+|it remains\s+|that remains\s+)?(?:still\s+)?(?:unclear|not clear)\b",
    r"^(?:its\s+|it is\s+)?unknown$",
)]
_GUESS = re.compile(
    r"\b(?:i think|i believe|i guess|my guess|best guess|guess is|probably|likely|maybe|perhaps|"
    r"possibly|might have|may have|must have|could have been|might be|may be|could be|it was|it is|"
    r"its|it looks|looks like|seems|i recall|i remember|if i remember|if i recall|either|i would say|"
    r"id say|id guess|i suspect|presumably|most likely|around|about|roughly|approximately|"
    r"somewhere|sometime|i am fairly|im fairly|im pretty|i am pretty)\b")
_NARRATIVE = re.compile(
    r"^(?:(?:so|then|and|but|and then|which|because|until|later|after that|whereupon|though|although)\s+)?"
    r"(?:she|he|they|you|we|i|it|who)\s+(?:\w+ed|went|took|was|were|had|got|made|came|left|told|said|"
    r"bought|stayed|found|ran|drove|sent|ate|chose|kept|wore|paid|met|gave|did|moved|arrived|"
    r"raised|called|used|decided|turned|ordered|accepted|reordered|picked|signed)\b")
_FILLER = re.compile(
    r"^(?:sorry|im sorry|i am sorry|so sorry|unfortunately|sadly|hmm+|um+|uh+|well|honestly|"
    r"to be honest|to be fair|i apologi[sz]e|apologies|my apologies|im afraid|i am afraid|though|"
    r"however|but|thanks?|thank you|ok|okay|again|alas|oh|ah|yeah|no|nope|i see|i checked|"
    r"really|sorry about that|sorry again|frankly|truthfully|let me (?:think|see|check|recall|remember)|"
    r"good question|hold on|one sec(?:ond)?)$")
_FILLER_LEAD = re.compile(
    r"^(?:based on|according to|from|looking (?:at|through|back)|after (?:checking|reviewing|looking|going)|"
    r"as far as|in (?:our|your|my|these|those|what)|given|going through|checking|reviewing|"
    r"having (?:checked|looked|reviewed)|i checked|i looked|i searched|searching)\b")
_CONTEXT = re.compile(r"^(?:you|we)\s+(?:\w+\s+)?(?:mentioned|talked about|told me about|said something about|"
                      r"discussed|shared|described|brought up|spoke about)\b"
                      # what the question says is no answer: "The question refers to an accident, but ..."
                      r"|^(?:(?:the|this|your)\s+)?question\s+(?:\w+\s+)?(?:refers|asks|mentions|is about|assumes|implies"
                      r"|presumes|talks about)\b")
_SPLIT = re.compile(r"(?<!\d)[.](?!\d)|[!?;:\n()\[\]]+|,|\s[-–—]+\s|[–—]|\.\.\.|…")


def _clauses(text: str) -> list[tuple[str, bool]]:
    """(normalised clause, ended with a question mark) for each clause of `text`."""
    out = []
    for piece in re.split(r"(?<=\?)", text):
        asked = piece.rstrip().endswith("?")
        parts = [n for n in (normalize_answer(p) for p in _SPLIT.split(piece)) if n]
        # "?" closes the clause it ends: only the piece's last clause is a question
        out.extend((norm, asked and i == len(parts) - 1) for i, norm in enumerate(parts))
    return out


def clause_kind(clause: str, *, asked: bool = False, after_context: bool = False) -> str:
    """'refuse', 'hedge', 'guess', 'filler' or 'content' for one normalised clause."""
    if _WHOLE.match(clause):
        return "refuse"
    if after_context and _REFUSE_AFTER_CONTEXT.match(clause):
        return "refuse"
    if any(p.search(clause) for p in _REFUSE):
        return "refuse"
    if any(p.search(clause) for p in _HEDGE):
        return "hedge"
    if asked or _FILLER.match(clause):
        return "filler"
    if _FILLER_LEAD.match(clause) and len(clause.split()) <= 6:
        return "filler"
    if _CONTEXT.match(clause):
        return "context"
    if _GUESS.search(clause):
        return "guess"
    return "content"


def explain(text: object) -> list[tuple[str, str]]:
    """[(clause, kind)] as the detector reads `text` (for debugging a verdict)."""
    out, prev = [], None
    for clause, asked in _clauses(answer_text(text)):
        kind = clause_kind(clause, asked=asked, after_context=prev == "context")
        out.append((clause, kind))
        prev = kind
    return out


# Every refuse / hedge / whole-reply rule above needs one of these words; a reply without any is
# an answer, decided without reading its clauses (most answers, and every long summary, end here).
_TRIGGER = re.compile(
    r"\b(?:not|no|never|nor|none|nothing|neither|\w+nt|cannot|unknown|unclear|unsure|uncertain|"
    r"unaware|idea|clue|insufficient|inadequate|incomplete|lack\w*|unable|impossible|unanswerable|"
    r"unavailable|undetermined|indeterminate|unmentioned|na|n|idk|dunno|hard|difficult|tough|tricky|"
    r"missing|limited|without|beats|zero|little)\b")


# the speaker or the user in the reason ("No, I don't remember", "No, you never told me"): a decline
_PARTICIPANT = re.compile(r"\b(?:i|im|ive|id|me|my|we|us|our|you|your|youve|idk|sorry|dunno)\b")
# an explicit final answer: "... **Answer:** No gift from grandpa is mentioned."
_FINAL_ANSWER = re.compile(r"(?i)\banswer\s*\**\s*[:：]\**")


@lru_cache(maxsize=4096)
def _is_refusal_text(text: str) -> bool:
    if not _TRIGGER.search(normalize_answer(text)):
        return False
    labels = list(_FINAL_ANSWER.finditer(text))
    if labels and labels[-1].start() > 0 and re.search(r"\w", text[labels[-1].end():]):
        return _is_refusal_text(text[labels[-1].end():])   # what follows the last "Answer:" decides
    read = explain(text)
    kinds = [kind for _, kind in read]
    first = next((i for i, k in enumerate(kinds) if k in ("refuse", "hedge")), None)
    if first is None:
        return False
    if len(read) > 1 and read[0][0] in ("no", "nope") and kinds[1] == "refuse" and len(read[1][0].split()) >= 3 \
            and not _PARTICIPANT.search(read[1][0]):
        return False        # "No, there is no information indicating she is": a yes/no answer, with its reason
    if any(k in ("content", "guess") for k in kinds[:first]):
        return False        # answered first; the refusal is about a detail
    clauses = [c for c, _ in read]
    for clause, kind in zip(clauses[first + 1:], kinds[first + 1:]):
        if kind == "guess" or (kind == "content" and _NARRATIVE.match(clause)):
            return False    # "I don't remember exactly, but it was in May"
    return True


def is_refusal(text: object) -> bool:
    """True when the text declines to answer or says the information is not available."""
    return _is_refusal_text(answer_text(text))
