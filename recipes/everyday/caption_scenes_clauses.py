"""The second clauses of recipes/everyday/caption_scenes.py, whose subject is the pronoun.

"A man pushes the car , but it does not move" -> "..., aber es bewegt sich nicht": the German verb
comes second after "und" / "aber" and last after "während", "weil", "bis", "wenn", with a
separable prefix joined to it ("während er den Hügel hinunterrollt"); "damit ... kann" puts the
infinitive before "kann", "nachdem" the participle before "hat" / "ist". A predicate is said of
the nouns its tags name (only an animal is tired, only fruit ripe), and a script says which
predicates follow which first clause with which conjunction, so the reason fits the deed
("feeds the goat because it is hungry", never "because it is broken").
"""
from __future__ import annotations

from dataclasses import dataclass

from recipes.everyday.caption_scenes_verbs import PICK_UP, V
from recipes.everyday.tables import rows


@dataclass(frozen=True)
class Pred:
    key: str
    en: tuple[str, str]  # the English after the pronoun, singular and plural: "is tired", "are tired"
    de: tuple[str, str]  # the German finite verb, singular and plural: "ist", "sind"
    want: frozenset[str]
    refuse: frozenset[str]
    tail: str = ""  # the German between the pronoun (or the verb) and the last part: "sich nicht"
    last: str = ""  # a separable prefix: "weg"; joined to the verb at the end of a subordinate clause
    base: str = ""  # "so that it can BASE" (English), "" when not said so
    inf: str = ""  # ... "damit er MTAIL INF kann"
    mtail: str = ""  # the German before the infinitive: "sich" ("damit er sich ausruhen kann")
    perf: str = ""  # "after it has PERF" (English)
    part: str = ""  # ... "nachdem er TAIL PART hat / ist"
    aux: str = "hat"
    as_: bool = False  # English "as" for "während": "watches a tram as it pulls away" (a moment, not a stretch)

    def fits(self, noun) -> bool:
        have = {*noun.tags, noun.cls, noun.key}
        return bool(have & self.want) and not have & self.refuse

    @property
    def adjectival(self) -> bool:
        """"is tired": the antecedent takes no adjective of its own then ("a small puppy ... is small")."""
        return self.en[0].startswith(("is ", "looks "))


def P(key: str, en: str, de: str, objs: str, **kw) -> Pred:
    """en: "is tired|are tired" (or "" for a predicate said only after "can" / "has");
    de: "ist|sind"; objs as caption_scenes_verbs.V's."""
    words = objs.split() + [f"-{w}" for w in kw.pop("refuse", "").split()]
    want = frozenset(w for w in words if w[0] != "-")
    refuse = frozenset(w[1:] for w in words if w[0] == "-")
    return Pred(key, tuple(en.split("|")) if en else ("", ""), tuple(de.split("|")) if de else ("", ""),
                want, refuse, **kw)


def _is(key: str, en: str, de: str, objs: str) -> Pred:
    """"is tired" -> "ist müde"."""
    return P(key, f"is {en}|are {en}", "ist|sind", objs, tail=de)


PREDS = {p.key: p for p in (
    _is("small", "very small", "sehr klein", "young small"),
    _is("big", "very big", "sehr groß", "big heavy pumpkin melon snowman"),
    _is("heavy", "very heavy", "sehr schwer", "heavy"),
    _is("too_heavy", "too heavy to carry", "zu schwer zum Tragen", "heavy"),
    _is("old", "very old", "sehr alt", "vehicle instrument furniture horse donkey tree"),
    _is("new", "brand new", "ganz neu", "vehicle instrument clothes"),
    _is("wet", "wet", "nass", "dog puppy cat kitten clothes"),
    _is("soaking", "soaking wet", "klatschnass", "dog puppy"),
    _is("dirty", "dirty", "schmutzig", "dirty mud dog"),
    _is("still_dirty", "still dirty", "immer noch schmutzig", "dirty mud dog"),
    _is("clean", "clean", "sauber", "dirty mud dog"),
    _is("clean_again", "clean again", "wieder sauber", "dirty mud dog"),
    _is("dry", "dry", "trocken", "dog puppy dry"),
    _is("hungry", "hungry", "hungrig", "feed"),
    _is("thirsty", "thirsty", "durstig", "mammal"),
    _is("tired", "tired", "müde", "mammal"),
    _is("sick", "sick", "krank", "pet"),
    _is("ripe", "ripe", "reif", "ripe"),
    _is("not_ripe", "not ripe", "nicht reif", "ripe"),
    _is("rotten", "rotten", "verfault", "rotten"),
    _is("fresh", "very fresh", "ganz frisch", "fruit veg bake"),
    _is("warm", "still warm", "noch warm", "warm"),
    _is("empty", "empty", "leer", "fill"),
    _is("full", "full", "voll", "fill"),
    _is("broken", "broken", "kaputt", "repair"),
    _is("too_small", "too small", "zu klein", "wear hat"),
    _is("too_big", "too big", "zu groß", "wear hat"),
    _is("locked", "locked", "abgeschlossen", "lock"),
    _is("soft", "soft", "weich", "soft"),
    _is("golden", "golden brown", "goldbraun", "bake"),
    _is("cheap", "cheap", "billig", "buy"),
    _is("fed", "full", "satt", "feed"),
    _is("calm", "calm again", "wieder ruhig", "mammal"),
    P("scared", "is scared|are scared", "hat|haben", "mammal avian", tail="Angst"),
    P("funny", "looks funny|look funny", "sieht|sehen", "animal snowman", tail="lustig", last="aus"),
    P("sleep", "sleeps|sleep", "schläft|schlafen", "mammal avian", base="sleep", inf="schlafen"),
    P("fall_asleep", "falls asleep|fall asleep", "schläft|schlafen", "mammal avian", last="ein"),
    P("bark", "barks loudly|bark loudly", "bellt|bellen", "dog", tail="laut"),
    P("purr", "purrs|purr", "schnurrt|schnurren", "cat"),
    P("yawn", "yawns|yawn", "gähnt|gähnen", "mammal", refuse="dolphin"),
    P("eat", "eats|eat", "frisst|fressen", "feed", perf="eaten", part="gefressen"),
    P("eat_fast", "eats quickly|eat quickly", "frisst|fressen", "feed", tail="schnell"),
    P("not_eat", "does not eat|do not eat", "frisst|fressen", "feed", tail="nicht"),
    P("eat_grass", "eats grass|eat grass", "frisst|fressen", "graze", tail="Gras"),
    P("graze", "grazes|graze", "grast|grasen", "graze", refuse="zoo"),
    P("drink", "drinks water|drink water", "trinkt|trinken", "mammal avian", tail="Wasser"),
    P("run_away", "runs away|run away", "läuft|laufen", "walk", refuse="slow avian", last="weg",
      perf="run away", part="weggelaufen", aux="ist"),
    P("fly_away", "flies away|fly away", "fliegt|fliegen", "fly balloon", last="davon"),
    P("swim_away", "swims away|swim away", "schwimmt|schwimmen", "swim", last="davon"),
    P("not_move", "does not move|do not move", "bewegt|bewegen", "mammal vehicle heavy", tail="sich nicht"),
    P("not_come", "does not come|do not come", "kommt|kommen", "pet", refuse="young", tail="nicht"),
    P("come_back", "comes back|come back", "kommt|kommen", "pet", refuse="young", last="zurück"),
    P("hide_bed", "hides under the bed|hide under the bed", "versteckt|verstecken", "cat kitten puppy hamster",
      tail="sich unter dem Bett"),
    P("jump_water", "jumps into the water|jump into the water", "springt|springen", "dog frog seal penguin",
      tail="ins Wasser", perf="jumped into the lake", part="in den See gesprungen", aux="ist"),
    P("look_camera", "looks at the camera|look at the camera", "schaut|schauen", "mammal avian",
      tail="in die Kamera"),
    P("lie_sun", "lies in the sun|lie in the sun", "liegt|liegen", "mammal turtle", refuse="big",
      tail="in der Sonne"),
    P("play_garden", "plays in the garden|play in the garden", "spielt|spielen", "young dog cat", refuse="farm",
      tail="im Garten", perf="played in the garden", part="im Garten gespielt"),
    P("swim_lake", "swims on the lake|swim on the lake", "schwimmt|schwimmen", "duck swan goose",
      tail="auf dem See", perf="swum in the lake", part="im See geschwommen", aux="ist"),
    P("swim_water", "swims in the water|swim in the water", "schwimmt|schwimmen", "swim", refuse="avian",
      tail="im Wasser"),
    P("sing", "sings|sing", "singt|singen", "sing"),
    P("fly_field", "flies over the field|fly over the field", "fliegt|fliegen", "fly kite", refuse="insect",
      tail="über das Feld"),
    P("roll_away", "rolls away|roll away", "rollt|rollen", "roll", last="weg"),
    P("roll_table", "rolls under the table|roll under the table", "rollt|rollen", "roll", refuse="heavy",
      tail="unter den Tisch"),
    P("roll_hill", "rolls down the hill|roll down the hill", "rollt|rollen", "roll", tail="den Hügel", as_=True,
      last="hinunter"),
    P("fall_down", "falls down|fall down", "fällt|fallen", "fruit leaf ball", last="herunter",
      perf="fallen down", part="heruntergefallen", aux="ist"),
    P("fall_over", "falls over|fall over", "fällt|fallen", "bike chair lamp vase bottle scooter", last="um",
      perf="fallen over", part="umgefallen", aux="ist"),
    P("break", "breaks|break", "zerbricht|zerbrechen", "fragile"),
    P("not_break", "does not break|do not break", "zerbricht|zerbrechen", "fragile", tail="nicht"),
    P("melt", "melts in the sun|melt in the sun", "schmilzt|schmelzen", "melt", tail="in der Sonne"),
    P("float", "floats on the water|float on the water", "treibt|treiben", "float", tail="auf dem Wasser"),
    # after "into the water": the water is named once ("pushes a boat into the water , and it floats")
    P("floats", "floats|float", "schwimmt|schwimmen", "float"),
    P("sink", "sinks|sink", "geht|gehen", "sink", last="unter"),
    P("land_lake", "lands in the lake|land in the lake", "landet|landen", "ball frisbee kite stick",
      tail="im See"),
    P("land_roof", "lands on the roof|land on the roof", "landet|landen", "ball frisbee kite", tail="auf dem Dach"),
    P("land_grass", "", "", "ball frisbee", perf="landed on the grass", part="auf dem Rasen gelandet", aux="ist"),
    P("land_fence", "", "", "bird pigeon seagull owl", perf="landed on the fence", part="auf dem Zaun gelandet",
      aux="ist"),
    P("fly_fence", "flies over the fence|fly over the fence", "fliegt|fliegen", "ball frisbee",
      tail="über den Zaun"),
    P("start", "starts|start", "springt|springen", "car motorbike tractor truck", last="an"),
    P("not_start", "won't start|won't start", "springt|springen", "car motorbike tractor truck", tail="nicht",
      last="an"),
    P("leave", "pulls away|pull away", "fährt|fahren", "bus train tram taxi", last="ab", as_=True),
    P("shine", "shines|shine", "glänzt|glänzen", "car motorbike bike polish horse pony"),
    P("ring", "rings|ring", "klingelt|klingeln", "phone"),
    P("smell", "smells good|smell good", "riecht|riechen", "smell bake", tail="gut"),
    P("sweet", "tastes sweet|taste sweet", "schmeckt|schmecken", "sweet", tail="süß"),
    P("fits", "fits perfectly|fit perfectly", "passt|passen", "wear hat", tail="perfekt"),
    P("not_fit", "does not fit|do not fit", "passt|passen", "wear hat", tail="nicht"),
    P("cool", "cools down|cool down", "kühlt|kühlen", "warm", last="ab", base="cool down", inf="abkühlen",
      perf="cooled down", part="abgekühlt", aux="ist"),
    P("dry_sun", "dries in the sun|dry in the sun", "trocknet|trocknen", "dry", refuse="animal",
      tail="in der Sonne", base="dry", inf="trocknen"),
    P("bloom", "blooms|bloom", "blüht|blühen", "bloom"),
    P("grow", "grows very fast|grow very fast", "wächst|wachsen", "grow", tail="sehr schnell", base="grow",
      inf="wachsen"),
    P("rise", "rises into the sky|rise into the sky", "steigt|steigen", "balloon kite", tail="in den Himmel", as_=True),
    P("sway", "sways in the wind|sway in the wind", "bewegt|bewegen", "sway flag", tail="sich im Wind"),
    P("disappear", "disappears|disappear", "verschwindet|verschwinden", "walk swim fly", refuse="big"),
    P("shiver", "is shivering|are shivering", "zittert|zittern", "mammal"),
    P("see_cat", "sees a cat|see a cat", "sieht|sehen", "dog", tail="eine Katze"),
    P("hear_noise", "hears a noise|hear a noise", "hört|hören", "mammal avian", tail="ein Geräusch"),
    P("see_fish", "sees a fish|see a fish", "sieht|sehen", "duck seal penguin swan", tail="einen Fisch"),
    P("see_carrot", "sees a carrot|see a carrot", "sieht|sehen", "horse pony donkey rabbit", tail="eine Karotte"),
    P("rest", "", "", "mammal", base="rest", inf="ausruhen", mtail="sich"),
    P("run_around", "", "", "dog puppy hamster rabbit guinea_pig", base="run around", inf="herumlaufen"),
    P("play", "", "", "young", base="play", inf="spielen"),
    P("drink_m", "", "", "mammal", base="drink", inf="trinken"),
    P("swim_off", "", "", "swim", refuse="avian", base="swim away", inf="davonschwimmen"),
    P("get_light", "", "", "plant cactus", base="get enough light", inf="bekommen", mtail="genug Licht"),
    P("roll_mud", "", "", "mud dog", perf="rolled in the mud", part="sich im Schlamm gewälzt"),
)}
CONJ = {"und": ("and", "und"), "aber": ("but", "aber"), "während": ("while", "während"),
        "weil": ("because", "weil"), "bis": ("until", "bis"), "damit": ("so that", "damit"),
        "wenn": ("when", "wenn"), "nachdem": ("after", "nachdem")}
MAIN_CONJ = ("und", "aber")  # the verb second; the others put it last

# first clauses whose object the pronoun takes up (the noun phrase in German's case)
MAIN = {v.key: v for v in (
    V("hold", "holds|hold", "{V} {O}", "hält|halten", "hold"),
    V("carry", "carries|carry", "{V} {O}", "trägt|tragen", "hold carry heavy", refuse="vehicle furniture push piano"),
    V("pet", "pets|pet", "{V} {O}", "streichelt|streicheln", "pet"),
    V("feed", "feeds|feed", "{V} {O}", "füttert|füttern", "feed"),
    V("brush", "brushes|brush", "{V} {O}", "bürstet|bürsten", "brush"),
    V("watch", "watches|watch", "{V} {O}", "beobachtet|beobachten", "animal drive balloon kite roll float melt sway"),
    V("photograph", "photographs|photograph", "{V} {O}", "fotografiert|fotografieren", "animal snowman flower tree"),
    V("see", "sees|see", "{V} {O}", "sieht|sehen", "animal"),
    V("draw", "draws|draw", "{V} {O}", "zeichnet|zeichnen", "animal tree flower", refuse="insect"),
    V("call", "calls|call", "{V} {O}", "ruft|rufen", "dog cat horse pony", det="the"),
    V("buy", "buys|buy", "{V} {O}", "kauft|kaufen", "buy"),
    V("find", "finds|find", "{V} {O}", "findet|finden", "find"),
    V("pick", "picks|pick", "{V} {O}", "pflückt|pflücken", "pick", forms=(("mushroom", "sammelt|sammeln", ""),)),
    V("throw", "throws|throw", "{V} {O}", "wirft|werfen", "ball frisbee stick", one=True),
    V("throw_lake", "throws|throw", "{V} {O} into the lake", "wirft|werfen", "stone stick ball", mid="in den See"),
    V("kick", "kicks|kick", "{V} {O}", "schießt|schießen", "ball", one=True),
    V("drop", "drops|drop", "{V} {O}", "lässt|lassen", "fragile fruit ball", refuse="pumpkin", last="fallen"),
    V("let_go", "lets|let", "{V} go of {O}", "lässt|lassen", "balloon", last="los"),
    V("push", "pushes|push", "{V} {O}", "schiebt|schieben", "car truck tractor motorbike boat sofa piano", subj="a",
      one=True),
    V("pull", "pulls|pull", "{V} {O}", "zieht|ziehen", "donkey goat cow sheep pony dog"),
    V("push_water", "pushes|push", "{V} {O} into the water", "schiebt|schieben", "boat canoe", mid="ins Wasser",
      one=True),
    V("wash", "washes|wash", "{V} {O}", "wäscht|waschen", "dirty mud dog car bike"),
    V("clean", "cleans|clean", "{V} {O}", "putzt|putzen", "clean polish"),
    V("polish", "polishes|polish", "{V} {O}", "poliert|polieren", "polish"),
    V("dry", "dries|dry", "{V} {O}", "trocknet|trocknen", "dog puppy cat kitten", last="ab"),
    V("fill", "fills|fill", "{V} {O}", "füllt|füllen", "fill", refuse="cup plate"),
    V("pack", "packs|pack", "{V} {O}", "packt|packen", "box bag backpack basket", one=True),
    V("open", "opens|open", "{V} {O}", "öffnet|öffnen", "box bag backpack bottle"),
    # "tries to open the door" / "versucht , die Tür zu öffnen" (not the calque "wants to open")
    V("try_open", "tries|try", "{V} to open {O}", "versucht ,|versuchen ,", "lock", last="zu öffnen", det="the"),
    V("want_pet", "wants|want", "{V} to pet {O}", "will|wollen", "pet", last="streicheln"),
    V("try_start", "tries|try", "{V} to start {O}", "versucht ,|versuchen ,", "car motorbike tractor truck",
      last="zu starten", det="the", subj="a", one=True),
    V("try_on", "tries|try", "{V} on {O}", "probiert|probieren", "wear hat", refuse="sock", last="an"),
    V("shake", "shakes|shake", "{V} {O}", "schüttelt|schütteln", "bottle"),
    V("bake", "bakes|bake", "{V} {O}", "bäckt|backen", "bake", det="a"),
    V("build", "builds|build", "{V} {O}", "baut|bauen", "snowman sandcastle", det="a"),
    V("water", "waters|water", "{V} {O}", "gießt|gießen", "flower plant cactus rose tulip sunflower tree"),
    V("hang_sun", "hangs|hang", "{V} {O} in the sun", "hängt|hängen", "dry", refuse="animal", mid="in die Sonne"),
    V("put_sill", "puts|put", "{V} {O} on the windowsill", "stellt|stellen", "warm", mid="auf die Fensterbank"),
    V("put_window", "puts|put", "{V} {O} by the window", "stellt|stellen", "plant cactus", mid="ans Fenster"),
    V("carry_in", "carries|carry", "{V} {O} into the house", "trägt|tragen", "hold", mid="ins Haus"),
    V("lift", "lifts|lift", "{V} {O} up", "hebt|heben", "hold", last="hoch"),
    V("out_cage", "lifts|lift", "{V} {O} out of the cage", "hebt|heben", "hamster rabbit guinea_pig", mid="aus dem Käfig"),
    V("water_animal", "gives|give", "{V} {O} water", "gibt|geben", "mammal", refuse="wild", obj="dat", mid="Wasser"),
    V("unleash", "lets|let", "{V} {O} off the leash", "lässt|lassen", "dog", mid="von der Leine"),
    V("put_back", "puts|put", "{V} {O} back into the water", "setzt|setzen", "fish frog turtle",
      mid="ins Wasser", last="zurück"),
    V("shade", "brings|bring", "{V} {O} into the shade", "bringt|bringen", "pet", refuse="avian",
      mid="in den Schatten"),
    V("set_grass", "puts|put", "{V} {O} down on the grass", "setzt|setzen", "young", refuse="farm", mid="ins Gras"),
    V("vet", "takes|take", "{V} {O} to the vet", "bringt|bringen", "pet", mid="zum Tierarzt"),
    V("throw_away", "throws|throw", "{V} {O} away", "wirft|werfen", "rotten", last="weg"),
    V("repair", "repairs|repair", "{V} {O}", "repariert|reparieren", "repair"),
    V("cover", "covers|cover", "{V} {O} with a blanket", "deckt|decken", "pet", refuse="avian", mid="mit einer Decke",
      last="zu"),
    V("calm", "calms|calm", "{V} {O} down", "beruhigt|beruhigen", "horse pony dog cat donkey"),
    V("take_off", "takes|take", "{V} off {O}", "", "wear hat",
      forms=(("hat", "nimmt|nehmen", "ab"), ("wear", "zieht|ziehen", "aus")), det="the"),
    V("laugh_at", "laughs|laugh", "{V} at {O}", "lacht|lachen", "animal snowman", refuse="insect", obj="über+acc"),
    V("follow", "follows|follow", "{V} {O}", "folgt|folgen", "walk swim", refuse="big fish", obj="dat"),
    V("cook", "boils|boil", "{V} {O}", "kocht|kochen", "potato carrot"),
    V("pick_up", "picks|pick", "{V} up {O}", "", "carry hold", refuse="heavy", forms=PICK_UP, det="the"),
    V("cut", "cuts|cut", "{V} {O}", "schneidet|schneiden", "warm", refuse="cookie", det="the"),
    V("eat", "eats|eat", "{V} {O}", "isst|essen", "warm", det="the"),
)}
# first clauses of an animal that the pronoun then names: "A dog barks when it sees a cat"
ANIMAL_MAIN = {v.key: v for v in (
    V("bark", "barks|bark", "{V}", "bellt|bellen", "dog"),
    V("hide", "hides|hide", "{V} under the bed", "versteckt|verstecken", "cat kitten puppy hamster", refl=True,
      mid="unter dem Bett"),
    V("dive", "dives|dive", "{V}", "taucht|tauchen", "duck swan seal penguin", last="unter"),
    V("fly_off", "flies|fly", "{V} away", "fliegt|fliegen", "pigeon seagull duck bird", last="davon"),
    V("sleep", "sleeps|sleep", "{V}", "schläft|schlafen", "mammal avian"),
    V("run_fence", "runs|run", "{V} to the fence", "läuft|laufen", "horse pony donkey goat", mid="zum Zaun"),
    V("eat", "eats|eat", "{V}", "frisst|fressen", "feed"),
)}
# (conjunction, first clauses, predicates): which second clause fits which first, after a person's
# first clause (SCRIPTS) or an animal's own (ANIMAL_SCRIPTS: "A dog barks when it sees a cat"); the
# table: data/caption_scenes_scripts.tsv
_SCRIPTS = [(r["table"], (r["conjunction"], r["first"], r["predicates"]))
            for r in rows("caption_scenes_scripts.tsv")]
SCRIPTS = tuple(s for table, s in _SCRIPTS if table == "SCRIPTS")
ANIMAL_SCRIPTS = tuple(s for table, s in _SCRIPTS if table == "ANIMAL_SCRIPTS")


def _check() -> None:
    for conj, mains, preds in (*SCRIPTS, *ANIMAL_SCRIPTS):
        table = MAIN if (conj, mains, preds) in SCRIPTS else ANIMAL_MAIN
        assert all(m in table for m in mains.split()), mains
        for p in preds.split():
            pred = PREDS[p]
            need = {"damit": pred.base, "nachdem": pred.perf}.get(conj, pred.en[0])
            assert need, (conj, p)


_check()
