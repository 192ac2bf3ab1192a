"""The refusal reader's rules as a table of named cues (issue 27): each cue's examples read as
stated and fire that cue; every stage reads its cues in table order, so that removing, reordering
or changing a cue in (a copy of) the table changes verdicts without a code edit; the rules version."""

from __future__ import annotations

import importlib.util
import json
import re
import sys

import pytest

from evaluator.scoring import refusal
from evaluator.scoring.refusal import CUES, explain, rules_verdict, rules_version, trace

EXAMPLES = [(cue["name"], ex) for cue in CUES for ex in cue["examples"]]
STAGES = ("reply", "clause", "clause caveat", "clause in context", "question", "decide")
STEPS = {"reply": "_REPLY_STEPS", "clause": "_CLAUSE_STEPS", "clause caveat": "_CAVEAT_STEPS",
         "clause in context": "_CONTEXT_STEPS", "question": "_QUESTION_STEPS", "decide": "_DECIDE_STEPS"}


@pytest.mark.parametrize("name, example", EXAMPLES, ids=[f"{n}:{e[0][:40]}" for n, e in EXAMPLES])
def test_each_cue_example_reads_as_stated_and_fires_that_cue(name, example):
    text, question, expected = example
    assert rules_verdict(text, question) is expected
    assert name in trace(text, question)


def test_every_cue_is_documented_with_an_example_and_known_terms():
    names = [c["name"] for c in CUES]
    assert len(names) == len(set(names))
    for cue in CUES:
        assert cue["doc"] and cue["examples"] and cue["stage"] in STAGES, cue["name"]
        assert re.fullmatch(r"[a-z][a-z-]*", cue["name"]), cue["name"]
        if cue["stage"] == "clause":
            assert cue["name"] in refusal.PATTERNS or cue.get("when") or cue["name"] == "content", cue["name"]
    assert set(refusal.PATTERNS) <= set(names)


def test_the_clause_cues_are_read_in_table_order():
    table = [c["name"] for c in CUES if c["stage"] == "clause"]
    assert [step[0] for step in refusal._CLAUSE_STEPS] == table
    # a decline of the answer itself before a refusal, refusals before hedges, content last
    assert table.index("decline-speaker") < table.index("refuse-speaker") < table.index("hedge-unsure")
    assert table[-1] == "content"


def test_explain_names_each_clause_cue_and_keeps_its_shape():
    assert [k for _, k in explain("Sorry, it wasn't mentioned.")] == ["filler", "refuse"]
    assert explain("Sorry, it wasn't mentioned.", cues=True) == [
        ("sorry", "filler", ("filler-word",)), ("it wasnt mentioned", "refuse", ("refuse-passive",))]


def test_rules_version_is_recorded_beside_the_letter_reader():
    from evaluator.scoring.version import rules_versions

    assert re.fullmatch(r"[0-9a-f]{12}", rules_version())
    assert rules_versions()["refusal"] == rules_version()


def test_the_table_lists_its_stages_in_reading_order():
    assert [STAGES.index(c["stage"]) for c in CUES] == sorted(STAGES.index(c["stage"]) for c in CUES)


@pytest.mark.parametrize("stage", STAGES)
def test_every_stage_runs_its_cues_in_table_order(stage):
    run = getattr(refusal, STEPS[stage])
    assert [(s.name, s.effect) for s in run] == [(c["name"], c["effect"]) for c in CUES if c["stage"] == stage]


def _fresh(name: str):
    spec = importlib.util.find_spec(name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reader_over(rows: list, tmp_path, monkeypatch):
    """A fresh copy of the refusal reader whose table is `rows`, written to a JSON file as the shipped
    table is and read back (the package's own modules are left as they are)."""
    import evaluator.scoring as package
    from evaluator.scoring.cue_engine import load_table

    copy = tmp_path / "refusal_cues.json"
    copy.write_text(json.dumps(rows, ensure_ascii=False), "utf-8")
    cues = _fresh("evaluator.scoring.refusal_cues")
    cues.CUES = load_table(copy)
    monkeypatch.setattr(package, "refusal_cues", cues)
    monkeypatch.setitem(sys.modules, "evaluator.scoring.refusal_cues", cues)
    return _fresh("evaluator.scoring.refusal")


def _table(drop=(), first=None, effect=None) -> list:
    """The shipped table without the cues named in `drop`, with cue `first` moved to the head of its
    stage, and with `effect` = (cue, new effect) applied."""
    rows = [dict(c) for c in CUES if c["name"] not in drop]
    if first:
        row = next(c for c in rows if c["name"] == first)
        rows.remove(row)
        rows.insert(next(i for i, c in enumerate(rows) if c["stage"] == row["stage"]), row)
    for row in rows:
        if effect and row["name"] == effect[0]:
            row["effect"] = effect[1]
    return rows


@pytest.mark.parametrize("change, text, question, before", [
    # removing a decide cue: the guess no longer answers after "I'm not sure"
    ({"drop": ["commit-answers"]}, "I'm not sure, I think it was May.", None, False),
    # ... nor the first refusal declines
    ({"drop": ["declines-first"]}, "I can't remember.", None, True),
    # ... and an aside takes a stance: its guess answers
    ({"drop": ["aside"]}, "I don't know (maybe around March 15).", None, True),
    # reordering decide cues: a guess read before the aside cue answers from inside the brackets
    ({"first": "commit-answers"}, "I don't know (maybe around March 15).", None, True),
    # removing a question cue: a refusal of what was asked no longer declines over the answer before it
    ({"drop": ["declines-asked"]}, "The messages mention autographed baseballs: you have 15. There is no "
     "mention of autographed footballs.", "How many autographed footballs do I have?", True),
    # removing a whole-reply cue: the final "Answer:" no longer decides
    ({"drop": ["final-answer"]}, "I don't remember the exact day. Answer: in May", None, False),
    # changing a whole-reply cue's effect: a bare "No" with a third-party reason declines
    ({"effect": ("yes-no-reason", "decline")}, "No, there is no information indicating she is.", None, False),
])
def test_a_changed_table_changes_the_verdict_without_a_code_edit(change, text, question, before, tmp_path,
                                                                  monkeypatch):
    assert rules_verdict(text, question) is before
    reader = _reader_over(_table(**change), tmp_path, monkeypatch)
    assert reader.rules_verdict(text, question) is (not before)
    assert rules_verdict(text, question) is before                 # the package's reader is untouched
    unchanged = _reader_over(_table(), tmp_path, monkeypatch)
    assert unchanged.rules_verdict(text, question) is before


def test_a_cue_whose_effect_the_engine_does_not_know_is_an_error(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="cue 'narrated': effect 'reverse'"):
        _reader_over(_table(effect=("narrated", "reverse")), tmp_path, monkeypatch)
    rows = _table() + [{"name": "new-decide-cue", "stage": "decide", "effect": "answer", "doc": "-", "examples": []}]
    with pytest.raises(ValueError, match="cue 'new-decide-cue' has no test"):
        _reader_over(rows, tmp_path, monkeypatch)


def test_a_long_sentence_is_read_in_linear_time(monkeypatch):
    """A reply of thousands of clauses in one sentence (untrusted bytes) costs work in proportion to
    its length: the words the reader stems grow linearly, not with the square of the clauses (a
    decline that points back looks at most ANTECEDENT_CLAUSES clauses back)."""
    from evaluator.scoring import refusal, refusal_text

    stemmed = []
    real = refusal_text.stem_words
    monkeypatch.setattr(refusal_text, "stem_words", lambda words: stemmed.append(len(words)) or real(words))

    def words_stemmed(n: int) -> int:
        refusal._is_refusal_text.cache_clear()
        refusal_text.content_stems.cache_clear()
        stemmed.clear()
        refusal.rules_verdict("The passage does not mention it, and " * n, "Where did Anna go on her honeymoon?")
        return sum(stemmed)

    small, large = words_stemmed(300), words_stemmed(1200)
    assert small > 0 and large < 6 * small, (small, large)


_PAD = ("The passage does not mention the team that plays at the park or the league it plays in. It discusses rugby, "
        "baseball playoff formats and the history of the towns of the region over the centuries. ")
ROUND_9 = [
    # what a source holds instead of what a decline of the asked thing named is evidence ...
    ("The passage does not mention the River Irk, but rather the River Irwell. The Irwell starts east of Royton.",
     "Where does the River Irk start?", True),
    # ... but after a decline that named none of what was asked, the substitute may be the answer
    ("The passage does not mention Fiji, but rather Bali.", "Where did Anna go?", False),
    ("BSkyB did not remove Sky Italia, but rather acquired it in 2014.", "What year did BSkyB remove Sky Italia?", False),
    # a decline asking which things a statement named only vaguely declines, in any later sentence
    ("The passage states the EU promotes culture through numerous programmes, but it does not specify which ones.",
     "What programs has the EU taken to create this culture?", True),
    ("The constitution can be amended, except for certain entrenched provisions. The passage doesn't specify what "
     "those exceptions are.", "What are the exceptions in the constitution?", True),
    ("Anna went to Bali, but the passage doesn't say when.", "Where did Anna go?", False),
    # a final answer cut before it names more than a source
    (_PAD + "Therefore, the answer is: **The passage does", "Which league does the team play in?", True),
    (_PAD + "Therefore, the answer is: **Major League", "Which league does the team play in?", False),
    # a final answer that says the answer is not given
    ("Based on the information provided, it can be inferred that the delegates from British India and the princely "
     "states attended the conference, but the Indian National Congress did not attend. Therefore, the answer is not "
     "explicitly stated in", "Who attended all three round table conferences?", True),
    ("VideoGuard decoders are not available as stand-alone CAMs. Therefore, the answer is:\n\n\"Not available as stand-alone CAMs\"",
     "What is available as stand-alone CAMs?", False),
    # a reply cut right after a negation ends declining, even after an answer
    (_PAD + "Therefore, we can infer that some of those 50,000 fled before the act. However, the passage doesn't",
     "How many Walloons fled to England before the act?", True),
    # a concession of a decline of what was asked, then what the reply says: an answer
    ("Although the text does not specifically address how to avoid child obesity, it does emphasize an hour of "
     "physical activity a day, which can reduce the risk of obesity.", "How to avoid child obesity?", False),
]


@pytest.mark.parametrize("text, question, expected", ROUND_9, ids=[t[-50:] for t, _, _ in ROUND_9])
def test_chat_round_9_rules_and_where_they_stop(text, question, expected):
    """Round 9 (tuned on draws 4-12): a substitute after a decline, declines that ask "which ones",
    final answers cut at a source or saying the answer is not given, a cut negation, a conceded
    decline of what was asked; each beside a reply where the rule must not fire."""
    assert rules_verdict(text, question) is expected


ROUND_10 = [
    # what an image, a clip or a recording does not let one see or hear declines ...
    ("The plate is blurred in the video, so I can't read it.", "What's the license plate number?", True),
    ("The audio is too faint to identify the song.", "What song was playing?", True),
    ("I can't make out the car's color in that photo; it's too dark.", "What color was the car?", True),
    ("The book's cover is facing away from the camera, so its title can't be seen.", "What is the book's title?", True),
    ("Unfortunately, the restaurant's name doesn't appear in the chat or the photos.", "What was the restaurant?", True),
    # ... but a reason beside an answer, or "too dark" said of something else, does not
    ("The sign is a bit blurry, but it reads 'Closed for renovation'.", "What was written on the sign?", False),
    ("No, Disney released it through Touchstone because they felt it was too dark for a typical Disney release.",
     "Was it originally a Disney movie?", False),
    # the user never said it, a source that does not hold it, a memory without it
    ("You've never mentioned your dog's name to me.", "What's the name of my dog?", True),
    ("Sarah's comments about the trip aren't part of the conversation I can see.", "What did Sarah say?", True),
    ("I don't have a start date for your new job in my memory.", "When did I start my new job?", True),
    # counts in words
    ("You didn't give an exact number, but you said about thirty people came.", "How many people came?", False),
    # a decline of the count asked, after numbers that are not it
    ("The passage states that the Huguenots furnished two new regiments of the army, including the Altpreussische "
     "Infantry Regiments No. 13 and No. 15. However, it doesn't specify how many men were in each regiment.",
     "How many men were in the Altpreussische Infantry No. 15?", True),
    ("You visited 3 museums, though you didn't say how many times you went to each.", "How many museums did I visit?", False),
    # what the question is for is no answer
    ("The passage doesn't mention the song. Therefore, the answer is:\n\n**The passage does not provide this "
     "information.**\n\nIt's designed to see if you'll start pulling information from other sources.", "Who wrote the song?", True),
]


@pytest.mark.parametrize("text, question, expected", ROUND_10, ids=[t[:50] for t, _, _ in ROUND_10])
def test_chat_round_10_rules_and_where_they_stop(text, question, expected):
    """Round 10 (tuned on draw 13 and on hand-written chat/VLM replies): what an image, a clip or a
    recording does not let one see or hear, declines of the user and of a memory, counts in words, a
    decline of the count asked, a remark on what the question is for; each beside a reply where the
    rule must not fire."""
    assert rules_verdict(text, question) is expected


ROUND_11 = [
    # a description, then a decline drawn as its consequence or pointing back at the thing asked
    ("His back is to the camera and the background music drowns out his voice, so I can't make out what he said.",
     "What did the man in the red jacket say to the cashier?", True),
    ("The beneficiary section is on page 2, which isn't included; this scan only shows page 1.", "Who is the beneficiary?", True),
    ("The car is on screen for only a couple of frames, and the plate is a smear of pixels in all of them. I can't "
     "read any of it.", "What's the license plate of the car that hit the bike?", True),
    ("It's in script and partly covered by her sleeve; I can't make it out.", "What's written on the tattoo?", True),
    # ... but a decline of something else after an answer keeps the answer
    ("You went to Bali last May. I can't remember the hotel.", "Where did I go last May?", False),
    ("I can't read it clearly, but it looks like 42.", "What number is on the bib?", False),
    # a page, a clip or a recording that ends, is torn, redacted or silent
    ("The video ends before they cross the finish line.", "Who wins the race?", True),
    ("The video ends with the blue car crossing the line first.", "Who wins the race?", False),
    ("The tenant's name has been redacted in this copy.", "What is the name of the tenant?", True),
    ("Part of the receipt is torn off, but the total is $18.40.", "What's the total on the receipt?", False),
    ("The cat is hidden behind the sofa.", "Where is the cat?", False),
    # an absence on a page: a decline, except when a count was asked
    ("There's no SWIFT code on this page.", "What's the SWIFT code on this bank letter?", True),
    ("There are no people in this photo.", "How many people are in the photo?", False),
    # what something says, when asked what it says
    ("It says 'Exit'. The rest is too small to read.", "What does the sign say?", False),
    # the user never said it, and the memory cannot find it
    ("You've mentioned your sister a few times - that she lives in Denver and just had a baby - but you never told "
     "me her name.", "What's my sister's name?", True),
    ("Can't find it in our chats.", "What's my daughter's teacher's name?", True),
    ("I'm not finding it. You said you listen to podcasts on your commute, but you never named one.",
     "What's the name of the podcast I said I liked?", True),
    ("I can only see the sender, J. Alvarez, and the subject line. Not sure who it was sent to.",
     "Who is the recipient of this memo?", True),
]


@pytest.mark.parametrize("text, question, expected", ROUND_11, ids=[t[:50] for t, _, _ in ROUND_11])
def test_chat_round_11_rules_and_where_they_stop(text, question, expected):
    """Round 11 (tuned on the first blind chat/VLM set): a decline drawn as the consequence of a
    description, or pointing back at the thing asked; pages, clips and recordings that end, are torn,
    redacted or silent; an absence on a page (zero, when a count was asked); what something says, when
    asked; the user who never said it; each beside a reply where the rule must not fire."""
    assert rules_verdict(text, question) is expected


ROUND_12 = [
    # the reply ends declining what was asked, after a description that concluded nothing ...
    ("Footage stops while the plane is still on approach, a few hundred feet up. It doesn't show the landing, so I "
     "can't say how it went.", "Did the plane land safely?", True),
    ("Anna went to Bali. There is no mention of who paid for it.", "Where did Anna go on her honeymoon?", False),
    # ... but not after a committed answer: a yes or no, a value of the kind asked, a decline of a detail
    ("Yes, tourism is growing in China. However, I do not have specific information on the current growth rate.",
     "Is tourism growing in China?", False),
    ("Every 500 points gets you a $5 discount on your next purchase. The exact discount depends on your points, "
     "which weren't specified.", "How much discount will I get on my next purchase?", False),
    ("You can download the latest version of Carthage from the official GitHub repository: "
     "https://github.com/Carthage/Carthage/releases. However, I do not have specific information on the latest "
     "version number.", "What is the latest version of Carthage and where can I download it?", False),
    # reports of what the conversation went through are context
    ("You were deciding between Dr. Patel and Bright Smile Dental, but I have no record of which one you booked.",
     "Which dentist did I end up booking with?", True),
    ("You told me you went to Bali.", "Where did I go last May?", False),
    # what a clip or a picture does not let one see or hear, and nobody says
    ("No one says the baby's name in the video, and there are no captions.", "What's the baby's name?", True),
    ("There aren't any curtains in the image - the window is bare.", "What color are the curtains?", True),
    ("The lighting is very dim and her feet are in shadow the whole time. Any logo on the shoes isn't discernible.",
     "What brand of sneakers is the dancer wearing?", True),
    ("Unfortunately not. The note is partially hidden behind a magnet.", "Can you read the note on the fridge?", True),
    ("There's no speedometer shown. I could only guess from the motion, so I'd rather not put a number on it.",
     "How fast was the car going?", True),
]


@pytest.mark.parametrize("text, question, expected", ROUND_12, ids=[t[:50] for t, _, _ in ROUND_12])
def test_chat_round_12_rules_and_where_they_stop(text, question, expected):
    """Round 12 (tuned on the second blind chat/VLM set): a reply that ends declining what was asked after
    a description that concluded nothing, beside replies that committed first (a yes, a value of the kind
    asked, an answer before a decline of a detail); reports of what the conversation went through; what
    a clip or picture does not show and nobody says; "I'd rather not put a number on it"."""
    assert rules_verdict(text, question) is expected


ROUND_13 = [
    # documents a user sends are sources; what they leave out declines
    ("The offer letter doesn't include an expiration date or a deadline to respond.", "When does the offer expire?", True),
    ("There's no emergency contact in this lease.", "Who is the landlord's emergency contact?", True),
    ("The recording stops while the bidding is still going, at $4,200, so the final price is never announced.",
     "What is the final price the auctioneer announces?", True),
    ("The report did not specify a cause.", None, False),        # a report states someone's finding
    # what never came up, what the assistant does not have
    ("Car trouble hasn't come up between us before, as far as I can see.", "What did I say was wrong with my car?", True),
    ("That one I don't have. You mentioned the clinic closes early on Saturdays, but never its name.",
     "What was the name of the vet clinic?", True),
    ("Not that I can see - the departure time hasn't come up in our conversations.",
     "Did I tell you what time my flight leaves tomorrow?", True),
    # asked whether something is there, an absence is the answer
    ("I don't see any cracks. There's a small chip near the bottom left corner, but it hasn't spread.",
     "Are there any cracks in the windshield?", False),
    ("I don't see any price on the tag.", "What's the price on the tag?", True),
    # "which one" about something else than the answer
    ("Apple, Microsoft and a small position in Ford. You also mentioned an index fund, but not which one.",
     "Which stocks did I say I own?", False),
    # asked what the assistant said before, fresh suggestions after a decline do not answer
    ("I don't see a conversation about your neighbor. If you'd like, here are a few options: talk to them, or "
     "leave a friendly note.", "What did you suggest I do about my neighbor's loud music?", True),
    ("I don't see a conversation about your neighbor. If you'd like, here are a few options: talk to them, or "
     "leave a friendly note.", "What should I do about my neighbor's loud music?", False),
]


@pytest.mark.parametrize("text, question, expected", ROUND_13, ids=[t[:50] for t, _, _ in ROUND_13])
def test_chat_round_13_rules_and_where_they_stop(text, question, expected):
    """Round 13 (tuned on the third blind chat/VLM set): documents a user sends as sources, what never
    came up, "that one I don't have", an absence as the answer when asked whether something is there,
    "which one" about another thing than the answer, fresh suggestions when asked what was suggested;
    each beside a reply where the rule must not fire."""
    assert rules_verdict(text, question) is expected


ROUND_14 = [
    # a model that cannot take the input, an upload that failed
    ("Sorry, I can not watch videos. I can only see text and images. Please send a screenshot.",
     "What color is the bus at 2:15?", True),
    ("It looks like the image didn't come through - I'm only seeing a blank attachment.", "What's the total on this receipt?", True),
    ("The error message \"We are unable to process your request: Transaction Rejected\" means the card was declined.",
     "What does the error mean?", False),
    # a premise out of range
    ("The PDF you uploaded ends at page 10, so there's no page 12 for me to read.", "What's the author's conclusion on page 12?", True),
    # a page that states what it lacks, a document that does not report it
    ("The image does not have any date on it. It shows people at a beach.", "What day was this picture taken?", True),
    ("The minutes say the meeting was held in Conference Room B, but there is no date written on the minutes.",
     "What date was the meeting held?", True),
    ("Hmm, I don't think you've mentioned your partner's name in our chats. What is it?", "What's my partner's name?", True),
    # "too small" of something else than a picture is no decline
    ("No - in our chat on March 12 you said you'd turned down the Denver offer because the relocation package was "
     "too small.", "Did I ever decide to take the job in Denver?", False),
]


@pytest.mark.parametrize("text, question, expected", ROUND_14, ids=[t[:50] for t, _, _ in ROUND_14])
def test_chat_round_14_rules_and_where_they_stop(text, question, expected):
    """Round 14 (tuned on the fourth blind chat/VLM set): a model that cannot take the input or an upload
    that failed, a premise out of range, a page or a document that states what it lacks, a final decline
    naming a word of the question the description did not; beside replies where the rule must not fire."""
    assert rules_verdict(text, question) is expected


ROUND_15 = [
    # premises out of range, however written
    ("This video is only 2 minutes 47 seconds long, so there's no 4:30 mark.", "What happens at 4:30 in the video?", True),
    ("The video you uploaded is 3:05 long, so there isn't a 5:10.", "Can you transcribe what she says at 5:10?", True),
    # what never came up, what appears nowhere, what none of the sections mention
    ("Nothing about the cello has come up in our chats. You did mention practicing piano for about two years.",
     "How long have I been learning the cello?", True),
    ("The paper lists the authors and their affiliation, but no email addresses appear anywhere in the PDF.",
     "What is the author's email address?", True),
    ("The agreement ends at section 12, and none of its sections mention arbitration.",
     "What does section 14 say about arbitration?", True),
    # a model that will not name a person, an error, an upload missing
    ("Sorry, I can't help identify people from their faces, even if they might be well known.",
     "Can you tell me who this woman is?", True),
    ("I ran into an error processing your video. Could you try re-uploading it?", "What's happening in the video?", True),
    # a speaker who cannot read any of the words, or the name from it
    ("The whiteboard is visible in the background, but I can't read any of the words.",
     "What's written on the whiteboard in the meeting video?", True),
    # asked what was recommended, fresh advice after a decline does not answer
    ("I don't have a record of recommending shoulder stretches before. That said, doorway pec stretches and wall "
     "slides often help.", "What stretches did you recommend for my shoulder?", True),
    ("Doorway pec stretches and wall slides often help.", "What stretches would help my shoulder?", False),
    # "others" the question asks about is no caveat
    ("It does not provide information on other methods of storage. Therefore, I do not have specific information on "
     "whether cloud is the only method of storage or if there are others.",
     "Is the Cloud the only method of storage, or are there others?", True),
]


@pytest.mark.parametrize("text, question, expected", ROUND_15, ids=[t[:50] for t, _, _ in ROUND_15])
def test_chat_round_15_rules_and_where_they_stop(text, question, expected):
    """Round 15 (tuned on the fifth blind chat/VLM set): premises out of range, what never came up or
    appears nowhere, a model that will not identify people, errors and missing uploads, "I can't read any
    of the words", fresh advice when asked what was recommended; beside replies where they must not fire."""
    assert rules_verdict(text, question) is expected


@pytest.mark.parametrize("unit", ["at no point ", "i dont think you "])
def test_a_clause_of_repeated_cue_words_is_read_in_linear_time(unit):
    """A reply (untrusted bytes) of one clause repeating a cue's opening thousands of times costs time in
    proportion to its length: the cues that look ahead from such an opening ("at no point ... says",
    "I don't think you ... ever") look a bounded number of words ahead, not to the clause's end (before,
    180 KB of "at no point" took 31 s)."""
    import time

    def seconds(n: int) -> float:
        best = float("inf")
        for _ in range(2):
            refusal._is_refusal_text.cache_clear()
            t0 = time.perf_counter()
            rules_verdict(unit * n, "What is the name of the street?")
            best = min(best, time.perf_counter() - t0)
        return best

    small, large = seconds(1500), seconds(6000)
    assert large < 8 * small + 0.05, (small, large)       # quadratic would be about 16 times
