"""Attention masks as explicit functions.

Convention everywhere: a boolean tensor, True where a query MAY attend to a key. The attention
function turns False into -inf before the softmax (never 0: a 0 score still gets exp(0) weight).
"""
from __future__ import annotations

import torch


def padding_mask(ids: torch.Tensor, pad_id: int) -> torch.Tensor:
    """Keys that are real tokens. ids (B,S) -> (B,1,1,S), broadcast over heads and queries."""
    if ids.dim() != 2:
        raise ValueError(f"padding_mask: ids must be (batch, length), got shape {tuple(ids.shape)}")
    return (ids != pad_id)[:, None, None, :]  # (B,S) -> (B,1,1,S)


def causal_mask(length: int, device: torch.device | str | None = None) -> torch.Tensor:
    """Position t may see positions 0..t. -> (1,1,T,T), lower triangle (diagonal included)."""
    if length < 0:
        raise ValueError(f"causal_mask: length must be >= 0, got {length}")
    tri = torch.ones(length, length, dtype=torch.bool, device=device).tril()  # (T,T)
    return tri[None, None]  # (T,T) -> (1,1,T,T)


def decoder_mask(tgt_ids: torch.Tensor, pad_id: int, start_id: int | None = None) -> torch.Tensor:
    """Both rules for decoder self-attention: no future, no padding. (B,T) -> (B,1,T,T).

    When the start token is the pad id (Marian decodes from <pad>), position 0 is the start
    token, not padding, and stays visible."""
    keys = padding_mask(tgt_ids, pad_id)  # (B,1,1,T)
    if start_id == pad_id and tgt_ids.size(1):
        keys = keys.clone()
        keys[..., 0] = True
    return keys & causal_mask(tgt_ids.size(1), tgt_ids.device)


def combine(*masks: torch.Tensor | None) -> torch.Tensor | None:
    """Logical AND of any number of broadcastable masks; None means 'no restriction'."""
    out = None
    for m in masks:
        if m is None:
            continue
        out = m if out is None else (out & m)
    return out
