"""bench/train_throughput.py: the two models it races must be the same shape and both learn on the
batches it times (a benchmark of a broken step measures nothing), and --device cuda without a GPU
says so instead of timing the CPU under a GPU label."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import train_throughput as tt  # noqa: E402
from transformer.core.config import TrainConfig, preset  # noqa: E402
from transformer.core.model import Transformer  # noqa: E402
from transformer.train.loop import label_smoothed_loss, make_optimizer  # noqa: E402


def test_both_models_learn_on_the_timed_batches():
    torch.manual_seed(0)
    cfg = preset("tiny", vocab_size=200, max_len=64, dropout=0.0)
    batches = tt.make_batches(cfg, 64, 512)[:1]  # one batch, stepped on repeatedly
    for model in (Transformer(cfg), tt.TorchReference(cfg)):
        opt = make_optimizer(model, TrainConfig(), "cpu")
        b = batches[0]
        before = float(label_smoothed_loss(model(b.src, b.tgt_in), b.tgt_out, 0, 0.0).detach())
        for _ in range(3):
            tt.time_steps(model, opt, batches, 5, 1.0, 0.0)
        after = float(label_smoothed_loss(model(b.src, b.tgt_in), b.tgt_out, 0, 0.0).detach())
        assert after < before - 0.5, (type(model).__name__, before, after)


def test_json_report_cpu(capsys):
    assert tt.main(["--preset", "tiny", "--steps", "2", "--rounds", "1", "--threads", "1",
                    "--batch-tokens", "512", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["device"] == "cpu" and out["gpu"] is None
    assert set(out["tokens_per_s"]) == {"attention_lab", "torch.nn.Transformer"}
    assert all(v > 0 for v in out["tokens_per_s"].values())
    ratio = out["tokens_per_s"]["attention_lab"] / out["tokens_per_s"]["torch.nn.Transformer"]
    assert out["ratio"] == pytest.approx(ratio, abs=1e-3)
    # same shape: the parameter counts differ only by the reference's extra biases/norm terms
    p = out["params"]
    assert abs(p["attention_lab"] - p["torch.nn.Transformer"]) < 0.01 * p["attention_lab"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message on a machine without a GPU")
def test_cuda_without_a_gpu_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as e:
        tt.main(["--device", "cuda"])
    assert e.value.code == 2
    assert "no CUDA device" in capsys.readouterr().err


def test_benchmarks_md_is_what_render_writes(tmp_path):
    """docs/BENCHMARKS.md is generated (bench/run.py: the tables from docs/bench_results.json, then
    docs/BENCHMARKS_NOTES.md). Sections written into the .md alone are lost at the next
    `python bench/run.py --render`, as 300 lines of recorded results nearly were (2026-11-27)."""
    sys.path.insert(0, str(ROOT))
    from bench import run as bench_run

    out = tmp_path / "BENCHMARKS.md"
    bench_run.write_doc(json.loads((ROOT / "docs" / "bench_results.json").read_text()), out)
    assert out.read_text() == (ROOT / "docs" / "BENCHMARKS.md").read_text(), (
        "edit docs/BENCHMARKS_NOTES.md, then run python bench/run.py --render")
