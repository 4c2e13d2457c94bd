"""One vocabulary of names: the attention kinds, a head, and the trace keys.

The model records its intermediates under dotted module paths (transformer.core.trace; the names are
listed in docs/INTERFACES.md): `encoder.layers.0.self_attn.weights`, `decoder.layers.1.norm2.mean`,
`logits`. Every key with a layer in it is built here, so no other module writes `.layers.{i}`.

A head has two written forms, both read by `Head.parse` and written by `Head.cli` / `Head.label`:

    cross:1:2      the CLI form (`python -m transformer.heads --ablate cross:1:2`)
    cross L1 H2    the UI form (the Heads and Attention pages)

Layers and heads are counted from 0 in both.
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Container

KINDS = ("encoder_self", "decoder_self", "cross")
STACKS = ("encoder", "decoder")
# kind -> (stack, attention module inside the layer)
_MODULE = {"encoder_self": ("encoder", "self_attn"), "decoder_self": ("decoder", "self_attn"),
           "cross": ("decoder", "cross_attn")}
SHORT = {"encoder_self": "enc", "decoder_self": "dec", "cross": "cross"}  # UI form of a kind
_FROM_SHORT = {v: k for k, v in SHORT.items()}
# what one attention records (transformer.core.attention), in the order the computation makes them
ATTN_NAMES = ("q", "k", "v", "scores", "scaled", "mask", "masked", "weights", "head_out",
              "concat", "output")

_CLI = re.compile(r"^(encoder_self|decoder_self|cross):(\d+):(\d+)$")
_LABEL = re.compile(r"^(enc|dec|cross) L(\d+) H(\d+)$")
CLI_ERROR = "expected KIND:LAYER:HEAD with KIND one of " + ", ".join(KINDS) + " (got {spec!r})"
LABEL_ERROR = "not a head name like 'cross L1 H2': {spec!r}"


def check_kind(kind: str) -> str:
    if not isinstance(kind, str) or kind not in _MODULE:
        raise ValueError(f"kind: must be one of {', '.join(KINDS)} (got {kind!r})")
    return kind


def stack_of(kind: str) -> str:
    """'encoder_self' -> 'encoder'; 'decoder_self' and 'cross' -> 'decoder'."""
    return _MODULE[check_kind(kind)][0]


# kind -> (query side, key side): the source sentence feeds the encoder, the target the decoder
_SIDES = {"encoder_self": ("source", "source"), "decoder_self": ("target", "target"),
          "cross": ("target", "source")}


@dataclass(frozen=True)
class AttentionKind:
    """One attention kind of a model: the stack it sits in, the side ('source' or 'target') its
    queries and its keys come from, and how many layers hold it (None without a config)."""

    kind: str
    stack: str
    query: str
    key: str
    n_layers: int | None = None

    def pick(self, source, target) -> tuple:
        """(queries, keys) out of a source and a target version of anything (ids, tokens):
        cross-attention -> (target, source)."""
        sides = {"source": source, "target": target}
        return sides[self.query], sides[self.key]


def attention_kind(kind: str, cfg=None) -> AttentionKind:
    """The one place that says where an attention kind's queries and keys come from and how many
    layers of it a model has: attention_kind('cross', cfg) -> AttentionKind('cross', 'decoder',
    'target', 'source', cfg.n_decoder_layers). `cfg`: a ModelConfig (or anything with
    n_encoder_layers and n_decoder_layers)."""
    stack = stack_of(kind)
    query, key = _SIDES[kind]
    n = None if cfg is None else int(getattr(cfg, f"n_{stack}_layers"))
    return AttentionKind(kind, stack, query, key, n)


def model_heads(cfg) -> list["Head"]:
    """Every head of a model, kind by kind (KINDS order), then layer, then head."""
    return [Head(kind, layer, h) for kind in KINDS
            for layer in range(attention_kind(kind, cfg).n_layers) for h in range(cfg.n_heads)]


# -- trace keys ---------------------------------------------------------------------------------
def layer_path(stack: str, layer: int) -> str:
    """'decoder', 1 -> 'decoder.layers.1': the one place a layer's path is written."""
    if stack not in STACKS:
        raise ValueError(f"stack: must be one of {', '.join(STACKS)} (got {stack!r})")
    return f"{stack}.layers.{int(layer)}"


def attn_path(kind: str, layer: int) -> str:
    """'cross', 1 -> 'decoder.layers.1.cross_attn' (the trace prefix of that attention, and the
    key of transformer.core.trace's ablate maps)."""
    stack, module = _MODULE[check_kind(kind)]
    return f"{layer_path(stack, layer)}.{module}"


def trace_key(kind: str, layer: int, name: str) -> str:
    """'cross', 1, 'weights' -> 'decoder.layers.1.cross_attn.weights' (name: one of ATTN_NAMES)."""
    return f"{attn_path(kind, layer)}.{name}"


def layer_key(stack: str, layer: int, name: str) -> str:
    """'encoder', 0, 'norm1.mean' -> 'encoder.layers.0.norm1.mean': what a layer records outside
    its attention (residual{n}, norm{n}.input/mean/std/output, ffn.hidden_pre/hidden/output)."""
    return f"{layer_path(stack, layer)}.{name}"


def count_layers(trace: Container[str], kind: str) -> int:
    """How many layers of this kind the trace holds attention weights for (0, 1, ...)."""
    n = 0
    while trace_key(kind, n, "weights") in trace:
        n += 1
    return n


# -- heads --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Head:
    """One attention head: Head('cross', 1, 2) is 'cross:1:2' on the command line and
    'cross L1 H2' on screen."""

    kind: str
    layer: int
    head: int

    def __post_init__(self):
        check_kind(self.kind)
        for field_name in ("layer", "head"):
            v = getattr(self, field_name)
            try:
                n = None if isinstance(v, bool) else operator.index(v)  # int, numpy integers
            except TypeError:
                n = None
            if n is None or n < 0:
                raise ValueError(f"{field_name}: must be an integer >= 0 (got {v!r})")
            object.__setattr__(self, field_name, int(n))

    @classmethod
    def parse(cls, spec: str, form: str | None = None) -> "Head":
        """Read 'cross:1:2' (form 'cli') or 'cross L1 H2' (form 'label'); form None takes either.
        Raises ValueError naming the expected form."""
        if form not in (None, "cli", "label"):
            raise ValueError(f"form: must be 'cli', 'label' or None (got {form!r})")
        text = spec.strip() if isinstance(spec, str) else ""
        if form in (None, "cli"):
            m = _CLI.match(text)
            if m:
                return cls(m.group(1), int(m.group(2)), int(m.group(3)))
        if form in (None, "label"):
            m = _LABEL.match(text)
            if m:
                return cls(_FROM_SHORT[m.group(1)], int(m.group(2)), int(m.group(3)))
        if form == "cli":
            raise ValueError(CLI_ERROR.format(spec=spec))
        if form == "label":
            raise ValueError(LABEL_ERROR.format(spec=spec))
        raise ValueError(f"not a head: expected KIND:LAYER:HEAD like 'cross:1:2' or a name like "
                         f"'cross L1 H2' (got {spec!r})")

    @classmethod
    def from_dict(cls, d) -> "Head":
        """A head written as {"kind", "layer", "head"} (history.json's featured_head and its
        "also" list); ValueError when it is not one."""
        if not isinstance(d, dict):
            raise ValueError(f"not a head: expected {{'kind', 'layer', 'head'}} (got {d!r})")
        return cls(d.get("kind"), d.get("layer"), d.get("head"))

    @property
    def cli(self) -> str:
        return f"{self.kind}:{self.layer}:{self.head}"

    @property
    def label(self) -> str:
        return f"{SHORT[self.kind]} L{self.layer} H{self.head}"

    @property
    def path(self) -> str:
        """The attention's trace path, the key of an ablate map."""
        return attn_path(self.kind, self.layer)

    def key(self, name: str) -> str:
        return trace_key(self.kind, self.layer, name)

    def __str__(self) -> str:
        return self.label


def ablate_map(heads) -> dict[str, list[int]]:
    """The one builder of an ablation map: Heads -> {attention path: [head, ...]} for
    transformer.core.trace's ablation / record(ablate=...); heads sorted and once each, paths
    sorted. Anything else (a label, a 'kind:layer:head' string, a tuple) is refused: parse it
    with Head.parse first."""
    out: dict[str, set[int]] = {}
    for h in heads:
        if not isinstance(h, Head):
            raise TypeError(f"ablate_map: expected Head objects (got {h!r}); use Head.parse")
        out.setdefault(h.path, set()).add(h.head)
    return {p: sorted(hs) for p, hs in sorted(out.items())}


def parse_heads(specs, form: str | None = None) -> list[Head]:
    """Head.parse over several specs (e.g. the repeated --ablate flags), in order."""
    return [Head.parse(s, form=form) for s in specs]



class Trace(dict):
    """What a recording holds (transformer.core.trace.record yields one): a dict from trace key to
    tensor, with accessors so that callers name what they want instead of building keys.

        trace.get("cross", 1, "weights")      # == trace["decoder.layers.1.cross_attn.weights"]
        trace.layer("encoder", 0, "norm1.mean")
        trace.n_layers("decoder_self")

    With one or two arguments `get` is dict.get, so code that treats it as a dict keeps working.
    """

    def get(self, *args):
        if len(args) == 3:
            return self[trace_key(*args)]
        return super().get(*args)

    def layer(self, stack: str, layer: int, name: str):
        return self[layer_key(stack, layer, name)]

    def n_layers(self, kind: str) -> int:
        return count_layers(self, kind)

    def layers(self, kind: str, name: str = "weights") -> list:
        """One entry per layer of this kind, e.g. every layer's (B,H,T,S) weights."""
        return [self.get(kind, i, name) for i in range(self.n_layers(kind))]

    def residual(self, stack: str, layer: int, n: int):
        """The residual stream after sublayer n (1-based: 1 the self-attention, 2 the decoder's
        cross-attention or the feed-forward, 3 the decoder's feed-forward): x + sublayer(...),
        as recorded under `{stack}.layers.{layer}.residual{n}`."""
        return self.layer(stack, layer, f"residual{int(n)}")

    def norm_stats(self, stack: str, layer: int, n: int) -> dict:
        """Sublayer n's LayerNorm: {'mean', 'std', 'output'}, the row mean, the row std
        (sqrt(var + eps), population variance) and the normalised result, as recorded under
        `{stack}.layers.{layer}.norm{n}.*` (what the Step page's Add & Norm shows)."""
        return {x: self.layer(stack, layer, f"norm{int(n)}.{x}") for x in ("mean", "std", "output")}
