EN = {
    "title": "Attention across training",
    "intro": "Pick a training run and one attention head, then move the slider across the run's "
             "checkpoints: the head's pattern on your sentence at that moment of training, the "
             "point on the loss curve, and the same head at every checkpoint side by side.",
    "no_runs": "No training run with two or more saved steps (checkpoints) yet. {how}",
    "how_to_save": "To save the steps of a run of your own: on the Train page, set “checkpoint "
                   "every” (for example 100 steps) and “checkpoints kept” to 0, "
                   "which keeps every step; or from the command line: `python -m transformer.train "
                   "--task anaphora --checkpoint-every 100 --keep-checkpoints 0 --out "
                   "runs/my-run`. Its steps then appear here, and choosing one of its checkpoints "
                   "in the sidebar opens its run.",
    "run": "Training run",
    "run_help": "Runs on this server with at least two step checkpoints, newest first.",
    "run_label": "{name} · {n} checkpoints · {state}",
    "shipped_suffix": " · shipped with the app",
    "featured": "The head this run's model card features ({kind}, layer {l}, head {h}). What its "
                "pattern does over the saved steps is measured below the chart on the right.",
    "model_run": "The training of the model chosen in the sidebar, **{model}**: its saved steps.",
    "model_other_run": "This is **{run}**, not the run of the model chosen in the sidebar "
                       "(**{model}**); that model's own run is **{own}**, in the list above.",
    "model_no_steps": "The model chosen in the sidebar, **{model}** ({shape}), has no saved "
                      "training steps on this server: {why}. So this page shows **{run}**, another "
                      "model ({run_shape}), whose steps are here: its heads, its vocabulary and "
                      "its translations are its own, not those of {model}.",
    "why_shipped": "only its final weights were shipped with the app",
    "why_run": "its run, {run}, kept {n} step checkpoint(s), and two are needed",
    "why_other": "it was not trained on this server, or its run is gone",
    "shape": "{enc}+{dec} layers, {heads} heads, a vocabulary of {vocab:,} pieces",
    "still_training": "This run is still training: new checkpoints appear here when the page "
                      "reruns.",
    "load_failed": "This checkpoint cannot be loaded: {reason}",
    "text": "Sentence",
    "text_help": "The source sentence every checkpoint reads.",
    "target": "Target (optional)",
    "target_help": "What the decoder reads (teacher forcing: it reads this target, not its "
                   "own output). Empty: the final checkpoint's own "
                   "output, so every checkpoint reads the same target tokens and the patterns "
                   "can be compared.",
    "target_used": "Every checkpoint reads the final checkpoint's output as the target: {target}",
    "target_given": "Every checkpoint reads your target (teacher forcing).",
    "empty": "Type a sentence to see the head's pattern.",
    "bad_text": "This sentence cannot be used: {reason}",
    "kind": "Attention",
    "kind_help": "Encoder self-attention (source reads source), decoder self-attention (target "
                 "reads what came before), cross-attention (target reads source).",
    "kind_encoder_self": "encoder self-attention",
    "kind_decoder_self": "decoder self-attention (masked)",
    "kind_cross": "cross-attention",
    "layer": "Layer",
    "head": "Head",
    "checkpoint": "Checkpoint",
    "checkpoint_help": "Slide through the run's saved checkpoints; the loss curve marks the one "
                       "chosen.",
    "step_n": "step {n}",
    "loss_title": "Loss (log scale) with the chosen checkpoint",
    "loss": "loss",
    "loss_raw": "training loss",
    "loss_smooth": "training loss (smoothed)",
    "loss_val": "validation loss",
    "checkpoints": "checkpoints",
    "step": "step",
    "score_at": "At step {step}: {metric} {value}, validation loss {loss:.3f}.",
    "metric_bleu": "BLEU",
    "metric_pronoun_acc": "pronoun accuracy",
    "metric_exact_match": "exact match",
    "heat_title": "{kind}, layer {l}, head {h} at step {step}",
    "keys": "keys (attended to)",
    "queries": "queries (attending)",
    "emerge_title": "How the pattern settles",
    "distance": "distance to the final pattern",
    "entropy": "entropy (bits)",
    "emerge_help": "Distance: how different each query's weights are from the final "
                   "checkpoint's (0 = the same, 1 = nothing in common). Entropy, in bits: how "
                   "spread out the weights are (0 = every query looks at exactly one key).",
    "emerge_already": "What the chart shows: at the first saved step (step {first}) this head's "
                      "pattern on this sentence is already close to its final one (distance "
                      "{d:.2f}; under {settled:g} counts as settled). It formed before step "
                      "{first}: the saved steps do not show it emerging.",
    "emerge_emerges": "What the chart shows: the pattern emerges during the run. Its distance to "
                      "the final pattern is {d0:.2f} at step {first} and stays under {settled:g} "
                      "from step {s} on ({ds:.2f} there); it falls most between step {a} and step "
                      "{b} ({da:.2f} → {db:.2f}).",
    "emerge_still": "What the chart shows: the pattern is still changing when the run ends. At "
                    "step {prev}, the saved step before the last, its distance to the final "
                    "pattern is still {dp:.2f} (under {settled:g} would count as settled; {d0:.2f} "
                    "at step {first}).",
    "emerge_row_same": "Its sharpest row, \"{q}\" → \"{k}\" ({w:.2f} at the end), puts "
                       "{w0:.2f} on \"{k}\" at step {first} already.",
    "emerge_row_moves": "Its sharpest row, \"{q}\", looks at \"{k0}\" ({w0:.2f}) at step "
                        "{first}, and at \"{k}\" from step {since} on ({w:.2f} at the end).",
    "output_at": "The model's own output at step {step}: {output}",
    "strip_title": "The same head at every checkpoint",
    "strip_help": "{n} checkpoints, left to right in training order, on one colour scale "
                  "(0 to 1); the chosen one is framed. Hover for the tokens and weights.",
}
