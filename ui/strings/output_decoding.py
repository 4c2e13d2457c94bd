EN = {
    "label": "How the model writes its output",
    "option_beam": "beam search ({beam} beams)",
    "option_greedy": "greedy (one word at a time)",
    "help": "Used when the target box is empty. Beam search keeps the {beam} likeliest partial "
            "sentences at every step and returns the best finished one (its score divided by a "
            "length penalty, alpha {alpha:.1f}, plus a coverage penalty, beta {beta:.1f}, for source "
            "words the output hardly attended to): on the sentences kept out of the training it "
            "scores best, so it is where the page opens. Greedy takes the likeliest word at every step: "
            "each word written is the top of its step's bars (the Decode page shows both step by "
            "step). Either way the attention shown is the model reading the output it chose. A "
            "text over {chars} characters is written greedily, to spare a shared server.",
    "made_beam": "What the model wrote (beam search: {beam} beams, length penalty alpha "
                 "{alpha:.1f}, coverage penalty beta {beta:.1f}, the decoding that scores best on "
                 "sentences kept out of training). The attention below is the model reading this "
                 "output, the numbers the search computed for it:",
    "made_greedy": "What the model wrote (greedy decoding: the likeliest word at every step):",
    "made_greedy_long": "What the model wrote (greedy decoding: a text over {chars} characters is "
                        "not beam-searched on a shared server):",
}
