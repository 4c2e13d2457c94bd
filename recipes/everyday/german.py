"""German inflection the everyday generators share, written once (daily, daily_talk, daily_life*,
caption_scenes*, lexicon used to spell these tables out each for itself): the definite article,
the endings of ein / kein / mein, the adjective endings, the third-person pronouns, dieser, and
the preposition-article contractions, by case ("nom", "acc", "dat") and gender ("m", "f", "n",
"pl")."""
from __future__ import annotations

# der / die / das
DEF = {"nom": {"m": "der", "f": "die", "n": "das", "pl": "die"},
       "acc": {"m": "den", "f": "die", "n": "das", "pl": "die"},
       "dat": {"m": "dem", "f": "der", "n": "dem", "pl": "den"}}
# the ending of an ein-word (ein, kein, mein, dein, sein, ihr, unser): "meinen", "keine", "ein"
ENDING = {"nom": {"m": "", "f": "e", "n": "", "pl": "e"},
          "acc": {"m": "en", "f": "e", "n": "", "pl": "e"},
          "dat": {"m": "em", "f": "er", "n": "em", "pl": "en"}}
# "einen" / "eine" / "ein": "one" or "a" in the accusative
ONE_ACC = {g: "ein" + ENDING["acc"][g] for g in ("m", "f", "n")}
# dieser / diese / dieses
DIES = {"nom": {"m": "dieser", "f": "diese", "n": "dieses", "pl": "diese"},
        "acc": {"m": "diesen", "f": "diese", "n": "dieses", "pl": "diese"},
        "dat": {"m": "diesem", "f": "dieser", "n": "diesem", "pl": "diesen"}}
# adjective endings: after der / dieser (weak), after ein / kein / mein (mixed), no article (strong)
_EN = {"m": "en", "f": "en", "n": "en", "pl": "en"}
WEAK = {"nom": {"m": "e", "f": "e", "n": "e", "pl": "en"}, "acc": {"m": "en", "f": "e", "n": "e", "pl": "en"},
        "dat": _EN}
MIXED = {"nom": {"m": "er", "f": "e", "n": "es", "pl": "en"}, "acc": {"m": "en", "f": "e", "n": "es", "pl": "en"},
         "dat": _EN}
STRONG = {"nom": {"m": "er", "f": "e", "n": "es", "pl": "e"}, "acc": {"m": "en", "f": "e", "n": "es", "pl": "e"},
          "dat": {"m": "em", "f": "er", "n": "em", "pl": "en"}}
# er / ihn / ihm ...: the pronoun that points back to a noun of that gender
PRONOUN = {"nom": {"m": "er", "f": "sie", "n": "es", "pl": "sie"},
           "acc": {"m": "ihn", "f": "sie", "n": "es", "pl": "sie"},
           "dat": {"m": "ihm", "f": "ihr", "n": "ihm", "pl": "ihnen"}}
# a preposition and the definite article said as one word
CONTRACTIONS = {("in", "dem"): "im", ("in", "das"): "ins", ("an", "dem"): "am", ("an", "das"): "ans",
                ("zu", "dem"): "zum", ("zu", "der"): "zur", ("bei", "dem"): "beim",
                ("von", "dem"): "vom"}
# zu + the dative article: "zum Bahnhof", "zur Post"
ZU = {g: CONTRACTIONS[("zu", DEF["dat"][g])] for g in ("m", "f", "n")}

# the verbs every frame needs, present (or preterite) for ich, du, er / sie / es, wir, ihr
HAVE = ("habe", "hast", "hat", "haben", "habt")
BE = ("bin", "bist", "ist", "sind", "seid")
HAD = ("hatte", "hattest", "hatte", "hatten", "hattet")
WAS = ("war", "warst", "war", "waren", "wart")
WERDEN = ("werde", "wirst", "wird", "werden", "werdet")
# modal verbs by infinitive (or the subjunctive said as one: "könnte", "sollte", "möchte")
MODALS = {"können": ("kann", "kannst", "kann", "können", "könnt"),
          "könnte": ("könnte", "könntest", "könnte", "könnten", "könntet"),
          "müssen": ("muss", "musst", "muss", "müssen", "müsst"),
          "dürfen": ("darf", "darfst", "darf", "dürfen", "dürft"),
          "sollen": ("soll", "sollst", "soll", "sollen", "sollt"),
          "sollte": ("sollte", "solltest", "sollte", "sollten", "solltet"),
          "wollen": ("will", "willst", "will", "wollen", "wollt"),
          "möchte": ("möchte", "möchtest", "möchte", "möchten", "möchtet")}
