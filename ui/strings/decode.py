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
    "tree_logp": "log P",
    "tree_score": "score",
    "tree_token_logp": "log P(token)",
    "tree_rank": "rank",
    "tree_key": "each node: token, then log P, then score = log P / lp",
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
    "tree_finished_caption": "Every hypothesis that ended with </s>, best score first: the one "
                             "with the highest score is returned, which need not be the one with "
                             "the highest log P.",
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

ZH = {
    "title": "解码：模型如何一个词元一个词元地写出输出",
    "intro": "解码器每次写一个词元。每一步它把最后的隐藏状态变成整个词表上的逻辑值（logit），softmax 把它们"
             "变成概率，再由解码方法选出下一个词元。先选一种方法，再逐步查看：模型考虑了哪些词元、"
             "它在源句中看了哪里、它已经写了什么。",
    "no_checkpoint": "尚未选择模型。请在侧边栏选择或上传一个检查点（或在“训练”页训练一个），"
                     "然后用它来解码。",
    "load_failed": "无法使用所选检查点：{reason}",
    "text": "源句",
    "text_help": "编码器读取的句子。超过模型长度上限时会被截断。",
    "empty": "请在上方输入一个句子来解码（目前文本为空）。",
    "bad_text": "无法使用这段文本：{reason}",
    "too_long": "这段文本有 {n:,} 个字符；本页最多接受 {max:,} 个。请缩短。",
    "method": "解码方法",
    "method_help": "贪心：总是选概率最高的词元。束搜索：每步保留几个最好的部分输出，最后选最好的完整"
                   "输出。采样：从（变尖锐或变平缓的）分布中随机抽取词元。",
    "method_greedy": "贪心解码",
    "method_beam": "束搜索",
    "method_sample": "采样",
    "beam": "束宽",
    "beam_help": "每一步保留多少个部分输出。束宽为 1 就是贪心解码。",
    "alpha": "长度惩罚 α",
    "alpha_help": "束搜索把假设的对数概率除以 ((5 + 长度) / 6)^α，这样较长的输出不会仅仅因为多乘了"
                  "几个小于 1 的因子而吃亏。α = 0 表示不惩罚；论文使用 0.6。",
    "temperature": "温度",
    "rank_word": "排名",
    "top_word": "最可能的词元",
    "wrote_word": "自由生成写的是",
    "temperature_help": "softmax 之前把逻辑值除以 T：T < 1 让分布更尖锐（更接近贪心），"
                        "T > 1 让分布更平缓（更容易出现意外的词元）。T 必须大于 0。",
    "top_k": "Top-k（0 = 全部词元）",
    "top_k_help": "只在概率最高的 k 个词元中采样（它们的概率重新归一化）。0 表示保留整个词表。",
    "seed": "随机种子",
    "seed_help": "相同的种子给出相同的“随机”输出，这样全班看到的是同一个结果。",
    "shown_k": "每步显示的词元数",
    "shown_k_help": "每一步的条形图列出多少个最可能的下一个词元。",
    "bad_method": "未知的解码方法 {m!r}。",
    "bad_beam": "束宽必须是至少为 1 的整数（当前为 {v}）。",
    "bad_alpha": "长度惩罚 α 必须是不小于 0 的数（当前为 {v}）。",
    "bad_temperature": "温度必须大于 0（当前为 {v}）：T = 0 时 softmax 会除以零。"
                       "T → 0 的极限就是贪心解码，请改用贪心。",
    "bad_top_k": "Top-k 必须是不小于 0 的整数（当前为 {v}）。",
    "bad_shown_k": "每步显示的词元数必须在 1 到 {max} 之间（当前为 {v}）。",
    "output": "输出",
    "output_empty": "（什么也没有：模型一开始就写出了 </s>）",
    "output_caption": "{n} 个词元 · {how}",
    "ended_eos": "以 </s> 结束",
    "ended_len": "达到长度上限（{n} 个词元）仍未写出 </s>，因此停止",
    "logp": "log P(输出 | 源句) = {v:.4f}",
    "beam_score": "束搜索得分",
    "beam_formula": "最好的完整假设是得分最高的那个：它的对数概率除以长度惩罚（GNMT 的公式，与论文相同）：",
    "beam_numbers": "这里：log P = {raw:.4f}，|Y| = {length} 个词元（包括 </s>{eos_note}），"
                    "lp = ((5 + {length}) / 6)^{alpha} = {lp:.4f}，得分 = {raw:.4f} / {lp:.4f} = "
                    "**{score:.4f}**。",
    "beam_no_eos": "；这个假设达到了长度上限，没有 </s>",
    "beam_vs_greedy": "作为对比，贪心解码的结果：{out}（log P = {logp:.4f}）",
    "tree": "搜索树",
    "tree_intro": "每一步，束搜索把束中的 {beam} 个假设各自接上每一个词元，只看对数概率最高的 {k} 个"
                  "延伸：其中没有结束的最好 {beam} 个留在束中，其余的被剪掉；以 </s> 结束且排在前 "
                  "{beam} 名的成为完整假设。",
    "tree_window": "显示的步骤",
    "tree_window_help": "较长的搜索每次只画几步，这样数字看得清。每一段从上一段结束的地方开始。",
    "tree_window_fmt": "第 {a} 步到第 {b} 步",
    "tree_big": "放大搜索树（投影用）",
    "tree_big_help": "字和节点更大，每次显示 {big} 步而不是 {normal} 步。",
    "tree_zoom": "要看得更清楚，在树上拖出一个方框即可放大（双击恢复）。也可以全屏显示：把鼠标移到图表上，"
                 "点右上角出现的那排按钮中的最后一个（全屏）：整棵树会铺满屏幕，这时最好关掉放大。",
    "space": "（空格）",
    "space_note": "{space}是单独的片段“▁”：SentencePiece 用它表示空格，即一个新词从这里开始。"
                  "一个词如果没有以这个记号开头的整词片段，就写成“▁”再接上这个词的各个片段，"
                  "所以模型可能先选空格，再写字母。",
    "tree_title": "束搜索，逐步展开",
    "tree_x": "步骤（已写出的词元数）",
    "tree_root": "<s>",
    "tree_kept": "留在束中",
    "tree_pruned": "被剪掉（束已满）",
    "tree_finished": "完成（</s>）",
    "tree_eos_pruned": "</s> 排名太低",
    "tree_best": "输出（得分最高）",
    "tree_logp": "log P",
    "tree_score": "得分",
    "tree_token_logp": "log P（该词元）",
    "tree_rank": "排名",
    "tree_key": "每个节点：词元，然后是 log P，然后是得分 = log P / lp",
    "tree_caption": "候选按排名从上到下排列，最可能的在最上面。log P 是整个假设的对数概率（各词元"
                    "对数概率之和），得分是它除以长度惩罚 lp。红线是上面的输出，星号是它结束的"
                    "地方。把鼠标指向节点可以看到完整的假设。",
    "tree_col_hyp": "完整假设",
    "tree_col_length": "|Y|",
    "tree_col_logp": "log P",
    "tree_col_lp": "lp(|Y|)",
    "tree_col_score": "得分",
    "tree_col_chosen": "被选中",
    "tree_finished_caption": "所有以 </s> 结束的假设，得分最高的在前：返回的是得分最高的那个，"
                             "它不一定是 log P 最高的。",
    "sample_note": "采样设置：T = {temp}，top-k = {k}，种子 {seed}。换一个种子可以抽出另一个输出。",
    "steps": "逐步查看",
    "steps_help": "每一行是解码器的一步：它写出的词元、模型给这个词元的概率、它在所有词元中的排名，"
                  "以及紧随其后的候选和它们的概率（小于 0.01 的写成 3.2e-04 这样，即 0.00032）。",
    "col_step": "步",
    "col_token": "写出的词元",
    "col_p": "概率 p",
    "col_rank": "排名",
    "col_runners": "其他候选",
    "step": "步骤",
    "step_help": "逐步移动：解码器到目前为止写了什么，下一步又做了什么。",
    "no_steps": "没有可显示的步骤。",
    "prefix": "已写出的内容（解码器的输入）：{prefix} → 下一个：**{token}**",
    "topk_title": "第 {t} 步：最可能的 {k} 个下一个词元",
    "topk_x": "概率",
    "topk_caption": "红色条是实际写出的词元。这些条形的概率之和为 {s:.3f}；其余 {rest:,} 个词元分享剩下的概率。",
    "sample_title": "第 {t} 步：采样所用的分布（T = {temp}，top-k = {k}）",
    "sample_caption": "把逻辑值除以 T 并只保留前 k 个（top-k） 会改变概率：随机抽取用的是这个分布。",
    "layer": "解码器层",
    "layer_help": "显示这一步在哪一个解码器层中的注意力。",
    "cross_title": "第 {t} 步，第 {l} 层：对源句的交叉注意力",
    "self_title": "第 {t} 步，第 {l} 层：对之前内容的掩码自注意力",
    "cross_caption": "每一行是一个头：这一步在源句中看了哪里（每行之和为 1）。最后一行是各头的平均。",
    "self_caption": "解码器只能看 <s> 和它已经写出的词元；后面的位置被掩码（权重恰好为 0），因此不显示。",
    "keys_src": "源句词元",
    "keys_tgt": "之前的目标词元",
    "heads_axis": "头",
    "head_n": "头 {n}",
    "mean_heads": "各头平均",
    "tf": "教师强制与自由生成的对比",
    "tf_intro": "训练时解码器总是读入正确的前一个词元（教师强制）。当它自己写时（自由生成），"
                "一个错误的词元会改变其后的一切。给出正确的目标句，逐个位置比较。",
    "target": "正确的目标句",
    "target_help": "上面源句的参考输出。教师强制把它喂给解码器；自由生成就是上面的输出。",
    "target_empty": "请在上方输入正确的目标句，以比较教师强制和自由生成。",
    "tf_summary": "教师强制：在 {n} 个位置中有 {ok} 个位置的首选预测正确。自由生成：{free}。",
    "tf_same": "与目标句完全相同",
    "tf_diverges": "在位置 {p} 偏离目标句",
    "tf_fig_title": "每个位置上正确词元的概率（教师强制）",
    "tf_y": "p（正确词元）",
    "tf_ok_name": "首选 = 目标",
    "tf_bad_name": "首选 ≠ 目标",
    "tf_free_name": "自由生成不同",
    "tf_table_caption": "绿色：与目标一致；红色：不一致。自由生成第一次出现红色之后的各行，比较的是从"
                        "不同前缀出发的输出。",
    "col_position": "位置",
    "col_target": "目标",
    "col_tf_top": "教师强制：首选预测",
    "col_tf_top_p": "其概率",
    "col_p_target": "p（目标）",
    "col_tf_ok": "首选 = 目标",
    "col_free": "自由生成",
    "col_free_ok": "自由 = 目标",
    "col_diverged": "偏离之后",
    "free_method": "这里的自由生成就是上面的输出（{method}）。",
}
