"""Checkpoint averaging, as in the paper (section 6.1: "averaging the last 5 checkpoints").

    python -m transformer.average --out DIR CHECKPOINT CHECKPOINT [CHECKPOINT ...]
    python -m transformer.average --weights-dtype float16 --out DIR CHECKPOINT [...]

Averaging the weights of the last few checkpoints of one run smooths out the noise of the final
updates and usually gains a little BLEU at no training cost. Only checkpoints of the same shape
and tokenizer can be averaged (the same run, or runs started from one another); anything else is
refused in one line. The result is an ordinary checkpoint (no optimizer state: it cannot be
resumed), whose config and history are those of the newest input plus a note of what was averaged.
``--weights-dtype float16`` stores the result at half the size (the shipped models must fit in
35 MB; loading turns the weights back into float32). With it, one checkpoint may be given alone:
it is only re-stored.
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch

from transformer.core.checkpoint import (CheckpointError, load_checkpoint, save_checkpoint,
                                         unique_state)
from transformer.core.cli_util import OneLineParser


def average_checkpoints(paths: list[str | Path], *, allow_one: bool = False) -> tuple:
    """(model, tokenizer, train_config, history) with the element-wise mean of the inputs'
    weights. The first path's tokenizer and config are kept; the others must match them."""
    if len(paths) < (1 if allow_one else 2):
        raise CheckpointError("average: give at least two checkpoints")
    cks = [load_checkpoint(p) for p in paths]
    first = cks[0]
    for p, ck in zip(paths[1:], cks[1:]):
        if ck.model_config != first.model_config:
            raise CheckpointError(f"{p}: a different model shape from {paths[0]}; only checkpoints "
                                  "of one run can be averaged")
        if ck.tokenizer.to_bytes() != first.tokenizer.to_bytes():
            raise CheckpointError(f"{p}: a different tokenizer from {paths[0]}")
    states = [unique_state(ck.model) for ck in cks]
    mean = {k: torch.stack([s[k].double() for s in states]).mean(0).float() for k in states[0]}
    model = cks[-1].model
    with torch.no_grad():
        for k, v in unique_state(model).items():
            v.copy_(mean[k])
    history = dict(cks[-1].history)
    history["averaged_from"] = [str(p) for p in paths]
    return model, first.tokenizer, cks[-1].train_config, history


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m transformer.average", description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+", help="checkpoint directories of one run")
    ap.add_argument("--out", required=True, help="where to write the averaged checkpoint")
    ap.add_argument("--weights-dtype", choices=["float32", "float16"], default="float32",
                    help="how the weights are stored (float16: half the file; one checkpoint "
                         "may then be given alone, to be re-stored)")
    args = ap.parse_args(argv)
    try:
        model, tok, train_config, history = average_checkpoints(
            args.checkpoints, allow_one=args.weights_dtype == "float16")
        if len(args.checkpoints) == 1:
            history.pop("averaged_from", None)  # nothing was averaged
        save_checkpoint(args.out, model, tok, train_config=train_config, history=history,
                        weights_dtype=args.weights_dtype)
    except (CheckpointError, OSError) as e:
        ap.error(str(e))
    verb = "re-stored" if len(args.checkpoints) == 1 else f"averaged {len(args.checkpoints)} checkpoints"
    print(f"{verb} into {args.out} ({args.weights_dtype})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
