"""What a model knows: the domain line, the marked words, the offered sentences."""
EN = {
    "domain": "This model learned from {domain}.",
    "marked": "This model learned from {domain}. The marked words are ones it never saw in "
              "training or cuts into many pieces; expect its output and its attention on them "
              "to mean little: {words}",
    "never_seen": "never seen",
    "pieces": "{n} pieces",
    "offer": "Sentences this model handles",
    "offer_help": "Short sentences from this model's own domain that it translates well "
                  "(measured when the checkpoint was made).",
    "coverage": "{one:.0%} of the words it trained on are single pieces of its {vocab}-piece "
                "vocabulary.",
}
ZH = {
    "domain": "这个模型的训练数据是{domain}。",
    "marked": "这个模型的训练数据是{domain}。标出的词是它在训练中从未见过、或被切成很多片段的词；"
              "对这些词，它的输出和注意力都没有多少意义：{words}",
    "never_seen": "从未见过",
    "pieces": "{n} 个片段",
    "offer": "这个模型能处理的句子",
    "offer_help": "来自这个模型自身领域、它翻译得好的短句（在生成检查点时测得）。",
    "coverage": "它训练时见到的词中有 {one:.0%} 是其 {vocab} 个片段的词表中的单个片段。",
}
