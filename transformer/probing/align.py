"""Which cross-attention head aligns: every cross head's alignment error rate (AER) against
hand-aligned gold word links, in two modes, beside a diagonal baseline (issue 52).

    python -m transformer.align --checkpoint DIR --gold FILE --json

Definitions (kept exactly as the issue states them):

- Teacher forcing of the German reference: decoder input BOS + its pieces; decoder position k
  writes output piece k; position k + 1 reads it.
- W(j, i) = the mean over the output pieces k of German word j of the sum over the pieces s of
  English word i of the head's weight A[k, s] (mode "writes", key `aer`), or of A[k + 1, s]
  (mode "reads", key `aer_shifted`).
- German word j links to the English word with the largest W(j, i) (`</s>` is not a word; a tie
  goes to the first English word).
- AER = 1 - 2 |A ∩ S| / (|A| + |S|) over the whole file (sure links only).
- Diagonal baseline: German word j links to English word round(j (I - 1) / (J - 1)) (Python's
  round, halves to even; j = 0 links to 0 when J = 1).

Added beside them: a layer's "head average" is the same AER computed from the mean of the layer's
heads' weights (one attention per layer); the best head is the head and mode with the lowest AER
(ties: the "writes" mode, then the lower layer, then the lower head).

Gold file format (../shared/data/alignments/README.md): one pair a line,
`English<TAB>German<TAB>links`, tokens separated by single spaces, links `i-j` in Pharaoh format
(i the 0-based English token, j the 0-based German token); blank lines and lines starting with
`#` are skipped. A malformed line is a GoldError naming its line number.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.cli_util import OneLineParser, read_utf8
from transformer.core.names import attention_kind, trace_key
from transformer.core.trace import record

# the hand-aligned gold set (a copy of ../shared/data/alignments; never in a training mix)
GOLD_FILE = Path(__file__).resolve().parents[1] / "probes" / "alignments" / "en_de_gold.tsv"
MODES = ("writes", "reads")  # JSON keys "aer" and "aer_shifted"
MODE_KEY = {"writes": "aer", "reads": "aer_shifted"}
_LINK = re.compile(r"^(\d+)-(\d+)$")


class GoldError(ValueError):
    """A gold file that cannot be read; the message is one line naming the line at fault."""


@dataclass(frozen=True)
class GoldPair:
    src_words: tuple[str, ...]  # English tokens
    tgt_words: tuple[str, ...]  # German tokens
    sure: frozenset[tuple[int, int]]  # (English index i, German index j)
    line: int  # 1-based line in the file


def parse_gold(text: str, name: str = "gold file") -> list[GoldPair]:
    """The pairs of a gold file's text; GoldError ("NAME line N: ...") for a malformed line, or
    when the file holds no pair."""
    pairs = []
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if n == 1:
            line = line.lstrip("\ufeff")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3:
            raise GoldError(f"{name} line {n}: expected 3 tab-separated fields "
                            f"(English, German, links), got {len(fields)}")
        src, tgt = tuple(fields[0].split()), tuple(fields[1].split())
        if not src or not tgt:
            raise GoldError(f"{name} line {n}: the {'English' if not src else 'German'} "
                            f"sentence is empty")
        links = set()
        for tok in fields[2].split():
            m = _LINK.match(tok)
            if not m:
                raise GoldError(f"{name} line {n}: {tok!r} is not a link like 3-4 (English-German)")
            i, j = int(m.group(1)), int(m.group(2))
            if i >= len(src) or j >= len(tgt):
                raise GoldError(f"{name} line {n}: link {tok} points past the sentence "
                                f"({len(src)} English, {len(tgt)} German tokens)")
            links.add((i, j))
        pairs.append(GoldPair(src, tgt, frozenset(links), n))
    if not pairs:
        raise GoldError(f"{name}: no sentence pair in the file")
    return pairs


def read_gold(path: str | Path) -> list[GoldPair]:
    """parse_gold of a UTF-8 file; GoldError when it cannot be read."""
    return parse_gold(read_utf8(path, GoldError), Path(path).name)


# -- pieces and words ---------------------------------------------------------------------------
def pieces_of(tokenizer, words: tuple[str, ...], target: bool = False
              ) -> tuple[list[int], list[list[int]]]:
    """(ids, groups): the sentence's piece ids and, for each gold token, its piece positions."""
    encode = getattr(tokenizer, "encode_target", tokenizer.encode) if target else tokenizer.encode
    ids = encode(" ".join(words))
    groups = [g for g in tokenizer.words(ids) if not all(tokenizer.is_special(ids[p]) for p in g)]
    if len(groups) == len(words) and all(groups):
        return ids, groups
    ids, groups = [], []  # a token the tokenizer splits differently: one token at a time
    for w in words:
        piece_ids = encode(w) or [tokenizer.unk_id if hasattr(tokenizer, "unk_id") else 3]
        groups.append(list(range(len(ids), len(ids) + len(piece_ids))))
        ids.extend(piece_ids)
    return ids, groups


@dataclass
class Prepared:
    """One gold pair as model input: source ids (pieces + EOS), decoder input (BOS + pieces),
    and the piece positions of each English and German word."""
    pair: GoldPair
    src: list[int]
    tgt: list[int]
    src_groups: list[list[int]]
    tgt_groups: list[list[int]]  # positions k in the German pieces (output positions)


def prepare(model, tokenizer, pair: GoldPair) -> Prepared:
    cfg = model.cfg
    s_ids, s_groups = pieces_of(tokenizer, pair.src_words)
    t_ids, t_groups = pieces_of(tokenizer, pair.tgt_words, target=True)
    if len(s_ids) + 1 > cfg.max_len or len(t_ids) + 1 > cfg.max_len:
        raise GoldError(f"line {pair.line}: the sentence is longer than the model's max_len "
                        f"{cfg.max_len}")
    return Prepared(pair, s_ids + [cfg.eos_id], [cfg.bos_id] + t_ids, s_groups, t_groups)


# -- the definitions ----------------------------------------------------------------------------
def word_weights(a, src_groups, tgt_groups, mode: str = "writes") -> np.ndarray:
    """W (J, I): W[j, i] = mean over German word j's output pieces k of the sum over English word
    i's pieces s of A[k, s] ("writes") or A[k + 1, s] ("reads"). `a`: (T, S) weights of one head
    over decoder positions (BOS + pieces) and source positions."""
    if mode not in MODES:
        raise ValueError(f"mode: must be one of {', '.join(MODES)} (got {mode!r})")
    a = np.asarray(a, dtype=np.float64)
    shift = 1 if mode == "reads" else 0
    cols = np.stack([a[:, g].sum(-1) for g in src_groups], axis=-1)  # (T, I)
    return np.stack([cols[[k + shift for k in g]].mean(0) for g in tgt_groups])  # (J, I)


def links(w: np.ndarray) -> set[tuple[int, int]]:
    """German word j -> the English word with the largest W(j, i): {(i, j)}."""
    return {(int(np.argmax(row)), j) for j, row in enumerate(np.asarray(w))}


def diagonal_links(n_src: int, n_tgt: int) -> set[tuple[int, int]]:
    """German word j -> English word round(j (I - 1) / (J - 1)) (j -> 0 when J = 1)."""
    if n_tgt == 1:
        return {(0, 0)}
    return {(round(j * (n_src - 1) / (n_tgt - 1)), j) for j in range(n_tgt)}


def aer(predicted, gold) -> float:
    """1 - 2 |A ∩ S| / (|A| + |S|) over parallel lists of link sets (sure links only)."""
    hit = sum(len(set(a) & set(s)) for a, s in zip(predicted, gold))
    total = sum(len(a) for a in predicted) + sum(len(s) for s in gold)
    return 1.0 - 2.0 * hit / total if total else 0.0


def cross_weights(model, prep: Prepared) -> list[torch.Tensor]:
    """Every decoder layer's cross-attention weights (H, T, S) of the teacher-forced pass."""
    n = attention_kind("cross", model.cfg).n_layers
    keys = {trace_key("cross", i, "weights") for i in range(n)}
    dev = next(model.parameters()).device
    with torch.inference_mode(), record(names=keys.__contains__) as tr:
        model(torch.tensor([prep.src], device=dev), torch.tensor([prep.tgt], device=dev))
    return [tr[trace_key("cross", i, "weights")][0] for i in range(n)]


def alignment(model, tokenizer, pairs: list[GoldPair], digits: int | None = 6) -> dict:
    """The leaderboard as JSON: {"sentences", "diagonal", "heads": [{"kind": "cross", "layer",
    "head", "aer", "aer_shifted"}, ...] (every cross head, layer then head), "layers": [{"layer",
    "aer", "aer_shifted"}] (the AER of the layer's head-averaged weights), "best": {"kind",
    "layer", "head", "aer", "aer_shifted", "mode"}}. `digits`: rounding of the AERs (None: none)."""
    cfg = model.cfg
    n_layers, n_heads = attention_kind("cross", cfg).n_layers, cfg.n_heads
    gold = [p.sure for p in pairs]
    pred = {(m, l, h): [] for m in MODES for l in range(n_layers) for h in range(n_heads + 1)}
    diag = []
    for pair in pairs:
        prep = prepare(model, tokenizer, pair)
        diag.append(diagonal_links(len(pair.src_words), len(pair.tgt_words)))
        for layer, w in enumerate(cross_weights(model, prep)):
            heads = list(w.numpy()) + [w.mean(0).numpy()]  # the last: the head average
            for h, a in enumerate(heads):
                for m in MODES:
                    pred[(m, layer, h)].append(
                        links(word_weights(a, prep.src_groups, prep.tgt_groups, m)))
    r = (lambda x: round(x, digits)) if digits is not None else (lambda x: x)
    score = {k: aer(v, gold) for k, v in pred.items()}
    heads = [{"kind": "cross", "layer": l, "head": h, "aer": r(score[("writes", l, h)]),
              "aer_shifted": r(score[("reads", l, h)])}
             for l in range(n_layers) for h in range(n_heads)]
    layers = [{"layer": l, "aer": r(score[("writes", l, n_heads)]),
               "aer_shifted": r(score[("reads", l, n_heads)])} for l in range(n_layers)]
    best = None
    if heads:
        m, l, h = min(((m, l, h) for l in range(n_layers) for h in range(n_heads) for m in MODES),
                      key=lambda k: (score[k], MODES.index(k[0]), k[1], k[2]))
        best = {**heads[l * n_heads + h], "mode": m}
    return {"sentences": len(pairs), "diagonal": r(aer(diag, gold)), "heads": heads,
            "layers": layers, "best": best}


def sentence_alignment(model, tokenizer, pair: GoldPair, layer: int, head: int,
                       mode: str = "writes") -> dict:
    """One head's alignment of one gold pair, for drawing: {"src", "tgt", "w" (J x I list),
    "predicted", "gold", "hits", "misses", "extra"} (link lists of [i, j])."""
    prep = prepare(model, tokenizer, pair)
    with torch.inference_mode():
        a = cross_weights(model, prep)[layer][head].numpy()
    w = word_weights(a, prep.src_groups, prep.tgt_groups, mode)
    pred, gold = links(w), set(pair.sure)
    srt = lambda s: [list(x) for x in sorted(s)]  # noqa: E731
    return {"src": list(pair.src_words), "tgt": list(pair.tgt_words), "w": w.tolist(),
            "predicted": srt(pred), "gold": srt(gold), "hits": srt(pred & gold),
            "misses": srt(gold - pred), "extra": srt(pred - gold), "mode": mode}


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m transformer.align",
                       description="Every cross-attention head's alignment error rate against "
                                   "hand-aligned gold links (writes and reads modes).")
    ap.add_argument("--checkpoint", required=True, help="checkpoint directory")
    ap.add_argument("--gold", required=True,
                    help="gold file: English<TAB>German<TAB>i-j links (Pharaoh, sure links)")
    ap.add_argument("--json", action="store_true", help="print JSON (else a table)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(max(1, args.threads))
    try:
        pairs = read_gold(args.gold)
        ck = load_checkpoint(args.checkpoint)
        res = alignment(ck.model, ck.tokenizer, pairs)
    except (CheckpointError, GoldError) as e:
        ap.error(str(e).splitlines()[0])
    if args.json:
        json.dump(res, sys.stdout, ensure_ascii=False)
        print()
        return 0
    print(f"{res['sentences']} sentences; diagonal baseline AER {res['diagonal']:.3f}")
    print("layer head   writes  reads")
    for h in res["heads"]:
        print(f"{h['layer']:5d} {h['head']:4d}   {h['aer']:.3f}   {h['aer_shifted']:.3f}")
    for lay in res["layers"]:
        print(f"{lay['layer']:5d}  avg   {lay['aer']:.3f}   {lay['aer_shifted']:.3f}")
    b = res["best"]
    if b:
        print(f"best: cross:{b['layer']}:{b['head']} ({b['mode']}) "
              f"writes {b['aer']:.3f} reads {b['aer_shifted']:.3f}")
    return 0
