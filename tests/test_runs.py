"""The run directory: atomic status, metrics tailing, listing, and launching a real child run
(STOP, SIGINT, the cap on concurrent runs)."""
from __future__ import annotations

import json
import os
import signal

import pytest

from helpers import wait_until
from transformer.ops import runs

CHILD = ["--task", "copy", "--task-opt", "n=200", "--task-opt", "max_len=6", "--vocab-size", "40",
         "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32", "--dropout", "0",
         "--batch-tokens", "128", "--warmup", "10", "--steps", "100000", "--eval-every", "100000",
         "--checkpoint-every", "100000", "--log-every", "5"]


def test_status_is_replaced_atomically_and_merged(tmp_path):
    runs.write_status(tmp_path, state="starting", step=0, pid=os.getpid())
    st = runs.write_status(tmp_path, state="running", step=3, tokens_per_s=float("nan"))
    assert st["step"] == 3 and st["pid"] == os.getpid()
    on_disk = json.loads((tmp_path / runs.STATUS).read_text())
    assert on_disk["state"] == "running" and on_disk["tokens_per_s"] is None  # strict JSON
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    with pytest.raises(ValueError, match="state"):
        runs.write_status(tmp_path, state="exploded")


def test_metrics_tail_by_offset_and_truncate(tmp_path):
    for i in range(1, 4):
        runs.append_metrics(tmp_path, {"type": "train", "step": i, "loss": 1.0 / i})
    recs, off = runs.read_metrics(tmp_path)
    assert [r["step"] for r in recs] == [1, 2, 3]
    with open(tmp_path / runs.METRICS, "a") as f:
        f.write('{"type": "train", "st')  # a writer in the middle of a line
    assert runs.read_metrics(tmp_path, off) == ([], off)
    runs.truncate_metrics(tmp_path, 2)
    assert [r["step"] for r in runs.read_metrics(tmp_path)[0]] == [1, 2]


def test_stop_file_and_listing(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    runs.write_status(a, state="finished", step=5, started_at=1.0, pid=os.getpid())
    runs.write_status(b, state="running", step=1, started_at=2.0, pid=999_999_999)
    assert not runs.stop_requested(a)
    runs.request_stop(a)
    assert runs.stop_requested(a)
    runs.clear_stop(a)
    assert not runs.stop_requested(a)
    listed = runs.list_runs(tmp_path)
    assert [r.name for r in listed] == ["b", "a"]
    assert listed[0].state == "dead"  # said "running" but its process is gone
    assert listed[1].state == "finished" and not listed[1].active


def _wait_for(pred, timeout=60.0):
    return wait_until(pred, timeout, every=0.1)


def test_launch_stop_sigint_and_concurrency_cap(tmp_path):
    root = tmp_path / "runs"
    h = runs.launch(root / "one", CHILD, threads=1, max_concurrent=1)
    try:
        assert _wait_for(lambda: (h.status() or {}).get("state") == "running"
                         and (h.status() or {}).get("step", 0) >= 5), runs.tail_log(h.run_dir)
        assert len(runs.active_slots(root)) == 1
        with pytest.raises(runs.RunError, match="already running"):
            runs.launch(root / "two", CHILD, threads=1, max_concurrent=1)
        h.stop()
        assert h.wait(60) == 0, runs.tail_log(h.run_dir)
    finally:
        if h.alive():
            h.process.kill()
    st = h.status()
    assert st["state"] == "stopped", st
    assert "last" in runs.checkpoints(h.run_dir)
    recs, _ = h.metrics()
    assert any(r["type"] == "train" for r in recs)
    assert runs.active_slots(root) == []  # the slot was freed

    # Ctrl-C is handled like STOP; the freed slot is taken by the next run.
    h2 = runs.launch(root / "two", CHILD, threads=1, max_concurrent=1)
    try:
        assert _wait_for(lambda: (h2.status() or {}).get("step", 0) >= 5), runs.tail_log(h2.run_dir)
        h2.process.send_signal(signal.SIGINT)
        assert h2.wait(60) == 0
    finally:
        if h2.alive():
            h2.process.kill()
    assert h2.status()["state"] == "stopped"
    assert "last" in runs.checkpoints(h2.run_dir)


class _FakePopen:
    """Stands in for subprocess.Popen in launch: records the child's environment, starts
    nothing. Its pid is this process's (alive), so the slot it took stays busy."""
    envs: list = []

    def __init__(self, argv, env=None, **kw):
        _FakePopen.envs.append(dict(env or {}))
        self.pid = os.getpid()

    def poll(self):
        return None


def test_launch_gives_each_slot_its_own_gpu(tmp_path, monkeypatch):
    monkeypatch.setattr(runs.subprocess, "Popen", _FakePopen)
    root = tmp_path / "runs"

    def launch_two(**kw):
        _FakePopen.envs = []
        for name in ("a", "b"):
            runs.launch(root / name, ["--task", "copy"], max_concurrent=2, **kw)
        runs.release_slot(root)  # both lock files name this process
        return [e.get("CUDA_VISIBLE_DEVICES") for e in _FakePopen.envs]

    assert launch_two(gpus=2, env={}) == ["0", "1"]
    assert launch_two(gpus=1, env={}) == ["0", "0"]  # more runs than GPUs: they share
    assert launch_two(gpus=2, env={"CUDA_VISIBLE_DEVICES": "4,5"}) == ["4", "5"]
    assert launch_two(gpus=0, env={"CUDA_VISIBLE_DEVICES": "7"}) == ["7", "7"]  # left alone
    assert launch_two(gpus=0, env={}) == [None, None]  # the CPU: nothing changes
    if runs.cuda_device_count() == 0:
        assert launch_two(env={}) == [None, None]
    assert json.loads((root / "b" / runs.COMMAND).read_text())["cuda_visible_devices"] is None


@pytest.mark.parametrize("name", ["..", ".hidden", "-rf", "a" * 65, "x\ny", "\u202eevil"])
def test_launch_refuses_a_name_that_is_not_a_plain_run_name(tmp_path, monkeypatch, name):
    monkeypatch.setattr(runs.subprocess, "Popen", _FakePopen)
    root = tmp_path / "runs"
    root.mkdir()
    with pytest.raises(runs.RunError, match="run name"):
        runs.launch(root / name, ["--task", "copy"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs"]
    assert list(root.iterdir()) == []  # no slot taken, nothing created


def test_run_dir_and_listing_refuse_symlinks_out_of_the_root(tmp_path):
    root = tmp_path / "runs"
    runs.write_status(root / "ok", state="finished", step=1, pid=os.getpid())
    outside = tmp_path / "outside"
    runs.write_status(outside, state="finished", step=1, pid=os.getpid())
    (root / "link").symlink_to(outside, target_is_directory=True)
    assert [r.name for r in runs.list_runs(root)] == ["ok"]
    assert runs.run_dir(root, "ok") == root / "ok"
    assert runs.run_dir(root, "名前") == root / "名前"
    with pytest.raises(runs.RunError):
        runs.run_dir(root, "link")  # resolves outside the root
    for bad in ("..", "a..b", "", "a/b", "../ok", ".", " x", "x" * 65):
        with pytest.raises(runs.RunError):
            runs.run_dir(root, bad)
