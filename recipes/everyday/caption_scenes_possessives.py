"""What animals, things and people have, for the possessives of recipes/everyday/caption_scenes.py.

German chooses sein- or ihr- by the OWNER (a dog: sein, a cat: ihr, the children: ihr) and the
ending by the OWNED noun's gender, number and case ("wedelt mit seinem Schwanz", "leckt ihre
Pfote", "sitzt auf seinen Eiern"). A row names the owners it is said of and the owned nouns that
go with them, so a dog wags its tail and a horse swishes its tail, and no cat raises its trunk.
"""
from __future__ import annotations

from dataclasses import dataclass

from recipes.everyday.caption_scenes_lexicon import ALL, FAMILY, PARTS, Noun
from recipes.everyday.tables import rows


@dataclass(frozen=True)
class Own:
    """A verb with an owned noun: "{V} {POSS}" in English, the German object's case or
    preposition ("mit+dat"), and the owned nouns by owner: ((owner tags, owned keys), ...)."""

    key: str
    en: tuple[str, str]
    tmpl: str  # "{V} {POSS}", "{V} with {POSS} {C}"
    de: tuple[str, str]
    obj: str  # "acc", "dat", "mit+dat"
    pairs: tuple[tuple[frozenset[str], tuple[str, ...]], ...]
    last: str = ""
    mid: str = ""  # German after the owned noun; "{C}" a complement
    comps: tuple = ()
    number: str = "sg"  # the owned noun's number: "sg", "pl", "each" (plural for several owners)
    refl: bool = False
    forms: tuple = ()  # (tag, "setzt|setzen", last) by the owned noun
    adult: bool = False
    child: bool = False
    c_first: bool = False  # German says the complement first: "wartet am Bahnhof auf seine Mutter"

    def owned(self, owner) -> list[str]:
        have = {*owner.tags, owner.cls, owner.key} if isinstance(owner, Noun) else {"person", owner.key}
        return [k for tags, keys in self.pairs if tags & have for k in keys]


def O(key: str, en: str, tmpl: str, de: str, obj: str, pairs: str, **kw) -> Own:
    """pairs: "dog puppy: tail; cat: paw fur": owner tags, then owned keys, ";" between."""
    out = []
    for part in pairs.split(";"):
        owners, _, owned = part.partition(":")
        out.append((frozenset(owners.split()), tuple(owned.split())))
    return Own(key, tuple(en.split("|")), tmpl, tuple(de.split("|")), obj, tuple(out), **kw)


def owned_noun(key: str) -> Noun:
    return PARTS.get(key) or ALL.get(key) or FAMILY[key]


# an animal and its body: "A dog wags its tail" -> "Ein Hund wedelt mit seinem Schwanz"
BODY = (
    O("wag", "wags|wag", "{V} {POSS}", "wedelt|wedeln", "mit+dat", "dog puppy: tail", number="each"),
    O("swish", "swishes|swish", "{V} {POSS}", "schlägt|schlagen", "mit+dat", "horse cow pony donkey: tail",
      number="each"),
    O("lick", "licks|lick", "{V} {POSS}", "leckt|lecken", "acc", "paws: paw", number="either"),
    O("lick_fur", "licks|lick", "{V} {POSS}", "leckt|lecken", "acc", "cat kitten: fur"),
    O("lift_paw", "lifts|lift", "{V} {POSS}", "hebt|heben", "acc", "dog puppy cat kitten bear: paw", number="each"),
    O("spread", "spreads|spread", "{V} {POSS}", "breitet|breiten", "acc", "fly: wing", last="aus", number="pl"),
    O("flap", "flaps|flap", "{V} {POSS}", "schlägt|schlagen", "mit+dat", "avian: wing", number="pl"),
    O("shake", "shakes|shake", "{V} {POSS}", "schüttelt|schütteln", "acc",
      "horse pony dog donkey goat cow elephant: head; mane: mane", number="each"),
    O("raise_trunk", "raises|raise", "{V} {POSS}", "hebt|heben", "acc", "elephant: trunk", number="each"),
    O("stretch", "stretches|stretch", "{V} {POSS}", "streckt|strecken", "acc", "giraffe swan goose horse: neck",
      number="each"),
    O("preen", "preens|preen", "{V} {POSS}", "putzt|putzen", "acc", "avian: feather", number="pl"),
    O("groom", "cleans|clean", "{V} {POSS}", "putzt|putzen", "acc", "cat kitten rabbit: fur"),
    O("prick", "pricks up|prick up", "{V} {POSS}", "spitzt|spitzen", "acc",
      "dog horse rabbit donkey cat fox deer pony: ear", number="pl"),
    O("open_beak", "opens|open", "{V} {POSS}", "öffnet|öffnen", "acc", "avian: beak", number="each"),
    O("dip", "dips|dip", "{V} {POSS} into the water", "taucht|tauchen", "acc", "duck swan goose: head",
      mid="ins Wasser", number="each"),
    O("teeth", "shows|show", "{V} {POSS}", "zeigt|zeigen", "acc", "dog lion tiger wolf monkey: tooth", number="pl"),
    O("close_eyes", "closes|close", "{V} {POSS}", "schließt|schließen", "acc", "mammal avian: eye", number="pl"),
    O("pull_in", "pulls in|pull in", "{V} {POSS}", "zieht|ziehen", "acc", "turtle: head", last="ein", number="each"),
    O("build_nest", "builds|build", "{V} {POSS}", "baut|bauen", "acc", "bird pigeon seagull owl eagle: nest",
      number="each"),
)
# an animal and what it has: "A dog sleeps in its basket", "A chick follows its mother"
HAS = (
    O("sleep_in", "sleeps|sleep", "{V} in {POSS}", "schläft|schlafen", "in+dat",
      "dog puppy: basket kennel; cat kitten: basket; bird owl eagle: nest; horse cow donkey pig goat pony: stall;"
      " hamster parrot rabbit guinea_pig: cage"),
    O("eat_from", "eats|eat", "{V} from {POSS}", "frisst|fressen", "aus+dat",
      "dog cat puppy kitten rabbit hamster guinea_pig: bowl"),
    O("drink_from", "drinks|drink", "{V} from {POSS}", "trinkt|trinken", "aus+dat", "dog cat puppy kitten: bowl"),
    O("play_with", "plays|play", "{V} with {POSS}", "spielt|spielen", "mit+dat",
      "dog puppy cat kitten: ball toy; young: mother; dog puppy: owner"),
    O("run_to", "runs|run", "{V} to {POSS}", "läuft|laufen", "zu+dat",
      "dog cat horse pony puppy: owner; young: mother"),
    O("wait_for", "waits|wait", "{V} for {POSS}", "wartet|warten", "auf+acc", "dog cat puppy: owner; young: mother"),
    O("stay_next", "stays|stay", "{V} next to {POSS}", "bleibt|bleiben", "neben+dat", "young: mother"),
    O("lie_next", "lies|lie", "{V} next to {POSS}", "liegt|liegen", "neben+dat", "young: mother"),
    O("follow", "follows|follow", "{V} {POSS}", "folgt|folgen", "dat", "young: mother; dog puppy: owner"),
    O("carry", "carries|carry", "{V} {POSS}", "trägt|tragen", "acc", "dog puppy: bone ball stick toy",
      number="each"),
    O("look_for", "looks|look", "{V} for {POSS}", "sucht|suchen", "acc",
      "dog puppy: ball owner bone toy; young: mother; cat: kitten"),
    O("chew", "chews|chew", "{V} on {POSS}", "kaut|kauen", "auf+dat", "dog puppy: bone toy", number="each"),
    O("sit_eggs", "sits|sit", "{V} on {POSS}", "sitzt|sitzen", "auf+dat", "chicken duck goose swan: egg",
      number="pl"),
    O("feed_young", "feeds|feed", "{V} {POSS}", "füttert|füttern", "acc",
      "bird duck swan chicken goose pigeon: chick", number="pl"),
    O("leash", "pulls|pull", "{V} on {POSS}", "zieht|ziehen", "an+dat", "dog: leash"),
)
# an animal and its young (or its owner) doing something together: "A duck and its chicks swim ..."
TOGETHER = (
    ("duck swan goose chicken", "chick", "pl"), ("horse pony", "foal", "sg"), ("cow", "calf", "sg"),
    ("sheep", "lamb", "pl"), ("cat", "kitten", "pl"), ("dog", "puppy", "pl"), ("pig", "piglet", "pl"),
    ("dog", "owner", "sg"),
)
TOGETHER_DO = (  # plural English, plural German, who may do it (the owner's and the owned's tags)
    ("swim on the lake", "schwimmen auf dem See", "duck swan goose"),
    ("stand in a field", "stehen auf einem Feld", "graze"),
    ("graze in a meadow", "grasen auf einer Wiese", "graze"),
    ("sleep in a basket", "schlafen in einem Korb", "cat"),
    ("play in the garden", "spielen im Garten", "cat dog"),
    ("lie in the sun", "liegen in der Sonne", "cat dog pig"),
    ("walk along the beach", "gehen am Strand entlang", "dog"),
    ("walk through the park", "gehen durch den Park", "dog"),
    ("look for food", "suchen nach Futter", "chicken duck goose pig"),
    ("run across the meadow", "laufen über die Wiese", "horse pony dog sheep"),
)
# a thing and its parts ("A man washes the car and its wheels"), and the part it is held by
# (BY_PART: "A girl holds a balloon by its string" -> "... an seiner Schnur"): (owners, parts,
# verbs) rows of data/caption_scenes_parts.tsv
_PARTS = [(r["table"], (r["owners"], r["parts"], r["verbs"])) for r in rows("caption_scenes_parts.tsv")]
THING_PARTS = tuple(row for table, row in _PARTS if table == "THING_PARTS")
BY_PART = tuple(row for table, row in _PARTS if table == "BY_PART")
THING_VERBS = {  # English, German, last part
    "wash": ("washes|wash", "wäscht|waschen", ""), "clean": ("cleans|clean", "reinigt|reinigen", ""),
    "photograph": ("photographs|photograph", "fotografiert|fotografieren", ""),
    "look": ("looks at|look at", "betrachtet|betrachten", ""), "check": ("checks|check", "prüft|prüfen", ""),
    "repair": ("repairs|repair", "repariert|reparieren", ""), "paint": ("paints|paint", "streicht|streichen", "an"),
    "draw": ("draws|draw", "zeichnet|zeichnen", ""), "iron": ("irons|iron", "bügelt|bügeln", ""),
}
THING_LOOK = {"photographs|photograph": "photograph", "looks at|look at": "look", "draws|draw": "draw"}
BY_VERBS = {"hold": ("holds|hold", "hält|halten", ""), "pull": ("pulls|pull", "zieht|ziehen", ""),
            "carry": ("carries|carry", "trägt|tragen", ""), "lift": ("lifts|lift", "hebt|heben", "hoch"),
            "push": ("pushes|push", "schiebt|schieben", "")}
# a thing that does something with its part: "A tree loses its leaves"
THING_DOES = (
    ("tree", "leaf", "loses|lose", "verliert|verlieren", "", "pl"),
    ("bus train tram", "door", "opens|open", "öffnet|öffnen", "", "pl"),
    ("car truck taxi bus", "headlight", "turns on|turn on", "schaltet|schalten", "ein", "pl"),
    ("flower sunflower tulip rose", "petal", "opens|open", "öffnet|öffnen", "", "pl"),
)

_RIDE = (("through the park", "durch den Park"), ("along the street", "die Straße entlang"),
         ("along the beach", "am Strand entlang"), ("", ""))
_HORSE = (("across the field", "über das Feld"), ("along the beach", "am Strand entlang"), ("", ""))
_SIT = (("on a bench", "auf einer Bank"), ("on the sofa", "auf dem Sofa"), ("on the grass", "im Gras"),
        ("in the garden", "im Garten"))
_WALK = (("through the park", "durch den Park"), ("along the beach", "am Strand entlang"),
         ("across a field", "über ein Feld"), ("through the snow", "durch den Schnee"))
_GIFT = (("an ice cream", "ein Eis"), ("a balloon", "einen Luftballon"), ("an apple", "einen Apfel"),
         ("a book", "ein Buch"), ("a present", "ein Geschenk"))
_SHOW = (("a shell", "eine Muschel"), ("a photo", "ein Foto"), ("a picture", "ein Bild"),
         ("a bird", "einen Vogel"), ("a map", "eine Karte"))
_KIN = "mother father son daughter friend sister brother grandmother grandfather"
# a person and what is theirs: "A man walks his dog", "A woman sits with her daughter on a bench"
PERSON = (
    O("walk_out", "walks|walk", "{V} {POSS}", "führt|führen", "acc", "person: dog", last="aus"),
    O("walk_dog", "walks|walk", "{V} {POSS} {C}", "geht|gehen", "mit+dat", "person: dog", mid="{C}",
      last="spazieren", comps=(("in the park", "im Park"), ("on the beach", "am Strand"), ("", ""))),
    O("feed", "feeds|feed", "{V} {POSS}", "füttert|füttern", "acc",
      "person: dog cat horse rabbit goat pony hamster parrot puppy kitten guinea_pig donkey chicken", number="each"),
    O("brush", "brushes|brush", "{V} {POSS}", "bürstet|bürsten", "acc", "person: horse dog pony cat donkey"),
    O("ride_bike", "rides|ride", "{V} {POSS} {C}", "fährt|fahren", "mit+dat", "person: bike scooter",
      mid="{C}", comps=_RIDE, number="each"),
    O("ride_horse", "rides|ride", "{V} {POSS} {C}", "reitet|reiten", "auf+dat", "person: horse pony", mid="{C}",
      comps=_HORSE, number="each"),
    O("push", "pushes|push", "{V} {POSS} {C}", "schiebt|schieben", "acc", "person: bike stroller wheelbarrow scooter",
      mid="{C}", comps=(("up the hill", "den Hügel hinauf"), ("through the park", "durch den Park"), ("", "")),
      number="each"),
    O("wash", "washes|wash", "{V} {POSS}", "wäscht|waschen", "acc", "person: car dog bike motorbike horse",
      adult=True),
    O("repair", "repairs|repair", "{V} {POSS}", "repariert|reparieren", "acc",
      "person: bike car umbrella kite skateboard motorbike scooter", number="each"),
    O("carry", "carries|carry", "{V} {POSS} {C}", "trägt|tragen", "acc",
      "person: bag guitar backpack baby skateboard surfboard violin basket", mid="{C}",
      comps=(("to the car", "zum Auto"), ("into the house", "ins Haus"), ("", "")), number="each"),
    O("hold", "holds|hold", "{V} {POSS}", "hält|halten", "acc", "person: umbrella hat kite baby phone camera cup",
      number="each"),
    O("open", "opens|open", "{V} {POSS}", "öffnet|öffnen", "acc", "person: umbrella bag backpack",
      forms=(("umbrella", "spannt|spannen", "auf"),), number="each"),
    O("put_on", "puts on|put on", "{V} {POSS}", "", "acc", "person: hat cap helmet jacket coat shoe boot glove sweater",
      forms=(("hat", "setzt|setzen", "auf"), ("wear", "zieht|ziehen", "an")), number="each"),
    O("take_off", "takes off|take off", "{V} {POSS}", "", "acc", "person: hat cap helmet jacket coat shoe boot glove",
      forms=(("hat", "nimmt|nehmen", "ab"), ("wear", "zieht|ziehen", "aus")), number="each"),
    O("look_for", "looks|look", "{V} for {POSS}", "sucht|suchen", "acc",
      "person: key phone ball dog cat hat umbrella bag glove shoe mother"),
    O("read", "reads|read", "{V} {POSS}", "liest|lesen", "acc", "person: book newspaper letter", number="each"),
    O("play", "plays|play", "{V} {POSS}", "spielt|spielen", "auf+dat", "person: guitar violin piano accordion flute",
      number="each"),
    O("tune", "tunes|tune", "{V} {POSS}", "stimmt|stimmen", "acc", "person: guitar violin", number="each"),
    O("fly_kite", "flies|fly", "{V} {POSS} {C}", "lässt|lassen", "acc", "person: kite", mid="{C}", last="steigen",
      comps=(("on the beach", "am Strand"), ("in a field", "auf einem Feld"), ("in the park", "im Park")),
      number="each"),
    O("hug", "hugs|hug", "{V} {POSS}", "umarmt|umarmen", "acc", f"person: {_KIN} dog teddy_bear"),
    O("kiss", "kisses|kiss", "{V} {POSS}", "küsst|küssen", "acc", "person: baby daughter son wife husband",
      adult=True),
    O("wait_for", "waits|wait", "{V} for {POSS} {C}", "wartet|warten", "auf+acc",
      "person: friend mother father dog son daughter", c_first=True,
      comps=(("at the station", "am Bahnhof"), ("in the park", "im Park"), ("", ""))),
    O("talk_to", "talks|talk", "{V} to {POSS}", "spricht|sprechen", "mit+dat", f"person: {_KIN}"),
    O("sit_with", "sits|sit", "{V} with {POSS} {C}", "sitzt|sitzen", "mit+dat",
      "person: daughter son friend mother father dog grandmother", mid="{C}", comps=_SIT),
    O("walk_with", "walks|walk", "{V} with {POSS} {C}", "geht|gehen", "mit+dat",
      "person: dog daughter son friend mother father", mid="{C}", comps=_WALK),
    O("play_with", "plays|play", "{V} with {POSS}", "spielt|spielen", "mit+dat",
      "person: dog son daughter friend brother sister puppy kitten"),
    O("stand_next", "stands|stand", "{V} next to {POSS}", "steht|stehen", "neben+dat",
      "person: car bike horse motorbike friend"),
    O("sit_on", "sits|sit", "{V} on {POSS}", "sitzt|sitzen", "auf+dat", "person: bike horse motorbike scooter sled",
      number="each"),
    O("hide_behind", "hides|hide", "{V} behind {POSS}", "versteckt|verstecken", "hinter+dat",
      "person: mother father", refl=True, child=True),
    O("call", "calls|call", "{V} {POSS}", "ruft|rufen", "acc", "person: dog cat son daughter"),
    O("give", "gives|give", "{V} {POSS} {C}", "gibt|geben", "dat", "person: son daughter friend", mid="{C}",
      comps=_GIFT, adult=True),
    O("give_food", "gives|give", "{V} {POSS} {C}", "gibt|geben", "dat", "person: dog horse pony rabbit goat",
      mid="{C}", comps="FOOD"),
    O("show", "shows|show", "{V} {POSS} {C}", "zeigt|zeigen", "dat",
      "person: mother father friend grandmother grandfather", mid="{C}", comps=_SHOW),
    O("read_to", "reads|read", "{V} {POSS} a story", "liest|lesen", "dat", "person: son daughter",
      mid="eine Geschichte", last="vor", adult=True),
    O("put_in", "puts|put", "{V} {C} in {POSS}", "legt|legen", "in+acc", "person: basket bucket",
      comps=(("an apple", "einen Apfel"), ("some apples", "einige Äpfel"), ("a shell", "eine Muschel"),
             ("a pear", "eine Birne"), ("some flowers", "einige Blumen"))),
    O("stuff_in", "puts|put", "{V} {C} in {POSS}", "steckt|stecken", "in+acc", "person: bag backpack",
      comps=(("a book", "ein Buch"), ("an apple", "einen Apfel"), ("a bottle", "eine Flasche"),
             ("a map", "eine Karte"), ("a sandwich", "ein Sandwich"))),
)
PAIRS = ("shoe", "boot", "glove", "key")  # said in the plural by one owner: "his shoes"
# "A man and his dog walk along the beach": who goes with whom, and what they do together
COMPANIONS = "dog daughter son friend wife husband mother father"
COMPANION_DO = (
    ("walk along the beach", "gehen am Strand entlang", ""), ("sit on a bench", "sitzen auf einer Bank", ""),
    ("play in the snow", "spielen im Schnee", ""), ("swim in the lake", "schwimmen im See", ""),
    ("walk through the park", "gehen durch den Park", ""), ("run across a field", "laufen über ein Feld", ""),
    ("wait at the station", "warten am Bahnhof", "person"), ("eat ice cream", "essen Eis", "person"),
    ("watch the sunset", "beobachten den Sonnenuntergang", "person"),
    ("sleep on the sofa", "schlafen auf dem Sofa", ""),
)


def _check() -> None:
    for row in (*BODY, *HAS, *PERSON):
        for _, keys in row.pairs:
            for k in keys:
                owned_noun(k)
    for _, parts, _ in THING_PARTS:
        for p in parts.split():
            owned_noun(p.split(":")[0])


_check()
