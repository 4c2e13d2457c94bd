"""The alignment leaderboard section of the Heads page (ui/align_view.py): which cross-attention
head aligns German words with English ones, measured against hand-aligned gold links."""
EN = {
    "title": "Alignment leaderboard: which cross-attention head aligns words",
    "run": "Measure every cross-attention head",
    "run_help": "Runs each hand-aligned sentence pair once through the model, reading the German "
                "reference (a few seconds; kept for the next visit).",
    "gold": "Gold links",
    "gold_shipped": "the hand-aligned set ({n} English-German pairs)",
    "gold_upload": "my own file",
    "upload": "A gold file: English, TAB, German, TAB, links such as 0-0 1-2 (English word - "
              "German word, counted from 0)",
    "upload_wait": "Upload a gold file to measure on it.",
    "upload_bad": "This gold file cannot be used: {reason}",
    "no_cross": "This model has no cross-attention to measure.",
    "intro": "Each German word of the reference is linked to the English word its head gives "
             "the most weight, and the links are compared with {n} hand-aligned sentence pairs. "
             "The alignment error rate (AER) is 0 when every link is right and 1 when none is. "
             "Two readings of a row: the position that writes a German piece (\"writes\"), or the "
             "position one later, which reads it (\"reads\").",
    "diagonal": "Diagonal baseline (German word j linked to the English word at the same "
                "relative place): AER {aer:.3f}.",
    "best": "Best head: {head}, reading \"{mode}\": AER {aer:.3f} (the diagonal baseline: {diag:.3f}).",
    "mode_writes": "writes",
    "mode_reads": "reads",
    "grid_title": "AER, rows that {mode} (lower is better)",
    "layer": "layer",
    "head": "head",
    "layers_table": "The layer's heads averaged (one attention per layer):",
    "col_layer": "Layer",
    "col_writes": "AER, writes",
    "col_reads": "AER, reads",
    "col_best": "best head of the layer",
    "show_head": "Head drawn",
    "show_mode": "Reading",
    "sentence": "Sentence",
    "draw_title": "{head} ({mode}) on one sentence: hits, misses and extra links",
    "hit": "hit (the head's link is a gold link)",
    "miss": "miss (a gold link the head did not make)",
    "extra": "extra (the head's link is not a gold link)",
    "weight": "weight",
    "english": "English",
    "german": "German",
    "counts": "On this sentence: {hits} hits, {misses} misses, {extra} extra links.",
    "definitions": "How it is measured",
    "def_text": "The model reads the German reference with teacher forcing: decoder input <s> "
                "plus its pieces; decoder position k writes output piece k and position k + 1 "
                "reads it. For German word j and English word i, W(j, i) is the mean over the "
                "German word's pieces k of the sum, over the English word's pieces s, of the "
                "head's weight A[k, s] (\"writes\") or A[k + 1, s] (\"reads\"). Each German word "
                "links to the English word with the largest W (</s> is not a word). AER = 1 - "
                "2 |A ∩ S| / (|A| + |S|) over the whole file, with the sure links S. The command "
                "line gives the same numbers: `python -m transformer.align --checkpoint DIR "
                "--gold FILE --json`.",
    "too_big": "The file is larger than {kb} kB.",
}
