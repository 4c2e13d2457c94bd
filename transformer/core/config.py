"""Model and training configuration.

Every checkpoint stores its ModelConfig as JSON, so a config is plain data: dataclasses whose
fields are numbers, strings and booleans. Impossible values raise ValueError at construction,
naming the field and the rule, so a bad sidebar setting or CLI flag never reaches the model.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any


def _require(cond: bool, field_name: str, rule: str, value: Any) -> None:
    if not cond:
        raise ValueError(f"{field_name}: {rule} (got {value!r})")


ACTIVATIONS = ("relu", "gelu", "silu")


def _from_json(cls, d, what: str):
    """`cls(**d)` for a JSON object `d`; anything else, and unknown keys, are refused with
    `what` named, so a typo never passes silently."""
    if not isinstance(d, dict):
        raise ValueError(f"{what}: must be a JSON object (got {type(d).__name__})")
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(d) - known)
    if unknown:
        raise ValueError(f"{what}: unknown field(s) {unknown}")
    return cls(**d)


@dataclass(frozen=True)
class ModelConfig:
    """Shape of an encoder-decoder Transformer; defaults are the paper's base model."""

    vocab_size: int = 8000
    d_model: int = 512
    n_heads: int = 8
    n_encoder_layers: int = 6
    n_decoder_layers: int = 6
    d_ff: int = 2048
    dropout: float = 0.1
    attn_dropout: float = 0.0  # dropout on attention weights; 0 keeps the fused CPU kernel fast
    max_len: int = 512  # longest sequence the positional encoding covers
    norm_first: bool = False  # False: post-LN as in the paper; True: pre-LN
    positional: str = "sinusoidal"  # or "learned"
    tie_embeddings: bool = True  # one matrix for source, target embeddings and the generator
    layer_norm_eps: float = 1e-5
    pad_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    unk_id: int = 3
    # Options a converted model needs (transformer.convert); the defaults are the paper's and
    # every checkpoint trained here uses them.
    activation: str = "relu"  # FFN nonlinearity: relu (the paper), gelu, or silu (Marian's swish)
    pe_layout: str = "interleaved"  # sinusoidal columns: sin/cos interleaved, or "halves" (Marian)
    scale_embedding: bool = True  # multiply token embeddings by sqrt(d_model)
    logits_bias: bool = False  # a bias on the generator even when tied (Marian's final_logits_bias)
    emit_pad: bool = True  # False: decoding never emits pad (Marian's bad_words_ids)

    def __post_init__(self) -> None:
        for name in ("vocab_size", "d_model", "n_heads", "n_encoder_layers", "n_decoder_layers",
                     "d_ff", "max_len"):
            value = getattr(self, name)
            _require(isinstance(value, int) and not isinstance(value, bool), name,
                     "must be an integer", value)
            _require(value >= 1, name, "must be at least 1", value)
        _require(self.vocab_size >= 5, "vocab_size", "must be at least 5 (4 special tokens + 1)",
                 self.vocab_size)
        for name, top in (("vocab_size", 1_000_000), ("d_ff", 65536), ("n_encoder_layers", 64),
                          ("n_decoder_layers", 64)):
            _require(getattr(self, name) <= top, name, f"must be at most {top:,}",
                     getattr(self, name))
        for name in ("norm_first", "tie_embeddings", "scale_embedding", "logits_bias", "emit_pad"):
            _require(isinstance(getattr(self, name), bool), name, "must be true or false",
                     getattr(self, name))
        _require(self.d_model % self.n_heads == 0, "d_model",
                 f"must be divisible by n_heads={self.n_heads}", self.d_model)
        _require(self.d_model <= 8192, "d_model", "must be at most 8192", self.d_model)
        _require(self.n_heads <= 256, "n_heads", "must be at most 256", self.n_heads)
        _require(self.max_len <= 65536, "max_len", "must be at most 65536", self.max_len)
        for name in ("dropout", "attn_dropout"):
            value = getattr(self, name)
            _require(isinstance(value, (int, float)) and not isinstance(value, bool)
                     and math.isfinite(value) and 0.0 <= value < 1.0, name,
                     "must be in [0, 1)", value)
        _require(self.positional in ("sinusoidal", "learned"), "positional",
                 "must be 'sinusoidal' or 'learned'", self.positional)
        _require(self.activation in ACTIVATIONS, "activation",
                 f"must be one of {', '.join(ACTIVATIONS)}", self.activation)
        _require(self.pe_layout in ("interleaved", "halves"), "pe_layout",
                 "must be 'interleaved' or 'halves'", self.pe_layout)
        _require(isinstance(self.layer_norm_eps, (int, float)) and 0 < self.layer_norm_eps < 1,
                 "layer_norm_eps", "must be in (0, 1)", self.layer_norm_eps)
        ids = [self.pad_id, self.bos_id, self.eos_id, self.unk_id]
        for name, value in zip(("pad_id", "bos_id", "eos_id", "unk_id"), ids):
            _require(isinstance(value, int) and not isinstance(value, bool)
                     and 0 <= value < self.vocab_size, name,
                     f"must be an integer in [0, vocab_size={self.vocab_size})", value)
        # The decoder's start token may be pad (Marian starts decoding from <pad>); the rest differ.
        _require(len({self.pad_id, self.eos_id, self.unk_id}) == 3
                 and self.bos_id not in (self.eos_id, self.unk_id), "pad_id",
                 "pad/bos/eos/unk ids must be distinct (bos may equal pad)", ids)

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "ModelConfig":
        """Build from JSON; unknown keys are refused so a typo never passes silently."""
        return _from_json(cls, d, "model config")

    def replace(self, **changes) -> "ModelConfig":
        return dataclasses.replace(self, **changes)


# Presets: shapes only; vocab_size is set from the tokenizer at training time.
PRESETS: dict[str, dict] = {
    # Trains a synthetic task in a minute or two on a 2-core CPU.
    "tiny": dict(d_model=64, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=256,
                 dropout=0.1),
    # A small translation model (~9M parameters with an 8k vocabulary).
    "small": dict(d_model=256, n_heads=8, n_encoder_layers=3, n_decoder_layers=3, d_ff=1024,
                  dropout=0.1),
    # The paper's base model.
    "base": dict(d_model=512, n_heads=8, n_encoder_layers=6, n_decoder_layers=6, d_ff=2048,
                 dropout=0.1),
}


def preset(name: str, **overrides) -> ModelConfig:
    if name not in PRESETS:
        raise ValueError(f"preset: must be one of {sorted(PRESETS)} (got {name!r})")
    return ModelConfig(**{**PRESETS[name], **overrides})


@dataclass(frozen=True)
class TrainConfig:
    """How to train; stored beside the ModelConfig in every checkpoint."""

    task: str = "copy"
    steps: int = 1000  # used when epochs == 0
    epochs: float = 0.0
    batch_tokens: int = 4096  # source + target tokens per batch (before padding)
    lr_scale: float = 1.0  # multiplies the paper's schedule
    warmup: int = 4000
    label_smoothing: float = 0.1
    grad_clip: float = 1.0
    weight_decay: float = 0.0
    eval_every: int = 200
    checkpoint_every: int = 500
    seed: int = 0
    device: str = "auto"
    extra: dict = field(default_factory=dict)  # task options (lengths, vocab, languages, paths)

    def __post_init__(self) -> None:
        for name in ("steps", "batch_tokens", "warmup", "eval_every", "checkpoint_every"):
            value = getattr(self, name)
            _require(isinstance(value, int) and not isinstance(value, bool) and value >= 1, name,
                     "must be an integer of at least 1", value)
        _require(isinstance(self.epochs, (int, float)) and math.isfinite(self.epochs)
                 and self.epochs >= 0, "epochs", "must be >= 0", self.epochs)
        _require(isinstance(self.lr_scale, (int, float)) and math.isfinite(self.lr_scale)
                 and self.lr_scale > 0, "lr_scale", "must be > 0", self.lr_scale)
        _require(isinstance(self.label_smoothing, (int, float))
                 and 0.0 <= self.label_smoothing < 1.0, "label_smoothing", "must be in [0, 1)",
                 self.label_smoothing)
        _require(isinstance(self.grad_clip, (int, float)) and self.grad_clip >= 0, "grad_clip",
                 "must be >= 0 (0 disables clipping)", self.grad_clip)
        _require(isinstance(self.weight_decay, (int, float)) and self.weight_decay >= 0,
                 "weight_decay", "must be >= 0", self.weight_decay)
        _require(self.device in ("auto", "cpu", "cuda") or str(self.device).startswith("cuda:"),
                 "device", "must be auto, cpu or cuda", self.device)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "TrainConfig":
        return _from_json(cls, d, "train config")


def resolve_device(name: str = "auto") -> str:
    """Turn 'auto' into 'cuda' or 'cpu'. Called only at entry points (CLI, app)."""
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError("device: cuda was asked for but no CUDA GPU is available")
    return name
