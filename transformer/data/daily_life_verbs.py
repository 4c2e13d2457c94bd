"""The verbs of transformer/data/daily_life.py, each with the objects it is said with.

A verb lists the nouns it takes by name ("water" takes plants and flowers, nothing else), so
no sentence waters a table. Every German form is written out: the five present forms (ich, du,
er, wir, ihr), the du-imperative, the participle and its auxiliary, a separable prefix, and
how the object is governed: a case, or a preposition with its case ("sich freuen auf" + acc).
The ihr-imperative is the ihr-form ("räumt auf"), the Sie-imperative the wir-form + "Sie".
"""
from __future__ import annotations

from dataclasses import dataclass

from transformer.data.daily_life_lexicon import ALL


@dataclass(frozen=True)
class Verb:
    key: str
    en: tuple[str, ...]  # base, 3rd singular, past, past participle, -ing; "be ..." is said
    #                      with am / is / are ("be late", "be interested in")
    de: tuple[str, ...]  # present ich, du, er, wir, ihr, without the separable prefix
    inf: str  # "aufräumen"
    part: str  # "aufgeräumt"
    aux: str  # "haben" | "sein"
    imp: str  # du-imperative without the prefix ("räum"); "" when nobody is told to
    prefix: str  # "auf"; "" when not separable
    objects: tuple[str, ...]  # noun names; "+" the plural ("plant+"); "P" a personal pronoun
    dets: tuple[str, ...]  # "the", "poss" (the subject's), "a" (or none for mass / plural),
    #                        "body" (English possessive, German article + dative reflexive)
    case: str  # "acc", "dat", or a preposition and its case: "auf+acc", "bei+dat"
    comps: tuple[tuple[str, str, str], ...]  # (English, German, "mid" | "post") after the object
    refl: str  # "" | "acc" ("sich beeilen") | "dat" ("sich die Hände waschen")
    recipient: str  # "" | "opt" | "req": a dative pronoun ("Schick mir die Datei")
    tmpl: str  # English word order: {V} verb, {R} " me", {O} object, {TO} " to me", {C} complement
    tags: frozenset[str]  # domain (home office school travel leisure self) and limits:
    #   dont: a negative imperative makes sense; past: only said of the past (hurt oneself);
    #   prog: English says the present with -ing ("I'm looking forward to"); noprog: never -ing;
    #   nopast: said in the present only ("He's interested in art");
#   noperf: no "have just / already / never" ("I haven't felt ill yet");
#   plural: a plural subject only ("we meet"); negonly: told only not to ("Don't forget ..."),
#   and planned only not to ("I won't forget"); noplan: a feeling or what just happens, never
#   planned ("We will look forward to ..."); care: the body's care, told to a child or friend

    @property
    def ihr_imp(self) -> str:
        return self.de[4]


def _comps(spec: str) -> tuple[tuple[str, str, str], ...]:
    """"to work:zur Arbeit, the table:^den Tisch": "^" puts the German before "nicht"."""
    out = []
    for item in spec.split(",") if spec else ():
        en, de = item.split(":")
        slot = "mid" if de.startswith("^") else "post"
        out.append((en.strip(), de.strip().lstrip("^"), slot))
    return tuple(out)


def _v(key: str, en: str, de: str, rest: str, objs: str = "", dets: str = "the poss",
       case: str = "acc", comps: str = "", refl: str = "", rec: str = "",
       tmpl: str = "{V}{R} {O} {C}", tags: str = "") -> Verb:
    inf, part, aux, imp, *prefix = rest.split()
    return Verb(key, tuple(en.split("|")), tuple(de.split()), inf, part, aux,
                "" if imp == "-" else imp, prefix[0] if prefix else "", tuple(objs.split()),
                tuple(dets.split()), case, _comps(comps), refl, rec, tmpl, frozenset(tags.split()))


_MACHE = "mache machst macht machen macht"
_RAEUME = "räume räumst räumt räumen räumt"
_SWITCHED = "light TV radio computer heating oven lamp dishwasher washing_machine"
PEOPLE = "mother father sister brother grandma grandpa friend neighbour"
_MEANS = (("by bus", "mit dem Bus"), ("by train", "mit dem Zug"), ("by car", "mit dem Auto"),
          ("by tram", "mit der Straßenbahn"), ("by underground", "mit der U-Bahn"))
_GOALS = (("to work", "zur Arbeit"), ("to school", "zur Schule"), ("into town", "in die Stadt"),
          ("home", "nach Hause"))
# "go to work by bus" -> "mit dem Bus zur Arbeit fahren": German says how before where
_RIDES = ", ".join(f"{g} {m}:{md} {gd}" for g, gd in _GOALS for m, md in _MEANS)

VERBS = (
    # -- the home -------------------------------------------------------------------------------
    _v("tidy", "tidy|tidies|tidied|tidied|tidying", _RAEUME, "aufräumen aufgeräumt haben räum auf",
       "room bedroom desk wardrobe kitchen living_room garage cellar", tags="home"),
    _v("clean", "clean|cleans|cleaned|cleaned|cleaning", "putze putzt putzt putzen putzt",
       "putzen geputzt haben putz", "kitchen bathroom window+ oven fridge car shoe+ floor",
       tags="home"),
    _v("dishes", "do|does|did|done|doing", "wasche wäschst wäscht waschen wascht",
       "abwaschen abgewaschen haben wasch ab", comps="the dishes:", tags="home"),
    _v("rubbish", "take out|takes out|took out|taken out|taking out",
       "bringe bringst bringt bringen bringt", "rausbringen rausgebracht haben bring raus",
       "rubbish", dets="the", tags="home"),
    _v("water", "water|waters|watered|watered|watering", "gieße gießt gießt gießen gießt",
       "gießen gegossen haben gieß", "plant+ flower+", tags="home dont"),
    _v("set", "set|sets|set|set|setting", "decke deckst deckt decken deckt",
       "decken gedeckt haben deck", comps="the table:^den Tisch", tags="home"),
    _v("clear", "clear|clears|cleared|cleared|clearing", _RAEUME,
       "abräumen abgeräumt haben räum ab", comps="the table:^den Tisch", tags="home"),
    _v("make_bed", "make|makes|made|made|making", _MACHE, "machen gemacht haben mach", "bed",
       tags="home"),
    _v("washing", "do|does|did|done|doing", "wasche wäschst wäscht waschen wascht",
       "waschen gewaschen haben wasch", comps="the washing:^die Wäsche", tags="home"),
    _v("hang", "hang up|hangs up|hung up|hung up|hanging up", "hänge hängst hängt hängen hängt",
       "aufhängen aufgehängt haben häng auf", "washing coat jacket towel+", tags="home"),
    _v("feed", "feed|feeds|fed|fed|feeding", "füttere fütterst füttert füttern füttert",
       "füttern gefüttert haben füttere", "dog cat", tags="home"),
    _v("walk_dog", "walk|walks|walked|walked|walking", "führe führst führt führen führt",
       "ausführen ausgeführt haben führ aus", "dog", tags="home"),
    _v("vacuum", "vacuum|vacuums|vacuumed|vacuumed|vacuuming", "sauge saugst saugt saugen saugt",
       "saugen gesaugt haben saug", "living_room bedroom hall carpet car", tags="home"),
    _v("on", "switch on|switches on|switched on|switched on|switching on", _MACHE,
       "anmachen angemacht haben mach an", _SWITCHED, dets="the", tags="home"),
    _v("off", "switch off|switches off|switched off|switched off|switching off", _MACHE,
       "ausmachen ausgemacht haben mach aus", _SWITCHED + " phone", tags="home dont"),
    _v("open", "open|opens|opened|opened|opening", _MACHE, "aufmachen aufgemacht haben mach auf",
       "window door bottle fridge drawer box window+", dets="the", tags="home dont"),
    _v("close", "close|closes|closed|closed|closing", _MACHE, "zumachen zugemacht haben mach zu",
       "window door fridge drawer window+", dets="the", tags="home dont"),
    _v("lock", "lock|locks|locked|locked|locking", "schließe schließt schließt schließen schließt",
       "abschließen abgeschlossen haben schließ ab", "door car bike garage", tags="home dont"),
    _v("empty", "empty|empties|emptied|emptied|emptying", _RAEUME,
       "ausräumen ausgeräumt haben räum aus", "dishwasher washing_machine", dets="the",
       tags="home"),
    _v("load", "load|loads|loaded|loaded|loading", _RAEUME, "einräumen eingeräumt haben räum ein",
       "dishwasher", dets="the", tags="home"),
    _v("iron", "iron|irons|ironed|ironed|ironing", "bügle bügelst bügelt bügeln bügelt",
       "bügeln gebügelt haben bügle", "shirt shirt+ blouse dress", tags="home"),
    _v("repair", "repair|repairs|repaired|repaired|repairing",
       "repariere reparierst repariert reparieren repariert", "reparieren repariert haben reparier",
       "bike car lamp TV washing_machine heating computer chair", tags="home"),
    _v("put_away", "put away|puts away|put away|put away|putting away", _RAEUME,
       "wegräumen weggeräumt haben räum weg", "book+ shoe+ glass+ plate+ cup+", tags="home"),
    _v("bake", "bake|bakes|baked|baked|baking", "backe backst backt backen backt",
       "backen gebacken haben back", "cake bread", dets="a", tags="home"),
    _v("cook", "cook|cooks|cooked|cooked|cooking", "koche kochst kocht kochen kocht",
       "kochen gekocht haben koch", comps="dinner:^das Abendessen, lunch:^das Mittagessen",
       tags="home"),
    _v("breakfast", "make|makes|made|made|making", _MACHE, "machen gemacht haben mach",
       comps="breakfast:^das Frühstück", tags="home"),
    _v("forget", "forget|forgets|forgot|forgotten|forgetting",
       "vergesse vergisst vergisst vergessen vergesst", "vergessen vergessen haben vergiss",
       "key umbrella phone ticket homework bag wallet", tags="home dont negonly noprog"),
    _v("give", "give|gives|gave|given|giving", "gebe gibst gibt geben gebt",
       "geben gegeben haben gib", "key book pen umbrella ticket", rec="req", tags="home"),
    _v("give_back", "give|gives|gave|given|giving", "gebe gibst gibt geben gebt",
       "zurückgeben zurückgegeben haben gib zurück", "key book pen umbrella bike",
       dets="the", rec="opt", tmpl="{V}{R} back {O}", tags="home"),
    _v("lend", "lend|lends|lent|lent|lending", "leihe leihst leiht leihen leiht",
       "leihen geliehen haben leih", "bike car umbrella pen book", dets="poss", rec="req",
       tags="home"),
    _v("show", "show|shows|showed|shown|showing", "zeige zeigst zeigt zeigen zeigt",
       "zeigen gezeigt haben zeig", "photo+ flat garden room", dets="poss", rec="req",
       tags="home"),
    # -- work and school ------------------------------------------------------------------------
    _v("send", "send|sends|sent|sent|sending", "schicke schickst schickt schicken schickt",
       "schicken geschickt haben schick", "email letter message file document report photo+ form",
       dets="the", rec="opt", tags="office"),
    _v("print", "print|prints|printed|printed|printing", "drucke druckst druckt drucken druckt",
       "ausdrucken ausgedruckt haben druck aus", "document letter report email photo+ ticket form",
       dets="the", tags="office"),
    _v("sign", "sign|signs|signed|signed|signing",
       "unterschreibe unterschreibst unterschreibt unterschreiben unterschreibt",
       "unterschreiben unterschrieben haben unterschreib", "contract letter form", dets="the",
       tags="office dont"),
    _v("fill", "fill in|fills in|filled in|filled in|filling in", "fülle füllst füllt füllen füllt",
       "ausfüllen ausgefüllt haben füll aus", "form", dets="the", tags="office"),
    _v("save", "save|saves|saved|saved|saving",
       "speichere speicherst speichert speichern speichert", "speichern gespeichert haben speichere",
       "file document", dets="the", tags="office"),
    _v("delete", "delete|deletes|deleted|deleted|deleting", "lösche löschst löscht löschen löscht",
       "löschen gelöscht haben lösch", "file email message photo+ photo app", dets="the",
       tags="office dont"),
    _v("prepare", "prepare|prepares|prepared|prepared|preparing",
       "bereite bereitest bereitet bereiten bereitet", "vorbereiten vorbereitet haben bereite vor",
       "presentation meeting", tags="office"),
    _v("answer", "answer|answers|answered|answered|answering",
       "beantworte beantwortest beantwortet beantworten beantwortet",
       "beantworten beantwortet haben beantworte", "email letter question message", dets="the",
       tags="office"),
    _v("work", "work|works|worked|worked|working", "arbeite arbeitest arbeitet arbeiten arbeitet",
       "arbeiten gearbeitet haben arbeite",
       comps="from home:von zu Hause aus, late:lange, at a bank:bei einer Bank,"
             " in an office:in einem Büro, in a hospital:in einem Krankenhaus",
       tags="office noprog"),
    _v("explain", "explain|explains|explained|explained|explaining",
       "erkläre erklärst erklärt erklären erklärt", "erklären erklärt haben erklär",
       "exercise word rule question", dets="the", rec="opt", tmpl="{V} {O}{TO}", tags="school"),
    _v("repeat", "repeat|repeats|repeated|repeated|repeating",
       "wiederhole wiederholst wiederholt wiederholen wiederholt",
       "wiederholen wiederholt haben wiederhol", "question sentence word", dets="the",
       tags="school"),
    _v("understand", "understand|understands|understood|understood|understanding",
       "verstehe verstehst versteht verstehen versteht", "verstehen verstanden haben -",
       "exercise question word rule text", dets="the", tags="school noprog"),
    _v("pass", "pass|passes|passed|passed|passing", "bestehe bestehst besteht bestehen besteht",
       "bestehen bestanden haben -", "exam test", tags="school noprog"),
    _v("hand_in", "hand in|hands in|handed in|handed in|handing in", "gebe gibst gibt geben gebt",
       "abgeben abgegeben haben gib ab", "essay test report form homework", tags="school"),
    _v("look_up", "look|looks|looked|looked|looking", "schlage schlägst schlägt schlagen schlagt",
       "nachschlagen nachgeschlagen haben schlag nach", "word word+", dets="the",
       comps="in the dictionary:im Wörterbuch", tmpl="{V} up {O} {C}", tags="school"),
    _v("correct", "correct|corrects|corrected|corrected|correcting",
       "korrigiere korrigierst korrigiert korrigieren korrigiert",
       "korrigieren korrigiert haben korrigier", "test+ essay+ mistake+ homework", tags="school"),
    _v("study", "study for|studies for|studied for|studied for|studying for",
       "lerne lernst lernt lernen lernt", "lernen gelernt haben lern", "exam test", case="für+acc",
       tags="school"),
    _v("listen", "listen to|listens to|listened to|listened to|listening to",
       "höre hörst hört hören hört", "zuhören zugehört haben hör zu", "teacher P", case="dat",
       tags="school dont noperf noplan"),
    # -- people ---------------------------------------------------------------------------------
    _v("call", "call|calls|called|called|calling", "rufe rufst ruft rufen ruft",
       "anrufen angerufen haben ruf an", PEOPLE + " doctor P", tags="people"),
    _v("help", "help|helps|helped|helped|helping", "helfe hilfst hilft helfen helft",
       "helfen geholfen haben hilf", PEOPLE + " P", case="dat",
       comps="with the homework:bei den Hausaufgaben, in the garden:im Garten,"
             " in the kitchen:in der Küche", tags="people"),
    _v("pick_up", "pick|picks|picked|picked|picking", "hole holst holt holen holt",
       "abholen abgeholt haben hol ab", PEOPLE + " P",
       comps="from school:von der Schule, at the station:am Bahnhof,"
             " from the airport:vom Flughafen", tmpl="{V} {O} up {C}", tags="people"),
    # -- travel ---------------------------------------------------------------------------------
    _v("ride", "go|goes|went|gone|going", "fahre fährst fährt fahren fahrt",
       "fahren gefahren sein fahr", comps=_RIDES, tags="travel"),
    _v("drive", "drive|drives|drove|driven|driving", "fahre fährst fährt fahren fahrt",
       "fahren gefahren sein fahr",
       comps="to work:mit dem Auto zur Arbeit, into town:mit dem Auto in die Stadt,"
             " to the airport:mit dem Auto zum Flughafen", tags="travel"),
    _v("walk", "walk|walks|walked|walked|walking", "gehe gehst geht gehen geht",
       "gehen gegangen sein geh",
       comps="to work:zu Fuß zur Arbeit, to school:zu Fuß zur Schule, home:zu Fuß nach Hause",
       tags="travel"),
    _v("fly", "fly|flies|flew|flown|flying", "fliege fliegst fliegt fliegen fliegt",
       "fliegen geflogen sein -",
       comps="to Spain:nach Spanien, to London:nach London, to Rome:nach Rom,"
             " to Greece:nach Griechenland, to Switzerland:in die Schweiz,"
             " to Turkey:in die Türkei, to the USA:in die USA", tags="travel"),
    _v("arrive", "arrive|arrives|arrived|arrived|arriving", "komme kommst kommt kommen kommt",
       "ankommen angekommen sein - an",
       comps="at the station:am Bahnhof, at the airport:am Flughafen, in Berlin:in Berlin,"
             " at the hotel:im Hotel", tags="travel noprog"),
    _v("leave", "leave|leaves|left|left|leaving", "fahre fährst fährt fahren fahrt",
       "losfahren losgefahren sein fahr los", comps=":, early:früh, at eight:um acht",
       tags="travel noprog"),
    _v("change", "change trains|changes trains|changed trains|changed trains|changing trains",
       "steige steigst steigt steigen steigt", "umsteigen umgestiegen sein steig um",
       comps="in Frankfurt:in Frankfurt, in Cologne:in Köln, at the main station:am Hauptbahnhof",
       tags="travel"),
    _v("get_on", "get on|gets on|got on|got on|getting on", "steige steigst steigt steigen steigt",
       "einsteigen eingestiegen sein steig ein", "bus train tram", dets="the", case="in+acc",
       tags="travel"),
    _v("get_off", "get off|gets off|got off|got off|getting off",
       "steige steigst steigt steigen steigt", "aussteigen ausgestiegen sein steig aus",
       comps="at the next stop:an der nächsten Haltestelle, at the station:am Bahnhof, here:hier",
       tags="travel"),
    _v("come_back", "come back|comes back|came back|come back|coming back",
       "komme kommst kommt kommen kommt", "zurückkommen zurückgekommen sein komm zurück",
       comps=":, home:nach Hause, from work:von der Arbeit, from holiday:aus dem Urlaub",
       tags="travel"),
    _v("move", "move|moves|moved|moved|moving", "ziehe ziehst zieht ziehen zieht",
       "umziehen umgezogen sein - um",
       comps="to Hamburg:nach Hamburg, to Berlin:nach Berlin, to Munich:nach München, house:",
       tags="travel noprog"),
    _v("miss", "miss|misses|missed|missed|missing", "verpasse verpasst verpasst verpassen verpasst",
       "verpassen verpasst haben verpass", "bus train flight", tags="travel dont negonly noprog"),
    _v("take", "take|takes|took|taken|taking", "nehme nimmst nimmt nehmen nehmt",
       "nehmen genommen haben nimm", "bus train tram", dets="the",
       comps=":, to work:zur Arbeit, to school:zur Schule, into town:in die Stadt", tags="travel"),
    _v("book", "book|books|booked|booked|booking", "buche buchst bucht buchen bucht",
       "buchen gebucht haben buch", "flight hotel_room trip", dets="the a", tags="travel"),
    _v("pay", "pay|pays|paid|paid|paying", "bezahle bezahlst bezahlt bezahlen bezahlt",
       "bezahlen bezahlt haben bezahl", "bill rent", dets="the", tags="travel"),
    # -- free time and the day ------------------------------------------------------------------
    _v("go", "go|goes|went|gone|going", "gehe gehst geht gehen geht", "gehen gegangen sein geh",
       comps="for a walk:spazieren, to the gym:ins Fitnessstudio, dancing:tanzen,"
             " to the dentist:zum Zahnarzt, into the garden:in den Garten, to bed:ins Bett,"
             " to the supermarket:zum Supermarkt, to the bakery:zur Bäckerei, swimming:schwimmen,"
             " shopping:einkaufen, to the party:zur Party",
       tags="leisure"),
    _v("get_up", "get up|gets up|got up|got up|getting up", "stehe stehst steht stehen steht",
       "aufstehen aufgestanden sein steh auf", comps=":, early:früh", tags="leisure care"),
    _v("leave_house", "leave the house|leaves the house|left the house|left the house|leaving the house",
       "gehe gehst geht gehen geht", "gehen gegangen sein geh", comps=":aus dem Haus",
       tags="leisure noprog"),
    _v("watch_tv", "watch TV|watches TV|watched TV|watched TV|watching TV",
       "sehe siehst sieht sehen seht", "fernsehen ferngesehen haben sieh fern", tags="leisure"),
    _v("listen_music", "listen to|listens to|listened to|listened to|listening to",
       "höre hörst hört hören hört", "hören gehört haben hör",
       comps="music:Musik, the radio:Radio, podcasts:Podcasts", tags="leisure"),
    _v("wake", "wake up|wakes up|woke up|woken up|waking up", "wache wachst wacht wachen wacht",
       "aufwachen aufgewacht sein wach auf", tags="leisure care"),
    _v("fall_asleep", "fall asleep|falls asleep|fell asleep|fallen asleep|falling asleep",
       "schlafe schläfst schläft schlafen schlaft", "einschlafen eingeschlafen sein - ein",
       comps=":, on the sofa:auf dem Sofa, in front of the TV:vor dem Fernseher",
       tags="leisure noprog noplan"),
    _v("shower", "have a shower|has a shower|had a shower|had a shower|having a shower",
       "dusche duschst duscht duschen duscht", "duschen geduscht haben dusch", tags="leisure care"),
    _v("have_breakfast", "have breakfast|has breakfast|had breakfast|had breakfast|having breakfast",
       "frühstücke frühstückst frühstückt frühstücken frühstückt",
       "frühstücken gefrühstückt haben frühstücke", tags="leisure care"),
    _v("have_dinner", "have|has|had|had|having", "esse isst isst essen esst",
       "essen gegessen haben iss", comps="dinner:zu Abend, lunch:zu Mittag", tags="leisure"),
    _v("be_late", "be late|is late|was late|been late|being late", "komme kommst kommt kommen kommt",
       "kommen gekommen sein komm",
       comps=":zu spät, for work:zu spät zur Arbeit, for school:zu spät zur Schule",
       tags="leisure dont negonly noprog"),
    # -- oneself: reflexive verbs ---------------------------------------------------------------
    _v("hurry", "hurry up|hurries up|hurried up|hurried up|hurrying up",
       "beeile beeilst beeilt beeilen beeilt", "beeilen beeilt haben beeil", refl="acc",
       tags="self noplan noprog noperf"),
    _v("sit", "sit down|sits down|sat down|sat down|sitting down", "setze setzt setzt setzen setzt",
       "setzen gesetzt haben setz", refl="acc", tags="self noprog"),
    _v("dress", "get dressed|gets dressed|got dressed|got dressed|getting dressed", "ziehe ziehst zieht ziehen zieht",
       "anziehen angezogen haben zieh an", refl="acc", tags="self care"),
    _v("change_clothes", "get changed|gets changed|got changed|got changed|getting changed",
       "ziehe ziehst zieht ziehen zieht", "umziehen umgezogen haben zieh um", refl="acc",
       tags="self care"),
    _v("rest", "rest|rests|rested|rested|resting", "ruhe ruhst ruht ruhen ruht",
       "ausruhen ausgeruht haben ruh aus", refl="acc", tags="self noperf"),
    _v("cold", "catch a cold|catches a cold|caught a cold|caught a cold|catching a cold",
       "erkälte erkältest erkältet erkälten erkältet", "erkälten erkältet haben -", refl="acc",
       tags="self past"),
    _v("hurt_self", "hurt|hurts|hurt|hurt|hurting", "verletze verletzt verletzt verletzen verletzt",
       "verletzen verletzt haben -", refl="acc", tmpl="{V} {SELF}", tags="self past"),
    _v("hurt_part", "hurt|hurts|hurt|hurt|hurting", "verletze verletzt verletzt verletzen verletzt",
       "verletzen verletzt haben -", "arm leg foot hand knee finger back", dets="body",
       case="an+dat", refl="acc", tags="self past"),
    _v("apologise", "apologise|apologises|apologised|apologised|apologising",
       "entschuldige entschuldigst entschuldigt entschuldigen entschuldigt",
       "entschuldigen entschuldigt haben entschuldige", PEOPLE + " teacher P", case="bei+dat",
       refl="acc", tmpl="{V} to {O}", tags="self"),
    _v("look_forward", "look forward to|looks forward to|looked forward to|looked forward to|looking forward to",
       "freue freust freut freuen freut", "freuen gefreut haben -",
       "holiday weekend party trip concert birthday holidays", case="auf+acc", refl="acc",
       tags="self prog nopast noplan"),
    _v("interested", "be interested in|is interested in|was interested in|been interested in|being interested in",
       "interessiere interessierst interessiert interessieren interessiert",
       "interessieren interessiert haben -", "music art history politics sport", dets="a",
       case="für+acc", refl="acc", tags="self noprog nopast"),
    _v("remember", "remember|remembers|remembered|remembered|remembering",
       "erinnere erinnerst erinnert erinnern erinnert", "erinnern erinnert haben -",
       PEOPLE + " teacher P trip wedding concert", case="an+acc", refl="acc", tags="self noprog nopast"),
    _v("look_after", "look after|looks after|looked after|looked after|looking after",
       "kümmere kümmerst kümmert kümmern kümmert", "kümmern gekümmert haben kümmere",
       "grandma grandpa sister brother dog cat garden P", case="um+acc", refl="acc", tags="self"),
    _v("worry", "worry about|worries about|worried about|worried about|worrying about", _MACHE,
       "machen gemacht haben mach", "exam grandma grandpa sister brother P", case="um+acc",
       refl="dat", comps=":^Sorgen", tags="self dont negonly noperf noplan"),
    _v("prepare_for", "prepare for|prepares for|prepared for|prepared for|preparing for",
       "bereite bereitest bereitet bereiten bereitet", "vorbereiten vorbereitet haben bereite vor",
       "exam test interview presentation", case="auf+acc", refl="acc", tags="self"),
    _v("wash_part", "wash|washes|washed|washed|washing", "wasche wäschst wäscht waschen wascht",
       "waschen gewaschen haben wasch", "hand+ face hair", dets="body", refl="dat", tags="self care"),
    _v("brush", "brush|brushes|brushed|brushed|brushing", "putze putzt putzt putzen putzt",
       "putzen geputzt haben putz", "tooth+", dets="body", refl="dat", tags="self care"),
    _v("comb", "comb|combs|combed|combed|combing", "kämme kämmst kämmt kämmen kämmt",
       "kämmen gekämmt haben kämm", "hair", dets="body", refl="dat", tags="self care"),
    _v("break", "break|breaks|broke|broken|breaking", "breche brichst bricht brechen brecht",
       "brechen gebrochen haben -", "arm leg finger foot nose", dets="body", refl="dat",
       tags="self past"),
    _v("feel", "feel|feels|felt|felt|feeling", "fühle fühlst fühlt fühlen fühlt",
       "fühlen gefühlt haben -", refl="acc",
       comps="better:besser, tired:müde, ill:krank, well:gut, much better:viel besser", tags="self noperf"),
    _v("meet", "meet|meets|met|met|meeting", "treffe triffst trifft treffen trefft",
       "treffen getroffen haben -", refl="acc",
       comps="at the café:im Café, at the station:am Bahnhof, in the park:im Park,"
             " in front of the cinema:vor dem Kino", tags="self plural"),
)
BY_KEY = {v.key: v for v in VERBS}


def once(verb: Verb) -> bool:
    """Whether all VERB's objects are one-time events ("prepare for the exam"): never a habit."""
    return bool(verb.objects) and all(o != "P" and ALL[o.rstrip("+")].once for o in verb.objects)


def bare(verb: Verb) -> int | None:
    """The index of VERB's empty complement ("get up" without "early"), if it has one."""
    return next((i for i, c in enumerate(verb.comps) if c[:2] == ("", "")), None)


# -- what the frames of daily_life.py say each verb with --------------------------------------
# "never" said of these is odd: "I've never fed my dog", "She's never closed the window"
NOT_NEVER = ("feed", "walk_dog", "on", "off", "open", "close", "lock", "empty", "load", "put_away", "set", "clear",
             "save", "print", "water", "brush", "wash_part", "comb", "dress", "sit", "get_up", "shower",
             "have_breakfast", "have_dinner", "rest", "wake", "leave_house", "fall_asleep")
# states, said in the simple present with no time: "I don't understand the word ."
STATES = ("understand", "interested", "feel", "remember")
# a habit said only with how often ("She often misses the bus", "He always pays the bill"), not
# with a time: "They miss their train in the evening", "On Mondays my parents don't worry about ..."
BY_ADVERB = ("forget", "miss", "worry", "pay", "be_late")
# said with no day: "I sat down on the sixteenth of April", "We didn't understand the word two days ago"
MOMENTS = ("sit", "hurry", "understand")
# not said of a habit: "They apologise to their father every day"
NO_HABIT = ("move", "apologise", "hurt_self", "hurt_part", "break", "cold", "hurry", "sit", "give", "lend", "show",
            "give_back")
# where one goes every day, said of yesterday, not of a date: "We went into the garden on the ninth of April"
EVERYDAY_COMPS = ("into the garden", "to bed", "to the bakery", "to the supermarket")
# complements that say a one-time event, not said of a habit: "Do you often go to the party ?"
ONCE_COMPS = ("to the party", "from holiday")
