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
  me, I'll remember it", "you could check your calendar"), a question back);
- content: anything else.

Who is unsure matters: a refusal is always the speaker's (I / we), the user's ("you never told
me"), or a source's (it, that, the conversation, the photos ...); "She was not sure about the
job", "The results were unclear" and "The cause is unknown to her doctor" talk about a third party
and answer the question.

The reply's stance is then read in order (the word lists that drive each step are module-level
tuples below, data rather than ever-longer patterns):

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
   Evidence, context, asides and filler take no stance: "I don't know, though.", "I can't
   remember, but you could check your calendar" and "The messages don't mention a hamster; they
   discuss your cat Luna" decline. An empty reply is not a refusal (it is simply a wrong answer).
   A decline of precision only ("I cannot provide an exact number") after a concluded answer is a
   caveat. A step-by-step reply's last heading ("Step 3: Provide an answer", "Conclusion") and "the
   best answer is ..." work like "Answer:".

With the question (`is_refusal(text, question)`, `explain(text, question)`; the scorer passes it),
the reply is read against what it asks (`read_question`: the kind of value asked, from word lists in
_ASKS: a number, a total, a clock time, a date, a choice between named things; and the stems of the
words that name what is asked about, without the question's framing words). The same sentences
then decide either way, by what was asked (`against_question` and `_decide`):

- a refusal that repeats what was asked declines it ('declines-asked'), over an earlier answer
  that named less of it: "The messages mention autographed baseballs: you have 15. There is no
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
  nothing when a thing was asked ('time-frame').
Without a question the reply is read alone, as before.

Measured on tests/data/refusal_labels.jsonl (hand-written), tests/data/refusal_real_labels.jsonl
(real replies of two memory systems to LoCoMo questions) and tests/data/refusal_chat_labels.jsonl
(real replies of chat assistants to LongMemEval questions): bench/scoring_quality.py prints the
agreement on each tuning split and each held-out split, which was labelled before the rules it
measures and never tuned on.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from evaluator.scoring.metrics import answer_text, normalize_answer
from evaluator.text import STOPWORDS_REALCOMPANION, stem_words

def _compile(groups: dict) -> dict:
    """{cue name: its compiled patterns} (a cue fires when any of its patterns matches)."""
    return {name: tuple(re.compile(p) for p in patterns) for name, patterns in groups.items()}


def _words(words) -> str:
    """An alternation of the phrases in `words`, longest first (whole words only)."""
    return "(?:" + "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in words), key=len, reverse=True)) + ")"


# -- word lists: how long, discursive replies take a stance ----------------------------------------
# Chat assistants explain: they state what the history holds and what it lacks, then conclude. The
# lists below say what declines the answer itself, what only doubts its completeness, what
# concludes, and what is evidence, a step or an offer (no stance); they are compiled once below.

# A decline of the answer itself, not of a detail ("I cannot calculate the total", "it cannot be
# determined", "there isn't enough information to answer"): it overrides facts reported before it.
_WH = ("where", "when", "which", "who", "what", "whether", "how many", "how much", "how long", "how often")
_ANSWER_VERBS = ("answer", "determine", "calculate", "compute", "work out", "figure out", "compare",
                 "make comparison", "make direct comparison", "recommend", "suggest", "pinpoint",
                 "add up", "count", *(f"{verb} {wh}" for verb in ("tell", "tell you", "say", "know") for wh in _WH),
                 "give answer", "give you answer", "give precise answer", "give total", "give you total",
                 "give precise total", "give exact total", "give number", "give count", "give date",
                 "provide answer", "provide an answer", "provide accurate answer", "provide specific answer",
                 "provide total", "provide number", "provide count", "provide date", "provide exact answer")
_ANSWER_PASSIVES = ("determined", "answered", "calculated", "computed", "worked out", "figured out",
                    "inferred", "established", "known", "compared", "made")
# What a picture or page does not let one read (words that are themselves the decline)
_UNREADABLE = ("illegible", "unreadable", "not legible", "isnt legible", "is not legible", "too blurry",
               "too small to read", "cut off", "obscured", "out of frame", "not readable", "isnt readable")
# A decline qualified this way doubts the answer's completeness or certainty, not its existence:
# "I can't confirm a definitive count", "... enough information to fully answer", "with certainty".
_CAVEAT_WORDS = ("fully", "definitively", "definitive", "with certainty", "for certain", "for sure",
                 "completely", "entirely", "conclusively", "with confidence", "100", "complete", "comprehensive",
                 "exhaustive", "full", "additional", "other", "any more", "further", "broader")
# Words that open a conclusion: what follows is the reply's answer ("Therefore, 12 days",
# "Total: $495", "So you've tried at least 3 cuisines", "That's at least 4 types").
_CONCLUSION_LEADS = ("therefore", "so", "thus", "hence", "in conclusion", "in summary", "to summarize",
                     "to sum up", "overall", "consequently", "as result", "this means", "that means",
                     "which means", "meaning", "in short", "in total", "total", "altogether",
                     "i can conclude", "we can conclude", "it can be concluded", "i conclude",
                     "i must conclude", "we must conclude", "i can infer", "we can infer", "it can be inferred", "i infer",
                     "i can estimate", "we can estimate", "i estimate", "i can assume", "we can assume",
                     "i can confidently say", "we can confidently say", "based on this", "based on that", "based on above", "based on analysis",
                     "based on extracted information", "based on available information",
                     "based on information provided", "based on reasoning", "given this information",
                     "based on whats available", "based on what is available", "from what is available",
                     "with what is available", "based on what i have", "from what i can see")
# A count summed up is an answer: "That's at least 4 types", "which makes 3 in total".
_TALLY_LEADS = ("thats", "that is", "that makes", "this makes", "which makes", "that brings", "this brings",
                "which brings", "this gives", "that gives", "which gives", "giving", "bringing", "for total")
# Advice given is an answer to a request for advice ("Here are some options", "I'd suggest ...").
_ADVICE_LEADS = ("i would recommend", "i would suggest", "id recommend", "id suggest", "i recommend",
                 "i suggest", "my recommendation", "my suggestion", "some options could include",
                 "options include", "some highlights", "relevant tips", "relevant tip")
_ADVICE_NOUNS = ("tip", "tips", "suggestion", "suggestions", "recommendation", "recommendations", "idea",
                 "ideas", "option", "options", "pick", "picks", "place", "places", "thing", "things")
# A sentence opening with a contrast that states a fact after a decline answers after all
# ("... don't contain a sports event on that day. However, the closest match is the soccer tournament").
_CONTRAST_LEADS = ("but", "however", "that said", "still", "nevertheless", "nonetheless", "even so", "yet")
# What the history or the user said, reported as evidence: context, neither an answer nor a decline
# ("The messages mention that you visited Japan", "From Session 2, we know that", "The user mentioned").
_SOURCES = ("message", "messages", "conversation", "conversations", "chat", "chats", "chat history",
            "history", "session", "sessions", "note", "notes", "extracted note", "extracted notes",
            "memory", "memories", "record", "records", "context", "log", "logs", "summary", "summaries",
            "retrieved history", "discussion", "discussions", "past conversations", "reference",
            "references", "session summary", "session content", "extracted information", "information",
            "they")
_SOURCE_QUALIFIERS = ("one", "some", "several", "other", "these", "those", "both", "all", "earlier",
                      "previous", "past", "retrieved", "relevant", "most relevant", "only", "closest",
                      "closest relevant", "your", "provided", "available", "same", "related", "another",
                      "first", "second", "latest", "most recent", "chat")
_REPORTING_VERBS = ("mention", "mentions", "mentioned", "show", "shows", "showed", "discuss", "discusses",
                    "discussed", "reference", "references", "referenced", "say", "says", "said", "state",
                    "states", "stated", "indicate", "indicates", "indicated", "contain", "contains", "include",
                    "includes", "note", "notes", "refer", "refers", "talk about", "talks about", "describe",
                    "describes", "cover", "covers", "focus", "focuses", "is about",
                    "are about", "was about", "were about", "read", "reads", "list", "lists", "touch on",
                    "touches on", "is from", "are from", "was from", "were from", "reveal", "reveals",
                    "confirm", "confirms", "has", "have")
_EVIDENCE_LEADS = ("we know that", "i can see that", "i see that", "we can see that", "i found that",
                   "i can find that", "it is mentioned",
                   "it was mentioned", "it mentions", "there is note", "note reads", "i extracted",
                   "i can extract", "we can extract", "from session", "in session", "as mentioned",
                   "user mentioned", "user mentions", "user said", "user stated", "user noted", "user asked",
                   "user was asking", "user is asking", "user expressed", "user shared", "user told",
                   "user has mentioned", "user also mentioned", "user had mentioned", "its mentioned", "its stated",
                   "it is stated", "it was stated", "it says", "it states")
# The steps of a step-by-step reply ("To answer the question, I will follow these steps",
# "Step 2: Reason over the information"): filler.
_PROCEDURE_LEADS = ("to answer", "to determine", "to find", "to figure out", "to calculate", "to work out",
                    "to solve", "i will follow", "we need to follow", "we will follow", "follow these steps",
                    "ill follow", "i will extract", "i will look", "i will reason",
                    "i will analyze", "i will consider", "i will use", "we need to extract", "we need to find",
                    "we need to look", "we need to consider", "we need to determine", "we need to calculate",
                    "lets", "let us", "step", "extract relevant information", "extracting relevant information",
                    "reason over", "reasoning over", "analyze", "analyse", "analyzing", "identify relevant",
                    "identify any additional", "provide answer", "provide final answer", "draw conclusion",
                    "combine information", "consider context", "look for", "heres my answer",
                    "here is my answer")
# Headings and stubs that are the whole clause: "**Answer**", "Conclusion", "From Session 2, we have:"
_HEADINGS = ("answer", "final answer", "conclusion", "reasoning", "analysis", "extracted information",
             "relevant information", "we have", "we know", "i can see", "we can see", "i found", "notes",
             "we have following", "i found following")
# a lead-in to a list or to notes: "I can identify the following:", "I found the following
# information:" (at most this many words before "following")
_LEAD_IN = re.compile(r"^(?:\w+\s+){0,5}following(?:\s+\w+){0,6}$")
# Offers, suggestions and questions back are no answer ("If you tell me, I'll remember it",
# "you could check your calendar", "Let me know if ...", "it's up to you").
_OFFER_LEADS = ("if you", "if youd", "if youre", "if you can", "feel free", "let me know", "id be happy",
                "i would be happy", "i can try", "i can help", "you could", "you might want", "you may want",
                "you can", "you may", "you might", "please", "could you", "would you", "can you",
                "to get helpful", "to give you", "to fully answer", "to accurately answer", "id need",
                "i would need", "i need", "i would have to", "you would need", "youd need", "youll need")



# -- vocabulary ------------------------------------------------------------------------------------
_ADV = r"(?:really|honestly|just|simply|truly|actually|even|ever|exactly|explicitly|clearly|directly|yet|specifically|quite|fully|completely|precisely|currently|unfortunately|personally|still|accurately|definitively|reliably|correctly|confidently|entirely|conclusively|somewhat)"
_ADVS = rf"(?:{_ADV}\s+){{0,2}}"
_NEG_MODAL = (r"(?:do not|dont|did not|didnt|does not|doesnt|cannot|cant|can not|could not|couldnt|"
              r"am unable to|m unable to|am not able to|m not able to|im unable to|im not able to|not able to|"
              r"unable to|wont be able to|will not be able to|have no way to|never)")
_KNOW_VERBS = (r"(?:know|remember|recall|recollect|say|tell|determine|answer|find|see|confirm|verify|"
               r"access|locate|be certain|be sure|tell you|help with that|retrieve|identify|make out|read|work out)")
_PARTICIPLES = (r"(?:mentioned|discussed|specified|stated|provided|given|shared|covered|recorded|told|"
                r"indicated|included|disclosed|brought up|talked about|said|noted|addressed|shown|"
                r"visible|answered|clarified|known|revealed|documented|described|captured|listed|"
                r"explained|established|confirmed|contained|named|identified|pinpointed|detailed)")
_SOURCE = (r"(?:conversations?|chats?|history|dialogues?|dialogs?|documents?|docs?|images?|photos?|"
           r"pictures?|videos?|messages?|records?|texts?|transcripts?|logs?|memory|memories|context|"
           r"files?|screenshots?|sessions?|notes?|excerpts?|pages?|pdfs?|slides?|scans?|attachments?|frames?|"
           r"it|this|that|you|we|i|there)")
_NEG_DO = (r"(?:does not|doesnt|did not|didnt|do not|dont|never|has not|hasnt|have not|havent|"
           r"had not|hadnt|wont|will not)")
_SOURCE_VERBS = (r"(?:mention(?:ed|s)?|say|said|specif(?:y|ied)|state[sd]?|include[sd]?|provide[sd]?|"
                 r"contain(?:ed|s)?|cover(?:ed|s)?|show(?:n|ed|s)?|reveal(?:ed|s)?|indicate[sd]?|tell|told|"
                 r"give|gave|address(?:ed)?|discuss(?:ed)?|talk(?:ed)? about|share[sd]?|shared|"
                 r"bring up|brings? (?:\w+ )?up|brought (?:\w+ )?up|come up|came up|appear(?:ed|s)?|answer(?:ed|s)?|describe[sd]?|"
                 r"list(?:ed|s)?|pinpoint(?:ed|s)?|identif(?:y|ies|ied)|clarif(?:y|ies|ied)|touch(?:ed|es)? on|note[sd]?|go(?:es)? into|went into|get(?:s)? into|deal(?:s)? with|dealt with|refer(?:s|red)? to)")
_INFO = (r"(?:info|information|details?|records?|mentions?|data|knowledge|memory|recollection|"
         r"indications?|evidence|context|specifics|clues?|idea|references?|list|count|total|tally|figure|accounting|breakdown|timeline|"
         r"answer)")
_FIRST = r"(?:i|we|im|i am|were|we are|ive|i have|weve|id|i would|me)"
_NEG_BE = (r"(?:(?:is|was|are|were|be|been|has been|have been|had been)\s+(?:not|never)(?:\s+been)?|"
           r"isnt|wasnt|arent|werent|hasnt been|havent been|hadnt been|never been|not been|aint)")

_REFUSE = _compile({"refuse-speaker": (
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
), "refuse-user": (
    # the user never told ("You never told me that", "you didn't mention it")
    rf"\byou\s+{_ADVS}{_NEG_DO}\s+{_ADVS}{_SOURCE_VERBS}\b",
    r"\byou\s+(?:mentioned|talked about|told me about|said|shared|described|discussed)\b.*\b(?:but|though|yet)\s+(?:not|never|didnt|did not|without)\b",
), "refuse-source": (
    # a source does not say ("The conversation doesn't mention it", "the photos don't show it")
    rf"\b{_SOURCE}\b(?:\s+\w+){{0,3}}?\s+{_NEG_DO}\s+{_ADVS}{_SOURCE_VERBS}\b",
    rf"\b(?:none|nothing|no part|neither)\s+(?:of|in)\s+(?:\w+\s+){{0,3}}?{_SOURCE}\b",
    r"\bnothing\s+(?:about|on|regarding|concerning)\s+(?:that|this|it|the|him|her|them)\b",
    # "but nothing about your appointments", "nothing specifically addresses your question",
    # "none of them clearly indicate which lens", "the information does not match your question"
    rf"\bnothing\s+{_ADVS}(?:about|regarding|concerning|related to|addresses|covers|mentions|says|answers|relates to)\s+(?:your|you|my|our|his|her|their|any|that|this|it|them)\b",
    rf"\b(?:none|neither)\s+of\s+(?:them|these|those|which)\s+{_ADVS}{_SOURCE_VERBS}\b",
    # "Neither the document nor the images state the time"
    rf"\bneither\s+(?:\w+\s+){{0,2}}?{_SOURCE}\s+nor\b.*?\b{_SOURCE_VERBS}\b",
), "refuse-unreadable": (
    # what a picture or a page does not let one read: "the receipt is illegible", "the name is cut off"
    rf"\b{_words(_UNREADABLE)}\b",
), "refuse-source-silent": (
    # "but they don't specify how many": what a source does, not a person ("they didn't discuss salary")
    rf"\b(?:they|these|those)\s+{_NEG_DO}\s+{_ADVS}(?:specify|indicate|provide|contain|include|show|pinpoint|clarify|confirm|give|state|reveal|establish|address|cover|mention|go into|touch on|reference|list|describe|explain)\b",
    rf"\b{_NEG_DO}\s+{_ADVS}(?:match|answer|address|fit|relate to|correspond to)\s+(?:your|this|that|current|specific)\s+(?:\w+\s+)?question\b",
    # "The answer isn't in what we've discussed", "not in anything you told me"
    rf"\b(?:not|isnt|wasnt|arent|werent|nt)\s+(?:\w+\s+)?in\s+(?:what|anything)\s+(?:you|we|i|weve|youve|ive|has been|have been|was|were)\s+(?:\w+\s+)?{_SOURCE_VERBS}",
    # anyone who did not mention it in a source: "Caroline did not mention running in her memories"
    rf"\b{_NEG_DO}\s+{_ADVS}(?:mention(?:ed|s)?|specif(?:y|ied|ies)|br(?:ing|ings|ought)\s+up|talk(?:ed|s)?\s+about)\b"
    rf".*\bin\s+(?:(?:her|his|their|the|our|your|my|any|provided|given)\s+)*{_SOURCE}\b",
    r"\b(?:conversations?|chats?|history|dialogues?|documents?|images?|photos?|pictures?|videos?|messages?)\s+(?:\w+\s+)?lacks?\b",
), "refuse-passive": (
    # passive: "It isn't mentioned", "The date was never given", "Not specified in the chat"
    rf"\b{_NEG_BE}\s+{_ADVS}{_PARTICIPLES}\b",
    rf"^(?:(?:as|since|because|and|but|so|though|although|while)\s+)?(?:(?:its|it is|it was|that is|thats|this is|this was|that was|was|is|were|are)\s+)?(?:not|never)\s+{_ADVS}{_PARTICIPLES}\b",
    rf"^none\s+{_ADVS}(?:given|provided|mentioned|specified|stated|shared|listed|found)\b",
    # a reduced passive: "No specific date mentioned.", "No car accident mentioned in the memories",
    # "No explicit disagreement found"
    rf"^(?:(?:so|and|but|therefore|hence|thus)\s+)?(?:there\s+(?:is|was|are|were)\s+)?no\s+(?:[\w-]+\s+){{0,6}}?"
    rf"(?:(?:is|was|are|were|has been|have been)\s+)?{_ADVS}(?:{_PARTICIPLES}|found|noted|reported)"
    rf"(?:\s+(?:in|from|by|about|on|for|within|before|after|during|since|until|at|regarding)\b.*)?$",
    # "Gina says nothing specific", "she mentioned nothing about it"
    r"\b(?:says?|said|mentions?|mentioned|gives?|gave|shares?|shared|tells?|told)\s+nothing\s+(?:specific|about|on|regarding|of)\b",
), "refuse-not-in-source": (
    # not in a source, or the source is empty: "The signup date is not available in the memories",
    # "The memories for Melanie are empty"
    rf"\b(?:is|was|are|were)\s+(?:not|never)\s+{_ADVS}(?:available|present|included|found|recorded|listed|there)\s+"
    rf"(?:in|from)\s+(?:the\s+|her\s+|his\s+|their\s+|our\s+|your\s+|my\s+|any\s+|provided\s+|given\s+)*{_SOURCE}\b",
    rf"^(?:(?:the|her|his|their|our|your|my)\s+)?{_SOURCE}\b(?:\s+[\w-]+){{0,3}}?\s+(?:is|are|was|were)\s+empty\b",
    r"\b(?:it|that|this|what)\s+(?:never|didnt|did not|hasnt|has not)\s+(?:\w+\s+)?(?:came|come) up\b",
    r"\bnever\s+(?:came|come)\s+up\b",
    rf"\b(?:not|isnt|nt|never)\s+something\s+(?:that\s+)?(?:(?:you|we|i|ive|youve|weve)\b|(?:has\s+|have\s+|had\s+)?(?:ever\s+)?(?:came|come)\s+up\b|(?:was|were|has been|have been)\s+{_ADVS}{_PARTICIPLES})",
    rf"\b(?:not|isnt)\s+(?:part|in|anywhere in)\s+(?:of\s+)?(?:our|any|these|your|my)?\s*(?:\w+\s+)?{_SOURCE}\b",
    rf"^not\s+in\s+(?:\w+\s+){{0,2}}?{_SOURCE}\b",
), "refuse-no-record": (
    # no record / information / way to know
    rf"\b(?:there is|theres|there are|there was|there were|i have|i see|i found|with|contains?|"
    rf"shows?|has|have|had|got|is|are|^)\s*(?:no|not any|not much|little|zero)\s+(?:\w+\s+)?{_INFO}\b",
    rf"\bno\s+{_INFO}\s+(?:of|about|on|regarding|concerning|in|available|given|provided|for|that|was|is|to|whatsoever|at all|mentioned|found)\b",
    rf"^no\s+(?:\w+\s+)?{_INFO}$",
    r"\bno\s+way\s+(?:to|of|for me to|i can)\s+(?:know|tell|say|determine|knowing|telling|saying|determining|be sure|confirm|find)\b",
), "refuse-insufficient": (
    # insufficient / incomplete information
    rf"\b(?:not enough|(?:isnt|is not|wasnt|was not|arent|are not|werent|were not) enough|insufficient|inadequate|incomplete|limited|missing|lacking|lack of|lacks|without(?: more| enough| further| additional)?)\s+(?:\w+\s+)?(?:{_INFO}|context|data)\b",
    rf"\b{_INFO}\s+(?:\w+\s+){{0,2}}?(?:is|was|are|were|seems|appears)\s+(?:\w+\s+)?(?:incomplete|insufficient|not enough|missing|lacking|unavailable|not available|limited|inadequate)\b",
    rf"\b{_INFO}(?:\s+\w+){{0,5}}?\s+(?:isnt|is not|wasnt|was not|arent|are not)\s+(?:\w+\s+)?(?:available|accessible|there|known|present|included)\b",
), "refuse-cannot-be-known": (
    # cannot be determined / answered; impossible to tell
    rf"\b(?:cannot|cant|can not|could not|couldnt|unable to)\s+be\s+{_ADVS}(?:determined|answered|inferred|known|confirmed|verified|identified|established|deduced|said|told|found|specified|ascertained)\b",
    r"\b(?:impossible|not possible|hard|difficult|no way)\s+(?:for me\s+)?to\s+(?:\w+\s+)?(?:determine|tell|say|answer|know|infer|confirm|verify|identify|establish|be sure|find)\b",
    rf"\b(?:question|this|that|it)\s+(?:is|seems|appears)\s+{_ADVS}(?:unanswerable|not answerable|impossible to answer)\b",
    r"\b(?:unanswerable|not answerable|cannot answer|cant answer|beats me)\b",
), "refuse-unknown": (
    # it / that is unknown / unclear
    r"\b(?:it|its|it is|it was|this|that|thats|answer|information|date|details?)\s+(?:is\s+|was\s+|remains\s+|stays\s+|seems\s+|appears\s+)?(?:still\s+)?(?:unknown|not known)\b",
    r"\b(?:unknown|not known|unclear|not clear|uncertain)\s+(?:from|based on|given)\b",
    rf"\b(?:unknown|not known|unclear|not clear|uncertain)\s+in\s+(?:our|your|my|these|those|any)?\s*{_SOURCE}\b",
    r"\b(?:but|and|yet)\s+(?:cant|cannot|couldnt|could not|did not|didnt|was unable to)\s+(?:find|locate|see)\b",
    r"\b(?:is|remains|was)\s+(?:still\s+)?(?:unknown|not known)\s*$",
), "refuse-without": (
    # "..., without specifying which trip it was"
    rf"^(?:(?:but|and|though|yet)\s+)?without\s+{_ADVS}(?:specifying|mentioning|saying|stating|indicating|giving|"
    r"providing|clarifying|naming|identifying|confirming)\b",
)})
_REFUSE_AFTER_CONTEXT = re.compile(r"^(?:but|though|yet|and)\s+(?:not|never|didnt|did not|dont|do not|doesnt|does not|"
                                   r"without|nothing)\b")
_WHOLE = re.compile(
    r"^(?:unknown|not known|na|n a|idk|i dunno|dunno|no idea|no clue|unanswerable|not applicable|"
    r"no answer|beats me|cannot answer|cant answer|cannot say|cant say|none given|no comment|"
    r"nothing mentioned|no info|no information|no data|insufficient data|undetermined|"
    r"indeterminate|not determinable|cannot tell|cant tell|not mentioned|unmentioned|"
    r"not stated|not specified|not given|not provided|not discussed|never mentioned|"
    r"unclear|uncertain|unsure|not sure)$")
_CONJ = r"(?:(?:but|and|however|though|although|yet|so|still)\s+)?"
_HEDGE = _compile({"hedge-unclear": (
    r"\b(?:its|it is|it was|it remains|it remained|that is|thats|this is)\s+(?:still\s+)?(?:unclear|not clear|uncertain)\b",
), "hedge-unsure": (
    rf"\b(?:im|i am|i m|were|we are|i was)\s+{_ADVS}(?:not|un)\s*(?:\w+\s+)?(?:sure|certain)\b",
    rf"\b(?:im|i am|i m|were|we are)\s+{_ADVS}uncertain\b",
    rf"^{_CONJ}{_ADVS}(?:not|un)\s*(?:\w+\s+)?(?:sure|certain)\b",
    rf"^{_CONJ}{_ADVS}uncertain\b",
    rf"\b(?:i|we)\s+{_ADVS}(?:cant|cannot|can not|couldnt|could not)\s+be\s+(?:\w+\s+)?(?:sure|certain)\b",
), "hedge-hard-to-say": (
    rf"^{_CONJ}(?:its\s+|it is\s+|that is\s+|thats\s+)?(?:hard|difficult|tough|tricky)\s+to\s+(?:say|tell|know)\b",
), "hedge-unclear-opening": (
    r"^(?:its\s+|it is\s+|it was\s+|that is\s+|thats\s+|this is\s+|answer is\s+|it remains\s+|that remains\s+)?(?:still\s+)?(?:unclear|not clear)\b",
    r"^(?:its\s+|it is\s+)?unknown$",
)})
_GUESS = re.compile(
    r"\b(?:i think|i believe|i guess|my guess|best guess|guess is|probably|likely|maybe|perhaps|"
    r"possibly|might have|may have|must have|could have been|might be|may be|could be|it was|it is|"
    r"its|it looks|looks like|seems|i recall|i remember|if i remember|if i recall|either\s.*\bor|i would say|"
    r"id say|id guess|i suspect|presumably|most likely|closest match is|best match is|closest match would be|"
    # an approximation is a guess only when it approximates a quantity or a time ("about 5 days",
    # "around mid-May"), not "information about the trip"
    r"(?:around|about|roughly|approximately|nearly|almost)\s+(?:\d|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|twelve|twenty|thirty|half|dozen|hundred|week|month|year|day|hour|noon|midnight|"
    r"mid|early|late|last|next|january|february|march|april|may|june|july|august|september|october|"
    r"november|december|spring|summer|autumn|fall|winter)|"
    r"somewhere|sometime|i am fairly|im fairly|im pretty|i am pretty|"
    # an inference drawn from the history: "This suggests an increase from 3 to 4 times a week"
    r"(?:this|that|which|it)\s+(?:suggests|indicates|implies|means))\b")
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
                      r"|^(?:(?:however|but|and)\s+)?(?:(?:the|this|your)\s+)?(?:current\s+|original\s+)?question\s+(?:\w+\s+)?(?:refers|asks|mentions|is about|assumes|implies"
                      r"|presumes|talks about)\b")
_SPLIT = re.compile(r"(?<!\d)[.](?!\d)|[!?;\n()\[\]]+|(?<!\d):|:(?!\d)|(?<!\d),|,(?!\d)|\s[-–—]+\s|[–—]|\.\.\.|…")


# -- the question: what it asks -------------------------------------------------------------------
# When the caller has the question, the reply is read against it: what kind of value it asks for
# (a number, a total, a clock time, a date) and which words name what it asks about. Phrases are
# matched on the normalised question (lower case, no punctuation, no articles).
_ASKS = (
    # a number: a count, a total, a sum of money, a duration, an age, a frequency
    ("amount", ("how many", "how much", "total", "number of", "combined", "in total", "altogether",
                "sum of", "how long", "how old", "how often", "what percentage", "how far")),
    # a total: a partial sum is no answer ("A full total cannot be determined" declines)
    ("total", ("total", "combined", "in total", "altogether", "sum of", "all together")),
    ("clock", ("what time", "which time", "at what time")),
    # ("when" only opening a sentence: "What did I buy when I was in Paris?" asks for a thing)
    ("date", ("date", "what date", "which date", "what day", "which day", "what year", "which year",
              "what month", "which month", "how long ago")),
)
# A choice between named things ("Which did I start first, the Ferrari model or the Porsche?"): the
# question has "or" and one of these; an answer picks with one of them (or before / after).
_COMPARE_WORDS = ("first", "last", "earlier", "earliest", "later", "latest", "more", "most", "less", "least",
                  "fewer", "better", "best", "older", "oldest", "newer", "newest", "higher", "lower",
                  "longer", "shorter", "bigger", "smaller", "before", "after")
# Words that frame a question rather than name what it asks about ("I was going through our
# previous conversation and wanted to confirm ..."), and the vocabulary of saying that something is
# absent ("the retrieved messages don't specifically mention ..."): neither names the asked thing.
_FRAME_WORDS = frozenset("""
remind recall remember previous earlier conversation conversations chat chats discussion discuss
discussed mention mentioned mentions wonder wondering going back looking look thinking think wanted
want confirm know tell say said told like could would can please also again follow up planning get
got ask asked asking question questions currently current recently recent past ago last week weeks
month months year years day days time times first ever really just exactly actually specifically
explicitly clearly directly precisely specific explicit clear direct exact precise definitive
retrieved message messages information info detail details record records note notes session
sessions history context data indication indications evidence reference references memory memories
provide provided contain contained contains include included includes specify specified state
stated indicate indicated show shown shows discussed cover covered find found see seen available
enough mention none nothing whether which what when where who whom how many much long often there
any other one some all only thing things something anything user users answer total number count
two three four five six seven eight nine ten first second third name named called type kind sort date
""".split())
# A decline qualified by precision doubts the value's exactness, not that it is there ("the exact day
# isn't mentioned" after "in July"): it never declines the asked thing by itself.
_PRECISION_WORDS = ("exact", "exactly", "precise", "precisely", "definitive", "definitively", "certain",
                    "certainty", "sure", "accurate", "accurately", "specific date", "specific day",
                    "specific time", "specific number", "specific amount")
# How many of the question's naming words a clause must repeat to name what was asked (all of them
# when the question has fewer)
_ASKED_OVERLAP = 2


# -- stance cues, compiled from the word lists above --------------------------------------------
_UP_TO_YOU = re.compile(r"\b(?:is|its|remains)\s+(?:\w+\s+)?up\s+to\s+(?:you|users?|your)\b")
_MODALS = r"(?:cannot|cant|can not|could not|couldnt|am unable to|m unable to|unable to|am not able to|m not able to|not able to|wont be able to|will not be able to|do not|dont|have no way to)"
_DECLINE = _compile({"decline-speaker": (
    # the speaker cannot answer / calculate ...: "I cannot calculate the number of days", "we cannot
    # provide an accurate answer", "Cannot determine how many days ..."
    rf"(?:^|\b{_FIRST}\s+){_ADVS}{_MODALS}\s+{_ADVS}{_words(_ANSWER_VERBS)}\b",
), "decline-cannot-give": (
    # "these cannot be correlated to give a precise answer", "unable to provide a total"
    rf"\b(?:cannot|cant|can not|could not|couldnt|unable to|not able to)\b(?:\s+\w+){{0,6}}?\s+(?:give|provide|offer|reach|get)\s+(?:you\s+)?(?:\w+\s+)?(?:answer|total|figure|number|count)\b",
), "decline-passive": (
    # it cannot be determined / answered: "the exact total ... cannot be determined"
    rf"\b(?:cannot|cant|can not|could not|couldnt|unable to)\s+be\s+{_ADVS}{_words(_ANSWER_PASSIVES)}\b",
), "decline-impossible": (
    # impossible to tell: "it's not possible to provide an accurate answer"
    rf"\b(?:impossible|not possible|no way)\s+(?:for me\s+|for us\s+)?to\s+{_ADVS}(?:\w+\s+)?{_words(_ANSWER_VERBS + ('say', 'tell', 'know', 'give', 'provide', 'make'))}\b",
), "decline-not-enough": (
    # not enough information to answer: "I don't have enough information to answer this question"
    rf"\b(?:not enough|insufficient|inadequate|dont have enough|do not have enough|lack of|without enough|"
    rf"isnt enough|is not enough|wasnt enough|was not enough|arent enough)\s+(?:\w+\s+){{0,8}}?to\s+{_ADVS}"
    rf"{_words(_ANSWER_VERBS + ('give', 'provide', 'make', 'draw', 'reach', 'say', 'tell', 'know', 'identify', 'confirm', 'accurately', 'precisely'))}\b",
    rf"\b(?:dont|do not|doesnt|does not|did not|didnt)\s+(?:contain|have|include|provide|give)\s+enough\s+(?:\w+\s+){{0,3}}?to\s+{_ADVS}"
    rf"{_words(_ANSWER_VERBS + ('give', 'provide', 'make', 'draw', 'reach', 'say', 'tell', 'know', 'identify', 'confirm'))}\b",
), "decline-question": (
    # the question itself: "The question cannot be answered", "I cannot answer your question"
    r"\b(?:question|it|this)\s+(?:is|seems|appears)\s+(?:\w+\s+)?(?:unanswerable|not answerable|impossible to answer)\b",
), "decline-empty": (
    # a step-by-step reply whose output for "no information" is "empty" (LongMemEval's instruction)
    r"\b(?:output|answer|respond|reply|return)\w*\s+(?:(?:will|would|should|must)\s+be\s+|is\s+|with\s+)?empty\b",
    r"^empty(?:$|\s+as\b)",
), "decline-not-clear-enough": (
    # what is known is not clear enough to answer: "the timing is not explicitly clear enough to give an answer"
    rf"\b(?:not|isnt|arent|wasnt|werent)\s+{_ADVS}(?:clear|detailed|specific|complete|conclusive|precise)\s+enough\s+"
    rf"to\s+{_ADVS}(?:give|provide|answer|determine|say|tell|know|make|reach|draw|calculate)\b",
)})
_CAVEAT = re.compile(rf"\b{_words(_CAVEAT_WORDS)}\b")
_CONCLUSION = re.compile(rf"^{_words(_CONCLUSION_LEADS)}\b")
_ADVICE = re.compile(rf"^(?:{_words(_CONTRAST_LEADS)}\s+)?(?:{_words(_ADVICE_LEADS)}\b|"
                     rf"(?:here are|heres|here is)\s+(?:\w+\s+){{0,3}}?{_words(_ADVICE_NOUNS)}\b)")
_CONTRAST = re.compile(rf"^{_words(_CONTRAST_LEADS)}$")
_CONTRAST_OPEN = re.compile(rf"^(?:{_words(_CONTRAST_LEADS)}|though|although)\s")
_EVIDENCE = re.compile(
    rf"^(?:(?:while|although|though|whereas|and|but|however|also|plus)\s+)?(?:(?:{_words(_SOURCE_QUALIFIERS)}|{_ADV})\s+){{0,3}}"
    rf"{_words(_SOURCES)}\s+(?:\w+\s+){{0,4}}?(?:only\s+|also\s+|just\s+)?{_words(_REPORTING_VERBS)}\b"
    rf"|^(?:(?:while|although|though|however|but|and)\s+)?{_words(_EVIDENCE_LEADS)}\b")
_PROCEDURE = re.compile(rf"^{_words(_PROCEDURE_LEADS)}\b|^{_words(_HEADINGS)}$")
_OFFER = re.compile(rf"^(?:(?:but|however|though|and|so|or)\s+)?{_words(_OFFER_LEADS)}\b")
# more evidence in the sentence of a report: "..., and five sessions in another message", "..., while
# the plane was started about a month ago"
_EVIDENCE_MORE = re.compile(r"^(?:and|while|whereas|as well as|along with|plus)\s")
_RELATIVE = re.compile(r"^(?:which|who|whom|whose|where)\s(?!would|will|means|makes|gives)")
_NUMBER = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|dozen|"
                     r"once|twice|none|zero)\b")
_TALLY = re.compile(rf"^{_words(_TALLY_LEADS)}\s+(?:\w+\s+){{0,2}}?{_NUMBER.pattern}")


_PRECISION = re.compile(rf"\b{_words(_PRECISION_WORDS)}\b")
_TOTAL = re.compile(r"\b(?:total|sum)\b")
_COMPARE = re.compile(rf"\b{_words(_COMPARE_WORDS)}\b")
_ASK_PATTERNS = tuple((kind, re.compile(rf"\b{_words(phrases)}\b")) for kind, phrases in _ASKS)


class Asked(NamedTuple):
    """What a question asks: the kinds of value (see _ASKS) and the stems of the words that name
    what it asks about."""
    kinds: frozenset
    words: frozenset


@lru_cache(maxsize=8192)
def _content_stems(norm: str) -> frozenset:
    """The stems of the words of a normalised text that can name a thing (no stop or frame words)."""
    words = [w for w in norm.split() if w not in STOPWORDS_REALCOMPANION and w not in _FRAME_WORDS
             and len(w) > 1]
    return frozenset(stem_words(words))


def _question_text(question: object) -> str | None:
    text = answer_text(question).strip()
    return text or None


@lru_cache(maxsize=4096)
def read_question(question: str | None) -> Asked | None:
    """What `question` asks (None when there is no question)."""
    if not question:
        return None
    norm = normalize_answer(question)
    kinds = {kind for kind, p in _ASK_PATTERNS if p.search(norm)}
    if re.search(r"(?:^|[.?!]\s+)when\b", question.strip(), re.IGNORECASE):
        kinds.add("date")
    if re.search(r"\bor\b", norm) and _COMPARE.search(norm):
        kinds.add("choice")
    return Asked(frozenset(kinds), _content_stems(norm))


# where a sentence ends inside a line: after "?" or "!", after "." that follows a lower-case word (not
# "U.S." or "3.5"), or after a number's "." before a capital ("you have 15. There is ...")
_SENTENCE_END = re.compile(r"(?<=[?!])|(?<=[^\dA-Z.][.])(?=\s)|(?<=\d[.])(?=\s+[A-Z*\"'])")
_LIST_MARKER = re.compile(r"\s*\d+[.)]\s")


def _clauses(text: str) -> list[tuple[str, bool, int, bool]]:
    """(normalised clause, ended with a question mark, sentence number, inside brackets) for each
    clause of `text`; a sentence ends at ".", "!", "?" or a line break."""
    out = []
    sentences = []
    for line in text.split("\n"):
        marker = _LIST_MARKER.match(line)                   # "12. " opening a line is no sentence end
        at = marker.end() if marker else 0
        pieces = _SENTENCE_END.split(line[at:])
        pieces[0] = line[:at] + pieces[0]
        sentences += [p for p in pieces if p.strip()]
    for sentence, piece in enumerate(sentences):
        depth = 0
        asked = piece.rstrip().endswith("?")
        parts = []
        for segment in re.split(r"([()\[\]])", piece):
            if segment in ("(", "["):
                depth += 1
            elif segment in (")", "]"):
                depth = max(depth - 1, 0)
            else:
                parts += [(n, depth > 0) for n in (normalize_answer(p) for p in _SPLIT.split(segment)) if n]
        # "?" closes the clause it ends: only the piece's last clause is a question
        out.extend((norm, asked and i == len(parts) - 1, sentence, aside) for i, (norm, aside) in enumerate(parts))
    return out


# -- the clause cues: the table (refusal_cues.json) read in its order ---------------------------------
CUES_FILE = Path(__file__).with_name("refusal_cues.json")
CUES = tuple(json.loads(CUES_FILE.read_text("utf-8")))
# each clause cue's patterns, by cue name (a cue with none fires on its condition alone)
PATTERNS = {**_DECLINE, **_REFUSE, **_HEDGE,
            "whole-clause": (_WHOLE,), "refuse-after-context": (_REFUSE_AFTER_CONTEXT,),
            "filler-word": (_FILLER,), "contrast-word": (_CONTRAST,), "bare-conclusion": (_CONCLUSION,),
            "offer": (_OFFER,), "up-to-you": (_UP_TO_YOU,), "procedure": (_PROCEDURE,), "lead-in": (_LEAD_IN,),
            "filler-lead": (_FILLER_LEAD,), "context-said": (_CONTEXT,), "evidence": (_EVIDENCE,),
            "conclusion": (_CONCLUSION,), "advice": (_ADVICE,), "tally": (_TALLY,), "guess": (_GUESS,),
            "caveat": (_CAVEAT,), "relative-after-context": (_RELATIVE,), "evidence-more": (_EVIDENCE_MORE,)}
# a clause cue's condition besides its pattern (`when` in the table)
_WHEN = {"question mark": lambda clause, asked, after: asked,
         "after context": lambda clause, asked, after: after == "context",
         "after lead": lambda clause, asked, after: after == "lead",
         "at most 6 words": lambda clause, asked, after: len(clause.split()) <= 6}
_MATCH = {"search": "search", "start": "match", "whole": "fullmatch"}


def _clause_steps() -> tuple:
    """(name, kind, [pattern tests], condition, caveat applies) for each clause cue, in table order."""
    steps = []
    for cue in CUES:
        if cue["stage"] == "clause":
            tests = [getattr(p, _MATCH[cue.get("match", "search")]) for p in PATTERNS.get(cue["name"], ())]
            steps.append((cue["name"], cue["effect"], tests, _WHEN[cue["when"]] if cue.get("when") else None,
                          bool(cue.get("caveat"))))
    return tuple(steps)


_CLAUSE_STEPS = _clause_steps()
_CAVEAT_TEST = _CAVEAT.search


def clause_cues(clause: str, *, asked: bool = False, after: str | None = None) -> tuple[str, tuple[str, ...]]:
    """(kind, the cues that gave it) for one normalised clause: the first clause cue of the table
    (refusal_cues.json, stage "clause") whose condition holds and whose pattern matches gives the
    kind; a decline, refusal or hedge qualified by a caveat word is a 'caveat' (cue "caveat")."""
    for name, kind, tests, when, caveat in _CLAUSE_STEPS:
        if when is not None and not when(clause, asked, after):
            continue
        if tests and not any(t(clause) for t in tests):
            continue
        if caveat and _CAVEAT_TEST(clause):
            return "caveat", (name, "caveat")
        return kind, (name,)
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
    question = _question_text(question)
    fired: list = []
    read = _read(answer_text(text), question, fired)
    _, kinds = _decide(read, read_question(question))
    if cues:
        return [(clause, kind, names) for (clause, _, _, _), kind, names in zip(read, kinds, fired)]
    return [(clause, kind) for (clause, _, _, _), kind in zip(read, kinds)]


# a value of the kind a question asks for (on the normalised clause: "7:00 AM" reads "700 am")
_VALUES = {
    "amount": re.compile(rf"{_NUMBER.pattern}|\b(?:few|several|couple|single|daily|weekly|monthly|yearly|"
                         r"every|each|half|dozens?|hundreds?|thousands?|no)\b"),
    "clock": re.compile(r"\b\d{1,4}\s*(?:am|pm)\b|\b\d{3,4}\b|\b(?:noon|midnight|oclock|morning|evening|"
                        r"afternoon|night)\b"),
    "date": re.compile(r"\d|\b(?:january|february|march|april|may|june|july|august|september|october|"
                       r"november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|"
                       r"wednesday|thursday|friday|saturday|sunday|weekend|yesterday|today|tonight|ago|"
                       r"spring|summer|autumn|fall|winter|morning|afternoon|evening|night|week|month|year|"
                       r"before|after|during|since|until|earlier|later|recently|once)\b"),
}


# a value worked out from the question's own words: "the past weekend would have been March 18-19",
# "a week ago, which would be around June 15"
_WORKED_OUT = re.compile(r"\b(?:would|will)\s+(?:have\s+)?(?:be|been)\b")


def _overlap(clause: str, asked: Asked) -> int:
    """How many of the question's naming words `clause` repeats."""
    return len(_content_stems(clause) & asked.words)


def against_question(clause: str, kind: str, asked: Asked, *, opening: bool = False, rest: str = "") -> str:
    """A clause's kind read against what the question asks (`opening`: the clause is in the
    reply's first sentence that says anything):
    - 'declines-total': a caveat or a decline that names the total when a total was asked ("A full
      total cannot be determined", "I don't have enough information to give a complete total"): a
      partial sum is no answer, so it declines like a decline of the answer itself, even after a
      concluded sum;
    - 'declines-asked': a refusal or hedge that repeats what the question asks about (at least
      _ASKED_OVERLAP of its naming words) and does not merely doubt the value's precision
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
      first, like content;
    otherwise the kind is unchanged."""
    if kind in ("caveat", "decline") and "total" in asked.kinds and _TOTAL.search(clause):
        return "declines-total"
    enough = min(_ASKED_OVERLAP, len(asked.words)) or _ASKED_OVERLAP
    if kind in ("refuse", "hedge") and not _PRECISION.search(clause) and _overlap(clause, asked) >= enough:
        return "declines-asked"
    if kind in ("content", "guess") and not asked.kinds & {"amount", "clock", "date"} \
            and _WORKED_OUT.search(clause) and _VALUES["date"].search(clause):
        return "time-frame"
    wanted = [k for k in ("amount", "clock", "date") if k in asked.kinds]
    if wanted and (kind in ("commit", "guess") or (kind == "content" and opening)):
        if not any(_VALUES[k].search(clause + " " + rest) for k in wanted):
            return "no-value"
    if kind == "context" and opening and _overlap(clause, asked) >= enough \
            and (not wanted or any(_VALUES[k].search(clause) for k in wanted)):
        return "reports-asked"
    return kind


def _read(text: str, question: str | None = None, fired: list | None = None) -> list[tuple[str, str, int, bool]]:
    """(clause, kind, sentence number, inside brackets) for each clause of `text`, read against
    `question` when there is one (`fired`, when given, gets each clause's cue names)."""
    out, prev, lead, last = [], None, False, (None, None)     # last: (kind, sentence) of the last clause outside brackets
    for clause, is_question, sentence, aside in _clauses(text):
        kind, cues = clause_cues(clause, asked=is_question, after="lead" if lead else prev)
        if prev == "context" and kind == "content" and _RELATIVE.match(clause) and not _NUMBER.search(clause):
            kind, cues = "context", cues + ("relative-after-context",)
            # "your question asks about X, which is a different role" (not "which would be June 10th":
            # a value worked out from it)
        elif last == ("context", sentence) and kind in ("content", "guess") and _EVIDENCE_MORE.match(clause):
            kind, cues = "context", cues + ("evidence-more",)
            # "You mentioned three sessions in one message and five in another"
        if fired is not None:
            fired.append(cues)
        out.append((clause, kind, sentence, aside))
        if _CONCLUSION.fullmatch(clause):
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
        for c, k, s, a in reversed(out):            # rest: what follows the clause in its sentence
            if s != rest_sentence:
                rest, rest_sentence = "", s
            read.append((c, against_question(c, k, asked, opening=s == opening, rest=rest), s, a))
            rest = f"{c} {rest}"
        if fired is not None:       # a kind the question decided is a cue of its own
            fired[:] = [cues + ((new[1],) if new[1] != old[1] else ()) for cues, old, new in zip(fired, out, read[::-1])]
        out = read[::-1]
    return out


# Every refuse / hedge / whole-reply rule above needs one of these words; a reply without any is
# an answer, decided without reading its clauses (most answers, and every long summary, end here).
_TRIGGER = re.compile(
    r"\b(?:not|no|never|nor|none|nothing|neither|\w+nt|cannot|unknown|unclear|unsure|uncertain|"
    r"unaware|idea|clue|insufficient|inadequate|incomplete|lack\w*|unable|impossible|unanswerable|"
    r"unavailable|undetermined|indeterminate|unmentioned|na|n|idk|dunno|hard|difficult|tough|tricky|"
    r"missing|limited|without|beats|zero|little|empty|illegible|unreadable|blurry|cut|obscured|frame)\b")


# the speaker or the user in the reason ("No, I don't remember", "No, you never told me"): a decline
_PARTICIPANT = re.compile(r"\b(?:i|im|ive|id|me|my|we|us|our|you|your|youve|idk|sorry|dunno)\b")
# an explicit final answer: "... **Answer:** No gift from grandpa is mentioned.", "Therefore, the
# answer is "empty".", "my answer will be: ...", a heading "**Answer**" on its own line
_FINAL_ANSWER = re.compile(
    r"(?i)\banswer\s*\**\s*[:：]\**"
    r"|\b(?:the|my|final|your)\s+(?:(?:best|most|final|accurate|likely|correct|only|short)\s+){0,2}answer"
    r"(?:\s+to\s+(?:the|this|your)\s+question|\s+(?:i|we)\s+can\s+(?:give|provide|offer))?\s*\**\s+(?:is|would\s+be|will\s+be)\b\s*:?"
    r"|^\W*answer\W*$"
    # a step-by-step reply's last step heading: "**Step 3: Provide an answer**", "**Conclusion**"
    r"|^\W*(?:step\s*\d+\W*)?(?:provide\s+(?:the\s+|an\s+|a\s+)?(?:final\s+)?answer|answer(?:ing)?\s+the\s+question|"
    r"final\s+answer|conclusion)\W*$", re.MULTILINE)
# kinds that decline the answer itself (they override what was answered before them), and all declines
_ANSWER_DECLINES = ("decline", "declines-asked", "declines-total")
_DECLINES = (*_ANSWER_DECLINES, "refuse", "hedge", "caveat")


def _contrast_led(read: list[tuple[str, str, int, bool]]) -> set[int]:
    """The sentences that open with a contrast ("However, ...", "Based on the photo, though, ...",
    "But ...") and hold no decline: what they state holds instead of a decline before them."""
    led, seen, reports = set(), set(), set()
    for clause, kind, s, _ in read:
        if s in seen:
            continue
        if _CONTRAST.match(clause) or clause in ("though", "although") or _CONTRAST_OPEN.match(clause):
            led.add(s)
        if kind != "filler":
            seen.add(s)             # only the sentence's leading fillers and first clause count
            if kind == "context":
                reports.add(s)      # "However, the most recent message is from June 15, where ...": evidence
    # ... unless a value is worked out from it: "That said, you mentioned the weekend after your
    # birthday, which would be June 10th"
    reports -= {s for clause, _, s, _ in read if _WORKED_OUT.search(clause)}
    return led - reports - {s for _, kind, s, _ in read if kind in _DECLINES}


def _decide(read: list[tuple[str, str, int, bool]], asked: Asked | None = None,
            fired: list | None = None) -> tuple[bool, list[str]]:
    """(True when the clauses, read in order, leave the reply declining (see the module docstring),
    the kind each clause had in the decision). A 'declines-asked' clause declines unless the reply
    has already answered with words that repeat as much of the question; then it is a detail
    ('refuse'). A decline of precision only ("I cannot provide an exact number") after a concluded
    answer ("it is likely that your count is now above 1300") is a caveat: the answer stands."""
    led = _contrast_led(read)
    opening = next((s for _, kind, s, aside in read if kind != "filler" and not aside), None)
    kinds = [kind for _, kind, _, _ in read]
    state, declined_at, concluded = None, None, False
    # the question's words the answer's sentence repeated, whether it picked (a choice), whether it
    # was a report ("You mentioned ...")
    answered, picked, reported = frozenset(), False, False
    note = fired.append if fired is not None else (lambda name: None)

    def answer_in(s: int) -> tuple[frozenset, bool]:
        """(the question's words that sentence `s` repeats, whether it picks one of a choice's
        options), read on its statements (declines left out)."""
        if asked is None:
            return frozenset(), False
        said = " ".join(c for c, k, s2, _ in read if s2 == s and k not in _DECLINES)
        return _content_stems(said) & asked.words, _COMPARE.search(said) is not None

    def names_more(clause: str) -> bool:
        """Whether a decline names more of what was asked than the answer did: more of the
        question's words, or (after a reported answer) one that the report did not."""
        named = _content_stems(clause) & asked.words
        return len(named) > len(answered) or (reported and bool(named - answered)) \
            or ("choice" in asked.kinds and not picked)

    for i, (clause, kind, s, aside) in enumerate(read):
        if aside:
            if kind != "filler":
                note("aside")
            continue        # "(around March 15)", "(not a friend)": an aside takes no stance
        if kind == "declines-asked" and state == "answer" and not names_more(clause):
            kinds[i] = kind = "refuse"      # the answer named the asked thing as fully: a detail
            note("detail-after-answer")
        if kind == "decline" and concluded and _PRECISION.search(clause):
            kinds[i] = kind = "caveat"      # "... likely above 1300. I cannot provide an exact number."
            note("precision-after-conclusion")
        if kind in _ANSWER_DECLINES or (kind in _DECLINES and state is None):
            note("declines-answer" if kind in _ANSWER_DECLINES else "declines-first")
            state, declined_at, concluded = "decline", s, False
        elif kind in ("commit", "guess"):
            note("commit-answers")
            state, (answered, picked), reported = "answer", answer_in(s), False
            concluded = kind == "commit" or concluded
        elif kind in ("content", "reports-asked"):
            if state is None and s == opening:
                # answered first; a later decline of a detail keeps it
                note("answers-first")
                state, (answered, picked), reported = "answer", answer_in(s), kind == "reports-asked"
            elif state == "decline" and (
                    s in led                                            # "However, the closest match is ..."
                    or (s == declined_at and _NARRATIVE.match(clause))  # "... but she went in May"
                    or (s == declined_at and _CONTRAST_OPEN.match(clause)
                        and not any(k in _DECLINES for _, k, s2, _ in read[i + 1:] if s2 == s))):
                # "The cause was unknown, but the diagnosis was a sprain."
                note("contrast-led" if s in led else "narrated" if _NARRATIVE.match(clause) else "contrast-in-sentence")
                state, (answered, picked), reported = "answer", answer_in(s), False
    return state == "decline", kinds


def _judge(text: str, question: str | None = None, fired: list | None = None) -> bool:
    """The verdict on a reply, read through the stages of the cue table in order (`fired`, when
    given, gets the name of each cue that fired)."""
    note = fired.append if fired is not None else (lambda name: None)
    if not _TRIGGER.search(normalize_answer(text)):
        note("no-trigger")
        return False
    labels = list(_FINAL_ANSWER.finditer(text))
    if labels and labels[-1].start() > 0 and re.search(r"\w", text[labels[-1].end():]):
        note("final-answer")
        return _judge(text[labels[-1].end():], question, fired)   # what follows the last "Answer:" decides
    clauses = [] if fired is not None else None
    read = _read(text, question, clauses)
    if clauses:
        fired.extend(name for cues in clauses for name in cues)
    if len(read) > 1 and read[0][0] in ("no", "nope", "none") and read[1][1] in ("refuse", "decline", "declines-asked") \
            and len(read[1][0].split()) >= 3 and not _PARTICIPANT.search(read[1][0]):
        note("yes-no-reason")
        return False        # "No, there is no information indicating she is": a yes/no answer, with its reason
                            # ("None. The memories do not mention them visiting any city together.")
    return _decide(read, read_question(question), fired)[0]


@lru_cache(maxsize=4096)
def _is_refusal_text(text: str, question: str | None = None) -> bool:
    return _judge(text, question)


def trace(text: object, question: object = None) -> list[str]:
    """The names of the cues (refusal_cues.json) that fired reading `text`, in reading order."""
    fired: list[str] = []
    _judge(answer_text(text), _question_text(question), fired)
    return fired


def is_refusal(text: object, question: object = None) -> bool:
    """True when the text declines to answer or says the information is not available. Pass the
    `question` when there is one: what it asks decides some replies (see the module docstring)."""
    return _is_refusal_text(answer_text(text), _question_text(question))


@lru_cache(maxsize=1)
def rules_version() -> str:
    """12 hex digits of sha256 over the refusal reader's rules: the cue table (each cue's name,
    stage, effect, match, condition and caveat flag, in order; not its prose or examples) and this
    module's source (the engine, the patterns and the word lists). results.json records it per run
    under `rules_versions.refusal`."""
    import hashlib

    table = [[c["name"], c["stage"], c["effect"], c.get("match"), c.get("when"), c.get("caveat")] for c in CUES]
    h = hashlib.sha256(json.dumps(table, ensure_ascii=False).encode("utf-8"))
    h.update(hashlib.sha256(Path(__file__).read_bytes()).digest())
    return h.hexdigest()[:12]
