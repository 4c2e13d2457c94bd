"""Shared helpers: timing statistics, the machine's description, the model to measure."""
from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def stats(samples: list[float]) -> dict:
    """Median and spread (min, max, p95) of timings in seconds -> milliseconds."""
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]
    return {"median_ms": round(1000 * statistics.median(s), 2), "min_ms": round(1000 * s[0], 2),
            "max_ms": round(1000 * s[-1], 2), "p95_ms": round(1000 * p95, 2), "n": len(s)}


def timeit(fn, repeats: int, warmup: int = 2) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def machine() -> str:
    import torch

    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
            f"torch {torch.__version__}, threads {torch.get_num_threads()}")


def translation_checkpoint():
    """The multi30k model: shipped, else the newest run, else an untrained model of its shape."""
    from transformer.core.checkpoint import load_checkpoint

    for p in (ROOT / "checkpoints" / "multi30k-en-de",
              ROOT / "runs" / "multi30k-small" / "checkpoints" / "best"):
        if (p / "model.safetensors").is_file():
            ck = load_checkpoint(p)
            return ck.model, ck.tokenizer, str(p.relative_to(ROOT))
    import torch
    from transformer.core.config import preset
    from transformer.core.model import Transformer
    from transformer.core.tokenizer import Tokenizer
    from transformer.data.tasks import load_task

    torch.manual_seed(0)
    tok = Tokenizer.train([e.src for e in load_task("anaphora", "train", n=2000)], vocab_size=500)
    model = Transformer(preset("small", vocab_size=8000, dropout=0.0)).eval()
    return model, tok, "untrained small preset (vocab 8000): no multi30k checkpoint found"


SENTENCE_32 = ("A man in a blue shirt and a young girl in a red dress are walking their "
               "brown dog along the sandy beach near the water .")
