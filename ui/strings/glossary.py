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
    "term_atlas": "head atlas labels",
    "def_atlas": "What the Heads page's atlas calls a head, each with a score from 0 to 1: "
                 "previous / next token (weight on the token just before / after the query); "
                 "diagonal (on its own position, or for cross-attention on the source word at the "
                 "same position, what copying needs); reversed (on the source word mirrored from "
                 "the end); sink (on the first token or </s>); broad (the weight spread evenly: "
                 "entropy near its maximum); punctuation; monotonic (cross-attention that reads "
                 "the source in order); pronoun -> antecedent (from \"it\" to the noun it stands "
                 "for); no clear role (nothing reaches 0.5).",
    "term_rollout": "attention rollout",
    "def_rollout": "Each layer's attention, averaged over heads and mixed half and half with the "
                   "residual connection, multiplied through every layer, so that each output word "
                   "is traced back to the source words. An approximation: it ignores the values, "
                   "the feed-forward layers and LayerNorm, so the Attention page sets it beside a "
                   "causal test (removing one source word).",
}
ZH = {
    "title": "📖 术语表",
    "intro": "各页用到的词，按一个句子经过模型的顺序排列。",
    "term_token": "词元（token）",
    "def_token": "模型读入或写出的一个文本单位；这里就是一个“子词片段”（见下）。"
                 "每个词元对应这些页面上每个矩阵的一行。",
    "term_piece": "子词片段（piece）",
    "def_piece": "模型的 SentencePiece 词表中的一个词或词的一部分。常见词是一个片段，"
                 "少见的词会被切成几个（`▁walk` `ing`）。`▁` 表示一个词的开头。",
    "term_special": "<s>、</s>、<pad>（句首、句尾、填充）",
    "def_special": "特殊词元：`<s>`（句首）是解码器输入的第一个词元，`</s>`（句尾）结束一个句子，"
                   "`<pad>` 把短句补齐到一批的长度，补齐处被掩码遮住。一个例外：转换来的 OPUS-MT 模型的解码器"
                   "从 `<pad>` 而不是 `<s>` 开始，这第一个 `<pad>` 像其他词元一样被读入、被关注。",
    "term_embedding": "词嵌入（embedding）",
    "def_embedding": "代表一个词元的 d_model 个数的向量，在训练中学得。",
    "term_pe": "位置编码",
    "def_pe": "加到词嵌入上的正弦、余弦波，让模型知道每个词元的位置；注意力本身不区分顺序。",
    "term_query": "查询（query，Q）",
    "def_query": "一个词元“在找什么”：它的向量乘以 W_Q。每个查询都与所有键比较。",
    "term_key": "键（key，K）",
    "def_key": "一个词元“凭什么被找到”：它的向量乘以 W_K。查询与键的得分是二者的点积再除以 √d_k。",
    "term_value": "值（value，V）",
    "def_value": "一个词元被关注后“交出什么”：它的向量乘以 W_V。一个头的输出是各个值按注意力权重的加权平均。",
    "term_logit": "逻辑值（logit，得分）",
    "def_logit": "softmax 之前的数，大小和正负都不限。注意力得分是逻辑值，词表上的最终得分也是。",
    "term_softmax": "softmax",
    "def_softmax": "把一行逻辑值变成概率：每个取指数，再除以总和。最大的逻辑值得到最大的份额；一行之和为 1。",
    "term_mask": "掩码（mask）",
    "def_mask": "在 softmax 之前被设为 −∞ 的位置，因此权重为 0：填充位置，以及解码器中不许看到的后面的词元。",
    "term_head": "注意力头（head）",
    "def_head": "一次独立的注意力计算，有自己的 W_Q、W_K、W_V，每个词元用 d_k = d_model / h 个数。"
                "h 个头并行计算，输出拼接后乘以 W_O。",
    "term_layer": "层（layer）",
    "def_layer": "堆叠中的一块：先注意力，再前馈网络，各带残差连接和层归一化。编码器和解码器各堆叠 N 层。",
    "term_kinds": "编码器自注意力 / 解码器自注意力 / 交叉注意力",
    "def_kinds": "编码器自注意力：源语言词元关注源语言词元。解码器自注意力（带掩码）：每个目标词元只关注"
                 "自己和前面的目标词元。交叉注意力：查询来自解码器，键和值来自编码器的输出。",
    "term_residual": "残差与层归一化（Add & Norm）",
    "def_residual": "把子层的输入加到它的输出上，再把每一行归一化为均值 0、方差 1（再乘以、加上学得的参数）。",
    "term_checkpoint": "检查点（checkpoint）",
    "def_checkpoint": "保存到磁盘上的训练好的模型：权重、设置、词表和模型卡片。",
    "term_decoding": "贪心搜索与束搜索",
    "def_decoding": "一次写出一个词元的方法：贪心搜索每步取最可能的词元；束搜索保留最好的几个未完成的句子。",
    "term_atlas": "注意力头图谱的标签",
    "def_atlas": "“注意力头”页的图谱给每个头的名称，各带一个 0 到 1 的分数：前一个 / 后一个词元（权重落在查询"
                 "前面 / 后面紧挨着的词元上）；对角线（落在自身位置上，交叉注意力则落在与正在写出的词同一位置的"
                 "源词上，复制任务需要这个）；反向（落在从末尾对称过来的源词上）；汇聚点（落在第一个词元或 </s> "
                 "上）；分散（权重平均分开：熵接近最大值）；标点；单调对齐（按顺序读源句的交叉注意力）；"
                 "代词 → 先行词（从 \"it\" 指向它所代表的名词）；没有明确作用（没有一项达到 0.5）。",
    "term_rollout": "注意力展开",
    "def_rollout": "把每一层的注意力按头平均，再与残差连接各占一半混合，逐层相乘，从而把每个输出词追溯到各个源词。"
                   "这只是近似：它忽略了值向量、前馈层和层归一化，所以“注意力”页把它和一个因果检验"
                   "（移除一个源词）放在一起。",
}

# English words the Chinese glossary keeps on purpose (beside their translation): the names the
# paper and the libraries use. A test of the Chinese pages allows exactly these.
ENGLISH_TERMS = {"token", "piece", "embedding", "query", "key", "value", "logit", "softmax",
                 "mask", "head", "layer", "checkpoint", "SentencePiece", "walk", "ing", "pad",
                 "Add", "Norm", "d_model", "d_k"}


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
