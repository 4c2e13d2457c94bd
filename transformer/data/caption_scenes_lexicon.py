"""The nouns, people, adjectives and places of transformer/data/caption_scenes.py, written by hand.

A pronoun can only be taught where the sentence around it makes sense, so every noun carries the
tags the verbs and predicates ask for (a dog is "pet" and "feed", a melon "food" "cut" "roll", a
bucket "fill"), the adjectives it may take ("a brown dog", never "a ripe dog") and the places it is
seen at ("on a farm", "at the zoo"). Every noun has its German gender and plural spelled out, and
the nouns of the n-declension their form outside the nominative ("den Welpen", "dem Bären").
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Noun:
    key: str  # the English singular, "_" for a space: the name verbs and parts use
    en: str
    en_pl: str
    de: str
    de_pl: str
    gender: str  # "m" | "f" | "n"
    cls: str  # animal toy thing food clothes container vehicle furniture instrument tool plant part
    tags: frozenset[str]
    adjs: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    weak: str = ""  # the n-declension's form outside the nominative singular: "Welpen"
    pose: str = "lie"  # how it is put down: "lie" (legen), "stand" (stellen), "sit" (setzen: animals)
    foods: tuple[str, ...] = ()  # what an animal is given ("carrot", "hay")

    def de_form(self, case: str, plural: bool = False) -> str:
        """The German noun in CASE: dative plural -n unless the plural ends in -n or -s
        ("den Äpfeln", "den Autos"); a weak noun's -n outside the nominative singular."""
        if plural:
            if case == "dat" and not self.de_pl.endswith(("n", "s")):
                return self.de_pl + "n"
            return self.de_pl
        return self.weak if self.weak and case != "nom" else self.de


ADJ_GROUPS = {"fur": "brown black white gray", "bright": "red blue green yellow", "size": "big small",
              "dark": "black white brown gray"}
PLACE_GROUPS = {
    "dogs": "park beach garden street meadow yard snow forest", "cats": "garden yard living kitchen balcony",
    "farm": "farm field meadow", "zoo": "zoo", "water": "lake river park", "city": "park square street",
    "coast": "beach harbor", "wild": "forest meadow field", "home": "living",
    "toys": "park beach garden playground meadow", "food": "market kitchen", "shop": "shop",
    "street": "street yard", "tools": "garden yard", "plants": "garden balcony market",
    "road": "street",  # what runs on public roads only: no bus or tram stands in a yard
}
PLACES = {  # where a scene happens: English, German (a dative of place)
    "park": ("in the park", "im Park"), "beach": ("on the beach", "am Strand"),
    "garden": ("in the garden", "im Garten"), "street": ("on the street", "auf der Straße"),
    "meadow": ("in a meadow", "auf einer Wiese"), "field": ("in a field", "auf einem Feld"),
    "farm": ("on a farm", "auf einem Bauernhof"), "zoo": ("at the zoo", "im Zoo"),
    "lake": ("at the lake", "am See"), "river": ("by the river", "am Fluss"),
    "forest": ("in the forest", "im Wald"), "snow": ("in the snow", "im Schnee"),
    "market": ("at the market", "auf dem Markt"), "kitchen": ("in the kitchen", "in der Küche"),
    "living": ("in the living room", "im Wohnzimmer"), "playground": ("on the playground", "auf dem Spielplatz"),
    "yard": ("in the yard", "im Hof"), "square": ("in the square", "auf dem Platz"),
    "shop": ("in a shop", "in einem Laden"), "balcony": ("on the balcony", "auf dem Balkon"),
    "harbor": ("at the harbor", "im Hafen"), "sea": ("in the sea", "im Meer"),
    "stage": ("on a stage", "auf einer Bühne"), "station": ("at the station", "am Bahnhof"),
    "stop": ("at the stop", "an der Haltestelle"),
}
ADJ = {  # English, German stem (declined by the tables in daily_life_grammar)
    "red": ("red", "rot"), "blue": ("blue", "blau"), "green": ("green", "grün"), "yellow": ("yellow", "gelb"),
    "black": ("black", "schwarz"), "white": ("white", "weiß"), "brown": ("brown", "braun"),
    "gray": ("gray", "grau"), "big": ("big", "groß"), "small": ("small", "klein"), "little": ("little", "klein"),
    "old": ("old", "alt"), "young": ("young", "jung"), "new": ("new", "neu"), "wet": ("wet", "nass"),
    "hungry": ("hungry", "hungrig"), "fluffy": ("fluffy", "flauschig"), "ripe": ("ripe", "reif"),
    "fresh": ("fresh", "frisch"), "colorful": ("colorful", "bunt"), "spotted": ("spotted", "gefleckt"),
    "striped": ("striped", "gestreift"), "huge": ("huge", "riesig"), "tiny": ("tiny", "winzig"),
    "cute": ("cute", "süß"), "long": ("long", "lang"), "dirty": ("dirty", "schmutzig"), "thick": ("thick", "dick"),
    "heavy": ("heavy", "schwer"),
}
FOODS = {  # what an animal is given: English, German accusative
    "carrot": ("a carrot", "eine Karotte"), "apple": ("an apple", "einen Apfel"),
    "hay": ("some hay", "etwas Heu"), "bread": ("some bread", "etwas Brot"),
    "bone": ("a bone", "einen Knochen"), "sausage": ("a sausage", "eine Wurst"),
    "milk": ("some milk", "etwas Milch"), "banana": ("a banana", "eine Banane"),
    "fish": ("a fish", "einen Fisch"), "leaves": ("a few leaves", "ein paar Blätter"),
    "nut": ("a nut", "eine Nuss"), "grass": ("some grass", "etwas Gras"),
    "seeds": ("a few seeds", "ein paar Körner"), "lettuce": ("a lettuce leaf", "ein Salatblatt"),
}


def _nouns(cls: str, spec: str, base: str = "") -> dict[str, Noun]:
    """"dog Hund Hunde m pet feed +fur @dogs": English singular (|plural, else +s), German
    singular and plural, gender, then tags; "+brown" an adjective ("+fur" a group of them),
    "@park" a place ("@dogs" a group), "=Welpen" the weak form, "%stand" the pose, "$carrot"
    a food, "~mug_handle" a key other than the English. BASE: tags every noun of the call has."""
    out = {}
    for item in spec.split(","):
        en, de, de_pl, g, *rest = item.split()
        sg, _, pl = en.partition("|")
        key = sg
        tags, adjs, places, weak, pose, foods = set(base.split()), [], [], "", "sit" if cls == "animal" else "lie", []
        for w in rest:
            if w[0] == "+":
                adjs += ADJ_GROUPS.get(w[1:], w[1:]).split()
            elif w[0] == "@":
                places += PLACE_GROUPS.get(w[1:], w[1:]).split()
            elif w[0] == "=":
                weak = w[1:]
            elif w[0] == "%":
                pose = w[1:]
            elif w[0] == "$":
                foods.append(w[1:])
            elif w[0] == "~":
                key = w[1:]
            else:
                tags.add(w)
        assert g in ("m", "f", "n"), item
        assert all(a in ADJ for a in adjs) and all(p in PLACES for p in places) and all(f in FOODS for f in foods), item
        out[key] = Noun(key, sg.replace("_", " "), (pl or sg + "s").replace("_", " "), de, de_pl, g, cls,
                       frozenset(tags), tuple(dict.fromkeys(adjs)), tuple(places), weak, pose, tuple(foods))
    return out


ANIMALS = _nouns("animal", (
    "dog Hund Hunde m pet feed dog walk paws tail mammal brush tie +fur +big +small +spotted +wet @dogs $bone $sausage,"
    " puppy|puppies Welpe Welpen m =Welpen pet feed hold young dog walk paws mammal +fur +little +cute +fluffy @dogs"
    " $sausage,"
    " cat Katze Katzen f pet feed hold cat walk paws tail mammal brush +dark +fluffy +small +big @cats $milk $fish,"
    " kitten Kätzchen Kätzchen n pet feed hold young cat walk paws mammal +dark +little +cute +fluffy @cats $milk,"
    " horse Pferd Pferde n pet feed big graze walk ride mane mammal brush tie +brown +black +white +big +old +young"
    " @farm $carrot $apple $hay,"
    " pony|ponies Pony Ponys n pet feed graze walk ride mane mammal brush tie +brown +white +black +little @farm"
    " $carrot $apple,"
    " foal Fohlen Fohlen n pet feed young graze walk mane mammal +brown +white +black +little +cute @farm $carrot $hay,"
    " cow Kuh Kühe f feed big graze walk mammal tail +brown +black +white +spotted +big @farm $hay $grass,"
    " calf|calves Kalb Kälber n pet feed young graze walk mammal +brown +white +spotted +little +cute @farm $hay"
    " $grass,"
    " sheep|sheep Schaf Schafe n pet feed graze walk mammal +white +black +fluffy @farm $hay $grass,"
    " lamb Lamm Lämmer n pet feed hold young graze walk mammal +white +black +little +cute +fluffy @farm $grass $hay,"
    " goat Ziege Ziegen f pet feed graze walk mammal tie +white +brown +black +old +young @farm $carrot $hay,"
    " pig Schwein Schweine n feed walk mammal mud +big +dirty @farm $apple,"
    " piglet Ferkel Ferkel n pet feed hold young walk mammal mud +little +cute +dirty @farm $apple,"
    " chicken Huhn Hühner n feed avian walk +brown +white +black @farm @garden @yard $seeds $bread,"
    " chick Küken Küken n pet hold young avian walk small +yellow +little +tiny +fluffy @farm @yard $seeds,"
    " rooster Hahn Hähne m avian walk +colorful +brown +white +big @farm @yard $seeds,"
    " duck Ente Enten f feed avian fly swim water walk +white +brown +little @water $bread $seeds,"
    " goose|geese Gans Gänse f feed avian swim water walk +white +gray +big @lake @river @farm @meadow $bread $grass,"
    " swan Schwan Schwäne m feed avian fly swim water +white +black +big @lake @river @park $bread,"
    " pigeon Taube Tauben f feed avian fly walk +gray +white +little @city $bread $seeds,"
    " seagull Möwe Möwen f feed avian fly walk +white +gray +big @coast $bread $fish,"
    " parrot Papagei Papageien m pet feed avian fly talk +colorful +green +red +big @home @zoo $seeds $nut,"
    " owl Eule Eulen f avian fly wild +brown +white +gray +big +little @forest @zoo,"
    " eagle Adler Adler m avian fly wild +big +brown @zoo,"
    " bird Vogel Vögel m feed avian fly walk sing small +little +tiny +yellow +black +colorful @garden @park @forest"
    " $bread $seeds,"
    " donkey Esel Esel m pet feed graze walk ride mammal brush tie +gray +brown +old +little @farm $carrot $apple $hay,"
    " rabbit Kaninchen Kaninchen n pet feed hold walk mammal +white +brown +gray +black +fluffy +little @garden"
    " @meadow $carrot $lettuce,"
    " guinea_pig|guinea_pigs Meerschweinchen Meerschweinchen n pet feed hold walk mammal +brown +white +fluffy"
    " +little @home @garden $carrot $lettuce,"
    " hamster Hamster Hamster m pet feed hold walk mammal +brown +white +gray +little +fluffy @home $carrot $nut,"
    " mouse|mice Maus Mäuse f walk wild small mammal +gray +white +little +tiny @kitchen @garden @field,"
    " squirrel Eichhörnchen Eichhörnchen n feed walk wild small mammal +red +brown +little @park @forest @garden $nut,"
    " fox|foxes Fuchs Füchse m walk wild mammal +red +young +big @forest @field @meadow,"
    " deer|deer Reh Rehe n walk wild graze mammal +young +brown @forest @meadow @field,"
    " bear Bär Bären m =Bären walk big wild mammal paws zoo +brown +black +big +young @zoo @forest $fish $apple,"
    " lion Löwe Löwen m =Löwen walk big mammal paws mane zoo +big +young +old @zoo,"
    " tiger Tiger Tiger m walk big mammal paws zoo +big +young +old @zoo,"
    " elephant Elefant Elefanten m =Elefanten feed walk big graze mammal trunk zoo +big +young +old +gray @zoo"
    " $banana $apple $hay,"
    " monkey Affe Affen m =Affen feed walk mammal zoo climb +little +young +brown +big @zoo $banana $nut,"
    " giraffe Giraffe Giraffen f feed walk big mammal zoo +big +young @zoo $leaves,"
    " zebra Zebra Zebras n walk graze mammal zoo +young +big @zoo $hay,"
    " camel Kamel Kamele n feed walk big graze mammal ride zoo +brown +old +big @zoo $hay,"
    " penguin Pinguin Pinguine m walk swim water zoo +little +big +young @zoo $fish,"
    " seal Robbe Robben f feed swim water mammal zoo +gray +young +big +little @zoo @coast $fish,"
    " turtle Schildkröte Schildkröten f hold walk slow shellback +old +big +little +green @garden @zoo @beach $lettuce,"
    " frog Frosch Frösche m small swim water jump +green +little +tiny @lake @garden,"
    " fish|fish Fisch Fische m swim water catch sink food cook fry weigh +big +little +red @lake @river @harbor,"
    " butterfly|butterflies Schmetterling Schmetterlinge m fly small insect +colorful +yellow +white +blue @garden"
    " @meadow @park,"
    " bee Biene Bienen f fly small insect +little +tiny @garden @meadow,"
    " snail Schnecke Schnecken f small slow +little +tiny +big @garden,"
    " hedgehog Igel Igel m walk small wild mammal +little +young @garden @forest $apple,"
    " wolf|wolves Wolf Wölfe m walk wild mammal paws zoo +gray +big +young @forest @zoo,"
    " dolphin Delfin Delfine m swim water mammal +young +big +gray @sea $fish,"
    " crab Krebs Krebse m small walk +little +red +tiny @beach"),
    "animal")
TOYS = _nouns("toy", (
    "ball Ball Bälle m throw catch roll kick float find buy hide play +bright +big +small +colorful @toys,"
    " kite Drachen Drachen m kite buy find +bright +colorful +big @beach @meadow @park @field,"
    " frisbee Frisbee Frisbees n throw catch find buy play +bright @beach @park @meadow,"
    " doll Puppe Puppen f hug find buy play +little +new +old @home @playground,"
    " teddy_bear Teddybär Teddybären m =Teddybären hug find buy play wash +brown +little +big +old @home,"
    " balloon Luftballon Luftballons m balloon buy +bright +big +colorful @park @playground @square,"
    " racket Schläger Schläger m buy find +new +old +red +blue @park,"
    " skateboard Skateboard Skateboards n buy find repair +new +old +red +blue +black @street @park,"
    " toy_car Spielzeugauto Spielzeugautos n buy find play roll hide +red +blue +little +new @home @playground,"
    " stick Stock Stöcke m throw find +long +big +small @park @forest @beach,"
    " surfboard Surfbrett Surfbretter n buy wash float heavy +white +blue +yellow +long +new @beach,"
    " shell Muschel Muscheln f find hide small +white +big +little @beach,"
    " stone Stein Steine m throw find sink small +big +small +white +gray @beach @river @lake @garden,"
    " snowball Schneeball Schneebälle m throw melt +big +small @snow,"
    " puzzle Puzzle Puzzles n buy find wrap +new +big @home,"
    " book Buch Bücher n read buy find open close wrap hide give +old +new +red +blue +thick @home @park,"
    " newspaper Zeitung Zeitungen f read buy fold +old @park @street,"
    " letter Brief Briefe m read open fold find +long +old @home,"
    " map Karte Karten f read fold buy +old +big @street @square,"
    " camera Kamera Kameras f buy find repair +new +old +black +small,"
    " phone Handy Handys n buy find switch ring +new +old +black +red,"
    " key Schlüssel Schlüssel m find hide sink small +small +big +old,"
    " umbrella Regenschirm Regenschirme m buy find open close repair +red +blue +black +yellow +colorful +big,"
    " candle Kerze Kerzen f %stand buy light +red +white +big +long,"
    " flag Fahne Fahnen f hang wave buy +red +big +colorful +small @street @square @stage,"
    " present Geschenk Geschenke n wrap open hide buy give +big +small,"
    " picture Bild Bilder n hang buy +big +small +old +colorful @home,"
    " lamp Lampe Lampen f %stand switch repair buy +new +old +red +yellow +small @home,"
    " radio Radio Radios n %stand switch repair buy +old +new +small @home @kitchen,"
    " rope Seil Seile n buy roll_up +long +red +old"), "carry")
TOYS.update(_nouns("toy", (
    "sled Schlitten Schlitten m pull buy repair +red +old +new +big @snow,"
    " snowman|snowmen Schneemann Schneemänner m build melt +big +little @snow @garden,"
    " sandcastle Sandburg Sandburgen f build +big +little @beach,"
    " clock Uhr Uhren f hang repair buy +old +big @home")))
FOOD = _nouns("food", (
    "apple Apfel Äpfel m fruit eat peel cut wash roll pick ripe rotten sweet throw +red +green +big +small +ripe"
    " +fresh @food @garden,"
    " melon Melone Melonen f fruit eat cut roll heavy weigh ripe +big +ripe +green +yellow @food,"
    " banana Banane Bananen f fruit eat peel ripe rotten +yellow +ripe +green +big @food,"
    " orange Orange Orangen f fruit eat peel roll ripe sweet pick +big +ripe +fresh @food,"
    " lemon Zitrone Zitronen f fruit cut roll pick +yellow +big +fresh @food,"
    " pear Birne Birnen f fruit eat peel cut wash pick ripe rotten sweet +green +yellow +ripe +big @food @garden,"
    " tomato|tomatoes Tomate Tomaten f veg eat cut wash pick ripe rotten +red +green +ripe +big +fresh @food @garden,"
    " carrot Karotte Karotten f veg eat peel cut wash +long +fresh +big @food @garden,"
    " potato|potatoes Kartoffel Kartoffeln f veg peel cut wash cook soft +big +small @food @field,"
    " cucumber Gurke Gurken f veg eat cut peel wash +green +long +fresh +big @food @garden,"
    " pumpkin Kürbis Kürbisse m veg cut heavy weigh roll +big +huge +small @food @garden @field,"
    " onion Zwiebel Zwiebeln f veg peel cut +big +red +small @food,"
    " ice_cream|ice_creams Eis Eis n eat melt +big +small @beach @park @street,"
    " cake Kuchen Kuchen m %stand eat cut bake warm smell +big +small +fresh @kitchen,"
    " pizza|pizzas Pizza Pizzas f eat cut bake warm smell +big +small +fresh @kitchen,"
    " sandwich|sandwiches Sandwich Sandwiches n eat cut +big +small +fresh @park @beach @kitchen,"
    " sausage Wurst Würste f eat cut grill fry +long +big +small +fresh @kitchen @market,"
    " egg Ei Eier n cook fry fragile find hide +brown +white +big +small +fresh +colorful @kitchen @farm,"
    " pretzel Brezel Brezeln f eat bake +big +fresh @market @street,"
    " cookie Keks Kekse m eat bake +big +small +fresh @kitchen,"
    " strawberry|strawberries Erdbeere Erdbeeren f fruit eat wash pick ripe sweet +red +big +ripe +fresh @food"
    " @garden @field,"
    " cherry|cherries Kirsche Kirschen f fruit eat wash pick ripe sweet +red +ripe +big @food @garden,"
    " peach|peaches Pfirsich Pfirsiche m fruit eat wash cut peel pick ripe sweet +ripe +big +fresh @food @garden,"
    " pineapple Ananas Ananas f fruit eat cut peel ripe sweet +big +ripe +fresh @food,"
    " coconut Kokosnuss Kokosnüsse f fruit cut roll heavy crack +big +brown @beach @market,"
    " mushroom Pilz Pilze m veg pick find cut cook fry +big +small +brown +white @forest"), "carry buy")
FOOD.update(_nouns("thing", "bone Knochen Knochen m find bury hide +big +old +long @park @garden", "carry"))
CLOTHES = _nouns("clothes", (
    "hat Hut Hüte m hat find hang +black +brown +big +old +new +red @shop,"
    " cap Mütze Mützen f hat find wash +red +blue +black +green +new @shop,"
    " helmet Helm Helme m hat find +red +blue +black +white +new @shop @street,"
    " jacket Jacke Jacken f wear hang wash fold dry +red +blue +black +yellow +green +new +old +wet @shop,"
    " coat Mantel Mäntel m wear hang dry +black +brown +long +old +new +gray +wet @shop,"
    " scarf|scarves Schal Schals m fold find wash +red +blue +long +colorful +new @shop,"
    " dress|dresses Kleid Kleider n wear hang wash fold iron dry +red +blue +white +yellow +long +new +colorful @shop,"
    " shirt Hemd Hemden n wear hang wash fold iron dry +white +blue +red +striped +new +old +dirty @shop,"
    " T-shirt T-Shirt T-Shirts n wear wash fold dry +white +red +blue +green +yellow +new +dirty +old @shop,"
    " sweater Pullover Pullover m wear wash fold dry +red +blue +green +gray +new +old @shop,"
    " shoe Schuh Schuhe m wear find clean polish dirty +black +brown +red +new +old +dirty +white @shop,"
    " boot Stiefel Stiefel m wear clean polish dirty +black +brown +new +old +dirty @shop,"
    " glove Handschuh Handschuhe m wear find +red +black +white +new @shop,"
    " skirt Rock Röcke m wear wash iron dry +red +blue +long +new @shop,"
    " sock Socke Socken f wear wash find dry +white +red +colorful +dirty +new @shop,"
    " towel Handtuch Handtücher n wash fold hang dry +white +blue +big +wet +colorful @beach,"
    " blanket Decke Decken f wash fold dry +blue +red +big +colorful +old @home,"
    " apron Schürze Schürzen f hang wash dry +white +blue +red +dirty @kitchen"), "carry buy")
CONTAINERS = _nouns("container", (
    "box|boxes Kiste Kisten f %stand open close fill empty heavy find paint +big +small +old +heavy,"
    " basket Korb Körbe m %stand fill empty +big +small +old,"
    " bucket Eimer Eimer m %stand fill empty +red +blue +yellow +big +small +old @beach @garden,"
    " bag Tasche Taschen f %stand open close fill empty find buy +red +black +brown +big +small +old +new +heavy,"
    " backpack Rucksack Rucksäcke m %stand open close fill empty buy find +red +blue +green +black +big +old +new"
    " +heavy,"
    " bottle Flasche Flaschen f %stand open close fill empty fragile buy find +big +small +green,"
    " cup Tasse Tassen f %stand fill fragile buy +white +red +blue +big +small,"
    " glass|glasses Glas Gläser n %stand fill empty fragile +big +small,"
    " bowl Schüssel Schüsseln f %stand fill empty fragile +big +small +white +blue,"
    " pot Topf Töpfe m %stand fill empty +big +small +old +heavy,"
    " vase Vase Vasen f %stand fill fragile buy +blue +white +big +small +old,"
    " watering_can Gießkanne Gießkannen f %stand fill empty buy +green +red +yellow +big +small +old @garden,"
    " jug Krug Krüge m %stand fill empty fragile +big +old,"
    " plate Teller Teller m %stand fragile buy +white +big +small +blue @kitchen,"
    " cage Käfig Käfige m %stand open close clean +big +small +old"), "carry")
CONTAINERS.update(_nouns("container", (
    "tent Zelt Zelte n build buy +big +small +green +red +blue +old +new @beach @meadow @forest @field,"
    " wheelbarrow Schubkarre Schubkarren f push fill empty heavy +old +red +green @garden @field @farm,"
    " shopping_cart Einkaufswagen Einkaufswagen m push fill empty +big @shop,"
    " stroller Kinderwagen Kinderwagen m push +blue +red +black +old +new @park @street")))
VEHICLES = _nouns("vehicle", (
    "car Auto Autos n wash repair park push engine drive clean polish dirty +red +blue +black +white +old +new"
    " +small +big @street @yard,"
    " bike Fahrrad Fahrräder n wash repair push lean clean dirty ride +red +blue +black +old +new +small @street"
    " @park @yard,"
    " bus|buses Bus Busse m engine drive big +yellow +red +blue +old +big @road @stop,"
    " truck Lastwagen Lastwagen m wash repair park engine drive big dirty +red +blue +white +old +big @street @yard,"
    " tractor Traktor Traktoren m wash repair park engine drive dirty +red +green +old +big +new @field @farm,"
    " boat Boot Boote n repair paint push float sink clean +red +blue +white +old +small +big @lake @river @harbor,"
    " train Zug Züge m engine drive big +red +long +old +new @station,"
    " motorbike Motorrad Motorräder n wash repair park push engine drive clean polish dirty +red +black +old +new"
    " +big @street,"
    " scooter Roller Roller m push repair lean +red +blue +black +old +new @street @park,"
    " canoe Kanu Kanus n paint push float +red +yellow +green +old +long @lake @river,"
    " taxi|taxis Taxi Taxis n engine drive +yellow +black +old @road,"
    " tram Straßenbahn Straßenbahnen f engine drive +yellow +red +old +new +long @road @stop"))
FURNITURE = _nouns("furniture", (
    "chair Stuhl Stühle m %stand carry paint repair fall +old +new +red +white +small +big @home @garden,"
    " table Tisch Tische m %stand carry paint repair clean +old +new +big +small +white @home @garden,"
    " bench|benches Bank Bänke f paint repair clean +old +new +green +long @park @garden,"
    " sofa Sofa Sofas n %stand clean heavy +old +new +big +red +blue +green @home,"
    " shelf|shelves Regal Regale n %stand paint repair build +old +new +big +small +white @home,"
    " mirror Spiegel Spiegel m carry hang clean fragile +big +small +old @home,"
    " carpet Teppich Teppiche m carry clean roll_up +red +blue +old +big +colorful +long @home,"
    " cushion Kissen Kissen n carry throw hug +red +blue +green +big +small +colorful @home,"
    " stool Hocker Hocker m %stand carry paint repair +old +small +red @home @garden,"
    " door Tür Türen f open close paint lock +red +blue +green +old +big,"
    " window Fenster Fenster n open close clean +big +small +old,"
    " fence Zaun Zäune m paint repair +old +long +white +green @garden @farm,"
    " gate Tor Tore n open close paint repair lock +old +green +big @garden @farm"))
INSTRUMENTS = _nouns("instrument", (
    "guitar Gitarre Gitarren f carry tune +old +new +red +black +brown @stage @home @park @beach,"
    " violin Geige Geigen f carry tune +old +new +brown +little @stage @home,"
    " drum Trommel Trommeln f carry +big +small +red +old @stage @park,"
    " piano Klavier Klaviere n %stand tune heavy +old +new +black +white +big @stage @home,"
    " trumpet Trompete Trompeten f carry clean polish +old +new @stage @park,"
    " flute Flöte Flöten f carry clean +old +new +little @stage @home,"
    " accordion Akkordeon Akkordeons n carry heavy +old +red +big @stage @street"), "buy play_on")
TOOLS = _nouns("tool", (
    "hammer Hammer Hämmer m find buy +big +small +old +new @tools,"
    " ladder Leiter Leitern f lean heavy +long +old @tools,"
    " shovel Schaufel Schaufeln f lean find buy +big +small +old +red @tools @beach @snow,"
    " rake Rechen Rechen m lean buy +old +long +green @tools,"
    " broom Besen Besen m lean buy +old +new +long @tools,"
    " saw Säge Sägen f sharp buy +big +old +new @tools,"
    " axe Axt Äxte f sharp +big +old @forest @garden,"
    " brush|brushes Bürste Bürsten f find buy +big +small +old +new,"
    " knife|knives Messer Messer n sharp clean find buy +big +small +old +new @kitchen,"
    " flashlight Taschenlampe Taschenlampen f switch find buy +small +big +red +black +old +new,"
    " fishing_rod Angel Angeln f buy +long +new +old @lake @river"), "carry")
TOOLS.update(_nouns("tool", "hose Schlauch Schläuche m roll_up +green +long +old @garden"))
PLANTS = _nouns("flora", (
    "flower Blume Blumen f pick buy plantable water carry give smell bloom +red +yellow +white +blue +big +small"
    " +colorful @garden @meadow @park @market,"
    " rose Rose Rosen f pick buy plantable water carry give smell bloom +red +white +yellow @garden @market,"
    " sunflower Sonnenblume Sonnenblumen f pick buy plantable water carry give bloom +big +yellow @garden @field,"
    " tulip Tulpe Tulpen f pick buy plantable water carry give bloom +red +yellow +white @garden @market,"
    " plant Pflanze Pflanzen f %stand buy plantable water carry grow +green +big +small +new @plants @home,"
    " tree Baum Bäume m plantable water grow sway +big +old +young +small @park @garden @forest @field,"
    " bush|bushes Busch Büsche m plantable water grow sway +big +small +green @garden @park,"
    " cactus|cacti Kaktus Kakteen m %stand buy plantable water carry grow +big +small +green +little @plants @home,"
    " leaf|leaves Blatt Blätter n find carry fall +red +yellow +green +big +brown @park @forest @garden,"
    " branch|branches Ast Äste m find carry +long +big +small +old @forest @park @garden"))
THINGS = {**TOYS, **FOOD, **CLOTHES, **CONTAINERS, **VEHICLES, **FURNITURE, **INSTRUMENTS, **TOOLS, **PLANTS}
ALL = {**ANIMALS, **THINGS}
assert len(ALL) == len(ANIMALS) + len(THINGS)

# what an animal or thing has: said with "its" / "their" -> sein- / ihr-
PARTS = _nouns("part", (
    "tail Schwanz Schwänze m, paw Pfote Pfoten f, wing Flügel Flügel m, head Kopf Köpfe m, ear Ohr Ohren n,"
    " mane Mähne Mähnen f, trunk Rüssel Rüssel m, neck Hals Hälse m, feather Feder Federn f,"
    " fur Fell Felle n, beak Schnabel Schnäbel m, eye Auge Augen n, tooth|teeth Zahn Zähne m,"
    " shell Panzer Panzer m, bowl Napf Näpfe m, kennel Hütte Hütten f, nest Nest Nester n, stall Stall Ställe m,"
    " owner Besitzer Besitzer m, toy Spielzeug Spielzeuge n, leash Leine Leinen f, collar Halsband Halsbänder n,"
    " mother Mutter Mütter f, wheel Rad Räder n, roof Dach Dächer n, sail Segel Segel n, chain Kette Ketten f,"
    " saddle Sattel Sättel m, bell Klingel Klingeln f, lid Deckel Deckel m, handle Griff Griffe m,"
    " handle Henkel Henkel m ~mug_handle, string Schnur Schnüre f, petal Blütenblatt Blütenblätter n,"
    " stem Stiel Stiele m, string Saite Saiten f ~guitar_string, key Taste Tasten f ~piano_key,"
    " screen Display Displays n, button Knopf Knöpfe m, collar Kragen Kragen m ~shirt_collar,"
    " lace Schnürsenkel Schnürsenkel m, page Seite Seiten f, cover Einband Einbände m, engine Motor Motoren m,"
    " headlight Scheinwerfer Scheinwerfer m, tire Reifen Reifen m, door Tür Türen f, window Fenster Fenster n,"
    " leaf|leaves Blatt Blätter n, branch|branches Ast Äste m, gate Tor Tore n, egg Ei Eier n, chick Küken Küken n,"
    " strap Riemen Riemen m, light Licht Lichter n, seat Sitz Sitze m, leg Bein Beine n, rope Seil Seile n ~sled_rope"))
# the people a person's "his" / "her" goes with; "friend" is said of a man's friend (Freund) or a woman's (Freundin)
FAMILY = _nouns("person", (
    "mother Mutter Mütter f, father Vater Väter m, son Sohn Söhne m, daughter Tochter Töchter f,"
    " brother Bruder Brüder m, sister Schwester Schwestern f, grandmother Großmutter Großmütter f,"
    " grandfather Großvater Großväter m, friend Freund Freunde m, friend Freundin Freundinnen f ~friend_f,"
    " baby|babies Baby Babys n, wife|wives Frau Frauen f, husband Mann Männer m,"
    " teacher Lehrerin Lehrerinnen f ~teacher_f"))


@dataclass(frozen=True)
class Person:
    """Who does things in a caption: "A man", "Two girls", "A fisherman"."""

    key: str
    en: str
    en_pl: str
    de: str
    de_pl: str
    gender: str  # the German noun's gender ("Mädchen" n)
    sex: str  # "m" | "f" | "": what "his" / "her" says of one of them
    child: bool
    weak: str = ""
    cue: bool = False  # a woman's form whose English ("cook") needs "her" to tell it apart
    domain: frozenset[str] = frozenset()  # what an occupation goes with (tags, keys, classes, places)

    def de_form(self, case: str, plural: bool = False) -> str:
        if plural:
            return self.de_pl + "n" if case == "dat" and not self.de_pl.endswith(("n", "s")) else self.de_pl
        return self.weak if self.weak and case != "nom" else self.de


def _people(spec: str) -> dict[str, Person]:
    """"boy Junge Jungen m m child =Jungen ^ball": like _nouns, then sex and adult / child;
    "!" a woman's form told apart only by "her", "^..." the occupation's domain."""
    out = {}
    for item in spec.split(","):
        en, de, de_pl, g, sex, kind, *rest = item.split()
        sg, _, pl = en.partition("|")
        key = next((w[1:] for w in rest if w[0] == "~"), sg)
        weak = next((w[1:] for w in rest if w[0] == "="), "")
        domain = frozenset(w[1:] for w in rest if w[0] == "^")
        out[key] = Person(key, sg, pl or sg + "s", de, de_pl, g, "" if sex == "-" else sex, kind == "child",
                          weak, "!" in rest, domain)
    return out


_FISH = "^fish ^boat ^lake ^river ^harbor ^fishing_rod ^seagull ^canoe"
_FARM = "^farm ^field ^tractor ^graze ^chicken ^pig ^piglet ^chick ^rooster ^goose ^wheelbarrow ^pumpkin ^potato"
_COOK = "^food ^kitchen ^knife ^pot ^plate ^bowl"
_GARDEN = "^flora ^tool ^garden ^wheelbarrow ^watering_can ^hose ^fence"
_MUSIC = "^instrument ^stage"
_POLICE = "^dog ^street ^car ^motorbike ^bike ^horse"
_WAITER = "^cup ^glass ^plate ^bottle ^jug ^cake ^pizza ^sandwich"
_TOURIST = "^zoo ^beach ^camera ^map ^camel ^pigeon ^square ^harbor ^seagull"
_CYCLE = "^bike ^helmet ^street"
_PLAYER = "^ball ^racket ^frisbee"
_VENDOR = "^market ^fruit ^veg ^flower ^pretzel"
_KEEPER = "^zoo"
PEOPLE = _people(
    "man|men Mann Männer m m adult, woman|women Frau Frauen f f adult, boy Junge Jungen m m child =Jungen,"
    " girl Mädchen Mädchen n f child, child|children Kind Kinder n - child,"
    f" fisherman|fishermen Fischer Fischer m m adult {_FISH},"
    f" farmer Bauer Bauern m m adult =Bauern {_FARM}, farmer Bäuerin Bäuerinnen f f adult ~farmer_f ! {_FARM},"
    f" cook Koch Köche m m adult {_COOK}, cook Köchin Köchinnen f f adult ~cook_f ! {_COOK},"
    f" gardener Gärtner Gärtner m m adult {_GARDEN}, gardener Gärtnerin Gärtnerinnen f f adult ~gardener_f ! {_GARDEN},"
    f" musician Musiker Musiker m m adult {_MUSIC}, musician Musikerin Musikerinnen f f adult ~musician_f ! {_MUSIC},"
    f" policeman|policemen Polizist Polizisten m m adult =Polizisten {_POLICE},"
    f" policewoman|policewomen Polizistin Polizistinnen f f adult {_POLICE},"
    f" waiter Kellner Kellner m m adult {_WAITER}, waitress|waitresses Kellnerin Kellnerinnen f f adult {_WAITER},"
    f" tourist Tourist Touristen m m adult =Touristen {_TOURIST},"
    f" tourist Touristin Touristinnen f f adult ~tourist_f ! {_TOURIST},"
    f" cyclist Radfahrer Radfahrer m m adult {_CYCLE}, cyclist Radfahrerin Radfahrerinnen f f adult ~cyclist_f !"
    f" {_CYCLE},"
    f" player Spieler Spieler m m adult {_PLAYER}, player Spielerin Spielerinnen f f adult ~player_f ! {_PLAYER},"
    f" vendor Verkäufer Verkäufer m m adult {_VENDOR}, vendor Verkäuferin Verkäuferinnen f f adult ~vendor_f !"
    f" {_VENDOR},"
    f" zookeeper Tierpfleger Tierpfleger m m adult {_KEEPER},"
    f" zookeeper Tierpflegerin Tierpflegerinnen f f adult ~zookeeper_f ! {_KEEPER}")
GENERIC = ("man", "woman", "boy", "girl", "child")  # said of anybody, anywhere
# what people wear in a caption: "A man in a red shirt" -> "Ein Mann in einem roten Hemd"
ATTIRE = ("shirt", "jacket", "dress", "sweater", "coat", "T-shirt", "skirt")
ATTIRE_COLORS = ("red", "blue", "green", "yellow", "black", "white", "gray", "brown")
