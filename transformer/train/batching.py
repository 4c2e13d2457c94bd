"""Batches measured in tokens, of sentences of similar length (the paper's section 5.1).

Each epoch the examples are sorted by (source length, target length), ties broken by a seeded
random permutation, cut greedily into batches whose padded size (rows x (longest source + longest
target)) stays within the token budget, and the batches are shuffled with the same seeded
generator. The plan of an epoch is a pure function of (seed, epoch), so the data position is two
integers, (epoch, batch index), and a resumed run sees exactly the batches it would have seen.

With distributed training each rank takes every world-th batch of the same plan (the plan is cut
to a multiple of the world size so that all ranks step together).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np
import torch


@dataclass
class Batch:
    """src (B,S), tgt_in (B,T) = bos + target, tgt_out (B,T) = target + eos; padded with pad_id."""

    src: torch.Tensor
    tgt_in: torch.Tensor
    tgt_out: torch.Tensor
    indices: list[int]
    src_tokens: int  # real (non-pad) tokens
    tgt_tokens: int

    @property
    def tokens(self) -> int:
        return self.src_tokens + self.tgt_tokens

    def to(self, device, non_blocking: bool = False) -> "Batch":
        return Batch(self.src.to(device, non_blocking=non_blocking),
                     self.tgt_in.to(device, non_blocking=non_blocking),
                     self.tgt_out.to(device, non_blocking=non_blocking),
                     self.indices, self.src_tokens, self.tgt_tokens)


def plan_batches(src_lens: Sequence[int], tgt_lens: Sequence[int], batch_tokens: int, *,
                 seed: int = 0, epoch: int = 0, shuffle: bool = True,
                 max_sentences: int | None = None) -> list[list[int]]:
    """Index lists, one per batch. A target costs len + 1 (bos or eos). An example longer than
    the whole budget gets a batch of its own (never dropped)."""
    if batch_tokens < 1:
        raise ValueError(f"batch_tokens: must be at least 1 (got {batch_tokens})")
    n = len(src_lens)
    if n != len(tgt_lens):
        raise ValueError(f"plan_batches: {n} source lengths but {len(tgt_lens)} target lengths")
    if n == 0:
        return []
    if shuffle:
        g = torch.Generator().manual_seed(int(seed) * 1_000_003 + int(epoch))
        tiebreak = torch.randperm(n, generator=g).numpy()
    else:
        g = None
        tiebreak = np.arange(n)
    s = np.asarray(src_lens, dtype=np.int64)
    t = np.asarray(tgt_lens, dtype=np.int64) + 1
    order = np.lexsort((tiebreak, t, s))  # by source length, then target length, then random
    batches: list[list[int]] = []
    cur: list[int] = []
    max_s = max_t = 0
    for i in order.tolist():
        ms, mt = max(max_s, int(s[i])), max(max_t, int(t[i]))
        too_many = max_sentences is not None and len(cur) >= max_sentences
        if cur and ((len(cur) + 1) * (ms + mt) > batch_tokens or too_many):
            batches.append(cur)
            cur, ms, mt = [], int(s[i]), int(t[i])
        cur.append(i)
        max_s, max_t = ms, mt
    if cur:
        batches.append(cur)
    if shuffle:
        perm = torch.randperm(len(batches), generator=g).tolist()
        batches = [batches[j] for j in perm]
    return batches


class TokenBatcher:
    """An endless, restorable stream of index batches for one rank.

    `state_dict()` is {"epoch", "pos"}: the next batch is batch `pos` of epoch `epoch`'s plan."""

    def __init__(self, src_lens: Sequence[int], tgt_lens: Sequence[int], batch_tokens: int, *,
                 seed: int = 0, shuffle: bool = True, rank: int = 0, world_size: int = 1,
                 max_sentences: int | None = None):
        if not 0 <= rank < world_size:
            raise ValueError(f"rank: must be in [0, world_size={world_size}) (got {rank})")
        self.src_lens, self.tgt_lens = list(src_lens), list(tgt_lens)
        if not self.src_lens:
            raise ValueError("training data: no examples")
        self.batch_tokens, self.seed, self.shuffle = batch_tokens, seed, shuffle
        self.rank, self.world_size, self.max_sentences = rank, world_size, max_sentences
        self.epoch, self.pos = 0, 0
        self._plan_epoch: int | None = None
        self._plan: list[list[int]] = []

    def _epoch_plan(self, epoch: int) -> list[list[int]]:
        if self._plan_epoch != epoch:
            full = plan_batches(self.src_lens, self.tgt_lens, self.batch_tokens, seed=self.seed,
                                epoch=epoch, shuffle=self.shuffle, max_sentences=self.max_sentences)
            if self.world_size > 1:
                if len(full) < self.world_size:  # too little data: every rank reuses batches
                    full = (full * self.world_size)[: self.world_size]
                full = full[: len(full) - len(full) % self.world_size]
                full = full[self.rank::self.world_size]
            self._plan, self._plan_epoch = full, epoch
        return self._plan

    def batches_per_epoch(self) -> int:
        return len(self._epoch_plan(self.epoch))

    def __iter__(self) -> Iterator[list[int]]:
        return self

    def __next__(self) -> list[int]:
        plan = self._epoch_plan(self.epoch)
        if self.pos >= len(plan):
            self.epoch, self.pos = self.epoch + 1, 0
            plan = self._epoch_plan(self.epoch)
        idx = plan[self.pos]
        self.pos += 1
        return idx

    def state_dict(self) -> dict:
        return {"epoch": self.epoch, "pos": self.pos}

    def load_state_dict(self, state: dict) -> None:
        self.epoch, self.pos = int(state["epoch"]), int(state["pos"])


def collate(src: Sequence[Sequence[int]], tgt: Sequence[Sequence[int]], indices: Sequence[int], *,
            pad_id: int, bos_id: int, eos_id: int, pin: bool = False) -> Batch:
    """Pad the chosen examples into a Batch (right padding)."""
    b = len(indices)
    s_len = max(len(src[i]) for i in indices)
    t_len = max(len(tgt[i]) for i in indices) + 1
    s_arr = np.full((b, s_len), pad_id, dtype=np.int64)
    ti_arr = np.full((b, t_len), pad_id, dtype=np.int64)
    to_arr = np.full((b, t_len), pad_id, dtype=np.int64)
    n_src = n_tgt = 0
    for row, i in enumerate(indices):
        s, t = src[i], tgt[i]
        s_arr[row, : len(s)] = s
        ti_arr[row, 0] = bos_id
        ti_arr[row, 1: len(t) + 1] = t
        to_arr[row, : len(t)] = t
        to_arr[row, len(t)] = eos_id
        n_src += len(s)
        n_tgt += len(t) + 1
    src_t, ti_t, to_t = (torch.from_numpy(a) for a in (s_arr, ti_arr, to_arr))
    if pin:
        src_t, ti_t, to_t = src_t.pin_memory(), ti_t.pin_memory(), to_t.pin_memory()
    return Batch(src_t, ti_t, to_t, list(indices), n_src, n_tgt)


def fixed_batches(src: Sequence[Sequence[int]], tgt: Sequence[Sequence[int]], batch_tokens: int, *,
                  pad_id: int, bos_id: int, eos_id: int) -> list[Batch]:
    """Deterministic (unshuffled) batches over a whole split, e.g. for validation loss."""
    plan = plan_batches([len(x) for x in src], [len(y) for y in tgt], batch_tokens, shuffle=False)
    return [collate(src, tgt, idx, pad_id=pad_id, bos_id=bos_id, eos_id=eos_id) for idx in plan]
