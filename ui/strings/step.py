EN = {
    "title": "One attention step, by the numbers",
    "intro": "Follow one query token through one head, number by number, like the notes' worked "
             "examples. Every number below is read from the real model's forward pass on your "
             "sentence (nothing is re-derived, except where a step says so).",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to follow its numbers.",
    "text": "Source sentence",
    "text_help": "The sentence the encoder reads. It is cut to the model's length limit if longer.",
    "target": "Target sentence (optional)",
    "target_help": "Leave empty to let the model write its own output (beam search or greedy, "
                   "as chosen below); type a target to follow the decoder on that sentence "
                   "(teacher forcing).",
    "empty": "Type a sentence above to follow its numbers (the text is empty).",
    "bad_text": "This text cannot be used: {reason}",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "output": "Output: {text}",
    "kind": "Attention kind",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Masked decoder self",
    "kind_cross": "Cross (decoder → encoder)",
    "layer": "Layer",
    "head": "Head",
    "query": "Query token",
    "query_help": "The token whose row of attention is followed (a decoder token for the decoder's "
                  "attentions).",
    "sizes": "d_model = {d_model}, h = {h} heads, so each head works in d_k = d_model / h = {d_k} "
             "dimensions; √d_k = {sqrt:.4f}.",
    "wide": "Vectors have {d_k} columns: scroll the tables sideways. Numbers are shown to 4 decimals.",
    "rows_window": "Rows {first} to {last} of {n} are shown, around the query ({query}); the colours "
                   "keep the whole table's scale. Choose another query to see other rows.",
    "sections_hint": "Each part opens and closes; the first is open. Blue cells: larger "
                     "values (weights from 0 to 1); red cells: negative numbers.",
    "part_steps": "Part 1, in ten numbered steps: the vectors q, k, v and every product",
    "summary": "row {query}, one line per key",
    "summary_help": "q_i·k_j = Σ_c q_i[c]·k_j[c]; then ÷ √d_k = {sqrt_d_k:.4f}; the mask M_ij "
                    "is 0 or −∞ (masked here: {n_masked}); exp(s_ij − max) with max = {max:.4f}, "
                    "Σ = {sum_exp:.4f}; the weight α_ij = exp(s_ij − max) / Σ, summing to "
                    "{sum:.6f}.",
    "z_row": "The head's output for this query: z_i = Σ_j α_ij v_j (first row) and the model's "
             "own head_out (second row; largest difference {max_diff:.1e}).",
    "part_query": "Part 1 · One query: row {query} of head {head}",
    "part_matrix": "Part 2 · The whole head at once (matrix form)",
    "part_combine": "Part 3 · All heads: concatenation and W_O",
    "part_norm": "Part 4 · Add & Norm",
    "part_ffn": "Part 5 · Feed-forward network (position {query})",
    "part_logits": "Part 6 · The decoder's next-token probabilities (after position {query})",
    "step_n": "Step {n}",
    "q": "the query vector q_i",
    "q_help": "Row {query} of Q = X·W_Q for this head: d_k = {d_k} numbers.",
    "k": "every key vector k_j",
    "k_help": "One row per key token ({n} keys), K = X·W_K (for cross-attention X is the encoder's "
              "output).",
    "dot": "the dot products q_i·k_j",
    "dot_help": "q_i·k_j = Σ_c q_i[c]·k_j[c]: how well the query matches each key (the trace's "
                "`scores`).",
    "scale": "divide by √d_k",
    "scale_help": "d_k = {d_k}, √d_k = {sqrt_d_k:.4f}. Without this the dot products grow with d_k "
                  "and the softmax saturates (see the page “Why √d_k”).",
    "mask": "add the mask",
    "mask_help": "M_ij is 0 where the query may look at key j and −∞ where it may not (padding, or "
                 "a future word in the decoder). Masked here: {n_masked}.",
    "exp": "exponentiate (after subtracting the row's maximum)",
    "exp_help": "exp(s_ij − max) with max = {max:.4f}. Subtracting the row's largest score changes "
                "no weight (it cancels in the ratio) and keeps exp from overflowing; exp(−∞) = 0. "
                "Σ = {sum_exp:.4f}. This column is computed from the trace's masked scores.",
    "softmax": "normalise: the softmax weight",
    "softmax_help": "α_ij = exp(s_ij − max) / Σ_j exp(s_ij − max). The weights are the trace's "
                    "`weights`; they sum to {sum:.6f}.",
    "v": "every value vector v_j",
    "v_help": "One row per key token, V = X·W_V.",
    "weighted": "each v_j times its weight α_ij",
    "weighted_help": "Row j is α_ij · v_j: how much of token j's content the query takes.",
    "z": "the sum z_i = Σ_j α_ij v_j",
    "z_help": "The head's output for this query. First row: the sum of the rows above; second row: "
              "the model's own `head_out` (largest difference {max_diff:.1e}).",
    "m_scores": "QKᵀ for every query and key",
    "m_scores_help": "Rows are queries, columns keys; row i is step 3 for query i.",
    "m_scaled": "QKᵀ / √d_k",
    "m_scaled_help": "Every entry divided by √d_k = {sqrt_d_k:.4f}.",
    "m_masked": "+ mask",
    "m_masked_help": "Masked entries are −∞: their weight will be exactly 0.",
    "m_weights": "softmax over each row",
    "m_weights_help": "Every row sums to 1.",
    "m_out": "softmax(…) × V: the head's output Z",
    "m_out_help": "One row per query, d_k columns. Row i is z_i of step 10.",
    "concat": "concatenate the heads",
    "concat_help": "The {heads} heads' outputs side by side: {heads} × {d_k} = {d_model} columns "
                   "(h0.0 … is head 0's first dimension).",
    "w_o": "project with W_O",
    "w_o_help": "Concat(head_0, …, head_h−1) · W_O + b_O: back to d_model = {d_model} numbers per "
                "token. This is the attention sublayer's output.",
    "add_norm": "residual sum and LayerNorm",
    "add_norm_help": "Left block: x + Sublayer(x) (residual {n}). Then the row mean μ and standard "
                     "deviation σ = √(population variance + ε), and LayerNorm's result "
                     "(x − μ) / σ · γ + β.",
    "add_norm_pre": "This model is pre-LN: LayerNorm is applied to the sublayer's input, so the "
                    "mean μ and σ belong to that input, not to the residual sum shown.",
    "ffn_relu": "hidden layer, before and after ReLU",
    "ffn_relu_help": "FFN(x) = max(0, x·W_1 + b_1)·W_2 + b_2 with d_ff = {d_ff}. ReLU set "
                     "{zeroed} of the {d_ff} numbers to 0.",
    "ffn_gelu": "hidden layer, before and after GELU",
    "ffn_gelu_help": "FFN(x) = GELU(x·W_1 + b_1)·W_2 + b_2 with d_ff = {d_ff}, where GELU(z) = "
                     "z·Φ(z) (Φ: the normal distribution's CDF). This model uses GELU, not the "
                     "paper's ReLU: negative numbers are squashed towards 0 but not cut off; "
                     "{negative} of the {d_ff} numbers stay negative (never below −0.17).",
    "ffn_silu": "hidden layer, before and after swish (SiLU)",
    "ffn_silu_help": "FFN(x) = swish(x·W_1 + b_1)·W_2 + b_2 with d_ff = {d_ff}, where swish(z) = "
                     "z·σ(z) (σ: the sigmoid; also called SiLU). This model uses swish, as Marian "
                     "(OPUS-MT) does, not the paper's ReLU: negative numbers are squashed towards 0 "
                     "but not cut off; {negative} of the {d_ff} numbers stay negative (never "
                     "below −0.28).",
    "ffn_out": "FFN output at this position:",
    "topk": "top {k} next tokens",
    "topk_help": "softmax of the final logits at this position: the model's prediction of the "
                 "next target token.",
    "col_token": "token",
    "col_logit": "logit",
    "topk_chart": "Probability of the next token after {query}",
    "probability": "probability",
    "encoder_only": "The encoder has no next-token prediction: choose a decoder attention kind to "
                    "see the final probabilities.",
    "heatmap_weights": "Weights of this head",
    "dl_csv": "Download this table (CSV)",
}
