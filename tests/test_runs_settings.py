"""The runs list's view of a run (ui/serving/run_files.settings, the schedule's inputs): read from
the run's settings.json when it has one, without parsing its saved command again; runs older than
settings.json (and the shipped run under checkpoints/runs/) fall back to their last checkpoint's
config, then to their command, parsed as before."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from transformer.train import settings as train_settings
from transformer.ops import runs
from transformer.train.settings import build_parser, resolve_settings
from transformer.core.config import preset as make_preset
from transformer.train.settings import settings_record, write_settings
from ui.serving import run_files

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "checkpoints" / "runs" / "anaphora-en-de"


def command(run: Path, flags: list[str]) -> None:
    runs.write_json_atomic(run / runs.COMMAND, {"argv": ["-m", "transformer.train", *flags]})


def record(run: Path, flags: list[str]) -> None:
    args = build_parser().parse_args(["--out", str(run), *flags])
    model, tc = resolve_settings(args)
    cfg = make_preset(model["preset"], vocab_size=tc.extra["vocab_size"],
                      **{k: v for k, v in model.items() if k != "preset"})
    write_settings(run, settings_record(cfg, tc, ["--out", str(run), *flags], args))


def no_parsing(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the saved command was parsed again")
    monkeypatch.setattr(train_settings, "build_parser", refuse)
    monkeypatch.setattr(train_settings, "resolve_settings", refuse)


def test_a_run_with_settings_json_is_read_from_it(tmp_path, monkeypatch):
    run = tmp_path / "copy-1"
    run.mkdir()
    record(run, ["--task", "sort", "--preset", "tiny", "--d-model", "32", "--warmup", "77",
                 "--lr-scale", "0.25", "--steps", "321"])
    command(run, ["--task", "copy", "--warmup", "5", "--no-such-flag"])  # not what is read
    no_parsing(monkeypatch)
    s = run_files.settings(run)
    assert (s.task, s.d_model, s.warmup, s.lr_scale, s.total_steps) == ("sort", 32, 77, 0.25, 321)
    assert run_files.settings(run, {"total_steps": 999}).total_steps == 999  # the run's own count


def test_a_resumed_run_reads_its_latest_settings(tmp_path, monkeypatch):
    run = tmp_path / "copy-2"
    run.mkdir()
    record(run, ["--task", "copy", "--steps", "100"])
    record(run, ["--task", "copy", "--steps", "500", "--resume"])  # "train longer" rewrites it
    command(run, ["--task", "copy", "--steps", "100"])
    no_parsing(monkeypatch)
    assert run_files.settings(run).total_steps == 500


def test_epochs_leave_the_total_to_the_status(tmp_path):
    run = tmp_path / "m30k"
    run.mkdir()
    record(run, ["--task", "multi30k", "--data-dir", "/nowhere"])
    s = run_files.settings(run)
    assert s.task == "multi30k" and s.total_steps is None
    assert run_files.settings(run, {"total_steps": 4321}).total_steps == 4321


def test_an_old_run_without_settings_json_parses_its_command(tmp_path):
    run = tmp_path / "old"
    run.mkdir()
    command(run, ["--task", "anaphora", "--out", str(run), "--warmup", "123"])
    s = run_files.settings(run)
    assert (s.task, s.d_model, s.warmup, s.total_steps) == ("anaphora", 64, 123, 1200)
    command(run, ["--out", str(run), "--resume"])  # the command of a resume says nothing
    assert run_files.settings(run) is None
    command(run, ["--task", "copy", "--no-such-flag"])  # argparse gives up: no settings, no exit
    assert run_files.settings(run) is None


@pytest.mark.parametrize("text", ["{not json", json.dumps({"model": "x"}), json.dumps([1])])
def test_a_damaged_settings_json_falls_back_to_the_command(tmp_path, text):
    run = tmp_path / "damaged"
    run.mkdir()
    (run / "settings.json").write_text(text)
    command(run, ["--task", "copy", "--out", str(run), "--warmup", "9"])
    assert run_files.settings(run).warmup == 9


def test_the_shipped_run_falls_back_to_its_checkpoint(tmp_path):
    assert not (SHIPPED / "settings.json").exists()
    assert run_files.settings(SHIPPED) is None  # step checkpoints only, no command: nothing to say
    run = tmp_path / "shipped"  # as it would be with a "last" checkpoint
    (run / "checkpoints").mkdir(parents=True)
    shutil.copytree(SHIPPED / "checkpoints" / "step-001200", run / "checkpoints" / "last")
    cfg = json.loads((run / "checkpoints" / "last" / "config.json").read_text())
    s = run_files.settings(run)
    assert (s.task, s.d_model, s.warmup) == (cfg["train"]["task"], cfg["model"]["d_model"],
                                             cfg["train"]["warmup"])
