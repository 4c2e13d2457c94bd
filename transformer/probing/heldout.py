"""The held-out sets, scored: text that the training never sees and no generator wrote.

    python -m transformer.heldout --checkpoint checkpoints/everyday-en-de [--ding-dir DIR]
        [--beam 5] [--alpha 0.6] [--coverage 0] [--limit N] [--sets ding,lesson,seeds]
        [--device auto]
    python -m transformer.heldout --write-ding-ids [--ding-dir DIR]   # regenerate the ids file

Three sets:

* ``ding``: 1,000 of Ding's real sentence pairs split off by sentence
  (transformer/data/ding_heldout.py; the ids in transformer/probes/ding_heldout_ids.txt; the
  dictionary is read at run time and never committed, so the set is skipped with a reason where
  it is missing). Also scored apart: the pairs that are in the everyday mix's Ding validation split
  as well (``is_ding_val``), which no everyday model has trained on, even one trained before the
  split was made;
* ``lesson``: transformer/probes/lesson_en_de.tsv, sentences a lesson on attention uses (attention,
  word, sentence, meaning, robot, translate, learn, teacher, student, model, layer, head ...),
  written by hand with German references;
* ``seeds``: transformer/probes/seeds_en_de.tsv, the seed notes' own English example sentences
  (and the paper's figure sentences they discuss) with German references written by hand.

Each is scored with sacreBLEU's chrF (and BLEU) on greedy decoding (what the app's pages show) and
on beam search (default beam 5, GNMT length normalisation alpha 0.6, as transformer.core.decode
does; ``--coverage`` adds GNMT's coverage penalty). ``keeps`` reports, for "I drink and I know
things ." and Figure 4's sentence (the paper's figure of two encoder self-attention heads,
layer 5 of 6; the shipped models' pronoun heads are elsewhere, one in the decoder), the model's
output and whether it keeps the drinking (trink- / trank / getrunken), the law (Gesetz) and its
application (Anwendung). Prints one JSON object.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import sacrebleu
import torch

from transformer.core import decode
from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.cli_util import OneLineParser
from transformer.core.config import resolve_device
from transformer.data import ding, ding_heldout
from transformer.data import tasks as data
from transformer.data.ding import find_ding
from transformer.data.ding_heldout import is_ding_val
from transformer.data.example import Example
from transformer.probing.evaluate import evaluate

PROBES = Path(__file__).resolve().parents[1] / "probes"
LESSON = PROBES / "lesson_en_de.tsv"
SEEDS = PROBES / "seeds_en_de.tsv"
SETS = ("ding", "lesson", "seeds")
BEAM, ALPHA = 5, 0.6
EXAMPLES = 8  # source / output pairs shown per set

# the two sentences issue 50 names, with the words a translation must keep: English word ->
# German stems (lower case, matched inside the output's words)
KEEPS = (
    ("I drink and I know things .", {"drink": ("trink", "trank", "getrunken")}),
    ("The law will never be perfect , but its application should be just .",
     {"law": ("gesetz",), "application": ("anwendung",)}),
)


def ding_pairs(ding_dir: str | None = None) -> tuple[list[Example] | None, str]:
    """(the held-out Ding pairs, where they came from), or (None, why not)."""
    if ding_dir is not None and not (Path(ding_dir) / ding.FILE_NAME).is_file():
        return None, f"no {ding.FILE_NAME} in {ding_dir} (--ding-dir)"
    where = find_ding(ding_dir)
    if where is None:
        return None, ("Ding dictionary not found (pass --ding-dir, set $ATTENTION_LAB_DING, or put "
                      "de-en.txt at ../shared/data/ding)")
    held = ding_heldout.split(ding.sentence_pairs(where)).heldout
    if not held:
        return None, f"none of the held-out ids ({ding_heldout.IDS_FILE.name}) is in {where}"
    return held, str(where)


def kept_words(output: str, wanted: dict[str, tuple[str, ...]]) -> dict[str, bool]:
    low = output.lower()
    return {en: any(stem in low for stem in stems) for en, stems in wanted.items()}


def score(model, tokenizer, examples: list[Example], beam: int = BEAM, alpha: float = ALPHA,
          batch_size: int = 64, coverage: float = 0.0) -> tuple[dict, list[str], list[str]]:
    """(chrF and BLEU, greedy and beam; the greedy and the beam outputs)."""
    srcs, refs = [e.src for e in examples], [e.tgt for e in examples]
    g = evaluate(model, tokenizer, srcs, refs, batch_size=batch_size)
    b = evaluate(model, tokenizer, srcs, refs, beam=beam, alpha=alpha, batch_size=batch_size,
                 coverage=coverage)
    out = {"n": len(examples), "chrf": g["chrf"], "bleu": g["bleu"], "beam": beam, "alpha": alpha,
           "coverage": coverage, "chrf_beam": b["chrf"], "bleu_beam": b["bleu"],
           "signature_chrf": g["signature_chrf"],
           "examples": [{"src": e.src, "ref": e.tgt, "greedy": h, "beam": hb} for e, h, hb
                        in list(zip(examples, g["hypotheses"], b["hypotheses"]))[:EXAMPLES]]}
    return out, g["hypotheses"], b["hypotheses"]


def _subset(examples, greedy, wide, keep) -> dict:
    idx = [i for i, e in enumerate(examples) if keep(e)]
    refs = [[examples[i].tgt for i in idx]]
    if not idx:
        return {"n": 0}
    return {"n": len(idx),
            "chrf": round(sacrebleu.CHRF().corpus_score([greedy[i] for i in idx], refs).score, 2),
            "chrf_beam": round(sacrebleu.CHRF().corpus_score([wide[i] for i in idx], refs).score, 2)}


def keeps(model, tokenizer, beam: int = BEAM, alpha: float = ALPHA,
          coverage: float = 0.0) -> list[dict]:
    """The two named sentences: outputs (greedy and beam) and which wanted words they keep."""
    srcs = [s for s, _ in KEEPS]
    greedy = decode.translate(model, tokenizer, srcs)
    wide = decode.translate(model, tokenizer, srcs, beam=beam, alpha=alpha, coverage=coverage)
    return [{"src": s, "greedy": g, "beam": b, "keeps_greedy": kept_words(g, w),
             "keeps_beam": kept_words(b, w)} for (s, w), g, b in zip(KEEPS, greedy, wide)]


def weights_sha256(path: str | Path) -> str | None:
    f = Path(path) / "model.safetensors"
    return hashlib.sha256(f.read_bytes()).hexdigest() if f.is_file() else None


def heldout_scores(ck, checkpoint: str | Path, sets=SETS, ding_dir: str | None = None,
                   beam: int = BEAM, alpha: float = ALPHA, limit: int = 0,
                   coverage: float = 0.0) -> dict:
    model, tok = ck.model.eval(), ck.tokenizer
    out: dict = {"checkpoint": str(checkpoint), "weights_sha256": weights_sha256(checkpoint),
                 "decoding": {"greedy": "batched greedy", "beam": beam, "alpha": alpha,
                              "coverage": coverage},
                 "limit": limit or None}
    with torch.inference_mode():
        for name in sets:
            if name == "ding":
                pairs, where = ding_pairs(ding_dir)
                if pairs is None:
                    out["ding"] = {"skipped": where}
                    continue
                pairs = pairs[: limit or None]
                res, g, b = score(model, tok, pairs, beam, alpha, coverage=coverage)
                res["source"] = where
                res["ids_file"] = str(ding_heldout.IDS_FILE.relative_to(PROBES.parents[1]))
                res["in_ding_validation"] = _subset(pairs, g, b, is_ding_val)
                # Ding is GPL-2+ and never committed: the record keeps no text of it, only line
                # numbers of the dictionary file, so the output can go into a card or a benchmark
                res["examples"] = [{"line": e.meta.get("line"), "greedy": x["greedy"],
                                    "beam": x["beam"]} for e, x in zip(pairs, res["examples"])]
                out["ding"] = res
            else:
                path = LESSON if name == "lesson" else SEEDS
                exs = data.load_tsv(path)[: limit or None]
                out[name], _, _ = score(model, tok, exs, beam, alpha, coverage=coverage)
                out[name]["file"] = str(path.relative_to(PROBES.parents[1]))
        out["keeps"] = keeps(model, tok, beam, alpha, coverage)
    return out


# issue 50's goals for the held-out sets (chrF, greedy or beam): the card shows them beside the scores
GOALS = {"lesson": ">= 65", "ding": ">= 65"}

HELDOUT_ROWS = (
    ("lesson", "lesson sentences", ("lesson",)),
    ("seeds", "the seed notes' own sentences", ("seeds",)),
    ("ding", "Ding's held-out sentence pairs", ("ding",)),
    ("ding_val", "of them, the pairs in Ding's validation split (never trained on)",
     ("ding", "in_ding_validation")),
)


def _scored(rec: dict | None, path: tuple[str, ...]) -> dict | None:
    """The scored block at PATH in a heldout_scores record, or None where the set was not scored."""
    for k in path:
        rec = rec.get(k) if isinstance(rec, dict) else None
    return rec if isinstance(rec, dict) and "chrf" in rec else None


def card_heldout_table(r: dict, before: dict | None = None, goals: dict | None = None) -> str:
    """The model card's table of a heldout_scores record (markdown): chrF greedy / beam per set,
    beside another checkpoint's record (BEFORE) and a goal per set when given. One source for the
    card and the test that reads it."""
    def cell(block):
        return f"{block['chrf']:.2f} / {block['chrf_beam']:.2f}" if block else ""

    beam = r.get("decoding", {}).get("beam", BEAM)
    cols = ["this model"] + (["before"] if before else []) + (["goal"] if goals else [])
    lines = [f"| held-out set: chrF greedy / beam {beam} | " + " | ".join(cols) + " |",
             "| --- |" + " --- |" * len(cols)]
    for key, name, path in HELDOUT_ROWS:
        mine = _scored(r, path)
        if mine is None:
            continue
        row = [cell(mine)] + ([cell(_scored(before, path))] if before else []) + \
            ([goals.get(key, "")] if goals else [])
        lines.append(f"| {name} ({mine['n']:,}) | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m transformer.heldout", description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", help="checkpoint directory")
    p.add_argument("--ding-dir", help="folder with Ding's de-en.txt (default: $ATTENTION_LAB_DING, "
                                      "../shared/data/ding, data/ding)")
    p.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    p.add_argument("--beam", type=int, default=BEAM)
    p.add_argument("--alpha", type=float, default=ALPHA)
    p.add_argument("--coverage", type=float, default=0.0, metavar="BETA",
                   help="beam search's coverage penalty beta (GNMT; 0, the default, for none)")
    p.add_argument("--limit", type=int, default=0, help="only the first N sentences of each set")
    p.add_argument("--device", default="auto")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--write-ding-ids", action="store_true",
                   help=f"apply the hash rule to the dictionary and rewrite "
                        f"{ding_heldout.IDS_FILE.name} (no checkpoint needed)")
    args = p.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    try:
        if args.write_ding_ids:
            where = find_ding(args.ding_dir)
            if where is None:
                raise ValueError("--write-ding-ids: Ding dictionary not found (pass --ding-dir)")
            chosen = ding_heldout.select(ding.sentence_pairs(where))
            ding_heldout.write_ids(chosen)
            print(json.dumps({"ids_file": str(ding_heldout.IDS_FILE), "ids": len(chosen),
                              "source": str(where)}))
            return 0
        if not args.checkpoint:
            raise ValueError("--checkpoint: required")
        if bad := [s for s in sets if s not in SETS]:
            raise ValueError(f"--sets: unknown set {bad[0]!r} (choose from {', '.join(SETS)})")
        if args.beam < 1:
            raise ValueError(f"--beam: must be at least 1 (got {args.beam})")
        decode.check_coverage(args.coverage, "--coverage")
        if args.threads is not None:
            torch.set_num_threads(max(1, args.threads))
        device = resolve_device(args.device)
        ck = load_checkpoint(args.checkpoint, device=device)
        res = heldout_scores(ck, args.checkpoint, sets, args.ding_dir, args.beam, args.alpha,
                             args.limit, args.coverage)
    except (ValueError, CheckpointError, OSError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    res["device"] = device
    print(json.dumps(res, ensure_ascii=False))
    return 0
