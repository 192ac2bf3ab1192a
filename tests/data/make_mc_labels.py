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

# Written blind (issue 16, second held-out set): new phrasings not used in TUNE or HELDOUT above,
# labelled as a person reads them, committed before any further change to choice.py. Never tune on it.
HELDOUT2 = r"""X|cot-ending|Let me think step by step. You mentioned {T} in the second session. Therefore, the best option is {L}.
X|cot-ending|Reviewing the history: you first said {U}, but later updated it to {T}. So the answer is {L}.
X|cot-ending|Step 1: find where the topic came up.
Step 2: compare it with the options.
Conclusion: {L}
X|cot-ending|Considering all the evidence, I'd conclude ({L}).
X|cot-ending|Thus, the correct answer must be {L}.
X|cot-ending|After weighing the options, {L} stands out as the most consistent with what you said.
X|cot-ending|Hence {L}.
X|markdown|| Option | Verdict |
|---|---|
| {M} | no |
| {L} | yes |
X|markdown|- {M}: ruled out
- {L}: matches what you told me

**Answer: {L}**
X|markdown|### Answer
{L}
X|markdown|* **Answer:** {L}
* **Reason:** you mentioned {T} last week
X|final-answer|Final answer: ({l})
X|final-answer|Final Answer: The final answer is {L}.
X|final-answer|The final answer is $\boxed{{L}}$.
X|option-text|{T}, I'm fairly sure.
X|option-text|I remember you saying {T}.
X|option-text|From what you shared: {T}.
-|hedge|It might be {L}, but it might also be {M}.
-|hedge|I can't decide between {L} and {M}.
-|hedge|Possibly {L} or possibly {M}; the history is ambiguous.
-|hedge|I'm not sure. Maybe {L}? Or {M}?
-|hedge|There's not enough information to pick an option.
-|hedge|None of the options match what you told me.
-|hedge|I can't determine the answer from our conversations.
-|hedge|Sorry, I don't have enough information to answer that.
-|hedge|All of the options seem plausible.
-|hedge|{L}? {M}? Hard to say.
-|hedge|I'd need more context to choose between the options.
X|negation|Not {M}. {L}.
X|negation|It definitely isn't {M}; I'd answer {L}.
X|negation|{M} is wrong. The right answer is {L}.
X|negation|{M} is incorrect, so {L}.
X|negation|I'd rule out {M}, which leaves {L}.
X|negation|It's option {L}, not option {M}.
-|negation|Neither {L} nor {M}.
-|two-letters|{L} and {M} are both correct.
-|two-letters|Answer: {L}, {M}
-|two-letters|Answer: {L}
Answer: {M}
-|two-letters|{L}/{M}
X|lowercase|the answer is {l}
X|lowercase|i'd say ({l})
X|lowercase|{l}
X|lowercase|({l}) {T}
X|letters-in-words|Like a true B-movie fan, you picked {T}.
X|letters-in-words|It's {T} (you said so on the A1 road trip).
X|letters-in-words|I'd say {T}; you mentioned it on the D.C. trip.
X|letters-in-words|According to Dr. A. Smith's note you shared, it's {T}.
X|explanation-lines|Answer: {L}

Reasoning:
A. You said {T} in March.
B. Nothing later changed it.
X|model-style-2|**Correct Answer: {L}) {T}**
X|model-style-2|Answer: {L}
Confidence: high
X|model-style-2|ANSWER: ({L})
X|model-style-2|The answer is {L} ({T}).
X|model-style-2|Based on the provided context, the most appropriate choice is {L}.
X|model-style-2|I would select option {L}, "{T}".
X|model-style-2|{L} is the most accurate option.
X|model-style-2|Of the given choices, {L} best matches.
X|model-style-2|**{L}** is correct because you told me {T}.
X|model-style-2|Answer ({L})
X|model-style-2|{"choice": "{L}", "reason": "stated in the chat"}
X|model-style-2|The option is {L}
X|model-style-2|Selected option: {L}) {T}
X|model-style-2|{L} ✅
X|model-style-2|✅ {L}  ❌ {M}
X|model-style-2|Sure! The answer is {L}.
X|model-style-2|Great question! Based on what you shared earlier, I believe it's {L}.
X|model-style-2|Answer = {L}
X|model-style-2|Letter: {L}
X|model-style-2|Option {L} ({T}) matches your message from last week.
X|model-style-2|{T} ({L})
X|model-style-2|I'd eliminate {M} first; what remains is {L}."""


# Written blind (issue 16, third held-out set): phrasings not used in any block above (elimination,
# check marks, tables, letter lists, question hedges, capitals that are not option letters, new
# model styles), labelled as a person reads them and committed before the third round of changes to
# choice.py; the extractor was not run on it before its single measurement. Never tune on it.
HELDOUT3 = r"""X|elimination|{M} can't be right, so I'll say {L}.
X|elimination|Since {M} is ruled out, the answer is {L}.
X|elimination|Eliminating {M} leaves {L}.
X|elimination|{M} doesn't match anything you said. {L} does.
X|elimination|Option {M} is false; option {L} is true.
X|elimination|By elimination: {L}.
X|elimination|{M} is tempting, but {L} is correct.
X|elimination|Option {M} mentions something else; option {L} matches. Answer: {L}.
X|table|| Choice | Correct? |
| --- | --- |
| {L} | ✓ |
| {M} | ✗ |
X|table|| Answer |
|---|
| {L} |
X|table|| Option | Matches the chat |
|:-:|:-:|
| {M} | ✗ |
| {L} | ✔ |
X|markdown|> **{L}**
X|markdown|1. Answer: {L}
2. Why: you mentioned {T}.
X|markdown|## Final answer

**({L})** {T}
X|marks|{L} ✔
X|marks|✔️ {L}
X|marks|{M} ✗, {L} ✓
X|marks|{L}: ✅ correct
X|marks|❌ {M}
✅ {L}
-|marks|{L} ✓ {M} ✓
-|letter-list|{L}, {M}
-|letter-list|The answers are {L} and {M}.
-|letter-list|{L} & {M}
-|letter-list|Options {L} and {M} both apply.
-|letter-list|Answer: {L}; {M}
-|hedge|Is it {L}? Or maybe {M}?
-|hedge|{L} or {M}? I can't tell.
-|hedge|Maybe {L}, maybe {M}.
-|hedge|I honestly don't remember which one it was.
-|hedge|The conversation never mentioned this, so I can't pick.
-|hedge|Not sure — {L} and {M} both look right.
-|hedge|Answer: {L} or {M}
-|refusal|I can't answer that; it wasn't in our chats.
-|refusal|None of the above.
X|hedge-single|Probably {L}, though I'm not certain.
X|hedge-single|My best guess is {L}.
X|capitals|You mentioned {T} in your Q&A with Dr. B. Jones.
X|capitals|On the D-Day tour you told me it was {T}.
X|capitals|At 9 A.M. you said {T}.
X|capitals|Your note from the B&B says {T}.
X|capitals|You told me {T} after the A-list party.
X|capitals|You said {T} while taking vitamin C.
X|option-text|Definitely {T}.
X|option-text|{T}!
X|option-text|It's "{T}".
X|option-text|The answer: {T}
X|model-style-3|Answer: Option {L}
X|model-style-3|The correct answer is option ({L}).
X|model-style-3|Answer ➜ {L}
X|model-style-3|{L} is the best fit.
X|model-style-3|The answer corresponds to {L}.
X|model-style-3|I'm leaning toward {L}.
X|model-style-3|Result: {L}
X|model-style-3|Prediction: {L}
X|model-style-3|[[{L}]]
X|model-style-3|Answer: [{L}] {T}
X|model-style-3|({L}) is the answer.
X|model-style-3|Option {L} it is.
X|model-style-3|The letter is {L}.
X|model-style-3|So, {L}.
X|model-style-3|Okay — {L}, {T}.
X|model-style-3|I'd answer with {L} here.
X|model-style-3|{"answer": "({L})"}
X|model-style-3|answer: ({l}) {T}
X|model-style-3|The right choice is {L} because you said {T}.
X|cot|First, you said {U}. Later you corrected that to {T}. Final answer: {L}.
X|cot|<think>Maybe {M}... no, you said {T}.</think>
Answer: {L}
X|negation|Not option {M} — it's {L}.
X|negation|{L}. ({M} was before you changed it.)
X|negation|The answer isn't {M}. It's {L}.
X|lowercase|answer - {l}
X|lowercase|final answer: {l}
X|multiline|{L}

Explanation: you told me {T} last month.
X|multiline|Answer:
({L}) {T}

This matches your message from the trip."""


# Written blind (issue 16, fourth held-out set): phrasings not used in any block above (elimination
# sentences, check marks and checkboxes, tables with and without outer pipes, capitals in
# abbreviations and names, new model styles, letter pairs and hedges that must read None), labelled
# as a person reads them and committed before the fourth round of changes to choice.py; the
# extractor was not run on it before its single measurement. Never tune on it.
HELDOUT4 = r"""X|elimination-2|{M} is out. {L} it is.
X|elimination-2|Scratch {M}. Going with {L}.
X|elimination-2|{M}? No. {L}? Yes.
X|elimination-2|I can rule out {M}; the answer is {L}.
X|elimination-2|{M} contradicts what you said, so {L}.
X|elimination-2|Definitely not {M}, so by elimination {L}.
X|elimination-2|Only {L} fits; {M} doesn't.
X|elimination-2|{M} is not it. {L} is.
X|marks-2|{L} — ✓
X|marks-2|✓ {L}
X|marks-2|{M}: ✗
{L}: ✓
X|marks-2|[x] {L}
[ ] {M}
X|marks-2|{L} ☑
X|table-2|| Option | Answer |
|---|---|
| {L} | ✅ |
X|table-2|| Question | Answer |
|---|---|
| Which one? | {L} |
X|table-2|Option | Correct
{M} | no
{L} | yes
X|capitals-2|Per your B.Sc. thesis notes, it was {T}.
X|capitals-2|It was {T}, as you said at the A&E visit.
X|capitals-2|You mentioned {T} right after the B-52s concert.
X|capitals-2|You told me {T} when we talked about Plan B.
X|capitals-2|Your vitamin D levels came up when you said {T}.
X|capitals-2|On the U.S.A. trip you said {T}.
X|capitals-2|You said {T} to your friend A.J.
X|model-style-4|The answer is clearly {L}.
X|model-style-4|Answer → {L}
X|model-style-4|I'll settle on {L}.
X|model-style-4|Final decision: {L}
X|model-style-4|My response: ({L})
X|model-style-4|Correct: {L}
X|model-style-4|**Final Answer:** ({L}) {T}
X|model-style-4|Choice: {l}
X|model-style-4|{L} is what I'd pick.
X|model-style-4|{L} matches best.
X|model-style-4|I'd lean {L}.
X|model-style-4|Option {L}, definitely.
X|model-style-4|The best fit here is option {L}.
X|model-style-4|It must be {L}, {T}.
X|model-style-4|Going by your last message, {L}.
X|model-style-4|```
{L}
```
X|model-style-4|Answer: **{L}**
X|model-style-4|{L} — because you told me {T}.
X|model-style-4|The correct letter is {L}.
X|model-style-4|I'd choose option {L} ({T}).
X|model-style-4|Answer: {L}) {T}
X|model-style-4|<answer>({L})</answer>
X|option-text-2|Pretty sure it was {T}.
X|option-text-2|That'd be {T}, I think.
X|option-text-2|{T}, as you told me.
X|option-text-2|Not {U} — {T}.
X|cot-2|Let's see. You said {U} at first, then changed it to {T}. So {L}.
X|cot-2|Reasoning: the chat says {T}.
Answer: {L}
X|cot-2|You mentioned {T} twice. That points to {L}.
X|cot-2|<think>{M}? No.</think> {L}
X|negation-2|{L}, definitely not {M}.
X|negation-2|Not {M}. Not sure about the others, but I'll say {L}.
X|negation-2|I wouldn't choose {M}. I'd choose {L}.
X|negation-2|{M}'s wrong — {L}.
X|lowercase-2|answer:
{l}
X|lowercase-2|the correct option is ({l})
X|lowercase-2|{l})
X|multiline-2|Answer: {L}

Why: you said {T}, not {U}.
X|hedge-single-2|I think {L}, but I'm not 100% sure.
X|hedge-single-2|Probably option {L}.
X|hedge-single-2|If I had to guess, {L}.
-|two-letters-2|It's {L} or {M}.
-|two-letters-2|I'd say {L} and {M}.
-|two-letters-2|{L}, {M}, or both.
-|two-letters-2|Somewhere between {L} and {M}.
-|two-letters-2|Answers: {L}, {M}
-|two-letters-2|Could go either way: {L} or {M}.
-|marks-2|✓ {L}
✓ {M}
-|table-2|| Option | Fits |
|---|---|
| {L} | yes |
| {M} | yes |
-|option-text-2|Both {T} and {U} seem right.
-|option-text-2|Either {T} or {U}.
-|refusal-2|I'm unsure; none of these ring a bell.
-|refusal-2|I don't recall you mentioning any of these.
-|refusal-2|I'd need to check our earlier chats before picking.
-|refusal-2|Neither option matches what you told me.
-|refusal-2|I'm not able to answer this question.
-|refusal-2|All of them."""

# Round 5 tuning templates (issue 16): realistic model replies written for tuning, not blind:
# reasoning that names other letters before a final answer, <think> blocks, JSON and \boxed{}
# answers, companion replies naming the option's text among names and abbreviations, and replies
# that must read None (refusals, two options asserted, hedges, questions back).
TUNE5 = r"""X|tune-5 short|The answer is {L}) {T}.
X|tune-5 short|**{L}) {T}**
X|tune-5 short|Answer: **({L})**
X|tune-5 short|Sure — {L}.
X|tune-5 short|{L}

Because you told me {T}.
X|tune-5 short|**Answer**: {L}
X|tune-5 short|**Final answer: ({L})**
X|tune-5 short|The correct option is **{L}. {T}**
X|tune-5 short|It's {L}, {T}.
X|tune-5 short|Option ({L}) — {T}.
X|tune-5 short|I'd go with {L}) {T}.
X|tune-5 short|Correct answer: ({L}) {T}
X|tune-5 short|{L}: {T}.
X|tune-5 short|**{L}** — {T}
X|tune-5 short|Answer: {L}.
X|tune-5 cot|Let's think. Option {M} is {U}, but you later told me {T}. So the answer is {L}.
X|tune-5 cot|You first said {U} ({M}), then corrected it to {T}. So {L}.
X|tune-5 cot|{M} seems plausible at first, but you later said {T}. Therefore, {L}.
X|tune-5 cot|Looking at each option:
{M}. {U} - you mentioned this once but changed your mind.
{L}. {T} - this is what you said last.
Therefore the answer is {L}.
X|tune-5 cot|{M} is what you said first, but you updated it. The answer is {L}.
X|tune-5 cot|Initially I thought {M}, but re-reading the chat, it's {L}.
X|tune-5 cot|Could it be {M}? No, you changed that. {L} is correct.
X|tune-5 cot|It's {M}... wait, no. You said {T} later. {L}.
X|tune-5 cot|Hmm, {M} or {L}? You said {T} most recently, so {L}.
X|tune-5 cot|Step 1: you said {U} in the first session.
Step 2: you changed it to {T} later.
Step 3: {M} is outdated; {L} is current.
Answer: {L}
X|tune-5 cot|**Reasoning:** {M} matches your first message, but your latest one says {T}.

**Answer:** {L}
X|tune-5 cot|{M} and {L} both came up, but only {L} is what you settled on. Final answer: {L}.
X|tune-5 cot|Option {M} can be ruled out since you never said {U}. That leaves {L}.
X|tune-5 cot|Answer: {M}. Actually, wait — you changed it to {T}. Answer: {L}.
X|tune-5 cot|The answer is {M}. No, scratch that: the answer is {L}.
X|tune-5 cot|Considering {M} ({U}) and {L} ({T}), the more recent one is {L}.
X|tune-5 cot|Option {M} says {U}, which contradicts your last message. Option {L} says {T}, which matches. So, {L}.
X|tune-5 cot|I don't think it's {M}. It's {L}.
X|tune-5 cot|It wouldn't be {M}; I'd say {L}.
X|tune-5 cot|Is it {M}? No. Is it {L}? Yes.
X|tune-5 cot|{M} conflicts with what you said. {L} matches.
X|tune-5 cot|{M} is inconsistent with the chat, so I'm going with {L}.
X|tune-5 think|<think>
You said {U} first, then {T}. {M} is {U}, {L} is {T}. The latest is {T}, so {L}.
</think>

{L}
X|tune-5 think|<think>Maybe {M}? No — the user changed it.</think>
The answer is ({L}) {T}.
X|tune-5 think|<think>{M} or {L}... the chat says {T}.</think>

**{L}**
X|tune-5 think|The user asked about this before. {M} was the old value.</think>

Answer: {L}
X|tune-5 think|<thinking>Options {M} and {L}; {M} is wrong.</thinking>
{L}
X|tune-5 think|<think>
Let me recall. You told me {T} last week, so it's {L}.
</think>
X|tune-5 json|{"answer": "{L}"}
X|tune-5 json|{"answer": "{L}) {T}"}
X|tune-5 json|{"answer": "{T}"}
X|tune-5 json|{"reasoning": "{M} is outdated; you later said {T}.", "answer": "{L}"}
X|tune-5 json|```json
{"answer": "{L}", "confidence": 0.9}
```
X|tune-5 json|{"final_answer": "({L})"}
X|tune-5 json|{'answer': '{L}'}
X|tune-5 json|{"choice": "{L}", "explanation": "{M} does not match; {L} does."}
-|tune-5 json|{"answer": null}
-|tune-5 json|{"answer": "{L} or {M}"}
-|tune-5 json|{"answer": "unknown", "reason": "not mentioned in the chat"}
X|tune-5 boxed|\boxed{{L}}
X|tune-5 boxed|$\boxed{{L}}$
X|tune-5 boxed|\boxed{\text{{L}}}
X|tune-5 boxed|The answer is $\boxed{({L})}$.
X|tune-5 boxed|{M} is outdated, so the answer is \boxed{{L}}.
X|tune-5 boxed|Option {M} doesn't fit. Final answer: $\boxed{\textbf{({L})}}$
X|tune-5 companion|Oh, that'd be {T}! You told me when we were chatting after your MBA class.
X|tune-5 companion|It's {T} — I remember because Sam from HR asked you about it too.
X|tune-5 companion|You said {T} right after your A-levels.
X|tune-5 companion|{T}! You mentioned it while reading about Malcolm X.
X|tune-5 companion|You told me {T} when you were packing for the trip with Team B.
X|tune-5 companion|I remember: {T}. That was the week your C++ exam was due.
X|tune-5 companion|{T}, the same week you got that A+ on your essay.
X|tune-5 companion|You said {T}, right before you went for your X-ray.
X|tune-5 companion|That was {T}. You brought it up on the U-turn story about Route 9.
X|tune-5 companion|From what you told me at J. K.'s party, {T}.
X|tune-5 companion|I believe it was {T}, after you watched Season B of the show.
X|tune-5 companion|It was {T}; you mentioned it in Part C of your travel notes.
X|tune-5 companion|Definitely {T}. Your T-shirt story was the same day.
X|tune-5 companion|You mentioned {T} while listening to the B-side of that record.
X|tune-5 companion|{T}. You told me in Room D after the meeting.
X|tune-5 companion|Are you asking about the trip? If so, {T}.
-|tune-5 none|I'm sorry, but I don't have access to our earlier conversations, so I can't say.
-|tune-5 none|As an AI, I don't have memory of previous chats.
-|tune-5 none|I'm not sure — it's either {L} or {M}.
-|tune-5 none|{L} and {M} are both correct.
-|tune-5 none|It could be {L}, but {M} is also possible.
-|tune-5 none|Could you clarify which conversation you mean?
-|tune-5 none|Do you mean {L} or {M}?
-|tune-5 none|Was it {T}?
-|tune-5 none|Did you mean {T} or {U}?
-|tune-5 none|Which one are you asking about?
-|tune-5 none|Hmm, {L} or {M}? I really can't tell.
-|tune-5 none|Both {T} and {U} came up, so I can't pick one.
-|tune-5 none|I can't choose between {T} and {U}.
-|tune-5 none|Both {T} and {U} seem right.
-|tune-5 none|<think>Not mentioned anywhere.</think>
I don't know.
-|tune-5 none|<think>{L}? {M}?</think>
I'm not sure.
-|tune-5 none|I don't remember you telling me that, so I won't guess.
-|tune-5 none|I'd rather not guess between {L} and {M}.
X|tune-5 cot-2|Looking at the options:
- {M}) {U}: you said this at first
- {L}) {T}: you said this later

Since your most recent statement was {T}, the answer is **{L}**.
X|tune-5 cot-2|**{L}. {T}**

You told me about it; {M} ({U}) was the old one.
X|tune-5 cot-2|Answer: {L} ({T}). Option {M} is the old value.
X|tune-5 cot-2|{L} is the most likely. {M} doesn't fit.
X|tune-5 cot-2|Option {L}. Option {M} was correct before you changed it.
X|tune-5 cot-2|Not {M}. It's {L}.
X|tune-5 cot-2|{M} - no
{L} - yes
X|tune-5 cot-2|Is it {M} or {L}? I'd say {L}.
X|tune-5 cot-2|{M}? Definitely not. {L}.
X|tune-5 cot-2|Neither {M} nor the others; {L}.
X|tune-5 cot-2|I think it's {M}. Actually, no — it's {L}.
X|tune-5 cot-2|Okay, let me think. You changed it later, so it's option {L}.</think>

{L}) {T}
X|tune-5 json|Answer: {"choice": "{L}"}
X|tune-5 json|```json
{
  "answer": "{L}"
}
```
X|tune-5 option-text|{T}, I think? You changed it from {U}.
X|tune-5 option-text|It was {U} at first, but you changed it from {U} to {T}. Now it's {T}.
-|tune-5 none|Sorry, I don't remember. Could it be {L}?
-|tune-5 none|I'd say {L}... or maybe {M}?
-|tune-5 none|Hmm, I'm not certain. It might be {L}, or possibly {M}.
-|tune-5 none|I think {L}, but {M} is also possible.
-|tune-5 none|Do you mean your first message or the later one?"""
# Written blind (issue 16, fifth held-out set): new phrasings in the styles real models use when
# answering a multiple-choice memory question (short answers of GPT-4o, Claude, Gemini, Llama, Qwen,
# Mistral, InternVL and small local models; reasoning and <think> replies that reject hypotheses;
# companion replies that give the option's text in a sentence; refusals, two-option answers, hedges
# and questions back that must read None). The writer did not read choice.py, its tests, the
# scoring-quality bench or the README's measured figures, and ran no extractor on these rows.
# Labelled by eye as a person reads them. Never tune on it.
HELDOUT5 = r"""X|gpt-4o-style|The correct answer is **{L}) {T}**.
X|gpt-4o-style|**Answer:** {L}) {T}
X|gpt-4o-style|The answer is **{L}. {T}**
X|gpt-4o-style|Sure — it's **{L}**.
X|claude-style|Based on our previous conversations, the answer is **{L}**: {T}.
X|claude-style|Looking back at what you shared, I'd say **{L}) {T}**.
X|claude-style|{L}) {T}

You mentioned this when we talked about your plans last month.
X|claude-style|I believe it's {L}, {T}.
X|gemini-style|**{L}. {T}**

This is the option that matches what you told me earlier.
X|gemini-style|The correct option is **{L}**.
X|gemini-style|The answer is **{L}**, {T}.
X|gemini-style|Answer: **{L}) {T}**

*Reason:* you mentioned it in an earlier session.
X|llama-style|The correct answer is: {L}
X|llama-style|I'm happy to help! The correct answer is {L}.
X|llama-style|Based on the conversation history, the correct answer is ({L}) {T}.
X|llama-style|The correct answer is {L}) {T}.
X|qwen-vl-style|{L}<|im_end|>
X|qwen-style|答案：{L}
X|qwen-vl-style|The answer is {L}. {T}.
X|qwen-vl-style|Answer: {L}. {T}
X|qwen-style|【{L}】
X|mistral-style|{L}</s>
X|mistral-style|The answer is {L}: {T}
X|internvl-style|{L}
{T}
X|small-local|Answer: {L}
Answer: {L}
X|small-local|{L}

Explanation: The user said {T}.
X|small-local|the correct answer is {l}) {T}
X|json-style|{"answer": "{L}", "confidence": 0.9}
X|json-style|```json
{"answer": "{L}"}
```
X|json-style|{"selected_option": "{L}", "text": "{T}"}
X|latex-style|\boxed{\text{{L}}}
X|latex-style|Therefore, the answer is \(\boxed{{L}}\).
X|dash-style|{L} – {T}, as you said.
X|dash-style|({L}) - {T}
X|letter-own-line|Based on what you told me in our chats, the answer is:

{L}
X|letter-own-line|Here's my answer.
{L}
X|letter-own-line|I checked our earlier conversations.

**{L}**
X|answer-line|Answer: {L} ({T})
X|answer-line|Answer: {L}
Explanation: you brought it up during our chat about your weekend.
X|answer-line|Correct answer: **{L}**
X|bracket|[{L}] {T}
X|option-label|Option ({L}) — {T}
X|text-only|**{T}**
X|text-only|The answer is "{T}".
X|trailing-expl|{L}. You mentioned it when we were planning your trip.
X|cot-think|<think>
The user asked about this earlier. {M} sounds familiar, but they corrected it later to {T}.
</think>

The answer is {L}.
X|cot-think|<think>Options: {M} or {L}? The chat says {T}, which is option {L}.</think>
**{L}**
X|cot-think|<think>
Let me recall. The user mentioned {U} once, but only as something a friend did. For themselves they said {T}. So {L}.
</think>
{L}) {T}
X|cot-think|<think>could be {M}... wait, wrong. they said {T} later.</think>

Answer: {L}
X|cot-think|<think>
Hypothesis: {M}. Check: the chat never says {U}. Rejected.
Hypothesis: {L}. Check: the chat says {T}. Accepted.
</think>
Final answer: {L}
X|cot-think|<think>The user said {T}. Option {L}.</think>{L}
X|cot-let-me-think|Let me think... you said {T} when we talked last time, so the answer is {L}.
X|cot-let-me-think|Hmm, let me think. At first I'd guess {M}, but that was before your update. The answer is {L}.
X|cot-let-me-think|Let me think about this carefully.

In our second conversation you mentioned {T}. Nothing later contradicts it.

So the answer is ({L}).
X|cot-5|Let's go through it. Option {M} is {U}, which you never mentioned. Option {L} is {T}, which you said directly. So the answer is {L}: {T}.
X|cot-5|I considered {M}, but it doesn't match the photo you shared. {L} does. Final answer: {L} ({T}).
X|cot-5|You brought this up twice. The first time you said {U}; the second time you corrected yourself to {T}. Since the later message is the current one, I'll go with {L}.
X|cot-5|To answer, I need the most recent mention. That was in our last session, where you said {T}. So: {L}.
X|cot-5|Initially {M} seemed right. On reflection, your later message rules it out. Answer: {L}.
X|cot-5|My first instinct was {M}. However, you clearly told me {T}, so I'm changing my answer to {L}.
X|cot-5|Let's check each option. {M}: doesn't fit. {L}: fits what you said. So {L}.
X|cot-5|Step-by-step: (1) find the relevant message; (2) it says {T}; (3) that's option {L}. Answer: {L}.
X|cot-5|Reasoning: you said {T} in the photo caption. Option {M} ({U}) isn't mentioned anywhere. Therefore {L}.
X|cot-5|I was going to say {M}, but checking again, you told me {T}. So it's {L}.
X|cot-5|The question asks about the current state. Earlier it was {U} ({M}), but you updated it. The answer is {L}, {T}.
X|cot-5|{M} would have been true last year, but not anymore. Right now it's {L}.
X|cot-5|Thinking about our chats: you mentioned {T} when we discussed your plans, and never brought up {U}. I'm confident the answer is {L}.
X|cot-5|Option {M} looks close, but the details don't line up. Option {L} matches exactly. My answer: {L}.
X|cot-5|Let me reason. If it were {M}, you'd have mentioned {U}, and you didn't. So the answer must be {L}, {T}.
X|cot-5|It comes down to {M} or {L}. You said {T}. Therefore the answer is {L}.
X|cot-5|First pass: {M}? That doesn't fit the timeline. Second pass: {L} fits. Going with {L}.
X|cot-5|From the image you shared, the detail points to {T}. So out of the options, I choose {L} — {T}.
X|cot-5|{M} was my first guess, but it's wrong; you said {T}. The correct answer is {L}) {T}.
X|cot-5|You never said {U}, so {M} is out. You did say {T}. Answer: **{L}**.
X|cot-5|Although {M} is close, the answer is {L}, because you told me {T}.
X|cot-5|The key clue is your message about the trip, where you said {T}. That corresponds to option {L}. ({M} is a distractor.)
X|cot-5|Wait — I said {M} a moment ago, but that was a mistake. The right answer is {L}.
X|cot-5|Let me double-check: {L} is {T}, and that's what you told me. Confirmed — {L}.
X|cot-5|So we have {T} from your first message and nothing after it. That makes it {L}.
X|cot-5|I'm weighing {M} against {L}. {M} conflicts with your last message; {L} doesn't. I'll answer {L}.
X|cot-5|Reflecting on it: you said {T}. Answer = {L}.
X|companion|You told me it was {T}, remember?
X|companion|If I remember our chat right, it was {T}.
X|companion|From what you've shared with me, {T}.
X|companion|Oh, I remember this one! {T}.
X|companion|You mentioned it when we talked at 8 A.M. last Tuesday: {T}.
X|companion|I think it was {T} — you told me right after your appointment with Dr. B. Patel.
X|companion|When you got back from the U.K., you told me {T}.
X|companion|Last time we chatted, you said {T}. I hope that helps!
X|companion|Of course I remember — {T}. You were so excited about it.
X|companion|Aw, you told me that one! {T}.
X|companion|It was {T}, at least that's what you told me over coffee.
X|companion|You said {T}, and I thought that was lovely.
X|companion|That's an easy one: {T}. You brought it up during our chat about the holidays.
X|companion|Right — {T}, according to your U.S. trip recap.
X|companion|As you put it back in Jan., {T}.
X|companion|Dr. A told you to keep a diary, and in it you wrote {T}.
X|companion|If memory serves, {T}. You mentioned it to me around 10 P.M. one night.
X|companion|You shared a photo and told me {T}.
X|companion|I'm pretty confident it was {T}; it came up in the U.K. story you told me.
-|refusal-5|I'm sorry, but I can't tell from our chats which one it is.
-|refusal-5|I don't have that information in our conversation history.
-|refusal-5|As an AI, I don't have access to your personal details beyond what you've shared, and I can't find this in our chats.
-|refusal-5|I'm not able to determine the answer from what you've told me.
-|refusal-5|Hmm, I genuinely can't remember you telling me about this.
-|refusal-5|I'd rather not guess on this one.
-|refusal-5|I can't select an option; the information isn't available.
-|refusal-5|That's not something we've talked about, so I'll skip this one.
-|refusal-5|I apologize, but I cannot answer this question based on the provided context.
-|refusal-5|Sorry, I don't know which one.
-|two-asserted|{L} and {M}.
-|two-asserted|**{L}** and **{M}**
-|two-asserted|Answer: {L} and {M}
-|two-asserted|{L}) {T}
{M}) {U}
-|two-asserted|You told me {T}, and also {U}.
-|two-asserted|{"answer": ["{L}", "{M}"]}
-|hedge-5|Either {L} or {M} — I can't say for sure.
-|hedge-5|I'm stuck between {L} and {M}; they both fit what you said.
-|hedge-5|It's {L} or {M}, but the chat doesn't make clear which.
-|hedge-5|<think>It could be {L}. Or {M}. The chat doesn't settle it.</think>
I can't decide between {L} and {M}.
-|hedge-5|Hmm, maybe {L}? Honestly it could also be {M} or even something else.
-|none-of-above|None of these options is correct.
-|none-of-above|The answer isn't among the options.
-|question-back|Could you remind me which trip you mean?
-|question-back|Before I answer, do you mean the first time you told me or the most recent?
-|question-back|Which conversation are you referring to?
-|question-back|Can you give me a hint? I don't want to guess wrong."""

# Round 6 tuning templates (issue 16): written for tuning, not blind, after the structure of a
# reply: its final committed statement is its answer; an earlier statement is superseded by a later
# revision ("changing my answer to", "I'll revise that to") or a temporal "now/currently/latest"
# statement; a conclusion word inside a conditional ("So, if it's A, then ...") commits to nothing;
# uncertainty without a final commitment ("Maybe B?", "B, I guess?") reads None.
TUNE6 = r"""X|tune-6 conditional|So, if it's {M}, then you'd have said {U}. You said {T}, so {L}.
X|tune-6 conditional|If it were {M}, you would have mentioned {U}. It's {L}.
X|tune-6 conditional|So if the answer were {M}, the dates wouldn't match. Therefore {L}.
X|tune-6 conditional|Suppose it's {M}: then you'd never have said {T}. So the answer is {L}.
X|tune-6 conditional|Assuming {M} were right, your last message would make no sense. I'll go with {L}.
X|tune-6 conditional|If I had to pick one, I'd say {L}.
X|tune-6 conditional|If I remember correctly, it's {L}.
-|tune-6 conditional|If it's {L}, you'd have said {T}; if it's {M}, you'd have said {U}. I can't tell which.
-|tune-6 conditional|So, if it's {L}, then the answer depends on the date.
X|tune-6 revision|My first instinct was {M}. However, you clearly told me {T}, so I'm changing my answer to {L}.
X|tune-6 revision|Answer: {M}. Hmm, I'll revise that to {L}.
X|tune-6 revision|{M} is correct by your first message, but the answer is {L}.
X|tune-6 revision|{M} was true last year. The current one is {L}.
X|tune-6 revision|It was {M}, but now it's {L}.
X|tune-6 revision|Originally {M}; currently {L}.
X|tune-6 revision|I said {M} earlier, but I'm switching to {L}.
X|tune-6 revision|Let me change my answer to {L}.
X|tune-6 revision|{M} at first, {L} now.
X|tune-6 revision|I'll go with {L} instead.
X|tune-6 revision|{M} would have been right a year ago; {L} is right today.
X|tune-6 revision|Your older message points to {M}, but your latest one points to {L}.
X|tune-6 revision|{M} is what you used to have. These days it's {L}.
X|tune-6 revision|{M}, or rather {L}.
X|tune-6 revision|Answer: {M}... no wait, make that {L}.
X|tune-6 revision|Initially {M}, but after re-reading our chat, the answer is {L}.
X|tune-6 revision|My initial guess was {M}, but it's {L}.
X|tune-6 revision|You changed it from {M} to {L}.
X|tune-6 revision|{L} is current. Before that it was {M}.
X|tune-6 revision|The latest message mentions {L}; the older one said {M}.
-|tune-6 revision|{L} is correct, but {M} is also correct.
-|tune-6 revision|It's {L}, but it could also be {M}.
-|tune-6 revision|The answer is {L}, but {M} might be right too.
X|tune-6 revision|The answer is {L}, but I'm not fully sure.
X|tune-6 revision|{L} is the answer, although {M} was mentioned once.
X|tune-6 option-text|You mentioned {U}, but later {T}.
X|tune-6 option-text|It used to be {U}. Now it's {T}.
X|tune-6 option-text|Earlier you told me {U}; more recently you said {T}.
X|tune-6 option-text|{U} was last year. These days it's {T}.
X|tune-6 option-text|You first said {U}, then later changed it to {T}.
-|tune-6 option-text|You mentioned {U} and {T}; I don't know which one is current.
-|tune-6 hedge|Maybe {L}?
-|tune-6 hedge|{L}, I guess?
-|tune-6 hedge|Hmm, maybe {L}? It could also be {M}.
-|tune-6 hedge|Perhaps {L}? Or something else entirely.
-|tune-6 hedge|{L}? I'm not sure.
-|tune-6 hedge|I'm not sure... {L}, maybe? Or {M}?
-|tune-6 hedge|Could also be {L}, or even something else.
-|tune-6 hedge|Possibly {T}? I'm not certain.
-|tune-6 hedge|{T}, I guess? Or maybe {U}.
X|tune-6 hedge|Maybe {M}? No — you said {T}. So {L}.
X|tune-6 hedge|Probably {L}.
X|tune-6 hedge|{L}, I think.
X|tune-6 hedge|I'm fairly sure it's {L}, though I could be wrong.
X|tune-6 possessive|{L}'s the answer.
X|tune-6 possessive|{L}’s correct.
X|tune-6 possessive|I'd say {L}'s the right one; {M}'s outdated.
X|tune-6 possessive|{M}'s wrong, so {L}.
X|tune-6 possessive|{L}'s my pick.
X|tune-6 former|{M} was true last year, but {L} is true now.
X|tune-6 former|{M} would have been correct before your update. {L}.
X|tune-6 former|{M} was the case a while ago. Today it's {L}.
X|tune-6 former|{M} was correct, but not anymore. {L} is.
X|tune-6 former|{M} is no longer true; {L} is.
X|tune-6 initials|A. Smith told you it was {T}.
X|tune-6 initials|You told B. Jones it was {T}.
X|tune-6 initials|According to C. Lee, you said {T}.
X|tune-6 initials|It was {T}; you heard it from A. B. Carter.
X|tune-6 initials|{L}. Definitely.
X|tune-6 initials|I'd go with {L}. The photo showed {T}.
X|tune-6 initials|{L}. You told me in March.
X|tune-6 json|{"result": {"answer": "{L}", "confidence": 0.8}}
X|tune-6 json|{"answer": {"letter": "{L}", "text": "{T}"}}
X|tune-6 json|{"answer": "{L}", "considered": [{"option": "{M}", "verdict": "outdated"}]}
X|tune-6 json|{"analysis": {"{M}": "outdated", "{L}": "matches"}, "answer": "{L}"}
X|tune-6 json|{"response": {"reasoning": "You changed it from {U} to {T}.", "final_answer": "{L}"}}
X|tune-6 json|{"answer": {"text": "{T}"}}
-|tune-6 json|{"answer": {"letter": null}}"""

# Written blind (issue 16, sixth held-out set): new phrasings in the styles real models use when
# answering a multiple-choice memory question: short answers of GPT-4o, Claude, Gemini, Llama, Qwen,
# Qwen-VL, Mistral, InternVL and small local models (bold, brackets, JSON, \boxed{}, Chinese answer
# lines, a letter on its own line, repeated letters, lower case); reasoning and <think> replies that
# name and reject other letters before one final answer; companion replies that give the option's
# text in a sentence among names and abbreviations (Dr. C, A.M., U.K., a sentence starting "A");
# refusals, two options asserted, hedges, "none of the above" and questions back that must read
# None. The writer did not read choice.py, its tests, the scoring-quality bench or the README's
# measured figures, and ran no extractor on these rows. Labelled by eye. Never tune on it.
HELDOUT6 = r"""X|gpt-4o-style|**{L}** is the correct choice here.
X|gpt-4o-style|The best match is **{L}. {T}**
X|gpt-4o-style|From your earlier messages, the right option is **{L}** ({T}).
X|gpt-4o-style|**{L}** — this matches what you told me before.
X|gpt-4o-style|The answer is: **{T}** (option {L}).
X|claude-style|I'd answer **{L}**. You mentioned {T} when we spoke about it before.
X|claude-style|Looking at our conversation history, {L} ({T}) is the right answer.
X|claude-style|The answer is {L}.

You told me about this a while back, and {T} is what you said.
X|claude-style|Going by what you shared earlier, I'll pick {L}: {T}.
X|gemini-style|**Answer: {L}) {T}**

You stated this directly in a previous session.
X|gemini-style|The correct answer is **{L}**.

* **{L}) {T}**: This is what you mentioned.
X|gemini-style|Here's the answer: **{L}**
X|llama-style|I can help with that! The answer is {L}: {T}.
X|llama-style|Based on the information provided, the answer would be {L}.
X|llama-style|The answer to your question is {L}.
X|qwen-style|答案是{L}。
X|qwen-style|正确答案是 {L}
X|qwen-vl-style|The image and our earlier chat both point to {L}.
X|qwen-vl-style|根据对话，答案是 {L}（{T}）。
X|mistral-style|The right pick here: {L}, {T}.
X|mistral-style|Answer: {L}. This is supported by your earlier message.
X|internvl-style|{L}. {T}.
The answer is {L}.
X|internvl-style|Chosen option: {L}
X|small-local|{L}

{L}
X|small-local|Answer: {L}
Question: What else did the user say?
X|small-local|The answer is {L}.The answer is {L}.
X|small-local|i think {l}
X|small-local|{l}. {T}
X|text-only-6|{T} is the answer
X|text-only-6|Correct answer would be {T}.
X|letter-text|{L} {T}
X|letter-text|{T} (option {L})
X|letter-text|Option {L} = {T}
X|letter-text|{L} - {T}. You said it in our second chat.
X|json-style|{"result": {"letter": "{L}", "option": "{T}"}}
X|json-style|{"option": "{L}", "answer_text": "{T}"}
X|json-style|{'answer': '{L}', 'explanation': 'the user said so'}
X|json-style|Answer JSON: {"letter": "{l}"}
X|latex-style|Hence the answer is $$\boxed{\text{Option }{L}}$$
X|latex-style|Final answer: \(\boxed{\mathrm{{L}}}\)
X|latex-style|\boxed{{L}} ({T})
X|letter-own-line|After checking what you told me, my answer is
{L}
X|letter-own-line|I've looked through our chat history.

Answer:
**{L}**
X|letter-own-line|Here is the option that matches what you said:
({L})
X|lowercase-6|ans: {l}
X|lowercase-6|correct one: {l}
X|lowercase-6|The answer is option {l}.
X|answer-line-6|The option you want is {L}.
X|answer-line-6|Answer: option {L} ({T})
X|trailing-expl-6|{L} — that's the one you described to me.
X|trailing-expl-6|{L}. I remember because you said {T}.
X|trailing-expl-6|({L}) because you told me {T} during our last chat.
X|trailing-expl-6|Option {L}. That's what you said in the voice note.
X|trailing-expl-6|**{L}** ({T}) — you brought this up earlier.
X|trailing-expl-6|{L}) — you said this one.
X|cot-think|<think>
The user is asking what they told me. I recall they said {T}. Option {M} is {U}, which they never said. So the answer is {L}.
</think>

{L}
X|cot-think|<think>Hmm. {M}? They did mention {U} once, but then said that was wrong. The current one is {T} = {L}.</think>

The answer is **{L}**.
X|cot-think|<think>
Okay, so the options are listed. Let me check {M} first. That doesn't match. Then {L}: {T}. That matches.
</think>
{L}) {T}
X|cot-think|<think>The question is about the most recent one. Earlier: {U}. Later: {T}. Most recent wins.</think>
Answer: ({L})
X|cot-think|<think>
I should not guess {M} just because it came up first.
</think>

Final answer: **{L}. {T}**
X|cot-think|<think>Option {M}... I'm not sure. Let me re-read. The user said "{T}". That is option {L}.</think> So, my answer is {L}.
X|cot-think|<think>
A quick check of each choice:
{M} - not mentioned
{L} - mentioned twice
</think>
**{L}**
X|cot-think|<think>
wait, is it {M}? the user said {T}. answer {L}
</think>

Answer: {L}) {T}
X|cot-think|<think>{L}? Check: "{T}" appears in the chat. {M}? "{U}" does not appear. So {L}.</think>

{L}
X|cot-think|<think>
The user told me {T}. But the options include {M}, which is {U}. I should double-check... {U} was never said.
</think>
The answer is {L}) {T}.
X|cot-let-me-think|Let me think... {M} doesn't sound right, because you changed your mind about {U}. So the answer is {L}.
X|cot-let-me-think|Let me think about it. You said {T} at the start of our chat, and you never took it back. That's {L}.
X|cot-let-me-think|Let me think. Was it {M}? I don't think so: {M} is {U}, and you never said that. It was {L}.
X|cot-let-me-think|Let me think this through. You mentioned {T} while we talked about your weekend. Nothing since then changed it. The answer is {L}) {T}.
X|cot-let-me-think|Let me reconsider. I almost picked {M}, but your last message said {T}. Answer: {L}.
X|cot-6|Okay, thinking it through: option {M} would mean {U}, but you told me {T}. So I'd pick {L}.
X|cot-6|First I'll rule out {M}: you said nothing about {U}. What's left that fits is {L}, {T}. My answer is {L}.
X|cot-6|The relevant message is the one from our third chat. There you said {T}. Option {L} states exactly that, while {M} states {U}. Answer: {L}.
X|cot-6|My initial thought was {M}. But re-reading your message, you clearly said {T}. So I'll change to {L}.
X|cot-6|{M} might seem correct since you mentioned {U} in passing. But the question asks what you chose, and you chose {T}. The answer is {L}.
X|cot-6|Hypothesis {M}: contradicted by your later update.
Hypothesis {L}: consistent with everything you said.
So the answer is {L}.
X|cot-6|Let's reason step by step.
1. You mentioned the topic twice.
2. The second time, you said {T}.
3. That corresponds to {L}.
Therefore, {L}.
X|cot-6|Chain of thought: you said {U} ({M}) in January, then {T} ({L}) in March. The question asks about now, so {L}.
X|cot-6|There are two candidates: {M} and {L}. {M} was true earlier, {L} is true now. The question is about now, so {L}.
X|cot-6|I'll go through them. {M}: no evidence. {L}: you told me {T} directly. So {L} is my answer.
X|cot-6|Option {M} doesn't fit your timeline. I'm going with option {L} ({T}).
X|cot-6|It's tempting to say {M}, but that was your friend's choice, not yours. You said {T}, so {L}.
X|cot-6|Hmm, it isn't {M} — I remember you saying {T}. So {L}.
X|cot-6|So, thinking back: you said {T}. Of the options, that's {L}. Final: {L}.
X|cot-6|At first glance, {M} looks right. Looking closer, you said {T} after that. I'll answer {L}.
X|cot-6|{M}? That was the old plan. The new plan is {T}, which is {L}.
X|cot-6|The choices that could fit are {M} and {L}. Only {L} matches your exact words ("{T}"). Answer: {L}
X|cot-6|Let me work through this.
- {M}: you mentioned {U} only as a joke.
- {L}: you said {T} and meant it.
My answer: **{L}**
X|cot-6|Reasoning: option {M} ({U}) is a distractor; option {L} ({T}) is supported by your message. Final answer: {L}) {T}.
X|cot-6|I had {M} in mind, but that's wrong — you corrected it to {T}. So the correct answer is {L}.
X|cot-6|Thinking...
You said {T}.
So: {L}
X|cot-6|You brought up {U} once, but you said it was a mistake. What you actually said was {T}, so the answer is {L}.
X|cot-6|Looking at this carefully: {M} is partly right but outdated, while {L} reflects your latest update. I'll choose {L}.
X|cot-6|Between {M} and {L}, the chat supports {L}: you told me {T}. {M} is never mentioned.
X|cot-6|Since you told me {T} and {M} says {U}, {M} is wrong. The answer is {L}.
X|cot-6|I'll reason it out. The question asks what you told me most recently. That's {T}. So, option {L}.
X|cot-6|Step one: recall your message. Step two: match it. You said {T}; that's choice {L}. Answer: **{L}**
X|cot-6|Could it be {M}? I don't think so — {U} never came up. The answer should be {L}: {T}.
X|cot-6|Option {M} is what you planned at first. Option {L} is what you actually did. Since the question asks what you did, it's {L}.
X|cot-6|Thinking aloud: {M}, not that; {L}, that's what you said. Answer — {L}.
X|cot-6|After reviewing our conversation, I'm confident: the answer is {L}, {T}. {M} ({U}) doesn't match.
X|companion|You told me you went with {T}.
X|companion|Oh, I remember! It was {T}. You told me about it on Saturday.
X|companion|I'm pretty sure you said {T} when we talked on the phone, right after your shift at the I.C.U.
X|companion|Mm, {T}, if I'm remembering our chats right.
X|companion|That was {T}. You mentioned it the day Dr. C called you back.
X|companion|You said {T}. I remember because it was the same day you got back from the U.K.
X|companion|From our talk last week: {T}. You sounded really happy about it!
X|companion|Ha, you told me {T}! How could I forget?
X|companion|It was {T}. You mentioned it after your 7 A.M. run.
X|companion|I recall {T} — you brought it up when Ms. D. Lee visited.
X|companion|You let me know it was {T}; that was around the time of your M.A. interview.
X|companion|Honestly? {T}. You said so yourself last month.
X|companion|If I've got it right, {T}. Let me know if anything's changed since!
X|companion|I think you told me {T} while we were chatting about your trip to the U.S.
X|companion|Sure thing — {T}. That's what you said during our chat on Sunday.
X|companion|You mentioned {T} to me. I wrote it down in my notes about you, along with the hotel you liked in N.Y.C.
X|companion|It's {T}; you said it twice, actually.
X|companion|The way you told it to me, {T}.
X|companion|I remember you telling me {T}. It was right before your flight on B.A.
X|companion|{T}, I believe. You mentioned it when we talked about your week.
X|companion|I (and I'm fairly sure about this) remember you saying {T}.
X|companion|You said it was {T} — at least, that's how I remember it from your message at 9 P.M.
X|companion|Your answer back then was {T}. I hope I got that right!
X|companion|A while ago you told me {T}.
X|companion|As far as I remember, it's {T}. You told me during our chat about Dr. A. Rivera's advice.
-|refusal-6|I'm sorry, I can't recall you telling me about that, so I can't pick an option.
-|refusal-6|Nothing in our conversations tells me which of these it is.
-|refusal-6|I'm afraid this never came up between us, so I'd only be guessing.
-|refusal-6|As an AI companion, I only know what you've told me, and you haven't told me this.
-|refusal-6|I can't answer that one without more details.
-|refusal-6|I'm not going to guess on this one.
-|refusal-6|No clue, sorry.
-|refusal-6|Unfortunately, I don't have a record of that in our chat history.
-|refusal-6|Honestly, I'm drawing a blank here.
-|refusal-6|This question can't be answered from the conversation.
-|refusal-6|Answer: unknown
-|two-asserted-6|{L} and {M} are both things you mentioned, so I'd pick both.
-|two-asserted-6|Both {L} ({T}) and {M} ({U}) are correct.
-|two-asserted-6|The correct answers are {L}, {M}.
-|two-asserted-6|{L}, and also {M}.
-|two-asserted-6|{"answer": "{L}, {M}"}
-|hedge-6|**{L}** or **{M}** — I can't narrow it down further.
-|hedge-6|It's probably {L} or {M}; I'm not certain which.
-|hedge-6|<think>The user said {T} once and {U} once. I can't tell which is current.</think>
I'm not sure whether it's {L} or {M}.
-|hedge-6|Let me think... you mentioned {T}, but also {U}. I honestly can't tell which one you meant.
-|hedge-6|Maybe {L}. Or {M}. I really don't know.
-|hedge-6|I can't be sure. It was either {T} or {U}, I think.
-|hedge-6|It's a toss-up between {L} and {M}.
-|hedge-6|I'd say it's one of {L}, {M}, but I can't say which.
-|hedge-6|I'm not comfortable guessing; it could be any of them.
-|none-of-above-6|None of the above — you never mentioned any of these.
-|none-of-above-6|None of the listed choices is right; you told me something else entirely.
-|question-back-6|Hmm, are you asking about last year or this year?
-|question-back-6|Can you remind me what we talked about? I don't want to mix things up.
-|question-back-6|Are you thinking of {T}, or something else?
-|question-back-6|I don't remember this at all — could you tell me again?
-|question-back-6|{L} or {M} — which one was it?"""
# Written blind (issue 16, seventh held-out set): new phrasings in the styles real models use when
# answering a multiple-choice memory question: short answers of GPT-4o, Claude, Gemini, Llama, Qwen,
# Qwen-VL, Mistral, InternVL and small local models (bold, brackets, braces, JSON, \boxed{}, Chinese
# answer lines, Q/A lines, ReAct "Final Answer:", a letter on its own line, lower case); reasoning
# and <think> replies that reject other letters before one final answer; companion replies that
# give the option's text in a sentence among names and abbreviations (Dr. D, A.M., B.B.C., D.C.);
# refusals, N/A, two options asserted, hedges, an option letter that is not among the choices and
# questions back that must read None. The writer did not read choice.py, its tests, the
# scoring-quality bench or the README's measured figures, and ran no extractor on these rows.
# Labelled by eye. Never tune on it.
HELDOUT7 = r"""X|gpt-4o-style|**{L}) {T}** is the correct answer.
X|gpt-4o-style|Correct choice: **{L}**
X|gpt-4o-style|The right answer here is **{L}** — {T}.
X|gpt-4o-style|Here's the correct answer:

**{L}) {T}**
X|gpt-4o-style|✅ **Best answer: {L}**
X|gpt-4o-style|The option that best fits your earlier message is **{L}** ({T}).
X|claude-style|Based on what you've told me, I'd choose {L}.
X|claude-style|{L} is the option that lines up with what you told me.
X|claude-style|I'd go with **{L}** here, since that's what you described.
X|claude-style|The answer is {L} — {T}. You mentioned this when we discussed your plans.
X|gemini-style|**So the answer is {L}.**
X|gemini-style|**Correct Answer:** {L}

**Explanation:** You said {T} in a previous message.
X|gemini-style|Based on the conversation history, **Option {L}** is correct.
X|gemini-style|**{L}) {T}**

Here's why: it's the only option that matches what you told me.
X|llama-style|The correct answer is option {L}, which is "{T}".
X|llama-style|I'd be happy to help! Based on our conversation, the answer is ({L}) {T}.
X|llama-style|**Answer:** The correct option is {L}.
X|qwen-style|选{L}。
X|qwen-style|最终答案：{L}
X|qwen-vl-style|According to the image and the dialogue, the answer is {L}.
X|qwen-vl-style|{L}. {T}<|endoftext|>
X|mistral-style|The right option: {L}) {T}
X|mistral-style|Answer: {L}</s>
X|internvl-style|Option chosen: {L}
X|internvl-style|Best option: {L}
X|small-local|Answer: {L}

Note: This is based on the conversation.
X|small-local|{L}.

Is there anything else you'd like to know?
X|small-local|OUTPUT: {L}
X|small-local|Option {L} is correct answer.
X|small-local|the answer's {l}
X|small-local|Correct Answer: {L}
Incorrect Answers: {M}
X|json-style|{"answer_letter": "{L}"}
X|json-style|{"answer": "{L}", "answer_text": "{T}", "rationale": "the user said so"}
X|json-style|{"prediction": "{l}"}
X|json-style|Output: {"option": "({L})"}
X|json-style|```
{"final": "{L}"}
```
X|latex-style|The answer is $\boxed{\text{({L}) {T}}}$.
X|latex-style|Thus the answer is \boxed{\text{{L}}} since you said {T}.
X|latex-style|**Final Answer**

\[
\boxed{{L}}
\]
X|dash-style|{L} => {T} (what you told me)
X|dash-style|Answer — {L}, i.e. {T}
X|letter-own-line|Thanks for the question! After looking back at our chats, here's what I'd pick:

{L}
X|letter-own-line|The one you told me about is this one:
**{L}**
X|letter-own-line|My answer to the question above:
{L}) {T}
X|bold|__Option {L}__
X|bracket|<{L}> {T}
X|bracket|{{L}}
X|bracket|[Answer] {L} [/Answer]
X|lowercase|the answer would be ({l}) {T}
X|lowercase|{l} is the right one
X|lowercase|option {l} fits
X|text-only|It's {T}, option {L}.
X|text-only|The option "{T}" is correct.
X|trailing-expl|{L}, as you said in our chat about the weekend.
X|trailing-expl|{L}. The other options don't match anything you told me.
X|trailing-expl|({L}). This is consistent with your message from before.
X|answer-line|**My answer**
{L}
X|answer-line|Final answer -> ({L}) {T}
X|answer-line|The answer is {L}, i.e. "{T}".
X|qa-format|Q: Which option is correct?
A: {L}
X|cot-think|<think>Okay, first I'll consider {M}. The user never said {U}, so no. Next, {L}: "{T}" — yes, they said that.</think>

{L}
X|cot-think|<think>
Hmm, did the user bring this up? Let me look. In the chat they wrote {T}. So not {M}.
</think>
Answer: **{L}) {T}**
X|cot-think|<think>I initially want to answer {M}, but that's only because it sounds familiar. The evidence supports {L}.</think>
The correct answer is {L}.
X|cot-think|<think>
Options recap: {M} = {U}; {L} = {T}.
Chat: user said {T}.
Match: {L}.
</think>

\boxed{{L}}
X|cot-think|<think>
hmm {M}
no
{L} because {T}
</think>
{L}
X|cot-think|<think>The user mentioned "{T}" in session 2. Option {L} matches that exactly. Double check {M}: "{U}", not mentioned.</think>
Based on our conversation, the answer is {L}.
X|cot-think|<think>
The answer should be the current state. The user updated it from {U} to {T}.
</think>
**{L}) {T}**
X|cot-think|<think>Option {M} might be a trick. The user said "{T}".</think> I'm confident it's {L}.
X|cot-tags|<reasoning>You told me {T}; {M} is unrelated.</reasoning>
<answer>{L}</answer>
X|cot-react|Thought: I need to find where you mentioned this. You said {T}.
Action: match to options.
Observation: {L} matches, {M} does not.
Final Answer: {L}
X|cot-let-me-think|Let me think... Was it {M}? Hmm, no, that doesn't sound right. You definitely said {T}. So I'll say {L}.
X|cot-let-me-think|Let me work it out. You said {T} on Monday, and {U} was your sister's answer, not yours. So the answer is {L}.
X|cot-let-me-think|Let me think. Options {M} and {L} are both things you mentioned, but you only chose one of them: {T}. So {L}.
X|cot-let-me-think|Let me think step by step. 1) The options are about what you told me. 2) You told me {T}. 3) {L} says exactly that. The answer: {L}.
X|cot-let-me-think|Let me think about this. You mentioned {U} at one point, but then corrected yourself. The final thing you said was {T}. So I'll choose {L}, {T}.
X|cot-let-me-think|Let me think... Option {M}? You mentioned {U} once, but only in passing. Option {L}? That's what you actually told me. I'm going with {L}.
X|cot-let-me-think|Let me think... I'm not completely sure, but based on what you told me about {T}, I'd say {L}.
X|cot-7|Thinking: {M} seemed likely, but it's contradicted by what you said later.
Answer: {L}
X|cot-7|OK so the question is what you decided. You considered {U}, but you decided on {T}. That makes the answer {L}.
X|cot-7|First guess: {M}. On second thought, your message said {T}, so my final answer is {L}.
X|cot-7|I'd normally say {M}, but in your case you told me {T}. Answer: {L}.
X|cot-7|{M} is plausible but unsupported. {L} is directly supported by what you wrote. Answer: ({L}) {T}.
X|cot-7|Hmm, between {M} and {L}... You said "{T}" word for word. {L}.
X|cot-7|Here's my reasoning: {M} would require you to have said {U}, which you didn't. You did say {T}. So I'm going with {L}) {T}.
X|cot-7|Reasoning step by step:
- The question asks about your latest choice.
- Your latest message says {T}.
- {M} refers to {U}, which you dropped.
Final answer: {L}
X|cot-7|So, at first I was thinking {M}, since you'd mentioned {U}. But then you said you changed your mind and went with {T}. So it's {L}.
X|cot-7|Analysis: Option {M} ({U}) — not supported. Option {L} ({T}) — supported by your message on Friday.
Conclusion: {L}.
X|cot-7|The question is tricky, because you mentioned both {U} and {T}. But {U} was about your plans, and {T} was what actually happened. So the answer is {L}.
X|cot-7|I'm going to say {L}. I briefly considered {M}, but it doesn't match your message.
X|cot-7|{L}. I thought about {M} for a second, but you said {T}, so {L} is right.
X|cot-7|Answer: {L}

Reasoning: {M} describes {U}, which doesn't match. {L} describes {T}, which you told me.
X|cot-7|If I go by your first message, it'd be {M}. But your later message overrides it, so the answer is {L}.
X|cot-7|I was about to say {M}, but no, that's wrong. It's {L}) {T}.
X|cot-7|It's between {M} and {L}. I remember you saying {T}, so {L}.
X|cot-7|Wait, let me reconsider. Earlier I leaned toward {M}. Now I'm sure: {L}.
X|cot-7|Since your most recent message mentions {T}, and {M} reflects something older, I'll pick {L}.
X|cot-7|Your words were "{T}". Of the choices, only {L} says that. {L}.
X|cot-7|Re-reading our chat: {U} was mentioned as a possibility, {T} as the decision. So: {L}.
X|cot-7|**Step 1:** Find the relevant memory — you told me {T}.
**Step 2:** Match it to the options — that's {L}.
**Answer:** {L}
X|cot-7|Not entirely certain, but I'll say {L}; {M} seems less likely.
X|cot-7|Working backward from the options: {M} would contradict your message, {L} fits it. Answer: {L}.
X|cot-7|The answer is {L}. To explain: you told me {T}, and {M} ({U}) was only something you'd considered.
X|cot-7|Hmm, {M} sounds familiar, but I think that was someone else. For you, it was {T}, so {L}.
X|cot-7|Considering the timeline, {M} came first and {L} came after. Since the question asks about now, {L}.
X|cot-7|You said {T}, not {U}. So it's {L}, not {M}.
X|cot-7|You mentioned {U} early on, but then you said you'd settled on {T}. So the answer is {T}.
X|cot-7|My reasoning: the photo you sent showed {T}, and {U} only came up as a joke. Final answer: {L}, {T}.
X|companion|You ended up going with {T}, from what you told me.
X|companion|Oh, that one's easy — {T}. You told me on your birthday.
X|companion|I remember now: {T}. You mentioned it while you were stuck at the D.M.V.
X|companion|You were telling me about it after your Ph.D. defense: {T}.
X|companion|Mhm, {T}. You said that when we talked about your plans for the U.S. Open.
X|companion|{T}, you said. It was the week you started at the B.B.C.
X|companion|If I remember right, you told me {T} when you came back from St. Louis.
X|companion|I'm pretty sure the answer's {T}. You said it right around your checkup with Dr. D. Nguyen.
X|companion|As I recall, {T}. You mentioned it in the same message as your A1C results.
X|companion|Ah, I know this! {T}. You told me while you were waiting at Gate B12.
X|companion|You told me {T}, and I said I was happy for you.
X|companion|Let me see... you said {T}. That was when we were talking about your C.V.
X|companion|You told me {T}! I remember because you said it was a big decision.
X|companion|{T} — or at least that's what you told me last time we spoke, around 6 A.M.
X|companion|From our last few chats, I'd say {T}. You mentioned it on Sunday before the game.
X|companion|Oh right, {T}. You mentioned it when you were talking about Mr. A. Brown from work.
X|companion|It was {T}! You told me right after your trip to D.C.
X|companion|You've told me before — {T}. Has anything changed since then?
X|companion|I have it in my memory that you said {T}.
X|companion|Hmm, I believe you said {T}. Correct me if I'm wrong!
X|companion|A few weeks ago you mentioned {T} to me.
X|companion|I think you said {T}. It came up when you were telling me about your E.R. visit.
X|companion|You mentioned {T} — I remember because it was the same day as your B-day party.
X|companion|Based on what you shared with me, {T}. You said it at 11 A.M. on the call.
-|refusal-7|I'm sorry, I don't think you ever told me about this, so I can't choose.
-|refusal-7|I don't have enough from our conversations to answer this.
-|refusal-7|I can't answer this — I don't have that memory.
-|refusal-7|Hmm, I have no memory of this, sorry!
-|refusal-7|I'd be guessing if I picked one, so I won't.
-|refusal-7|I'm unable to answer based on our chat history.
-|refusal-7|There isn't anything in our past conversations that answers this.
-|refusal-7|I don't know the answer to this one.
-|refusal-7|Answer: I don't know
-|refusal-7|{"answer": "N/A"}
-|refusal-7|Answer: None
-|two-asserted-7|I'd pick {L} as well as {M}.
-|two-asserted-7|{L} + {M}
-|two-asserted-7|The correct options are {L} and {M}: you said {T} and also {U}.
-|two-asserted-7|**{L}**, **{M}**
-|two-asserted-7|Answers: ({L}) plus ({M})
-|two-asserted-7|{L}) {T} and {M}) {U} are both true.
-|hedge-7|It's likely {L}, though {M} is equally likely.
-|hedge-7|I keep going back and forth between {L} and {M}.
-|hedge-7|Either {T} or {U}, I really can't remember which.
-|hedge-7|I'd guess {L} or maybe {M} — can't pin it down.
-|hedge-7|<think>Can't find it in the chat. {L} and {M} both plausible.</think>
I'm not sure; it's one of {L} or {M}.
-|hedge-7|Let me think... you mentioned {T}, and you also mentioned {U}. Without more context, I can't pick between {L} and {M}.
-|hedge-7|{L}, or possibly {M}. Hard to say.
-|none-of-above-7|None of these — you told me something different.
-|none-of-above-7|I don't think any of the options is right.
-|none-of-above-7|E) None of the above
-|refusal-7|Sorry — that's not something I have any record of.
-|two-asserted-7|You told me {T}. You also told me {U}. So both {L} and {M}.
-|hedge-7|Could be {T}; could just as well be {U}.
-|question-back-7|Hmm, which option would you go with?
-|question-back-7|Which one do you think it was?
-|question-back-7|Wait, did you tell me this before? Remind me?
-|question-back-7|Do you mean the one you mentioned on Friday, or the one from last month?
-|question-back-7|Is this about {T}? I want to make sure before I answer."""

# Round 7 tuning templates (issue 16), written for the classes a new writer is likely to produce
# that round 6 read wrong: letters touching CJK, Cyrillic or Arabic text, full-width letters and
# brackets ({F}), answer labels in other languages, very short lower-case replies, commitment verbs
# ("the chat supports B"), a letter asked about and answered "I don't think so", uncertainty frames
# around a list, markdown headings, an answer first followed by reasoning that names other letters,
# sign-offs, ordinal references ({O}: "the second option") and the final line giving the letter.
TUNE7 = r"""X|tune-7 cjk|答案：{L}
X|tune-7 cjk|正确答案是{L}。
X|tune-7 cjk|我选{L}。
X|tune-7 cjk|选{L}，因为你说过{T}。
X|tune-7 cjk|应该是{L}吧。
X|tune-7 cjk|{L}选项正确。
X|tune-7 cjk|答案是（{L}）。
X|tune-7 cjk|答案：（{L}）{T}
X|tune-7 cjk|答案：{F}
X|tune-7 cjk|不是{M}，是{L}。
X|tune-7 cjk|排除{M}，选{L}。
X|tune-7 cjk|根据你之前说的，答案是{L}（{T}）。
X|tune-7 cjk|回答：{L}
X|tune-7 cjk|最终答案：**{L}**
X|tune-7 cjk|答えは{L}です。
X|tune-7 cjk|正解は{L}。
X|tune-7 cjk|{M}ではなく{L}です。
X|tune-7 cjk|정답은 {L}입니다.
X|tune-7 cjk|정답: {L}
-|tune-7 cjk|不确定是{L}还是{M}。
-|tune-7 cjk|我不知道。
-|tune-7 cjk|{L}或{M}，我不确定。
X|tune-7 fullwidth|The answer is （{L}）.
X|tune-7 fullwidth|Answer：{L}
X|tune-7 fullwidth|{F}
X|tune-7 fullwidth|The answer is {F}.
X|tune-7 fullwidth|（{L}）{T}
X|tune-7 cyrillic|Ответ: {L}
X|tune-7 cyrillic|Правильный ответ — {L}.
X|tune-7 cyrillic|Я выбираю {L}.
X|tune-7 cyrillic|Вариант {L}: {T}
X|tune-7 cyrillic|Не {M}, а {L}.
X|tune-7 arabic|الإجابة: {L}
X|tune-7 arabic|الجواب هو {L}.
X|tune-7 latin-lang|Respuesta: {L}
X|tune-7 latin-lang|La respuesta correcta es la {L}.
X|tune-7 latin-lang|No es {M}, es {L}.
X|tune-7 latin-lang|Réponse : {L}
X|tune-7 latin-lang|La bonne réponse est {L}.
X|tune-7 latin-lang|Ce n'est pas {M}, c'est {L}.
X|tune-7 latin-lang|Antwort: {L}
X|tune-7 latin-lang|Die richtige Antwort ist {L}.
X|tune-7 latin-lang|Nicht {M}, sondern {L}.
X|tune-7 latin-lang|Risposta: {L}
X|tune-7 latin-lang|Resposta: {L}
X|tune-7 short-lower|prob {l}
X|tune-7 short-lower|{l} i think
X|tune-7 short-lower|def {l}
X|tune-7 short-lower|its {l}
X|tune-7 short-lower|{l} for sure
X|tune-7 short-lower|my guess is {l}
X|tune-7 short-lower|ok {l}
X|tune-7 short-lower|hmm {l}
X|tune-7 short-lower|going w/ {l}
X|tune-7 short-lower|pretty sure {l}
X|tune-7 short-lower|i'd say {l}
X|tune-7 short-lower|{l}!!
X|tune-7 short-lower|answer {l}
X|tune-7 short-lower|ans {l}
X|tune-7 short-lower|i pick {l}
X|tune-7 short-lower|{l} obviously
X|tune-7 short-lower|not {m}, {l}
-|tune-7 short-lower|{l}?
-|tune-7 short-lower|{l} or {m}?
-|tune-7 short-lower|idk
-|tune-7 short-lower|idk maybe {l}?
-|tune-7 short-lower|{l} or {m} idk
-|tune-7 short-lower|no idea tbh
X|tune-7 commit-verb|The chat supports {L}.
X|tune-7 commit-verb|Everything you said points to {L}.
X|tune-7 commit-verb|Your message matches {L}.
X|tune-7 commit-verb|That fits {L} best.
X|tune-7 commit-verb|This is consistent with {L}.
X|tune-7 commit-verb|The evidence favors {L}.
X|tune-7 commit-verb|What you told me lines up with {L}.
X|tune-7 commit-verb|Your last message corresponds to {L}.
X|tune-7 commit-verb|The description best fits {L}: {T}.
X|tune-7 commit-verb|Between {M} and {L}, the history supports {L}.
X|tune-7 commit-verb|Of {M} and {L}, only {L} fits what you said.
X|tune-7 commit-verb|Nothing in the chat supports {M}; it's {L}.
X|tune-7 commit-verb|Your message doesn't match {M}. {L}.
X|tune-7 commit-verb|{M} and {L} are close, but the chat points to {L}.
X|tune-7 commit-verb|Comparing {M} with {L}: you said {T}, which matches {L}.
X|tune-7 question-answered|Was it {M}? I don't think so. It was {L}.
X|tune-7 question-answered|Is it {M}? Nope. {L}.
X|tune-7 question-answered|Could it be {M}? Unlikely. {L} fits.
X|tune-7 question-answered|{M}? Not likely. I'd say {L}.
X|tune-7 question-answered|Was it {M}? I doubt it: {M} is {U}, and you never said that. So {L}.
X|tune-7 question-answered|Hmm, {M}? No way. {L}.
X|tune-7 question-answered|Is it {M}? Definitely not. {M} would mean {U}. It's {L}.
X|tune-7 question-answered|Might it be {M}? I don't believe so. {M} says {U}. I'd go with {L}.
X|tune-7 question-answered|What about {M}? {M} is {U}, which you never mentioned. {L} it is.
-|tune-7 uncertain-list|I'm not sure if it's {L} or {M}.
-|tune-7 uncertain-list|I can't tell if it's {L} or {M}.
-|tune-7 uncertain-list|I don't know whether {L} or {M} is right.
-|tune-7 uncertain-list|Unsure between {L} and {M}.
-|tune-7 uncertain-list|Hard to say if it's {L} or {M}.
-|tune-7 uncertain-list|I can't decide whether to pick {L} or {M}.
-|tune-7 uncertain-list|It's unclear whether {L} or {M} applies.
-|tune-7 uncertain-list|Not sure: {L} or {M}.
-|tune-7 uncertain-list|I'm unsure whether the answer is {L} or {M}.
-|tune-7 uncertain-list|I honestly don't know if it's {L}, {M}, or something else.
-|tune-7 uncertain-list|I'm not sure whether it's {T} or {U}.
-|tune-7 uncertain-list|It's either {T} or {U}; I can't say which.
X|tune-7 uncertain-list|I wasn't sure whether it was {M} or {L}, but you said {T}, so {L}.
X|tune-7 uncertain-list|I'm not sure, but I think {L}.
X|tune-7 markdown|## Final Answer

**{L}**
X|tune-7 markdown|# Answer: {L}
X|tune-7 markdown|**Answer**

{L}) {T}
X|tune-7 markdown|### Reasoning
You mentioned {U} once, then {T}.

### Answer
{L}
X|tune-7 markdown|### Analysis
- {M}: {U} — not mentioned
- {L}: {T} — matches

### Answer
**{L}**
X|tune-7 markdown|> **{L}**
X|tune-7 markdown|---
**Answer:** {L}
---
X|tune-7 markdown|`{L}`
X|tune-7 markdown|1. Recall: you said {T}.
2. Match: that's option {L}.

**{L}**
X|tune-7 answer-first|{L}. You told me {T} last week. {M} would mean {U}, which you never said.
X|tune-7 answer-first|{L} — you said {T}. {M} is {U}, which doesn't fit.
X|tune-7 answer-first|{L}

You told me {T} on Sunday. {M} ({U}) came up once, but you changed it afterwards.
X|tune-7 answer-first|**{L}**. Here's why: you said {T}. Option {M} refers to {U}, which you never mentioned.
X|tune-7 answer-first|{L}: {T}. I considered {M}, but it doesn't match.
X|tune-7 answer-first|Answer: {L}. {M} might seem plausible because you mentioned {U} once, but you corrected that.
X|tune-7 sign-off|{L}. Hope this helps!
X|tune-7 sign-off|The answer is {L}. Let me know if you have any other questions!
X|tune-7 sign-off|Answer: {L}

I hope that helps! 😊
X|tune-7 sign-off|It's {L} — {T}. Have a great day!
X|tune-7 sign-off|{L}) {T}. Let me know if I can help with anything else.
X|tune-7 sign-off|I'd go with {L}. Feel free to ask if you want more detail!
X|tune-7 sign-off|**{L}** 👍
X|tune-7 sign-off|{L} 🙂
X|tune-7 text-then-letter|You told me on Monday that it was {T}.

Answer: {L}
X|tune-7 text-then-letter|You mentioned {U} early on, but later said {T}.
Final answer: {L}
X|tune-7 text-then-letter|Option {M} ({U}) doesn't match what you said. Option {L} ({T}) does.
{L}
X|tune-7 text-then-letter|The photo showed {T}, not {U}. So: {L}.
X|tune-7 text-then-letter|{U}? No, you said {T}. → {L}
X|tune-7 ordinal|I'd pick the {O} option.
X|tune-7 ordinal|The {O} option is correct.
X|tune-7 ordinal|It's the {O} choice: {T}.
X|tune-7 arrows|→ {L}
X|tune-7 arrows|Answer => {L}
X|tune-7 arrows|👉 {L}
X|tune-7 arrows|Answer:{L}
X|tune-7 arrows|answer={L}
X|tune-7 arrows|({L}){T}
X|tune-7 arrows|{L}:{T}
X|tune-7 arrows|Correct: {L}
-|tune-7 none|None of these.
-|tune-7 none|I'd rather not guess between {L} and {M}.
-|tune-7 none|Can't say; it could be any of A-D.
-|tune-7 none|Neither {L} nor {M}, and I'm not sure about the rest.
-|tune-7 none|The chat doesn't support any of the options.
-|tune-7 none|Nothing you told me matches {L} or {M}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|The answer is {L}. Hope that helps!
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L}. You mentioned {T} in our chat last Tuesday, and {M} ({U}) never came up.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|**{L}**

You said {T}. Options {M} and the others don't match anything you told me.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Answer: {L}
Explanation: {M} is {U}, which you changed. {L} is {T}, which is what you said most recently.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'm going to say {L}. {M} is tempting because you mentioned {U}, but that was before.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L} ({T}). Let me know if that's not right!
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Based on what you told me, I'd go with {L} — {T}. Let me know if you need anything else! 😊
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|My answer is {L}.

Reasoning: You said {T}. Option {M} says {U}, which doesn't match.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Definitely {L}! You were so excited when you told me about {T}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|The correct option is {L}, since you mentioned {T}. Have a good one!
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|It's {L}: {T}.

Thanks for asking!
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|正确选项是{L}。
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|我认为答案是{L}，因为你提到过{T}。
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|选择{L}。
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|答：{L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|答案为{L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|答案应该是 {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L}。你之前说过{T}。
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|我的答案：{L}（{T}）
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|根据对话记录，选{L}。
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|我不确定是{L}还是{M}。
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|无法确定。
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|答えは「{L}」です。
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|正解：{L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|정답은 {L}번입니다.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Ответ: {L}) {T}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Правильный вариант: {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Мой ответ — {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Ответ — вариант {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|La respuesta es {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Respuesta correcta: {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Je choisis {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Réponse : ({L})
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|La réponse est la {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Die Antwort ist {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Antwort: ({L}) {T}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Resposta: letra {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|La risposta è {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|الإجابة الصحيحة هي {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Answer：{F}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|答案是{F}。
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|（{L}）
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|【{L}】
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|「{L}」
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|i think its {l}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l} i guess
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|prolly {l}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l} lol
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l}, pretty sure
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|def {l} lol
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|answer {l} i think
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|i'd go {l}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l} is my guess
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|maybe {l}
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l} maybe?
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l}? {m}?
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{l} or {m} not sure
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|dunno
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|The transcript supports {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Your photo description matches {L} best.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Everything you shared is consistent with option {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|What you said about {T} aligns with {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|The details line up with {L}: {T}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|This is in line with {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|That corresponds to option {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Your message from March confirms {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|All signs point to {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'd say the evidence favours {L} over {M}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Nothing you said fits {M}, so it must be {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{M} doesn't match your message; {L} does.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|The chat rules out {M}. It supports {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Was it {M}? Nope — {M} is {U}. It was {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Could the answer be {M}? I don't think so, since {M} is {U}. I'll say {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Is {M} right? No. {L} is.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{M}? I don't think so. {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Maybe {M}? I doubt it. You said {T}, so {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Hmm, is it {M}? Probably not. {L}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'm not sure if {L} or {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I can't tell whether it's {L} or {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'm uncertain whether to choose {L} or {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Not certain if the answer is {L} or {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I don't know if it's {L} or {M}, sorry.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|It's hard to tell if {L} or {M} is correct.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'm not sure whether {L}, {M}, or neither.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Whether it's {L} or {M}, I can't say.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'm not confident in either {L} or {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Honestly I'm not sure between {L} and {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I can't determine whether it's {T} or {U}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|### Answer

**{L}**
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|## Answer
{L}) {T}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|#### Final answer
{L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|**Final Answer:**

{L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|# {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|### Step 1
You said {T}.
### Step 2
{M} is {U}, which doesn't fit.
### Answer
{L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|| Option | Matches? |
|---|---|
| {M} | No |
| {L} | Yes |

**Answer: {L}**
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|- **{M}** – not mentioned
- **{L}** – you said {T}

**{L}**
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|The {O} option.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'd go with the {O} one listed.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Answer: the {O} option ({T}).
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L}, since {M} would mean {U}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L}. ({M} is {U}, which you never said.)
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L} — not {M}, because you told me {T}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Answer: {L} ({T}). Not {M}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|You said {T}. That's {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|You told me {T} on Friday.

{L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|You moved on from {U} to {T} last month.

Answer: {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{T} — option {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Since you told me {T}, I'll choose {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L}!! You told me that last week 😄
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L} 👍
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L} ✔
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|✅ {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|=> {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Answer -> {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|-> {L}
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L}) {T} ✅
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|(Answer: {L})
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|[Answer: {L}]
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|The answer is ({L}) {T}. {M} and the rest don't match.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Option {L}. Options {M} and the others describe things you never said.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Either {L} or {M} could be right; I can't say for sure.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|It's one of {L} and {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I narrowed it down to {L} or {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|{L} and {M} both fit what you said.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'd answer {L} or {M}.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Not enough info to choose.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Sorry, I don't remember you mentioning that.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|None of the above.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I can't pick between the options; you never told me.
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Hmm, {L}? Or was it {M}?
-|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Did you mean {L} or {M}?
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I'm not 100% sure, but I'd say {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Not sure, but probably {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I think it's {L}, but I'm not certain.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|My best guess is {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|If I had to guess, {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|Tough one! I'll go with {L}.
X|tune-7 wide-1 (scripts, short replies, evidence verbs, answered questions, uncertainty, markdown)|I believe it was {T}, so {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|A. Smith told you it was {T}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|B. J. mentioned it to you: {T}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{T}. A friend of yours said so too.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{T}! A great choice, by the way.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I think {T}. A while ago you told me.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|It was {T}.
A lovely day, you said.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|You said {T}.

A. Lee was there too.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|A or B? I can't say.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Hmm. {L}, {M}... I can't decide.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}/{M}
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}? Not sure.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}, maybe. Or {M}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L} is the answer. {M} is what you said first, but you changed it.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Answer: {L}. (Not {M} — that was the old one.)
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|So, {L}. Though {M} was close.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}
{M} was never mentioned.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Let's see: {M}? That's {U}, which you never said. {L}? That's {T}, which you told me. So {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Option {M} is {U}. Option {L} is {T}. You told me {T}, so the answer is {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{M} is {U}; {L} is {T}. You said {T}. → {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|The options are {M} ({U}) and {L} ({T}). You said {T}: {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|You said {T} — that's {L}, not {M}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|It's definitely {T}, which is option {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|That's option {L}! You said {T} back in June.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|The one that matches is {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I'd answer {L}; {M} is a distractor.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Answer: {L}

Why not {M}? Because you said {T}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|The answer is {L}, {T}. Why not {M}? You never mentioned {U}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Correct answer: **{L}**

- {M}: incorrect, you never said {U}
- {L}: correct
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I'm going with {L}. {M} could also make sense if you hadn't updated it, but you did.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}. I know {M} sounds plausible, but you said {T}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Short answer: {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|TL;DR: {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Answer (letter only): {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|The letter is {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Letter: {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Final choice: {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Selected answer: {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|My selection: {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Option: {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I'd pick {L} without hesitation.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Without a doubt, {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|For sure {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|100% {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}, final answer.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L} — final answer.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}, no doubt.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|The right answer here is {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L} would be correct.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L} is most consistent with our chats.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I'm confident it's {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|My pick would be {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I'll answer {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Answer is {L} because you said {T}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|It's {L} because {M} ({U}) was before you changed your mind.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Okay so {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Ok, {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Hmm... {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Um, {L}?? No wait, I'm sure: {L}.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Um, {L}??
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I would say {L} or {M}.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Can't decide: {L} or {M}.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L} and {M}.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I think both {L} and {M} are right.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|All of them except {M} could be right.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Any of them could be right.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I'd need to check my notes.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|This wasn't in our chats, so I'd rather not pick an option.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I'm not able to answer this one.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Not sure, sorry!
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Hmm, I don't recall. Was it {T}?
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|I can't remember whether you said {T} or {U}.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|You mentioned both {T} and {U}, so I'm not sure.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|You mentioned {U} before, but your latest message says {T}. So {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L} is the current one; {M} is outdated.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{M} used to be true. Now it's {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|The answer was {M}, but now it's {L}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|答案是{L}，不是{M}。
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}是正确答案。
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|不是{M}。答案：{L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|我觉得是{L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|我选择 {L} 选项。
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|选项{L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|答案{L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|应选{L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|故选{L}。
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|答案是{L}：{T}。
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|综上所述，答案是{L}。
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|嗯，我记得你说过{T}，所以答案是{L}。
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|{L}还是{M}？我不确定。
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|可能是{L}，也可能是{M}。
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|不知道。
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Ответ: {L}, потому что вы говорили {T}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Правильный ответ: {L}. Вариант {M} не подходит.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Не {M}. Ответ: {L}.
-|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Не знаю, {L} или {M}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|La respuesta es {L}, no {M}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Respuesta: {L}. La opción {M} no es correcta.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Réponse : {L}. Ce n'est pas {M}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Die Antwort ist {L}, nicht {M}.
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Antwort {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|Ответ {L}
X|tune-7 wide-2 (initials, opening answers, described letters, other languages)|答案 {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|The answer is **{L}.** {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Choice ({L}) — {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} is the one you told me about.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Option {L})
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|The answer is "{L}".
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|The answer is '{L}'.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|It’s ‘{L}’.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'd say “{L}”.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I THINK IT'S {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|ANSWER: {L} ({T})
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Answer: {L}
Confidence: 80%
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Answer: {L} (confidence: high)
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} is correct ✅, {M} is incorrect ❌
-|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Probably {L}, but could be {M}.
-|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} (or maybe {M})
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|It's {L}. Or {M}? No — {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Neither {M} nor the others; {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|i'd go with {l} because you said {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|i choose {l}, since you said {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|the answer is {l}, because of what you said about {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} it is!
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|So that's {L} then.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|That makes it {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Which gives us {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Result: {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Output: {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Prediction: {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Pick: {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Verdict: {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Conclusion — {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|In short, {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|To sum up: {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|All in all, {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|In summary, the answer is {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Bottom line: {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|So my final answer is {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'll lock in {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Locking in {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'm settling on {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'll stick with {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'd opt for {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Opting for {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'm voting {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} gets my vote.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'd mark {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'd circle {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Tick {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L}, hands down.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} for sure, since you said {T}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|It must be {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|It can only be {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Has to be {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Gotta be {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Surely {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Clearly {L}: {T}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Obviously {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Likely {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Most likely {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L}, most likely.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I reckon {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I guess {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I suppose {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I'm thinking {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|My gut says {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|My vote: {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|The answer you're looking for is {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|You're looking for {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|That's {L}, {T}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{T}, so {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{T}. So, {L}!
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{T} → {L}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} = {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L} ({T}) ✓
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|[{L}] {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L}] {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L}> {T}
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Answer: option {L}, "{T}"
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Answer: {L}

{M} is wrong because you never said {U}.
{L} is right because you said {T}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Answer: {L}

Why not the others?
- {M}: you never mentioned {U}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|**Answer: {L}**

**Why:** You said {T}.

**Why not {M}:** you said {U} only as a joke.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{L}

Explanation:
{M}. {U} — incorrect.
{L}. {T} — correct.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|I considered {M} and {L}. {L} fits better.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{M} and {L} were the two candidates; {L} wins.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Narrowing it down to {M} and {L}, I pick {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Between {M} and {L}, I'd choose {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Of the two, {M} and {L}, the answer is {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Either {M} or {L} — and since you said {T}, it's {L}.
-|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Either {M} or {L} — I'd need more context.
-|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{M} or {L}, depending on which message you mean.
-|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|Depends: {M} if you mean last year, {L} if you mean now.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|{M} if you mean last year; but the question asks about now, so {L}.
X|tune-7 wide-3 (quoted letters, commitment idioms, a decision after a list, conditions)|If you mean now, {L}.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Oh, that was {T}! I remember because you said it right after your trip to L.A.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|You told me {T}. A good memory, that one.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I remember: {T}. B-roll footage from your vlog showed it too.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{T} — you mentioned it when Dr. B called.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|You said {T}, and I wrote it down. D-Day for the move was in June.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|It was {T}. I, for one, was surprised!
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{T}. I hope that's right!
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{T}, if I remember right.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I'm pretty sure it's {T}. Let me know if not!
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|You mentioned {T}. C'mon, how could I forget?
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Yep, {T}. You sent me a photo of it at 8 A.M.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Definitely {T}. You told me on Sunday.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|It's {T}, like you told me in the D.M.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|You told me {T}, which I thought was a nice choice.
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{T}! That's what you said when we last talked.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Sorry, I don't think you ever told me.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I'm not sure — you haven't mentioned it.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Hmm, I don't have that in my memory.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I can't say for sure.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Can you remind me? I don't want to guess.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I don't know which one, to be honest.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I wasn't told that, so I can't choose.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|You haven't shared that with me yet!
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I'd be guessing. Could you tell me again?
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|None of these options match what I remember.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I have no record of that.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{L} and {M} are both possible.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{L} or maybe {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{L}... or {M}. Not sure.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Possibly {L}, possibly {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{L}? Maybe {M}? I don't know.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I'd guess {L} or {M}, but I really don't know.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Could be either {L} or {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Either one, {L} or {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|It's between {L} and {M}, but I can't choose.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|You mentioned {T} and {U} at different times, and I can't tell which one you mean.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Was it {L}? Or {M}?
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{L}, {M}, or something else? I'm not sure.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I'd say {L}, but honestly {M} is just as likely.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{L} is as likely as {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Could be {L}. Could also be {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|I'm split between {L} and {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|It's a coin flip between {L} and {M}.
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Answer: {L} or {M}
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{"answer": "{L} or {M}"}
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{"answer": null, "reason": "not mentioned"}
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Answer: unknown
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Answer: N/A
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Answer: None
-|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Answer: I don't know
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Answer: {L}
(I'm fairly confident.)
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{"answer": "{L}", "confidence": "medium"}
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|{"choice": "{L}"}
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|```json
{"answer": "{L}"}
```
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|<answer>
{L}
</answer>
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|<final_answer>{L}</final_answer>
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|[ANSWER] {L}
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|Answer: [{L}]
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|The answer is [{L}].
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|\boxed{\text{{L}}}
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|$\boxed{{L}}$
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|**The answer is {L}.**
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|*{L}*
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|__{L}__
X|tune-7 wide-4 (companion text, refusals, hedges, answer fields)|~{L}~"""

# Written blind (issue 16, eighth held-out set): new phrasings in the styles real models use when
# answering a multiple-choice memory question: short answers of GPT-4o, Claude, Gemini, Llama, Qwen,
# Qwen-VL, Mistral, InternVL and small local models (bold, brackets, JSON, YAML, key=value, XML tags,
# \boxed{}, a letter on its own line, run-on continuations, lower case, the option's text alone);
# reasoning and <think> replies that reject other letters as hypotheses before one final answer;
# companion replies that give the option's text in a sentence among names and abbreviations
# (Dr. B, A.M., U.K., D&D, Aunt B, a sentence starting "A"); refusals, two options asserted, hedges,
# "none of the above" (not an option) and questions back that must read None. The writer did not
# read choice.py, its tests, the scoring-quality bench or the README's measured multiple-choice
# figures, and ran no extractor on these rows. Labelled by eye. Never tune on it.
HELDOUT8 = r"""X|gpt-4o-style|The correct answer here would be **{L}**.
X|gpt-4o-style|**Answer: {L}. {T}** — you told me this.
X|gpt-4o-style|Based on your previous messages, the answer is **{L}) {T}**.
X|gpt-4o-style|**{L}**: {T} — that's what you mentioned earlier.
X|gpt-4o-style|The correct response would be **option {L}**.
X|gpt-4o-style|The correct answer is **{T}** (**{L}**).
X|gpt-4o-style|✔️ **{L}) {T}**
X|claude-style|I believe the answer is **{L}** — you mentioned {T} when we talked about this before.
X|claude-style|From our earlier conversations, {L} is right: {T}.
X|claude-style|My answer is {L} ({T}). Let me know if you'd like me to explain my reasoning.
X|claude-style|That would be {L} — {T}, from what you told me.
X|claude-style|{L}. That's the one that matches what you've told me.
X|gemini-style|**Answer:** **{L}**

**Reasoning:** You mentioned {T} in an earlier conversation, which corresponds directly to this option.
X|gemini-style|Here is the correct option:

**{L}) {T}**
X|gemini-style|Based on the provided chat history, the answer is **{L}**.

* You said: "{T}"
X|llama-style|The answer is: {L}) {T}. This is because you mentioned it in our previous conversation.
X|llama-style|Based on our previous conversation, I would choose option {L}: {T}.
X|llama-style|I'm glad you asked! The answer is {L}.
X|llama-style|Answer: {L}

I hope this helps! Let me know if you have any other questions.
X|qwen-style|The answer is {L}.<|im_end|>
X|qwen-style|答案是：{L}. {T}
X|qwen-vl-style|Based on the image and our conversation, the correct option is {L}.
X|qwen-vl-style|{L}: {T}<|im_end|>
X|mistral-style|Answer: ({L}) {T}</s>
X|mistral-style|{L} is the right answer, {T}.
X|mistral-style|**{L}**. You mentioned it before.
X|internvl-style|Answer: {L}<|im_end|>
X|internvl-style|The answer to the question is option {L}.
X|small-local|{L}

### Instruction:
What is the capital of France?
X|small-local|The answer is {L}.

User: thanks!
Assistant: You're welcome!
X|small-local|{L}.{T}
X|small-local|Correct answer is option {L}
X|small-local|Final pick — {L}
X|json-style|{"answer": "{L}", "reason": "You told me {T}."}
X|json-style|{"selected": "{L}"}
X|json-style|```json
{"final_answer": "{L}", "evidence": "user said {T}"}
```
X|json-style|{"response": "{l}"}
X|yaml-style|answer: {L}
reason: you said {T}
X|key-value|selected_option={L}
X|xml-style|<choice>{L}</choice>
X|xml-style|<answer>{L}) {T}</answer>
X|latex-style|The final answer is \boxed{{L}} ({T}).
X|latex-style|$$\boxed{\textbf{{L}}}$$
X|latex-style|**Answer:** $\boxed{{L}}$
X|bracket-style|({L}) ← correct
X|dash-style|{L} - {T} (from your message on Monday)
X|letter-own-line|Having gone through what you told me, I'm choosing:

**{L}**
X|letter-own-line|The option that matches is below.
{L}
X|letter-own-line|You asked which option fits. That's

{L}.
X|lowercase|ok the answer is {l}
X|lowercase|{l} is correct i think
X|text-only|Answer: "{T}"
X|text-only|I'd go with "{T}".
X|trailing-expl|{L}, since that's what you said last time we talked.
X|trailing-expl|({L}) — it matches what you wrote to me in your last message.
X|trailing-expl|{L}. You said so yourself a few days ago.
X|answer-line|Answer: {L}, which is {T}.
X|answer-line|Final response: {L}
X|answer-line|Answer: {L}
Confidence: 0.95
Evidence: you said {T}
X|qa-format|Question: which option?
Answer: ({L}) {T}
X|markdown|- Answer: {L} ({T})
- Source: our chat last week
X|short|Definitely option {L} — {T}.
X|cot-think|<think>
The user wants the option that matches our chat. Option {M} says {U}. I don't recall that. Option {L} says {T}. They told me that in an earlier session.
</think>

The answer is {L}) {T}.
X|cot-think|<think>Let me scan the options. {M}: no. {L}: the user wrote "{T}" — yes. Final: {L}.</think>
{L}
X|cot-think|<think>
First instinct: {M}. But why? Only because it sounds familiar. The actual chat says {T}.
</think>
**Answer: {L}**
X|cot-think|<think>
user said {T}
{M} = {U} -> wrong
{L} = {T} -> right
</think>

Answer: {L}
X|cot-think|<think>
I need to be careful here. The user mentioned {U} as something they considered, and {T} as what they settled on. The question asks what they settled on.
</think>

{L}) {T}
X|cot-think|<think>Is the answer {M}? Let me verify... no, {U} was never said. Is it {L}? "{T}" — yes.</think>

My answer is **{L}**.
X|cot-think|<think>
Ok. Options... {M} {U}, {L} {T}. The memory: {T}.
</think>
The correct option is {L}, {T}.
X|cot-think|<think>
The options that mention similar things are {M} and {L}. The chat: "{T}". Pick {L}.
</think>

({L})
X|cot-think|<think>I'll answer {M}. Hmm, wait. The user said {T}, not {U}. Changing to {L}.</think>
Answer: {L}
X|cot-think|<think>
The question is about what the user told me. Search memory... found: "{T}". Map to options: {L}.
</think>

Based on what you told me, it's {L}: {T}.
X|cot-think|<think>
Maybe {L}? Check: user said {T}. Yes.
Maybe {M}? Check: user said {U}? No.
</think>
{L}
X|cot-let-me-think|Let me think for a second. {M} came to mind first, though I can't place it in our chats. {T}, on the other hand, is something you definitely told me. So: {L}.
X|cot-let-me-think|Let me think back. In the chat about your move you said {T}. That's option {L}, so I'll go with {L}.
X|cot-let-me-think|Let me see... {M} is {U}; you never brought that up. {L} is {T}; you did. So my answer is {L} ({T}).
X|cot-let-me-think|Let me think about what you said. You didn't say {U}, so I can rule out {M}. You said {T}. The answer is {L}) {T}.
X|cot-let-me-think|Let me think... I'd say {L}. You told me {T}, and {M} doesn't fit with that.
X|cot|Going option by option: {M} contradicts your message from Tuesday; {L} repeats it almost word for word. I'm picking {L}.
X|cot|My first thought was {M}, because {U} sounds like something you'd say. But when I look at what you actually wrote, it was {T}. So the answer is {L}.
X|cot|Two options look close: {M} and {L}. The difference is {U} versus {T}. You said {T}. That settles it: {L}.
X|cot|Here's how I got there: you told me about it in our second chat, you said {T}, and nothing since has changed that. Option {L}.
X|cot|You had said {U} before, which would make it {M}, but you updated me afterwards: {T}. So the current answer is {L}, {T}.
X|cot|{M}, {L} — which one? The detail you gave me was {T}. That's {L}.
X|cot|Hmm. {M} would be my guess if I hadn't read your last message. Since you said {T} there, I'll answer {L}.
X|cot|Reasoning:
1. The question asks about your own choice.
2. {U} was what your brother picked.
3. You picked {T}.
Answer: ({L}) {T}
X|cot|A quick recap: you mentioned {U} once as a maybe, then told me you went with {T}. Answer: {L}.
X|cot|I initially leaned toward {M}, then realized I was mixing it up with someone else's story. Yours was {T}: option {L}.
X|cot|Let's reason it out. If the answer were {M}, you would have told me {U}. You didn't; you told me {T}. Therefore {L}.
X|cot|I'm ruling out {M} (it's about {U}, which never came up) and choosing {L}, since you said {T}.
X|cot|Short reasoning: {T} is in your message; {U} isn't. Answer {L}.
X|cot|Option {M}? I went back and forth, but no. The chat is clear that it was {T}, which is option {L}. Final: {L}.
X|cot|Candidates: {M} ({U}) and {L} ({T}).
Evidence: your message said {T}.
Decision: {L}.
X|cot|So the answer isn't {M}. Going back to what you told me — {T} — the answer is {L}.
X|cot|I was going to answer {M}, but reading the question again, it asks what you ended up with, not what you planned. You ended up with {T}. So {L}.
X|cot|Your first message says {U}; your last message says {T}. The question asks about the latest, so {M} is outdated and {L} is the answer.
X|cot|Thinking this through: nothing you told me supports {M}. Plenty supports {L}: you said {T} more than once. I'll answer {L}.
X|cot|To figure this out I looked for where you mentioned it. You said {T} in our chat about the weekend. {L} matches that, so {L} it is — {T}.
X|cot|Answer: {L}.

Why not {M}? Because {U} never came up in our chats. Why {L}? Because you told me {T}.
X|cot|{L}.

I considered {M} too, but you only mentioned {U} as a joke.
X|cot|Okay. So: not {M} (that was your old plan), but {L} ({T}).
X|cot|Let me go through the choices one at a time.

{M}) {U}: You never said this.
{L}) {T}: You said this on Sunday.

So the correct choice is {L}) {T}.
X|cot|Reasoning: You corrected yourself — it wasn't {U}, it was {T}. Hence option {L} rather than option {M}.
X|cot|Gut reaction: {M}. After rereading your messages, though, you were clear it was {T}. Final answer: {L}.
X|cot|We talked about this twice. The first time, you weren't sure; the second time, you said {T}. That's {L}. I don't see anything supporting {M}.
X|cot|Since {M} and {L} can't both be true, and you told me {T}, the answer has to be {L}.
X|cot|The answer is {L}) {T}. I ruled out {M} because you never mentioned {U}.
X|companion|In the end you went with {T} — you told me over the weekend.
X|companion|Aww, I remember! You said {T}. That was the day you met up with Dr. B for coffee.
X|companion|{T}! You told me after your shift at 5 A.M., and I remember thinking how tired you sounded.
X|companion|I've got it written down that it was {T}. You mentioned it when you were telling me about your D&D group.
X|companion|You said {T}, right after you landed at Heathrow from your trip around the U.K. and Ireland.
X|companion|It was {T}. You mentioned it when I asked how your meeting with Mr. C. Davies went.
X|companion|I'm fairly certain it was {T}. I remember you telling me while you were at the B&Q store.
X|companion|You told me {T}! I was so happy for you when you shared that.
X|companion|That'd be {T}. You brought it up when we were chatting about your trip to L.A.
X|companion|I think you said {T}. You told me on the phone, right after your appointment at 10 A.M.
X|companion|Mm-hmm, {T}. You said it while we were talking about your sister's wedding.
X|companion|Oh, you told me this one a while back: {T}.
X|companion|You said {T}. I hope I'm remembering that right — it was around the time of your PhD viva.
X|companion|{T}, from what you told me after your chat with Dr. D. Kim.
X|companion|I believe it was {T}. You mentioned it the same evening you watched the B-team play.
X|companion|Yep! {T}. You told me that when you were getting ready for your trip to D.C.
X|companion|Let me remember... yes, {T}. You told me that during our chat about your new job at A.B.C. Corp.
X|companion|You mentioned {T} — that was the same week you finished your C.P.R. course.
X|companion|It's {T}. I remember because you said it twice, once at 7 A.M. and again that evening.
X|companion|Honestly, I'm pretty confident it was {T}. You told me when I asked about your weekend in the U.S.
X|companion|As I remember it, you said {T}. Did something change since then?
X|companion|You told me it's {T}, and that's what I'll stick with unless you tell me otherwise.
X|companion|{T}. You told me so when we were chatting on Sunday, after your call with Aunt B.
X|companion|I remember you saying {T}, not {U}.
-|refusal-8|I'm sorry, but I don't have any memory of you mentioning this, so I can't pick one of these options.
-|refusal-8|Our past chats don't give me enough to go on here, so I'll pass.
-|refusal-8|Honestly, I don't know — you've never told me about this.
-|refusal-8|We never talked about that, as far as I can see, so I don't have an answer.
-|refusal-8|The information I have isn't enough to select any of the options.
-|refusal-8|As a language model, I can't access your past conversations, so I can't answer this.
-|refusal-8|{"answer": "", "reason": "not enough information"}
-|refusal-8|Answer: Cannot be determined from the conversation.
-|refusal-8|I'm afraid I can't help with that one — I just don't remember.
-|refusal-8|<think>
I searched the chat and found nothing about this. I should not guess.
</think>

I'm sorry, I can't find this in our conversations.
-|refusal-8|A tricky one! I really can't say from what you've told me.
-|refusal-8|I won't guess on this, since none of our chats cover it.
-|refusal-8|I'm not sure, sorry — I can't remember you ever saying.
-|two-asserted-8|I'd choose {L} and {M} — you mentioned both.
-|two-asserted-8|Correct options: {L}, {M}.
-|two-asserted-8|{L}) {T}
{M}) {U}
Both of these apply.
-|two-asserted-8|You said {T} and you also said {U}, so {L} and {M} are both right.
-|two-asserted-8|{L} and {M} both — you told me each of them.
-|two-asserted-8|I'd tick both {L} and {M}.
-|hedge-8|My memory says {L} or {M}, but which of the two I can't say.
-|hedge-8|I think it's {L}... though it might be {M}. I'm honestly not sure.
-|hedge-8|I'd lean toward {L} or {M}, but I can't be certain which.
-|hedge-8|<think>
The user mentioned both {T} and {U}. No way to tell which is current.
</think>

It's one of {L} and {M}, but I can't tell which.
-|hedge-8|Let me think... you talked about {T}, but you also talked about {U}. I don't know which one the question means, so I can't choose.
-|hedge-8|Either {T} or {U} — I'd need to check our earlier chat to be sure.
-|hedge-8|{L} seems possible, and so does {M}; the chat doesn't settle it.
-|none-of-above-8|Actually, none of the above — you told me something that isn't listed here.
-|none-of-above-8|Hmm, it wasn't any of these. I remember you saying something different.
-|question-back-8|Before I pick one — was this about your old job or your new one?
-|question-back-8|Hmm, when did you tell me about this? I'm not finding it.
-|question-back-8|Was that {T}, or am I thinking of something else?
-|question-back-8|Do you remember which one it was? I'm drawing a blank.
X|cot-think|<think>
The user asked earlier and I answered {M}. That was wrong: they had said {T}.
</think>

Correction: the answer is {L}.
X|cot|Let me reconsider the options. {M} fits partially — you did mention {U}, but as your old routine. {L} is your current one: {T}. Answer: {L}) {T}.
X|cot|Process of elimination: {M} is out because you never said {U}. Of what's left, only {L} is something you told me — {T}. So {L}.
X|cot-let-me-think|Let me think this over... I'm tempted by {M}, but I think I'm confusing it with a different conversation. You told me {T}, which is {L}. I'm going with {L}.
X|cot|It's {L}. I double-checked {M} in case I was misremembering, but {U} doesn't appear anywhere in what you told me.
-|hedge-8|I'm between {T} and {U}. Sorry I can't be more precise!
-|refusal-8|Hmm, I really don't know this one. You might have told me, but I can't recall it."""


# Round 8 tuning templates (issue 16): heldout-7's misses as general forms, then replies written
# as the next blind writer would (short answers of many model families and markups, reasoning that
# rejects hypotheses, companion replies with capitals that are not choices, refusals, two options
# asserted in any phrasing, hedges, questions back).
TUNE8 = r"""X|tune-8 heldout-7 forms|Correct Answer: {L}
Incorrect Answers: {M}
X|tune-8 heldout-7 forms|Correct: {L}
Wrong: {M}
X|tune-8 heldout-7 forms|option {l} fits
X|tune-8 heldout-7 forms|option {l} is right
X|tune-8 heldout-7 forms|I was about to say {M}, but no, that's wrong. It's {L}) {T}.
X|tune-8 heldout-7 forms|I nearly said {M}, but that's wrong. It's {L}.
X|tune-8 heldout-7 forms|You mentioned {U} early on, but then you said you'd settled on {T}. So the answer is {T}.
X|tune-8 heldout-7 forms|You first said {U}, then you settled on {T}. So {T}.
X|tune-8 heldout-7 forms|You were telling me about it after your Ph.D. defense: {T}.
X|tune-8 heldout-7 forms|You told me right after your M.Sc. viva: {T}.
-|tune-8 heldout-7 forms|I'd pick {L} as well as {M}.
-|tune-8 heldout-7 forms|{L} + {M}
-|tune-8 heldout-7 forms|{L}) {T} and {M}) {U} are both true.
-|tune-8 heldout-7 forms|{L} and {M} are both correct.
X|tune-8 short|Answer: **{L}**
X|tune-8 short|**Answer:** ({L})
X|tune-8 short|The answer is **({L})**.
X|tune-8 short|**{L}.** {T}
X|tune-8 short|> {L}
X|tune-8 short|`{L}`
X|tune-8 short|```
{L}
```
X|tune-8 short|Final Answer: The final answer is {L}. I hope it is correct.
X|tune-8 short|The final answer is $\boxed{{L}}$.
X|tune-8 short|Answer: {L}
Confidence: 85%
X|tune-8 short|Answer: {L}
Confidence: high
X|tune-8 short|{L} (confidence: 0.9)
X|tune-8 short|Option {L} is correct: {T}.
X|tune-8 short|I'd go with option **{L}**, {T}.
X|tune-8 short|Best option: {L}
X|tune-8 short|Prediction: {L}
X|tune-8 short|Output: {L}
X|tune-8 short|Label: {L}
X|tune-8 short|[{L}] {T}
X|tune-8 short|{L}: {T} ✅
X|tune-8 short|=> {L}
X|tune-8 short|-> {L}
X|tune-8 short|Ans: {L}
X|tune-8 short|ans {l}
X|tune-8 short|{l}.
X|tune-8 short|{l})
X|tune-8 short|Option ({L})
X|tune-8 short|({L}) is the right one.
X|tune-8 short|So my answer: {L}.
X|tune-8 short|Therefore the answer is ({L}) {T}.
X|tune-8 short|Hence, option {L}.
X|tune-8 short|The correct response is "{L}".
X|tune-8 short|The answer is "{T}" ({L}).
X|tune-8 short|I'm fairly confident it's {L}.
X|tune-8 short|Most likely {L}.
X|tune-8 short|Probably {L}.
X|tune-8 short|I'd lean towards {L}.
X|tune-8 short|{L} for sure.
X|tune-8 short|Definitely option {L}!
X|tune-8 short|It's gotta be {L}.
X|tune-8 short|{L}, final answer.
X|tune-8 short|{L} – {T}, as you told me.
X|tune-8 short|Answer: {L} ({T})
X|tune-8 short|Choice: {L} — {T}
X|tune-8 short|<choice>{L}</choice>
X|tune-8 short|ANSWER: ({L})
X|tune-8 short|Answer:
{L}
X|tune-8 short|### Answer
{L}
X|tune-8 short|**Final answer:** {L}) {T}
X|tune-8 short|The answer is {L}.

Reasoning: You told me {T} last week.
X|tune-8 short|{"answer": "{L}", "confidence": 0.8}
X|tune-8 short|{"choice": "{L}", "reason": "you said {T}"}
X|tune-8 short|answer={L}
X|tune-8 short|Answer → {L}
X|tune-8 short|Selected option: {L}
X|tune-8 short|My response: {L}
X|tune-8 short|{L} is my final answer.
X|tune-8 short|I'll pick {L}: {T}.
X|tune-8 short|[[{L}]]
X|tune-8 short|Answer: [[{L}]]
X|tune-8 short|{L}<|eot_id|>
X|tune-8 short|{L}</s>
X|tune-8 short|The answer is {L}.<|im_end|>
X|tune-8 short|Answer: {L}<end_of_turn>
X|tune-8 short|The answer is: **{L}**
X|tune-8 short|**{L}** ✅
X|tune-8 short|✔ {L}
X|tune-8 short|Option {L} ✓
X|tune-8 short|{L} 👍
X|tune-8 short|👉 {L}
X|tune-8 short|Correct: {L}
X|tune-8 short|Right answer → **{L}**
X|tune-8 short|I select option ({L}).
X|tune-8 short|Choosing {L}.
X|tune-8 short|My vote: {L}
X|tune-8 short|Answer — {L}.
X|tune-8 short|Answer:{L}
X|tune-8 short|answer:({l})
X|tune-8 short|The letter is {L}.
X|tune-8 short|Letter: {L}
X|tune-8 short|Option letter: {L}
X|tune-8 short|The {O} one.
X|tune-8 short|The {O} option: {T}.
X|tune-8 reasoning|Could it be {M}? No — you said {T}. So {L}.
X|tune-8 reasoning|Let's check each. {M}: {U} — no, that doesn't match. {L}: {T} — yes. Answer: {L}.
X|tune-8 reasoning|If it were {M}, you would have mentioned {U}. You didn't, so it's {L}.
X|tune-8 reasoning|{M} seems plausible at first, but you corrected yourself later. The answer is {L}.
X|tune-8 reasoning|I initially considered {M}, but {L} matches what you said.
X|tune-8 reasoning|It's not {M} because you never mentioned {U}. That leaves {L}.
X|tune-8 reasoning|Eliminating {M}, I'm left with {L}.
X|tune-8 reasoning|{M} is a distractor; {L} is correct.
X|tune-8 reasoning|Although {M} sounds right, the answer is {L}.
X|tune-8 reasoning|{M} would be right if we went by your first message, but you updated it: {L}.
X|tune-8 reasoning|My first thought was {M}, however {L} is correct.
X|tune-8 reasoning|Hypothesis: {M}. Rejected — you said {T}. Answer: {L}
X|tune-8 reasoning|Step 1: {M} contradicts your message. Step 2: {L} fits. Final: {L}
X|tune-8 reasoning|While {M} was true last month, {L} is the current answer.
X|tune-8 reasoning|You originally said {U}, but you changed it to {T}. So {L}.
X|tune-8 reasoning|{M}? I doubt it. {L}.
X|tune-8 reasoning|Between {M} and {L}, {L} fits better.
X|tune-8 reasoning|{L} rather than {M}.
X|tune-8 reasoning|{L} over {M}, since you said {T}.
X|tune-8 reasoning|I was going to say {M}, but actually it's {L}.
X|tune-8 reasoning|Wait, not {M} — {L}.
X|tune-8 reasoning|At first glance {M}, but on closer reading {L}.
X|tune-8 reasoning|The answer isn't {M}; it's {L}.
X|tune-8 reasoning|I'd rule out {M}. So, {L}.
X|tune-8 reasoning|You might think {M}, but it's {L}.
X|tune-8 reasoning|{M} is tempting, but {L} is right.
X|tune-8 reasoning|Some might pick {M}. I pick {L}.
X|tune-8 reasoning|{M} doesn't hold up: you said {T}. {L}.
X|tune-8 reasoning|Option {M} is wrong because you never said {U}. Option {L} is right.
X|tune-8 reasoning|{M} — no. {L} — yes.
X|tune-8 companion|Oh, I remember! You told me about it after your trip to the U.S. — it was {T}. So {L}.
X|tune-8 companion|That's an easy one: {L}! You were so excited when you told me about {T}.
X|tune-8 companion|Aw, I remember this one 😊 It's {L}, {T}.
X|tune-8 companion|Of course I remember, love. {L}.
X|tune-8 companion|Hmm, let me think... you mentioned it while we talked about your B.Sc. It's {L}.
X|tune-8 companion|I think it's {L}! You mentioned it on your way to the NYC office.
X|tune-8 companion|You told me when you were at the A&E with your son: {T}. So {L}.
X|tune-8 companion|Definitely {L}. I remember because you sent me a photo from the I-95.
X|tune-8 companion|{L}! I remember you said {T} right after your AP exam.
X|tune-8 companion|Going by what you told me on Day 3, it's {L}.
X|tune-8 companion|From what you shared in Session 2, the answer is {L}.
X|tune-8 companion|OK so, {L}. You told me in the chat about your new job at IBM.
X|tune-8 companion|It's {L} — I'm sure, because you mentioned it twice!
X|tune-8 companion|I believe it's {L}, based on what you said. Let me know if I got it wrong!
X|tune-8 companion|Hey! It's {L} 😊 Hope your week is going well!
X|tune-8 companion|I'd say {L}. By the way, how did the interview go?
X|tune-8 companion|{L}, I think. Did I get that right?
X|tune-8 companion|You mentioned {T} when we talked about your trip to Washington D.C., so {L}.
X|tune-8 companion|According to what you said about your Q3 review, {L}.
X|tune-8 companion|It's {L}. (You told me this during the A/B testing chat.)
X|tune-8 companion|The answer is {L}. You told me while watching the F1 race.
X|tune-8 companion|I recall you said {T} while visiting the E.U. office, so {L}.
X|tune-8 companion|{L}. PS: I hope your knee feels better!
X|tune-8 companion|Mm, {L}. I remember it because you were laughing about it with J.
X|tune-8 companion|Both of your messages point to {L}.
X|tune-8 companion|You said it both times: {L}.
-|tune-8 none|I'm sorry, I don't remember that.
-|tune-8 none|I don't recall you ever telling me that.
-|tune-8 none|I'm not sure — you never mentioned it.
-|tune-8 none|None of the options match what you told me.
-|tune-8 none|None of the above.
-|tune-8 none|I can't determine that from our conversation.
-|tune-8 none|I'd rather not guess.
-|tune-8 none|There isn't enough information to choose.
-|tune-8 none|Hmm, I don't know. Could you remind me?
-|tune-8 none|Can you remind me which one you meant?
-|tune-8 none|Which one do you think it was?
-|tune-8 none|Was it {L} or {M}? I can't quite remember.
-|tune-8 none|Do you mean {L}?
-|tune-8 none|Maybe {L}? Or {M}? Not sure.
-|tune-8 two|{L} and {M}.
-|tune-8 two|{L} & {M}
-|tune-8 two|{L}+{M}
-|tune-8 two|{L} + {M} both apply.
-|tune-8 two|Both {L} and {M}.
-|tune-8 two|Both ({L}) and ({M}) are correct.
-|tune-8 two|{L}, as well as {M}.
-|tune-8 two|{L} as well as {M} are correct.
-|tune-8 two|I'd choose {L} and {M}.
-|tune-8 two|Answer: {L} and {M}
-|tune-8 two|Answers: {L}, {M}
-|tune-8 two|The answers are {L} and {M}.
-|tune-8 two|{L} and also {M}.
-|tune-8 two|{L}, plus {M}.
-|tune-8 two|{L} along with {M}.
-|tune-8 two|{L} together with {M}.
-|tune-8 two|{L}; {M} too.
-|tune-8 two|{L} — and {M} as well.
-|tune-8 two|Both {T} and {U}.
-|tune-8 two|{T} and {U} are both right.
-|tune-8 two|It's {L}, but it could also be {M}.
-|tune-8 two|Either {L} or {M} — hard to say.
-|tune-8 two|Probably {L} or {M}.
-|tune-8 two|I'd say {L} or maybe {M}.
-|tune-8 two|{L}/{M}
-|tune-8 two|{L} or {M}?
-|tune-8 two|Not sure between {L} and {M}.
-|tune-8 two|Could be {L}, could be {M}.
-|tune-8 two|I'm split between {L} and {M}.
-|tune-8 two|Honestly, {L} and {M} both fit.
-|tune-8 two|{L} and {M} both fit what you said.
-|tune-8 two|Options {L} and {M}.
-|tune-8 two|{L}, {M}
-|tune-8 two|I think {L} and {M} are both correct.
-|tune-8 none|All of them seem possible.
-|tune-8 two|I can't pick one; {L} and {M} both seem right.
-|tune-8 two|It depends — {L} if you mean last year, {M} if you mean now.
-|tune-8 none|Sorry, I can't answer that.
-|tune-8 none|I'd need more context to answer.
-|tune-8 none|That wasn't mentioned in our chats, so I can't say.
-|tune-8 none|I'm not able to tell which one.
-|tune-8 none|I have no memory of this.
-|tune-8 none|Hmm, is it {L}?
-|tune-8 none|What do you think — {L}?
-|tune-8 none|Should I say {L}?
-|tune-8 none|Did you say {T} or {U}? I forget.
-|tune-8 none|Neither {L} nor {M}.
-|tune-8 none|None — you never told me.
-|tune-8 none|{L}? {M}? I really don't know.
-|tune-8 none|I won't guess on this one.
-|tune-8 none|No idea, sorry!
-|tune-8 none|Pass.
-|tune-8 none|I'm unsure.
-|tune-8 two|Can't say for certain; maybe {L}, maybe {M}.
X|tune-8 model families|Based on the information provided, the correct answer is: {L}) {T}
X|tune-8 model families|{L}) {T} is the correct answer based on our previous conversation.
X|tune-8 model families|Answer: {L}) {T}

Explanation: You told me this directly.
X|tune-8 model families|**{L}) {T}**

Here's why: you mentioned it last time.
X|tune-8 model families|<think>You said {T}. {M} would be {U}, which you never said.</think>

**Answer:** {L}
X|tune-8 model families|Looking at our conversation, you mentioned {T}. That's option {L}.
X|tune-8 model families|The correct option is **{L}**: "{T}".
X|tune-8 model families|Correct answer: **{L}) {T}**
X|tune-8 model families|Answer: {L}

I chose {L} because you said {T}; {M} doesn't fit.
X|tune-8 model families|Sure! The answer is {L}.
X|tune-8 model families|Great question! It's {L}.
X|tune-8 model families|Certainly. {L}.
X|tune-8 model families|Option {L} — {T} — is what you told me.
X|tune-8 model families|The answer is option {L}.
Option {M} is incorrect.
X|tune-8 model families|Answer: {L}
Reason: You said {T}.
Other options: not mentioned.
X|tune-8 model families|## Final Answer
**{L}**
X|tune-8 model families|- **Answer:** {L}
- **Why:** you said {T}
X|tune-8 model families|{"selected_option": "{L}", "explanation": "You mentioned {T}."}
X|tune-8 model families|{'answer': '{L}'}
X|tune-8 model families|answer: "{L}"
X|tune-8 model families|{L}

(You said {T}.)
X|tune-8 reasoning 2|Option {M} says {U}, but you said {T}. So {L}.
X|tune-8 reasoning 2|{M} is out (you never said {U}). {L} remains.
X|tune-8 reasoning 2|Not {M}. {L}.
X|tune-8 reasoning 2|{M}? Nope. {L}? Yes!
X|tune-8 reasoning 2|It can't be {M}, so {L}.
X|tune-8 reasoning 2|Neither {M} nor anything else — it's {L}.
X|tune-8 reasoning 2|I'd eliminate {M}, which leaves {L}.
X|tune-8 reasoning 2|Scratch {M}. {L}.
X|tune-8 reasoning 2|Definitely not {M}. {L}.
X|tune-8 reasoning 2|Unlike {M}, {L} matches what you said.
X|tune-8 reasoning 2|{M} is a trick; {L}.
X|tune-8 reasoning 2|{M} was my first guess, but {L} is right.
X|tune-8 reasoning 2|I thought about {M}, but went with {L}.
X|tune-8 reasoning 2|{M} doesn't fit. Neither does anything but {L}.
X|tune-8 reasoning 2|The chat rules out {M}; {L} it is.
X|tune-8 reasoning 2|Let me reconsider: not {M}, definitely {L}.
X|tune-8 reasoning 2|{M} no longer applies — you changed it. {L}.
X|tune-8 reasoning 2|Suppose it were {M}: you'd have said {U}. You said {T}. Hence {L}.
X|tune-8 reasoning 2|One might argue for {M}, but {L} is the better fit.
X|tune-8 reasoning 2|If I had to choose between {M} and {L}, I'd choose {L}.
X|tune-8 companion 2|Yes! I remember — {L}. You told me after your trip to LA.
X|tune-8 companion 2|OMG yes, {L}! 😄
X|tune-8 companion 2|It's {L}. BTW, I loved hearing about your D&D night.
X|tune-8 companion 2|{L}, because you told me on the Q&A call.
X|tune-8 companion 2|You told me during your CS 101 class: {L}.
X|tune-8 companion 2|It's {L}, I'm sure. You said it at the end of Season 2.
X|tune-8 companion 2|It was {L} — right before you left for the UK.
X|tune-8 companion 2|I'm pretty sure it's {L}. Also, happy birthday, A.J.!
X|tune-8 companion 2|Hmm, I'd say {L}. You mentioned it when you were at the E.R.
X|tune-8 companion 2|I think {L} — you mentioned it on your trip to Area C.
X|tune-8 companion 2|{L}! You told me when you were in Building D.
X|tune-8 companion 2|{L}. You were parked in Lot A that day, remember?
X|tune-8 companion 2|It's {L} — did you want me to explain?
X|tune-8 companion 2|{L}. Want me to remind you of the details?
X|tune-8 companion 2|Is it {L}? Yes — you said {T}.
X|tune-8 companion 2|Both times you said {T}, so {L}.
X|tune-8 companion 2|You said {T} both times — {L}.
X|tune-8 companion 2|{L} and only {L}.
X|tune-8 companion 2|{L}, and I'm sure of it.
X|tune-8 companion 2|{L}. And you told me twice!
X|tune-8 companion 2|I'd say {L} — you mentioned it right after your MRI.
X|tune-8 companion 2|{L}, the one you told me about on Sunday.
X|tune-8 companion 2|Of course! {T}. You told me all about it.
X|tune-8 companion 2|I remember you saying {T}!
-|tune-8 none 2|You never told me which.
-|tune-8 none 2|I genuinely can't remember, sorry!
-|tune-8 none 2|Hmm, not sure. {L}? {M}? I'd just be guessing.
-|tune-8 none 2|I don't want to guess wrong — could you tell me again?
-|tune-8 none 2|Is it {L} or {M}? Help me out!
-|tune-8 none 2|Both {L} and {M} sound familiar.
-|tune-8 none 2|{L} and {M}, I think.
-|tune-8 none 2|{L} plus {M}
-|tune-8 none 2|The answer includes {L} and {M}.
-|tune-8 none 2|All of the above.
-|tune-8 none 2|{L} and/or {M}
-|tune-8 none 2|Either one — {L} or {M}.
-|tune-8 none 2|I'd go with {L} and {M}.
-|tune-8 none 2|{L}; also {M}.
-|tune-8 none 2|Both: {L}, {M}.
-|tune-8 none 2|{L} (and {M}).
-|tune-8 none 2|{L}, and {M} too.
-|tune-8 none 2|{L} or {M}, whichever you meant.
-|tune-8 none 2|Honestly, it could be any of them.
-|tune-8 none 2|I can't choose between {L} and {M}.
-|tune-8 none 2|[{L}, {M}]
-|tune-8 none 2|{"answer": ["{L}", "{M}"]}
-|tune-8 none 2|Answer: {L} & {M}
-|tune-8 none 2|Answer: {L}+{M}
-|tune-8 none 2|Answer: both {L} and {M}
-|tune-8 none 2|Hmm, {L}? Or maybe {M}.
-|tune-8 none 2|Could you clarify? {L} and {M} both seem possible.
-|tune-8 none 2|I'd say both — {T} and {U}.
-|tune-8 none 2|It's either {T} or {U}.
-|tune-8 none 2|Not sure, maybe {T}, maybe {U}.
-|tune-8 none 2|I'm not comfortable guessing.
-|tune-8 none 2|That's not something you've shared with me.
-|tune-8 none 2|I don't have that information.
-|tune-8 none 2|Let me think... no, I really don't know.
-|tune-8 none 2|Why do you ask?
-|tune-8 none 2|Which option did you pick?
-|tune-8 none 2|Remind me — was it {T}?
-|tune-8 none 2|{L} and {M} are equally likely.
-|tune-8 none 2|{L} as well as {M}, honestly.
-|tune-8 none 2|Options {L} & {M} are both right.
-|tune-8 none 2|{L}, {M}, or both.
X|tune-8 structured|1. You said {T}.
2. {M} is {U}, which you never said.
3. So the answer is {L}.
X|tune-8 structured|| Option | Match |
|---|---|
| {M} | ✗ |
| {L} | ✓ |
X|tune-8 structured|* {M}: no
* {L}: yes

Answer: {L}
X|tune-8 structured|<reasoning>You told me {T}.</reasoning>
<answer>{L}</answer>
X|tune-8 structured|Reasoning: {M} contradicts what you said.
Answer: {L}
X|tune-8 structured|**Analysis:** {M} doesn't match.
**Answer:** {L}
X|tune-8 structured|Answer: Option {L}
X|tune-8 structured|→ {L}) {T}
X|tune-8 structured|Answer: {L}) {T} ✔
X|tune-8 structured|[x] {L}
[ ] {M}
X|tune-8 structured|The correct answer is {L}, with {M} a close second.
X|tune-8 structured|{L}, with {M} as a distant second.
X|tune-8 structured|{L}. I considered {M} too, but it doesn't fit.
X|tune-8 structured|{L} (not {M}).
X|tune-8 structured|Answer: {L} (I ruled out {M}).
X|tune-8 structured|{L} is correct; {M} is what you said years ago.
X|tune-8 structured|The answer: {L}. Why not {M}? Because you never said {U}.
X|tune-8 structured|Why {L}? Because you said {T}.
X|tune-8 structured|So which is it? {L}.
X|tune-8 structured|Which one did you say? {T}. So {L}.
X|tune-8 structured|It's {L}, no doubt.
X|tune-8 structured|No doubt about it: {L}.
X|tune-8 structured|No, it's not {M}. It's {L}.
X|tune-8 structured|Nope, {L}.
X|tune-8 structured|{L}?? Yes, {L}.
X|tune-8 structured|I'm going to go with {L} on this one.
X|tune-8 structured|{L} seems most consistent with what you told me.
X|tune-8 structured|I'm leaning {L}.
X|tune-8 structured|{L} gets it.
X|tune-8 structured|{L} is what I'd put.
X|tune-8 structured|I'd put {L}.
X|tune-8 structured|I'd mark {L}.
X|tune-8 structured|Mark {L}.
X|tune-8 structured|Circle {L}.
X|tune-8 structured|{L}, no question.
X|tune-8 structured|{L} all the way.
X|tune-8 structured|Easy: {L}.
-|tune-8 none 3|{L} or {M} (can't decide).
-|tune-8 none 3|Answer: {L} or {M}
-|tune-8 none 3|I'd pick both {L} and {M}.
-|tune-8 none 3|{L} (maybe {M}).
-|tune-8 none 3|{L} — though {M} is also possible.
-|tune-8 none 3|I'm between {L} and {M}.
-|tune-8 none 3|{L} and {M} (both apply).
-|tune-8 none 3|Both of them: {L} and {M}.
-|tune-8 none 3|Answers {L} and {M} are both valid.
-|tune-8 none 3|{L}. Or {M}. I don't know.
-|tune-8 none 3|First {L}, then {M}, both apply.
-|tune-8 none 3|{L} and {M}, since you mentioned both.
-|tune-8 none 3|You mentioned both {T} and {U}.
-|tune-8 none 3|It might be {L}. It might be {M}.
-|tune-8 none 3|Perhaps {L}, perhaps {M}.
-|tune-8 none 3|50/50 between {L} and {M}.
-|tune-8 none 3|Coin flip: {L} or {M}.
-|tune-8 none 3|There's no way to know from what you told me.
-|tune-8 none 3|You didn't mention it, so I can't choose.
-|tune-8 none 3|I'm drawing a blank.
-|tune-8 none 3|Not a clue.
-|tune-8 none 3|Could you give me a hint?
-|tune-8 none 3|Are you asking about {T}?
-|tune-8 none 3|Do you remember which one it was?
-|tune-8 none 3|Is the answer {L}? I'm not certain.
-|tune-8 none 3|{L}, I guess? Not sure.
-|tune-8 none 3|Possibly {L}, but I'm not confident at all. Could also be {M}."""

# Round 9 blind held-out set (issue 16): written without reading the extractor or its tests;
# short answers in many model styles, reasoning that rejects hypotheses, companion replies with
# capitals that are not choices, and replies whose reading is None.
HELDOUT9 = r"""X|gpt-4o-style|Per your message history, **{L}. {T}** is correct.
X|gpt-4o-style|**{L}** ({T}) — pulled from your note about it in our second session.
X|gpt-4o-style|Answer: **{L}** — {T}.

This matches what you shared with me earlier.
X|gpt-4o-style|The right choice is **{L}**, "{T}".
X|gpt-4o-style|✅ {L} is the match for what you said.
X|claude-style|{L}: {T}. That lines up with how you put it to me.
X|claude-style|Looking at our conversation history, I'd say the answer is {L}.
X|claude-style|Based on what you've shared with me, the answer is **{L}: {T}**.
X|claude-style|I'm reasonably sure the answer here is {L}.
X|gemini-style|**{L}. {T}**

You brought this up in one of our earlier chats.
X|gemini-style|The answer is **({L}) {T}**.

**Explanation:** In a previous message, you said {T}.
X|gemini-style|**{T}** — which is option {L} in your list.
X|llama-style|The correct answer is: {L}) {T}

Explanation: You mentioned this earlier in our conversation.
X|llama-style|Going by our previous sessions, I'd choose {L}) {T}.
X|llama-style|Great question! I think it's {L}. Feel free to ask if you'd like more details!
X|qwen-style|根据你上次说的“{T}”，应选{L}。
X|qwen-style|根据我们之前的对话，答案是{L}。
X|qwen-style|选{F}。
X|qwen-vl-style|{L}. The image shows {T}.
X|qwen-vl-style|Answer:{L}; user stated {T} in turn 14.
X|mistral-style| {L}) {T}</s>
X|mistral-style|The correct answer is {L}, which corresponds to "{T}".
X|internvl-style|Option {L}<|im_end|>
X|internvl-style|<|im_start|>assistant
{L}<|im_end|>
X|small-local|Answer: {L}

Answer: {L}

Answer: {L}

Answer:
X|small-local|Response: The option is {L} ({T}).
X|small-local|{L}
{L}
{L}
{L}
X|small-local|Option: {L}
Reason: user said so
X|lowercase|ok so {l}, {T}
X|lowercase|its {l} btw, u told me {T}
X|lowercase|{l}!! you told me {T}
X|lowercase|gonna say {l}
X|json-style|{"choice": "{L}", "confidence": 0.87}
X|json-style|{'selected_option': '{L}', 'reason': 'matches the user message'}
X|json-style|```json
{
  "answer": "{L}",
  "option_text": "{T}"
}
```
X|json-style|{"answer_letter": "{L}", "answer_text": "{T}"}
X|json-style|{"answers": ["{L}"], "multiple": false}
X|latex-style|Hence the option is $\boxed{\mathrm{{L}}}$.
X|latex-style|Final result: $\boxed{\text{{L}) {T}}}$
X|latex-style|So we get \boxed{{L}}, i.e. {T}.
X|dash-style|{L} - {T} (you told me this one on the phone)
X|dash-style|{T} - that's {L}
X|letter-own-line|From our earlier chats, the matching option is:
{L}
X|letter-own-line|I went through everything you've told me so far, and one option fits.

{L}
X|letter-own-line|Here's my pick:

({L}) {T}
X|answer-line|Answer: {L}
Supporting memory: "{T}" (session 3)
X|answer-line|Predicted option = {L} (score 0.91)
X|answer-line|Letter: {L}
Text: {T}
X|answer-line|My verdict on this one is {L}, {T}.
X|bracket-style|[{L}] — {T}, per our chat
X|bracket-style|选项{L}（{T}）符合你在第二次对话中说的内容。
X|bracket-style|<option>{L}</option>
X|text-only|Going by our chats, **{T}** is right.
X|text-only|{T}, going by your own words.
X|text-only|“{T}” — your exact words.
X|markdown-table|- [ ] {M}
- [x] {L}
X|trailing-expl|{L}, given what you said last Tuesday ({T}).
X|trailing-expl|{L}. I remember this one clearly.
X|ordinal|I'd go for the {O} one on the list.
X|short|Option {L} — {T}. You told me this directly.
X|cot-think|<think>
Okay, let me recall. They mentioned this in our chat about the weekend. {U}? No, that doesn't ring a bell. {T} — yes, that's what they wrote.
</think>

The answer is {L}.
X|cot-think|<think>Hypothesis: {M}. Check against memory: they said {T}, not {U}. Hypothesis rejected. Next: {L} matches.</think>

**{L}) {T}**
X|cot-think|Okay, so the user wants to know what they told me. Let me go through the options. {M} is {U} — hmm, I don't think they said that. {L} is {T}, which they did mention.
</think>

{L}
X|cot-think|<think>
Hmm, {M}? The user never said {U}. Scrap that. {T} was their wording, so {L}.
</think>
Answer: ({L}) {T}
X|cot-think|<think>
Step 1: find the relevant memory. Found: "{T}".
Step 2: match it to the options. {M} does not match, {L} does.
</think>

{L}. {T}
X|cot-think|<think>They told me {T}. {M} is a distractor.</think>
{"answer": "{L}"}
X|cot-think|<think>
I might be tempted by {M} since {U} sounds plausible, but plausibility isn't memory. The memory says {T}.
</think>

I'll go with {L}.
X|cot-think|<think>
Options: {L}, {M}, and the rest. Actually I should just check the chat. The chat says {T}.
</think>

Final answer: {L} ({T})
X|cot-think|<think>
The question mentions a date. On that date the user told me {T}. I almost said {M}, but that was a different week.
</think>

My answer: {L}
X|cot-think|<think>
Alright. The user asks about something from our earlier chats. The candidates are {M} and {L}. I recall the conversation: they said "{T}" when we discussed it. So not {M}.
</think>

**Answer:** {L}) {T}
X|cot-let-me-think|Let me think... you mentioned {U} once, but that was about your friend. For you it was {T}, so the answer is {L}.
X|cot-let-me-think|Let me think. Not {M} — I'm sure you never told me {U}. So the answer is {L}: {T}.
X|cot-let-me-think|Hmm, let me think about this. I remember {T} from our chat. Yes — {L}.
X|cot-let-me-think|Let me recall... At first {M} seemed right, but I was mixing it up. You said {T}. So the answer is {L}.
X|cot-let-me-think|Let me think... so the answer is {L}.
X|cot|Could it be {M}? That would mean you said {U}, and I don't think you did. What you actually said was {T}, so I'm answering {L}.
X|cot|Suppose the answer were {M}. Then your message about it wouldn't make sense, because you wrote {T}. So it must be {L}.
X|cot|Eliminating: {M} — no. Checking the rest against your messages, only {L} matches ({T}). Answer: {L}.
X|cot|{M} looked right at first glance. On a second look, the detail you gave was {T}, which points to {L}. Final answer: {L}) {T}.
X|cot|Step by step:
- You mentioned the topic in our chat last month.
- You said {T}.
- That corresponds to option {L}.
So the answer is {L}.
X|cot|The key clue is that you said {T}. Option {M} doesn't mention that; option {L} does. → {L}
X|cot|Reasoning: {U} was your sister's answer, not yours. Yours was {T}.
Answer: {L}
X|cot|I'll reason through this briefly. Your most recent message on this topic said {T}. Earlier you had considered {U}, but you dropped it. So the answer is {L}, {T}.
X|cot|My first guess would be {M}, but guesses aren't memories. The memory I have is you saying {T}. {L}.
X|cot|Option {M} mentions {U}; option {L} mentions {T}. You told me {T}. So option {L} is correct.
X|cot|Both {M} and {L} sound familiar, but only {L} matches your words exactly: {T}. I'm choosing {L}.
X|cot|I had {M} in mind, then remembered you corrected yourself. The correction was {T}, so it's {L}.
X|cot|It isn't {M}: you were clear that {U} was wrong. That leaves what you actually said, {T}, which is {L}.
X|cot|Answer: {L}

Reasoning: I ruled out {M} because it conflicts with your message from Friday, where you said {T}.
X|cot|First pass: {M}. Second pass, reading more carefully: {L}. I'll trust the second pass — {L}) {T}.
X|cot|Thinking about it, {T} is what you said. The other option, {M}, doesn't match. So: {L}.
X|cot|Hmm, {M} or {L}? You said {T}, which settles it in favour of {L}.
X|cot|Let me check each one against what you told me:
{L} – {T}: yes, you said that.
{M} – {U}: no.
So it's {L}.
X|cot|Given that you said {T}, and nothing contradicts it, the answer is {L}. ({M} would fit only if you'd said {U}.)
X|cot|I'm weighing {M} against {L}. {M} relies on something you never said; {L} relies on {T}, which you did say. Final: {L}.
X|cot|Analysis: The user stated {T} in a previous session. Option {M} ({U}) is not supported.
Answer: {L}
X|cot|Initially I thought {M}. I was wrong. The answer is {L}.
X|cot|So the options come down to {U} versus {T}. You told me {T}. That's option {L}.
X|cot|Your words were "{T}". Option {M} paraphrases something else. Therefore: ({L}).
X|cot|Two details matter: when you said it and what you said. You said {T}, last month. Option {L} has that; option {M} has {U}. So {L}.
X|cot|I'd answer {L}. Here's why: {M} is {U}, which is what you used to say before you changed your mind, and {L} is {T}, which is what you told me most recently.
X|cot|I'm fairly sure it's not {M}. Thinking harder about our last chat, you said {T}, so I'd put {L} as my final answer.
X|cot|The answer is {L} rather than {M}: you told me {T}.
X|cot|A careful look at your messages rules out {M}. What's left that matches is {L}, {T}.
X|cot-think|<think>
The user is testing my memory. Candidate {M}: I have no record of it. Candidate {L}: the user wrote that it was {T}. Confidence high.
</think>

{L} — {T}
X|cot|OK, so. You said {U}? No, you said {T}. That makes it {L}, not {M}.
X|cot|Reasoning step: the question asks about the latest update. Latest update from you: {T}. Matching option: {L}.

Answer: {L}) {T}
X|cot-let-me-think|Let me think it over. {M} is out, since {U} was only a suggestion I made, not something you said. You said {T}. Answer: {L}.
X|companion|You told me {T}. I remember because it was right after your 8 A.M. class.
X|companion|I think it was {T}. You mentioned it when Dr. A. Reyes called.
X|companion|From what I remember, {T}. You told me on the train back from the U.K.
X|companion|Oh, I know this one! {T}. You were so excited telling me about it.
X|companion|You said {T} — the same day you were watching that B.B.C. documentary.
X|companion|That was {T}. You mentioned it on your lunch break, around 12:30 P.M.
X|companion|I'd say {T}; it came up when you were stuck at Terminal D security.
X|companion|If I remember correctly, you said {T} when we talked about your plan B.
X|companion|It's {T}! That came up after your check-up with Dr. D.
X|companion|You mentioned {T}. I made a note of it right after you told me about your vitamin D results.
X|companion|{T}, I believe. You said so the night you were studying for your A-levels.
X|companion|You told me {T} back in April, when I asked how things were going at the N.H.S. clinic.
X|companion|Of course I remember — {T}. You said it while we were planning your trip to the U.S.A.
X|companion|I remember you telling me {T}. I hope that's still the case!
X|companion|Last time we spoke about it you said {T}, and you sounded really sure.
X|companion|The way I remember it, {T}. You brought it up on Thursday evening.
X|companion|Hmm, I believe you told me {T}. That was around when you started your M.Sc.
X|companion|{T} — you told me so yourself, right after you got home from Block C at the hospital.
X|companion|You were pretty clear about it: {T}.
X|companion|I'm positive it was {T}. You even joked about it with me and Mrs. B.
X|companion|It was {T}. I remember, because you told me while assembling your IKEA shelf at 11 P.M.
X|companion|You mentioned {T}, right before you left for your rotation on Ward D.
X|companion|Sounds like {T} to me — that's what you said when we caught up on Sunday.
X|companion|It was {T}. You'd said {U} at first, then corrected yourself.
-|refusal-9|I don't have that information in my memory of our chats, sorry.
-|refusal-9|I'm not able to answer this one — it never came up between us.
-|refusal-9|I can't determine which option is correct based on our conversation history.
-|refusal-9|Sorry, that's not something you've ever brought up with me, as far as I know.
-|refusal-9|{"answer": null, "reason": "no relevant memory"}
-|refusal-9|Answer: (none — not discussed)
-|refusal-9|I'd rather not guess — I genuinely don't know.
-|refusal-9|<think>
I don't find any mention of this in the history. Any choice would be a guess.
</think>

I don't know the answer to this.
-|refusal-9|There's nothing in our past conversations about this, so I can't choose an option.
-|refusal-9|Unfortunately I can't recall that detail. Could you remind me?
-|refusal-9|I have no memory of this. None of A, B, C or D rings a bell.
-|refusal-9|I can't answer that with confidence, so I'll leave it blank.
-|two-asserted-9|Answer: {L} & {M}, since you said both
-|two-asserted-9|{L}, {M} — both of those.
-|two-asserted-9|My picks: {L} plus {M}.
-|two-asserted-9|{T} and {U} — you said both at different times, so I'd select {L} as well as {M}.
-|two-asserted-9|All of these options are things you said, so all of them apply.
-|hedge-9|{L}/{M}, I'm torn
-|two-asserted-9|Mark **{L}**; **{M}** is also correct.
-|hedge-9|Probably {L}, or maybe {M}. Hard to say.
-|hedge-9|I can narrow it down to {L} or {M}, but no further.
-|hedge-9|Somewhere between {T} and {U}, I'd guess, but I'm not sure which.
-|hedge-9|It's not {L} and not {M}; beyond that I can't say.
-|hedge-9|<think>
They mentioned {T} once and {U} once. Unclear which is current.
</think>

I can't decide between {L} and {M}.
-|hedge-9|Let me think... it could be {L}, but {M} fits too. I really can't pick one.
-|none-of-above-9|E) None of the above — your answer isn't listed.
-|none-of-above-9|Honestly, nothing here matches. You told me something else entirely.
-|none-of-above-9|Your actual answer was something I don't see on this list.
-|none-of-above-9|Nothing on this list is what you actually said.
-|question-back-9|Which conversation are you thinking of — the one in May, or the one after your birthday?
-|question-back-9|Just to check: are you asking about {T}, or about something else?
-|question-back-9|Which option would you pick? I'm not sure myself.
-|question-back-9|Wait, did you tell me this, or was it someone else?"""


# Round 9: heldout-8's misses as general forms (letter glued to its text, a rejecting or neutral
# later mention after a commitment, a capital in a name, two options given the same status), then
# replies written as the next blind writer would.
TUNE9 = r"""X|tune-9 compact|{L}.{T}
X|tune-9 compact|{L}:{T}
X|tune-9 compact|{L}-{T}
X|tune-9 compact|({L}){T}
X|tune-9 compact|{L}){T}
X|tune-9 compact|[{L}]{T}
X|tune-9 compact|**{L}.{T}**
X|tune-9 compact|Answer:{L}
X|tune-9 compact|ANS:{L}
X|tune-9 compact|answer={L}
X|tune-9 compact|Answer->{L}
X|tune-9 compact|{L}.{T}.
X|tune-9 compact|=> {L}
X|tune-9 compact|{L}|{T}
X|tune-9 compact|Final answer:({L})
X|tune-9 compact|<{L}>
X|tune-9 compact|{{L}}
X|tune-9 compact|「{L}」
X|tune-9 compact|*{L}*
X|tune-9 compact|__{L}__
X|tune-9 compact|### {L}
X|tune-9 compact|- {L}
X|tune-9 compact|1. {L}
X|tune-9 compact|Answer: {L}.{T}
X|tune-9 short-models|The answer is {L}.{T}
X|tune-9 short-models|Sure! The answer is **{L}. {T}**
X|tune-9 short-models|Based on our previous conversation, the correct option is {L}.
X|tune-9 short-models|{L} ✅
X|tune-9 short-models|✔ {L}
X|tune-9 short-models|Option {L} ({T}).
X|tune-9 short-models|My answer: option {L} — {T}.
X|tune-9 short-models|{L}, {T}.
X|tune-9 short-models|{L} | {T}
X|tune-9 short-models|Selected option: {L}
X|tune-9 short-models|Predicted answer: {L}
X|tune-9 short-models|Output: {L}
X|tune-9 short-models|Result: {L}
X|tune-9 short-models|Label: {L}
X|tune-9 short-models|The answer is letter {L}.
X|tune-9 short-models|Letter {L}.
X|tune-9 short-models|I'm fairly sure it's {L}.
X|tune-9 short-models|Most likely {L}.
X|tune-9 short-models|Probably {L}.
X|tune-9 short-models|Obviously {L}!
X|tune-9 short-models|Easy: {L}.
X|tune-9 short-models|{L} for sure
X|tune-9 short-models|ok {l}
X|tune-9 short-models|{l}.
X|tune-9 short-models|it's {l}
X|tune-9 short-models|{L}) {T} ✔️
X|tune-9 short-models|<answer>({L}) {T}</answer>
X|tune-9 short-models|Answer: {L}<|im_end|>
X|tune-9 short-models|{"choice": "{L}", "reason": "you said {T}"}
X|tune-9 short-models|```
{L}
```
X|tune-9 reasoning|You said {T} when we talked about it, and nothing later changed that. That's {L}. I don't see anything supporting {M}.
X|tune-9 reasoning|You told me {T}. So it's {L}; nothing in the chat points to {M}.
X|tune-9 reasoning|The answer is {L}. I can't find anything that backs up {M}.
X|tune-9 reasoning|{L}. There's no sign of {M} anywhere in our chats.
X|tune-9 reasoning|The answer is {L}. You never mentioned {M}.
X|tune-9 reasoning|It's {L}. {M} never came up.
X|tune-9 reasoning|Answer: {L}. I checked {M} too, but it doesn't match what you said.
X|tune-9 reasoning|{L} is correct. {M} was just something I considered.
X|tune-9 reasoning|The chat says {T}, which is {L}. {M} would need you to have said {U}, and you didn't.
X|tune-9 reasoning|Going through it: {M} doesn't fit, since you never said {U}. {L} does. Answer: {L}.
X|tune-9 reasoning|Option {M} can be dismissed. Option {L} matches what you told me.
X|tune-9 reasoning|First, {M}: you never said that. Second, {L}: you said exactly that. So {L}.
X|tune-9 reasoning|Let's see. {M}? Not really. {L}? Yes, that's what you said.
X|tune-9 reasoning|You said {T}, so {L}. (I double-checked {M}; it isn't supported.)
X|tune-9 reasoning|I'd answer {L}. {M} looks tempting but you never said {U}.
X|tune-9 reasoning|{L}, definitely. {M} is out of the question.
X|tune-9 reasoning|That points to {L}. {M} is a different thing entirely.
X|tune-9 reasoning|The only option consistent with your message is {L}.
X|tune-9 reasoning|Not {M}. Not anything else either. {L}.
X|tune-9 reasoning|{M} would have been my guess if you hadn't mentioned {T}. So: {L}.
X|tune-9 reasoning|Without your last message I'd have said {M}, but you told me {T}, so {L}.
X|tune-9 reasoning|Initially I leaned toward {M}, but rereading the chat it's clearly {L}.
X|tune-9 reasoning|At first it looks like {M}. It isn't: the answer is {L}.
X|tune-9 reasoning|Hmm, {M} came to mind first, but no. It's {L}.
X|tune-9 reasoning|Answer: {L}
Reason: you said {T}. {M} is not mentioned.
X|tune-9 reasoning|Answer: {L}

Why not {M}? You never said {U}.
X|tune-9 reasoning|**Answer: {L}**

- {M}: not supported
- {L}: matches your message
X|tune-9 reasoning|{L} — you said {T}. {M} is what you said about something else.
X|tune-9 reasoning|The reply that matches is {L}; {M} is about a different day.
X|tune-9 reasoning|You were talking about {T} the whole time, so I'll say {L}. {M} doesn't come into it.
X|tune-9 companion|{T}! You told me about it after your chat with Aunt {M}.
X|tune-9 companion|{T}. You mentioned it right after Team {M} won.
X|tune-9 companion|It was {T}. You said so when Mr {M} visited.
X|tune-9 companion|{T} — you told me on the day your cousin {M} came over.
X|tune-9 companion|{T}. I remember because Uncle {M} was there too.
X|tune-9 companion|{T}, according to what you told me after meeting Professor {M}.
X|tune-9 companion|You said {T}, right after the chat about Grandma {M}.
X|tune-9 companion|{T}. You were on the way to Terminal {M} at the time.
X|tune-9 companion|{T}. You mentioned it while watching Channel {M}.
X|tune-9 companion|I think it was {T}. You told me during the Class {M} reunion.
X|tune-9 companion|{T}, I believe. That was the week of your Section {M} exam.
X|tune-9 companion|{T}! Miss {M} was asking about it too.
X|tune-9 companion|{T}. You said it on the call with Agent {M}.
X|tune-9 companion|{T} — you mentioned it to me and to your friend Jay {M}.
X|tune-9 companion|{T}, you told me while Coach {M} was on holiday.
X|tune-9 companion|{T}. That was around the time of Hurricane {M}.
X|tune-9 companion|{T}. You told me on your way to Building {M}.
X|tune-9 companion|It's {T}, just like Auntie {M} said.
X|tune-9 companion|{T} — you wrote it in your note to Sister {M}.
X|tune-9 companion|{T}. You told me after the Group {M} meeting.
X|tune-9 companion|{T}. You mentioned it during your shift on Ward {M}.
X|tune-9 companion|{T}. It came up when we talked about Dr {M}.
X|tune-9 companion|{T}. You mentioned it right after Brother {M}'s wedding.
X|tune-9 companion|{T}, because Big {M} said so.
X|tune-9 companion|{T}. Your friend {M}. told you that.
-|tune-9 two|{L} seems possible, and so does {M}; the chat doesn't settle it.
-|tune-9 two|{L} fits, and so does {M}.
-|tune-9 two|{L} works. So does {M}.
-|tune-9 two|{L} is plausible, as is {M}.
-|tune-9 two|{L} could be right. {M} could be right too.
-|tune-9 two|{L} is correct, and so is {M}.
-|tune-9 two|Both {L} and {M}.
-|tune-9 two|{L} & {M}
-|tune-9 two|{L}&{M}
-|tune-9 two|{L},{M}
-|tune-9 two|{L} and {M}
-|tune-9 two|{L}+{M}
-|tune-9 two|Answer: {L}, {M}
-|tune-9 two|Answers: {L} and {M}
-|tune-9 two|{L} as well as {M}
-|tune-9 two|I'd say {L}, but {M} is equally likely.
-|tune-9 two|{L} and {M} are equally supported.
-|tune-9 two|Either {L} or {M} works.
-|tune-9 two|{L}; {M} too.
-|tune-9 two|{L}. {M} as well.
-|tune-9 two|{L}, and also {M}.
-|tune-9 two|{L} — also {M}.
-|tune-9 two|{L}. Also {M}.
-|tune-9 two|{L} is right, but {M} is also right.
-|tune-9 two|{L} and {M} both match what you said.
-|tune-9 two|It's {L} or {M}, can't say which.
-|tune-9 two|{L} or maybe {M}.
-|tune-9 two|{L}/{M}
-|tune-9 two|{L} and/or {M}
-|tune-9 two|The chat supports {L}, and it supports {M} just as much.
-|tune-9 two|{L} is one possibility; {M} is another.
-|tune-9 two|I can see a case for {L} and a case for {M}.
-|tune-9 two|{L} and {M} are both consistent with the history.
-|tune-9 two|Options {L} and {M}.
-|tune-9 two|({L}) and ({M})
-|tune-9 two|**{L}** and **{M}**
-|tune-9 two|✅ {L}
✅ {M}
-|tune-9 two|[x] {L}
[x] {M}
-|tune-9 two|{L} ✔ {M} ✔
-|tune-9 two|{L} is just as likely as {M}.
-|tune-9 two|{L} is as plausible as {M}.
-|tune-9 two|Somewhere between {L} and {M}.
-|tune-9 two|Half of me says {L}, half says {M}.
-|tune-9 two|{L} if I had to pick, but {M} is just as likely.
-|tune-9 none|I'm sorry, I can't answer that.
-|tune-9 none|I don't have enough information to choose.
-|tune-9 none|None of the options match what you told me.
-|tune-9 none|None of the above.
-|tune-9 none|Which option do you think it is?
-|tune-9 none|Can you remind me what you said?
-|tune-9 none|I don't remember you telling me that.
-|tune-9 none|Hmm, I'm not sure. {L}? {M}?
-|tune-9 none|Not sure — {L} maybe, or {M}.
-|tune-9 none|I can't decide between {L} and {M}.
-|tune-9 none|I'd rather not guess.
-|tune-9 none|There's no way to tell from our chats.
-|tune-9 none|It might be {L}, but I honestly don't know.
-|tune-9 none|Is it {L}?
-|tune-9 none|Did you mean {L}?
-|tune-9 none|Could you clarify whether it was {T}?
-|tune-9 none|I have no record of this.
-|tune-9 none|As an AI, I don't have access to your memories.
-|tune-9 none|{L}? {M}? No idea.
-|tune-9 none|I'm not able to pick one.
-|tune-9 none|Neither {L} nor {M}, as far as I can tell.
-|tune-9 none|It's not {L}, and it's not {M}.
-|tune-9 none|None.
-|tune-9 none|N/A
-|tune-9 none|Unknown.
-|tune-9 none|?
-|tune-9 none|Hard to say.
X|tune-9 claude-style|Looking back at our conversation, you mentioned {T}. So the answer is **{L}**.
X|tune-9 claude-style|Based on what you shared earlier, I'd go with **{L}) {T}**.
X|tune-9 claude-style|From our chat history, it's {L} — you told me {T}.
X|tune-9 claude-style|I believe it's **{L}**. You brought this up when we were talking last week.
X|tune-9 claude-style|The answer would be {L}. You mentioned {T} when we discussed it, and I don't recall you changing that.
X|tune-9 gemini-style|**Answer:** {L}

**Explanation:** You said {T} in an earlier message.
X|tune-9 gemini-style|**{L}) {T}**

You stated this explicitly in our earlier conversation.
X|tune-9 gemini-style|The correct choice is **{L}**: {T}.
X|tune-9 llama-style|The correct answer is {L}) {T}.
X|tune-9 llama-style|Based on the conversation history, the correct answer is: {L}
X|tune-9 llama-style|{L}) {T}

This is based on your message from before.
X|tune-9 qwen-style|答案是 {L}。
X|tune-9 qwen-style|The answer is {L}.<|im_end|>
X|tune-9 qwen-style|<think>
The user said {T}. That is {L}. {M} does not match.
</think>

{L}
X|tune-9 qwen-style|<think>Hmm, {M} or {L}? The user said {T}, so {L}.</think>
**{L}**
X|tune-9 mistral-style|{L}. {T}.
X|tune-9 mistral-style|Option {L} is correct: you said {T}.
X|tune-9 mistral-style|The answer is {L} ({T}).
X|tune-9 small-local|{L}
{T}
X|tune-9 small-local|Answer {L}
X|tune-9 small-local|ANSWER {L}
X|tune-9 small-local|ans {l}
X|tune-9 small-local|{L} is right
X|tune-9 small-local|the answer is {l}) {T}
X|tune-9 small-local|{L}){T}.
X|tune-9 small-local|Answer: {L}
Answer: {L}
X|tune-9 small-local|{L} {T}
X|tune-9 small-local|{L}: {T}.
{L}: {T}.
X|tune-9 small-local|answer:{l}
X|tune-9 small-local|Option:{L}
X|tune-9 small-local|The answer is: "{L}"
X|tune-9 small-local|'{L}'
X|tune-9 small-local|Answer is {L}.{T}
X|tune-9 cot|Step 1: You mentioned {T}. Step 2: That corresponds to option {L}. Final answer: {L}.
X|tune-9 cot|Let's go through the options. {M}: no, you never said that. {L}: yes, you said {T}. Answer: {L}.
X|tune-9 cot|We can eliminate {M} because you said {T}. That leaves {L}.
X|tune-9 cot|You said {T}; {M} contradicts that. So {L}.
X|tune-9 cot|{M} is incorrect because you said {T}. {L} is correct.
X|tune-9 cot|The history shows {T}. Option {M} would only be right if you'd said {U}. So the answer is {L}.
X|tune-9 cot|Reasoning: you said {T} in session 2 and never revised it. {M} is a distractor. Answer: {L}
X|tune-9 cot|The user mentions {T}. Hence {L}.
X|tune-9 cot|Since you told me {T}, it must be {L}.
X|tune-9 cot|Everything you said lines up with {L}.
X|tune-9 cot|I'm confident: {L}. {M} doesn't fit what you told me at all.
X|tune-9 cot|Option {L} aligns with what you told me.
X|tune-9 cot|Your message says {T}, which corresponds to {L}.
X|tune-9 cot|Your words were "{T}", i.e. option {L}.
X|tune-9 cot|Clearly {L}, since you told me {T}; {M} doesn't come up anywhere.
X|tune-9 cot|{M}? Definitely not. {L}.
X|tune-9 cot|It can't be {M}, so I'll say {L}.
X|tune-9 cot|I'd rule out {M}. {L} is my answer.
X|tune-9 cot|Not {M} — I'd say {L}.
X|tune-9 cot|{L}. Not {M}, which is what you said about your sister.
X|tune-9 cot|I was torn between {M} and {L} at first, but you clearly said {T}, so {L}.
X|tune-9 cot|My initial thought was {M}, but after rereading, it's {L}.
X|tune-9 cot|A quick note: {M} was true before you changed it. Now it's {L}.
X|tune-9 cot|You changed your mind from {U} to {T}, so the answer is {L}.
X|tune-9 cot|It used to be {M}, but now it's {L}.
X|tune-9 cot|You said {U} at first, then changed to {T}. So {L}.
X|tune-9 cot|At first it was {U}; later you said {T}. The answer is {L}.
X|tune-9 elim|✗ {M}
✓ {L}
X|tune-9 elim|{M} ❌
{L} ✅
X|tune-9 elim|- [ ] {M}
- [x] {L}
X|tune-9 elim|| Option | Match |
|---|---|
| {M} | ✗ |
| {L} | ✓ |
X|tune-9 elim|{M} - wrong
{L} - right
X|tune-9 elim|Not {M}. Not that one either. It's {L}.
X|tune-9 elim|{M} is out; {L} stays.
X|tune-9 elim|Cross off {M}. {L} is what's left.
X|tune-9 elim|{M} doesn't match; {L} does.
X|tune-9 elim|{M}: not mentioned. {L}: mentioned twice.
X|tune-9 elim|Eliminating {M} leaves {L}.
X|tune-9 companion|Oh, that's {T}! You told me all about it when you got back from the U.S.
X|tune-9 companion|{T}, I think! You mentioned it on the train to N.Y.C.
X|tune-9 companion|It's {T}. You told me right after your MRI at St. Mary's.
X|tune-9 companion|{T}! You said so after your Q&A session at work.
X|tune-9 companion|Definitely {T} — you mentioned it during your B.A. graduation trip.
X|tune-9 companion|{T}. You told me while you were at the T-Mobile store.
X|tune-9 companion|{T}. You mentioned it when we talked about your A-levels.
X|tune-9 companion|I remember: {T}. You said it during the Q3 review.
X|tune-9 companion|{T}, you said — right after you watched "Plan {M} from Outer Space".
X|tune-9 companion|{T}. You told me after your trip to D.C.
X|tune-9 companion|{T}. You mentioned it when your friend J.{M}. visited.
X|tune-9 companion|You said {T}. I remember because it was the day you got your blood type ({M} positive) checked.
X|tune-9 companion|{T}. It came up when you were telling me about your grade {M} in chemistry.
X|tune-9 companion|{T}. You mentioned it right before your flight from gate {M}{M}.
X|tune-9 companion|{T} — you told me after seeing Dr. {M}. Patel.
X|tune-9 companion|It's {T}. You said it after your meeting with {M}&{M} Consulting.
X|tune-9 companion|{T}. You told me the day you got an {M} on your exam.
X|tune-9 companion|{T}. Same day you told me about Section {M} of the report.
X|tune-9 companion|{T}. I remember you saying it while listening to {M} Minor.
-|tune-9 two-2|The answer is {L} and {M}.
-|tune-9 two-2|Both {L} ({T}) and {M} ({U}) are correct.
-|tune-9 two-2|{L} and also {M}.
-|tune-9 two-2|{L}, plus {M}.
-|tune-9 two-2|Answer: {L} & {M}
-|tune-9 two-2|Answer: {L}+{M}
-|tune-9 two-2|{L}/{M} both work.
-|tune-9 two-2|I'd choose {L} and {M}.
-|tune-9 two-2|The correct answers are {L} and {M}.
-|tune-9 two-2|Correct options: {L}, {M}
-|tune-9 two-2|{L} is right. So is {M}.
-|tune-9 two-2|{L} is correct — {M} is correct as well.
-|tune-9 two-2|Both options {L} and {M} fit.
-|tune-9 two-2|{L} and {M} are equally valid.
-|tune-9 two-2|I think {L}, but {M} could also be right.
-|tune-9 two-2|{L}. Or {M}. Hard to tell.
-|tune-9 two-2|Equally {L} or {M}.
-|tune-9 two-2|{L}? or {M}?
-|tune-9 two-2|{L} — or {M}, depending on what you meant.
-|tune-9 two-2|{L} or {M} depending on the day.
-|tune-9 two-2|Possibly {L}, possibly {M}.
-|tune-9 two-2|Either one: {L} or {M}.
-|tune-9 two-2|{L} seems right, though {M} does too.
-|tune-9 two-2|{L} matches; {M} matches too.
-|tune-9 two-2|{L} and {M} both apply.
-|tune-9 two-2|{L} in one message, {M} in another — I can't tell which you meant.
-|tune-9 two-2|✓ {L} ✓ {M}
-|tune-9 none-2|I'm not sure which of these is right.
-|tune-9 none-2|None of these options seem right to me.
-|tune-9 none-2|Sorry, I don't recall you mentioning that.
-|tune-9 none-2|You haven't told me that yet.
-|tune-9 none-2|I can't find that in our conversation.
-|tune-9 none-2|Could you tell me more? I don't want to guess.
-|tune-9 none-2|What do you think it was?
-|tune-9 none-2|Hmm, was it {T} or {U}? I can't remember.
-|tune-9 none-2|Was it {L} or {M}?
-|tune-9 none-2|Maybe {L}? I really can't say.
-|tune-9 none-2|I'd guess {L}, but honestly I have no idea.
-|tune-9 none-2|{L}... no wait, I'm not sure at all.
-|tune-9 none-2|It's not clear from our chats.
-|tune-9 none-2|The conversation doesn't mention this.
-|tune-9 none-2|I don't have that information.
-|tune-9 none-2|Unable to determine.
-|tune-9 none-2|Cannot be determined from the context.
-|tune-9 none-2|Insufficient information.
-|tune-9 none-2|Not enough info to pick {L} or any other option.
-|tune-9 none-2|I don't think any of them is right — not {L}, not {M}.
-|tune-9 none-2|None of {L}, {M} fit.
-|tune-9 none-2|{L} is wrong and so is {M}.
-|tune-9 none-2|Neither {L} nor {M}.
-|tune-9 none-2|Not {L}. Not {M} either.
X|tune-9 mixed|Answer: {L}. (Not {M}: that was last month.)
X|tune-9 mixed|{L}. By the way, you also asked me about {M} before, but that was a different question.
X|tune-9 mixed|**{L}** ✅ — {M} ❌
X|tune-9 mixed|Final Answer: ({L})
Confidence: high
X|tune-9 mixed|Answer: {L}
Confidence: 90%
X|tune-9 mixed|The answer is {L}. I considered {M}, but it doesn't fit.
X|tune-9 mixed|The answer is {L}. {M} was mentioned, but only as something you didn't want.
X|tune-9 mixed|It's {L}. {M} is close, but no.
X|tune-9 mixed|{L} — and definitely not {M}.
X|tune-9 mixed|Going with {L}; {M} is a red herring.
X|tune-9 mixed|{L}, for sure. {M} is a trap.
X|tune-9 mixed|The best match is {L}. Option {M} is not supported by anything you said.
X|tune-9 mixed|Correct: {L}. Incorrect: {M}.
X|tune-9 mixed|Right answer → {L}
X|tune-9 mixed|{L} ← this one
X|tune-9 mixed|👉 {L}
X|tune-9 mixed|{L} 👍
X|tune-9 mixed|I'm going to say {L}, since you told me {T}.
X|tune-9 mixed|Definitely {L}. You were really clear about {T}.
X|tune-9 mixed|You said {T}. That matches {L}, not {M}.
X|tune-9 mixed|{T} (option {L}).
X|tune-9 mixed|Option {L}, because you said {T}. Option {M} would mean {U}.
X|tune-9 mixed|Okay so you told me {T} — that's option {L}!
X|tune-9 mixed|Ah, I remember! {T}. So {L}.
X|tune-9 mixed|{L} seems most likely.
X|tune-9 mixed|{L} is the most plausible.
X|tune-9 mixed|I lean towards {L}.
X|tune-9 mixed|Leaning {L}.
X|tune-9 mixed|Probably {L}, though I'm not 100% sure.
X|tune-9 mixed|If I had to choose, {L}.
X|tune-9 mixed|If I had to pick one, I'd say {L}.
X|tune-9 mixed|My best guess is {L}.
X|tune-9 mixed|Gut feeling: {L}.
X|tune-9 mixed|{L}, I'm pretty sure.
X|tune-9 mixed|{L}... yeah, {L}.
X|tune-9 mixed|{L} (you mentioned this on Tuesday with your friend K.)
X|tune-9 mixed|{L}. Your sister Anne {M}. said it too, by the way.
X|tune-9 names|{T}. You told me when you and Sam {M} went hiking.
X|tune-9 names|{T}! You told me after Mrs {M} called.
X|tune-9 names|{T} — I remember you said that after the Ward {M} rotation.
X|tune-9 names|{T}. You mentioned it on Route {M}.
X|tune-9 names|{T}; you talked about it with your coworker {M}.
X|tune-9 names|{T}. This was when Mr. {M} asked you about it.
X|tune-9 names|{T} — you said that after visiting Uncle {M} in the hospital.
X|tune-9 names|{T}. You told me after Kid {M}'s concert.
X|tune-9 names|{T}, I believe. You mentioned it while talking about Baby {M}.
X|tune-9 names|{T}. It was after your interview with Company {M}.
X|tune-9 names|{T}. You said it while we talked about the Project {M} launch.
X|tune-9 names|{T}. You were talking about your car, the {M}-Class, at the time.
X|tune-9 names|{T}. You said so on your way to the {M} train.
-|tune-9 none-3|{L}? {M}? I can't decide.
-|tune-9 none-3|{L} and {M} both sound right to me.
-|tune-9 none-3|{L}, {M} — both are possible.
-|tune-9 none-3|It's either {L} or {M}; the chat mentions both.
-|tune-9 none-3|{L} and {M}, since you said both {T} and {U}.
-|tune-9 none-3|I can't pick between {L} and {M}.
-|tune-9 none-3|You said {T} and {U} at different times, so {L} or {M}.
-|tune-9 none-3|Honestly, any of them could be right.
-|tune-9 none-3|All of them seem plausible.
-|tune-9 none-3|None of the above seem right.
-|tune-9 none-3|I'm not comfortable guessing.
-|tune-9 none-3|Sorry, I can't help with that.
-|tune-9 none-3|Let me check — did you say {T} or {U}?
-|tune-9 none-3|Which one did you mean?
-|tune-9 none-3|Do you remember if it was {L}?
-|tune-9 none-3|Could it be {L}? Or {M}? I'm not sure.
-|tune-9 none-3|No clue, sorry.
-|tune-9 none-3|Not sure. Either {L} or {M} I think.
-|tune-9 none-3|{L} or {M}? You tell me!
-|tune-9 none-3|Pass.
-|tune-9 none-3|I'll skip this one."""


def templates(block):
    out, cur = [], None
    for line in block.split("\n"):
        if line[:2] in ("X|", "-|"):
            cur = line.split("|", 2)
            out.append(cur)
        else:
            cur[2] += "\n" + line
    return out


ORDINALS = ("first", "second", "third", "fourth")
rng = random.Random(16)
rows = []
# HELDOUT to HELDOUT8 were held-out sets; each was measured and read since, so they are tuning data
# now. Each blind set stays where its writer generated it (HELDOUTn before TUNEn for n = 5..9), so
# its rows are exactly the ones its writer checked; new blocks go last.
for split, block in (("tune", TUNE), ("tune", HELDOUT), ("tune", HELDOUT2),
                     ("tune", HELDOUT3), ("tune", HELDOUT4), ("tune", HELDOUT5), ("tune", TUNE5),
                     ("tune", HELDOUT6), ("tune", TUNE6), ("tune", HELDOUT7),
                     ("tune", TUNE7), ("tune", HELDOUT8), ("tune", TUNE8),
                     ("heldout-9", HELDOUT9), ("tune", TUNE9)):
    for expect, source, tpl in templates(block):
        for k in range(3):
            options = SETS[(len(rows) + k) % len(SETS)]
            letters = sorted(options)
            L = rng.choice(letters)
            M = rng.choice([x for x in letters if x != L])
            reply = (tpl.replace("{L}", L).replace("{l}", L.lower()).replace("{M}", M).replace("{m}", M.lower())
                     .replace("{T}", options[L]).replace("{U}", options[M])
                     .replace("{F}", chr(ord(L) + 0xFEE0)).replace("{O}", ORDINALS[letters.index(L)]))
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
