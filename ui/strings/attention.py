EN = {
    "title": "Attention: who looks at whom",
    "intro": "Type a sentence and see the attention weights the model computes for it: where "
             "one word looks (the pronoun, when there is one), that head enlarged, and every "
             "layer and head at once on demand. A weight says how much of a key token's value a "
             "query token takes; each row sums to 1.",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to see its attention.",
    "text": "Source sentence",
    "text_help": "The sentence the encoder reads. It is cut to the model's length limit if longer.",
    "target": "Target sentence (optional)",
    "target_help": "Leave empty to let the model write its own output (beam search or greedy, "
                   "as chosen below). Type a target to see the decoder's attention on that "
                   "sentence instead (teacher forcing: the decoder reads the given target, not its "
                   "own output).",
    "empty": "Type a sentence above to see its attention (the text is empty).",
    "bad_text": "This text cannot be used: {reason}",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "output": "Output",
    "output_forced": "The target you typed (teacher forcing: the decoder reads it instead of its "
                     "own output):",
    "output_empty": "(nothing: the model ended at once)",
    "sure_title": "How sure was the model of each word?",
    "sure_title_sym": "How sure was the model of each symbol?",
    "sure_caption": "Each bar is the probability the model gave the word it wrote (the product of "
                    "its pieces'), with the words before it given. Blue: {sure:g} or more, "
                    "sure; grey: between {unsure:g} and {sure:g}, not sure; orange: under "
                    "{unsure:g}, guessing. Over the whole output, each piece had a probability "
                    "of {mean:.2f} on average (geometric mean). The Decode page shows what else it "
                    "considered at each step.",
    "sure_forced": "With a target typed, the bars are the probability the model gives each of "
                   "your words (what it would have written is on the Decode page).",
    "sure_y": "probability",
    "sure_name": "sure ({sure:g} or more)",
    "middle_name": "not sure ({unsure:g} to {sure:g})",
    "guess_name": "guessing (under {unsure:g})",
    "sure_warning": "The model was guessing at {n} of the {m} words it wrote ({words}). An output "
                    "like this is often wrong in places: on the 100 everyday sentences kept out "
                    "of its training, the default model's translations with two or more guessed "
                    "words scored far below the rest. Read its attention on this sentence as that "
                    "of a model that did not understand it.",
    "tokens": "Source tokens: {n} · target tokens (with <s>): {m}",
    "kind": "Attention kind",
    "clearest": "Opened on layer {l}, head {h}: of the {n} heads of {kind}, it shows the clearest "
                "pattern on this sentence: {what}. Any other head can be chosen above.",
    "clearest_first": " (Layer 0, head 0: {first:.0%}.)",
    "clearest_diagonal": "each token looks mostly at itself ({share:.0%} of the weight)",
    "clearest_diagonal_cross": "each output token looks at the source token in the same position, "
                               "what copying needs ({share:.0%} of the weight)",
    "clearest_reversed": "each output token looks at the source token as far from the end, what "
                         "reversing needs ({share:.0%} of the weight)",
    "clearest_previous": "each token looks at the one before it ({share:.0%} of the weight)",
    "clearest_next": "each token looks at the one after it ({share:.0%} of the weight)",
    "clearest_focused": "each row puts {share:.0%} of its weight on one word of the sentence (not "
                        "on </s> or punctuation)",
    "kind_help": "Encoder self-attention: source words look at source words. Masked decoder "
                 "self-attention: each target word looks only at itself and the words before it. "
                 "Cross-attention: target words look at the source words.",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Masked decoder self",
    "kind_cross": "Cross (decoder → encoder)",
    # the same three inside a sentence ("The model's other pronoun head, in masked decoder
    # self-attention (layer 2, head 6) ...")
    "kind_mid_encoder_self": "encoder self-attention",
    "kind_mid_decoder_self": "masked decoder self-attention",
    "kind_mid_cross": "cross-attention",
    "merge": "Merge subword pieces into words",
    "merge_help": "Rule: a word's weight as a key is the SUM of its pieces' weights; a word's row "
                  "as a query is the AVERAGE of its pieces' rows, except the word just before a "
                  "German pronoun, which keeps its last piece's row (the one that writes the "
                  "pronoun). Rows still sum to 1.",
    "merge_on": "Pieces merged into words: weights summed over the pieces of a key word, averaged "
                "over the pieces of a query word (the word before a German pronoun keeps the row "
                "of its last piece, which decides the pronoun).",
    "hide": "Hide special tokens",
    "hide_help": "Removes <s>, </s>, <pad> and <unk> from both axes and divides each remaining row "
                 "by what is left of its sum, so it sums to 1 again.",
    "hide_on": "Special tokens hidden: each row is renormalised over the remaining tokens (divided "
               "by its remaining sum), so these are not the model's raw weights.",
    "model_view_help": "Rows are layers, columns heads; in each small map rows are queries and "
                       "columns keys. One colour scale for all: 0 (white) to 1 (dark blue). Hover "
                       "for the value and the two tokens.",
    "layer_n": "layer {n}",
    "head_n": "head {n}",
    "enlarged": "One head enlarged",
    "layer": "Layer",
    "head": "Head",
    "heat_title": "{kind} · layer {l} · head {h}",
    "queries": "query (attends from)",
    "keys": "key (attends to)",
    "row_check": "Check: every row shown sums to 1 (largest deviation {dev:.1e}).",
    "row_check_masked": "Rows sum to 1, except {n} row(s) with no weight left (all zeros).",
    "average": "Also show the average over all heads",
    "average_help": "The plain mean of the heads' weights in this layer. It is not a head of the "
                    "model: the heads are computed separately and concatenated, never averaged.",
    "avg_title": "AVERAGE over the {n} heads of layer {l} (not a head of the model)",
    "all_tokens": "all tokens",
    "downloads": "Downloads",
    "csv": "This head's matrix (CSV)",
    "csv_help": "The enlarged matrix as shown (after the toggles), with token labels.",
    "json": "The whole trace (JSON)",
    "json_help": "Tokens, output and the weights of every layer and head of all three attention "
                 "kinds, as the model computed them (toggles not applied).",
    "png_hint": "Each chart has a camera button (top right, on hover) to save it as PNG.",
    "featured_title": "This model's pronoun head: {head}",
    "featured_title_also": "This model's pronoun heads: {head}, and {others}",
    "and": ", and ",
    "head_glossed": "{label} ({kind}, layer {l}, head {h}, counted from 0)",
    "featured_fig4": "The paper's Figure 4 shows two heads of ENCODER self-attention (layer 5 of 6, "
                     "heads 5 and 6 in the paper's counting) that attend from \"its\" to \"Law\" "
                     "and \"application\". In this model the head that resolves the pronoun is "
                     "elsewhere: {kind}, layer {l}, head {h} (counted from 0).",
    "featured_fig4_same": "The paper's Figure 4 shows two heads of ENCODER self-attention (layer "
                          "5 of 6, heads 5 and 6 in the paper's counting) that attend from \"its\" "
                          "to \"Law\" and \"application\". This model's pronoun head sits in the "
                          "same place: encoder self-attention, the top one of its {n} layers "
                          "(layer {l}), head {h} (both counted from 0). The page opens on it and "
                          "on the pronoun's row.",
    "featured_ablation": "Measured now: switching {head} off (an ablation: its output set to zero) "
                         "takes the pronoun accuracy on {n} {probe} from {on:.0%} to {off:.0%} "
                         "(the Heads page runs the same test).",
    "featured_ablation_also": "Switching {head} off instead: from {on:.0%} to {off:.0%}.",
    "featured_leans": "Measured here, the translation leans more on {more} than on {less}: "
                      "switching it off costs more.",
    "featured_leans_tie": "Switching off either head costs the same here.",
    "probe_anaphora": "held-out sentences (kept out of training: noun pairs never seen in "
                      "training)",
    "probe_classroom": "hand-written sentences (none generated)",
    "featured_open": "Open {head}",
    "featured_no_pronoun": "This model's pronoun head is {head}; type a sentence with \"it\" or "
                           "\"its\" to see it at work.",
    "featured_here": "You are looking at {head}.",
    "view_title": "Where does one word look?",
    "view_help": "Left: the word that asks (query); right: the words it can look at (keys). A "
                 "line's darkness is its weight. Hover the dots for the numbers.",
    "choose_token": "Word",
    "many_tokens": "{n} words: too many for buttons, so choose the word from this list.",
    "heads_shown": "Heads drawn",
    "heads_shown_help": "Each head has its colour; choose several to compare them.",
    "lesson_enc": "Opened on the pronoun \"{word}\": which words does it look at?",
    "lesson_dec": "Opened on the row of \"{word}\", the word before the German pronoun "
                  "\"{pronoun}\": the decoder input at a position writes the NEXT word, so this "
                  "row is where the model decides which pronoun to write.",
    "model_view_open": "Every layer × head at once (model view)",
    "cell_numbers": "Numbers in the cells",
    "cell_numbers_help": "Writes each weight in its cell, here and in the rollout picture below "
                         "(for sentences up to 14 words). Hovering over a cell shows its number "
                         "in any case.",
    "left_col": "queries",
    "right_col": "keys",
    "cross_writes": "Rows: the piece each position writes",
    "cross_writes_help": "Off: each cross-attention row is named by the piece the decoder reads "
                         "there (its input; the alignment leaderboard's \"reads\"). On: by the "
                         "piece it writes there (\"writes\"): the row of <s> is named by the "
                         "first piece, and the last row by </s>. The Heads page's alignment "
                         "leaderboard measures both.",
    "cross_writes_on": "Rows named by the piece each position writes (\"writes\"): the same "
                       "weights, every row name moved up one.",
}
