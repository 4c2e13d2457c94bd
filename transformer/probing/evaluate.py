"""BLEU and chrF of a checkpoint on a Multi30k split (or a TSV file), with sacreBLEU.

    python -m transformer.evaluate --checkpoint runs/m30k/checkpoints/best \
        --data-dir ../shared/data/multi30k --split test_2016_flickr [--beam 4 --alpha 0.6]
        [--coverage 0.2]
    python -m transformer.evaluate --checkpoint DIR --tsv pairs.tsv --json
    python -m transformer.evaluate --checkpoint checkpoints/everyday-en-de \
        --tsv transformer/probes/everyday_en_de.tsv      # the project's 126 everyday sentences

Prints sacreBLEU cased and lowercased and chrF (with sacreBLEU's signatures), the decoding settings and the
speed (source sentences and generated tokens per second).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import sacrebleu
import torch

from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.config import resolve_device
from transformer.core import decode
from transformer.probing import certainty
from transformer.data import tasks as data


def evaluate(model, tokenizer, sources: list[str], references: list[str], *, beam: int = 1,
             alpha: float = 0.6, batch_size: int = 64, max_len: int | None = None,
             coverage: float = 0.0) -> dict:
    """Translate `sources` and score against `references`. Returns a JSON-ready dict.
    `coverage`: beam search's GNMT coverage penalty beta (transformer.core.decode.beam_search)."""

    if len(sources) != len(references):
        raise ValueError(f"{len(sources)} sources but {len(references)} references")
    t0 = time.perf_counter()
    hyps = decode.translate(model, tokenizer, sources, beam=beam, alpha=alpha,
                            batch_size=batch_size, max_len=max_len, coverage=coverage)
    secs = max(time.perf_counter() - t0, 1e-9)
    out_tokens = sum(len(tokenizer.encode(h)) + 1 for h in hyps)  # + EOS
    bleu, bleu_lc = sacrebleu.BLEU(), sacrebleu.BLEU(lowercase=True)
    cased = bleu.corpus_score(hyps, [references])
    lower = bleu_lc.corpus_score(hyps, [references])
    sig, sig_lc = bleu.get_signature(), bleu_lc.get_signature()
    chrf = sacrebleu.CHRF()
    chrf_score = chrf.corpus_score(hyps, [references])
    return {
        "bleu": round(cased.score, 2), "bleu_lowercase": round(lower.score, 2),
        "bleu_detail": str(cased), "signature": str(sig), "signature_lowercase": str(sig_lc),
        "chrf": round(chrf_score.score, 2), "signature_chrf": str(chrf.get_signature()),
        "sentences": len(sources), "beam": beam, "alpha": alpha if beam > 1 else None,
        "coverage": coverage if beam > 1 else None,
        "decoding": "greedy" if beam == 1 else f"beam search (beam {beam}, alpha {alpha}"
                    + (f", coverage {coverage})" if coverage else ")"),
        "seconds": round(secs, 3), "sentences_per_s": round(len(sources) / secs, 2),
        "tokens_per_s": round(out_tokens / secs, 1), "hypotheses": hyps,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m transformer.evaluate", description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", required=True, help="checkpoint directory")
    p.add_argument("--data-dir", help="Multi30k folder")
    p.add_argument("--split", default="test_2016_flickr")
    p.add_argument("--src-lang", help="default: the checkpoint's training source language, else en")
    p.add_argument("--tgt-lang", help="default: the checkpoint's training target language, else de")
    p.add_argument("--tsv", help="evaluate on a TSV file (source<TAB>reference) instead")
    p.add_argument("--beam", type=int, default=1)
    p.add_argument("--alpha", type=float, default=0.6)
    p.add_argument("--coverage", type=float, default=0.0, metavar="BETA",
                   help="beam search's coverage penalty beta (GNMT; 0, the default, for none)")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--limit", type=int, default=0, help="only the first N sentences")
    p.add_argument("--device", default="auto")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--hyp-out", help="write the hypotheses here, one per line")
    p.add_argument("--by-certainty", action="store_true",
                   help="also split the sentences as the Attention page does, by whether the "
                        "greedy output has two or more words the model gave under 0.2 "
                        "probability, and score each group (transformer/probing/certainty.py)")
    args = p.parse_args(argv)

    try:
        if args.beam < 1:
            raise ValueError(f"--beam: must be at least 1 (got {args.beam})")
        if not 0 <= args.alpha <= 5:
            raise ValueError(f"--alpha: must be in [0, 5] (got {args.alpha})")
        decode.check_coverage(args.coverage, "--coverage")
        if args.threads is not None:
            torch.set_num_threads(max(1, args.threads))
        device = resolve_device(args.device)
        ck = load_checkpoint(args.checkpoint, device=device)
        extra = (ck.train_config or {}).get("extra", {}) or {}
        src_lang = args.src_lang or extra.get("src_lang") or "en"
        tgt_lang = args.tgt_lang or extra.get("tgt_lang") or "de"
        if args.tsv:
            exs = data.load_tsv(args.tsv)
            where = args.tsv
        else:
            if not args.data_dir:
                raise ValueError("--data-dir: required (or --tsv FILE)")
            exs = data.load_multi30k(args.data_dir, args.split, src_lang, tgt_lang)
            where = f"{args.data_dir} {args.split} {src_lang}->{tgt_lang}"
        if args.limit:
            exs = exs[: args.limit]
        srcs, refs = [e.src for e in exs], [e.tgt for e in exs]
        with torch.inference_mode():
            res = evaluate(ck.model, ck.tokenizer, srcs, refs, beam=args.beam, alpha=args.alpha,
                           batch_size=args.batch_size, coverage=args.coverage)
            if args.by_certainty:
                res["by_certainty"] = certainty.split_by_guesses(ck.model, ck.tokenizer, srcs, refs)
    except (ValueError, CheckpointError, OSError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    hyps = res.pop("hypotheses")
    if args.hyp_out:
        with open(args.hyp_out, "w", encoding="utf-8") as f:
            f.writelines(h + "\n" for h in hyps)
    res.update(checkpoint=str(args.checkpoint), data=where, device=device)
    if args.json:
        print(json.dumps(res))
    else:
        print(f"data:      {where} ({res['sentences']} sentences)")
        print(f"decoding:  {res['decoding']} on {device}")
        print(f"BLEU:      {res['bleu']:.2f}  ({res['signature']})")
        print(f"BLEU (lc): {res['bleu_lowercase']:.2f}  ({res['signature_lowercase']})")
        print(f"detail:    {res['bleu_detail']}")
        print(f"chrF:      {res['chrf']:.2f}  ({res['signature_chrf']})")
        print(f"speed:     {res['sentences_per_s']:.1f} sentences/s, {res['tokens_per_s']:.0f} "
              f"generated tokens/s ({res['seconds']:.1f} s)")
        if "by_certainty" in res:
            bc = res["by_certainty"]
            for name in ("guessed", "sure"):
                g = bc[name]
                what = (f"{bc['unsure_words']}+ words under p {bc['unsure']}" if name == "guessed"
                        else "fewer guessed words")
                print(f"{name:9s}  {g['n']} sentences ({what}): chrF {g['chrf']}, mean sentence "
                      f"chrF {g['mean_sentence_chrf']} (greedy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
