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
(transformer.schedule) set by hand each step, label-smoothed cross-entropy that ignores padding,
gradient clipping, token-budget batches of similar length (transformer.batching), bf16 autocast on
CUDA. The loop never synchronises with the device except on logging steps.
"""
import os
import sys

# OpenMP threads that spin-wait between parallel regions collapse when another process holds a
# core (measured here: 564 vs 5,280 tokens/s for 2 threads beside a busy neighbour). Sleeping
# waits cost little when the machine is idle. Only effective before torch loads its OpenMP.
if "torch" not in sys.modules:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .corpus import (SYNTHETIC, TASKS, TRANSLATION, Corpus, UsageError,  # noqa: E402
                     check_task_opts, data_val_split, encode_pairs, load_corpus, task_options)
from .loop import StepRecord, Trainer, label_smoothed_loss, make_optimizer  # noqa: E402
from .evaluation import Evaluator, decode_many, pronoun_correct, val_loss_acc, _share  # noqa: E402
from .rundir import KEEP_STEP_CHECKPOINTS, RunWriter, recover_checkpoints  # noqa: E402
from .settings import (TASK_DEFAULTS, build_parser, form_argv, form_fields,  # noqa: E402
                       read_settings, resolve_settings, settings_record)
from .cli import Progress, default_threads, main, run  # noqa: E402

__all__ = ["SYNTHETIC", "TASKS", "TRANSLATION", "Corpus", "UsageError", "check_task_opts",
           "data_val_split", "encode_pairs", "load_corpus", "task_options", "StepRecord",
           "Trainer", "label_smoothed_loss", "make_optimizer", "Evaluator", "decode_many",
           "pronoun_correct", "val_loss_acc", "KEEP_STEP_CHECKPOINTS", "RunWriter",
           "recover_checkpoints", "TASK_DEFAULTS", "build_parser", "resolve_settings",
           "settings_record", "read_settings", "form_fields", "form_argv", "Progress",
           "default_threads", "main", "run"]
