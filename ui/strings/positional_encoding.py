"""Strings of the Positional encoding page (EN and ZH with the same keys)."""
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
ZH = {
    "title": "位置编码",
    "intro": "注意力把每个词和所有词相互比较，却完全不看它们的顺序：把词打乱，每个词得到的权重不变。"
             "所以在第一层之前，每个位置都要给词向量加上自己的向量 PE(pos)。论文用正弦和余弦构造它："
             "PE(pos, 2i) = sin(pos / 10000^(2i/d_model))，PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))。"
             "第 2i 和 2i+1 维共用一个频率；低维变化快，高维变化慢。",
    "d_model": "d_model（向量的维数）",
    "d_model_help": "每个位置向量的维数。侧边栏中的模型有自己的 d_model；这里可以试任意偶数宽度。",
    "dims": "要画的维度",
    "dims_help": "每个维度是位置上的一条波。笔记中的图画的是第 4 到第 7 维。",
    "waves_title": "波形：位置 0 到 100 上的 PE(pos, dim)",
    "waves_caption": "偶数维是正弦，奇数维是与前一维同频率的余弦。图例给出每条波的周期（以位置计）：第 0 维为 "
                     "{fast:.3g}，第 {last} 维为 {slow:.4g}。这些波合在一起就像一只时钟的各个指针，在一个句子"
                     "的长度内不会重复。",
    "heat_title": "所有位置 × 所有维度",
    "heat_caption": "每一行是加在一个位置上的向量。左边的列逐行变化（快波）；右边的列几乎不变（慢波）。",
    "sim_title": "两个位置有多相似？PE(p)·PE(q)",
    "sim_caption": "两个位置向量的点积等于 Σ cos((p − q)·ω_i)：只取决于距离 |p − q|，所以矩阵的每条对角线"
                   "都是常数。实测：任意对角线上的最大差异为 {err:.2e}。",
    "offset_title": "PE(p)·PE(p + k) 随偏移 k 的变化（三个不同起点）",
    "offset_caption": "三条曲线完全重合：相似度只是 k 的函数，在 k = 0 时最大（等于 d_model/2 = {half}），"
                      "位置相距越远越小，并带有起伏。",
    "rot_title": "PE(pos + k) 是 PE(pos) 的线性函数",
    "rot_intro": "对固定的偏移 k，存在同一个矩阵 M_k，使每个位置都有 PE(pos + k) = M_k · PE(pos)。这来自 "
                 "sin(a + b) = sin a cos b + cos a sin b 和 cos(a + b) = cos a cos b − sin a sin b："
                 "每对 (sin, cos) 被旋转角度 k·ω_i。论文因此认为模型容易学会相对位置。",
    "k": "偏移 k",
    "rot_result": "在全部 {n} 个位置上，|PE(pos + {k}) − M_{k} · PE(pos)| 的最大误差为 {err:.2e}"
                  "（浮点舍入误差：这个恒等式是精确成立的）。",
    "rot_matrix": "矩阵 M_{k}：对角线上是 2×2 旋转块，其余为 0",
    "rot_odd": "旋转检验需要偶数的 d_model：宽度为奇数时，最后一个正弦维没有配对的余弦维。",
    "norm_title": "与词向量相比，PE 有多大？",
    "norm_intro": "模型先把每个词嵌入乘以 √d_model，再加上 PE。每个 PE 向量的长度都是 √(d_model/2)；"
                  "在当前模型里，把它和你输入句子的缩放后词嵌入比一比。",
    "sentence": "句子",
    "sentence_default": "A dog runs .",
    "no_model": "没有加载模型，因此没有词嵌入可比较。请在侧边栏选择或训练一个检查点；本页其余部分不需要模型。",
    "learned_pe": "这个模型的位置向量是学出来的（`positional = learned`）；柱状图显示的是学到的向量，而不是正弦和余弦。",
    "norm_result": "平均 ‖词嵌入·√d‖ = {emb:.3f}，‖PE‖ = {pe:.3f}（比值 {ratio:.2f}）。",
    "bad_text": "请输入一个句子来比较：{reason}",
    "emb_name": "‖词嵌入·√d‖",
    "pe_name": "‖PE‖",
    "love_title": "笔记中的例子：“I love AI”中的“love”（pos = 2，d_model = 4）",
    "love_intro": "d_model = 4 时 PE(2) 的每一项，旁边是笔记给出的数。绿色：笔记在其舍入范围内正确；红色：不正确。",
    "love_verdict": "笔记中 4 个数有 {ok} 个正确。",
    "love_explain": "原因：",
    "download": "下载 CSV",
    "position": "位置",
    "dimension": "维度",
    "pe_value": "PE 值",
    "dim_word": "维",
    "period_word": "周期",
    "column": "列",
    "row": "行",
    "ratio_word": "比值",
    "bad_size": "无法绘制这些尺寸：{reason}",
    "col_dimension": "维度",
    "col_value": "数值（计算）",
    "col_notes": "笔记",
    "col_agrees": "笔记正确？",
    "col_angle": "角度 pos/10000^(2i/d)",
    "col_function": "函数",
    "col_formula": "公式",
}
