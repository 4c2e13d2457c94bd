"""Strings of the Positional encoding page (English; other languages in ui/locales/<code>.json)."""
EN = {
    "title": "Positional encoding",
    "intro": "Attention compares every token with every other token and never looks at their order: "
             "shuffle the words and each word gets the same weights. So before the first layer each "
             "position adds its own vector PE(pos) to the word's embedding. The paper builds it from "
             "sines and cosines: PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), "
             "PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)). Dimensions 2i and 2i+1 share one "
             "frequency; low dimensions turn fast, high ones slowly.",
    "d_model": "d_model (width of the vectors)",
    "d_model_help": "The number of dimensions of each position vector. The model in the sidebar "
                    "uses its own d_model; here you can try any even width.",
    "dims": "Dimensions to draw",
    "dims_clamped": "d_model {d_model} has dimensions 0 to {last} only: {dropped} cannot be drawn, "
                    "so {shown} are drawn. A larger d_model brings your choice back.",
    "dims_help": "Each dimension is one wave over the positions. The notes' figure shows dimensions 4 to 7.",
    "waves_title": "The waves: PE(pos, dim) for positions 0 to 100",
    "waves_caption": "Even dimensions are sines, odd ones cosines with the same frequency as the dimension "
                     "before. The legend gives each wave's period in positions: {fast:.3g} for dimension 0, "
                     "{slow:.4g} for dimension {last}. Together the waves act like the digits of a clock "
                     "that never repeats within a sentence.",
    "heat_title": "Every position × every dimension",
    "heat_caption": "Each row is the vector added at one position. Left columns change from row to row "
                    "(fast waves); right columns hardly change (slow waves).",
    "sim_title": "How similar are two positions? PE(p)·PE(q)",
    "sim_caption": "The dot product of two position vectors is Σ cos((p − q)·ω_i): it depends only on the "
                   "distance |p − q|, so every diagonal of the matrix is constant. Measured: the largest "
                   "difference along any diagonal is {err:.2e}.",
    "offset_title": "PE(p)·PE(p + k) against the offset k, from three starting positions",
    "offset_caption": "The three curves lie on top of each other: the similarity is a function of k alone, "
                      "largest at k = 0 (where it equals d_model/2 = {half}) and falling, with ripples, as "
                      "positions move apart.",
    "rot_title": "PE(pos + k) is a linear function of PE(pos)",
    "rot_intro": "For a fixed offset k there is one matrix M_k with PE(pos + k) = M_k · PE(pos) for every "
                 "position. It follows from sin(a + b) = sin a cos b + cos a sin b and cos(a + b) = "
                 "cos a cos b − sin a sin b: each (sin, cos) pair is rotated by the angle k·ω_i. This is "
                 "why the paper expected the model to learn relative positions easily.",
    "k": "Offset k",
    "rot_result": "Largest error |PE(pos + {k}) − M_{k} · PE(pos)| over all {n} positions: {err:.2e} "
                  "(floating-point round-off: the identity is exact).",
    "rot_matrix": "The matrix M_{k}: 2×2 rotation blocks on the diagonal, zeros elsewhere",
    "rot_odd": "The rotation check needs an even d_model: with an odd width the last sine has no cosine partner.",
    "norm_title": "How big is PE next to the word vectors?",
    "norm_intro": "The model multiplies each token embedding by √d_model before adding PE. Every PE vector has "
                  "the same length √(d_model/2); compare it with the scaled embeddings of your sentence "
                  "in the current model.",
    "sentence": "Sentence",
    "sentence_default": "A dog runs .",
    "no_model": "No model is loaded, so there are no embeddings to compare with. Pick or train a "
                "checkpoint in the sidebar; the rest of this page works without one.",
    "learned_pe": "This model learned its position vectors (`positional = learned`); the bars show those "
                  "learned vectors instead of sines and cosines.",
    "norm_result": "Mean ‖embedding·√d‖ = {emb:.3f}, ‖PE‖ = {pe:.3f} (ratio {ratio:.2f}).",
    "bad_text": "Type a sentence to compare: {reason}",
    "emb_name": "‖embedding·√d‖",
    "pe_name": "‖PE‖",
    "love_title": "The notes' example: “love” in “I love AI” (pos = 2, d_model = 4)",
    "love_intro": "Every term of PE(2) with d_model = 4, next to the numbers the notes give. Green: the notes "
                  "are right within their rounding; red: they are not.",
    "love_verdict": "{ok} of 4 entries in the notes are right.",
    "love_explain": "Why:",
    "download": "Download CSV",
    "position": "position",
    "dimension": "dimension",
    "pe_value": "PE value",
    "dim_word": "dim",
    "period_word": "period",
    "column": "column",
    "row": "row",
    "ratio_word": "ratio",
    "bad_size": "These sizes cannot be drawn: {reason}",
    "col_dimension": "dimension",
    "col_value": "value (computed)",
    "col_notes": "notes",
    "col_agrees": "notes right?",
    "col_angle": "angle pos/10000^(2i/d)",
    "col_function": "function",
    "col_formula": "formula",
}
