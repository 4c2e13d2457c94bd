"""Training: the recipe of the paper, a run directory the app can poll, and `python -m transformer.train`.

    python -m transformer.train --task anaphora --out runs/ana          # tiny model, ~2 min on a CPU
    python -m transformer.train --task multi30k --data-dir ../shared/data/multi30k --preset small \
        --device auto --out runs/m30k
    python -m transformer.train --out runs/ana --resume                 # continue after STOP/Ctrl-C/kill
    torchrun --nproc_per_node=2 -m transformer.train --task copy --out runs/ddp   # data parallel

The package, one job a module:

    corpus      the tasks, their text (`load_corpus`), --task-opt checks, `encode_pairs`
    loop        Adam, label-smoothed cross-entropy, the `Trainer` (callbacks, no I/O)
    evaluation  validation loss/accuracy, greedy decoding, the task's score (`Evaluator`)
    rundir      the run directory: `RunWriter` (status.json, metrics.jsonl, checkpoints), repairs
    settings    per-task defaults and the settings schema: the command line, resolving flags into
                a TrainConfig, a run's settings.json, the Train page's form
    cli         `run()` and `main()`: the steps of a run, the progress printer

The Trainer knows nothing about terminals or files: it reports through callbacks (minGPT style).
The CLI attaches a progress printer and the run-directory writer (metrics.jsonl, status.json,
checkpoints), and checks the STOP file.

Recipe: Adam(0.9, 0.98, 1e-9) (fused kernel where the build supports it), the warmup schedule
(transformer.train.schedule) set by hand each step, label-smoothed cross-entropy that ignores padding,
gradient clipping, token-budget batches of similar length (transformer.train.batching), bf16 autocast on
CUDA. The loop never synchronises with the device except on logging steps.
"""
import os
import sys

# OpenMP threads that spin-wait between parallel regions collapse when another process holds a
# core (measured here: 564 vs 5,280 tokens/s for 2 threads beside a busy neighbour). Sleeping
# waits cost little when the machine is idle. Only effective before torch loads its OpenMP.
if "torch" not in sys.modules:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
