"""The logit lens (nostalgebraist 2020) on the decoder: for every decoder layer and output
position, the pieces the model would write if that layer were the last (issue 52).

A layer's output is what the next layer reads: the last sublayer's LayerNorm output in a post-LN
model (`decoder.layers.{i}.norm3.output`), its residual sum in a pre-LN one (`residual3`). It goes
through the model's final decoder norm where it has one (pre-LN only; a post-LN stack ends
normalised and has none) and the output projection (the generator, tied to the embeddings in the
models trained here), then softmax. The last layer's lens is therefore the model's own output
distribution: its top piece at each position is the greedy output (tests/test_logit_lens.py).

    logit_lens(model, tokenizer, ins, k=5) -> [[[{"piece", "id", "prob"}, ...] per position]
                                               per decoder layer]

Position t is decoder position t: it reads input t (BOS, then the output pieces) and writes
output piece t (the last position writes </s> when the output is complete).
"""
from __future__ import annotations

import torch

from transformer.core.decode import _ban_pad
from transformer.core.names import layer_key
from transformer.core.trace import record

MAX_K = 5


def layer_outputs_keys(model) -> list[str]:
    """The trace key of each decoder layer's output."""
    out = []
    for i, layer in enumerate(model.decoder.layers):
        n = len(layer.sublayers)
        name = f"residual{n}" if model.cfg.norm_first else f"norm{n}.output"
        out.append(layer_key("decoder", i, name))
    return out


def _ids(ins_or_ids) -> tuple[list[int], list[int]]:
    if isinstance(ins_or_ids, (tuple, list)) and len(ins_or_ids) == 2:
        src, tgt = ins_or_ids
    else:  # an Inspected (transformer.probing.inspect) or anything with src_ids / tgt_ids
        src, tgt = ins_or_ids.src_ids, ins_or_ids.tgt_ids
    return [int(i) for i in src], [int(i) for i in tgt]


def lens_probs(model, src: list[int], tgt: list[int]) -> torch.Tensor:
    """(L, T, V) probabilities of the pieces written at each decoder position, read at the
    output of each decoder layer (L decoder layers, T = len(tgt))."""
    keys = layer_outputs_keys(model)
    wanted = set(keys)
    dev = next(model.parameters()).device
    with torch.inference_mode():
        with record(names=wanted.__contains__) as tr:
            model(torch.tensor([src], device=dev), torch.tensor([tgt], device=dev))
        h = torch.stack([tr[k][0] for k in keys]).to(dev)  # (L,T,D)
        if model.decoder.norm is not None:  # pre-LN: the model's final norm
            h = model.decoder.norm(h)
        logits = _ban_pad(model.cfg, model.generator(h).float())  # (L,T,V)
        return torch.softmax(logits, -1).cpu()


def logit_lens(model, tokenizer, ins_or_ids, k: int = MAX_K, digits: int | None = 6) -> list:
    """For every decoder layer, for every decoder position, the top `k` (1 to 5) pieces with
    their probabilities: [[[{"piece", "id", "prob"}, ...] per position] per layer]. `ins_or_ids`:
    an Inspected or (source ids, decoder input ids)."""
    if not 1 <= int(k) <= MAX_K:
        raise ValueError(f"k: must be 1 to {MAX_K} (got {k})")
    src, tgt = _ids(ins_or_ids)
    probs = lens_probs(model, src, tgt)
    p, idx = probs.topk(int(k), dim=-1)  # (L,T,k)
    names = {i: tokenizer.display([i])[0] for i in set(idx.flatten().tolist())}
    r = (lambda x: round(x, digits)) if digits is not None else float
    return [[[{"piece": names[int(i)], "id": int(i), "prob": r(float(q))}
              for q, i in zip(pp, ii)] for pp, ii in zip(pl, il)]
            for pl, il in zip(p.tolist(), idx.tolist())]
