EN = {
    "title": "Attention across training",
    "intro": "Pick a training run and one attention head, then move the slider across the run's "
             "checkpoints: the head's pattern on your sentence at that moment of training, the "
             "point on the loss curve, and the same head at every checkpoint side by side.",
    "no_runs": "No training run with two or more saved checkpoints yet. Start one on the Train "
               "page (a synthetic task with a small 'checkpoint every'), then come back.",
    "run": "Training run",
    "run_help": "Runs on this server with at least two step checkpoints, newest first.",
    "run_label": "{name} · {n} checkpoints · {state}",
    "shipped_suffix": " · shipped with the app",
    "featured": "The head this run's model card features ({kind}, layer {l}, head {h}). Move the "
                "slider from the first checkpoint to the last and watch it find its pattern; the "
                "curve on the right measures how far each checkpoint is from the final one.",
    "still_training": "This run is still training: new checkpoints appear here when the page "
                      "reruns.",
    "load_failed": "This checkpoint cannot be loaded: {reason}",
    "text": "Sentence",
    "text_help": "The source sentence every checkpoint reads.",
    "target": "Target (optional)",
    "target_help": "What the decoder reads (teacher forcing). Empty: the final checkpoint's own "
                   "output, so every checkpoint reads the same target tokens and the patterns "
                   "can be compared.",
    "target_used": "Every checkpoint reads the final checkpoint's output as the target: {target}",
    "target_given": "Every checkpoint reads your target (teacher forcing).",
    "empty": "Type a sentence to see the head's pattern.",
    "bad_text": "This sentence cannot be used: {reason}",
    "kind": "Attention",
    "kind_help": "Encoder self-attention (source reads source), decoder self-attention (target "
                 "reads what came before), cross-attention (target reads source).",
    "kind_encoder_self": "encoder self-attention",
    "kind_decoder_self": "decoder self-attention (masked)",
    "kind_cross": "cross-attention",
    "layer": "Layer",
    "head": "Head",
    "checkpoint": "Checkpoint",
    "checkpoint_help": "Slide through the run's saved checkpoints; the loss curve marks the one "
                       "chosen.",
    "step_n": "step {n}",
    "loss_title": "Loss (log scale) with the chosen checkpoint",
    "loss": "loss",
    "loss_raw": "training loss",
    "loss_smooth": "training loss (smoothed)",
    "loss_val": "validation loss",
    "checkpoints": "checkpoints",
    "step": "step",
    "score_at": "At step {step}: {metric} {value}, validation loss {loss:.3f}.",
    "metric_bleu": "BLEU",
    "metric_pronoun_acc": "pronoun accuracy",
    "metric_exact_match": "exact match",
    "heat_title": "{kind}, layer {l}, head {h} at step {step}",
    "keys": "keys (attended to)",
    "queries": "queries (attending)",
    "emerge_title": "How the pattern settles",
    "distance": "distance to the final pattern",
    "entropy": "entropy (bits)",
    "emerge_help": "Distance: how different each query's weights are from the final "
                   "checkpoint's (0 = the same, 1 = nothing in common). Entropy: how spread out "
                   "the weights are (0 = every query looks at exactly one key).",
    "output_at": "The model's own output at step {step}: {output}",
    "strip_title": "The same head at every checkpoint",
    "strip_help": "{n} checkpoints, left to right in training order, on one colour scale "
                  "(0 to 1); the chosen one is framed. Hover for the tokens and weights.",
}

ZH = {
    "title": "训练过程中的注意力",
    "intro": "选择一次训练和一个注意力头，然后拖动滑块经过这次训练的各个检查点：看这个头在训练的"
             "那一刻对你的句子的注意力模式、损失曲线上对应的位置，以及同一个头在所有检查点上的并排对比。",
    "no_runs": "还没有保存了两个或更多检查点的训练。请在“训练”页面开始一个（合成任务，把“检查点"
               "间隔”设小一些），然后再回来。",
    "run": "训练",
    "run_help": "本服务器上至少有两个按步保存的检查点的训练，最新的在前。",
    "run_label": "{name} · {n} 个检查点 · {state}",
    "shipped_suffix": " · 随应用提供",
    "featured": "这是这次训练的模型卡片所介绍的注意力头（{kind}，第 {l} 层，第 {h} 个头）。把滑块从第一个"
                "检查点拖到最后一个，看它如何形成自己的模式；右侧曲线衡量每个检查点与最终检查点的差距。",
    "still_training": "这次训练还在进行：页面重新运行时会出现新的检查点。",
    "load_failed": "无法加载这个检查点：{reason}",
    "text": "句子",
    "text_help": "每个检查点读入的源句。",
    "target": "目标句（可选）",
    "target_help": "解码器读入的内容（教师强制）。留空：使用最后一个检查点自己的输出，这样每个"
                   "检查点读到的目标词元都相同，注意力模式才能相互比较。",
    "target_used": "每个检查点都把最后一个检查点的输出作为目标句读入：{target}",
    "target_given": "每个检查点都读入你给出的目标句（教师强制）。",
    "empty": "输入一个句子，查看这个头的注意力模式。",
    "bad_text": "无法使用这个句子：{reason}",
    "kind": "注意力",
    "kind_help": "编码器自注意力（源句看源句）、解码器自注意力（目标句看之前的内容）、交叉注意力"
                 "（目标句看源句）。",
    "kind_encoder_self": "编码器自注意力",
    "kind_decoder_self": "解码器自注意力（带掩码）",
    "kind_cross": "交叉注意力",
    "layer": "层",
    "head": "头",
    "checkpoint": "检查点",
    "checkpoint_help": "拖动滑块浏览这次训练保存的检查点；损失曲线上会标出所选的那个。",
    "step_n": "第 {n} 步",
    "loss_title": "损失（对数坐标）与所选检查点",
    "loss": "损失",
    "loss_raw": "训练损失",
    "loss_smooth": "训练损失（平滑后）",
    "loss_val": "验证损失",
    "checkpoints": "检查点",
    "step": "步数",
    "score_at": "第 {step} 步：{metric} {value}，验证损失 {loss:.3f}。",
    "metric_bleu": "BLEU",
    "metric_pronoun_acc": "代词准确率",
    "metric_exact_match": "完全匹配率",
    "heat_title": "{kind}，第 {l} 层，第 {h} 个头，第 {step} 步",
    "keys": "键（被关注的）",
    "queries": "查询（发出关注的）",
    "emerge_title": "注意力模式如何稳定下来",
    "distance": "与最终模式的距离",
    "entropy": "熵（比特）",
    "emerge_help": "距离：每个查询的权重与最后一个检查点相差多少（0 = 相同，1 = 完全不同）。"
                   "熵：权重分散的程度（0 = 每个查询只看一个键）。",
    "output_at": "第 {step} 步时模型自己的输出：{output}",
    "strip_title": "同一个头在每个检查点上的样子",
    "strip_help": "{n} 个检查点，按训练顺序从左到右，使用同一个颜色刻度（0 到 1）；所选的那个带框。"
                  "把鼠标悬停在上面可以看到词元和权重。",
}
