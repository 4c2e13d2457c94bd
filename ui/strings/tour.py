EN = {
    "title": "Attention Lab",
    "intro": "A real encoder-decoder Transformer, small enough to train on a laptop, with every "
             "number it computes on show. Follow the stops below in a lesson, or jump to any "
             "page from the sidebar.",
    "stop": "Stop {n}",
    "try": "Try it with: {sentence} (the link fills it in)",
    "try_example": "Try the example {example} (the link opens it)",
    "open": "Open {page}",
    "pe_title": "Where is each word? Positional encoding",
    "pe_text": "Attention by itself ignores word order, so each position gets its own pattern of "
               "sine and cosine waves added to the word's vector. Look at how slow and fast waves "
               "combine, and how the similarity of two positions depends only on their distance.",
    "att_title": "Who looks at whom? Attention",
    "att_text": "Every word asks a question (query), every word offers a label (key) and a "
                "content (value). The weights say how much of each value a word takes. Start with "
                "the sentence from the best-known Transformer blog post: the page opens on the "
                "pronoun \"it\", on the model's pronoun head. Does \"it\" look at the animal? "
                "Then change one word, \"tired\" to \"wide\", and \"it\" becomes the street "
                "(German: es becomes sie). See which words it looks at, one head at a time, then "
                "every layer and head at once.",
    "pair_try": "Then compare it with \"{sentence}\" side by side:",
    "swap_try": "Does the pronoun follow the head, or only the head the noun? Swap the head's "
                "output at \"it\" between the two sentences and see whether es and sie trade "
                "places:",
    "open_swap": "Open the swap",
    "masks_title": "No peeking: masks",
    "masks_text": "Padding must not be attended to, and while translating the decoder must not "
                  "see the words it has not written yet. Masks set those scores to minus "
                  "infinity before the softmax, so their weight is exactly zero.",
    "step_title": "One attention step, by the numbers",
    "step_text": "Pick one word in one head and follow it: its query, each key, the dot "
                 "products, the scaling by √d_k, the softmax, the weighted sum. Every number "
                 "comes from the real model.",
    "heads_title": "What do the heads do?",
    "heads_text": "Some heads look at the previous word, some align source and target, and one "
                  "head of the default model finds what \"it\" refers to. Score every head on "
                  "hand-written sentences, then switch heads off to test the claim: in the sentence "
                  "below, \"it\" is the cat, and the German must say sie.",
    "worked_title": "The notes' worked examples, checked",
    "worked_text": "The hand-worked examples from the study notes, recomputed. Where the notes "
                   "slipped, the page shows the right number and which step went wrong.",
}
