"""The head atlas section of the Heads page (ui/atlas_view.py): every head labelled."""
EN = {
    "title": "Head atlas: every head, labelled by what it does",
    "intro": "Each head of every attention kind is measured on {n} sentences ({source}) for "
             "every behaviour below, and gets the most specific label whose score reaches 0.5; "
             "\"no clear role\" is a valid answer. Scores are shares between 0 and 1.",
    "source_task": "this task's held-out data",
    "source_probe": "the hand-written minimal pairs, plus the project's everyday and caption "
                    "sentences",
    "source_sentences": "the project's hand-written everyday and caption sentences",
    "run": "Label every head",
    "run_help": "Runs the model once per sentence and scores every head (a few seconds on a CPU).",
    "col_kind": "Kind",
    "col_layer": "Layer",
    "col_head": "Head",
    "col_label": "Label",
    "col_score": "Score",
    "col_scores": "All scores",
    "kind_encoder_self": "Encoder self",
    "kind_decoder_self": "Decoder self",
    "kind_cross": "Cross",
    "counts": "Labels: {counts}.",
    "meanings": "What the labels mean",
    "lab_previous": "previous token",
    "lab_next": "next token",
    "lab_diagonal": "same position (diagonal)",
    "lab_reversed": "reversed (anti-diagonal)",
    "lab_sink": "first token or </s> sink",
    "lab_broad": "broad (high entropy)",
    "lab_punctuation": "punctuation",
    "lab_monotonic": "monotonic alignment",
    "lab_pronoun": "pronoun → antecedent",
    "lab_none": "no clear role",
    "def_previous": "Share of the weight on the token just before the query.",
    "def_next": "Share of the weight on the token just after the query (encoder only: the "
                "decoder cannot see ahead).",
    "def_diagonal": "Self-attention: weight on the query's own position. Cross-attention: weight "
                    "on the source word at the same position as the word being written, what "
                    "copying needs.",
    "def_reversed": "Cross-attention: weight on the source word mirrored from the end, what "
                    "reversing needs.",
    "def_sink": "Weight on the first token or on </s>: a resting place for a head with nothing "
                "to do in this row.",
    "def_broad": "The row's entropy divided by the largest possible: 1 means the head spreads "
                 "its weight evenly. A broad head is \"no role\" said positively.",
    "def_punctuation": "Weight on punctuation keys (. , ? ! ...).",
    "def_monotonic": "Cross-attention whose strongest source word never moves backwards from one "
                     "output word to the next: an alignment that reads the source in order.",
    "def_pronoun": "Share of probe sentences in which the head's strongest word from the pronoun "
                   "is the antecedent (the Heads finder's score above).",
    "def_none": "No behaviour reaches 0.5: the head does something this list does not name, or "
                "several things at once.",
    "rule": "Order of preference when several reach 0.5: pronoun; then a position (diagonal, "
            "reversed, previous, next); then sink, punctuation, monotonic; then broad.",
}
ZH = {
    "title": "注意力头图谱：给每个头标出它在做什么",
    "intro": "每种注意力的每个头都在 {n} 个句子（{source}）上针对下面每种行为被测量，并得到分数达到 0.5 "
             "的最具体的标签；“没有明确作用”也是有效的答案。分数是 0 到 1 之间的比例。",
    "source_task": "该任务的留出数据",
    "source_probe": "手写的最小对立句对，以及本项目的日常句子和图片描述句子",
    "source_sentences": "本项目手写的日常句子和图片描述句子",
    "run": "给每个头贴标签",
    "run_help": "每个句子运行一次模型并给每个头打分（在 CPU 上需要几秒钟）。",
    "col_kind": "类型",
    "col_layer": "层",
    "col_head": "头",
    "col_label": "标签",
    "col_score": "分数",
    "col_scores": "全部分数",
    "kind_encoder_self": "编码器自注意力",
    "kind_decoder_self": "解码器自注意力",
    "kind_cross": "交叉注意力",
    "counts": "标签统计：{counts}。",
    "meanings": "标签的含义",
    "lab_previous": "前一个词元",
    "lab_next": "后一个词元",
    "lab_diagonal": "同一位置（对角线）",
    "lab_reversed": "反向（反对角线）",
    "lab_sink": "第一个词元或 </s> 汇聚点",
    "lab_broad": "分散（高熵）",
    "lab_punctuation": "标点",
    "lab_monotonic": "单调对齐",
    "lab_pronoun": "代词 → 先行词",
    "lab_none": "没有明确作用",
    "def_previous": "落在查询前一个词元上的权重比例。",
    "def_next": "落在查询后一个词元上的权重比例（只用于编码器：解码器看不到后面）。",
    "def_diagonal": "自注意力：落在查询自身位置上的权重。交叉注意力：落在与正在写出的词同一位置的源词上的权重，"
                    "复制任务需要这个。",
    "def_reversed": "交叉注意力：落在从末尾对称过来的源词上的权重，反转任务需要这个。",
    "def_sink": "落在第一个词元或 </s> 上的权重：这一行无事可做的头把权重放在这里休息。",
    "def_broad": "该行的熵除以最大可能的熵：1 表示这个头把权重平均分开。分散的头就是换个说法的“没有作用”。",
    "def_punctuation": "落在标点键（. , ? ! 等）上的权重。",
    "def_monotonic": "交叉注意力中，权重最大的源词从一个输出词到下一个输出词从不后退：按顺序读源句的对齐。",
    "def_pronoun": "在探针句子中，这个头从代词出发权重最大的词正是先行词的比例（即上面“注意力头”查找器的分数）。",
    "def_none": "没有任何行为达到 0.5：这个头做的事不在这个列表里，或者同时做几件事。",
    "rule": "几种行为都达到 0.5 时的优先顺序：代词；然后是位置（对角线、反向、前一个、后一个）；"
            "然后是汇聚点、标点、单调对齐；最后是分散。",
}
