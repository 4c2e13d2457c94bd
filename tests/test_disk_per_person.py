"""Issue 48, 5: the disk budget per person. Eviction makes room from the requesting person's own
runs first and never deletes another person's last run; a student run's share counts everything
it writes (a weights-only `best` is no measure of the step-N / last copies that follow it)."""
from __future__ import annotations


import pytest

from helpers import artefact as _artefact
from helpers import runs_and_uploads
from transformer.ops import disk_budget, runs


def _student(tag: str, ip: str) -> dict:
    return {"actor": f"student:{tag * 12}", "role": "student", "person": f"ip:{ip}"}


ANNA, BEN, CARL = _student("a", "10.0.0.2"), _student("b", "10.0.0.3"), _student("c", "10.0.0.4")
ANNA_OTHER_TAB = {**_student("d", "10.0.0.2")}  # another tab of Anna's: another actor, one person
TEACHER = {"actor": "teacher", "role": "teacher", "person": "ip:10.0.0.1"}


@pytest.fixture
def dirs(tmp_path):
    return runs_and_uploads(tmp_path)


def test_one_students_runs_never_evict_another_students_only_run(dirs):
    """The issue's attack: Ben has one finished run (the oldest thing on the disk); Anna starts
    run after run. Her room comes from her own older runs, never from Ben's only run."""
    r, u = dirs
    bens = _artefact(r, "ben-1", 1.0, BEN, 1.0)
    _artefact(r, "teacher-1", 1.0, TEACHER, 0.5)
    limit = 5_000_000
    for i in range(8):
        # each new run of Anna's asks for 1 MB first (ui.serving.run_actions.launch: make_room for the share)
        disk_budget.make_room(1_000_000, r, u, limit=limit, person=ANNA["person"])
        tab = ANNA if i % 2 else ANNA_OTHER_TAB  # her runs from two tabs: one person
        _artefact(r, f"anna-{i}", 1.0, tab, 2.0 + i)
        assert bens.is_dir(), f"Ben's only run evicted for Anna's run {i}"
        assert disk_budget.usage([r, u]) <= limit
    assert (r / "teacher-1").is_dir() and (r / "anna-7").is_dir()


def test_eviction_order_own_first_then_others_but_not_their_last_run(dirs):
    r, u = dirs
    ben_old = _artefact(r, "ben-old", 1.0, BEN, 1.0)
    ben_new = _artefact(r, "ben-new", 1.0, BEN, 2.0)
    carl_only = _artefact(r, "carl-only", 1.0, CARL, 1.5)
    carl_up = _artefact(u, "upload-carl", 1.0, CARL, 1.6)
    anna_busy = _artefact(r, "anna-busy", 1.0, ANNA, 2.5, active=True)
    anna_old = _artefact(r, "anna-old", 1.0, ANNA, 3.0)
    anna_tab = _artefact(r, "anna-tab", 1.0, ANNA_OTHER_TAB, 3.5)
    teacher = _artefact(r, "teacher", 1.0, TEACHER, 0.1)
    order = [a.path.name for a in disk_budget.eviction_order(
        disk_budget.artefacts(r, u), ANNA["person"])]
    # Anna's own (both tabs, oldest first, not the running one), then the others' oldest first:
    # Ben's older run, Carl's upload; never Ben's newest run, Carl's only run, the teacher's
    assert order == ["anna-old", "anna-tab", "ben-old", "upload-carl"]
    out = disk_budget.make_room(3_000_000, r, u, limit=8_100_000, person=ANNA["person"])
    assert [a.path.name for a in out] == ["anna-old", "anna-tab", "ben-old"]
    for p in (ben_new, carl_only, carl_up, anna_busy, teacher):
        assert p.is_dir()
    assert not ben_old.exists()
    # no room without another person's last run: refused, nothing removed
    before = sorted(p.name for p in r.iterdir()) + sorted(p.name for p in u.iterdir())
    with pytest.raises(disk_budget.DiskBudgetError):
        disk_budget.make_room(3_000_000, r, u, limit=6_000_000, person=ANNA["person"])
    assert sorted(p.name for p in r.iterdir()) + sorted(p.name for p in u.iterdir()) == before


def test_owner_without_person_counts_by_actor(dirs):
    r, u = dirs
    old = {"actor": "student:eeeeeeeeeeee", "role": "student"}  # written before issue 48
    only = _artefact(r, "legacy-only", 1.0, old, 1.0)
    assert disk_budget.owner_person(old) == old["actor"]
    assert disk_budget.eviction_order(disk_budget.artefacts(r, u), ANNA["person"]) == []
    assert only.is_dir()


TINY = ["--task", "copy", "--task-opt", "n=300", "--task-opt", "max_len=8", "--vocab-size", "40",
        "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32", "--dropout", "0",
        "--batch-tokens", "256", "--warmup", "10", "--eval-sentences", "20",
        "--threads", "1", "--log-every", "1", "--keep-checkpoints", "3"]


def test_a_student_runs_share_counts_the_copies_after_a_best(tmp_path, monkeypatch):
    """An eval marks a weights-only `best` before the first step-N / last pair (both with the
    optimizer's state, four times its size): the pair's room was measured by the `best`, and the
    run wrote 1.5x its share. Now it stops within it, and what it wrote is kept."""
    from transformer.train.cli import run

    probe = tmp_path / "probe"
    assert run(TINY + ["--eval-every", "1000", "--steps", "2", "--checkpoint-every", "2",
                       "--out", str(probe)]) == "finished"
    one = disk_budget.dir_size(probe / "checkpoints" / "last")
    base = disk_budget.dir_size(probe) - disk_budget.dir_size(probe / "checkpoints")
    cap = int(base + 1.5 * one)  # room for a best and one full copy, not for step-N and last
    out = tmp_path / "student-run"
    monkeypatch.setenv(disk_budget.RUN_MAX_ENV, str(cap))
    monkeypatch.setenv(disk_budget.ROOTS_ENV, str(tmp_path))
    sizes = []
    state = run(TINY + ["--eval-every", "2", "--steps", "40", "--checkpoint-every", "2",
                        "--out", str(out)],
                {"on_step": [lambda t: sizes.append(disk_budget.dir_size(out))]})
    assert state == "stopped"
    assert max(sizes + [disk_budget.dir_size(out)]) <= cap, (cap, max(sizes))
    assert "disk share" in runs.read_status(out)["message"]
    assert "best" in runs.checkpoints(out)  # what it had room for is kept
