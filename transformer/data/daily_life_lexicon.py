"""The nouns, adjectives, places and dates of transformer/data/daily_life.py, written by hand.

daily_lexicon.py's nouns carry one German form, enough for its sentences. These sentences also
count ("two bedrooms" -> "zwei Schlafzimmer"), say "seit drei Jahren" and decline adjectives,
so every noun here has its German plural spelled out, and the nouns that decline in the
singular ("den Nachbarn", "dem Kollegen") say so. tests/test_daily_life.py checks the genders
against Ding's marks when ../shared/data/ding is present.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Noun:
    key: str  # the English singular with "_" for a space: the name verbs and frames use
    en: str  # English singular (or the mass noun: "milk")
    en_pl: str  # English plural; "" for a mass noun
    de: str  # German singular (or the mass noun)
    de_pl: str  # German plural; "" for a mass noun
    gender: str  # "m" | "f" | "n"; "pl" only for an English mass noun that German says in the
    #            plural ("homework" -> "die Hausaufgaben")
    kind: str = "count"  # "count" | "mass"
    own: bool = False  # said with a possessive ("my bike"); the fridge is "the fridge"
    weak: str = ""  # the accusative / dative singular of a weak noun: "Nachbarn", "Kollegen"
    each: bool = False  # one each: several owners have several ("We ironed our blouses", not "our blouse")
    once: bool = False  # an event that happens once: not said of a habit ("She often misses the flight")

    def de_form(self, case: str, plural: bool = False) -> str:
        """The noun in CASE: the dative plural adds -n unless the plural ends in -n or -s
        ("den Kindern", "den Fotos"); a weak noun adds -n outside the nominative."""
        if plural or self.gender == "pl":
            base = self.de_pl or self.de
            if case == "dat" and not base.endswith(("n", "s")):
                return base + "n"
            return base
        if self.weak and case != "nom":
            return self.weak
        return self.de


def _nouns(spec: str, kind: str = "count") -> dict[str, Noun]:
    """"shelf|shelves Regal Regale n ~": English singular (|plural, else +s), German singular,
    German plural, gender; "~" marks a noun said with a possessive, "#" one everybody has one
    of (a phone, a jacket), "!" a one-time event (a flight, an exam); "=Nachbarn" a weak noun's
    form outside the nominative. Mass nouns: "milk Milch f"."""
    out = {}
    for item in spec.split(","):
        words = item.split()
        en = words[0].split("|")
        en_sg = en[0].replace("_", " ")
        if kind == "mass":
            de, g, flags = words[1], words[2], words[3:]
            noun = Noun(en[0], en_sg, "", de.replace("_", " "), "", g, "mass", "~" in flags)
        else:
            de, de_pl, g, flags = words[1], words[2], words[3], words[4:]
            en_pl = en[1] if len(en) > 1 else en_sg + "s"
            weak = next((f[1:] for f in flags if f.startswith("=")), "")
            noun = Noun(en[0], en_sg, en_pl.replace("_", " "), de, de_pl, g, "count", "~" in flags, weak,
                        "#" in flags, "!" in flags)
        out[en[0]] = noun
    return out


NOUNS = _nouns(
    # the home
    "table Tisch Tische m, desk Schreibtisch Schreibtische m ~ #, chair Stuhl Stühle m,"
    " sofa Sofa Sofas n, bed Bett Betten n ~, shelf|shelves Regal Regale n,"
    " cupboard Schrank Schränke m, wardrobe Kleiderschrank Kleiderschränke m ~,"
    " drawer Schublade Schubladen f, fridge Kühlschrank Kühlschränke m,"
    " oven Backofen Backöfen m, dishwasher Spülmaschine Spülmaschinen f,"
    " washing_machine Waschmaschine Waschmaschinen f, floor Boden Böden m, wall Wand Wände f,"
    " door Tür Türen f, window Fenster Fenster n, kitchen Küche Küchen f,"
    " living_room Wohnzimmer Wohnzimmer n, bedroom Schlafzimmer Schlafzimmer n ~,"
    " bathroom Bad Bäder n, room Zimmer Zimmer n ~, flat Wohnung Wohnungen f ~,"
    " house Haus Häuser n ~, garden Garten Gärten m ~, balcony|balconies Balkon Balkone m,"
    " garage Garage Garagen f, cellar Keller Keller m, hall Flur Flure m, light Licht Lichter n,"
    " lamp Lampe Lampen f, heating Heizung Heizungen f, TV Fernseher Fernseher m,"
    " radio Radio Radios n, computer Computer Computer m ~, plant Pflanze Pflanzen f,"
    " flower Blume Blumen f, towel Handtuch Handtücher n, picture Bild Bilder n,"
    " hook Haken Haken m, carpet Teppich Teppiche m,"
    # things one carries, wears, eats from
    " key Schlüssel Schlüssel m ~ #, phone Handy Handys n ~ #, book Buch Bücher n ~ #,"
    " newspaper Zeitung Zeitungen f, letter Brief Briefe m, bag Tasche Taschen f ~ #,"
    " wallet Geldbeutel Geldbeutel m ~ #, jacket Jacke Jacken f ~ #, coat Mantel Mäntel m ~ #,"
    " shoe Schuh Schuhe m ~ #, dress|dresses Kleid Kleider n ~ #, shirt Hemd Hemden n ~ #,"
    " blouse Bluse Blusen f ~ #, sweater Pullover Pullover m ~ #, scarf|scarves Schal Schals m ~ #,"
    " hat Hut Hüte m ~ #, umbrella Regenschirm Regenschirme m ~ #, glass|glasses Glas Gläser n,"
    " cup Tasse Tassen f, plate Teller Teller m, bottle Flasche Flaschen f,"
    " knife|knives Messer Messer n, fork Gabel Gabeln f, spoon Löffel Löffel m,"
    " pot Topf Töpfe m, pan Pfanne Pfannen f, box|boxes Kiste Kisten f, basket Korb Körbe m,"
    " dog Hund Hunde m ~, cat Katze Katzen f ~, car Auto Autos n ~, bike Fahrrad Fahrräder n ~ #,"
    " pen Stift Stifte m ~ #, cake Kuchen Kuchen m, egg Ei Eier n, apple Apfel Äpfel m,"
    " tomato|tomatoes Tomate Tomaten f, sausage Würstchen Würstchen n,"
    # school and work
    " exercise Aufgabe Aufgaben f, word Wort Wörter n, sentence Satz Sätze m, rule Regel Regeln f,"
    " question Frage Fragen f, text Text Texte m, exam Prüfung Prüfungen f ~ !, test Test Tests m ~ # !,"
    " essay Aufsatz Aufsätze m ~ #, mistake Fehler Fehler m, form Formular Formulare n,"
    " file Datei Dateien f, document Dokument Dokumente n, report Bericht Berichte m ~,"
    " email E-Mail E-Mails f, message Nachricht Nachrichten f, contract Vertrag Verträge m ~,"
    " presentation Präsentation Präsentationen f ~ !, meeting Besprechung Besprechungen f !,"
    " photo Foto Fotos n ~, app App Apps f, course Kurs Kurse m, dictionary|dictionaries"
    " Wörterbuch Wörterbücher n ~ #, interview Vorstellungsgespräch Vorstellungsgespräche n ~ !,"
    # shops, money, travel, free time
    " bill Rechnung Rechnungen f, ticket Fahrkarte Fahrkarten f ~ #, receipt Quittung Quittungen f,"
    " present Geschenk Geschenke n, holiday Urlaub Urlaube m ~, trip Ausflug Ausflüge m !,"
    " party|parties Party Partys f ~ !, concert Konzert Konzerte n !, weekend Wochenende Wochenenden n,"
    " birthday Geburtstag Geburtstage m ~ #, appointment Termin Termine m,"
    " wedding Hochzeit Hochzeiten f !, flight Flug Flüge m ~ !, train Zug Züge m ~,"
    " bus|buses Bus Busse m, tram Straßenbahn Straßenbahnen f, journey Fahrt Fahrten f,"
    " film Film Filme m, idea Idee Ideen f, town Stadt Städte f ~, village Dorf Dörfer n ~,"
    " school Schule Schulen f ~, hotel Hotel Hotels n, cinema Kino Kinos n,"
    " swimming_pool Schwimmbad Schwimmbäder n, supermarket Supermarkt Supermärkte m,"
    " bakery|bakeries Bäckerei Bäckereien f, park Park Parks m, library|libraries"
    " Bibliothek Bibliotheken f, museum Museum Museen n, restaurant Restaurant Restaurants n,"
    " café Café Cafés n, playground Spielplatz Spielplätze m, gym Fitnessstudio Fitnessstudios n,"
    " hospital Krankenhaus Krankenhäuser n, pharmacy|pharmacies Apotheke Apotheken f,"
    " shop Geschäft Geschäfte n, lake See Seen m, hotel_room Hotelzimmer Hotelzimmer n !,"
    " size Größe Größen f, changing_room Umkleidekabine Umkleidekabinen f,"
    # the body, health
    " head Kopf Köpfe m, arm Arm Arme m, leg Bein Beine n, foot|feet Fuß Füße m, hand Hand Hände f,"
    " back Rücken Rücken m, stomach Bauch Bäuche m, tooth|teeth Zahn Zähne m, eye Auge Augen n,"
    " ear Ohr Ohren n, knee Knie Knie n, finger Finger Finger m, nose Nase Nasen f,"
    " face Gesicht Gesichter n, tablet Tablette Tabletten f, dentist Zahnarzt Zahnärzte m,"
    # people
    " mother Mutter Mütter f, father Vater Väter m, sister Schwester Schwestern f,"
    " brother Bruder Brüder m, grandma Oma Omas f, grandpa Opa Opas m, son Sohn Söhne m,"
    " daughter Tochter Töchter f, aunt Tante Tanten f, uncle Onkel Onkel m,"
    " friend Freund Freunde m, neighbour Nachbar Nachbarn m =Nachbarn,"
    " colleague Kollege Kollegen m =Kollegen, teacher Lehrer Lehrer m, boss Chef Chefs m,"
    " doctor Arzt Ärzte m, child|children Kind Kinder n, customer Kunde Kunden m =Kunden")

MASS = _nouns(
    "milk Milch f, water Wasser n, coffee Kaffee m, tea Tee m, juice Saft m, bread Brot n,"
    " butter Butter f, cheese Käse m, meat Fleisch n, fish Fisch m, rice Reis m, soup Suppe f,"
    " salt Salz n, sugar Zucker m, ice_cream Eis n, chicken Hähnchen n, salad Salat m,"
    " music Musik f, art Kunst f, history Geschichte f, politics Politik f, sport Sport m,"
    " rubbish Müll m, washing Wäsche f, money Geld n, cash Bargeld n, time Zeit f,"
    " fever Fieber n, flu Grippe f, rent Miete f, grammar Grammatik f,"
    " homework Hausaufgaben pl ~, hair Haare pl, pasta Nudeln pl, holidays Ferien pl,"
    # people only said in the plural ("my parents"): English plural, German plural
    " parents Eltern pl, grandparents Großeltern pl",
    kind="mass")
ALL = {**NOUNS, **MASS}

# Predicative adjective, attributive stem (the two differ in "teuer" / "teur-e", "dunkel" /
# "dunkl-e"): English, German, German stem.
ADJ = {a.split()[0].replace("_", " "): (a.split()[0].replace("_", " "), a.split()[1],
                                         a.split()[2] if len(a.split()) > 2 else a.split()[1])
       for a in ("new neu, old alt, big groß, small klein, cheap billig, expensive teuer teur,"
                 " red rot, blue blau, black schwarz, white weiß, green grün, grey grau,"
                 " brown braun, warm warm, cold kalt, hot heiß, clean sauber, dirty schmutzig,"
                 " beautiful schön, long lang, short kurz, comfortable bequem, modern modern,"
                 " dark dunkel dunkl, bright hell, quiet ruhig, fresh frisch, nice nett,"
                 " friendly freundlich, young jung, last - letzt, next - nächst").split(",")}
# which adjectives go with which nouns, attributively ("a red dress", "in a small flat")
ADJ_FOR = {
    "clothes": ("jacket coat dress shirt blouse sweater scarf hat",
                "new old cheap expensive red blue black white green grey brown beautiful"),
    "warm clothes": ("jacket coat sweater scarf hat", "warm"),
    "shoes": ("shoe+", "new old cheap expensive black brown white comfortable"),
    "bags": ("bag umbrella", "new old red blue black big small cheap expensive"),
    "homes": ("flat house", "big small new old modern quiet beautiful cheap expensive"),
    "rooms": ("room bedroom kitchen living_room", "big small dark bright modern beautiful"),
    "outside": ("garden balcony", "big small beautiful"),
    "places": ("hotel restaurant café", "cheap expensive nice new small big quiet"),
    "people": ("teacher neighbour colleague doctor boss", "new young nice friendly"),
    "things": ("phone car bike computer lamp", "new old cheap expensive red blue black white modern"),
    "furniture": ("table chair sofa bed", "new old big small comfortable modern"),
}
# worn by women: not "He's wearing a dress", "My father irons his blouse"
WOMENS = ("dress", "blouse")
# drinks and food said without an article, with an adjective ("cold milk", "mit heißem Wasser")
ADJ_MASS = {"milk": "cold warm fresh", "water": "cold hot warm", "coffee": "hot cold",
            "tea": "hot cold", "bread": "fresh", "juice": "cold fresh", "soup": "hot warm cold"}

# The days and months: English, German (all masculine: "am Montag", "im Mai"); the days'
# habitual adverb ("on Mondays" -> "montags").
DAYS = (("Monday", "Montag", "montags"), ("Tuesday", "Dienstag", "dienstags"),
        ("Wednesday", "Mittwoch", "mittwochs"), ("Thursday", "Donnerstag", "donnerstags"),
        ("Friday", "Freitag", "freitags"), ("Saturday", "Samstag", "samstags"),
        ("Sunday", "Sonntag", "sonntags"))
MONTHS = (("January", "Januar", 31), ("February", "Februar", 28), ("March", "März", 31),
          ("April", "April", 30), ("May", "Mai", 31), ("June", "Juni", 30), ("July", "Juli", 31),
          ("August", "August", 31), ("September", "September", 30), ("October", "Oktober", 31),
          ("November", "November", 30), ("December", "Dezember", 31))
# parts of a day joined to a weekday: "on Friday evening" -> "am Freitagabend"
DAY_PARTS = (("morning", "morgen"), ("afternoon", "nachmittag"), ("evening", "abend"))
SEASONS = (("spring", "Frühling"), ("summer", "Sommer"), ("autumn", "Herbst"),
           ("winter", "Winter"))
# ordinals 1-31: English, German stem; "am fünften Mai" (dative -en), "der fünfte Mai" (-e)
ORDINALS = tuple(zip(
    ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
     " thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
     " twenty-first twenty-second twenty-third twenty-fourth twenty-fifth twenty-sixth"
     " twenty-seventh twenty-eighth twenty-ninth thirtieth thirty-first").split(),
    ("erst zweit dritt viert fünft sechst siebt acht neunt zehnt elft zwölft dreizehnt"
     " vierzehnt fünfzehnt sechzehnt siebzehnt achtzehnt neunzehnt zwanzigst einundzwanzigst"
     " zweiundzwanzigst dreiundzwanzigst vierundzwanzigst fünfundzwanzigst sechsundzwanzigst"
     " siebenundzwanzigst achtundzwanzigst neunundzwanzigst dreißigst einunddreißigst").split()))

# Cardinal numbers by value, as words (English, German).
NUMBER_WORDS = {2: ("two", "zwei"), 3: ("three", "drei"), 4: ("four", "vier"), 5: ("five", "fünf"),
                6: ("six", "sechs"), 7: ("seven", "sieben"), 8: ("eight", "acht"),
                9: ("nine", "neun"), 10: ("ten", "zehn"), 11: ("eleven", "elf"),
                12: ("twelve", "zwölf"), 15: ("fifteen", "fünfzehn"), 20: ("twenty", "zwanzig"),
                25: ("twenty-five", "fünfundzwanzig"), 30: ("thirty", "dreißig"),
                40: ("forty", "vierzig"), 45: ("forty-five", "fünfundvierzig"),
                50: ("fifty", "fünfzig"), 60: ("sixty", "sechzig"), 80: ("eighty", "achtzig"),
                90: ("ninety", "neunzig"), 100: ("a hundred", "hundert")}
# Durations: English singular, English plural, German singular, German plural, gender;
# "for a year" -> "seit einem Jahr", "for three years" -> "seit drei Jahren" (dative plural)
UNITS = (("minute", "minutes", "Minute", "Minuten", "f"), ("hour", "hours", "Stunde", "Stunden", "f"),
         ("day", "days", "Tag", "Tagen", "m"), ("week", "weeks", "Woche", "Wochen", "f"),
         ("month", "months", "Monat", "Monaten", "m"), ("year", "years", "Jahr", "Jahren", "n"))
# the accusative plural of a duration ("Der Film dauert zwei Stunden")
UNIT_ACC_PL = {"Minute": "Minuten", "Stunde": "Stunden", "Tag": "Tage", "Woche": "Wochen",
               "Monat": "Monate", "Jahr": "Jahre"}
# how often: English, German; German puts it where a time goes
FREQUENCIES = (("once a week", "einmal pro Woche"), ("twice a week", "zweimal pro Woche"),
               ("three times a week", "dreimal pro Woche"), ("every day", "jeden Tag"),
               ("once a month", "einmal im Monat"), ("every weekend", "jedes Wochenende"),
               ("twice a day", "zweimal am Tag"), ("every evening", "jeden Abend"),
               ("every morning", "jeden Morgen"))
ADVERBS_OF_FREQUENCY = (("always", "immer"), ("often", "oft"), ("sometimes", "manchmal"),
                        ("usually", "normalerweise"), ("rarely", "selten"))
# which FREQUENCIES suit an activity, by verb or "verb:words of its complement" (these first):
# "They wash their hands every day", never "once a month"; "" or no entry: none is said
_DAY, _WEEK = "every day|twice a day|every morning|every evening", "once a week|twice a week|every weekend"
HOW_OFTEN = {
    "brush": _DAY, "feed": _DAY, "walk_dog": _DAY, "wash_part": "every day|every morning|every evening",
    "shower": "every day|every morning|every evening", "comb": "every day|every morning", "have_dinner": "every day",
    "dishes": "every day|every evening|twice a day", "cook": "every day|twice a week|three times a week|every weekend",
    "clean": _WEEK + "|once a month", "tidy": "once a week|every weekend|once a month", "vacuum": _WEEK,
    "iron": "once a week|every weekend", "washing": _WEEK, "rubbish": "every day|once a week|twice a week",
    "water": "every day|every morning|every evening|once a week|twice a week",
    "bake": "once a week|every weekend|once a month", "call:doctor": "",
    "call": "every day|every evening|once a week|twice a week|every weekend|once a month",
    "help": "every day|once a week|twice a week|every weekend", "look_after": "every day|once a week|every weekend",
    "pick_up": "every day|once a week|twice a week", "meet": _WEEK + "|once a month",
    "go:for a walk": "every day|every morning|every evening|every weekend|twice a week",
    "go:to the gym": "every day|every morning|every evening|once a week|twice a week|three times a week",
    "go:dancing": "once a week|every weekend", "go:into the garden": "every day|every morning|every evening",
    "go:to the supermarket": _WEEK, "go:to the bakery": "every day|every morning|every weekend",
    "go:swimming": _WEEK + "|three times a week|every morning", "go:shopping": _WEEK,
    "watch_tv": "every day|every evening|every weekend", "listen_music": "every day|every morning|every evening",
    "take": "every day|every morning|twice a week|three times a week", "ride:home": "every day",
    "ride": "every day|every morning|once a week|twice a week|three times a week",
    "walk": "every day|every morning|twice a week", "drive:airport": "once a month",
    "drive": "every day|every morning|twice a week|three times a week",
    "work": "every day|twice a week|three times a week|every weekend", "fly": "once a month"}
# when a daily routine is done: said with "always" or "usually" ("We usually wash our hair in
# the evening"), as "She often wakes up" alone is not
_CLOCK = "at six:um sechs|at seven:um sieben|at half past six:um halb sieben"
ROUTINES = {k: tuple(tuple(t.split(":")) for t in v.split("|")) for k, v in {
    "wake": _CLOCK + "|early:früh", "get_up": _CLOCK + "|early:früh", "leave_house": _CLOCK + "|early:früh",
    "leave": "at seven:um sieben|at eight:um acht|at half past six:um halb sieben|early:früh",
    "fall_asleep": "quickly:schnell|early:früh|late:spät",
    "have_breakfast": "at seven:um sieben|at half past six:um halb sieben|at home:zu Hause|in the kitchen:in der Küche",
    "have_dinner": "at home:zu Hause|in the kitchen:in der Küche",
    "shower": "in the morning:morgens|in the evening:abends|before breakfast:vor dem Frühstück",
    "dress": "after breakfast:nach dem Frühstück|before breakfast:vor dem Frühstück|in the bathroom:im Bad",
    "change_clothes": "in the evening:abends|in the bathroom:im Bad",
    "brush": "in the morning:morgens|in the evening:abends|after breakfast:nach dem Frühstück",
    "wash_part": "in the morning:morgens|in the evening:abends", "comb": "in the morning:morgens|in the bathroom:im Bad",
}.items()}

# when a meal was had, made or cooked, or one fell asleep: not "They had dinner this morning",
# "We made breakfast last night", "She fell asleep in front of the TV this morning"
DONE_WHEN = {"breakfast": ("", "yesterday", "this morning"), "lunch": ("", "yesterday"),
             "dinner": ("", "yesterday", "last night"), "asleep": ("", "yesterday", "last night")}
# what one asks to have: English, German accusative
ITEMS = (("a glass of water", "ein Glas Wasser"), ("a cup of coffee", "eine Tasse Kaffee"),
         ("a cup of tea", "eine Tasse Tee"), ("the bill", "die Rechnung"), ("the menu", "die Speisekarte"),
         ("a receipt", "eine Quittung"), ("a bag", "eine Tüte"), ("the salt", "das Salz"),
         ("a piece of cake", "ein Stück Kuchen"), ("a spoon", "einen Löffel"), ("a fork", "eine Gabel"),
         ("a knife", "ein Messer"), ("a bottle of water", "eine Flasche Wasser"),
         ("some more bread", "noch etwas Brot"), ("a glass of milk", "ein Glas Milch"),
         ("a glass of juice", "ein Glas Saft"), ("a coffee", "einen Kaffee"), ("a tea", "einen Tee"),
         ("an ice cream", "ein Eis"), ("two coffees", "zwei Kaffee"), ("the key", "den Schlüssel"),
         ("a newspaper", "eine Zeitung"), ("a plate", "einen Teller"), ("a towel", "ein Handtuch"))
OFFERED = ITEMS[:3] + ITEMS[8:9] + ITEMS[12:13] + ITEMS[14:17] + ITEMS[18:19]


def how_often(key: str, text: str) -> tuple[tuple[str, str], ...]:
    """The FREQUENCIES that suit verb KEY said as TEXT (its English with object and complement)."""
    spec = next((v for k, v in HOW_OFTEN.items() if k.startswith(key + ":") and k.split(":", 1)[1] in text),
                HOW_OFTEN.get(key, ""))
    return tuple(f for f in FREQUENCIES if f[0] in spec.split("|"))

# Destinations: English, German "to" (direction), German "in" (place). Countries with an
# article take "in die" / "in der": "in die Schweiz", "in der Schweiz".
DESTINATIONS = (("Berlin", "nach Berlin", "in Berlin"), ("Vienna", "nach Wien", "in Wien"),
                ("Munich", "nach München", "in München"), ("Hamburg", "nach Hamburg", "in Hamburg"),
                ("Paris", "nach Paris", "in Paris"), ("London", "nach London", "in London"),
                ("Rome", "nach Rom", "in Rom"), ("Spain", "nach Spanien", "in Spanien"),
                ("Italy", "nach Italien", "in Italien"), ("France", "nach Frankreich", "in Frankreich"),
                ("Greece", "nach Griechenland", "in Griechenland"),
                ("Austria", "nach Österreich", "in Österreich"),
                ("Switzerland", "in die Schweiz", "in der Schweiz"),
                ("Turkey", "in die Türkei", "in der Türkei"), ("the USA", "in die USA", "in den USA"))
# where a holiday goes to and is spent, not a town: "to the seaside" -> "ans Meer", "am Meer"
HOLIDAY_PLACES = (("the seaside", "ans Meer", "am Meer"),
                  ("the mountains", "in die Berge", "in den Bergen"),
                  ("the countryside", "aufs Land", "auf dem Land"))
# the towns trains change in and leave for (nach ...)
TOWNS = (("Berlin", "Berlin"), ("Hamburg", "Hamburg"), ("Munich", "München"),
         ("Cologne", "Köln"), ("Frankfurt", "Frankfurt"), ("Vienna", "Wien"),
         ("Stuttgart", "Stuttgart"), ("Leipzig", "Leipzig"), ("Dresden", "Dresden"))

# first names for "du" (as the English types them) and surnames for "Sie" ("Mr Weber")
NAMES = ("Anna", "Tom", "Lisa", "Max", "Paul", "Lena", "Ben", "Emma", "Jonas", "Sophie")
SURNAMES = ("Weber", "Schmidt", "Becker", "Wagner", "Fischer", "Schneider", "Hoffmann",
            "Klein", "Wolf", "Braun", "Richter", "Neumann")
# "this jacket", "diese Jacke"
DIES = {"nom": {"m": "dieser", "f": "diese", "n": "dieses", "pl": "diese"},
        "acc": {"m": "diesen", "f": "diese", "n": "dieses", "pl": "diese"},
        "dat": {"m": "diesem", "f": "dieser", "n": "diesem", "pl": "diesen"}}
# colours a shop has a thing "in": English, German noun ("in Blau")
COLOURS = (("blue", "Blau"), ("black", "Schwarz"), ("red", "Rot"), ("green", "Grün"),
           ("white", "Weiß"), ("grey", "Grau"), ("brown", "Braun"))
