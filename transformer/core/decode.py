"""Greedy, sampled and beam-search decoding with a key/value cache, plus the trace of the final
pass.

Incremental decoding (one new position per step, earlier keys/values from the cache) computes the
same numbers as a teacher-forced pass over the finished output; a test holds them equal, which is
why the trace of the final pass can stand for every step's attention.
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field

import torch

from transformer.core.masks import padding_mask
from transformer.core.model import Transformer
from transformer.core.text import TextError, source_ids
from transformer.core.trace import capture, record


# The search the app writes with: the one that scored best on every held-out set no generator wrote
# (issue 50: the lesson set, the seed notes' sentences and Ding's 1,000 pairs), on the default model
# among beam 5 with GNMT's length penalty alpha 0.2 / 0.6 / 1.0 and coverage penalty beta 0 / 0.4
# (docs/BENCHMARKS.md, "The decoding the pages write with"). transformer.heldout keeps its own
# protocol (beam 5, alpha 0.6), so its records compare across versions.
BEST_BEAM, BEST_ALPHA, BEST_COVERAGE = 5, 1.0, 0.4


@dataclass
class StepInfo:
    """What the model proposed at one step: top-k next tokens and their probabilities."""

    chosen: int
    top_ids: list[int]
    top_probs: list[float]


@dataclass
class DecodeResult:
    tokens: list[int]  # generated ids, without BOS and without the final EOS
    score: float  # sum of log-probabilities (beam: / length penalty + coverage penalty)
    finished: bool  # ended with EOS (False: stopped at max_len)
    steps: list[StepInfo] = field(default_factory=list)
    trace: dict | None = None  # teacher-forced pass over [BOS] + tokens, if asked for


def default_max_len(model: Transformer, src_len: int) -> int:
    """The paper's rule, input length + 50, within the positional table."""
    return max(1, min(src_len + 50, model.cfg.max_len - 1))


def _device(model: Transformer) -> torch.device:
    return next(model.parameters()).device


def _src_tensor(model: Transformer, src_ids) -> torch.Tensor:
    ids = list(src_ids)
    if not ids:
        raise ValueError("decode: the source is empty")
    if len(ids) > model.cfg.max_len:
        raise ValueError(f"decode: source of {len(ids)} tokens exceeds max_len {model.cfg.max_len}")
    return torch.tensor([ids], dtype=torch.long, device=_device(model))  # (1,S)


def _step_logits(model, token: torch.Tensor, memory, src_mask, cache, pos: int) -> torch.Tensor:
    """token (B,1) at position pos -> next-token logits (B,V), reusing the cache."""
    h = model.decode(token, memory, src_mask, None, cache, start=pos)  # (B,1,D)
    return model.generator(h[:, -1])  # (B,D) -> (B,V)


def _ban_pad(cfg, scores: torch.Tensor) -> torch.Tensor:
    """(..., V) scores with the pad column at -inf when the model must never emit pad
    (cfg.emit_pad False: Marian's bad_words_ids); unchanged otherwise."""
    if cfg.emit_pad:
        return scores
    scores = scores.clone()
    scores[..., cfg.pad_id] = float("-inf")
    return scores


def final_trace(model: Transformer, src_ids, tokens: list[int], ablate=None,
                names=None) -> dict:
    """Teacher-forced pass over [BOS] + tokens (+ EOS as the last input is not needed).
    `names`: which trace keys to keep (transformer.core.trace.record), None for all."""
    src = _src_tensor(model, src_ids)
    tgt = torch.tensor([[model.cfg.bos_id] + list(tokens)], device=src.device)  # (1,T)
    with torch.inference_mode(), record(ablate, names) as tr:
        model(src, tgt)
    return dict(tr)


def _generate(model: Transformer, src_ids, max_len: int | None, pick, topk: int,
              return_trace: bool) -> DecodeResult:
    cfg = model.cfg
    src = _src_tensor(model, src_ids)
    max_len = max_len or default_max_len(model, src.size(1))
    with torch.inference_mode():
        src_mask = padding_mask(src, cfg.pad_id)  # (1,1,1,S)
        memory = model.encode(src, src_mask)
        cache = model.new_cache()
        tokens: list[int] = []
        steps: list[StepInfo] = []
        score, last, finished = 0.0, cfg.bos_id, False
        for pos in range(max_len):
            logits = _ban_pad(cfg, _step_logits(model, torch.tensor([[last]], device=src.device),
                                                memory, src_mask, cache, pos)[0].float())  # (V,)
            logp = torch.log_softmax(logits, -1)
            nxt = int(pick(logits))
            score += float(logp[nxt])
            if topk:
                p, i = torch.softmax(logits, -1).topk(min(topk, logits.numel()))
                steps.append(StepInfo(nxt, i.tolist(), p.tolist()))
            if nxt == cfg.eos_id:
                finished = True
                break
            tokens.append(nxt)
            last = nxt
    return DecodeResult(tokens, score, finished, steps, _final(model, src_ids, tokens, return_trace))


def _final(model: Transformer, src_ids, tokens: list[int], return_trace) -> dict | None:
    """The decoders' `return_trace`: False for none, True for the whole final trace, or a names
    filter (trace key -> bool, transformer.core.trace.record) to keep only what a caller reads: a
    server keeping a 512-token decode keeps its weights, not every intermediate (issue 48)."""
    if not return_trace:
        return None
    return final_trace(model, src_ids, tokens, names=return_trace if callable(return_trace) else None)


def greedy(model: Transformer, src_ids, max_len: int | None = None, *, topk: int = 0,
           return_trace: bool = False) -> DecodeResult:
    return _generate(model, src_ids, max_len, lambda lg: lg.argmax(), topk, return_trace)


def sample(model: Transformer, src_ids, *, temperature: float = 1.0, top_k: int = 0,
           seed: int = 0, max_len: int | None = None, topk: int = 0,
           return_trace: bool = False) -> DecodeResult:
    """Temperature / top-k sampling, seeded so a class sees the same 'random' output."""
    if not (temperature > 0 and math.isfinite(temperature)):
        raise ValueError(f"temperature: must be > 0 (got {temperature})")
    if top_k < 0:
        raise ValueError(f"top_k: must be >= 0 (got {top_k})")
    gen = torch.Generator(device="cpu").manual_seed(int(seed))

    def pick(logits: torch.Tensor) -> int:
        lg = logits.float().cpu() / temperature
        if top_k:
            kth = lg.topk(min(top_k, lg.numel())).values[-1]
            lg = lg.masked_fill(lg < kth, float("-inf"))
        return int(torch.multinomial(torch.softmax(lg, -1), 1, generator=gen))

    return _generate(model, src_ids, max_len, pick, topk, return_trace)


LENGTH_PENALTIES = ("gnmt", "length")


def length_penalty(length: int, alpha: float, form: str = "gnmt") -> float:
    """GNMT's lp(Y) = ((5 + |Y|) / 6)^alpha, the paper's 'length penalty alpha = 0.6'; or
    form "length": |Y|^alpha, what transformers' generate (and Marian) divide by. |Y| counts EOS."""
    if form == "length":
        return float(length) ** alpha
    return ((5.0 + length) / 6.0) ** alpha


def check_coverage(beta: float, name: str = "coverage") -> float:
    """beta of the coverage penalty: a finite number >= 0 (0 switches it off), else ValueError
    (the CLIs print its one line and exit 2)."""
    if not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta >= 0):
        raise ValueError(f"{name}: must be a finite number >= 0, 0 for none (got {beta})")
    return float(beta)


def real_source(cfg, src: torch.Tensor) -> torch.Tensor:
    """(..., S) source ids -> (..., S) bool: the positions the coverage penalty counts, the real
    pieces. Padding receives no attention; EOS (which every source ends with,
    transformer.core.text.source_ids) and BOS (where a converted model's source carries one) are
    no word to translate: GNMT's encoder has no such position, and a source without real pieces
    (an empty line, only EOS) then has cp = 0."""
    return (src != cfg.pad_id) & (src != cfg.eos_id) & (src != cfg.bos_id)


def coverage_penalty(coverage: torch.Tensor, real: torch.Tensor, beta: float) -> torch.Tensor:
    """GNMT's coverage penalty (Wu et al. 2016, eq. 14): cp(X;Y) = beta * sum over source
    positions i of log(min(sum over target steps j of p_ij, 1)). coverage (..., S): the attention
    each source position received, summed over the target steps so far; real (S,) or (..., S),
    bool, True at the positions that count (real_source) -> cp (...,).

    cp <= 0, and it only rises towards 0 as attention accumulates: a source piece that the
    output has not yet attended to with a total weight of 1 costs log of what it got. A piece
    that got none at all (weights underflowed to 0) costs -inf, as the formula says."""
    logs = coverage.clamp(max=1.0).log()  # min(c_i, 1), then log: (..., S)
    return beta * logs.masked_fill(~real, 0.0).sum(-1)  # (..., S) -> (...,)


def _last_cross_path(model: Transformer) -> str:
    return model.decoder.layers[-1].cross_attn.trace_path


def beam_search(model: Transformer, src_ids, beam: int = 4, alpha: float = 0.6,
                max_len: int | None = None, *, return_trace: bool = False, lp: str = "gnmt",
                early_stopping: bool = True, recorder=None, coverage: float = 0.0
                ) -> DecodeResult:
    """Beam search with a cache. A hypothesis is finished when EOS is among the top `beam`
    candidates of a step (as fairseq does), so beam=1 is exactly greedy. Finished hypotheses are
    ranked by score / lp(length) (`lp`: "gnmt" or "length", see length_penalty), plus GNMT's
    coverage penalty cp when `coverage` (its beta) is above 0 (coverage_penalty; the candidates
    of a step are still chosen by their log-probability alone, as GNMT's pruning does).

    The attention cp reads is the last decoder layer's cross-attention, its heads' mean: it is
    the attention closest to the output, the one that feeds the words written, and one layer of
    weights is all an incremental step needs to compute (transformer.core.trace.capture makes
    only that layer run the explicit attention path). Target step j is the step that wrote the
    j-th token, the final EOS included, as |Y| in lp. coverage=0 computes nothing extra and
    gives exactly the scores of a search without it.

    early_stopping=True stops when `beam` hypotheses are finished (fairseq; transformers'
    early_stopping=True); at max_len the alive hypotheses count only if none finished.
    early_stopping=False is transformers' default: keep the `beam` best finished ones and go on
    while the best alive score / lp(current length) beats the worst of them; at max_len the
    alive hypotheses are ranked with the finished ones. With lp="length" and alpha equal to its
    length_penalty, this gives `generate(num_beams=beam, early_stopping=False)`'s output.

    recorder: an observer that changes nothing (transformer/core/beam_trace.py draws the search
    tree with it). Each step calls recorder.step(pos, candidates) with the step's 2*beam best
    extensions in rank order as (alive index, token, cumulative log-prob, what happened:
    "finished" (</s> among the top beam), "eos_pruned", "kept" or "pruned" (the beam was
    full)); the end calls recorder.done(tokens, score, raw log-prob, ended with </s>) with the
    hypothesis returned (score with cp)."""
    beta = check_coverage(coverage)
    if beam < 1:
        raise ValueError(f"beam: must be at least 1 (got {beam})")
    if alpha < 0 or not math.isfinite(alpha):
        raise ValueError(f"alpha: must be >= 0 (got {alpha})")
    if lp not in LENGTH_PENALTIES:
        raise ValueError(f"lp: must be one of {', '.join(LENGTH_PENALTIES)} (got {lp!r})")
    cfg = model.cfg
    src = _src_tensor(model, src_ids)
    max_len = max_len or default_max_len(model, src.size(1))
    dev = src.device
    finished: list[tuple[float, list[int], float, bool]] = []  # (normalised, tokens, raw, ended)
    stopped = False
    path = _last_cross_path(model)
    with torch.inference_mode(), \
            (capture({path}) if beta else contextlib.nullcontext()) as kept:
        src_mask = padding_mask(src, cfg.pad_id)
        memory = model.encode(src, src_mask)  # (1,S,D)
        cache = model.new_cache()
        hyps: list[list[int]] = [[]]
        scores = torch.zeros(1, device=dev)  # (n_alive,)
        last = torch.full((1, 1), cfg.bos_id, device=dev)
        if beta:  # (n_alive,S): the attention each source position received so far
            cov, real = torch.zeros(1, src.size(1), device=dev), real_source(cfg, src[0])
        cps: list[float] = []  # each alive hypothesis' cp after this step (beta > 0)
        for pos in range(max_len):
            n = len(hyps)
            mem = memory.expand(n, -1, -1)  # (1,S,D) -> (n,S,D)
            msk = src_mask.expand(n, -1, -1, -1)
            logp = torch.log_softmax(_step_logits(model, last, mem, msk, cache, pos).float(), -1)
            logp = _ban_pad(cfg, logp)  # after the softmax, as transformers' logits processors
            if beta:  # (n,H,1,S) -> (n,S): the heads' mean at the one new step, added
                cov = cov + kept[path].float().mean(1)[:, 0]
                cps = coverage_penalty(cov, real, beta).tolist()  # (n,)
            cand = (scores[:, None] + logp).view(-1)  # (n,V) -> (n*V,)
            top_s, top_i = cand.topk(min(2 * beam, cand.numel()))
            new_hyps, new_scores, origin, new_last = [], [], [], []
            seen = []  # (alive index, token, score, what happened), for the recorder
            for rank, (s, i) in enumerate(zip(top_s.tolist(), top_i.tolist())):
                h, tok = divmod(i, logp.size(1))
                if tok == cfg.eos_id:
                    if rank < beam:
                        toks = hyps[h]
                        norm = s / length_penalty(len(toks) + 1, alpha, lp)
                        finished.append((norm + cps[h] if beta else norm, toks, s, True))
                    seen.append((h, tok, s, "finished" if rank < beam else "eos_pruned"))
                    continue
                if len(new_hyps) < beam:
                    new_hyps.append(hyps[h] + [tok])
                    new_scores.append(s)
                    origin.append(h)
                    new_last.append(tok)
                    seen.append((h, tok, s, "kept"))
                else:
                    seen.append((h, tok, s, "pruned"))
            if recorder is not None:
                recorder.step(pos, seen)
            if not new_hyps:
                stopped = True
                break
            if early_stopping:
                if len(finished) >= beam:
                    stopped = True
                    break
            else:
                # transformers' test: the best alive log-prob / lp(now) against the worst kept
                # finished score, cp included. The alive one is taken at its best possible cp,
                # 0 (cp only rises towards 0 as attention accumulates): cp lowers only the
                # finished side, so it never stops the search sooner than the lengths alone
                # would (their part is transformers' heuristic, unchanged), and beta=0 stops
                # where it did.
                finished = sorted(finished, key=lambda f: f[0], reverse=True)[:beam]
                if len(finished) >= beam and \
                        new_scores[0] / length_penalty(pos + 1, alpha, lp) <= finished[-1][0]:
                    stopped = True
                    break
            idx = torch.tensor(origin, device=dev)
            for layer_cache in cache:
                sc = layer_cache["self"]
                sc["k"], sc["v"] = sc["k"].index_select(0, idx), sc["v"].index_select(0, idx)
                cc = layer_cache["cross"]
                cc["k"], cc["v"] = cc["k"][:1].expand(len(origin), -1, -1, -1), \
                    cc["v"][:1].expand(len(origin), -1, -1, -1)
            hyps, scores = new_hyps, torch.tensor(new_scores, device=dev)
            last = torch.tensor(new_last, device=dev)[:, None]  # (n,) -> (n,1)
            if beta:
                cov = cov.index_select(0, idx)  # (n,S) -> (n_kept,S)
                cps = [cps[h] for h in origin]
        if not finished or (not stopped and not early_stopping):
            # max_len reached: rank the alive hypotheses (alone, or with the finished ones)
            for i, (h, s) in enumerate(zip(hyps, scores.tolist())):
                norm = float(s) / length_penalty(len(h), alpha, lp)
                finished.append((norm + cps[i] if beta else norm, h, float(s), False))
    best = max(finished, key=lambda f: f[0])
    if recorder is not None:
        recorder.done(best[1], best[0], best[2], best[3])
    return DecodeResult(best[1], best[0], best[3], [], _final(model, src_ids, best[1], return_trace))


def translate(model: Transformer, tokenizer, texts: list[str], *, beam: int = 1,
              alpha: float = 0.6, batch_size: int = 64, max_len: int | None = None,
              coverage: float = 0.0) -> list[str]:
    """Decode many sentences: batched greedy for beam=1, one beam search per sentence else.
    `coverage`: beam search's coverage penalty beta (checked even for beam=1, where it changes
    nothing: one hypothesis has nothing to be ranked against)."""
    check_coverage(coverage)
    out: list[str] = []
    ids = []
    for t in texts:
        try:
            ids.append(source_ids(tokenizer, t, model.cfg.max_len)[0])
        except TextError:
            ids.append([model.cfg.eos_id])  # an empty line translates to an empty line
    if beam > 1:
        return [tokenizer.decode(beam_search(model, s, beam, alpha, max_len,
                                             coverage=coverage).tokens) for s in ids]
    for b in range(0, len(ids), batch_size):
        out.extend(tokenizer.decode(t) for t in greedy_batch(model, ids[b:b + batch_size], max_len))
    return out


def pad_right(model: Transformer, batch: list[list[int]]) -> torch.Tensor:
    """Sources of different lengths as one (B,S) tensor on the model's device, padded on the
    right with the model's pad id."""
    dev = _device(model)
    s = max(len(x) for x in batch)
    src = torch.full((len(batch), s), model.cfg.pad_id, dtype=torch.long, device=dev)  # (B,S)
    for r, x in enumerate(batch):
        src[r, :len(x)] = torch.tensor(x, device=dev)
    return src


def greedy_batch(model: Transformer, batch: list[list[int]], max_len: int | None = None
                 ) -> list[list[int]]:
    """Greedy decoding of a batch of sources at once (padding on the right)."""
    cfg = model.cfg
    dev = _device(model)
    src = pad_right(model, batch)  # (B,S)
    s = src.size(1)
    limit = max_len or default_max_len(model, s)
    with torch.inference_mode():
        src_mask = padding_mask(src, cfg.pad_id)
        memory = model.encode(src, src_mask)
        cache = model.new_cache()
        last = torch.full((len(batch), 1), cfg.bos_id, device=dev)  # (B,1)
        done = torch.zeros(len(batch), dtype=torch.bool, device=dev)
        outs = []
        for pos in range(limit):
            logits = _ban_pad(cfg, _step_logits(model, last, memory, src_mask, cache, pos))
            nxt = logits.argmax(-1)  # (B,V) -> (B,)
            nxt = nxt.masked_fill(done, cfg.eos_id)
            outs.append(nxt)
            done |= nxt == cfg.eos_id
            if bool(done.all()):
                break
            last = nxt[:, None]
        gen = torch.stack(outs, 1).tolist() if outs else [[] for _ in batch]  # (B,steps)
    result = []
    for row in gen:
        result.append(row[:row.index(cfg.eos_id)] if cfg.eos_id in row else row)
    return result
