"""Head atlas: every head of every kind labelled by what it does, with a score in [0, 1].

The head finder asks one question (does the pronoun's row land on the antecedent?). The atlas
asks every cheap question of every head at once, over a set of sentences (a task's held-out
data, a probe, or the sentences shipped with the project), and names the behaviour that
describes the head best, or "none" (no clear role) when no score reaches the bar:

    previous    weight on the token just before the query (self-attention)
    next        weight on the token just after it (encoder self-attention; the decoder is masked)
    diagonal    weight on the query's own position (self-attention), or, for cross-attention,
                on the source token at the same position (what copying needs)
    reversed    cross-attention on the source token mirrored from the end (what reversing needs)
    sink        weight on the first token or on </s>, a "no-op" resting place
    broad       the row's entropy over its keys, divided by the largest possible (log of the
                number of keys): 1 is uniform attention
    punctuation weight on punctuation keys (".", ",", "?", ...)
    monotonic   cross-attention whose strongest source word never moves backwards from one output
                token to the next (share of steps), an alignment that reads the source in order
    pronoun     share of probe sentences in which the head's strongest word from the pronoun is
                the antecedent (transformer.heads); only with a probe that names them

Every score is an average over queries and sentences; `label` takes the most specific behaviour
that reaches LABEL_BAR (0.5): pronoun, then a position (diagonal, reversed, previous, next), then
sink / punctuation / monotonic, then broad ("no role" said positively); below the bar, "none".

    python -m transformer.atlas --checkpoint checkpoints/copy-tiny [--probe FILE] [--json]
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import torch

from transformer.core.cli_util import OneLineParser
from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.names import KINDS
from transformer.data import tasks as data
from transformer.probing.heads import score_anaphora
from transformer.probing.inspect import inspect_text
from transformer.probing.probe_items import read_probe_file

BEHAVIOURS = ("previous", "next", "diagonal", "reversed", "sink", "broad", "punctuation",
              "monotonic", "pronoun")
APPLIES = {  # which behaviours a kind can show
    "encoder_self": ("previous", "next", "diagonal", "sink", "broad", "punctuation", "pronoun"),
    "decoder_self": ("previous", "diagonal", "sink", "broad", "punctuation", "pronoun"),
    "cross": ("diagonal", "reversed", "sink", "broad", "punctuation", "monotonic", "pronoun"),
}
LABEL_BAR = 0.5
NO_ROLE = "none"
PUNCTUATION = set(".,;:!?\"'()-–—…«»„“”")
PROBES = Path(__file__).resolve().parents[1] / "probes"


@dataclass
class HeadRole:
    kind: str
    layer: int
    head: int
    label: str  # one of BEHAVIOURS, or NO_ROLE
    score: float  # the label's score (for NO_ROLE: the best score that fell short)
    scores: dict[str, float] = field(default_factory=dict)


def _sums(w: torch.Tensor, kind: str, q_tok: list[str], k_tok: list[str],
          q_special: list[bool], k_special: list[bool]) -> dict[str, torch.Tensor]:
    """Per behaviour, the (layers, heads) sum over this sentence's scored query rows, and the
    number of rows ("_rows"; "_steps" for monotonic). w: (L, H, Q, K) weights of one sentence."""
    n_l, n_h, n_q, n_k = w.shape
    rows = [q for q in range(n_q) if not q_special[q] or kind != "encoder_self"]
    rows = [q for q in rows if w[0, 0, q].sum() > 0]  # a fully masked row holds nothing
    out: dict[str, torch.Tensor] = {}
    z = torch.zeros(n_l, n_h)

    def pick(pos_of):  # weight on one key position per row (rows without one count 0)
        total = z.clone()
        for q in rows:
            k = pos_of(q)
            if k is not None and 0 <= k < n_k:
                total += w[:, :, q, k]
        return total

    words_k = [i for i in range(n_k) if not k_special[i]]  # the source's words (no </s>)
    n_src = len(words_k)
    out["previous"] = pick(lambda q: q - 1 if q > 0 else None)
    out["next"] = pick(lambda q: q + 1)
    out["diagonal"] = pick(lambda q: q)
    if kind == "cross":
        # decoder input q (BOS at 0) writes output token q: its source partner is q (copy) or
        # n_src - 1 - q (reverse), over the source's words
        out["diagonal"] = pick(lambda q: words_k[q] if q < n_src else None)
        out["reversed"] = pick(lambda q: words_k[n_src - 1 - q] if q < n_src else None)
        # monotonic: the strongest source word does not move backwards from one row to the next
        top = w[:, :, rows, :].argmax(-1) if rows else None  # (L, H, rows)
        if top is not None and top.shape[-1] > 1:
            out["monotonic"] = (top[..., 1:] >= top[..., :-1]).float().sum(-1)
            out["_steps"] = torch.full((n_l, n_h), float(top.shape[-1] - 1))
    sink_keys = [0] + [k for k in range(n_k) if k_tok[k] == "</s>"]
    out["sink"] = sum((w[:, :, rows][..., k].sum(-1) for k in set(sink_keys)), z.clone())
    punct = [k for k in range(n_k) if k_tok[k].strip() and set(k_tok[k].strip()) <= PUNCTUATION]
    out["punctuation"] = (w[:, :, rows][..., punct].sum(-1).sum(-1) if punct and rows else z.clone())
    ent = z.clone()
    for q in rows:
        n_keys = int((w[0, 0, q] > 0).sum()) if kind == "decoder_self" else n_k
        if n_keys > 1:
            p = w[:, :, q, :].clamp_min(1e-12)
            ent += -(p * p.log()).sum(-1) / math.log(n_keys)
        else:
            ent += 0.0
    out["broad"] = ent
    out["_rows"] = torch.full((n_l, n_h), float(len(rows)))
    return out


def measure(model, tokenizer, sentences: list[str], probe_items=None) -> dict[str, dict[str, torch.Tensor]]:
    """kind -> behaviour -> (layers, heads) score in [0, 1], averaged over SENTENCES (each run
    through the model with its own greedy output as the decoder's input, as the app shows it)."""
    totals: dict[str, dict[str, torch.Tensor]] = {}
    for text in sentences:
        ins = inspect_text(model, tokenizer, text)
        for kind in KINDS:
            layers = ins.trace.layers(kind, "weights")
            if not layers:
                continue
            w = torch.stack([x[0] for x in layers]).double()  # L x (H,Q,K) -> (L,H,Q,K)
            q_ids, k_ids = ins.query_key_ids(kind)
            q_tok, k_tok = ins.queries_keys(kind)
            s = _sums(w, kind, q_tok, k_tok, [tokenizer.is_special(i) for i in q_ids],
                      [tokenizer.is_special(i) for i in k_ids])
            acc = totals.setdefault(kind, {})
            for name, v in s.items():
                acc[name] = acc.get(name, 0) + v
    out: dict[str, dict[str, torch.Tensor]] = {}
    for kind, acc in totals.items():
        rows = acc["_rows"].clamp_min(1)
        res = {name: (v / rows).clamp(0, 1).float() for name, v in acc.items()
               if not name.startswith("_") and name != "monotonic"}
        if "monotonic" in acc:
            res["monotonic"] = (acc["monotonic"] / acc["_steps"].clamp_min(1)).float()
        out[kind] = {b: res[b] for b in APPLIES[kind] if b in res}
    if probe_items:
        for kind, sc in score_anaphora(model, tokenizer, probe_items).items():
            out.setdefault(kind, {})["pronoun"] = sc.accuracy.float()
    return out


# The most specific description wins: a diagonal head is also monotonic, a pronoun head may
# also rest on a sink, and a broad head is "no role" said positively.
TIERS = (("pronoun",), ("diagonal", "reversed", "previous", "next"),
         ("sink", "punctuation", "monotonic"), ("broad",))


def label(scores: dict[str, float]) -> tuple[str, float]:
    """(label, score): the first tier of TIERS with a behaviour at or above LABEL_BAR, its best
    behaviour; else (NO_ROLE, the best score that fell short)."""
    for tier in TIERS:
        got = [(b, scores[b]) for b in tier if scores.get(b, 0.0) >= LABEL_BAR]
        if got:
            return max(got, key=lambda kv: kv[1])
    return NO_ROLE, max(scores.values(), default=0.0)


def atlas(model, tokenizer, sentences: list[str], probe_items=None) -> list[HeadRole]:
    """One HeadRole per head of every kind, in the order kind, layer, head."""
    measured = measure(model, tokenizer, sentences, probe_items)
    roles = []
    for kind in KINDS:
        if kind not in measured:
            continue
        m = measured[kind]
        n_l, n_h = next(iter(m.values())).shape
        for layer in range(n_l):
            for head in range(n_h):
                scores = {b: round(float(v[layer, head]), 4) for b, v in m.items()}
                lab, sc = label(scores)
                roles.append(HeadRole(kind, layer, head, lab, sc, scores))
    return roles


def sentences_for(ck, n: int = 40) -> list[str]:
    """What to measure a checkpoint on: its task's held-out data for a synthetic task, else the
    English sentences shipped with the project (the caption probe and the everyday set)."""
    task = (ck.train_config or {}).get("task")
    if task in data.TASKS and task not in ("classroom_pronouns", "textbook"):
        return [e.src for e in data.load_task(task, "test", n=n, seed=0)]
    texts = [json.loads(line)["text"] for line in
             (PROBES / "classroom_pronouns_en.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    everyday = [line.split("\t")[0] for line in
                (PROBES / "everyday_en_de.tsv").read_text(encoding="utf-8").splitlines() if "\t" in line]
    mixed = [s for pair in zip(texts, everyday) for s in pair]
    return mixed[:n]


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m transformer.atlas", description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--probe", help="a JSONL pronoun probe (adds the pronoun behaviour; its "
                                    "sentences are measured too)")
    ap.add_argument("--n", type=int, default=40, help="sentences to measure (default 40)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be at least 1")
    torch.set_num_threads(max(1, a.threads))
    try:
        ck = load_checkpoint(a.checkpoint)
        items = read_probe_file(a.probe) if a.probe else None
        sentences = [it.text for it in items][: a.n] if items else sentences_for(ck, a.n)
        with torch.inference_mode():
            roles = atlas(ck.model.eval(), ck.tokenizer, sentences, items)
    except (CheckpointError, ValueError, OSError) as e:
        ap.error(str(e).splitlines()[0])
    if a.json:
        print(json.dumps({"checkpoint": a.checkpoint, "sentences": len(sentences),
                          "heads": [r.__dict__ for r in roles]}, ensure_ascii=False))
        return 0
    print(f"{a.checkpoint}: {len(sentences)} sentences")
    for r in roles:
        print(f"  {r.kind:13s} L{r.layer} H{r.head}  {r.label:12s} {r.score:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# -- the head a page opens on ----------------------------------------------------------------------
# Patterns a reader can see on one sentence and name: a position (the token itself, the one
# before, after, mirrored: diagonal / previous / next / reversed) or "focused", weight on one
# word of the sentence (specials and punctuation left out, so a head that rests on </s> or "."
# does not count: it looks sharp and shows nothing).
SHOWN = ("diagonal", "reversed", "previous", "next", "focused")


@dataclass
class Clearest:
    layer: int
    head: int
    behaviour: str  # one of SHOWN
    score: float  # in [0, 1]: the behaviour's share of the head's weight, over the rows
    scores: torch.Tensor  # (layers, heads): every head's best SHOWN score


def clearest_head(w: torch.Tensor, kind: str, q_tok: list[str], k_tok: list[str],
                  q_special: list[bool], k_special: list[bool]) -> Clearest:
    """The head of one attention kind with the clearest pattern on one sentence. w: (L, H, Q, K)
    weights. Every head is scored by its best behaviour of SHOWN, averaged over the scored query
    rows as the atlas does (`_sums`); the highest wins, the lowest layer and head on a tie. Cheap:
    the sentence's weights only, no other forward pass. A head that puts most of its weight on
    </s> or the first token (a sink, about a third of the heads of a trained model) scores low."""
    w = w.double()
    n_l, n_h, n_q, n_k = w.shape
    s = _sums(w, kind, q_tok, k_tok, q_special, k_special)
    rows = [q for q in range(n_q) if (not q_special[q] or kind != "encoder_self")
            and float(w[0, 0, q].sum()) > 0]
    words = [k for k in range(n_k) if not k_special[k] and k_tok[k].strip()
             and not set(k_tok[k].strip()) <= PUNCTUATION]
    focused = torch.zeros(n_l, n_h, dtype=w.dtype)
    if rows and words:
        focused = w[:, :, rows][..., words].amax(-1).sum(-1)
    n = s["_rows"].clamp_min(1)
    per = {b: (s[b] / n).clamp(0, 1) for b in SHOWN[:-1] if b in s and b in APPLIES[kind]}
    per["focused"] = (focused / n).clamp(0, 1)
    names = list(per)
    stacked = torch.stack([per[b] for b in names])  # (B, L, H)
    best, which = stacked.max(0)  # (L, H)
    flat = int(torch.argmax(best.flatten()))  # the first maximum: lowest layer, then head
    layer, head = divmod(flat, n_h)
    # "focused" is at least any position's share; the position names the pattern better
    # ("diagonal": copying) when it accounts for most of it (a first token has no previous one)
    positions = [(float(per[b][layer, head]), b) for b in names if b != "focused"]
    share, name = max(positions, default=(0.0, "focused"))
    if share < 0.75 * float(best[layer, head]):
        name, share = "focused", float(best[layer, head])
    return Clearest(layer, head, name, share, best.float())
