EN = {
    "title": "Heads: what does each attention head do?",
    "intro": "Every layer has several heads, and each learns its own way of looking. Choose a "
             "relation, and every head of every attention kind is scored on it: the share of "
             "queries whose strongest weight lands where the relation says. Then open a head on "
             "the Attention page, or switch heads off and see whether the output changes: a causal "
             "test, not only a picture.",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to score its heads.",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "relation": "Relation",
    "relation_help": "What a head should do to score: each query's strongest weight must fall "
                     "on the key this relation names.",
    "rel_anaphora": "Anaphora: pronoun → antecedent",
    "rel_previous_token": "Previous token",
    "rel_self": "The token itself",
    "rel_same_token": "Same token elsewhere",
    "rel_first_token": "First token",
    "rel_eos_sink": "End-of-sentence sink (</s>)",
    "rel_diagonal": "Diagonal alignment (copy)",
    "rel_anti_diagonal": "Anti-diagonal alignment (reverse)",
    "desc_anaphora": "The antecedent is the noun phrase a pronoun stands for (\"the dog\" for "
                     "\"it\" in \"The dog ate because it was hungry\"). For each probe sentence, "
                     "the attention from the pronoun (\"it\") is taken "
                     "word by word (pieces of a word added up); the pronoun itself and special "
                     "tokens are left out. The head scores when its strongest word belongs to the "
                     "antecedent's noun phrase: the noun OR the article right before it (\"the "
                     "dog\", \"den Becher\"). The article counts because in German it carries the "
                     "gender (der / die / das) that decides er / sie / es: a head that reads the "
                     "article has found what the pronoun needs. Below, the best head's hits are "
                     "split into article and noun. Encoder self-attention: \"it\" → the English "
                     "phrase; cross-attention: the step that writes er/sie/es → the English phrase; "
                     "decoder self-attention: that step → the German phrase.",
    "desc_previous_token": "Query i scores when its strongest key is position i − 1.",
    "desc_self": "Query i scores when its strongest key is position i itself.",
    "desc_same_token": "A query scores when its strongest key is another occurrence of the same "
                       "token (only queries whose token occurs twice count).",
    "desc_first_token": "A query scores when its strongest key is the first position (<s> in the "
                        "decoder): a common resting place for heads with nothing to do.",
    "desc_eos_sink": "A query scores when its strongest key is the final </s> of the source: "
                     "another resting place (a 'sink').",
    "desc_diagonal": "Cross-attention of a copy model should read source word i while writing "
                     "output word i: query i scores when its strongest key is position i.",
    "desc_anti_diagonal": "A reverse model writes the source backwards: the query writing output "
                          "word i scores when its strongest key is source word S − 2 − i (</s> "
                          "is last).",
    "probe": "Probe sentences",
    "probe_help": "Which sentences the heads are scored on: probe sentences are test sentences "
                  "kept for measuring (never trained on), with the right answer marked.",
    "probe_heldout": "Generated, held out (noun pairs never seen in training)",
    "probe_natural": "Hand-written caption sentences (186, with German references)",
    "probe_natural_pairs": "Hand-written minimal pairs (100 pairs: one word decides what \"it\" "
                           "is; with German references)",
    "probe_upload": "My own probe file (JSONL: one JSON object per line)",
    "n": "Number of probe sentences",
    "n_help": "More sentences give steadier scores and take longer.",
    "upload": "Probe file (JSON lines)",
    "upload_help": "One JSON object per line: {{\"text\": \"The dog saw the cup because it was "
                   "hungry .\", \"pronoun\": 6, \"antecedent\": 1}} with word positions counted "
                   "from 0 over the space-separated words; optional \"candidates\" (noun positions, "
                   "for the baselines) and \"target\" (a reference translation). At most {kb:,} kB "
                   "and {lines:,} lines.",
    "upload_wait": "Upload a probe file to score the heads on it.",
    "upload_bad": "This probe file cannot be used: {reason}",
    "upload_ok": "{n} probe sentences read from {name}.",
    "sentences_source": "Scored on {n} held-out examples of the model's task ({task}), with "
                        "their reference outputs as the decoder's input.",
    "sentences": "Sentences (one per line)",
    "sentences_help": "The heads are scored on these sentences; the decoder reads the model's "
                      "own greedy output for each (at most {max} lines).",
    "sentences_empty": "Type at least one sentence above.",
    "too_many_lines": "Only the first {max} lines are used.",
    "no_fit": "No query in these sentences fits this relation for {kind}, so it is not scored.",
    "scoring": "Scoring every head…",
    "grid_title": "{kind}",
    "layer_n": "layer {n}",
    "head_n": "head {n}",
    "value_acc": "accuracy",
    "value_share": "share of queries",
    "mean_weight": "mean weight on the antecedent (article + noun)",
    "best_split": "Where its strongest word lands, over {n} probe sentences: on the article "
                  "{article} times ({article_pct:.0%}), on the noun {noun} times "
                  "({noun_pct:.0%}), elsewhere {other} times.",
    "kind_encoder_self": "Encoder self-attention",
    "kind_decoder_self": "Masked decoder self-attention",
    "kind_cross": "Cross-attention",
    "grid_caption": "Rows are layers, columns heads (both counted from 0); each cell is the share "
                    "of {n} items the head gets right. The red box is the best head of all kinds.",
    "only_encoder": "These probe sentences have no target-side positions, so only encoder "
                    "self-attention is scored.",
    "best": "Best head: **{head}**, {kind}, layer {l}, head {h}, with {v:.0%} of queries on the "
            "relation.",
    "best_anaphora": "Best head: **{head}**, {kind}, layer {l}, head {h}: it puts its strongest "
                     "weight on the antecedent (its article or its noun) for {v:.0%} of the probe "
                     "sentences (mean weight {w:.2f}).",
    "baselines": "Baselines (no model)",
    "baselines_help": "What a rule without attention would score: guess the noun nearest before "
                      "the pronoun, the first noun of the sentence, a random one of its nouns, or a "
                      "random word (any word of the antecedent's noun phrase counts, as for a head). "
                      "A head that beats them all does more than a position rule.",
    "nearest_noun": "nearest noun",
    "first_noun": "first noun",
    "random_noun": "random noun",
    "random_word": "random word",
    "no_baselines": "These probe sentences list no candidate nouns, so only the random-word baseline "
                    "can be computed.",
    "open": "Open one head on the Attention page",
    "open_help": "Choose a head (the best one is preselected) and a sentence: the link shows "
                 "that head's weights on it.",
    "kind": "Attention kind",
    "layer": "Layer",
    "head": "Head",
    "probe_sentence": "Sentence",
    "probe_sentence_help": "The sentence the Attention page opens with.",
    "open_link": "Open {head} on the Attention page",
    "no_attention_page": "The Attention page is not part of this build.",
    "ablation": "Ablation: switch heads off",
    "ablation_intro": "A head's output is set to zero (the others are untouched), then the model "
                      "translates again. If the output or the pronoun accuracy changes, those heads "
                      "were needed: this tests the claim the scores above make.",
    "ablate": "Heads to switch off",
    "ablate_help": "Named like 'cross L1 H2': kind (enc = encoder self, dec = masked decoder self, "
                   "cross = cross-attention), layer, head, counted from 0.",
    "ablate_placeholder": "Choose heads",
    "ablate_best": "Add the best head",
    "ablate_cross": "Add all cross-attention heads",
    "ablate_clear": "Clear",
    "ablation_sentence": "Probe sentence",
    "ablation_sentence_help": "Translated with and without the chosen heads.",
    "without": "All heads on",
    "with": "Chosen heads off",
    "output_same": "The output did not change.",
    "output_changed": "The output changed.",
    "no_ablation": "Choose heads above to switch them off.",
    "acc_title": "Pronoun accuracy on the probe",
    "acc_probe_file": "Measured on the {n} hand-written caption sentences, as the model card measures it.",
    "acc_probe_pairs": "Measured on the {n} hand-written minimal-pair sentences, as the model card measures it.",
    "acc_n": "Probe sentences for the accuracy",
    "acc_n_help": "Each is translated twice (greedy decoding), so more sentences take longer.",
    "acc_help": "The share of probe sentences whose greedy translation has the right German "
                "pronoun. Measured for models of a pronoun task only.",
    "acc_help_anaphora": "The share of held-out sentences of the anaphora task (generated like the "
                         "training data, but never trained on) whose greedy translation has the "
                         "reference's German pronoun (er / sie / es) at the reference's word "
                         "position.",
    "acc_help_probe": "The share of the hand-written caption sentences (none generated, none "
                      "trained on) whose greedy translation shows the gender of the reference's "
                      "pronoun: some pronoun of that gender anywhere in the sentence (er / ihn, "
                      "sie, es, or a possessive sein- / ihr-: possessives count too), and no "
                      "pronoun of a gender the reference lacks. The word position is not checked.",
    "acc_without": "all heads on",
    "acc_with": "chosen heads off",
    "acc_delta": "{d:+.0f} percentage points",
    "acc_not_anaphora": "The pronoun accuracy is measured only for models trained on a pronoun "
                        "task ({tasks}), whose probe sentences come with the right German "
                        "pronoun; this one was trained on {task}. The output above still shows "
                        "the effect.",
    "flipped": "Sentences whose pronoun changed ({n})",
    "choices_title": "Sentence by sentence: where {head} looks ({miss} of {n} miss the antecedent)",
    "choices_help": "For each probe sentence, the word this head weighs most from the pronoun "
                    "(in [brackets]), misses first. Select a row to put that sentence in the box "
                    "below and open it on the Attention page.",
    "choices_help_target": "Decoder self-attention is read on the German reference, as in the "
                           "scores above (the model is fed the reference word by word), from the "
                           "position that writes the pronoun (in [brackets]); misses first. "
                           "Select a row to put its English sentence in the box below and open "
                           "it on the Attention page.",
    "col_hit": "found",
    "col_sentence": "sentence",
    "col_antecedent": "antecedent",
    "col_top": "strongest weight on",
    "col_src": "source",
    "col_before": "all heads on",
    "col_after": "chosen heads off",
    "empty_sentence": "Type a sentence to translate.",
    "bad_text": "This text cannot be used: {reason}",
    "too_long": "The text is {n:,} characters long; this page takes at most {max:,}. Shorten it.",
}
