"""English text of the taught-head notes (ui/taught_note.py); other languages in ui/locales/."""

EN = {
    "taught_supervised": "attention supervision (an extra training loss that asked it to look "
                         "from the pronoun to its antecedent, on generated minimal pairs)",
    "taught_interchange": "interchange training (its output at the pronoun was swapped between "
                          "the two sentences of generated pairs, and the partner's German pronoun "
                          "asked for)",
    "taught_note": "Taught, not found: {head} was trained to behave this way by {how}, as this "
                   "model's training record says. What it shows here is what it was asked to do; "
                   "the untrained control is the same head in a model never taught: {control}.",
    "taught_and": " and by ",
    "taught_control_none": "no such model is on this server",
    "taught_control_open": "Open the untrained control ({name})",
}
