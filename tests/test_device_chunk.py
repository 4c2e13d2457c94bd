"""recipes/everyday/device_chunk.sh, the prepared GPU chunk, run dry on the CPU: the same steps
(data unpacked from the packed archive, training, averaging, scoring, the weights cut in parts),
a few steps long. What comes back must fit the device tool's limits (at most 8 files, each under
16 MiB) and the parts must join into the averaged weights."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCRIPT = ROOT / "recipes" / "everyday" / "device_chunk.sh"

pytestmark = pytest.mark.skipif(
    not (SHARED / "data" / "multi30k" / "train.en").is_file()
    or not (SHARED / "data" / "ding" / "de-en.txt").is_file(),
    reason="needs ../shared/data/multi30k and ../shared/data/ding")


def test_the_dry_chunk_returns_six_small_files_that_rebuild_the_average(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for name in ("multi30k", "ding"):
        (data / name).symlink_to(SHARED / "data" / name)
    out, run = tmp_path / "out", tmp_path / "run"
    out.mkdir()
    env = dict(os.environ, OUT=str(out), DRY="1", DATA=str(data), RUN=str(run), OMP_NUM_THREADS="2",
               MIX="--task-opt daily=0 --task-opt talk=0 --task-opt pronouns=200 "
                   "--task-opt textbook=0 --task-opt phrases=0")
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    files = sorted(p.name for p in out.iterdir())
    assert len(files) <= 8 and all((out / f).stat().st_size < 16 * 2**20 for f in files)
    assert {"train.log", "heldout.json", "scorecard.json", "avg-rest.tar.gz"} <= set(files)
    log = (out / "train.log").read_text()
    assert "trainer exit 0" in log and "averaged: " in log
    joined = b"".join((out / f).read_bytes() for f in files if f.startswith("model.safetensors.part-"))
    assert hashlib.sha256(joined).digest() == \
        hashlib.sha256((run / "avg" / "model.safetensors").read_bytes()).digest()
    with tarfile.open(out / "avg-rest.tar.gz") as tar:
        names = {Path(n).name for n in tar.getnames()}
    assert "config.json" in names and "model.safetensors" not in names
    held = json.loads((out / "heldout.json").read_text())
    card = json.loads((out / "scorecard.json").read_text())
    assert held and card


def test_without_data_it_says_so_and_stops(tmp_path):
    env = dict(os.environ, OUT=str(tmp_path), DATA=str(tmp_path / "none"), DRY="1")
    done = subprocess.run(["bash", str(SCRIPT)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "no data under" in done.stdout
