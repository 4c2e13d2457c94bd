EN = {
    "title": "Attention: who looks at whom",
    "intro": "Type a sentence and see the attention weights the model computes for it: where "
             "one word looks (the pronoun, when there is one), that head enlarged, and every "
             "layer and head at once on demand. A weight says how much of a key token's value a "
             "query token takes; each row sums to 1.",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to see its attention.",
    "text": "Source sentence",
    "text_help": "The sentence the encoder reads. It is cut to the model's length limit if longer.",
    "target": "Target sentence (optional)",
    "target_help": "Leave empty to let the model write its own output (greedy decoding). Type a "
                   "target to see the decoder's attention on that sentence instead (teacher forcing).",
    "empty": "Type a sentence above to see its attention (the text is empty).",
    "bad_text": "This text cannot be used: {reason}",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "output": "Output",
    "output_greedy": "What the model wrote (greedy decoding):",
    "output_forced": "The target you typed (teacher forcing: the decoder reads it instead of its "
                     "own output):",
    "output_empty": "(nothing: the model ended at once)",
    "tokens": "Source tokens: {n} · target tokens (with <s>): {m}",
    "kind": "Attention kind",
    "clearest": "Opened on layer {l}, head {h}: of the {n} heads of {kind}, it shows the clearest "
                "pattern on this sentence: {what}. Any other head can be chosen above.",
    "clearest_first": " (Layer 0, head 0: {first:.0%}.)",
    "clearest_diagonal": "each token looks mostly at itself ({share:.0%} of the weight)",
    "clearest_diagonal_cross": "each output token looks at the source token in the same position, "
                               "what copying needs ({share:.0%} of the weight)",
    "clearest_reversed": "each output token looks at the source token as far from the end, what "
                         "reversing needs ({share:.0%} of the weight)",
    "clearest_previous": "each token looks at the one before it ({share:.0%} of the weight)",
    "clearest_next": "each token looks at the one after it ({share:.0%} of the weight)",
    "clearest_focused": "each row puts {share:.0%} of its weight on one word of the sentence (not "
                        "on </s> or punctuation)",
    "kind_help": "Encoder self-attention: source words look at source words. Masked decoder "
                 "self-attention: each target word looks only at itself and the words before it. "
                 "Cross-attention: target words look at the source words.",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Masked decoder self",
    "kind_cross": "Cross (decoder → encoder)",
    "merge": "Merge subword pieces into words",
    "merge_help": "Rule: a word's weight as a key is the SUM of its pieces' weights; a word's row "
                  "as a query is the AVERAGE of its pieces' rows, except the word just before a "
                  "German pronoun, which keeps its last piece's row (the one that writes the "
                  "pronoun). Rows still sum to 1.",
    "merge_on": "Pieces merged into words: weights summed over the pieces of a key word, averaged "
                "over the pieces of a query word (the word before a German pronoun keeps the row "
                "of its last piece, which decides the pronoun).",
    "hide": "Hide special tokens",
    "hide_help": "Removes <s>, </s>, <pad> and <unk> from both axes and divides each remaining row "
                 "by what is left of its sum, so it sums to 1 again.",
    "hide_on": "Special tokens hidden: each row is renormalised over the remaining tokens (divided "
               "by its remaining sum), so these are not the model's raw weights.",
    "model_view_help": "Rows are layers, columns heads; in each small map rows are queries and "
                       "columns keys. One colour scale for all: 0 (white) to 1 (dark blue). Hover "
                       "for the value and the two tokens.",
    "layer_n": "layer {n}",
    "head_n": "head {n}",
    "enlarged": "One head enlarged",
    "layer": "Layer",
    "head": "Head",
    "heat_title": "{kind} · layer {l} · head {h}",
    "queries": "query (attends from)",
    "keys": "key (attends to)",
    "row_check": "Check: every row shown sums to 1 (largest deviation {dev:.1e}).",
    "row_check_masked": "Rows sum to 1, except {n} row(s) with no weight left (all zeros).",
    "average": "Also show the average over all heads",
    "average_help": "The plain mean of the heads' weights in this layer. It is not a head of the "
                    "model: the heads are computed separately and concatenated, never averaged.",
    "avg_title": "AVERAGE over the {n} heads of layer {l} (not a head of the model)",
    "choose_token": "Token",
    "all_tokens": "all tokens",
    "downloads": "Downloads",
    "csv": "This head's matrix (CSV)",
    "csv_help": "The enlarged matrix as shown (after the toggles), with token labels.",
    "json": "The whole trace (JSON)",
    "json_help": "Tokens, output and the weights of every layer and head of all three attention "
                 "kinds, as the model computed them (toggles not applied).",
    "png_hint": "Each chart has a camera button (top right, on hover) to save it as PNG.",
    "featured_title": "This model's pronoun head: {head}",
    "featured_fig4": "The paper's Figure 4 shows two heads of ENCODER self-attention (layer 5 of 6, "
                     "heads 5 and 6 in the paper's counting) that attend from \"its\" to \"Law\" "
                     "and \"application\". In this model the head that resolves the pronoun is "
                     "elsewhere: {kind}, layer {l}, head {h} (counted from 0).",
    "featured_fig4_same": "The paper's Figure 4 shows two heads of ENCODER self-attention (layer "
                          "5 of 6, heads 5 and 6 in the paper's counting) that attend from \"its\" "
                          "to \"Law\" and \"application\". This model's pronoun head sits in the "
                          "same place: encoder self-attention, the top one of its {n} layers "
                          "(layer {l}), head {h} (both counted from 0). The page opens on it and "
                          "on the pronoun's row.",
    "featured_ablation": "Measured now: switched off, this head takes the pronoun accuracy on {n} "
                         "{probe} from {on:.0%} to {off:.0%} (the Heads page runs the same test).",
    "probe_anaphora": "held-out sentences (noun pairs never seen in training)",
    "probe_classroom": "hand-written sentences (none generated)",
    "featured_open": "Open this head",
    "featured_here": "You are looking at it.",
    "view_title": "Where does one word look?",
    "view_help": "Left: the word that asks (query); right: the words it can look at (keys). A "
                 "line's darkness is its weight. Hover the dots for the numbers.",
    "choose_token": "Word",
    "many_tokens": "{n} words: too many for buttons, so choose the word from this list.",
    "heads_shown": "Heads drawn",
    "heads_shown_help": "Each head has its colour; choose several to compare them.",
    "lesson_enc": "Opened on the pronoun \"{word}\": which words does it look at?",
    "lesson_dec": "Opened on the row of \"{word}\", the word before the German pronoun "
                  "\"{pronoun}\": the decoder input at a position writes the NEXT word, so this "
                  "row is where the model decides which pronoun to write.",
    "model_view_open": "Every layer × head at once (model view)",
    "cell_numbers": "Numbers in the cells",
    "cell_numbers_help": "Writes each weight in its cell, here and in the rollout picture below "
                         "(for sentences up to 14 words). Hovering over a cell shows its number "
                         "in any case.",
    "left_col": "queries",
    "right_col": "keys",
}
ZH = {
    "title": "注意力：谁在看谁",
    "intro": "输入一个句子，查看模型为它计算的注意力权重：一个词在看哪里（句中有代词时就从代词开始），"
             "放大这个头，需要时再一次看全部层和头。权重表示一个查询词从某个键词的值中取多少；"
             "每一行之和为 1。",
    "no_checkpoint": "尚未选择模型。请在侧边栏选择或上传一个检查点（或在“训练”页训练一个），"
                     "即可查看它的注意力。",
    "text": "源句",
    "text_help": "编码器读取的句子。超过模型的长度上限时会被截断。",
    "target": "目标句（可选）",
    "target_help": "留空则由模型自己生成输出（贪心解码）。输入目标句，则查看解码器在这句话上的"
                   "注意力（教师强制）。",
    "empty": "请在上方输入一个句子以查看它的注意力（当前文本为空）。",
    "bad_text": "无法使用这段文本：{reason}",
    "load_failed": "所选检查点无法使用：{reason}",
    "output": "输出",
    "output_greedy": "模型写出的结果（贪心解码）：",
    "output_forced": "你输入的目标句（教师强制：解码器读取它，而不是模型自己的输出）：",
    "output_empty": "（空：模型立即结束了）",
    "tokens": "源句词元：{n} 个 · 目标句词元（含 <s>）：{m} 个",
    "kind": "注意力类型",
    "clearest": "打开的是第 {l} 层第 {h} 个头：在{kind}的 {n} 个头中，它在这句话上的模式最清楚：{what}。"
                "上面可以选择任何其他头。",
    "clearest_first": "（第 0 层第 0 个头：{first:.0%}。）",
    "clearest_diagonal": "每个词元主要看它自己（权重的 {share:.0%}）",
    "clearest_diagonal_cross": "每个输出词元看源句中同一位置的词元，这正是复制所需要的（权重的 {share:.0%}）",
    "clearest_reversed": "每个输出词元看源句中从末尾数同样远的词元，这正是倒序所需要的（权重的 {share:.0%}）",
    "clearest_previous": "每个词元看它前面的那个（权重的 {share:.0%}）",
    "clearest_next": "每个词元看它后面的那个（权重的 {share:.0%}）",
    "clearest_focused": "每一行把 {share:.0%} 的权重放在句中的一个词上（不是 </s> 或标点）",
    "kind_help": "编码器自注意力：源句的词看源句的词。带掩码的解码器自注意力：每个目标词只能看它自己"
                 "和它之前的词。交叉注意力：目标词看源句的词。",
    "kind_encoder_self": "编码器自注意力",
    "kind_decoder_self": "带掩码的解码器自注意力",
    "kind_cross": "交叉注意力（解码器 → 编码器）",
    "merge": "把子词片段合并成词",
    "merge_help": "规则：一个词作为键的权重是它各片段权重之和；一个词作为查询的行是它各片段行的平均，"
                  "但德语代词前的那个词保留它最后一个片段的行（写出代词的正是这一行）。每行之和仍为 1。",
    "merge_on": "片段已合并成词：对键词的片段求和，对查询词的片段取平均（德语代词前的词保留其最后一个片段的行，正是它决定代词）。",
    "hide": "隐藏特殊词元",
    "hide_help": "从两条轴上去掉 <s>、</s>、<pad> 和 <unk>，并把每一行除以剩余部分之和，使其重新"
                 "等于 1。",
    "hide_on": "特殊词元已隐藏：每一行都在剩余词元上重新归一化（除以剩余之和），因此这些不是模型的"
               "原始权重。",
    "model_view_help": "行是层，列是头；每个小图中行是查询，列是键。所有小图共用一个色标：0（白）到 "
                       "1（深蓝）。鼠标悬停可看数值和对应的两个词。",
    "layer_n": "第 {n} 层",
    "head_n": "头 {n}",
    "enlarged": "放大一个头",
    "layer": "层",
    "head": "头",
    "heat_title": "{kind} · 第 {l} 层 · 头 {h}",
    "queries": "查询（发出注意）",
    "keys": "键（被注意）",
    "row_check": "检查：显示的每一行之和都为 1（最大偏差 {dev:.1e}）。",
    "row_check_masked": "每行之和为 1，但有 {n} 行没有剩余权重（全为 0）。",
    "average": "同时显示所有头的平均",
    "average_help": "本层各头权重的简单平均。它不是模型中的一个头：各个头分别计算后被拼接，从不取平均。",
    "avg_title": "第 {l} 层 {n} 个头的平均（不是模型中的头）",
    "choose_token": "词元",
    "all_tokens": "全部词元",
    "downloads": "下载",
    "csv": "该头的矩阵（CSV）",
    "csv_help": "放大显示的矩阵（已应用上面的选项），带词元标签。",
    "json": "完整的追踪记录（JSON）",
    "json_help": "词元、输出，以及三种注意力所有层、所有头的权重，即模型的原始计算结果（不应用上面的选项）。",
    "png_hint": "每个图表右上角（鼠标悬停时）有相机按钮，可保存为 PNG。",
    "featured_title": "该模型的代词注意力头：{head}",
    "featured_fig4": "论文的图 4 展示的是编码器自注意力中的两个头（6 层中的第 5 层，按论文从 1 开始的"
                     "编号是头 5 和头 6），它们从 \"its\" 指向 \"Law\" 和 \"application\"。"
                     "在这个模型中，解决代词指代的头在别处：{kind}，第 {l} 层，头 {h}（从 0 开始计数）。",
    "featured_fig4_same": "论文的图 4 展示的是编码器自注意力中的两个头（6 层中的第 5 层，按论文从 1 开始的"
                          "编号是头 5 和头 6），它们从 \"its\" 指向 \"Law\" 和 \"application\"。"
                          "这个模型的代词注意力头正在同样的位置：编码器自注意力，{n} 层中的最高层（第 {l} 层），"
                          "头 {h}（都从 0 开始计数）。页面打开时就显示它和代词所在的行。",
    "featured_ablation": "当场测量：关掉这个头后，{n} 个{probe}上的代词准确率从 {on:.0%} 变为 "
                         "{off:.0%}（“注意力头”页做的是同一个检验）。",
    "probe_anaphora": "留出句子（训练中从未出现过的名词组合）",
    "probe_classroom": "手写句子（没有一句是生成的）",
    "featured_open": "打开这个头",
    "featured_here": "当前显示的就是它。",
    "view_title": "一个词在看哪里？",
    "view_help": "左边是发出提问的词（查询），右边是它可以看的词（键）。连线越深，权重越大。"
                 "把鼠标移到圆点上可看到数值。",
    "choose_token": "词",
    "many_tokens": "共 {n} 个词，按钮放不下，请从列表中选择。",
    "heads_shown": "显示的头",
    "heads_shown_help": "每个头一种颜色；可选多个头进行比较。",
    "lesson_enc": "已选中代词 \"{word}\"：它在看哪些词？",
    "lesson_dec": "已选中 \"{word}\" 所在的行，也就是德语代词 \"{pronoun}\" 前面的那个词："
                  "解码器在某个位置的输入负责写出下一个词，所以模型正是在这一行决定写哪个代词。",
    "model_view_open": "一次看所有层 × 所有头（模型视图）",
    "cell_numbers": "在格子里写出数值",
    "cell_numbers_help": "在每个格子里写出它的权重，这里和下面的注意力展开图都写（句子不超过 14 个词时）。"
                         "无论开不开，把鼠标停在格子上都能看到数值。",
    "left_col": "查询",
    "right_col": "键",
}
