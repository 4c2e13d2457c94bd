"""Contributions against occlusion, and the dropped-word alarm against a hand-labelled set.

Part 1 (always): on the project's probe sets (every sentence of transformer/probes/*.tsv and
*.jsonl with an English sentence; natural_pronouns_en.jsonl is the first 41 lines of
classroom_pronouns_en.jsonl and is not counted twice), the default model writes its greedy
output; for every output word, each source word (specials left out) is removed in turn (its
pieces made padding, transformer.probing.rollout.occlusion's rule) and the drop in the
probability of the whole output word (teacher forcing on the model's own output) is set beside
each method's per-source-word score for that word. The figure is Spearman's rank correlation over
the source words, averaged over output words (a word whose scores or drops are all equal is
skipped), and how often the method's top source word is occlusion's.

Part 2 (--alarm): on transformer/probes/dropped_words_en_de.jsonl, the alarm's precision and
recall over source words labelled "dropped", at the threshold chosen on the whole set for
precision >= 0.7 with the best recall, and cross-validated (5 folds by sentence, the threshold of
each fold chosen on the other four); and the certainty note's, per sentence: the note "guessing"
(2+ words under 0.2) as "something was dropped", and "not guessing" (no word under 0.2) as
"nothing was dropped".

    python bench/contributions_bench.py [--checkpoint DIR] [--limit N] [--alarm] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

from common import ROOT, machine
from transformer.core.checkpoint import load_checkpoint
from transformer.core.text import source_ids, target_ids
from transformer.probing import certainty as C
from transformer.probing import contributions as CB
from transformer.probing import dropped as D
from transformer.probing.inspect import inspect_text, record_pass
from transformer.probing.rollout import rollout

PROBES = ROOT / "transformer" / "probes"
SKIP = {"natural_pronouns_en.jsonl", "dropped_words_en_de.jsonl", "genders_checked.tsv"}
METHODS = ("rollout",) + tuple(CB.METHODS)


def probe_sentences() -> dict[str, list[str]]:
    out = {}
    for path in sorted(PROBES.glob("*.tsv")) + sorted(PROBES.glob("*.jsonl")):
        if path.name in SKIP:
            continue
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines()
                 if ln.strip() and not ln.startswith("#")]
        if path.suffix == ".tsv":
            out[path.name] = [ln.split("\t")[0] for ln in lines]
        else:
            out[path.name] = [json.loads(ln)["text"] for ln in lines]
    return out


def ranks(x: np.ndarray) -> np.ndarray:
    """Ranks with ties averaged."""
    order = np.argsort(x, kind="mergesort")
    r = np.empty(len(x))
    r[order] = np.arange(len(x), dtype=np.float64)
    for v in np.unique(x):
        m = x == v
        if m.sum() > 1:
            r[m] = r[m].mean()
    return r


def spearman(a, b) -> float | None:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    ra, rb = ranks(a), ranks(b)
    return float(np.corrcoef(ra, rb)[0, 1])


def word_probs(model, srcs: list[list[int]], tgt: list[int], out_groups) -> np.ndarray:
    """(len(srcs), output words): the teacher-forced probability of each whole output word."""
    with torch.inference_mode():
        logits = model(torch.tensor(srcs), torch.tensor([tgt] * len(srcs)))  # (N,T,V)
    p = torch.softmax(logits.double(), -1)
    written = torch.tensor(tgt[1:])
    pp = p[:, torch.arange(len(written)), written]  # (N, pieces)
    return np.stack([pp[:, list(g)].prod(-1).numpy() for g in out_groups], -1)


def sentence_scores(model, tok, text: str) -> dict | None:
    """Per method, per output word: (Spearman, top-1 agreement) against occlusion."""
    ins = inspect_text(model, tok, text)
    src, tgt = ins.src_ids, ins.tgt_ids
    pieces = tgt[1:]
    if not pieces:
        return None
    sg_all = tok.words(src)
    sg = [g for g in sg_all if not tok.is_special(src[g[0]])]
    og = [g for g in tok.words(pieces) if not tok.is_special(pieces[g[0]])]
    if len(sg) < 3 or not og:
        return None
    variants = [src] + [[model.cfg.pad_id if i in g else x for i, x in enumerate(src)] for g in sg]
    probs = word_probs(model, variants, tgt, og)  # (1+Ws, Wo)
    drops = probs[0][None, :] - probs[1:]  # (Ws, Wo)
    mats = {"rollout": rollout(ins).to_source[: len(pieces)]}
    shares = {}
    for m in CB.METHODS:
        c = CB.contributions(model, src, tgt, m)
        mats[m] = c.to_source[: len(pieces)]
        shares[m] = c.source_share[: len(pieces)].numpy()
    out = {"rows": {m: [] for m in METHODS}, "share": shares}
    for m, a in mats.items():
        a = np.asarray(a, dtype=np.float64)
        cols = np.stack([a[:, g].sum(-1) for g in sg], -1)  # (pieces, Ws)
        for w, g in enumerate(og):
            score = cols[g].mean(0)
            rho = spearman(score, drops[:, w])
            top = bool(np.argmax(score) == np.argmax(drops[:, w]))
            out["rows"][m].append((rho, top))
    return out


def part1(model, tok, limit: int | None) -> dict:
    res, all_rows = {}, {m: [] for m in METHODS}
    shares = {m: [] for m in CB.METHODS}
    t0 = time.time()
    for name, sents in probe_sentences().items():
        rows = {m: [] for m in METHODS}
        for text in sents[:limit]:
            s = sentence_scores(model, tok, text)
            if s is None:
                continue
            for m in METHODS:
                rows[m] += s["rows"][m]
            for m in CB.METHODS:
                shares[m].append(s["share"][m])
        res[name] = summary(rows, len(sents[:limit]))
        for m in METHODS:
            all_rows[m] += rows[m]
    res["all"] = summary(all_rows, sum(v["sentences"] for v in res.values()))
    for m in CB.METHODS:
        flat = np.concatenate(shares[m])
        res["all"][m]["source_share"] = {
            "min": round(float(flat.min()), 4), "max": round(float(flat.max()), 4),
            "mean": round(float(flat.mean()), 4), "sd": round(float(flat.std()), 4),
            "sd_within_sentence_mean": round(float(np.mean([s.std() for s in shares[m]])), 4)}
    res["seconds"] = round(time.time() - t0, 1)
    return res


def summary(rows: dict, n: int) -> dict:
    out = {"sentences": n}
    for m, rs in rows.items():
        rhos = [r for r, _ in rs if r is not None]
        out[m] = {"spearman": round(float(np.mean(rhos)), 4) if rhos else None,
                  "words": len(rhos),
                  "top1": round(float(np.mean([t for r, t in rs if r is not None])), 4)
                  if rhos else None}
    return out


def part2(model, tok, path: Path) -> dict:
    lines = D.read_labelled(path)
    groups, sent_gold, notes, skipped, differs = [], [], [], [], 0
    cfg = model.cfg
    for n, row in enumerate(lines):
        src, _ = source_ids(tok, row["src"], cfg.max_len)
        pieces, _ = target_ids(tok, row["output"], cfg.max_len)
        tgt = [cfg.bos_id] + pieces
        ins = inspect_text(model, tok, row["src"])
        if ins.output.strip() != row["output"].strip():
            differs += 1  # measured on the labelled output (teacher forcing), as labelled
        a = D.alarm(model, tok, src, tgt, threshold=None)
        words = row["words"]
        if [w["word"] for w in words] != row["src"].split() or len(a.src_words) != len(words):
            skipped.append(n)
            continue
        gold = [w["label"] == "dropped" for w in words]
        score = [float("inf") if D.is_punct(w) else d for w, d in zip(a.src_words, a.draw)]
        groups.append(list(zip(score, gold)))
        sent_gold.append(any(gold))
        tr = record_pass(model, src, tgt, names=lambda k: k == "logits")
        ins_forced = type(ins)(src, tgt, [], [], row["output"], True, tr)
        ws = C.output_words(ins_forced, tok)
        notes.append(len(C.guesses(ws)))
    scores = [s for g in groups for s, _ in g]
    gold = [x for g in groups for _, x in g]
    t = D.choose_threshold(scores, gold)
    chosen = D.precision_recall([s < t for s in scores], gold) if t is not None else None
    cv = D.cross_validated(groups)
    sent_alarm = [any(s < t for s, _ in g) for g in groups] if t is not None else None
    out = {"file": str(path.relative_to(ROOT)), "sentences": len(lines),
           "used": len(groups), "skipped_misaligned": skipped,
           "output_not_greedy": differs, "source_words": len(gold),
           "dropped_words": sum(gold), "sentences_with_a_dropped_word": sum(sent_gold),
           "threshold": t, "alarm_words_in_sample": chosen, "alarm_words_cross_validated": cv,
           "alarm_sentences_in_sample": D.precision_recall(sent_alarm, sent_gold)
           if sent_alarm else None,
           "note_guessing_as_something_dropped": D.precision_recall(
               [k >= C.UNSURE_WORDS for k in notes], sent_gold),
           "note_not_guessing_as_nothing_dropped": D.precision_recall(
               [k == 0 for k in notes], [not g for g in sent_gold])}
    # the whole curve, for the record
    curve = []
    for th in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0):
        pr = D.precision_recall([s < th for s in scores], gold)
        curve.append({"threshold": th, "precision": pr["precision"], "recall": pr["recall"],
                      "marked": pr["marked"]})
    out["curve"] = curve
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkpoint", default=str(ROOT / "checkpoints" / "everyday-en-de"))
    ap.add_argument("--limit", type=int, default=None, help="sentences per probe set")
    ap.add_argument("--alarm", action="store_true", help="also measure the dropped-word alarm")
    ap.add_argument("--labelled", default=str(D.LABELLED))
    ap.add_argument("--no-probes", action="store_true", help="skip part 1")
    ap.add_argument("--json", default=None, help="write the results here too")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    ck = load_checkpoint(args.checkpoint)
    model, tok = ck.model.eval(), ck.tokenizer
    out = {"machine": machine(), "checkpoint": args.checkpoint}
    if not args.no_probes:
        out["occlusion"] = part1(model, tok, args.limit)
    if args.alarm:
        out["alarm"] = part2(model, tok, Path(args.labelled))
    text = json.dumps(out, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
