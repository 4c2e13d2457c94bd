"""The logit lens table (ui/logit_lens_view.py): what the model would write if a decoder layer were
its last."""
EN = {
    "toggle": "What each decoder layer would write (logit lens)",
    "toggle_help": "Each decoder layer's output, put through the model's final norm (where it has "
                   "one) and its output layer, as if that layer were the last.",
    "intro": "A row per decoder layer, a column per output position: the piece the model would "
             "write there if that layer were its last, with its probability. The last layer's "
             "row is the model's own first choice at each step: greedy decoding writes exactly "
             "it; beam search may keep a less likely piece for a likelier whole sentence.",
    "layer": "layer {n}",
    "position": "{n}: {token}",
    "top_k": "Pieces per cell",
}
