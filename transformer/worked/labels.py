"""Step labels and short names (English and Chinese) of the worked examples."""
from __future__ import annotations

# name -> (English label, Chinese label); per-head names use the part after "headN."
LABELS: dict[str, tuple[str, str]] = {
    "scores": ("Given scores q·k", "给定的分数 q·k"),
    "E": ("Word embeddings (one row per token)", "词嵌入（每行一个词）"),
    "PE": ("Positional encoding (one row per position)", "位置编码（每行一个位置）"),
    "X": ("Input X (one row per token)", "输入 X（每行一个词）"),
    "Q": ("Queries Q", "查询 Q"),
    "K": ("Keys K", "键 K"),
    "V": ("Values V", "值 V"),
    "QK_T": ("Raw scores Q·Kᵀ", "注意力分数 Q·Kᵀ"),
    "scaled": ("Scaled scores Q·Kᵀ/√d_k", "缩放后的分数 Q·Kᵀ/√d_k"),
    "mask": ("Mask (1 = may attend, 0 = masked)", "掩码（1 = 可以关注，0 = 被遮挡）"),
    "masked": ("Masked scores (−inf where masked)", "加掩码后的分数（被遮挡处为 −∞）"),
    "exp": ("exp(score − row max)", "exp(分数 − 行最大值)"),
    "weights": ("Attention weights = softmax", "注意力权重 = softmax"),
    "output": ("Output = weights·V", "输出 = 权重·V"),
    "concat": ("Concatenated head outputs", "各头输出拼接"),
    "W_O": ("Multi-head output = concat·W_O", "多头输出 = 拼接·W_O"),
    "residual": ("Residual sum x + sublayer(x)", "残差相加 x + 子层(x)"),
    "mean": ("Row mean", "行均值"),
    "std": ("Row std (population, ÷n, as LayerNorm uses)", "行标准差（总体标准差，除以 n，与 LayerNorm 一致）"),
    "norm": ("LayerNorm output (x − mean)/√(var + eps)", "LayerNorm 输出 (x − 均值)/√(方差 + eps)"),
}

# English label -> Chinese label of every alternative and hypothesis (they are matched by their
# English text, so the Chinese page looks them up here). Filled by _L where a label is made.
_ZH: dict[str, str] = {}


def _L(en: str, zh: str) -> str:
    """Register the Chinese text of an English label and return the English (the key)."""
    _ZH[en] = zh
    return en


def label_zh(en: str) -> str:
    """The Chinese text of an alternative's or hypothesis's English label."""
    return _ZH.get(en, en)


# Short names of steps, for prose ("the error comes from ..."): (English, Chinese).
_SHORT = {"E": ("embeddings", "词嵌入"), "PE": ("positional encoding", "位置编码"), "X": ("X", "X"),
          "Q": ("Q", "Q"), "K": ("K", "K"), "V": ("V", "V"), "QK_T": ("Q·Kᵀ", "Q·Kᵀ"),
          "scaled": ("scaled scores", "缩放后的分数"), "masked": ("masked scores", "加掩码后的分数"),
          "exp": ("exp", "exp"), "weights": ("weights", "权重"), "output": ("output", "输出"),
          "concat": ("concatenation", "拼接结果"), "W_O": ("output projection", "输出投影"),
          "residual": ("sum", "相加结果"), "mean": ("row means", "行均值"),
          "std": ("row stds", "行标准差"), "x": ("x", "x"), "sublayer": ("sublayer output", "子层输出")}


def short_name(name: str, zh: bool = False) -> str:
    """A step name as prose: "head1.QK_T" -> "head 1 Q·Kᵀ" / "头 1 的 Q·Kᵀ"; "addnorm.std" -> "row stds"."""
    parts = name.split(".")
    head = parts[0] if parts[0].startswith("head") else None
    base = parts[1] if head else (parts[1] if parts[0] == "addnorm" and len(parts) > 1 else parts[0])
    if parts[0] == "addnorm" and base == "output":
        word = ("Add & Norm output", "相加与归一化的输出")
    else:
        word = _SHORT.get(base, (base, base))
    if head:
        n = head[4:]
        return f"头 {n} 的{word[1]}" if zh else f"head {n} {word[0]}"
    return word[1] if zh else word[0]
