EN = {
    "title": "Attention across training",
    "intro": "Pick a training run and one attention head, then move the slider across the run's "
             "checkpoints: the head's pattern on your sentence at that moment of training, the "
             "point on the loss curve, and the same head at every checkpoint side by side.",
    "no_runs": "No training run with two or more saved checkpoints yet. Start one on the Train "
               "page (a synthetic task with a small 'checkpoint every'), then come back.",
    "run": "Training run",
    "run_help": "Runs on this server with at least two step checkpoints, newest first.",
    "run_label": "{name} · {n} checkpoints · {state}",
    "shipped_suffix": " · shipped with the app",
    "featured": "The head this run's model card features ({kind}, layer {l}, head {h}). Move the "
                "slider from the first checkpoint to the last and watch it find its pattern; the "
                "curve on the right measures how far each checkpoint is from the final one.",
    "still_training": "This run is still training: new checkpoints appear here when the page "
                      "reruns.",
    "load_failed": "This checkpoint cannot be loaded: {reason}",
    "text": "Sentence",
    "text_help": "The source sentence every checkpoint reads.",
    "target": "Target (optional)",
    "target_help": "What the decoder reads (teacher forcing). Empty: the final checkpoint's own "
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
                   "checkpoint's (0 = the same, 1 = nothing in common). Entropy: how spread out "
                   "the weights are (0 = every query looks at exactly one key).",
    "output_at": "The model's own output at step {step}: {output}",
    "strip_title": "The same head at every checkpoint",
    "strip_help": "{n} checkpoints, left to right in training order, on one colour scale "
                  "(0 to 1); the chosen one is framed. Hover for the tokens and weights.",
}
