"""Builds tests/data/mc_labels.jsonl from hand-written reply templates (run from the repository root: python tests/data/make_mc_labels.py)."""
import json, random
SETS = [
    {"A": "red", "B": "blue", "C": "dark red", "D": "green"},
    {"A": "Paris", "B": "Rome", "C": "Oslo", "D": "Lisbon"},
    {"A": "She moved for work", "B": "She moved to be near her mother", "C": "She moved because of the rent"},
    {"A": "Yes", "B": "No"},
    {"A": "2 cats", "B": "3 cats", "C": "1 dog", "D": "no pets"},
]
TUNE = r"""X|issue-16|{L} is correct.
X|issue-16|{L} is the answer.
X|issue-16|I choose {L}.
X|issue-16|I'd go with {L}
X|issue-16|{L}, because that's what the photo showed.
X|issue-16|{L}, not {U}
X|model-style|The answer is ({L})
X|model-style|**{L}**
X|model-style|Option {L}: {T}
X|model-style|{L}) {T}
X|model-style|answer: {l}
X|model-style|{T}
X|model-style|The answer is {T}.
X|model-style|{L}
X|model-style|({L})
X|model-style|{L}.
X|model-style|[{L}]
X|model-style|Answer: {L}
X|model-style|Answer: ({L}) {T}
X|model-style|Final answer: {L}
X|model-style|The correct answer is {L}.
X|model-style|The correct option is {L}.
X|model-style|The correct choice is ({L}).
X|model-style|My answer is {L}.
X|model-style|I'll go with {L}.
X|model-style|I would pick {L}.
X|model-style|I pick option {L}.
X|model-style|I select {L}.
X|model-style|Option {L}.
X|model-style|option {l}
X|model-style|Choice {L}
X|model-style|{L}: {T}
X|model-style|{L}. {T}
X|model-style|({L}) {T}
X|model-style|**({L}) {T}**
X|model-style|**Answer: {L}**
X|model-style|The answer is **{L}**.
X|model-style|The best answer is {L}.
X|model-style|The most likely answer is {L}.
X|model-style|Based on the conversation, the answer is {L}.
X|model-style|Based on our chats, it's {L}.
X|model-style|It's {L}.
X|model-style|It is {L}.
X|model-style|That would be {L}.
X|model-style|That would be {T}.
X|model-style|Definitely {L}.
X|model-style|I believe the answer is {L}: {T}.
X|model-style|I think it's {L}.
X|model-style|I think it's {T}.
X|model-style|Looking at the history, {T} is right, so {L}.
X|model-style|You told me it was {T}, so the answer is {L}.
X|model-style|{L} - {T}
X|model-style|{L} ({T})
X|model-style|Answer: {L}. Explanation: in the photo you shared it was {T}.
X|model-style|I first thought {M}, but the answer is {L}.
X|model-style|Not {M}; the answer is {L}.
X|model-style|It's not {M}, it's {L}.
X|model-style|The answer is {L}, not {M}.
X|model-style|{L} is right; {M} is what you had before.
X|model-style|Correct answer: {L}
X|model-style|answer is {l}
X|model-style|The answer: {L}
X|model-style|Answer - {L}
X|model-style|ANSWER: {L}
X|model-style|{L}!
X|model-style|Going with {L}.
X|model-style|Let's go with {L}.
X|model-style|Selected: {L}
X|model-style|Response: {L}
X|model-style|My choice is {L}.
X|model-style|My pick: {L}
X|model-style|{L} seems right.
X|model-style|{L} would be my answer.
X|model-style|{L} is the one.
X|model-style|The option that fits is {L}.
X|model-style|Among the options, {L} fits best.
X|model-style|Option ({L}) is correct.
X|model-style|\boxed{{L}}
X|model-style|The answer is: {L}) {T}
X|model-style|<answer>{L}</answer>
X|model-style|{"answer": "{L}"}
-|model-style|Either {L} or {M}.
-|model-style|{L} or {M}, I'm not sure which.
-|model-style|I don't know.
-|model-style|I can't tell from the history.
-|model-style|It could be {L} or {M}.
-|model-style|Both {L} and {M} seem possible."""
HELDOUT = r"""X|model-style|I'm going with option {L}.
X|model-style|My final answer: ({L})
X|model-style|{L} -- {T}.
X|model-style|The right one is {L}.
X|model-style|Pretty sure it's {L}.
X|model-style|I'd say {L}.
X|model-style|Answer is ({l}).
X|model-style|**Option {L}** — {T}
X|model-style|{L}, since you mentioned it in March.
X|model-style|It has to be {L}.
X|model-style|That's {L}: {T}.
X|model-style|I'll choose {L}.
X|model-style|Final: {L}
X|model-style|Correct option: ({L})
X|model-style|The answer should be {L}.
X|model-style|I'm confident the answer is {L}.
X|model-style|Option {L} is the answer.
X|model-style|{T} — that's option {L}.
X|model-style|It was {T}.
X|model-style|You said {T}.
X|model-style|{L} ({T}) is correct.
X|model-style|The answer is option {L}, {T}.
X|model-style|Choice ({L}).
X|model-style|Hmm, {L}.
X|model-style|Looks like {L} to me.
X|model-style|Definitely not {M}. It's {L}.
X|model-style|{L} rather than {M}.
X|model-style|I'd pick {L} over {M}.
X|model-style|**{L}.** {T}
X|model-style|Answer:
{L}
X|model-style|The correct response is {L}.
X|model-style|{L} is my final answer.
X|model-style|I'm choosing {L}.
X|model-style|Option {l}.
-|model-style|I'm torn between {L} and {M}.
-|model-style|No idea.
-|model-style|Could be {L}, could be {M}.
-|model-style|The history doesn't say."""


def templates(block):
    out, cur = [], None
    for line in block.split("\n"):
        if line[:2] in ("X|", "-|"):
            cur = line.split("|", 2)
            out.append(cur)
        else:
            cur[2] += "\n" + line
    return out


rng = random.Random(16)
rows = []
for split, block in (("tune", TUNE), ("heldout", HELDOUT)):
    for expect, source, tpl in templates(block):
        for k in range(3):
            options = SETS[(len(rows) + k) % len(SETS)]
            letters = sorted(options)
            L = rng.choice(letters)
            M = rng.choice([x for x in letters if x != L])
            reply = (tpl.replace("{L}", L).replace("{l}", L.lower()).replace("{M}", M)
                     .replace("{T}", options[L]).replace("{U}", options[M]))
            rows.append({"options": options, "reply": reply,
                         "choice": L if expect == "X" else None,
                         "source": f"{source} (template: {tpl!r})", "split": split})
seen = set()
with open("tests/data/mc_labels.jsonl", "w") as fh:
    for r in rows:
        key = (json.dumps(r["options"]), r["reply"])
        if key in seen:
            continue
        seen.add(key)
        fh.write(json.dumps(r, ensure_ascii=False) + "\n")
print(len(seen))
