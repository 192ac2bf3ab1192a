"""The letter reader's rules as data: word lists, named cues and the parts they are built from.

`evaluator.scoring.choice` reads a reply to a multiple-choice question with these rules and
nothing else; this module holds no logic beyond joining word lists into patterns. A cue is one
named rule (`Cue`): the stage of the reading it belongs to, the text it looks at, its pattern
(PATTERNS below, built from the word lists), what it does when it fires, and examples (each a
reply and the letter it reads as; `tests/test_choice_cues.py` checks every example and that the
cue fired on it). The table (each cue's stage, position, effect, group, doc and examples, in
reading order) is `choice_cues.json`, shipped beside this module; `extract_choice(...,
trace=True)` names the cues that fired.

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

from dataclasses import dataclass, field
from pathlib import Path

from evaluator.scoring.cue_engine import alt, bounded, load_table

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
    "explained-by": r"(?i),?\s*\b(?:because|since)\b",
    "alternative-list": r"(?i)\b(?:or|either|nor)\b|/",
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

# Each cue's pattern, by name (a cue without one is decided by the engine from the parts
# and groups it `uses`). The table itself (stage, position, effect, group, doc, examples, and the
# order) is choice_cues.json.
PATTERNS: dict[str, str] = {
    # -- 1. reply ---------------------------------------------------------------------------------
    "json-answer-text": r"""(?i)["']""" + alt(k.replace("_", "[_ ]?") for k in ANSWER_KEYS)
        + r"""["']\s*:\s*(null|none|"(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\])""",
    "reasoning-block": r"(?i)</" + alt(REASONING_TAGS) + ">",
    "reasoning-open-tag": r"(?i)<" + alt(REASONING_TAGS) + ">",
    "boxed": r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}",
    "checked-box": r"(?m)^([ \t>*+-]*)\[[xX✓✔]\]",
    "empty-box": r"(?m)^([ \t>*+-]*)\[ \]",
    "markup": r"[*_`#\\{}\"$]+|</?(?:[a-z]|\w\w+)>|<\|[\w-]*\|>",
    # -- 2. answer line ------------------------------------------------------------------------------
    "final-answer-line": r"(?i)^[^\w]*(?:final\s+|correct\s+)?answer\s*[:：]\s*(.+?)\s*$",
    "answer-line-letter": r"[\s(\[]*([A-Za-z])[\s)\]]*[.:!]*",
    "answer-line-labelled": r"[(\[]?([A-Z])(?:[)\]][.:]?|[.:])\s+(.+)",
    "answer-line-none": r"(?i)" + alt(NONE_SAID) + r"[.!]?",
    # -- 3. rewrite --------------------------------------------------------------------------------
    "maths": r"(?s)\$\$(.+?)(?:\$\$|\Z)|\\\[(.+?)(?:\\\]|\Z)|\\\((.+?)(?:\\\)|\Z)"
        r"|(?<![\\$\w])\$(?![\s\d])([^$\n]+?)(?<!\s)\$(?!\w)",
    "foreign-correct-answer": "(?i)" + alt(FOREIGN_CORRECT_ANSWER),
    "foreign-final-answer": "(?i)" + alt(FOREIGN_FINAL_ANSWER),
    "foreign-answer": "(?i)" + "|".join(FOREIGN_ANSWER) + "|" + bounded(FOREIGN_ANSWER_WORDS),
    "foreign-is-after-answer": r"(?i)(?<= answer )\s*(?:" + "|".join(FOREIGN_IS_AFTER_ANSWER) + "|" + bounded(FOREIGN_IS_AFTER_ANSWER_WORDS) + ")",
    "foreign-option": "(?i)" + "|".join(FOREIGN_OPTION) + "|" + bounded(FOREIGN_OPTION_WORDS),
    "foreign-not-after": r"(?i)\s*" + alt(FOREIGN_NOT_AFTER),
    "foreign-not": "(?i)" + "|".join(FOREIGN_NOT) + "|" + bounded(FOREIGN_NOT_WORDS) + "|" + "|".join(FOREIGN_NOT_LAST),
    "foreign-rule-out": "(?i)排除",
    "foreign-not-sure": "(?i)不[确確]定|不知道",
    "foreign-or": "(?i)" + "|".join(FOREIGN_OR) + "|" + bounded(FOREIGN_OR_WORDS) + "|" + "|".join(FOREIGN_OR_LAST),
    "foreign-choose": "(?i)" + "|".join(w.replace(" ", r"\s+") for w in FOREIGN_CHOOSE) + "|" + bounded(FOREIGN_CHOOSE_WORDS),
    "foreign-rather": r"(?i)而是|\bsondern\b",
    "foreign-polite-end": "(?i)です|입니다",
    "foreign-is": "(?i)是",
    "ordinal": r"(?i)\bthe\s+(" + "|".join(ORDINALS + ("last",)) + r")\s+("
        + "|".join(w.replace(" ", r"\s+") for w in ORDINAL_NOUNS) + r")\b",
    "compound-pair": r"(?<![\w/])[A-Z]/[A-Z](?=[ \t]+(?!" + alt(PAIR_STAYS_LIST) + r"\b)[a-z])",
    "glued-letter": r"(?<![\w'’.&/-])([\(\[]?([A-Z])(?:[\)\]][.:|\-–—]*|[.:|\-–—)]+))(?=[^\W_])",
    "whole-reply-letter": r"[\(\[]?\s*([A-Za-z])\s*[\)\]]?\s*[.:!]*",
    # -- 4. letter: what counts as a letter -------------------------------------------------------------
    "letter-token": r"(?<!\w)(?<!\w['’])(?:\(\s*([A-Za-z])\s*\)|\[\s*([A-Za-z])\s*\]|([A-Za-z]))"
        r"(?:(?![\w'’])|(?=['’](?!\w))|(?=['’]s\s+" + alt(IS_SHORT_NEXT) + r"\b))",
    "word-part-after": r"^(?:[-.&][A-Za-z0-9]|\+(?![ \t]*[A-Za-z](?!\w))|#|[ \t]+(?i:" + "|".join(MUSIC_WORDS) + r")\b)",
    "glued-before": r"(?<![\w'’])[A-Za-z]-|[A-Za-z][.&]|(?<![\w'’])[Nn]/",
    "title-before": r"\b" + alt(TITLES) + r"\.?\s+",
    "thing-before": r"\b(?i:" + "|".join(w.replace(" ", r"\s+") for w in THING_NOUNS) + r")\s+",
    "person-before": r"\b(?i:" + "|".join(PERSON_WORDS) + r")\s+",
    "grade-before": r"\b(?i:" + alt(GRADE_VERBS) + r"\s+(?:an?|the)?)\s+",
    "unit-before": r"[°º˚][ \t]?",
    "symbol-before": r"(?<![\u0370-\u03ff])[\u0370-\u03ff][ \t]?",
    # -- 4. letter: statements that state nothing ------------------------------------------------------
    "hypothetical-before": r"(?i)(?:\b" + alt(CONDITION_WORDS) + r"\s+(?:(?:it|that|this|we|I|you|the\s+(?:correct\s+|right\s+)?answer)"
        r"\s*(?:['’]s|\s+is|\s+are|\s+were|\s+was|\s+had\s+been|\s+would\s+be"
        r"|\s+(?:pick|picked|choose|chose|go\s+with|went\s+with|take|took|said))?\s+)?"
        r"|\b(?:were|had)\s+it\s+(?:been\s+)?)" + _TO_LETTER,
    "condition-after": alt(("if", "unless", "assuming", "provided that", "in case")) + r"\b(?!\s+" + alt(NOT_CONDITIONS) + ")",
    "guess-taken-back": r"but\s+(?:(?:honestly|really|truly|tbh)\s*,?\s+)?(?:I\s+)?(?:honestly\s+|really\s+|truly\s+|just\s+)?"
        r"(?:(?:don['’]t|do\s+not)\s+(?:really\s+)?know|have\s+no\s+(?:idea|clue)|no\s+(?:idea|clue)"
        r"|can['’]t\s+(?:really\s+)?(?:say|tell|be\s+sure))(?=\s*(?:[.!,;…]|$))",
    # -- 4. letter: rejections ------------------------------------------------------------------------------
    "negation-before": "|".join(w.replace(" ", r"\s+") for w in NEGATION_BEFORE),
    "elimination-before": r"\b" + alt(ELIMINATION_VERBS),
    "not-enough-to-pick": r"(?:n't|\bnot|\bno)\s+(?:\w+\s+)?(?:enough|sufficient)\s+\w+\s+to\s+(?:pick|choose|select|say|decide\s+on|go\s+with)",
    "rejecting-label": r"(?:^|[\n.!?;|])[^\S\n]*(?:[-*•>]\s*)?" + alt(REJECTING_LABELS)
        + r"(?:\s+(?:answers?|options?|choices?|ones?))?\s*[:=\-–—]",
    "set-aside": r"\b(?:was|were)\s+(?:about|going|tempted)\s+to\s+(?:say|pick|choose|go\s+with|answer)|\bthought\s+(?:about|of)"
        r"|\b(?:nearly|almost)\s+(?:said|picked|chose|went\s+with|answered)"
        r"|\b(?:initially|originally|first|at\s+first)\s*,?\s+(?:I\s+|we\s+)?(?:considered|thought(?:\s+of)?|guessed"
        r"|suspected|picked|chose|said|leaned\s+(?:toward|towards))|\bat\s+first\s+(?:glance|sight)"
        r"|\b" + alt(OTHERS_WHO_MIGHT) + r"\s+(?:might|may|could|would)\s+(?:\w+\s+)?" + alt(THINK_VERBS),
    "superseded": r"\b" + alt(FIRST_WORDS) + r"\s+" + alt(GUESS_NOUNS) + r"\s+(?:was|had\s+been)"
        r"|(?:^|[^\w\s]\s*|\b(?:it|that|which|this)\s+(?:was\s+)?)" + alt(FORMERLY)
        + r"|\bbefore\s+(?:that|then)\s*,?\s*(?:it|that)\s+(?:was|were)|\bused\s+to\s+be"
        r"|\b(?:chang|switch|mov|went|go|updat|revis)\w*\s+(?:\w+\s+)?from",
    "negated-choosing": r"(?:n't|\bnot|\bnever)\s+(?:\w+\s+)?" + alt(CHOOSING_VERBS),
    "negated-evidence": r"(?:n't|\bnot|\bnever|\bnothing|\bnone\s+of\s+\w+|\bno\s+(?:evidence|message|mention))\b[^.;!?\n]{0,40}?\b"
        + alt(EVIDENCE_STEMS) + r"\w*",
    "no-sign-of": r"\bno\s+" + alt(NO_SIGN_NOUNS) + r"\s+(?:at\s+all\s+)?(?:of|for)",
    "called-wrong": r"(?:is|was|are|were|seems|looks|would\s+be)\s+(?:both\s+|all\s+|also\s+|too\s+)?" + alt(WRONG_WORDS),
    "former-value": r"(?:was|used\s+to\s+be)\s+(?:correct|right|true|the\s+answer)\s+(?:before|earlier|previously|originally"
        r"|at\s+first|until|last)\b"
        r"|(?:is|was|are|were)\s+(?:the|your|my)\s+(?:old|previous|earlier|original|former|first|initial)\b"
        r"|(?:was|were)\s+(?:before|earlier|previously|originally|at\s+first"
        r"|(?:the|your)\s+(?:old|previous|earlier|original|former)|what\s+you\s+(?:had|said)\s+(?:before|earlier|first))"
        r"|used\s+to\s+be\b"
        r"|(?:is|was)\s+what\s+(?:you|it)\s+(?:used\s+to|had\s+(?:before|earlier|at\s+first))",
    "would-have-been": r"would\s+have\s+been\b|would\s+be\s+(?:correct|right|true)\s+if\b",
    "no-longer": r"(?:was|were|had\s+been)\s+(?:correct|right|true|accurate|valid|the\s+answer|the\s+case)\s*,?\s*(?:\w+\s+){0,2}?"
        r"(?:not\s+any\s*more|no\s+longer|last\b|ago\b|back\s+then|once\b|in\s+the\s+past|a\s+while\s+ago)"
        r"|(?:(?:was|were|is|are)\s+(?:\w+\s+){0,3}?)?(?:no\s+longer|not\s+any\s*more)\b",
    "at-first": r",?\s*(?:at\s+first|originally|initially|earlier|previously|formerly)\b|\s*before\s*(?:[.,;!?\n]|$)",
    "contradicts": r"(?:contradicts?|conflicts?)\b",
    "never-came-up": r"(?:also\s+)?never\b|" + alt(CAME_TO_MIND) + r"\s+to\s+mind",
    "close-but-no": r"(?:is|was|seems|looks)\s+(?:close|plausible|tempting|possible|reasonable)\s*,?\s*but\s+(?:no|not|nope|wrong)\b",
    "would-need": r"would\s+(?:need|require|only\s+(?:fit|work|apply|hold))\b",
    "about-something-else": r"(?:is|was|are|were|refers?\s+to|applies\s+to)\s+(?:(?:about|from|for)\s+(?:an?\s+|the\s+)?(?:different|other|another)"
        r"|(?:an?\s+)?different\b|something\s+else|someone\s+else)",
    "close-second": r"(?:as\s+)?an?\s+(?:close|distant|near)\s+(?:second|runner[-\s]up)\b",
    "can-be-ruled-out": r"can\s+be\s+(?:ruled\s+out|eliminated|excluded|dismissed|discarded)",
    "negated-verb": alt(NEGATED_VERBS) + r"\b",
    "answered-no": r"(?i)^\s*[\)\]]?\s*(?:\?+|\.{2,}|…)\s*(?:(?:definitely|certainly|probably|surely)\s+)?"
        r"(?:no|nope|nah|wrong|not|unlikely|doubtful|hardly)\b"
        r"|^\s*[\)\]]?\s*\?+\s*I\s+(?:(?:don['’]t|do\s+not)\s+(?:think|believe)\s+so|doubt\s+(?:it|that))\b",
    "retracted": r"(?i)^\s*[\)\]]?\s*[.…,;:!?—–-]*\s*(?:no[,.!]?\s+)?(?:wait|hold\s+on|scratch\s+that|on\s+second\s+thought)\b",
    "rejecting-verdict": r"(?i)^\s*[-–—:]\s*(?:not|never|nope|unlikely|ruled\s+out|eliminated|doesn['’]t"
        r"|does\s+not|isn['’]t|wasn['’]t|no\s+(?:match|mention|evidence))\b",
    # -- 4. letter: questions -------------------------------------------------------------------------
    "answered-yes": r"(?i)^\s*[\)\]]?\s*\?+\s*(?:yes|yep|yeah|yup|correct|right|exactly)\b",
    "asked-question": r"(?:^|(?<=[.!?\n—–]))[^\S\n]*(?:(?:so|and|but|or|hmm|well|then|now|sorry)\W+)*"
        + alt(INTERROGATIVES) + r"\b[^.!?\n]*\?+",
    "guess-as-question": r"(?:^|(?<=[.!?\n]))[^.!?\n]*\b" + alt(GUESS_WORDS) + r"\b[^.!?\n]*\?+",
    "questioned": r"^\s*[\)\]]?\s*\?",
    # -- 4. letter: standing ----------------------------------------------------------------------------
    "is-correct": r"(?:is|would\s+be|seems|should\s+be)\s+(?:(?:the\s+|my\s+)?(?:(?:final|current|latest|most\s+recent)\s+)?"
        + alt(RIGHT_WORDS) + r"|the\s+(?:right\s+|correct\s+)?one\b)",
    "it-is": r"it\s+is\s*(?:[.!;,\n]|$)",
    "wins": r"gets\s+my\s+vote|wins\b|takes\s+it\b|(?:fits|matches|works)\s+(?:better|best)",
    "is-closest": r"(?:is|seems)\s+(?:the\s+)?(?:closest|nearest)\b",
    "more-likely": r"(?:is|seems)\s+(?:more|most|far\s+more)\s+likely",
    "answer-word": r"\b(?:final\s+)?" + alt(ANSWER_WORDS) + r"(?:\s+" + alt(ANSWER_COPULAS) + ")?",
    "option-word": r"\boption|\bchoice",
    "correct-label": r"\bcorrect(?:\s+" + alt(CORRECT_NOUNS) + r")?(?:\s+(?:is|would\s+be))?",
    "response-label": r"\bresponse(?:\s+is)?",
    "final-label": r"\bselected|\bfinal|\bconclusion",
    "my-answer": r"\bmy\s+(?:answer|choice|pick)(?:\s+is)?",
    "the-one-that-fits": r"\b(?:one|fit|match)\s+(?:here\s+)?(?:is|would\s+be)",
    "best-answer": r"\bbest\s+answer\s+is",
    "closest": r"\b(?:closest|nearest)(?:\s+" + alt(CLOSEST_NOUNS) + r")?(?:\s+is)?",
    "choose-verb": r"\b" + alt(CHOOSE_VERBS),
    "lean-toward": r"\blean(?:s|ing)?\s+(?:toward|towards|to)",
    "what-remains": r"\bleaves|\bleaving|\bremains(?:\s+is)?|\bleft\s+(?:with|is)",
    "say": r"\b" + alt(SAY_LEADS) + r"\s+say",
    "only": r"(?<!\bnot\s)\bonly",
    "change-to": r"\b" + alt(CHANGE_STEMS) + r"(?:e|es|ed|ing)?\s+(?:(?:my|the)\s+(?:answer|choice|pick)\s+|that\s+|it\s+|this\s+)?to",
    "make-that": r"\bmake\s+(?:that|it)",
    "conclusion-word": r"\b(?:" + "".join(rf"(?<!\b{w}\s)" for w in NOT_BEFORE_SO) + "so|" + "|".join(
        w.replace(" ", r"\s+") for w in CONCLUSION_WORDS) + r")\b[\s,:\-–—]*(?:[\w'’]+\s+){0,4}" + _TO_LETTER,
    "evidence-verb": r"\b" + alt(EVIDENCE_VERBS) + r"\s+(?:" + alt(EVIDENCE_FILLERS) + r"\s+)*[\(\[]?\s*$",
    "arrow-at-end": r"(?:[:→⇒]|=>|->)\s*[\(\[]?\s*$",
    # -- 4. letter: words, not letters --------------------------------------------------------------
    "pronoun-i-before-verb": r"[ \t]+(?!(?:is|was|fits|matches|seems|would\s+be|works|applies)\b)[a-z]",
    # -- 4. letter: the opening letter, earlier rejections, descriptions -------------------------------
    "describes-own-text": r"(?i)" + _LEAD + r"(?:is|was|=|means|would\s+mean|refers\s+to|says|stands\s+for|represents|is\s+about"
        r"|corresponds\s+to|would\s+be)\s+[\"“'‘(]?\s*",
    # -- 4. letter: lists and alternatives ------------------------------------------------------------
    "listed-with-next": r"(?i)" + _LEAD + r"(?:\([^()\n]*\)\s*)?(?:(?:[,;]|\.{2,}|…|\s[-–—])?\s*" + alt(LIST_WORDS) + r"\b|[,;/&+])\s*(?:"
        + alt(LIST_HEDGES) + r"\s+)?(?:option\s*)?[\(\[]?\s*([A-Za-z])\s*[\)\]]?(?![\w'’])",
    "pair-word-before": r"(?i)\b(?:either|both|between)\s*[\(\[]?\s*$",
    "could-also-be": r"\b(?:could|might|may|can)\s+(?:also|equally)\s+(?:be\s+)?",
    "or-maybe": r"\bor\s+(?:maybe|perhaps|possibly)\s+|(?:^|[.!?…]\s*)or\s+",
    "so-does": r"\b(?:so|as)\s+(?:does|do|did|is|are|was|could|would|might|can|may)\s+",
    "same-for": r"\bsame\s+(?:goes\s+)?for\s+|\blikewise\s*,?\s+|\bequally\s+",
    "also-before": r"(?:^|[.!?;,…—–(]\s*|\s-\s+|\b(?:and|but)\s+)also\s+",
    "or-something-else": r"or\s+(?:even\s+|maybe\s+|perhaps\s+|possibly\s+)?(?:something|someone|anything|another|other|none|any|some)\b",
    "also-possible": r"(?:(?:is|are|was|seems?|looks?|would\s+be|could\s+be|might\s+be|may\s+be|does|do|fits|works|matches|applies"
        r"|holds|might|could|may)\s+)?(?:also|equally)\s+(?:possible|plausible|likely|right|correct|true|valid|an\s+option"
        r"|a\s+possibility|fits?|works?|match(?:es)?|appl(?:y|ies)|holds?|counts?|makes\s+sense|supported)\b",
    "too-as-well": r"(?:is|are|seems?|would\s+be|might|could|may|does|do|fits|works|matches|applies|holds)\s+(?:also\s+)?"
        r"(?:be\s+)?(?:(?:correct|right|true|possible|plausible|fine|it|fit|work)\s+)?(?:too|as\s+well)\b",
    "is-another": r"(?:is|would\s+be|seems?)\s+another\b",
    "just-as-likely": r"(?:is|seems?|looks?|sounds?)\s+(?:just\s+|about\s+|equally\s+)?as\s+(?:likely|plausible|possible|good|valid)",
    "peer-too": r"(?i)" + _LEAD + r",?\s*(?:too|as\s+well)\b",
    "current-before": r"(?i)\b" + alt(CURRENT_WORDS) + r"\b",
    "current-after": r"(?i)" + _LEAD + r"(?:(?:now|nowadays|these\s+days|currently|today|instead)\s*(?:[.,;:!?)\n—–-]|$)"
        r"|(?:is|['’]s)\s+(?:the\s+)?(?:current|latest|newest|most\s+recent)\b)",
    # -- 5. settle --------------------------------------------------------------------------------------
    "cannot-tell-which": r"(?i)\b(?:can['’]?t|cannot|couldn['’]t|not\s+sure|(?:don['’]t|do\s+not)\s+know|no\s+idea"
        r"|hard\s+to\s+(?:tell|say)|impossible\s+to\s+(?:tell|say))\s+(?:\w+\s+){0,2}?which\b"
        r"|\bcan['’]?t\s+(?:decide|choose|pick)\b"
        r"|\b(?:impossible|not\s+possible)\s+to\s+(?:choose|determine|select|pick|decide)\b"
        r"|\b(?:can['’]?t|cannot|unable\s+to)\s+(?:choose|determine|select|pick)\s+(?:the|an?|which|between)\b",
    "revision": r"(?i)\b" + alt(REVISION_WORDS) + r"\b",
    "contrast": r"(?i)\b" + alt(CONTRAST_WORDS) + r"\b",
    "concluding": r"(?i)\b" + alt(CONCLUDING_WORDS) + r"\b",
    # -- 6. refusal ----------------------------------------------------------------------------------------
    # -- 7. option text -----------------------------------------------------------------------------------
    "no-determiner": r"(?i)\bno\s+(?=" + alt(NO_DETERMINER_NOUNS) + r"\b)",
    "option-text-negated": r"\b(?:not|nor|than|instead of|over|neither|used to be|(?:changed|switched|went|moved|updated|corrected)(?: it)? from"
        r"|(?:first|originally|initially) (?:said|mentioned|told me|picked|chose|wanted))\s*$",
    "option-text-former": r"^\s*(?:at first|originally|initially|previously|before|earlier|early on|in beginning|to begin with)\b",
}


@dataclass(frozen=True)
class Cue:
    """One named rule of the letter reader (see the module docstring for stages, positions and
    effects): a row of choice_cues.json with its pattern from PATTERNS. `pattern` is a regular
    expression built from the word lists, or "" where the engine decides in code from the parts
    and groups named in `uses`. `group`: the cue is one alternative of that group's pattern.
    `examples`: (reply, letter the reply reads as[, options]); without options they are read with
    EXAMPLE_OPTIONS."""

    name: str
    stage: str
    looks_at: str
    effect: str
    pattern: str
    doc: str
    examples: tuple = ()
    group: str = ""
    uses: tuple[str, ...] = field(default=())




def _load() -> tuple[Cue, ...]:
    rows = load_table(Path(__file__).with_name("choice_cues.json"))
    return tuple(Cue(row["name"], row["stage"], row["looks_at"], row["effect"], PATTERNS.get(row["name"], ""),
                     row["doc"], tuple(tuple(e) for e in row["examples"]), row.get("group", ""),
                     tuple(row.get("uses", ()))) for row in rows)


CUES: tuple[Cue, ...] = _load()
CUE: dict[str, Cue] = {c.name: c for c in CUES}
