"""The core's notes (transformer/core/notes.py), one string per note code and language."""
EN = {
    "source_cut": "The sentence is longer than this model's limit: only the first {n} tokens "
                  "(the last one being </s>) are used.",
    "target_cut": "The target is longer than this model's limit: it was cut to {n} tokens.",
    "source_cut_words": "The sentence is longer than this model reads at once ({n} tokens, the "
                        "last one being </s>): only its first {words} of {total} words are used. "
                        "Shorten it to see all of it.",
}
