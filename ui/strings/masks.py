"""Strings of the Masks page (EN and ZH with the same keys)."""
EN = {
    "title": "Masks",
    "intro": "A mask says, for every query and every key, whether the query may look at that key. "
             "Two rules are used. Padding: sentences in a batch have different lengths, so the short "
             "ones are filled with <pad>, and no one may attend to a <pad>. Causal: while the decoder "
             "writes word t it must not see words t+1, t+2, … that it has not written yet. The decoder's "
             "self-attention uses both rules at once.",
    "sentences": "Sentences (one per line)",
    "sentences_help": "A small batch of sentences of different lengths. They are split into tokens by the "
                      "current model's tokenizer (or at spaces when no model is loaded) and padded to the "
                      "longest one.",
    "sentences_default": "A dog runs .\nTwo men play football on the grass .\nEin Hund rennt .",
    "tokenized_by_model": "Tokens from the current model's tokenizer. The batch below is the encoder's input: "
                          "pieces + </s>.",
    "tokenized_by_space": "No model is loaded: the sentences are split at spaces.",
    "bad_text": "These sentences cannot be used: {reason}",
    "truncated": "Sentence {n} was cut to {limit} tokens.",
    "batch_title": "The padded batch",
    "padding_title": "Padding mask: which keys are real tokens (one row per sentence)",
    "padding_caption": "Blue = a real token, grey = <pad>. In the model this row is shared by every query "
                       "and every head: its shape is (batch, 1, 1, length).",
    "choose": "Sentence to look at",
    "sides_caption": "The encoder reads the sentence as pieces + </s>; the decoder, learning to write it, reads "
                     "<s> + pieces (shifted right by one: it never reads the </s> it has to produce). So the "
                     "left mask is labelled with the encoder's tokens, the other two with the decoder's.",
    "pad_square_title": "Encoder: padding mask (query × key)",
    "pad_square_caption": "Encoder self-attention (and cross-attention's keys): every query may look at every "
                          "real token, never at <pad>.",
    "causal_title": "Decoder: causal mask (query × key)",
    "causal_caption": "Lower triangle: word t may see words 0…t, never a later one.",
    "combined_title": "Decoder: causal AND padding",
    "combined_caption": "This is what the decoder's self-attention uses for this sentence. Rows of <pad> "
                        "queries still exist; their outputs are ignored by the loss.",
    "row_title": "What the mask does to one row of scores",
    "row_intro": "Take one query's row of scores (here a seeded random row, like q·k/√d_k) and mask it with the "
                 "combined mask. Left: the scores. Middle: masked entries set to −inf, then softmax: their "
                 "weight is exactly 0, since e^−∞ = 0. Right: the same entries set to 0 instead (the notes' "
                 "step-12 example, `masked_two_head_attention_3x3`, writes masked entries as 0): e^0 = 1, so the "
                 "hidden tokens still get weight: the model would peek at the future and at the padding.",
    "query": "Query position",
    "seed": "Random seed for the scores",
    "leak": "With 0 instead of −inf, the tokens that should be hidden get {leak:.1%} of the weight "
            "(with −inf: exactly {zero}).",
    "no_leak": "This query has no hidden key (every key is a real token at or before it), so both rows agree. "
               "Pick a later sentence position or a shorter sentence to see the difference.",
    "t_scores": "scores (before softmax)",
    "t_inf": "masked with −inf → softmax",
    "t_zero": "masked with 0 → softmax",
    "keep": "may attend",
    "masked": "masked",
    "query_axis": "query",
    "key_axis": "key",
    "sentence_axis": "sentence",
    "token_axis": "token",
    "download": "Download CSV",
    "col_token": "token",
    "col_score": "score",
    "col_keep": "may attend",
    "col_masked_inf": "masked (−inf)",
    "col_weight_inf": "weight (−inf)",
    "col_masked_zero": "masked (0)",
    "col_weight_zero": "weight (0)",
}
ZH = {
    "title": "掩码",
    "intro": "掩码规定：对每个查询和每个键，这个查询能不能看这个键。常用两条规则。填充：一个批次里的句子长短不一，"
             "短句用 <pad> 补齐，任何词都不能关注 <pad>。因果：解码器写第 t 个词时，不能看到还没写出的第 t+1、"
             "t+2…… 个词。解码器的自注意力同时使用这两条规则。",
    "sentences": "句子（每行一句）",
    "sentences_help": "一小批长度不同的句子。用当前模型的分词器切分成词元（没有模型时按空格切分），再补齐到最长的那句。",
    "sentences_default": "A dog runs .\nTwo men play football on the grass .\nEin Hund rennt .",
    "tokenized_by_model": "词元来自当前模型的分词器。下面的批次是编码器的输入：子词 + </s>。",
    "tokenized_by_space": "没有加载模型：按空格切分句子。",
    "bad_text": "这些句子无法使用：{reason}",
    "truncated": "第 {n} 句被截断为 {limit} 个词元。",
    "batch_title": "补齐后的批次",
    "padding_title": "填充掩码：哪些键是真实的词元（每行一句）",
    "padding_caption": "蓝色 = 真实词元，灰色 = <pad>。在模型中，这一行被所有查询和所有头共用：形状为 (批大小, 1, 1, 长度)。",
    "choose": "要查看的句子",
    "sides_caption": "编码器读到的是 子词 + </s>；解码器学着写出这句话，读到的是 <s> + 子词（右移一位：它从不读入"
                     "自己要生成的 </s>）。所以左边的掩码用编码器的词元标注，另外两个用解码器的词元标注。",
    "pad_square_title": "编码器：填充掩码（查询 × 键）",
    "pad_square_caption": "编码器自注意力（以及交叉注意力的键）：每个查询可以看所有真实词元，但不能看 <pad>。",
    "causal_title": "解码器：因果掩码（查询 × 键）",
    "causal_caption": "下三角：第 t 个词可以看第 0…t 个词，永远看不到后面的词。",
    "combined_title": "解码器：因果 且 填充",
    "combined_caption": "这就是解码器自注意力对这句话使用的掩码。<pad> 作为查询的行依然存在，但它们的输出在计算损失时被忽略。",
    "row_title": "掩码对一行分数做了什么",
    "row_intro": "取一个查询的一行分数（这里是一行带随机种子的随机数，相当于 q·k/√d_k），用组合掩码处理。左：分数。"
                 "中：被遮挡处设为 −∞，再做 softmax：因为 e^−∞ = 0，它们的权重恰好为 0。右：同样的位置改设为 0"
                 "（笔记第 12 步的例子 `masked_two_head_attention_3x3` 就把被遮挡处写成 0）：e^0 = 1，被遮挡的词仍然得到权重，"
                 "模型就会偷看未来的词和填充。",
    "query": "查询位置",
    "seed": "分数的随机种子",
    "leak": "用 0 代替 −∞ 时，本应被遮挡的词得到了 {leak:.1%} 的权重（用 −∞ 时恰好为 {zero}）。",
    "no_leak": "这个查询没有被遮挡的键（所有键都是它之前或它自己的真实词元），所以两行结果相同。选一个更靠后的位置或更短的句子就能看到差别。",
    "t_scores": "分数（softmax 之前）",
    "t_inf": "用 −∞ 遮挡 → softmax",
    "t_zero": "用 0 遮挡 → softmax",
    "keep": "可以关注",
    "masked": "被遮挡",
    "query_axis": "查询",
    "key_axis": "键",
    "sentence_axis": "句子",
    "token_axis": "词元",
    "download": "下载 CSV",
    "col_token": "词元",
    "col_score": "分数",
    "col_keep": "可以关注",
    "col_masked_inf": "遮挡后（−∞）",
    "col_weight_inf": "权重（−∞）",
    "col_masked_zero": "遮挡后（0）",
    "col_weight_zero": "权重（0）",
}
