"""Strings of the Why √d_k page (EN and ZH with the same keys)."""
EN = {
    "title": "Why divide by √d_k?",
    "intro": "A score is a dot product q·k = q₁k₁ + … + q_d k_d. If the entries of q and k are independent "
             "with mean 0 and variance 1, each product q_i k_i has variance 1, and the sum of d_k of them has "
             "variance d_k. So the wider the keys, the further apart the scores. The softmax turns large gaps "
             "into one weight near 1 and the rest near 0, and then its gradient almost vanishes. Dividing by "
             "√d_k brings the variance back to 1 for any d_k.",
    "seed": "Random seed",
    "samples": "Random pairs (q, k) per d_k",
    "var_title": "The variance of q·k grows like d_k",
    "var_caption": "Measured over {n} random pairs for each d_k (error bars: ±2 standard errors). The dashed line "
                   "is the theory Var(q·k) = d_k; after dividing by √d_k the variance stays near 1.",
    "var_raw": "Var(q·k), measured",
    "var_theory": "theory: d_k",
    "var_scaled": "Var(q·k/√d_k), measured",
    "d_k": "d_k (width of queries and keys)",
    "hist_title": "All {n} values of q·k for d_k = {d}, without and with the scaling",
    "hist_caption": "Standard deviation of q·k: {raw:.3f} (theory √d_k = {theory:.3f}); after dividing by √d_k: {scaled:.3f}.",
    "n_keys": "Keys in the row",
    "row_title": "One row of attention for d_k = {d}: softmax with and without the scaling",
    "row_caption": "Without scaling the largest weight is {raw:.4f}; with it, {scaled:.4f}.",
    "t_raw": "softmax(q·k)",
    "t_scaled": "softmax(q·k/√d_k)",
    "key_word": "key",
    "score_word": "score",
    "weight_word": "weight",
    "variance": "variance",
    "value": "value",
    "count": "count",
    "samples_word": "samples",
    "sat_title": "Saturation against d_k (average of {trials} random rows of {keys} keys)",
    "sat_caption": "Left: the largest weight, 1/{keys} = {uniform:.3f} for an even spread and 1 when one key takes "
                   "everything. Middle: the entropy, ln {keys} = {hmax:.3f} for an even spread and 0 for one-hot. "
                   "Right: the size (Frobenius norm) of the softmax's Jacobian diag(p) − ppᵀ, which multiplies every "
                   "gradient flowing back into the scores: without the scaling it collapses towards 0 as d_k grows, "
                   "so learning slows down. The dotted line marks the d_k chosen above.",
    "t_max": "largest weight",
    "t_entropy": "entropy (nats)",
    "t_jac": "‖diag(p) − ppᵀ‖",
    "raw": "without scaling",
    "scaled": "divided by √d_k",
    "at_dk": "At d_k = {d}: largest weight {mr:.3f} → {ms:.3f}, entropy {er:.3f} → {es:.3f}, gradient size "
             "{jr:.4f} → {js:.4f} (without → with scaling).",
    "download": "Download CSV",
}
ZH = {
    "title": "为什么要除以 √d_k？",
    "intro": "分数是点积 q·k = q₁k₁ + … + q_d k_d。若 q 和 k 的各分量相互独立、均值为 0、方差为 1，则每个乘积 "
             "q_i k_i 的方差为 1，d_k 个相加后方差为 d_k。所以键越宽，分数彼此相差越大。softmax 会把大的差距变成"
             "一个接近 1 的权重、其余接近 0，这时它的梯度几乎消失。除以 √d_k 后，无论 d_k 多大，方差都回到 1。",
    "seed": "随机种子",
    "samples": "每个 d_k 的随机 (q, k) 对数",
    "var_title": "q·k 的方差随 d_k 增长",
    "var_caption": "每个 d_k 用 {n} 对随机向量测量（误差棒：±2 个标准误）。虚线是理论值 Var(q·k) = d_k；除以 √d_k 后方差保持在 1 附近。",
    "var_raw": "Var(q·k)，实测",
    "var_theory": "理论：d_k",
    "var_scaled": "Var(q·k/√d_k)，实测",
    "d_k": "d_k（查询和键的维数）",
    "hist_title": "d_k = {d} 时全部 {n} 个 q·k 值，缩放前后对比",
    "hist_caption": "q·k 的标准差：{raw:.3f}（理论 √d_k = {theory:.3f}）；除以 √d_k 后：{scaled:.3f}。",
    "n_keys": "一行中的键数",
    "row_title": "d_k = {d} 时的一行注意力：缩放与不缩放的 softmax",
    "row_caption": "不缩放时最大权重为 {raw:.4f}；缩放后为 {scaled:.4f}。",
    "t_raw": "softmax(q·k)",
    "t_scaled": "softmax(q·k/√d_k)",
    "key_word": "键",
    "score_word": "分数",
    "weight_word": "权重",
    "variance": "方差",
    "value": "数值",
    "count": "个数",
    "samples_word": "个样本",
    "sat_title": "饱和程度随 d_k 的变化（{trials} 行随机分数的平均，每行 {keys} 个键）",
    "sat_caption": "左：最大权重，均匀分布时为 1/{keys} = {uniform:.3f}，一个键独占时为 1。中：熵，均匀分布时为 "
                   "ln {keys} = {hmax:.3f}，独热时为 0。右：softmax 的雅可比矩阵 diag(p) − ppᵀ 的大小（Frobenius 范数），"
                   "反向传到分数上的每个梯度都要乘以它：不缩放时，d_k 越大它越趋近 0，学习就变慢。点线标出上面选的 d_k。",
    "t_max": "最大权重",
    "t_entropy": "熵（nats）",
    "t_jac": "‖diag(p) − ppᵀ‖",
    "raw": "不缩放",
    "scaled": "除以 √d_k",
    "at_dk": "d_k = {d} 时：最大权重 {mr:.3f} → {ms:.3f}，熵 {er:.3f} → {es:.3f}，梯度大小 {jr:.4f} → {js:.4f}"
             "（不缩放 → 缩放）。",
    "download": "下载 CSV",
}
