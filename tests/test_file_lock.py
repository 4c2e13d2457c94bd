"""Issue 48, 7: replicas on one runs folder share state through files, so what guards it must hold
across processes (transformer.ops.file_lock), not only across one process's threads. Each test
races real processes (multiprocessing, fork) released together by a barrier."""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from transformer.ops import audit, disk_budget, file_lock, run_queue, runs

CTX = mp.get_context("fork")
N = 4  # racing processes (the machine has 2 cores: more would only queue)


def _race(target, args_of, n: int = N, timeout: float = 60) -> list:
    """Run target(barrier, queue, *args_of(i)) in n processes at once; their queue.put results."""
    barrier, q = CTX.Barrier(n), CTX.Queue()
    procs = [CTX.Process(target=target, args=(barrier, q, *args_of(i))) for i in range(n)]
    for p in procs:
        p.start()
    out = [q.get(timeout=timeout) for _ in procs]
    for p in procs:
        p.join(timeout)
        assert p.exitcode == 0, p.exitcode
    return out


# -- the lock itself ------------------------------------------------------------------------------
def _hold(path, held, go, hold_s):
    with file_lock.lock_at(path):
        held.set()
        go.wait(30)
        time.sleep(hold_s)


def test_two_processes_cannot_both_hold_it(tmp_path):
    path = file_lock.lock_path(tmp_path, "x")
    held, go = CTX.Event(), CTX.Event()
    other = CTX.Process(target=_hold, args=(path, held, go, 0.3))
    other.start()
    try:
        assert held.wait(30)
        lk = file_lock.lock_at(path)
        with pytest.raises(file_lock.LockTimeout):
            lk.acquire(timeout=0.2)  # the other process holds it
        assert not lk.held()
        go.set()
        t0 = time.monotonic()
        lk.acquire(timeout=30)  # free once the other process lets go
        waited = time.monotonic() - t0
        lk.release()
    finally:
        go.set()
        other.join(30)
    assert other.exitcode == 0 and waited > 0.1, waited
    assert path.is_file() and path.parent.name == file_lock.LOCKS_DIR


def _count(barrier, q, path, counter, rounds):
    barrier.wait()
    for _ in range(rounds):
        with file_lock.lock_at(path):
            n = int(counter.read_text() or 0)
            time.sleep(0.001)  # widen the read-modify-write window
            counter.write_text(str(n + 1))
    q.put(os.getpid())


def test_a_read_modify_write_under_it_loses_nothing_across_processes(tmp_path):
    counter = tmp_path / "n"
    counter.write_text("0")
    path = file_lock.lock_path(tmp_path, "count")
    _race(_count, lambda i: (path, counter, 40))
    assert int(counter.read_text()) == N * 40


def test_re_entrant_in_a_thread_exclusive_between_threads(tmp_path):
    lk = file_lock.lock(tmp_path, "t")
    assert file_lock.lock(tmp_path, "t") is lk and file_lock.lock(tmp_path / ".", "t") is lk
    with lk:
        with lk:  # nesting in one thread: no deadlock (one flock, taken by the outermost)
            assert lk.held()
        got = []
        t = threading.Thread(target=lambda: got.append(_try(lk)))
        t.start()
        t.join()
        assert got == [False]
    assert not lk.held()
    t = threading.Thread(target=lambda: got.append(_try(lk)))
    t.start()
    t.join()
    assert got == [False, True]
    with pytest.raises(RuntimeError):
        lk.release()  # not held here
    with pytest.raises(ValueError):
        file_lock.lock(tmp_path, "../x")


def _try(lk) -> bool:
    try:
        lk.acquire(timeout=0.1)
    except file_lock.LockTimeout:
        return False
    lk.release()
    return True


def test_env_lock_follows_the_runs_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "a"))
    assert disk_budget.LOCK.current() is disk_budget.lock_for(tmp_path / "a")
    with disk_budget.LOCK as held:
        monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "b"))
        assert held.held()
    assert not held.held()  # the lock entered is the lock left
    assert not (tmp_path / "a" / ".locks").exists()  # the folder itself is locked: no file
    # a folder's lock excludes other processes too
    held, go = CTX.Event(), CTX.Event()
    other = CTX.Process(target=_hold, args=(tmp_path / "a", held, go, 0.0))
    other.start()
    try:
        assert held.wait(30)
        with pytest.raises(file_lock.LockTimeout):
            disk_budget.lock_for(tmp_path / "a").acquire(timeout=0.2)
    finally:
        go.set()
        other.join(30)


# -- the one-run rule: training slots and the queue ------------------------------------------------
def _fake_python(tmp_path: Path) -> str:
    """An 'interpreter' for runs.launch that ignores its arguments and sleeps (a run that trains)."""
    p = tmp_path / "fake-python"
    p.write_text("#!/bin/sh\nexec sleep 60\n")
    p.chmod(p.stat().st_mode | stat.S_IXUSR)
    return str(p)


def _stale_slot(root: Path) -> None:
    """Slot 0 held by a process that is gone: the next launch reclaims it."""
    d = root / runs.SLOTS_DIR
    d.mkdir(parents=True, exist_ok=True)
    dead = CTX.Process(target=int)
    dead.start()
    dead.join()
    runs.write_json_atomic(d / "slot-0.lock", {"pid": dead.pid, "run_dir": str(root / "old")})
    os.utime(d / "slot-0.lock", (0, 0))


def _launch(barrier, q, root, name, python):
    barrier.wait()
    try:
        h = runs.launch(root / name, [], max_concurrent=1, slots_root=root, python=python)
        q.put(("ok", h.pid))
    except runs.RunError as e:
        q.put(("busy", str(e)))


def _kill_children(root: Path) -> None:
    for s in runs.active_slots(root):
        try:
            os.kill(int(s["pid"]), 9)
        except (ProcessLookupError, KeyError, ValueError):
            pass


def test_with_one_slot_two_processes_never_both_launch(tmp_path):
    """Replicas started at once, each launching a run while slot 0 is stale: one launches, the
    others are told every slot is busy (without the slots lock, two could reclaim the stale slot
    and both launch)."""
    python = _fake_python(tmp_path)
    for round_ in range(6):
        root = tmp_path / f"runs{round_}"
        _stale_slot(root)
        try:
            got = _race(_launch, lambda i: (root, f"r{i}", python))
            assert sorted(k for k, _ in got) == ["busy"] * (N - 1) + ["ok"], got
            assert len(runs.active_slots(root)) == 1
        finally:
            _kill_children(root)


def _submit(barrier, q, root, name, actor, python):
    barrier.wait()
    try:
        place = run_queue.enqueue(root, name, actor, "student", ["--task", "copy"],
                                  person=actor)
    except run_queue.QueueError:
        q.put(("refused", None))
        return
    started = run_queue.pump(root, lambda e: runs.launch(
        root / e["name"], [], max_concurrent=1, slots_root=root, python=python))
    q.put(("queued", place, started))


def test_the_queue_starts_one_run_when_the_cap_is_one(tmp_path):
    """Students on different replicas submit at once: one run starts, the rest wait in the queue,
    in order; a student's second submission from another replica is refused even while the first
    has only just been launched (its child has written no status.json yet)."""
    python = _fake_python(tmp_path)
    root = tmp_path / "runs"
    root.mkdir()
    try:
        for i in range(N):
            (root / f"s{i}").mkdir()
            runs.write_owner(root / f"s{i}", f"student:{i}", "student", keep_teacher=False,
                             person=f"ip:10.0.0.{i}")
        got = _race(_submit, lambda i: (root, f"s{i}", f"ip:10.0.0.{i}", python))
        started = [n for g in got for n in g[2]]
        assert len(started) == 1 and len(runs.active_slots(root)) == 1, got
        assert sorted(e["name"] for e in run_queue.entries(root)) == sorted(
            {f"s{i}" for i in range(N)} - set(started))
        # the started student again, from "another replica", before its run wrote status.json
        who = next(i for i in range(N) if f"s{i}" == started[0])
        assert not (root / started[0] / runs.STATUS).exists()
        (root / "again").mkdir()
        got = _race(_submit, lambda i: (root, "again", f"ip:10.0.0.{who}", python), n=1)
        assert got == [("refused", None)]
    finally:
        _kill_children(root)


# -- the disk budget ----------------------------------------------------------------------------------
def _write(barrier, q, runs_root, uploads_root, name, size, limit):
    barrier.wait()
    try:
        with disk_budget.reserve(size, runs_root, uploads_root, limit=limit):
            time.sleep(0.2)  # the write takes a while: another replica checks meanwhile
            d = uploads_root / name
            d.mkdir(parents=True)
            (d / "model.bin").write_bytes(b"\0" * size)
        q.put("written")
    except disk_budget.DiskBudgetError:
        q.put("refused")


def test_the_disk_budget_holds_with_processes_racing(tmp_path):
    """Writers in several processes each reserve 600 of a 1000-byte budget (the teacher's files:
    nothing to evict): exactly one writes, and the budget is never passed."""
    r, u = tmp_path / "runs", tmp_path / "uploads"
    r.mkdir()
    u.mkdir()
    got = _race(_write, lambda i: (r, u, f"up{i}", 600, 1000))
    assert sorted(got) == ["refused"] * (N - 1) + ["written"], got
    assert disk_budget.usage([r, u]) <= 1000


def test_make_room_and_reserve_share_the_app_lock(tmp_path, monkeypatch):
    """ui.serving.run_actions holds disk_budget.LOCK around make_room: for the app's runs folder it
    is the same lock as reserve's (re-entrant: no deadlock), so nesting them works."""
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    with disk_budget.LOCK:
        with disk_budget.reserve(10, tmp_path / "runs", tmp_path / "uploads", limit=100):
            assert disk_budget.lock_for(tmp_path / "runs").held()


# -- the audit log ------------------------------------------------------------------------------------
def _audit(barrier, q, root, who, n):
    barrier.wait()
    for i in range(n):
        audit.record(root, who, "test", str(i), max_bytes=4000, keep=1000)
    q.put(who)


def test_audit_lines_from_processes_racing_are_whole_and_none_lost(tmp_path):
    """Several processes append past the rotation size: every line is whole JSON, none is lost
    (without a lock across processes two of them rotate the same file, or one renames a file the
    other has just rotated away)."""
    _race(_audit, lambda i: (tmp_path, f"p{i}", 150))
    files = [p for p in tmp_path.iterdir() if p.name.startswith(audit.FILE)]
    assert len(files) > 5  # rotated many times
    lines = [json.loads(x) for p in files for x in p.read_text().splitlines()]
    assert len(lines) == N * 150
    for i in range(N):
        assert sorted(int(e["target"]) for e in lines if e["actor"] == f"p{i}") == list(range(150))
