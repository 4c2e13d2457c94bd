"""A checkpoint's scorecard in one command: what a class types, measured.

    python -m transformer.scorecard --checkpoint checkpoints/everyday-en-de \\
        --data-dir ../shared/data/multi30k [--json] [--limit N]

* the project's own minimal pairs (transformer/probes/minimal_pairs_en.jsonl, written by hand):
  pair accuracy (both sentences right) by the chosen encoder head, by the decoder head, by the
  model's German pronoun, and with each head switched off; the first-noun rule gets 0 pairs;
  the swap test (transformer/probing/swap.py): the encoder head's output at "it" swapped
  between the two sentences, the share of right pronouns that turn into the partner's;
* the fresh minimal pairs (minimal_pairs_fresh_en.jsonl, 40 pairs written by hand on 2026-11-26
  blind to the textbook generator, whose frames were widened after reading the first set's
  misses): the same measures, an honest check that the first set did not become a tuning set;
* the project's own everyday sentences (everyday_en_de.tsv): chrF and BLEU, greedy and beam 4;
* the fresh everyday sentences (everyday_fresh_en_de.tsv, 100 written by hand on 2026-11-26
  blind to every generator): the same, the honest check for the first everyday set;
* the third everyday sentences (everyday_third_en_de.tsv, 100 written by hand on 2026-11-27 by an
  author who read no file of the project): the same, the honest check once the fresh set had been
  read while a generator (recipes/everyday/daily_life.py) was briefed;
* generated minimal pairs (the textbook generator's test split: noun pairs never trained on,
  the first 200 sentences): the same measures as the own pairs. Beside the hand-written sets it
  says where a miss comes from: a head right on the generator's pairs and wrong on the written
  ones has learnt the generator, not English (its coverage, not the training, is short);
* the caption probe (classroom_pronouns_en.jsonl): head and pronoun accuracy;
* the fresh caption probe (caption_pronouns_fresh_en.jsonl, 100 caption sentences written by hand
  on 2026-11-28 by an author who read no file of the project, after the caption-scene generator's
  brief had been written from the first probe's misses): the same, the honest check;
* Multi30k test_2016_flickr: sacreBLEU cased and lowercased, beam 4 (as every card reports it);
* the blog post's pair ("... because it was too tired / wide ."): the German pronoun and the
  word the encoder head weighs most from "it".

Heads default to the checkpoint's featured head (history.json) and the first head of the other
side named in its training's --supervise-head; --encoder-head / --decoder-head override.
``--limit N`` scores the first N items of each set (the tests re-measure on small subsets).
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import torch

from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.cli_util import OneLineParser
from transformer.core.names import Head, ablate_map
from transformer.data import tasks as data
from transformer.data import textbook
from transformer.probing.evaluate import evaluate
from transformer.probing.heads import score_anaphora
from transformer.probing.pairs import baseline_pairs, head_pair_accuracy, pair_groups, pair_share
from transformer.probing.probe_items import ProbeItem, generated_probe, noun_phrase, read_probe_file
from transformer.probing.pronouns import miss_kinds, pronoun_accuracy, pronoun_class, translate_ids
from transformer.probing.swap import swap_test

PROBES = Path(__file__).resolve().parents[1] / "probes"
MINIMAL_PAIRS = PROBES / "minimal_pairs_en.jsonl"
FRESH_PAIRS = PROBES / "minimal_pairs_fresh_en.jsonl"
EVERYDAY = PROBES / "everyday_en_de.tsv"
FRESH_EVERYDAY = PROBES / "everyday_fresh_en_de.tsv"
THIRD_EVERYDAY = PROBES / "everyday_third_en_de.tsv"
CAPTIONS = PROBES / "classroom_pronouns_en.jsonl"
FRESH_CAPTIONS = PROBES / "caption_pronouns_fresh_en.jsonl"

# The blog post's pair (never generated: tests/test_textbook.py). German references written by
# hand; word positions over whitespace-split words.
BLOG_PAIR = (
    ("The animal didn't cross the street because it was too tired .", 7, 1,
     "Das Tier überquerte die Straße nicht , weil es zu müde war .", 8, 1),
    ("The animal didn't cross the street because it was too wide .", 7, 5,
     "Das Tier überquerte die Straße nicht , weil sie zu breit war .", 8, 4),
)


def blog_items() -> list[ProbeItem]:
    return [ProbeItem(text, p, a, tgt, tp, ta, candidates=[1, 5], pair=0,
                      antecedent_span=noun_phrase(text.split(), a),
                      tgt_antecedent_span=noun_phrase(tgt.split(), ta), exact_position=False)
            for text, p, a, tgt, tp, ta in BLOG_PAIR]


def default_heads(ck) -> tuple[Head | None, Head | None]:
    """(encoder head, decoder head): the featured head and the supervised ones."""
    enc = dec = None
    names = []
    fh = (ck.history or {}).get("featured_head")
    if isinstance(fh, dict):
        names.append(f"{fh.get('kind')}:{fh.get('layer')}:{fh.get('head')}")
    sup = ((ck.train_config or {}).get("extra") or {}).get("supervise") or {}
    names += [s for s in str(sup.get("head") or "").split(",") if s]
    for name in names:
        try:
            h = Head.parse(name, form="cli")
        except ValueError:
            continue
        if h.kind == "encoder_self" and enc is None:
            enc = h
        elif h.kind == "decoder_self" and dec is None:
            dec = h
    return enc, dec


def probe_scores(model, tokenizer, items: list[ProbeItem], heads: list[Head]) -> dict:
    """Head accuracy and (for pairs) pair accuracy of each head, pronoun accuracy with all heads
    on and each switched off."""
    scores = score_anaphora(model, tokenizer, items)
    groups = pair_groups(items)
    by_pair = head_pair_accuracy(items, {k: v.tops for k, v in scores.items()}) if groups else {}
    base = pronoun_accuracy(model, tokenizer, items)
    out = {"n": len(items), "pronoun_accuracy": base.accuracy,
           "misses": miss_kinds(base.hypotheses, base.hits), "heads": {}}
    if groups:
        out.update(pairs=len(groups), pairs_by_pronoun=pair_share(base.hits, groups),
                   pair_baselines=baseline_pairs(items))
    for h in heads:
        name = h.cli
        sc = scores.get(h.kind)
        row = {"accuracy": None if sc is None else round(float(sc.accuracy[h.layer, h.head]), 4)}
        if groups and h.kind in by_pair:
            row["pair_accuracy"] = round(float(by_pair[h.kind][h.layer, h.head]), 4)
        off = pronoun_accuracy(model, tokenizer, items, ablate=ablate_map([h]))
        row["pronoun_accuracy_off"] = off.accuracy
        if groups:
            row["pairs_by_pronoun_off"] = pair_share(off.hits, groups)
        out["heads"][name] = row
    best = {k: (float(v.accuracy.max()), divmod(int(v.accuracy.argmax()), v.accuracy.size(1)))
            for k, v in scores.items()}
    out["best_head"] = {k: {"layer": lh[0], "head": lh[1], "accuracy": round(a, 4)}
                        for k, (a, lh) in best.items()}
    if by_pair:
        out["best_pair_head"] = {k: {"layer": divmod(int(v.argmax()), v.size(1))[0],
                                     "head": divmod(int(v.argmax()), v.size(1))[1],
                                     "pair_accuracy": round(float(v.max()), 4)}
                                 for k, v in by_pair.items()}
    return out


GENERATED_N = 200


def generated_pairs(n: int) -> list[ProbeItem]:
    """The first whole minimal pairs among the textbook generator's test-split sentences (noun
    pairs held out of training), at most n sentences."""
    items = generated_probe(textbook.generate("test", n))
    count = Counter(it.pair for it in items)
    return [it for it in items if count[it.pair] == 2][: 2 * (n // 2)]


def blog(model, tokenizer, enc: Head | None) -> list[dict]:
    """Per blog sentence: the translation, its pronoun, and the encoder head's strongest word."""
    items = blog_items()
    hyps = [tokenizer.decode(h) for h in translate_ids(model, tokenizer, [it.text for it in items])]
    tops = score_anaphora(model, tokenizer, items)["encoder_self"].tops if enc else None
    out = []
    for i, (it, hyp) in enumerate(zip(items, hyps)):
        prons = [w.strip(".,;:!?") for w in hyp.split() if pronoun_class(w)]
        want = it.target.split()[it.tgt_pronoun]
        row = {"text": it.text, "translation": hyp, "pronouns": prons, "wanted": want,
               "pronoun_right": prons[-1:] == [want] if prons else False}
        if enc:
            top = int(tops[i, enc.layer, enc.head])
            row["head_word"], row["head_pos"] = it.text.split()[top], top
            row["head_right"] = it.span(False)[0] <= top <= it.span(False)[1]
        out.append(row)
    return out


def translation_scores(model, tokenizer, path: Path, limit: int, beam: int = 4) -> dict:
    """Greedy (what the pages showed until they took beam search with length and coverage
    penalties, transformer.core.decode.BEST_*; kept so records compare) and beam search (what
    `transformer.evaluate --beam` and the cards' Multi30k rows use)."""
    exs = data.load_tsv(path)[: limit or None]
    res = evaluate(model, tokenizer, [e.src for e in exs], [e.tgt for e in exs])
    wide = evaluate(model, tokenizer, [e.src for e in exs], [e.tgt for e in exs], beam=beam)
    return {"n": len(exs), "chrf": res["chrf"], "bleu": res["bleu"], "beam": beam,
            "chrf_beam": wide["chrf"], "bleu_beam": wide["bleu"],
            "examples": [{"src": e.src, "hyp": h} for e, h in list(zip(exs, res["hypotheses"]))[:8]]}


def scorecard(ck, data_dir: str | None, limit: int = 0, enc: Head | None = None,
              dec: Head | None = None, beam: int = 4) -> dict:
    model, tok = ck.model.eval(), ck.tokenizer
    d_enc, d_dec = default_heads(ck)
    enc, dec = enc or d_enc, dec or d_dec
    heads = [h for h in (enc, dec) if h]
    pairs = read_probe_file(MINIMAL_PAIRS)[: 2 * (limit // 2) if limit else None]
    caps = read_probe_file(CAPTIONS)[: limit or None]
    out = {"heads": [f"{h.kind}:{h.layer}:{h.head}" for h in heads],
           "minimal_pairs": probe_scores(model, tok, pairs, heads),
           "fresh_pairs": probe_scores(model, tok, read_probe_file(FRESH_PAIRS)[
               : 2 * (limit // 2) if limit else None], heads),
           "everyday": translation_scores(model, tok, EVERYDAY, limit, beam),
           "fresh_everyday": translation_scores(model, tok, FRESH_EVERYDAY, limit, beam),
           "third_everyday": translation_scores(model, tok, THIRD_EVERYDAY, limit, beam),
           "generated_pairs": probe_scores(model, tok, generated_pairs(limit or GENERATED_N), heads),
           "caption_probe": probe_scores(model, tok, caps, heads),
           "fresh_caption_probe": probe_scores(model, tok, read_probe_file(FRESH_CAPTIONS)[
               : limit or None], heads),
           "blog_pair": blog(model, tok, enc)}
    if enc is not None and enc.kind == "encoder_self":
        out["minimal_pairs"]["swap"] = swap_test(model, tok, pairs, enc)
        out["fresh_pairs"]["swap"] = swap_test(model, tok, read_probe_file(FRESH_PAIRS)[
            : 2 * (limit // 2) if limit else None], enc)
    if data_dir:
        exs = data.load_multi30k(data_dir, "test_2016_flickr", "en", "de")[: limit or None]
        res = evaluate(model, tok, [e.src for e in exs], [e.tgt for e in exs], beam=beam)
        out["multi30k_test2016"] = {"n": len(exs), "beam": beam, "bleu": res["bleu"],
                                    "bleu_lowercase": res["bleu_lowercase"]}
    return out


def card_table(r: dict, before: dict | None = None) -> str:
    """The model card's table of these numbers (markdown), with a second column for another
    checkpoint's scorecard (BEFORE) when given: one source for the card and its test."""
    mp, cp, ev = r["minimal_pairs"], r["caption_probe"], r["everyday"]

    def cell(rec, f):
        try:
            v = f(rec)
        except (KeyError, TypeError, IndexError):
            return ""
        return "" if v is None else f"{v:.3f}" if isinstance(v, float) and v <= 1 else f"{v:.2f}"

    enc, dec = (r["heads"] + [None, None])[:2]
    rows = [
        (f"own minimal pairs ({mp['pairs']}): pair accuracy by the German pronoun",
         lambda x: x["minimal_pairs"]["pairs_by_pronoun"]),
        (f"own minimal pairs: pair accuracy by the encoder head {enc}",
         lambda x: x["minimal_pairs"]["heads"][enc]["pair_accuracy"]),
        (f"own minimal pairs: pair accuracy by the decoder head {dec}",
         lambda x: x["minimal_pairs"]["heads"][dec]["pair_accuracy"]),
        (f"own minimal pairs: by the pronoun with {enc} switched off",
         lambda x: x["minimal_pairs"]["heads"][enc]["pairs_by_pronoun_off"]),
        (f"own minimal pairs: by the pronoun with {dec} switched off",
         lambda x: x["minimal_pairs"]["heads"][dec]["pairs_by_pronoun_off"]),
        (f"own minimal pairs: swap test of {enc} (share of right pronouns that turn into the "
         "partner's when the head's output at \"it\" is swapped)",
         lambda x: x["minimal_pairs"]["swap"]["flip_rate"]),
        ("own minimal pairs: \"always the first noun\"",
         lambda x: x["minimal_pairs"]["pair_baselines"]["first_noun"]),
        ("fresh minimal pairs (written blind to the generator): pair accuracy by the German pronoun",
         lambda x: x["fresh_pairs"]["pairs_by_pronoun"]),
        (f"fresh minimal pairs: pair accuracy by the encoder head {enc}",
         lambda x: x["fresh_pairs"]["heads"][enc]["pair_accuracy"]),
        (f"fresh minimal pairs: pair accuracy by the decoder head {dec}",
         lambda x: x["fresh_pairs"]["heads"][dec]["pair_accuracy"]),
        (f"fresh minimal pairs: swap test of {enc}",
         lambda x: x["fresh_pairs"]["swap"]["flip_rate"]),
        ("generated minimal pairs (the textbook generator's held-out test split): pair accuracy "
         "by the German pronoun", lambda x: x["generated_pairs"]["pairs_by_pronoun"]),
        (f"generated minimal pairs: pair accuracy by the encoder head {enc}",
         lambda x: x["generated_pairs"]["heads"][enc]["pair_accuracy"]),
        (f"own everyday sentences ({ev['n']}): chrF (greedy)", lambda x: x["everyday"]["chrf"]),
        ("own everyday sentences: BLEU (greedy)", lambda x: x["everyday"]["bleu"]),
        ("own everyday sentences: chrF, beam 4", lambda x: x["everyday"]["chrf_beam"]),
        ("fresh everyday sentences (written blind to the generators): chrF (greedy)",
         lambda x: x["fresh_everyday"]["chrf"]),
        ("fresh everyday sentences: chrF, beam 4", lambda x: x["fresh_everyday"]["chrf_beam"]),
        ("third everyday sentences (written by an author who read no file of the project): chrF "
         "(greedy)", lambda x: x["third_everyday"]["chrf"]),
        ("third everyday sentences: chrF, beam 4", lambda x: x["third_everyday"]["chrf_beam"]),
        (f"caption probe ({cp['n']}): pronoun accuracy", lambda x: x["caption_probe"]["pronoun_accuracy"]),
        (f"caption probe: head accuracy of {enc}",
         lambda x: x["caption_probe"]["heads"][enc]["accuracy"]),
        (f"caption probe: head accuracy of {dec}",
         lambda x: x["caption_probe"]["heads"][dec]["accuracy"]),
        ("fresh caption probe (written by an author who read no file of the project): pronoun "
         "accuracy", lambda x: x["fresh_caption_probe"]["pronoun_accuracy"]),
        (f"fresh caption probe: head accuracy of {enc}",
         lambda x: x["fresh_caption_probe"]["heads"][enc]["accuracy"]),
        (f"fresh caption probe: head accuracy of {dec}",
         lambda x: x["fresh_caption_probe"]["heads"][dec]["accuracy"]),
        ("Multi30k test_2016_flickr BLEU, beam 4 (cased)", lambda x: x["multi30k_test2016"]["bleu"]),
        ("Multi30k test_2016_flickr BLEU, beam 4 (lowercased)",
         lambda x: x["multi30k_test2016"]["bleu_lowercase"]),
    ]
    head = "| measure | this model |" + (" before |" if before else "")
    sep = "| --- | --- |" + (" --- |" if before else "")
    lines = [head, sep]
    for name, f in rows:
        if not cell(r, f) and not (before and cell(before, f)):
            continue  # a set this scorecard did not measure (recorded before it existed)
        lines.append(f"| {name} | {cell(r, f)} |" + (f" {cell(before, f)} |" if before else ""))
    for b in r["blog_pair"]:
        lines.append(f"| blog: \"{b['text']}\" | {b['translation']} (pronoun {b['wanted']}: "
                     f"{'right' if b['pronoun_right'] else 'wrong'}; head on \"{b.get('head_word')}\") |"
                     + (" |" if before else ""))
    return "\n".join(lines)


def _print(r: dict) -> None:
    mp, cp = r["minimal_pairs"], r["caption_probe"]
    print(f"heads: {', '.join(r['heads']) or '(none)'}")
    print(f"minimal pairs ({mp['pairs']}): by pronoun {mp['pairs_by_pronoun']:.3f}; first noun "
          f"{mp['pair_baselines']['first_noun']:.3f}")
    for name, row in mp["heads"].items():
        print(f"  {name}: pair accuracy {row.get('pair_accuracy')}, head accuracy {row['accuracy']}, "
              f"pairs by pronoun with it off {row.get('pairs_by_pronoun_off')}")
    for name in ("minimal_pairs", "fresh_pairs"):
        sw = (r.get(name) or {}).get("swap")
        if sw:
            print(f"{name.replace('_', ' ')}: swap test of {sw['head']}: {sw['flip_rate']} of "
                  f"{sw['right_unswapped']} right pronouns turn into the partner's; "
                  f"pairs flipped both ways {sw['pairs_flipped']} of {sw['pairs_right_unswapped']}")
    for key, name, note in (("fresh_pairs", "fresh minimal pairs", ""),
                            ("generated_pairs", "generated minimal pairs", ", the generator's test split")):
        if key in r:
            p = r[key]
            print(f"{name} ({p['pairs']}{note}): by pronoun {p['pairs_by_pronoun']:.3f}; "
                  + "; ".join(f"{k} {v.get('pair_accuracy')}" for k, v in p["heads"].items()))
    for key in ("everyday", *(k for k in ("fresh_everyday", "third_everyday") if k in r)):
        ev = r[key]
        print(f"{key.replace('_', ' ')} ({ev['n']}): chrF {ev['chrf']:.2f}, BLEU {ev['bleu']:.2f} "
              f"(greedy); chrF {ev['chrf_beam']:.2f}, BLEU {ev['bleu_beam']:.2f} (beam {ev['beam']})")
    print(f"caption probe ({cp['n']}): pronoun accuracy {cp['pronoun_accuracy']:.3f}; misses: "
          f"{cp['misses']['wrong_pronoun']} with the wrong pronoun, {cp['misses']['no_pronoun']} "
          "with none")
    for name, row in cp["heads"].items():
        print(f"  {name}: head accuracy {row['accuracy']}, pronoun accuracy with it off "
              f"{row['pronoun_accuracy_off']:.3f}")
    if "fresh_caption_probe" in r:
        fc = r["fresh_caption_probe"]
        print(f"fresh caption probe ({fc['n']}): pronoun accuracy {fc['pronoun_accuracy']:.3f}; "
              + "; ".join(f"{k} head accuracy {v['accuracy']}" for k, v in fc["heads"].items()))
    if "multi30k_test2016" in r:
        m = r["multi30k_test2016"]
        print(f"Multi30k test_2016_flickr ({m['n']}, beam {m['beam']}): BLEU {m['bleu']:.2f} / "
              f"{m['bleu_lowercase']:.2f} lowercased")
    for b in r["blog_pair"]:
        print(f"blog: {b['text']} -> {b['translation']} (pronoun {b['pronouns']}, wanted "
              f"{b['wanted']}; head on {b.get('head_word')})")


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m transformer.scorecard", description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--data-dir", help="the Multi30k folder (for test_2016_flickr); omit to skip")
    ap.add_argument("--encoder-head", help="KIND:LAYER:HEAD (default: from the checkpoint)")
    ap.add_argument("--decoder-head", help="KIND:LAYER:HEAD (default: from the checkpoint)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N items of each set")
    ap.add_argument("--beam", type=int, default=4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    heads = []
    for flag in (a.encoder_head, a.decoder_head):
        try:
            heads.append(Head.parse(flag, form="cli") if flag else None)
        except ValueError:
            ap.error(f"not a head: {flag!r} (KIND:LAYER:HEAD, e.g. encoder_self:2:0)")
    if a.limit < 0 or a.beam < 1:
        ap.error("--limit must be >= 0 and --beam >= 1")
    torch.set_num_threads(max(1, a.threads))
    try:
        ck = load_checkpoint(a.checkpoint)
        with torch.inference_mode():
            r = scorecard(ck, a.data_dir, a.limit, *heads, beam=a.beam)
    except (CheckpointError, ValueError, OSError) as e:
        ap.error(str(e).splitlines()[0])
    r["checkpoint"] = a.checkpoint
    print(json.dumps(r, ensure_ascii=False)) if a.json else _print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
