"""The words of the daily-life sentence generator (transformer/data/daily.py), written by hand.

Every German form is spelled out, not derived: a strong verb's "du isst", a separable verb's
prefix, a participle's auxiliary. tests/test_daily.py checks the nouns' genders against Ding's
marks when ../shared/data/ding is present, and the forms against simple rules of German spelling.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Noun:
    en: str
    de: str
    gender: str  # "m" | "f" | "n" | "pl"
    kind: str  # "count" (a / ein), "mass" (no article: bread, Brot), "bare" (football, Deutsch)

    @property
    def de_dat(self) -> str:
        """The dative plural adds -n ("den Kindern") unless the plural ends in -n or -s."""
        if self.gender == "pl" and not self.de.endswith(("n", "s")):
            return self.de + "n"
        return self.de


def _nouns(spec: str, kind: str = "count") -> tuple[Noun, ...]:
    out = []
    for item in spec.split(","):
        en, de, g = item.split()
        k = kind
        if g.endswith("*"):  # a mass noun inside a list of count nouns
            g, k = g[:-1], "mass"
        out.append(Noun(en.replace("_", " "), de, g, k))
    return tuple(out)


# Objects by class; a verb names the classes it takes. English plurals ("shoes") are German plurals.
NOUNS = {
    "food": _nouns("bread Brot n*, cake Kuchen m, apple Apfel m, soup Suppe f, pizza Pizza f,"
                   " banana Banane f, egg Ei n, cheese Käse m*, meat Fleisch n*, fish Fisch m*,"
                   " rice Reis m*, salad Salat m, sandwich Sandwich n, sausage Wurst f,"
                   " chocolate Schokolade f*, potatoes Kartoffeln pl, vegetables Gemüse n*,"
                   " fruit Obst n*, cookies Kekse pl, ice_cream Eis n*"),
    "drink": _nouns("water Wasser n*, milk Milch f*, coffee Kaffee m*, tea Tee m*, juice Saft m*,"
                    " lemonade Limonade f*"),
    "reading": _nouns("book Buch n, newspaper Zeitung f, letter Brief m, magazine Zeitschrift f,"
                      " story Geschichte f, email E-Mail f, message Nachricht f, menu Speisekarte f"),
    "clothes": _nouns("jacket Jacke f, coat Mantel m, shirt Hemd n, dress Kleid n, hat Hut m,"
                      " shoes Schuhe pl, scarf Schal m, sweater Pullover m, socks Socken pl,"
                      " trousers Hose f, gloves Handschuhe pl, T-shirt T-Shirt n"),
    "things": _nouns("key Schlüssel m, phone Handy n, bag Tasche f, umbrella Regenschirm m,"
                     " wallet Geldbeutel m, ticket Fahrkarte f, passport Reisepass m, pen Stift m,"
                     " pencil Bleistift m, watch Uhr f, bike Fahrrad n, car Auto n,"
                     " computer Computer m, camera Kamera f, backpack Rucksack m, map Karte f,"
                     " homework Hausaufgaben pl, notebook Heft n, dictionary Wörterbuch n,"
                     " laptop Laptop m, money Geld n*"),
    "person": _nouns("mother Mutter f, father Vater m, sister Schwester f, brother Bruder m,"
                     " grandma Oma f, grandpa Opa m, friend Freund m, teacher Lehrer m,"
                     " parents Eltern pl, grandparents Großeltern pl, children Kinder pl,"
                     " aunt Tante f, uncle Onkel m, doctor Arzt m, boss Chef m,"
                     " daughter Tochter f, son Sohn m, wife Frau f, husband Mann m"),
    "room": _nouns("kitchen Küche f, room Zimmer n, house Haus n,"
                   " bathroom Bad n, flat Wohnung f, classroom Klassenzimmer n, office Büro n"),
    "opening": _nouns("door Tür f, window Fenster n, bottle Flasche f, box Schachtel f,"
                      " fridge Kühlschrank m, book Buch n"),
    "show": _nouns("film Film m, match Spiel n, news Nachrichten pl, photos Fotos pl"),
    "game": _nouns("football Fußball m, tennis Tennis n, chess Schach n, cards Karten pl,"
                   " basketball Basketball m", kind="bare"),
    "language": _nouns("German Deutsch n, English Englisch n, French Französisch n,"
                       " Spanish Spanisch n, Italian Italienisch n", kind="bare"),
}

# Predicative adjectives by the class of the noun they describe (German predicative adjectives
# are not declined: "Die Suppe ist heiß", "Die Schuhe sind zu klein").
ADJECTIVES = {
    "food": "hot heiß, cold kalt, sweet süß, salty salzig, fresh frisch, delicious lecker,"
            " good gut, expensive teuer, ready fertig, cheap billig",
    "drink": "hot heiß, cold kalt, sweet süß, good gut, expensive teuer, fresh frisch",
    "reading": "long lang, short kurz, interesting interessant, boring langweilig, new neu, old alt",
    "clothes": "new neu, old alt, clean sauber, dirty schmutzig, wet nass, expensive teuer,"
               " cheap billig, big groß, small klein, warm warm, beautiful schön",
    "things": "new neu, old alt, broken kaputt, expensive teuer, cheap billig, heavy schwer,"
              " clean sauber, dirty schmutzig, wet nass",
    "person": "tired müde, hungry hungrig, sick krank, happy glücklich, sad traurig,"
              " busy beschäftigt, angry wütend, ready fertig, nice nett, friendly freundlich,"
              " thirsty durstig, nervous nervös",
    "room": "big groß, small klein, clean sauber, dirty schmutzig, cold kalt, warm warm,"
            " quiet ruhig, dark dunkel, beautiful schön, empty leer, full voll",
    "show": "good gut, long lang, boring langweilig, funny lustig, exciting spannend, short kurz",
}
ADJECTIVES = {k: tuple(tuple(a.strip().split(" ", 1)) for a in v.split(",")) for k, v in
              ADJECTIVES.items()}
# "very hot", "too salty", "really tired", or the adjective alone (twice as likely)
DEGREES = (("very", "sehr"), ("too", "zu"), ("really", "wirklich"), ("", ""), ("", ""))


@dataclass(frozen=True)
class Verb:
    """A verb with every form the generator says. German present forms are for ich, du,
    er/sie/es, wir (= sie/Sie); a separable verb's forms leave the prefix out ("rufe ... an")."""

    en: tuple[str, str, str, str]  # base, 3rd singular, simple past, -ing ("call calls called calling")
    de: tuple[str, str, str, str]  # present: ich, du, er, wir
    infinitive: str  # joined: "anrufen"
    participle: str  # "angerufen"
    aux: str  # "haben" | "sein"
    imperative: str  # du-imperative without the prefix: "ruf"
    prefix: str  # "an", "" when not separable
    objects: tuple[str, ...]  # noun classes it takes; () = a fixed complement (COMPLEMENTS)
    case: str  # "acc" | "dat" | "auf" (auf + accusative) | "mit" (mit + dative) | ""
    stative: bool = False  # "like", "have", "need": no "-ing" frame
    preterite: tuple[str, ...] = ()  # ich du er wir, where spoken German prefers it: "hatte"
    only: frozenset[str] = frozenset()  # if given, the only English nouns it takes
    never: frozenset[str] = frozenset()  # English nouns of its classes it does not take

    def takes(self, noun: Noun) -> bool:
        return (not self.only or noun.en in self.only) and noun.en not in self.never


def _verb(en: str, de: str, rest: str, objects: str, case: str = "acc", stative: bool = False,
          only: str = "", never: str = "", preterite: str = "") -> Verb:
    inf, part, aux, imp, *prefix = rest.split()
    return Verb(tuple(en.split("|")), tuple(de.split()), inf, part, aux, imp,
                prefix[0] if prefix else "", tuple(objects.split()), case, stative,
                tuple(preterite.split()),
                frozenset(only.replace("_", " ").split()), frozenset(never.replace("_", " ").split()))


# what nobody buys, writes or takes along
_NOT_BOUGHT = "letter story email message menu homework money"


VERBS = (
    _verb("eat|eats|ate|eating", "esse isst isst essen", "essen gegessen haben iss", "food"),
    _verb("cook|cooks|cooked|cooking", "koche kochst kocht kochen", "kochen gekocht haben koch", "food",
          only="soup egg meat fish rice potatoes vegetables"),
    _verb("buy|buys|bought|buying", "kaufe kaufst kauft kaufen", "kaufen gekauft haben kauf",
          "food drink reading clothes things", never=_NOT_BOUGHT),
    _verb("like|likes|liked|liking", "mag magst mag mögen", "mögen gemocht haben -",
          "food drink reading clothes show", stative=True, never="menu message email letter",
          preterite="mochte mochtest mochte mochten"),
    _verb("order|orders|ordered|ordering", "bestelle bestellst bestellt bestellen",
          "bestellen bestellt haben bestell", "food drink"),
    _verb("need|needs|needed|needing", "brauche brauchst braucht brauchen",
          "brauchen gebraucht haben -", "food drink clothes things", stative=True,
          never="homework"),
    _verb("drink|drinks|drank|drinking", "trinke trinkst trinkt trinken",
          "trinken getrunken haben trink", "drink"),
    _verb("read|reads|read|reading", "lese liest liest lesen", "lesen gelesen haben lies", "reading"),
    _verb("write|writes|wrote|writing", "schreibe schreibst schreibt schreiben",
          "schreiben geschrieben haben schreib", "reading",
          only="book letter email story message"),
    _verb("wear|wears|wore|wearing", "trage trägst trägt tragen", "tragen getragen haben trag",
          "clothes"),
    _verb("wash|washes|washed|washing", "wasche wäschst wäscht waschen",
          "waschen gewaschen haben wasch", "clothes"),
    _verb("put on|puts on|put on|putting on", "ziehe ziehst zieht ziehen",
          "anziehen angezogen haben zieh an", "clothes", never="hat"),
    _verb("find|finds|found|finding", "finde findest findet finden", "finden gefunden haben finde",
          "clothes things"),
    _verb("lose|loses|lost|losing", "verliere verlierst verliert verlieren",
          "verlieren verloren haben verlier", "clothes things"),
    _verb("look for|looks for|looked for|looking for", "suche suchst sucht suchen",
          "suchen gesucht haben such", "clothes things"),
    _verb("forget|forgets|forgot|forgetting", "vergesse vergisst vergisst vergessen",
          "vergessen vergessen haben vergiss", "clothes things"),
    _verb("have|has|had|having", "habe hast hat haben", "haben gehabt haben -", "things",
          stative=True, preterite="hatte hattest hatte hatten"),
    _verb("bring|brings|brought|bringing", "bringe bringst bringt bringen",
          "mitbringen mitgebracht haben bring mit", "food drink things", never="car bike homework"),
    _verb("take|takes|took|taking", "nehme nimmst nimmt nehmen", "mitnehmen mitgenommen haben nimm mit",
          "things clothes", never="car bike homework"),
    _verb("visit|visits|visited|visiting", "besuche besuchst besucht besuchen",
          "besuchen besucht haben besuch", "person"),
    _verb("call|calls|called|calling", "rufe rufst ruft rufen", "anrufen angerufen haben ruf an",
          "person"),
    _verb("help|helps|helped|helping", "helfe hilfst hilft helfen", "helfen geholfen haben hilf",
          "person", case="dat"),
    _verb("meet|meets|met|meeting", "treffe triffst trifft treffen", "treffen getroffen haben triff",
          "person"),
    _verb("ask|asks|asked|asking", "frage fragst fragt fragen", "fragen gefragt haben frag", "person"),
    _verb("wait for|waits for|waited for|waiting for", "warte wartest wartet warten",
          "warten gewartet haben warte", "person", case="auf"),
    _verb("talk to|talks to|talked to|talking to", "spreche sprichst spricht sprechen",
          "sprechen gesprochen haben sprich", "person", case="mit"),
    _verb("pick up|picks up|picked up|picking up", "hole holst holt holen",
          "abholen abgeholt haben hol ab", "person"),
    _verb("thank|thanks|thanked|thanking", "danke dankst dankt danken", "danken gedankt haben dank",
          "person", case="dat"),
    _verb("clean|cleans|cleaned|cleaning", "putze putzt putzt putzen", "putzen geputzt haben putz",
          "room"),
    _verb("tidy|tidies|tidied|tidying", "räume räumst räumt räumen", "aufräumen aufgeräumt haben räum auf",
          "room"),
    _verb("open|opens|opened|opening", "öffne öffnest öffnet öffnen", "öffnen geöffnet haben öffne",
          "opening"),
    _verb("close|closes|closed|closing", "schließe schließt schließt schließen",
          "schließen geschlossen haben schließ", "opening"),
    _verb("watch|watches|watched|watching", "sehe siehst sieht sehen", "sehen gesehen haben sieh",
          "show"),
    _verb("play|plays|played|playing", "spiele spielst spielt spielen", "spielen gespielt haben spiel",
          "game"),
    _verb("learn|learns|learned|learning", "lerne lernst lernt lernen", "lernen gelernt haben lern",
          "language"),
    _verb("speak|speaks|spoke|speaking", "spreche sprichst spricht sprechen",
          "sprechen gesprochen haben sprich", "language", stative=True),
    # intransitive, each with its complement(s) in COMPLEMENTS
    _verb("go|goes|went|going", "gehe gehst geht gehen", "gehen gegangen sein geh", "", case=""),
    _verb("come|comes|came|coming", "komme kommst kommt kommen", "kommen gekommen sein komm", "", case=""),
    _verb("stay|stays|stayed|staying", "bleibe bleibst bleibt bleiben", "bleiben geblieben sein bleib",
          "", case=""),
    _verb("sleep|sleeps|slept|sleeping", "schlafe schläfst schläft schlafen",
          "schlafen geschlafen haben schlaf", "", case=""),
    _verb("work|works|worked|working", "arbeite arbeitest arbeitet arbeiten",
          "arbeiten gearbeitet haben arbeite", "", case=""),
    _verb("get up|gets up|got up|getting up", "stehe stehst steht stehen",
          "aufstehen aufgestanden sein steh auf", "", case=""),
    _verb("travel|travels|travelled|travelling", "fahre fährst fährt fahren",
          "fahren gefahren sein fahr", "", case=""),
)

# The complement an intransitive verb is said with: (English, German); "" = none. German puts it
# after "nicht" and before the participle or infinitive ("Ich bin nicht zur Schule gegangen").
COMPLEMENTS = {
    "go": (("to school", "zur Schule"), ("to work", "zur Arbeit"), ("home", "nach Hause"),
           ("shopping", "einkaufen"), ("swimming", "schwimmen"), ("to the doctor", "zum Arzt"),
           ("to the cinema", "ins Kino"), ("to bed", "ins Bett")),
    "come": (("home", "nach Hause"), ("to school", "zur Schule"), ("to the party", "zur Party")),
    "stay": (("at home", "zu Hause"), ("in bed", "im Bett"), ("in the hotel", "im Hotel")),
    "sleep": (("", ""), ("well", "gut"), ("in the garden", "im Garten")),
    "work": (("", ""), ("at home", "zu Hause"), ("in the garden", "im Garten")),
    "get up": (("", ""), ("early", "früh")),
    "travel": (("to Berlin", "nach Berlin"), ("to Italy", "nach Italien"), ("to Munich", "nach München"),
               ("to Vienna", "nach Wien"), ("by train", "mit dem Zug"), ("by bus", "mit dem Bus")),
}

MODALS = {  # English -> (German present: ich du er wir, negative English)
    "can": (("kann", "kannst", "kann", "können"), "can't"),
    "must": (("muss", "musst", "muss", "müssen"), ""),
    "have to": (("muss", "musst", "muss", "müssen"), "don't have to"),
    "want to": (("will", "willst", "will", "wollen"), "don't want to"),
    "would like to": (("möchte", "möchtest", "möchte", "möchten"), ""),
    "should": (("sollte", "solltest", "sollte", "sollten"), "shouldn't"),
}
WILL = ("werde", "wirst", "wird", "werden")
HAVE = ("habe", "hast", "hat", "haben")
BE = ("bin", "bist", "ist", "sind")
BE_PAST = ("war", "warst", "war", "waren")

# Times, by tense: (English, German). German puts the time right after the verb (or first).
TIMES = {
    "present": (("every day", "jeden Tag"), ("in the morning", "morgens"), ("in the evening", "abends"),
                ("at the weekend", "am Wochenende"), ("on Sundays", "sonntags"),
                ("on Mondays", "montags"), ("every week", "jede Woche"), ("after school", "nach der Schule")),
    "now": (("now", "jetzt"), ("right now", "gerade"), ("today", "heute")),
    # with a modal "gerade" would mean "just now": "Er kann jetzt ..."
    "modal": (("now", "jetzt"), ("today", "heute"), ("tonight", "heute Abend"), ("tomorrow", "morgen"),
              ("later", "später")),
    "past": (("yesterday", "gestern"), ("last week", "letzte Woche"), ("last night", "gestern Abend"),
             ("on Saturday", "am Samstag"), ("this morning", "heute Morgen"),
             ("two days ago", "vor zwei Tagen"), ("last year", "letztes Jahr")),
    "future": (("tomorrow", "morgen"), ("next week", "nächste Woche"), ("on Monday", "am Montag"),
               ("tonight", "heute Abend"), ("this afternoon", "heute Nachmittag"),
               ("later", "später"), ("at the weekend", "am Wochenende")),
    "clock": (("at seven", "um sieben"), ("at eight o'clock", "um acht Uhr"),
              ("at half past six", "um halb sieben"), ("at six", "um sechs")),
}

WEATHER_ADJ = (("cold", "kalt"), ("warm", "warm"), ("hot", "heiß"), ("sunny", "sonnig"),
               ("windy", "windig"), ("cloudy", "bewölkt"), ("nice", "schön"), ("foggy", "neblig"))
# What "the weather" is ("The weather is nice today ." -> "Das Wetter ist heute schön ."): with the
# noun as subject English says "nice" where German says "schön", never "nett" (a person's word)
WEATHER_NOUN_ADJ = (("nice", "schön"), ("good", "gut"), ("bad", "schlecht"), ("terrible", "schrecklich"),
                    ("lovely", "herrlich"), ("wonderful", "wunderbar"), ("cold", "kalt"), ("warm", "warm"),
                    ("hot", "heiß"), ("awful", "furchtbar"))
WEATHER_VERB = (  # English -ing, English past, German present (es ...), German participle
    ("raining", "rained", "rain", "regnet", "geregnet", "regnen"),
    ("snowing", "snowed", "snow", "schneit", "geschneit", "schneien"),
)

# -- the words of transformer/data/daily_talk.py: places, numbers, clock times, comparisons -------

# Places one asks the way to: English, German, gender ("zum Bahnhof", "zur Post").
PLACES = _nouns("station Bahnhof m, bank Bank f, post_office Post f, supermarket Supermarkt m,"
                " toilet Toilette f, bus_stop Bushaltestelle f, hospital Krankenhaus n,"
                " library Bibliothek f, museum Museum n, pharmacy Apotheke f, park Park m,"
                " hotel Hotel n, restaurant Restaurant n, bakery Bäckerei f, cinema Kino n,"
                " airport Flughafen m, beach Strand m, market Markt m, church Kirche f,"
                " school Schule f, swimming_pool Schwimmbad n, shop Geschäft n")
# where a place is: (English, German with {D} for a place's dative noun phrase, or none)
WHERE_IS = (("over there", "dort drüben"), ("near here", "hier in der Nähe"),
            ("next to the {P}", "neben {D}"), ("opposite the {P}", "gegenüber {D}"),
            ("behind the {P}", "hinter {D}"), ("in front of the {P}", "vor {D}"),
            ("on the left", "links"), ("on the right", "rechts"),
            ("not far from here", "nicht weit von hier"))

# Numbers 2-12 (one takes "ein-" and the singular, below).
NUMBERS = (("two", "zwei"), ("three", "drei"), ("four", "vier"), ("five", "fünf"), ("six", "sechs"),
           ("seven", "sieben"), ("eight", "acht"), ("nine", "neun"), ("ten", "zehn"),
           ("eleven", "elf"), ("twelve", "zwölf"))
# Countable things with their plurals: English singular, English plural, German singular,
# German plural, gender; by what one has, needs or buys.
COUNTED = {
    "family": (("brother", "brothers", "Bruder", "Brüder", "m"),
               ("sister", "sisters", "Schwester", "Schwestern", "f"),
               ("child", "children", "Kind", "Kinder", "n"),
               ("cousin", "cousins", "Cousin", "Cousins", "m"),
               ("friend", "friends", "Freund", "Freunde", "m")),
    "pets": (("cat", "cats", "Katze", "Katzen", "f"), ("dog", "dogs", "Hund", "Hunde", "m"),
             ("rabbit", "rabbits", "Kaninchen", "Kaninchen", "n"),
             ("fish", "fish", "Fisch", "Fische", "m")),
    "shopping": (("apple", "apples", "Apfel", "Äpfel", "m"), ("egg", "eggs", "Ei", "Eier", "n"),
                 ("banana", "bananas", "Banane", "Bananen", "f"),
                 ("bottle of water", "bottles of water", "Flasche Wasser", "Flaschen Wasser", "f"),
                 ("ticket", "tickets", "Fahrkarte", "Fahrkarten", "f"),
                 ("book", "books", "Buch", "Bücher", "n"), ("pen", "pens", "Stift", "Stifte", "m"),
                 ("notebook", "notebooks", "Heft", "Hefte", "n"),
                 ("tomato", "tomatoes", "Tomate", "Tomaten", "f"),
                 ("bread roll", "bread rolls", "Brötchen", "Brötchen", "n")),
    "home": (("room", "rooms", "Zimmer", "Zimmer", "n"), ("window", "windows", "Fenster", "Fenster", "n"),
             ("bed", "beds", "Bett", "Betten", "n"), ("chair", "chairs", "Stuhl", "Stühle", "m")),
}

# What starts or leaves at a clock time: English subject, English verb (3rd singular, base),
# German subject, German verb (3rd singular), separable prefix ("Der Zug fährt um acht ab").
SCHEDULE = (("the train", "leaves", "leave", "der Zug", "fährt", "ab"),
            ("the bus", "leaves", "leave", "der Bus", "fährt", "ab"),
            ("the film", "starts", "start", "der Film", "beginnt", ""),
            ("school", "starts", "start", "die Schule", "beginnt", ""),
            ("the lesson", "starts", "start", "der Unterricht", "beginnt", ""),
            ("the shop", "opens", "open", "das Geschäft", "öffnet", ""),
            ("the shop", "closes", "close", "das Geschäft", "schließt", ""),
            ("the party", "starts", "start", "die Party", "beginnt", ""),
            ("the match", "starts", "start", "das Spiel", "beginnt", ""))

# Comparatives by what they compare: English comparative, German comparative, German positive
# ("so alt wie"), English positive. Things are compared with the same kind of thing ("my phone
# is newer than your phone"), people within one generation (COMPARED_PEOPLE).
COMPARE = {
    "person": (("older", "älter", "alt", "old"), ("younger", "jünger", "jung", "young"),
               ("taller", "größer", "groß", "tall"), ("faster", "schneller", "schnell", "fast"),
               ("stronger", "stärker", "stark", "strong"), ("funnier", "lustiger", "lustig", "funny")),
    "food": (("better", "besser", "gut", "good"), ("cheaper", "billiger", "billig", "cheap"),
             ("more expensive", "teurer", "teuer", "expensive"),
             ("healthier", "gesünder", "gesund", "healthy")),
    "things": (("cheaper", "billiger", "billig", "cheap"), ("heavier", "schwerer", "schwer", "heavy"),
               ("newer", "neuer", "neu", "new"), ("older", "älter", "alt", "old"),
               ("more expensive", "teurer", "teuer", "expensive"),
               ("better", "besser", "gut", "good")),
    "reading": (("longer", "länger", "lang", "long"), ("shorter", "kürzer", "kurz", "short"),
                ("more interesting", "interessanter", "interessant", "interesting"),
                ("better", "besser", "gut", "good")),
    "room": (("bigger", "größer", "groß", "big"), ("smaller", "kleiner", "klein", "small"),
             ("warmer", "wärmer", "warm", "warm"), ("colder", "kälter", "kalt", "cold"),
             ("quieter", "ruhiger", "ruhig", "quiet")),
}
# the nouns of each class worth comparing with the same noun of another owner
COMPARED_NOUNS = {"food": ("cake", "pizza", "soup", "salad", "sandwich", "cookies"),
                  "things": ("phone", "bag", "umbrella", "watch", "bike", "car", "computer",
                             "camera", "backpack", "laptop"),
                  "reading": ("book", "story", "letter", "email", "newspaper"),
                  "room": ("kitchen", "room", "house", "bathroom", "flat", "classroom", "office")}
# people of one generation, compared with each other; a pronoun subject ("I") only with peers
COMPARED_PEOPLE = (("sister", "brother", "friend"), ("son", "daughter"),
                   ("mother", "father", "aunt", "uncle", "teacher", "doctor", "boss"),
                   ("grandma", "grandpa"))
# "than me": German keeps the nominative after "als" ("älter als ich")
THAN_PRONOUNS = (("me", "ich"), ("you", "du"), ("him", "er"), ("her", "sie"), ("us", "wir"),
                 ("them", "sie"))
# "What did you do ?": machen, the verb of what-questions without a noun class
DO = ("do|does|did|doing", "mache machst macht machen", "machen gemacht")
