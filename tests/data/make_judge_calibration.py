"""Builds evaluator/scoring/judge_calibration.jsonl (package data, so an installed br-eval has it): known-right paraphrases and known-wrong but topical
answers for hand-written Beyond Recall-style questions (run from the repository root:
python tests/data/make_judge_calibration.py). Each line below: task | question | reference |
right answers (;-separated) | wrong answers (;-separated)."""
import json
from pathlib import Path

FACTS = r"""temporal_anchoring|When did I move to Oslo?|May 2023|In May 2023.;You moved there in May of 2023.;It was May 2023.;2023, in May.|In May 2022.;In March 2023.;You moved to Bergen in May 2023.;Last summer, in July 2023.
temporal_anchoring|How many days were there between my dentist visit and the concert?|12 days|12 days.;Twelve days.;There were 12 days in between.;About 12 days apart.|20 days.;Two days.;Six weeks.;The concert came first, 12 days before the dentist.
temporal_logic_state_evolution|What colour was my bike before I repainted it?|Red|It was red.;Red, before the repaint.;The bike used to be red.;Originally red.|Blue.;It was green.;Black, the new colour.;It was never repainted.
memory_update|Where do I work now?|At the city library|The city library.;You work at the city library now.;At the library in the city.;Currently the city library, after leaving the bookshop.|At the bookshop.;At the university library.;You are unemployed.;At the city museum.
memory_update|What time is my weekly team meeting now?|Thursday at 10 am|Thursdays at 10.;It moved from Tuesday to Thursday at 10 am.;10 am on Thursday.;Thursday, 10:00.|Tuesday at 10 am.;Thursday at 2 pm.;It was Tuesday at 10, then Thursday; not sure which now.;Friday at 10 am.
property_state_retrieval|What breed is my dog?|A border collie|Border collie.;He's a border collie.;A collie, the border kind.;Your dog is a border collie.|A golden retriever.;A German shepherd.;A bearded collie.;A labrador.
property_state_retrieval|What is the name of my sister's cat?|Miso|Miso.;Her cat is called Miso.;It's Miso.;The cat's name is Miso.|Tofu.;Mochi.;Luna.;Your sister has a dog named Miso.
high_density_information_extraction|How much was the total on the hotel receipt I sent?|245 euros|245 euros.;EUR 245.;€245.;The total came to 245 euros.|254 euros.;245 dollars.;145 euros.;About 300 euros.
high_density_information_extraction|Which platform did my train leave from?|Platform 7|Platform 7.;From platform seven.;It left from platform 7.;Seven.|Platform 1.;Platform 17.;Platform 4.;Gate 7 at the airport.
cross_modal_semantic_matching|What was written on the mug in the photo I shared?|World's Best Dad|World's Best Dad.;It said "World's best dad".;The mug read World's Best Dad.;"World's Best Dad" was on it.|World's Best Mom.;Best Boss Ever.;I love Paris.;Happy Birthday Dad.
cross_modal_relational_reasoning|Who was standing next to me in the beach picture?|My brother Tom|Your brother Tom.;Tom, your brother.;Tom.;It was your brother, Tom.|Your cousin Tom.;Your brother Sam.;Your father.;Your friend Anna.
causal_intent_inference|Why did I cancel the trip to Rome?|Because my mother was in hospital|Your mother was in hospital.;You cancelled because your mum was hospitalised.;Because of your mother's hospital stay.;Your mother had to go into hospital.|Because the flights were too expensive.;Because of a work deadline.;Because your father was ill.;Because of a strike in Rome.
causal_intent_inference|Why did I start learning Spanish?|To talk with my partner's family|To talk to your partner's family.;So you could speak with your partner's relatives.;To communicate with your partner's family.;For conversations with your partner's family.|For a job in Madrid.;Because you planned to move to Mexico.;To pass a school exam.;To talk with your own grandparents.
conflict_detection|Which two dates did I give for the party?|The 12th and the 14th of June|12 and 14 June.;June 12th and June 14th.;You said the 12th once and the 14th once, both in June.;The 12th and 14th of June.|The 12th and 15th of June.;The 14th of June only.;June 12th and July 14th.;The 2nd and 4th of June.
temporal_anchoring|What year did I get my first car?|2015|2015.;In 2015.;You got it in 2015.;The year 2015.|2016.;2005.;2014.;In 2015 you sold your first car.
property_state_retrieval|What is my daughter allergic to?|Peanuts|Peanuts.;She's allergic to peanuts.;Peanut allergy.;Peanuts, she has a peanut allergy.|Tree nuts.;Shellfish.;Milk.;Your son is allergic to peanuts.
memory_update|Which phone do I use now?|A Pixel 8|Pixel 8.;You switched to a Pixel 8.;A Google Pixel 8.;The Pixel 8 now, the iPhone before.|An iPhone 13.;A Pixel 7.;A Samsung Galaxy.;The iPhone, then maybe the Pixel.
high_density_information_extraction|What was the flight number on my boarding pass?|KL1234|KL1234.;KL 1234.;It was flight KL1234.;Flight number KL1234.|KL1243.;KL4321.;LH1234.;KL123.
cross_modal_semantic_matching|What fruit was in the bowl in my kitchen photo?|Lemons|Lemons.;There were lemons.;A bowl of lemons.;Some lemons.|Limes.;Oranges.;Apples.;Bananas and lemons were on the table, the bowl was empty.
temporal_logic_state_evolution|How many times did I change my gym schedule?|Twice|Twice.;Two times.;You changed it two times.;2 times.|Three times.;Once.;Never.;Four times.
cross_modal_relational_reasoning|What was on the left of the laptop in the desk photo?|A green plant|A green plant.;A plant.;There was a green potted plant on its left.;A houseplant, green.|A red lamp.;A coffee mug.;A green plant on the right, a lamp on the left.;A stack of books.
causal_intent_inference|Why did I sell my piano?|Because I was moving to a smaller flat|You moved to a smaller flat.;Because the new flat was too small.;Because you were moving somewhere smaller.;Your move to a smaller apartment.|Because you stopped playing.;Because you needed the money.;Because it was out of tune.;Because you bought a guitar.
property_state_retrieval|What is the name of my manager?|Priya|Priya.;Your manager is Priya.;It's Priya.;Priya, your manager.|Pria's assistant, Dev.;Maria.;Priyanka.;Your colleague Priya, your manager is Tom.
temporal_anchoring|On what day of the week was my job interview?|Wednesday|Wednesday.;On a Wednesday.;It was Wednesday.;The interview was on Wednesday.|Tuesday.;Thursday.;Monday.;Wednesday next week, it hasn't happened.
memory_update|How many hours a week do I volunteer now?|Six hours|6 hours.;Six hours a week.;You volunteer six hours weekly now, up from four.;6 hours per week.|Four hours.;Eight hours.;Six hours a month.;Four hours, then maybe six.
conflict_detection|What did I say about where I left my keys?|First in the car, later in my coat pocket|You said the car first, then your coat pocket.;In the car, and later the coat pocket.;First the car; later you said the coat pocket.;Two places: the car, then the coat pocket.|In the car only.;In the coat pocket only.;In the kitchen, then the car.;On the desk and in the car.
"""

rows = []
for line in FACTS.strip().splitlines():
    task, question, reference, right, wrong = line.split("|")
    for r in right.split(";"):
        rows.append({"task": task, "question": question, "reference": reference, "response": r.strip(),
                     "correct": True, "source": "br-eval hand-written (right paraphrase)"})
    for w in wrong.split(";"):
        rows.append({"task": task, "question": question, "reference": reference, "response": w.strip(),
                     "correct": False, "source": "br-eval hand-written (wrong but topical)"})
out = Path(__file__).resolve().parents[2] / "evaluator" / "scoring" / "judge_calibration.jsonl"
out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
print(len(rows), sum(r["correct"] for r in rows))
