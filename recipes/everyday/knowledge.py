"""`python -m recipes.everyday.knowledge`: transformer.probing.knowledge (what a checkpoint knows,
the same flags) with the task "everyday" registered, for a checkpoint trained on the everyday mix
before the trainer recorded it:

    python -m recipes.everyday.knowledge --checkpoint checkpoints/everyday-en-de --task everyday \\
        --data-dir ../shared/data/multi30k
"""
from __future__ import annotations

import sys

from recipes.everyday.mix import register
from transformer.probing.knowledge import main


def run(argv: list[str] | None = None) -> int:
    register()
    return main(argv, prog="python -m recipes.everyday.knowledge")


if __name__ == "__main__":
    sys.exit(run())
