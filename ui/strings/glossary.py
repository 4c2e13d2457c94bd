"""The glossary shown in the sidebar of every page. Each entry is `term_<id>` (the word as the
pages use it) and `def_<id>` (one or two plain sentences). The Chinese terms keep the English
word beside them, because the paper and every library a student will read next use it."""
EN = {
    "title": "📖 Glossary",
    "intro": "The words the pages use, in the order a sentence meets them.",
    "term_token": "token",
    "def_token": "One unit of text the model reads or writes: here a *piece* (below). "
                 "Each token becomes one row of every matrix on these pages.",
    "term_piece": "piece (subword)",
    "def_piece": "A word or a part of a word from the model's SentencePiece vocabulary. Common "
                 "words are one piece; rare words are split into several (`▁walk` `ing`). "
                 "`▁` marks the start of a word.",
    "term_special": "<s>, </s>, <pad> (BOS, EOS, padding)",
    "def_special": "Special tokens: `<s>` (beginning of sentence) starts the decoder's input, "
                   "`</s>` (end of sentence) ends a sentence, `<pad>` fills a short sentence to "
                   "the length of a batch and is masked there. One exception: a converted OPUS-MT "
                   "model's decoder starts from `<pad>` in place of `<s>`, and that first `<pad>` "
                   "is read and attended to like any token.",
    "term_embedding": "embedding",
    "def_embedding": "The vector of d_model numbers that stands for a token; learned in training.",
    "term_pe": "positional encoding",
    "def_pe": "Sine and cosine waves added to the embeddings so that the model knows each "
              "token's position; attention alone ignores order.",
    "term_query": "query (Q)",
    "def_query": "What a token is looking for: its vector times W_Q. Each query is compared "
                 "with every key.",
    "term_key": "key (K)",
    "def_key": "What a token offers to be found by: its vector times W_K. The score of a query "
               "and a key is their dot product, divided by √d_k.",
    "term_value": "value (V)",
    "def_value": "What a token hands over once it is attended to: its vector times W_V. A "
                 "head's output is the attention-weighted average of the values.",
    "term_logit": "logit (score)",
    "def_logit": "A number before softmax, of any size and sign. Attention scores are logits; "
                 "so are the final scores over the vocabulary.",
    "term_softmax": "softmax",
    "def_softmax": "Turns a row of logits into probabilities: exponentiate each, divide by the "
                   "sum. The largest logit gets the largest share; the row sums to 1.",
    "term_mask": "mask",
    "def_mask": "Entries set to −∞ before softmax, so they get weight 0: padding, and in the "
                "decoder the future tokens it must not see.",
    "term_head": "head",
    "def_head": "One attention computation with its own W_Q, W_K, W_V, over d_k = d_model / h "
                "numbers per token. The h heads run side by side; their outputs are "
                "concatenated and multiplied by W_O.",
    "term_head_label": "enc L2 H0 (a head's label)",
    "def_head_label": "A head named by its kind, layer and number, both counted from 0: enc = "
                      "encoder self-attention, dec = masked decoder self-attention, cross = "
                      "cross-attention; \"enc L2 H0\" is encoder self-attention, layer 2, head 0.",
    "term_layer": "layer",
    "def_layer": "One block of the stack: attention, then a feed-forward network, each with a "
                 "residual connection and LayerNorm. The encoder and the decoder each stack N.",
    "term_kinds": "encoder self / decoder self / cross attention",
    "def_kinds": "Encoder self-attention: source tokens attend to source tokens. Decoder "
                 "self-attention (masked): each target token attends to itself and earlier "
                 "target tokens. Cross-attention: queries from the decoder, keys and values "
                 "from the encoder's output.",
    "term_residual": "residual, LayerNorm (Add & Norm)",
    "def_residual": "Add the sublayer's input to its output, then normalise each row to mean 0 "
                    "and variance 1 (then scale and shift by learned numbers).",
    "term_checkpoint": "checkpoint",
    "def_checkpoint": "A trained model saved to disk: its weights, its settings, its vocabulary "
                      "and its model card.",
    "term_decoding": "greedy and beam search",
    "def_decoding": "Ways to write the output one token at a time: greedy takes the most likely "
                    "token at each step; beam search keeps the best few partial sentences.",
    "term_teacher_forcing": "teacher forcing",
    "def_teacher_forcing": "The decoder reads a given target sentence (the right answer) instead "
                           "of what it wrote itself, so every position is computed at once; "
                           "training works this way, and the pages do it when a target is typed.",
    "term_atlas": "head atlas labels",
    "def_atlas": "What the Heads page's atlas calls a head, each with a score from 0 to 1: "
                 "previous / next token (weight on the token just before / after the query); "
                 "diagonal (on its own position, or for cross-attention on the source word at the "
                 "same position, what copying needs); reversed (on the source word mirrored from "
                 "the end); sink (on the first token or </s>; for cross-attention on </s> or "
                 "punctuation); broad (the weight spread evenly: entropy near its maximum); "
                 "punctuation; monotonic (cross-attention whose strongest source word moves "
                 "forward); pronoun -> antecedent (from \"it\" to the noun it stands for); no "
                 "clear role (nothing reaches 0.5 clearly above its chance level: the same score "
                 "with each row's weights shuffled).",
    "term_antecedent": "antecedent",
    "def_antecedent": "The noun phrase a pronoun stands for: in \"The dog ate because it was "
                      "hungry\", \"the dog\" is the antecedent of \"it\", and its German gender "
                      "decides er, sie or es.",
    "term_probe": "probe sentences",
    "def_probe": "Test sentences kept for measuring a model (where a head looks, which pronoun it "
                 "writes), with the right answer marked; never used for training.",
    "term_held_out": "held out",
    "def_held_out": "Kept out of training and used only to measure: a score on held-out "
                    "sentences says how the model does on text it never saw.",
    "term_jsonl": "JSONL",
    "def_jsonl": "A text file with one JSON object per line (JSON Lines), e.g. one probe sentence "
                 "with its pronoun's and antecedent's positions per line.",
    "term_ablation": "ablation (switching a head off)",
    "def_ablation": "Setting one head's output to zero while the model runs, to measure what the "
                    "model does without it: if its translations get worse, it needed that head.",
    "term_rollout": "attention rollout",
    "def_rollout": "Each layer's attention, averaged over heads and mixed half and half with the "
                   "residual connection, multiplied through every layer, so that each output word "
                   "is traced back to the source words. An approximation: it ignores the values, "
                   "the feed-forward layers and LayerNorm, so the Attention page sets it beside a "
                   "causal test (removing one source word).",
    "term_jacobian": "Jacobian",
    "def_jacobian": "The table of how much each output of a function moves when each input moves "
                    "a little; for softmax, diag(p) − ppᵀ: how the weights answer a change of the "
                    "scores, so every gradient reaching the scores passes through it.",
    "term_frobenius": "Frobenius norm",
    "def_frobenius": "One number for the size of a matrix: the square root of the sum of its "
                     "squared entries (the length of the matrix read as one long vector).",
}


# English words the Chinese glossary keeps on purpose (beside their translation): the names the
# paper and the libraries use. A test of the Chinese pages allows exactly these.
ENGLISH_TERMS = {"token", "piece", "embedding", "query", "key", "value", "logit", "softmax",
                 "mask", "head", "layer", "checkpoint", "SentencePiece", "walk", "ing", "pad",
                 "Add", "Norm", "d_model", "d_k", "teacher", "forcing", "antecedent", "probe",
                 "held", "out", "ablation", "Jacobian"}


# The tasks' names, as the checkpoints' settings and --task spell them: like ENGLISH_TERMS, they
# pass on the Chinese pages only in brackets beside the Chinese name, 指代（anaphora）.
TASK_NAMES = {"anaphora", "classroom", "copy", "everyday", "reverse", "sort"}

# Everything else the Chinese pages may show in English, by kind: tests/test_zh_complete.py, which
# renders every page in Chinese, allows these anywhere (matched case-insensitively). Not listed here
# because that test allows them by rule: code and formulas in backticks or LaTeX, identifiers with
# _, ^ or a digit (d_k, QK_T, W_Q), functions written f(x), file names, checkpoint and run names,
# head labels ("dec L1 H2"), special tokens (<s>, </s>, <pad>), and the tokens of the model's and
# the notes' sentences where a page draws or quotes them.
ALLOWED_ENGLISH = {
    "functions and symbols in formulas": {
        "softmax", "exp", "log", "max", "min", "sin", "cos", "diag", "Var", "argmax", "pos", "dim",
        "Concat", "Sublayer", "FFN", "ReLU", "GELU", "SiLU", "swish", "sigmoid", "LayerNorm", "eps",
        "inf", "NaN"},
    "names of models, methods, libraries, people": {
        "Transformer", "SentencePiece", "PyTorch", "BPE", "BLEU", "Adam", "AdamW", "Frobenius", "LLaMA",
        "Debian", "Ding", "chrF",
        "Python", "OPUS-MT", "Marian"},
    "file formats and hardware": {"CSV", "TSV", "TXT", "JSON", "JSONL", "PNG", "zip", "GPU", "CPU"},
    "units": {"nats"},
    "the special tokens by name": {"BOS", "EOS", "pad", "unk"},
    "head labels (enc / dec / cross L1 H2)": {"enc", "dec", "cross"},
    "the paper's anaphora example tokens, quoted": {"its", "Law", "application"},
    "German the notes quote (articles and nouns that carry gender)": {
        "der", "die", "das", "den", "sie", "ihn", "sein", "ihr", "Hund", "Becher", "Zeitung", "Stand"},
    "the other language, named in its own words": {"English"},
}
