"""The Attention page's rollout section (ui/flow_view.py)."""
EN = {
    "title": "Where each output word comes from: attention rollout",
    "intro": "One picture for the whole sentence: each German word (row) traced back through "
             "every layer of all three attention kinds to the English words (columns). Hover a "
             "cell for its share.",
    "honest": "Rollout is an approximation: it multiplies head-averaged attention through the "
              "layers and the residual connections, and ignores the values, the feed-forward "
              "layers and LayerNorm, so below it stands beside a causal test.",
    "heat_title": "Rollout: German word → English words (each row sums to 1)",
    "x": "English (source) words",
    "y": "German (output) words",
    "check_title": "For \"{word}\": rollout against removing each English word",
    "check_help": "Purple: rollout's share of each English word for the German word \"{word}\". "
                  "Orange: how much the model's probability of writing \"{word}\" drops when that "
                  "English word is removed (its pieces made padding, so nothing attends to them); "
                  "a negative bar means removing it made \"{word}\" more likely.",
    "check_toggle": "Test it: remove each English word",
    "check_toggle_help": "Runs the model once more for every English word, with that word removed, "
                         "and sets the drop in one German word's probability beside rollout's share.",
    "share": "rollout share",
    "drop": "drop in probability when removed",
    "pick": "German word to test",
    "agree": "Rollout's strongest English word is \"{r}\"; removing \"{o}\" hurts \"{word}\" most"
             " ({p:.2f} → {q:.2f}).",
    "no_output": "The model wrote nothing to trace.",
}
ZH = {
    "title": "每个输出词从哪里来：注意力展开",
    "intro": "整句话一张图：每个德语词（行）穿过三种注意力的每一层，追溯到各个英语词（列）。"
             "把鼠标移到格子上可看到份额。",
    "honest": "注意力展开只是近似：它把各头平均后的注意力连同残差连接逐层相乘，忽略了值向量、"
              "前馈层和层归一化，所以下面把它和一个因果检验放在一起。",
    "heat_title": "注意力展开：德语词 → 英语词（每行之和为 1）",
    "x": "英语（源）词",
    "y": "德语（输出）词",
    "check_title": "对 \"{word}\"：注意力展开与逐个移除英语词的对比",
    "check_help": "紫色：注意力展开给德语词 \"{word}\" 分配到各英语词的份额。橙色：移除该英语词（把它的片段"
                  "变成填充，使任何注意力都到不了它）后，模型写出 \"{word}\" 的概率下降多少；负值表示移除后 "
                  "\"{word}\" 反而更可能出现。",
    "check_toggle": "检验一下：逐个移除英语词",
    "check_toggle_help": "对每个英语词都把它移除后再运行一次模型，把某个德语词概率的下降与注意力展开的份额放在一起比较。",
    "share": "展开份额",
    "drop": "移除后的概率下降",
    "pick": "要检验的德语词",
    "agree": "注意力展开份额最大的英语词是 \"{r}\"；移除 \"{o}\" 对 \"{word}\" 的影响最大"
             "（{p:.2f} → {q:.2f}）。",
    "no_output": "模型没有写出可追溯的内容。",
}
