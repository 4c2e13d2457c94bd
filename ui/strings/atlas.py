"""The head atlas section of the Heads page (ui/atlas_view.py): every head labelled."""
EN = {
    "title": "Head atlas: every head, labelled by what it does",
    "intro": "Each head of every attention kind is measured on {n} sentences ({source}) for "
             "every behaviour below, and gets the most specific label whose score reaches 0.5; "
             "\"no clear role\" is a valid answer. Scores are shares between 0 and 1.",
    "source_task": "this task's held-out data",
    "source_probe": "the hand-written minimal pairs, plus the project's everyday and caption "
                    "sentences",
    "source_sentences": "the project's hand-written everyday and caption sentences",
    "run": "Label every head",
    "run_help": "Runs the model once per sentence and scores every head (a few seconds on a CPU).",
    "col_kind": "Kind",
    "col_layer": "Layer",
    "col_head": "Head",
    "col_label": "Label",
    "col_score": "Score",
    "col_scores": "All scores",
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
    "def_sink": "Weight on the first token or on </s>: a resting place for a head with nothing "
                "to do in this row.",
    "def_broad": "The row's entropy divided by the largest possible: 1 means the head spreads "
                 "its weight evenly. A broad head is \"no role\" said positively.",
    "def_punctuation": "Weight on punctuation keys (. , ? ! ...).",
    "def_monotonic": "Cross-attention whose strongest source word never moves backwards from one "
                     "output word to the next: an alignment that reads the source in order.",
    "def_pronoun": "Share of probe sentences in which the head's strongest word from the pronoun "
                   "is the antecedent (the Heads finder's score above).",
    "def_none": "No behaviour reaches 0.5: the head does something this list does not name, or "
                "several things at once.",
    "rule": "Order of preference when several reach 0.5: pronoun; then a position (diagonal, "
            "reversed, previous, next); then sink, punctuation, monotonic; then broad.",
}
