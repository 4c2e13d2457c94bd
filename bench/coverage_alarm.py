"""Cross-attention coverage as a dropped-word signal, against the hand-labelled set the ALTI+
alarm is measured on (transformer/probes/dropped_words_en_de.jsonl).

GNMT's coverage penalty (transformer.core.decode) assumes that a source word the output never
attended to was left out. This checks that assumption on the default model's own outputs: per
source word (punctuation left out), the cross-attention it received over the teacher-forced
output, three ways per decoder layer (the heads' mean summed over the steps; the largest single
step; the strongest head summed over the steps) and all layers' mean; then the area under the
curve (lower attention meaning "dropped") and, as for the alarm, the threshold with precision
>= 0.7 chosen in-sample and cross-validated by sentence (transformer.probing.dropped).

    python bench/coverage_alarm.py [--checkpoint checkpoints/everyday-en-de] [--threads 1]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transformer.core.checkpoint import load_checkpoint  # noqa: E402
from transformer.core.text import source_ids, target_ids  # noqa: E402
from transformer.core.trace import record  # noqa: E402
from transformer.probing import dropped as D  # noqa: E402


def scores(ck) -> dict[str, list[list[tuple[float, bool]]]]:
    """Per signal, per labelled sentence: (score, dropped) of each non-punctuation source word."""
    m, tok = ck.model, ck.tokenizer
    keys = [f"decoder.layers.{i}.cross_attn.weights" for i in range(m.cfg.n_decoder_layers)]
    rows = D.read_labelled()
    out: dict[str, list[list[tuple[float, bool]]]] = {}
    for gi, r in enumerate(rows):
        src = source_ids(tok, r["src"], m.cfg.max_len)[0]
        tgt = [m.cfg.bos_id] + target_ids(tok, r["output"], m.cfg.max_len)[0]
        with torch.inference_mode(), record(names=lambda k: k in keys) as tr:
            m(torch.tensor([src]), torch.tensor([tgt]))
        w = [tr[k][0].double().numpy() for k in keys]  # per layer (H,T,S)
        groups = [g for g in tok.words(src) if not tok.is_special(src[g[0]])]
        words = [s for g, s in zip(tok.words(src), tok.word_strings(src)) if not tok.is_special(src[g[0]])]
        if len(words) != len(r["words"]):
            raise SystemExit(f"the labels do not match the pieces' words: {r['src']!r}")
        for g, word, lab in zip(groups, words, r["words"]):
            if D.is_punct(word):
                continue
            gold, g = lab["label"] == "dropped", list(g)
            signals = {}
            for i, a in enumerate(w):
                signals[f"L{i} heads' mean, summed"] = a.mean(0)[:, g].sum()
                signals[f"L{i} heads' mean, largest step"] = a.mean(0)[:, g].sum(1).max()
                signals[f"L{i} strongest head, summed"] = a[:, :, g].sum(2).sum(1).max()
            signals["all layers' mean, summed"] = np.mean([a.mean(0) for a in w], 0)[:, g].sum()
            for name, v in signals.items():
                out.setdefault(name, [[] for _ in rows])[gi].append((float(v), gold))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/coverage_alarm.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", default="checkpoints/everyday-en-de")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    ck = load_checkpoint(args.checkpoint)
    ck.model.eval()
    print("| signal | AUC (lower = dropped) | in-sample: right / marked | cross-validated: right / marked | dropped |")
    print("| --- | --- | --- | --- | --- |")
    for name, groups in scores(ck).items():
        flat = [p for g in groups for p in g]
        s, y = [v for v, _ in flat], [b for _, b in flat]
        pos, neg = [v for v, b in flat if b], [v for v, b in flat if not b]
        auc = float(np.mean([[1.0 if p < n else 0.5 if p == n else 0.0 for n in neg] for p in pos]))
        t = D.choose_threshold(s, y, 0.7)
        ins = D.precision_recall([v < t for v in s], y) if t is not None else None
        cv = D.cross_validated(groups, 5, 0, 0.7)
        inside = f"{ins['tp']} / {ins['marked']}" if ins else "none reaches 0.7"
        print(f"| {name} | {auc:.3f} | {inside} | {cv['tp']} / {cv['marked']} | {cv['positives']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
