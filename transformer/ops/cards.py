"""Model cards (a checkpoint's README.md, and its short card.json where it has one): their
examples are what the model writes.

An example in a card is a source sentence and the model's output, in one of two forms:

    an indented line:    SOURCE  ->  OUTPUT        (4 spaces, two spaces either side of ->)
    inline:              `SOURCE` -> `OUTPUT`

`model_output` decodes a source greedily with transformer.core.decode.greedy (what the Decode page
shows by default); `refresh` rewrites every example's output with it and leaves every other
character of the card alone. The trainer's cards (transformer.train.RunWriter) write their
example with `example_line`.

    python -m transformer.ops.cards checkpoints/anaphora-en-de ...          rewrite the examples
    python -m transformer.ops.cards --check checkpoints/anaphora-en-de ...  exit 1 if one is stale
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import torch

from transformer.core.checkpoint import CARD, SHORT_CARD, load_checkpoint
from transformer.core.decode import greedy
from transformer.core.text import source_ids

BLOCK = re.compile(r"^    (?P<src>\S[^\n]*?)  ->  (?P<out>[^\n]*?)[ \t]*$", re.M)
INLINE = re.compile(r"`(?P<src>[^`\n]+)` -> `(?P<out>[^`\n]*)`")


@dataclass(frozen=True)
class Example:
    src: str
    out: str
    start: int  # where the output starts in the card
    end: int


def examples(card: str) -> list[Example]:
    """The card's examples, in the order they appear."""
    found = [Example(m["src"], m["out"], m.start("out"), m.end("out"))
             for pattern in (BLOCK, INLINE) for m in pattern.finditer(card)]
    return sorted(found, key=lambda e: e.start)


def model_output(model, tokenizer, src: str) -> str:
    """The model's greedy output for `src`, as text (the model is put in eval mode for the
    decode and left as it was)."""
    was_training = model.training
    model.eval()
    try:
        ids, _ = source_ids(tokenizer, src, model.cfg.max_len)
        with torch.inference_mode():
            return tokenizer.decode(greedy(model, ids).tokens)
    finally:
        model.train(was_training)


def refresh(card: str, translate: Callable[[str], str]) -> str:
    """The card with every example's output replaced by translate(source)."""
    out, at = [], 0
    for ex in examples(card):
        out += [card[at:ex.start], translate(ex.src)]
        at = ex.end
    return "".join(out + [card[at:]])


def example_line(src: str, out: str) -> str:
    """One example as a card writes it (an indented line)."""
    return f"    {src}  ->  {out}"


def refresh_checkpoint(path: str | Path, check: bool = False) -> list[tuple[str, str, str]]:
    """Rewrite the examples of the card at `path` (README.md, and each language of card.json)
    with the checkpoint's own outputs (unless `check`). Returns the stale examples as (source,
    shown, model output)."""
    ck = load_checkpoint(path)
    card_path, short_path = Path(path) / CARD, Path(path) / SHORT_CARD
    card = card_path.read_text(encoding="utf-8")
    short = json.loads(short_path.read_text(encoding="utf-8")) if short_path.is_file() else {}
    texts = [card] + ["\n".join(lines) for lines in short.values()]
    found = [ex for text in texts for ex in examples(text)]
    outputs = {ex.src: model_output(ck.model, ck.tokenizer, ex.src) for ex in found}
    stale = [(ex.src, ex.out, outputs[ex.src]) for ex in found if ex.out != outputs[ex.src]]
    if stale and not check:
        card_path.write_text(refresh(card, outputs.__getitem__), encoding="utf-8")
        if short:
            short = {lang: refresh("\n".join(lines), outputs.__getitem__).split("\n")
                     for lang, lines in short.items()}
            short_path.write_text(json.dumps(short, ensure_ascii=False, indent=2) + "\n",
                                  encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m transformer.ops.cards",
                                 description="Make a model card's examples the model's output.")
    ap.add_argument("checkpoints", nargs="+",
                    help="checkpoint folders holding a README.md (and maybe a card.json)")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = ap.parse_args(argv)
    bad = 0
    for path in args.checkpoints:
        for src, shown, real in refresh_checkpoint(path, check=args.check):
            bad += 1
            print(f"{path}: {src!r}: card {shown!r}, model {real!r}")
    if args.check and bad:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
