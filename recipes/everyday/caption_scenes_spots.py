"""Where a thing is found or put, for the two-antecedent sentences of recipes/everyday/caption_scenes.py.

"A boy finds a kitten in a box and pets it": the pronoun could stand for either noun in English
grammar, and the verb decides (a box is not petted). Each spot says which nouns are found there,
each container which nouns are put in it, and the container verbs ("closes it", "pushes it home")
take the container and nothing that goes into it, so the antecedent is sometimes the first noun,
sometimes the second; the frame keeps only sentences whose two nouns differ in German gender or
number, so "er" / "sie" / "es" alone tells which.
"""
from __future__ import annotations

from recipes.everyday.caption_scenes_verbs import V

# (English preposition, German preposition (+ dative), the spot, what is found there)
SPOTS = (
    ("on", "auf", "bench", "cat dog pigeon ball bag book hat phone apple"),
    ("under", "unter", "bench", "cat dog puppy kitten ball hedgehog"),
    ("on", "auf", "car", "cat kitten bird pigeon"),
    ("under", "unter", "car", "cat kitten puppy ball hedgehog"),
    ("in", "in", "box", "kitten puppy rabbit hamster guinea_pig toy_car doll book shoe ball teddy_bear"),
    ("in", "in", "basket", "kitten puppy cat apple egg pear"),
    ("on", "auf", "fence", "bird pigeon cat owl"),
    ("behind", "hinter", "tree", "fox deer dog cat ball rabbit"),
    ("under", "unter", "tree", "dog horse cow cat ball apple sheep goat"),
    ("next to", "neben", "bucket", "frog cat dog shell"),
    ("on", "auf", "table", "cat kitten cake apple melon cup phone book"),
    ("on", "auf", "chair", "cat kitten bag book hat"),
    ("on", "auf", "sofa", "cat dog puppy kitten book phone teddy_bear"),
    ("in", "in", "bucket", "fish frog crab shell stone"),
    ("on", "auf", "stone", "frog butterfly bird turtle crab"),
    ("on", "auf", "boat", "seagull dog cat"),
    ("next to", "neben", "bike", "dog cat ball bag"),
    ("in", "in", "bag", "apple book phone ball banana"),
    ("on", "auf", "branch", "bird owl squirrel"),
    ("in", "in", "bush", "bird cat hedgehog ball"),
)
# containers something is taken out of: (container, what is in it, the second verbs that would run the
# scene backwards: what comes out of the pot is cooked already, so it is not boiled or fried next)
TAKE_FROM = (
    ("box", "toy_car doll book shoe ball kitten puppy teddy_bear", ""),
    ("basket", "apple egg pear banana kitten", ""), ("bag", "apple book phone banana sandwich", ""),
    ("backpack", "book apple sandwich bottle camera map", ""), ("bucket", "fish shell crab stone frog", ""),
    ("bowl", "apple orange banana pear peach", ""), ("cage", "hamster parrot rabbit guinea_pig", ""),
    ("pot", "potato egg carrot", "cook boil fry grill wash bake plant"),
)
# containers something is put in or on: (container, English, German preposition (+ accusative), what goes in)
PUT_INTO = (
    ("bag", "in", "in", "apple book ball banana sandwich"), ("backpack", "in", "in", "book apple sandwich camera"),
    ("box", "in", "in", "ball doll toy_car book shoe kitten puppy teddy_bear"),
    ("basket", "in", "in", "apple pear egg kitten puppy"), ("bucket", "in", "in", "shell stone fish crab frog"),
    ("pot", "in", "in", "potato egg"),
    ("wheelbarrow", "in", "in", "pumpkin stone potato branch"),
    ("shopping_cart", "in", "in", "melon pumpkin bottle pineapple"), ("sled", "on", "auf", "box bag pumpkin"),
    ("vase", "in", "in", "flower rose tulip sunflower"), ("cage", "in", "in", "hamster rabbit parrot guinea_pig"),
    ("car", "in", "in", "box bag dog"), ("plate", "on", "auf", "cake apple pear sandwich"),
)
# what is done to the container afterwards: "and closes it" -> "und macht sie zu"
CONTAINER_VERBS = (
    V("close_c", "closes|close", "{V} {O}", "macht|machen", "box bag backpack cage", last="zu"),
    V("lock_c", "locks|lock", "{V} {O}", "schließt|schließen", "cage box", last="ab"),
    V("push_c", "pushes|push", "{V} {O} home", "schiebt|schieben", "wheelbarrow shopping_cart", mid="nach Hause"),
    V("pull_c", "pulls|pull", "{V} {O} home", "zieht|ziehen", "sled", mid="nach Hause"),
    V("fill_c", "fills|fill", "{V} {O} with water", "füllt|füllen", "bucket vase", mid="mit Wasser"),
    V("shake_c", "shakes|shake", "{V} {O}", "schüttelt|schütteln", "box bucket"),
    V("start_c", "starts|start", "{V} {O}", "startet|starten", "car", subj="a"),
    V("carry_c", "carries|carry", "{V} {O} to the table", "trägt|tragen", "plate", mid="zum Tisch"),
)
# an animal that sees another: "A dog sees a cat on a fence and barks at it"
HUNTERS = {"dog": "cat duck pigeon goose squirrel chicken", "puppy": "cat duck chicken pigeon",
           "cat": "bird mouse butterfly pigeon", "kitten": "butterfly bird mouse"}
HUNT = (
    V("bark_at", "barks|bark", "{V} at {O}", "bellt|bellen", "cat duck pigeon goose squirrel chicken", last="an",
      subj="d"),
    V("chase", "chases|chase", "{V} {O}", "jagt|jagen", "cat duck pigeon goose squirrel chicken bird mouse", subj="d"),
    V("run_after_a", "runs|run", "{V} after {O}", "läuft|laufen", "animal", obj="dat", last="hinterher", subj="d"),
)
# the second clause said of one noun only: "puts a kitten in a basket , and it falls asleep"
AFTER_PUT = "fall_asleep purr yawn full smell look_camera"  # "... , and they fall asleep", not "and they sleep"
