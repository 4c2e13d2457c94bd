"""The Q-K map section of the Heads page (ui/qk_view.py): one head's queries and keys from many
sentences in one picture."""
EN = {
    "title": "Queries and keys of many sentences at once",
    "run": "Draw the map",
    "run_help": "Runs a few hundred sentences through the model once (a few seconds; kept for the "
                "next visit).",
    "head": "Head",
    "source": "Sentences",
    "source_heldout": "{n} held-out sentences ({what})",
    "source_upload": "my own file",
    "upload": "A text file: one English sentence a line (optionally a TAB and its German)",
    "upload_wait": "Upload a sentence file to draw its map.",
    "upload_bad": "This sentence file cannot be used: {reason}",
    "query": "query",
    "key": "key",
    "x": "first principal component",
    "y": "second principal component",
    "intro": "Every dot is one token of one of {n} sentences: circles are the head's queries, "
             "squares its keys. The keys are moved so that their centre lies on the queries' "
             "centre and both are scaled to the same mean length (neither changes where a query "
             "looks), then one principal component analysis places all of them in two "
             "dimensions (after AttentionViz). Hover over a dot for its token and sentence.",
    "spearman": "How well the map does: over the {pairs} query-key pairs within a sentence, the "
                "rank correlation of distance on the map with q · k is {rho} (Spearman; -1 "
                "would mean nearer is always a larger dot product, 0 no relation).",
    "spearman_none": "The rank correlation of distance with q · k is undefined here (a side is "
                     "constant).",
    "bad_head": "This head cannot be drawn: {reason}",
    "too_big": "The file is larger than {kb} kB.",
}
