EN = {
    "title": "Decode: how the model writes, token by token",
    "intro": "The decoder writes one token at a time. At each step it turns its last hidden state "
             "into logits over the whole vocabulary, a softmax makes them probabilities, and a "
             "decoding method picks the next token. Choose a method, then walk through the steps: "
             "what the model considered, where it looked in the source, and what it had written.",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to decode with it.",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "text": "Source sentence",
    "text_help": "The sentence the encoder reads. It is cut to the model's length limit if longer.",
    "empty": "Type a sentence above to decode it (the text is empty).",
    "bad_text": "This text cannot be used: {reason}",
    "too_long": "The text is {n:,} characters long; this page takes at most {max:,}. Shorten it.",
    "method": "Decoding method",
    "method_help": "Greedy: always the most probable token. Beam search: keep the best few partial "
                   "outputs and pick the best finished one. Sampling: draw the token at random from "
                   "the (sharpened or flattened) distribution.",
    "method_greedy": "Greedy",
    "method_beam": "Beam search",
    "method_sample": "Sampling",
    "beam": "Beam size",
    "beam_help": "How many partial outputs are kept at each step. Beam size 1 is greedy decoding.",
    "alpha": "Length penalty α",
    "alpha_help": "Beam search divides a hypothesis' log-probability by ((5 + length) / 6)^α, so "
                  "longer outputs are not punished just for having more factors below 1. α = 0: no "
                  "penalty; the paper used 0.6.",
    "coverage": "Coverage penalty β",
    "coverage_help": "Wu et al. (2016): a hypothesis that leaves source words with little "
                     "cross-attention loses score, so beam search prefers outputs that translate "
                     "every word; 0 switches it off.",
    "temperature": "Temperature",
    "rank_word": "rank",
    "top_word": "top guess",
    "wrote_word": "free generation wrote",
    "temperature_help": "The logits are divided by T before the softmax: T < 1 sharpens the "
                        "distribution (closer to greedy), T > 1 flattens it (more surprising "
                        "tokens). T must be above 0.",
    "top_k": "Top-k (0 = all tokens)",
    "top_k_help": "Sample only among the k most probable tokens (their probabilities renormalised). "
                  "0 keeps the whole vocabulary.",
    "seed": "Random seed",
    "seed_help": "The same seed gives the same 'random' output, so a whole class sees the same "
                 "thing.",
    "shown_k": "Tokens shown per step",
    "shown_k_help": "How many of the most probable next tokens each step's bar chart lists.",
    "bad_method": "Unknown decoding method {m!r}.",
    "bad_beam": "The beam size must be a whole number of at least 1 (got {v}).",
    "bad_alpha": "The length penalty α must be a number of at least 0 (got {v}).",
    "bad_coverage": "The coverage penalty β must be a number of at least 0 (got {v}).",
    "bad_temperature": "The temperature must be above 0 (got {v}): at 0 the softmax would divide "
                       "by zero. Use greedy decoding for the limit T → 0.",
    "bad_top_k": "Top-k must be a whole number of at least 0 (got {v}).",
    "bad_shown_k": "Tokens shown per step must be between 1 and {max} (got {v}).",
    "output": "Output",
    "output_empty": "(nothing: the model wrote </s> at once)",
    "output_caption": "{n} tokens · {how}",
    "ended_eos": "ended with </s>",
    "ended_len": "stopped at the length limit ({n} tokens) without </s>",
    "logp": "log P(output | source) = {v:.4f}",
    "beam_score": "Beam search score",
    "beam_formula": "The best finished hypothesis is the one with the highest score, its "
                    "log-probability divided by the length penalty (GNMT's, as in the paper):",
    "beam_numbers": "Here: log P = {raw:.4f}, |Y| = {length} tokens (counting </s>{eos_note}), "
                    "lp = ((5 + {length}) / 6)^{alpha} = {lp:.4f}, score = {raw:.4f} / {lp:.4f} = "
                    "**{score:.4f}**.",
    "beam_formula_cp": "The best finished hypothesis is the one with the highest score: its "
                       "log-probability divided by the length penalty, plus the coverage penalty "
                       "cp (both GNMT's, Wu et al. 2016). $p_{ij}$ is the cross-attention of the "
                       "last decoder layer (the heads' mean) from output step $j$ to source piece "
                       "$i$; a "
                       "source piece that received less than 1 in all costs β times the log of "
                       "what it got (cp ≤ 0), one that received 1 or more costs nothing:",
    "beam_numbers_cp": "Here: log P = {raw:.4f}, |Y| = {length} tokens (counting </s>{eos_note}), "
                       "lp = ((5 + {length}) / 6)^{alpha} = {lp:.4f}, cp = {cp:.4f} (β = {beta}), "
                       "score = {raw:.4f} / {lp:.4f} + ({cp:.4f}) = **{score:.4f}**.",
    "beam_no_eos": "; this one reached the length limit and has no </s>",
    "beam_vs_greedy": "Greedy decoding, for comparison: {out} (log P = {logp:.4f})",
    "tree": "The search tree",
    "tree_intro": "At each step beam search extends each of the {beam} hypotheses in the beam by "
                  "every token, and looks at the {k} extensions with the highest log-probability: "
                  "the {beam} best that do not end stay in the beam, the rest are pruned; one that "
                  "ends with </s> among the {beam} best is finished.",
    "tree_window": "Steps shown",
    "tree_window_help": "A long search is drawn a few steps at a time, so the numbers stay "
                        "readable. Each window starts where the previous one ended.",
    "tree_window_fmt": "steps {a} to {b}",
    "tree_big": "Enlarge the tree (for a projector)",
    "tree_big_help": "Larger text and nodes, {big} steps at a time instead of {normal}.",
    "tree_zoom": "To look closer, drag a box over part of the tree: it zooms in (a double click "
                 "zooms back out). Or show it full screen: point at the chart, and click the "
                 "last button of the row that appears at its top right (Fullscreen): the tree "
                 "then fills the screen, best with the enlarged view off.",
    "space": "(space)",
    "space_note": "{space} is the piece “▁” on its own: SentencePiece's mark for a space, where a "
                  "new word begins. A word with no piece of its own that starts with that mark is "
                  "written as “▁” followed by the word's pieces, so the model may choose the "
                  "space first and the letters after it.",
    "tree_title": "Beam search, step by step",
    "tree_x": "step (tokens written)",
    "tree_root": "<s>",
    "tree_kept": "kept in the beam",
    "tree_pruned": "pruned (beam full)",
    "tree_finished": "finished (</s>)",
    "tree_eos_pruned": "</s> ranked too low",
    "tree_best": "the output (best score)",
    "tree_best_cp": "the output (best score with cp)",
    "tree_logp": "log P",
    "tree_score": "score",
    "tree_token_logp": "log P(token)",
    "tree_rank": "rank",
    "tree_key": "each node: token, then log P, then score = log P / lp",
    "tree_score_no_cp": "log P / lp (without cp)",
    "tree_key_cp": "each node: token, then log P, then log P / lp (without cp)",
    "tree_cp_note": "With β = {beta} the numbers in the tree do not include the coverage "
                    "penalty: beam search keeps candidates by log P alone and adds cp only when it "
                    "ranks the finished hypotheses (the table below), so the output need not be "
                    "the finished node with the highest log P / lp.",
    "tree_caption": "Candidates are stacked by rank, the most probable on top. log P is the "
                    "whole hypothesis' log-probability (the sum of its tokens'), the score divides "
                    "it by the length penalty lp. The red line is the output above; the star is "
                    "where it ended. Point at a node for its whole hypothesis.",
    "tree_col_hyp": "finished hypothesis",
    "tree_col_length": "|Y|",
    "tree_col_logp": "log P",
    "tree_col_lp": "lp(|Y|)",
    "tree_col_score": "score",
    "tree_col_chosen": "returned",
    "tree_col_lp_score": "log P / lp",
    "tree_col_cp": "cp",
    "tree_col_total": "score = log P / lp + cp",
    "tree_finished_caption": "Every hypothesis that ended with </s>, best score first: the one "
                             "with the highest score is returned, which need not be the one with "
                             "the highest log P.",
    "tree_finished_caption_cp": "Every hypothesis that ended with </s>, best score first, its "
                                "coverage penalty cp included: the one with the highest score is "
                                "returned, which need not be the one with the highest log P or the "
                                "highest log P / lp.",
    "sample_note": "Sampled with T = {temp}, top-k = {k}, seed {seed}. Change the seed to draw "
                   "another output.",
    "steps": "Step by step",
    "steps_help": "Each row is one step of the decoder: the token it wrote, the probability the "
                  "model gave that token, its rank among all tokens, and the runners-up with "
                  "their probabilities (below 0.01 written like 3.2e-04, which is 0.00032).",
    "col_step": "step",
    "col_token": "token written",
    "col_p": "p",
    "col_rank": "rank",
    "col_runners": "runners-up",
    "step": "Step",
    "step_help": "Move through the steps: what the decoder had written so far, and what it did next.",
    "no_steps": "There are no steps to show.",
    "prefix": "Written so far (the decoder's input): {prefix} → next: **{token}**",
    "topk_title": "Step {t}: the {k} most probable next tokens",
    "topk_x": "probability",
    "topk_caption": "The red bar is the token that was written. The bars sum to {s:.3f} of the "
                    "probability; the other {rest:,} tokens share the rest.",
    "sample_title": "Step {t}: the distribution sampling drew from (T = {temp}, top-k = {k})",
    "sample_caption": "Dividing the logits by T and keeping only the top-k changes the "
                      "probabilities: this is what the random draw used.",
    "layer": "Decoder layer",
    "layer_help": "Which decoder layer's attention to show for this step.",
    "cross_title": "Step {t}, layer {l}: cross-attention over the source",
    "self_title": "Step {t}, layer {l}: masked self-attention over what came before",
    "cross_caption": "Each row is one head: where in the source this step looked (the row sums "
                     "to 1). The last row averages the heads.",
    "self_caption": "The decoder can only look at <s> and the tokens it has already written; "
                    "later positions are masked (weight exactly 0), so they are not shown.",
    "keys_src": "source token",
    "keys_tgt": "earlier target token",
    "heads_axis": "head",
    "head_n": "head {n}",
    "mean_heads": "mean of heads",
    "tf": "Teacher forcing versus free generation",
    "tf_intro": "In training the decoder always reads the correct previous tokens (teacher "
                "forcing). When it writes on its own (free generation), one wrong token changes "
                "everything after it. Give the correct target and compare, position by position.",
    "target": "Correct target",
    "target_help": "The reference output for the source above. Teacher forcing feeds it to the "
                   "decoder; free generation is the output above.",
    "target_empty": "Type the correct target above to compare teacher forcing with free "
                    "generation.",
    "tf_summary": "Teacher forcing: the top guess is right at {ok} of {n} positions. Free "
                  "generation: {free}.",
    "tf_same": "identical to the target",
    "tf_diverges": "leaves the target at position {p}",
    "tf_fig_title": "Probability of the correct token at each position (teacher forcing)",
    "tf_y": "p(correct token)",
    "tf_ok_name": "top guess = target",
    "tf_bad_name": "top guess ≠ target",
    "tf_free_name": "free generation differs",
    "tf_table_caption": "Green: matches the target; red: differs. Rows after the first red "
                        "free-generation cell compare outputs that started from different "
                        "prefixes.",
    "col_position": "position",
    "col_target": "target",
    "col_tf_top": "teacher forcing: top guess",
    "col_tf_top_p": "its p",
    "col_p_target": "p(target)",
    "col_tf_ok": "top = target",
    "col_free": "free generation",
    "col_free_ok": "free = target",
    "col_diverged": "after divergence",
    "free_method": "Free generation here is the output above ({method}).",
}
