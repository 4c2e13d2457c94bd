"""The trainer: loss masking, resume equivalence, STOP, NaN handling, CLI errors (tiny CPU runs)."""
from __future__ import annotations


import pytest
import torch

from transformer.ops import runs
from transformer.core.checkpoint import load_checkpoint, load_trainer_state
from transformer.train.loop import label_smoothed_loss
from transformer.train.cli import main, run
from transformer.train.evaluation import pronoun_correct

TINY = ["--task", "copy", "--task-opt", "n=300", "--task-opt", "max_len=8", "--vocab-size", "40",
        "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32", "--dropout", "0",
        "--batch-tokens", "256", "--warmup", "10", "--eval-every", "1000", "--eval-sentences", "20",
        "--threads", "1", "--log-every", "1"]


def _losses_cb(out: list):
    return {"on_step": [lambda t: out.append((t.step, float(t.last_loss)))]}


def test_loss_ignores_padding():
    torch.manual_seed(0)
    logits = torch.randn(2, 5, 11)
    target = torch.tensor([[4, 5, 6, 0, 0], [7, 8, 9, 10, 2]])
    loss = label_smoothed_loss(logits, target, pad_id=0, smoothing=0.1)
    changed = logits.clone()
    changed[0, 3:] = 100 * torch.randn(2, 11)  # scores at padded positions do not matter
    assert label_smoothed_loss(changed, target, 0, 0.1) == pytest.approx(loss.item(), abs=1e-6)
    keep = target != 0
    logp = logits.log_softmax(-1)
    nll = -logp.gather(-1, target[..., None])[..., 0]
    smooth = -logp.mean(-1)
    manual = ((0.9 * nll + 0.1 * smooth)[keep]).mean()
    assert loss.item() == pytest.approx(manual.item(), abs=1e-6)


@pytest.mark.parametrize("eps", [0.0, 0.1])
def test_fused_loss_matches_torch_cross_entropy(eps):
    torch.manual_seed(1)
    logits = torch.randn(3, 7, 13, dtype=torch.float64, requires_grad=True)
    target = torch.randint(1, 13, (3, 7))
    target[0, 4:] = 0
    target[2, 1:] = 0
    ours = label_smoothed_loss(logits, target, 0, eps)
    ref = torch.nn.functional.cross_entropy(logits.reshape(-1, 13), target.reshape(-1),
                                            ignore_index=0, label_smoothing=eps)
    assert ours.item() == pytest.approx(ref.item(), abs=1e-6)
    (g1,) = torch.autograd.grad(ours, logits)
    (g2,) = torch.autograd.grad(ref, logits)
    assert torch.allclose(g1, g2, atol=1e-9)


def test_resume_after_stop_gives_the_same_losses(tmp_path):
    total = 14
    one_go: list = []
    assert run(TINY + ["--steps", str(total), "--checkpoint-every", "100",
                       "--out", str(tmp_path / "a")], _losses_cb(one_go)) == "finished"
    assert [s for s, _ in one_go] == list(range(1, total + 1))

    part: list = []
    out_b = tmp_path / "b"

    def stop_at_5(t):
        if t.step == 5:
            runs.request_stop(out_b)

    cbs = _losses_cb(part)
    cbs["on_step"].append(stop_at_5)
    assert run(TINY + ["--steps", str(total), "--checkpoint-every", "100", "--out", str(out_b)],
               cbs) == "stopped"
    stopped_at = part[-1][0]
    assert stopped_at in (5, 6)  # exits within one step of the STOP file
    status = runs.read_status(out_b)
    assert status["state"] == "stopped" and status["step"] == stopped_at
    assert not (out_b / "STOP").exists()
    assert load_trainer_state(out_b / "checkpoints" / "last")["step"] == stopped_at

    assert run(["--out", str(out_b), "--resume", "--threads", "1", "--log-every", "1"],
               _losses_cb(part)) == "finished"
    assert [s for s, _ in part] == list(range(1, total + 1))
    for (s, a), (_, b) in zip(one_go, part):
        assert abs(a - b) < 1e-6, f"step {s}: {a} vs {b}"
    steps_logged = [r["step"] for r in runs.read_metrics(out_b)[0] if r.get("type") == "train"]
    assert steps_logged == list(range(1, total + 1))  # metrics continue without duplicates
    ck = load_checkpoint(out_b / "checkpoints" / "last")
    assert ck.train_config["task"] == "copy" and ck.model_config.d_model == 16


def test_checkpoints_best_last_and_pruning(tmp_path):
    out = tmp_path / "r"
    assert run(TINY + ["--steps", "10", "--checkpoint-every", "2", "--eval-every", "5",
                       "--keep-checkpoints", "3", "--out", str(out)]) == "finished"
    names = runs.checkpoints(out)
    assert names == ["step-000006", "step-000008", "step-000010", "best", "last"]
    every = tmp_path / "all"  # the synthetic tasks' default keeps every step checkpoint
    assert run(TINY + ["--steps", "6", "--checkpoint-every", "2", "--eval-every", "6",
                       "--out", str(every)]) == "finished"
    assert runs.checkpoints(every)[:3] == ["step-000002", "step-000004", "step-000006"]
    recs, _ = runs.read_metrics(out)
    evals = [r for r in recs if r["type"] == "eval"]
    assert [e["step"] for e in evals] == [5, 10]
    assert {"val_loss", "val_acc", "exact_match", "samples"} <= set(evals[0])
    st = runs.read_status(out)
    assert st["state"] == "finished" and st["step"] == 10 and st["total_steps"] == 10
    assert (out / "tokenizer.model").exists()


def test_nan_loss_fails_and_keeps_last_good_checkpoint(tmp_path):
    out = tmp_path / "nan"

    def poison(t):
        if t.step == 4:
            with torch.no_grad():
                next(t.model.parameters()).fill_(float("nan"))

    state = run(TINY + ["--steps", "10", "--checkpoint-every", "2", "--out", str(out)],
                {"on_step": [poison]})
    assert state == "failed"
    st = runs.read_status(out)
    assert st["state"] == "failed" and "nan" in st["last_error"].lower()
    ck = load_checkpoint(out / "checkpoints" / "last")
    assert all(torch.isfinite(p).all() for p in ck.model.parameters())
    assert load_trainer_state(out / "checkpoints" / "last")["step"] == 2  # saved before the poison


@pytest.mark.parametrize("flags, field", [
    (["--d-model", "30", "--heads", "4"], "d_model"),
    (["--warmup", "0"], "warmup"),
    (["--dropout", "1.5"], "dropout"),
    (["--label-smoothing", "1"], "label_smoothing"),
])
def test_impossible_settings_exit_2_with_one_line(tmp_path, capsys, flags, field):
    assert main(["--task", "copy", "--out", str(tmp_path / "x"), *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err


def test_resume_without_checkpoint_and_reuse_of_run_dir(tmp_path, capsys):
    assert main(["--out", str(tmp_path / "none"), "--resume"]) == 2
    assert "nothing to resume" in capsys.readouterr().err


def test_pronoun_check():
    meta = {"tgt_pronoun_pos": 7, "pronoun_de": "sie"}
    ref = "Der Hund sah die Tasche , weil sie leer war ."
    assert pronoun_correct(ref, ref, meta)
    assert not pronoun_correct("Der Hund sah die Tasche , weil er leer war .", ref, meta)
    assert not pronoun_correct("Der Hund", ref, meta)
    # one metric with the head finder: a reference without a pronoun is not scored
    assert pronoun_correct("Ein Hund .", "Ein Hund rennt .", {}) is None
    from transformer.train.evaluation import _share
    assert _share([True, None, False, True]) == pytest.approx(2 / 3) and _share([None]) == 0.0
