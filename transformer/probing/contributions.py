"""Source and target contributions computed from the model's vectors, not only its weights.

Attention rollout (rollout.py) halves the target side at each cross-attention step, so its share
"from the source at all" is 1 - 0.5^L for every output token of every sentence. The methods here
decompose what each attention block writes into one vector per input token, residual connection
and LayerNorm included, and measure how much each vector makes of the block's output:

- "alti+": ALTI+ (Ferrando, Gállego, Alastruey, Escolano and Costa-jussà, 2022, "Towards Opening
  the Black Box of Neural Machine Translation: Source and Target Contributions to the Model's
  Predictions"), built on ALTI (Ferrando, Gállego and Costa-jussà, 2022, "Measuring the Mixing of
  Contextual Information in the Transformer"). Token j's share of block output y_i is
  max(0, ||y_i||_1 - ||y_i - T_i(x_j)||_1), rows normalised.
- "norm": norm-based contributions with residual and LayerNorm (Kobayashi, Kuribayashi, Yokoi and
  Inui, 2021, "Incorporating Residual and Normalization Layers into Analysis of Masked Language
  Models"): token j's share is ||T_i(x_j)||_2, rows normalised; rolled out like ALTI+.

The decomposition of one attention block (post-LN, the paper's and every checkpoint trained here):

    z_i = x_i + sum_j sum_h a^h_ij W_O^h (W_V^h x_j + b_V^h) + b_O,      y_i = LN(z_i)
    LN is linear once its divisor sigma_i (computed on z_i) is fixed:
    T_i(x_j) = gamma * (v_ij - mean(v_ij)) / sigma_i,
    v_ij = sum_h a^h_ij W_O^h (W_V^h x_j + b_V^h)   (+ x_i when j = i: the residual)
    y_i = sum_j T_i(x_j) + gamma * (b_O - mean(b_O)) / sigma_i + beta      (exactly)

(pre-LN: the keys' vectors are read from LN(x), the residual x_i is added unnormalised, and there
is no LayerNorm after the block). In cross-attention the keys are the encoder's outputs and the
residual is the decoder's own stream. The biases are attributed to no token. The feed-forward
sublayers act on each token alone and mix nothing.

The mixing matrices of the blocks are rolled out as ALTI+ does: encoder R_enc = C_L ... C_1 (S x
S); in the decoder a row over [source tokens | decoder input tokens], starting at [0 | I]; a self
block R <- C R; a cross block gives decoder position t the share c_t,res to its own stream and
c_t,s to encoder output s: R <- c_res R + C_src [R_enc | 0]. Every row sums to 1, and the source
share of a row (the sum of its source part) follows the input: how much of what writes that
output token came from the source. All in float64, in a forward pass of its own (ablations are
not applied).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F

METHODS = {
    "alti+": "ALTI+ (Ferrando et al., 2022, \"Towards Opening the Black Box of Neural Machine "
             "Translation: Source and Target Contributions to the Model's Predictions\"): each "
             "attention block's output split into one vector per input token, residual and "
             "LayerNorm included; a token's share is how much its vector brings the output "
             "closer (Manhattan distance), rolled out through encoder and decoder",
    "norm": "norm-based contributions with residual and LayerNorm (Kobayashi et al., 2021, "
            "\"Incorporating Residual and Normalization Layers into Analysis of Masked Language "
            "Models\"): a token's share is the length of its vector, rolled out as ALTI+",
}
# Spearman's rank correlation between each method's per-source-word shares and the probability
# drop when that word is removed (occlusion), averaged over the 10,008 output words of the default
# model's greedy outputs for the 892 probe sentences (bench/contributions_bench.py, BENCHMARKS.md)
AGREEMENT = {"sentences": 892, "rollout": 0.211, "alti+": 0.274, "norm": 0.214}
BEST = max(METHODS, key=AGREEMENT.__getitem__)  # the method the page shows: "alti+"
CHUNK = 32  # query rows per step: a 512-token sentence never holds (T, S, D) at once


@dataclass
class Contributions:
    method: str
    encoder: torch.Tensor  # (S, S): encoder output token -> source tokens
    to_source: torch.Tensor  # (T, S): decoder position t (writes output token t) -> source tokens
    to_target: torch.Tensor  # (T, T): the same position -> decoder input tokens
    source_share: torch.Tensor  # (T,): row sums of to_source; 1 - source_share is the target's

    @property
    def target_share(self) -> torch.Tensor:
        return self.to_target.sum(-1)

    def normalised(self) -> torch.Tensor:
        """(T, S) rows of to_source scaled to sum to 1 (a row with no source share stays 0)."""
        s = self.source_share.unsqueeze(-1)
        return torch.where(s > 0, self.to_source / s.clamp_min(1e-300),
                           torch.zeros_like(self.to_source))


# -- one attention block, decomposed -------------------------------------------------------------
def _d(t: torch.Tensor) -> torch.Tensor:
    return t.detach().double()


def _ln(norm, z: torch.Tensor) -> torch.Tensor:
    return F.layer_norm(z, z.shape[-1:], _d(norm.weight), _d(norm.bias), norm.eps)


def _heads(attn, xq: torch.Tensor, kv: torch.Tensor, mask: torch.Tensor) -> tuple:
    """Attention weights (H, Q, K) recomputed in float64 and each key's value through W_O per
    head (H, K, D). MASK (Q|1, K) bool, True = may attend."""
    d, h, dk = attn.d_model, attn.n_heads, attn.d_head
    w, b = _d(attn.in_proj.weight), _d(attn.in_proj.bias)
    q = F.linear(xq, w[:d], b[:d]).view(-1, h, dk).transpose(0, 1)  # (Q,D) -> (H,Q,dk)
    k = F.linear(kv, w[d:2 * d], b[d:2 * d]).view(-1, h, dk).transpose(0, 1)  # (H,K,dk)
    v = F.linear(kv, w[2 * d:], b[2 * d:]).view(-1, h, dk).transpose(0, 1)  # (H,K,dk)
    scores = (q @ k.transpose(-1, -2)) / math.sqrt(dk)  # (H,Q,K)
    scores = scores.masked_fill(~mask, float("-inf"))
    a = torch.nan_to_num(torch.softmax(scores, -1), nan=0.0)
    wo = _d(attn.out_proj.weight).view(d, h, dk).permute(1, 2, 0)  # (D, H*dk) -> (H,dk,D)
    return a, v @ wo  # (H,Q,K), (H,K,D)


def block_vectors(attn, norm, x: torch.Tensor, kv: torch.Tensor | None, mask: torch.Tensor,
                  norm_first: bool, rows: slice = slice(None)) -> tuple[torch.Tensor, torch.Tensor]:
    """One attention block (attention + residual + its LayerNorm) of query rows ROWS split into
    one vector per input token: (vectors (Q, K', D), bias (Q, D)), with sum(vectors, 1) + bias the
    block's output exactly. Self-attention (KV None): K' = the T tokens, the residual x_i on the
    diagonal. Cross-attention (KV the encoder output): K' = 1 + S, column 0 the residual (the
    decoder's own stream), then the source tokens. X (T, D) the block's input, float64."""
    h_in = _ln(norm, x) if norm_first else x
    keys = h_in if kv is None else kv
    a, u = _heads(attn, h_in[rows], keys, mask[rows] if mask.size(0) > 1 else mask)
    vec = torch.einsum("hqk,hkd->qkd", a, u)  # (Q,K,D)
    xr = x[rows]
    if kv is None:
        idx = torch.arange(x.size(0), device=x.device)[rows]
        # the residual belongs to the token itself
        vec[torch.arange(len(idx), device=x.device), idx] += xr
    else:
        vec = torch.cat([xr.unsqueeze(1), vec], 1)  # (Q,1+S,D)
    bias = _d(attn.out_proj.bias).expand_as(xr)
    if norm_first:
        return vec, bias
    z = vec.sum(1) + bias  # (Q,D): the LayerNorm's input
    sigma = torch.sqrt(z.var(-1, unbiased=False) + norm.eps)  # (Q,)
    g, beta = _d(norm.weight), _d(norm.bias)
    vec = g * (vec - vec.mean(-1, keepdim=True)) / sigma[:, None, None]
    bias = g * (bias - bias.mean(-1, keepdim=True)) / sigma[:, None] + beta
    return vec, bias


def scores(vec: torch.Tensor, method: str) -> torch.Tensor:
    """(Q, K', D) -> (Q, K') shares, rows summing to 1."""
    if method == "alti+":
        y = vec.sum(1, keepdim=True)  # (Q,1,D)
        c = (y.abs().sum(-1) - (y - vec).abs().sum(-1)).clamp_min(0)  # (Q,K')
    elif method == "norm":
        c = vec.norm(dim=-1)
    else:
        raise ValueError(f"method: one of {', '.join(METHODS)} (got {method!r})")
    s = c.sum(-1, keepdim=True)
    return c / s.clamp_min(1e-300)


def _block(attn, norm, x, kv, mask, norm_first, method) -> tuple[torch.Tensor, torch.Tensor]:
    """(the block's output (T, D), its mixing matrix (T, K')), CHUNK query rows at a time."""
    outs, mats = [], []
    for i in range(0, x.size(0), CHUNK):
        vec, bias = block_vectors(attn, norm, x, kv, mask, norm_first, slice(i, i + CHUNK))
        outs.append(vec.sum(1) + bias)
        mats.append(scores(vec, method))
    return torch.cat(outs), torch.cat(mats)


def _ffn(sub, ffn, x: torch.Tensor) -> torch.Tensor:
    """The feed-forward sublayer (residual and LayerNorm included) in float64."""
    def f(y):
        hidden = ffn.act(F.linear(y, _d(ffn.w1.weight), _d(ffn.w1.bias)))
        return F.linear(hidden, _d(ffn.w2.weight), _d(ffn.w2.bias))
    if sub.norm_first:
        return x + f(_ln(sub.norm, x))
    return _ln(sub.norm, x + f(x))


def _finish(stack, x: torch.Tensor) -> torch.Tensor:
    return _ln(stack.norm, x) if stack.norm is not None else x


# -- the whole model ------------------------------------------------------------------------------
def contributions(model, src_ids: list[int], tgt_ids: list[int], method: str = "alti+",
                  with_logits: bool = False):
    """Contributions of one sentence: SRC_IDS the source, TGT_IDS the decoder input ([BOS] +
    output pieces; position t writes output piece t). With WITH_LOGITS also the (T, V) float64
    logits of this pass (a check that it is the model's own forward pass)."""
    if method not in METHODS:
        raise ValueError(f"method: one of {', '.join(METHODS)} (got {method!r})")
    cfg = model.cfg
    dev = next(model.parameters()).device
    src = torch.tensor([list(src_ids)], device=dev)
    tgt = torch.tensor([list(tgt_ids)], device=dev)
    with torch.inference_mode():
        x = _d(model.src_embed(src)[0])  # (S,D)
        y = _d(model.tgt_embed(tgt)[0])  # (T,D)
        s_n, t_n = x.size(0), y.size(0)
        src_keys = (src[0] != cfg.pad_id)[None, :]  # (1,S)
        tgt_keys = tgt[0] != cfg.pad_id
        if cfg.bos_id == cfg.pad_id and t_n:
            tgt_keys = tgt_keys.clone()
            tgt_keys[0] = True
        causal = torch.ones(t_n, t_n, dtype=torch.bool, device=dev).tril()  # (T,T)
        causal = causal & tgt_keys[None, :]
        r_enc = torch.eye(s_n, dtype=torch.float64, device=dev)
        for layer in model.encoder.layers:
            sub = layer.sublayers[0]
            x, c = _block(layer.self_attn, sub.norm, x, None, src_keys, sub.norm_first, method)
            r_enc = c @ r_enc  # (S,S)
            x = _ffn(layer.sublayers[1], layer.ffn, x)
        memory = _finish(model.encoder, x)
        f64 = dict(dtype=torch.float64, device=dev)
        r = torch.cat([torch.zeros(t_n, s_n, **f64), torch.eye(t_n, **f64)], 1)  # (T, S+T)
        enc_rows = torch.cat([r_enc, torch.zeros(s_n, t_n, **f64)], 1)  # (S, S+T)
        for layer in model.decoder.layers:
            s0, s1 = layer.sublayers[0], layer.sublayers[1]
            y, c = _block(layer.self_attn, s0.norm, y, None, causal, s0.norm_first, method)
            r = c @ r
            y, c = _block(layer.cross_attn, s1.norm, y, memory, src_keys, s1.norm_first, method)
            r = c[:, :1] * r + c[:, 1:] @ enc_rows
            y = _ffn(layer.sublayers[2], layer.ffn, y)
        out = Contributions(method, r_enc, r[:, :s_n], r[:, s_n:], r[:, :s_n].sum(-1))
        if not with_logits:
            return out
        g = model.generator
        logits = F.linear(_finish(model.decoder, y), _d(g.weight),
                          None if g.bias is None else _d(g.bias))
        return out, logits


def word_shares(c: Contributions, out_groups, src_groups) -> torch.Tensor:
    """(output words, source words): each output word's draw on each source word, as a share of
    everything that writes it (the mean over its pieces' decoder positions; a source word's share
    is the sum over its pieces). Rows sum to the word's source share, not to 1."""
    a = c.to_source
    cols = torch.stack([a[:, list(g)].sum(-1) for g in src_groups], -1)  # (T, Ws)
    return torch.stack([cols[list(g)].mean(0) for g in out_groups])  # (Wo, Ws)


def to_json(c: Contributions, digits: int = 6) -> dict:
    return {"method": c.method, "paper": METHODS[c.method],
            "source_share": torch.round(c.source_share, decimals=digits).tolist(),
            "to_source": torch.round(c.to_source, decimals=digits).tolist()}
