"""Health, dates, shops, tickets and adjectives for recipes/everyday/daily_life.py.

What a learner says at the doctor's ("Ich habe Kopfschmerzen", "Nehmen Sie die Tabletten dreimal
am Tag"), about dates ("am fünften Mai", "Ich bin 1995 geboren", "sonntags geschlossen"), in a
shop ("Wie viel kosten die Schuhe ?", "Die Jacke kostet 3,50 Euro": German writes the decimal
comma and never says "Euros"), at the station ("Der Zug hat zehn Minuten Verspätung", "Von
welchem Gleis fährt der Zug nach Köln ab ?"), and adjectives before a noun with the ending
its article asks for ("eine kleine Wohnung", "in einer kleinen Wohnung", "neue Schuhe",
"Unser neuer Nachbar ist sehr nett").
"""
from __future__ import annotations

import random

from recipes.everyday.daily_life_grammar import (ADULTS, BE, HAD, HAVE, MODALS, PERSONS, WAS, Clause, be_form,
                                                 contract_subject, date_time, ex, hearer, noun_phrase, phrase,
                                                 prep_phrase, subject, vocative)
from recipes.everyday.daily_life_lexicon import (ADJ_FOR, ADJ_MASS, ALL, COLOURS, DAYS, DESTINATIONS,
                                                 HOLIDAY_PLACES, MONTHS, NUMBER_WORDS, ORDINALS, TOWNS, WOMENS)
from recipes.everyday.daily_life_verbs import BY_KEY
from transformer.data.example import Example

# -- health -------------------------------------------------------------------------------------
# what one has: English, German, German with "kein" ("" = not said negated)
ACHES = (("a headache", "Kopfschmerzen", "keine Kopfschmerzen"),
         ("a stomach ache", "Bauchschmerzen", "keine Bauchschmerzen"),
         ("toothache", "Zahnschmerzen", "keine Zahnschmerzen"), ("backache", "Rückenschmerzen", "keine Rückenschmerzen"),
         ("a sore throat", "Halsschmerzen", "keine Halsschmerzen"), ("earache", "Ohrenschmerzen", "keine Ohrenschmerzen"),
         ("a temperature", "Fieber", "kein Fieber"), ("a fever", "Fieber", "kein Fieber"),
         ("a cold", "eine Erkältung", "keine Erkältung"), ("the flu", "die Grippe", ""),
         ("a cough", "Husten", "keinen Husten"))
# a doctor's advice: English, German before "nicht", after it, infinitive, whether said negated
ADVICE = (("stay in bed", "", "im Bett", "bleiben", False), ("drink a lot of water", "", "viel Wasser", "trinken", False),
          ("go to the doctor", "", "zum Arzt", "gehen", False), ("take these tablets", "diese Tabletten", "", "nehmen", True),
          ("sleep more", "", "mehr", "schlafen", False), ("stay at home", "", "zu Hause", "bleiben", False),
          ("go to work today", "heute", "zur Arbeit", "gehen", True),
          ("go to school today", "heute", "zur Schule", "gehen", True),
          ("go to bed early", "", "früh ins Bett", "gehen", False), ("eat something", "", "etwas", "essen", False),
          ("go swimming this week", "diese Woche", "schwimmen", "gehen", True))
MEDICINE = (("the tablets", "die Tabletten"), ("this medicine", "dieses Medikament"), ("two tablets", "zwei Tabletten"))
DOSES = (("twice a day", "zweimal am Tag"), ("three times a day", "dreimal am Tag"), ("after meals", "nach dem Essen"),
         ("before breakfast", "vor dem Frühstück"), ("every morning", "jeden Morgen"))


def _health(rng: random.Random) -> Example:
    kind = rng.random()
    if kind < 0.4:  # "I have a headache ." -> "Ich habe Kopfschmerzen ."
        subj = subject(rng, None, 0.75)
        ache_en, ache_de, no_de = rng.choice(ACHES)
        style = rng.random()
        has = "has" if subj.agree == "3s" else "have"
        if style < 0.2:
            you = PERSONS["du"]
            return ex(["do you have", ache_en], [HAVE[you.slot], "du", ache_de], "?", "health")
        if style < 0.4 and no_de and subj.key != "du":  # not "You don't have toothache"
            return ex([subj.en, "doesn't" if subj.agree == "3s" else "don't", "have", ache_en],
                      [subj.de, HAVE[subj.slot], no_de], ".", "health")
        if style < 0.6:
            t_en, t_de = rng.choice((("yesterday", "gestern"), ("last week", "letzte Woche"), ("last night", "gestern Abend"))[
                :2 if ache_en in ("the flu", "a cold", "a cough") else 3])  # not "I had the flu last night"
            return ex([subj.en, "had", ache_en, t_en], [subj.de, HAD[subj.slot], t_de, ache_de], ".", "health")
        got = rng.random() < 0.3 and subj.pronoun
        en = [*contract_subject(subj.en, "have" if has == "have" else "has", rng, 0.9), "got"] if got \
            else [subj.en, has]
        return ex([*en, ache_en], [subj.de, HAVE[subj.slot], ache_de], ".", "health")
    if kind < 0.7:  # "You should stay in bed ." -> "Du solltest im Bett bleiben ."
        subj = subject(rng, None, 0.8)
        if rng.random() < 0.2:
            p = phrase(rng, BY_KEY["rest"], subj)
            en_vp, pre, post, inf, pron, can_neg = "rest", [], [], "ausruhen", p.pron, False
        else:
            en_vp, pre, post, inf, can_neg = rng.choice([a for a in ADVICE if not (
                subj.key in ADULTS and "school" in a[0])])
            pre, post, pron = pre.split(), post.split(), []
        neg = can_neg and rng.random() < 0.5
        modal_en, modal = rng.choice((("should", "sollte"), ("should", "sollte"), ("must", "müssen"),
                                      ("has to" if subj.agree == "3s" else "have to", "müssen")))
        if neg:
            modal_en, modal = rng.choice((("shouldn't", "sollte"), ("mustn't", "dürfen")))
        cl = Clause(subj.de, MODALS[modal][subj.slot], pron, [], pre, ["nicht"] if neg else [], post, [inf],
                    noun_subj=not subj.pronoun)
        return ex([subj.en, modal_en, en_vp], cl.statement(), ".", "health")
    if kind < 0.85:  # "Take the tablets twice a day ." / "Nehmen Sie die Tabletten dreimal am Tag ."
        who, voc_en, voc_de = hearer(rng, (0.5, 0.0, 0.5), 0.3)
        med_en, med_de = rng.choice(MEDICINE)
        dose_en, dose_de = rng.choice(DOSES)
        finite = "nimm" if who.key == "du" else "nehmen"
        what = [dose_de, med_de] if med_en.startswith("two") else [med_de, dose_de]  # "Nimm zweimal am Tag zwei ..."
        en, de = vocative(["take", med_en, dose_en], [finite, *(["Sie"] if who.key == "Sie" else []), *what],
                          voc_en, voc_de, rng)
        return ex(en, de, ".", "health")
    subj = subject(rng, None, 0.8)  # "I have an appointment at the dentist's on Monday ."
    doc = rng.choice((("the doctor", "zum Arzt", "beim Arzt"), ("the dentist", "zum Zahnarzt", "beim Zahnarzt")))
    if rng.random() < 0.5:
        must = "has to" if subj.agree == "3s" else "have to"
        return ex([subj.en, must, "go to", doc[0]], [subj.de, MODALS["müssen"][subj.slot], doc[1], "gehen"], ".",
                  "health")
    day_en, day_de = rng.choice((("on Monday", "am Montag"), ("on Tuesday", "am Dienstag"), ("tomorrow", "morgen"),
                                 ("on Friday", "am Freitag"), ("at ten", "um zehn"), ("this afternoon", "heute Nachmittag")))
    has = "has" if subj.agree == "3s" else "have"
    return ex([subj.en, has, "an appointment with", doc[0], day_en],
              [subj.de, HAVE[subj.slot], *day_de.split(), "einen", "Termin", *doc[2].split()], ".", "health")


# -- days and dates -----------------------------------------------------------------------------
# events and when they are: the noun, its determiners, "is" or "starts"
EVENTS = (("birthday", ("poss",), "is"), ("party", ("the", "poss"), "is"), ("exam", ("the", "poss"), "is"),
          ("wedding", ("the",), "is"), ("appointment", ("poss",), "is"), ("concert", ("the",), "is"),
          ("course", ("the",), "starts"), ("holidays", ("the",), "start"), ("meeting", ("the",), "is"))
OPENING = (("shop", "Geschäft"), ("museum", "Museum"), ("library", "Bibliothek"), ("bakery", "Bäckerei"),
           ("swimming pool", "Schwimmbad"), ("supermarket", "Supermarkt"), ("bank", "Bank"))
OPEN_DE = {"Geschäft": "das", "Museum": "das", "Bibliothek": "die", "Bäckerei": "die", "Schwimmbad": "das",
           "Supermarkt": "der", "Bank": "die"}


def _date(rng: random.Random) -> tuple[str, str, str, str]:
    """(English "the fifth of May", German nominative "der fünfte Mai", English "on the fifth
    of May", German "am fünften Mai")."""
    month_en, month_de, days = rng.choice(MONTHS)
    o_en, o_de = ORDINALS[rng.randrange(days)]
    return f"the {o_en} of {month_en}", f"der {o_de}e {month_de}", f"on the {o_en} of {month_en}", \
        f"am {o_de}en {month_de}"


def _dates(rng: random.Random) -> Example:
    kind = rng.random()
    if kind < 0.15:  # "Today is Monday ." / "Yesterday was Sunday ."
        day_en, day_de, _ = rng.choice(DAYS)
        when = rng.choice((("today", "heute", "is", "ist"), ("tomorrow", "morgen", "is", "ist"),
                           ("yesterday", "gestern", "was", "war")))
        if rng.random() < 0.3:
            date_en, date_de, _, _ = _date(rng)
            return ex([when[0], when[2], date_en], [when[1], when[3], date_de], ".", "dates")
        return ex([when[0], when[2], day_en], [when[1], when[3], day_de], ".", "dates")
    if kind < 0.2:
        return ex(*rng.choice(((["what day is it today"], ["welcher", "Tag", "ist", "heute"]),
                               (["what's the date today"], ["welches", "Datum", "ist", "heute"]))), "?", "dates")
    if kind < 0.55:  # "My birthday is on the third of March ." -> "Mein Geburtstag ist am dritten März ."
        name, dets, verb = rng.choice(EVENTS)
        noun = ALL[name]
        ask = rng.random() < 0.2  # "When is your birthday ?"; told "My birthday is ...", not "Your birthday is ..."
        keys = ("I", "he", "she") if noun.each else ("I", "du", "he", "she", "we")
        owner = PERSONS["du" if ask and noun.each else rng.choice(keys)]
        e_en, e_de = noun_phrase(noun, rng.choice(dets), "nom", owner=owner)
        de_verb = {"is": "ist", "starts": "beginnt", "start": "beginnen"}[verb]
        if ask:
            return ex(["when", verb if verb == "is" else "does" if verb == "starts" else "do", e_en,
                       "" if verb == "is" else "start"], ["wann", de_verb, e_de], "?", "dates")
        r = rng.random()
        if r < 0.5:
            when_en, when_de = _date(rng)[2:]
        elif r < 0.75:
            day_en, day_de, _ = rng.choice(DAYS)
            when_en, when_de = f"on {day_en}", f"am {day_de}"
        else:
            month_en, month_de, _ = rng.choice(MONTHS)
            when_en, when_de = f"in {month_en}", f"im {month_de}"
        return ex([e_en, verb, when_en], [e_de, de_verb, when_de], ".", "dates")
    if kind < 0.75:  # "I was born in 1995 ." -> "Ich bin 1995 geboren ."
        subj = subject(rng, None, 0.7, ("I", "he", "she"))
        while subj.agree == "pl":  # one birthday, not told to its owner: "Your grandparents were born on ..."
            subj = subject(rng, None, 0.7, ("I", "he", "she"))
        if rng.random() < 0.2:
            return ex(["when were you born"], ["wann", "bist", "du", "geboren"], "?", "dates")
        r = rng.random()
        if r < 0.4:
            when_en, when_de = _date(rng)[2:]
        elif r < 0.7:
            year = str(rng.randrange(1940, 2024))
            when_en, when_de = f"in {year}", year
        else:
            month_en, month_de, _ = rng.choice(MONTHS)
            when_en, when_de = f"in {month_en}", f"im {month_de}"
        return ex([subj.en, "were" if subj.agree == "pl" else "was", "born", when_en],
                  [subj.de, BE[subj.slot], when_de, "geboren"], ".", "dates")
    if kind < 0.88:  # "The shop is closed on Sundays ." -> "Das Geschäft ist sonntags geschlossen ."
        place_en, place_de = rng.choice(OPENING)
        day_en, _, adverb = rng.choice(DAYS)
        state_en, state_de = rng.choice((("closed", "geschlossen"), ("open", "geöffnet")))
        return ex(["the", place_en, "is", state_en, f"on {day_en}s"], [OPEN_DE[place_de], place_de, "ist", adverb, state_de],
                  ".", "dates")
    subj = PERSONS[rng.choice(("I", "we", "they", "he", "she"))]  # "We're going to Italy in July ."
    past = rng.random() < 0.4
    dest_en, to_de, in_de = rng.choice(DESTINATIONS + HOLIDAY_PLACES)
    when_en, when_de = date_time(rng, past)
    if past:  # "We were in Italy in May ." -> "Wir waren im Mai in Italien ."
        return ex([subj.en, "were" if subj.agree == "pl" else "was", "in", dest_en, when_en],
                  [subj.de, WAS[subj.slot], *when_de.split(), *in_de.split()], ".", "dates")
    be = be_form(subj.agree)
    fahren = ("fahre", "fährst", "fährt", "fahren", "fahrt")[subj.slot]
    return ex([*contract_subject(subj.en, be, rng), "going to", dest_en, when_en],
              [subj.de, fahren, *when_de.split(), *to_de.split()], ".", "dates")


# -- shops and money ----------------------------------------------------------------------------
PRICED = "jacket coat dress shirt sweater scarf hat umbrella bag shoe+ book phone bike apple+ tomato+ egg+".split()
PREDICATES = (("too expensive", "zu teuer"), ("very cheap", "sehr billig"), ("too small", "zu klein"),
              ("too big", "zu groß"))
GIFT_FOR = ("mother", "father", "sister", "brother", "grandma", "grandpa", "friend", "son", "daughter")


def _price(rng: random.Random, food: bool = False) -> tuple[str, str]:
    """"twenty euros" / "20 euros" / "3.50 euros" -> "zwanzig Euro" / "20 Euro" / "3,50 Euro";
    FOOD costs a few euros."""
    r = 1.0 if food else rng.random()
    if r < 0.4:
        n_en, n_de = NUMBER_WORDS[rng.choice([k for k in NUMBER_WORDS if 10 <= k < 100])]
        return f"{n_en} euros", f"{n_de} Euro"
    if r < 0.7:
        n = str(rng.randrange(10, 200))
        return f"{n} euros", f"{n} Euro"
    euros = rng.randrange(1, 5) if food else rng.randrange(10, 100)
    cents = rng.choice(("50", "99", "20", "80", "25", "95"))
    return f"{euros}.{cents} euros", f"{euros},{cents} Euro"


def _shop(rng: random.Random) -> Example:
    kind = rng.random()
    name = rng.choice(PRICED)
    noun, pl = ALL[name.rstrip("+")], name.endswith("+")
    det = rng.choice(("the", "this"))
    if kind < 0.4:  # "How much does the jacket cost ?" / "These shoes cost 20 euros ."
        t_en, t_de = noun_phrase(noun, det, "nom", pl)
        cost = "kosten" if pl else "kostet"
        if rng.random() < 0.4:
            if rng.random() < 0.5:
                return ex(["how much", "are" if pl else "is", t_en], ["wie", "viel", cost, t_de], "?", "shop")
            return ex(["how much", "do" if pl else "does", t_en, "cost"], ["wie", "viel", cost, t_de], "?", "shop")
        p_en, p_de = _price(rng, name in ("apple+", "tomato+", "egg+"))
        return ex([t_en, "cost" if pl else "costs", p_en], [t_de, cost, p_de], ".", "shop")
    if kind < 0.5:  # "That's 20 euros , please ." -> "Das macht 20 Euro , bitte ."
        p_en, p_de = _price(rng)
        return ex(["that's", p_en, ", please"], ["das", "macht", p_de, ",", "bitte"], ".", "shop")
    if kind < 0.6:  # "This jacket is too expensive ."
        t_en, t_de = noun_phrase(noun, det, "nom", pl)
        pr_en, pr_de = rng.choice(PREDICATES[:2] if name in ("apple+", "tomato+", "egg+", "book", "phone") else PREDICATES)
        return ex([t_en, "are" if pl else "is", pr_en], [t_de, "sind" if pl else "ist", pr_de], ".", "shop")
    clothes = [c for c in ("jacket", "coat", "dress", "shirt", "sweater", "shoe+") if c in PRICED]
    name = rng.choice(clothes)
    noun, pl = ALL[name.rstrip("+")], name.endswith("+")
    if kind < 0.72:  # "Can I try on this jacket ?" -> "Kann ich diese Jacke anprobieren ?"
        t_en, t_de = noun_phrase(noun, "this", "acc", pl)
        if rng.random() < 0.5:
            return ex(["can I try on", t_en], ["kann", "ich", t_de, "anprobieren"], "?", "shop")
        return ex(["can I try", t_en, "on"], ["kann", "ich", t_de, "anprobieren"], "?", "shop")
    if kind < 0.82:  # "Do you have this jacket in blue ?" -> "Haben Sie diese Jacke in Blau ?"
        t_en, t_de = noun_phrase(noun, "this", "acc", pl)
        if rng.random() < 0.6:
            c_en, c_de = rng.choice(COLOURS)
            return ex(["do you have", t_en, "in", c_en], ["haben", "Sie", t_de, "in", c_de], "?", "shop")
        size_en, size_de = rng.choice((("a bigger size", "größer"), ("a smaller size", "kleiner")))
        return ex(["do you have", t_en, "in", size_en], ["haben", "Sie", t_de, "eine", "Nummer", size_de], "?", "shop")
    if kind < 0.9:
        return ex(*rng.choice(((["can I pay by card"], ["kann", "ich", "mit", "Karte", "bezahlen"], "?"),
                               (["can I pay in cash"], ["kann", "ich", "bar", "bezahlen"], "?"),
                               (["I'd like to pay by card"], ["ich", "möchte", "mit", "Karte", "bezahlen"], "."),
                               (["do you take credit cards"], ["nehmen", "Sie", "Kreditkarten"], "?"),
                               (["I'm just looking , thanks"], ["ich", "schaue", "mich", "nur", "um", ",", "danke"], "."),
                               (["where are the changing rooms"], ["wo", "sind", "die", "Umkleidekabinen"], "?"),
                               (["I don't have any cash"], ["ich", "habe", "kein", "Bargeld"], "."),
                               (["I spent too much money"], ["ich", "habe", "zu", "viel", "Geld", "ausgegeben"], "."))),
                  "shop")
    subj = subject(rng, None, 0.8)  # "I'm looking for a present for my mother ."
    who = ALL[rng.choice(GIFT_FOR)]
    f_en, f_de = noun_phrase(who, "poss", "acc", owner=subj)
    be = be_form(subj.agree)
    suche = ("suche", "suchst", "sucht", "suchen", "sucht")[subj.slot]
    return ex([*(contract_subject(subj.en, be, rng) if subj.pronoun else [subj.en, be]), "looking for a present for",
               f_en], [subj.de, suche, "ein", "Geschenk", "für", f_de], ".", "shop")


# -- tickets and trains -------------------------------------------------------------------------
def _travel(rng: random.Random) -> Example:
    town_en, town_de = rng.choice(TOWNS)
    kind = rng.random()
    if kind < 0.2:  # "A return ticket to Cologne , please ." -> "Eine Rückfahrkarte nach Köln , bitte ."
        t_en, t_de = rng.choice((("a ticket", "eine Fahrkarte"), ("a return ticket", "eine Rückfahrkarte"),
                                 ("two tickets", "zwei Fahrkarten"), ("a single ticket", "eine einfache Fahrkarte")))
        if rng.random() < 0.4:
            me = PERSONS[rng.choice(("I", "we"))]
            return ex([me.en + "'d like", t_en, "to", town_en], [me.de, MODALS["möchte"][me.slot], t_de, "nach", town_de],
                      ".", "travel")
        return ex([t_en, "to", town_en, ", please"], [t_de, "nach", town_de, ",", "bitte"], ".", "travel")
    if kind < 0.4:  # platforms and departures
        n = str(rng.randrange(1, 15))
        r = rng.random()
        if r < 0.35:
            return ex(["which platform does the train to", town_en, "leave from"],
                      ["von", "welchem", "Gleis", "fährt", "der", "Zug", "nach", town_de, "ab"], "?", "travel")
        if r < 0.7:
            return ex(["the train to", town_en, "leaves from platform", n],
                      ["der", "Zug", "nach", town_de, "fährt", "von", "Gleis", n, "ab"], ".", "travel")
        return ex(["when does the next train to", town_en, "leave"],
                  ["wann", "fährt", "der", "nächste", "Zug", "nach", town_de, "ab"], "?", "travel")
    if kind < 0.6:  # "The train is ten minutes late ." -> "Der Zug hat zehn Minuten Verspätung ."
        what_en, what_de = rng.choice((("the train", "der Zug"), ("the bus", "der Bus"), ("our train", "unser Zug"),
                                       ("the tram", "die Straßenbahn"), ("my flight", "mein Flug")))
        r = rng.random()
        if r < 0.4:
            n_en, n_de = NUMBER_WORDS[rng.choice((5, 10, 15, 20, 30, 40, 45))]
            return ex([what_en, "is", n_en, "minutes late"], [what_de, "hat", n_de, "Minuten", "Verspätung"], ".",
                      "travel")
        if r < 0.6:
            return ex([what_en, "is late"], [what_de, "hat", "Verspätung"], ".", "travel")
        if r < 0.8:
            return ex(["is", what_en, "on time"], ["ist", what_de, "pünktlich"], "?", "travel")
        n_en, n_de = NUMBER_WORDS[rng.choice((5, 10, 15, 20, 30))]
        flight = what_de == "mein Flug"  # a flight "geht", never "fährt ab"
        return ex([what_en, "leaves in", n_en, "minutes"], [what_de, "geht" if flight else "fährt", "in", n_de, "Minuten",
                                                              *([] if flight else ["ab"])], ".", "travel")
    if kind < 0.72:  # "Do I have to change ?" -> "Muss ich umsteigen ?"
        return _change(rng, town_en, town_de)
    dest_en, to_de, in_de = rng.choice(DESTINATIONS + HOLIDAY_PLACES)
    r = rng.random()
    if r < 0.35:  # "Have you ever been to Austria ?" -> "Warst du schon einmal in Österreich ?"
        if rng.random() < 0.5:
            return ex(["have you ever been to", dest_en], ["warst", "du", "schon", "einmal", *in_de.split()], "?",
                      "travel")
        subj = PERSONS[rng.choice(("I", "we", "he", "she", "they"))]
        have = "has" if subj.agree == "3s" else "have"
        return ex([*contract_subject(subj.en, have, rng), "never been to", dest_en],
                  [subj.de, WAS[subj.slot], "noch", "nie", *in_de.split()], ".", "travel")
    if r < 0.65:  # "We spent our holiday in Spain ." -> "Wir haben unseren Urlaub in Spanien verbracht ."
        subj = subject(rng, None, 0.8)
        h_en, h_de = noun_phrase(ALL["holiday"], "poss", "acc", owner=subj)
        where_en = ("at" if dest_en == "the seaside" else "in") + f" {dest_en}"
        return ex([subj.en, "spent", h_en, where_en], [subj.de, HAVE[subj.slot], h_de, *in_de.split(), "verbracht"],
                  ".", "travel")
    subj = subject(rng, None, 0.8)  # "We flew to Spain ." / "We're flying to Spain on Monday ."
    fly = BY_KEY["fly"]
    past = rng.random() < 0.5
    how = rng.choice(("fly", "go"))
    if how == "fly" and dest_en.startswith("the ") and dest_en != "the USA":
        how = "go"
    verb_de = ("fliege", "fliegst", "fliegt", "fliegen", "fliegt") if how == "fly" else \
        ("fahre", "fährst", "fährt", "fahren", "fahrt")
    part = "geflogen" if how == "fly" else "gefahren"
    when_en, when_de = date_time(rng, past)
    if past:
        return ex([subj.en, fly.en[2] if how == "fly" else "went", "to", dest_en, when_en],
                  [subj.de, BE[subj.slot], *when_de.split(), *to_de.split(), part], ".", "travel")
    be = be_form(subj.agree)
    ing = "flying" if how == "fly" else "going"
    return ex([*(contract_subject(subj.en, be, rng) if subj.pronoun else [subj.en, be]), ing, "to", dest_en, when_en],
              [subj.de, verb_de[subj.slot], *when_de.split(), *to_de.split()], ".", "travel")


def _change(rng: random.Random, town_en: str, town_de: str) -> Example:
    en, de, end = rng.choice(((["do I have to change trains"], ["muss", "ich", "umsteigen"], "?"),
                              (["where do I have to get off"], ["wo", "muss", "ich", "aussteigen"], "?"),
                              (["do we have to change trains"], ["müssen", "wir", "umsteigen"], "?"),
                              (["you have to change in", town_en], ["du", "musst", "in", town_de, "umsteigen"], "."),
                              (["where do I have to change"], ["wo", "muss", "ich", "umsteigen"], "?"),
                              (["we changed trains in", town_en], ["wir", "sind", "in", town_de, "umgestiegen"], "."),
                              (["I missed the last train to", town_en],
                               ["ich", "habe", "den", "letzten", "Zug", "nach", town_de, "verpasst"], ".")))
    return ex(en, de, end, "travel")


# -- adjectives before a noun -------------------------------------------------------------------
ANTONYMS = ({"big", "small"}, {"cheap", "expensive"}, {"new", "old"}, {"dark", "bright"}, {"long", "short"},
            {"young", "old"}, {"hot", "cold"}, {"warm", "cold"})
# near synonyms, not said twice over: "The nice doctor is very friendly"
SYNONYMS = ({"nice", "friendly"}, {"nice", "beautiful"})
SAID_OF = {"clothes": (("too expensive", "zu teuer"), ("too small", "zu klein"), ("too big", "zu groß"),
                       ("really nice", "wirklich schön"), ("very cheap", "sehr billig")),
           "homes": (("too small", "zu klein"), ("very quiet", "sehr ruhig"), ("too expensive", "zu teuer"),
                    ("really beautiful", "wirklich schön"), ("very big", "sehr groß"), ("very cold", "sehr kalt")),
           "people": (("very nice", "sehr nett"), ("very friendly", "sehr freundlich"), ("really funny", "wirklich lustig"),
                      ("quite strict", "ziemlich streng"))}


def _adj_noun(rng: random.Random, *groups: str) -> tuple[str, str, bool]:
    """A noun of one of GROUPS with an adjective that fits it, and whether it is plural."""
    nouns, adjs = ADJ_FOR[rng.choice(groups)]
    name = rng.choice(nouns.split())
    return name.rstrip("+"), rng.choice(adjs.split()), name.endswith("+")


def _fits(adj: str, said: str) -> bool:
    words = set(said.split())
    return adj not in words and not any(adj in pair and words & pair for pair in ANTONYMS + SYNONYMS)


def _adjective(rng: random.Random) -> Example:
    kind = rng.random()
    subj = subject(rng, None, 0.75)
    if kind < 0.2:  # "She's wearing my new jacket ." / "He's wearing new shoes ."
        subj = PERSONS[rng.choice(("I", "du", "he", "she"))] if rng.random() < 0.75 else subject(rng, None, 0)
        if subj.slot == 3:
            subj = PERSONS["she"]
        name, adj, pl = _adj_noun(rng, "clothes", "clothes", "warm clothes", "shoes")
        while name in WOMENS and subj.poss_en == "his":
            name, adj, pl = _adj_noun(rng, "clothes", "clothes", "warm clothes", "shoes")
        t_en, t_de = noun_phrase(ALL[name], rng.choice(("poss", "a")), "acc", pl, subj, adj)
        be = be_form(subj.agree)
        trage = ("trage", "trägst", "trägt", "tragen", "tragt")[subj.slot]
        return ex([*(contract_subject(subj.en, be, rng) if subj.pronoun else [subj.en, be]), "wearing", t_en],
                  [subj.de, trage, t_de], ".", "adjective")
    if kind < 0.4:  # "She bought a red dress ." -> "Sie hat ein rotes Kleid gekauft ."
        name, adj, pl = _adj_noun(rng, "clothes", "shoes", "bags", "things", "furniture")
        while adj == "old":  # nobody says "She bought an old bag"
            name, adj, pl = _adj_noun(rng, "clothes", "shoes", "bags", "things", "furniture")
        t_en, t_de = noun_phrase(ALL[name], "a", "acc", pl, subj, adj)
        return ex([subj.en, "bought", t_en], [subj.de, HAVE[subj.slot], t_de, "gekauft"], ".", "adjective")
    if kind < 0.55:  # "We live in a small flat ." -> "Wir wohnen in einer kleinen Wohnung ."
        name = rng.choice(("flat", "house", "town", "village"))
        adj = rng.choice(("big", "small", "beautiful", "quiet") + (("old", "new") if name in ("flat", "house") else ()))
        det = "a"  # not "I live in the big town"
        t_en, t_de = noun_phrase(ALL[name], det, "dat", owner=subj, adj=adj)
        wohne = ("wohne", "wohnst", "wohnt", "wohnen", "wohnt")[subj.slot]
        live = "lives" if subj.agree == "3s" else "live"
        return ex([subj.en, live, "in", t_en], [subj.de, wohne, *prep_phrase("in", t_de).split()], ".", "adjective")
    if kind < 0.75:  # "The red jacket is too expensive ." / "Our new neighbour is very nice ."
        group = rng.choice(("clothes", "homes", "people"))
        name, adj, pl = _adj_noun(rng, *{"clothes": ("clothes", "shoes", "bags"), "homes": ("homes", "rooms"),
                                         "people": ("people",)}[group])
        said_en, said_de = rng.choice([s for s in SAID_OF[group] if _fits(adj, s[0])])
        det = rng.choice(("the", "this") if "expensive" in said_en or "cheap" in said_en else ("the", "this", "poss"))
        owner = PERSONS[rng.choice(("I", "du") if ALL[name].each else ("I", "du", "we"))]  # not "our red jacket"
        t_en, t_de = noun_phrase(ALL[name], det, "nom", pl, owner, adj)
        return ex([t_en, "are" if pl else "is", said_en], [t_de, "sind" if pl else "ist", said_de], ".", "adjective")
    if kind < 0.9:  # "I'm looking for a cheap hotel ." / "We have a big garden ."
        looking = rng.random() < 0.5
        groups = ("homes", "places", "things", "furniture") if looking else ("homes", "rooms", "outside", "things")
        name, adj, pl = _adj_noun(rng, *groups)
        t_en, t_de = noun_phrase(ALL[name], "a", "acc", False, subj, adj)
        if looking:
            be = be_form(subj.agree)
            suche = ("suche", "suchst", "sucht", "suchen", "sucht")[subj.slot]
            return ex([*(contract_subject(subj.en, be, rng) if subj.pronoun else [subj.en, be]), "looking for", t_en],
                      [subj.de, suche, t_de], ".", "adjective")
        has = "has" if subj.agree == "3s" else "have"
        return ex([subj.en, has, t_en], [subj.de, HAVE[subj.slot], t_de], ".", "adjective")
    name = rng.choice(sorted(ADJ_MASS))  # "I'd like hot tea ." / "I drink my coffee with cold milk ."
    adj = rng.choice(ADJ_MASS[name].split())
    me = PERSONS[rng.choice(("I", "we"))]
    if rng.random() < 0.5:
        t_en, t_de = noun_phrase(ALL[name], "a", "acc", adj=adj)
        return ex([me.en + "'d like", t_en], [me.de, MODALS["möchte"][me.slot], t_de], ".", "adjective")
    milk_en, milk_de = noun_phrase(ALL["milk"], "a", "dat", adj=rng.choice(("cold", "warm", "hot")))
    drink = rng.choice(("coffee", "tea"))
    d_en, d_de = noun_phrase(ALL[drink], "poss", "acc", owner=me)
    trinke = ("trinke", "trinkst", "trinkt", "trinken", "trinkt")[me.slot]
    return ex([me.en, "drink", d_en, "with", milk_en], [me.de, trinke, d_de, "mit", milk_de], ".", "adjective")


MAKERS = {"health": _health, "dates": _dates, "shop": _shop, "travel": _travel, "adjective": _adjective}
