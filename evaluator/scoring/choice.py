"""Multiple choice: find the options a question lists and the option a reply chose.

Options are recognised when a question lists at least two consecutive letters starting at A,
either one per line ("(A) red", "A. red", "A) red", "A: red", "[A] red") or inline with
parenthesised or right-bracketed letters ("... (A) red (B) blue", "... A) red B) blue"), and as a last resort
inline "A. red B. blue".
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata

from evaluator.scoring.metrics import normalize_answer

_LINE_OPTION = re.compile(r"^[ \t>*-]*(?:\(([A-Z])\)|\[([A-Z])\]|([A-Z])[.):])[ \t]+(\S.*?)[ \t]*$",
                          re.MULTILINE)
_INLINE_PAREN = re.compile(r"(?:(?<=\s)|^|(?<=[:?]))\(([A-Z])\)\s*")
_INLINE_BRACKET = re.compile(r"(?:(?<=\s)|^)([A-Z])\)\s+")
_INLINE_DOT = re.compile(r"(?:(?<=\s)|^)([A-Z])[.:]\s+")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
_TRAILING_JOINER = re.compile(r"(?:[\s,;]+(?:or|and))?[\s,;]*$", re.IGNORECASE)


def _consecutive_from_a(letters: list[str]) -> int:
    """How many of `letters` (in order) run A, B, C, ... without a gap."""
    n = 0
    for letter in letters:
        if letter != chr(ord("A") + n):
            break
        n += 1
    return n


def _inline_options(question: str, pattern: re.Pattern) -> dict[str, str]:
    marks = list(pattern.finditer(question))
    # Start at the first "A" so a stray capital before the list is ignored. "A." only opens a
    # list after a question mark, a colon or a line break ("He met A. Smith" lists nothing).
    starts = [i for i, m in enumerate(marks) if m.group(1) == "A" and (
        pattern is not _INLINE_DOT or not question[:m.start()].strip()
        or question[:m.start()].rstrip()[-1] in "?:" or question[:m.start()].endswith("\n"))]
    if not starts:
        return {}
    marks = marks[starts[0]:]
    n = _consecutive_from_a([m.group(1) for m in marks])
    if n < 2:
        return {}
    options: dict[str, str] = {}
    for i in range(n):
        end = marks[i + 1].start() if i + 1 < n else len(question)
        text = question[marks[i].end():end]
        if i + 1 == n:
            # The last option runs to the end of its line or sentence, not over any instructions.
            text = text.split("\n", 1)[0]
            text = _SENTENCE_END.split(text, 1)[0]
        text = _TRAILING_JOINER.sub("", text.strip())
        text = text.rstrip(" .")
        if not text:
            return {}
        options[marks[i].group(1)] = text
    return options


def extract_options(question: str) -> dict[str, str]:
    """{letter: option text} for the options the question lists, or {} when it lists none."""
    if not question:
        return {}
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for m in _LINE_OPTION.finditer(question):
        letter = m.group(1) or m.group(2) or m.group(3)
        if letter in seen:
            continue
        seen.add(letter)
        found.append((letter, m.group(4).strip()))
    starts = [i for i, (letter, _) in enumerate(found) if letter == "A"]
    if starts:
        found = found[starts[0]:]
        n = _consecutive_from_a([letter for letter, _ in found])
        if n >= 2:
            return dict(found[:n])
    for pattern in (_INLINE_PAREN, _INLINE_BRACKET, _INLINE_DOT):
        options = _inline_options(question, pattern)
        if options:
            return options
    return {}


# -- reading the choice out of a reply ------------------------------------------------------------
_MARKUP = re.compile(r"[*_`#\\{}\"$]+|</?(?:[a-z]|\w\w+)>|<\|[\w-]*\|>")   # (and chat-template tokens: "<|eot_id|>";
# "<A>" is a letter in angle brackets, not a tag)
# a reasoning block (<think>...</think>): the reply is what follows it; the block is read only when
# nothing follows (some chat templates drop the opening tag, so a lone closing tag ends one too)
_REASONING_OPEN = re.compile(r"(?i)<(?:think|thinking|reasoning|reflection)>")
_REASONING_CLOSE = re.compile(r"(?i)</(?:think|thinking|reasoning|reflection)>")
# \boxed{B}, $\boxed{\text{(B)}}$: an explicit answer statement
_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_LATEX_WRAP = re.compile(r"\\[A-Za-z]+\s*\{([^{}]*)\}")
# markdown checkboxes at the start of a line: "[x] B" asserts B, "[ ] C" does not
_CHECKED_BOX = re.compile(r"(?m)^([ \t>*+-]*)\[[xX✓✔]\]")
_EMPTY_BOX = re.compile(r"(?m)^([ \t>*+-]*)\[ \]")
# a JSON (or Python dict) answer field: {"answer": "B"}, {'final_answer': '(B) blue'}, {"choice": null}
_JSON_ANSWER = re.compile(
    r"""(?i)["'](?:final[_ ]?answer|answer|choice|option|selected[_ ]?option|selection|letter|prediction)"""
    r"""["']\s*:\s*(null|none|"(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\])""")


_ANSWER_KEY = re.compile(r"(?i)^(?:final[_ ]?answer|answer|choice|option|selected[_ ]?option|selection|letter"
                         r"|prediction)$")
_NO_FIELD = object()


def _json_answer(prediction: str):
    """The value of a JSON (or Python dict) reply's answer field: the shallowest one, the last of
    those ({"answer": "B", "considered": [{"option": "A"}]} answers B; {"result": {"answer": "B"}}
    too); a field whose value is an object is read through that object's own answer field or its
    text ({"answer": {"letter": "B"}}, {"answer": {"text": "blue"}}). _NO_FIELD when the reply is
    not such an object or has no answer field; the regex reading below covers malformed ones."""
    start, end = prediction.find("{"), prediction.rfind("}")
    if start < 0 or end < start:
        return _NO_FIELD
    chunk = prediction[start:end + 1]
    try:
        data = json.loads(chunk)
    except ValueError:
        try:
            data = ast.literal_eval(chunk)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return _NO_FIELD
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

    walk(data, 0)
    if not found:
        return _NO_FIELD
    value = min(found, key=lambda f: (f[0], -f[1]))[2]
    if isinstance(value, dict):
        inner = _json_answer(json.dumps(value))
        if inner is not _NO_FIELD:
            return inner
        value = [v for v in value.values() if isinstance(v, str)]
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value if v is not None) or None
    return None if value is None else str(value)


# TeX maths: $$...$$, \[...\], \(...\) (unclosed: to the end of a cut-off reply), $...$ (not a
# price: "$5 and $6")
_MATH = re.compile(r"\$\$(.+?)(?:\$\$|\Z)|\\\[(.+?)(?:\\\]|\Z)|\\\((.+?)(?:\\\)|\Z)|(?<![\\$\w])\$(?![\s\d])([^$\n]+?)(?<!\s)\$(?!\w)",
                   re.DOTALL)
_LONE_LETTER = re.compile(r"\s*[\(\[]?\s*[A-Za-z]\s*[\)\]]?\.?\s*")


def _unwrapped(tex: str) -> str:
    """TeX without its one-argument commands, three deep ("\\boxed{\\text{(B)}}" is "(B)")."""
    for _ in range(3):
        tex = _LATEX_WRAP.sub(r"\1", tex)
    return tex


def _letters_in_math(text: str) -> str:
    """TeX maths with the letters of its formulas taken out: "\\(A\\) is the area" and "$h_{AB}$" name
    variables and points, not options. A letter alone in maths counts where it is stated as the
    answer ("Answer: \\( \\text{(H)} \\)", "Answer: $C$", "$B$ is correct")."""
    def read(m):
        body = _unwrapped(next(g for g in m.groups() if g is not None))
        if " answer: " in body:               # \boxed{} inside maths, already read as an answer label
            return " " + body + " "
        if _LONE_LETTER.fullmatch(body):
            before = _MARKUP.sub(" ", text[max(0, m.start() - 120):m.start()])
            if (_STRONG_BEFORE.search(before) or _CONCLUSION_BEFORE.search(before)
                    or _STRONG_AFTER.match(_MARKUP.sub(" ", text[m.end():m.end() + 80]))):
                return " " + body.strip() + " "
        return " ⋯ "

    return _MATH.sub(read, text)


def _final_answer_line(answered: str, options: dict[str, str]):
    """What the reply's last line says after "Answer:" (the format reasoning prompts ask for):
    the letter it names alone or with its option's text ("Answer: C", "Answer: \\( \\text{(H)} \\)",
    "Answer: (F) C, A, B, D"), the option whose whole text it gives ("Answer: $EDBCFGKH_A$"), None
    when it names none ("Answer: None of the above"), or _NO_FIELD when the last line is no such
    answer or names something else (read with the rest of the reply)."""
    lines = [line for line in answered.splitlines() if re.search(r"\w", line)]
    m = _ANSWER_LINE.match(lines[-1]) if lines else None
    if not m or any((e := _ANSWER_LINE.match(line)) and e.group(1) != m.group(1) for line in lines[:-1]):
        return _NO_FIELD                  # ("Answer: B\nAnswer: A" states two answers)
    plain = _MARKUP.sub(" ", _unwrapped(m.group(1))).strip()
    said = normalize_answer(plain)
    texts = {k: normalize_answer(_MARKUP.sub(" ", v)) for k, v in options.items()}
    by_text = [k for k, t in texts.items() if said and t == said]
    if len(by_text) == 1 and not _LONE_LETTER.fullmatch(plain):
        return by_text[0]
    lone = re.fullmatch(r"[\s(\[]*([A-Za-z])[\s)\]]*[.:!]*", plain)
    if lone and lone.group(1).upper() in options:
        return lone.group(1).upper()
    labelled = re.fullmatch(r"[(\[]?([A-Z])(?:[)\]][.:]?|[.:])\s+(.+)", plain)
    if labelled and labelled.group(1) in options and normalize_answer(labelled.group(2)) in texts.values():
        return labelled.group(1)          # its own text, or (a slip) another option's: the letter stands
    if _NONE_SAID.fullmatch(plain):
        return None
    return _NO_FIELD


_NONE_SAID = re.compile(r"(?i)(?:none(?:\s+of\s+(?:the\s+)?(?:above|these|them|(?:given|provided|listed)\s+"
                        r"(?:options|choices|answers)))?|n/?a|not\s+(?:listed|given|determinable)"
                        r"|cannot\s+be\s+determined|undetermined|unknown)[.!]?")
_ANSWER_LINE = re.compile(r"(?i)^[^\w]*(?:final\s+|correct\s+)?answer\s*[:：]\s*(.+?)\s*$")


def _reply_text(prediction: str) -> str:
    """The part of a reply that answers: without a reasoning block that an answer follows, with
    \\boxed{} read as an answer label and markdown checkboxes as check marks."""
    closes = list(_REASONING_CLOSE.finditer(prediction))
    if closes:
        after = prediction[closes[-1].end():]
        prediction = after if re.search(r"\w", after) else prediction[:closes[-1].start()]
    prediction = _REASONING_OPEN.sub(" ", prediction)
    prediction = _BOXED.sub(lambda m: " answer: " + _LATEX_WRAP.sub(r"\1", m.group(1)) + " ", prediction)
    prediction = _EMPTY_BOX.sub(r"\1❌", _CHECKED_BOX.sub(r"\1✅", prediction))
    return prediction


# -- text in other scripts and languages ----------------------------------------------------------
# Full-width letters and punctuation ("Ｂ", "（B）", "答案：B") are read as their ASCII forms
# (NFKC), CJK sentence punctuation as its Latin counterpart, and a letter touching a character of a
# non-Latin script ("答案是B。", "B选项", "정답은 D입니다") stands apart from it.
_CJK_PUNCT = str.maketrans({"。": ". ", "、": ", ", "【": "[", "】": "]", "「": " ", "」": " ", "『": " ",
                            "』": " ", "《": " ", "》": " ", "〈": " ", "〉": " ", "・": " "})
_NON_LATIN = (r"\u0370-\u03ff\u0400-\u052f\u0590-\u06ff\u0750-\u077f\u0900-\u0dff\u0e00-\u0e7f"
              r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff")
_SCRIPT_EDGE = re.compile(rf"(?<=[{_NON_LATIN}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_NON_LATIN}])")


def _plain_script(text: str) -> str:
    """NFKC, CJK punctuation as Latin, a space wherever Latin letters or digits touch another script."""
    text = unicodedata.normalize("NFKC", text).translate(_CJK_PUNCT)
    return _SCRIPT_EDGE.sub(" ", text)


# The words of an answer statement in other languages, read as their English counterparts when
# letters are read (option texts are matched in the reply as written): answer labels ("答案",
# "回答", "Ответ", "Respuesta", "Réponse", "Antwort", "الإجابة", "정답"), "option", "choose",
# negations ("不是", "не", "no es", "n'est pas", "nicht", "ではなく": "is not" after its letter),
# "or" between letters. Longer phrases first.
_FOREIGN = [(re.compile(p, re.IGNORECASE), r) for p, r in (
    (r"正[确確]答案|正解|정답|правильный\s+ответ|respuesta\s+correcta|bonne\s+r[ée]ponse"
     r"|richtige\s+antwort|risposta\s+corretta|resposta\s+correta", " correct answer "),
    (r"最[终終]答案|最[终終]回答|最終的な答え", " final answer "),
    (r"答案|回答|答え|ответ|الإجابة|الاجابة|الجواب|\brespuesta\b|\br[ée]ponse\b|\bantwort\b|\brisposta\b"
     r"|\bresposta\b", " answer "),
    (r"(?<= answer )\s*(?:は|은|는|هو|\bes\b|\best\b|\bist\b|\bè\b|\bé\b)", " is "),
    (r"[选選]项|[选選]擇肢|選択肢|вариант|\bopci[óo]n\b|\bop[çc][ãa]o\b|\bopzione\b", " option "),
    # postpositional negations follow their letter ("BではなくA", "B가 아니라 A")
    (r"\s*(?:ではなく|じゃなく|(?:이|가)?\s*아니라|(?:이|가)?\s*아닙니다)", " is not, "),
    (r"不是|并非|並非|(?<!\w)не(?!\w)|\bno\s+es\b|\bno\s+era\b|\bn['’]est\s+pas\b|\bnicht\b|\bnon\s+è\b"
     r"|\bnão\s+é\b|ليس", " not "),
    (r"排除", " rule out "),
    (r"不[确確]定|不知道", " not sure "),
    (r"[还還]是|或者|或|(?<!\w)или(?!\w)|\boder\b|\bou\b|\boppure\b|أو", " or "),
    (r"我?[选選]择?|я\s+выбираю|выбираю|\belijo\b|\bje\s+choisis\b|\bich\s+w[äa]hle\b", " I choose "),
    (r"而是|\bsondern\b", ", "),
    (r"です|입니다", ". "),
    (r"是", " is "),
)]


# (an ASCII reply without one of these words has nothing to translate)
_LATIN_FOREIGN = re.compile(r"(?i)\b(?:respuesta|reponse|antwort|risposta|resposta|opcion|opcao|opzione|no\s+e[sr]"
                            r"|n['’]est|nicht|oder|ou|oppure|elijo|choisis|wahle|sondern)\b")


def _english_labels(text: str) -> str:
    if text.isascii() and not _LATIN_FOREIGN.search(text):
        return text
    for pattern, english in _FOREIGN:
        text = pattern.sub(english, text)
    return text


# "the second option", "the last choice": the option at that place in the list
_ORDINAL = re.compile(r"(?i)\bthe\s+(first|second|third|fourth|fifth|sixth|last)\s+(option|choice|answer|one(?:\s+listed)?)\b")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


# a letter glued to its own option's text ("A.Yes", "D:green", "B-blue", "(C)Oslo", "A|red"): the
# two are read apart; a capital glued to other text ("D.C.", "B-52s", "A-list") stays a word part
_GLUED = re.compile(r"(?<![\w'’.&/-])([\(\[]?([A-Z])(?:[\)\]][.:|\-–—]*|[.:|\-–—)]+))(?=[^\W_])")


def _unglued(text: str, options: dict[str, str]) -> str:
    def split(m):
        option = options.get(m.group(2))
        rest = text[m.end():]
        if option and rest[:len(option)].lower() == option.lower() and not rest[len(option):len(option) + 1].isalnum():
            return m.group(1) + " "
        return m.group(0)

    return _GLUED.sub(split, text)


def _ordinals_as_letters(text: str, options: dict[str, str]) -> str:
    letters = sorted(options)

    def letter(m):
        word = m.group(1).lower()
        i = len(letters) - 1 if word == "last" else _ORDINALS.index(word)
        return f"option {letters[i]}" if i < len(letters) else m.group(0)

    return _ORDINAL.sub(letter, text)


# "B's the answer", "B’s wrong": a contracted "is" after a letter (a possessive "B's note" is not one)
_IS_SHORT = (r"['’]s\s+(?:the|my|a|an|it|correct|right|wrong|incorrect|out|not|outdated|best|what|also|definitely"
             r"|clearly|probably|no|current|true|false|old|ruled)\b")
# (a letter may stand in quotes: "'B'", "‘B’")
_MENTION = re.compile(r"(?<!\w)(?<!\w['’])(?:\(\s*([A-Za-z])\s*\)|\[\s*([A-Za-z])\s*\]|([A-Za-z]))"
                      r"(?:(?![\w'’])|(?=['’](?!\w))|(?=" + _IS_SHORT + "))")
# what makes a letter an assertion: a label before it, or a predicate after it
_STRONG_BEFORE = re.compile(
    r"(?i)(?:\b(?:final\s+)?(?:answer|ans)(?:\s+(?:is|would\s+be|should\s+be|will\s+be|=))?|\boption|\bchoice"
    r"|\bcorrect(?:\s+(?:answer|option|choice|response|one))?(?:\s+(?:is|would\s+be))?|\bresponse(?:\s+is)?"
    r"|\bselected|\bfinal|\bconclusion|\bmy\s+(?:answer|choice|pick)(?:\s+is)?|\b(?:one|fit|match)\s+(?:here\s+)?(?:is|would\s+be)"
    r"|\bbest\s+answer\s+is|\b(?:closest|nearest)(?:\s+(?:answer|option|choice|match|value|one))?(?:\s+is)?|\bselect|\bchoose|\bchoosing|\bpick|\b(?:go(?:ing)?|went)\s+with"
    r"|\blean(?:s|ing)?\s+(?:toward|towards|to)|\bleaves|\bleaving|\bremains(?:\s+is)?|\bleft\s+(?:with|is)"
    # "I'd say B", "I'm going to say B"
    r"|\b(?:I['’]d|I\s+would|I['’]ll|I\s+will|going\s+to|gonna|I\s+have\s+to|I['’]ll\s+have\s+to)\s+say"
    # "only B fits": one letter singled out
    r"|(?<!\bnot\s)\bonly"
    # "I'm changing my answer to C", "I'll revise that to C", "switching to C", "make that C"
    r"|\b(?:chang|switch|revis|updat|correct)(?:e|es|ed|ing)?\s+(?:(?:my|the)\s+(?:answer|choice|pick)\s+|that\s+|it\s+|this\s+)?to"
    r"|\bmake\s+(?:that|it))\s*[:=\-–—]*\s*$")
# "option B" / "choice B" alone names a letter; an answer label ("Answer: B", "I pick option B",
# "B is correct", a check mark) decides between named letters
_OPTION_WORD = re.compile(r"(?i)\b(?:option|choice)\s*[:=\-–—]*\s*$")
_PREDICATE_AFTER = re.compile(
    r"(?i)^[^\S\n]*\n|^\s*(?:is|was|would|could|might|may|must|can|will|seems|should|looks|fits|it\b|because|since|as\b"
    r"|rather|over|and|or|option\b|"
    r"(?:does|did|matches|works|applies|holds|remains|has|had|describes|corresponds|sounds|gets)\b|"
    r"[-–—:,.;!?/&+|()\]\u2190-\u2bff\U0001f000-\U0001faff]|$)")
# a conclusion in a reasoning reply commits to the letter it reaches: "..., so B", "Therefore, B",
# "so it must be B", "which points to B"
_CONCLUSION_BEFORE = re.compile(
    r"(?i)\b(?:(?<!\bthink\s)(?<!\bbelieve\s)(?<!\bhope\s)(?<!\bguess\s)(?<!\bsay\s)(?<!\bsaid\s)so|therefore|thus|hence|ergo|consequently|in\s+conclusion|overall|ultimately"
    r"|in\s+the\s+end|which\s+means|that\s+means|this\s+means|points?\s+to|pointing\s+to)\b"
    r"[\s,:\-–—]*(?:[\w'’]+\s+){0,4}(?:option\s*)?[\(\[]?\s*$"
    # ... and so does a verb of evidence: "the chat supports B", "which matches B", "this is
    # consistent with B", "that fits B best", "everything lines up with B"
    r"|\b(?:supports?|favou?rs?|match(?:es)?|fits?(?:\s+with)?|(?:is\s+|are\s+)?consistent\s+with"
    r"|lines?\s+up\s+with|corresponds?\s+to|agrees?\s+with|indicates?|suggests?|confirms?)"
    r"\s+(?:(?:best|most|only|option|answer|choice|letter)\s+)*[\(\[]?\s*$")
_STRONG_AFTER = re.compile(
    r"(?i)^\s*(?:\)\s*)?(?:(?:is|would\s+be|seems|should\s+be)\s+(?:(?:the\s+|my\s+)?"
    r"(?:(?:final|current|latest|most\s+recent)\s+)?(?:correct|right|answer|best|choice|current\b)"
    r"|the\s+(?:right\s+|correct\s+)?one\b)"
    r"|it\s+is\s*(?:[.!;,\n]|$)"     # "B it is.", "B gets my vote", "B wins", "B fits better"
    r"|gets\s+my\s+vote|wins\b|takes\s+it\b|(?:fits|matches|works)\s+(?:better|best)"
    r"|(?:is|seems)\s+(?:the\s+)?(?:closest|nearest)\b"       # "B is the closest" (to a computed value)
    r"|(?:is|seems)\s+(?:more|most|far\s+more)\s+likely)")
_NEGATED_BEFORE = re.compile(
    r"(?i)(?:\bnot|n't|\bnor|\bneither|\brather\s+than|\bover|\binstead\s+of|\bthan|\bexcept|\bthought"
    r"|\brul(?:e|es|ed|ing)\s+out|\beliminat(?:e|es|ed|ing)|\bexclud(?:e|es|ed|ing)|\bdiscard(?:s|ed|ing)?"
    r"|\b(?:cross|strike|strik)(?:es|ed|ing|e)?\s+(?:out|off)|\bscratch|\bunlike"
    # "not enough info to pick A"
    r"|(?:n't|\bnot|\bno)\s+(?:\w+\s+)?(?:enough|sufficient)\s+\w+\s+to\s+(?:pick|choose|select|say|decide\s+on|go\s+with)"
    # a rejecting label: "Incorrect answers: B", "Wrong: C", "Ruled out: D"
    r"|(?:^|[\n.!?;|])[^\S\n]*(?:[-*•>]\s*)?(?:incorrect|wrong|false|rejected|eliminated|excluded|ruled\s+out"
    r"|distractors?)(?:\s+(?:answers?|options?|choices?|ones?))?\s*[:=\-–—]"
    # a hypothesis set aside: "I was about to say D", "I nearly said D", "I initially considered D",
    # "At first glance D", "You might think D", "Some might pick D"
    r"|\b(?:was|were)\s+(?:about|going|tempted)\s+to\s+(?:say|pick|choose|go\s+with|answer)|\bthought\s+(?:about|of)"
    r"|\b(?:nearly|almost)\s+(?:said|picked|chose|went\s+with|answered)"
    r"|\b(?:initially|originally|first|at\s+first)\s*,?\s+(?:I\s+|we\s+)?(?:considered|thought(?:\s+of)?|guessed|suspected|picked|chose"
    r"|said|leaned\s+(?:toward|towards))|\bat\s+first\s+(?:glance|sight)"
    r"|\b(?:you|one|some(?:one|body)?|people|others?|many)\s+(?:might|may|could|would)\s+(?:\w+\s+)?(?:think|say"
    r"|pick|choose|guess|assume|expect|go\s+with|argue\s+for|prefer)"
    # a superseded guess or value: "My first instinct was D", "Originally D", "Before that it was D",
    # "changed it from D (to C)"
    r"|\b(?:first|initial|original|earlier|previous|old)\s+(?:instinct|guess|thought|impression|hunch|reaction"
    r"|answer|pick|choice)\s+(?:was|had\s+been)"
    r"|(?:^|[^\w\s]\s*|\b(?:it|that|which|this)\s+(?:was\s+)?)(?:originally|initially|at\s+first|formerly|previously|earlier)"
    r"|\bbefore\s+(?:that|then)\s*,?\s*(?:it|that)\s+(?:was|were)|\bused\s+to\s+be"
    r"|\b(?:chang|switch|mov|went|go|updat|revis)\w*\s+(?:\w+\s+)?from"
    # a negated verb of choosing: "I wouldn't choose A", "It wouldn't be A", "I don't think it's A"
    r"|(?:n't|\bnot|\bnever)\s+(?:\w+\s+)?(?:be|choose|pick|select|say|go\s+with|opt\s+for|answer"
    r"|(?:think|believe)\s+(?:it|that)(?:'s|\s+is|\s+was))"
    # ... or of evidence: "your message doesn't match B", "nothing in the chat supports B", "I don't
    # see anything supporting B", "I can't find anything that backs up B", "you never mentioned B",
    # "there's no sign of B"
    r"|(?:n't|\bnot|\bnever|\bnothing|\bnone\s+of\s+\w+|\bno\s+(?:evidence|message|mention))\b[^.;!?\n]{0,40}?"
    r"\b(?:support|back(?:s|ed|ing)?\s+up|match|fit|point\w*\s+to|suggest|indicat|favou?r|agree\w*\s+with"
    r"|lin\w+\s+up\s+with|correspond\w*\s+to|mention|confirm)\w*"
    r"|\bno\s+(?:sign|trace|mention|record|hint|indication|evidence|support)\s+(?:at\s+all\s+)?(?:of|for))"
    r"(?:\s+option)?\s*[\(\[]?\s*$")
# "B is incorrect", "B is wrong", "B can't be right", "B doesn't fit": the letter is rejected; so is
# a letter described as the former value ("B was before you changed it", "B used to be right")
# The verdict may follow the option's text in brackets ("A (red) was the old colour") or cover a
# list of letters ("A and C don't fit", "C and D were never mentioned").
_LETTER_LIST_TAIL = r"(?:\s*(?:,|and|or|&|/)\s*(?:option\s*)?[\(\[]?[A-Z][\)\]]?(?![\w'’]))*"
_NEGATED_AFTER = re.compile(
    r"(?i)^\s*[\)\]]?\s*(?:\([^()\n]*\)\s*)?" + _LETTER_LIST_TAIL + r"\s*(?:"
    r"(?:is|was|are|were|seems|looks|would\s+be)\s+(?:both\s+|all\s+|also\s+|too\s+)?(?:incorrect|wrong|false|not\b|out\b"
    r"|ruled\s+out|eliminated|unlikely|impossible|never\b|outdated|inconsistent|out\s+of\s+date|stale"
    r"|tempting|a\s+(?:distractor|trap|trick|decoy|red\s+herring))"
    r"|(?:was|used\s+to\s+be)\s+(?:correct|right|true|the\s+answer)\s+(?:before|earlier|previously"
    r"|originally|at\s+first|until|last)\b"
    r"|(?:is|was|are|were)\s+(?:the|your|my)\s+(?:old|previous|earlier|original|former|first|initial)\b"
    r"|(?:was|were)\s+(?:before|earlier|previously|originally|at\s+first"
    r"|(?:the|your)\s+(?:old|previous|earlier|original|former)|what\s+you\s+(?:had|said)\s+(?:before|earlier|first))"
    r"|used\s+to\s+be\b"
    # "A would have been true last year", "A was the case a while ago", "A was correct, but not
    # anymore", "A is no longer true", "A is what you used to have", "A at first", "A earlier"
    r"|would\s+have\s+been\b|would\s+be\s+(?:correct|right|true)\s+if\b"
    r"|(?:was|were|had\s+been)\s+(?:correct|right|true|accurate|valid|the\s+answer|the\s+case)\s*,?\s*(?:\w+\s+){0,2}?"
    r"(?:not\s+any\s*more|no\s+longer|last\b|ago\b|back\s+then|once\b|in\s+the\s+past|a\s+while\s+ago)"
    r"|(?:(?:was|were|is|are)\s+(?:\w+\s+){0,3}?)?(?:no\s+longer|not\s+any\s*more)\b"
    r"|(?:is|was)\s+what\s+(?:you|it)\s+(?:used\s+to|had\s+(?:before|earlier|at\s+first))"
    r"|,?\s*(?:at\s+first|originally|initially|earlier|previously|formerly)\b|\s*before\s*(?:[.,;!?\n]|$)"
    r"|(?:contradicts?|conflicts?)\b"
    # "B never came up", "B came to mind first", "B would need you to have said blue", "B is about
    # a different day", "B refers to something else"
    r"|(?:also\s+)?never\b|(?:came|comes|sprang|springs|jumped|jumps)\s+to\s+mind"
    r"|(?:is|was|seems|looks)\s+(?:close|plausible|tempting|possible|reasonable)\s*,?\s*but\s+(?:no|not|nope|wrong)\b"
    r"|would\s+(?:need|require|only\s+(?:fit|work|apply|hold))\b"
    r"|(?:is|was|are|were|refers?\s+to|applies\s+to)\s+(?:(?:about|from|for)\s+(?:an?\s+|the\s+)?(?:different|other|another)"
    r"|(?:an?\s+)?different\b|something\s+else|someone\s+else)"
    r"|(?:as\s+)?an?\s+(?:close|distant|near)\s+(?:second|runner[-\s]up)\b"     # "A, with B a close second"
    r"|can\s+be\s+(?:ruled\s+out|eliminated|excluded|dismissed|discarded)"
    r"|(?:isn't|wasn't|aren't|weren't|can't|cannot|couldn't|doesn't|does\s+not|don't|do\s+not)\b)")
# a letter asked about and answered: "B? No. A? Yes."; a letter taken back: "It's B... wait, no."
_ANSWERED_NO = re.compile(r"(?i)^\s*[\)\]]?\s*(?:\?+|\.{2,}|…)\s*(?:(?:definitely|certainly|probably|surely)\s+)?"
                          r"(?:no|nope|nah|wrong|not|unlikely|doubtful|hardly)\b"
                          # "Was it D? I don't think so", "B? I doubt it"
                          r"|^\s*[\)\]]?\s*\?+\s*I\s+(?:(?:don['’]t|do\s+not)\s+(?:think|believe)\s+so|doubt\s+(?:it|that))\b")
_ANSWERED_YES = re.compile(r"(?i)^\s*[\)\]]?\s*\?+\s*(?:yes|yep|yeah|yup|correct|right|exactly)\b")
_RETRACTED = re.compile(r"(?i)^\s*[\)\]]?\s*[.…,;:!?—–-]*\s*(?:no[,.!]?\s+)?(?:wait|hold\s+on|scratch\s+that"
                        r"|on\s+second\s+thought)\b")
# a later statement that takes back an earlier one: "Answer: A. Actually, wait - ... Answer: B"
_REVISION = re.compile(r"(?i)\b(?:wait|actually|scratch\s+that|on\s+second\s+thought|correction"
                       r"|let\s+me\s+reconsider|I\s+mean|or\s+rather|make\s+that|on\s+reflection|changed\s+my\s+mind"
                       r"|(?:chang|switch|revis|updat)(?:e|es|ed|ing)?\s+(?:my\s+(?:answer|choice|pick)|that|it|this)?\s*to)\b")
# two letters listed alike: "A or B", "A and B", "A/B", "A & B", "A, B", "A; B", "A (red) and B (blue)"
# ("A as well as B", "A + B", "A along with B", "A — and C as well" too)
_CLAUSE_VERB = re.compile(r"(?i)\s+(?:is|was|would|seems|could|can|might|may|does|doesn['’]t|isn['’]t|wasn['’]t"
                          r"|fits|matches|works|looks|sounds|remains|must|should|will)\b")
_JOINED = re.compile(r"(?i)^\s*[\)\]]?\s*(?:\([^()\n]*\)\s*)?(?:(?:[,;]|\.{2,}|…|\s[-–—])?\s*(?:or|and|as\s+well\s+as|plus"
                     r"|along\s+with|together\s+with|in\s+addition\s+to)\b|[,;/&+])\s*(?:(?:maybe|perhaps|possibly|also)\s+)?(?:option\s*)?"
                     r"[\(\[]?\s*([A-Za-z])\s*[\)\]]?(?![\w'’])")
# a capital inside an abbreviation or a name, not an option letter: "B-movie", "A-list", "D.C.",
# "B&B", "Q&A", "Dr. A. Smith", and a capital that names a thing: "vitamin C", "Plan B", "gate A"
# ("B-52s", "C++", "A+ grade", "C#" too), a capital that names a thing: "Team B", "Season B", "Room D"
_WORD_PART_AFTER = re.compile(r"^(?:[-.&][A-Za-z0-9]|\+(?![ \t]*[A-Za-z](?!\w))|#"
                              r"|[ \t]+(?i:positive|negative|minor|major|flat|sharp)\b)")     # "B positive", "B minor"
_WORD_PART_BEFORE = re.compile(
    r"(?:(?<![\w'’])[A-Za-z]-|[A-Za-z][.&]|(?<![\w'’])[Nn]/|\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|Rev|Sr|Jr|St|Capt|Col|Gen|Lt|Sgt)\.?\s+"
    r"|\b(?i:vitamin|plan|type|grade|hepatitis|blood\s+group|group|gate|terminal|platform|exit|wing|block"
    r"|row|tier|category|size|cup|class|team|season|series|episode|part|section|chapter|appendix|exhibit"
    r"|room|floor|level|hall|building|side|zone|phase|stage|model|unit|suite|apartment|apt|route|bay|area|sector"
    r"|lot|ward|court|station|track|lane|tower|seat|box|lab|studio|gym|bus|train|line|deck|pier|dock|camp|field"
    r"|channel|volume|vol|book|act|scene|figure|fig|table|form|item|step|shift|squad|division|league|pool|batch"
    r"|version|mode|door|booth|stall|hangar|dorm|lecture"
    # people: "Aunt B", "your cousin B", "Coach C", "Agent D"
    r"|aunt|auntie|uncle|cousin|friend|brother|sister|bro|sis|mom|mum|dad|grandma|grandpa|granny|nana|grandmother"
    r"|grandfather|mother|father|son|daughter|niece|nephew|neighbou?r|boss|colleague|co-?worker|roommate|flatmate"
    r"|partner|teacher|coach|doctor|nurse|agent|professor|miss|madam|sir|lady|lord|king|queen|prince|princess"
    r"|captain|officer|detective|inspector|judge|pastor|father|uncle|baby|kid|little|big|mr|mrs|ms|dr|prof"
    # a grade: "got an A on the exam", "scored a B"
    r"|(?:got|get|gets|getting|earned|earn|scored|score|received|receive)\s+(?:an?|the)?)\s+"
    r"|[°º˚][ \t]?"                     # "30 °C", "98.6 ° F": a unit
    r"|(?<![\u0370-\u03ff])[\u0370-\u03ff][ \t]?)\Z")   # "Δ B", "ΔA": a symbol (one Greek letter)
# check and cross marks beside a letter ("A ✅", "✅ A  ❌ B", "| B | ✓ |") and yes/no table cells
# ("| A | yes |"): a line that starts with a mark puts marks before letters, otherwise after.
# a letter pair that modifies a noun ("the A/B testing chat", "a C/D split") is a name, not a list;
# a pair before a verb, a hedge or a conjunction ("A/B both fit", "A/B maybe") stays a list
_COMPOUND_PAIR = re.compile(
    r"(?<![\w/])[A-Z]/[A-Z](?=[ \t]+(?!(?:is|are|was|were|be|both|either|seem|seems|seemed|might|could|would|should"
    r"|can|may|must|maybe|perhaps|probably|possibly|i|or|and|but|not|fit|fits|match|matches|work|works|look|looks"
    r"|sound|sounds|then|tho|though|imo|hmm|idk|are|each|equally|too|also|apply|applies)\b)[a-z])")
_CHECKS, _CROSSES = "✅✔✓☑", "❌✗✘✖❎"
_MARK_FIRST_LINE = re.compile(rf"^[\s|>*\-]*[{_CHECKS}{_CROSSES}]")
_MARK_BEFORE = re.compile(rf"([{_CHECKS}{_CROSSES}])\ufe0f?\s*$")
_MARK_AFTER = re.compile(rf"^\s*[|:,\-–—]?\s*([{_CHECKS}{_CROSSES}])")
_CELL_AFTER = re.compile(r"(?i)^\s*\|\s*(yes|true|correct|right|no|false|incorrect|wrong)\s*(?:\||$)")
# a verdict after a dash or colon that ends its clause: "A - no", "B: yes", "C — correct."
# ... also after the option's text: "B) blue – correct", "A) red – outdated"
_VERDICT_AFTER = re.compile(r"(?i)^\s*[-–—:]\s*(yes|true|correct|right|current|matches|fits|no|false|incorrect|wrong"
                            r"|outdated|old)[ \t]*(?:[.!,;\n]|$)")
_POSITIVE_VERDICT = ("yes", "true", "correct", "right", "current", "matches", "fits")
# "A – not mentioned", "B: never came up", "C - ruled out": a rejecting verdict after a dash or colon
_REJECTING_VERDICT = re.compile(r"(?i)^\s*[-–—:]\s*(?:not|never|nope|unlikely|ruled\s+out|eliminated|doesn['’]t"
                                r"|does\s+not|isn['’]t|wasn['’]t|no\s+(?:match|mention|evidence))\b")

# where a capital "A" can be the article: at the start of a sentence, a line or a clause after ":"
_SENTENCE_START = re.compile(r"(?:^|[.!?:\n])[\s\"'“‘(\[-]*$")
_NEGATED_TEXT = re.compile(r"\b(?:not|nor|than|instead of|over|neither|used to be"
                           r"|(?:changed|switched|went|moved|updated|corrected)(?: it)? from"
                           r"|(?:first|originally|initially) (?:said|mentioned|told me|picked|chose|wanted))\s*$")
# an option's text named as the former value: "It was red at first"
_FORMER_TEXT_AFTER = re.compile(r"^\s*(?:at first|originally|initially|previously|before|earlier|early on"
                                r"|in beginning|to begin with)\b")
# a question put to the user ("Was it blue?", "Could it be A?", "Do you mean A or B?", "Or maybe
# B?"): a sentence that opens with an interrogative or a hedge and ends with "?" states nothing
_ASKING = re.compile(
    r"(?i)(?:^|(?<=[.!?\n—–]))[^\S\n]*(?:(?:so|and|but|or|hmm|well|then|now|sorry)\W+)*"
    r"(?:or|maybe|perhaps|is|are|was|were|do|does|did|can|could|would|will|should|shall|might|may|have|has|had"
    r"|which|what|who|whom|whose|where|when|how|why)\b[^.!?\n]*\?+"
    # a guess put as a question: "B, I guess?", "blue, maybe?", "Possibly blue? I'm not certain."
    r"|(?:^|(?<=[.!?\n]))[^.!?\n]*\b(?:maybe|perhaps|possibly|I\s+guess|I\s+suppose|not\s+sure|or\s+something)\b[^.!?\n]*\?+")


# a letter inside a condition states nothing: "So, if it's A, then ...", "If it were A", "Assuming A
# were right", "Suppose it's A", "had it been A"
_HYPOTHETICAL_BEFORE = re.compile(
    r"(?i)(?:\b(?:if|unless|(?<!\bI\s)suppose|supposing|assuming|assume|whether|in\s+case)\s+(?:(?:it|that|this|we|I|you"
    r"|the\s+(?:correct\s+|right\s+)?answer)\s*(?:['’]s|\s+is|\s+are|\s+were|\s+was|\s+had\s+been|\s+would\s+be"
    r"|\s+(?:pick|picked|choose|chose|go\s+with|went\s+with|take|took|said))?\s+)?"
    r"|\b(?:were|had)\s+it\s+(?:been\s+)?)(?:option\s*)?[\(\[]?\s*$")
# ... or before one: "A if you mean last year, B if you mean now" (not "B, if I had to guess")
_CONDITIONAL_AFTER = re.compile(
    r"(?i)^\s*[\)\]]?\s*,?\s*(?:if|unless|assuming|provided\s+that|in\s+case)\b(?!\s+I\s+(?:had\s+to|have\s+to|must"
    r"|remember|recall|understand|['’]m\s+not\s+mistaken|am\s+not\s+mistaken|['’]m\s+right|am\s+right)"
    r"|\s+(?:that|this)\s+helps|\s+memory\s+serves|\s+so\b|\s+any\b)"
    # ... or a guess taken back: "It might be A, but I honestly don't know."
    r"|^\s*[\)\]]?\s*,?\s*but\s+(?:(?:honestly|really|truly|tbh)\s*,?\s+)?(?:I\s+)?(?:honestly\s+|really\s+|truly\s+|just\s+)?"
    r"(?:(?:don['’]t|do\s+not)\s+(?:really\s+)?know|have\s+no\s+(?:idea|clue)|no\s+(?:idea|clue)"
    r"|can['’]t\s+(?:really\s+)?(?:say|tell|be\s+sure))(?=\s*(?:[.!,;…]|$))")
# a letter given the same status as another, one candidate among others: "it could also be B",
# "B, or even something else", "B is also possible", "B might be right too", "A fits, and so does
# B", "A is plausible, as is B", "A. B as well.", "Also B.", "B also fits", "B is another"
_ALTERNATIVE_BEFORE = re.compile(r"(?i)(?:\b(?:could|might|may|can)\s+(?:also|equally)\s+(?:be\s+)?"
                                 r"|\bor\s+(?:maybe|perhaps|possibly)\s+|(?:^|[.!?…]\s*)or\s+"
                                 r"|\b(?:so|as)\s+(?:does|do|did|is|are|was|could|would|might|can|may)\s+"
                                 r"|\bsame\s+(?:goes\s+)?for\s+|\blikewise\s*,?\s+|\bequally\s+"
                                 r"|(?:^|[.!?;,…—–(]\s*|\s-\s+|\b(?:and|but)\s+)also\s+)"
                                 r"(?:option\s*)?[\(\[]?\s*$")
_ALTERNATIVE_AFTER = re.compile(
    r"(?i)^\s*[\)\]]?\s*,?\s*(?:or\s+(?:even\s+|maybe\s+|perhaps\s+|possibly\s+)?(?:something|someone|anything|another"
    r"|other|none|any|some)\b"
    r"|(?:(?:is|are|was|seems?|looks?|would\s+be|could\s+be|might\s+be|may\s+be|does|do|fits|works|matches|applies"
    r"|holds|might|could|may)\s+)?(?:also|equally)\s+(?:possible|plausible|likely|right|correct|true|valid|an\s+option"
    r"|a\s+possibility|fits?|works?|match(?:es)?|appl(?:y|ies)|holds?|counts?|makes\s+sense|supported)\b"
    r"|(?:is|are|seems?|would\s+be|might|could|may|does|do|fits|works|matches|applies|holds)\s+(?:also\s+)?"
    r"(?:be\s+)?(?:(?:correct|right|true|possible|plausible|fine|it|fit|work)\s+)?(?:too|as\s+well)\b"
    r"|(?:is|would\s+be|seems?)\s+another\b"
    r"|(?:is|seems?|looks?|sounds?)\s+(?:just\s+|about\s+|equally\s+)?as\s+(?:likely|plausible|possible|good|valid))")
# ... and a letter that opens its clause with "too" or "as well" after it ("A. B as well.", "B too"; not
# "I checked B too")
_PEER_BARE = re.compile(r"(?i)^\s*[\)\]]?\s*,?\s*(?:too|as\s+well)\b")
_CLAUSE_OPEN = re.compile(r"(?i)(?:^|[.!?;,…—–:(\n]|\band|\bbut)\s*(?:option\s*)?[\(\[]?\s*$")
# a letter put as a question ("B?", "Maybe B?") states nothing unless answered ("B? Yes.")
_QUESTIONED = re.compile(r"^\s*[\)\]]?\s*\?")
# an initial, not an option letter: "A. Smith told you", "You told B. Jones", "A. B. Carter" (a
# capitalised word after "X. " that is neither a common sentence opener nor an option's first word)
_INITIAL_AFTER = re.compile(r"^\.[ \t]+(?:[A-Z]\.[ \t]+)*([A-Z][a-z]+)\b(?!['’][a-rt-z])")
_SENTENCE_OPENERS = frozenset("""a about according after again all also although an and answer anyway
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
# a capital right after a capitalised word mid-sentence is part of a name ("with Jay B", "the time
# of Hurricane C"), unless that word is a common one or an option's ("..., Definitely B", "Hmm B")
_NAME_BEFORE = re.compile(r"\b([A-Z][a-z]+)[ \t]+\Z")
_NOT_NAMES = frozenset("letter pick choose select say guess ans vote prob def hmm hm um uh ok yep yup nope duh"
                       " lol gotta go".split()) | _SENTENCE_OPENERS
# a statement of the present state or the latest message: "Right now it's B", "currently B",
# "your latest one points to B", "B now", "B is current"
_CURRENT = re.compile(
    r"(?i)\b(?:now|currently|nowadays|these\s+days|at\s+present|presently|today|current|latest|newest"
    r"|most\s+recent(?:ly)?|more\s+recent(?:ly)?|later|eventually|in\s+the\s+end|since\s+then|after\s+that)\b")
_CURRENT_AFTER = re.compile(
    r"(?i)^\s*[\)\]]?\s*(?:(?:now|nowadays|these\s+days|currently|today|instead)\s*(?:[.,;:!?)\n—–-]|$)"
    r"|(?:is|['’]s)\s+(?:the\s+)?(?:current|latest|newest|most\s+recent)\b)")
# a contrast: "A is correct by your first message, but the answer is B"
_CONCLUDING = re.compile(r"(?i)\b(?:therefore|thus|hence|consequently|in\s+conclusion|in\s+summary|to\s+conclude"
                         r"|ultimately)\b")
_CONTRAST = re.compile(r"(?i)\b(?:but|however|yet|though|although)\b")


def _in_name(before: str, after: str, options: dict[str, str]) -> bool:
    """A capital that is part of a name: after a capitalised word mid-sentence ("with Jay B"), or
    between "the" and a noun ("the B train"; not "the B option")."""
    if re.search(r"(?i)\bthe\s+\Z", before) and re.match(r"[ \t]+[a-z]{2,}\b", after) and not (
            _PREDICATE_AFTER.match(after) or re.match(r"\s+(?:one|option|choice|answer|letter)\b", after)):
        return True
    m = _NAME_BEFORE.search(before)
    if not m:
        return False
    previous = before[:m.start()].rstrip()
    word = m.group(1).lower()
    return bool(previous) and previous[-1] not in ".!?:;\n*>-–—(\"'“‘" and word not in _NOT_NAMES and not (
        word.endswith("ly") or any(word in normalize_answer(o).split() for o in options.values()))


def _is_initial(after: str, options: dict[str, str]) -> bool:
    if re.match(r"\.[ \t]*[A-Z]\.(?![^\S\n]*$)", after):
        return True                       # "B. J. told you", "A.B. Carter"
    m = _INITIAL_AFTER.match(after)
    if not m:
        return False
    word = m.group(1).lower()
    return word not in _SENTENCE_OPENERS and not word.endswith("ly") and not any(
        normalize_answer(o).split()[:1] == [word] for o in options.values())


def _mark_verdict(before: str, after: str, option: str) -> int:
    """+1 when a check mark (or a "yes" table cell) goes with the letter, -1 for a cross (or "no"),
    0 for neither. `before`/`after` are the text around the letter; outside a table row, a cell
    holding the letter's own option text ("B|No" where B is "No") is no verdict."""
    line_before = before.rsplit("\n", 1)[-1]
    line_after = after.split("\n", 1)[0]
    if _MARK_FIRST_LINE.match(line_before):
        m = _MARK_BEFORE.search(line_before)
        mark = m.group(1) if m else None
    else:
        m = _MARK_AFTER.match(line_after)
        mark = m.group(1) if m else None
        if mark is None and (cell := _CELL_AFTER.match(line_after)) and (
                "|" in line_before or cell.group(1).lower() != option.lower()):
            return 1 if cell.group(1).lower() in ("yes", "true", "correct", "right") else -1
    if mark is None:
        return 0
    return 1 if mark in _CHECKS else -1


# "no" that opens a noun phrase ("no idea", "no wait", "no record") is not the option "No"
_NO_DETERMINER = re.compile(r"(?i)\bno\s+(?=(?:idea|clue|wait|way|record|mention|sign|trace|evidence|doubt|longer|one"
                            r"|matter|info|information|memory|recollection|details?|need|problem|worries|thanks)\b)")
# a statement that the reply cannot decide between letters: "I can't tell which you meant"
_UNDECIDED = re.compile(r"(?i)\b(?:can['’]?t|cannot|couldn['’]t|not\s+sure|(?:don['’]t|do\s+not)\s+know|no\s+idea"
                        r"|hard\s+to\s+(?:tell|say)|impossible\s+to\s+(?:tell|say))\s+(?:\w+\s+){0,2}?which\b"
                        r"|\bcan['’]?t\s+(?:decide|choose|pick)\b"
                        r"|\b(?:impossible|not\s+possible)\s+to\s+(?:choose|determine|select|pick|decide)\b"
                        r"|\b(?:can['’]?t|cannot|unable\s+to)\s+(?:choose|determine|select|pick)\s+(?:the|an?|which|between)\b")


def _phrase_spans(padded: str, phrase: str) -> list[tuple[int, int]]:
    """Where `phrase` stands between spaces in `padded`; two occurrences may share the space between
    them. (str.find, not a pattern compiled per option text.)"""
    found, needle, at = [], f" {phrase} ", padded.find(f" {phrase} ")
    while at >= 0:
        found.append((at + 1, at + 1 + len(phrase)))
        at = padded.find(needle, at + 1 + len(phrase))
    return found


def _by_option_text(text: str, options: dict[str, str]) -> str | None:
    """The one option whose text the reply states, matched as a whole phrase. An occurrence inside
    a longer option's occurrence ("red" in "dark red") does not count, an option named after "not"
    or as the former value ("changed it from red", "red at first", "used to be red") is not chosen,
    an option named only in a question ("Was it blue?", "blue, I guess?") is not stated, one offered
    as an alternative ("or maybe red") makes the reply name none, and several options are settled as
    letters are ("You said red, but later blue": the latest)."""
    padded = f" {normalize_answer(_NO_DETERMINER.sub(' ', _ASKING.sub(' ', text)))} "
    if not padded.strip():
        return None
    spans: dict[str, list[tuple[int, int]]] = {}
    norms = {letter: normalize_answer(option) for letter, option in options.items()}
    for letter, norm in norms.items():
        if norm:
            spans[letter] = _phrase_spans(padded, norm)
    # the options whose text holds another's as a phrase ("dark red" holds "red")
    holders = {letter: [o for o in spans if len(norms[o]) > len(norms[letter]) and f" {norms[letter]} " in f" {norms[o]} "]
               for letter in spans}
    stated: list[_Mention] = []
    for letter, found in spans.items():
        for start, end in found:
            inside_longer = any(s <= start and end <= e for o in holders[letter] for s, e in spans[o])
            if not (inside_longer or _ends_with(_NEGATED_TEXT, padded, start)
                    or _FORMER_TEXT_AFTER.match(padded[end:])):
                alternative = _ends_with(_ALTERNATIVE_BEFORE, padded, start)
                stated.append(_Mention(start, end, letter, PLAIN, alternative))
    if not stated or any(m.joined for m in stated):
        return None                       # "blue, I guess? Or maybe red."
    stated.sort(key=lambda m: m.start)
    for i, m in enumerate(stated):        # "You said red, but later blue", "Now it's blue"
        m.current = bool(_CURRENT.search(padded[stated[i - 1].end if i else 0:m.start]))
        if _ends_with(_CONCLUSION_BEFORE, padded, m.start) or _ends_with(_STRONG_BEFORE, padded, m.start):
            m.level = DECISIVE            # "..., so the answer is blue"
    top = max(m.level for m in stated)
    return _settle(padded, [m for m in stated if m.level == top])


class _Mention:
    """A letter the reply names: where, how firmly (DECISIVE: an answer label, a conclusion, a check
    mark; LABELLED: "option B", "I choose B"; PLAIN: standing alone), whether it is listed with
    another letter ("A or B") or offered as one candidate ("it could also be B"), and whether it is
    stated as the present or latest value ("now it's B", "your latest message points to B")."""
    __slots__ = ("start", "end", "letter", "level", "joined", "current")

    def __init__(self, start: int, end: int, letter: str, level: int, joined: bool, current: bool = False):
        self.start, self.end, self.letter, self.level, self.joined = start, end, letter, level, joined
        self.current = current


DESCRIBED, PLAIN, LABELLED, DECISIVE = 0, 1, 2, 3

# a letter described by its own option's text ("D is no pets", "Option A refers to Paris", "B would
# mean blue"): named, not chosen; it counts only when nothing firmer is stated
_DESCRIBES = (r"^\s*[\)\]]?\s*(?:is|was|=|means|would\s+mean|refers\s+to|says|stands\s+for|represents|is\s+about"
              r"|corresponds\s+to|would\s+be)\s+[\"“'‘(]?\s*")
# a lower-case letter in a very short reply ("i think a", "ans: d", "prob c", "b for sure") is a
# choice when it ends the reply or its clause, or a hedge word follows it
_SHORT_REPLY_WORDS = 6
_LOWER_END = re.compile(r"(?i)^\s*(?:[-–—:,.;!)\]]|$|(?:i\s+(?:think|guess|believe|reckon|suppose)|for\s+sure|obviously"
                        r"|obv|probably|prob|definitely|def|tho|though|then|it\s+is|is|because|since|lol|haha|lmao"
                        r"|tbh|imo|imho|ngl|fr|i'?m\s+sure|all\s+the\s+way|hands\s+down|no\s+doubt|no\s+question)\b)")
# the reply opens with a letter standing alone ("B. You told me ...", "**C**. Here's why: ...",
# "B\n\n..."): its answer, unless the reply goes through the options one by one ("A: ... B: ...")
_OPENING_END = re.compile(r"^\s*(?:[.!:)\]\-–—]|\n|$)")
_ENUMERATED = re.compile(r"(?m)(?:^|[.!?;]\s+)[^\S\n]*(?:[-*•>+]\s*)?(?:option\s+)?[\(\[]?([A-Z])[\)\]]?[ \t]*[.:)\-–—][ \t]")


# "I" then a lower-case word that is no predicate of a letter ("I made", "I will"; not "I is", "I fits")
_PRONOUN_AFTER = re.compile(r"[ \t]+(?!(?:is|was|fits|matches|seems|would\s+be|works|applies)\b)[a-z]")
# how far back (in characters, after trailing space) the patterns before a letter may reach
_LOOKBACK = 160
_ARROW_BEFORE = re.compile(r"(?:[:→⇒]|=>|->)\s*[\(\[]?\s*$")       # "You said blue: B."
_PAIR_WORD_BEFORE = re.compile(r"(?i)\b(?:either|both|between)\s*[\(\[]?\s*$")


def _window_start(text: str, end: int) -> int:
    """Where the patterns that read the words before position `end` start looking. They are
    anchored at `end` and reach back a few words, so they search the text (whole, so "^" still means
    its start) from _LOOKBACK characters before it: a long reasoning reply stays linear, not
    quadratic, in its length."""
    while end > 0 and text[end - 1].isspace():       # (no copy of the text: this runs per letter)
        end -= 1
    return max(0, end - _LOOKBACK)


def _ends_with(pattern: re.Pattern, text: str, end: int) -> bool:
    """Whether `pattern` (anchored at its end) matches the text just before position `end`."""
    return pattern.search(text, _window_start(text, end), end) is not None


def _without_option_word(text: str, lo: int, end: int) -> int:
    """Where text[:end] ends once a trailing "option"/"choice" is cut ("I pick option B")."""
    m = _OPTION_WORD.search(text, lo, end)
    return m.start() if m else end


# What may stand between a letter and its own option's text: "B: blue" (before a verdict), "B) blue"
_DASH_LEAD = re.compile(r"\s*[-–—:]\s*")
_LABEL_LEAD = re.compile(r"\s*[).\]:]\s*|")
_WRAPPED_LABEL_LEAD = re.compile(r"\s*[.:]?\s*")          # "(C) 5 A, clockwise"
_OWN_TEXT_LEAD = re.compile(r"\s*[).\]:]?\s*")
_DESCRIBES_LEAD = re.compile(_DESCRIBES, re.IGNORECASE)
_DASH_AHEAD = re.compile(r"\s*[-–—:]")


def _text_at(text: str, at: int, option: str, ahead: re.Pattern | None = None) -> int | None:
    """Where an option's text found at `at` (ignoring case, as a whole word) ends, or None; with
    `ahead`, only when that pattern matches right after it. (A string comparison: a pattern
    compiled per option text would be compiled again for nearly every question.)"""
    end = at + len(option)
    if not option or text[at:end].lower() != option.lower():
        return None
    if ahead is None:
        return None if text[end:end + 1].isalnum() or text[end:end + 1] == "_" else end
    return end if ahead.match(text, end) else None


def _mentions(text: str, options: dict[str, str]) -> list[_Mention]:
    """The letters the reply asserts, in order; rejected letters ("not B", "B is wrong", "B? No.")
    and capitals that are words or parts of names are left out."""
    letters = set(options)
    out = []
    partners: set[int] = set()           # where the second letter of "A or B" stands
    rejected: set[int] = set()           # ... and of "not A or C"
    conditional: set[int] = set()        # ... and of "not sure whether it's A or B"

    def own_text_follows(letter, after):  # "D: no pets" names D's text, it is no verdict
        dash = _DASH_LEAD.match(after)
        return bool(dash) and _text_at(after, dash.end(), options[letter]) is not None

    rejected_at: dict[str, int] = {}     # where each rejected letter was rejected
    short = len(re.findall(r"[\w'’/]+", text)) <= _SHORT_REPLY_WORDS
    first_word = re.search(r"\w", text)
    first_word = first_word.start() if first_word else len(text)
    asking = [q.span() for q in _ASKING.finditer(text)]
    previous_end = 0                     # where the previous letter (asserted or not) ended
    text_until = 0                       # the end of an option's text that follows its letter
    bracketed_texts = {o.strip() for o in options.values() if re.fullmatch(r"[\(\[]\s*[a-z]\s*[\)\]]", o.strip())}
    for m in _MENTION.finditer(text):
        raw = m.group(1) or m.group(2) or m.group(3)
        wrapped = m.group(3) is None
        letter = raw.upper()
        if letter not in letters or m.start() < text_until:
            continue                      # "F. B, A, D, C": the letters of F's own text
        if wrapped and m.group(0).strip() in bracketed_texts:
            continue                      # "(a)" when an option's text is "(a)": that text, no letter
        start = m.start()
        lo = _window_start(text, start)

        def before_has(pattern, end=start):
            return pattern.search(text, lo, end) is not None

        after = text[m.end():]
        after = re.sub(r"^['’]s\b", " is", after)       # "B's the answer"
        # the words that lead up to this letter in its sentence: "..., but now it's B"
        lead = re.split(r"[.!?\n]", text[previous_end:m.start()])[-1]
        previous_end = m.end()
        if not wrapped and (_WORD_PART_AFTER.match(after) or before_has(_WORD_PART_BEFORE)
                            or _in_name(text[lo:start], after, options)):
            continue                      # "B-movie", "D.C.", "Q&A", "Dr. A. Smith", "C++", "Aunt B"
        # the letter listed with this one ("A or B", "A) red and B) blue"), and where it stands
        shift = _text_at(after, (_WRAPPED_LABEL_LEAD if wrapped else _LABEL_LEAD).match(after).end(),
                         options[letter]) or 0
        text_until = m.end() + shift
        other = _JOINED.match(after[shift:])
        if other and (other.group(1).upper() not in letters or (
                not re.search(r"(?i)\b(?:or|and)\b", other.group(0))
                and _CLAUSE_VERB.match(after[shift + other.end():]))):
            other = None                  # "I'd answer D; C is a distractor": a new clause, not a list
        other_at = m.end() + shift + other.start(1) if other else -1
        if (m.start(m.lastindex) in conditional or before_has(_HYPOTHETICAL_BEFORE)
                or _CONDITIONAL_AFTER.match(after)):
            if other:
                conditional.add(other_at)
            continue                      # "So, if it's A, then ...", "not sure whether it's A or B"
        if m.start(m.lastindex) in rejected or before_has(_NEGATED_BEFORE):
            if other and re.search(r"(?i)\b(?:or|and)\b|[/&]", other.group(0)):
                rejected.add(other_at)
            rejected_at.setdefault(letter, m.end())
            continue                      # "not B", "rather than B", "I wouldn't choose B", "not A or C"
        mark = _mark_verdict(text[text.rfind("\n", 0, start) + 1:start], after, options[letter])
        own_end = _text_at(after, _OWN_TEXT_LEAD.match(after).end(), options[letter], _DASH_AHEAD)
        verdict = _VERDICT_AFTER.match(after[own_end:] if own_end else after)
        if verdict and normalize_answer(verdict.group(1)) != normalize_answer(options[letter]):
            mark = 1 if verdict.group(1).lower() in _POSITIVE_VERDICT else -1
        if (mark < 0 or _NEGATED_AFTER.match(after) or _ANSWERED_NO.match(after)
                or _RETRACTED.match(after) or (_REJECTING_VERDICT.match(after) and not own_text_follows(letter, after))):
            rejected_at.setdefault(letter, m.end())
            continue                      # "❌ B", "B is incorrect, so A", "B? No.", "B... wait"
        answered = bool(_ANSWERED_YES.match(after))
        if not answered and (any(a <= m.start() < b for a, b in asking) or _QUESTIONED.match(after)):
            continue                      # "Could it be A?", "Do you mean A or B?", "B?", "B, I guess?"
        decided = (mark > 0 or bool(_STRONG_AFTER.match(after)) or answered
                   or bool(shift and _STRONG_AFTER.match(after[shift:]))     # "B. 12 Pa is the closest"
                   or before_has(_STRONG_BEFORE, _without_option_word(text, lo, start))
                   or before_has(_CONCLUSION_BEFORE))
        if not decided and before_has(_ARROW_BEFORE) and re.match(r"\s*[\)\]]?\s*[.!]?\s*$", after):
            decided = True                # "You said blue: B." at the end of the reply
        labelled = decided or before_has(_STRONG_BEFORE)
        if raw.islower() and not wrapped and not (
                (labelled and re.match(r"\s*(?:[-–—:,.;!)\]]|$|(?:is|was|would|seems|fits|matches|works|because"
                                       r"|since)\b)", after))
                or (short and raw != "i" and _LOWER_END.match(after))):
            continue                      # "a" is an article ("the answer is a dog"), "b" a stray word
        alone = first_word >= start and bool(re.match(r"[ \t]*[.:)]?[ \t]*(?:\n|$)", after))
        if raw in ("I", "A") and not (wrapped or labelled or alone
                                      or (text[start - 1:start] in "'‘" and after[:1] in "'’")):
            # "I think": a pronoun. "A red car": an article at the start of a sentence unless a
            # predicate or punctuation follows ("A is correct"); mid-sentence ("Looks like A to
            # me") a capital "A" is a letter.
            if raw == "I" or (before_has(_SENTENCE_START) and not _PREDICATE_AFTER.match(after) and not other
                              and not (short and _LOWER_END.match(after))):     # "A for sure."
                continue
        if raw == "I" and not wrapped and _PRONOUN_AFTER.match(after):
            continue                      # "Therefore, I made a mistake": a pronoun after a label too
        if not (wrapped or labelled) and _is_initial(after, options):
            continue                      # "A. Smith told you", "You told B. Jones"
        if (not decided and first_word >= start and _OPENING_END.match(after)
                and not any(e.group(1) in letters and e.group(1) != letter
                            for e in _ENUMERATED.finditer(text))):
            decided = labelled = True     # "B. You told me blue. A would mean red."
        if not decided and letter in rejected_at and not _REVISION.search(text, rejected_at[letter], m.start()):
            continue                      # "Was it D? I don't think so: D is no pets ... It was B."
        describes = None if decided else _DESCRIBES_LEAD.match(after)
        described = bool(describes) and _text_at(after, describes.end(), options[letter]) is not None
        # "A or B", "either A or B", "torn between A and B": two candidates
        if other:
            partners.add(other_at)
        joined = bool(other or m.start() in partners
                      or m.start(m.lastindex) in partners
                      or before_has(_PAIR_WORD_BEFORE)
                      or before_has(_ALTERNATIVE_BEFORE) or _ALTERNATIVE_AFTER.match(after)
                      or (_PEER_BARE.match(after) and before_has(_CLAUSE_OPEN)))
        if joined and re.match(r"[^.!?\n]*\?", after):
            continue                      # a list put as a question: "A, B, or C? B."
        current = bool(_CURRENT.search(lead) or _CURRENT_AFTER.match(after))
        out.append(_Mention(m.start(), m.end(), letter, DECISIVE if decided else DESCRIBED if described
                            else LABELLED if labelled else PLAIN, joined, current))
    return out


def _superseded(text: str, mentions: list, markers: re.Pattern) -> str | None | bool:
    """The letter stated after the last marker that has statements on both sides (None when
    several letters follow it), or False when no marker splits the statements."""
    for mark in reversed(list(markers.finditer(text))):
        later = {m.letter for m in mentions if m.start >= mark.end()}
        if later and any(m.start < mark.start() for m in mentions):
            return later.pop() if len(later) == 1 else None
    return False


def _revised(text: str, mentions: list[_Mention]) -> str | None:
    """The letter a revision commits to, whatever the standing of what it revises ("Answer: A, but
    actually B"): the firmest letter stated after the last revision that follows a statement."""
    for mark in reversed(list(_REVISION.finditer(text))):
        later = [m for m in mentions if m.start >= mark.end()]
        if later and any(m.start < mark.start() for m in mentions):
            top = max(m.level for m in later)
            letters = {m.letter for m in later if m.level == top}
            return letters.pop() if len(letters) == 1 else None
    return None


def _settle(text: str, mentions: list[_Mention]) -> str | None:
    """One letter from mentions of equal standing: the letter when they agree. When they differ,
    the final committed statement wins: the letter stated after the last revision ("Answer: A.
    Actually, wait - ... Answer: B", "I'm changing my answer to C"), else the one letter stated as
    the present or latest value ("It was A, but now it's B"), else, between answer statements, the
    one after a contrast ("A is correct by your first message, but the answer is B"); otherwise
    None (two letters asserted)."""
    letters = {m.letter for m in mentions}
    if len(letters) == 1:
        return mentions[0].letter
    revised = _superseded(text, mentions, _REVISION)
    if revised is not False:
        return revised
    current = {m.letter for m in mentions if m.current}
    if len(current) == 1 and len(current) < len(letters):
        return current.pop()
    if mentions[0].level == DECISIVE:
        contrasted = _superseded(text, mentions, _CONTRAST)
        if contrasted is not False:
            return contrasted
        concluded = _superseded(text, mentions, _CONCLUDING)
        if concluded is not False:        # "The answer is B. <working> Therefore ... option E."
            return concluded
    return None


def extract_choice(prediction: str, options: dict[str, str]) -> str | None:
    """The option letter a reply chose, or None when it names none or asserts several.

    The reply is what follows a reasoning block ("<think>...</think> B"); a JSON answer field
    ({"answer": "B"}, {"final_answer": "(B) blue"}, {"result": {"answer": "B"}}; the shallowest
    answer field, an object read through its own answer field or text) is read on its own; \\boxed{B} is an answer
    label. Then, in order: the whole reply is a letter ("B", "(b)", "B."); letters under an answer
    label, after a conclusion or beside a check mark ("Answer: B", "The answer is (B)", "I choose
    option B", "B is correct", "..., so B", "Therefore, B", "B ✅", "[x] B", "B? Yes."); letters
    labelled ("Option B", "I pick B"); any other letter standing alone ("I'd go with B", "B, because
    ...", "**B**", "B) blue"); the text of exactly one option ("It was blue"), matched as a whole
    phrase, the longest option winning where one contains another ("dark red" is not "red"), not
    inside a question ("Was it blue?").

    A reply's final committed statement is its answer. A revision ("Actually, wait", "scratch
    that", "or rather", "I'm changing my answer to C", "I'll revise that to C") commits to the
    firmest letter after it, whatever the standing of what it revises ("Answer: A, but actually
    B"). Where letters of one standing still differ, the one stated as the present or latest value
    wins ("It was A, but now it's B", "your latest message points to B", "B is current"), then,
    between answer statements, the one after a contrast ("A is correct by your first message, but
    the answer is B"); otherwise none. Option texts are settled the same way ("You mentioned red,
    but later blue"). A letter offered as one candidate ("it could also be B", "B, or even
    something else", "B might be right too") counts as listed. A letter inside a condition ("So,
    if it's A, then ...", "If it were A", "Assuming A were right") and a guess put as a question
    ("Maybe B?", "B, I guess?", "B?") state nothing, and a list put as a question ("A, B, or C?")
    is considered, not asserted.

    A letter after "not", "rather than", "over", "instead of", "rule out", "eliminate", a negated
    verb ("I wouldn't choose B", "I don't think it's B"), or before "is incorrect/wrong/outdated",
    "can't be right", "contradicts", "? No", "... wait", is not chosen; what "leaves"/"remains" is
    asserted. A cross or an empty checkbox rejects a letter ("❌ B", "[ ] B", "| B | no |"). Two
    letters asserted alike or listed ("A or B", "Could be A, could be B", "torn between A and B",
    "Answer: A, C", "A/D", "A? C?") give None, unless a committed statement follows the list ("A
    or B? You said blue, so B"). A letter described as the former value ("B was before you changed
    it", "A would have been true last year", "A was correct, but not anymore", "A is no longer
    true", "My first instinct was A", "Originally A", "changed it from A") is not chosen, nor is a
    letter a verdict after its option's text rejects ("A) red - outdated"). Capitals inside
    abbreviations, names and initials ("A. Smith told you", "You told B. Jones"; a capitalised
    word after "X. " that is neither a common sentence opener nor an option's first word), "B-movie",
    "B-52s", "D.C.", "Q&A", "C++", "A+", "Dr. A. Smith") and capitals that name things ("vitamin C", "Plan B", "Team B",
    "Room D") are not letters. A lower-case "a" counts only in brackets or after a label; "I"
    never counts bare; a capital "A" at the start of a sentence only when a predicate, a verb or
    punctuation follows ("A is correct", "A does", not "A red car", which falls through to the
    option text), mid-sentence always ("Looks like A to me"). A reply that refuses names no option.

    Round 7: full-width forms read as ASCII ("Ｂ", "（B）", "答案：B") and a letter touching another
    script stands alone ("答案是B。", "B选项", "정답은 D입니다"); answer words of other languages are
    read as English ("答案", "Ответ", "Respuesta", "Réponse", "Antwort", "الإجابة", "不是 A" / "Не A" /
    "No es A" / "Nicht A" / "AではなくB"); "the second option" is option B. In a reply of a few
    words a lower-case letter is a choice ("i think a", "ans: d", "b lol"; "b?" still hedges).
    Evidence verbs commit ("the chat supports B", "which matches B", "only B fits", "B fits
    better", "B wins", "B it is") and, negated, reject ("doesn't match A", "nothing supports A"). A
    letter asked about and answered no ("Was it D? I don't think so") or otherwise rejected stays
    rejected unless a revision or a decisive statement names it again; a letter described by its own
    option's text ("D is green", "A would mean red") is named, not chosen. Uncertainty over a list
    ("not sure whether it's D or A", "can't tell if it's A or B") and a letter with a condition
    after it ("A if you mean last year") state nothing. A letter that opens the reply on its own
    ("B. You told me ...", "**C**. Here's why: ...") is its answer unless the reply walks through
    the options ("A: ... B: ..."); a letter that closes the reply after a colon or arrow ("You said
    blue: B") is a conclusion; after a list ("Either A or B"), a letter stated in a later clause
    decides. A verdict after a dash ("A – not mentioned") rejects; quoted letters ("'B'", "‘B’")
    count; "N/A" and double initials ("B. J. told you") do not.

    Round 8: a rejecting label ("Incorrect answers: B", "Wrong: C") and a hypothesis set aside ("I
    was about to say D", "I initially considered D", "At first glance D", "You might think D", "D is
    a trick", "D no longer applies", "B, with C a close second") reject; "as well as", "+", "plus",
    "along with" list two letters, as do two letters with their texts ("A) red and B) blue"); a
    sentence opening with "Or" offers an alternative; a letter pair before a noun ("A/B testing"),
    "Ph.D.", "Area C" and chat-template tokens are not letters; among option texts a conclusion
    decides ("..., so the answer is dark red").

    Round 9: a letter glued to its own option's text reads apart ("A.Yes", "D:green", "(B)blue");
    a capital after a capitalised word mid-sentence, a kin or role word, a grade verb, or between
    "the" and a noun is a name ("with Jay B", "Aunt B", "got an A", "the B train"); a letter given
    the status of the one before it ("and so does B", "as is B", "Also B", "B as well", "B also
    fits", "B is another") makes two options; "I can't tell which" after unlabelled letters and "...,
    but I honestly don't know" after a guess state nothing; negated evidence at a distance ("I don't
    see anything supporting B"), "B never came up", "B came to mind first", "B is close, but no",
    "Cross off B" reject, so a commitment before them stands.

    Round 10 (real replies to MMMU-Pro): letters inside TeX maths ("\\(A\\) is the area", "$h_{AB}$")
    are variables, unless a lone letter is stated as the answer ("Answer: \\( \\text{(H)} \\)",
    "Answer: $C$"); the letters of an option's own text after its letter ("F. B, A, D, C") are that
    text; "(a)" is an option's text when one option's text is "(a)"; a last line "Answer: <the whole
    text of one option>" chooses it; "Conclusion:" labels an answer; "Therefore, I made ..." is a
    pronoun; "°C" a unit; "is one semitone smaller" no verdict.

    Round 11 (the first real held-out half, once measured): a last line "Answer: X" (alone, with
    its option's text, in TeX) is the answer unless another "Answer:" line says otherwise, and
    "Answer: None of the above" names none; "B is the closest" commits; after the working, a
    conclusion ("Therefore ... option E") supersedes an opening claim; "impossible to choose"
    after unlabelled letters names none; a capital after one Greek letter is a symbol ("Δ B"); a
    reply that opens with "I" alone on its line chose I.
    """
    if not options or prediction is None:
        return None
    prediction = _plain_script(str(prediction))
    value = _json_answer(prediction)
    if value is not _NO_FIELD:
        if value is None or value.strip().lower() in ("", "null", "none"):
            return None
        return extract_choice(value, options)
    fields = list(_JSON_ANSWER.finditer(str(prediction)))
    if fields:
        value = fields[-1].group(1)
        if value.lower() in ("null", "none"):
            return None
        return extract_choice(value.strip("[]'\" "), options) if value.strip("[]'\" ") else None
    answered = _reply_text(str(prediction))
    reply = _MARKUP.sub(" ", answered).strip()
    if not reply:
        return None
    final = _final_answer_line(answered, options)
    if final is not _NO_FIELD:
        return final
    letters = set(options)
    # letters are read without TeX formulas, with answer words of other languages in English and
    # "the second option" as "option B"; option texts are matched in the reply as written
    text = _MARKUP.sub(" ", _letters_in_math(answered)).strip()
    text = _ordinals_as_letters(_english_labels(text), options).strip()
    text = _unglued(_COMPOUND_PAIR.sub("#/#", text), options)

    m = re.fullmatch(r"[\(\[]?\s*([A-Za-z])\s*[\)\]]?\s*[.:!]*", text)
    if m and m.group(1).upper() in letters:
        return m.group(1).upper()

    mentions = _mentions(text, options)
    if mentions and all(m.level < DECISIVE for m in mentions) and any(
            u.start() > mentions[-1].end for u in _UNDECIDED.finditer(text)):
        return None                       # "A in one message, B in another; I can't tell which you meant"
    revised = _revised(text, [m for m in mentions if not m.joined])
    if revised:
        return revised
    joined = [m for m in mentions if m.joined]
    if joined:
        # "A or B" is two candidates, unless a committed statement follows the list
        later = [m for m in mentions if m.start > joined[-1].end]
        if later and re.search(r"[.!?;:—–]|\s-\s", text[joined[-1].end:later[0].start]):
            top = max(m.level for m in later)
            return _settle(text, [m for m in later if m.level == top])
        mentions = [m for m in later if m.level == DECISIVE]
        return _settle(text, mentions) if mentions else None
    for level in (DECISIVE, LABELLED, PLAIN, DESCRIBED):
        tier = [m for m in mentions if m.level == level]
        if tier:
            return _settle(text, tier)
    from evaluator.scoring.refusal import is_refusal

    if is_refusal(reply):
        return None
    return _by_option_text(reply, {k: unicodedata.normalize("NFKC", v) for k, v in options.items()})


def gold_choice(gold: object, options: dict[str, str]) -> str | None:
    """The letter of the gold answer ("B", "(B) blue" or the option text "blue"); with a list of
    gold answers, the first that names an option."""
    candidates = gold if isinstance(gold, (list, tuple)) else [gold]
    for g in candidates:
        if g is None:
            continue
        letter = extract_choice(str(g), options)
        if letter:
            return letter
    return None
