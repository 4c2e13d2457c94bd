"""The core's notes (transformer/core/notes.py), one string per note code and language."""
EN = {
    "source_cut": "The sentence is longer than this model's limit: only the first {n} tokens "
                  "(the last one being </s>) are used.",
    "target_cut": "The target is longer than this model's limit: it was cut to {n} tokens.",
    "source_cut_words": "The sentence is longer than this model reads at once ({n} tokens, the "
                        "last one being </s>): only its first {words} of {total} words are used. "
                        "Shorten it to see all of it.",
    # the CLI's wording (python -m transformer.inspect prints these)
    "cli_source_cut": "source truncated to {n} tokens (the model's limit)",
    "cli_target_cut": "target truncated to {n} tokens",
    "cli_source_cut_words": "source truncated to {n} tokens (the model's limit): the first {words} of "
                            "{total} words are read",
}

ZH = {
    "source_cut": "句子超过了该模型的长度上限：只使用前 {n} 个词元（最后一个是 </s>）。",
    "target_cut": "目标句超过了该模型的长度上限：已截断为 {n} 个词元。",
    "source_cut_words": "句子超过了该模型一次能读的长度（{n} 个词元，最后一个是 </s>）：只使用了全部 {total} "
                        "个词中的前 {words} 个。缩短句子才能看到全部。",
    "cli_source_cut": "源句截断为 {n} 个词元（模型的上限）",
    "cli_target_cut": "目标句截断为 {n} 个词元",
    "cli_source_cut_words": "源句截断为 {n} 个词元（模型的上限）：读取全部 {total} 个词中的前 {words} 个",
}
