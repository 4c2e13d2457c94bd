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
    "target_help": "Leave empty to let the model write its own output (greedy decoding); type a "
                   "target to follow the decoder on that sentence (teacher forcing).",
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
ZH = {
    "title": "一步注意力，逐个数字",
    "intro": "像笔记中的手算例题那样，跟着一个查询词元穿过一个头，一个数字一个数字地看。下面的每个数字"
             "都直接读自真实模型对你的句子的前向计算（除非某一步特别说明是由此推算的）。",
    "no_checkpoint": "尚未选择模型。请在侧边栏选择或上传一个检查点（或在“训练”页训练一个），即可跟踪"
                     "它的数字。",
    "text": "源句",
    "text_help": "编码器读取的句子。超过模型的长度上限时会被截断。",
    "target": "目标句（可选）",
    "target_help": "留空则由模型自己生成输出（贪心解码）；输入目标句，则跟踪解码器在这句话上的计算"
                   "（教师强制）。",
    "empty": "请在上方输入一个句子以跟踪它的数字（当前文本为空）。",
    "bad_text": "无法使用这段文本：{reason}",
    "load_failed": "所选检查点无法使用：{reason}",
    "output": "输出：{text}",
    "kind": "注意力类型",
    "kind_encoder_self": "编码器自注意力",
    "kind_decoder_self": "带掩码的解码器自注意力",
    "kind_cross": "交叉注意力（解码器 → 编码器）",
    "layer": "层",
    "head": "头",
    "query": "查询词元",
    "query_help": "要跟踪其注意力行的词元（解码器的注意力中是解码器一侧的词元）。",
    "sizes": "d_model = {d_model}，h = {h} 个头，因此每个头在 d_k = d_model / h = {d_k} 维中计算；"
             "√d_k = {sqrt:.4f}。",
    "wide": "向量有 {d_k} 列：请左右滚动表格。数字保留 4 位小数。",
    "sections_hint": "每个部分都可以展开和收起；第一部分默认展开。蓝色格子：数值较大（权重从 0 到 "
                     "1）；红色格子：负数。",
    "part_steps": "第 1 部分，分成十个编号步骤：向量 q、k、v 以及每一个乘积",
    "summary": "第 {query} 行，每个键一行",
    "summary_help": "q_i·k_j = Σ_c q_i[c]·k_j[c]；再除以 √d_k = {sqrt_d_k:.4f}；掩码 M_ij 为 0 或 −∞"
                    "（此处被掩码的个数：{n_masked}）；exp(s_ij − max)，max = {max:.4f}，"
                    "Σ = {sum_exp:.4f}；权重 α_ij = exp(s_ij − max) / Σ，其和为 {sum:.6f}。",
    "z_row": "该头对这个查询的输出：z_i = Σ_j α_ij v_j（第一行），以及模型自己的 head_out"
             "（第二行；最大差异 {max_diff:.1e}）。",
    "part_query": "第 1 部分 · 一个查询：头 {head} 的第 {query} 行",
    "part_matrix": "第 2 部分 · 整个头一起算（矩阵形式）",
    "part_combine": "第 3 部分 · 所有头：拼接与 W_O",
    "part_norm": "第 4 部分 · 残差连接与层归一化（Add & Norm）",
    "part_ffn": "第 5 部分 · 前馈网络（位置 {query}）",
    "part_logits": "第 6 部分 · 解码器对下一个词元的概率（位置 {query} 之后）",
    "step_n": "步骤 {n}",
    "q": "查询向量 q_i",
    "q_help": "该头的 Q = X·W_Q 的第 {query} 行：d_k = {d_k} 个数。",
    "k": "每个键向量 k_j",
    "k_help": "每个键词元一行（共 {n} 个键），K = X·W_K（交叉注意力中 X 是编码器的输出）。",
    "dot": "点积 q_i·k_j",
    "dot_help": "q_i·k_j = Σ_c q_i[c]·k_j[c]：查询与每个键的匹配程度（即追踪记录中的 `scores`）。",
    "scale": "除以 √d_k",
    "scale_help": "d_k = {d_k}，√d_k = {sqrt_d_k:.4f}。不做缩放时点积会随 d_k 增大，softmax 会饱和"
                  "（见“为什么除以 √d_k”页）。",
    "mask": "加上掩码",
    "mask_help": "查询可以看键 j 时 M_ij 为 0，不可以看时（填充位置，或解码器中未来的词）为 −∞。"
                 "此处被掩码的个数：{n_masked}。",
    "exp": "取指数（先减去该行的最大值）",
    "exp_help": "exp(s_ij − max)，max = {max:.4f}。减去该行最大的分数不会改变任何权重（在比值中"
                "约掉了），还能防止 exp 溢出；exp(−∞) = 0。Σ = {sum_exp:.4f}。本列由追踪记录中加掩码"
                "后的分数计算得到。",
    "softmax": "归一化：softmax 权重",
    "softmax_help": "α_ij = exp(s_ij − max) / Σ_j exp(s_ij − max)。权重取自追踪记录中的 `weights`，"
                    "其和为 {sum:.6f}。",
    "v": "每个值向量 v_j",
    "v_help": "每个键词元一行，V = X·W_V。",
    "weighted": "每个 v_j 乘以它的权重 α_ij",
    "weighted_help": "第 j 行是 α_ij · v_j：查询从词元 j 的内容中取了多少。",
    "z": "求和 z_i = Σ_j α_ij v_j",
    "z_help": "该头对这个查询的输出。第一行：上面各行之和；第二行：模型自己的 `head_out`"
              "（最大差异 {max_diff:.1e}）。",
    "m_scores": "所有查询与键的 QKᵀ",
    "m_scores_help": "行是查询，列是键；第 i 行就是查询 i 的步骤 3。",
    "m_scaled": "QKᵀ / √d_k",
    "m_scaled_help": "每个元素都除以 √d_k = {sqrt_d_k:.4f}。",
    "m_masked": "+ 掩码",
    "m_masked_help": "被掩码的元素为 −∞：它们的权重将恰好为 0。",
    "m_weights": "对每一行做 softmax",
    "m_weights_help": "每一行之和为 1。",
    "m_out": "softmax(…) × V：该头的输出 Z",
    "m_out_help": "每个查询一行，共 d_k 列。第 i 行就是步骤 10 的 z_i。",
    "concat": "拼接各个头",
    "concat_help": "{heads} 个头的输出并排放在一起：{heads} × {d_k} = {d_model} 列（h0.0 … 是头 0 的"
                   "第一维）。",
    "w_o": "用 W_O 投影",
    "w_o_help": "Concat(head_0, …, head_h−1) · W_O + b_O：每个词元回到 d_model = {d_model} 个数。"
                "这就是注意力子层的输出。",
    "add_norm": "残差相加与层归一化",
    "add_norm_help": "左侧：x + Sublayer(x)（残差 {n}）。然后是每行的均值 μ 和标准差 σ = √(总体方差 + ε)，"
                     "以及层归一化的结果 (x − μ) / σ · γ + β。",
    "add_norm_pre": "该模型是 Pre-LN：层归一化作用于子层的输入，因此均值和标准差属于那个输入，而不是"
                    "这里显示的残差和。",
    "ffn_relu": "隐藏层，ReLU 之前与之后",
    "ffn_relu_help": "FFN(x) = max(0, x·W_1 + b_1)·W_2 + b_2，d_ff = {d_ff}。ReLU 把 {d_ff} 个数中的 "
                     "{zeroed} 个置为 0。",
    "ffn_gelu": "隐藏层，GELU 之前与之后",
    "ffn_gelu_help": "FFN(x) = GELU(x·W_1 + b_1)·W_2 + b_2，d_ff = {d_ff}，其中 GELU(z) = z·Φ(z)"
                     "（Φ：正态分布的累积分布函数）。这个模型用的是 GELU，不是论文的 ReLU：负数被压向 0，"
                     "但不会被截掉；{d_ff} 个数中有 {negative} 个仍是负数（都不小于 −0.17）。",
    "ffn_silu": "隐藏层，swish（SiLU）之前与之后",
    "ffn_silu_help": "FFN(x) = swish(x·W_1 + b_1)·W_2 + b_2，d_ff = {d_ff}，其中 swish(z) = z·σ(z)"
                     "（σ：sigmoid 函数；也叫 SiLU）。这个模型和 Marian（OPUS-MT）一样用 swish，不是论文的 "
                     "ReLU：负数被压向 0，但不会被截掉；{d_ff} 个数中有 {negative} 个仍是负数（都不小于 −0.28）。",
    "ffn_out": "该位置的 FFN 输出：",
    "topk": "概率最高的 {k} 个下一个词元",
    "topk_help": "该位置最终逻辑值（logit）的 softmax：模型对下一个目标词元的预测。",
    "col_token": "词元",
    "col_logit": "逻辑值（logit）",
    "topk_chart": "{query} 之后下一个词元的概率",
    "probability": "概率",
    "encoder_only": "编码器不预测下一个词元：请选择解码器的注意力类型以查看最终概率。",
    "heatmap_weights": "该头的权重",
    "dl_csv": "下载此表（CSV）",
}
