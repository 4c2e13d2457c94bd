"""Strings of the Why √d_k page (English; other languages in ui/locales/<code>.json)."""
EN = {
    "title": "Why divide by √d_k?",
    "intro": "A score is a dot product q·k = q₁k₁ + … + q_d k_d. If the entries of q and k are independent "
             "with mean 0 and variance 1, each product q_i k_i has variance 1, and the sum of d_k of them has "
             "variance d_k. So the wider the keys, the further apart the scores. The softmax turns large gaps "
             "into one weight near 1 and the rest near 0, and then its gradient almost vanishes. Dividing by "
             "√d_k brings the variance back to 1 for any d_k.",
    "seed": "Random seed",
    "samples": "Random pairs (q, k) per d_k",
    "var_title": "The variance of q·k grows like d_k",
    "var_caption": "Measured over {n} random pairs for each d_k (error bars: ±2 standard errors). The dashed line "
                   "is the theory Var(q·k) = d_k; after dividing by √d_k the variance stays near 1.",
    "var_raw": "Var(q·k), measured",
    "var_theory": "theory: d_k",
    "var_scaled": "Var(q·k/√d_k), measured",
    "d_k": "d_k (width of queries and keys)",
    "hist_title": "All {n} values of q·k for d_k = {d}, without and with the scaling",
    "hist_caption": "Standard deviation of q·k: {raw:.3f} (theory √d_k = {theory:.3f}); after dividing by √d_k: {scaled:.3f}.",
    "n_keys": "Keys in the row",
    "row_title": "One row of attention for d_k = {d}: softmax with and without the scaling",
    "row_caption": "Without scaling the largest weight is {raw:.4f}; with it, {scaled:.4f}.",
    "t_raw": "softmax(q·k)",
    "t_scaled": "softmax(q·k/√d_k)",
    "key_word": "key",
    "score_word": "score",
    "weight_word": "weight",
    "variance": "variance",
    "value": "value",
    "count": "count",
    "samples_word": "samples",
    "sat_title": "Saturation against d_k (average of {trials} random rows of {keys} keys)",
    "sat_caption": "Left: the largest weight, 1/{keys} = {uniform:.3f} for an even spread and 1 when one key takes "
                   "everything. Middle: the entropy in bits, log₂ {keys} = {hmax:.3f} for an even spread and 0 for "
                   "one-hot. Right: the size of the softmax's Jacobian diag(p) − ppᵀ (the Jacobian: the table of "
                   "how much each weight moves when each score moves a little), measured by its Frobenius norm (the "
                   "square root of the sum of its squared entries). It multiplies every gradient flowing back into "
                   "the scores: without the scaling it collapses towards 0 as d_k grows, "
                   "so learning slows down. The dotted line marks the d_k chosen above.",
    "t_max": "largest weight",
    "t_entropy": "entropy (bits)",
    "t_jac": "‖diag(p) − ppᵀ‖",
    "raw": "without scaling",
    "scaled": "divided by √d_k",
    "at_dk": "At d_k = {d}: largest weight {mr:.3f} → {ms:.3f}, entropy {er:.3f} → {es:.3f} bits, gradient size "
             "{jr:.4f} → {js:.4f} (without → with scaling).",
    "download": "Download CSV",
}
