"""Attention rollout through an encoder-decoder, and a causal check beside it.

One layer's attention says where a head looked, not which source words an output word came from:
information also travels through the residual stream and through earlier layers. Attention
rollout (Abnar and Zuidema, 2020, "Quantifying Attention Flow in Transformers") follows it
through every layer: each layer's attention, averaged over heads, is mixed half and half with the
identity (the residual connection) and the layers are multiplied. Here it runs through all three
kinds:

    encoder:       R_enc = M_L ... M_1,              M_l = ½ mean_h(A_l) + ½ I      (S x S)
    decoder start: R_dd = I (T x T), R_ds = 0 (T x S)   (a decoder token holds only itself)
    self layer:    R_dd <- M R_dd,  R_ds <- M R_ds,     M = ½ mean_h(A_self) + ½ I
    cross layer:   R_dd <- ½ R_dd,  R_ds <- ½ R_ds + ½ mean_h(A_cross) R_enc

Every row of [R_dd | R_ds] sums to 1; R_ds's row for decoder position t is how much of what
writes output token t rolls back to each source token, and its row sum the share that comes from
the source at all. It is an approximation: it ignores the values, the feed-forward layers,
LayerNorm and the heads' differences. `occlusion` is the causal check: remove one source word
(its pieces become padding, so no attention reaches them) and see how much the probability of
one output token drops.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class Rollout:
    encoder: torch.Tensor  # (S, S): source token -> source tokens
    to_source: torch.Tensor  # (T, S): decoder position t (writes output token t) -> source tokens
    to_target: torch.Tensor  # (T, T): the same position -> decoder input tokens
    source_share: torch.Tensor  # (T,): row sums of to_source

    def normalised(self) -> torch.Tensor:
        """(T, S) rows of to_source scaled to sum to 1 (a row with no source share stays 0)."""
        s = self.source_share.unsqueeze(-1)
        return torch.where(s > 0, self.to_source / s.clamp_min(1e-12), torch.zeros_like(self.to_source))


def _mix(a: torch.Tensor) -> torch.Tensor:
    """½ (head mean of A) + ½ I, rows renormalised (a fully masked row keeps only itself)."""
    m = 0.5 * a.mean(0) + 0.5 * torch.eye(a.shape[-1], dtype=a.dtype)  # (H,Q,Q) -> (Q,Q)
    return m / m.sum(-1, keepdim=True)


def rollout(ins) -> Rollout:
    """Rollout of one inspected sentence (transformer.probing.inspect.Inspected)."""
    enc_layers = ins.trace.layers("encoder_self", "weights")
    s = enc_layers[0].shape[-1]
    r_enc = torch.eye(s, dtype=torch.float64)
    for w in enc_layers:  # each (1,H,S,S)
        r_enc = _mix(w[0].double()) @ r_enc
    selfs = ins.trace.layers("decoder_self", "weights")
    crosses = ins.trace.layers("cross", "weights")
    t = selfs[0].shape[-1]
    r_dd = torch.eye(t, dtype=torch.float64)
    r_ds = torch.zeros(t, s, dtype=torch.float64)
    for w_self, w_cross in zip(selfs, crosses):  # each decoder layer: self, then cross
        m = _mix(w_self[0].double())
        r_dd, r_ds = m @ r_dd, m @ r_ds
        c = w_cross[0].double().mean(0)  # (H,T,S) -> (T,S)
        r_dd, r_ds = 0.5 * r_dd, 0.5 * r_ds + 0.5 * (c @ r_enc)
    return Rollout(r_enc, r_ds, r_dd, r_ds.sum(-1))


def occlusion(model, src_ids: list[int], tgt_ids: list[int], position: int,
              groups: list[list[int]]) -> list[float]:
    """Per source word (GROUPS of source positions), how much the probability of the output
    token at decoder position POSITION (the token tgt_ids[position + 1]) drops when that word's
    pieces are replaced by padding. TGT_IDS: [BOS] + output pieces (teacher forcing)."""
    cfg = model.cfg
    dev = next(model.parameters()).device
    want = tgt_ids[position + 1]
    tgt = torch.tensor([tgt_ids], device=dev)

    def prob(src: list[int]) -> float:
        with torch.inference_mode():
            logits = model(torch.tensor([src], device=dev), tgt)  # (1,T,V)
        return float(torch.softmax(logits[0, position].double(), -1)[want])

    base = prob(src_ids)
    drops = []
    for g in groups:
        src = [cfg.pad_id if i in g else x for i, x in enumerate(src_ids)]
        drops.append(base - prob(src))
    return drops


def to_json(r: Rollout, digits: int = 6) -> dict:
    return {"to_source": torch.round(r.to_source, decimals=digits).tolist(),
            "source_share": torch.round(r.source_share, decimals=digits).tolist(),
            "encoder": torch.round(r.encoder, decimals=digits).tolist(),
            "method": "attention rollout (Abnar and Zuidema, 2020): head-averaged attention mixed "
                      "half and half with the identity, multiplied through the encoder, then "
                      "through each decoder layer's self- and cross-attention"}
