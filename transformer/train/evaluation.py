"""Validation during training: loss and token accuracy, then greedy decoding scored by the task's
own metric (BLEU, exact match, pronoun accuracy)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sacrebleu
import torch
import torch.nn.functional as F

from transformer.core.decode import greedy_batch
from transformer.core.model import Transformer
from transformer.probing.pronouns import pronoun_hit
from transformer.train.batching import Batch, fixed_batches
from transformer.train.corpus import Corpus

if TYPE_CHECKING:
    from transformer.train.loop import Trainer


@torch.no_grad()
def val_loss_acc(model: Transformer, batches: list[Batch], device: str, smoothing: float
                 ) -> tuple[float, float]:
    """Mean token loss (with the training smoothing) and token accuracy over padded batches."""
    model.eval()
    cfg = model.cfg
    tot_loss = torch.zeros((), dtype=torch.float64, device=device)
    correct = torch.zeros((), dtype=torch.long, device=device)
    n = 0
    is_cuda = str(device).startswith("cuda")
    for b in batches:
        b = b.to(device)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=is_cuda):
            logits = model(b.src, b.tgt_in)
        v = logits.size(-1)
        keep = b.tgt_out != cfg.pad_id
        loss = F.cross_entropy(logits.reshape(-1, v).float(), b.tgt_out.reshape(-1),
                               ignore_index=cfg.pad_id, label_smoothing=smoothing,
                               reduction="sum")
        tot_loss += loss
        correct += ((logits.argmax(-1) == b.tgt_out) & keep).sum()
        n += b.tgt_tokens
    model.train()
    return float(tot_loss) / max(n, 1), float(correct) / max(n, 1)


def pronoun_correct(hyp: str, ref: str, meta: dict) -> bool | None:
    """The trainer's pronoun metric is the head finder's (transformer.probing.heads.pronoun_hit): the
    reference's German pronoun at the pronoun's word position (meta "tgt_pronoun_pos"); None
    when the reference has no pronoun (not scored), so both places count the same way."""
    pos = meta.get("tgt_pronoun_pos")
    return pronoun_hit(hyp, ref, pos if isinstance(pos, int) else None)


def _share(hits) -> float:
    """Share of True among the scored (not None) items; 0.0 when none is scored."""
    scored = [h for h in hits if h is not None]
    return sum(scored) / len(scored) if scored else 0.0


class Evaluator:
    """Validation for the trainer: loss and token accuracy on (up to) `max_batches` batches, then
    greedy decoding of up to `max_sentences` sentences for the task's own score: BLEU (sacreBLEU)
    for translation, exact match for copy/reverse/sort, pronoun accuracy for anaphora. The score
    that picks the best checkpoint is that metric (val loss breaks nothing: it is reported too)."""

    def __init__(self, corpus: Corpus, tokenizer, val_src_ids, val_tgt_ids, keep_idx, *,
                 batch_tokens: int, max_sentences: int, ids: tuple[int, int, int],
                 n_samples: int = 3, max_batches: int = 50):
        self.corpus, self.tokenizer = corpus, tokenizer
        self.src_ids, self.tgt_ids = val_src_ids, val_tgt_ids
        self.keep_idx = keep_idx  # val example index of each encoded pair
        # the model config's (pad_id, bos_id, eos_id): no default, so a caller cannot fall back
        # to ids the model does not use
        pad, bos, eos = ids
        self.batches = fixed_batches(val_src_ids, val_tgt_ids, batch_tokens, pad_id=pad,
                                     bos_id=bos, eos_id=eos)[:max_batches]
        self.max_sentences = max_sentences
        self.n_samples = n_samples

    def __call__(self, trainer: Trainer) -> dict:
        model, device = trainer.model, trainer.device
        loss, acc = val_loss_acc(model, self.batches, device, trainer.cfg.label_smoothing)
        out: dict[str, Any] = {"val_loss": loss, "val_acc": acc}
        n = min(self.max_sentences, len(self.src_ids))
        if n == 0:
            out["score"] = -loss
            return out
        hyps_ids = decode_many(model, self.src_ids[:n], device)
        hyps = [self.tokenizer.decode(h) for h in hyps_ids]
        refs = [self.corpus.val_tgt[self.keep_idx[i]] for i in range(n)]
        srcs = [self.corpus.val_src[self.keep_idx[i]] for i in range(n)]
        task = self.corpus.task
        if self.corpus.kind == "translation":
            out["bleu"] = sacrebleu.corpus_bleu(hyps, [refs]).score
            out["score"] = out["bleu"]
        else:
            exact = sum(h == list(self.tgt_ids[i]) for i, h in enumerate(hyps_ids)) / n
            out["exact_match"] = exact
            out["score"] = exact
            if task == "anaphora":
                metas = [self.corpus.val_meta[self.keep_idx[i]] for i in range(n)]
                out["pronoun_acc"] = _share(pronoun_correct(h, r, m)
                                            for h, r, m in zip(hyps, refs, metas))
                out["score"] = out["pronoun_acc"]
        if self.corpus.heldout is not None and len(self.corpus.heldout[0]):  # an empty one: no score
            h_src, h_tgt, h_meta = self.corpus.heldout
            h_src, h_tgt, h_meta = (x[: self.max_sentences] for x in (h_src, h_tgt, h_meta))
            ids = [s + [model.cfg.eos_id] for s in self.tokenizer.encode_batch(h_src)]
            h_hyps = [self.tokenizer.decode(h) for h in decode_many(model, ids, device)]
            if self.corpus.kind == "translation":  # a second corpus (everyday: Ding's held out)
                out["heldout_bleu"] = sacrebleu.corpus_bleu(h_hyps, [list(h_tgt)]).score
                out["heldout_chrf"] = sacrebleu.corpus_chrf(h_hyps, [list(h_tgt)]).score
            else:
                out["heldout_pronoun_acc"] = _share(pronoun_correct(h, r, m) for h, r, m
                                                    in zip(h_hyps, h_tgt, h_meta))
            out["heldout_exact_match"] = sum(h == r for h, r in zip(h_hyps, h_tgt)) / max(len(h_src), 1)
        out["n_decoded"] = n
        out["samples"] = [{"src": s, "ref": r, "hyp": h}
                          for s, r, h in list(zip(srcs, refs, hyps))[: self.n_samples]]
        return out


def decode_many(model: Transformer, src_ids: list[list[int]], device: str,
                batch_size: int = 128) -> list[list[int]]:
    """Greedy decoding of many sources, in batches of similar length; returns ids in input order."""
    was_training = model.training
    model.eval()
    order = sorted(range(len(src_ids)), key=lambda i: len(src_ids[i]))
    res: dict[int, list[int]] = {}
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16,
                                         enabled=str(device).startswith("cuda")):
        for b in range(0, len(order), batch_size):
            chunk = order[b:b + batch_size]
            for i, h in zip(chunk, greedy_batch(model, [src_ids[i] for i in chunk])):
                res[i] = h
    model.train(was_training)
    return [res[i] for i in range(len(src_ids))]
