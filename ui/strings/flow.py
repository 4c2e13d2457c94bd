"""The Attention page's rollout section (ui/flow_view.py)."""
EN = {
    "title": "Where each output word comes from: attention rollout",
    "intro": "One picture for the whole sentence: each German word (row) traced back through "
             "every layer of all three attention kinds to the English words (columns). Hover a "
             "cell for its share.",
    "honest": "Rollout is an approximation: it multiplies head-averaged attention through the "
              "layers and the residual connections, and ignores the values, the feed-forward "
              "layers and LayerNorm, so below it stands beside a causal test.",
    "heat_title": "Rollout: German word → English words (each row sums to 1)",
    "x": "English (source) words",
    "y": "German (output) words",
    "check_title": "For \"{word}\": rollout against removing each English word",
    "check_help": "Purple: rollout's share of each English word for the German word \"{word}\". "
                  "Orange: how much the model's probability of writing \"{word}\" drops when that "
                  "English word is removed (its pieces made padding, so nothing attends to them); "
                  "a negative bar means removing it made \"{word}\" more likely.",
    "check_toggle": "Test it: remove each English word",
    "check_toggle_help": "Runs the model once more for every English word, with that word removed, "
                         "and sets the drop in one German word's probability beside rollout's share.",
    "share": "rollout share",
    "drop": "drop in probability when removed",
    "pick": "German word to test",
    "agree": "Rollout's strongest English word is \"{r}\"; removing \"{o}\" hurts \"{word}\" most"
             " ({p:.2f} → {q:.2f}).",
    "no_output": "The model wrote nothing to trace.",
    "contrib_title": "Where each output word comes from: contributions (ALTI+)",
    "contrib_intro": "ALTI+ (Ferrando et al., 2022) splits what every attention block writes into "
                     "one vector per input word, the residual connection and LayerNorm included, "
                     "measures how much each vector makes of the result, and follows the blocks "
                     "through encoder and decoder. Set beside removing each English word on the "
                     "project's {n} probe sentences (test sentences kept for measuring), its "
                     "shares rank the English words as removal does with a Spearman correlation "
                     "of {rho:.2f} (rollout, below: {rollout:.2f}).",
    "contrib_long": "Compute the contributions of this long sentence ({n} pieces: about {seconds} s)",
    "contrib_long_off": "Over {limit} pieces the contributions, and the dropped-word alarm that "
                        "reads them, are computed only when asked: their cost grows with the square "
                        "of the sentence's length.",
    "contrib_heat_title": "Contributions (ALTI+): German word → English words (each row sums to 1)",
    "contrib_share_title": "How much of each German word comes from the English at all",
    "contrib_share_y": "share from the English",
    "contrib_share_name": "from the English",
    "contrib_share_help": "The rest of each bar comes from the German words written before it. "
                          "Rollout gives every word the same share ({rollout:.3f}); these follow the "
                          "sentence.",
    "contrib_dropped": "Possibly dropped: no German word draws on {words}. On {n} hand-labelled "
                       "outputs the alarm was right {tp} of {marked} times, but it found only {tp} "
                       "of the {dropped} dropped words: most dropped words pass unmarked.",
    "contrib_none_dropped": "The dropped-word alarm marks no English word here. That says little: "
                            "on {n} hand-labelled outputs it found only {tp} of the {dropped} "
                            "dropped words.",
    "contrib_little": "Drawing little on the English (under {share:g} of what writes them): "
                      "{words}. Possibly invented; this mark is not measured against labels.",
    "contrib_certainty": "What the certainty note is worth, on the same {n} labelled outputs: of "
                         "those with no word under 0.2, {sure_ok} of {sure_n} dropped nothing; of "
                         "those with two or more, {guess_ok} of {guess_n} dropped a word.",
    # a model of a symbol task (copy, reverse, sort: ui/model_words.py) reads and writes symbols
    "title_sym": "Where each output symbol comes from: attention rollout",
    "intro_sym": "One picture for the whole sequence: each output symbol (row) traced back through "
                 "every layer of all three attention kinds to the input symbols (columns). Hover "
                 "a cell for its share.",
    "heat_title_sym": "Rollout: output symbol → input symbols (each row sums to 1)",
    "x_sym": "input symbols",
    "y_sym": "output symbols",
    "check_title_sym": "For \"{word}\": rollout against removing each input symbol",
    "check_help_sym": "Purple: rollout's share of each input symbol for the output symbol "
                      "\"{word}\". Orange: how much the model's probability of writing \"{word}\" "
                      "drops when that input symbol is removed (made padding, so nothing attends "
                      "to it); a negative bar means removing it made \"{word}\" more likely.",
    "check_toggle_sym": "Test it: remove each input symbol",
    "check_toggle_help_sym": "Runs the model once more for every input symbol, with that symbol "
                             "removed, and sets the drop in one output symbol's probability "
                             "beside rollout's share.",
    "pick_sym": "Output symbol to test",
    "agree_sym": "Rollout's strongest input symbol is \"{r}\"; removing \"{o}\" hurts \"{word}\" "
                 "most ({p:.2f} → {q:.2f}).",
    "contrib_title_sym": "Where each output symbol comes from: contributions (ALTI+)",
    "contrib_intro_sym": "ALTI+ (Ferrando et al., 2022) splits what every attention block writes "
                         "into one vector per input symbol, the residual connection and LayerNorm "
                         "included, measures how much each vector makes of the result, and follows "
                         "the blocks through encoder and decoder. (On the project's {n} English "
                         "probe sentences, test sentences kept for measuring, its shares rank the "
                         "words as removing them does with a Spearman correlation of {rho:.2f}; "
                         "rollout: {rollout:.2f}.)",
    "contrib_heat_title_sym": "Contributions (ALTI+): output symbol → input symbols (each row sums "
                              "to 1)",
    "contrib_share_title_sym": "How much of each output symbol comes from the input at all",
    "contrib_share_y_sym": "share from the input",
    "contrib_share_name_sym": "from the input",
    "contrib_share_help_sym": "The rest of each bar comes from the output symbols written before "
                              "it. Rollout gives every symbol the same share ({rollout:.3f}); these "
                              "follow the sequence.",
}
