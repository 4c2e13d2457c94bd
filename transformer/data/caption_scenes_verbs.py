"""The verbs of transformer/data/caption_scenes.py: what a person (or a dog) does to a thing.

A verb names the nouns it is said of by tag ("feed" takes what has "feed": animals, not apples)
and, when it is the second verb of "buys a melon and carries it home", the first verbs it may
follow (a picked flower is not planted, a bought fish not set free). German forms are spelled
out: the third person singular and plural, a separable prefix or last infinitive ("hebt ihn
auf", "lässt ihn fallen"), the object's case or preposition ("mit ihm", "läuft ihm hinterher"),
and, where German says it by the thing's shape, one form per pose ("legt ihn hin" / "stellt
sie ab" / "setzt ihn ab").
"""
from __future__ import annotations

from dataclasses import dataclass

COLORS = (("red", "rot"), ("blue", "blau"), ("green", "grün"), ("yellow", "gelb"), ("white", "weiß"))


@dataclass(frozen=True)
class Verb:
    key: str
    en: tuple[str, str]  # third person singular, plural: ("carries", "carry")
    tmpl: str  # English after the subject: "{V} {O} home"; {C} a complement, {his} the subject's
    de: tuple[str, str]  # German third person singular, plural
    want: frozenset[str]  # object tags, classes or keys, any of which it takes
    refuse: frozenset[str] = frozenset()  # ... and none of which
    obj: str = "acc"  # "acc", "dat", or a preposition and its case: "mit+dat"
    mid: str = ""  # German after the object: "nach Hause"; "{C}" the complement
    last: str = ""  # a separable prefix or a last infinitive: "auf", "fallen"
    subj: str = "p"  # "p" people, "pd" people or a dog, "d" a dog, "a" grown-ups
    comps: tuple = ()  # (English, German[, tags]) complements, or "FOOD" (the animal's) / "COLOR"
    refl: bool = False  # "sich" straight after the verb: "nähert sich ihm"
    forms: tuple = ()  # (tag, "legt|legen", last): the German by the object's pose or kind
    after: frozenset[str] = frozenset()  # the first verbs it may follow
    det: str = ""  # the object's article when the verb asks for one ("the": "calls the dog", "a": "builds a snowman")
    one: bool = False  # said of one object at a time ("tries to start the tractor", not "the tractors")

    def fits(self, noun) -> bool:
        have = {*noun.tags, noun.cls, noun.key, noun.pose}
        return bool(have & self.want) and not have & self.refuse

    def german(self, noun) -> tuple[tuple[str, str], str]:
        """The finite forms and last part for NOUN (by its pose where the verb has forms)."""
        have = {*noun.tags, noun.cls, noun.key, noun.pose}
        for tag, de, last in self.forms:
            if tag in have:
                return tuple(de.split("|")), last
        return self.de, self.last


def V(key: str, en: str, tmpl: str, de: str, objs: str, **kw) -> Verb:
    """objs: "carry hold -heavy": tags taken, "-" tags refused (so are REFUSE's); AFTER: a
    space-separated list of first verbs."""
    words = objs.split() + [f"-{w}" for w in kw.pop("refuse", "").split()]
    want = frozenset(w for w in words if w[0] != "-")
    refuse = frozenset(w[1:] for w in words if w[0] == "-")
    kw["after"] = frozenset(kw.get("after", "").split())
    return Verb(key, tuple(en.split("|")), tmpl, tuple(de.split("|")) if de else ("", ""), want, refuse, **kw)


PUT = (("sit", "setzt|setzen", ""), ("stand", "stellt|stellen", ""), ("lie", "legt|legen", ""))
PUT_DOWN = (("sit", "setzt|setzen", "ab"), ("stand", "stellt|stellen", "ab"), ("lie", "legt|legen", "hin"))
PICK_UP = (("sit", "hebt|heben", "hoch"), ("stand", "hebt|heben", "auf"), ("lie", "hebt|heben", "auf"))
PUT_ON = (("hat", "setzt|setzen", "auf"), ("wear", "zieht|ziehen", "an"))
TAKE_OFF = (("hat", "nimmt|nehmen", "ab"), ("wear", "zieht|ziehen", "aus"))
# complements with a person: "{his}" says the subject's possessive, "{P:dat:f}" its German
# ("seiner", "ihrer"), "{FRIEND:dat}" the friend of the subject's sex ("seinem Freund", "ihrer Freundin")
GIVE_TO = (("{his} sister", "{P:dat:f} Schwester"), ("{his} mother", "{P:dat:f} Mutter"),
           ("{his} brother", "{P:dat:m} Bruder"), ("a child", "einem Kind"), ("{his} friend", "{FRIEND:dat}"),
           ("an old woman", "einer alten Frau"), ("a little boy", "einem kleinen Jungen"),
           ("{his} grandfather", "{P:dat:m} Großvater"))
SHOW_TO = (("{his} mother", "{P:dat:f} Mutter"), ("{his} father", "{P:dat:m} Vater"),
           ("{his} friend", "{FRIEND:dat}"), ("{his} grandmother", "{P:dat:f} Großmutter"),
           ("the children", "den Kindern"), ("{his} teacher", "{P:dat:m} Lehrer"))
SHARE_WITH = (("{his} sister", "{P:dat:f} Schwester"), ("{his} brother", "{P:dat:m} Bruder"),
              ("{his} friend", "{FRIEND:dat}"), ("a child", "einem Kind"), ("{his} dog", "{P:dat:m} Hund"))

_CARRIED = "buy find pick catch_fish pick_up get choose bake catch_animal"
# first verbs: they bring the thing into the scene ("A woman buys a melon")
FIRST = (
    V("buy", "buys|buy", "{V} {O}", "kauft|kaufen", "buy"),
    V("choose", "chooses|choose", "{V} {O}", "sucht|suchen", "fruit veg clothes hat flower", last="aus"),
    V("find", "finds|find", "{V} {O}", "findet|finden", "find young small turtle", refuse="insect snail mouse",
      subj="pd"),
    V("pick", "picks|pick", "{V} {O}", "pflückt|pflücken", "pick", forms=(("mushroom", "sammelt|sammeln", ""),)),
    V("catch_fish", "catches|catch", "{V} {O}", "fängt|fangen", "fish"),
    V("catch_animal", "catches|catch", "{V} {O}", "fängt|fangen", "butterfly frog crab"),
    V("catch", "catches|catch", "{V} {O}", "fängt|fangen", "ball frisbee", subj="pd", one=True),
    V("see", "sees|see", "{V} {O}", "sieht|sehen", "animal", refuse="insect snail", subj="pd"),
    V("pick_up", "picks|pick", "{V} up {O}", "", "carry hold", refuse="heavy", forms=PICK_UP),
    V("get", "gets|get", "{V} {O}", "bekommt|bekommen",
      "balloon present ice_cream book flower kite teddy_bear doll puzzle sled guitar violin"),
    # what does not exist before the verb takes "a": "builds a snowman", never "builds the snowman"
    V("bake", "bakes|bake", "{V} {O}", "bäckt|backen", "bake", det="a"),
    V("build", "builds|build", "{V} {O}", "baut|bauen", "snowman sandcastle", det="a"),
    V("unpack", "unpacks|unpack", "{V} {O}", "packt|packen", "present", last="aus"),
    V("wash1", "washes|wash", "{V} {O}", "wäscht|waschen", "fruit veg car bike dog shirt T-shirt towel dress sweater",
      refuse="banana orange pineapple coconut onion melon pumpkin"),
    V("fill1", "fills|fill", "{V} {O} with water", "füllt|füllen", "bucket bottle watering_can glass jug vase pot",
      mid="mit Wasser"),
    V("throw_up", "throws|throw", "{V} {O} into the air", "wirft|werfen", "ball frisbee", mid="in die Luft", one=True),
    V("make", "makes|make", "{V} {O}", "macht|machen", "snowball", det="a"),
    V("carry_in", "carries|carry", "{V} {O} into the house", "trägt|tragen", "carry hold", refuse="heavy",
      mid="ins Haus"),
)
# second verbs: "and carries it home" -> "und trägt ihn nach Hause"
SECOND = (
    V("carry_home", "carries|carry", "{V} {O} home", "trägt|tragen", "carry hold", refuse="heavy animal",
      mid="nach Hause", after=_CARRIED, subj="pd"),
    V("carry_to", "carries|carry", "{V} {O} {C}", "trägt|tragen", "carry hold", refuse="heavy", mid="{C}",
      comps=(("to the car", "zum Auto"), ("into the house", "ins Haus"), ("to the kitchen", "in die Küche"),
             ("to {his} mother", "zu {P:dat:f} Mutter"), ("to {his} father", "zu {P:dat:m} Vater")), after=_CARRIED),
    V("take_home", "takes|take", "{V} {O} home", "nimmt|nehmen", "carry hold", refuse="heavy",
      mid="mit nach Hause", after=_CARRIED),
    V("put", "puts|put", "{V} {O} {C}", "", "carry", refuse="animal heavy", mid="{C}", forms=PUT,
      comps=(("in a basket", "in einen Korb", "food toy small"), ("on the table", "auf den Tisch", ""),
             ("in the fridge", "in den Kühlschrank", "eat -ice_cream"),
             ("in {his} bag", "in {P:acc:f} Tasche", "small book fruit"),
             ("in {his} backpack", "in {P:acc:m} Rucksack", "book small fruit")),
      after="buy pick find wash1 pick_up bake get catch_fish"),
    V("put_down", "puts|put", "{V} {O} down", "", "carry hold", forms=PUT_DOWN, after="carry_in"),
    V("pick_up2", "picks|pick", "{V} {O} up", "", "carry hold", refuse="heavy", forms=PICK_UP, after="see find"),
    V("throw_back", "throws|throw", "{V} {O} back into the water", "wirft|werfen", "fish", mid="ins Wasser",
      last="zurück", after="catch_fish"),
    V("throw_back2", "throws|throw", "{V} {O} back", "wirft|werfen", "ball frisbee", last="zurück", after="catch"),
    V("throw_to", "throws|throw", "{V} {O} to {C}", "wirft|werfen", "ball frisbee stick", mid="{C}", last="zu",
      comps=(("{his} dog", "{P:dat:m} Hund"), ("a boy", "einem Jungen"), ("a girl", "einem Mädchen"),
             ("{his} friend", "{FRIEND:dat}"), ("the dog", "dem Hund")), after="find catch pick_up buy get"),
    V("throw_into", "throws|throw", "{V} {O} {C}", "wirft|werfen", "stone stick", mid="{C}",
      comps=(("into the lake", "in den See"), ("into the river", "in den Fluss"), ("into the water", "ins Wasser")),
      after="find pick_up"),
    V("kick", "kicks|kick", "{V} {O} {C}", "schießt|schießen", "ball", mid="{C}",
      comps=(("over the fence", "über den Zaun"), ("into the goal", "ins Tor")), after="find get buy"),
    V("give_to", "gives|give", "{V} {O} to {C}", "gibt|geben", "give food flower toy", refuse="heavy",
      mid="{C}", comps=GIVE_TO, after="buy pick find get bake catch_fish"),
    V("show_to", "shows|show", "{V} {O} to {C}", "zeigt|zeigen", "find buy fish young small flower snowman sandcastle",
      refuse="insect", mid="{C}", comps=SHOW_TO, after="find buy get catch_fish pick build unpack catch_animal"),
    V("eat", "eats|eat", "{V} {O}", "isst|essen", "eat", refuse="melon pineapple",
      after="buy pick wash1 get bake choose"),
    V("eat_bench", "eats|eat", "{V} {O} on a bench", "isst|essen", "eat", refuse="melon pineapple",
      mid="auf einer Bank", after="buy get"),
    V("cut", "cuts|cut", "{V} {O} into pieces", "schneidet|schneiden", "cut", mid="in Stücke",
      after="buy pick wash1 bake choose"),
    V("cut_half", "cuts|cut", "{V} {O} in half", "schneidet|schneiden", "fruit veg sandwich",
      refuse="strawberry cherry", mid="in zwei Hälften", after="buy pick wash1 choose"),
    V("peel", "peels|peel", "{V} {O}", "schält|schälen", "peel", after="buy pick wash1 choose get"),
    V("wash", "washes|wash", "{V} {O}", "wäscht|waschen", "fruit veg",
      refuse="banana orange pineapple coconut onion melon pumpkin lemon", after="buy pick"),
    V("cook", "cooks|cook", "{V} {O}", "kocht|kochen", "cook", refuse="fish egg potato", after="buy wash1 find pick"),
    V("boil", "boils|boil", "{V} {O}", "kocht|kochen", "egg potato", after="buy wash1 find"),
    V("fry", "fries|fry", "{V} {O}", "brät|braten", "fry", after="catch_fish buy find pick"),
    V("grill", "grills|grill", "{V} {O}", "grillt|grillen", "sausage fish", after="buy catch_fish"),
    V("taste", "tastes|taste", "{V} {O}", "probiert|probieren", "bake fruit", after="bake buy pick"),
    V("open", "opens|open", "{V} {O}", "öffnet|öffnen", "open", refuse="door window gate cage",
      after="get find buy unpack pick_up"),
    V("close", "closes|close", "{V} {O}", "macht|machen", "bottle", last="zu", after="fill1"),
    V("put_on", "puts|put", "{V} {O} on", "", "wear hat", forms=PUT_ON, after="buy find choose get"),
    V("try_on", "tries|try", "{V} {O} on", "probiert|probieren", "wear hat", refuse="sock", last="an",
      after="find choose"),
    V("hang_up", "hangs|hang", "{V} {O} up", "hängt|hängen", "hang", refuse="picture clock flag mirror", last="auf",
      after="buy wash1"),
    V("hang_wall", "hangs|hang", "{V} {O} on the wall", "hängt|hängen", "picture clock mirror", mid="an die Wand",
      after="buy get find"),
    V("fold", "folds|fold", "{V} {O}", "faltet|falten", "fold", last="zusammen", after="wash1 buy"),
    V("iron", "irons|iron", "{V} {O}", "bügelt|bügeln", "iron", after="wash1 buy"),
    V("plant", "plants|plant", "{V} {O} in the garden", "pflanzt|pflanzen", "plantable", refuse="cactus",
      mid="im Garten", last="ein", after="buy get"),
    V("water", "waters|water", "{V} {O}", "gießt|gießen", "plant cactus", after="buy get"),
    V("feed", "feeds|feed", "{V} {O}", "füttert|füttern", "feed", after="see find"),
    V("pet", "pets|pet", "{V} {O}", "streichelt|streicheln", "pet", after="see find pick_up"),
    V("brush", "brushes|brush", "{V} {O}", "bürstet|bürsten", "brush", after="see wash1"),
    V("photograph", "photographs|photograph", "{V} {O}", "fotografiert|fotografieren",
      "animal snowman sandcastle flower cake", refuse="insect", after="see build bake pick"),
    V("draw", "draws|draw", "{V} {O}", "zeichnet|zeichnen", "animal flower", refuse="insect", after="see pick"),
    V("hug", "hugs|hug", "{V} {O}", "umarmt|umarmen", "hug puppy kitten dog", after="get find buy"),
    V("set_free", "sets|set", "{V} {O} free", "lässt|lassen", "fish butterfly frog crab", last="frei",
      after="catch_fish catch_animal"),
    V("let_go", "lets|let", "{V} {O} go", "lässt|lassen", "balloon", last="los", after="buy get"),
    V("fly_kite", "flies|fly", "{V} {O} {C}", "lässt|lassen", "kite", mid="{C}", last="steigen",
      comps=(("on the beach", "am Strand"), ("in the park", "im Park"), ("in a field", "auf einem Feld")),
      after="buy get"),
    V("bring_back", "brings|bring", "{V} {O} back", "bringt|bringen", "ball frisbee stick", last="zurück",
      subj="pd", after="find catch"),
    V("bury", "buries|bury", "{V} {O} in the garden", "vergräbt|vergraben", "bone", mid="im Garten", subj="d",
      after="find"),
    V("repair", "repairs|repair", "{V} {O}", "repariert|reparieren", "repair", after="find buy"),
    V("paint", "paints|paint", "{V} {O} {C}", "streicht|streichen", "paint", mid="{C}", last="an", comps="COLOR",
      after="buy find"),
    V("fill", "fills|fill", "{V} {O} with water", "füllt|füllen",
      "bucket bottle watering_can glass jug vase pot bowl", mid="mit Wasser", after="buy find"),
    V("fill_sand", "fills|fill", "{V} {O} with sand", "füllt|füllen", "bucket", mid="mit Sand", after="buy find"),
    V("push_home", "pushes|push", "{V} {O} home", "schiebt|schieben", "push", refuse="car boat canoe shopping_cart",
      mid="nach Hause", after="buy repair"),
    V("pull", "pulls|pull", "{V} {O} up the hill", "zieht|ziehen", "sled", mid="den Hügel hinauf", after="buy get"),
    V("park", "parks|park", "{V} {O} in front of the house", "parkt|parken", "park", mid="vor dem Haus", subj="a",
      after="buy wash1"),
    V("switch_on", "turns|turn", "{V} {O} on", "schaltet|schalten", "switch", last="ein", after="buy find get"),
    V("light", "lights|light", "{V} {O}", "zündet|zünden", "candle", last="an", after="buy find get"),
    V("read", "reads|read", "{V} {O}", "liest|lesen", "read", after="buy find get"),
    V("read_bench", "reads|read", "{V} {O} on a bench", "liest|lesen", "book newspaper", mid="auf einer Bank",
      after="buy get"),
    V("wrap", "wraps|wrap", "{V} {O}", "packt|packen", "wrap", last="ein", after="buy"),
    V("hide", "hides|hide", "{V} {O} {C}", "versteckt|verstecken", "hide", mid="{C}", subj="pd",
      comps=(("under the bed", "unter dem Bett"), ("behind a tree", "hinter einem Baum"),
             ("in the garden", "im Garten"), ("under a cushion", "unter einem Kissen")), after="find buy get"),
    V("share", "shares|share", "{V} {O} with {C}", "teilt|teilen", "eat", refuse="ice_cream", mid="mit {C}",
      comps=SHARE_WITH, after="buy get bake pick"),
    V("sell", "sells|sell", "{V} {O} at the market", "verkauft|verkaufen", "fish fruit veg flower", subj="a",
      mid="auf dem Markt", after="catch_fish pick"),
    V("weigh", "weighs|weigh", "{V} {O}", "wiegt|wiegen", "weigh", after="buy catch_fish pick choose"),
    V("load", "loads|load", "{V} {O} onto the truck", "lädt|laden", "box sofa pumpkin table chair piano",
      mid="auf den Lastwagen", subj="a", after="buy pick"),
    V("lean", "leans|lean", "{V} {O} against the wall", "lehnt|lehnen", "lean", mid="an die Wand",
      after="wash1 repair find"),
    V("put_up", "puts|put", "{V} {O} up", "baut|bauen", "tent", last="auf", after="buy unpack"),
    V("dry", "dries|dry", "{V} {O}", "trocknet|trocknen", "dog puppy", last="ab", after="wash1"),
    V("clean", "cleans|clean", "{V} {O}", "putzt|putzen", "clean", after="find buy"),
    V("polish", "polishes|polish", "{V} {O}", "poliert|polieren", "polish", after="find buy"),
    V("tune", "tunes|tune", "{V} {O}", "stimmt|stimmen", "tune", after="buy get find"),
    V("wave", "waves|wave", "{V} {O}", "schwenkt|schwenken", "flag", after="buy get"),
    V("catch_again", "catches|catch", "{V} {O} again", "fängt|fangen", "ball frisbee", mid="wieder",
      after="throw_up"),
    V("throw_snowball", "throws|throw", "{V} {O} {C}", "wirft|werfen", "snowball", mid="{C}", after="make",
      comps=(("at {his} brother", "auf {P:acc:m} Bruder"), ("at {his} sister", "auf {P:acc:f} Schwester"),
             ("at a tree", "gegen einen Baum"), ("at {his} friend", "auf {FRIEND:acc}"))),
)
# second verbs with a dative pronoun: "plays with it" -> "spielt mit ihm", "runs after it" ->
# "läuft ihm hinterher"; a thing only where no preposition comes first (German says "damit")
DATIVE = (
    V("play_with", "plays|play", "{V} with {O}", "spielt|spielen", "pet young", refuse="horse cow", obj="mit+dat",
      after="see find"),
    V("play_ball", "plays|play", "{V} ball with {O}", "spielt|spielen", "dog puppy", obj="mit+dat", mid="Ball",
      after="see find"),
    V("talk_to", "talks|talk", "{V} to {O}", "spricht|sprechen", "pet talk", obj="mit+dat", after="see find"),
    V("run_after", "runs|run", "{V} after {O}", "läuft|laufen", "walk ball balloon hat", obj="dat",
      refuse="big slow zoo wild", last="hinterher", after="see", subj="pd"),
    V("give_food", "gives|give", "{V} {O} {C}", "gibt|geben", "feed", obj="dat", mid="{C}", comps="FOOD",
      after="see find"),
    V("give_water", "gives|give", "{V} {O} some water", "gibt|geben", "pet", refuse="fish", obj="dat",
      mid="etwas Wasser", after="see find"),
    V("bring_water", "brings|bring", "{V} {O} a bowl of water", "bringt|bringen", "dog cat", obj="dat",
      mid="eine Schüssel Wasser", after="see find"),
    V("hold_out", "holds|hold", "{V} out {C} to {O}", "hält|halten", "feed", obj="dat", mid="{C}", last="hin",
      comps="FOOD", after="see"),
    V("follow", "follows|follow", "{V} {O}", "folgt|folgen", "walk swim", refuse="big zoo fish", obj="dat",
      after="see", subj="pd"),
    V("help", "helps|help", "{V} {O}", "hilft|helfen", "young turtle hedgehog", obj="dat", after="find see"),
    V("sit_next", "sits|sit", "{V} next to {O}", "sitzt|sitzen", "pet", refuse="avian", obj="neben+dat",
      after="see find"),
    V("stand_front", "stands|stand", "{V} in front of {O}", "steht|stehen", "big", obj="vor+dat", after="see"),
    V("listen", "listens|listen", "{V} to {O}", "hört|hören", "sing talk", obj="dat", last="zu", after="see"),
    V("approach", "approaches|approach", "{V} {O} slowly", "nähert|nähern", "wild feed", refuse="insect",
      obj="dat", refl=True, mid="langsam", after="see"),
    V("throw_ball", "throws|throw", "{V} {O} {C}", "wirft|werfen", "dog puppy", obj="dat", mid="{C}",
      last="zu", comps=(("a ball", "einen Ball"), ("a stick", "einen Stock")), after="see"),
    V("run_to", "runs|run", "{V} to {O}", "läuft|laufen", "pet", obj="zu+dat", after="see"),
    V("swim_with", "swims|swim", "{V} with {O}", "schwimmt|schwimmen", "dolphin", obj="mit+dat",
      after="see"),
    V("photo_with", "takes|take", "{V} a photo with {O}", "macht|machen", "big pet", refuse="wild", obj="mit+dat",
      mid="ein Foto", after="see"),
    # with people: "them" -> "ihnen"
    V("wave_to", "waves|wave", "{V} to {O}", "winkt|winken", "people", obj="dat", last="zu", after="see"),
    V("say_bye", "says|say", "{V} goodbye to {O}", "verabschiedet|verabschieden", "people", obj="von+dat",
      refl=True, after="hug_people"),
    V("read_to", "reads|read", "{V} {O} a story", "liest|lesen", "children", obj="dat", mid="eine Geschichte",
      last="vor", after="meet see", subj="a"),
    V("explain", "explains|explain", "{V} the game to {O}", "erklärt|erklären", "children players", obj="dat",
      mid="das Spiel", after="meet", subj="a"),
    V("shake_hands", "shakes|shake", "{V} hands with {O}", "gibt|geben", "adults", obj="dat", mid="die Hand",
      after="meet", subj="a"),
    V("dance_with", "dances|dance", "{V} with {O}", "tanzt|tanzen", "children friends", obj="mit+dat", after="meet"),
    V("talk_people", "talks|talk", "{V} to {O}", "spricht|sprechen", "people", obj="mit+dat", after="meet see"),
    V("help_people", "helps|help", "{V} {O}", "hilft|helfen", "people", obj="dat", after="see meet"),
    V("bring_drinks", "brings|bring", "{V} {O} some lemonade", "bringt|bringen", "people", obj="dat",
      mid="etwas Limonade", after="see meet"),
    V("play_people", "plays|play", "{V} football with {O}", "spielt|spielen", "children", obj="mit+dat",
      mid="Fußball", after="meet see"),
)
MEET = V("meet", "meets|meet", "{V} {O}", "trifft|treffen", "people")
HUG_PEOPLE = V("hug_people", "hugs|hug", "{V} {O}", "umarmt|umarmen", "people")  # "... and says goodbye to them"
BY_KEY = {v.key: v for v in (*FIRST, *SECOND, *DATIVE, MEET, HUG_PEOPLE)}
assert len(BY_KEY) == len(FIRST) + len(SECOND) + len(DATIVE) + 2
assert all(a in BY_KEY for v in (*SECOND, *DATIVE) for a in v.after), "after names an unknown verb"
