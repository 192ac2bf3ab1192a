"""Deterministic generator of a synthetic Beyond Recall snapshot in the release layout.

`generate_sample(dest)` writes the small sample br-eval falls back to when no real data is
present (and that the tests use); `scale="full"` writes a full-size synthetic snapshot with the
card's counts (1,163 trajectories, 23,775 sessions, 345,738 turns, 1,269 questions, 40 explicit
cutoffs) for benchmarks. The content is invented: it reads like each task (a conflict to detect,
a value that changes, a question that must be refused, ...), so baselines score differently, but it
is not the benchmark and says so in `benchmark/README.md` and the `.sample` marker.

Layout (the card's "Contents"):
  benchmark/<dimension>/<Task Name>.json, benchmark/images/*.png|*.jpg|*.pdf,
  benchmark/videos/*.mp4, benchmark/README.md, RELEASE_STATS.json, PDF_PREPROCESSING.json,
  benchmark/SHA256SUMS (relative to benchmark/), metadata/*.json, docs/CHANGELOG.md,
  checksums/SHA256SUMS (relative to the snapshot root), plus the markers `.complete` and `.sample`
  (in no checksum list).

Same arguments, same bytes: JSON, media and both SHA256SUMS are reproducible (PNG/JPEG from Pillow,
PDFs from PyMuPDF without ids or dates, MP4 from PyAV with libx264 on one thread and bitexact
muxing). The sample has explicit turn timestamps that exercise every visibility rule (see
`_visibility_showcase`); the full scale has none, like the current release.

CLI: `python -m beyondrecall.sample DEST [--scale sample|full] [--seed N]`.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import random
import shutil
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from beyondrecall.card import DATA_VERSION, TASKS, TOTALS
from beyondrecall.files import media_kind

GENERATOR_VERSION = 1
MARKERS = (".complete", ".sample")

# From the card's Tasks table (beyondrecall.card.TASKS): task -> (dimension, file stem as in the
# card's table), and task -> (trajectories, questions) for the full scale.
TASK_FILES: dict[str, tuple[str, str]] = {t.name: (t.dimension, t.file_stem)
                                          for t in TASKS.values()}
FULL_COUNTS: dict[str, tuple[int, int]] = {t.name: (t.trajectories, t.questions)
                                           for t in TASKS.values()}

FULL_SESSIONS = TOTALS["sessions"]          # the card's Statistics table
FULL_TURNS = TOTALS["turns"]
FULL_CUTOFFS = TOTALS["questions_with_cutoff"]

SAMPLE_TRAJECTORIES = {t: 3 for t in TASK_FILES} | {"memory_update": 4,
                                                   "cross_modal_relational_reasoning": 4}

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
UTC = timezone.utc

# ---------------------------------------------------------------------------------------------
# Time strings in the card's formats


def fmt_time(dt: datetime, style: str = "main") -> str:
    """Render a UTC datetime in one of the card's formats (`main` is the release's own)."""
    month = MONTHS[dt.month - 1]
    h12 = dt.hour % 12 or 12
    ampm = "am" if dt.hour < 12 else "pm"
    if style == "main":
        return f"{h12}:{dt.minute:02d} {ampm} on {dt.day} {month}, {dt.year}"
    if style == "seconds":
        return f"{h12}:{dt.minute:02d}:{dt.second:02d} {ampm} on {dt.day} {month}, {dt.year}"
    if style == "24h":
        return f"{dt.hour:02d}:{dt.minute:02d} on {dt.day} {month}, {dt.year}"
    if style == "dmy":
        return f"{dt.day:02d} {month} {dt.year} {dt.hour:02d}:{dt.minute:02d}"
    if style == "iso":
        # Same instant written with a +02:00 offset: readers must convert to UTC.
        local = dt.astimezone(timezone(timedelta(hours=2)))
        return local.isoformat(timespec="seconds")
    if style == "isoz":
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    raise ValueError(style)


def day_text(dt: datetime) -> str:
    return f"{dt.day} {MONTHS[dt.month - 1]} {dt.year}"


# ---------------------------------------------------------------------------------------------
# Media: a small pool of real files, drawn from the seed


@dataclass
class MediaItem:
    kind: str                 # image | pdf | video
    path: str                 # relative to benchmark/
    data: bytes = b""
    facts: dict = field(default_factory=dict)
    copies: tuple[str, ...] = ()   # byte-identical copies under other names


_PLACES = [("old harbour", "HARBOUR"), ("city museum", "MUSEUM"), ("corner bakery", "BAKERY"),
           ("public library", "LIBRARY"), ("train station", "STATION"),
           ("farmers market", "MARKET"), ("botanical garden", "GARDEN")]
_COLOURS = {"red": (214, 48, 49), "blue": (41, 98, 255), "green": (39, 174, 96),
            "orange": (243, 156, 18), "purple": (142, 68, 173), "yellow": (241, 196, 15),
            "teal": (22, 160, 133)}
_SHAPES = ["circle", "square", "triangle", "diamond"]


def _draw_image(rng: random.Random, label: str, colour: str, shape: str, size: tuple[int, int],
                fmt: str) -> bytes:
    from PIL import Image, ImageDraw

    w, h = size
    bg = tuple(rng.randrange(200, 250) for _ in range(3))
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    rgb = _COLOURS[colour]
    s = min(w, h) // 2
    x0, y0 = rng.randrange(4, w - s - 4), rng.randrange(14, h - s - 2)
    box = (x0, y0, x0 + s, y0 + s)
    if shape == "circle":
        d.ellipse(box, fill=rgb, outline=(0, 0, 0))
    elif shape == "square":
        d.rectangle(box, fill=rgb, outline=(0, 0, 0))
    elif shape == "triangle":
        d.polygon([(x0 + s // 2, y0), (x0, y0 + s), (x0 + s, y0 + s)], fill=rgb, outline=(0, 0, 0))
    else:
        d.polygon([(x0 + s // 2, y0), (x0 + s, y0 + s // 2), (x0 + s // 2, y0 + s),
                   (x0, y0 + s // 2)], fill=rgb, outline=(0, 0, 0))
    d.text((3, 2), label, fill=(20, 20, 20))
    # A few seed-dependent specks so each seed gives distinct bytes.
    for _ in range(6):
        px, py = rng.randrange(w), rng.randrange(h)
        d.point((px, py), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    buf = io.BytesIO()
    if fmt == "png":
        img.save(buf, format="PNG", optimize=False)
    else:
        img.save(buf, format="JPEG", quality=85)
    return buf.getvalue()


def _pdf_bytes(title: str, page_texts: list[str]) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    for i, text in enumerate(page_texts):
        page = doc.new_page(width=300, height=400)
        page.insert_text((24, 40), title, fontsize=12)
        page.insert_textbox(pymupdf.Rect(24, 60, 276, 330), text, fontsize=10)
        page.draw_rect(pymupdf.Rect(24, 340, 24 + 30 * (i + 1), 360), color=(0.1, 0.2, 0.6),
                       fill=(0.6, 0.7, 0.95))
    doc.set_metadata({})
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def _video_bytes(box_rgb: tuple[int, int, int], pattern: int, audio: bool, tone_hz: float,
                 seconds: float = 2.5, fps: int = 12, size: tuple[int, int] = (96, 64)) -> bytes:
    """H.264 (+ AAC mono sine tone) MP4: a box moving across and a growing frame-counter bar."""
    import av
    import numpy as np

    w, h = size
    n_frames = int(seconds * fps)
    buf = io.BytesIO()
    out = av.open(buf, "w", format="mp4", options={"fflags": "+bitexact"})
    vs = out.add_stream("libx264", rate=fps)
    vs.width, vs.height, vs.pix_fmt = w, h, "yuv420p"
    vs.options = {"preset": "ultrafast", "threads": "1", "crf": "28"}
    vs.codec_context.thread_count = 1
    astream = None
    sr = 16000
    if audio:
        astream = out.add_stream("aac", rate=sr)
        astream.layout = "mono"
    for i in range(n_frames):
        img = np.full((h, w, 3), 30 + 10 * pattern, np.uint8)
        x = 2 + (i * (w - 22)) // max(1, n_frames - 1)
        y = 14 + (pattern * 7) % (h - 34)
        img[y:y + 18, x:x + 18] = box_rgb
        img[h - 6:h - 2, 2:2 + (i * (w - 4)) // max(1, n_frames - 1) + 1] = (250, 250, 250)
        frame = av.VideoFrame.from_ndarray(img, format="rgb24")
        frame.pts = i
        for pkt in vs.encode(frame):
            out.mux(pkt)
    for pkt in vs.encode():
        out.mux(pkt)
    if astream is not None:
        total = int(sr * seconds)
        start = 0
        while start < total:
            k = min(1024, total - start)
            t = np.arange(start, start + k, dtype=np.float64) / sr
            samples = (0.25 * np.sin(2 * math.pi * tone_hz * t)).astype(np.float32)[None, :]
            fr = av.AudioFrame.from_ndarray(samples, format="fltp", layout="mono")
            fr.sample_rate = sr
            fr.pts = start
            for pkt in astream.encode(fr):
                out.mux(pkt)
            start += k
        for pkt in astream.encode():
            out.mux(pkt)
    out.close()
    return buf.getvalue()


# Cropped PDFs: (name, title, original page count, kept original pages, evidence pages)
_PDF_SPECS = [
    ("report_a.pdf", "Community Garden Budget Report", 9, [1, 2, 5, 6], [2, 5]),
    ("lease_summary_b.pdf", "Apartment Lease Summary", 7, [1, 3, 4], [3]),
]


def build_media(seed: int) -> dict[str, list[MediaItem]]:
    rng = random.Random(f"br-sample-media:{seed}")
    colours = list(_COLOURS)
    rng.shuffle(colours)
    images: list[MediaItem] = []
    for i, (place, label) in enumerate(_PLACES):
        fmt = "png" if i < 4 else "jpg"
        colour = colours[i % len(colours)]
        shape = _SHAPES[(i + seed) % len(_SHAPES)]
        size = (64 + 16 * (i % 5), 64 + 8 * ((i + 2) % 4))
        data = _draw_image(rng, label, colour, shape, size, fmt)
        item = MediaItem("image", f"images/photo_{label.lower()}.{fmt}", data,
                         {"place": place, "label": label, "colour": colour, "shape": shape})
        images.append(item)
    # Byte-identical copies under other names (the card keeps repeated files).
    images[0].copies = (f"images/IMG_{4100 + seed % 900:04d}.png",)
    images[5].copies = ("images/market_stall_copy.jpg",)

    budget = f"{rng.randrange(20, 90)},{rng.randrange(0, 10)}00 euros"
    volunteers = f"{rng.randrange(12, 60)} volunteers"
    deadline = f"{rng.randrange(2, 28)} {MONTHS[rng.randrange(12)]}"
    beds = f"{rng.randrange(8, 30)} raised beds"
    rent = f"{rng.randrange(700, 1600)} euros a month"
    deposit = f"{rng.randrange(2, 4)} months' rent"
    notice = f"{rng.choice([1, 2, 3])} months"
    pdf_facts = [
        {"title": _PDF_SPECS[0][1], "total budget": budget, "number of volunteers": volunteers,
         "application deadline": deadline, "number of raised beds": beds},
        {"title": _PDF_SPECS[1][1], "monthly rent": rent, "deposit": deposit,
         "notice period": notice},
    ]
    pdfs: list[MediaItem] = []
    for (name, title, n_orig, kept, evidence), facts in zip(_PDF_SPECS, pdf_facts):
        fact_lines = [f"The {k} is {v}." for k, v in facts.items() if k != "title"]
        texts = []
        for j, orig in enumerate(kept):
            if orig in evidence:
                part = fact_lines[: (len(fact_lines) + 1) // 2] if orig == evidence[0] \
                    else fact_lines[(len(fact_lines) + 1) // 2:]
                body = " ".join(part) if part else " ".join(fact_lines)
            else:
                body = f"Background notes, section {orig}. Nothing on this page is evidence."
            texts.append(f"Original page {orig} of {n_orig}.\n{body}")
        data = _pdf_bytes(title, texts)
        pdfs.append(MediaItem("pdf", f"images/{name}", data,
                              dict(facts, kept_pages=kept, evidence_pages=evidence,
                                   original_page_count=n_orig)))
    # One PDF kept whole (no page map entry), like the card's one uncropped file.
    handbook = {"title": "Cycling Club Handbook", "meeting day": rng.choice(
        ["Tuesday", "Wednesday", "Thursday"]), "membership fee": f"{rng.randrange(20, 60)} euros"}
    pdfs.append(MediaItem("pdf", "images/club_handbook.pdf", _pdf_bytes(handbook["title"], [
        f"Page 1. Welcome to the club. We meet every {handbook['meeting day']}.",
        f"Page 2. The membership fee is {handbook['membership fee']} a year.",
        "Page 3. Always wear a helmet."]), handbook))

    videos: list[MediaItem] = []
    vspecs = [("clip_parade.mp4", "the harbour parade", True, 440.0),
              ("clip_kitchen.mp4", "the kitchen renovation", True, 660.0),
              ("clip_timelapse_silent.mp4", "the sunset timelapse", False, 0.0)]
    for k, (name, event, audio, tone) in enumerate(vspecs):
        colour = colours[(k + 3) % len(colours)]
        data = _video_bytes(_COLOURS[colour], k + seed % 3, audio, tone)
        videos.append(MediaItem("video", f"videos/{name}", data,
                                {"event": event, "colour": colour, "audio": audio}))
    videos[0].copies = ("videos/VID_0007.mp4",)
    return {"image": images, "pdf": pdfs, "video": videos}


# ---------------------------------------------------------------------------------------------
# Conversation content

_PAIRS = [("Alice", "Bob"), ("Mira", "Jonas"), ("Priya", "Tom"), ("Lena", "Omar"),
          ("Sofia", "Kenji"), ("Grace", "Mateo"), ("Hana", "Luis"), ("Nora", "Ivan")]

_OPENERS = ["Hi {B}, how have you been?", "Hey {B}! Got a minute to chat?",
            "Good to hear from you again, {B}.", "Morning {B}, quick catch-up?",
            "Hi {B}, it's been a busy week.", "Hello {B}, hope your day is going well."]
_FILLER_A = [
    "I went for a long walk along the river after work.",
    "The weather was grey all day, so I stayed in and read.",
    "I tried a new recipe with lentils and lemon, it turned out fine.",
    "Work was hectic, we had three meetings back to back.",
    "I finally cleaned out the hall cupboard.",
    "My neighbour lent me a board game we played until late.",
    "I watched a documentary about deep sea fish last night.",
    "The bus was late again, I nearly missed my appointment.",
    "I spent the afternoon fixing the squeaky door hinge.",
    "We had friends over for dinner on Saturday.",
    "I have been sleeping better since I stopped drinking coffee after lunch.",
    "I started a puzzle with a thousand pieces, it is harder than it looks.",
]
_FILLER_B = [
    "That sounds like a good way to unwind, {A}.",
    "Nice! How did you feel afterwards?",
    "I hope the rest of the week is calmer for you.",
    "Ha, that is very relatable.",
    "Tell me more about it when you have time.",
    "Glad to hear it. Anything planned for the weekend?",
    "That must have been tiring, {A}.",
    "Sounds lovely. Did you take any pictures?",
    "Good for you! Small things add up.",
    "Interesting, I did not know that.",
    "Take it easy tonight then.",
    "Oh nice, what was the best part?",
]


@dataclass
class Event:
    slot: int                 # 0..4, spread over the trajectory's sessions
    speaker: int              # 0 = persons[0], 1 = persons[1]
    content: str
    media: list[str] | None = None


@dataclass
class QSpec:
    question: str
    answer: str
    cutoff_slot: int | None = None     # cutoff just after this slot's session
    media: list[str] | None = None


class _Ctx:
    """One trajectory's random stream, people and media pool (sample paths or full aliases)."""

    def __init__(self, rng: random.Random, persons: tuple[str, str], media, full: bool,
                 aliases: dict[str, list[str]]):
        self.rng = rng
        self.A, self.B = persons
        self.media = media
        self.full = full
        self.aliases = aliases

    def path(self, item: MediaItem) -> str:
        if self.full:
            return self.rng.choice(self.aliases[item.path])
        return item.path

    def pick(self, kind: str, k: int = 1) -> list[MediaItem]:
        pool = self.media[kind]
        if kind == "pdf":
            pool = pool[:2]  # the cropped reports carry the facts questions ask for
        return self.rng.sample(pool, k)


def _mc(rng: random.Random, correct: str, wrong: list[str]) -> tuple[str, str]:
    """`(A) .. (B) .. (C) .. (D) ..` with the correct option at a seeded position."""
    opts = wrong[:3]
    pos = rng.randrange(4)
    opts.insert(pos, correct)
    letters = "ABCD"
    return " ".join(f"({letters[i]}) {o}" for i, o in enumerate(opts)), letters[pos]


def story_conflict_detection(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    kind = i % 3
    if kind == 0:
        d1, d2 = r.sample(range(2, 28), 2)
        m1, m2 = r.sample(MONTHS, 2)
        first = f"My sister Clara's birthday is on {d1} {m1}, I always bake her a cake."
        second = f"Clara's birthday is on {d2} {m2}, so I need to find a present soon."
        topic = "Clara's birthday"
        claim1, claim2 = f"Clara's birthday is on {d1} {m1}", f"it is on {d2} {m2}"
        wrong = ["Clara lives abroad versus Clara lives next door",
                 "Clara likes cake versus Clara bakes cakes",
                 "Clara is older versus Clara is a nurse"]
    elif kind == 1:
        first = "I'm allergic to peanuts, so I always skip the satay at parties."
        second = "Peanut satay is my favourite dish, I have it almost every week."
        topic = "peanuts"
        claim1 = "they are allergic to peanuts"
        claim2 = "peanut satay is their favourite dish and they have it almost every week"
        wrong = ["they dislike coffee versus they drink tea",
                 "they are vegetarian versus they cook lentils",
                 "they never cook versus they skip parties"]
    else:
        y1, y2 = r.choice([(3, 9), (2, 7), (4, 11)])
        first = f"I've worked as a nurse for {y1} years now."
        second = f"In my {y2} years as a nurse I have never done a night shift."
        topic = "how long they have worked as a nurse"
        claim1, claim2 = f"they have worked as a nurse for {y1} years", f"it has been {y2} years"
        wrong = ["they work as a teacher versus they work at a school",
                 "they quit nursing versus they enjoy nursing",
                 "they work only night shifts versus they like mornings"]
    events = [Event(1, 0, first), Event(3, 0, second), Event(2, 1, f"Noted, {A}.")]
    qs = []
    if i % 2 == 0:
        opts, letter = _mc(r, f"{claim1} versus {claim2}", wrong)
        qs.append(QSpec(f"Which pair of statements by {A} about {topic} contradict each "
                        f"other? {opts}", letter))
    else:
        qs.append(QSpec(f"Did {A} make contradicting statements about {topic}? Explain.",
                        f"Yes. {A} first said {claim1}, but later said {claim2}."))
    if cutoff:
        qs.append(QSpec(f"Has {A} contradicted themselves about {topic} so far?",
                        f"No. So far {A} has only said {claim1}; nothing contradicts it yet.",
                        cutoff_slot=2))
    return events, qs[-n_q:] if cutoff else qs[:n_q]


def story_long_term_semantic_summary(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    hobby, steps = r.choice([
        ("pottery", ["I signed up for a beginners' pottery course at Clayworks studio.",
                     "I threw my first bowl on the wheel, it is lopsided but I love it.",
                     "My teacher says my glazing has improved a lot.",
                     "I sold two mugs at the Clayworks spring fair!"]),
        ("running", ["I started running twice a week with a couch-to-5k plan.",
                     "I ran 5 kilometres without stopping for the first time.",
                     "I joined the Riverside Runners club on Thursdays.",
                     "I finished my first half marathon in 2 hours 10 minutes."]),
        ("cello", ["I rented a cello and found a teacher called Mrs Okafor.",
                   "I can play a simple Bach minuet now.",
                   "Mrs Okafor invited me to play in the student ensemble.",
                   "Our ensemble performed at the library concert."]),
    ])
    events = [Event(k + 1 if k < 3 else 4, 0, s) for k, s in enumerate(steps)]
    summary = " ".join(s.rstrip(".!") + "." for s in steps)
    qs = [QSpec(f"Summarize how {A}'s {hobby} developed over the conversations.",
                f"{A} {hobby} progression: {summary}")]
    if cutoff:
        part = " ".join(s.rstrip(".!") + "." for s in steps[:2])
        qs.append(QSpec(f"Summarize {A}'s {hobby} so far.", f"So far: {part}", cutoff_slot=2))
    return events, qs[-n_q:] if cutoff else qs[:n_q]


_UPDATES = [
    ("gym", "Which gym does {A} go to now?", "I go to {v} for my workouts.",
     "I cancelled my old membership and switched to {v}.",
     ["Ironside Fitness", "Peak Motion", "Northgate Pool", "Riverside Climbing Hall"]),
    ("manager", "Who is {A}'s manager now?", "My manager at work is {v}.",
     "Big news: {v} is my new manager since the reorganisation.",
     ["Dana Whitfield", "Rahul Mehta", "Ingrid Solberg", "Marcus Bell"]),
    ("phone", "Which phone does {A} use now?", "I'm using a {v} at the moment.",
     "My old phone died, so now I have a {v}.",
     ["Pixel 6", "Fairphone 4", "iPhone 12", "Galaxy S21"]),
    ("street", "On which street does {A} live now?", "I live on {v}.",
     "We finally moved, our new flat is on {v}.",
     ["Linden Street", "Harbour Road", "Maple Avenue", "Quarry Lane"]),
]


def story_memory_update(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    attr, q, say1, say2, values = _UPDATES[i % len(_UPDATES)]
    v1, v2 = r.sample(values, 2)
    events = [Event(1, 0, say1.format(v=v1)), Event(3, 0, say2.format(v=v2))]
    qs = [QSpec(q.format(A=A), v2)]
    if cutoff:
        qs.append(QSpec(q.format(A=A), v1, cutoff_slot=2))
    elif n_q > 1:
        qs.append(QSpec(f"What {attr} did {A} mention before the change?", v1))
    return events, qs[:n_q] if not cutoff or n_q > 1 else qs[-1:]


def story_refusal_to_answer(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    mention, q, ans, wrong = [
        ("I have a dentist appointment on Thursday, not looking forward to it.",
         "What is the name of {A}'s dentist?",
         "The conversation does not say what {A}'s dentist is called.",
         ["Dr. Hale", "Dr. Ortiz", "Dr. Lin"]),
        ("My brother is visiting next month, he is bringing his dog.",
         "How old is {A}'s brother?", "The conversation does not say how old {A}'s brother is.",
         ["27", "34", "41"]),
        ("I booked flights for the conference in Lisbon.",
         "What is {A}'s flight number to Lisbon?",
         "The conversation does not say {A}'s flight number.", ["TP 1351", "LH 1166", "FR 8342"]),
        ("We stayed in a small hotel near the old town last summer.",
         "What was the name of the hotel {A} stayed in last summer?",
         "The conversation does not say the name of the hotel.",
         ["Hotel Aurora", "The Grand Vista", "Casa Blanca Inn"]),
    ][i % 4]
    events = [Event(2, 0, mention), Event(2, 1, "Oh, good luck with that!")]
    if i % 3 == 2:
        opts, letter = _mc(r, "The conversation does not say", wrong)
        qs = [QSpec(q.format(A=A) + " " + opts, letter)]
    else:
        qs = [QSpec(q.format(A=A), ans.format(A=A))]
    if cutoff:
        qs = [QSpec(q.format(A=A), ans.format(A=A), cutoff_slot=3)]
    return events, qs[:n_q]


def story_causal_intent_inference(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    item, reason, because = r.choice([
        ("hiking boots", "I want to walk the Kungsleden trail in August",
         "To walk the Kungsleden trail in August."),
        ("a sewing machine", "I want to make my own costume for the theatre festival",
         "To make their own costume for the theatre festival."),
        ("a second-hand kayak", "we are planning a week on the lakes of Finland",
         "They are planning a week on the lakes of Finland."),
        ("a Spanish textbook", "I am moving to Valencia for work next year",
         "They are moving to Valencia for work next year."),
    ])
    events = [Event(1, 0, f"I ordered {item} today."),
              Event(3, 0, f"The reason I got {item}: {reason}.")]
    qs = [QSpec(f"Why did {A} buy {item}?", because)]
    if cutoff:
        qs.append(QSpec(f"Has {A} explained why they bought {item}?",
                        f"Not yet. {A} only said they ordered {item}.", cutoff_slot=2))
    return events, qs[-n_q:] if cutoff else qs[:n_q]


def story_cross_modal_relational_reasoning(c: _Ctx, n_q: int, cutoff: bool, i: int):
    A = c.A
    im1, im2 = c.pick("image", 2)
    f1, f2 = im1.facts, im2.facts
    p1, p2 = c.path(im1), c.path(im2)
    vid = c.media["video"][i % len(c.media["video"])]
    events = [
        Event(1, 0, f"Here is the photo from the {f1['place']}: the sign with a "
                    f"{f1['colour']} {f1['shape']} on it.", [p1]),
        Event(3, 0, f"And this one is from the {f2['place']}, look at the {f2['colour']} "
                    f"{f2['shape']}.", [p2]),
        Event(4, 0, f"I filmed {vid.facts['event']}, the box in it is {vid.facts['colour']}.",
              [c.path(vid)]),
    ]
    qs = [QSpec(f"Of the photos {A} shared from the {f1['place']} and the {f2['place']}, which "
                f"one shows a {f2['colour']} {f2['shape']}?", f"The {f2['place']} photo."),
          QSpec(f"Where did {A} take the photo attached here?", f"At the {f1['place']}.",
                media=[p1]),
          QSpec(f"What colour is the moving box in the video of {vid.facts['event']}?",
                vid.facts["colour"])]
    if cutoff:
        qs[0] = QSpec(f"How many photos had {A} shared by this point, and from where?",
                      f"One, from the {f1['place']}.", cutoff_slot=2)
    return events, qs[:n_q]


_STATES = [
    ("bike", ["My bike is at the repair shop on Mill Street, the chain snapped.",
              "I picked my bike up from the repair shop, it rides like new.",
              "I lent my bike to my cousin Theo for his trip to the coast."],
     ["at the repair shop", "at home, repaired", "lent to cousin Theo"]),
    ("laptop", ["My laptop is in for warranty service, the screen flickers.",
                "The laptop came back from service with a new screen.",
                "I gave the old laptop to my niece Ada for school."],
     ["in warranty service", "back home with a new screen", "given to niece Ada"]),
    ("car", ["The car is parked at my parents' house while I am away.",
             "I drove the car back home yesterday.",
             "I sold the car to a colleague named Petra."],
     ["parked at the parents' house", "back at home", "sold to Petra"]),
]


def story_temporal_logic_state_evolution(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    thing, says, states = _STATES[i % len(_STATES)]
    events = [Event(1, 0, says[0]), Event(2, 0, says[1]), Event(4, 0, says[2])]
    qs = [QSpec(f"Where is {A}'s {thing} now?", states[2].capitalize() + ".")]
    if cutoff:
        qs.append(QSpec(f"Where was {A}'s {thing} at this point?", states[1].capitalize() + ".",
                        cutoff_slot=3))
    elif n_q > 1:
        opts, letter = _mc(r, states[0], ["stolen", "at the office", "in storage"])
        qs.append(QSpec(f"Where was {A}'s {thing} before it came back? {opts}", letter))
    return events, qs[-n_q:] if cutoff else qs[:n_q]


def story_cross_modal_semantic_matching(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    images = c.media["image"]
    if i % 3 == 2:
        # A clip shared in the history; the question shows the same video (a byte-identical copy
        # under another name where one exists).
        vid = c.media["video"][0]
        other = r.choice(images)
        events = [Event(1, 0, f"I filmed {vid.facts['event']} yesterday.", [c.path(vid)]),
                  Event(3, 0, f"And a photo of the {other.facts['place']}.", [c.path(other)])]
        q_path = vid.copies[0] if (vid.copies and not c.full) else c.path(vid)
        qs = [QSpec(f"What event did {A} film in a clip like this one?",
                    vid.facts["event"][0].upper() + vid.facts["event"][1:] + ".", media=[q_path])]
    else:
        # Images 0 and 5 have byte-identical copies: the question shows the copy.
        im = images[(0, 5)[i % 3]] if not c.full else r.choice(images)
        other = r.choice([x for x in images if x is not im])
        q_path = im.copies[0] if (im.copies and not c.full) else c.path(im)
        events = [Event(1, 0, f"A picture from my visit to the {im.facts['place']}.",
                        [c.path(im)]),
                  Event(3, 0, f"And the {other.facts['place']} on Sunday.", [c.path(other)])]
        qs = [QSpec(f"In which place did {A} take a photo like this one?",
                    f"The {im.facts['place']}.", media=[q_path])]
    if cutoff:
        qs = [QSpec(f"What had {A} shared by this point?",
                    events[0].content, cutoff_slot=2)]
    return events, qs[:n_q]


def story_high_density_information_extraction(c: _Ctx, n_q: int, cutoff: bool, i: int):
    A = c.A
    pdf = c.media["pdf"][i % len(c.media["pdf"])]
    facts = {k: v for k, v in pdf.facts.items()
             if k not in ("title", "kept_pages", "evidence_pages", "original_page_count")}
    keys = list(facts)
    key = keys[i % len(keys)]
    listing = "; ".join(f"{k}: {v}" for k, v in facts.items())
    events = [Event(1, 0, f"I am sending you the {pdf.facts['title']} as a PDF.", [c.path(pdf)]),
              Event(2, 0, f"Key numbers from the {pdf.facts['title']}: {listing}.")]
    qs = [QSpec(f"According to the {pdf.facts['title']} that {A} shared, what is the {key}?",
                facts[key])]
    if cutoff:
        qs = [QSpec(f"According to the {pdf.facts['title']} that {A} shared, what is the {key}?",
                    facts[key], cutoff_slot=3)]
    return events, qs[:n_q]


_PROPERTIES = [
    ("car", "What colour is {A}'s car?", "My car is a {v} Skoda Octavia.",
     "I had the Skoda repainted, it is {v} now.", ["blue", "silver", "dark green", "white"]),
    ("floor", "On which floor is {A}'s apartment?", "My apartment is on the {v} floor.",
     "We swapped flats with the neighbours, now we live on the {v} floor.",
     ["third", "fifth", "second", "seventh"]),
    ("cat", "What is the name of {A}'s cat?", "Our cat is called {v}.",
     "We renamed the cat, she answers to {v} now.", ["Miso", "Pepper", "Biscuit", "Nova"]),
]


def story_property_state_retrieval(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    _, q, say1, say2, values = _PROPERTIES[i % len(_PROPERTIES)]
    v1, v2 = r.sample(values, 2)
    events = [Event(1, 0, say1.format(v=v1)), Event(3, 0, say2.format(v=v2))]
    if c.media["image"] and i % 2 == 0:
        im = c.pick("image")[0]
        events.append(Event(3, 0, "Here is a photo from that day.", [c.path(im)]))
    qs = [QSpec(q.format(A=A), v2)]
    if cutoff:
        qs = [QSpec(q.format(A=A), v1, cutoff_slot=2)]
    return events, qs[:n_q]


def story_temporal_anchoring(c: _Ctx, n_q: int, cutoff: bool, i: int):
    r, A = c.rng, c.A
    event, q = r.choice([
        ("We adopted a kitten named Pepper today!", "When did {A} adopt Pepper?"),
        ("I passed my driving test this morning!", "When did {A} pass the driving test?"),
        ("We planted the apple tree in the garden today.", "When did {A} plant the apple tree?"),
        ("I got the keys to the new studio today.", "When did {A} get the keys to the studio?"),
    ])
    events = [Event(2, 0, event)]
    qs = [QSpec(q.format(A=A), "@slot2")]  # filled with the session's date by the assembler
    if cutoff:
        qs.append(QSpec(q.format(A=A), "@slot2", cutoff_slot=3))
    elif n_q > 1:
        qs.append(QSpec(f"What did {A} say happened on @slot2?", event))
    return events, qs[-n_q:] if cutoff else qs[:n_q]


STORIES = {name[6:]: fn for name, fn in globals().items() if name.startswith("story_")}


# ---------------------------------------------------------------------------------------------
# Trajectory assembly


def _no_media(k: int):
    """Vary how 'no media' is written: absent, null or []."""
    return ("absent", None, [])[k % 3]


def _turn(person: str, content: str, media, k: int) -> dict:
    t = {"person": person, "content": content}
    if media:
        t["media"] = list(media)
    else:
        m = _no_media(k)
        if m != "absent":
            t["media"] = m
    return t


def _assemble(task: str, i: int, c: _Ctx, n_sessions: int, turns_per_session: list[int],
              n_q: int, cutoff: bool, start: datetime, date_style: str, q_style: str) -> dict:
    r = c.rng
    events, qspecs = STORIES[task](c, n_q, cutoff, i)
    n_cut = sum(q.cutoff_slot is not None for q in qspecs)
    if len(qspecs) != n_q or n_cut != int(cutoff):
        raise AssertionError(f"{task} story {i}: {len(qspecs)} questions ({n_cut} with a cutoff),"
                             f" wanted {n_q} ({int(cutoff)})")
    dates = []
    t = start
    for _ in range(n_sessions):
        dates.append(t)
        t = t + timedelta(days=r.randint(1, 5), hours=r.randint(-3, 3), minutes=r.randint(0, 59))
        t = t.replace(second=r.randrange(60) if date_style == "seconds" else 0)

    def slot(s: int) -> int:
        return round(s * (n_sessions - 1) / 4)

    by_session: dict[int, list[Event]] = {}
    for e in events:
        by_session.setdefault(slot(e.slot), []).append(e)
    persons = (c.A, c.B)
    sessions = []
    k = i
    for si in range(n_sessions):
        n_turns = turns_per_session[si]
        evs = by_session.get(si, [])
        n_turns = max(n_turns, 2 + 2 * len(evs))  # sample only: full counts always fit
        turns = []
        ev_at = {2 + 2 * j: e for j, e in enumerate(evs)}
        for ti in range(n_turns):
            k += 1
            if ti in ev_at:
                e = ev_at[ti]
                turns.append(_turn(persons[e.speaker], e.content, e.media, k))
            elif ti == 0:
                turns.append(_turn(c.A, r.choice(_OPENERS).format(A=c.A, B=c.B), None, k))
            elif ti % 2 == 0:
                turns.append(_turn(c.A, r.choice(_FILLER_A), None, k))
            else:
                turns.append(_turn(c.B, r.choice(_FILLER_B).format(A=c.A, B=c.B), None, k))
        sessions.append({"date": fmt_time(dates[si], date_style), "turns": turns})
    questions = []
    for q in qspecs:
        answer, text = q.answer, q.question.replace("@slot2", day_text(dates[slot(2)]))
        if answer.startswith("@slot"):
            answer = day_text(dates[slot(int(answer[5:]))])
        qd = {"question": text, "answer": answer}
        if q.media:
            qd["media"] = list(q.media)
        elif len(questions) % 2:
            qd["media"] = []
        if q.cutoff_slot is not None:
            cut = dates[slot(q.cutoff_slot)] + timedelta(hours=1, minutes=r.randrange(60))
            qd["timestamp"] = fmt_time(cut, q_style)
        questions.append(qd)
    return {"id": i, "persons": [c.A, c.B], "conversation": sessions, "questions": questions}


def _visibility_showcase(c: _Ctx) -> dict:
    """memory_update trajectory 0 of the sample: explicit turn timestamps exercising each rule.

    Cutoff Q1 = 12:00 pm on 18 September, 2025. In file order:
      s0 8 Sep:  the first value (Linden Street).
      s1 15 Sep: turn 2 is stamped 19 Sep (after the cutoff, inside a session dated before it):
                 hidden from Q1; turn 3 is stamped 15 Sep 17:05, before its session date (sorted
                 first); turn 1 is stamped exactly the session date (tie with turn 0: index order).
      s2 25 Sep (after the cutoff): turn 1 is stamped 10 Sep 08:05, so s2 stays visible for Q1
                 with its visible date moved to 10 Sep, sorting it before s1.
      s3 2 Sep:  listed last in the file but earliest in time.
    """
    A, B = c.A, c.B
    d = lambda *a: datetime(*a, tzinfo=UTC)  # noqa: E731
    sessions = [
        {"date": fmt_time(d(2025, 9, 8, 10, 15)), "turns": [
            _turn(A, f"Hi {B}, guess what, I just moved into a flat on Linden Street.", None, 0),
            _turn(B, "Congratulations! How is the new place?", None, 1),
            _turn(A, "Small but bright. The rent on Linden Street is fair.", None, 2),
        ]},
        {"date": fmt_time(d(2025, 9, 15, 18, 30)), "turns": [
            _turn(A, "Long day at work today.", None, 3),
            {"person": B, "content": "Want to talk about it?",
             "timestamp": fmt_time(d(2025, 9, 15, 18, 30), "iso"), "media": None},
            {"person": A, "content": "Update: I signed the lease for a flat on Harbour Road, so "
                                     "I live on Harbour Road from now on.",
             "timestamp": fmt_time(d(2025, 9, 19, 21, 10))},
            {"person": A, "content": "Before I forget, the plumber finally came.",
             "timestamp": fmt_time(d(2025, 9, 15, 17, 5), "24h"), "media": []},
        ]},
        {"date": fmt_time(d(2025, 9, 25, 9, 0)), "turns": [
            _turn(A, "Unpacking boxes all weekend.", None, 6),
            {"person": A, "content": "Note from earlier: the landlord on Linden Street says the "
                                     "heating will be fixed soon.",
             "timestamp": fmt_time(d(2025, 9, 10, 8, 5), "dmy")},
            _turn(B, "Good luck with the boxes!", None, 8),
        ]},
        {"date": fmt_time(d(2025, 9, 2, 19, 45), "seconds"), "turns": [
            _turn(A, f"Hi {B}! I'm flat hunting this week.", None, 9),
            _turn(B, "Exciting, any favourites so far?", None, 10),
        ]},
    ]
    questions = [
        {"question": f"On which street does {A} live now?", "answer": "Harbour Road"},
        {"question": f"On which street does {A} live now?", "answer": "Linden Street",
         "timestamp": fmt_time(d(2025, 9, 18, 12, 0))},
        {"question": f"What did {A} say the landlord would fix?", "answer": "The heating.",
         "timestamp": fmt_time(d(2025, 9, 11, 9, 0), "iso"), "media": None},
    ]
    return {"id": 0, "persons": [A, B], "conversation": sessions, "questions": questions}


# ---------------------------------------------------------------------------------------------
# Whole snapshot


def _spread(total: int, parts: int, base: int) -> list[int]:
    """`parts` integers >= base summing exactly to `total`, extras spread evenly."""
    extra = total - base * parts
    return [base + ((j + 1) * extra // parts - j * extra // parts) for j in range(parts)]


_ALT_STYLES = ["seconds", "24h", "dmy", "iso"]
# Stories that can ask a full-history and a cutoff question in one trajectory.
_TWO_QUESTION_STORIES = {"conflict_detection", "long_term_semantic_summary", "memory_update",
                         "causal_intent_inference", "cross_modal_relational_reasoning",
                         "temporal_logic_state_evolution", "temporal_anchoring"}


def build_tasks(seed: int, scale: str, media: dict[str, list[MediaItem]],
                aliases: dict[str, list[str]]) -> dict[str, list[dict]]:
    full = scale == "full"
    tasks: dict[str, list[dict]] = {}
    if full:
        n_traj_total = sum(n for n, _ in FULL_COUNTS.values())
        sessions_per_traj = _spread(FULL_SESSIONS, n_traj_total, FULL_SESSIONS // n_traj_total)
        turns_per_session = _spread(FULL_TURNS, FULL_SESSIONS, FULL_TURNS // FULL_SESSIONS)
        # 40 cutoff trajectories: 4 in each of the first 7 tasks, 3 in each of the other 4.
        cut_counts = {t: (4 if j < 7 else 3) for j, t in enumerate(TASK_FILES)}
    g_traj = g_sess = 0
    for ti, task in enumerate(TASK_FILES):
        if full:
            n_traj, n_qs = FULL_COUNTS[task]
            step = n_traj // cut_counts[task]
            cut_set = {1 + step * j for j in range(cut_counts[task])}
        else:
            n_traj, n_qs = SAMPLE_TRAJECTORIES[task], None
            cut_set = {1} | ({2} if task in ("memory_update", "property_state_retrieval",
                                             "temporal_anchoring") else set())
        trajs = []
        for i in range(n_traj):
            rng = random.Random(f"br-sample:{seed}:{task}:{i}")
            persons = _PAIRS[(i + ti + seed) % len(_PAIRS)]
            c = _Ctx(rng, persons, media, full, aliases)
            if not full and task == "memory_update" and i == 0:
                trajs.append(_visibility_showcase(c))
                continue
            if full:
                n_q = 2 if i < n_qs - n_traj else 1
                n_sessions = sessions_per_traj[g_traj]
                tps = turns_per_session[g_sess:g_sess + n_sessions]
                date_style = q_style = "main"
            else:
                n_q = 2 if i == 1 and task in _TWO_QUESTION_STORIES else 1
                n_sessions = rng.randint(5, 7)
                tps = [rng.randint(4, 6) for _ in range(n_sessions)]
                # Trajectory 2 of each task writes its times in one of the other formats.
                date_style = _ALT_STYLES[ti % 4] if i == 2 else "main"
                q_style = _ALT_STYLES[(ti + 1) % 4] if i == 2 else "main"
            g_traj += 1
            g_sess += n_sessions
            start = datetime(2023, 1, 1, 8, 0, tzinfo=UTC) + timedelta(
                days=rng.randrange(0, 900), hours=rng.randrange(0, 13), minutes=rng.randrange(60))
            traj = _assemble(task, i, c, n_sessions, tps, n_q, i in cut_set, start,
                             date_style, q_style)
            if not full and task == "temporal_logic_state_evolution" and i == 0:
                traj["conversation"].reverse()  # sessions listed out of chronological order
            trajs.append(traj)
        tasks[task] = trajs
    return tasks


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _sums_text(entries: dict[str, str], bsd: bool = False) -> bytes:
    if bsd:   # what `sha256sum --tag` writes
        return "".join(f"SHA256 ({p}) = {h}\n" for p, h in sorted(entries.items())).encode()
    return "".join(f"{h}  {p}\n" for p, h in sorted(entries.items())).encode()


# Layout variants: the same data in the other shapes the card allows (issue 13). Each one loads,
# validates, verifies and runs with the same results as "default".
VARIANTS = ("default", "card-configs", "snake", "camel", "hyphen", "dimension-prefix",
            "pdfmap-list", "pdfmap-zero-based", "pdfmap-identity", "bsd-sums")


def _task_rel(dim: str, task: str, stem: str, variant: str) -> str:
    name = {"card-configs": f"test-{sorted(TASK_FILES).index(task):05d}-of-00011",
            "snake": task, "camel": "".join(w.capitalize() for w in task.split("_")),
            "hyphen": task.replace("_", "-"),
            "dimension-prefix": f"{dim.capitalize()} - {stem}"}.get(variant, stem)
    return f"benchmark/{dim}/{name}.json"


def _card_readme(task_paths: dict[str, str]) -> bytes:
    """A dataset card whose front matter configures the 11 task files (Hub style)."""
    lines = ["---", "license: other", "configs:"]
    for task, rel in task_paths.items():
        dim = TASK_FILES[task][0]
        lines += [f"- config_name: {dim}_{task}", "  data_files:", "  - split: test",
                  f"    path: \"{rel}\""]
    lines += ["---", "", "# Beyond Recall (synthetic br-eval snapshot)", ""]
    return "\n".join(lines).encode()


def _pdf_map_variant(pdf_map: dict, media, variant: str) -> dict:
    files = pdf_map["files"]
    if variant == "pdfmap-list":
        return {"pdfs": [{"file": f"benchmark/{k}", "pages": v["kept_pages"],
                          "evidence": v["evidence_pages"], "total_pages": v["original_page_count"],
                          "cropped_sha256": v["sha256"]} for k, v in sorted(files.items())]}
    if variant == "pdfmap-zero-based":
        return {k: {"kept_page_indices": [p - 1 for p in v["kept_pages"]],
                    "evidence_page_indices": [p - 1 for p in v["evidence_pages"]],
                    "original_page_count": v["original_page_count"]}
                for k, v in sorted(files.items())}
    if variant == "pdfmap-identity":
        out = dict(files)
        for item in media["pdf"]:
            if "kept_pages" not in item.facts:   # the original PDF: an entry without a page list
                out[item.path] = {"original_sha256": _sha(item.data), "reason":
                                  "source page annotations are invalid; kept original"}
        return {"files": out}
    return pdf_map


def _write_snapshot(root: Path, seed: int, scale: str, variant: str = "default") -> None:
    if variant not in VARIANTS:
        from beyondrecall.errors import DataError

        raise DataError(f"unknown sample variant {variant!r}; known: {', '.join(VARIANTS)}")
    full = scale == "full"
    media = build_media(seed)
    files: dict[str, bytes] = {}         # path relative to root -> bytes
    aliases: dict[str, list[str]] = {}
    for kind, items in media.items():
        for j, item in enumerate(items):
            files["benchmark/" + item.path] = item.data
            for cp in item.copies:
                files["benchmark/" + cp] = item.data
            if full:
                # Many paths, few distinct contents: the release's "repeated files are retained".
                n_alias = {"image": 60, "pdf": 12, "video": 14}[kind]
                ext = item.path.rsplit(".", 1)[-1]
                folder = "videos" if kind == "video" else "images"
                names = [f"{folder}/{kind}_{j:02d}_{a:03d}.{ext}" for a in range(n_alias)]
                for n in names:
                    files["benchmark/" + n] = item.data
                aliases[item.path] = names

    tasks = build_tasks(seed, scale, media, aliases)
    indent = None if full else 1
    stats_tasks = {}
    referenced: dict[str, set[str]] = {"images": set(), "pdfs": set(), "videos": set()}
    for task, trajs in tasks.items():
        dim, stem = TASK_FILES[task]
        text = json.dumps(trajs, ensure_ascii=False, indent=indent)
        files[_task_rel(dim, task, stem, variant)] = text.encode("utf-8")
        n_s = n_t = n_q = n_c = 0
        for tr in trajs:
            n_s += len(tr["conversation"])
            for s in tr["conversation"]:
                n_t += len(s["turns"])
                for t in s["turns"]:
                    for m in t.get("media") or ():
                        referenced[f"{media_kind(m)}s"].add(m)
            for q in tr["questions"]:
                n_q += 1
                n_c += q.get("timestamp") is not None
                for m in q.get("media") or ():
                    referenced[f"{media_kind(m)}s"].add(m)
        stats_tasks[f"{dim}/{task}"] = {"file": _task_rel(dim, task, stem, variant),
                                        "trajectories": len(trajs), "questions": n_q,
                                        "sessions": n_s, "turns": n_t,
                                        "questions_with_cutoff": n_c}
    totals = {k: sum(v[k] for v in stats_tasks.values())
              for k in ("trajectories", "questions", "sessions", "turns", "questions_with_cutoff")}
    media_stats = {kind: {"referenced_files": len(paths),
                          "distinct_content": len({_sha(files["benchmark/" + p]) for p in paths})}
                   for kind, paths in referenced.items()}
    pdf_map = {"files": {}}
    for item in media["pdf"]:
        if "kept_pages" in item.facts:
            entry = {"kept_pages": item.facts["kept_pages"],
                     "evidence_pages": item.facts["evidence_pages"],
                     "original_page_count": item.facts["original_page_count"],
                     "sha256": _sha(item.data)}
            pdf_map["files"][item.path] = entry
            for alias in aliases.get(item.path, ()):
                pdf_map["files"][alias] = entry
    dumps = lambda obj: (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode()  # noqa: E731
    generator = {"generator": "br-eval beyondrecall.sample", "generator_version": GENERATOR_VERSION,
                 "scale": scale, "seed": seed, "synthetic": True}
    files["benchmark/RELEASE_STATS.json"] = dumps(dict(generator, tasks=len(tasks), **totals,
                                                       media=media_stats))
    files["benchmark/PDF_PREPROCESSING.json"] = dumps(_pdf_map_variant(pdf_map, media, variant))
    if variant == "card-configs":
        files["README.md"] = _card_readme({t: _task_rel(TASK_FILES[t][0], t, TASK_FILES[t][1],
                                                        variant) for t in TASK_FILES})
    files["benchmark/README.md"] = (
        "# Beyond Recall: synthetic br-eval snapshot\n\n"
        f"Generated by br-eval (`beyondrecall.sample`, generator version {GENERATOR_VERSION}, "
        f"scale `{scale}`, seed {seed}). This is NOT the Beyond Recall benchmark: the "
        "conversations, questions and media are invented to exercise the release layout, the "
        "schema and the history-visibility rule. Download the real release with "
        "`br-eval download`.\n").encode()
    files["metadata/VERSION.json"] = dumps(dict(generator, version=DATA_VERSION))
    files["metadata/task_stats.json"] = dumps(stats_tasks)
    files["metadata/media_manifest.json"] = dumps({
        p[len("benchmark/"):]: {"sha256": _sha(b), "bytes": len(b)}
        for p, b in sorted(files.items())
        if p.startswith(("benchmark/images/", "benchmark/videos/"))})
    files["metadata/pdf_sources.json"] = dumps({
        item.path: {"source": "synthetic (PyMuPDF)", "title": item.facts["title"]}
        for item in media["pdf"]})
    files["docs/CHANGELOG.md"] = (
        "# Changelog\n\n"
        f"## {DATA_VERSION}\n\n- Synthetic snapshot written by br-eval's sample generator "
        f"(version {GENERATOR_VERSION}); mirrors the layout of the evidence-preserving "
        "cropped-PDF release.\n").encode()

    bench_sums = {p[len("benchmark/"):]: _sha(b) for p, b in files.items()
                  if p.startswith("benchmark/")}
    bsd = variant == "bsd-sums"
    files["benchmark/SHA256SUMS"] = _sums_text(bench_sums, bsd)
    files["checksums/SHA256SUMS"] = _sums_text({p: _sha(b) for p, b in files.items()}, bsd)

    for rel, data in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def generate_sample(dest: Path, *, scale: str = "sample", seed: int = 0,
                    variant: str = "default") -> Path:
    """Write a synthetic snapshot into `dest` and return it; an existing complete one is kept.

    Written into a temporary folder next to `dest` and renamed into place, so readers never see a
    half-written snapshot; when two processes race, the loser discards its copy.
    """
    if scale not in ("sample", "full"):
        from beyondrecall.errors import DataError

        raise DataError(f"unknown scale {scale!r} (use 'sample' or 'full')")
    dest = Path(dest)
    if (dest / ".complete").exists():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.parent / f".{dest.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        tmp.mkdir()
        _write_snapshot(tmp, seed, scale, variant)
        # The markers go in before the rename so `dest` appears complete in one step.
        for marker in MARKERS:
            (tmp / marker).touch()
        try:
            os.rename(tmp, dest)   # replaces `dest` only when it is missing or empty
        except OSError:
            if (dest / ".complete").exists():
                return dest        # another process won the race
            from beyondrecall.errors import DataError

            raise DataError(f"{dest}: exists and is not a generated snapshot; "
                            f"choose an empty or new folder") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys
    import time

    p = argparse.ArgumentParser(prog="python -m beyondrecall.sample",
                                description="Write a synthetic Beyond Recall snapshot.")
    p.add_argument("dest", type=Path)
    p.add_argument("--scale", choices=("sample", "full"), default="sample")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variant", choices=VARIANTS, default="default",
                   help="the same data in another layout the card allows")
    args = p.parse_args(argv)
    if (args.dest / ".complete").exists():
        print(f"{args.dest}: a generated snapshot is already there; kept as is", file=sys.stderr)
        return 0
    t0 = time.perf_counter()
    try:
        generate_sample(args.dest, scale=args.scale, seed=args.seed, variant=args.variant)
    except Exception as exc:  # DataError / OSError: one line, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 1
    stats = json.loads((args.dest / "benchmark" / "RELEASE_STATS.json").read_text())
    print(f"{args.dest}: {stats['trajectories']} trajectories, {stats['questions']} questions, "
          f"{stats['sessions']} sessions, {stats['turns']} turns "
          f"({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
