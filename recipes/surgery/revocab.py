"""Give a trained checkpoint a new vocabulary without starting over (vocabulary transfer).

A new corpus wants a new tokenizer ("didn't", "because", "weather" as one piece each), but a
new tokenizer makes the old embedding rows meaningless, and training from scratch costs a 2-core
CPU an hour before the model translates captions again. Every layer but the embeddings does not
depend on the vocabulary, so they are kept; each new piece's embedding row is the old row of
the same piece when the old vocabulary has it, else the mean of the old rows of the pieces the
old tokenizer splits its text into (a common initialisation, e.g. Gee et al. 2022, "Fast
Vocabulary Transfer"). Fine-tuning (--init) then starts from a model that already translates.

    python -m recipes.surgery.revocab --checkpoint checkpoints/classroom-en-de \\
        --task everyday --data-dir ../shared/data/multi30k --vocab-size 10000 --out runs/everyday-init
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch

from recipes.everyday.mix import register as register_everyday
from transformer.core.checkpoint import (
    CheckpointError,
    load_checkpoint,
    save_checkpoint,
)
from transformer.core.cli_util import OneLineParser
from transformer.core.config import ModelConfig
from transformer.core.model import Transformer
from transformer.core.tokenizer import WORD_MARK, Tokenizer
from transformer.train.cli import tokenizer_symbols
from transformer.train.corpus import CorpusSpec, UsageError, load_corpus
from transformer.train.settings import _parse_task_opts


def transfer_rows(old_emb: torch.Tensor, old_tok: Tokenizer, new_tok: Tokenizer) -> tuple[torch.Tensor, int]:
    """(new embedding matrix, how many rows were copied as they were). Row i of the result is
    the old row of new piece i's text if the old vocabulary has that piece, else the mean of the
    old rows of its old pieces (or of all old rows, for a piece the old tokenizer cannot read)."""
    old_ids = {old_tok.id_to_piece(i): i for i in range(old_tok.vocab_size)}
    mean = old_emb.mean(0)
    rows, copied = [], 0
    for i in range(new_tok.vocab_size):
        piece = new_tok.id_to_piece(i)
        if i < 4:  # pad, bos, eos, unk keep their ids in every vocabulary here
            rows.append(old_emb[i])
            copied += 1
        elif piece in old_ids:
            rows.append(old_emb[old_ids[piece]])
            copied += 1
        else:
            ids = old_tok.encode(piece.replace(WORD_MARK, " ")) if piece else []
            ids = [j for j in ids if j < old_emb.shape[0]]
            rows.append(old_emb[ids].mean(0) if ids else mean)
    return torch.stack(rows), copied  # (new_vocab, d_model)


def revocab(model: Transformer, old_tok: Tokenizer, new_tok: Tokenizer) -> tuple[Transformer, int]:
    """A new model of the same shape with NEW_TOK's vocabulary; every other weight copied."""
    cfg = ModelConfig.from_dict({**model.cfg.to_dict(), "vocab_size": new_tok.vocab_size})
    new = Transformer(cfg)
    state = {k: v for k, v in model.state_dict().items()}
    copied = 0
    for name in ("src_embed.token.weight", "tgt_embed.token.weight", "generator.weight"):
        if name in state:
            state[name], copied = transfer_rows(state[name], old_tok, new_tok)
    new.load_state_dict(state)
    return new, copied


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m recipes.surgery.revocab", description=__doc__.splitlines()[0])
    p.add_argument("--checkpoint", required=True, help="the trained checkpoint to start from")
    p.add_argument("--task", required=True, help="the training task whose text the new "
                   "tokenizer is trained on (as transformer.train --task)")
    p.add_argument("--data-dir", default=None)
    p.add_argument("--task-opt", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--vocab-size", type=int, default=10000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    register_everyday()  # --task everyday: the shipped default's mix (recipes/everyday)
    try:
        ck = load_checkpoint(a.checkpoint)
        if not isinstance(ck.tokenizer, Tokenizer):
            raise CheckpointError("a converted model's two tokenizers are not supported here")
        corpus = load_corpus(CorpusSpec(a.task, a.seed, _parse_task_opts(a.task_opt),
                                        data_dir=a.data_dir, src_lang="en", tgt_lang="de"))
    except (CheckpointError, UsageError) as e:
        p.error(str(e))
    if not 100 <= a.vocab_size <= 64000:
        p.error(f"--vocab-size: must be in [100, 64000] (got {a.vocab_size})")

    tok = Tokenizer.train(corpus.train_src + corpus.train_tgt, vocab_size=a.vocab_size,
                          user_defined_symbols=tokenizer_symbols(a.task))
    model, copied = revocab(ck.model, ck.tokenizer, tok)
    card = (f"# {Path(a.out).name}\n\n{Path(a.checkpoint).name}'s weights with a new vocabulary "
            f"of {tok.vocab_size} pieces trained on task {a.task} ({copied} embedding rows "
            f"copied, the rest the mean of their old pieces): a starting point for --init, not a "
            f"model to use.\n\n    python -m recipes.surgery.revocab {' '.join(argv or sys.argv[1:])}\n")
    save_checkpoint(a.out, model, tok, train_config=ck.train_config, card=card)
    print(f"{a.out}: vocabulary {ck.tokenizer.vocab_size} -> {tok.vocab_size}, {copied} rows copied")
    return 0


if __name__ == "__main__":
    sys.exit(main())
