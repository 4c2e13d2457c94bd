"""Strings of the Masks page (English; other languages in ui/locales/<code>.json)."""
EN = {
    "title": "Masks",
    "intro": "A mask says, for every query and every key, whether the query may look at that key. "
             "Two rules are used. Padding: sentences in a batch have different lengths, so the short "
             "ones are filled with <pad>, and no one may attend to a <pad>. Causal: while the decoder "
             "writes word t it must not see words t+1, t+2, … that it has not written yet. The decoder's "
             "self-attention uses both rules at once.",
    "sentences": "Sentences (one per line)",
    "sentences_help": "A small batch of sentences of different lengths. They are split into tokens by the "
                      "current model's tokenizer (or at spaces when no model is loaded) and padded to the "
                      "longest one.",
    "sentences_default": "A dog runs .\nTwo men play football on the grass .\nEin Hund rennt .",
    "tokenized_by_model": "Tokens from the current model's tokenizer. The batch below is the encoder's input: "
                          "pieces + </s>.",
    "tokenized_by_space": "No model is loaded: the sentences are split at spaces.",
    "bad_text": "These sentences cannot be used: {reason}",
    "truncated": "Sentence {n} was cut to {limit} tokens.",
    "batch_title": "The padded batch",
    "padding_title": "Padding mask: which keys are real tokens (one row per sentence)",
    "padding_caption": "Blue = a real token, grey = <pad>. In the model this row is shared by every query "
                       "and every head: its shape is (batch, 1, 1, length).",
    "choose": "Sentence to look at",
    "sides_caption": "The encoder reads the sentence as pieces + </s>; the decoder, learning to write it, reads "
                     "<s> + pieces (shifted right by one: it never reads the </s> it has to produce). So the "
                     "left mask is labelled with the encoder's tokens, the other two with the decoder's.",
    "pad_square_title": "Encoder: padding mask (query × key)",
    "pad_square_caption": "Encoder self-attention (and cross-attention's keys): every query may look at every "
                          "real token, never at <pad>.",
    "causal_title": "Decoder: causal mask (query × key)",
    "causal_caption": "Lower triangle: word t may see words 0…t, never a later one.",
    "combined_title": "Decoder: causal AND padding",
    "combined_caption": "This is what the decoder's self-attention uses for this sentence. Rows of <pad> "
                        "queries still exist; their outputs are ignored by the loss.",
    "row_title": "What the mask does to one row of scores",
    "row_intro": "Take one query's row of scores (here a seeded random row, like q·k/√d_k) and mask it with the "
                 "combined mask. Left: the scores. Middle: masked entries set to −inf, then softmax: their "
                 "weight is exactly 0, since e^−∞ = 0. Right: the same entries set to 0 instead (the notes' "
                 "step-12 example, `masked_two_head_attention_3x3`, writes masked entries as 0): e^0 = 1, so the "
                 "hidden tokens still get weight: the model would peek at the future and at the padding.",
    "query": "Query position",
    "seed": "Random seed for the scores",
    "leak": "With 0 instead of −inf, the tokens that should be hidden get {leak:.1%} of the weight "
            "(with −inf: exactly {zero}).",
    "no_leak": "This query has no hidden key (every key is a real token at or before it), so both rows agree. "
               "Pick a later sentence position or a shorter sentence to see the difference.",
    "t_scores": "scores (before softmax)",
    "t_inf": "masked with −inf → softmax",
    "t_zero": "masked with 0 → softmax",
    "keep": "may attend",
    "masked": "masked",
    "query_axis": "query",
    "key_axis": "key",
    "sentence_axis": "sentence",
    "token_axis": "token",
    "download": "Download CSV",
    "col_token": "token",
    "col_score": "score",
    "col_keep": "may attend",
    "col_masked_inf": "masked (−inf)",
    "col_weight_inf": "weight (−inf)",
    "col_masked_zero": "masked (0)",
    "col_weight_zero": "weight (0)",
}
