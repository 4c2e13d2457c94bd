EN = {
    "title": "Two sentences, one word apart",
    "intro": "A minimal pair: sentence B is sentence A with one word changed. Change \"tired\" to "
             "\"wide\" and \"it\" should mean the street, not the animal. Does the model's head "
             "notice? Both sentences go through the same head, and the row of the pronoun is "
             "drawn side by side: where the head looks in each, and whether its strongest word "
             "moved.",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to compare two sentences.",
    "text_a": "Sentence A",
    "text_a_help": "The first sentence the encoder reads.",
    "text_b": "Sentence B (A with one word changed)",
    "text_b_help": "The same sentence with one word changed: the word that should change what "
                   "the pronoun refers to.",
    "empty": "Type a sentence into both boxes above to compare them (a box is empty).",
    "bad_text": "This text cannot be used: {reason}",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "pair": "The pair",
    "which_a": "A",
    "which_b": "B",
    "changed_one": "Changed word: {a} → {b}.",
    "changed_same": "The two sentences are the same: change one word in sentence B to make a "
                    "minimal pair.",
    "changed_many": "These sentences differ in more than one word, or in length ({a} → {b}). A "
                    "minimal pair changes exactly one word, so that any move of the head can be "
                    "laid on that word; the comparison below is shown anyway.",
    "changed_none": "(nothing)",
    "translations": "Both translations",
    "guessed": "Words the model gave under {unsure:g} probability (guesses): {words}",
    "sure": "No word under {unsure:g} probability. That does not mean nothing was left out: of {n} "
            "such outputs a bilingual reader checked, {d} had dropped a source word.",
    "output_greedy": "What the model writes for each (greedy decoding, which the swap below "
                     "compares; the Attention page writes with beam search, so its German may "
                     "differ):",
    "output_empty": "(nothing: the model ended at once)",
    "head_title": "One head, both sentences",
    "kind": "Attention kind",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Masked decoder self",
    "kind_cross": "Cross (decoder → encoder)",
    "kind_help": "Encoder self-attention: the row of the English pronoun (\"it\", \"its\") over "
                 "the source words. The decoder kinds: the row of the German word written just "
                 "before the pronoun (er, sie, es), where the model decides which pronoun to "
                 "write, over the German words so far (masked decoder self) or the source words "
                 "(cross).",
    "layer": "Layer",
    "head": "Head",
    "hide": "Hide special tokens",
    "hide_help": "Removes <s>, </s>, <pad> and <unk> from the keys and divides the row by what is "
                 "left of its sum, so it sums to 1 again.",
    "hide_on": "Special tokens hidden: each row is renormalised over the remaining words, so "
               "these are not the model's raw weights.",
    "featured": "This model's featured head is {head} ({kind}, layer {l}, head {h}, counted from "
                "0): the pickers start on it.",
    "no_featured": "This model's card features no head: the pickers start on encoder "
                   "self-attention, last layer, head 0. Try any other.",
    "row_enc": "The row of the pronoun \"{word}\": how much of each source word it takes.",
    "row_dec": "The row of \"{word}\", the German word just before \"{pronoun}\": the decoder "
               "input at this position writes the pronoun.",
    "chart_title": "Sentence {which} · row of \"{word}\"",
    "weight_axis": "attention weight",
    "strongest": "Strongest word: {word} (weight {w:.2f})",
    "verdict_moves": "The head moves: {a} → {b}",
    "verdict_same": "The head does not move: both on {a}",
    "verdict_changed": "The head follows the changed word: {a} → {b}",
    "verdict_help": "The strongest word of each row, matched through the word-level diff of the "
                    "two rows' key words (the same word at a shifted position is the same word).",
    "legend": "Bars: the row's weights over the key words, in sentence order (over all keys, a "
              "row sums to 1). Dark bar and bold label: the strongest word. Orange bar and ◆: a "
              "word that differs between the two sentences.",
    "dec_keys": "Masked decoder self-attention: the row sees only the German words up to itself "
                "(the later ones are masked), so only those are drawn. They come from each "
                "sentence's own translation.",
    "no_pronoun_enc": "Sentence {which} has no English pronoun (\"it\" or \"its\"), so there is "
                      "no pronoun row to draw. Type a sentence with \"it\" in it.",
    "no_pronoun_dec": "The model's translation of sentence {which} has no German pronoun (er, "
                      "sie or es), so this head has no pronoun row to draw. Choose encoder "
                      "self-attention, or try another sentence.",
    "no_verdict": "The head's move is judged only when both sentences have a pronoun row.",
    "swap_title": "Swap the head: does the pronoun follow it?",
    "swap_intro": "Looking is not deciding. A head can point from \"it\" to the right noun while "
                  "the decoder takes the pronoun from elsewhere. The swap tests it: sentence A is "
                  "translated again with this head's output at \"it\" taken from sentence B, and "
                  "B with A's. If the pronoun's choice runs through the head, A's translation now "
                  "carries B's pronoun.",
    "swap_toggle": "Swap {head}'s output at \"it\" between A and B",
    "swap_kind": "The swap exchanges an encoder self-attention head's output at the English "
                 "pronoun: choose Encoder self above.",
    "swap_no_pronoun": "Both sentences need an English pronoun (\"it\" or \"its\") for the swap.",
    "swap_which": "{which} with {other}'s head output",
    "swap_follows": "The pronoun follows the head: {before} → {after}, {other}'s own pronoun",
    "swap_other": "The pronoun changes ({before} → {after}), but not to {other}'s ({partner}): "
                  "the head's output moved something, not the choice between the two",
    "swap_same": "The pronoun stays: {before} (the model decides it elsewhere)",
    "swap_none": "Neither translation has a German pronoun.",
    "swap_help": "Only this one head's output at the pronoun is exchanged (a vector of d_model / "
                 "heads numbers); every other head and every other word is the sentence's own. "
                 "`python -m transformer.scorecard` runs the same swap over the project's minimal "
                 "pairs (the swap test).",
}
