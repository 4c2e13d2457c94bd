"""What the Decode page computes, served from the one checkpoint cache (ui/inspect_cache.py):
one decoding (greedy, beam search with its tree, or sampling) and one teacher-forced pass. Math in
transformer/core/decode.py and transformer/core/beam_trace.py."""
from __future__ import annotations

from transformer.core import beam_trace as BTR
from transformer.core import decode as D
from transformer.core import notes as N
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


@per_checkpoint
def decode(ck, text: str, method: str, beam: int, alpha: float, temperature: float, top_k: int,
           seed: int) -> dict:
    """Decode `text` by `method` ("greedy", "beam", "sample"): tokens, score, whether EOS came,
    the decoder's attention and logits, the beam tree (beam search), the length limit and notes
    (the source cut to the model's limit). Raises TextError for unusable text."""
    src, cut = source_ids(ck.tokenizer, text, ck.model.cfg.max_len)
    tree = None
    if method == "beam":  # the real beam search, its tree recorded on the way
        res, tree = models.run_inference(BTR.trace_beam_search, ck.model, src, beam, alpha,
                                         return_trace=_shown)
    elif method == "sample":
        res = models.run_inference(D.sample, ck.model, src, temperature=temperature, top_k=top_k,
                                   seed=seed, return_trace=_shown)
    else:
        res = models.run_inference(D.greedy, ck.model, src, return_trace=_shown)
    return {"src": src, "cut": cut, "tokens": list(res.tokens), "score": float(res.score),
            "finished": bool(res.finished), "trace": _slim(res.trace), "tree": tree,
            "max_len": D.default_max_len(ck.model, len(src)),
            "notes": [N.source_cut(ck.model.cfg.max_len)] if cut else []}


@per_checkpoint
def forced(ck, text: str, target: str) -> dict:
    """One teacher-forced pass of `target` after `text`: its pieces, the logits at each position
    and notes (the target cut to the model's limit)."""
    src, _ = source_ids(ck.tokenizer, text, ck.model.cfg.max_len)
    pieces, cut = target_ids(ck.tokenizer, target, ck.model.cfg.max_len)
    tr = models.run_inference(D.final_trace, ck.model, src, pieces)
    return {"pieces": pieces, "cut": cut, "logits": tr["logits"][0].numpy(),
            "notes": [N.target_cut(ck.model.cfg.max_len - 1)] if cut else []}
