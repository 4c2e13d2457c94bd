"""What the Positional-encoding page reads from the checkpoint, served from the one checkpoint
cache (ui/inspect_cache.py) and computed under the inference lock (models.run_inference): the
scaled token embeddings of a sentence beside its positional encodings."""
from __future__ import annotations

import math

from transformer.core import notes as N
from transformer.core.text import source_ids
from ui import models
from ui.inspect_cache import per_checkpoint


def _rows(model, ids: list[int]):
    emb = model.src_embed
    scaled = (emb.token.weight[ids] * math.sqrt(model.cfg.d_model)).double().numpy()  # (T, d)
    pe_rows = emb.positional(len(ids)).double().numpy()  # (T, d)
    return scaled, pe_rows


@per_checkpoint
def embedding_rows(ck, text: str) -> dict:
    """The source embedding of `text` scaled by √d_model, as the model adds it, and the
    positional encodings it is added to: labels (display tokens), scaled, pe (numpy (T, d)),
    learned (a learned positional table rather than sinusoids) and notes (the sentence cut to
    the model's limit). Raises TextError for unusable text."""
    ids, cut = source_ids(ck.tokenizer, text, ck.model.cfg.max_len)
    scaled, pe_rows = models.run_inference(_rows, ck.model, ids)
    return {"labels": ck.tokenizer.display(ids), "scaled": scaled, "pe": pe_rows,
            "learned": ck.model.src_embed.pos is not None,
            "notes": [N.source_cut(ck.model.cfg.max_len)] if cut else []}
