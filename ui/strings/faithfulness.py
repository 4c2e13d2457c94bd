"""The faithfulness map section of the Heads page (ui/faithfulness_view.py): where each head looks
against what patching it does."""
EN = {
    "title": "Faithfulness map: where a head looks against what it does",
    "run": "Draw the map",
    "run_help": "Runs every minimal pair once, then once more per head with that head patched "
                "(under a minute on a CPU for a 72-head model; kept for the next visit).",
    "probe": "Pair file",
    "probe_minimal": "the hand-written minimal pairs",
    "probe_fresh": "the fresh minimal pairs (never trained on)",
    "intro": "Each dot is one head. Across: how much of its weight goes from the query to the "
             "antecedent's phrase (\"looks\"). Up: how far replacing its output with the one from "
             "the partner sentence moves the pronoun's choice to the partner's (\"effect\": 0 "
             "nothing, 1 all the way). Measured on {n} minimal pairs.",
    "spearman": "Rank correlation of looking and acting over all {heads} heads (Spearman): {rho}.",
    "spearman_none": "Rank correlation of looking and acting: undefined (one side is constant).",
    "chance": "A head spreading its weight evenly would look {enc} (encoder self), {dec} "
              "(decoder self), {cross} (cross).",
    "taught_line": "{head} was trained to do this ({how}): looks {looks}, effect {effect}.",
    "how_supervised": "attention supervision",
    "how_interchange": "interchange training",
    "none_taught": "No head of this model was trained on the pronoun: every dot is a finding.",
    "look_without_act": "Look without acting (looks ≥ {looks}, effect below {effect}): {heads}.",
    "act_without_look": "Act without looking (effect at least {effect}, looks below {looks}): "
                        "{heads}.",
    "no_heads": "none",
    "no_pairs": "This pair file has no pair to measure: {reason}",
    "looks": "looks (weight on the antecedent)",
    "effect": "effect of patching",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Decoder self",
    "kind_cross": "Cross",
    "taught": "taught",
    "definitions": "How the two numbers are measured",
    "def_text": "A pair is the two sentences of a minimal pair whose German pronouns differ and "
                "whose German references agree on every word before the pronoun. Both run with "
                "that shared beginning given to the decoder; the last position of it writes the "
                "pronoun. LD is the logit of the first piece of sentence A's pronoun minus that "
                "of sentence B's, at that position. Patching a head replaces its output (before "
                "the output projection) at one position with its output in the partner sentence: "
                "at \"it\" for encoder self-attention, at the position writing the pronoun for "
                "decoder self- and cross-attention. The effect of patching A with B is (LD of A "
                "− LD patched) / (LD of A − LD of B), averaged over both directions of every "
                "pair. Looks: the head's weight from that position to the antecedent's article "
                "and noun (in English for encoder self and cross, in German for decoder self), "
                "averaged over the sentences. The same numbers come from the command line: "
                "`python -m transformer.faithfulness --checkpoint CK --probe PAIRS.jsonl --json`",
}
