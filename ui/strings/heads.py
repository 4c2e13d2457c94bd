EN = {
    "title": "Heads: what does each attention head do?",
    "intro": "Every layer has several heads, and each learns its own way of looking. Choose a "
             "relation, and every head of every attention kind is scored on it: the share of "
             "queries whose strongest weight lands where the relation says. Then open a head on "
             "the Attention page, or switch heads off and see whether the output changes: a causal "
             "test, not only a picture.",
    "no_checkpoint": "No model is selected. Pick or upload a checkpoint in the sidebar (or train "
                     "one on the Train page) to score its heads.",
    "load_failed": "The selected checkpoint could not be used: {reason}",
    "relation": "Relation",
    "relation_help": "What a head should do to score: each query's strongest weight must fall "
                     "on the key this relation names.",
    "rel_anaphora": "Anaphora: pronoun → antecedent",
    "rel_previous_token": "Previous token",
    "rel_self": "The token itself",
    "rel_same_token": "Same token elsewhere",
    "rel_first_token": "First token",
    "rel_eos_sink": "End-of-sentence sink (</s>)",
    "rel_diagonal": "Diagonal alignment (copy)",
    "rel_anti_diagonal": "Anti-diagonal alignment (reverse)",
    "desc_anaphora": "For each probe sentence, the attention from the pronoun (\"it\") is taken "
                     "word by word (pieces of a word added up); the pronoun itself and special "
                     "tokens are left out. The head scores when its strongest word belongs to the "
                     "antecedent's noun phrase: the noun OR the article right before it (\"the "
                     "dog\", \"den Becher\"). The article counts because in German it carries the "
                     "gender (der / die / das) that decides er / sie / es: a head that reads the "
                     "article has found what the pronoun needs. Below, the best head's hits are "
                     "split into article and noun. Encoder self-attention: \"it\" → the English "
                     "phrase; cross-attention: the step that writes er/sie/es → the English phrase; "
                     "decoder self-attention: that step → the German phrase.",
    "desc_previous_token": "Query i scores when its strongest key is position i − 1.",
    "desc_self": "Query i scores when its strongest key is position i itself.",
    "desc_same_token": "A query scores when its strongest key is another occurrence of the same "
                       "token (only queries whose token occurs twice count).",
    "desc_first_token": "A query scores when its strongest key is the first position (<s> in the "
                        "decoder): a common resting place for heads with nothing to do.",
    "desc_eos_sink": "A query scores when its strongest key is the final </s> of the source: "
                     "another resting place (a 'sink').",
    "desc_diagonal": "Cross-attention of a copy model should read source word i while writing "
                     "output word i: query i scores when its strongest key is position i.",
    "desc_anti_diagonal": "A reverse model writes the source backwards: the query writing output "
                          "word i scores when its strongest key is source word S − 2 − i (</s> "
                          "is last).",
    "probe": "Probe sentences",
    "probe_help": "Which sentences the heads are scored on.",
    "probe_heldout": "Generated, held out (noun pairs never seen in training)",
    "probe_natural": "Hand-written caption sentences (186, with German references)",
    "probe_natural_pairs": "Hand-written minimal pairs (100 pairs: one word decides what \"it\" "
                           "is; with German references)",
    "probe_upload": "My own probe file (JSONL)",
    "n": "Number of probe sentences",
    "n_help": "More sentences give steadier scores and take longer.",
    "upload": "Probe file (JSON lines)",
    "upload_help": "One JSON object per line: {{\"text\": \"The dog saw the cup because it was "
                   "hungry .\", \"pronoun\": 6, \"antecedent\": 1}} with word positions counted "
                   "from 0 over the space-separated words; optional \"candidates\" (noun positions, "
                   "for the baselines) and \"target\" (a reference translation). At most {kb:,} kB "
                   "and {lines:,} lines.",
    "upload_wait": "Upload a probe file to score the heads on it.",
    "upload_bad": "This probe file cannot be used: {reason}",
    "upload_ok": "{n} probe sentences read from {name}.",
    "sentences_source": "Scored on {n} held-out examples of the model's task ({task}), with "
                        "their reference outputs as the decoder's input.",
    "sentences": "Sentences (one per line)",
    "sentences_help": "The heads are scored on these sentences; the decoder reads the model's "
                      "own greedy output for each (at most {max} lines).",
    "sentences_empty": "Type at least one sentence above.",
    "too_many_lines": "Only the first {max} lines are used.",
    "no_fit": "No query in these sentences fits this relation for {kind}, so it is not scored.",
    "scoring": "Scoring every head…",
    "grid_title": "{kind}",
    "layer_n": "layer {n}",
    "head_n": "head {n}",
    "value_acc": "accuracy",
    "value_share": "share of queries",
    "mean_weight": "mean weight on the antecedent (article + noun)",
    "best_split": "Where its strongest word lands, over {n} probe sentences: on the article "
                  "{article} times ({article_pct:.0%}), on the noun {noun} times "
                  "({noun_pct:.0%}), elsewhere {other} times.",
    "kind_encoder_self": "Encoder self-attention",
    "kind_decoder_self": "Masked decoder self-attention",
    "kind_cross": "Cross-attention",
    "grid_caption": "Rows are layers, columns heads (both counted from 0); each cell is the share "
                    "of {n} items the head gets right. The red box is the best head of all kinds.",
    "only_encoder": "These probe sentences have no target-side positions, so only encoder "
                    "self-attention is scored.",
    "best": "Best head: **{head}**, {kind}, layer {l}, head {h}, with {v:.0%} of queries on the "
            "relation.",
    "best_anaphora": "Best head: **{head}**, {kind}, layer {l}, head {h}: it puts its strongest "
                     "weight on the antecedent (its article or its noun) for {v:.0%} of the probe "
                     "sentences (mean weight {w:.2f}).",
    "baselines": "Baselines (no model)",
    "baselines_help": "What a rule without attention would score: guess the noun nearest before "
                      "the pronoun, the first noun of the sentence, a random one of its nouns, or a "
                      "random word (any word of the antecedent's noun phrase counts, as for a head). "
                      "A head that beats them all does more than a position rule.",
    "nearest_noun": "nearest noun",
    "first_noun": "first noun",
    "random_noun": "random noun",
    "random_word": "random word",
    "no_baselines": "These probe sentences list no candidate nouns, so only the random-word baseline "
                    "can be computed.",
    "open": "Open one head on the Attention page",
    "open_help": "Choose a head (the best one is preselected) and a sentence: the link shows "
                 "that head's weights on it.",
    "kind": "Attention kind",
    "layer": "Layer",
    "head": "Head",
    "probe_sentence": "Sentence",
    "probe_sentence_help": "The sentence the Attention page opens with.",
    "open_link": "Open {head} on the Attention page",
    "no_attention_page": "The Attention page is not part of this build.",
    "ablation": "Ablation: switch heads off",
    "ablation_intro": "A head's output is set to zero (the others are untouched), then the model "
                      "translates again. If the output or the pronoun accuracy changes, those heads "
                      "were needed: this tests the claim the scores above make.",
    "ablate": "Heads to switch off",
    "ablate_help": "Named like 'cross L1 H2': kind (enc = encoder self, dec = masked decoder self, "
                   "cross = cross-attention), layer, head, counted from 0.",
    "ablate_placeholder": "Choose heads",
    "ablate_best": "Add the best head",
    "ablate_cross": "Add all cross-attention heads",
    "ablate_clear": "Clear",
    "ablation_sentence": "Probe sentence",
    "ablation_sentence_help": "Translated with and without the chosen heads.",
    "without": "All heads on",
    "with": "Chosen heads off",
    "output_same": "The output did not change.",
    "output_changed": "The output changed.",
    "no_ablation": "Choose heads above to switch them off.",
    "acc_title": "Pronoun accuracy on the probe",
    "acc_probe_file": "Measured on the {n} hand-written caption sentences, as the model card measures it.",
    "acc_probe_pairs": "Measured on the {n} hand-written minimal-pair sentences, as the model card measures it.",
    "acc_n": "Probe sentences for the accuracy",
    "acc_n_help": "Each is translated twice (greedy decoding), so more sentences take longer.",
    "acc_help": "The share of probe sentences whose greedy translation has the right German "
                "pronoun. Measured for models of a pronoun task only.",
    "acc_help_anaphora": "The share of held-out sentences of the anaphora task (generated like the "
                         "training data, but never trained on) whose greedy translation has the "
                         "reference's German pronoun (er / sie / es) at the reference's word "
                         "position.",
    "acc_help_probe": "The share of the hand-written caption sentences (none generated, none "
                      "trained on) whose greedy translation shows the gender of the reference's "
                      "pronoun: some pronoun of that gender anywhere in the sentence (er / ihn, "
                      "sie, es, or a possessive sein- / ihr-: possessives count too), and no "
                      "pronoun of a gender the reference lacks. The word position is not checked.",
    "acc_without": "all heads on",
    "acc_with": "chosen heads off",
    "acc_delta": "{d:+.0f} percentage points",
    "acc_not_anaphora": "The pronoun accuracy is measured only for models trained on a pronoun "
                        "task ({tasks}), whose probe sentences come with the right German "
                        "pronoun; this one was trained on {task}. The output above still shows "
                        "the effect.",
    "flipped": "Sentences whose pronoun changed ({n})",
    "choices_title": "Sentence by sentence: where {head} looks ({miss} of {n} miss the antecedent)",
    "choices_help": "For each probe sentence, the word this head weighs most from the pronoun "
                    "(in [brackets]), misses first. Select a row to put that sentence in the box "
                    "below and open it on the Attention page.",
    "choices_help_target": "Decoder self-attention is read on the German reference, as in the "
                           "scores above (the model is fed the reference word by word), from the "
                           "position that writes the pronoun (in [brackets]); misses first. "
                           "Select a row to put its English sentence in the box below and open "
                           "it on the Attention page.",
    "col_hit": "found",
    "col_sentence": "sentence",
    "col_antecedent": "antecedent",
    "col_top": "strongest weight on",
    "col_src": "source",
    "col_before": "all heads on",
    "col_after": "chosen heads off",
    "empty_sentence": "Type a sentence to translate.",
    "bad_text": "This text cannot be used: {reason}",
    "too_long": "The text is {n:,} characters long; this page takes at most {max:,}. Shorten it.",
}

ZH = {
    "title": "注意力头：每个头在做什么？",
    "intro": "每一层有多个头，每个头学会了自己的“看法”。选一种关系，所有注意力类型的每个头都会按它"
             "打分：查询的最大权重落在该关系所指位置上的比例。然后可以在“注意力”页打开某个头，"
             "或者关掉一些头，看输出是否改变：这是因果检验，而不只是一张图。",
    "no_checkpoint": "尚未选择模型。请在侧边栏选择或上传一个检查点（或在“训练”页训练一个），"
                     "然后给它的头打分。",
    "load_failed": "无法使用所选检查点：{reason}",
    "relation": "关系",
    "relation_help": "头要得分需要做到的事：每个查询的最大权重必须落在这个关系指定的键上。",
    "rel_anaphora": "指代：代词 → 先行词",
    "rel_previous_token": "前一个词元",
    "rel_self": "词元自身",
    "rel_same_token": "别处的相同词元",
    "rel_first_token": "第一个词元",
    "rel_eos_sink": "句末汇点（</s>）",
    "rel_diagonal": "对角线对齐（复制）",
    "rel_anti_diagonal": "反对角线对齐（倒序）",
    "desc_anaphora": "对每个探针句，取代词（\"it\"）发出的注意力，按词计算（一个词的各个子词相加），"
                     "代词本身和特殊词元不计。如果头的最大权重落在先行词的名词短语上，也就是名词"
                     "或紧挨在它前面的冠词上（\"the dog\"、\"den Becher\"），就算命中。冠词也算，"
                     "因为在德语里决定 er / sie / es 的语法性别（der / die / das）正标在冠词上："
                     "读到冠词的头已经找到了代词需要的信息。下面把最好的头的命中分成冠词和名词两类。"
                     "编码器自注意力：\"it\" → 英文短语；交叉注意力：写出 er/sie/es 的那一步 → "
                     "英文短语；解码器自注意力：那一步 → 德文短语。",
    "desc_previous_token": "查询 i 的最大权重落在位置 i − 1 上即得分。",
    "desc_self": "查询 i 的最大权重落在位置 i 本身即得分。",
    "desc_same_token": "查询的最大权重落在同一词元的另一次出现上即得分（只统计词元出现两次的查询）。",
    "desc_first_token": "查询的最大权重落在第一个位置（解码器中是 <s>）上即得分：无事可做的头常常停在这里。",
    "desc_eos_sink": "查询的最大权重落在源句最后的 </s> 上即得分：另一个“停靠点”（汇点）。",
    "desc_diagonal": "复制模型的交叉注意力在写第 i 个输出词时应该读源句第 i 个词：查询 i 的最大权重落在"
                     "位置 i 上即得分。",
    "desc_anti_diagonal": "倒序模型把源句倒过来写：写第 i 个输出词的查询，最大权重落在源句第 S − 2 − i 个"
                          "词上即得分（</s> 在最后）。",
    "probe": "探针句",
    "probe_help": "用哪些句子给头打分。",
    "probe_heldout": "生成的留出句（训练中从未出现过的名词组合）",
    "probe_natural": "手写的图片描述句（186 句，附德语参考译文）",
    "probe_natural_pairs": "手写的最小对立句对（100 对：一个词决定 \"it\" 指什么；附德语参考译文）",
    "probe_upload": "我自己的探针文件（JSONL）",
    "n": "探针句数量",
    "n_help": "句子越多，得分越稳定，但耗时越长。",
    "upload": "探针文件（JSON lines）",
    "upload_help": "每行一个 JSON 对象：{{\"text\": \"The dog saw the book because it was hungry .\", "
                   "\"pronoun\": 6, \"antecedent\": 1}}，词的位置按空格分词、从 0 开始计数；可选 "
                   "\"candidates\"（名词位置，用于基线）和 \"target\"（参考译文）。最多 {kb:,} kB、"
                   "{lines:,} 行。",
    "upload_wait": "请上传一个探针文件，用它给头打分。",
    "upload_bad": "无法使用这个探针文件：{reason}",
    "upload_ok": "从 {name} 读取了 {n} 个探针句。",
    "sentences_source": "在模型任务（{task}）的 {n} 个留出样例上打分，解码器的输入是它们的参考输出。",
    "sentences": "句子（每行一句）",
    "sentences_help": "用这些句子给头打分；解码器读入模型对每句的贪心输出（最多 {max} 行）。",
    "sentences_empty": "请在上方至少输入一个句子。",
    "too_many_lines": "只使用前 {max} 行。",
    "no_fit": "这些句子中没有适合该关系的查询（{kind}），因此不打分。",
    "scoring": "正在给每个头打分…",
    "grid_title": "{kind}",
    "layer_n": "第 {n} 层",
    "head_n": "头 {n}",
    "value_acc": "准确率",
    "value_share": "查询比例",
    "mean_weight": "先行词（冠词 + 名词）上的平均权重",
    "best_split": "在 {n} 个探针句中，它的最大权重落在冠词上 {article} 次（{article_pct:.0%}），"
                  "落在名词上 {noun} 次（{noun_pct:.0%}），落在别处 {other} 次。",
    "kind_encoder_self": "编码器自注意力",
    "kind_decoder_self": "掩码解码器自注意力",
    "kind_cross": "交叉注意力",
    "grid_caption": "行是层，列是头（都从 0 开始计数）；每个格子是该头在 {n} 个样本中判断正确的比例。"
                    "红框是所有类型中最好的头。",
    "only_encoder": "这些探针句没有目标端的位置，因此只给编码器自注意力打分。",
    "best": "最好的头：**{head}**，{kind}，第 {l} 层，头 {h}，{v:.0%} 的查询落在该关系上。",
    "best_anaphora": "最好的头：**{head}**，{kind}，第 {l} 层，头 {h}：在 {v:.0%} 的探针句中，它的最大"
                     "权重落在先行词（它的冠词或名词）上（平均权重 {w:.2f}）。",
    "baselines": "基线（不用模型）",
    "baselines_help": "不用注意力的规则能得多少分：猜代词之前最近的名词、句子的第一个名词、随机一个名词，"
                      "或随机一个词（和头一样，先行词名词短语中的任何词都算对）。超过所有这些的头，做的不只是按位置猜。",
    "nearest_noun": "最近的名词",
    "first_noun": "第一个名词",
    "random_noun": "随机名词",
    "random_word": "随机词",
    "no_baselines": "这些探针句没有列出候选名词，因此只能算随机词基线。",
    "open": "在“注意力”页打开一个头",
    "open_help": "选择一个头（已预选最好的头）和一个句子：链接会显示这个头在该句上的权重。",
    "kind": "注意力类型",
    "layer": "层",
    "head": "头",
    "probe_sentence": "句子",
    "probe_sentence_help": "“注意力”页打开时使用的句子。",
    "open_link": "在“注意力”页打开 {head}",
    "no_attention_page": "此版本中没有“注意力”页。",
    "ablation": "消融：关掉一些头",
    "ablation_intro": "把某个头的输出置零（其他头不变），然后让模型重新翻译。如果输出或代词准确率"
                      "发生变化，说明这些头是必需的：这检验了上面的得分所作的论断。",
    "ablate": "要关掉的头",
    "ablate_help": "命名方式如 'cross L1 H2'：类型（enc = 编码器自注意力，dec = 掩码解码器自注意力，"
                   "cross = 交叉注意力）、层、头，都从 0 开始计数。",
    "ablate_placeholder": "选择要关掉的头",
    "ablate_best": "加入最好的头",
    "ablate_cross": "加入全部交叉注意力头",
    "ablate_clear": "清空",
    "ablation_sentence": "探针句",
    "ablation_sentence_help": "分别在保留和关掉所选头的情况下翻译。",
    "without": "所有头开启",
    "with": "所选头关闭",
    "output_same": "输出没有变化。",
    "output_changed": "输出发生了变化。",
    "no_ablation": "请在上方选择要关掉的头。",
    "acc_title": "探针句上的代词准确率",
    "acc_probe_file": "在 {n} 句手写的图片描述句上测量，与模型卡片的测量方式相同。",
    "acc_probe_pairs": "在 {n} 句手写的最小对立句上测量，与模型卡片的测量方式相同。",
    "acc_n": "用于计算准确率的探针句数量",
    "acc_n_help": "每句要翻译两次（贪心解码），句子越多耗时越长。",
    "acc_help": "贪心解码的译文里德语代词正确的探针句所占的比例。只对代词任务的模型测量。",
    "acc_help_anaphora": "指代任务的留出句子（和训练数据一样是生成的，但从未用于训练）中，贪心解码的译文"
                         "在参考译文代词的同一词位上写出参考译文的德语代词（er / sie / es）的句子所占的比例。",
    "acc_help_probe": "手写的图片描述句（没有一句是生成的，也没有一句用于训练）中，贪心解码的译文显出参考译文"
                      "代词的语法性别的句子所占的比例：句中任何位置有该性别的某个代词（er / ihn、sie、es，"
                      "或物主代词 sein- / ihr-，所以物主代词也算），并且没有参考译文里没有的性别的代词。"
                      "不检查词的位置。",
    "acc_without": "所有头开启",
    "acc_with": "所选头关闭",
    "acc_delta": "{d:+.0f} 个百分点",
    "acc_not_anaphora": "代词准确率只针对在代词任务（{tasks}）上训练的模型计算，它们的探针句带有正确的"
                        "德语代词；这个模型是在 {task} 上训练的。上面的输出仍然显示了消融的效果。",
    "flipped": "代词发生变化的句子（{n} 个）",
    "choices_title": "逐句查看：{head} 看向哪里（{n} 句中有 {miss} 句没找到先行词）",
    "choices_help": "每个探针句中，这个头从代词（方括号里的词）出发权重最大的词；没找到先行词的句子排在前面。"
                    "选中一行，就把那句话放进下面的输入框，可以在“注意力”页打开。",
    "choices_help_target": "解码器自注意力在德语参考译文上读取，与上面的分数一样（模型逐词读入参考译文），"
                           "查询是将要写出代词（方括号里的词）的那个位置；没找到先行词的句子排在前面。"
                           "选中一行，就把它的英语原句放进下面的输入框，可以在“注意力”页打开。",
    "col_hit": "找到",
    "col_sentence": "句子",
    "col_antecedent": "先行词",
    "col_top": "权重最大的词",
    "col_src": "源句",
    "col_before": "所有头开启",
    "col_after": "所选头关闭",
    "empty_sentence": "请输入一个要翻译的句子。",
    "bad_text": "无法使用这段文本：{reason}",
    "too_long": "这段文本有 {n:,} 个字符；本页最多接受 {max:,} 个。请缩短。",
}
