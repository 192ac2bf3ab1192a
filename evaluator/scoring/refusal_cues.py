"""The refusal reader's rules as data: word lists, the patterns built from them, and the cue table.

`evaluator.scoring.refusal` (the engine) reads a reply with these rules and nothing else; this module
holds no logic beyond joining word lists into patterns. The table, `refusal_cues.json` (CUES), names
every cue: its stage, its effect, for a clause cue how its pattern is matched (`match`) and its
condition (`when`), its doc and its examples (tests). `PATTERNS` gives each clause cue its patterns.
The word lists are tuples of plain phrases (`phrases` joins them, longest first); the longer
patterns are regular expressions over the normalised text (lower case, no punctuation).
"""

from __future__ import annotations

import re
from pathlib import Path

from evaluator.scoring.cue_engine import load_table, phrases


def compile_groups(groups: dict) -> dict:
    """{cue name: its compiled patterns} (a cue fires when any of its patterns matches)."""
    return {name: tuple(re.compile(p) for p in patterns) for name, patterns in groups.items()}

# -- word lists: how long, discursive replies take a stance ----------------------------------------
# Chat assistants explain: they state what the history holds and what it lacks, then conclude. The
# lists below say what declines the answer itself, what only doubts its completeness, what
# concludes, and what is evidence, a step or an offer (no stance); they are compiled once below.

# A decline of the answer itself, not of a detail ("I cannot calculate the total", "it cannot be
# determined", "there isn't enough information to answer"): it overrides facts reported before it.
WH = ("where", "when", "which", "who", "what", "whether", "how many", "how much", "how long", "how often")
ANSWER_VERBS = ("answer", "determine", "calculate", "compute", "work out", "figure out", "compare",
                "make comparison", "make direct comparison", "recommend", "suggest", "pinpoint",
                "add up", "count", *(f"{verb} {wh}" for verb in ("tell", "tell you", "say", "know") for wh in WH),
                "give answer", "give you answer", "give precise answer", "give total", "give you total",
                "give precise total", "give exact total", "give number", "give count", "give date",
                "provide answer", "provide an answer", "provide accurate answer", "provide specific answer",
                "provide total", "provide number", "provide count", "provide date", "provide exact answer")
ANSWER_PASSIVES = ("determined", "answered", "calculated", "computed", "worked out", "figured out",
                   "inferred", "established", "known", "compared", "made")
# What a picture or page does not let one read (words that are themselves the decline)
UNREADABLE = ("illegible", "unreadable", "not legible", "isnt legible", "is not legible", "too blurry",
              "too small to read", "cut off", "obscured", "out of frame", "not readable", "isnt readable",
              # what an image, a clip or a recording does not let one see or hear: "the plate is blurred in
              # the video", "the cover is facing away from the camera" (a reason given beside a decline, or
              # the decline itself; "a bit blurry, but it reads ..." answers, so not "blurry")
              "blurred", "pixelated", "out of focus", "facing away", "turned away", "off screen", "offscreen",
              "cropped out", "not visible", "isnt visible", "arent visible", "wasnt visible", "werent visible",
              "never visible", "not audible", "inaudible",
              "drowns out", "drowned out", "blacked out", "redacted", "torn off", "smear of pixels", "smeared",
              "lost in glare", "face down", "facedown", "out of shot", "out of view", "not in view",
              "isnt in view", "edge of frame", "has disappeared", "have disappeared", "worn off", "rubbed off", "no audio", "no sound", "never appears", "never comes into view",
              "mostly hidden", "partly hidden", "partially hidden", "largely hidden", "half hidden",
              "mostly covered", "partly covered", "partially covered", "partly blocked", "partially blocked",
              "mostly obscured", "partly obscured", "left blank", "never filled in", "not filled in",
              "in shadow", "garbled", "muffled", "too dim", "very dim", "not discernible", "isnt discernible",
              "covers their voices", "covers his voice", "covers her voice", "drowns them out",
              "washed out", "glare on", "glare from", "glare across", "too lowresolution",
              # an upload that failed: "the image didn't come through", "the file appears to be corrupted"
              "didnt come through", "did not come through", "corrupted", "unsupported format", "blank attachment",
              "failed to upload", "didnt upload", "did not upload", "couldnt be processed", "could not be processed",
              "come out blank", "came out blank", "no visible", "is blank", "are blank", "was blank",
              "motionblurred", "motion blur", "motion blurred", "would be hidden", "would be covered", "would be out of frame")
# a clip, a recording or a page that ends or cuts off before the thing asked: "The video ends before they
# cross the finish line", "the sound cuts out just as he starts speaking", "This page ends midway"
_MEDIA = r"(?:clip|video|recording|footage|audio|sound|page|scan|crop|feed|stream|excerpt|screenshot|film|track)s?"
MEDIA_ENDS = (rf"\b{_MEDIA}\s+(?:\w+\s+)?(?:cuts?|cutting)\s+(?:off|out|away)\b",
              rf"\b{_MEDIA}\s+(?:\w+\s+)?(?:ends|stops|ended|stopped|finishes)\s+(?:\w+\s+)?(?:before|midway|partway|halfway|mid)\b",
              # "The camera never gets close enough to his feet to see a logo"
              r"\b(?:not|never|isnt|wasnt)\s+(?:\w+\s+){0,4}?(?:close|clear|sharp|big|large|bright|long|steady|loud|near|zoomed in)"
              r"\s+enough\s+(?:\w+\s+){0,4}?to\s+(?:see|read|make out|tell|identify|hear|recognize|recognise)\b",
              # "It was white with black digits, but not what the digits are"
              r"^(?:but|though|yet)\s+not\s+(?:what|which|who|whose|where|when|how many|how much)\b",
              # "No one says the baby's name in the video", "none appear in the frame", "there aren't any
              # curtains in the image"
              r"\b(?:no one|nobody|noone)\s+(?:ever\s+)?(?:says|said|mentions|mentioned|names|named|calls|called|speaks|spoke|shows|showed)\b",
              r"\bnone\s+(?:of\s+them\s+)?(?:appear|appears|are visible|is visible|show up|shows up|are shown|is shown)\b",
              r"\bthere\s+(?:arent|isnt|werent|wasnt|are not|is not)\s+any\s+(?:\w+\s+){1,3}?in\s+(?:this|the|that)?\s*(?:image|photo|picture|video|clip|frame|scan|page|screenshot)\b",
              # a premise out of range: "The video is only 4:52 long, so there's no 12:30 mark", "there is no
              # page 12", "there is no student 14"
              r"\b(?:there is|theres|there are|there was|there were)\s+no\s+(?:\w+\s+)?(?:page|pages|mark|timestamp|minute|"
              r"second|slide|section|chapter|row|column|student|item|question|step|line|frame|episode|part|entry|number)\s+\d",
              r"\bno\s+such\s+(?:page|mark|timestamp|slide|section|chapter|row|student|item|entry|person|file|message|conversation)\b",
              # "I don't have any way to know which of them is your brother"
              r"\b(?:dont|do not)\s+have\s+(?:any\s+)?(?:way|means)\s+(?:to|of)\s+(?:know|tell|say|determine|identify|confirm)",
              # "At no point in the clip does the doctor give a diagnosis"
              # (a bounded gap: a clause of thousands of "at no point" is read in linear time)
              r"\bat no point\b(?:\s+[\w-]+){0,12}?\s+(?:say|says|said|give|gives|gave|show|shows|showed|shown|mention|mentions|"
              r"mentioned|name|names|named|state|states)\b",
              # "so there's no 4:30 mark", "so there isn't a 5:10"
              r"\bno\s+\d[\d:]*\s+(?:mark|minute|second|page|slide|timestamp)\b",
              r"\bthere\s+(?:isnt|is not|arent|are not)\s+(?:a\s+|any\s+)?(?:page\s+|slide\s+|section\s+|row\s+)?\d",
              # "Nothing about the cello has come up", "no name for the vet came up", "never comes up"
              r"\bnothing\s+(?:\w+\s+){0,4}?(?:has\s+|have\s+|had\s+)?(?:come|came|comes)\s+up\b",
              r"\bno\s+(?:[\w-]+\s+){1,6}?(?:came|come|comes)\s+up\b",
              r"\bnever\s+comes\s+up\b",
              # "no email addresses appear anywhere in the PDF", "none of its sections mention arbitration"
              r"^(?:but\s+)?no\s+(?:[\w-]+\s+){1,6}?(?:appears?|appeared|shows? up|showed up)\b",
              r"\bnone\s+of\s+(?:its|the|these|those|their|your|my|our)\s+(?:\w+\s+)?(?:mention|mentions|say|says|"
              r"show|shows|name|names|list|lists|include|includes|cover|covers|address|addresses)\b",
              # a model that will not name a person, an error it ran into, an upload missing
              r"\b(?:cant|cannot|can not|wont|will not|dont|do not)\s+(?:help\s+(?:you\s+)?)?identify\s+(?:people|persons|anyone|someone|real people|individuals)\b",
              r"\b(?:ran into|hit|got|encountered)\s+(?:an?\s+)?error\b",
              r"\b(?:doesnt|didnt|does not|did not)\s+(?:seem to\s+)?(?:have\s+)?(?:upload|uploaded|attach|attached|load|loaded)\b",
              r"^(?:nothing more|thats all i can (?:see|tell|make out|read))$",
              # "blood type isn't among the tests reported"
              r"\b(?:isnt|is not|arent|are not|wasnt|werent)\s+(?:\w+\s+)?among\b",
              # "I'd rather not put a number on it": a refusal to commit
              r"\b(?:id|i would|i d)\s+rather\s+not\s+(?:guess|say|put|give|speculate|commit)\b",
              # "The items and the total are still readable, but the date isn't"
              r"^(?:but|though|yet)\s+(?:\w+\s+){1,3}?(?:isnt|arent|wasnt|werent|is not|are not)$")
# too dark, faint, small ... for one to read, see or hear: "The audio is too faint to identify the song", "it's
# too dark" as a clause of its own (not "Disney felt it was too dark for a typical release")
_TOO = r"too\s+(?:dark|faint|small|far away|far|grainy|pixelated|blurry|blurred|low resolution|lowresolution|lowres|noisy|muffled|quiet|distorted|bright|washed out)"
TOO_FAINT = (rf"\b{_TOO}\b(?:\s+\w+){{0,5}}?\s+(?:to|for me to|for us to)\s+(?:\w+\s+)?(?:read|see|tell|make out|identify|hear|"
             r"determine|recognize|recognise|say|be sure|decipher|distinguish)\b",
             # (at a clause's end only what spoils a picture or a sound: "the package was too small" is no decline)
             r"\b(?:is|was|are|were|its|theyre)\s+(?:\w+\s+)?too\s+(?:dark|faint|grainy|pixelated|blurry|blurred|dim|far away|"
             r"distorted|muffled|noisy|washed out|low resolution|lowresolution|lowres)$")
# A decline qualified this way doubts the answer's completeness or certainty, not its existence:
# "I can't confirm a definitive count", "... enough information to fully answer", "with certainty".
CAVEAT_WORDS = ("fully", "definitively", "definitive", "with certainty", "for certain", "for sure",
                "completely", "entirely", "conclusively", "with confidence", "100", "complete", "comprehensive",
                "exhaustive", "full", "additional", "other", "any more", "further", "broader")
# Words that open a conclusion: what follows is the reply's answer ("Therefore, 12 days",
# "Total: $495", "So you've tried at least 3 cuisines", "That's at least 4 types").
CONCLUSION_LEADS = ("therefore", "so", "thus", "hence", "in conclusion", "in summary", "to summarize",
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
TALLY_LEADS = ("thats", "that is", "that makes", "this makes", "which makes", "that brings", "this brings",
               "which brings", "this gives", "that gives", "which gives", "giving", "bringing", "for total")
# Advice given is an answer to a request for advice ("Here are some options", "I'd suggest ...").
ADVICE_LEADS = ("i would recommend", "i would suggest", "id recommend", "id suggest", "i recommend",
                "i suggest", "my recommendation", "my suggestion", "some options could include",
                "options include", "some highlights", "relevant tips", "relevant tip")
ADVICE_NOUNS = ("tip", "tips", "suggestion", "suggestions", "recommendation", "recommendations", "idea",
                "ideas", "option", "options", "pick", "picks", "place", "places", "thing", "things")
# A sentence opening with a contrast that states a fact after a decline answers after all
# ("... don't contain a sports event on that day. However, the closest match is the soccer tournament").
CONTRAST_LEADS = ("but", "however", "that said", "still", "nevertheless", "nonetheless", "even so", "yet")
# What the history or the user said, reported as evidence: context, neither an answer nor a decline
# ("The messages mention that you visited Japan", "From Session 2, we know that", "The user mentioned").
SOURCES = ("message", "messages", "conversation", "conversations", "chat", "chats", "chat history",
           "history", "session", "sessions", "note", "notes", "extracted note", "extracted notes",
           "memory", "memories", "record", "records", "context", "log", "logs", "summary", "summaries",
           "retrieved history", "discussion", "discussions", "past conversations", "reference",
           "references", "session summary", "session content", "extracted information", "information",
           "they", "document", "documents", "passage", "passages", "article", "articles", "text",
           "source", "sources", "page", "pages")
SOURCE_QUALIFIERS = ("one", "some", "several", "other", "these", "those", "both", "all", "earlier",
                     "previous", "past", "retrieved", "relevant", "most relevant", "only", "closest",
                     "closest relevant", "your", "provided", "available", "same", "related", "another",
                     "first", "second", "latest", "most recent", "chat")
REPORTING_VERBS = ("mention", "mentions", "mentioned", "show", "shows", "showed", "discuss", "discusses",
                   "discussed", "reference", "references", "referenced", "say", "says", "said", "state",
                   "states", "stated", "indicate", "indicates", "indicated", "contain", "contains", "include",
                   "includes", "note", "notes", "refer", "refers", "talk about", "talks about", "describe",
                   "describes", "cover", "covers", "focus", "focuses", "is about",
                   "are about", "was about", "were about", "read", "reads", "list", "lists", "touch on",
                   "touches on", "is from", "are from", "was from", "were from", "reveal", "reveals",
                   "confirm", "confirms", "has", "have", "name", "names", "named", "identify", "identifies",
                   "explain", "explains", "define", "defines")
# verbs of what a source holds, read as evidence after "only" (besides REPORTING_VERBS)
ONLY_VERBS = ("provide", "provides", "provided", "give", "gives", "gave", "define", "defines", "defined",
              "explain", "explains", "explained", "deal with", "deals with", "concern", "concerns", "offer", "offers")
EVIDENCE_LEADS = ("we know that", "i can see that", "i see that", "we can see that", "i found that",
                  "i can find that", "it is mentioned",
                  "it was mentioned", "it mentions", "there is note", "note reads", "i extracted",
                  "i can extract", "we can extract", "from session", "in session", "as mentioned",
                  "user mentioned", "user mentions", "user said", "user stated", "user noted", "user asked",
                  "user was asking", "user is asking", "user expressed", "user shared", "user told",
                  "user has mentioned", "user also mentioned", "user had mentioned", "its mentioned", "its stated",
                  "it is stated", "it was stated", "it says", "it states")
# The steps of a step-by-step reply ("To answer the question, I will follow these steps",
# "Step 2: Reason over the information"): filler.
PROCEDURE_LEADS = ("to answer", "to provide", "to determine", "to find", "to figure out", "to calculate", "to work out",
                   "to solve", "i will follow", "we need to follow", "we will follow", "follow these steps",
                   "ill follow", "i will extract", "i will look", "i will reason",
                   "i will analyze", "i will consider", "i will use", "we need to extract", "we need to find",
                   "we need to look", "we need to consider", "we need to determine", "we need to calculate",
                   "lets", "let us", "step", "extract relevant information", "extracting relevant information",
                   "reason over", "reasoning over", "analyze", "analyse", "analyzing", "identify relevant",
                   "identify any additional", "provide answer", "provide final answer", "draw conclusion",
                   "combine information", "consider context", "look for", "heres my answer",
                   "here is my answer", "heres breakdown", "here is breakdown", "heres how", "here is how",
                   "breaking down", "break down")
# Headings and stubs that are the whole clause: "**Answer**", "Conclusion", "From Session 2, we have:"
HEADINGS = ("answer", "final answer", "conclusion", "reasoning", "analysis", "explanation", "breakdown", "extracted information",
            "relevant information", "we have", "we know", "i can see", "we can see", "i found", "notes",
            "we have following", "i found following")
# a lead-in to a list or to notes: "I can identify the following:", "I found the following
# information:" (at most this many words before "following")
LEAD_IN = re.compile(r"^(?:\w+\s+){0,5}following(?:\s+\w+){0,6}$")
# Offers, suggestions and questions back are no answer ("If you tell me, I'll remember it",
# "you could check your calendar", "Let me know if ...", "it's up to you").
OFFER_LEADS = ("if you", "if youd", "if youre", "if you can", "feel free", "let me know", "id be happy",
               "i would be happy", "i can try", "i can help", "you could", "you might want", "you may want",
               "you can", "you may", "you might", "please", "could you", "would you", "can you",
               "to get helpful", "to give you", "to fully answer", "to accurately answer", "id need",
               "i would need", "i need", "i would have to", "you would need", "youd need", "youll need")
# Pointers elsewhere are offers too: the reply sends the user to look the answer up ("I can suggest
# checking the official website", "It's best to research current salary data", "Please check their
# schedule", "it might be helpful to consult an advisor"); no answer is given by them. ("I'd suggest
# checking out The Bear" recommends: "check out" is no pointer.)
POINTER_VERBS = ("check", "checking", "visit", "visiting", "consult", "consulting", "contact", "contacting",
                 "reach out", "reaching out", "look up", "looking up", "look into", "looking into",
                 "refer to", "referring to", "research", "researching", "search", "searching", "ask",
                 "asking", "verify", "verifying", "call", "calling", "inquire", "inquiring", "speak with",
                 "speaking with", "speak to", "speaking to", "talk to", "talking to", "review", "reviewing")
POINTER_LEADS = ("i can suggest", "i could suggest", "i can recommend", "i could recommend", "i would suggest",
                 "i would recommend", "id suggest", "id recommend", "i suggest", "i recommend", "i advise",
                 "i would advise", "i encourage you to", "i would encourage you to", "i can only suggest",
                 "its best to", "it is best to", "it would be best to", "its advisable to", "it is advisable to",
                 "it would be advisable to", "its recommended to", "it is recommended to", "its good idea to",
                 "it is good idea to", "it would be good idea to", "it might be helpful to",
                 "it may be helpful to", "it would be helpful to", "it could be helpful to", "its worth",
                 "it is worth", "it would be worth", "it might be worth", "please", "best to")
# A general remark ("However, Bruno Mars has performed in various venues", "However, it is known that
# his tragedies were well-received"): related knowledge, not the value asked; it does not reverse a
# decline the way a contrast that states the asked fact does. ("However, generally, the SEC requires
# GAAP" is a hedged answer: "generally" and "typically" are not on the list.)
GENERAL_REMARK_WORDS = ("various", "widely", "it is known", "its known", "it is worth noting", "its worth noting",
                        "it is important to note", "its important to note", "worth mentioning")
# An offer of general information instead of what was asked ("However, I can provide some general
# information on motorcycle safety."): what follows it is general, not the answer.
GENERAL_OFFER_VERBS = ("provide", "offer", "give", "share", "suggest", "outline", "list", "tell you",
                       "mention", "point out", "explain")
GENERAL_WORDS = ("general", "generic", "broad", "background", "common", "some general", "more general", "few general")


# -- vocabulary ------------------------------------------------------------------------------------
ADV = r"(?:really|honestly|just|simply|truly|actually|even|ever|also|exactly|explicitly|clearly|directly|yet|specifically|quite|fully|completely|precisely|currently|unfortunately|personally|still|accurately|definitively|reliably|correctly|confidently|entirely|conclusively|somewhat)"
ADVS = rf"(?:{ADV}\s+){{0,2}}"
NEG_MODAL = (r"(?:do not|dont|did not|didnt|does not|doesnt|cannot|cant|can not|could not|couldnt|"
             r"am unable to|m unable to|am not able to|m not able to|im unable to|im not able to|not able to|"
             r"wasnt able to|was not able to|werent able to|havent been able to|have not been able to|"
             r"unable to|wont be able to|will not be able to|have no way to|never)")
KNOW_VERBS = (r"(?:know|remember|recall|recollect|say|tell|determine|answer|find|see|confirm|verify|"
              r"make (?:it|them|that|this|anything|any of it|any of them) out|estimate|gauge|judge|figure out|measure|"
              r"narrow (?:it|them|this|that) down|pin (?:it|them|this|that) down|get (?:the|a|an|any)|spot|"

              r"access|locate|be certain|be sure|tell you|help with that|retrieve|identify|make out|read|work out)")
PARTICIPLES = (r"(?:mentioned|discussed|specified|stated|provided|given|shared|covered|recorded|told|"
               r"indicated|included|disclosed|brought up|talked about|said|noted|addressed|shown|"
               r"visible|answered|clarified|known|revealed|documented|described|captured|listed|"
               r"explained|established|confirmed|contained|named|identified|pinpointed|detailed|"
               # what a picture or a clip does not give: "the password side isn't showing", "any logo isn't discernible"
               r"showing|discernible|legible|readable|audible|identifiable|in frame|in shot|on screen|captured|"
               r"announced|reported|calculated|broken down|printed|displayed|labeled|labelled|written)")
SOURCE = (r"(?:conversations?|chats?|history|dialogues?|dialogs?|documents?|docs?|images?|photos?|"
          r"pictures?|videos?|messages?|records?|texts?|transcripts?|logs?|memory|memories|context|"
          r"files?|screenshots?|sessions?|notes?|excerpts?|pages?|pdfs?|slides?|scans?|attachments?|frames?|"
          r"passages?|paragraphs?|articles?|sources?|"
          # documents and pictures a user sends: "The offer letter doesn't include a deadline"
          # (not "report" or "statement": "The report did not specify a cause" reports what someone found)
          r"letters?|leases?|leaflets?|brochures?|forms?|tables?|papers?|study|studies|labels?|stickers?|"
          r"receipts?|invoices?|contracts?|manuals?|menus?|charts?|graphs?|transcripts?|emails?|"
          r"footage|clips?|recordings?|captions?|agreements?|minutes|proposals?|filings?|spreadsheets?|certificates?|"
          r"prescriptions?|bills?|resumes?|cvs?|summary|summaries|"
          r"it|this|that|you|we|i|there)")
NEG_DO = (r"(?:does not|doesnt|did not|didnt|do not|dont|never|has not|hasnt|have not|havent|"
          r"had not|hadnt|wont|will not)")
SOURCE_VERBS = (r"(?:mention(?:ed|s)?|says?|said|specif(?:y|ied)|state[sd]?|include[sd]?|provide[sd]?|"
                r"contain(?:ed|s)?|cover(?:ed|s)?|show(?:n|ed|s)?|reveal(?:ed|s)?|indicate[sd]?|tell|told|"
                r"give|gave|establish(?:es|ed)?|clarif(?:y|ies|ied)|pinpoint(?:s|ed)?|define[sd]?|explain(?:ed|s)?|identif(?:y|ies|ied)|name[sd]?|list(?:ed|s)?|detail(?:ed|s)?|"
                r"address(?:ed)?|discuss(?:ed)?|talk(?:ed)? about|share[sd]?|shared|"
                r"bring up|brings? (?:\w+ )?up|brought (?:\w+ )?up|come up|came up|appear(?:ed|s)?|answer(?:ed|s)?|describe[sd]?|"
                r"list(?:ed|s)?|pinpoint(?:ed|s)?|identif(?:y|ies|ied)|clarif(?:y|ies|ied)|touch(?:ed|es)? on|note[sd]?|go(?:es)? into|went into|get(?:s)? into|deal(?:s)? with|dealt with|refer(?:s|red)? to|"
                r"follow(?:ed|s)? up|report(?:s|ed)?|have any|has any|update[sd]? me)")
INFO = (r"(?:info|information|details?|records?|mentions?|data|knowledge|memory|recollection|"
        r"indications?|statements?|evidence|context|specifics|clues?|idea|references?|list|count|total|tally|figure|accounting|breakdown|timeline|"
        r"answer)")
DISCUSSION = r"(?:discussions?|talk|conversations?)"
FIRST = r"(?:i|we|im|i am|were|we are|ive|i have|weve|id|i would|me)"
NEG_BE = (r"(?:(?:is|was|are|were|be|been|has been|have been|had been|hes|shes|thats|theyre)\s+(?:not|never)(?:\s+been)?|"
          r"isnt|wasnt|arent|werent|hasnt been|havent been|hadnt been|never been|not been|aint)")

REFUSE = compile_groups({"refuse-speaker": (
    # the speaker does not know / remember / ... ("I honestly can't remember", "we don't know")
    rf"\b{FIRST}\s+{ADVS}{NEG_MODAL}\s+{ADVS}{KNOW_VERBS}\b",
    rf"\b(?:i|we)\s+{ADVS}(?:do not|dont)\s+(?:think|believe)\s+(?:that\s+)?(?:you|we|it|that|this|youve|weve)\b"
    r"(?:\s+\S+){0,12}?\s+(?:ever|never)\b",  # a bounded gap: linear on a hostile clause
    # "I don't think you've mentioned your partner's name"
    r"\b(?:i|we)\s+(?:do not|dont)\s+(?:think|believe)\s+(?:that\s+)?(?:you|youve|you have|we|weve)\s+(?:\w+\s+)?"
    r"(?:mentioned|told me|said|shared|brought up|given|named|talked about)\b",
    # what a model cannot do with the input: "I can not watch videos", "I wasn't able to process this video"
    # (the speaker alone: "We are unable to process your request" quotes an error message)
    rf"\b(?:i|im|i am|ive|i have)\s+{ADVS}(?:cannot|cant|can not|could not|couldnt|am unable to|m unable to|unable to|"
    rf"wasnt able to|was not able to|was unable to|am not able to|m not able to|not able to|havent been able to|"
    rf"have not been able to)\s+{ADVS}(?:watch|view|open|process|extract|load|transcribe|play|access)\b",
    # "I'm not finding it", "Can't find it in our chats", "Can't read it"
    r"\b(?:im|i am|we are|were)\s+not\s+(?:finding|seeing|spotting)\b",
    rf"^(?:sorry\s+|unfortunately\s+)?(?:cant|cannot|couldnt|could not|unable to)\s+{ADVS}{KNOW_VERBS}\b",
    rf"\b(?:i|we)\s+{ADVS}(?:do not|dont|did not|didnt)\s+(?:really\s+)?have\s+(?:any\s+|that\s+|this\s+|those\s+|such\s+|enough\s+|much\s+|a\s+|an\s+|the\s+|relevant\s+|specific\s+|clear\s+|access\s+to\s+)*(?:{INFO}|access|that|it|this|answer|recollection)\b",
    rf"\b(?:i|we)\s+(?:have|had|ve)\s+(?:no|zero)\s+(?:\w+\s+)?{INFO}\b",
    # "I don't have the address.", "That one I don't have."
    r"^(?:(?:sorry|unfortunately|honestly)\s+)?(?:i|we)\s+(?:do not|dont)\s+have\s+(?:the|that|their|his|her|its|your|this)\s+[a-z]+(?:\s+[a-z]+)?$",
    r"^(?:that|this)(?:\s+one)?\s+(?:i|we)\s+(?:do not|dont)\s+have\b",
    # "Not that I can see", "not that I know of"
    r"^not\s+that\s+(?:i|we)\s+(?:can\s+(?:see|tell|find)|know|recall|remember|am aware)\b",
    # "I don't have a start date for your new job in my memory"
    rf"\b(?:i|we)\s+{ADVS}(?:do not|dont|did not|didnt)\s+have\s+(?:\w+\s+){{1,6}}?in\s+(?:my|our)\s+(?:\w+\s+)?{SOURCE}\b",
    r"^(?:i\s+|we\s+|ive\s+|i have\s+|honestly\s+|sorry\s+|really\s+|absolutely\s+)?(?:got\s+)?no\s+(?:idea|clue|recollection|memory)\b",
    r"\b(?:i|we)\s+(?:was not|wasnt|were not|werent|have not been|havent been|was never|were never)\s+told\b",
    rf"\b(?:im|i am|we are|were|i was|i m)\s+{ADVS}(?:not|un)\s*aware\b",
    rf"^{ADVS}(?:not|un)\s*aware\b",
    rf"\b(?:i|we)\s+{ADVS}(?:lack|am lacking|m lacking)\b",
), "refuse-user": (
    # the user never told ("You never told me that", "you didn't mention it")
    rf"\b(?:you|youve|you have|youd|you had)\s+{ADVS}{NEG_DO}\s+{ADVS}{SOURCE_VERBS}\b",
    r"\byou\s+(?:mentioned|talked about|told me about|said|shared|described|discussed)\b.*\b(?:but|though|yet)\s+(?:not|never|didnt|did not|without)\b",
), "refuse-source": (
    # a source does not say ("The conversation doesn't mention it", "the photos don't show it")
    rf"\b{SOURCE}\b(?:\s+\w+){{0,3}}?\s+{NEG_DO}\s+{ADVS}{SOURCE_VERBS}\b",
    # "The passage says construction began in 1928 but does not say when it was completed"
    rf"\b(?:but|yet|though|and)\s+(?:it\s+|they\s+|this\s+|that\s+)?{NEG_DO}\s+{ADVS}{SOURCE_VERBS}\b",
    # "the passage gives no exact date", "the text says nothing about it"
    rf"\b{SOURCE}\b(?:\s+\w+){{0,3}}?\s+(?:gives?|gave|provides?|provided|offers?|mentions?|names?|lists?|includes?)\s+(?:no|nothing)\b",
    rf"\b{SOURCE}\b(?:\s+\w+){{0,3}}?\s+(?:says|said|states?|tells us)\s+nothing\b",
    # "The document is silent on where ...", "the passage leaves out where ..."
    rf"\b{SOURCE}\b(?:\s+\w+){{0,3}}?\s+(?:(?:is|was|are|were|remains?|stays?)\s+{ADVS}silent|leaves?\s+out|left\s+out|omits?|omitted)\b",
    rf"\b(?:none|nothing|no part|neither)\s+(?:of|in)\s+(?:\w+\s+){{0,3}}?{SOURCE}\b",
    r"\bnothing\s+(?:about|on|regarding|concerning)\s+(?:that|this|it|the|him|her|them)\b",
    # "but nothing about your appointments", "nothing specifically addresses your question",
    # "none of them clearly indicate which lens", "the information does not match your question"
    rf"\bnothing\s+{ADVS}(?:about|regarding|concerning|related to|addresses|covers|mentions|says|answers|relates to)\s+(?:your|you|my|our|his|her|their|any|that|this|it|them)\b",
    rf"\b(?:none|neither)\s+of\s+(?:them|these|those|which)\s+{ADVS}{SOURCE_VERBS}\b",
    # "Neither the document nor the images state the time"
    rf"\bneither\s+(?:\w+\s+){{0,2}}?{SOURCE}\s+nor\b.*?\b{SOURCE_VERBS}\b",
), "refuse-unreadable": (
    # what a picture or a page does not let one read: "the receipt is illegible", "the name is cut off"
    rf"\b{phrases(UNREADABLE)}\b",
    *TOO_FAINT, *MEDIA_ENDS,
), "refuse-source-silent": (
    # "but they don't specify how many": what a source does, not a person ("they didn't discuss salary")
    rf"\b(?:they|these|those)\s+{NEG_DO}\s+{ADVS}(?:specify|indicate|provide|contain|include|show|pinpoint|clarify|confirm|give|state|reveal|establish|address|cover|mention|go into|touch on|reference|list|describe|explain)\b",
    rf"\b{NEG_DO}\s+{ADVS}(?:match|answer|address|fit|relate to|correspond to)\s+(?:your|this|that|current|specific)\s+(?:\w+\s+)?question\b",
    # "The answer isn't in what we've discussed", "not in anything you told me"
    rf"\b(?:not|isnt|wasnt|arent|werent|nt)\s+(?:\w+\s+)?in\s+(?:what|anything)\s+(?:you|we|i|weve|youve|ive|has been|have been|was|were)\s+(?:\w+\s+)?{SOURCE_VERBS}",
    # anyone who did not mention it in a source: "Caroline did not mention running in her memories"
    rf"\b{NEG_DO}\s+{ADVS}(?:mention(?:ed|s)?|specif(?:y|ied|ies)|br(?:ing|ings|ought)\s+up|talk(?:ed|s)?\s+about)\b"
    rf".*\bin\s+(?:(?:her|his|their|the|our|your|my|any|provided|given)\s+)*{SOURCE}\b",
    r"\b(?:conversations?|chats?|history|dialogues?|documents?|images?|photos?|pictures?|videos?|messages?)\s+(?:\w+\s+)?lacks?\b",
), "refuse-passive": (
    # passive: "It isn't mentioned", "The date was never given", "Not specified in the chat"
    rf"\b{NEG_BE}\s+{ADVS}{PARTICIPLES}\b",
    rf"^(?:(?:as|since|because|and|but|so|though|although|while)\s+)?(?:(?:its|it is|it was|that is|thats|this is|this was|that was|was|is|were|are)\s+)?(?:not|never)\s+{ADVS}{PARTICIPLES}\b",
    rf"^none\s+{ADVS}(?:given|provided|mentioned|specified|stated|shared|listed|found)\b",
    # a reduced passive: "No specific date mentioned.", "No car accident mentioned in the memories",
    # "No explicit disagreement found"
    rf"^(?:(?:so|and|but|therefore|hence|thus)\s+)?(?:there\s+(?:is|was|are|were)\s+)?no\s+(?:[\w-]+\s+){{0,6}}?"
    rf"(?:(?:is|was|are|were|has been|have been)\s+)?{ADVS}(?:{PARTICIPLES}|found|noted|reported)"
    rf"(?:\s+(?:anywhere|in|from|by|about|on|for|within|before|after|during|since|until|at|regarding)\b.*)?$",
    # "Gina says nothing specific", "she mentioned nothing about it"
    r"\b(?:says?|said|mentions?|mentioned|gives?|gave|shares?|shared|tells?|told)\s+nothing\s+(?:specific|about|on|regarding|of)\b",
), "refuse-not-in-source": (
    # not in a source, or the source is empty: "The signup date is not available in the memories",
    # "The memories for Melanie are empty"
    rf"\b(?:is|was|are|were)\s+(?:not|never)\s+{ADVS}(?:available|present|included|found|recorded|listed|there)\s+"
    rf"(?:in|from)\s+(?:the\s+|her\s+|his\s+|their\s+|our\s+|your\s+|my\s+|any\s+|provided\s+|given\s+)*{SOURCE}\b",
    rf"^(?:(?:the|her|his|their|our|your|my)\s+)?{SOURCE}\b(?:\s+[\w-]+){{0,3}}?\s+(?:is|are|was|were)\s+empty\b",
    r"\b(?:it|that|this|what)\s+(?:never|didnt|did not|hasnt|has not)\s+(?:\w+\s+)?(?:came|come) up\b",
    r"\bnever\s+(?:came|come)\s+up\b",
    # "Car trouble hasn't come up between us before", "Spring break plans haven't come up in our chats"
    r"\b(?:hasnt|havent|has not|have not|hadnt|had not)\s+(?:\w+\s+)?(?:come|came)\s+up\b",
    rf"\b(?:not|isnt|nt|never)\s+something\s+(?:that\s+)?(?:(?:you|we|i|ive|youve|weve)\b|(?:has\s+|have\s+|had\s+)?(?:ever\s+)?(?:came|come)\s+up\b|(?:was|were|has been|have been)\s+{ADVS}{PARTICIPLES})",
    rf"\b(?:not|isnt|arent|wasnt|werent)\s+(?:part|in|anywhere in)\s+(?:of\s+)?(?:our|any|these|your|my|this|that)?\s*(?:\w+\s+)?{SOURCE}\b",
    # "the verdict itself isn't on it", "not on this page"
    r"\b(?:not|isnt|arent|wasnt|werent|nt)\s+(?:anywhere\s+)?on\s+(?:it|this|that|the|this|either)\s*(?:page|sheet|form|scan|photo|image|label|receipt|side|one)?$",
    # "the restaurant's name doesn't appear in the chat or the photos", "... never shows up in the video"
    rf"\b{NEG_DO}\s+{ADVS}(?:appear|show up|turn up|feature)s?\s+(?:anywhere\s+)?in\s+(?:the\s+|our\s+|your\s+|my\s+|any\s+|these\s+|this\s+|that\s+)?(?:\w+\s+)?{SOURCE}\b",
    rf"^not\s+in\s+(?:\w+\s+){{0,2}}?{SOURCE}\b",
), "refuse-no-record": (
    # no record / information / way to know
    rf"\b(?:there is|theres|there are|there was|there were|i have|i see|i found|with|contains?|"
    rf"shows?|has|have|had|got|is|are|^)\s*(?:no|not any|not much|little|zero)\s+(?:\w+\s+)?{INFO}\b",
    rf"\bno\s+{INFO}\s+(?:of|about|on|regarding|concerning|in|available|given|provided|for|that|was|is|to|whatsoever|at all|mentioned|found)\b",
    rf"^no\s+(?:\w+\s+)?{INFO}$",
    r"\bno\s+way\s+(?:to|of|for me to|i can)\s+(?:know|tell|say|determine|knowing|telling|saying|determining|be sure|confirm|find)\b",
    # "there hasn't been any discussion about it", "there has been no mention of the trip", "there isn't
    # any information about it"
    rf"\bthere\s+(?:{NEG_BE})\s+any\s+(?:\w+\s+)?(?:{INFO}|{DISCUSSION})\b",
    rf"\bthere\s+(?:is|was|are|were|has been|have been|had been)\s+(?:no|not any)\s+(?:\w+\s+)?{DISCUSSION}\b",
    rf"\bthere\s+(?:has been|have been|had been)\s+(?:no|not any)\s+(?:\w+\s+)?{INFO}\b",
), "refuse-insufficient": (
    # insufficient / incomplete information
    rf"\b(?:not enough|(?:isnt|is not|wasnt|was not|arent|are not|werent|were not) enough|insufficient|inadequate|incomplete|limited|missing|lacking|lack of|lacks|without(?: more| enough| further| additional)?)\s+(?:\w+\s+)?(?:{INFO}|context|data)\b",
    rf"\b{INFO}\s+(?:\w+\s+){{0,2}}?(?:is|was|are|were|seems|appears)\s+(?:\w+\s+)?(?:incomplete|insufficient|not enough|missing|lacking|unavailable|not available|limited|inadequate)\b",
    rf"\b{INFO}(?:\s+\w+){{0,5}}?\s+(?:isnt|is not|wasnt|was not|arent|are not)\s+(?:\w+\s+)?(?:available|accessible|there|known|present|included)\b",
), "refuse-cannot-be-known": (
    # cannot be determined / answered; impossible to tell
    rf"\b(?:cannot|cant|can not|could not|couldnt|unable to)\s+be\s+{ADVS}(?:determined|answered|inferred|known|confirmed|verified|identified|established|deduced|said|told|found|specified|ascertained|seen|read|made out|heard|recognized|recognised)\b",
    r"\b(?:impossible|not possible|hard|difficult|no way)\s+(?:for me\s+)?to\s+(?:\w+\s+)?(?:determine|tell|say|answer|know|infer|confirm|verify|identify|establish|be sure|find)\b",
    rf"\b(?:question|this|that|it)\s+(?:is|seems|appears)\s+{ADVS}(?:unanswerable|not answerable|impossible to answer)\b",
    r"\b(?:unanswerable|not answerable|cannot answer|cant answer|beats me)\b",
), "refuse-unknown": (
    # it / that is unknown / unclear
    r"\b(?:it|its|it is|it was|this|that|thats|answer|information|date|details?)\s+(?:is\s+|was\s+|remains\s+|stays\s+|seems\s+|appears\s+)?(?:still\s+)?(?:unknown|not known)\b",
    r"\b(?:unknown|not known|unclear|not clear|uncertain)\s+(?:from|based on|given)\b",
    rf"\b(?:unknown|not known|unclear|not clear|uncertain)\s+in\s+(?:our|your|my|these|those|any)?\s*{SOURCE}\b",
    r"\b(?:but|and|yet)\s+(?:cant|cannot|couldnt|could not|did not|didnt|was unable to)\s+(?:find|locate|see)\b",
    r"\b(?:is|remains|was)\s+(?:still\s+)?(?:unknown|not known)\s*$",
), "refuse-without": (
    # "..., without specifying which trip it was"
    rf"^(?:(?:but|and|though|yet)\s+)?without\s+{ADVS}(?:specifying|mentioning|saying|stating|indicating|giving|"
    r"providing|clarifying|naming|identifying|confirming)\b",
)})
REFUSE_AFTER_CONTEXT = re.compile(r"^(?:but|though|yet|and)\s+(?:not|never|didnt|did not|dont|do not|doesnt|does not|"
                                  r"without|nothing)\b")
# a whole clause that is a refusal: "Unknown.", "N/A", "idk", "not mentioned", "unsure"
WHOLE_WORDS = ("unknown", "not known", "na", "n a", "idk", "i dunno", "dunno", "no idea", "no clue", "unanswerable",
               # "Can you read the note?" "Unfortunately not."
               "unfortunately not", "sadly not", "afraid not", "im afraid not", "i am afraid not", "sorry no",
               "not applicable", "no answer", "beats me", "cannot answer", "cant answer", "cannot say", "cant say",
               "none given", "no comment", "nothing mentioned", "no info", "no information", "no data",
               "insufficient data", "undetermined", "indeterminate", "not determinable", "cannot tell", "cant tell",
               "not mentioned", "unmentioned", "not stated", "not specified", "not given", "not provided",
               "not discussed", "never mentioned", "not found", "unclear", "uncertain", "unsure", "not sure")
_WHOLE_WORDS = rf"(?:{phrases(WHOLE_WORDS)}|there (?:is|are|was|were) no)"
# one of them, or several joined by "or" ("unknown or not mentioned"), optionally naming the source
WHOLE = re.compile(rf"^{_WHOLE_WORDS}(?:\s+(?:or|and|nor)\s+{_WHOLE_WORDS})*"
                   rf"(?:\s+(?:in|from|by)\s+(?:this\s+|that\s+|provided\s+|given\s+)*{phrases(SOURCES)})?$")
CONJ = r"(?:(?:but|and|however|though|although|yet|so|still)\s+)?"
HEDGE = compile_groups({"hedge-unclear": (
    r"\b(?:its|it is|it was|it remains|it remained|that is|thats|this is)\s+(?:still\s+)?(?:unclear|not clear|uncertain)\b",
), "hedge-unsure": (
    rf"\b(?:im|i am|i m|were|we are|i was)\s+{ADVS}(?:not|un)\s*(?:\w+\s+)?(?:sure|certain)\b",
    rf"\b(?:im|i am|i m|were|we are)\s+{ADVS}uncertain\b",
    rf"^{CONJ}{ADVS}(?:not|un)\s*(?:\w+\s+)?(?:sure|certain)\b",
    rf"^{CONJ}{ADVS}uncertain\b",
    rf"\b(?:i|we)\s+{ADVS}(?:cant|cannot|can not|couldnt|could not)\s+be\s+(?:\w+\s+)?(?:sure|certain)\b",
), "hedge-hard-to-say": (
    rf"^{CONJ}(?:its\s+|it is\s+|that is\s+|thats\s+)?(?:hard|difficult|tough|tricky)\s+to\s+(?:say|tell|know)\b",
), "hedge-unclear-opening": (
    r"^(?:its\s+|it is\s+|it was\s+|that is\s+|thats\s+|this is\s+|answer is\s+|it remains\s+|that remains\s+)?(?:still\s+)?(?:unclear|not clear)\b",
    r"^(?:its\s+|it is\s+)?unknown$",
)})
# "it's" (any apostrophe) before normalisation, which would make it the possessive "its"
IT_IS = re.compile(r"\b(it)['\u2019]s\b", re.IGNORECASE)
GUESS = re.compile(
    r"\b(?:i think|i believe|i guess|my guess|best guess|guess is|probably|likely|maybe|perhaps|"
    r"possibly|might have|may have|must have|could have been|(?:might|may|could)\s+be(?!\s+able\b)|"
    # "It was in May", "it's the blue one" (read as "it is"): opening the clause ("its run" is a possessive)
    r"^(?:(?:and|but|so|though|however|yet)\s+)?(?:it was|it is)(?!\s+(?:worth|known|important|best|advisable|recommended|a good idea|not)\b)|"
    r"it looks|looks like|seems|i recall|i remember|if i remember|if i recall|either\s.*\bor|i would say|"
    r"id say|id guess|i suspect|presumably|most likely|closest match is|best match is|closest match would be|"
    # an approximation is a guess only when it approximates a quantity or a time ("about 5 days",
    # "around mid-May"), not "information about the trip"
    r"(?:around|about|roughly|approximately|nearly|almost)\s+(?:\d|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|twelve|twenty|thirty|half|dozen|hundred|week|month|year|day|hour|noon|midnight|"
    r"mid|early|late|last|next|january|february|march|april|may|june|july|august|september|october|"
    r"november|december|spring|summer|autumn|fall|winter)|"
    r"somewhere|sometime|i am fairly|im fairly|im pretty|i am pretty|"
    # an inference drawn from the history: "This suggests an increase from 3 to 4 times a week"
    r"(?:this|that|which|it)\s+(?:suggests|indicates|implies|means)|"
    # a figure worked out: "the difference would be $50", "you would have raised $50 more"
    r"(?:would|will)\s+(?:have\s+)?(?:be|been|\w+ed)\s+(?!(?:happy|glad|able|willing|delighted)\b)(?:\w+\s+){0,3}?\d+|"
    # ... or a participle drawing it: "..., suggesting that the branch may originate near the lake"
    r"^(?:suggesting|implying|indicating)\s+that\s+\w+)\b")
NARRATIVE = re.compile(
    r"^(?:(?:so|then|and|but|and then|which|because|until|later|after that|whereupon|though|although)\s+)?"
    r"(?:she|he|they|you|we|i|it|who)\s+(?:\w+ed|went|took|was|were|had|got|made|came|left|told|said|"
    r"bought|stayed|found|ran|drove|sent|ate|chose|kept|wore|paid|met|gave|did|moved|arrived|"
    r"raised|called|used|decided|turned|ordered|accepted|reordered|picked|signed)\b")
FILLER = re.compile(
    r"^(?:sorry|im sorry|i am sorry|so sorry|unfortunately|sadly|hmm+|um+|uh+|well|honestly|"
    r"to be honest|to be fair|i apologi[sz]e|apologies|my apologies|im afraid|i am afraid|though|"
    r"however|but|thanks?|thank you|ok|okay|again|alas|oh|ah|yeah|no|nope|i see|i checked|"
    r"really|sorry about that|sorry again|frankly|truthfully|let me (?:think|see|check|recall|remember)|"
    r"good question|hold on|one sec(?:ond)?|in fact|actually|indeed|in reality|as a matter of fact)$"
    # a concession that supposes, not a guess: "..., even if they might be well known"
    r"|^(?:even if|even when)\s"
    # a remark on the question itself: "This is a trick question (designed to ...)!", "That's a great
    # question", "I think there may be a bit of a mismatch here"
    r"|^(?:this|that|thats|it|its)\s+(?:is\s+|was\s+|seems\s+like\s+|sounds\s+like\s+)?(?:(?:a|an|bit of|really|very|such)\s+)*"
    r"(?:trick|tricky|great|good|interesting|fun|excellent|fascinating|loaded|complex|difficult|hard)\s+question\b"
    # "It's designed to see if you'll start pulling information from other sources": what the question is for
    r"|^(?:this|that|thats|it|its|the question|this question)\s+(?:is\s+|was\s+|seems\s+|appears\s+)?(?:\w+\s+)?designed\s+to\b"
    r"|^(?:i think\s+|it seems\s+|it looks like\s+)?there\s+(?:may|might|seems to|appears to)?\s*(?:be|is)\s+(?:a\s+)?(?:bit of\s+)?"
    r"(?:a\s+)?(?:mismatch|confusion|misunderstanding|mixup|mix up|mistake|discrepancy)\b")
FILLER_LEAD = re.compile(
    r"^(?:based on|according to|from|looking (?:at|through|back)|after (?:checking|reviewing|looking|going)|"
    r"as far as|in (?:our|your|my|these|those|what)|given|going through|checking|reviewing|"
    r"having (?:checked|looked|reviewed)|i checked|i looked|i searched|searching)\b")
# what the question says is no answer: "The question refers to an accident, but ..."
QUESTION_SAYS = re.compile(r"^(?:(?:however|but|and)\s+)?(?:(?:the|this|your)\s+)?(?:current\s+|original\s+)?question\s+"
                           r"(?:\w+\s+)?(?:refers|references|asks|mentions|is about|assumes|implies|presumes|"
                           r"talks about|names|seems to|appears to)\b")
CONTEXT = re.compile(r"^(?:you|we|youve|weve|you have|we have)\s+(?:\w+\s+)?(?:mentioned|talked about|told me about|said something about|"
                     # what the conversation went through: "We went over a few ideas together", "You were
                     # deciding between Dr. Patel and Bright Smile Dental", "You told me you had an interview"
                     r"went over|talked through|were deciding|were considering|were choosing|were planning|told me|"
                     r"did mention|did say|did tell me|did talk about|"
                     rf"discussed|shared|described|brought up|spoke about)\b|{QUESTION_SAYS.pattern}")
SPLIT = re.compile(r"(?<!\d)[.](?!\d)|[!?;\n()\[\]]+|(?<!\d):|:(?!\d)|(?<!\d),|,(?!\d)|\s[-–—]+\s|[–—]|\.\.\.|…")


# -- the question: what it asks -------------------------------------------------------------------
# When the caller has the question, the reply is read against it: what kind of value it asks for
# (a number, a total, a clock time, a date) and which words name what it asks about. Phrases are
# matched on the normalised question (lower case, no punctuation, no articles).
ASKS = (
    # a number: a count, a total, a sum of money, a duration, an age, a frequency
    ("amount", ("how many", "how much", "total", "number of", "combined", "in total", "altogether",
                "sum of", "how long", "how old", "how often", "what percentage", "how far")),
    # a total: a partial sum is no answer ("A full total cannot be determined" declines)
    ("total", ("total", "combined", "in total", "altogether", "sum of", "all together")),
    ("clock", ("what time", "which time", "at what time")),
    # a year: a century or "later" does not give one ("In what year ...?" "In the early 18th century")
    ("year", ("what year", "which year")),
    # ("when" only opening a sentence: "What did I buy when I was in Paris?" asks for a thing)
    ("date", ("date", "what date", "which date", "what day", "which day", "what year", "which year",
              "what month", "which month", "how long ago")),
    # a way of doing something: general steps answer it ("How can I get a restraining order ...?")
    ("procedure", ("how can i", "how do i", "how should i", "how would i", "how could i", "how to",
                   "how does one", "how can one", "how can you", "how do you", "what steps", "which steps",
                   "what is process", "whats process", "example of", "examples of", "an example")),
)
# A choice between named things ("Which did I start first, the Ferrari model or the Porsche?"): the
# question has "or" and one of these; an answer picks with one of them (or before / after).
COMPARE_WORDS = ("first", "last", "earlier", "earliest", "later", "latest", "more", "most", "less", "least",
                 "fewer", "better", "best", "older", "oldest", "newer", "newest", "higher", "lower",
                 "longer", "shorter", "bigger", "smaller", "before", "after")
# Words that frame a question rather than name what it asks about ("I was going through our
# previous conversation and wanted to confirm ..."), and the vocabulary of saying that something is
# absent ("the retrieved messages don't specifically mention ..."): neither names the asked thing.
FRAME_WORDS = frozenset("""
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
PRECISION_WORDS = ("exact", "exactly", "precise", "precisely", "definitive", "definitively", "certain",
                   "certainty", "sure", "accurate", "accurately", "confident", "confidently", "specific date",
                   "specific day", "specific time", "specific number", "specific amount")
# How many of the question's naming words a clause must repeat to name what was asked (all of them
# when the question has fewer)
ASKED_OVERLAP = 2
# a decline that points back to what its sentence named before it: "... and the passage doesn't provide
# that information", "... but it doesn't say"
ANTECEDENT_CLAUSES = 6       # how far back in its sentence a decline that points back looks
# a decline that asks which things a statement before it named: "..., but it does not specify which
# ones", "... doesn't say what those exceptions are": that statement named them only vaguely
WHICH_BACK = re.compile(r"\bwhich\s+(?:ones?|of them)$|\bwhat\s+(?:they|those|these|it)(?:\s+[a-z]+)?\s+(?:are|is|were|was)\b")
POINTS_BACK = re.compile(r"\b(?:that|this|such|said)\s+(?:information|info|detail|details|answer|fact)\b"
                         rf"|{WHICH_BACK.pattern}"
                         r"|\b(?:provide|give|mention|state|specify|say|include|contain)s?\s+(?:that|this|it)$")
# a reply cut at its length limit (a model's max_tokens): long, and not ending a sentence
CUT_MIN_WORDS = 30
SENTENCE_CLOSE = re.compile(r"[.!?)\]\"'*`:;…]$")
# a clause that goes on with the one before it rather than stating something of its own
CONTINUATION = re.compile(r"^(?:including|such as|specifically|especially|particularly|namely|like|for example|"
                          r"for instance|e g|i e|or|nor|and|as well as|let alone|much less|"
                          # an embedded question: "(specifically,) how long you had been using the rug"
                          r"how|what|when|where|who|whom|which|why|whether|if)\b")
# a cut reply that stops right after a negation ("Therefore, the answer is not", "The passage doesn")
CUT_NEGATION = re.compile(r"\b(?:not|no|never|nor|cannot|cant|isn|doesn|don|didn|wasn|aren|weren|hasn|haven|couldn|"
                          r"isnt|doesnt|dont|didnt|wasnt|arent)$")
# what a final answer cut at the length limit may say before it names anything: a source and the verb
# it was to take ("Therefore, the answer is: **The passage does"), a refusal's usual opening
CUT_SOURCE_ONLY = frozenset(w for source in SOURCES for w in source.split()) | frozenset(
    "the this that a an there it is are was does do did has have had provided given based on in".split())
# a final answer that says the answer is not given: "the answer is not explicitly stated in the passage"
# (not "the answer is: not available as a stand-alone CAM", which answers)
ANSWER_NOT_GIVEN = re.compile(r"^not\s+(?:\w+\s+)?(?:stated|mentioned|given|provided|specified|found|known|present|"
                              r"included|contained|in)\b")
# a question about what something says, reads or shows: "What does the sign say?", "What did the note read?"
ASKS_WHAT_SAID = re.compile(r"\b(?:what|whats)\s+(?:does|did|do|will|is|was)\b(?:\s+\w+){0,5}?\s+(?:say|says|read|reads|show|shows|"
                            r"state|states|written|write|printed)\b")
# a question whether something is there ("Are there any cracks in the windshield?"): "I don't see any
# cracks" answers it
ASKS_EXIST = re.compile(r"^(?:are there|is there|were there|was there|do you see|can you see|does it have|do they have|"
                        r"is anyone|is anybody|are any|is any|does anyone|does anybody)\b")
SEE_NONE = re.compile(r"^(?:i|we)\s+(?:dont|do not|cant|cannot)\s+see\s+(?:any|a|an)\b")
# a question about what the assistant said before ("What did you suggest I do about ...?"): fresh
# suggestions after "I have no record of that" do not answer it
ASKS_RECALL = re.compile(r"\b(?:what|which)\s+(?:\w+\s+){0,3}?(?:did|do)\s+you\s+(?:\w+\s+)?(?:suggest|recommend|say|tell me|advise|propose|give me)\b|"
                         r"\bwhat\s+(?:was|were)\s+(?:your|the)\s+(?:suggestion|recommendation|advice|tip)s?\b")
# the count a decline names: "it doesn't specify how many men were in each regiment"
HOW_MANY = re.compile(r"\b(?:how many|how much|the number of|the amount of)\s+((?:\w+\s+)?[a-z]{3,})\b")
# a doubt of certainty, not a decline: "I cannot confirm this is the restaurant you mean", "more specific
# information on the health effects is not provided"
CERTAINTY_OF = re.compile(r"\b(?:confirm|verify|more specific|more detailed|more precise|further details?)\b")
# a decline drawn as a consequence of what its sentence said before: "..., so I can't read the number"
CONSEQUENCE = re.compile(r"^(?:and\s+)?(?:so|thus|hence|therefore|consequently|which means|meaning|as a result)\b"
                         r"|^(?:which|that)\s+(?:isnt|is not|wasnt|was not|arent|are not|werent|were not)\b")
# a value that names a quantity or a rank ("**second**", "3"): a final answer that says one says something
COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
               "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "dozen")
NUMERAL = re.compile(rf"\d|\b(?:{'|'.join(COUNT_WORDS)}|hundred|thousand|million|first|second|third|fourth|fifth|"
                     r"sixth|seventh|eighth|ninth|tenth|last)\b")
AT_ALL = re.compile(r"\b(?:at all|whatsoever)\b")
# what names the thing a question asks for, by its wh-word: a decline that names it ("... but it does
# not mention where he died" when asked where) declines the answer, however few of the question's
# other words it repeats
FOCUS_WORDS = {"where": ("where", "location", "located", "place"), "who": ("who", "whom"), "whom": ("who", "whom"),
               "when": ("when",), "why": ("why", "reason")}
# the noun after "what" / "which" ("In which county ...?"), not a verb or a pronoun ("What did ...?")
FOCUS_NOUN = re.compile(r"\b(?:what|which|whats)\s+(?:(?:is|are|was|were)\s+)?(?:(?:kind|type|sort|form|name)\s+of\s+)?"
                        r"(?!(?:is|was|are|were|did|does|do|has|have|had|can|could|would|will|should|might|may|must|"
                        r"happened|happens|i|you|we|they|he|she|it|his|her|their|its|my|your|our|this|that|these|"
                        r"those|else|about|of|to|in|on|for|if|kind|type|sort)\b)([a-z]{3,})\b")


# -- stance cues, compiled from the word lists above --------------------------------------------
UP_TO_YOU = re.compile(r"\b(?:is|its|remains)\s+(?:\w+\s+)?up\s+to\s+(?:you|users?|your)\b")
MODALS = r"(?:cannot|cant|can not|could not|couldnt|am unable to|m unable to|unable to|am not able to|m not able to|not able to|wont be able to|will not be able to|do not|dont|have no way to)"
DECLINE = compile_groups({"decline-speaker": (
    # the speaker cannot answer / calculate ...: "I cannot calculate the number of days", "we cannot
    # provide an accurate answer", "Cannot determine how many days ..."
    rf"(?:^|\b{FIRST}\s+){ADVS}{MODALS}\s+{ADVS}{phrases(ANSWER_VERBS)}\b",
), "decline-cannot-give": (
    # "these cannot be correlated to give a precise answer", "unable to provide a total"
    rf"\b(?:cannot|cant|can not|could not|couldnt|unable to|not able to)\b(?:\s+\w+){{0,6}}?\s+(?:give|provide|offer|reach|get)\s+(?:you\s+)?(?:\w+\s+)?(?:answer|total|figure|number|count)\b",
), "decline-passive": (
    # it cannot be determined / answered: "the exact total ... cannot be determined"
    rf"\b(?:cannot|cant|can not|could not|couldnt|unable to)\s+be\s+{ADVS}{phrases(ANSWER_PASSIVES)}\b",
), "decline-impossible": (
    # impossible to tell: "it's not possible to provide an accurate answer"
    rf"\b(?:impossible|not possible|no way)\s+(?:for me\s+|for us\s+)?to\s+{ADVS}(?:\w+\s+)?{phrases(ANSWER_VERBS + ('say', 'tell', 'know', 'give', 'provide', 'make'))}\b",
), "decline-not-enough": (
    # not enough information to answer: "I don't have enough information to answer this question"
    rf"\b(?:not enough|insufficient|inadequate|dont have enough|do not have enough|lack of|without enough|"
    rf"isnt enough|is not enough|wasnt enough|was not enough|arent enough)\s+(?:\w+\s+){{0,8}}?to\s+{ADVS}"
    rf"{phrases(ANSWER_VERBS + ('give', 'provide', 'make', 'draw', 'reach', 'say', 'tell', 'know', 'identify', 'confirm', 'accurately', 'precisely'))}\b",
    rf"\b(?:dont|do not|doesnt|does not|did not|didnt)\s+(?:contain|have|include|provide|give)\s+enough\s+(?:\w+\s+){{0,3}}?to\s+{ADVS}"
    rf"{phrases(ANSWER_VERBS + ('give', 'provide', 'make', 'draw', 'reach', 'say', 'tell', 'know', 'identify', 'confirm'))}\b",
), "decline-question": (
    # the question itself: "The question cannot be answered", "I cannot answer your question"
    r"\b(?:question|it|this)\s+(?:is|seems|appears)\s+(?:\w+\s+)?(?:unanswerable|not answerable|impossible to answer)\b",
), "decline-empty": (
    # a step-by-step reply whose output for "no information" is "empty" (LongMemEval's instruction)
    r"\b(?:output|answer|respond|reply|return)\w*\s+(?:(?:will|would|should|must)\s+be\s+|is\s+|with\s+)?empty\b",
    r"^empty(?:$|\s+as\b)",
), "decline-not-clear-enough": (
    # what is known is not clear enough to answer: "the timing is not explicitly clear enough to give an answer"
    rf"\b(?:not|isnt|arent|wasnt|werent)\s+{ADVS}(?:clear|detailed|specific|complete|conclusive|precise)\s+enough\s+"
    rf"to\s+{ADVS}(?:give|provide|answer|determine|say|tell|know|make|reach|draw|calculate)\b",
)})
CAVEAT = re.compile(rf"\b{phrases(CAVEAT_WORDS)}\b")
CONCLUSION = re.compile(rf"^{phrases(CONCLUSION_LEADS)}\b")
ADVICE = re.compile(rf"^(?:{phrases(CONTRAST_LEADS)}\s+)?(?:{phrases(ADVICE_LEADS)}\b|"
                    rf"(?:here are|heres|here is)\s+(?:\w+\s+){{0,3}}?{phrases(ADVICE_NOUNS)}\b)")
CONTRAST = re.compile(rf"^{phrases(CONTRAST_LEADS)}$")
CONTRAST_OPEN = re.compile(rf"^(?:{phrases(CONTRAST_LEADS)}|though|although)\s")
EVIDENCE = re.compile(
    rf"^(?:(?:while|although|though|whereas|and|but|however|also|plus)\s+)?(?:(?:{phrases(SOURCE_QUALIFIERS)}|{ADV})\s+){{0,3}}"
    rf"{phrases(SOURCES)}\s+(?:\w+\s+){{0,4}}?(?:only\s+|also\s+|just\s+)?{phrases(REPORTING_VERBS)}\b"
    rf"|^(?:(?:while|although|though|however|but|and)\s+)?{phrases(EVIDENCE_LEADS)}\b"
    # "it" as the source, right before its verb: "However, it does mention that ...", "It discusses ..."
    rf"|^(?:(?:while|although|though|however|but|and|also)\s+)?it\s+(?:(?:does|did|also|only|just|actually)\s+)*"
    rf"{phrases(v for v in REPORTING_VERBS if v.split()[0] not in ('is', 'are', 'was', 'were'))}\b"
    # what the source holds instead, scoped by "only": "It only defines what it means", "The passage
    # only provides information about the novel"
    rf"|^(?:(?:{phrases(SOURCE_QUALIFIERS)}|{ADV})\s+){{0,3}}(?:{phrases(SOURCES)}|it|this|that)\s+(?:\w+\s+){{0,2}}?only\s+"
    rf"(?:{phrases(REPORTING_VERBS + ONLY_VERBS)})\b")
PROCEDURE = re.compile(rf"^{phrases(PROCEDURE_LEADS)}\b|^{phrases(HEADINGS)}$")
OFFER = re.compile(rf"^(?:(?:but|however|though|and|so|or)\s+)?{phrases(OFFER_LEADS)}\b")
POINTER = re.compile(rf"^(?:(?:but|however|though|and|so|or|instead|alternatively|also)\s+)?(?:{phrases(POINTER_LEADS)}\s+)?"
                     rf"(?:also\s+)?(?:{phrases(POINTER_VERBS)})\b(?!\s+(?:shows|suggests|indicates|found|out))")
# a request for the information the reply would need ("I would need more context", "could you share
# some details", "please provide more information")
ASKS_FOR_CONTEXT = re.compile(
    r"\b(?:need|needs|require|requires|would need|would require)\s+(?:some\s+)?(?:more|additional|further)\s+"
    r"(?:context|information|info|details)\b"
    r"|\b(?:could|can|would)\s+you\s+(?:please\s+)?(?:share|provide|tell me|clarify|give me|specify|elaborate)\b"
    r"|\bplease\s+(?:share|provide|clarify|specify)\b")
CONCESSION = re.compile(r"^(?:while|although|though|whereas|even though|despite|in spite of)\s")
GENERAL_REMARK = re.compile(rf"\b{phrases(GENERAL_REMARK_WORDS)}\b")
GENERAL_OFFER = re.compile(rf"^(?:(?:but|however|though|and|so|instead)\s+)?(?:i|we)\s+(?:can|could|will|would|may|might|am able to)?\s*"
                           rf"(?:also\s+|only\s+)?(?:{phrases(GENERAL_OFFER_VERBS)})\s+(?:you\s+)?(?:with\s+)?(?:some\s+)?"
                           rf"(?:{phrases(GENERAL_WORDS)})\b")
# more evidence in the sentence of a report: "..., and five sessions in another message", "..., while
# the plane was started about a month ago"
EVIDENCE_MORE = re.compile(r"^(?:and|while|whereas|as well as|along with|plus)\s")
# what a source holds instead of what a decline before it named: "..., but rather the River Irwell"
INSTEAD = re.compile(r"^(?:but\s+)?(?:rather|instead)\b")
RELATIVE = re.compile(r"^(?:which|who|whom|whose|where)\s(?!would|will|means|makes|gives)"
                      # a complement of a report set off by dashes: "You've mentioned your sister - that she lives in Denver"
                      r"|^that\s+(?:she|he|they|you|we|your|his|her|their)\s")
NUMBER = re.compile(rf"\b(?:\d+|{'|'.join(COUNT_WORDS)}|once|twice|none|zero)\b")
TALLY = re.compile(rf"^{phrases(TALLY_LEADS)}\s+(?:\w+\s+){{0,2}}?{NUMBER.pattern}")


# a speaker who cannot read, see or make out the thing: "I can't read it", "I couldn't make out the writing"
INABILITY_BACK = re.compile(
    rf"\b{FIRST}\s+{ADVS}{NEG_MODAL}\s+{ADVS}(?:read|see|make out|identify|hear|decipher|recognize|recognise|"
    r"make (?:it|them|anything) out)\s+(?:it|them|that|this|any of it|any of them|anything|either|"
    r"(?:any of\s+)?(?:(?:the|a|an)\s+)?(?:writing|text|words?|numbers?|digits?|letters?|name|names|details?|species|brand|"
    r"model|face|logo|label|date|time|score|title|plate|price|address|signature|figures?))?"
    # "... there", "... from it", "... from this image alone"
    r"(?:\s+(?:there|here|clearly|reliably|at all|from it|in it|from (?:this|the) (?:\w+\s+)?(?:image|photo|picture|clip|video|scan|page)(?:\s+alone)?))?$")
# an absence on a page or in a picture: "There's no SWIFT code on this page" (for a count, "There are no
# people in the photo" is the answer, zero)
ABSENT_IN_SOURCE = re.compile(
    r"^(?:(?:but|and|so|however)\s+)?(?:there is|theres|there are|there was|there were|i see|i dont see|i do not see)\s+"
    r"(?:no|not any|any)\s+(?!one\b|body\b|thing\b)(?:[\w-]+\s+){1,4}?(?:on|in|anywhere on|anywhere in)\s+"
    r"(?:this|the|that|these|your|my|any)?\s*(?:\w+\s+)?(?:page|pages|photo|photos|image|images|picture|pictures|"
    r"video|clip|scan|document|form|receipt|label|screenshot|frame|frames|letter|sheet|excerpt|file|footage|"
    r"lease|report|transcript|brochure|leaflet|contract|invoice|statement|policy|manual|menu|table|chart|paper|"
    r"email|recording|conversation|conversations|chat|chats|notes)\b")
PRECISION = re.compile(rf"\b{phrases(PRECISION_WORDS)}\b")
# not sure of the thing itself, not of its precision: "Not sure who it was sent to"
UNSURE_WHICH = re.compile(r"\b(?:not|unsure|isnt|arent)\s+(?:\w+\s+)?(?:sure|certain)\s+(?:who|what|which|where|when|whose|whether|if|how)\b")
TOTAL = re.compile(r"\b(?:total|sum)\b")
# a decline of certainty, not of the value: "not enough information to give a confident total"
CERTAINTY = re.compile(r"\b(?:confident|confidently|certain|certainty|sure|definitive|definitively)\b")
COMPARE = re.compile(rf"\b{phrases(COMPARE_WORDS)}\b")
# the kinds of question read by a pattern of their own rather than a phrase list: "Are there any cracks?"
# ("I don't see any cracks" answers it), "What did you suggest?" (fresh suggestions after a decline do not
# answer it), "What does the sign say?" ("It says Exit" is the answer)
ASK_PATTERNS = (*((kind, re.compile(rf"\b{phrases(words)}\b")) for kind, words in ASKS),
                ("exists", ASKS_EXIST), ("recall", ASKS_RECALL), ("says", ASKS_WHAT_SAID))


# where a sentence ends inside a line: after "?" or "!", after "." that follows a lower-case word (not
# "U.S." or "3.5"), or after a number's "." before a capital ("you have 15. There is ...")
SENTENCE_END = re.compile(r"(?<=[?!])|(?<=[^\dA-Z.][.])(?=\s)|(?<=\d[.])(?=\s+[A-Z*\"'])")
LIST_MARKER = re.compile(r"\s*\d+[.)]\s")

# a value of the kind a question asks for (on the normalised clause: "7:00 AM" reads "700 am")
VALUES = {
    "amount": re.compile(rf"{NUMBER.pattern}|\b(?:few|several|couple|single|daily|weekly|monthly|yearly|"
                         r"every|each|half|dozens?|hundreds?|thousands?|no)\b"),
    "clock": re.compile(r"\b\d{1,4}\s*(?:am|pm)\b|\b\d{3,4}\b|\b(?:noon|midnight|oclock|morning|evening|"
                        r"afternoon|night)\b"),
    "year": re.compile(r"\b\d{3,4}s?\b"),
    "date": re.compile(r"\d|\b(?:january|february|march|april|may|june|july|august|september|october|"
                       r"november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|"
                       r"wednesday|thursday|friday|saturday|sunday|weekend|yesterday|today|tonight|ago|"
                       r"spring|summer|autumn|fall|winter|morning|afternoon|evening|night|week|month|year|"
                       r"before|after|during|since|until|earlier|later|recently|once)\b"),
}


# a value worked out from the question's own words: "the past weekend would have been March 18-19",
# "a week ago, which would be around June 15"
WORKED_OUT = re.compile(r"\b(?:would|will)\s+(?:have\s+)?(?:be|been)\b")

# an answer, decided without reading its clauses (most answers, and every long summary, end here).
TRIGGER = re.compile(
    r"\b(?:not|no|never|nor|none|nothing|neither|\w+nt|cannot|unknown|unclear|unsure|uncertain|"
    r"unaware|idea|clue|insufficient|inadequate|incomplete|lack\w*|unable|impossible|unanswerable|"
    r"unavailable|undetermined|indeterminate|unmentioned|na|n|idk|dunno|hard|difficult|tough|tricky|"
    r"missing|limited|without|beats|zero|little|empty|illegible|unreadable|blurry|cut|obscured|frame|silent|omits?|omitted|leaves|left|"
    # what an image or a recording does not let one see or hear (UNREADABLE, TOO_FAINT)
    r"blurred|pixelated|focus|facing|turned|offscreen|screen|cropped|visible|audible|inaudible|too|"
    r"drowns|drowned|redacted|blacked|torn|smear|smeared|glare|face|facedown|shot|view|audio|sound|appears|"
    r"hidden|covered|blocked|obscured|blank|filled|cuts|ends|ended|stops|stopped|enough|finding|seeing|spotting|"
    r"rather|dim|garbled|muffled|shadow|discernible|nobody|noone|showing|legible|readable|identifiable|among|washed|"
    r"corrupted|unsupported|through|such|point|error|upload|uploaded|attached|loaded|identify|more|all|"
    # a negation cut at a reply's length limit ("The passage doesn")
    r"isn|doesn|don|didn|wasn|aren|weren|hasn|haven|couldn)\b")


# the speaker or the user in the reason ("No, I don't remember", "No, you never told me"): a decline
PARTICIPANT = re.compile(r"\b(?:i|im|ive|id|me|my|we|us|our|you|your|youve|idk|sorry|dunno)\b")
# an explicit final answer: "... **Answer:** No gift from grandpa is mentioned.", "Therefore, the
# answer is "empty".", "my answer will be: ...", a heading "**Answer**" on its own line
FINAL_ANSWER = re.compile(
    # ("... break down this question and find the answer:" announces the work, not the answer)
    r"(?i)(?<!find the )(?<!get the )(?<!reach the )(?<!find an )(?<!to the )\banswer\s*\**\s*[:：]\**"
    r"|\b(?:the|my|final|your|a)\s+(?:(?:best|most|final|accurate|likely|correct|only|short|good|better|"
    r"reasonable|possible|suitable|appropriate|fair)\s+){0,2}answer"
    r"(?:\s+to\s+(?:the|this|your)\s+question|\s+(?:i|we)\s+can\s+(?:give|provide|offer))?\s*\**\s+(?:is|would\s+be|will\s+be)\b\s*:?"
    r"|^\W*answer\W*$"
    # a step-by-step reply's last step heading: "**Step 3: Provide an answer**", "**Conclusion**"
    r"|^\W*(?:step\s*\d+\W*)?(?:provide\s+(?:the\s+|an\s+|a\s+)?(?:final\s+)?answer|answer(?:ing)?\s+the\s+question|"
    r"final\s+answer|conclusion)\W*$", re.MULTILINE)


# -- the table ----------------------------------------------------------------------------------------
CUES_FILE = Path(__file__).with_name("refusal_cues.json")
CUES = load_table(CUES_FILE)
# each clause cue's patterns, by cue name (a cue with none fires on its condition alone)
PATTERNS = {**DECLINE, **REFUSE, **HEDGE,
            "whole-clause": (WHOLE,), "refuse-after-context": (REFUSE_AFTER_CONTEXT,),
            "filler-word": (FILLER,), "contrast-word": (CONTRAST,), "bare-conclusion": (CONCLUSION,),
            "offer": (OFFER,), "pointer": (POINTER,), "up-to-you": (UP_TO_YOU,), "procedure": (PROCEDURE,), "lead-in": (LEAD_IN,),
            "filler-lead": (FILLER_LEAD,), "context-said": (CONTEXT,), "evidence": (EVIDENCE,),
            "conclusion": (CONCLUSION,), "advice": (ADVICE,), "tally": (TALLY,), "guess": (GUESS,),
            "caveat": (CAVEAT,), "relative-after-context": (RELATIVE,), "evidence-more": (EVIDENCE_MORE,),
            "instead-of-asked": (INSTEAD,), "refuse-absent": (ABSENT_IN_SOURCE,)}
