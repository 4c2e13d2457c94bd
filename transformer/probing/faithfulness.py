"""The faithfulness map: where a head looks against what it does (issue 49, item 2).

Why: a head that puts its weight on the antecedent is easy to show and easy to over-read. Looking
is not causing: the decoder may read the antecedent's gender elsewhere, and a head may carry the
choice while its weights point at nothing one would name. The map puts every head of every kind
on two axes measured on the same minimal pairs, `looks` (its weight on the antecedent phrase) and
`effect` (how far patching its output moves the pronoun's choice to the partner's), so the heads
that look without acting and those that act without looking can be named.

The definitions, kept exactly (the JSON holds these numbers):

- a pair (A, B): the two sentences of a minimal pair (probe lines sharing a "pair" id) whose
  reference pronouns differ and whose German references share every word before the pronoun.
  Both run with teacher forcing of that shared prefix (BOS + its pieces); the position that
  writes the pronoun is the prefix's last position; p_A, p_B are the first pieces of the two
  pronouns. (Only where a small vocabulary begins both pronouns with the same piece, "▁" + "er"
  and "▁" + "sie", where LD would be 0 in both runs, the first piece where they differ is taken
  and the shared pieces join the prefix; a pair whose pronouns no piece tells apart, or whose
  references differ before the pronoun, is skipped and counted in `skipped`.)
- LD(run) = logit(p_A) - logit(p_B) at that position.
- patching head h: its per-head attention output (`head_out`, before W_O) at one position is
  replaced by its value in the partner's run: encoder self-attention at the source position of
  "it" (its first piece), decoder self- and cross-attention at the position that writes the
  pronoun.
- effect(A <- B, h) = (LD_A - LD_patched) / (LD_A - LD_B); a head's `effect` is the mean over
  both directions of every pair.
- `looks`: the head's weight from that query position to the antecedent phrase's pieces (its
  article through its noun, summed), averaged over the pairs' sentences: encoder self and cross
  to the English phrase, decoder self to the German phrase in the prefix.

Beside them (extra): `looks_chance` per kind, the weight a head spreading evenly over the keys it
may see would put on the phrase; and the heads named as looking without acting and acting without
looking (THRESHOLDS). Every head is patched in one batched pass over all pairs: at the patched
layer every row still holds its own unpatched value, so each row takes its partner's from the
same batch (transformer/probing/interchange.py's swap_fn).

    python -m transformer.faithfulness --checkpoint CK --probe PAIRS.jsonl --json
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from typing import Sequence

import torch

from transformer.core import trace
from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.cli_util import OneLineParser
from transformer.core.decode import pad_right
from transformer.core.masks import decoder_mask, padding_mask
from transformer.core.names import KINDS, Head, model_heads
from transformer.core.text import TextError, source_ids, target_ids
from transformer.probing.heads import word_pieces
from transformer.probing.interchange import swap_fn
from transformer.probing.pairs import pair_groups
from transformer.probing.probe_items import ProbeItem, read_probe_file
from transformer.probing.taught import taught as taught_heads

# A head "looks" when at least LOOKS of its weight from the query lands on the antecedent phrase;
# it "acts" when patching it moves the logit difference at least EFFECT of the way to the
# partner's. Looking without acting: looks >= LOOKS and |effect| < EFFECT; acting without
# looking: |effect| >= EFFECT and looks < LOOKS.
THRESHOLDS = {"looks": 0.3, "effect": 0.1}
PAIRS_PER_BATCH = 64


@dataclass(frozen=True)
class Sentence:
    """One sentence of a pair, as the model reads it: source ids, the decoder input (BOS + the
    shared German prefix), where "it" is, and the antecedent phrase's positions (source pieces;
    decoder-input positions of the German phrase inside the prefix)."""

    item: int
    src: tuple[int, ...]
    tgt_in: tuple[int, ...]
    it: int
    phrase_src: tuple[int, ...]
    phrase_tgt: tuple[int, ...]

    @property
    def writes(self) -> int:
        """The decoder-input position that writes the pronoun: the prefix's last."""
        return len(self.tgt_in) - 1


@dataclass(frozen=True)
class Pair:
    a: Sentence
    b: Sentence
    piece_a: int  # p_A: the first piece of A's pronoun
    piece_b: int


def _pieces(tokenizer, ids: Sequence[int], span: tuple[int, int]) -> list[int]:
    return [j for w in range(span[0], span[1] + 1) for j in word_pieces(tokenizer, list(ids), w)]


def find_pairs(model, tokenizer, items: Sequence[ProbeItem]) -> tuple[list[Pair], int]:
    """The pairs the map is measured on (the module docstring's definition), in probe order, and
    how many minimal pairs with differing pronouns were skipped (no shared prefix, a shared first
    piece, or a word cut off)."""
    cfg = model.cfg
    pairs, skipped = [], 0
    for i, j in pair_groups(items):
        x, y = items[i], items[j]
        if not (x.target and y.target and x.tgt_pronoun is not None and y.tgt_pronoun is not None):
            continue
        wx, wy = x.target.split(), y.target.split()
        if wx[x.tgt_pronoun] == wy[y.tgt_pronoun]:
            continue  # the same pronoun: nothing to tell apart
        made = []
        for it, words in ((x, wx), (y, wy)):
            src = source_ids(tokenizer, it.text, cfg.max_len)[0]
            tgt = target_ids(tokenizer, it.target, cfg.max_len)[0]
            at = word_pieces(tokenizer, tgt, it.tgt_pronoun)
            q = word_pieces(tokenizer, src[:-1], it.pronoun)
            phrase_src = _pieces(tokenizer, src[:-1], it.span(False))
            t_span = it.span(True)
            phrase_tgt = [1 + p for p in _pieces(tokenizer, tgt, t_span) if at and p < at[0]]
            if not (at and q and phrase_src):
                made = None
                break
            made.append((src, tgt, at, q[0], phrase_src, phrase_tgt, words))
        if made is None or made[0][6][:x.tgt_pronoun] != made[1][6][:y.tgt_pronoun]:
            skipped += 1
            continue
        (ta, aa), (tb, ab) = (made[0][1], made[0][2]), (made[1][1], made[1][2])
        pa, pb = [ta[k] for k in aa], [tb[k] for k in ab]
        # the first pieces; where a small vocabulary begins both pronouns alike ("▁" + "er",
        # "▁" + "sie"), the first piece where they differ, the shared pieces joining the prefix
        c = next((k for k, (u, v) in enumerate(zip(pa, pb)) if u != v), None)
        if c is None or ta[:aa[0] + c] != tb[:ab[0] + c]:
            skipped += 1
            continue
        prefix = (cfg.bos_id, *ta[:aa[0] + c])
        sents = [Sentence(k, tuple(s), prefix, q, tuple(ps), tuple(pt))
                 for k, (s, _, _, q, ps, pt, _) in zip((i, j), made)]
        pairs.append(Pair(sents[0], sents[1], pa[c], pb[c]))
    return pairs, skipped


def _rows(pairs: Sequence[Pair]) -> list[Sentence]:
    return [s for p in pairs for s in (p.a, p.b)]  # a1, b1, a2, b2, ...: partner of r is r ^ 1


def _ld(logits: torch.Tensor, pairs: Sequence[Pair]) -> torch.Tensor:
    """(B,V) logits at each row's writing position -> (B,) LD = logit(p_A) - logit(p_B)."""
    r = torch.arange(logits.size(0))
    at = logits.double().cpu()
    pa = torch.tensor([p.piece_a for p in pairs for _ in (0, 1)])
    pb = torch.tensor([p.piece_b for p in pairs for _ in (0, 1)])
    return at[r, pa] - at[r, pb]


def _chunk(model, pairs: Sequence[Pair], heads: Sequence[Head]) -> dict:
    """Clean LD, per-row looks of every head and patched LD of every head, for some pairs. The
    same forward as model(src, tgt), in its three calls: the encoder runs again only for an
    encoder head, and the vocabulary projection only at the writing positions."""
    cfg = model.cfg
    rows = _rows(pairs)
    src = pad_right(model, [list(s.src) for s in rows])  # (B,S)
    tgt = pad_right(model, [list(s.tgt_in) for s in rows])  # (B,T)
    src_mask = padding_mask(src, cfg.pad_id)  # (B,1,1,S)
    tgt_mask = decoder_mask(tgt, cfg.pad_id, cfg.bos_id)  # (B,1,T,T)
    r = torch.arange(len(rows), device=src.device)
    writes = torch.tensor([s.writes for s in rows], device=src.device)

    # every layer's input, clean: a head patched at layer L leaves the layers below it as they
    # were, so its pass starts at layer L (the same calls as Transformer.encode / decode)
    enc_in, dec_in = [model.src_embed(src)], [model.tgt_embed(tgt)]  # (B,S,D), (B,T,D)
    for layer in model.encoder.layers:
        enc_in.append(layer(enc_in[-1], src_mask))
    memory = model.encoder.finish(enc_in.pop())  # (B,S,D)
    for layer in model.decoder.layers:
        dec_in.append(layer(dec_in[-1], memory, src_mask, tgt_mask))
    dec_out = dec_in.pop()

    def ld_of(h: torch.Tensor) -> torch.Tensor:
        h = model.decoder.finish(h)[r, writes]  # (B,T,D) -> (B,D)
        return _ld(model.generator(h), pairs)  # (B,V) -> (B,)

    def run_from(kind: str, layer: int) -> torch.Tensor:
        mem = memory
        if kind == "encoder_self":
            x = enc_in[layer]
            for lay in model.encoder.layers[layer:]:
                x = lay(x, src_mask)
            mem, layer = model.encoder.finish(x), 0
        x = dec_in[layer]
        for lay in model.decoder.layers[layer:]:
            x = lay(x, mem, src_mask, tgt_mask)
        return ld_of(x)

    with trace.record(names=lambda k: k.endswith(".weights")) as tr:
        model(src, tgt)
    # LD from the same (fused) path as the patched passes: a patch that changes nothing changes
    # LD by exactly 0
    ld = ld_of(dec_out)
    looks = {}
    for kind in KINDS:
        per_layer = tr.layers(kind)  # L x (B,H,T,S)
        if not per_layer:
            continue
        w = torch.stack(per_layer, 1).double()  # (B,L,H,T,S)
        rows_looks = []
        for i, s in enumerate(rows):
            q = s.it if kind == "encoder_self" else s.writes
            keys = list(s.phrase_tgt if kind == "decoder_self" else s.phrase_src)
            rows_looks.append(w[i, :, :, q, keys].sum(-1) if keys
                              else torch.zeros(w.shape[1:3], dtype=torch.double))
        looks[kind] = torch.stack(rows_looks)  # (B,L,H)
    patched = {}
    for h in heads:
        enc = h.kind == "encoder_self"
        at = [s.it if enc else s.writes for s in rows]
        swaps = [(i, at[i], i ^ 1, at[i ^ 1]) for i in range(len(rows))]
        with trace.intervene({h.key("head_out"): swap_fn(h.head, swaps)}):
            patched[h] = run_from(h.kind, h.layer)  # (B,)
    return {"ld": ld, "looks": looks, "patched": patched}


def _chance(rows: Sequence[Sentence], kind: str) -> float:
    """The looks of a head spreading its weight evenly over the keys it may see."""
    out = []
    for s in rows:
        if kind == "decoder_self":
            out.append(len(s.phrase_tgt) / (s.writes + 1))  # causal: keys 0..writes
        else:
            out.append(len(s.phrase_src) / len(s.src))
    return sum(out) / len(out)


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho (ties get their mean rank); None when either side is constant."""
    def ranks(v):
        t = torch.tensor(list(v), dtype=torch.double)
        order = torch.argsort(t)
        r = torch.empty_like(t)
        r[order] = torch.arange(len(t), dtype=torch.double)
        for val in torch.unique(t):  # ties: the mean rank
            m = t == val
            r[m] = r[m].mean()
        return r
    if len(x) < 2:
        return None
    rx, ry = ranks(x), ranks(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    den = float((rx.norm() * ry.norm()))
    return float((rx * ry).sum()) / den if den > 0 else None


def faithfulness(model, tokenizer, items: Sequence[ProbeItem], taught: dict | None = None,
                 heads: Sequence[Head] | None = None) -> dict:
    """The map's JSON for a model on probe items (module docstring); `taught`: {Head: how}
    (transformer.probing.taught). ValueError when the items hold no pair to measure."""
    pairs, skipped = find_pairs(model, tokenizer, items)
    if not pairs:
        raise ValueError("no minimal pair to measure: two probe lines sharing a \"pair\" id, "
                         "with German references whose pronouns differ and that share every "
                         "word before the pronoun")
    heads = list(heads) if heads is not None else model_heads(model.cfg)
    taught = taught or {}
    model.eval()
    ld, looks, patched = [], {}, {h: [] for h in heads}
    with torch.inference_mode():
        for b in range(0, len(pairs), PAIRS_PER_BATCH):
            part = _chunk(model, pairs[b:b + PAIRS_PER_BATCH], heads)
            ld.append(part["ld"])
            for kind, v in part["looks"].items():
                looks.setdefault(kind, []).append(v)
            for h in heads:
                patched[h].append(part["patched"][h])
    ld_all = torch.cat(ld)  # (2N,)
    partner = ld_all.view(-1, 2).flip(-1).reshape(-1)  # each row's partner's LD
    looks = {k: torch.cat(v).mean(0) for k, v in looks.items()}  # (L,H)
    rows = _rows(pairs)
    out = []
    for h in heads:
        eff = (ld_all - torch.cat(patched[h])) / (ld_all - partner)  # (2N,) both directions
        out.append({"kind": h.kind, "layer": h.layer, "head": h.head,
                    "looks": round(float(looks[h.kind][h.layer, h.head]), 6),
                    "effect": round(float(eff.mean()), 6),
                    "taught": list(taught.get(h, ()))})
    rho = spearman([r["looks"] for r in out], [r["effect"] for r in out])
    return {"pairs": len(pairs), "spearman": None if rho is None else round(rho, 6),
            "heads": out, "skipped": skipped,
            "looks_chance": {k: round(_chance(rows, k), 6) for k in KINDS if k in looks},
            "thresholds": dict(THRESHOLDS), **named(out)}


def named(heads: Sequence[dict], thresholds: dict | None = None) -> dict[str, list[str]]:
    """The heads that look without acting and act without looking (THRESHOLDS), as CLI names,
    most telling first (the furthest past the line)."""
    th = thresholds or THRESHOLDS
    look = [h for h in heads if h["looks"] >= th["looks"] and abs(h["effect"]) < th["effect"]]
    act = [h for h in heads if abs(h["effect"]) >= th["effect"] and h["looks"] < th["looks"]]
    name = lambda h: Head(h["kind"], h["layer"], h["head"]).cli  # noqa: E731
    return {"look_without_act": [name(h) for h in sorted(look, key=lambda h: -h["looks"])],
            "act_without_look": [name(h) for h in sorted(act, key=lambda h: -abs(h["effect"]))]}


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m transformer.faithfulness",
                       description="The faithfulness map: where each head looks against what "
                                   "patching it does, on minimal pairs.")
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--probe", required=True, help="a JSONL minimal-pair file (the project's "
                    "format: transformer/probes/minimal_pairs_en.jsonl)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    torch.set_num_threads(max(1, a.threads))
    start = time.perf_counter()
    try:
        ck = load_checkpoint(a.checkpoint)
        items = read_probe_file(a.probe)
        res = faithfulness(ck.model, ck.tokenizer, items, taught_heads(ck.train_config))
    except (CheckpointError, ValueError, TextError, OSError) as e:
        ap.error(str(e).splitlines()[0] if str(e) else type(e).__name__)
    if a.json:
        print(json.dumps(res, ensure_ascii=False))
        return 0
    print(f"{a.checkpoint}: {res['pairs']} pairs ({res['skipped']} skipped), spearman "
          f"{res['spearman']}, {time.perf_counter() - start:.1f} s")
    for r in res["heads"]:
        mark = f"  taught: {', '.join(r['taught'])}" if r["taught"] else ""
        print(f"  {r['kind']:13s} L{r['layer']} H{r['head']}  looks {r['looks']:.3f}  "
              f"effect {r['effect']:+.3f}{mark}")
    print("looks without acting:", ", ".join(res["look_without_act"]) or "none")
    print("acts without looking:", ", ".join(res["act_without_look"]) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
