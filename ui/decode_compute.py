"""What the Decode page computes, served from the one checkpoint cache (ui/inspect_cache.py):
one decoding (greedy, beam search with its tree and its coverage penalty, or sampling) and one
teacher-forced pass. Math in transformer/core/decode.py and transformer/core/beam_trace.py."""
from __future__ import annotations

import torch

from transformer.core import beam_trace as BTR
from transformer.core import decode as D
from transformer.core import notes as N
from transformer.core import trace as TR
from transformer.core.text import source_ids, target_ids
from ui import models
from ui.inspect_cache import per_checkpoint

def _shown(key: str) -> bool:
    """The trace keys the page shows (the decoders record only these): the decoder's attention
    weights (decoder self and cross) and the logits."""
    return key == "logits" or (key.endswith(".weights") and key.startswith("decoder."))


def _slim(trace: dict) -> dict:
    """What the page shows (the decoders recorded only `_shown` keys), as numpy."""
    return {k: v.numpy() for k, v in trace.items() if _shown(k)}


def _coverage_penalties(model, src: list[int], nodes, beta: float) -> dict[int, float]:
    """Node id -> GNMT's coverage penalty of that hypothesis (D.coverage_penalty, as beam_search
    computes it): one teacher-forced pass over [BOS] + its tokens but the last, the last decoder
    layer's cross-attention, its heads' mean, summed over the steps that wrote its tokens."""
    key = TR.point(model.decoder.layers[-1].cross_attn.trace_path, "weights")
    real = D.real_source(model.cfg, torch.tensor(src))
    out = {}
    for n in nodes:
        w = D.final_trace(model, src, n.tokens[:-1], names=lambda k: k == key)[key]  # (1,H,T,S)
        out[n.id] = float(D.coverage_penalty(w[0].float().mean(0).sum(0), real, beta))
    return out


def _beam(model, src: list[int], beam: int, alpha: float, beta: float):
    """The real beam search, its tree recorded on the way, and the returned hypothesis' log P
    and coverage penalty cp (its score is log P / lp + cp) and each finished hypothesis' cp
    (node id -> cp; {} when beta is 0)."""
    res, tree = BTR.trace_beam_search(model, src, beam, alpha, return_trace=_shown,
                                      coverage=beta)
    best = tree.nodes[tree.best]
    logp = best.logp
    cp = float(res.score) - logp / D.length_penalty(len(best.tokens), alpha) if beta else 0.0
    cps = {}
    if beta:
        cps = _coverage_penalties(model, src, [n for n in tree.finished() if n.id != best.id],
                                  beta)
        cps[best.id] = cp  # the one beam search computed, as the score shows it
    return res, tree, {"logp": logp, "cp": cp, "cps": cps}


@per_checkpoint
def decode(ck, text: str, method: str, beam: int, alpha: float, temperature: float, top_k: int,
           seed: int, coverage: float = 0.0) -> dict:
    """Decode `text` by `method` ("greedy", "beam", "sample"): tokens, score, whether EOS came,
    the decoder's attention and logits, the beam tree (beam search, with `coverage`, the coverage
    penalty's beta; its log P and cp, "logp" and "cp", and each finished hypothesis' cp, "cps"),
    the length limit and notes (the source cut to the model's limit). Raises TextError for
    unusable text."""
    src, cut = source_ids(ck.tokenizer, text, ck.model.cfg.max_len)
    tree, parts = None, {}
    if method == "beam":
        res, tree, parts = models.run_inference(_beam, ck.model, src, beam, alpha, coverage)
    elif method == "sample":
        res = models.run_inference(D.sample, ck.model, src, temperature=temperature, top_k=top_k,
                                   seed=seed, return_trace=_shown)
    else:
        res = models.run_inference(D.greedy, ck.model, src, return_trace=_shown)
    return {"src": src, "cut": cut, "tokens": list(res.tokens), "score": float(res.score),
            "finished": bool(res.finished), "trace": _slim(res.trace), "tree": tree,
            "max_len": D.default_max_len(ck.model, len(src)),
            "notes": [N.source_cut(ck.model.cfg.max_len)] if cut else [], **parts}


@per_checkpoint
def forced(ck, text: str, target: str) -> dict:
    """One teacher-forced pass of `target` after `text`: its pieces, the logits at each position
    and notes (the target cut to the model's limit)."""
    src, _ = source_ids(ck.tokenizer, text, ck.model.cfg.max_len)
    pieces, cut = target_ids(ck.tokenizer, target, ck.model.cfg.max_len)
    tr = models.run_inference(D.final_trace, ck.model, src, pieces)
    return {"pieces": pieces, "cut": cut, "logits": tr["logits"][0].numpy(),
            "notes": [N.target_cut(ck.model.cfg.max_len - 1)] if cut else []}
