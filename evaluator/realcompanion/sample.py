"""A deterministic synthetic RealCompanion release in br-eval's format (see `data.py`).

It is the default data of the realcompanion/* tasks, so they run offline, and a scale model of the
paper's corpus for the benchmark script. At scale 1.0 it has the paper's sizes: ten participants,
27,218 messages (two relationships hold 19,870 of them), 1,227 proportional probes (40 of them
memory-bearing, 120 with no referent), 373 enriched probes, 434 cold opens, and roughly 3,600
profile claims and 3,300 questions. The default scale is 0.1. Three participants have no
memory-bearing probe. Memory-bearing probes point to messages hundreds to thousands of messages
back (distances mostly uniform over the history, a quarter log-uniform); thread probes point to
the one or two messages just before them.

The text is template-made chit-chat: it has the lexical shape the retrieval methods need (named
entities shared between a probe and its distant reference in about 40% of cases, topic words
shared by whole sessions, distractor mentions), not the meaning of real conversation. Nothing
here is real data. Version 2 adds on-screen verdicts (D.4) to memory-bearing and thread rows (the
strict reading keeps about 38% of memory-bearing rows) and leaves about a quarter of persona slots
empty (null), from streams of their own so the rest of the data is as in version 1; companion-
sent evidence comes from the companion-locus probes.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import shutil
import tempfile
from datetime import date, timedelta
from pathlib import Path

SAMPLE_VERSION = 2
DEFAULT_SCALE = 0.1

# pid, messages at scale 1, span in days, active days, has memory-bearing probes
PARTICIPANTS = (
    ("U01", 612, 36, 18, False),
    ("U02", 845, 52, 25, True),
    ("U03", 1030, 64, 31, True),
    ("U04", 398, 41, 14, False),
    ("U05", 1224, 70, 36, True),
    ("U06", 1476, 88, 40, True),
    ("U07", 719, 45, 22, False),
    ("U08", 1044, 77, 38, True),
    ("U09", 8921, 110, 96, True),
    ("U10", 10949, 120, 110, True),
)
# Chat rows at scale 1 (the paper's counts).
PROPORTIONAL_ROWS, PROPORTIONAL_UNSCOREABLE, PROPORTIONAL_MEMORY, PROPORTIONAL_NONE = 1227, 58, 40, 120
ENRICHED_ROWS, ENRICHED_UNSCOREABLE = 373, 9
COLD_OPENS = 434
MEMORY_LOCUS_WEIGHTS = (("profile", 223), ("episode", 116), ("companion", 65))
AUDIT_WEIGHTS = (("supported", 1471), ("repairable", 1025), ("unsupported", 455), ("pending", 390),
                 ("pruned_supported", 37), ("unjudged", 202))
START = date(2025, 2, 3)
# On-screen verdicts of memory-bearing rows: the strict reading keeps only `not_on_screen`, which
# takes the demand rate from about 3.4% to about 1.3% as in the paper.
ON_SCREEN_WEIGHTS = (("not_on_screen", 38), ("borderline", 32), ("clear", 30))
ON_SCREEN_MEMORY = tuple(v for v, _ in ON_SCREEN_WEIGHTS)
NULL_SLOT_SHARE = 0.25       # persona slots left empty ("filled only where the conversation supports them")

TOPICS = {
    "work": "deadline meeting manager spreadsheet project office report colleague",
    "cooking": "recipe dinner pasta oven garlic soup kitchen groceries",
    "sleep": "sleep insomnia nap tired bedtime alarm dream pillow",
    "fitness": "gym stretching workout steps yoga legs cardio sweat",
    "music": "song playlist guitar concert album lyrics band chords",
    "weather": "rain cold sunny umbrella wind snow forecast heat",
    "family": "mom dad grandma visit birthday phone relatives holiday",
    "games": "game level boss controller quest multiplayer save puzzle",
    "study": "exam notes lecture essay professor chapter homework grades",
    "money": "rent budget savings bills salary loan expenses bank",
    "movies": "movie series episode trailer actor cinema plot season",
    "mood": "anxious calm stressed happy lonely overwhelmed relieved grateful",
    "friends": "friend party drinks weekend gossip plans group birthday",
    "home": "apartment cleaning laundry plants neighbor furniture couch window",
    "books": "novel author reading poem story page library bookmark",
    "commute": "bus train traffic bike late station ticket crowded",
}
TOPICS = {k: v.split() for k, v in TOPICS.items()}
ADJECTIVES = ("weird annoying fine great rough slow exhausting fun okay stressful nice strange "
              "boring chaotic lovely").split()
OPENERS = ("ok so", "hey", "honestly", "ugh", "so", "lol", "well", "hmm", "anyway", "")
USER_PATTERNS = (
    "I keep thinking about the {w1} and the {w2}",
    "today was all {w1} and {w2}",
    "not sure what to do about the {w1}",
    "the {w1} thing is {adj} again",
    "did some {w1} stuff, pretty {adj}",
    "honestly the {w1} is {adj} and I need more {w2}",
    "can we talk about {w1} for a sec",
    "my {w1} situation is {adj} today",
    "remember when the {w2} was less {adj}",
    "just had the most {adj} {w1} ever",
)
COMPANION_PATTERNS = (
    "That sounds {adj}.",
    "It makes sense that the {w1} feels {adj} right now.",
    "Have you thought about the {w2} a little earlier in the day?",
    "I'm here if you want to talk through the {w1}.",
    "Small steps with the {w2} still count.",
    "What part of the {w1} bothers you most?",
    "Maybe give yourself a break from the {w1} tonight.",
    "I'd love to hear how the {w2} goes.",
    "You handled the {w1} better than you think.",
    "Sometimes the {w2} just needs time.",
)
NO_REFERENT = ("ok thanks", "haha fair", "good night!", "yeah true", "lol okay", "brb",
               "makes sense", "ok I'll try", "sounds good", "hmm maybe")
NAMES = ("Mara Theo Ilse Jonas Priya Tomas Lena Oskar Nadia Felix Rosa Emil Yara Hugo Selma Aron "
         "Dalia Kenji Mira Otto Sanne Ravi Lotte Bruno Ines Milo Vera Anton Zora Leif Amal Pavel "
         "Greta Nico Hana Elio Runa Tariq Alva Cyrus").split()
PET_NAMES = ("Pepper Biscuit Mochi Juniper Pickle Waffles Nimbus Olive Toffee Pixel Clover Bean "
             "Sprout Maple Noodle Ziggy").split()
CITIES = ("Porto Lisbon Tallinn Ghent Bergen Lyon Turin Krakow Aarhus Graz Utrecht Bilbao Riga "
          "Malmo Split Bologna Leipzig Cork Brno Nantes").split()
ORGS = ("Kestrel Labs|Northwind Media|Bramble Health|Halcyon Bank|Copperleaf Studio|Quillon "
        "Press|Tidewater Logistics|Saffron Foods|Lumen Schools|Arbor Clinic").split("|")
ROLES = "analyst designer nurse teacher developer barista editor coordinator".split()
ITEMS = (("X-200", "blender"), ("Aero", "bike"), ("Lumo", "lamp"), ("Kinto", "kettle"),
         ("Vela", "headphones"), ("Orbit", "vacuum"), ("Nomad", "backpack"), ("Fjell", "tent"))
MONTHS = "March April May June July September October".split()
ALLERGENS = "peanuts shellfish pollen penicillin sesame latex".split()
BOOKS = (("The Salt Road", "Ilse Varga"), ("Quiet Harbours", "Tomas Reyl"),
         ("A Year of Small Weather", "Noor Hallam"), ("The Glass Orchard", "Pia Lund"),
         ("Lanterns at Noon", "Oren Blake"), ("The Cartographer's Daughter", "Edda Sol"))
TECHNIQUES = ("4-7-8 breathing", "box breathing", "a two-minute journal",
              "the five-senses grounding exercise", "a worry window before dinner")
THINGS = "dishes money holiday plans car keys rent chores wedding".split()

QUESTION_CATEGORIES = ("entity", "relationship", "event", "temporal", "preference",
                       "companion-said")
PERSONA_SLOTS = (
    ("big_five.openness", ("low", "medium", "high")),
    ("big_five.conscientiousness", ("low", "medium", "high")),
    ("big_five.extraversion", ("low", "medium", "high")),
    ("big_five.agreeableness", ("low", "medium", "high")),
    ("big_five.neuroticism", ("low", "medium", "high")),
    ("demographics.age_range", ("18-24", "25-34", "35-44", "45-54")),
    ("demographics.living_situation", ("alone", "with a partner", "with parents", "with flatmates")),
    ("demographics.work", ("student", "office job", "shift work", "between jobs")),
    ("quirks.typing_style", ("all lowercase, few full stops", "long messages with lists",
                             "many short bursts", "lots of 'lol' and 'haha'")),
    ("quirks.humor", ("dry", "self-deprecating", "silly", "rarely jokes")),
    ("prose.how_they_decide", ("asks for reassurance before deciding",
                               "decides fast and revisits later",
                               "makes lists of pros and cons")),
    ("prose.what_they_worry_about", ("money and rent", "what others think of them",
                                     "their health", "falling behind at work")),
    ("prose.how_they_seek_support", ("vents late at night", "asks practical questions",
                                     "checks in every morning")),
)


# -- fact kinds: what a distant reference says, and what a later probe says about it -------------
def _fact(kind: str, rng: random.Random, used_names: set[str]) -> dict:
    """One memorable fact: mention texts, probe texts, claim, question, gold response."""

    def fresh(pool):
        options = [x for x in pool if x not in used_names] or list(pool)
        value = rng.choice(options)
        used_names.add(value)
        return value

    if kind == "relative":
        rel, name, city = rng.choice(("sister", "brother", "cousin", "aunt")), fresh(NAMES), rng.choice(CITIES)
        return dict(kind=kind, entity=name, user=f"my {rel} {name} just moved to {city}, still can't believe it",
                    ack=f"Moving to {city} is a big step for {name}. How do you feel about your {rel} being further away?",
                    direct=[f"{name} called me again last night", f"thinking of visiting {name} in {city}",
                            f"{name} sent photos of the flat in {city}"],
                    indirect=["feeling far from family lately", "she sent me photos of the new place",
                              "wondering if I should visit soon"],
                    claim=f"The user's {rel} {name} lives in {city}.",
                    question=f"Where does the user's {rel} {name} live?", answer=city,
                    category="relationship", gold=f"Is {name} settling in alright in {city}?")
    if kind == "pet":
        animal, name = rng.choice(("cat", "dog", "rabbit", "parrot")), fresh(PET_NAMES)
        return dict(kind=kind, entity=name, user=f"we adopted a {animal} called {name} today!!",
                    ack=f"Welcome home, {name}! What is the {animal} like so far?",
                    direct=[f"{name} knocked my glass off the table again", f"had to take {name} to the vet",
                            f"the {animal} woke me up at 5am"],
                    indirect=["my little furball is being dramatic", "someone chewed my charger cable",
                              "guess who is asleep on my keyboard"],
                    claim=f"The user has a {animal} named {name}.",
                    question=f"What is the name of the user's {animal}?", answer=name,
                    category="entity", gold=f"Oh no, what did {name} do this time?")
    if kind == "job":
        role, org = rng.choice(ROLES), fresh(ORGS)
        return dict(kind=kind, entity=org, user=f"I applied for the {role} position at {org}, fingers crossed",
                    ack=f"That's exciting! What drew you to the {role} role at {org}?",
                    direct=[f"{org} finally emailed me back", f"got an interview for the {role} job at {org}",
                            f"the {org} interview is tomorrow"],
                    indirect=["still no news from that company", "the interview is tomorrow and I'm freaking out",
                              "they want a second round!!"],
                    claim=f"The user applied for a {role} position at {org}.",
                    question="Which company did the user apply to?", answer=org,
                    category="event", gold=f"You applied to {org} for the {role} role; how are you feeling about it?")
    if kind == "purchase":
        brand, obj = rng.choice(ITEMS)
        return dict(kind=kind, entity=brand, user=f"finally bought the {brand} {obj}, it was on sale",
                    ack=f"Nice find! Hope the {brand} {obj} is worth it.",
                    direct=[f"the {brand} is making that noise again", f"{brand} support is useless",
                            f"should I return the {brand} {obj}"],
                    indirect=["the thing I bought is already acting up", "should I just return it",
                              "customer service put me on hold for an hour"],
                    claim=f"The user owns a {brand} {obj}.",
                    question="What did the user buy on sale?", answer=f"a {brand} {obj}",
                    category="entity", gold=f"Is it the {brand} {obj} again? It might still be under warranty.")
    if kind == "race":
        city, month = rng.choice(CITIES), rng.choice(MONTHS)
        return dict(kind=kind, entity=city, user=f"signed up for the {city} half marathon in {month}",
                    ack=f"The {city} half marathon! That gives you a clear training goal for {month}.",
                    direct=[f"training for {city} is brutal", f"only a few weeks until {month} and the race",
                            f"bought new shoes for the {city} race"],
                    indirect=["my knee hurts after the long run", "did 18k this morning",
                              "not sure I'm ready"],
                    claim=f"The user is training for the {city} half marathon in {month}.",
                    question="Which race did the user sign up for?", answer=f"the {city} half marathon",
                    category="event", gold=f"How is the training for {city} going?")
    if kind == "health":
        allergen = rng.choice(ALLERGENS)
        return dict(kind=kind, entity=allergen, user=f"reminder to self: I'm allergic to {allergen}",
                    ack=f"Thanks for telling me; I'll keep {allergen} in mind.",
                    direct=[f"is there {allergen} in this stuff", f"accidentally had {allergen} again"],
                    indirect=["ate something weird and now my throat itches", "had to read every label today"],
                    claim=f"The user is allergic to {allergen}.",
                    question="What is the user allergic to?", answer=allergen,
                    category="preference", gold=f"Please check it for {allergen} first.")
    if kind == "fight":
        name, thing = fresh(NAMES), rng.choice(THINGS)
        return dict(kind=kind, entity=name, user=f"had a huge fight with {name} about the {thing}",
                    ack=f"That sounds painful. Fights about the {thing} often carry older tension.",
                    direct=[f"{name} finally apologized", f"talked to {name} about the {thing} again"],
                    indirect=["we made up I think", "it came up again and I stayed calm this time"],
                    claim=f"The user argued with {name} about the {thing}.",
                    question=f"What did the user and {name} fight about?", answer=f"the {thing}",
                    category="event", gold=f"I'm glad you and {name} could talk it through.")
    if kind == "trip":
        city, month = rng.choice(CITIES), rng.choice(MONTHS)
        return dict(kind=kind, entity=city, user=f"booked a trip to {city} for {month}",
                    ack=f"{city} in {month} sounds lovely. What are you most looking forward to?",
                    direct=[f"packing for {city}!", f"what should I see in {city}"],
                    indirect=["my flight got delayed", "finally on holiday"],
                    claim=f"The user planned a trip to {city} in {month}.",
                    question="Where did the user plan to travel?", answer=city,
                    category="event", gold=f"Have a wonderful time in {city}!")
    if kind == "book":
        title, author = rng.choice(BOOKS)
        return dict(kind=kind, entity=title,
                    companion=f"If you want something calm to read, try {title} by {author}. It's gentle and slow.",
                    direct=[f"started {title} yesterday", f"finished the {author} book"],
                    indirect=["started that book you recommended", "the book you told me about made me cry"],
                    claim=None, question="Which book did the companion recommend?", answer=title,
                    category="companion-said", gold=f"I'm so glad {title} is working for you.")
    if kind == "technique":
        tech = rng.choice(TECHNIQUES)
        return dict(kind=kind, entity=tech,
                    companion=f"When the worry spikes at night, you could try {tech} for a few minutes.",
                    direct=[f"tried {tech} again last night", f"{tech} helped a bit"],
                    indirect=["the trick you suggested actually worked", "your exercise thing helped"],
                    claim=None, question="What did the companion suggest for night-time worry?",
                    answer=tech, category="companion-said", gold=f"Nice, keep using {tech} when it spikes.")
    raise ValueError(kind)


PROFILE_KINDS = ("relative", "pet", "job", "purchase", "race", "health")
EPISODE_KINDS = ("fight", "trip", "job", "relative")
COMPANION_KINDS = ("book", "technique")


# -- helpers ---------------------------------------------------------------------------------------
def _rng(seed: int, *parts) -> random.Random:
    h = hashlib.sha256("|".join(map(str, (seed, *parts))).encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def allocate(total: int, weights: list[float]) -> list[int]:
    """Largest-remainder split of `total` in proportion to `weights` (deterministic)."""
    s = sum(weights)
    if total <= 0 or s <= 0:
        return [0] * len(weights)
    raw = [total * w / s for w in weights]
    out = [int(math.floor(x)) for x in raw]
    rest = sorted(range(len(weights)), key=lambda i: (-(raw[i] - out[i]), i))
    for i in rest[:total - sum(out)]:
        out[i] += 1
    return out


def _sentence(rng: random.Random, topic: list[str], patterns) -> str:
    w1, w2 = rng.sample(topic, 2)
    return rng.choice(patterns).format(w1=w1, w2=w2, adj=rng.choice(ADJECTIVES))


def _user_text(rng, topic) -> str:
    text = _sentence(rng, topic, USER_PATTERNS)
    opener = rng.choice(OPENERS)
    if rng.random() < 0.35:
        text += ", " + _sentence(rng, topic, USER_PATTERNS)
    return f"{opener} {text}".strip()


def _companion_text(rng, topic) -> str:
    return " ".join(_sentence(rng, topic, COMPANION_PATTERNS) for _ in range(rng.randint(3, 8)))


# -- one participant -------------------------------------------------------------------------------
def _skeleton(rng: random.Random, pid_index: int, n: int, span: int, active: int) -> list[dict]:
    days = sorted([1] + rng.sample(range(2, span + 1), min(active, span) - 1))
    weights = [rng.expovariate(1.0) + 0.3 for _ in days]
    per_day = [max(2, c) for c in allocate(n, weights)]
    while sum(per_day) > n:                  # the max(2, .) floor may overshoot by a few
        i = max(range(len(per_day)), key=lambda j: per_day[j])
        per_day[i] -= 1
    messages = []
    session_no = 0
    for day, count in zip(days, per_day):
        n_sessions = max(1, min(count // 2, rng.choice((1, 1, 2, 2, 3))))
        sizes = [max(2, c) for c in allocate(count, [rng.random() + 0.5 for _ in range(n_sessions)])]
        while sum(sizes) > count:
            sizes[sizes.index(max(sizes))] -= 1
        sizes = [s for s in sizes if s > 0]
        the_date = START + timedelta(days=pid_index * 3 + day - 1)
        seq = 0
        for k, size in enumerate(sizes):
            session_no += 1
            topic = rng.choice(sorted(TOPICS))
            clock = (8 * 3600 + k * (15 * 3600 // len(sizes)) + rng.randint(0, 1800))
            speaker = "user"
            for j in range(size):
                seq += 1
                if j > 0:
                    flip = 0.93 if speaker == "user" else 0.8
                    if rng.random() < flip:
                        speaker = "companion" if speaker == "user" else "user"
                    clock += rng.randint(20, 200)
                clock = min(clock, 24 * 3600 - 1)
                hh, mm, ss = clock // 3600, clock % 3600 // 60, clock % 60
                messages.append({"id": f"day{day}-{seq}", "day": day, "seq": seq,
                                 "time": f"{the_date.isoformat()}T{hh:02d}:{mm:02d}:{ss:02d}+00:00",
                                 "speaker": speaker, "session": f"s{session_no:04d}",
                                 "text": None, "_topic": topic, "_first": j == 0})
    return messages


def _participant(seed: int, pid_index: int, pid: str, n: int, span: int, active: int,
                 quota: dict) -> dict:
    rng = _rng(seed, "participant", pid)
    msgs = _skeleton(rng, pid_index, n, span, active)
    n = len(msgs)
    reserved: set[int] = set()
    session_start: list[int] = []
    start = 0
    for i, m in enumerate(msgs):
        if m["_first"]:
            start = i
        session_start.append(start)
    users = [i for i, m in enumerate(msgs) if m["speaker"] == "user"]
    inner_users = [i for i in users if not msgs[i]["_first"] and i > 0
                   and session_start[i - 1] == session_start[i]]
    openers = [i for i in users if msgs[i]["_first"]]
    used_names: set[str] = set()
    rows: list[dict] = []          # chat rows, each with "_pos"
    facts: list[dict] = []         # facts with positions of their mentions (for claims, questions)

    def free(i):
        return 0 <= i < n and i not in reserved

    def find_back(start_at, ok):
        for i in range(start_at, -1, -1):
            if free(i) and ok(i):
                return i
        return None

    # 1. Memory-bearing probes, each with a fresh fact mentioned far back.
    min_gap = 12
    n_memory = quota["prop_memory"] + quota["enr_memory"]
    candidates = [i for i in inner_users if i >= max(min_gap * 2, n // 5)]
    rng.shuffle(candidates)
    strata = ["proportional"] * quota["prop_memory"] + ["enriched"] * quota["enr_memory"]
    made = 0
    for pos in candidates:
        if made >= n_memory:
            break
        if not free(pos):
            continue
        locus = rng.choices([l for l, _ in MEMORY_LOCUS_WEIGHTS],
                            [w for _, w in MEMORY_LOCUS_WEIGHTS])[0]
        kinds = {"profile": PROFILE_KINDS, "episode": EPISODE_KINDS,
                 "companion": COMPANION_KINDS}[locus]
        fact = _fact(rng.choice(kinds), rng, used_names)
        limit = session_start[pos] - 1            # references live in an earlier session
        if limit < 1:
            continue
        if rng.random() < 0.25:    # mostly uniform over the history, sometimes recent-ish
            distance = int(round(math.exp(rng.uniform(math.log(min_gap), math.log(max(min_gap + 1, pos))))))
        else:
            distance = rng.randint(min_gap, max(min_gap, pos))
        target = min(limit, max(0, pos - distance))
        if locus == "companion":
            m = find_back(target, lambda i: msgs[i]["speaker"] == "companion")
            refs = [m] if m is not None else None
        elif locus == "episode":
            m = find_back(target, lambda i: msgs[i]["speaker"] == "user" and i + 1 <= limit
                          and free(i + 1) and msgs[i + 1]["speaker"] == "companion"
                          and session_start[i + 1] == session_start[i])
            refs = [m, m + 1] if m is not None else None
        else:
            m = find_back(target, lambda i: msgs[i]["speaker"] == "user")
            refs = [m] if m is not None else None
            if refs and rng.random() < 0.35:  # a second, later mention the claim also cites
                m2 = find_back(rng.randint(m + 1, limit) if m + 1 <= limit else -1,
                               lambda i: msgs[i]["speaker"] == "user" and i > m)
                if m2 is not None:
                    refs.append(m2)
        if refs is None:
            continue
        reserved.update(refs)
        reserved.add(pos)
        for r in refs:
            who = msgs[r]["speaker"]
            if locus == "companion":
                msgs[r]["text"] = fact["companion"]
            elif who == "companion":
                msgs[r]["text"] = fact["ack"]
            elif r == refs[0]:
                msgs[r]["text"] = fact["user"]
            else:
                msgs[r]["text"] = f"update on {fact['entity']}: {rng.choice(fact['direct'])}"
        direct = rng.random() < 0.4
        msgs[pos]["text"] = rng.choice(fact["direct"] if direct else fact["indirect"])
        if rng.random() < 0.5:
            msgs[pos]["text"] += ", " + _sentence(rng, TOPICS[msgs[pos]["_topic"]], USER_PATTERNS)
        fact["positions"] = refs
        fact["locus"] = locus
        facts.append(fact)
        grounding = [msgs[r]["id"] for r in refs]
        row = {"_pos": pos, "stratum": strata[made], "scoreable": True, "ok": True, "locus": locus,
               "tier": rng.choice(("intermediate", "hard")),
               "category": {"profile": "profile-fact", "episode": "past-episode",
                            "companion": "companion-said"}[locus],
               "rule": f"C{rng.randint(5, 12)}",
               "referent_text": f"the {fact['kind']} ({fact['entity']}) mentioned in {grounding[0]}",
               "gold_response": fact["gold"], "grounding_ids": grounding,
               "reference_ids": grounding, "_fact": fact}
        rows.append(row)
        made += 1

    # Distractors: a fact's entity name turns up in unrelated messages too.
    for fact in list(facts):
        for _ in range(rng.choice((0, 1, 2, 3))):
            i = rng.randrange(n)
            if free(i) and msgs[i]["text"] is None:
                reserved.add(i)
                msgs[i]["text"] = (f"random but {fact['entity']} came up at lunch today"
                                   if msgs[i]["speaker"] == "user"
                                   else f"Funny that {fact['entity']} came up. "
                                        + _companion_text(rng, TOPICS[msgs[i]['_topic']]))

    # 2. Background facts (claims and questions only).
    for _ in range(max(1, n // 25)):
        locus = rng.choice(("profile", "profile", "episode", "companion"))
        kinds = {"profile": PROFILE_KINDS, "episode": EPISODE_KINDS, "companion": COMPANION_KINDS}[locus]
        fact = _fact(rng.choice(kinds), rng, used_names)
        speaker = "companion" if locus == "companion" else "user"
        i = find_back(rng.randrange(n), lambda j: msgs[j]["speaker"] == speaker)
        if i is None:
            continue
        reserved.add(i)
        msgs[i]["text"] = fact["companion"] if locus == "companion" else fact["user"]
        fact["positions"] = [i]
        fact["locus"] = locus
        facts.append(fact)

    # 3. Filler text for everything not written yet.
    for m in msgs:
        if m["text"] is None:
            topic = TOPICS[m["_topic"]]
            m["text"] = _user_text(rng, topic) if m["speaker"] == "user" else _companion_text(rng, topic)
            if m["_first"] and m["speaker"] == "user":
                m["text"] = rng.choice(("hey,", "hi again,", "morning!", "back!", "hello,")) + " " + m["text"]

    # 4. Cold opens, no-referent probes, thread probes, withdrawn rows.
    def take(pool, k):
        chosen = [i for i in pool if free(i)]
        rng.shuffle(chosen)
        chosen = sorted(chosen[:k])
        reserved.update(chosen)
        return chosen

    for pos in take(openers, quota["cold"]):
        rows.append({"_pos": pos, "stratum": "abstention", "scoreable": False, "ok": True,
                     "locus": "none", "tier": "edge", "category": "cold-open", "rule": "C1",
                     "referent_text": "", "gold_response": "Hey! Good to hear from you. How are things?",
                     "grounding_ids": [], "reference_ids": []})
    for pos in take(inner_users, quota["prop_none"]):
        if rng.random() < 0.5:
            msgs[pos]["text"] = rng.choice(NO_REFERENT)
        rows.append({"_pos": pos, "stratum": "proportional", "scoreable": True, "ok": True,
                     "locus": "none", "tier": "basic", "category": "small-talk", "rule": "C2",
                     "referent_text": "", "gold_response": "Sounds good!",
                     "grounding_ids": [], "reference_ids": []})
    thread = take(inner_users, quota["prop_thread"])
    for pos in thread:                        # ascending, so a reference's text is final first
        back = 1 if rng.random() < 0.6 else 2
        refs = [r for r in range(pos - back, pos) if session_start[r] == session_start[pos]]
        if rng.random() < 0.08 and pos - session_start[pos] >= 5:   # a thread referent further up
            refs = [pos - rng.randint(3, min(6, pos - session_start[pos]))]
        ref_text = msgs[refs[-1]]["text"]
        words = [w.strip(".,!?") for w in ref_text.split() if len(w.strip(".,!?")) > 4]
        hook = rng.choice(words) if words else rng.choice(TOPICS[msgs[pos]["_topic"]])
        msgs[pos]["text"] = rng.choice((f"wait, the {hook} part?", f"yeah the {hook} is exactly it",
                                        f"what do you mean {hook}", f"ok but {hook} though",
                                        f"true, {hook} again"))
        ids = [msgs[r]["id"] for r in refs]
        rows.append({"_pos": pos, "stratum": "proportional", "scoreable": True, "ok": True,
                     "locus": "thread", "tier": "basic", "category": "continuation",
                     "rule": f"C{rng.randint(2, 4)}", "referent_text": f"the message {ids[-1]}",
                     "gold_response": "Right, that part is the tricky one.",
                     "grounding_ids": ids + ([msgs[pos]["id"]] if rng.random() < 0.3 else []),
                     "reference_ids": ids})
    withdrawn = [("proportional", quota["prop_unscoreable"]), ("enriched", quota["enr_unscoreable"])]
    for stratum, k in withdrawn:
        for pos in take(inner_users, k):
            rows.append({"_pos": pos, "stratum": stratum, "scoreable": False, "ok": False,
                         "locus": rng.choice(("thread", "none")), "tier": "basic",
                         "category": "withdrawn", "rule": "E1", "referent_text": "",
                         "gold_response": "", "grounding_ids": [], "reference_ids": []})

    # 5. Profile claims: one per profile/episode fact, then topic claims citing user messages.
    claims = []
    audits, audit_w = [a for a, _ in AUDIT_WEIGHTS], [w for _, w in AUDIT_WEIGHTS]
    for fact in facts:
        if fact.get("claim") is None:
            continue
        cites = [p for p in fact["positions"] if msgs[p]["speaker"] == "user"]
        cid = f"c{len(claims) + 1:04d}"
        fact["claim_id"] = cid
        claims.append({"id": cid, "text": fact["claim"], "confidence": round(rng.uniform(0.6, 0.99), 2),
                       "valid_from": msgs[cites[0]]["time"][:10], "valid_to": None,
                       "citations": [msgs[p]["id"] for p in cites],
                       "audit": rng.choices(audits, audit_w)[0]})
    target_claims = max(len(claims), int(round(n * 3580 / 27218)))
    by_topic: dict[str, list[int]] = {}
    for i in users:
        by_topic.setdefault(msgs[i]["_topic"], []).append(i)
    topic_names = sorted(by_topic)
    while len(claims) < target_claims:
        topic = rng.choice(topic_names)
        cites = sorted(rng.sample(by_topic[topic], min(len(by_topic[topic]), rng.randint(1, 3))))
        word = rng.choice(TOPICS[topic])
        claims.append({"id": f"c{len(claims) + 1:04d}",
                       "text": f"The user often brings up {topic} ({word}).",
                       "confidence": round(rng.uniform(0.3, 0.95), 2),
                       "valid_from": msgs[cites[0]]["time"][:10],
                       "valid_to": msgs[cites[-1]]["time"][:10] if rng.random() < 0.2 else None,
                       "citations": [msgs[p]["id"] for p in cites],
                       "audit": rng.choices(audits, audit_w)[0]})
    for row in rows:
        fact = row.pop("_fact", None)
        if fact is not None and row["locus"] == "profile":
            row["profile_ids"] = [fact["claim_id"]]
        else:
            row["profile_ids"] = []

    # 6. Persona slots with evidence.
    persona = {"slots": {}}
    for name, values in PERSONA_SLOTS:
        value = rng.choice(values)
        strength = rng.choice(("weak", "moderate", "strong"))
        evidence = sorted(rng.sample(users, min(len(users), rng.randint(1, 3))))
        persona["slots"][name] = {"value": value, "strength": strength,
                                  "evidence": [msgs[i]["id"] for i in evidence]}

    # 7. Questions about facts, asked after their last evidence.
    questions = []
    target_q = max(1, int(round(n * 3312 / 27218)))
    templates = ("{q}", "Earlier in the conversation: {q}", "From what the user said: {q}")
    k = 0
    while len(questions) < target_q and facts:
        fact = facts[k % len(facts)]
        ev = fact["positions"]
        after = rng.randint(max(ev), n - 1)
        variant = templates[(k // len(facts)) % len(templates)]
        category = fact["category"]
        if k // len(facts) == 1 and rng.random() < 0.5:
            category = "temporal"
        questions.append({"qid": f"q{len(questions) + 1:04d}", "category": category,
                          "question": variant.format(q=fact["question"]),
                          "answer": (f"day {msgs[ev[0]]['day']}" if category == "temporal"
                                     else fact["answer"]),
                          "evidence_ids": [msgs[p]["id"] for p in ev],
                          "asked_after": msgs[after]["id"]})
        if category == "temporal":
            questions[-1]["question"] = f"On which day did the user first mention {fact['entity']}?"
        k += 1

    # 8. What version 2 added, from streams of their own (the rest of the data is unchanged):
    # on-screen verdicts (D.4) and persona slots the conversation does not support (null).
    extra = _rng(seed, pid, "v2-extras")
    for row in rows:
        if row["locus"] in ("profile", "episode", "companion"):
            row["on_screen"] = extra.choices(ON_SCREEN_MEMORY, [w for _, w in ON_SCREEN_WEIGHTS])[0]
        elif row["locus"] == "thread":
            row["on_screen"] = extra.choice(("clear", "clear", "clear", "borderline"))
    for name, slot in list(persona["slots"].items())[1:]:      # the first slot always has a value
        if extra.random() < NULL_SLOT_SHARE:
            persona["slots"][name] = {"value": None, "strength": None, "evidence": []}

    rows.sort(key=lambda r: r["_pos"])
    chat = []
    for j, row in enumerate(rows, 1):
        pos = row.pop("_pos")
        chat.append({"probe_id": f"p{j:04d}", "message_id": msgs[pos]["id"], **row})
    conversation = [{k: v for k, v in m.items() if not k.startswith("_")} for m in msgs]
    return {"conversation": conversation, "profile": claims, "persona": persona, "chat": chat,
            "questions": questions}


def _quotas(scale: float, sizes: list[int]) -> list[dict]:
    memory_weights = [math.sqrt(s) if has else 0.0
                      for s, (_, _, _, _, has) in zip(sizes, PARTICIPANTS)]
    r = lambda x: int(round(x * scale))  # noqa: E731
    prop_rows = allocate(r(PROPORTIONAL_ROWS), sizes)
    prop_unsc = allocate(r(PROPORTIONAL_UNSCOREABLE), sizes)
    prop_none = allocate(r(PROPORTIONAL_NONE), sizes)
    prop_mem = allocate(max(1, r(PROPORTIONAL_MEMORY)), memory_weights)
    enr_unsc = allocate(r(ENRICHED_UNSCOREABLE), memory_weights)
    enr_mem = allocate(r(ENRICHED_ROWS) - r(ENRICHED_UNSCOREABLE), memory_weights)
    cold = allocate(r(COLD_OPENS), sizes)
    out = []
    for i in range(len(sizes)):
        thread = max(0, prop_rows[i] - prop_unsc[i] - prop_none[i] - prop_mem[i])
        out.append({"prop_memory": prop_mem[i], "prop_none": prop_none[i], "prop_thread": thread,
                    "prop_unscoreable": prop_unsc[i], "enr_memory": enr_mem[i],
                    "enr_unscoreable": enr_unsc[i], "cold": cold[i]})
    return out


def _write_jsonl(path: Path, rows) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def generate_sample(out_dir: str | os.PathLike, *, scale: float = DEFAULT_SCALE, seed: int = 0) -> Path:
    """Write the sample release into `out_dir` (atomically: a finished folder or nothing)."""
    out_dir = Path(out_dir)
    if scale <= 0:
        raise ValueError("scale must be positive")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.tmp-", dir=out_dir.parent))
    try:
        sizes = [max(40, int(round(n * scale))) for _, n, _, _, _ in PARTICIPANTS]
        actives = [max(3, min(active, int(round(active * math.sqrt(min(1.0, scale) * 1.0)))))
                   for _, _, _, active, _ in PARTICIPANTS]
        for idx, ((pid, _, span, _, _), size, active, quota) in enumerate(
                zip(PARTICIPANTS, sizes, actives, _quotas(scale, sizes))):
            data = _participant(seed, idx, pid, size, span, active, quota)
            folder = tmp / pid
            folder.mkdir()
            _write_jsonl(folder / "conversation.jsonl", data["conversation"])
            _write_jsonl(folder / "profile.jsonl", data["profile"])
            (folder / "persona.json").write_text(json.dumps(data["persona"], indent=1) + "\n",
                                                 encoding="utf-8")
            _write_jsonl(folder / "chat.jsonl", data["chat"])
            _write_jsonl(folder / "questions.jsonl", data["questions"])
        (tmp / ".sample").write_text(json.dumps({"generator": "evaluator.realcompanion.sample",
                                                 "version": SAMPLE_VERSION, "scale": scale,
                                                 "seed": seed}) + "\n", encoding="utf-8")
        (tmp / ".complete").write_text("", encoding="utf-8")
        if out_dir.exists():
            if (out_dir / ".complete").exists():   # another process finished first
                shutil.rmtree(tmp, ignore_errors=True)
                return out_dir
            shutil.rmtree(out_dir)
        os.replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out_dir
