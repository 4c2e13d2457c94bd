EN = {
    "title": "Attention Lab",
    "intro": "A real encoder-decoder Transformer, small enough to train on a laptop, with every "
             "number it computes on show. Follow the stops below in a lesson, or jump to any "
             "page from the sidebar.",
    "stop": "Stop {n}",
    "try": "Try it with: {sentence} (the link fills it in)",
    "try_example": "Try the example {example} (the link opens it)",
    "open": "Open {page}",
    "pe_title": "Where is each word? Positional encoding",
    "pe_text": "Attention by itself ignores word order, so each position gets its own pattern of "
               "sine and cosine waves added to the word's vector. Look at how slow and fast waves "
               "combine, and how the similarity of two positions depends only on their distance.",
    "att_title": "Who looks at whom? Attention",
    "att_text": "Every word asks a question (query), every word offers a label (key) and a "
                "content (value). The weights say how much of each value a word takes. Start with "
                "the sentence from the best-known Transformer blog post: the page opens on the "
                "pronoun \"it\", on the model's pronoun head. Does \"it\" look at the animal? "
                "Then change one word, \"tired\" to \"wide\", and \"it\" becomes the street "
                "(German: es becomes sie). See which words it looks at, one head at a time, then "
                "every layer and head at once.",
    "pair_try": "Then compare it with \"{sentence}\" side by side:",
    "masks_title": "No peeking: masks",
    "masks_text": "Padding must not be attended to, and while translating the decoder must not "
                  "see the words it has not written yet. Masks set those scores to minus "
                  "infinity before the softmax, so their weight is exactly zero.",
    "step_title": "One attention step, by the numbers",
    "step_text": "Pick one word in one head and follow it: its query, each key, the dot "
                 "products, the scaling by √d_k, the softmax, the weighted sum. Every number "
                 "comes from the real model.",
    "heads_title": "What do the heads do?",
    "heads_text": "Some heads look at the previous word, some align source and target, and one "
                  "head of the default model finds what \"it\" refers to. Score every head on "
                  "hand-written sentences, then switch heads off to test the claim: in the sentence "
                  "below, \"it\" is the cat, and the German must say sie.",
    "worked_title": "The notes' worked examples, checked",
    "worked_text": "The hand-worked examples from the study notes, recomputed. Where the notes "
                   "slipped, the page shows the right number and which step went wrong.",
}
ZH = {
    "title": "注意力实验室",
    "intro": "一个真实的编码器-解码器 Transformer，小到可以在笔记本电脑上训练，它计算的每一个数字"
             "都可以看到。上课时按下面的顺序走一遍，或从侧边栏直接打开任意页面。",
    "stop": "第 {n} 站",
    "try": "试试这个句子：{sentence}（点击链接会自动填入）",
    "try_example": "试试例题 {example}（点击链接会直接打开）",
    "open": "打开“{page}”",
    "pe_title": "每个词在哪里？位置编码",
    "pe_text": "注意力本身不关心词序，所以每个位置都加上一组独特的正弦和余弦波。看看慢波和快波如何组合，"
               "以及两个位置的相似度为什么只取决于它们的距离。",
    "att_title": "谁在看谁？注意力",
    "att_text": "每个词提出一个问题（查询 Q），每个词提供一个标签（键 K）和内容（值 V）。权重表示"
                "一个词从每个值中取多少。先用最有名的 Transformer 博客文章里的句子：页面打开时选中代词 "
                "\"it\"，显示模型的代词注意力头。\"it\" 看的是动物吗？再改一个词，把 \"tired\" 改成 "
                "\"wide\"，\"it\" 就变成了街道（德语从 es 变成 sie）。一次看一个头，看它在看哪些词，"
                "再一次看所有层和头。",
    "pair_try": "然后把它和 \"{sentence}\" 并排比较：",
    "masks_title": "不许偷看：掩码",
    "masks_text": "填充位置不能被关注；翻译时解码器也不能看到还没写出的词。掩码在 softmax 之前把"
                  "这些分数设为负无穷，因此它们的权重恰好为零。",
    "step_title": "一步注意力，逐个数字",
    "step_text": "选一个头里的一个词，跟着它走：它的查询、每个键、点积、除以 √d_k、softmax、"
                 "加权求和。每个数字都来自真实的模型。",
    "heads_title": "注意力头在做什么？",
    "heads_text": "有的头看前一个词，有的头对齐源句和目标句；默认模型中有一个头能找到 \"it\" "
                  "指代什么。在手写的句子上给每个头打分，再关掉某些头来检验这个说法：下面这句话里 \"it\" "
                  "指的是猫，德语必须写 sie。",
    "worked_title": "笔记中的手算例题，逐一核对",
    "worked_text": "学习笔记里的手算例题，重新计算一遍。笔记算错的地方，页面会给出正确的数字，并指出"
                   "是哪一步出了错。",
}
