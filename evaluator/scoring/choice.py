"""Multiple choice: find the options a question lists and the option a reply chose.

Options are recognised when a question lists at least two consecutive letters starting at A,
either one per line ("(A) red", "A. red", "A) red", "A: red", "[A] red") or inline with
parenthesised or right-bracketed letters ("... (A) red (B) blue", "... A) red B) blue"), and as a last resort
inline "A. red B. blue".
"""

from __future__ import annotations

import re

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
_MARKUP = re.compile(r"[*_`#\\{}\"]+|</?\w+>|\\boxed")
_MENTION = re.compile(r"(?<![\w'’])(?:\(\s*([A-Za-z])\s*\)|\[\s*([A-Za-z])\s*\]|([A-Za-z]))(?![\w'’])")
# what makes a letter an assertion: a label before it, or a predicate after it
_STRONG_BEFORE = re.compile(
    r"(?i)(?:\b(?:final\s+)?answer(?:\s+(?:is|would\s+be|should\s+be|will\s+be|=))?|\boption|\bchoice"
    r"|\bcorrect(?:\s+(?:answer|option|choice|response|one))?(?:\s+(?:is|would\s+be))?|\bresponse(?:\s+is)?"
    r"|\bselected|\bfinal|\bmy\s+(?:answer|choice|pick)(?:\s+is)?|\bright\s+one\s+is"
    r"|\bbest\s+answer\s+is|\bselect|\bchoose|\bchoosing|\bpick|\bgo(?:ing)?\s+with"
    r"|\bleaves|\bleaving|\bremains(?:\s+is)?|\bleft\s+(?:with|is))\s*[:=\-–—]*\s*$")
# "option B" / "choice B" alone names a letter; an answer label ("Answer: B", "I pick option B",
# "B is correct", a check mark) decides between named letters
_OPTION_WORD = re.compile(r"(?i)\b(?:option|choice)\s*[:=\-–—]*\s*$")
_PREDICATE_AFTER = re.compile(
    r"(?i)^\s*(?:is|was|would|seems|should|looks|fits|it\b|because|since|as\b|rather|over|and|or|"
    r"(?:does|did|matches|works|applies|holds|remains|has|had|describes|corresponds|sounds)\b|"
    r"[-–—:,.;!?/&)\]]|$)")
_STRONG_AFTER = re.compile(
    r"(?i)^\s*(?:\)\s*)?(?:is|would\s+be|seems|should\s+be)\s+(?:the\s+|my\s+)?(?:final\s+)?"
    r"(?:correct|right|answer|one|best|choice)")
_NEGATED_BEFORE = re.compile(
    r"(?i)(?:\bnot|n't|\bnor|\bneither|\brather\s+than|\bover|\binstead\s+of|\bthan|\bexcept|\bthought"
    r"|\brul(?:e|ed|ing)\s+out|\beliminat(?:e|ed|ing)|\bexclud(?:e|ed|ing)|\bdiscard(?:ed|ing)?"
    r"|\bcross(?:ed|ing)?\s+out)(?:\s+option)?\s*[\(\[]?\s*$")
# "B is incorrect", "B is wrong", "B can't be right", "B doesn't fit": the letter is rejected; so is
# a letter described as the former value ("B was before you changed it", "B used to be right")
_NEGATED_AFTER = re.compile(
    r"(?i)^\s*[\)\]]?\s*(?:(?:is|was|seems|looks|would\s+be)\s+(?:incorrect|wrong|false|not\b|out\b"
    r"|ruled\s+out|eliminated|unlikely|impossible)"
    r"|(?:was|were)\s+(?:before|earlier|previously|originally|at\s+first"
    r"|(?:the|your)\s+(?:old|previous|earlier|original|former)|what\s+you\s+(?:had|said)\s+(?:before|earlier|first))"
    r"|used\s+to\s+be\b"
    r"|(?:isn't|wasn't|can't|cannot|couldn't|doesn't|does\s+not)\b)")
# two letters listed alike: "A or B", "A and B", "A/B", "A & B", "A, B", "A; B"
_JOINED = re.compile(r"(?i)^\s*[\)\]]?\s*(?:(?:[,;]\s*)?(?:or|and)\b|[,;/&])\s*(?:option\s*)?"
                     r"[\(\[]?\s*([A-Za-z])\s*[\)\]]?(?![\w'’])")
# a capital inside an abbreviation or a name, not an option letter: "B-movie", "A-list", "D.C.",
# "B&B", "Q&A", "Dr. A. Smith", and a capital that names a thing: "vitamin C", "Plan B", "gate A"
_WORD_PART_AFTER = re.compile(r"^[-.&][A-Za-z]")
_WORD_PART_BEFORE = re.compile(
    r"(?:(?<![\w'’])[A-Za-z][-.&]|\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|Rev|Sr|Jr|St|Capt|Col|Gen|Lt|Sgt)\.?\s+"
    r"|\b(?i:vitamin|plan|type|grade|hepatitis|blood\s+group|group|gate|terminal|platform|exit|wing|block"
    r"|row|tier|category|size|cup|class)\s+)$")
# check and cross marks beside a letter ("A ✅", "✅ A  ❌ B", "| B | ✓ |") and yes/no table cells
# ("| A | yes |"): a line that starts with a mark puts marks before letters, otherwise after.
_CHECKS, _CROSSES = "✅✔✓☑", "❌✗✘✖❎"
_MARK_FIRST_LINE = re.compile(rf"^[\s|>*\-]*[{_CHECKS}{_CROSSES}]")
_MARK_BEFORE = re.compile(rf"([{_CHECKS}{_CROSSES}])\ufe0f?\s*$")
_MARK_AFTER = re.compile(rf"^\s*[|:,\-–—]?\s*([{_CHECKS}{_CROSSES}])")
_CELL_AFTER = re.compile(r"(?i)^\s*\|\s*(yes|true|correct|right|no|false|incorrect|wrong)\s*(?:\||$)")

# where a capital "A" can be the article: at the start of a sentence, a line or a clause after ":"
_SENTENCE_START = re.compile(r"(?:^|[.!?:\n])[\s\"'“‘(\[-]*$")
_NEGATED_TEXT = re.compile(r"\b(?:not|nor|than|instead of|over|neither)\s*$")


def _mark_verdict(before: str, after: str) -> int:
    """+1 when a check mark (or a "yes" table cell) goes with the letter, -1 for a cross (or "no"),
    0 for neither. `before`/`after` are the text around the letter."""
    line_before = before.rsplit("\n", 1)[-1]
    line_after = after.split("\n", 1)[0]
    if _MARK_FIRST_LINE.match(line_before):
        m = _MARK_BEFORE.search(line_before)
        mark = m.group(1) if m else None
    else:
        m = _MARK_AFTER.match(line_after)
        mark = m.group(1) if m else None
        if mark is None and (cell := _CELL_AFTER.match(line_after)):
            return 1 if cell.group(1).lower() in ("yes", "true", "correct", "right") else -1
    if mark is None:
        return 0
    return 1 if mark in _CHECKS else -1


def _letter_of(token: str) -> tuple[str, bool]:
    """('B', wrapped) from 'B', '(b)', '[B]'."""
    wrapped = token[0] in "(["
    return token.strip("()[] ").upper(), wrapped


def _by_option_text(text: str, options: dict[str, str]) -> str | None:
    norm_text = normalize_answer(text)
    padded = f" {norm_text} "
    if not padded.strip():
        return None
    hits = {}
    for letter, option in options.items():
        norm = normalize_answer(option)
        if not norm:
            continue
        at = [m.start() for m in re.finditer(re.escape(f" {norm} "), padded)]
        # "red, not blue": an option named only after "not" is not chosen
        if any(not _NEGATED_TEXT.search(padded[:i]) for i in at):
            hits[letter] = norm
    # "dark red" also contains the option "red": keep only matches not inside a longer match.
    kept = [l for l, n in hits.items()
            if not any(o != l and len(m) > len(n) and f" {n} " in f" {m} " for o, m in hits.items())]
    return kept[0] if len(kept) == 1 else None


def _asserted_letters(text: str, letters: set[str]) -> tuple[list[str], list[str], list[str], bool]:
    """(letters under an answer label, labelled letters, other asserted letters, two letters joined
    by or/and)."""
    decisive, strong, plain, joined = [], [], [], False
    for m in _MENTION.finditer(text):
        raw = m.group(1) or m.group(2) or m.group(3)
        wrapped = m.group(3) is None
        letter = raw.upper()
        if letter not in letters:
            continue
        before, after = text[:m.start()], text[m.end():]
        if not wrapped and (_WORD_PART_AFTER.match(after) or _WORD_PART_BEFORE.search(before)):
            continue                      # "B-movie", "D.C.", "Q&A", "Dr. A. Smith"
        mark = _mark_verdict(before, after)
        if mark < 0 or _NEGATED_AFTER.match(after):
            continue                      # "❌ B", "| B | no |", "B is incorrect, so A"
        decided = (mark > 0 or bool(_STRONG_AFTER.match(after))
                   or bool(_STRONG_BEFORE.search(_OPTION_WORD.sub("", before))))
        labelled = decided or bool(_STRONG_BEFORE.search(before))
        if raw.islower() and not wrapped and not (
                labelled and re.match(r"\s*(?:[-–—:,.;!)\]]|$|is\b|because\b|since\b)", after)):
            continue                      # "a" is an article ("the answer is a dog"), "b" a stray word
        if raw in ("I", "A") and not (wrapped or labelled):
            # "I think": a pronoun. "A red car": an article at the start of a sentence unless a
            # predicate or punctuation follows ("A is correct"); mid-sentence ("Looks like A to
            # me") a capital "A" is a letter.
            if raw == "I" or (_SENTENCE_START.search(before) and not _PREDICATE_AFTER.match(after)):
                continue
        if _NEGATED_BEFORE.search(before):
            continue                      # "not B", "rather than B", "B over C"
        # "A or B", "either A or B", "torn between A and B": two candidates
        other = _JOINED.match(after)
        if (other and other.group(1).upper() in letters) or re.search(
                r"(?i)\b(?:either|both|between)\s*[\(\[]?\s*$", before):
            joined = True
        (strong if labelled else plain).append(letter)
        if decided:
            decisive.append(letter)
    return decisive, strong, plain, joined


def extract_choice(prediction: str, options: dict[str, str]) -> str | None:
    """The option letter a reply chose, or None when it names none or asserts several.

    Read in order: the whole reply is a letter ("B", "(b)", "B."); letters asserted with a label
    ("Answer: B", "The answer is (B)", "Option B", "I choose B", "B is correct", "B is the
    answer"); any other letter standing alone ("I'd go with B", "B, because ...", "**B**",
    "B) blue"); the text of exactly one option ("It was blue"). A letter after "not", "rather
    than", "over", "instead of", "rule out", "eliminate", or before "is incorrect/wrong", "can't be
    right", is not chosen ("B, not A"; "Not A; the answer is C"; "B is incorrect, so A"), and what
    "leaves"/"remains" is asserted. A check mark beside a letter asserts it, a cross rejects it
    ("A ✅", "✅ A  ❌ B", markdown table rows "| A | yes |"). Two letters asserted alike or listed
    ("A or B", "Could be A, could be B", "torn between A and B", "Answer: A, C", "A/D", "A? C?")
    give None; among letters merely named ("option D says ..., option B matches"), the one under an
    answer label ("Answer: B", "B is correct") is chosen. A letter described as the former value
    ("B was before you changed it") is not chosen. Capitals inside abbreviations and names
    ("B-movie", "D.C.", "Q&A", "Dr. A. Smith") and capitals that name things ("vitamin C", "Plan
    B") are not letters. A lower-case "a" counts only in brackets or after a label; "I" never
    counts bare; a capital "A" at the start of a sentence only when a predicate, a verb or
    punctuation follows ("A is correct", "A does", not "A red car", which falls through to the
    option text), mid-sentence always ("Looks like A to me"). A reply that refuses names no option.
    """
    if not options or prediction is None:
        return None
    text = _MARKUP.sub(" ", str(prediction)).strip()
    if not text:
        return None
    letters = set(options)

    m = re.fullmatch(r"[\(\[]?\s*([A-Za-z])\s*[\)\]]?\s*[.:!]?", text)
    if m and m.group(1).upper() in letters:
        return m.group(1).upper()

    decisive, strong, plain, joined = _asserted_letters(text, letters)
    if joined:
        return None                       # "A or B", "Answer: A, C", "A/D": several candidates
    if decisive:                          # "Option D says ...; option B matches. Answer: B."
        return decisive[0] if len(set(decisive)) == 1 else None
    if strong:
        if len(set(strong)) == 1:
            return strong[0]
        return None
    if plain:
        return plain[0] if len(set(plain)) == 1 else None
    from evaluator.scoring.refusal import is_refusal

    if is_refusal(text):
        return None
    return _by_option_text(text, options)


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
