"""The letter reader's rules as data: word lists, named cues and the parts they are built from.

`evaluator.scoring.choice` reads a reply to a multiple-choice question with these rules and
nothing else; this module holds no logic beyond joining word lists into patterns. A cue is one
named rule (`Cue`): the stage of the reading it belongs to, the text it looks at, its pattern
(built from the word lists below), what it does when it fires, and examples (each a reply and the
letter it reads as; `tests/test_choice_cues.py` checks every example and that the cue fired on it).
`extract_choice(..., trace=True)` names the cues that fired.

The reading goes through the stages in this order (the order of `CUES`, which the engine follows):

1. `reply`: the reply is put in one form: NFKC and script edges, a JSON answer field read on its
   own, the reply after a reasoning block, \\boxed{} as an answer label, checkboxes as marks,
   markup removed.
2. `answer line`: a last line "Answer: X" decides, unless another "Answer:" line differs.
3. `rewrite`: letters inside TeX maths taken out, answer words of other languages read as
   English, "the second option" as "option B", a letter pair before a noun as a name, a letter
   glued to its own text set apart; then a reply that is one letter is that letter.
4. `letter`: each capital (or bracketed letter) is read through the letter cues in table order.
   The first cue whose effect ends the reading of that letter (`not a letter`, `condition`,
   `reject`, `reject list`, `question`, `stays rejected`) decides that the letter states nothing;
   otherwise it is kept with the standing the cues gave it (`decide` > `label` > plain >
   `describe`), and whether it is `list`ed with another letter or stated as the `current` value.
5. `settle`: the kept letters become one letter or none: "I can't tell which", a revision,
   a list followed by a committed statement, then the firmest standing, then (between letters of
   one standing) the present value, a contrast, a conclusion.
6. `refusal`: a reply that refuses names no option (evaluator.scoring.refusal).
7. `option text`: the text of exactly one option, settled as letters are.

Effects: `read` (read this part instead of the whole reply), `rewrite` (change the text the
later stages read), `choose` (the reply's answer; reading ends), `none` (the reply names no
option; reading ends), `not a letter`, `condition` and `question` (the letter states nothing; a
condition also holds the letter listed with it), `reject` (the letter is rejected, and a later
plain mention of it too unless a revision intervenes), `reject list` (also the letter listed with
it by "or"/"and"), `stays rejected`, `decide`, `label`, `describe`, `list`, `current`, and in the
settle stage `settle` (which letter of several wins).

Positions (`looks_at`): `reply`, `json field`, `last line`, `maths`, `letter` (the letter and
where it stands), `before` (the words before the letter, up to LOOKBACK characters, anchored at
it), `after` (the text after the letter), `line` (the letter's line), `sentence` (the sentence
around the letter), `between` (the text between statements), `option text` (around an option's
text in the reply).

A word list entry is a phrase in a small regular-expression dialect: a space stands for `\\s+`,
anything else is regular-expression syntax (mostly plain letters; `['’]` for either apostrophe).
The round history of these rules is evaluator/scoring/CHOICE_HISTORY.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def alt(words, sep: str = r"\s+") -> str:
    """`(?:w1|w2|...)`, a space in an entry standing for `sep`."""
    return "(?:" + "|".join(w.replace(" ", sep) for w in words) + ")"


def bounded(words, sep: str = r"\s+") -> str:
    """Each entry as a whole word: `\\bw\\b`."""
    return "|".join(r"\b" + w.replace(" ", sep) + r"\b" for w in words)


# -- numbers ----------------------------------------------------------------------------------------
LOOKBACK = 160              # how far back (in characters) a `before` pattern reaches from a letter
SHORT_REPLY_WORDS = 6       # a reply of at most this many words may choose with a lower-case letter
TRACE_LIMIT = 40            # the journal keeps the last this many cues that fired

# -- word lists -------------------------------------------------------------------------------------
# The keys of a JSON answer field; "_" also matches a space or nothing ("final answer", "finalanswer").
ANSWER_KEYS = ("final_answer", "answer", "choice", "option", "selected_option", "selection", "letter",
               "prediction")
REASONING_TAGS = ("think", "thinking", "reasoning", "reflection")
CHECKS, CROSSES = "✅✔✓☑", "❌✗✘✖❎"
# What a last line "Answer: ..." says to name no option.
NONE_SAID = ("none(?: of (?:the )?(?:above|these|them|(?:given|provided|listed) (?:options|choices|answers)))?",
             "n/?a", "not (?:listed|given|determinable)", "cannot be determined", "undetermined", "unknown")
# CJK sentence punctuation and its Latin counterpart.
CJK_PUNCTUATION = {"。": ". ", "、": ", ", "【": "[", "】": "]", "「": " ", "」": " ", "『": " ", "』": " ",
                   "《": " ", "》": " ", "〈": " ", "〉": " ", "・": " "}
# Scripts a Latin letter stands apart from (Greek, Cyrillic, Hebrew, Arabic, Indic, Thai, kana, CJK,
# Hangul).
NON_LATIN = (r"\u0370-\u03ff\u0400-\u052f\u0590-\u06ff\u0750-\u077f\u0900-\u0dff\u0e00-\u0e7f"
             r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff")

# The words of an answer statement in other languages and their English reading (cues `foreign-*`,
# applied in this order: longer phrases first). Unbounded entries (CJK, Arabic) are matched anywhere,
# bounded ones as whole words.
FOREIGN_CORRECT_ANSWER = ("正[确確]答案", "正解", "정답", "правильный ответ", "respuesta correcta",
                          "bonne r[ée]ponse", "richtige antwort", "risposta corretta", "resposta correta")
FOREIGN_FINAL_ANSWER = ("最[终終]答案", "最[终終]回答", "最終的な答え")
FOREIGN_ANSWER = ("答案", "回答", "答え", "ответ", "الإجابة", "الاجابة", "الجواب")
FOREIGN_ANSWER_WORDS = ("respuesta", "r[ée]ponse", "antwort", "risposta", "resposta")
FOREIGN_IS_AFTER_ANSWER = ("は", "은", "는", "هو")
FOREIGN_IS_AFTER_ANSWER_WORDS = ("es", "est", "ist", "è", "é")
FOREIGN_OPTION = ("[选選]项", "[选選]擇肢", "選択肢", "вариант")
FOREIGN_OPTION_WORDS = ("opci[óo]n", "op[çc][ãa]o", "opzione")
FOREIGN_NOT_AFTER = ("ではなく", "じゃなく", "(?:이|가)?\\s*아니라", "(?:이|가)?\\s*아닙니다")
FOREIGN_NOT = ("不是", "并非", "並非", "(?<!\\w)не(?!\\w)")
FOREIGN_NOT_WORDS = ("no es", "no era", "n['’]est pas", "nicht", "non è", "não é")
FOREIGN_NOT_LAST = ("ليس",)
FOREIGN_OR = ("[还還]是", "或者", "或", "(?<!\\w)или(?!\\w)")
FOREIGN_OR_WORDS = ("oder", "ou", "oppure")
FOREIGN_OR_LAST = ("أو",)
FOREIGN_CHOOSE = ("我?[选選]择?", "я выбираю", "выбираю")
FOREIGN_CHOOSE_WORDS = ("elijo", "je choisis", "ich w[äa]hle")
# An ASCII reply without one of these has nothing to translate.
LATIN_FOREIGN = ("respuesta", "reponse", "antwort", "risposta", "resposta", "opcion", "opcao", "opzione",
                 "no e[sr]", "n['’]est", "nicht", "oder", "ou", "oppure", "elijo", "choisis", "wahle", "sondern")

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
ORDINAL_NOUNS = ("option", "choice", "answer", "one(?: listed)?")
# After a letter pair "A/B", these keep it a list ("A/B both fit"); another lower-case word makes it
# a name ("A/B testing").
PAIR_STAYS_LIST = ("is", "are", "was", "were", "be", "both", "either", "seem", "seems", "seemed", "might",
                   "could", "would", "should", "can", "may", "must", "maybe", "perhaps", "probably", "possibly",
                   "i", "or", "and", "but", "not", "fit", "fits", "match", "matches", "work", "works", "look",
                   "looks", "sound", "sounds", "then", "tho", "though", "imo", "hmm", "idk", "are", "each",
                   "equally", "too", "also", "apply", "applies")
# The word after a contracted "is" ("B's the answer"); "B's note" is a possessive.
IS_SHORT_NEXT = ("the", "my", "a", "an", "it", "correct", "right", "wrong", "incorrect", "out", "not", "outdated",
                 "best", "what", "also", "definitely", "clearly", "probably", "no", "current", "true", "false",
                 "old", "ruled")

# -- an answer label before a letter ("Answer: B", "I choose B") ---------------------------------
ANSWER_WORDS = ("answer", "ans")
ANSWER_COPULAS = ("is", "would be", "should be", "will be", "=")
CORRECT_NOUNS = ("answer", "option", "choice", "response", "one")
CLOSEST_NOUNS = ("answer", "option", "choice", "match", "value", "one")
CHOOSE_VERBS = ("select", "choose", "choosing", "pick", "(?:go(?:ing)?|went) with")
SAY_LEADS = ("I['’]d", "I would", "I['’]ll", "I will", "going to", "gonna", "I have to", "I['’]ll have to")
CHANGE_STEMS = ("chang", "switch", "revis", "updat", "correct")
# -- a conclusion before a letter ("..., so B", "the chat supports B") --------------------------------
NOT_BEFORE_SO = ("think", "believe", "hope", "guess", "say", "said")
CONCLUSION_WORDS = ("therefore", "thus", "hence", "ergo", "consequently", "in conclusion", "overall", "ultimately",
                    "in the end", "which means", "that means", "this means", "points? to", "pointing to")
EVIDENCE_VERBS = ("supports?", "favou?rs?", "match(?:es)?", "fits?(?: with)?", "(?:is |are )?consistent with",
                  "lines? up with", "corresponds? to", "agrees? with", "indicates?", "suggests?", "confirms?")
EVIDENCE_FILLERS = ("best", "most", "only", "option", "answer", "choice", "letter")
# -- a verdict after a letter ("B is correct", "B it is") ------------------------------------------
RIGHT_WORDS = ("correct", "right", "answer", "best", "choice", "current\\b")
# -- a negation before a letter ("not B", "rule out B") --------------------------------------------
NEGATION_BEFORE = ("\\bnot", "n't", "\\bnor", "\\bneither", "\\brather than", "\\bover", "\\binstead of", "\\bthan",
                   "\\bexcept", "\\bthought", "\\bunlike")
ELIMINATION_VERBS = ("rul(?:e|es|ed|ing) out", "eliminat(?:e|es|ed|ing)", "exclud(?:e|es|ed|ing)",
                     "discard(?:s|ed|ing)?", "(?:cross|strike|strik)(?:es|ed|ing|e)? (?:out|off)", "scratch")
REJECTING_LABELS = ("incorrect", "wrong", "false", "rejected", "eliminated", "excluded", "ruled out", "distractors?")
CHOOSING_VERBS = ("be", "choose", "pick", "select", "say", "go with", "opt for", "answer",
                  "(?:think|believe) (?:it|that)(?:'s| is| was)")
EVIDENCE_STEMS = ("support", "back(?:s|ed|ing)? up", "match", "fit", "point\\w* to", "suggest", "indicat",
                  "favou?r", "agree\\w* with", "lin\\w+ up with", "correspond\\w* to", "mention", "confirm")
NO_SIGN_NOUNS = ("sign", "trace", "mention", "record", "hint", "indication", "evidence", "support")
FIRST_WORDS = ("first", "initial", "original", "earlier", "previous", "old")
GUESS_NOUNS = ("instinct", "guess", "thought", "impression", "hunch", "reaction", "answer", "pick", "choice")
FORMERLY = ("originally", "initially", "at first", "formerly", "previously", "earlier")
OTHERS_WHO_MIGHT = ("you", "one", "some(?:one|body)?", "people", "others?", "many")
THINK_VERBS = ("think", "say", "pick", "choose", "guess", "assume", "expect", "go with", "argue for", "prefer")
# -- a rejection after a letter ("B is wrong", "B was before you changed it") ----------------------
WRONG_WORDS = ("incorrect", "wrong", "false", "not\\b", "out\\b", "ruled out", "eliminated", "unlikely",
               "impossible", "never\\b", "outdated", "inconsistent", "out of date", "stale", "tempting",
               "a (?:distractor|trap|trick|decoy|red herring)")
NEGATED_VERBS = ("isn't", "wasn't", "aren't", "weren't", "can't", "cannot", "couldn't", "doesn't", "does not",
                 "don't", "do not")
CAME_TO_MIND = ("came", "comes", "sprang", "springs", "jumped", "jumps")
# -- capitals that are not option letters -----------------------------------------------------------
TITLES = ("Dr", "Mr", "Mrs", "Ms", "Mx", "Prof", "Rev", "Sr", "Jr", "St", "Capt", "Col", "Gen", "Lt", "Sgt")
# a capital after one of these names a thing: "vitamin C", "Plan B", "gate A", "Room D"
THING_NOUNS = ("vitamin", "plan", "type", "grade", "hepatitis", "blood group", "group", "gate", "terminal",
               "platform", "exit", "wing", "block", "row", "tier", "category", "size", "cup", "class", "team",
               "season", "series", "episode", "part", "section", "chapter", "appendix", "exhibit", "room", "floor",
               "level", "hall", "building", "side", "zone", "phase", "stage", "model", "unit", "suite",
               "apartment", "apt", "route", "bay", "area", "sector", "lot", "ward", "court", "station", "track",
               "lane", "tower", "seat", "box", "lab", "studio", "gym", "bus", "train", "line", "deck", "pier",
               "dock", "camp", "field", "channel", "volume", "vol", "book", "act", "scene", "figure", "fig",
               "table", "form", "item", "step", "shift", "squad", "division", "league", "pool", "batch",
               "version", "mode", "door", "booth", "stall", "hangar", "dorm", "lecture")
# ... or a person: "Aunt B", "your cousin B", "Coach C", "Agent D"
PERSON_WORDS = ("aunt", "auntie", "uncle", "cousin", "friend", "brother", "sister", "bro", "sis", "mom", "mum",
                "dad", "grandma", "grandpa", "granny", "nana", "grandmother", "grandfather", "mother", "father",
                "son", "daughter", "niece", "nephew", "neighbou?r", "boss", "colleague", "co-?worker",
                "roommate", "flatmate", "partner", "teacher", "coach", "doctor", "nurse", "agent", "professor",
                "miss", "madam", "sir", "lady", "lord", "king", "queen", "prince", "princess", "captain",
                "officer", "detective", "inspector", "judge", "pastor", "baby", "kid", "little", "big", "mr",
                "mrs", "ms", "dr", "prof")
# ... or a grade: "got an A on the exam", "scored a B"
GRADE_VERBS = ("got", "get", "gets", "getting", "earned", "earn", "scored", "score", "received", "receive")
MUSIC_WORDS = ("positive", "negative", "minor", "major", "flat", "sharp")        # "B positive", "B minor"
# Common sentence openers: "A. Smith" is an initial, "A. Clearly ..." is a letter.
SENTENCE_OPENERS = frozenset("""a about according after again all also although an and answer anyway
apparently as at based because before besides both but by certainly clearly correct could definitely
did do does either even every everything explanation final finally first for from given going good
great had has have he her here hers his hmm honestly hope how however i if in indeed initially instead
is it its just last later let like looking maybe me mine more most my neither no none nor not note
nothing now of oh ok okay on once only option or our ours perhaps please possibly probably rather
reason reasoning right she should since so some sorry still sure than thank thanks that the their
want wanna need hope glad happy remember see tell ask welcome hi hey cheers enjoy keep ps btw fyi
theirs them then there therefore these they this those though thus to too unlike until we well were
hard tough difficult tricky unclear impossible idk dunno really seems looks sounds might may must will can
cannot hence given otherwise either
what when where whereas which while who why with without would yeah yes yet you your yours""".split())
# A capitalised word before a capital makes a name ("with Jay B") unless it is one of these.
NOT_NAMES = frozenset("letter pick choose select say guess ans vote prob def hmm hm um uh ok yep yup nope duh"
                      " lol gotta go".split()) | SENTENCE_OPENERS
# Words a capital "A" or "I" may be followed by and still be a letter: "A is correct", "A does".
PREDICATE_WORDS = ("is", "was", "would", "could", "might", "may", "must", "can", "will", "seems", "should", "looks",
                   "fits", "it\\b", "because", "since", "as\\b", "rather", "over", "and", "or", "option\\b")
PREDICATE_VERBS = ("does", "did", "matches", "works", "applies", "holds", "remains", "has", "had", "describes",
                   "corresponds", "sounds", "gets")
# What may end a short reply's lower-case letter: "i think a", "b for sure", "c lol".
LOWER_END_WORDS = ("i (?:think|guess|believe|reckon|suppose)", "for sure", "obviously", "obv", "probably", "prob",
                   "definitely", "def", "tho", "though", "then", "it is", "is", "because", "since", "lol", "haha",
                   "lmao", "tbh", "imo", "imho", "ngl", "fr", "i'?m sure", "all the way", "hands down", "no doubt",
                   "no question")
# -- where a letter stands with others ----------------------------------------------------------------
LIST_WORDS = ("or", "and", "as well as", "plus", "along with", "together with", "in addition to")
LIST_HEDGES = ("maybe", "perhaps", "possibly", "also")
CLAUSE_VERBS = ("is", "was", "would", "seems", "could", "can", "might", "may", "does", "doesn['’]t", "isn['’]t",
                "wasn['’]t", "fits", "matches", "works", "looks", "sounds", "remains", "must", "should", "will")
CURRENT_WORDS = ("now", "currently", "nowadays", "these days", "at present", "presently", "today", "current",
                 "latest", "newest", "most recent(?:ly)?", "more recent(?:ly)?", "later", "eventually",
                 "in the end", "since then", "after that")
REVISION_WORDS = ("wait", "actually", "scratch that", "on second thought", "correction", "let me reconsider",
                  "I mean", "or rather", "make that", "on reflection", "changed my mind",
                  "(?:chang|switch|revis|updat)(?:e|es|ed|ing)? (?:my (?:answer|choice|pick)|that|it|this)?\\s*to")
CONCLUDING_WORDS = ("therefore", "thus", "hence", "consequently", "in conclusion", "in summary", "to conclude",
                    "ultimately")
CONTRAST_WORDS = ("but", "however", "yet", "though", "although")
INTERROGATIVES = ("or", "maybe", "perhaps", "is", "are", "was", "were", "do", "does", "did", "can", "could",
                  "would", "will", "should", "shall", "might", "may", "have", "has", "had", "which", "what",
                  "who", "whom", "whose", "where", "when", "how", "why")
GUESS_WORDS = ("maybe", "perhaps", "possibly", "I guess", "I suppose", "not sure", "or something")
CONDITION_WORDS = ("if", "unless", "(?<!\\bI\\s)suppose", "supposing", "assuming", "assume", "whether", "in case")
# "B, if I had to guess" is no condition
NOT_CONDITIONS = ("I (?:had to|have to|must|remember|recall|understand|['’]m not mistaken|am not mistaken"
                  "|['’]m right|am right)", "(?:that|this) helps", "memory serves", "so\\b", "any\\b")
# "no" that opens a noun phrase is not the option "No": "no idea", "no record"
NO_DETERMINER_NOUNS = ("idea", "clue", "wait", "way", "record", "mention", "sign", "trace", "evidence", "doubt",
                       "longer", "one", "matter", "info", "information", "memory", "recollection", "details?",
                       "need", "problem", "worries", "thanks")
POSITIVE_VERDICTS = ("yes", "true", "correct", "right", "current", "matches", "fits")
NEGATIVE_VERDICTS = ("no", "false", "incorrect", "wrong", "outdated", "old")
YES_CELLS = ("yes", "true", "correct", "right")
NO_CELLS = ("no", "false", "incorrect", "wrong")


# -- parts: named patterns the engine and several cues share ----------------------------------------
PARTS: dict[str, str] = {
    "has-word": r"\w",
    "latex-wrap": r"\\[A-Za-z]+\s*\{([^{}]*)\}",
    "lone-letter": r"\s*[\(\[]?\s*[A-Za-z]\s*[\)\]]?\.?\s*",
    "script-edge": rf"(?<=[{NON_LATIN}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{NON_LATIN}])",
    "latin-foreign": r"(?i)\b" + alt(LATIN_FOREIGN) + r"\b",
    "answer-key": r"(?i)^" + alt(k.replace("_", "[_ ]?") for k in ANSWER_KEYS) + "$",
    "word": r"[\w'’/]+",
    "bracketed-letter-text": r"[\(\[]\s*[a-z]\s*[\)\]]",
    "contracted-is": r"^['’]s\b",
    "sentence-break": r"[.!?\n]",
    "or-and": r"(?i)\b(?:or|and)\b",
    "or-and-slash": r"(?i)\b(?:or|and)\b|[/&]",
    "clause-verb": r"(?i)\s+" + alt(CLAUSE_VERBS) + r"\b",
    "option-word-end": r"(?i)\b(?:option|choice)\s*[:=\-–—]*\s*$",
    "predicate-after": (r"(?i)^[^\S\n]*\n|^\s*(?:" + "|".join(PREDICATE_WORDS) + "|" + alt(PREDICATE_VERBS) + r"\b|"
                        r"[-–—:,.;!?/&+|()\]\u2190-\u2bff\U0001f000-\U0001faff]|$)"),
    "sentence-start": r"(?:^|[.!?:\n])[\s\"'“‘(\[-]*$",
    "lower-end": r"(?i)^\s*(?:[-–—:,.;!)\]]|$|" + alt(LOWER_END_WORDS) + r"\b)",
    "lower-after-label": r"\s*(?:[-–—:,.;!)\]]|$|(?:is|was|would|seems|fits|matches|works|because|since)\b)",
    "alone-on-line": r"[ \t]*[.:)]?[ \t]*(?:\n|$)",
    "end-of-reply": r"\s*[\)\]]?\s*[.!]?\s*$",
    "question-follows": r"[^.!?\n]*\?",
    "clause-open": r"(?i)(?:^|[.!?;,…—–:(\n]|\band|\bbut)\s*(?:option\s*)?[\(\[]?\s*$",
    "opening-end": r"^\s*(?:[.!:)\]\-–—]|\n|$)",
    "enumerated": r"(?m)(?:^|[.!?;]\s+)[^\S\n]*(?:[-*•>+]\s*)?(?:option\s+)?[\(\[]?([A-Z])[\)\]]?[ \t]*[.:)\-–—][ \t]",
    "initial-after": r"^\.[ \t]+(?:[A-Z]\.[ \t]+)*([A-Z][a-z]+)\b(?!['’][a-rt-z])",
    "double-initial": r"\.[ \t]*[A-Z]\.(?![^\S\n]*$)",
    "name-before": r"\b([A-Z][a-z]+)[ \t]+\Z",
    "the-before": r"(?i)\bthe\s+\Z",
    "noun-after": r"[ \t]+[a-z]{2,}\b",
    "letter-noun-after": r"\s+(?:one|option|choice|answer|letter)\b",
    "mark-first-on-line": rf"^[\s|>*\-]*[{CHECKS}{CROSSES}]",
    "mark-before": rf"([{CHECKS}{CROSSES}])\ufe0f?\s*$",
    "mark-after": rf"^\s*[|:,\-–—]?\s*([{CHECKS}{CROSSES}])",
    "cell-after": r"(?i)^\s*\|\s*(" + "|".join(YES_CELLS + NO_CELLS) + r")\s*(?:\||$)",
    "verdict-after": (r"(?i)^\s*[-–—:]\s*" + "(" + "|".join(POSITIVE_VERDICTS + NEGATIVE_VERDICTS) + ")"
                      + r"[ \t]*(?:[.!,;\n]|$)"),
    "dash-lead": r"\s*[-–—:]\s*",
    "label-lead": r"\s*[).\]:]\s*|",
    "wrapped-label-lead": r"\s*[.:]?\s*",             # "(C) 5 A, clockwise"
    "own-text-lead": r"\s*[).\]:]?\s*",
    "dash-ahead": r"\s*[-–—:]",
    "statement-break": r"[.!?;:—–]|\s-\s",
    "letter-list-tail": r"(?:\s*(?:,|and|or|&|/)\s*(?:option\s*)?[\(\[]?[A-Z][\)\]]?(?![\w'’]))*",
}


@dataclass(frozen=True)
class Group:
    """Cues read as one pattern: `head`, then the alternatives (one per cue), then `tail`. The
    engine runs the group once and names the cue whose alternative matched."""

    name: str
    looks_at: str
    head: str
    tail: str


GROUPS: dict[str, Group] = {g.name: g for g in (
    Group("answer-label", "before", r"(?i)(?:", r")\s*[:=\-–—]*\s*$"),
    Group("conclusion", "before", r"(?i)(?:", r")"),
    Group("strong-after", "after", r"(?i)^\s*(?:\)\s*)?(?:", r")"),
    Group("negated-before", "before", r"(?i)(?:", r")(?:\s+option)?\s*[\(\[]?\s*$"),
    Group("negated-after", "after",
          r"(?i)^\s*[\)\]]?\s*(?:\([^()\n]*\)\s*)?" + PARTS["letter-list-tail"] + r"\s*(?:", r")"),
    Group("word-part-before", "before", r"(?:", r")\Z"),
    Group("asking", "sentence", r"(?i)(?:", r")"),
    Group("conditional-after", "after", r"(?i)^\s*[\)\]]?\s*,?\s*(?:", r")"),
    Group("alternative-before", "before", r"(?i)(?:", r")(?:option\s*)?[\(\[]?\s*$"),
    Group("alternative-after", "after", r"(?i)^\s*[\)\]]?\s*,?\s*(?:", r")"),
)}


@dataclass(frozen=True)
class Cue:
    """One named rule of the letter reader (see the module docstring for stages, positions and
    effects). `pattern` is a regular expression built from the word lists, or "" where the engine
    decides in code from the parts and groups named in `uses`. `group`: the cue is one alternative
    of that group's pattern. `examples`: (reply, letter the reply reads as[, options]); without
    options they are read with EXAMPLE_OPTIONS."""

    name: str
    stage: str
    looks_at: str
    effect: str
    pattern: str
    doc: str
    examples: tuple = ()
    group: str = ""
    uses: tuple[str, ...] = field(default=())


EXAMPLE_OPTIONS = {"A": "red", "B": "blue", "C": "dark red", "D": "green"}
YES_NO = {"A": "Yes", "B": "No"}

# What each `foreign-*` cue reads its words as.
FOREIGN_ENGLISH = {
    "foreign-correct-answer": " correct answer ", "foreign-final-answer": " final answer ",
    "foreign-answer": " answer ", "foreign-is-after-answer": " is ", "foreign-option": " option ",
    "foreign-not-after": " is not, ", "foreign-not": " not ", "foreign-rule-out": " rule out ",
    "foreign-not-sure": " not sure ", "foreign-or": " or ", "foreign-choose": " I choose ",
    "foreign-rather": ", ", "foreign-polite-end": ". ", "foreign-is": " is ",
}

_LEAD = r"^\s*[\)\]]?\s*"             # after a letter: its closing bracket
_TO_LETTER = r"(?:option\s*)?[\(\[]?\s*$"     # before a letter: "option", an opening bracket

CUES: tuple[Cue, ...] = (
    # -- 1. reply ---------------------------------------------------------------------------------
    Cue("plain-script", "reply", "reply", "rewrite", "",
        "NFKC (full-width 'Ｂ', '（B）', '答案：B' read as ASCII), CJK punctuation as Latin, and a space "
        "wherever a Latin letter or digit touches another script ('答案是B。', 'B选项', '정답은 D입니다').",
        (("答案是B。", "B"), ("Ｂ", "B"), ("정답은 D입니다", "D")), uses=("script-edge",)),
    Cue("json-answer-field", "reply", "json field", "read", "",
        "A JSON (or Python dict) reply is read through its answer field: the shallowest, the last of "
        "those; an object value through its own answer field or its text.",
        (('{"answer": "B"}', "B"), ("{'final_answer': '(B) blue'}", "B"),
         ('{"answer": "B", "considered": [{"option": "A"}]}', "B"), ('{"result": {"answer": "C"}}', "C"),
         ('{"answer": {"text": "blue"}}', "B")), uses=("answer-key",)),
    Cue("json-answer-null", "reply", "json field", "none", "",
        "An answer field that is null, empty or 'none' names no option.",
        (('{"answer": null}', None), ('{"choice": ""}', None))),
    Cue("json-answer-text", "reply", "json field", "read",
        r"""(?i)["']""" + alt(k.replace("_", "[_ ]?") for k in ANSWER_KEYS)
        + r"""["']\s*:\s*(null|none|"(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\])""",
        "An answer field in a reply that is no well-formed object: its last value is read.",
        (('Here: {"answer": "B", oops', "B"),)),
    Cue("reasoning-block", "reply", "reply", "rewrite", r"(?i)</" + alt(REASONING_TAGS) + ">",
        "A reasoning block: the reply is what follows its closing tag; the block is read only when "
        "nothing follows (a lone closing tag ends one too).",
        (("<think>A seems right... no.</think> B", "B"), ("<think>It is C.</think>", "C"))),
    Cue("reasoning-open-tag", "reply", "reply", "rewrite", r"(?i)<" + alt(REASONING_TAGS) + ">",
        "An opening reasoning tag is no text.", (("<think>The answer is C.", "C"),)),
    Cue("boxed", "reply", "reply", "rewrite", r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}",
        "\\boxed{B} is an answer label.", ((r"\boxed{B}", "B"), (r"So $\boxed{\text{(C)}}$.", "C")),
        uses=("latex-wrap",)),
    Cue("checked-box", "reply", "line", "rewrite", r"(?m)^([ \t>*+-]*)\[[xX✓✔]\]",
        "A checked box at the start of a line is a check mark.", (("- [ ] A\n- [x] B", "B"),)),
    Cue("empty-box", "reply", "line", "rewrite", r"(?m)^([ \t>*+-]*)\[ \]",
        "An empty box at the start of a line is a cross.", (("[ ] A\n[ ] C\n[x] D", "D"),)),
    Cue("markup", "reply", "reply", "rewrite", r"[*_`#\\{}\"$]+|</?(?:[a-z]|\w\w+)>|<\|[\w-]*\|>",
        "Markdown and markup characters, tags and chat-template tokens are no text ('**B**', "
        "'<answer>B</answer>', '<|eot_id|>'); '<A>' is a letter.",
        (("**B**", "B"), ("<answer>C</answer>", "C"), ("B<|eot_id|>", "B"))),
    # -- 2. answer line ------------------------------------------------------------------------------
    Cue("final-answer-line", "answer line", "last line", "read",
        r"(?i)^[^\w]*(?:final\s+|correct\s+)?answer\s*[:：]\s*(.+?)\s*$",
        "The reply's last line says 'Answer: ...' (the format reasoning prompts ask for): what it "
        "names decides (the answer-line cues below); anything else is read with the rest of the reply.",
        (("Let me work it out. A is 3, B is 4.\nAnswer: B", "B"),)),
    Cue("answer-line-conflict", "answer line", "reply", "read on", "",
        "Another 'Answer:' line that says something else: the last line does not decide alone.",
        (("Answer: B\nWait, let me check.\nAnswer: B or C", None),)),
    Cue("answer-line-text", "answer line", "last line", "choose", "",
        "The last line gives the whole text of exactly one option.",
        (("Working...\nAnswer: dark red", "C"),)),
    Cue("answer-line-letter", "answer line", "last line", "choose", r"[\s(\[]*([A-Za-z])[\s)\]]*[.:!]*",
        "The last line names one letter ('Answer: C', 'Answer: \\( \\text{(C)} \\)').",
        (("Step 1 gives A - no.\nAnswer: C", "C"), ("So:\nAnswer: \\( \\text{(D)} \\)", "D"))),
    Cue("answer-line-labelled", "answer line", "last line", "choose", r"[(\[]?([A-Z])(?:[)\]][.:]?|[.:])\s+(.+)",
        "The last line names a letter with an option's text: the letter stands (also after a slip "
        "to another option's text).",
        (("Reasoning.\nAnswer: (C) dark red", "C"), ("Reasoning.\nAnswer: B. red", "B"))),
    Cue("answer-line-none", "answer line", "last line", "none", r"(?i)" + alt(NONE_SAID) + r"[.!]?",
        "The last line says none of them ('Answer: None of the above').",
        (("I checked each.\nAnswer: None of the above", None),)),
    # -- 3. rewrite --------------------------------------------------------------------------------
    Cue("maths", "rewrite", "maths", "rewrite",
        r"(?s)\$\$(.+?)(?:\$\$|\Z)|\\\[(.+?)(?:\\\]|\Z)|\\\((.+?)(?:\\\)|\Z)"
        r"|(?<![\\$\w])\$(?![\s\d])([^$\n]+?)(?<!\s)\$(?!\w)",
        "Letters inside TeX maths are variables and points, not options ('\\(A\\) is the area', "
        "'$h_{AB}$'); a price ('$5 and $6') is no maths.",
        (("Let \\(A\\) be the area; then the answer is B.", "B"),)),
    Cue("maths-answer-letter", "rewrite", "maths", "rewrite", "",
        "A letter alone in maths counts where it is stated as the answer ('Answer: $C$', '$B$ is correct').",
        (("The answer is $C$ here.", "C"), ("$B$ is correct.", "B")),
        uses=("lone-letter", "answer-label", "conclusion", "strong-after")),
    Cue("foreign-correct-answer", "rewrite", "reply", "rewrite", "(?i)" + alt(FOREIGN_CORRECT_ANSWER),
        "'正确答案', '정답', 'правильный ответ', 'respuesta correcta', ... read as 'correct answer'.",
        (("正确答案：C", "C"), ("La respuesta correcta es B", "B"))),
    Cue("foreign-final-answer", "rewrite", "reply", "rewrite", "(?i)" + alt(FOREIGN_FINAL_ANSWER),
        "'最终答案', '最終的な答え' read as 'final answer'.", (("最终答案：D", "D"),)),
    Cue("foreign-answer", "rewrite", "reply", "rewrite",
        "(?i)" + "|".join(FOREIGN_ANSWER) + "|" + bounded(FOREIGN_ANSWER_WORDS),
        "'答案', '回答', 'Ответ', 'Respuesta', 'Réponse', 'Antwort', 'الإجابة' read as 'answer'.",
        (("Ответ: B", "B"), ("Antwort: C", "C"), ("Réponse : A", "A"))),
    Cue("foreign-is-after-answer", "rewrite", "reply", "rewrite",
        r"(?i)(?<= answer )\s*(?:" + "|".join(FOREIGN_IS_AFTER_ANSWER) + "|" + bounded(FOREIGN_IS_AFTER_ANSWER_WORDS) + ")",
        "The copula after an answer word ('答えはB', 'La respuesta es B') read as 'is'.",
        (("答えはB", "B"), ("Die Antwort ist D", "D"))),
    Cue("foreign-option", "rewrite", "reply", "rewrite",
        "(?i)" + "|".join(FOREIGN_OPTION) + "|" + bounded(FOREIGN_OPTION_WORDS),
        "'选项', '選択肢', 'вариант', 'opción', 'opção', 'opzione' read as 'option'.",
        (("我选选项C", "C"), ("Elijo la opción B", "B"))),
    Cue("foreign-not-after", "rewrite", "reply", "rewrite", r"(?i)\s*" + alt(FOREIGN_NOT_AFTER),
        "A postpositional negation follows its letter ('BではなくA', 'B가 아니라 A'): read as 'is not,'.",
        (("BではなくA", "A"),)),
    Cue("foreign-not", "rewrite", "reply", "rewrite",
        "(?i)" + "|".join(FOREIGN_NOT) + "|" + bounded(FOREIGN_NOT_WORDS) + "|" + "|".join(FOREIGN_NOT_LAST),
        "'不是', 'не', 'no es', \"n'est pas\", 'nicht' read as 'not'.",
        (("不是A，是C", "C"), ("Не A, а B", "B"), ("Nicht A, sondern D", "D"))),
    Cue("foreign-rule-out", "rewrite", "reply", "rewrite", "(?i)排除", "'排除' read as 'rule out'.",
        (("排除A，答案是B", "B"),)),
    Cue("foreign-not-sure", "rewrite", "reply", "rewrite", "(?i)不[确確]定|不知道",
        "'不确定', '不知道' read as 'not sure'.", (("不确定是A还是B", None),)),
    Cue("foreign-or", "rewrite", "reply", "rewrite",
        "(?i)" + "|".join(FOREIGN_OR) + "|" + bounded(FOREIGN_OR_WORDS) + "|" + "|".join(FOREIGN_OR_LAST),
        "'还是', '或者', 'или', 'oder', 'ou' between letters read as 'or'.", (("A或者B", None), ("A oder B", None))),
    Cue("foreign-choose", "rewrite", "reply", "rewrite",
        "(?i)" + "|".join(w.replace(" ", r"\s+") for w in FOREIGN_CHOOSE) + "|" + bounded(FOREIGN_CHOOSE_WORDS),
        "'我选', 'выбираю', 'elijo', 'je choisis', 'ich wähle' read as 'I choose'.",
        (("我选C", "C"), ("Je choisis A", "A"))),
    Cue("foreign-rather", "rewrite", "reply", "rewrite", r"(?i)而是|\bsondern\b",
        "'而是', 'sondern' (but rather) read as a comma.", (("不是A而是B", "B"),)),
    Cue("foreign-polite-end", "rewrite", "reply", "rewrite", "(?i)です|입니다",
        "A polite sentence end ('です', '입니다') read as a full stop.", (("Bです", "B"),)),
    Cue("foreign-is", "rewrite", "reply", "rewrite", "(?i)是", "'是' read as 'is'.", (("答案是D", "D"),)),
    Cue("ordinal", "rewrite", "reply", "rewrite",
        r"(?i)\bthe\s+(" + "|".join(ORDINALS + ("last",)) + r")\s+("
        + "|".join(w.replace(" ", r"\s+") for w in ORDINAL_NOUNS) + r")\b",
        "'the second option', 'the last choice': the option at that place.",
        (("I'd pick the second option.", "B"), ("It's the last one listed.", "D"))),
    Cue("compound-pair", "rewrite", "reply", "rewrite",
        r"(?<![\w/])[A-Z]/[A-Z](?=[ \t]+(?!" + alt(PAIR_STAYS_LIST) + r"\b)[a-z])",
        "A letter pair before a noun is a name ('the A/B testing chat'), not a list ('A/B both fit').",
        (("From the A/B testing chat, it's C.", "C"),)),
    Cue("glued-letter", "rewrite", "reply", "rewrite",
        r"(?<![\w'’.&/-])([\(\[]?([A-Z])(?:[\)\]][.:|\-–—]*|[.:|\-–—)]+))(?=[^\W_])",
        "A letter glued to its own option's text reads apart ('A.Yes', 'D:green', '(B)blue', 'A|red').",
        (("D:green", "D"), ("(B)blue", "B"), ("A.Yes", "A", YES_NO))),
    Cue("whole-reply-letter", "rewrite", "reply", "choose", r"[\(\[]?\s*([A-Za-z])\s*[\)\]]?\s*[.:!]*",
        "The whole reply is one letter ('B', '(b)', 'B.').", (("B", "B"), ("(b)", "B"), ("C.", "C"))),
    # -- 4. letter: what counts as a letter -------------------------------------------------------------
    Cue("letter-token", "letter", "letter", "read",
        r"(?<!\w)(?<!\w['’])(?:\(\s*([A-Za-z])\s*\)|\[\s*([A-Za-z])\s*\]|([A-Za-z]))"
        r"(?:(?![\w'’])|(?=['’](?!\w))|(?=['’]s\s+" + alt(IS_SHORT_NEXT) + r"\b))",
        "A letter standing alone, in brackets or quotes, or before a contracted 'is' ('B's the "
        "answer'; not the possessive 'B's note'). Each is read through the letter cues below; one that "
        "none of them ends is kept (a hit of this cue).",
        (("B's the answer.", "B"), ("I'd say 'C'.", "C"))),
    Cue("not-an-option", "letter", "letter", "not a letter", "",
        "A letter that names no option of the question.", (("E is what I'd say, so B.", "B"),)),
    Cue("inside-own-text", "letter", "letter", "not a letter", "",
        "Letters inside an option's own text after its letter ('F. B, A, D, C') are that text.",
        (("I'd go with C. B, A, D is the order.", "C",
          {"A": "A, B, C, D", "B": "B, C, D, A", "C": "B, A, D", "D": "D, C, B, A"}),)),
    Cue("bracketed-option-text", "letter", "letter", "not a letter", "",
        "'(a)' is an option's text when one option's text is '(a)'.",
        (("The sign is (a), so C.", "C", {"A": "(a)", "B": "(b)", "C": "both", "D": "neither"}),),
        uses=("bracketed-letter-text",)),
    Cue("word-part-after", "letter", "after", "not a letter",
        r"^(?:[-.&][A-Za-z0-9]|\+(?![ \t]*[A-Za-z](?!\w))|#|[ \t]+(?i:" + "|".join(MUSIC_WORDS) + r")\b)",
        "A capital inside a word or an abbreviation: 'B-movie', 'D.C.', 'Q&A', 'C++', 'C#', 'B minor'.",
        (("I watched a B-movie; the answer is C.", "C"), ("You moved to D.C. - answer A.", "A"))),
    Cue("glued-before", "letter", "before", "not a letter",
        r"(?<![\w'’])[A-Za-z]-|[A-Za-z][.&]|(?<![\w'’])[Nn]/",
        "A capital after a letter and a hyphen, a dot or '&' ('Q&A', 'Ph.D.', 'N/A').",
        (("N/A", None), ("Q&A aside, the answer is B.", "B")), group="word-part-before"),
    Cue("title-before", "letter", "before", "not a letter", r"\b" + alt(TITLES) + r"\.?\s+",
        "An initial after a title: 'Dr. A. Smith'.", (("Dr. A. Smith said so; it's C.", "C"),),
        group="word-part-before"),
    Cue("thing-before", "letter", "before", "not a letter", r"\b(?i:" + "|".join(w.replace(" ", r"\s+") for w in THING_NOUNS) + r")\s+",
        "A capital that names a thing: 'vitamin C', 'Plan B', 'gate A', 'Room D', 'the B train'.",
        (("You take vitamin C daily, so D.", "D"), ("Plan B was the trip; answer A.", "A")), group="word-part-before"),
    Cue("person-before", "letter", "before", "not a letter", r"\b(?i:" + "|".join(PERSON_WORDS) + r")\s+",
        "A capital that names a person: 'Aunt B', 'your cousin B', 'Coach C'.",
        (("Aunt B told you it was green.", "D"),), group="word-part-before"),
    Cue("grade-before", "letter", "before", "not a letter",
        r"\b(?i:" + alt(GRADE_VERBS) + r"\s+(?:an?|the)?)\s+",
        "A grade: 'got an A on the exam', 'scored a B'.", (("You got an A on it, and it was blue.", "B"),),
        group="word-part-before"),
    Cue("unit-before", "letter", "before", "not a letter", r"[°º˚][ \t]?",
        "A unit after a degree sign: '30 °C'.", (("It was 30 °C and green.", "D"),), group="word-part-before"),
    Cue("symbol-before", "letter", "before", "not a letter", r"(?<![\u0370-\u03ff])[\u0370-\u03ff][ \t]?",
        "A capital after one Greek letter is a symbol: 'Δ B', 'ΔA'.", (("Δ B rises, so the answer is C.", "C"),),
        group="word-part-before"),
    Cue("the-x-noun", "letter", "before", "not a letter", "",
        "A capital between 'the' and a noun is a name ('the B train'; not 'the B option').",
        (("Take the B train; it's green.", "D"),),
        uses=("the-before", "noun-after", "predicate-after", "letter-noun-after")),
    Cue("after-capitalised-word", "letter", "before", "not a letter", "",
        "A capital after a capitalised word mid-sentence is part of a name ('with Jay B'), unless that "
        "word is a common one or an option's ('..., Definitely B').",
        (("You went with Jay B to the blue house.", "B"),), uses=("name-before",)),
    # -- 4. letter: statements that state nothing ------------------------------------------------------
    Cue("conditional-partner", "letter", "letter", "condition", "",
        "The letter listed after a letter inside a condition ('not sure whether it's A or B').",
        (("Not sure whether it's A or B.", None),)),
    Cue("hypothetical-before", "letter", "before", "condition",
        r"(?i)(?:\b" + alt(CONDITION_WORDS) + r"\s+(?:(?:it|that|this|we|I|you|the\s+(?:correct\s+|right\s+)?answer)"
        r"\s*(?:['’]s|\s+is|\s+are|\s+were|\s+was|\s+had\s+been|\s+would\s+be"
        r"|\s+(?:pick|picked|choose|chose|go\s+with|went\s+with|take|took|said))?\s+)?"
        r"|\b(?:were|had)\s+it\s+(?:been\s+)?)" + _TO_LETTER,
        "A letter inside a condition states nothing: 'So, if it's A, then ...', 'If it were A', "
        "'Assuming A were right'.", (("So, if it's A, then you'd have said red. You said blue, so B.", "B"),)),
    Cue("condition-after", "letter", "after", "condition",
        alt(("if", "unless", "assuming", "provided that", "in case")) + r"\b(?!\s+" + alt(NOT_CONDITIONS) + ")",
        "A condition after the letter: 'A if you mean last year, B if you mean now' (not 'B, if I had "
        "to guess').", (("A if you mean last year, B if you mean now.", None),),
        group="conditional-after"),
    Cue("guess-taken-back", "letter", "after", "condition",
        r"but\s+(?:(?:honestly|really|truly|tbh)\s*,?\s+)?(?:I\s+)?(?:honestly\s+|really\s+|truly\s+|just\s+)?"
        r"(?:(?:don['’]t|do\s+not)\s+(?:really\s+)?know|have\s+no\s+(?:idea|clue)|no\s+(?:idea|clue)"
        r"|can['’]t\s+(?:really\s+)?(?:say|tell|be\s+sure))(?=\s*(?:[.!,;…]|$))",
        "A guess taken back: 'It might be A, but I honestly don't know.'",
        (("It might be A, but I honestly don't know.", None),), group="conditional-after"),
    # -- 4. letter: rejections ------------------------------------------------------------------------------
    Cue("rejected-partner", "letter", "letter", "reject list", "",
        "The letter listed after a rejected one: 'not A or C'.", (("Not A or C; it's B.", "B"),)),
    Cue("negation-before", "letter", "before", "reject list", "|".join(w.replace(" ", r"\s+") for w in NEGATION_BEFORE),
        "After 'not', 'nor', 'rather than', 'over', 'instead of', 'than', 'except', 'unlike'.",
        (("B, not A.", "B"), ("I'd take C over A.", "C"), ("B rather than D.", "B")), group="negated-before"),
    Cue("elimination-before", "letter", "before", "reject list", r"\b" + alt(ELIMINATION_VERBS),
        "After 'rule out', 'eliminate', 'exclude', 'discard', 'cross out', 'strike', 'scratch'.",
        (("Rule out A and C; B it is.", "B"), ("Eliminate D. Answer: A", "A")), group="negated-before"),
    Cue("not-enough-to-pick", "letter", "before", "reject list",
        r"(?:n't|\bnot|\bno)\s+(?:\w+\s+)?(?:enough|sufficient)\s+\w+\s+to\s+(?:pick|choose|select|say|decide\s+on|go\s+with)",
        "'not enough info to pick A'.", (("There's not enough info to pick A.", None),), group="negated-before"),
    Cue("rejecting-label", "letter", "before", "reject list",
        r"(?:^|[\n.!?;|])[^\S\n]*(?:[-*•>]\s*)?" + alt(REJECTING_LABELS)
        + r"(?:\s+(?:answers?|options?|choices?|ones?))?\s*[:=\-–—]",
        "A rejecting label: 'Incorrect answers: B', 'Wrong: C', 'Ruled out: D'.",
        (("Correct: A\nWrong: C", "A"),), group="negated-before"),
    Cue("set-aside", "letter", "before", "reject list",
        r"\b(?:was|were)\s+(?:about|going|tempted)\s+to\s+(?:say|pick|choose|go\s+with|answer)|\bthought\s+(?:about|of)"
        r"|\b(?:nearly|almost)\s+(?:said|picked|chose|went\s+with|answered)"
        r"|\b(?:initially|originally|first|at\s+first)\s*,?\s+(?:I\s+|we\s+)?(?:considered|thought(?:\s+of)?|guessed"
        r"|suspected|picked|chose|said|leaned\s+(?:toward|towards))|\bat\s+first\s+(?:glance|sight)"
        r"|\b" + alt(OTHERS_WHO_MIGHT) + r"\s+(?:might|may|could|would)\s+(?:\w+\s+)?" + alt(THINK_VERBS),
        "A hypothesis set aside: 'I was about to say D', 'I initially considered D', 'At first glance "
        "D', 'You might think D'.", (("I was about to say D, but it's B.", "B"), ("You might think A. It's C.", "C")),
        group="negated-before"),
    Cue("superseded", "letter", "before", "reject list",
        r"\b" + alt(FIRST_WORDS) + r"\s+" + alt(GUESS_NOUNS) + r"\s+(?:was|had\s+been)"
        r"|(?:^|[^\w\s]\s*|\b(?:it|that|which|this)\s+(?:was\s+)?)" + alt(FORMERLY)
        + r"|\bbefore\s+(?:that|then)\s*,?\s*(?:it|that)\s+(?:was|were)|\bused\s+to\s+be"
        r"|\b(?:chang|switch|mov|went|go|updat|revis)\w*\s+(?:\w+\s+)?from",
        "A superseded guess or value: 'My first instinct was D', 'Originally D', 'changed it from D'.",
        (("My first instinct was D, but B.", "B"), ("You changed it from A to C.", "C")), group="negated-before"),
    Cue("negated-choosing", "letter", "before", "reject list",
        r"(?:n't|\bnot|\bnever)\s+(?:\w+\s+)?" + alt(CHOOSING_VERBS),
        "A negated verb of choosing: 'I wouldn't choose A', 'It wouldn't be A', 'I don't think it's A'.",
        (("I wouldn't choose A. B.", "B"), ("I don't think it's A.", None)), group="negated-before"),
    Cue("negated-evidence", "letter", "before", "reject list",
        r"(?:n't|\bnot|\bnever|\bnothing|\bnone\s+of\s+\w+|\bno\s+(?:evidence|message|mention))\b[^.;!?\n]{0,40}?\b"
        + alt(EVIDENCE_STEMS) + r"\w*",
        "Negated evidence: 'your message doesn't match B', 'nothing supports A', 'I don't see anything "
        "supporting B', 'you never mentioned B'.",
        (("Nothing in the chat supports A; it's C.", "C"),), group="negated-before"),
    Cue("no-sign-of", "letter", "before", "reject list",
        r"\bno\s+" + alt(NO_SIGN_NOUNS) + r"\s+(?:at\s+all\s+)?(?:of|for)",
        "'There's no sign of B'.", (("There's no sign of B. Answer: D", "D"),), group="negated-before"),
    Cue("mark-cross", "letter", "line", "reject", "",
        "A cross beside the letter ('❌ B', 'B ❌'); a line that starts with a mark puts marks before "
        "letters, otherwise after.", (("A ❌\nB ✅", "B"),),
        uses=("mark-first-on-line", "mark-before", "mark-after")),
    Cue("cell-no", "letter", "line", "reject", "",
        "A 'no'/'false' table cell after the letter ('| B | no |'); outside a table row a cell holding "
        "the letter's own option text is no verdict.",
        (("| A | yes |\n| B | no |", "A"),), uses=("cell-after",)),
    Cue("verdict-no", "letter", "after", "reject", "",
        "A rejecting verdict after a dash or colon, also after the option's text: 'A - no', "
        "'A) red - outdated'.", (("A) red - outdated\nB) blue - current", "B"),), uses=("verdict-after", "own-text-lead", "dash-ahead")),
    Cue("called-wrong", "letter", "after", "reject",
        r"(?:is|was|are|were|seems|looks|would\s+be)\s+(?:both\s+|all\s+|also\s+|too\s+)?" + alt(WRONG_WORDS),
        "'B is incorrect', 'A and C are wrong', 'D is a distractor', 'B is tempting'.",
        (("B is incorrect, so A.", "A"), ("A and C are wrong; D.", "D")), group="negated-after"),
    Cue("former-value", "letter", "after", "reject",
        r"(?:was|used\s+to\s+be)\s+(?:correct|right|true|the\s+answer)\s+(?:before|earlier|previously|originally"
        r"|at\s+first|until|last)\b"
        r"|(?:is|was|are|were)\s+(?:the|your|my)\s+(?:old|previous|earlier|original|former|first|initial)\b"
        r"|(?:was|were)\s+(?:before|earlier|previously|originally|at\s+first"
        r"|(?:the|your)\s+(?:old|previous|earlier|original|former)|what\s+you\s+(?:had|said)\s+(?:before|earlier|first))"
        r"|used\s+to\s+be\b"
        r"|(?:is|was)\s+what\s+(?:you|it)\s+(?:used\s+to|had\s+(?:before|earlier|at\s+first))",
        "The letter described as the former value: 'B was before you changed it', 'A is the old one', "
        "'A used to be right'.", (("B was before you changed it; now it's C.", "C"),), group="negated-after"),
    Cue("would-have-been", "letter", "after", "reject",
        r"would\s+have\s+been\b|would\s+be\s+(?:correct|right|true)\s+if\b",
        "'A would have been true last year'.", (("A would have been true last year. Now B.", "B"),),
        group="negated-after"),
    Cue("no-longer", "letter", "after", "reject",
        r"(?:was|were|had\s+been)\s+(?:correct|right|true|accurate|valid|the\s+answer|the\s+case)\s*,?\s*(?:\w+\s+){0,2}?"
        r"(?:not\s+any\s*more|no\s+longer|last\b|ago\b|back\s+then|once\b|in\s+the\s+past|a\s+while\s+ago)"
        r"|(?:(?:was|were|is|are)\s+(?:\w+\s+){0,3}?)?(?:no\s+longer|not\s+any\s*more)\b",
        "'A was correct, but not anymore', 'A is no longer true', 'D no longer applies'.",
        (("A is no longer true; B.", "B"),), group="negated-after"),
    Cue("at-first", "letter", "after", "reject",
        r",?\s*(?:at\s+first|originally|initially|earlier|previously|formerly)\b|\s*before\s*(?:[.,;!?\n]|$)",
        "'A at first', 'A earlier', 'A before.'", (("A at first, then C.", "C"),), group="negated-after"),
    Cue("contradicts", "letter", "after", "reject", r"(?:contradicts?|conflicts?)\b",
        "'A contradicts what you said'.", (("A contradicts your message; B fits.", "B"),), group="negated-after"),
    Cue("never-came-up", "letter", "after", "reject",
        r"(?:also\s+)?never\b|" + alt(CAME_TO_MIND) + r"\s+to\s+mind",
        "'B never came up', 'B came to mind first'.", (("B never came up. A.", "A"),), group="negated-after"),
    Cue("close-but-no", "letter", "after", "reject",
        r"(?:is|was|seems|looks)\s+(?:close|plausible|tempting|possible|reasonable)\s*,?\s*but\s+(?:no|not|nope|wrong)\b",
        "'B is close, but no'.", (("B is close, but no. D.", "D"),), group="negated-after"),
    Cue("would-need", "letter", "after", "reject", r"would\s+(?:need|require|only\s+(?:fit|work|apply|hold))\b",
        "'B would need you to have said blue'.", (("C would need a dark shade. A.", "A"),), group="negated-after"),
    Cue("about-something-else", "letter", "after", "reject",
        r"(?:is|was|are|were|refers?\s+to|applies\s+to)\s+(?:(?:about|from|for)\s+(?:an?\s+|the\s+)?(?:different|other|another)"
        r"|(?:an?\s+)?different\b|something\s+else|someone\s+else)",
        "'B is about a different day', 'B refers to something else'.",
        (("B refers to something else; C.", "C"),), group="negated-after"),
    Cue("close-second", "letter", "after", "reject", r"(?:as\s+)?an?\s+(?:close|distant|near)\s+(?:second|runner[-\s]up)\b",
        "'A, with B a close second'.", (("A, with B a close second.", "A"),), group="negated-after"),
    Cue("can-be-ruled-out", "letter", "after", "reject",
        r"can\s+be\s+(?:ruled\s+out|eliminated|excluded|dismissed|discarded)",
        "'B can be ruled out'.", (("B can be ruled out, so D.", "D"),), group="negated-after"),
    Cue("negated-verb", "letter", "after", "reject", alt(NEGATED_VERBS) + r"\b",
        "'B isn't it', 'B doesn't fit', 'B can't be right'.", (("B doesn't fit; C does.", "C"),),
        group="negated-after"),
    Cue("answered-no", "letter", "after", "reject",
        r"(?i)^\s*[\)\]]?\s*(?:\?+|\.{2,}|…)\s*(?:(?:definitely|certainly|probably|surely)\s+)?"
        r"(?:no|nope|nah|wrong|not|unlikely|doubtful|hardly)\b"
        r"|^\s*[\)\]]?\s*\?+\s*I\s+(?:(?:don['’]t|do\s+not)\s+(?:think|believe)\s+so|doubt\s+(?:it|that))\b",
        "A letter asked about and answered no: 'B? No.', 'Was it D? I don't think so'.",
        (("B? No. A? Yes.", "A"),)),
    Cue("retracted", "letter", "after", "reject",
        r"(?i)^\s*[\)\]]?\s*[.…,;:!?—–-]*\s*(?:no[,.!]?\s+)?(?:wait|hold\s+on|scratch\s+that|on\s+second\s+thought)\b",
        "A letter taken back: 'It's B... wait, no.'", (("It's B... wait, no. It's C.", "C"),)),
    Cue("rejecting-verdict", "letter", "after", "reject",
        r"(?i)^\s*[-–—:]\s*(?:not|never|nope|unlikely|ruled\s+out|eliminated|doesn['’]t"
        r"|does\s+not|isn['’]t|wasn['’]t|no\s+(?:match|mention|evidence))\b",
        "A rejecting verdict after a dash or colon: 'A – not mentioned', 'C - ruled out' (not the "
        "letter's own text: 'D: no pets').", (("A – not mentioned. B – yes.", "B"),), uses=("dash-lead",)),
    # -- 4. letter: questions -------------------------------------------------------------------------
    Cue("answered-yes", "letter", "after", "decide", r"(?i)^\s*[\)\]]?\s*\?+\s*(?:yes|yep|yeah|yup|correct|right|exactly)\b",
        "A letter asked about and answered yes: 'B? Yes.'", (("A? No. B? Yes.", "B"),)),
    Cue("asked-question", "letter", "sentence", "question",
        r"(?:^|(?<=[.!?\n—–]))[^\S\n]*(?:(?:so|and|but|or|hmm|well|then|now|sorry)\W+)*"
        + alt(INTERROGATIVES) + r"\b[^.!?\n]*\?+",
        "A sentence that opens with an interrogative or a hedge and ends with '?' states nothing: "
        "'Could it be A?', 'Do you mean A or B?'.", (("Could it be A? You said blue, so B.", "B"),), group="asking"),
    Cue("guess-as-question", "letter", "sentence", "question",
        r"(?:^|(?<=[.!?\n]))[^.!?\n]*\b" + alt(GUESS_WORDS) + r"\b[^.!?\n]*\?+",
        "A guess put as a question: 'B, I guess?', 'Possibly B? I'm not certain.'", (("B, I guess?", None),),
        group="asking"),
    Cue("questioned", "letter", "after", "question", r"^\s*[\)\]]?\s*\?",
        "A letter put as a question states nothing unless answered ('B?', 'Maybe B?').",
        (("B?", None), ("A? C?", None))),
    # -- 4. letter: standing ----------------------------------------------------------------------------
    Cue("mark-check", "letter", "line", "decide", "",
        "A check mark beside the letter ('B ✅', '✅ B').", (("A ❌ B ✅", "B"),),
        uses=("mark-first-on-line", "mark-before", "mark-after")),
    Cue("cell-yes", "letter", "line", "decide", "",
        "A 'yes'/'true' table cell after the letter ('| B | yes |').", (("| A | no |\n| B | yes |", "B"),),
        uses=("cell-after",)),
    Cue("verdict-yes", "letter", "after", "decide", "",
        "A verdict after a dash or colon: 'B: yes', 'C — correct.', 'B) blue – correct'.",
        (("A: no\nB: yes", "B"),), uses=("verdict-after", "own-text-lead", "dash-ahead")),
    Cue("is-correct", "letter", "after", "decide",
        r"(?:is|would\s+be|seems|should\s+be)\s+(?:(?:the\s+|my\s+)?(?:(?:final|current|latest|most\s+recent)\s+)?"
        + alt(RIGHT_WORDS) + r"|the\s+(?:right\s+|correct\s+)?one\b)",
        "'B is correct', 'B is the answer', 'B would be my answer', 'B is the one'.",
        (("B is correct.", "B"), ("C is the one.", "C")), group="strong-after"),
    Cue("it-is", "letter", "after", "decide", r"it\s+is\s*(?:[.!;,\n]|$)", "'B it is.'", (("B it is.", "B"),),
        group="strong-after"),
    Cue("wins", "letter", "after", "decide",
        r"gets\s+my\s+vote|wins\b|takes\s+it\b|(?:fits|matches|works)\s+(?:better|best)",
        "'B gets my vote', 'B wins', 'B fits better'.", (("A is fine, but B fits better.", "B"),), group="strong-after"),
    Cue("is-closest", "letter", "after", "decide", r"(?:is|seems)\s+(?:the\s+)?(?:closest|nearest)\b",
        "'B is the closest' (to a computed value).", (("I get 12. B is the closest.", "B"),), group="strong-after"),
    Cue("more-likely", "letter", "after", "decide", r"(?:is|seems)\s+(?:more|most|far\s+more)\s+likely",
        "'B is more likely'.", (("B is more likely.", "B"),), group="strong-after"),
    Cue("strong-after-own-text", "letter", "after", "decide", "",
        "A verdict after the letter's own option text: 'B. 12 Pa is the closest'.",
        (("B. 12 Pa is the closest", "B", {"A": "10 Pa", "B": "12 Pa", "C": "14 Pa"}),), uses=("strong-after",)),
    Cue("answer-word", "letter", "before", "decide",
        r"\b(?:final\s+)?" + alt(ANSWER_WORDS) + r"(?:\s+" + alt(ANSWER_COPULAS) + ")?",
        "An answer label: 'Answer: B', 'The answer is B', 'ans: B', 'final answer = B'.",
        (("The answer is B.", "B"), ("ans: d", "D")), group="answer-label"),
    Cue("option-word", "letter", "before", "decide", r"\boption|\bchoice",
        "'option'/'choice' as a label before a trailing 'option' ('Choice: option B'); the decide "
        "step reads the words before a trailing 'option'/'choice' (so 'I pick option B' decides), "
        "and 'Option B' alone is only named (option-named).", (("Choice: option B.", "B"),),
        group="answer-label"),
    Cue("correct-label", "letter", "before", "decide",
        r"\bcorrect(?:\s+" + alt(CORRECT_NOUNS) + r")?(?:\s+(?:is|would\s+be))?",
        "'The correct answer is B', 'Correct: B'.", (("The correct option is C.", "C"),), group="answer-label"),
    Cue("response-label", "letter", "before", "decide", r"\bresponse(?:\s+is)?", "'Response: B'.",
        (("Response: B", "B"),), group="answer-label"),
    Cue("final-label", "letter", "before", "decide", r"\bselected|\bfinal|\bconclusion",
        "'Selected: B', 'Final: B', 'Conclusion: B'.", (("Final: C", "C"),), group="answer-label"),
    Cue("my-answer", "letter", "before", "decide", r"\bmy\s+(?:answer|choice|pick)(?:\s+is)?",
        "'My answer is B', 'My pick: B'.", (("My pick: B", "B"),), group="answer-label"),
    Cue("the-one-that-fits", "letter", "before", "decide", r"\b(?:one|fit|match)\s+(?:here\s+)?(?:is|would\s+be)",
        "'The one that fits is B', 'the best match is B'.", (("The best match is D.", "D"),), group="answer-label"),
    Cue("best-answer", "letter", "before", "decide", r"\bbest\s+answer\s+is", "'The best answer is B'.",
        (("The best answer is B.", "B"),), group="answer-label"),
    Cue("closest", "letter", "before", "decide",
        r"\b(?:closest|nearest)(?:\s+" + alt(CLOSEST_NOUNS) + r")?(?:\s+is)?",
        "'The closest is C', 'closest match: C'.", (("The closest is C.", "C"),), group="answer-label"),
    Cue("choose-verb", "letter", "before", "decide", r"\b" + alt(CHOOSE_VERBS),
        "'I choose B', 'I pick option B', 'going with B'.", (("I choose B.", "B"), ("Going with C.", "C")),
        group="answer-label"),
    Cue("lean-toward", "letter", "before", "decide", r"\blean(?:s|ing)?\s+(?:toward|towards|to)",
        "'I lean toward B'.", (("I lean toward B.", "B"),), group="answer-label"),
    Cue("what-remains", "letter", "before", "decide", r"\bleaves|\bleaving|\bremains(?:\s+is)?|\bleft\s+(?:with|is)",
        "What 'leaves'/'remains' after elimination is asserted: 'That leaves B'.",
        (("A and C are out. That leaves B.", "B"),), group="answer-label"),
    Cue("say", "letter", "before", "decide", r"\b" + alt(SAY_LEADS) + r"\s+say",
        "'I'd say B', 'I'm going to say B'.", (("I'd say B.", "B"),), group="answer-label"),
    Cue("only", "letter", "before", "decide", r"(?<!\bnot\s)\bonly",
        "'only B fits': one letter singled out.", (("Only B fits.", "B"),), group="answer-label"),
    Cue("change-to", "letter", "before", "decide",
        r"\b" + alt(CHANGE_STEMS) + r"(?:e|es|ed|ing)?\s+(?:(?:my|the)\s+(?:answer|choice|pick)\s+|that\s+|it\s+|this\s+)?to",
        "'I'm changing my answer to C', 'I'll revise that to C'.", (("A. I'm changing my answer to C.", "C"),),
        group="answer-label"),
    Cue("make-that", "letter", "before", "decide", r"\bmake\s+(?:that|it)", "'B - make that C'.",
        (("B - make that C.", "C"),), group="answer-label"),
    Cue("conclusion-word", "letter", "before", "decide",
        r"\b(?:" + "".join(rf"(?<!\b{w}\s)" for w in NOT_BEFORE_SO) + "so|" + "|".join(
            w.replace(" ", r"\s+") for w in CONCLUSION_WORDS) + r")\b[\s,:\-–—]*(?:[\w'’]+\s+){0,4}" + _TO_LETTER,
        "A conclusion commits to the letter it reaches: '..., so B', 'Therefore, B', 'so it must be "
        "B', 'which points to B' (not 'I think so').", (("You said blue, so B.", "B"), ("Therefore, C.", "C")),
        group="conclusion"),
    Cue("evidence-verb", "letter", "before", "decide",
        r"\b" + alt(EVIDENCE_VERBS) + r"\s+(?:" + alt(EVIDENCE_FILLERS) + r"\s+)*[\(\[]?\s*$",
        "A verb of evidence: 'the chat supports B', 'which matches B', 'this is consistent with B'.",
        (("Your last message supports B.", "B"),), group="conclusion"),
    Cue("arrow-at-end", "letter", "before", "decide", r"(?:[:→⇒]|=>|->)\s*[\(\[]?\s*$",
        "A letter that closes the reply after a colon or arrow is a conclusion: 'You said blue: B'.",
        (("You said blue: B.", "B"), ("blue -> B", "B")), uses=("end-of-reply",)),
    Cue("option-named", "letter", "before", "label", "",
        "'option B', 'choice B': a trailing 'option'/'choice' names the letter without deciding it "
        "(what the answer-label group reads only with that word).", (("Option C", "C"),),
        uses=("option-word-end",)),
    # -- 4. letter: words, not letters --------------------------------------------------------------
    Cue("lower-case-word", "letter", "letter", "not a letter", "",
        "A lower-case letter counts only in brackets, after a label with nothing after it, or in a "
        "reply of at most SHORT_REPLY_WORDS words where it ends its clause ('i think a', 'b lol'); "
        "'a' is otherwise an article ('the answer is a dog').",
        (("The answer is a dog.", "B", {"A": "cat", "B": "a dog"}),),
        uses=("lower-after-label", "lower-end")),
    Cue("pronoun-i", "letter", "letter", "not a letter", "",
        "'I' never counts bare ('I think B').", (("I think B.", "B", {c: str(i) for i, c in enumerate("ABCDEFGHIJ")}),)),
    Cue("article-a", "letter", "before", "not a letter", "",
        "A capital 'A' at the start of a sentence is an article unless a predicate, a verb or "
        "punctuation follows ('A is correct', 'A does'; not 'A red car', which falls through to the "
        "option text); mid-sentence ('Looks like A to me') it is a letter.",
        (("A photo you sent showed blue.", "B"),), uses=("sentence-start", "predicate-after", "lower-end")),
    Cue("pronoun-i-before-verb", "letter", "after", "not a letter",
        r"[ \t]+(?!(?:is|was|fits|matches|seems|would\s+be|works|applies)\b)[a-z]",
        "'I' before a lower-case word that is no predicate of a letter is a pronoun, after a label too "
        "('Therefore, I made a mistake').",
        (("Therefore, I made a mistake: it's C.", "C", {c: str(i) for i, c in enumerate("ABCDEFGHIJ")}),)),
    Cue("initial", "letter", "after", "not a letter", "",
        "An initial: 'A. Smith told you', 'You told B. Jones', 'B. J. told you' (a capitalised word "
        "after 'X. ' that is neither a common sentence opener nor an option's first word).",
        (("A. Smith told you it was blue.", "B"),), uses=("initial-after", "double-initial")),
    # -- 4. letter: the opening letter, earlier rejections, descriptions -------------------------------
    Cue("opening-letter", "letter", "letter", "decide", "",
        "A letter that opens the reply on its own is its answer ('B. You told me ...', '**C**. Here's "
        "why: ...') unless the reply walks through the options ('A: ... B: ...').",
        (("B. You told me blue. A would mean red.", "B"),), uses=("opening-end", "enumerated")),
    Cue("stays-rejected", "letter", "letter", "stays rejected", "",
        "A letter rejected earlier stays rejected unless a revision or a decisive statement names it "
        "again ('Was it D? I don't think so: D is no pets ... It was B.').",
        (("Not A. A was red. B is right.", "B"),), uses=("revision",)),
    Cue("describes-own-text", "letter", "after", "describe",
        r"(?i)" + _LEAD + r"(?:is|was|=|means|would\s+mean|refers\s+to|says|stands\s+for|represents|is\s+about"
        r"|corresponds\s+to|would\s+be)\s+[\"“'‘(]?\s*",
        "A letter described by its own option's text ('D is green', 'A would mean red') is named, not "
        "chosen: it counts only when nothing firmer is stated.", (("D is green.", "D"),)),
    # -- 4. letter: lists and alternatives ------------------------------------------------------------
    Cue("listed-with-next", "letter", "after", "list",
        r"(?i)" + _LEAD + r"(?:\([^()\n]*\)\s*)?(?:(?:[,;]|\.{2,}|…|\s[-–—])?\s*" + alt(LIST_WORDS) + r"\b|[,;/&+])\s*(?:"
        + alt(LIST_HEDGES) + r"\s+)?(?:option\s*)?[\(\[]?\s*([A-Za-z])\s*[\)\]]?(?![\w'’])",
        "Two letters listed alike: 'A or B', 'A and B', 'A/B', 'A, C', 'A (red) and B (blue)', 'A as "
        "well as B' (not a new clause: 'I'd answer D; C is a distractor').",
        (("A or B.", None), ("Answer: A, C", None)), uses=("clause-verb", "or-and")),
    Cue("listed-after", "letter", "letter", "list", "", "The second letter of such a list.",
        (("Either A or B.", None),)),
    Cue("pair-word-before", "letter", "before", "list", r"(?i)\b(?:either|both|between)\s*[\(\[]?\s*$",
        "'either A', 'both A', 'torn between A and B'.", (("It's either A.", None),)),
    Cue("could-also-be", "letter", "before", "list", r"\b(?:could|might|may|can)\s+(?:also|equally)\s+(?:be\s+)?",
        "'it could also be B': one candidate among others.", (("It's A, but it could also be B.", None),),
        group="alternative-before"),
    Cue("or-maybe", "letter", "before", "list", r"\bor\s+(?:maybe|perhaps|possibly)\s+|(?:^|[.!?…]\s*)or\s+",
        "'or maybe B'; a sentence opening with 'Or'.", (("A. Or maybe B.", None),), group="alternative-before"),
    Cue("so-does", "letter", "before", "list", r"\b(?:so|as)\s+(?:does|do|did|is|are|was|could|would|might|can|may)\s+",
        "'A fits, and so does B', 'A is plausible, as is B'.", (("A fits, and so does B.", None),),
        group="alternative-before"),
    Cue("same-for", "letter", "before", "list", r"\bsame\s+(?:goes\s+)?for\s+|\blikewise\s*,?\s+|\bequally\s+",
        "'same goes for B', 'likewise B'.", (("A works. Same goes for C.", None),), group="alternative-before"),
    Cue("also-before", "letter", "before", "list", r"(?:^|[.!?;,…—–(]\s*|\s-\s+|\b(?:and|but)\s+)also\s+",
        "'Also B.', 'and also B'.", (("A. Also B.", None),), group="alternative-before"),
    Cue("or-something-else", "letter", "after", "list",
        r"or\s+(?:even\s+|maybe\s+|perhaps\s+|possibly\s+)?(?:something|someone|anything|another|other|none|any|some)\b",
        "'B, or even something else'.", (("B, or even something else.", None),), group="alternative-after"),
    Cue("also-possible", "letter", "after", "list",
        r"(?:(?:is|are|was|seems?|looks?|would\s+be|could\s+be|might\s+be|may\s+be|does|do|fits|works|matches|applies"
        r"|holds|might|could|may)\s+)?(?:also|equally)\s+(?:possible|plausible|likely|right|correct|true|valid|an\s+option"
        r"|a\s+possibility|fits?|works?|match(?:es)?|appl(?:y|ies)|holds?|counts?|makes\s+sense|supported)\b",
        "'B is also possible', 'B also fits'.", (("A. B is also possible.", None),), group="alternative-after"),
    Cue("too-as-well", "letter", "after", "list",
        r"(?:is|are|seems?|would\s+be|might|could|may|does|do|fits|works|matches|applies|holds)\s+(?:also\s+)?"
        r"(?:be\s+)?(?:(?:correct|right|true|possible|plausible|fine|it|fit|work)\s+)?(?:too|as\s+well)\b",
        "'B might be right too', 'B works as well'.", (("A. B might be right too.", None),), group="alternative-after"),
    Cue("is-another", "letter", "after", "list", r"(?:is|would\s+be|seems?)\s+another\b", "'B is another'.",
        (("A fits. B is another.", None),), group="alternative-after"),
    Cue("just-as-likely", "letter", "after", "list",
        r"(?:is|seems?|looks?|sounds?)\s+(?:just\s+|about\s+|equally\s+)?as\s+(?:likely|plausible|possible|good|valid)",
        "'B is just as likely'.", (("A, but B is just as likely.", None),), group="alternative-after"),
    Cue("peer-too", "letter", "after", "list", r"(?i)" + _LEAD + r",?\s*(?:too|as\s+well)\b",
        "A letter that opens its clause with 'too'/'as well' after it: 'A. B as well.' (not 'I checked B too').",
        (("A. B as well.", None),), uses=("clause-open",)),
    Cue("list-as-question", "letter", "after", "question", "",
        "A list put as a question is considered, not asserted: 'A, B, or C? B.'",
        (("A, B, or C? You said blue. B.", "B"),), uses=("question-follows",)),
    Cue("current-before", "letter", "sentence", "current", r"(?i)\b" + alt(CURRENT_WORDS) + r"\b",
        "The letter stated as the present or latest value: 'It was A, but now it's B', 'your latest "
        "message points to B'.", (("It was A, but now it's B.", "B"),)),
    Cue("current-after", "letter", "after", "current",
        r"(?i)" + _LEAD + r"(?:(?:now|nowadays|these\s+days|currently|today|instead)\s*(?:[.,;:!?)\n—–-]|$)"
        r"|(?:is|['’]s)\s+(?:the\s+)?(?:current|latest|newest|most\s+recent)\b)",
        "'B now', 'B is current'.", (("A before; B now.", "B"),)),
    # -- 5. settle --------------------------------------------------------------------------------------
    Cue("cannot-tell-which", "settle", "reply", "none",
        r"(?i)\b(?:can['’]?t|cannot|couldn['’]t|not\s+sure|(?:don['’]t|do\s+not)\s+know|no\s+idea"
        r"|hard\s+to\s+(?:tell|say)|impossible\s+to\s+(?:tell|say))\s+(?:\w+\s+){0,2}?which\b"
        r"|\bcan['’]?t\s+(?:decide|choose|pick)\b"
        r"|\b(?:impossible|not\s+possible)\s+to\s+(?:choose|determine|select|pick|decide)\b"
        r"|\b(?:can['’]?t|cannot|unable\s+to)\s+(?:choose|determine|select|pick)\s+(?:the|an?|which|between)\b",
        "After letters that none decides, 'I can't tell which' names none.",
        (("A in one message, B in another; I can't tell which you meant.", None),)),
    Cue("revision", "settle", "between", "settle", r"(?i)\b" + alt(REVISION_WORDS) + r"\b",
        "A revision commits to the firmest letter after it, whatever the standing of what it revises: "
        "'Answer: A, but actually B', 'scratch that', 'or rather'.",
        (("Answer: A, but actually B.", "B"), ("I'd say A. Actually, C.", "C"))),
    Cue("list-then-statement", "settle", "between", "settle", "",
        "After a list, a committed statement in a later clause decides: 'A or B? You said blue, so B'.",
        (("Either A or B. You said blue, so B.", "B"),), uses=("statement-break",)),
    Cue("list-left-open", "settle", "reply", "none", "",
        "A list with no decisive letter after it names none: 'Either A or B.'", (("Either A or B.", None),)),
    Cue("firmest-standing", "settle", "reply", "settle", "",
        "Letters of the firmest standing present decide (decide > label > plain > describe).",
        (("D is green. B is correct.", "B"),)),
    Cue("current-value", "settle", "sentence", "settle", "",
        "Between letters of one standing, the one stated as the present or latest value.",
        (("It was A, but now it's B.", "B"),)),
    Cue("contrast", "settle", "between", "settle", r"(?i)\b" + alt(CONTRAST_WORDS) + r"\b",
        "Between answer statements, the one after a contrast: 'A is correct by your first message, but "
        "the answer is B'.", (("A is correct by your first message, but the answer is B.", "B"),)),
    Cue("concluding", "settle", "between", "settle", r"(?i)\b" + alt(CONCLUDING_WORDS) + r"\b",
        "Between answer statements, a conclusion after the working supersedes an opening claim: 'The "
        "answer is B. <working> Therefore ... option E.'",
        (("The answer is B. Then again 3 + 4 = 7. Therefore, the answer is C.", "C"),)),
    Cue("two-letters", "settle", "reply", "none", "", "Two letters asserted alike name none: 'A is correct. B is correct.'",
        (("A is correct. B is correct.", None),)),
    # -- 6. refusal ----------------------------------------------------------------------------------------
    Cue("refusal", "refusal", "reply", "none", "",
        "A reply that refuses names no option (evaluator.scoring.refusal.is_refusal).", (("I don't know.", None),)),
    # -- 7. option text -----------------------------------------------------------------------------------
    Cue("no-determiner", "option text", "reply", "rewrite", r"(?i)\bno\s+(?=" + alt(NO_DETERMINER_NOUNS) + r"\b)",
        "'no' that opens a noun phrase ('no idea', 'no record') is not the option 'No'.",
        (("No doubt: yes.", "A", YES_NO),)),
    Cue("option-in-question", "option text", "sentence", "question", "",
        "An option named only in a question is not stated ('Was it blue?', 'blue, I guess?').",
        (("Was it blue? It was green.", "D"),), uses=("asking",)),
    Cue("option-text", "option text", "option text", "choose", "",
        "The text of exactly one option, as a whole phrase, the longest winning where one contains "
        "another ('dark red' is not 'red'); several are settled as letters are.",
        (("It was blue.", "B"), ("Dark red, I'm sure.", "C"))),
    Cue("inside-longer-option", "option text", "option text", "not a letter", "",
        "An option's text inside a longer option's text does not count ('red' in 'dark red').",
        (("It was dark red.", "C"),)),
    Cue("option-text-negated", "option text", "before", "reject",
        r"\b(?:not|nor|than|instead of|over|neither|used to be|(?:changed|switched|went|moved|updated|corrected)(?: it)? from"
        r"|(?:first|originally|initially) (?:said|mentioned|told me|picked|chose|wanted))\s*$",
        "An option named after 'not' or as the former value: 'not red', 'changed it from red'.",
        (("Blue, not red.", "B"),)),
    Cue("option-text-former", "option text", "after", "reject",
        r"^\s*(?:at first|originally|initially|previously|before|earlier|early on|in beginning|to begin with)\b",
        "An option named as the former value: 'It was red at first'.", (("It was red at first, then blue.", "B"),)),
    Cue("option-text-alternative", "option text", "before", "none", "",
        "An option offered as an alternative makes the reply name none: 'blue, or maybe red'.",
        (("Blue, or maybe red.", None),), uses=("alternative-before",)),
    Cue("option-text-current", "option text", "between", "current", "",
        "'You said red, but later blue': the latest.", (("You said red, but later blue.", "B"),), uses=("current-before",)),
    Cue("option-text-conclusion", "option text", "before", "decide", "",
        "Among option texts a conclusion decides: '..., so the answer is dark red'.",
        (("Red or green came up, so the answer is green.", "D"),), uses=("conclusion", "answer-label")),
)

CUE: dict[str, Cue] = {c.name: c for c in CUES}
