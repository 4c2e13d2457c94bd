"""Put one attention head's query and key rows from one checkpoint into another.

Why: two fine-tunes that train disjoint weights can run side by side from related starts, one
widening what the model knows (``--train-only ffn:N+``), one teaching a head where to look
(``--train-only KIND:LAYER:HEAD:qk``). Their results then combine exactly where each trained:
the base keeps every weight but that head's query and key rows, which come from the donor. The
head's values, every other head and every feed-forward unit stay the base's, so what the base
translates changes only through where that one head looks.

    python -m recipes.surgery.graft --base A43b --donor A46 --head encoder_self:2:0 --out runs/G
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

from transformer.core.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from transformer.core.cli_util import OneLineParser
from transformer.core.model import Transformer
from transformer.core.names import Head, attention_kind
from transformer.train.freeze import qk_rows

def graft_head_qk(base: Transformer, donor: Transformer, head: Head) -> Transformer:
    """BASE, changed in place: HEAD's query and key rows (weights and biases) are DONOR's."""
    if base.cfg.to_dict() != donor.cfg.to_dict():
        raise ValueError("--donor: its model shape differs from the base's; a head's rows can "
                         "only move between models of one shape")
    cfg = base.cfg
    if head.layer >= attention_kind(head.kind, cfg).n_layers or head.head >= cfg.n_heads:
        raise ValueError(f"--head: {head.cli} is not a head of this model")
    rows = qk_rows(head, cfg.d_model, cfg.n_heads)  # (3D,): W_Q and W_K rows of this head
    b_state, d_state = base.state_dict(), donor.state_dict()
    with torch.no_grad():
        for suffix in (".in_proj.weight", ".in_proj.bias"):
            name = head.path + suffix
            b_state[name][rows] = d_state[name][rows]
    return base


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = OneLineParser(prog="python -m recipes.surgery.graft", description=__doc__.splitlines()[0])
    p.add_argument("--base", required=True, help="the checkpoint that keeps every other weight")
    p.add_argument("--donor", required=True, help="the checkpoint whose head rows are taken")
    p.add_argument("--head", required=True, help="KIND:LAYER:HEAD, e.g. encoder_self:2:0")
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    try:
        head = Head.parse(a.head, form="cli")
        base, donor = load_checkpoint(a.base), load_checkpoint(a.donor)
        if donor.tokenizer.to_bytes() != base.tokenizer.to_bytes():
            raise ValueError("--donor: its vocabulary differs from the base's")
        model = graft_head_qk(base.model, donor.model, head)
    except (CheckpointError, ValueError) as e:
        p.error(str(e))
    dtype = json.loads((Path(a.base) / "config.json").read_text()).get("weights_dtype", "float32")
    train = {**base.train_config, "extra": {**base.train_config.get("extra", {}),
                                            "grafted": {"donor": str(a.donor), "head": head.cli}}}
    # the folders as given, not their last names: two runs' averages are often both "avg"
    card = (f"# {Path(a.out).name}\n\n{a.base} with the query and key rows of "
            f"{head.cli} from {a.donor}; every other weight is "
            f"{a.base}'s.\n\n    python -m recipes.surgery.graft {' '.join(argv)}\n")
    save_checkpoint(a.out, model, base.tokenizer, train_config=train, history=base.history,
                    card=card, weights_dtype=dtype)
    print(f"{a.out}: {a.base} with {head.cli}'s query and key rows from {a.donor} ({dtype})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
