"""Strings of the Worked examples page (English; other languages in ui/locales/<code>.json). The
worked examples' codes (keys ``v_<code>``) are the core's English table, taken in whole from
transformer/worked/english.py, so that the command line renders them without ui."""
from transformer.worked import english

EN = {
    "title": "Worked examples",
    "intro": "“The notes” on this page are lecture-style study notes on attention and the Transformer "
             "(the paper “Attention Is All You Need”), written in Chinese by a student: four sets of notes "
             "and one translated illustrated article, with small examples whose numbers are worked out by "
             "hand. You do not need a copy: each example shows the notes' own passage (with a short English "
             "gloss) and its inputs. This app checks them: every example is recomputed step by step from "
             "the same inputs, and each number the notes print is set beside the right one. A number counts "
             "as right when it matches to the decimals the notes print. Where the notes slipped, the cell is "
             "red and the text says which step went wrong and why. Hand-worked numbers slip often, and "
             "finding where is part of the lesson.",
    "tab_examples": "The notes' examples",
    "tab_free": "Free mode: your own numbers",
    "tab_statements": "What the notes say in words",
    "example": "Example",
    "where": "In the notes: {where}",
    "passage": "The notes' own text of this example (in Chinese)",
    "gloss": "In English, briefly:",
    "passage_caption": "Quoted as the notes have it, formulas included.",
    "scope_all": "Every number the notes print in this passage is checked below: the inputs are used as given, "
                 "and every other number is a step or a check.",
    "scope_some": "Every number the notes print in this passage is checked below except {what}.",
    "tokens": "Tokens: {tokens}",
    "inputs": "Inputs (edit any cell: every step below is recomputed)",
    "inputs_help": "Click a cell and type a number. Clearing a cell or typing text is refused with a message.",
    "reset": "Back to the notes' numbers",
    "edited": "You changed the inputs. The notes' numbers below belong to the original inputs, so they now "
              "disagree for that reason too.",
    "bad_inputs": "These inputs cannot be used: {reason}",
    "pos": "Position pos",
    "d_model": "d_model",
    "summary": "{claimed} of {steps} steps are printed in the notes: {agree} right, {disagree} with mistakes "
               "({wrong} of {entries} numbers wrong).",
    "summary_checks": "Other numbers the notes print here: {n} checks, {agree} right, {disagree} with mistakes "
                      "({wrong} of {entries} numbers wrong).",
    "checks_title": "The other numbers the notes print here",
    "checks_intro": "Numbers that are not a step of the attention above: each is recomputed, either exactly or "
                    "from the notes' own printed numbers (then a mistake is a slip of that very line).",
    "notes_write": "The notes write:",
    "basis_exact": "Recomputed exactly, for the numbers exactly as the notes print them.",
    "basis_notes": "Recomputed from the notes' own printed numbers.",
    "col_what": "what",
    "col_notes": "the notes",
    "col_value": "recomputed",
    "col_ok": "right?",
    "statements_title": "What the notes say in words",
    "statements_intro": "Statements in the notes that are not true (against the paper, or against Python itself), "
                        "each with where it is, the notes' own words, what is true, and a computation where one "
                        "backs it.",
    "says": "The notes say:",
    "in_fact": "In fact:",
    "see_page": "See it in the app",
    "statement_where": "In the notes: {where}",
    "statement_slip": "❌ not true",
    "statement_agrees": "✅ true",
    "statement_example": "About the worked example “{title}”",
    "page_statements_title": "What the notes say about this, and what is true",
    "page_statements_intro": "The study notes that the Worked examples page checks say some things about this "
                             "subject in words that are not true. Each one, with the notes' own words and what is "
                             "true:",
    "ev_position": "position",
    "ev_pe": "PE(pos, dimension)",
    "ev_sin": "sin(angle)",
    "ev_cos": "cos(angle)",
    "ev_n": "n (positions)",
    "ev_d": "d",
    "ev_self_attention": "self-attention n²·d (millions)",
    "ev_recurrent": "recurrent n·d² (millions)",
    "ev_convolution": "convolution k·n·d² (millions)",
    "ev_notes_recurrent": "the notes' recurrent d·n (millions)",
    "ev_notes_convolution": "the notes' convolution k·d·n (millions)",
    "ev_epsilon": "ε",
    "ev_vocabulary": "vocabulary V",
    "ev_p_right": "probability of the right token",
    "ev_perplexity": "lowest perplexity",
    "ev_d_model": "d_model",
    "ev_dimension": "dimension",
    "ev_wavelength": "one wave, in positions",
    "ev_divisor": "divided by",
    "ev_score_1": "score 1",
    "ev_score_2": "score 2",
    "ev_weight_1": "weight 1 (softmax)",
    "ev_gradient": "gradient p(1 − p)",
    "summary_table": "Verdict per step",
    "col_step": "step",
    "col_verdict": "verdict",
    "col_wrong": "wrong numbers",
    "col_entries": "numbers checked",
    "col_origin": "error began at",
    "verdict_computed": "computed (not printed in the notes)",
    "verdict_free": "computed",
    "verdict_agrees": "✅ the notes are right",
    "verdict_slip": "❌ the notes slipped here",
    "verdict_inherited": "⚠️ right arithmetic on earlier wrong numbers",
    "verdict_assumed": "ℹ️ the notes assumed these numbers",
    "computed": "Computed",
    "notes": "The notes",
    "both": "Both in one table (“computed ≠ notes” where they differ)",
    "why": "Why",
    "download": "Download CSV",
    "download_notes": "Download the notes' numbers (CSV)",
    "free_intro": "Type your own matrices: one row per line, numbers separated by spaces or commas. Every "
                  "step of scaled dot-product attention is shown.",
    "free_mode": "Inputs",
    "mode_qkv": "Q, K and V",
    "mode_x": "X and W_Q, W_K, W_V",
    "w_blank": "Leave a W empty to use the identity matrix. Like any W, it is split into one block of columns "
               "per head, so with several heads each head sees its own block of X's columns.",
    "heads": "Heads",
    "heads_help": "The columns of Q, K, V (or of W_Q, W_K, W_V; an empty W is the identity) are split into this "
                  "many equal blocks, one per head.",
    "mask": "Mask",
    "mask_none": "none",
    "mask_causal": "causal (no looking ahead)",
    "mask_custom": "my own",
    "mask_text": "Mask: one row per query, 1 = may attend, 0 = masked (or 0 and -inf)",
    "d_k": "d_k (0 = the width of each head's keys)",
    "d_k_help": "Scores are divided by √d_k. It must equal the number of columns of each head's Q and K.",
    "free_error": "Cannot compute: {reason}",
    "free_ok": "{n} steps computed. The weights of each row sum to {sums}.",
    # the worked examples' codes (keys v_<code>): English in transformer/worked/english.py
    **english.EN,
}


# Keys a language leaves out (ui.i18n.text renders nothing for these). Both languages say which
# conventions of a step's verdict match exactly, roughly (within 0.5%), or for some entries only ("15 of 24"), so "found", their one-sentence summary, is left out of both: the
# Chinese says what the English says, with the same numbers (tests/test_worked_wording.py).
# The English gloss of the notes' Chinese text is for English readers only: 中文 leaves it out.
# A language not named here leaves out what English leaves out (ui.i18n.text).
SKIP = {"en": english.SKIP, "zh": english.SKIP + ("gloss",)}
