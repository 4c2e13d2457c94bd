"""What the Attention and Step pages pay for writing with beam search (issue 50, 4: the decoding
that scores best on the held-out sets): one page's trace of a typed sentence, the output written by
beam search (5 beams, alpha 1.0, coverage 0.4: transformer.core.decode.BEST_*) against
greedy, on the shipped default model and the 120
hand-written lesson sentences (transformer/probes/lesson_en_de.tsv), 1 thread, the two interleaved
sentence by sentence so a noisy neighbour slows both alike. What a class's first visit to a
sentence costs; a sentence seen before is served from the cache (ui/inspect_cache.py).

    python bench/page_output.py [--json] [--threads 1]
"""
from __future__ import annotations

import argparse
import json
import time

import torch

from common import ROOT, stats
from transformer.core.checkpoint import load_checkpoint
from transformer.core.decode import BEST_ALPHA, BEST_BEAM, BEST_COVERAGE
from transformer.probing.inspect import compact, inspect_text

LESSON = ROOT / "transformer" / "probes" / "lesson_en_de.tsv"
MODEL = ROOT / "checkpoints" / "everyday-en-de"


def sentences() -> list[str]:
    lines = [ln.split("\t")[0] for ln in LESSON.read_text(encoding="utf-8").splitlines()]
    return [s for s in lines if s.strip() and not s.startswith("#")]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    ck = load_checkpoint(MODEL)
    model, tok = ck.model.eval(), ck.tokenizer
    texts = sentences()
    greedy_s, beam_s, changed = [], [], 0
    for text in texts[:3]:  # warm-up
        inspect_text(model, tok, text, names=compact)
        inspect_text(model, tok, text, names=compact, beam=BEST_BEAM, alpha=BEST_ALPHA,
                     coverage=BEST_COVERAGE)
    for text in texts:
        t0 = time.perf_counter()
        g = inspect_text(model, tok, text, names=compact)
        t1 = time.perf_counter()
        b = inspect_text(model, tok, text, names=compact, beam=BEST_BEAM, alpha=BEST_ALPHA,
                         coverage=BEST_COVERAGE)
        t2 = time.perf_counter()
        greedy_s.append(t1 - t0)
        beam_s.append(t2 - t1)
        changed += g.output != b.output
    sg, sb = stats(greedy_s), stats(beam_s)
    out = {"model": str(MODEL.relative_to(ROOT)), "threads": args.threads, "sentences": len(texts),
           "beam": BEST_BEAM, "alpha": BEST_ALPHA, "coverage": BEST_COVERAGE, "greedy": sg, "beam_search": sb,
           "ratio": round(sb["median_ms"] / sg["median_ms"], 2), "outputs_changed": changed}
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
