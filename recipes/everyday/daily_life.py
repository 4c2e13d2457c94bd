"""Everyday sentences the first two generators leave out, from the same kind of hand-checked grammar.

daily.py tells what people do with a small set of verbs; daily_talk.py asks the way, counts and
compares. A beginner's course has more chapters: the home and its chores, work and the office,
lessons and exams, shops and money, transport, free time, the body and health, dates and
feelings. Their sentences bring new words and the German constructions these two never say:

* imperatives for du, ihr and Sie, the prefix last ("Räumt bitte euer Zimmer auf !",
  "Machen Sie bitte das Fenster zu !"), and "Don't ...!" as "... nicht !";
* polite requests ("Könnten Sie mir bitte die Datei schicken ?", "Kann ich bitte die Rechnung
  haben ?") and the modals of permission: "darf nicht" for "mustn't", "muss nicht" for "don't
  have to", "Soll ich ...?";
* the perfect with "sein" for motion ("Wir sind mit dem Zug gefahren") and "noch nicht",
  "schon", "gerade", "noch nie" for "yet", "already", "just", "never";
* reflexive verbs with the pronoun straight after the verb ("Ich habe mich gestern beeilt",
  "Wasch dir die Hände !", "Ich freue mich auf die Ferien");
* the verb last after "bevor", "nachdem" (with the pluperfect), "als" (the preterite), "ob",
  "obwohl", and "seit" + present for English "have been ... for" ("Ich lerne seit zwei Jahren
  Deutsch");
* in daily_life_scenes.py: dative verbs, "es gibt", "gern / lieber / am liebsten", the two-way
  prepositions, health, dates, shopping, tickets and adjective endings.

Unmarked English "you" is "du", as in daily.py; "ihr" and "Sie" are said only to someone the
English names ("Children , ...", "Mr Weber , ..."), and a sentence keeps to one of them.
"""
from __future__ import annotations

import random

from recipes.everyday import daily, daily_life_scenes, daily_life_town
from recipes.everyday.daily_lexicon import TIMES
from recipes.everyday.daily_life_clauses import clause_frame, how_frame
from recipes.everyday.daily_life_grammar import (ADULTS, KEIN, MODALS, PERSONS, Clause, Person, contract_subject,
                                                 en_verb, ex, hearer, noun_phrase, phrase, add_please, several,
                                                 some_time, subject, vocative, with_time)
from recipes.everyday.daily_life_lexicon import (ADVERBS_OF_FREQUENCY, ALL, DONE_WHEN, HOW_OFTEN, ITEMS, OFFERED,
                                                 ROUTINES, how_often)
from recipes.everyday.daily_life_verbs import (BY_ADVERB, EVERYDAY_COMPS, MOMENTS, NO_HABIT, NOT_NEVER, STATES, VERBS,
                                               Verb, bare, once)
from recipes.everyday.tables import rows
from transformer.data.example import Example

# -- imperatives --------------------------------------------------------------------------------
# "Be quiet !": English, German, said only with "don't"
BE_IMP = (("quiet", "leise", False), ("careful", "vorsichtig", False), ("patient", "geduldig", False),
          ("on time", "pünktlich", False), ("sad", "traurig", True), ("angry", "böse", True),
          ("silly", "albern", True), ("nervous", "nervös", True))
SEI = {"du": "sei", "ihr": "seid", "Sie": "seien"}
HAB = {"du": "hab", "ihr": "habt", "Sie": "haben"}
# what is said to someone with no object: English, German du / ihr / Sie(= wir) forms, a
# reflexive pronoun, the words after ("herein", "links ab")
FIXED_IMP = (("come in", ("komm", "kommt", "kommen"), False, "herein"),
             ("come here", ("komm", "kommt", "kommen"), False, "her"),
             ("wait here", ("warte", "wartet", "warten"), False, "hier"),
             ("wait a moment", ("warte", "wartet", "warten"), False, "einen Moment"),
             ("listen carefully", ("hör", "hört", "hören"), False, "gut zu"),
             ("go straight on", ("geh", "geht", "gehen"), False, "geradeaus"),
             ("turn left", ("bieg", "biegt", "biegen"), False, "links ab"),
             ("turn right", ("bieg", "biegt", "biegen"), False, "rechts ab"),
             ("stand up", ("steh", "steht", "stehen"), False, "auf"),
             ("speak more slowly", ("sprich", "sprecht", "sprechen"), False, "langsamer"),
             ("take a seat", ("nimm", "nehmt", "nehmen"), False, "Platz"),
             ("help yourself", ("bedien", "bedient", "bedienen"), True, ""))
_FORM = {"du": 0, "ihr": 1, "Sie": 2}
# what nobody is told to do: "Work at a bank !", "Go out !" ("Geh aus" is not "get out")
NOT_TOLD = ("work", "leave_house", "have_dinner", "rest", "change", "watch_tv", "listen_music")  # "Rest !"
TOLD = [v for v in VERBS if v.imp and not v.tags & {"past", "plural"} and v.key not in NOT_TOLD]
ASKED = [v for v in TOLD if "negonly" not in v.tags and v.key not in ("get_on", "get_off")]  # "Can you get off ?"


def _imp_verb(v: Verb, who: Person) -> str:
    return v.imp if who.key == "du" else v.de[4] if who.key == "ihr" else v.de[3]


def _imperative(rng: random.Random) -> Example:
    kind = rng.random()
    v = rng.choice(TOLD)
    who, voc_en, voc_de = hearer(rng, care=kind >= 0.25 and "care" in v.tags)
    if kind >= 0.25 and ("office" in v.tags or v.key in ("book", "pay")) and who.key == "ihr":  # not "Children ,
        # send me the report !", "Kids , book a hotel room !"
        voc_en, voc_de = "guys", "Leute"
    subj = "Sie" if who.key == "Sie" else ""
    if kind < 0.12:  # "Be quiet !" / "Don't be sad !" / "Don't be afraid !"
        en_adj, de_adj, neg = rng.choice(BE_IMP)
        if rng.random() < 0.15:
            en, de = ["don't be afraid"], [HAB[who.key], subj, "keine", "Angst"]
        else:
            en = ["don't be" if neg else "be", en_adj]
            de = [SEI[who.key], subj, *(["nicht"] if neg else []), de_adj]
        end = "!"
    elif kind < 0.25:
        en_text, forms, refl, rest = rng.choice(FIXED_IMP)
        en, please, _ = add_please(rng, [en_text], 0.4)
        de = [forms[_FORM[who.key]], subj, *([who.refl_acc] if refl else []),
              *(["bitte"] if please else []), rest]
        if en_text == "help yourself" and who.key == "ihr":
            en = [w.replace("yourself", "yourselves") for w in en]
        end = rng.choice(".!") if please else "!"
    else:
        neg = "dont" in v.tags and ("negonly" in v.tags or rng.random() < 0.3)
        p = phrase(rng, v, who, neg, hearer=who)
        time_en, time_de = "", ""
        if not neg and rng.random() < 0.2:
            time_en, time_de = rng.choice((("now", "jetzt"), ("tomorrow", "morgen"), ("later", "später"),
                                           ("tonight", "heute Abend"))) if v.tags & {"people", "office", "school"} \
                else ("now", "jetzt")
        if neg:
            en, please = [en_verb(v.en, "imperative", "pl", True, rng)[0], p.en(v.en[0]), time_en], False
        else:
            en, please, _ = add_please(rng, [p.en(v.en[0]), time_en])
        cl = p.clause(PERSONS["Sie"] if subj else None, _imp_verb(v, who), [v.prefix] if v.prefix else [],
                      ["nicht"] if neg else [], (["bitte"] if please else []) + time_de.split())
        de = cl.question()
        end = rng.choice(".!") if please else "!"
    en, de = vocative(en, de, voc_en, voc_de, rng, front=True if en[-1:] == [", please"] else None)
    return ex(en, de, end, "imperative")


# -- requests (what one asks to have, ITEMS, is in daily_life_lexicon.py) -------------------------
# what one asks a stranger to do ("Excuse me , could you ...")
ASK_STRANGER = ("explain", "repeat", "help", "give", "open", "close", "on", "off", "call")


def _polite_hearer(rng: random.Random, stranger: bool = True, care: bool = False) -> tuple[Person, str, str]:
    """du (perhaps by name), or Sie with a name ("Herr Weber") or, to a STRANGER, "Excuse me"
    ("Entschuldigung"), said first; CARE: du only ("Can you get dressed ?")."""
    who, voc_en, voc_de = hearer(rng, (0.55, 0.0, 0.45), care=care)
    if who.key == "Sie" and stranger and rng.random() < 0.5:
        voc_en, voc_de = "excuse me", "Entschuldigung"
    return who, voc_en, voc_de


def _request(rng: random.Random) -> Example:
    kind = rng.random()
    if kind < 0.5:  # "Could you send me the file , please ?"
        could = rng.random() < 0.5
        v = rng.choice(ASKED)
        who, voc_en, voc_de = _polite_hearer(rng, v.key in ASK_STRANGER, "care" in v.tags)
        p = phrase(rng, v, who, hearer=who)
        en, please, last = add_please(rng, [p.en(v.en[0])], 0.7)
        en = ["could you" if could else "can you", *en]  # "can you please send ...", "..., please"
        cl = p.clause(who, MODALS["könnte" if could else "können"][who.slot], [v.inf], [],
                      ["bitte"] if please else [])
        front = True if last or voc_en == "excuse me" else None
        en, de = vocative(en, cl.question(), voc_en, voc_de, rng, front=front)
        return ex(en, de, "?", "request")
    item_en, item_de = rng.choice(ITEMS)
    if kind < 0.75:  # "Can I have the bill , please ?"
        me = rng.choice(("I", "I", "we"))
        could = rng.random() < 0.4
        please = rng.random() < 0.7
        en = [item_en, ", please"] if please else [item_en]
        de_modal = MODALS["könnte" if could else "können"][PERSONS[me].slot]
        de = [de_modal, PERSONS[me].de, *(["bitte"] if please else []), item_de, "haben"]
        return ex(["could" if could else "can", me, "have", *en], de, "?", "request")
    if kind < 0.88:  # "I'd like a coffee , please ." -> "Ich möchte bitte einen Kaffee ."
        me = PERSONS[rng.choice(("I", "I", "we"))]
        lead = me.en + (" would" if rng.random() < 0.25 else "'d")
        please = rng.random() < 0.6
        en = [item_en, ", please"] if please else [item_en]
        de = [me.de, MODALS["möchte"][me.slot], *(["bitte"] if please else []), item_de]
        return ex([lead, "like", *en], de, ".", "request")
    who, voc_en, voc_de = _polite_hearer(rng)  # "Would you like a cup of tea ?"
    item_en, item_de = rng.choice(OFFERED)
    en, de = vocative(["would you like", item_en], [MODALS["möchte"][who.slot], who.de, item_de],
                      voc_en, voc_de, rng, front=True if voc_en == "excuse me" else None)
    return ex(en, de, "?", "request")


# -- permission and obligation ------------------------------------------------------------------
# rules: data/daily_life_rules.tsv (English, German before "nicht", German after it, the infinitive)
RULES = tuple((r["en"], r["before"], r["after"], r["infinitive"]) for r in rows("daily_life_rules.tsv"))
ASK_RULES = RULES[5:13] + RULES[13:15] + RULES[18:]  # what one asks "May I ...?"
BANNED_RULES = tuple(r for r in RULES if r[0] != "go to the toilet")  # what one is told not to do


MODAL_VERBS = [v for v in VERBS if not v.tags & {"past", "plural", "negonly", "prog"}
               and v.key not in ("feel", "interested", "remember", "understand", "pass", "fall_asleep", "wake", "arrive")]


def _rule(rng: random.Random, subj: Person, asking: bool) -> tuple[str, list[str], list[str], str]:
    en, pre, post, inf = rng.choice(ASK_RULES if asking else BANNED_RULES)
    phone_en, phone_de = noun_phrase(ALL["phone"], "poss", "acc", several(subj), subj)
    return en.replace("{p}", phone_en), pre.replace("{P}", phone_de).split(), post.split(), inf


def _permission(rng: random.Random) -> Example:
    """dürfen, müssen, sollen: "You mustn't smoke here ." -> "Du darfst hier nicht rauchen .",
    "You don't have to tidy your room ." -> "Du musst dein Zimmer nicht aufräumen ."."""
    kind = rng.choice(("may", "may", "mustnt", "mustnt", "dont_have", "dont_have", "have", "shall",
                       "should", "do_i"))
    asking = kind in ("may", "shall", "do_i")
    # not "May I hurry up ?", "May I comb my hair ?", "Am I allowed to work in an office ?", "Do we have to watch TV ?"
    v = rng.choice([v for v in MODAL_VERBS if not (kind == "may" and (v.key in ("hurry", "work") or "care" in v.tags)
                                                   or kind in ("have", "do_i", "dont_have") and v.key in (
                                                       "watch_tv", "listen_music"))])
    subj = PERSONS[rng.choice(("I", "I", "we"))] if asking else subject(rng, v, p_pronoun=0.8)  # not "Our
    if kind == "mustnt" or (kind == "may" and rng.random() < 0.5):  # grandparents must listen to their teacher"
        en_vp, pre, post, inf = _rule(rng, subj, asking)
        pron, negatable, indef = [], True, False
    else:
        p = phrase(rng, v, subj, kind in ("mustnt", "dont_have"))
        en_vp, pre, post, inf, pron, negatable = p.en(v.en[0]), p.mid, p.post, v.inf, p.pron, p.negatable
        indef = p.indef  # "Wir sollten Brot nicht backen" is not said: no "shouldn't" then
    neg = ["nicht"] if kind in ("mustnt", "dont_have") and negatable else []
    modal = {"may": "dürfen", "mustnt": "dürfen", "dont_have": "müssen", "have": "müssen",
             "shall": "sollen", "should": "sollte", "do_i": "müssen"}[kind]
    cl = Clause(subj.de, MODALS[modal][subj.slot], pron, [], pre, neg, post, [inf],
                noun_subj=not subj.pronoun)
    three = subj.agree == "3s"
    if kind == "may":
        lead = rng.choice(("may", "can", "allowed")) if subj.key == "I" else rng.choice(("can", "allowed"))
        en = ["are we allowed to" if subj.key == "we" else "am I allowed to"] if lead == "allowed" \
            else [lead, subj.en]
        return ex([*en, en_vp], cl.question(), "?", "permission")
    if kind == "shall":
        return ex([rng.choice(("shall", "should")), subj.en, en_vp], cl.question(), "?", "permission")
    if kind == "do_i":
        return ex(["do", subj.en, "have to", en_vp], cl.question(), "?", "permission")
    if kind == "mustnt":
        if rng.random() < 0.5:
            be = {"I": "am", "3s": "is", "pl": "are"}[subj.agree]
            en = [*contract_subject(subj.en, be, rng), "not allowed to", en_vp]
            if len(en) == 4 and rng.random() < 0.6 and be != "am":
                en = [subj.en, be + "n't", "allowed to", en_vp]
        else:
            en = [subj.en, "mustn't" if rng.random() < 0.75 else "must not", en_vp]
    elif kind == "dont_have":
        do = "doesn't" if three else "don't"
        en = [subj.en, do, rng.choice(("have to", "need to")), en_vp]
    elif kind == "have":
        en = [subj.en, rng.choice(("must", "has to" if three else "have to")), en_vp]
    else:
        neg_should = rng.random() < 0.3 and negatable and not indef
        if neg_should:
            cl.neg = ["nicht"]
        en = [subj.en, "shouldn't" if neg_should else "should", en_vp]
    return ex(en, cl.statement(), ".", "permission")


# -- statements in the past and the present -----------------------------------------------------
# how often: what has frequencies that fit it ("twice a week"); the rest take "usually", "in the evening"
FREQUENT = tuple(k.split(":")[0] for k in HOW_OFTEN)
DAILY = TIMES["present"][:3]  # what one does every day is said "every day", "in the morning", "in the evening"


def _past(rng: random.Random, verb: Verb, frame: str) -> Example:
    """"I cleaned the kitchen yesterday ." / "I've just arrived ." / "Have you already done the
    dishes ?": all German perfect, with "haben" or "sein"."""
    subj = subject(rng, verb)
    while verb.dets == ("body",) and "past" in verb.tags and several(subj):  # not "They broke their noses"
        subj = subject(rng, verb)
    style = rng.random()
    be_verb = verb.en[0].startswith("be ") or "prog" in verb.tags
    if style < 0.5 or be_verb or "noperf" in verb.tags or verb.key in STATES or \
            verb.key in ("fall_asleep", "wake") and subj.key in ("I", "we"):  # not "We haven't woken up yet"
        neg = rng.random() < 0.25 and not ("past" in verb.tags or verb.key in ("get_up", "wake", "dress"))  # not
        # "You didn't hurt your finger", "Yesterday my grandparents didn't get up"
        told = PERSONS["du"] if verb.recipient else None  # not "They showed you their garden": you would know
        p = phrase(rng, verb, subj, neg, hearer=told)
        routine = verb.key in (*ROUTINES, *NOT_NEVER) or any(c in p.en_tmpl for c in EVERYDAY_COMPS)
        time_en, time_de = some_time(rng, "past", 0.0 if verb.key in MOMENTS else 0.6,
                                     dates=verb.key == "pass" or not (verb.tags & {"home", "office", "school"} or routine))
        # "last year" only of a journey or an exam; a routine "this morning", not "last week"; breakfast not "last night"
        done = next((m for m in DONE_WHEN if m in verb.en[0] + p.en_tmpl), "")
        while time_en == "last year" and verb.key not in ("fly", "move", "pass", "ride", "drive") or \
                routine and time_en not in ("", "yesterday", "last night", "this morning") or \
                done and time_en not in DONE_WHEN[done] or "school" in verb.tags and time_en == "last night":
            time_en, time_de = some_time(rng, "past", 1.0, dates=False)
        aux, form = en_verb(verb.en, "past", subj.agree, neg, rng)
        cl = p.tense_clause(subj, "perfect", neg, time_de.split())
        if rng.random() < 0.2 and not neg:  # "Did you lock the door ?"
            you = PERSONS["they" if "plural" in verb.tags else "du"]
            p = phrase(rng, verb, you)
            while set(p.pron) & {"mir", "mich", "uns"}:  # not "Did you show us your flat ?": we would know
                p = phrase(rng, verb, you)
            cl = p.tense_clause(you, "perfect", False, time_de.split())
            aux, form = en_verb(verb.en, "past", you.agree, False, rng, question=True)
            return ex([aux, you.en, p.en(form), time_en], cl.question(), "?", frame)
        return with_time([subj.en, aux, p.en(form)], time_en, cl, rng, ".", frame)
    adv = rng.choice(("just", "already", "yet", "yet") if verb.key in NOT_NEVER else
                     ("just", "already", "never", "yet", "yet"))
    if "travel" in verb.tags and verb.key != "pay":  # "She's just arrived", "We've never flown to Greece"
        adv = rng.choice(("just", "already")) if verb.key in ("arrive", "move") else "never"  # not "never moved"
    if verb.key in ("get_up", "leave", "be_late", "get_on", "get_off"):  # not "He's never got on the train"
        adv = "just"
    if adv == "yet" and any(c[1] in KEIN for c in verb.comps):  # not "Sie hat noch kein Radio gehört"
        adv = "already"
    if verb.tags & {"past", "negonly"}:  # a mishap: "She's never broken her arm", not "Has she already ...?"
        adv = "never"
    if adv == "never" and once(verb):  # not "He has never studied for the exam"
        adv = "already"
    neg = adv == "yet"  # "never" as a habit: "She has never missed the bus"; "She's just got up" (not "early")
    p = phrase(rng, verb, subj, neg, PERSONS["du"] if verb.recipient else None, habit=adv == "never",
               comp=bare(verb) if adv == "just" or verb.key in ROUTINES else None)
    time = {"just": ["gerade"], "already": ["schon"], "never": ["noch", "nie"], "yet": []}[adv]
    negw = ["noch", "nicht"]
    if neg and not p.negatable:
        time = ["noch"]  # "noch keine Fahrkarte"
    cl = p.tense_clause(subj, "perfect", neg, time, negw)
    aux, form = en_verb(verb.en, "perfect", subj.agree, neg, rng)
    if style < 0.65 and adv in ("already", "yet") and subj.key != "I" and not (subj.key == "we" and (
            verb.key in ROUTINES or "plural" in verb.tags)):  # "Have you done it yet ?", not "Have we met yet ?"
        p = phrase(rng, verb, subj, False, comp=bare(verb) if verb.key in ROUTINES else None)
        while subj.key == "du" and set(p.pron) & {"mir", "mich", "uns"}:  # not "Have you shown me your photos yet ?"
            p = phrase(rng, verb, subj, False)
        cl = p.tense_clause(subj, "perfect", False, ["schon"])
        aux = "has" if subj.agree == "3s" else "have"
        en = [aux, subj.en, "already", p.en(form)] if adv == "already" else [aux, subj.en, p.en(form), "yet"]
        return ex(en, cl.question(), "?", frame)
    words = contract_subject(subj.en, aux, rng) if subj.pronoun else [subj.en, aux]
    if adv == "yet":
        return ex([*words, p.en(form), "yet"], cl.statement(), ".", frame)
    return ex([*words, adv, p.en(form)], cl.statement(), ".", frame)


def _present(rng: random.Random, verb: Verb, frame: str) -> Example:
    """How often ("I often clean the kitchen .", "We usually have dinner at home ."), now ("I'm
    doing the washing ."), a plan ("I'm going to call my mother tomorrow ." -> "Ich rufe morgen
    meine Mutter an .") or a question; a daily routine is said with when it is done."""
    subj = subject(rng, verb)
    be_verb = verb.en[0].startswith("be ")
    style = rng.choice(("habit", "habit", "now", "plan", "question"))
    if "prog" in verb.tags and style == "habit":
        style = "now"
    if style == "now" and "noprog" in verb.tags:
        style = "habit"
    if be_verb and style in ("now", "plan"):
        style = "habit"
    if verb.key == "pass":  # said once it is over: "She passed her test ."
        return _past(rng, verb, frame)
    if style in ("habit", "question") and (verb.tags & {"school", "office"} and verb.key not in FREQUENT or once(verb)):
        style = "plan"  # not "She repeats the question every day", "She often prepares for the exam"
    if style == "plan" and "noplan" in verb.tags:  # not "We will look forward to the holidays next week"
        style = "habit" if "noprog" in verb.tags else "now"
    if style in ("habit", "question") and verb.key in NO_HABIT or style == "plan" and verb.key in NOT_NEVER:
        style = "now"  # not "She's going to brush her teeth next week"
    if verb.key in STATES:
        style = "state"
    if style == "now" and "noprog" in verb.tags:  # neither a habit nor -ing: "We sat down ." ("is hurrying up")
        return _past(rng, verb, frame)
    routine = ROUTINES.get(verb.key, ())
    by_adverb = style == "habit" and verb.key in BY_ADVERB
    neg = (rng.random() < 0.2 or style == "plan" and "negonly" in verb.tags) and style != "question" and not \
        (verb.key in NOT_NEVER or by_adverb or routine and style == "habit")  # not "He doesn't fall asleep late"
    habit = style in ("habit", "question")
    p = phrase(rng, verb, subj, neg, habit=habit, comp=bare(verb) if routine and habit else None)
    if style == "habit":
        adv = rng.random()
        if (adv < 0.45 or by_adverb) and not neg and verb.key != "interested":  # "I often ...", "I'm often late"
            always, often, sometimes, usually, rarely = ADVERBS_OF_FREQUENCY  # not "He sometimes washes his face"
            a_en, a_de = rng.choice((always, usually) if "care" in verb.tags else (always, often, sometimes, usually) + (
                (usually,) if routine else (rarely,) if verb.key in NOT_NEVER else (rarely, ("never", "nie"))))
            t_en, t_de = rng.choice(routine) if routine else ("", "")  # "She usually wakes up at six"
            never = a_de == "nie"
            cl = p.tense_clause(subj, "present", never, [] if never else [a_de, *t_de.split()], ["nie"])
            if never and p.indef:
                cl.neg, cl.time = [], ["nie"]
            aux, form = en_verb(verb.en, "present", subj.agree, False, rng)
            if be_verb:
                be, rest = form.split(" ", 1)
                return ex([*contract_subject(subj.en, be, rng), a_en, p.en(rest)], cl.statement(), ".", frame)
            return ex([subj.en, a_en, p.en(form), t_en], cl.statement(), ".", frame)
        fits = how_often(verb.key, p.en_tmpl)
        often = adv < 0.7 and not neg and fits
        school = "school" in p.en_tmpl or "work" in p.en_tmpl  # not "late for school at the weekend"
        times = [t for t in TIMES["present"] if not (school and t[0] in ("at the weekend", "on Sundays",
                                                                         "after school"))
                 and not (subj.key in ADULTS and "school" in t[0])]
        t_en, t_de = rng.choice([t for t in (fits if often else routine or (DAILY if verb.key in NOT_NEVER else times))
                                 if not (neg and t[0].startswith("every"))])  # "nicht jeden Tag", not "jeden Tag nicht"
        if verb.key == "interested":  # "He's interested in art .", with no time
            t_en, t_de = "", ""
        cl = p.tense_clause(subj, "present", neg, t_de.split())
        aux, form = en_verb(verb.en, "present", subj.agree, neg, rng)
        return with_time([subj.en, aux, p.en(form)], t_en, cl, rng, ".", frame)
    if style == "state":  # "I don't understand the word ." / "Do you remember my sister ?"
        if rng.random() < 0.3:
            you = PERSONS["du"]
            p = phrase(rng, verb, you)
            aux, form = en_verb(verb.en, "present", you.agree, False, rng, question=True)
            return ex([aux, you.en, p.en(form)], p.tense_clause(you, "present", False).question(), "?", frame)
        aux, form = en_verb(verb.en, "present", subj.agree, neg, rng)
        words = [subj.en, aux, p.en(form)]
        if verb.en[0].startswith("be ") and not neg and subj.pronoun:
            be, rest = form.split(" ", 1)
            words = [*contract_subject(subj.en, be, rng), p.en(rest)]
        return ex(words, p.tense_clause(subj, "present", neg).statement(), ".", frame)
    if style == "now":
        t_en, t_de = rng.choice((("", ""), ("", ""), ("now", "jetzt"), ("right now", "gerade"),
                                 ("at the moment", "im Moment"))) if "prog" not in verb.tags else ("", "")
        cl = p.tense_clause(subj, "present", neg, t_de.split())
        aux, form = en_verb(verb.en, "progressive", subj.agree, neg, rng)
        words = contract_subject(subj.en, aux, rng) if subj.pronoun else [subj.en, aux]
        return ex([*words, p.en(form), t_en], cl.statement(), ".", frame)
    if style == "plan":
        # not "He'll watch TV on the first of May", "He'll repeat the sentence at the weekend", "work late later"
        t_en, t_de = some_time(rng, "future", 1.0, dates="travel" in verb.tags and "work" not in p.en_tmpl
                               and "school" not in p.en_tmpl)  # a journey, not "drive to work in the spring"
        while "school" in verb.tags and t_en == "at the weekend" or "late" in p.en_tmpl.split() and t_en in (
                "this afternoon", "later"):
            t_en, t_de = some_time(rng, "future", 1.0, dates=False)
        cl = p.tense_clause(subj, "present", neg, t_de.split())
        if rng.random() < 0.5:
            be = {"I": "am", "3s": "is", "pl": "are"}[subj.agree]
            going = [*(contract_subject(subj.en, be, rng) if subj.pronoun else [subj.en, be]),
                     *(["not"] if neg else []), "going to"]
        else:
            going = [*(contract_subject(subj.en, "will", rng) if subj.pronoun and not neg else [subj.en]),
                     *(["won't"] if neg else ["will"] if not subj.pronoun else [])]
            if subj.pronoun and not neg and len(going) == 2:
                going = [subj.en, "will"]
        return with_time([*going, p.en(verb.en[0])], t_en, cl, rng, ".", frame)
    you = PERSONS["du"] if rng.random() < 0.6 and "plural" not in verb.tags else subj
    if you.key in ("I", "we") or you.owner in ("I", "we"):  # not "Do I always open the door ?", "Does my son ...?"
        you = PERSONS["they" if "plural" in verb.tags else "du"]
    p = phrase(rng, verb, you, habit=True, comp=bare(verb) if routine else None)
    fits = how_often(verb.key, p.en_tmpl)
    a_en, a_de, t_en, t_de = ("", "", "", "") if verb.key in STATES + NO_HABIT or "prog" in verb.tags else \
        rng.choice([(a, b, *t) for a, b in (("always", "immer"), ("usually", "normalerweise")) for t in routine]
                   + [("", "", *t) for t in fits] if routine else
                   [("", "", "", ""), *((a, b, "", "") for a, b in ADVERBS_OF_FREQUENCY[:3] if verb.key not in NOT_NEVER),
                    *(("", "", *t) for t in fits)])  # not "Do you often feed your dog ?"
    cl = p.tense_clause(you, "present", False, [*a_de.split(), *t_de.split()])  # "Are you looking forward to ...?"
    aux, form = en_verb(verb.en, "progressive" if "prog" in verb.tags else "present", you.agree, False, rng, True)
    return ex([aux, you.en, a_en, p.en(form), t_en], cl.question(), "?", frame)


CHORES = [v for v in VERBS if not v.tags & {"self"}]
SELF = [v for v in VERBS if "self" in v.tags]


def _perfect(rng: random.Random) -> Example:
    return _past(rng, rng.choice(CHORES), "perfect")


def _routine(rng: random.Random) -> Example:
    verb = rng.choice([v for v in CHORES if "past" not in v.tags])
    return _present(rng, verb, "routine")


def _reflexive(rng: random.Random) -> Example:
    verb = rng.choice(SELF)
    if "past" in verb.tags or ("nopast" not in verb.tags and rng.random() < 0.4):
        return _past(rng, verb, "reflexive")
    return _present(rng, verb, "reflexive")


FRAMES = {"imperative": 0.09, "request": 0.07, "permission": 0.07, "perfect": 0.09, "routine": 0.07,
          "reflexive": 0.07, "clause": 0.07, "how": 0.06, "dative": 0.06, "there_is": 0.04,
          "preference": 0.05, "place": 0.05, "health": 0.04, "dates": 0.04, "shop": 0.04,
          "travel": 0.04, "adjective": 0.05}
MAKERS = {"imperative": _imperative, "request": _request, "permission": _permission,
          "perfect": _perfect, "routine": _routine, "reflexive": _reflexive, "clause": clause_frame,
          "how": how_frame, **daily_life_scenes.MAKERS, **daily_life_town.MAKERS}


def _words(text: str) -> int:
    return sum(1 for w in text.split() if any(c.isalnum() for c in w))


def long_enough(make):
    """MAKE, tried again until both sides have 3 to 20 words: "Sit down !" is said as "Anna ,
    sit down !", "I'm cold ." as "I am cold ."."""
    def made(rng: random.Random) -> Example:
        for _ in range(50):
            ex = make(rng)
            if all(3 <= _words(t) <= 20 for t in (ex.src, ex.tgt)):
                return ex
        raise RuntimeError(f"{make.__name__} says no sentence of 3 to 20 words")
    return made


MAKERS = {name: long_enough(make) for name, make in MAKERS.items()}


def generate(n: int, seed: int = 0) -> list[Example]:
    """N distinct sentence pairs (fewer if the grammar runs out), in a seeded order; no frame
    takes more than twice its share (the small ones, dates and tickets, run out first)."""
    return daily.draw(MAKERS, FRAMES, n, random.Random(f"daily_life:{seed}"), cap=2.0)
