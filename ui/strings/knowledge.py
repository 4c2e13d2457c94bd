"""What a model knows: the domain line, the marked words, the offered sentences."""
EN = {
    "domain": "This model learned from {domain}.",
    "marked": "This model learned from {domain}. The marked words are ones it never saw in "
              "training or cuts into many pieces; expect its output and its attention on them "
              "to mean little: {words}",
    "never_seen": "never seen",
    "pieces": "{n} pieces",
    "offer": "Sentences this model handles",
    "offer_help": "Short sentences from this model's own domain that it translates well "
                  "(measured when the checkpoint was made).",
    "coverage": "{one:.0%} of the words it trained on are single pieces of its {vocab}-piece "
                "vocabulary.",
    "script_cjk": "This model reads {lang} only. Chinese, Japanese or Korean text is cut into "
                  "pieces it never learned, so its output and attention below mean nothing. "
                  "Type an English sentence (the sentences offered above work well).",
    "script_other": "This model reads {lang} only, and most of this text is in another script. "
                    "Its output and attention below mean little. Type a sentence in {lang}.",
    "lang_en": "English",
    "lang_de": "German",
    "lang_fr": "French",
}
