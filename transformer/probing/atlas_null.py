"""The permutation nulls of the head atlas (transformer/probing/atlas.py, issue 49, 1), split out
for issue 13's module size: each row's weights permuted over the keys it may see (`keyed_null`),
each sentence's strongest-word order shuffled (`monotonic_null`), the antecedents shuffled within
minimal pairs (`pronoun_null`), the Monte Carlo p-value (`p_value`) and Holm's correction
(`holm`). Every function draws from the generator it is given (the atlas seeds it), vectorised
over permutations and heads with torch."""
from __future__ import annotations

import torch

def moves(top: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(forward, moves) over the last axis of strongest keys (..., rows): the steps where the
    strongest key changes, and those of them that go forward."""
    step = top[..., 1:] - top[..., :-1]
    return (step > 0).sum(-1), (step != 0).sum(-1)


def p_value(null: torch.Tensor, observed: torch.Tensor, tol: float = 1e-9) -> torch.Tensor:
    """One-sided Monte Carlo permutation p: (1 + #{null >= observed}) / (1 + n_perm)."""
    return (1 + (null >= observed - tol).sum(0)).double() / (1 + null.shape[0])


def keyed_null(w_rows: torch.Tensor, allowed: torch.Tensor, keys: dict[str, torch.Tensor],
                n_perm: int, gen: torch.Generator, chunk: int = 256) -> dict[str, torch.Tensor]:
    """Each row's weights permuted over the keys it may see, n_perm times: behaviour ->
    (n_perm, L*H) the sum over rows of the weight that lands on the behaviour's keys.
    w_rows: (R, K, L*H) every scored row of every sentence (keys padded with zeros); allowed: (R,);
    keys: behaviour -> (R, K) bool. A row's m keys receive, after a uniform permutation of its
    allowed keys, the weights of a uniform random m-subset of them: the top m of uniform draws."""
    n_r, n_k, n_lh = w_rows.shape
    m = {b: k.sum(1) for b, k in keys.items()}
    m_max = int(max((int(v.max()) if v.numel() else 0) for v in m.values()))
    out = {b: torch.zeros(n_perm, n_lh, dtype=w_rows.dtype) for b in keys}
    if m_max == 0 or n_r == 0:
        return out
    hidden = torch.arange(n_k)[None, :] >= allowed[:, None]  # (R, K): keys a row may not see
    flat = w_rows.reshape(n_r * n_k, n_lh)
    base = (torch.arange(n_r) * n_k)[None, :, None]  # (1, R, 1)
    j = torch.arange(m_max)[None, :]
    names = list(keys)
    take = torch.stack([(j < m[b][:, None]).to(w_rows.dtype).reshape(-1) for b in names])  # (B, R*m_max)
    chunk = max(1, min(chunk, int(4e6 // (n_r * max(m_max, n_k) * n_lh))))  # ~32 MB at a time
    for s in range(0, n_perm, chunk):
        c = min(chunk, n_perm - s)
        r = torch.rand(c, n_r, n_k, generator=gen)
        r.masked_fill_(hidden, -1.0)
        idx = r.topk(m_max, dim=-1).indices + base  # (c, R, m_max) flat row-key positions
        got = flat[idx.reshape(-1)].reshape(c, n_r * m_max, n_lh)
        summed = torch.matmul(take, got)  # (c, B, L*H)
        for i, name in enumerate(names):
            out[name][s:s + c] = summed[:, i]
    return out


def monotonic_null(tops: list[torch.Tensor], n_perm: int, gen: torch.Generator) -> torch.Tensor:
    """Each sentence's sequence of strongest keys shuffled over its rows, n_perm times: (n_perm,
    L*H) the share of moves that go forward (0 where nothing moves). tops: per sentence
    (L*H, rows)."""
    n_lh = tops[0].shape[0] if tops else 0
    fwd = torch.zeros(n_perm, n_lh, dtype=torch.float64)
    n_moves = torch.zeros(n_perm, n_lh, dtype=torch.float64)
    for t in tops:
        n = t.shape[-1]
        if n < 2:
            continue
        perm = torch.rand(n_perm, n, generator=gen).argsort(-1)  # (P, n)
        f, m = moves(t.to(torch.int32)[:, perm])  # (L*H, P)
        fwd += f.T.double()
        n_moves += m.T.double()
    return fwd / n_moves.clamp_min(1)


def groups(items) -> torch.Tensor:
    """(N,) the group each probe item's antecedent is shuffled within: the two (or more)
    sentences of a minimal pair (the same words but one, so the same positions on both sides),
    else all the items without a pair together."""
    ids: dict = {}
    keys = [("pair", it.pair) if it.pair is not None else ("rest",) for it in items]
    sizes: dict = {}
    for k in keys:
        sizes[k] = sizes.get(k, 0) + 1
    keys = [k if sizes[k] > 1 else ("rest",) for k in keys]
    return torch.tensor([ids.setdefault(k, len(ids)) for k in keys], dtype=torch.float64)


def pronoun_null(tops: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor, groups: torch.Tensor,
                  n_perm: int, gen: torch.Generator):
    """The head's own strongest words kept, the antecedents shuffled within GROUPS (`groups`:
    within each minimal pair, so a head that lands on the same word in both sentences scores
    exactly what it scores unshuffled): (observed hits (L*H,), null hits (n_perm, L*H)).
    tops: (N, L*H) word indices; lo, hi: (N,) antecedent spans."""
    hit = lambda a, b: ((tops >= a[..., None]) & (tops <= b[..., None])).sum(-2)  # noqa: E731
    observed = hit(lo, hi).double()
    null = torch.empty(n_perm, tops.shape[1], dtype=torch.float64)
    base = torch.argsort(groups, stable=True)  # the items, group by group
    for s in range(0, n_perm, 1024):
        c = min(1024, n_perm - s)
        order = torch.argsort(groups + torch.rand(c, len(lo), generator=gen, dtype=torch.float64) * 0.5, -1)
        lo_p, hi_p = torch.empty(c, len(lo), dtype=lo.dtype), torch.empty(c, len(lo), dtype=lo.dtype)
        lo_p[:, base], hi_p[:, base] = lo[order], hi[order]  # item base[i] gets order[i]'s span
        null[s:s + c] = hit(lo_p, hi_p).double()
    return observed, null


def holm(p: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error control over all of `p`)."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running, m = [0.0] * len(p), 0.0, len(p)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out
