"""Give a trained checkpoint wider feed-forward layers without changing a single output.

A 2-core CPU cannot train a larger model from scratch in a session, and the everyday-en-de
model trades caption BLEU against everyday chrF whenever one of its mixes pushes harder: a sign
that it is short of room. The feed-forward layers can be widened so that the grown model
computes exactly what the old one did (the function-preserving growth of Net2Net, Chen et al.
2016, with the zero-initialised variant): each layer keeps its d_ff old hidden units as they
were, and the new units get fresh input weights, a zero bias and a zero column in the output
weights. The new units then contribute nothing until fine-tuning (--init) moves their output
weights, and every attention weight is untouched, so the trained heads keep their rows.

    python -m recipes.surgery.grow --checkpoint checkpoints/everyday-en-de --d-ff 2048 --out runs/grown
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch

from transformer.core.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from transformer.core.cli_util import OneLineParser
from transformer.core.config import ModelConfig
from transformer.core.model import Transformer, ffn_unit_axis

MAX_D_FF = 16384


def widen_ffn(model: Transformer, d_ff: int, *, seed: int = 0) -> Transformer:
    """A model with feed-forward layers of width D_FF that computes what MODEL computes."""
    old_d_ff = model.cfg.d_ff
    if not old_d_ff < d_ff <= MAX_D_FF:
        raise ValueError(f"--d-ff: must be larger than the model's {old_d_ff} and at most "
                         f"{MAX_D_FF} (got {d_ff})")
    with torch.random.fork_rng():  # the caller's random state is left as it was
        torch.manual_seed(seed)  # the new units' input weights: the model's own initialisation
        new = Transformer(ModelConfig.from_dict({**model.cfg.to_dict(), "d_ff": d_ff}))
    state = new.state_dict()
    with torch.no_grad():
        for name, old in model.state_dict().items():
            target, axis = state[name], ffn_unit_axis(name)
            if axis is None:
                target.copy_(old)
                continue
            target.narrow(axis, 0, old_d_ff).copy_(old)  # the old units, as they were
            if not name.endswith("w1.weight"):  # new units: zero bias, zero output column
                target.narrow(axis, old_d_ff, d_ff - old_d_ff).zero_()
    new.load_state_dict(state)
    return new.eval()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = OneLineParser(prog="python -m recipes.surgery.grow", description=__doc__.splitlines()[0])
    p.add_argument("--checkpoint", required=True, help="the trained checkpoint to widen")
    p.add_argument("--d-ff", type=int, required=True, help="the new feed-forward width")
    p.add_argument("--seed", type=int, default=0, help="seeds the new units' input weights")
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    try:
        ck = load_checkpoint(a.checkpoint)
        model = widen_ffn(ck.model, a.d_ff, seed=a.seed)
    except (CheckpointError, ValueError) as e:
        p.error(str(e))
    n_old = sum(t.numel() for t in ck.model.parameters())
    n_new = sum(t.numel() for t in model.parameters())
    train = {**ck.train_config, "extra": {**ck.train_config.get("extra", {}),
                                          "grown_from": {"checkpoint": str(a.checkpoint),
                                                         "d_ff": ck.model.cfg.d_ff}}}
    card = (f"# {Path(a.out).name}\n\n{Path(a.checkpoint).name} with feed-forward layers of "
            f"width {a.d_ff} (was {ck.model.cfg.d_ff}; {n_old:,} -> {n_new:,} parameters). The "
            f"new units write nothing yet, so it translates exactly as {Path(a.checkpoint).name} "
            f"does: a starting point for --init, not a model to use.\n\n"
            f"    python -m recipes.surgery.grow {' '.join(argv)}\n")
    save_checkpoint(a.out, model, ck.tokenizer, train_config=train, history=ck.history, card=card)
    print(f"{a.out}: d_ff {ck.model.cfg.d_ff} -> {a.d_ff}, parameters {n_old:,} -> {n_new:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
