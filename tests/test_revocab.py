"""recipes.surgery.revocab: a trained model's weights under a new vocabulary."""
from __future__ import annotations

import torch

from helpers import CORPUS, tiny_config
from transformer.core.model import Transformer
from recipes.surgery.revocab import revocab, transfer_rows
from transformer.core.tokenizer import WORD_MARK, Tokenizer


def _tokenizers():
    old = Tokenizer.train(CORPUS, vocab_size=120)
    new = Tokenizer.train(CORPUS + ["The weather is nice today .", "I didn't know ."] * 3,
                          vocab_size=150)
    return old, new


def test_rows_are_copied_or_averaged_from_the_old_pieces():
    old, new = _tokenizers()
    torch.manual_seed(0)
    emb = torch.randn(old.vocab_size, 8)
    rows, copied = transfer_rows(emb, old, new)
    assert rows.shape == (new.vocab_size, 8)
    old_ids = {old.id_to_piece(i): i for i in range(old.vocab_size)}
    n_same = 0
    for i in range(new.vocab_size):
        piece = new.id_to_piece(i)
        if i < 4:
            want = emb[i]
        elif piece in old_ids:
            want = emb[old_ids[piece]]
            n_same += 1
        else:  # independently: the old pieces of the same text, averaged
            ids = old.encode(piece.replace(WORD_MARK, " "))
            want = torch.stack([emb[j] for j in ids]).mean(0) if ids else emb.mean(0)
        torch.testing.assert_close(rows[i], want)
    assert copied == n_same + 4 and 0 < n_same < new.vocab_size - 4


def test_every_other_weight_is_kept_and_the_model_runs():
    old, new = _tokenizers()
    torch.manual_seed(1)
    model = Transformer(tiny_config(vocab_size=old.vocab_size))
    out, _ = revocab(model, old, new)
    assert out.cfg.vocab_size == new.vocab_size
    a, b = model.state_dict(), out.state_dict()
    for k, v in a.items():
        if "embed" not in k and "generator" not in k:
            torch.testing.assert_close(b[k], v)
    src = torch.tensor([new.encode("A dog runs in the park .") + [2]])
    tgt = torch.tensor([[1] + new.encode("Ein Hund")])
    logits = out.eval()(src, tgt)
    assert logits.shape[-1] == new.vocab_size and torch.isfinite(logits).all()
