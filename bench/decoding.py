"""Decoding speed on test_2016_flickr: greedy (batched and one by one) against beam 4.

    python bench/decoding.py [--data-dir ../shared/data/multi30k] [--n 200] [--json]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from common import ROOT, translation_checkpoint


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data" / "multi30k"))
    ap.add_argument("--n", type=int, default=200, help="sentences (of 1000)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    from transformer.data.tasks import load_multi30k
    from transformer.core.decode import beam_search, greedy, greedy_batch
    from transformer.core.text import source_ids

    model, tok, which = translation_checkpoint()
    if Path(args.data_dir).is_dir():
        texts = [e.src for e in load_multi30k(args.data_dir, "test_2016_flickr")][: args.n]
    else:
        from common import SENTENCE_32
        texts = [SENTENCE_32] * args.n
    ids = [source_ids(tok, t, model.cfg.max_len)[0] for t in texts]
    out = {"model": which, "sentences": len(ids), "threads": args.threads}
    for name, fn in (
        ("greedy_batched_64", lambda: [x for b in range(0, len(ids), 64)
                                       for x in greedy_batch(model, ids[b:b + 64])]),
        ("greedy_one_by_one", lambda: [greedy(model, s).tokens for s in ids]),
        ("beam4_one_by_one", lambda: [beam_search(model, s, beam=4, alpha=0.6).tokens for s in ids]),
    ):
        t0 = time.perf_counter()
        res = fn()
        dt = time.perf_counter() - t0
        n_tok = sum(len(r) + 1 for r in res)
        out[name] = {"seconds": round(dt, 2), "output_tokens": n_tok,
                     "tokens_per_s": round(n_tok / dt, 1), "sentences_per_s": round(len(ids) / dt, 2)}
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
