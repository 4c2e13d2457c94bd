"""The core's notes (transformer/notes.py), one string per note code and language."""
EN = {
    "source_cut": "The sentence is longer than this model's limit: only the first {n} tokens "
                  "(the last one being </s>) are used.",
    "target_cut": "The target is longer than this model's limit: it was cut to {n} tokens.",
}

ZH = {
    "source_cut": "句子超过了该模型的长度上限：只使用前 {n} 个词元（最后一个是 </s>）。",
    "target_cut": "目标句超过了该模型的长度上限：已截断为 {n} 个词元。",
}
