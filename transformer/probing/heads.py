"""The head finder: score every attention kind, layer and head for a relation.

Anaphora (the paper's Figure 4, whose heads are encoder self-attention, layer 5 of 6; a trained
model may hold such a head in its decoder instead, as the shipped anaphora model does): for each
probe sentence, the head's attention from the pronoun is
taken at word level (pieces of a key word summed, pieces of the pronoun averaged), the pronoun
itself and special tokens are left out, and the head scores a hit when its strongest remaining
word belongs to the antecedent: the antecedent noun phrase, i.e. the noun and the article right
before it ("the dog", "den Becher"). The article counts because in German it is where the gender
lives, and a pronoun-resolving head in a decoder reads it there. Hits are also split by where they
land (the article or the noun), so a page can say which of the two a head reads instead of
claiming "the noun". Beside it stand the nearest-noun and first-noun baselines.

Other relations score the same (layers x heads) grid from a batch of sentences: previous token,
same token, first token / end-of-sentence sink, diagonal and anti-diagonal alignment.

The probe items and baselines live in transformer/probing/probe_items.py and the pronoun test in
transformer/probing/pronouns.py (split for issue 13's 500-line limit); import them from there
(issue 21: no re-exports).

    python -m transformer.heads --checkpoint DIR --probe anaphora --json
    python -m transformer.heads --checkpoint DIR --probe my_probe.jsonl
    python -m transformer.heads --checkpoint DIR --probe my_probe.jsonl --choices   # per sentence
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import torch

from transformer.core.cli_util import OneLineParser
from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.names import CLI_ERROR, KINDS, Head, Trace, ablate_map, attention_kind
from transformer.probing.probe_items import (ProbeItem, anaphora_probe, baselines,
                                             read_probe_file)
from transformer.probing.pronouns import (pronoun_accuracy)
from transformer.core.text import source_ids, target_ids
from transformer.probing.pairs import baseline_pairs, head_pair_accuracy, pair_groups, pair_share
from transformer.core.trace import record

PRONOUNS_DE = ("er", "sie", "es")
RELATIONS = ("previous_token", "self", "same_token", "first_token", "eos_sink", "diagonal",
             "anti_diagonal")


def _word_of_position(tokenizer, ids: list[int]) -> list[int]:
    """Token position -> word index over whitespace words (-1 for special tokens)."""
    groups = tokenizer.words(ids)
    owner = [-1] * len(ids)
    w = 0
    for g in groups:
        if len(g) == 1 and tokenizer.is_special(ids[g[0]]):  # a converted model's <pad> start too
            continue
        for p in g:
            owner[p] = w
        w += 1
    return owner


def word_pieces(tokenizer, ids: list[int], word: int) -> list[int]:
    """The positions in `ids` of the pieces of whitespace word `word`, in order (empty when the
    word has none, e.g. it was cut off)."""
    return [j for j, o in enumerate(_word_of_position(tokenizer, ids)) if o == word]


def word_attention(weights: torch.Tensor, q_owner: list[int], k_owner: list[int],
                   n_q_words: int, n_k_words: int) -> torch.Tensor:
    """(..., T, S) token weights -> (..., Wq, Wk) word weights: summed over a key word's pieces,
    averaged over a query word's pieces; specials (owner -1) dropped."""
    t, s = weights.shape[-2:]
    qm = torch.zeros(n_q_words, t)
    for i, w in enumerate(q_owner[:t]):
        if w >= 0:
            qm[w, i] = 1.0
    qm = qm / qm.sum(-1, keepdim=True).clamp(min=1)
    km = torch.zeros(s, n_k_words)
    for j, w in enumerate(k_owner[:s]):
        if w >= 0:
            km[j, w] = 1.0
    return qm @ weights @ km  # (Wq,T) @ (...,T,S) @ (S,Wk) -> (...,Wq,Wk)


@dataclass
class HeadScores:
    kind: str
    accuracy: torch.Tensor  # (layers, heads): share of items whose top word is in the antecedent
    mean_weight: torch.Tensor  # (layers, heads): mean word-level weight on the antecedent phrase
    n: int
    # (layers, heads): share of items whose top word is the article / the noun of the antecedent
    # phrase (on_article + on_noun == accuracy; on_article is 0 where no article precedes the noun)
    on_article: torch.Tensor | None = None
    on_noun: torch.Tensor | None = None
    # (items, layers, heads): the word each head's strongest weight lands on, per probe item,
    # over the key side's words (-1 where the item was not scored for this kind)
    tops: torch.Tensor | None = None


def _batch(model, tokenizer, items: list[ProbeItem]):
    cfg = model.cfg
    srcs, tgts = [], []
    for it in items:
        srcs.append(source_ids(tokenizer, it.text, cfg.max_len)[0])
        tgts.append([cfg.bos_id] + (target_ids(tokenizer, it.target, cfg.max_len)[0]
                                    if it.target else []))
    dev = next(model.parameters()).device
    s, t = max(map(len, srcs)), max(map(len, tgts))
    src = torch.full((len(items), s), cfg.pad_id, dtype=torch.long, device=dev)
    tgt = torch.full((len(items), t), cfg.pad_id, dtype=torch.long, device=dev)
    for i, (a, b) in enumerate(zip(srcs, tgts)):
        src[i, :len(a)] = torch.tensor(a)
        tgt[i, :len(b)] = torch.tensor(b)
    return srcs, tgts, src, tgt


def _layers(trace: Trace, kind: str) -> list[torch.Tensor]:
    return trace.layers(kind, "weights")  # L x (B,H,T,S)


def score_anaphora(model, tokenizer, items: list[ProbeItem], batch_size: int = 64,
                   ablate=None) -> dict[str, HeadScores]:
    """Score every head of every kind that the probe's positions allow: encoder self-attention
    always; cross and decoder self-attention when items carry target-side positions."""
    hits: dict[str, torch.Tensor] = {}
    article: dict[str, torch.Tensor] = {}
    noun: dict[str, torch.Tensor] = {}
    weight: dict[str, torch.Tensor] = {}
    counts: dict[str, int] = {}
    tops: dict[str, torch.Tensor] = {}
    for b in range(0, len(items), batch_size):
        chunk = items[b:b + batch_size]
        srcs, tgts, src, tgt = _batch(model, tokenizer, chunk)
        with torch.inference_mode(), record(ablate) as tr:
            model(src, tgt)
        for kind in KINDS:
            layers = _layers(tr, kind)
            if not layers:
                continue
            w_all = torch.stack(layers, 1)  # L x (B,H,T,S) -> (B,L,H,T,S)
            for i, it in enumerate(chunk):
                src_owner = _word_of_position(tokenizer, srcs[i])
                tgt_owner = [-1] + _word_of_position(tokenizer, tgts[i][1:])  # BOS is special
                if kind == "encoder_self":
                    q_owner, k_owner, qpos, span = src_owner, src_owner, it.pronoun, it.span(False)
                elif it.tgt_pronoun is None:
                    continue
                elif kind == "cross":
                    q_owner, k_owner, qpos, span = tgt_owner, src_owner, it.tgt_pronoun, it.span(False)
                else:
                    if it.tgt_antecedent is None:
                        continue
                    q_owner, k_owner, qpos, span = tgt_owner, tgt_owner, it.tgt_pronoun, it.span(True)
                # The decoder input at position p is the token BEFORE output word p: the query
                # that produces the German pronoun sits one position earlier than the word.
                if kind != "encoder_self":
                    q_owner = q_owner[1:] + [-1]
                nq, nk = max(q_owner) + 1, max(k_owner) + 1
                if qpos >= nq or span[1] >= nk:
                    continue
                t, s = len(q_owner), len(k_owner)
                ww = word_attention(w_all[i, :, :, :t, :s], q_owner, k_owner, nq, nk)  # (L,H,Wq,Wk)
                row = ww[:, :, qpos, :].clone()  # (L,H,Wk)
                if kind != "cross" and qpos < nk:
                    row[..., qpos] = -1.0  # the pronoun itself is left out
                top = row.argmax(-1)  # (L,H)
                if kind not in tops:
                    tops[kind] = torch.full((len(items), *top.shape), -1, dtype=torch.long)
                tops[kind][b + i] = top
                hit = (top >= span[0]) & (top <= span[1])
                hits[kind] = hits.get(kind, 0) + hit.float()
                on_noun = top == span[1]
                article[kind] = article.get(kind, 0) + (hit & ~on_noun).float()
                noun[kind] = noun.get(kind, 0) + on_noun.float()
                weight[kind] = weight.get(kind, 0) + ww[:, :, qpos, span[0]:span[1] + 1].sum(-1)
                counts[kind] = counts.get(kind, 0) + 1
    return {k: HeadScores(k, hits[k] / counts[k], weight[k] / counts[k], counts[k],
                          article[k] / counts[k], noun[k] / counts[k], tops[k]) for k in counts}


@dataclass(frozen=True)
class HeadChoice:
    """Where one head looked from the pronoun of one probe item. ``words``: the key side's words
    (the English sentence for encoder self-attention and cross-attention, the German reference
    for decoder self-attention); ``top``: the word it weighs most; ``span``: the antecedent's
    noun phrase on that side; ``pronoun``: the pronoun on that side (None for cross-attention,
    whose query is German and keys English)."""

    item: int
    words: tuple[str, ...]
    top: int
    span: tuple[int, int]
    pronoun: int | None

    @property
    def hit(self) -> bool:
        return self.span[0] <= self.top <= self.span[1]


def head_choices(items: list[ProbeItem], tops: dict, kind: str, layer: int,
                 head: int) -> list[HeadChoice]:
    """Sentence by sentence, where `kind` layer `layer` head `head` looked (the scored items
    only, in probe order): which sentences fool a head. `tops`: kind -> (items, layers, heads)
    word indices, `HeadScores.tops` of `score_anaphora` (a tensor or a numpy array)."""
    got = tops.get(kind)
    if got is None:
        return []
    target = attention_kind(kind).key == "target"
    out = []
    for i, it in enumerate(items):
        top = int(got[i][layer][head])
        if top < 0:
            continue
        words = tuple((it.target if target else it.text).split())
        pron = (it.tgt_pronoun if target else it.pronoun) if kind != "cross" else None
        out.append(HeadChoice(i, words, top, it.span(target), pron))
    return out


def best_head(scores: dict[str, HeadScores]) -> tuple[str, int, int, float, float]:
    best = None
    for kind, sc in scores.items():
        acc = sc.accuracy
        flat = int(torch.argmax(acc + 1e-6 * sc.mean_weight))
        layer, head = divmod(flat, acc.size(1))
        cand = (kind, layer, head, float(acc[layer, head]), float(sc.mean_weight[layer, head]))
        if best is None or (cand[3], cand[4]) > (best[3], best[4]):
            best = cand
    return best


def misses_first(choices: list[HeadChoice]) -> list[HeadChoice]:
    """The order of the sentence-by-sentence table: misses first, then probe order."""
    return sorted(choices, key=lambda c: (c.hit, c.item))


def choice_rows(choices) -> list[tuple[str, str, str, str]]:
    """The rows of the Heads page's sentence-by-sentence table (and of `--choices`), in
    `misses_first` order: (mark, sentence with the pronoun in [brackets], antecedent phrase,
    the word the head weighs most). `choices`: transformer.probing.heads.head_choices."""
    rows = []
    for c in misses_first(choices):
        words = list(c.words)
        if c.pronoun is not None and 0 <= c.pronoun < len(words):
            words[c.pronoun] = f"[{words[c.pronoun]}]"
        ante = " ".join(c.words[c.span[0]:c.span[1] + 1])
        top = c.words[c.top] if 0 <= c.top < len(c.words) else "</s>"  # past the words: EOS
        rows.append(("✓" if c.hit else "✗", " ".join(words), ante, top))
    return rows


# -- generic relations -------------------------------------------------------------------------
def relation_scores(model, tokenizer, pairs: list[tuple[str, str | None]], relation: str,
                    kind: str, batch_size: int = 64) -> torch.Tensor:
    """(layers, heads) share of queries whose strongest key is the one the relation names."""
    if relation not in RELATIONS:
        raise ValueError(f"relation: must be one of {', '.join(RELATIONS)}")
    if kind not in KINDS:
        raise ValueError(f"kind: must be one of {', '.join(KINDS)}")
    items = [ProbeItem(s, 0, 1, t) for s, t in pairs]
    total, n = None, 0
    for b in range(0, len(items), batch_size):
        chunk = items[b:b + batch_size]
        srcs, tgts, src, tgt = _batch(model, tokenizer, chunk)
        with torch.inference_mode(), record() as tr:
            model(src, tgt)
        w = torch.stack(_layers(tr, kind), 1)  # (B,L,H,T,S)
        sides = attention_kind(kind)
        for i in range(len(chunk)):
            q_ids, k_ids = sides.pick(srcs[i], tgts[i])
            t, s = len(q_ids), len(k_ids)
            target = _relation_targets(relation, q_ids, k_ids, model.cfg)
            rows = [q for q in range(t) if target[q] is not None]
            if not rows:
                continue
            top = w[i, :, :, :t, :s].argmax(-1)  # (L,H,T)
            want = torch.tensor([target[q] for q in rows])
            hit = (top[:, :, rows] == want).float().sum(-1)  # (L,H)
            total = hit if total is None else total + hit
            n += len(rows)
    if total is None:
        raise ValueError("no query in these sentences fits this relation")
    return total / n


def _relation_targets(relation: str, q_ids: list[int], k_ids: list[int], cfg) -> list[int | None]:
    t, s = len(q_ids), len(k_ids)
    if relation == "previous_token":
        return [q - 1 if 1 <= q <= s else None for q in range(t)]
    if relation == "self":
        return [q if q < s else None for q in range(t)]
    if relation == "same_token":
        out = []
        for q in range(t):
            same = [k for k in range(s) if k_ids[k] == q_ids[q] and k != q]
            out.append(same[0] if same else None)
        return out
    if relation == "first_token":
        return [0] * t
    if relation == "eos_sink":
        eos = [k for k in range(s) if k_ids[k] == cfg.eos_id]
        return [eos[-1] if eos else None] * t
    if relation == "diagonal":  # copy: the query producing output word q reads source word q
        return [q if q < s - 1 else None for q in range(t)]
    if relation == "anti_diagonal":  # reverse: it reads source word S-2-q (EOS is last)
        return [s - 2 - q if 0 <= s - 2 - q else None for q in range(t)]
    raise ValueError(relation)


# -- CLI ---------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(
        prog="python -m transformer.heads",
        description="Score every attention head for pronoun -> antecedent attention.")
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--probe", default="anaphora",
                    help="'anaphora' (the held-out split of the synthetic task) or a JSONL file")
    ap.add_argument("--n", type=int, default=200, help="probe sentences for --probe anaphora")
    ap.add_argument("--ablate", action="append", default=[], metavar="KIND:LAYER:HEAD",
                    help="also translate the probe with these heads switched off and report "
                         "pronoun accuracy with and without (e.g. decoder_self:1:1); repeatable")
    ap.add_argument("--choices", nargs="?", const="best", default=None, metavar="KIND:LAYER:HEAD",
                    help="also list, sentence by sentence, the word this head (default: the best "
                         "one) weighs most from the pronoun, misses first")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    off_heads = []  # --ablate's heads, in the order given
    for spec in args.ablate:
        try:
            off_heads.append(Head.parse(spec, form="cli"))
        except ValueError:
            ap.error("--ablate: " + CLI_ERROR.format(spec=spec))
    ablate = ablate_map(off_heads)
    shown = None  # --choices' head; None: the best one, known after scoring
    if args.choices not in (None, "best"):
        try:
            shown = Head.parse(args.choices, form="cli")
        except ValueError:
            ap.error("--choices: " + CLI_ERROR.format(spec=args.choices))
    torch.set_num_threads(max(1, args.threads))
    if args.n < 1:
        ap.error("--n must be at least 1")
    try:
        ck = load_checkpoint(args.checkpoint)
        items = anaphora_probe(n=args.n) if args.probe == "anaphora" else read_probe_file(args.probe)
    except (CheckpointError, ValueError) as e:
        ap.error(str(e))
    cfg = ck.model.cfg
    for h in off_heads:
        n_layers = attention_kind(h.kind, cfg).n_layers
        if h.layer >= n_layers or h.head >= cfg.n_heads:
            ap.error(f"--ablate: {h.path} head {h.head} is not in this model "
                     f"({n_layers} layers, {cfg.n_heads} heads)")
    if shown is not None:
        n_layers = attention_kind(shown.kind, cfg).n_layers
        if shown.layer >= n_layers or shown.head >= cfg.n_heads:
            ap.error(f"--choices: {args.choices} is not in this model ({n_layers} layers, "
                     f"{cfg.n_heads} heads)")
    scores = score_anaphora(ck.model, ck.tokenizer, items)
    kind, layer, head, acc, mw = best_head(scores)
    out = {"probe": args.probe, "n": len(items), "baselines": baselines(items),
           "best": {"kind": kind, "layer": layer, "head": head, "accuracy": round(acc, 4),
                    "mean_weight": round(mw, 4),
                    "on_article": round(float(scores[kind].on_article[layer, head]), 4),
                    "on_noun": round(float(scores[kind].on_noun[layer, head]), 4)},
           "heads": {k: {"accuracy": torch.round(v.accuracy, decimals=4).tolist(),
                         "mean_weight": torch.round(v.mean_weight, decimals=4).tolist(),
                         "n": v.n} for k, v in scores.items()}}
    groups = pair_groups(items)
    if groups:  # minimal pairs: the Winograd measure, by head, by pronoun, and the rules
        by_head = head_pair_accuracy(items, {k: v.tops for k, v in scores.items()})
        b_kind, b_layer, b_head, b_acc = max(
            ((k, *divmod(int(torch.argmax(v)), v.size(1)), float(v.max())) for k, v in by_head.items()),
            key=lambda r: r[3])
        out["pairs"] = {"n": len(groups), "baselines": baseline_pairs(items),
                        "best_head": {"kind": b_kind, "layer": b_layer, "head": b_head,
                                      "pair_accuracy": round(b_acc, 4)},
                        "featured_head": round(float(by_head[kind][layer, head]), 4),
                        "heads": {k: torch.round(v, decimals=4).tolist() for k, v in by_head.items()}}
    if ablate or args.probe == "anaphora" or any(it.target for it in items):
        base = pronoun_accuracy(ck.model, ck.tokenizer, items)
        out["pronoun_accuracy"] = base.accuracy
        if groups:
            out["pairs"]["by_pronoun"] = pair_share(base.hits, groups)
        if ablate:
            off = pronoun_accuracy(ck.model, ck.tokenizer, items, ablate=ablate)
            out["ablation"] = {"heads": args.ablate, "pronoun_accuracy": off.accuracy}
            if groups:
                out["ablation"]["pairs_by_pronoun"] = pair_share(off.hits, groups)
    if args.choices is not None:
        ck_kind, ck_layer, ck_head = (kind, layer, head) if shown is None else (
            shown.kind, shown.layer, shown.head)
        got = head_choices(items, {k: v.tops for k, v in scores.items()}, ck_kind, ck_layer, ck_head)
        out["choices"] = {"head": f"{ck_kind}:{ck_layer}:{ck_head}", "rows": choice_rows(got)}
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(f"probe {args.probe}: {len(items)} sentences; baselines {out['baselines']}")
        print(f"best head: {kind} layer {layer} head {head}: accuracy {acc:.3f}, "
              f"mean weight {mw:.3f}")
        if out.get("pronoun_accuracy") is not None:
            print(f"pronoun accuracy (greedy): {out['pronoun_accuracy']:.3f}")
        if "ablation" in out:
            print(f"with {', '.join(args.ablate)} switched off: "
                  f"{out['ablation']['pronoun_accuracy']:.3f}")
        if "pairs" in out:
            pr, bh = out["pairs"], out["pairs"]["best_head"]
            line = (f"minimal pairs ({pr['n']}), both sentences right: best head {bh['kind']} "
                    f"layer {bh['layer']} head {bh['head']} {bh['pair_accuracy']:.3f}")
            if pr.get("by_pronoun") is not None:
                line += f", by the German pronoun {pr['by_pronoun']:.3f}"
            if "ablation" in out and "pairs_by_pronoun" in out["ablation"]:
                line += f" ({out['ablation']['pairs_by_pronoun']:.3f} with the heads off)"
            print(line + "; always the first noun "
                  f"{pr['baselines']['first_noun']:.3f}, the nearest noun "
                  f"{pr['baselines']['nearest_noun']:.3f}")
        if "choices" in out:
            rows = out["choices"]["rows"]
            print(f"{out['choices']['head']}, sentence by sentence ({sum(r[0] == '✗' for r in rows)} "
                  f"of {len(rows)} miss; the pronoun in [brackets]):")
            for mark, sentence, ante, top in rows:
                print(f"  {mark} {sentence}   antecedent: {ante}   strongest: {top}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
