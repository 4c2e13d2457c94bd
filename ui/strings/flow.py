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
}
