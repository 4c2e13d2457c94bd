"""The encoder-decoder Transformer of "Attention Is All You Need", small enough to read.

Decomposition after the Annotated Transformer: embeddings + positional encoding, one attention
module used three ways, a residual sublayer wrapper, encoder and decoder layers that differ only in
the sublayers they hold, and a generator. No device calls: the device follows the inputs.
Each named intermediate passes through its hook point, `x = trace.hook(path, name, x)`
(transformer.core.trace): recording, ablation and attention supervision all act there.
"""
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from transformer.core import trace
from transformer.core.attention import MultiHeadAttention
from transformer.core.config import ModelConfig
from transformer.core.masks import decoder_mask, padding_mask


def sinusoidal_table(max_len: int, d_model: int, layout: str = "interleaved") -> torch.Tensor:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...). -> (max_len, d_model).

    layout "halves" puts the same sines in the first ceil(D/2) columns and the cosines after
    them (Marian's table; the values are the paper's, only the columns are ordered differently).
    """
    pos = torch.arange(max_len, dtype=torch.float64)[:, None]  # (L,1)
    i2 = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(D/2),)
    angle = pos / torch.pow(10000.0, i2 / d_model)  # (L,1)/(D/2,) -> (L,ceil(D/2))
    pe = torch.zeros(max_len, d_model, dtype=torch.float64)
    sin, cos = torch.sin(angle), torch.cos(angle[:, : d_model // 2])
    if layout == "halves":
        pe[:, : sin.size(1)], pe[:, sin.size(1):] = sin, cos  # (L,ceil(D/2)) | (L,floor(D/2))
    else:
        pe[:, 0::2], pe[:, 1::2] = sin, cos
    return pe.float()


class Embeddings(nn.Module):
    """Token embedding * sqrt(d_model) (1 when cfg.scale_embedding is off) + positional
    encoding, then dropout."""

    def __init__(self, token: nn.Embedding, cfg: ModelConfig):
        super().__init__()
        self.token = token
        self.scale = math.sqrt(cfg.d_model) if cfg.scale_embedding else 1.0
        self.max_len = cfg.max_len
        if cfg.positional == "learned":
            self.pos = nn.Embedding(cfg.max_len, cfg.d_model)
        else:
            self.pos = None
            table = sinusoidal_table(cfg.max_len, cfg.d_model, cfg.pe_layout)  # (L,D)
            self.register_buffer("pe_table", table, persistent=False)
        self.dropout = nn.Dropout(cfg.dropout)
        self.trace_path = ""

    def positional(self, length: int, start: int = 0) -> torch.Tensor:
        if start + length > self.max_len:
            raise ValueError(f"sequence of {start + length} tokens is longer than the model's "
                             f"max_len {self.max_len}")
        if self.pos is not None:
            idx = torch.arange(start, start + length, device=self.pos.weight.device)
            return self.pos(idx)  # (T,D)
        return self.pe_table[start:start + length]  # (T,D)

    def forward(self, ids: torch.Tensor, start: int = 0) -> torch.Tensor:
        tok = self.token(ids) * self.scale  # (B,T) -> (B,T,D)
        tok = trace.hook(self.trace_path, "tokens", tok)
        pe = trace.hook(self.trace_path, "pe", self.positional(ids.size(1), start))  # (T,D)
        out = trace.hook(self.trace_path, "output", tok + pe)  # broadcast over batch
        return self.dropout(out)


ACTIVATION_FNS = {"relu": F.relu, "gelu": F.gelu, "silu": F.silu}


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W1 + b1) W2 + b2 (ReLU; gelu or silu when the config says so)."""

    # which axis of each parameter runs over the d_ff hidden units (w1: (d_ff, D), b1: (d_ff,),
    # w2: (D, d_ff)); b2 has none. Widening (recipes.surgery.grow) and training some units alone
    # (--train-only ffn:N+) read it here.
    UNIT_AXIS = {"w1.weight": 0, "w1.bias": 0, "w2.weight": 1}

    def __init__(self, d_model: int, d_ff: int, dropout: float, activation: str = "relu"):
        super().__init__()
        self.w1 = nn.Linear(d_model, d_ff)
        self.w2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.act = ACTIVATION_FNS[activation]
        self.trace_path = ""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pre = trace.hook(self.trace_path, "hidden_pre", self.w1(x))  # (B,T,D) -> (B,T,d_ff)
        hidden = trace.hook(self.trace_path, "hidden", self.act(pre))
        out = self.w2(self.dropout(hidden))  # (B,T,d_ff) -> (B,T,D)
        return trace.hook(self.trace_path, "output", out)


def ffn_unit_axis(name: str) -> int | None:
    """The hidden-unit axis of a model parameter named NAME ("encoder.layers.0.ffn.w2.weight"
    -> 1), or None when it is not a feed-forward parameter with one."""
    owner, _, leaf = name.rpartition(".ffn.")
    return FeedForward.UNIT_AXIS.get(leaf) if owner else None


class Sublayer(nn.Module):
    """Residual connection with LayerNorm: post-LN `LN(x + drop(f(x)))` (the paper) or pre-LN
    `x + drop(f(LN(x)))`. Emits the residual sum and LayerNorm's row mean and std when recording
    (`std` is sqrt(var + eps), the divisor LayerNorm actually uses; var is the population one).
    Its hook points sit under the layer's path (residual{n}, norm{n}.input/mean/std/output)."""

    def __init__(self, d_model: int, dropout: float, norm_first: bool, eps: float, index: int):
        super().__init__()
        self.norm = nn.LayerNorm(d_model, eps=eps)
        self.dropout = nn.Dropout(dropout)
        self.norm_first = norm_first
        self.index = index  # 1-based position in the layer: names residual{n}, norm{n}
        self.trace_path = ""  # the layer's path

    def _normed(self, x: torch.Tensor) -> torch.Tensor:
        name = f"norm{self.index}"
        x = trace.hook(self.trace_path, f"{name}.input", x)
        if trace.recording():  # row statistics only the trace reads: computed only for it
            trace.hook(self.trace_path, f"{name}.mean", x.mean(-1))
            var = x.var(-1, unbiased=False)
            trace.hook(self.trace_path, f"{name}.std", torch.sqrt(var + self.norm.eps))
        return trace.hook(self.trace_path, f"{name}.output", self.norm(x))

    def forward(self, x: torch.Tensor, fn) -> torch.Tensor:
        name = f"residual{self.index}"
        if self.norm_first:
            return trace.hook(self.trace_path, name, x + self.dropout(fn(self._normed(x))))
        return self._normed(trace.hook(self.trace_path, name, x + self.dropout(fn(x))))


def _sublayers(cfg: ModelConfig, n: int) -> nn.ModuleList:
    return nn.ModuleList(Sublayer(cfg.d_model, cfg.dropout, cfg.norm_first, cfg.layer_norm_eps, i + 1)
                         for i in range(n))


class EncoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.attn_dropout)
        self.ffn = FeedForward(cfg.d_model, cfg.d_ff, cfg.dropout, cfg.activation)
        self.sublayers = _sublayers(cfg, 2)

    def forward(self, x: torch.Tensor, src_mask: torch.Tensor | None) -> torch.Tensor:
        x = self.sublayers[0](x, lambda y: self.self_attn(y, mask=src_mask))
        return self.sublayers[1](x, self.ffn)


class DecoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.attn_dropout)
        self.cross_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.attn_dropout)
        self.ffn = FeedForward(cfg.d_model, cfg.d_ff, cfg.dropout, cfg.activation)
        self.sublayers = _sublayers(cfg, 3)

    def forward(self, x: torch.Tensor, memory: torch.Tensor, src_mask: torch.Tensor | None,
                tgt_mask: torch.Tensor | None, cache: dict | None = None) -> torch.Tensor:
        self_cache = cache.setdefault("self", {}) if cache is not None else None
        cross_cache = cache.setdefault("cross", {}) if cache is not None else None
        x = self.sublayers[0](x, lambda y: self.self_attn(y, mask=tgt_mask, cache=self_cache))
        x = self.sublayers[1](x, lambda y: self.cross_attn(y, memory, mask=src_mask,
                                                           cache=cross_cache))
        return self.sublayers[2](x, self.ffn)


class Stack(nn.Module):
    """N identical layers, plus a final LayerNorm only for pre-LN (post-LN ends normalised)."""

    def __init__(self, layer_cls, n: int, cfg: ModelConfig):
        super().__init__()
        self.layers = nn.ModuleList(layer_cls(cfg) for _ in range(n))
        self.norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if cfg.norm_first else None
        self.trace_path = ""

    def finish(self, x: torch.Tensor) -> torch.Tensor:
        if self.norm is not None:
            x = self.norm(x)
        return trace.hook(self.trace_path, "output", x)


class Transformer(nn.Module):
    """forward(src (B,S), tgt_in (B,T)) -> logits (B,T,V). Masks come from cfg.pad_id."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        src_tok = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        tgt_tok = src_tok if cfg.tie_embeddings else nn.Embedding(cfg.vocab_size, cfg.d_model,
                                                                  padding_idx=cfg.pad_id)
        self.src_embed = Embeddings(src_tok, cfg)
        self.tgt_embed = Embeddings(tgt_tok, cfg)
        if cfg.positional == "learned" and cfg.tie_embeddings:
            self.tgt_embed.pos = self.src_embed.pos  # one position table, like the token table
        self.encoder = Stack(EncoderLayer, cfg.n_encoder_layers, cfg)
        self.decoder = Stack(DecoderLayer, cfg.n_decoder_layers, cfg)
        self.generator = nn.Linear(cfg.d_model, cfg.vocab_size,
                                   bias=cfg.logits_bias or not cfg.tie_embeddings)
        if cfg.tie_embeddings:
            self.generator.weight = src_tok.weight  # section 3.4: shared weights
        self._init_weights()
        self._set_trace_paths()

    def _init_weights(self) -> None:
        for name, p in self.named_parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)
            elif name.endswith("bias"):
                nn.init.zeros_(p)
        # Embeddings are multiplied by sqrt(d_model): start them at N(0, d^-1/2) scale so the
        # sum with PE is balanced (the usual choice for tied embeddings).
        nn.init.normal_(self.src_embed.token.weight, std=self.cfg.d_model ** -0.5)
        if not self.cfg.tie_embeddings:
            nn.init.normal_(self.tgt_embed.token.weight, std=self.cfg.d_model ** -0.5)
        with torch.no_grad():
            self.src_embed.token.weight[self.cfg.pad_id].zero_()
            self.tgt_embed.token.weight[self.cfg.pad_id].zero_()

    def _set_trace_paths(self) -> None:
        """Each recording module learns its dotted path once, here; nothing changes later."""
        for name, module in self.named_modules():
            if isinstance(module, Sublayer):
                module.trace_path = name.rsplit(".sublayers.", 1)[0]  # the layer's path
            elif hasattr(module, "trace_path"):
                module.trace_path = name

    # -- the three calls -------------------------------------------------------------------
    def encode(self, src: torch.Tensor, src_mask: torch.Tensor | None) -> torch.Tensor:
        x = self.src_embed(src)  # (B,S) -> (B,S,D)
        for layer in self.encoder.layers:
            x = layer(x, src_mask)
        return self.encoder.finish(x)

    def decode(self, tgt_in: torch.Tensor, memory: torch.Tensor, src_mask: torch.Tensor | None,
               tgt_mask: torch.Tensor | None, cache: list[dict] | None = None,
               start: int = 0) -> torch.Tensor:
        """Decoder stack. With `cache` (one dict per layer), tgt_in holds only new positions
        starting at `start`, and earlier keys/values come from the cache."""
        x = self.tgt_embed(tgt_in, start=start)  # (B,T) -> (B,T,D)
        for i, layer in enumerate(self.decoder.layers):
            x = layer(x, memory, src_mask, tgt_mask, None if cache is None else cache[i])
        return self.decoder.finish(x)

    def logits(self, h: torch.Tensor) -> torch.Tensor:
        return trace.hook("", "logits", self.generator(h))  # (B,T,D) -> (B,T,V)

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
        src_mask = padding_mask(src, self.cfg.pad_id)  # (B,1,1,S)
        tgt_mask = decoder_mask(tgt_in, self.cfg.pad_id, self.cfg.bos_id)  # (B,1,T,T)
        memory = self.encode(src, src_mask)
        return self.logits(self.decode(tgt_in, memory, src_mask, tgt_mask))

    def new_cache(self) -> list[dict]:
        return [{} for _ in self.decoder.layers]

    def num_parameters(self) -> int:
        """Distinct parameters (tied matrices counted once)."""
        return sum(p.numel() for p in self.parameters())
