"""Two-clause sentences and "how often / how long" questions of recipes/everyday/daily_life.py.

daily.py puts the verb last after "weil", "dass" and "wenn". A course soon needs "bevor",
"nachdem" (with the pluperfect when the main clause is past: "Nachdem ich gefrühstückt hatte ,
bin ich aus dem Haus gegangen"), "als" for one time in the past (with the preterite: "Als ich
nach Hause kam , ..."), "ob" and the indirect question ("Weißt du , wann der Zug abfährt ?"),
and "obwohl". The clause after a subordinate one starts with its verb. A noun subject is said
again as a pronoun: "Bevor meine Schwester ins Bett geht , putzt sie sich die Zähne".

English "I've been learning German for two years" is German's present with "seit" and the
dative: "Ich lerne seit zwei Jahren Deutsch"; "How long have you lived here ?" is "Wie lange
wohnst du schon hier ?". How long something takes is "dauern" with the accusative.
"""
from __future__ import annotations

import random

from recipes.everyday.daily_life_grammar import (ADULTS, BE, HAD, HAVE, NOT_YOU, PERSONS, WAS, Clause, Person, again,
                                                 contract_subject, en_verb, ex, phrase, subject)
from recipes.everyday.daily_life_lexicon import (DAYS, HOW_OFTEN, MONTHS, NUMBER_WORDS, ROUTINES, SEASONS,
                                                 UNIT_ACC_PL, UNITS, how_often)
from recipes.everyday.daily_life_verbs import BY_KEY, STATES, VERBS, Verb, bare
from recipes.everyday.german import ONE_ACC
from transformer.data.example import Example




def _comp(verb: Verb, en: str | None) -> int | None:
    return None if en is None else next(i for i, c in enumerate(verb.comps) if c[0] == en)


# A day in order (verb, object, complement); a step is said before one up to three steps later.
MORNING = (("shower", None, None), ("dress", None, None),
           ("have_breakfast", None, None), ("brush", "tooth+", None), ("leave_house", None, ""))
EVENING = (("come_back", None, "home"), ("wash_part", "hand+", None), ("cook", None, "dinner"),
           ("have_dinner", None, "dinner"), ("dishes", None, "the dishes"), ("watch_tv", None, None),
           ("brush", "tooth+", None), ("go", None, "to bed"))


def _step(rng: random.Random, step: tuple, subj: Person, en_tense: str,
          de_tense: str) -> tuple[list[str], Clause]:
    """The English (after the subject) and the German clause of one step of the day; DE_TENSE
    "pluperfect" is the perfect with "hatte" / "war"."""
    key, obj, comp = step
    verb = BY_KEY[key]
    p = phrase(rng, verb, subj, obj=obj, comp=_comp(verb, comp))
    aux, form = en_verb(verb.en, en_tense, subj.agree, False, rng)
    cl = p.tense_clause(subj, "present" if de_tense == "present" else "perfect", False)
    if de_tense == "pluperfect":
        cl.finite = (HAD if cl.finite in HAVE else WAS)[subj.slot]
    return [aux, p.en(form)], cl


def _before_after(rng: random.Random) -> Example:
    """"Before I go to bed , I brush my teeth ." / "After I had breakfast , I left the house ." ->
    "Nachdem ich gefrühstückt hatte , bin ich aus dem Haus gegangen ." (English says the
    after-clause in the simple tense, German one step further back)."""
    day = rng.choice((MORNING, EVENING))
    i = rng.randrange(len(day) - 1)
    j = rng.randrange(i + 1, min(i + 4, len(day)))
    first = subject(rng, p_pronoun=0.75, keys=NOT_YOU)
    past = rng.random() < 0.4
    before = rng.random() < 0.5
    sub_step, main_step = (day[j], day[i]) if before else (day[i], day[j])
    en_tense = "past" if past else "present"
    sub_tense = ("perfect" if before else "pluperfect") if past else ("present" if before else "perfect")
    sub_first = rng.random() < 0.5
    sub_subj, main_subj = (first, again(first)) if sub_first else (again(first), first)
    sub_en, sub_cl = _step(rng, sub_step, sub_subj, en_tense, sub_tense)
    main_en, main_cl = _step(rng, main_step, main_subj, en_tense, "perfect" if past else "present")
    word, de_word = ("before", "bevor") if before else ("after", "nachdem")
    if sub_first:
        return ex([word, sub_subj.en, *sub_en, ",", main_subj.en, *main_en],
                  [de_word, *sub_cl.subordinate(), ",", *main_cl.question()], ".", "clause")
    return ex([main_subj.en, *main_en, word, sub_subj.en, *sub_en],
              [*main_cl.statement(), ",", de_word, *sub_cl.subordinate()], ".", "clause")


# "als": one time in the past, with the preterite (ich du er wir ihr)
KAM = ("kam", "kamst", "kam", "kamen", "kamt")
WACHTE = ("wachte", "wachtest", "wachte", "wachten", "wachtet")
STAND = ("stand", "standest", "stand", "standen", "standet")
ALS_EVENTS = (("came home", ["nach", "Hause"], KAM, "", ("cook", "shower", "watch_tv", "dishes", "tired")),
              ("got to work", ["zur", "Arbeit"], KAM, "", ("answer", "print", "prepare", "tired")),
              ("woke up", [], WACHTE, "auf", ("get_up", "shower", "have_breakfast", "tired")),
              ("got up", [], STAND, "auf", ("shower", "dress", "have_breakfast", "brush")))
# what one did or was as a child: English past ("BE" = was / were), German finite, words,
# participle ("" = the finite is the whole verb)
CHILDHOOD = (("had a dog", HAD, "einen Hund", ""), ("had a cat", HAD, "eine Katze", ""),
             ("lived in Hamburg", HAVE, "in Hamburg", "gewohnt"), ("lived in Vienna", HAVE, "in Wien", "gewohnt"),
             ("played the piano", HAVE, "Klavier", "gespielt"),
             ("played football every day", HAVE, "jeden Tag Fußball", "gespielt"),
             ("walked to school", BE, "zu Fuß zur Schule", "gegangen"),
             ("went to school by bus", BE, "mit dem Bus zur Schule", "gefahren"),
             ("BE often ill", WAS, "oft krank", ""), ("BE afraid of dogs", HAD, "Angst vor Hunden", ""),
             ("lived in the countryside", HAVE, "auf dem Land", "gewohnt"),
             ("read a lot", HAVE, "viel", "gelesen"), ("watched a lot of TV", HAVE, "viel", "ferngesehen"))


def _when_past(rng: random.Random) -> Example:
    subj = PERSONS[rng.choice(("I", "I", "he", "she", "we", "they"))]
    en_be = "were" if subj.agree == "pl" else "was"
    if rng.random() < 0.5:
        en_when, words, pret, prefix, nexts = rng.choice(ALS_EVENTS)
        sub = [subj.de, *words, prefix + pret[subj.slot]]
        follow = rng.choice(nexts)
        if follow == "tired":
            very = rng.random() < 0.4
            main_en = [subj.en, en_be, "very tired" if very else "tired"]
            main_de = [WAS[subj.slot], subj.de, *(["sehr"] if very else []), "müde"]
        else:
            verb = BY_KEY[follow]
            comp = {"cook": "dinner", "get_up": ""}.get(follow)  # not "He got up early when he woke up"
            p = phrase(rng, verb, subj, comp=_comp(verb, comp) if comp is not None else None)
            main_en = [subj.en, p.en(verb.en[2])]
            main_de = p.tense_clause(subj, "perfect", False).question()
        when_en = [subj.en, en_when]
    else:
        age = rng.random()
        if age < 0.4:
            when_en = [subj.en, en_be, "children" if subj.agree == "pl" else "a child"]
            sub = [subj.de, *(["Kinder"] if subj.agree == "pl" else ["ein", "Kind"]), WAS[subj.slot]]
        elif age < 0.7:
            when_en, sub = [subj.en, en_be, "young"], [subj.de, "jung", WAS[subj.slot]]
        else:
            n_en, n_de = NUMBER_WORDS[rng.choice((5, 6, 7, 8, 9, 10, 11, 12))]
            when_en, sub = [subj.en, en_be, n_en], [subj.de, n_de, WAS[subj.slot]]
        did_en, finite, words, part = rng.choice(CHILDHOOD)
        main_en = [subj.en, did_en.replace("BE", en_be)]
        main_de = [finite[subj.slot], subj.de, *words.split(), part]
    if rng.random() < 0.7:
        return ex(["when", *when_en, ",", *main_en], ["als", *sub, ",", *main_de], ".", "clause")
    main_st = [main_de[1], main_de[0], *main_de[2:]]  # "Ich hatte einen Hund , als ich ..."
    return ex([*main_en, "when", *when_en], [*main_st, ",", "als", *sub], ".", "clause")


LEADS = (("I don't know", "ich weiß nicht", "."), ("do you know", "weißt du", "?"),
         ("can you tell me", "kannst du mir sagen", "?"), ("I'm not sure", "ich bin nicht sicher", "."),
         ("I wonder", "ich frage mich", "."), ("I'd like to know", "ich möchte wissen", "."),
         ("she wants to know", "sie will wissen", "."), ("he asks", "er fragt", "."),
         ("excuse me , do you know", "Entschuldigung , wissen Sie", "?"),
         ("excuse me , can you tell me", "Entschuldigung , können Sie mir sagen", "?"))
OB_FACTS = (("the shop is open today", "das Geschäft heute offen ist"),
            ("the train is late", "der Zug Verspätung hat"),
            ("the museum is open on Mondays", "das Museum montags geöffnet ist"),
            ("the bus stops here", "der Bus hier hält"),
            ("there is a bakery near here", "es hier in der Nähe eine Bäckerei gibt"),
            ("we need tickets", "wir Fahrkarten brauchen"), ("she has time tomorrow", "sie morgen Zeit hat"),
            ("the film is good", "der Film gut ist"), ("the water is warm enough", "das Wasser warm genug ist"),
            ("the tickets are expensive", "die Fahrkarten teuer sind"), ("it is going to rain", "es regnen wird"),
            ("he is at home", "er zu Hause ist"), ("they are coming to the party", "sie zur Party kommen"),
            ("the doctor has time today", "der Arzt heute Zeit hat"))
WH_FACTS = (("where my keys are", "wo meine Schlüssel sind"), ("when the train leaves", "wann der Zug abfährt"),
            ("how much the ticket costs", "wie viel die Fahrkarte kostet"),
            ("what time the shop opens", "wann das Geschäft öffnet"), ("where the station is", "wo der Bahnhof ist"),
            ("why she is sad", "warum sie traurig ist"), ("where he lives", "wo er wohnt"),
            ("how long the film lasts", "wie lange der Film dauert"), ("who that is", "wer das ist"),
            ("what the word means", "was das Wort bedeutet"), ("where the toilets are", "wo die Toiletten sind"))
FACT_VERBS = [v for v in VERBS if not v.tags & {"self", "plural"} and not v.en[0].startswith("be ")]


def _if(rng: random.Random) -> Example:
    """"I don't know if he locked the door ." -> "Ich weiß nicht , ob er die Tür abgeschlossen
    hat ."; "Do you know when the train leaves ?" -> "Weißt du , wann der Zug abfährt ?"."""
    lead_en, lead_de, end = rng.choice(LEADS)
    if lead_en == "I'm not sure" and rng.random() < 0.25:
        lead_en = "I am not sure"
    kind = rng.random()
    if kind < 0.3:
        fact_en, fact_de = rng.choice(OB_FACTS)
        en, de = [rng.choice(("if", "if", "whether")), fact_en], ["ob", fact_de]
    elif kind < 0.55:  # a stranger is not asked "where my keys are"
        en, de = rng.choice(WH_FACTS[1:5] + WH_FACTS[7:] if lead_de.startswith("Entschuldigung") else WH_FACTS)
        en, de = [en], [de]
    else:
        if lead_de.startswith("Entschuldigung"):  # a stranger is not asked about one's family
            lead_en, lead_de, end = rng.choice(LEADS[:8])
        # about someone else: not "She wants to know when she opened the window"
        verb = rng.choice(FACT_VERBS)  # and not what we know of ourselves: "... if we have already woken up"
        others = tuple(k for k in ("he", "she", "we", "they") if not lead_en.startswith(k + " ")
                       and not (k == "we" and verb.key in ROUTINES))
        subj = subject(rng, p_pronoun=0.75, keys=others)
        while subj.owner in ("I", "we"):  # not "Can you tell me whether my parents moved ?": I would know
            subj = subject(rng, p_pronoun=0.75, keys=others)
        wh = rng.random() < 0.35
        already = not wh and rng.random() < 0.4  # not "if we have already left at eight", "when she left early"
        p = phrase(rng, verb, subj, comp=bare(verb) if wh or already else None)
        cl = p.tense_clause(subj, "perfect", False, ["schon"] if already else [])
        if already:
            aux, form = en_verb(verb.en, "perfect", subj.agree, False, rng)
            clause_en = [subj.en, aux, "already", p.en(form)]
        else:
            clause_en = [subj.en, p.en(verb.en[2])]
        if wh:
            wh_en, wh_de = rng.choice((("when", "wann"), ("why", "warum")))
            en, de = [wh_en, *clause_en], [wh_de, *cl.subordinate()]
        else:
            en, de = [rng.choice(("if", "if", "whether")), *clause_en], ["ob", *cl.subordinate()]
    return ex([lead_en, *en], [lead_de, ",", *de], end, "clause")


ALTHOUGH_DOING = (("go", "for a walk"), ("go", "swimming"), ("go", "to the party"), ("go", "dancing"),
                  ("walk", "to school"), ("walk", "to work"), ("go", "shopping"), ("go", "to the gym"),
                  ("ride", "to work by bus"), ("ride", "into town by tram"))
ALTHOUGH_WEATHER = (("it's raining", "es regnet", "it was raining", "es geregnet hat"),
                    ("it's cold", "es kalt ist", "it was cold", "es kalt war"),
                    ("it's snowing", "es schneit", "it was snowing", "es geschneit hat"),
                    ("it's late", "es spät ist", "it was late", "es spät war"))


def _although(rng: random.Random) -> Example:
    """"We went for a walk although it was raining ." -> "Wir sind spazieren gegangen , obwohl
    es geregnet hat ."; the present with English -ing: "I'm going to work although I'm ill"."""
    first = subject(rng, p_pronoun=0.75, keys=NOT_YOU)
    past = rng.random() < 0.6
    key, comp = rng.choice([d for d in ALTHOUGH_DOING if not (first.key in ADULTS and "school" in (d[1] or ""))])
    verb = BY_KEY[key]
    if rng.random() < 0.5:
        now_en, now_de, then_en, then_de = rng.choice(ALTHOUGH_WEATHER)
        cond_en, cond_de = ([then_en] if past else [now_en]), (then_de if past else now_de).split()
        cond_first = rng.random() < 0.3
        cond_subj, main_subj = (None, first)
    else:
        cond_first = rng.random() < 0.3
        main_subj = again(first) if cond_first else first
        cond_subj = first if cond_first else again(first)
        adj_en, adj_de = rng.choice((("ill", "krank"), ("tired", "müde")))
        be = "were" if past and cond_subj.agree == "pl" else "was" if past else \
            {"I": "am", "3s": "is", "pl": "are"}[cond_subj.agree]
        cond_en = [*(contract_subject(cond_subj.en, be, rng) if cond_subj.pronoun else [cond_subj.en, be]), adj_en]
        cond_de = [cond_subj.de, adj_de, (WAS if past else BE)[cond_subj.slot]]
    p = phrase(rng, verb, main_subj, comp=_comp(verb, comp))
    cl = p.tense_clause(main_subj, "perfect" if past else "present", False)
    if past:
        main_en = [main_subj.en, p.en(verb.en[2])]
    else:
        aux, form = en_verb(verb.en, "progressive", main_subj.agree, False, rng)
        main_en = [*(contract_subject(main_subj.en, aux, rng) if main_subj.pronoun else [main_subj.en, aux]),
                   p.en(form)]
    word = rng.choice(("although", "although", "even though"))
    if cond_first:
        return ex([word, *cond_en, ",", *main_en], ["obwohl", *cond_de, ",", *cl.question()], ".", "clause")
    return ex([*main_en, word, *cond_en], [*cl.statement(), ",", "obwohl", *cond_de], ".", "clause")


def clause_frame(rng: random.Random) -> Example:
    return rng.choice((_before_after, _before_after, _when_past, _if, _if, _although))(rng)


# -- how often, how long, since when ------------------------------------------------------------
# what one has done "for" a while: English base, participle, -ing ("" = no -ing form), German
# present forms, what follows it (English, German), whether it is short (minutes, hours);
# an activity goes on, said with "have been -ing" ("I've been playing the guitar since May")
ACTIVITIES = ("wait", "learn", "play")
SINCE = (("live", "lived", "living", ("wohne", "wohnst", "wohnt", "wohnen", "wohnt"),
          (("here", "hier"), ("in Berlin", "in Berlin"), ("in this flat", "in dieser Wohnung"),
           ("in Hamburg", "in Hamburg")), False),
         ("work", "worked", "working", ("arbeite", "arbeitest", "arbeitet", "arbeiten", "arbeitet"),
          (("here", "hier"), ("at a bank", "bei einer Bank"), ("in this office", "in diesem Büro")), False),
         ("learn", "learned", "learning", ("lerne", "lernst", "lernt", "lernen", "lernt"),
          (("German", "Deutsch"), ("English", "Englisch"), ("Spanish", "Spanisch")), False),
         ("play", "played", "playing", ("spiele", "spielst", "spielt", "spielen", "spielt"),
          (("the guitar", "Gitarre"), ("the piano", "Klavier"), ("tennis", "Tennis")), False),
         ("wait", "waited", "waiting", ("warte", "wartest", "wartet", "warten", "wartet"),
          (("", ""), ("for the bus", "auf den Bus"), ("for the train", "auf den Zug")), True),
         ("be ill", "been ill", "", BE, (("", "krank"),), False))


def _duration(rng: random.Random, short: bool, ill: bool = False) -> tuple[str, str]:
    """"for three years" -> "seit drei Jahren", "since Monday" -> "seit Montag"; ILL: days, a
    week, since a day ("seit gestern")."""
    if ill:
        day_en, day_de, _ = rng.choice(DAYS)
        n_en, n_de = NUMBER_WORDS[rng.choice((2, 3, 4, 5))]
        return rng.choice(((f"since {day_en}", f"seit {day_de}"), ("since yesterday", "seit gestern"),
                           (f"for {n_en} days", f"seit {n_de} Tagen"), ("for a week", "seit einer Woche")))
    if not short and rng.random() < 0.35:
        since = rng.choice((
            (lambda: (lambda d: (f"since {d[0]}", f"seit {d[1]}"))(rng.choice(DAYS))),
            (lambda: (lambda m: (f"since {m[0]}", f"seit {m[1]}"))(rng.choice(MONTHS))),
            (lambda: (lambda y: (f"since {y}", f"seit {y}"))(rng.randrange(2005, 2024))),
            (lambda: ("since last year", "seit letztem Jahr")), (lambda: ("since last week", "seit letzter Woche")),
            (lambda: (lambda s: (f"since last {s[0]}", f"seit letztem {s[1]}"))(rng.choice(SEASONS)))))
        return since()
    units = UNITS[:2] if short else UNITS[3:]  # minutes and hours, or weeks, months and years
    one_en, many_en, one_de, many_de, g = rng.choice(units)
    if rng.random() < 0.25 and one_en != "minute":  # not "I've been waiting for a minute"
        art = {"m": "einem", "n": "einem", "f": "einer"}[g]
        return f"for {'an' if one_en == 'hour' else 'a'} {one_en}", f"seit {art} {one_de}"
    n = rng.choice((5, 10, 15, 20, 30, 45) if one_en == "minute" else (2, 3) if short else (2, 3, 4, 5, 6, 8, 10))
    n_en, n_de = NUMBER_WORDS[n]
    return f"for {n_en} {many_en}", f"seit {n_de} {many_de}"


def _since(rng: random.Random) -> Example:
    base, pp, ing, forms, rests, short = rng.choice(SINCE)
    rest_en, rest_de = rng.choice(rests)
    if base == "be ill" and rng.random() < 0.3:
        base, pp, rest_de = "be married", "been married", "verheiratet"
    subj = PERSONS[rng.choice(("I", "du", "he", "she", "we", "they"))] if base != "be married" else \
        PERSONS[rng.choice(("we", "they"))]
    post = rest_de.split()
    tail = [rest_de] if base.startswith("be ") else []
    if tail:
        post = []
    if rng.random() < 0.35 and subj.key not in ("I", "we"):  # "How long have you been learning German ?"
        have = "has" if subj.agree == "3s" else "have"
        verb_en = f"been {ing}" if ing and (base in ACTIVITIES or rng.random() < 0.6) else pp
        cl = Clause(subj.de, forms[subj.slot], [], ["schon"], [], [], post, tail)
        return ex(["how long", have, subj.en, verb_en, rest_en], cl.question(["wie", "lange"]), "?", "how")
    dur_en, dur_de = _duration(rng, short, base == "be ill")
    have = "has" if subj.agree == "3s" else "have"
    verb_en = f"been {ing}" if ing and (base in ACTIVITIES or rng.random() < 0.6) else pp
    cl = Clause(subj.de, forms[subj.slot], [], dur_de.split(), [], [], post, tail)
    return ex([*contract_subject(subj.en, have, rng), verb_en, rest_en, dur_en], cl.statement(), ".", "how")


# how long things take: English, German subject, English verb, durations (unit, numbers)
LASTING = (("the journey", "die Fahrt", "take", (("hour", (1, 2, 3, 4)), ("minute", (20, 30, 40, 45)))),
           ("the flight", "der Flug", "take", (("hour", (1, 2, 3, 5)),)),
           ("the film", "der Film", "last", (("hour", (2, 3)),)),
           ("the course", "der Kurs", "last", (("week", (1, 2, 4, 6)), ("month", (1, 2, 3, 6)))),
           ("the meeting", "die Besprechung", "last", (("hour", (1, 2)), ("minute", (30, 45)))),
           ("the concert", "das Konzert", "last", (("hour", (2, 3)),)),
           ("the lesson", "der Unterricht", "last", (("minute", (45,)), ("hour", (1,)))),
           ("the exam", "die Prüfung", "last", (("hour", (1, 2, 3)),)))
ACC_ONE = ONE_ACC


def _lasts(rng: random.Random) -> Example:
    en_subj, de_subj, take, units = rng.choice(LASTING)
    if rng.random() < 0.3:
        return ex(["how long does", en_subj, take], ["wie", "lange", "dauert", de_subj], "?", "how")
    unit, numbers = rng.choice(units)
    one_en, many_en, one_de, many_de, g = next(u for u in UNITS if u[0] == unit)
    n = rng.choice(numbers)
    if n == 1:
        dur_en, dur_de = f"{'an' if unit == 'hour' else 'a'} {one_en}", f"{ACC_ONE[g]} {one_de}"
    else:
        dur_en, dur_de = f"{NUMBER_WORDS[n][0]} {many_en}", f"{NUMBER_WORDS[n][1]} {UNIT_ACC_PL[one_de]}"
    if en_subj == "the journey" and rng.random() < 0.4:  # "It takes two hours by train ."
        how_en, how_de = rng.choice((("by train", "mit dem Zug"), ("by bus", "mit dem Bus"),
                                     ("by car", "mit dem Auto"), ("by bike", "mit dem Fahrrad")))
        return ex(["it takes", dur_en, how_en], [how_de, "dauert", "es", dur_de], ".", "how")
    return ex([en_subj, take + "s", dur_en], [de_subj, "dauert", dur_de], ".", "how")


OFTEN = [v for v in VERBS if v.tags & {"home", "leisure"} and "negonly" not in v.tags
         and not v.en[0].startswith("be ") and v.key not in ("forget", "give", "lend", "show", "give_back")]


def _often(rng: random.Random) -> Example:
    """"How often do you go swimming ?" -> "Wie oft gehst du schwimmen ?", "She feeds the cat twice a
    day ."; of what is done so many times a week (not "How often does she get up ?")."""
    verb = rng.choice(OFTEN)
    ask = rng.random() < 0.5
    subj = PERSONS[rng.choice(("du", "du", "he", "she", "they"))] if ask else subject(rng, verb)
    p = phrase(rng, verb, subj, habit=True)
    fits = how_often(verb.key, p.en_tmpl)
    if not fits:
        return _often(rng)
    if ask:
        aux, form = en_verb(verb.en, "present", subj.agree, False, rng, question=True)
        cl = p.tense_clause(subj, "present", False)
        return ex(["how often", aux, subj.en, p.en(form)], cl.question(["wie", "oft"]), "?", "how")
    f_en, f_de = rng.choice(fits)
    aux, form = en_verb(verb.en, "present", subj.agree, False, rng)
    cl = p.tense_clause(subj, "present", False, f_de.split())
    return ex([subj.en, p.en(form), f_en], cl.statement(), ".", "how")


HABITS = {k.split(":")[0] for k in HOW_OFTEN}  # what is done again and again
# not "When did you remember your friend ?", "Why did he understand the question ?"
WH_VERBS = [v for v in VERBS if not v.tags & {"plural", "nopast"} and v.key not in STATES]


def _when_why(rng: random.Random) -> Example:
    """"When did you arrive ?" -> "Wann bist du angekommen ?", "Why didn't you call me ?" ->
    "Warum hast du mich nicht angerufen ?"."""
    verb = rng.choice(WH_VERBS)
    subj = PERSONS[rng.choice(("du", "du", "he", "she", "they"))] if rng.random() < 0.8 else subject(rng, verb, 0)
    wh_en, wh_de = rng.choice((("when", "wann"), ("why", "warum")))
    neg = wh_en == "why" and rng.random() < 0.4 and "past" not in verb.tags
    # not "When do you repair your bike ?", "Why does he walk his dog ?", "When did you leave at eight ?"
    past = rng.random() < 0.6 or "past" in verb.tags or verb.key not in HABITS or wh_en == "why"
    p = phrase(rng, verb, subj, neg, habit=not past, comp=bare(verb) if wh_en == "when" else None)
    aux, form = en_verb(verb.en, "past" if past else "present", subj.agree, neg, rng, question=True)
    cl = p.tense_clause(subj, "perfect" if past else "present", neg)
    return ex([wh_en, aux, subj.en, p.en(form)], cl.question([wh_de]), "?", "how")


def how_frame(rng: random.Random) -> Example:
    return rng.choice((_often, _since, _since, _lasts, _when_why))(rng)
