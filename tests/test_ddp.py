"""Distributed data parallel on the CPU: two gloo processes train a few steps; rank 0 alone writes
the run directory, and the checkpoint it wrote loads."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


from helpers import free_port
from transformer.ops import runs
from transformer.core.checkpoint import load_checkpoint

ROOT = Path(__file__).resolve().parent.parent


# Bounded by the subprocess timeout (55 s); takes about 10 s on 2 cores.
def test_two_cpu_processes_train_and_rank0_checkpoints(tmp_path):
    out = tmp_path / "ddp"
    env = dict(os.environ, OMP_NUM_THREADS="1")  # cwd=ROOT: `-m` finds the package
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
           "--master_addr=127.0.0.1", f"--master_port={free_port()}",
           "-m", "transformer.train", "--task", "copy", "--task-opt", "n=200",
           "--task-opt", "max_len=6", "--vocab-size", "40", "--d-model", "16", "--heads", "2",
           "--layers", "1", "--d-ff", "32", "--dropout", "0", "--batch-tokens", "128",
           "--warmup", "10", "--steps", "6", "--eval-every", "3", "--checkpoint-every", "3",
           "--eval-sentences", "10", "--threads", "1", "--device", "cpu", "--out", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=55)
    assert proc.returncode == 0, proc.stderr[-3000:]
    st = runs.read_status(out)
    assert st["state"] == "finished" and st["step"] == 6 and st["world_size"] == 2
    train_steps = [r["step"] for r in runs.read_metrics(out)[0] if r["type"] == "train"]
    assert train_steps == sorted(set(train_steps))  # one writer: no duplicated records
    ck = load_checkpoint(out / "checkpoints" / "last")
    assert ck.model_config.d_model == 16
    assert all(not k.startswith("module.") for k in ck.model.state_dict())
