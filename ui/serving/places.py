"""Where the server keeps what a class makes: training runs (runs/, $ATTENTION_LAB_RUNS) and
uploaded checkpoints (uploads/, $ATTENTION_LAB_UPLOADS), beside the repository's code. One place
for both, read by the rules (roles' audit log, the disk budget, the run queue) and by the pages
(ui.models lists the checkpoints found there)."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def runs_dir() -> Path:
    return Path(os.environ.get("ATTENTION_LAB_RUNS", ROOT / "runs"))


def uploads_dir() -> Path:
    return Path(os.environ.get("ATTENTION_LAB_UPLOADS", ROOT / "uploads"))
