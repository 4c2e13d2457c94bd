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
    "script_cjk": "This model reads {lang} only. Chinese, Japanese or Korean text is cut into "
                  "pieces it never learned, so its output and attention below mean nothing. "
                  "Type an English sentence (the sentences offered above work well).",
    "script_other": "This model reads {lang} only, and most of this text is in another script. "
                    "Its output and attention below mean little. Type a sentence in {lang}.",
    "lang_en": "English",
    "lang_de": "German",
    "lang_fr": "French",
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
    "script_cjk": "这个模型只读{lang}。中文、日文或韩文会被切成它从未学过的片段，所以下面的输出和注意力"
                  "没有意义。请输入一个英文句子（上面提供的句子效果很好）。",
    "script_other": "这个模型只读{lang}，而这段文字大多是其他文字系统。下面的输出和注意力意义不大。"
                    "请输入{lang}句子。",
    "lang_en": "英语",
    "lang_de": "德语",
    "lang_fr": "法语",
}
