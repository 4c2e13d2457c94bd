"""One attention function for encoder self-, masked decoder self- and cross-attention.

Two paths compute the same function. The fused kernel (F.scaled_dot_product_attention) never
materialises the weights; the explicit path passes every intermediate through its hook point
(`trace.hook(path, name, x)`, see transformer.core.trace), and runs when the current context
needs one of them. A test holds the two equal.
"""
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from transformer.core import trace


# the hook points only the explicit path has (head_out, concat and output exist in both)
EXPLICIT_POINTS = ("q", "k", "v", "scores", "scaled", "mask", "masked", "weights")


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None = None,
              dropout_p: float = 0.0, path: str = "",
              explicit: bool = False) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Scaled dot-product attention. q (B,H,T,dk), k and v (B,H,S,dk), mask bool broadcastable to
    (B,H,T,S) with True = may attend. Returns (output (B,H,T,dk), weights (B,H,T,S) or None).

    The explicit path is taken when asked or when the current context needs one of its hook
    points (EXPLICIT_POINTS of `path`); it sets masked scores to -inf and turns a fully masked
    row into zeros (not NaN), so padding never poisons a trace.
    """
    if not (explicit or trace.explicit(path, EXPLICIT_POINTS)):
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p)
        return out, None

    q, k, v = trace.hook(path, "q", q), trace.hook(path, "k", k), trace.hook(path, "v", v)
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1)  # (B,H,T,dk) @ (B,H,dk,S) -> (B,H,T,S)
    scores = trace.hook(path, "scores", scores)
    scaled = trace.hook(path, "scaled", scores / math.sqrt(d_k))
    if mask is not None:
        full_mask = mask.expand_as(scaled)  # (B|1,1|H,T|1,S) -> (B,H,T,S)
        full_mask = trace.hook(path, "mask", full_mask)
        masked = scaled.masked_fill(~full_mask, float("-inf"))
    else:
        full_mask = trace.hook(path, "mask", torch.ones_like(scaled, dtype=torch.bool))
        masked = scaled
    masked = trace.hook(path, "masked", masked)
    weights = torch.softmax(masked, dim=-1)
    weights = torch.nan_to_num(weights, nan=0.0)  # a row with every key masked -> zeros
    weights = trace.hook(path, "weights", weights)
    if dropout_p > 0.0:
        weights_used = F.dropout(weights, p=dropout_p, training=True)
    else:
        weights_used = weights
    out = weights_used @ v  # (B,H,T,S) @ (B,H,S,dk) -> (B,H,T,dk)
    return out, weights


class MultiHeadAttention(nn.Module):
    """h heads of attention with one input projection of shape (3D, D), laid out like
    torch.nn.MultiheadAttention's in_proj (rows: W_Q, W_K, W_V) so weights copy across."""

    def __init__(self, d_model: int, n_heads: int, attn_dropout: float = 0.0):
        super().__init__()
        assert d_model % n_heads == 0, f"d_model {d_model} must be divisible by n_heads {n_heads}"
        self.d_model, self.n_heads, self.d_head = d_model, n_heads, d_model // n_heads
        self.attn_dropout = attn_dropout
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.trace_path = ""  # set once by Transformer after construction

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)  # (B,T,D) -> (B,H,T,dk)

    def forward(self, x: torch.Tensor, memory: torch.Tensor | None = None,
                mask: torch.Tensor | None = None, cache: dict | None = None) -> torch.Tensor:
        """Self-attention when memory is None, else cross-attention over memory.

        cache (incremental decoding): for self-attention, keys/values of earlier positions are
        appended; for cross-attention, the memory's keys/values are computed once and reused.
        """
        d = self.d_model
        w, b = self.in_proj.weight, self.in_proj.bias
        if memory is None:
            q, k, v = F.linear(x, w, b).split(d, dim=-1)  # (B,T,3D) -> 3 x (B,T,D)
            q, k, v = self._split(q), self._split(k), self._split(v)
            if cache is not None:
                if "k" in cache:
                    k = torch.cat([cache["k"], k], dim=2)  # (B,H,t0,dk)+(B,H,T,dk) -> (B,H,t0+T,dk)
                    v = torch.cat([cache["v"], v], dim=2)
                cache["k"], cache["v"] = k, v
        else:
            q = self._split(F.linear(x, w[:d], b[:d]))  # (B,T,D) -> (B,H,T,dk)
            if cache is not None and "k" in cache:
                k, v = cache["k"], cache["v"]
            else:
                k, v = F.linear(memory, w[d:], b[d:]).split(d, dim=-1)  # (B,S,2D) -> 2 x (B,S,D)
                k, v = self._split(k), self._split(v)
                if cache is not None:
                    cache["k"], cache["v"] = k, v
        p = self.attn_dropout if self.training else 0.0
        heads, _ = attention(q, k, v, mask, dropout_p=p, path=self.trace_path)
        heads = trace.hook(self.trace_path, "head_out", heads)  # (B,H,T,dk); ablation acts here
        bsz, _, t, _ = heads.shape
        concat = heads.transpose(1, 2).reshape(bsz, t, d)  # (B,H,T,dk) -> (B,T,H*dk)
        concat = trace.hook(self.trace_path, "concat", concat)
        return trace.hook(self.trace_path, "output", self.out_proj(concat))  # (B,T,D)
