"""`python -m recipes.everyday.train`: the trainer (`python -m transformer.train`, the same flags)
with the task "everyday" registered: the mix that built the shipped default (recipes/everyday/mix.py).

    python -m recipes.everyday.train --task everyday --data-dir ../shared/data/multi30k \\
        --task-opt m30k_repeat=3 --task-opt life=20000 --init runs/everyday-init --out runs/everyday
    python -m recipes.everyday.train --out runs/everyday --resume     # a run whose task is everyday

The library does not import recipes/, so `python -m transformer.train --task everyday` says to come
here; `--task recipes.everyday.mix:build` trains the same text under that longer name.
"""
from __future__ import annotations

import sys

import transformer.train  # noqa: F401  first: it sets OMP_WAIT_POLICY before torch loads
from recipes.everyday.mix import register
from transformer.train.cli import main


def run(argv: list[str] | None = None) -> int:
    register()
    return main(argv, prog="python -m recipes.everyday.train")


if __name__ == "__main__":
    sys.exit(run())
