"""The head atlas section of the Heads page (ui/atlas_view.py): every head labelled, each score
beside its chance level."""
EN = {
    "title": "Head atlas: every head, labelled by what it does",
    "intro": "Each head of every attention kind is measured on {n} sentences ({source}) for "
             "every behaviour below; the command line (python -m transformer.atlas) measures the "
             "same sentences by default. Scores are shares between 0 and 1, each beside its "
             "chance level; \"no clear role\" is a valid answer.",
    "chance_rule": "Chance level: the same score on the same sentences after destroying the "
                   "behaviour and keeping the rest: each row's weights shuffled over the keys it "
                   "may see (monotonic: the order of the strongest words shuffled; pronoun: the "
                   "antecedents swapped within each minimal pair, or the first-noun or "
                   "nearest-noun rule if that scores higher). A head gets a label only when the "
                   "score reaches {bar}, is at least {margin} above its chance level, and its "
                   "permutation p-value ({n_perm} shuffles) is below {alpha} after Holm's "
                   "correction over all {tests} head-and-behaviour tests. Rows with no choice "
                   "(the decoder's first row sees only itself) are left out of every score. "
                   "\"Broad\" is a description, not a finding: shuffling a row does not change "
                   "its spread, so it is given only to a head with no finding.",
    "source_task": "this task's held-out data",
    "source_probe": "the hand-written minimal pairs, plus the project's everyday and caption "
                    "sentences",
    "source_sentences": "the project's hand-written everyday and caption sentences",
    "source_file": "the given probe file",
    "run": "Label every head",
    "run_help": "Runs the model once per sentence and scores every head (a few seconds on a CPU).",
    "col_kind": "Kind",
    "col_layer": "Layer",
    "col_head": "Head",
    "col_label": "Label",
    "col_score": "Score",
    "col_scores": "Top scores (score / chance)",
    "col_chance": "Chance",
    "col_p": "p (Holm)",
    "col_taught": "Taught",
    "score_vs_chance": "{b} {s:.2f} / {c:.2f}",
    "taught": "Taught heads: their behaviour was asked for in training, so their label reports "
              "what they were trained to do, not a discovery: {heads}.",
    "taught_supervised": "attention supervision",
    "taught_interchange": "interchange training",
    "which_sentences": "The {n} sentences measured",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Decoder self",
    "kind_cross": "Cross",
    "counts": "Labels: {counts}.",
    "meanings": "What the labels mean",
    "lab_previous": "previous token",
    "lab_next": "next token",
    "lab_diagonal": "same position (diagonal)",
    "lab_reversed": "reversed (anti-diagonal)",
    "lab_sink": "first token or </s> sink",
    "lab_broad": "broad (high entropy)",
    "lab_punctuation": "punctuation",
    "lab_monotonic": "monotonic alignment",
    "lab_pronoun": "pronoun → antecedent",
    "lab_none": "no clear role",
    "def_previous": "Share of the weight on the token just before the query.",
    "def_next": "Share of the weight on the token just after the query (encoder only: the "
                "decoder cannot see ahead).",
    "def_diagonal": "Self-attention: weight on the query's own position. Cross-attention: weight "
                    "on the source word at the same position as the word being written, what "
                    "copying needs.",
    "def_reversed": "Cross-attention: weight on the source word mirrored from the end, what "
                    "reversing needs.",
    "def_sink": "Self-attention: weight on the first token or on </s>; cross-attention: weight "
                "on </s> or the source's punctuation (never its first word, a real word): a "
                "resting place for a head with nothing to do in this row.",
    "def_broad": "The row's entropy over the keys it may see, divided by the largest possible: "
                 "1 means the head spreads its weight evenly. A description, not a finding: "
                 "given (at 0.5 or more) only to a head where nothing is found.",
    "def_punctuation": "Weight on punctuation keys (. , ? ! ...).",
    "def_monotonic": "Cross-attention whose strongest source word, when it moves from one "
                     "output word to the next, moves forward (share of the moves): an alignment "
                     "that reads the source in order. Rows whose strongest word stays put count "
                     "neither way.",
    "def_pronoun": "Share of probe sentences in which the head's strongest word from the pronoun "
                   "is the antecedent (the Heads finder's score above).",
    "def_none": "No behaviour is clearly above chance (score at least 0.5, at least 0.1 above "
                "its chance level, significant after Holm's correction) and the head is not "
                "broad: it does something this list does not name, several things at once, or "
                "nothing these sentences can tell from chance.",
    "rule": "Order of preference when several behaviours are found: pronoun; then a position "
            "(diagonal, reversed, previous, next); then sink, punctuation, monotonic. Broad only "
            "when nothing is found.",
}
