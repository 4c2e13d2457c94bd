EN = {
    "title": "Two sentences, one word apart",
    "intro": "A minimal pair: sentence B is sentence A with one word changed. Change \"tired\" to "
             "\"wide\" and \"it\" should mean the street, not the animal. Does the model's head "
             "notice? Both sentences go through the same head, and the row of the pronoun is "
             "drawn side by side: where the head looks in each, and whether its strongest word "
             "moved.",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to compare two sentences.",
    "text_a": "Sentence A",
    "text_a_help": "The first sentence the encoder reads.",
    "text_b": "Sentence B (A with one word changed)",
    "text_b_help": "The same sentence with one word changed: the word that should change what "
                   "the pronoun refers to.",
    "empty": "Type a sentence into both boxes above to compare them (a box is empty).",
    "bad_text": "This text cannot be used: {reason}",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "pair": "The pair",
    "which_a": "A",
    "which_b": "B",
    "changed_one": "Changed word: {a} → {b}.",
    "changed_same": "The two sentences are the same: change one word in sentence B to make a "
                    "minimal pair.",
    "changed_many": "These sentences differ in more than one word, or in length ({a} → {b}). A "
                    "minimal pair changes exactly one word, so that any move of the head can be "
                    "laid on that word; the comparison below is shown anyway.",
    "changed_none": "(nothing)",
    "translations": "Both translations",
    "output_greedy": "What the model writes for each (greedy decoding):",
    "output_empty": "(nothing: the model ended at once)",
    "head_title": "One head, both sentences",
    "kind": "Attention kind",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Masked decoder self",
    "kind_cross": "Cross (decoder → encoder)",
    "kind_help": "Encoder self-attention: the row of the English pronoun (\"it\", \"its\") over "
                 "the source words. The decoder kinds: the row of the German word written just "
                 "before the pronoun (er, sie, es), where the model decides which pronoun to "
                 "write, over the German words so far (masked decoder self) or the source words "
                 "(cross).",
    "layer": "Layer",
    "head": "Head",
    "hide": "Hide special tokens",
    "hide_help": "Removes <s>, </s>, <pad> and <unk> from the keys and divides the row by what is "
                 "left of its sum, so it sums to 1 again.",
    "hide_on": "Special tokens hidden: each row is renormalised over the remaining words, so "
               "these are not the model's raw weights.",
    "featured": "This model's featured head is {head} ({kind}, layer {l}, head {h}, counted from "
                "0): the pickers start on it.",
    "no_featured": "This model's card features no head: the pickers start on encoder "
                   "self-attention, last layer, head 0. Try any other.",
    "row_enc": "The row of the pronoun \"{word}\": how much of each source word it takes.",
    "row_dec": "The row of \"{word}\", the German word just before \"{pronoun}\": the decoder "
               "input at this position writes the pronoun.",
    "chart_title": "Sentence {which} · row of \"{word}\"",
    "weight_axis": "attention weight",
    "strongest": "Strongest word: {word} (weight {w:.2f})",
    "verdict_moves": "The head moves: {a} → {b}",
    "verdict_same": "The head does not move: both on {a}",
    "verdict_changed": "The head follows the changed word: {a} → {b}",
    "verdict_help": "The strongest word of each row, matched through the word-level diff of the "
                    "two rows' key words (the same word at a shifted position is the same word).",
    "legend": "Bars: the row's weights over the key words, in sentence order (over all keys, a "
              "row sums to 1). Dark bar and bold label: the strongest word. Orange bar and ◆: a "
              "word that differs between the two sentences.",
    "dec_keys": "Masked decoder self-attention: the row sees only the German words up to itself "
                "(the later ones are masked), so only those are drawn. They come from each "
                "sentence's own translation.",
    "no_pronoun_enc": "Sentence {which} has no English pronoun (\"it\" or \"its\"), so there is "
                      "no pronoun row to draw. Type a sentence with \"it\" in it.",
    "no_pronoun_dec": "The model's translation of sentence {which} has no German pronoun (er, "
                      "sie or es), so this head has no pronoun row to draw. Choose encoder "
                      "self-attention, or try another sentence.",
    "no_verdict": "The head's move is judged only when both sentences have a pronoun row.",
}

ZH = {
    "title": "两个句子，只差一个词",
    "intro": "最小对立句对：句子 B 就是把句子 A 改了一个词。把 \"tired\" 换成 \"wide\"，\"it\" "
             "指的就应当是街道而不是动物。模型的注意力头会察觉吗？两个句子经过同一个头，"
             "代词那一行并排画出：它在每个句子里看向哪里，它最强的那个词有没有移动。",
    "no_checkpoint": "尚未选择模型。请在侧边栏选择或上传一个检查点（或在“训练”页训练一个），"
                     "即可比较两个句子。",
    "text_a": "句子 A",
    "text_a_help": "编码器读取的第一个句子。",
    "text_b": "句子 B（把 A 改一个词）",
    "text_b_help": "同一个句子，只改一个词：这个词应当改变代词所指的对象。",
    "empty": "请在上面两个输入框里都输入句子再比较（有一个输入框是空的）。",
    "bad_text": "无法使用这段文本：{reason}",
    "load_failed": "所选检查点无法使用：{reason}",
    "pair": "这一对句子",
    "which_a": "A",
    "which_b": "B",
    "changed_one": "改动的词：{a} → {b}。",
    "changed_same": "两个句子完全相同：请在句子 B 中改一个词，构成最小对立句对。",
    "changed_many": "这两个句子相差不止一个词，或长度不同（{a} → {b}）。最小对立句对只改一个词，"
                    "这样注意力头的任何移动都能归因于这个词；下面的比较仍然照常显示。",
    "changed_none": "（无）",
    "translations": "两个译文",
    "output_greedy": "模型为每个句子写出的结果（贪心解码）：",
    "output_empty": "（空：模型立即结束了）",
    "head_title": "同一个头，两个句子",
    "kind": "注意力类型",
    "kind_encoder_self": "编码器自注意力",
    "kind_decoder_self": "带掩码的解码器自注意力",
    "kind_cross": "交叉注意力（解码器 → 编码器）",
    "kind_help": "编码器自注意力：英语代词（\"it\"、\"its\"）那一行，对源句各词的权重。两种解码器"
                 "注意力：紧挨在德语代词（er、sie、es）之前写出的那个德语词的行——模型正是在这里"
                 "决定写哪个代词——对已写出的德语词（带掩码的解码器自注意力）或对源句各词（交叉"
                 "注意力）的权重。",
    "layer": "层",
    "head": "头",
    "hide": "隐藏特殊词元",
    "hide_help": "从键中去掉 <s>、</s>、<pad> 和 <unk>，并把这一行除以剩余部分之和，使其重新等于 1。",
    "hide_on": "特殊词元已隐藏：每一行都在剩余的词上重新归一化，因此这些不是模型的原始权重。",
    "featured": "该模型的重点注意力头是 {head}（{kind}，第 {l} 层，头 {h}，从 0 开始计数）："
                "选择框默认停在它上面。",
    "no_featured": "该模型的说明卡没有指定重点注意力头：选择框默认停在编码器自注意力、最后一层、"
                   "头 0。也可以换成任何其他头。",
    "row_enc": "代词 \"{word}\" 这一行：它从每个源句词中取多少。",
    "row_dec": "\"{word}\" 这一行，即紧挨在 \"{pronoun}\" 之前的德语词：解码器在这个位置的输入"
               "写出了代词。",
    "chart_title": "句子 {which} · \"{word}\" 这一行",
    "weight_axis": "注意力权重",
    "strongest": "最强的词：{word}（权重 {w:.2f}）",
    "verdict_moves": "注意力头移动了：{a} → {b}",
    "verdict_same": "注意力头没有移动：两句都在 {a} 上",
    "verdict_changed": "注意力头跟着改动的词走：{a} → {b}",
    "verdict_help": "比较的是每一行最强的词，并按两行键词的逐词差异对齐（同一个词即使位置移动，"
                    "也算同一个词）。",
    "legend": "条形：这一行对各个键词的权重，按句中顺序排列（对全部键求和，一行之和为 1）。"
              "深色条形和加粗标签：最强的词。橙色条形和 ◆：两个句子之间不同的词。",
    "dec_keys": "带掩码的解码器自注意力：这一行只能看到它自己及之前的德语词（之后的被掩码遮住），"
                "因此只画出这些词。它们来自各句自己的译文。",
    "no_pronoun_enc": "句子 {which} 中没有英语代词（\"it\" 或 \"its\"），因此没有代词行可画。"
                      "请输入一个含有 \"it\" 的句子。",
    "no_pronoun_dec": "模型对句子 {which} 的译文中没有德语代词（er、sie 或 es），因此这个头没有"
                      "代词行可画。请选择编码器自注意力，或换一个句子。",
    "no_verdict": "只有两个句子都有代词行时，才判断注意力头是否移动。",
}
