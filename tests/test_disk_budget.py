"""The disk budget, the upload cap and the rate limits (issue 16), tried as an attacker would:
uploads past the budget are refused and nothing already stored is lost; students' artefacts are
evicted oldest first, never the teacher's, never a running run; a session's flood of expensive
actions is refused with the seconds to wait (a fake clock: no sleeping)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from app_helpers import open_app
from helpers import artefact as _artefact
from helpers import runs_and_uploads, zipped
from transformer.ops import audit
from transformer.ops import disk_budget
from transformer.ops import runs
from ui.serving import quota, roles, sign_in

TOKEN = "budget-teacher-token"


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != audit.FILE}


STUDENT_A = {"actor": "student:aaaaaaaaaaaa", "role": "student"}
STUDENT_B = {"actor": "student:bbbbbbbbbbbb", "role": "student"}
TEACHER = {"actor": "teacher", "role": "teacher"}


@pytest.fixture
def dirs(tmp_path):
    return runs_and_uploads(tmp_path)


def test_make_room_evicts_students_oldest_first_never_the_teachers(dirs):
    r, u = dirs
    teacher_run = _artefact(r, "teacher-run", 1.0, TEACHER, 1.0)
    legacy = _artefact(r, "legacy-run", 1.0, None, 0.5)  # no owner file: the teacher's
    old = _artefact(r, "student-old", 1.0, STUDENT_A, 2.0)
    busy = _artefact(r, "student-busy", 1.0, STUDENT_B, 2.5, active=True)
    up = _artefact(u, "upload-x", 1.0, STUDENT_B, 3.0)
    new = _artefact(r, "student-new", 1.0, STUDENT_A, 4.0)
    evicted = []
    out = disk_budget.make_room(1_500_000, r, u, limit=6_000_000, on_evict=evicted.append)
    # 6 MB used + 1.5 MB: two students' artefacts go, the oldest ones that are not running
    assert [a.path.name for a in out] == ["student-old", "upload-x"] == [
        a.path.name for a in evicted]
    assert not old.exists() and not up.exists()
    for p in (teacher_run, legacy, busy, new):
        assert p.exists()


def test_make_room_refuses_without_removing_anything(dirs):
    r, u = dirs
    _artefact(r, "teacher-run", 3.0, TEACHER, 1.0)
    _artefact(r, "student-run", 1.0, STUDENT_A, 2.0)
    before = _files(r.parent)
    with pytest.raises(disk_budget.DiskBudgetError, match="budget of 4 MB"):
        disk_budget.make_room(2_000_000, r, u, limit=4_000_000)
    assert _files(r.parent) == before  # evicting every student artefact would not do: none is
    assert disk_budget.make_room(10, r, u, limit=None) == []  # no budget: nothing happens


def _zip(small_checkpoint: Path) -> bytes:
    return zipped({f"ck/{p.name}": p.read_bytes() for p in small_checkpoint.iterdir()})


def test_upload_past_the_budget_is_refused_and_nothing_stored_is_lost(
        monkeypatch, tmp_path, dirs, small_checkpoint):
    from ui import shell

    r, u = dirs
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(r))
    monkeypatch.setenv("ATTENTION_LAB_UPLOADS", str(u))
    monkeypatch.setenv(roles.TOKEN_ENV, TOKEN)
    sign_in.reset_global()
    teacher = {}
    assert sign_in.sign_in(TOKEN, teacher).ok
    _artefact(r, "teacher-run", 2.0, TEACHER, 1.0)
    data = _zip(small_checkpoint)
    size = sum(p.stat().st_size for p in small_checkpoint.iterdir())
    monkeypatch.setenv(disk_budget.ENV, str((2.0e6 + size / 2) / 1e6))
    before = _files(tmp_path)
    with pytest.raises(disk_budget.DiskBudgetError, match="would pass the budget"):
        shell.store_upload(data, "mine.zip", state=teacher)
    assert _files(tmp_path) == before and not list(u.iterdir())
    # room made by evicting a student's old run: the upload goes through, the eviction audited
    student_run = _artefact(r, "student-run", 1.0, STUDENT_A, 2.0)
    # (a student's last run is never evicted for someone else, issue 48: this one has a newer one)
    newer = _artefact(r, "student-newer", 0.0, STUDENT_A, 5.0)
    monkeypatch.setenv(disk_budget.ENV, str((3.0e6 + size / 2) / 1e6))
    dest = shell.store_upload(data, "mine.zip", state=teacher)
    assert dest.is_dir() and not student_run.exists() and (r / "teacher-run").is_dir()
    assert newer.is_dir()
    assert runs.read_owner(dest)["role"] == "teacher"
    acts = [(e["action"], e["outcome"], e["target"]) for e in reversed(audit.read(r))]
    assert ("disk", "refused", "mine.zip") in acts
    assert ("evict", "ok", "student-run") in acts and ("upload.checkpoint", "ok", dest.name) in acts
    # a student cannot upload into the shared list at all
    with pytest.raises(PermissionError):
        shell.store_upload(data, "mine.zip", state={})
    sign_in.reset_global()


def test_sidebar_upload_past_the_budget_says_so(monkeypatch, tmp_path, small_checkpoint):
    monkeypatch.setenv(disk_budget.ENV, "0.001")  # 1 kB: nothing fits
    at = open_app(monkeypatch, None, tmp_path)
    at.sidebar.file_uploader(key="shell_upload").set_value(
        ("ck.zip", _zip(small_checkpoint), "application/zip")).run()
    assert not at.exception
    assert any("disk budget" in e.value for e in at.sidebar.error), [e.value for e in at.error]
    assert not (tmp_path / "uploads").exists() or not list((tmp_path / "uploads").iterdir())


def test_student_upload_cap(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv(roles.TOKEN_ENV, TOKEN)
    monkeypatch.setenv("ATTENTION_LAB_MAX_UPLOADS", "3")
    student, teacher = {}, {roles.ROLE_KEY: "teacher", roles.AUTH_KEY: roles._digest(TOKEN)}
    for _ in range(3):
        quota.count_upload("x", state=student)
    with pytest.raises(quota.UploadCapError):
        quota.count_upload("x", state=student)
    for _ in range(10):
        quota.count_upload("x", state=teacher)  # the teacher is not capped


class FakeClock:
    now = 100.0

    def __call__(self):
        return self.now


def test_rate_limit_per_session_and_for_all_students(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv(roles.TOKEN_ENV, TOKEN)
    monkeypatch.setenv("ATTENTION_LAB_RATE_HEADS_SWEEP", "2/60")
    monkeypatch.setenv("ATTENTION_LAB_RATE_ALL_HEADS_SWEEP", "5/10")
    clock = FakeClock()
    monkeypatch.setattr(quota, "CLOCK", clock)
    quota.reset()
    flood = {}
    quota.check("heads.sweep", key=1, state=flood)
    quota.check("heads.sweep", key=2, state=flood)
    quota.check("heads.sweep", key=2, state=flood)  # the same request again: free
    with pytest.raises(quota.RateLimited) as e:
        quota.check("heads.sweep", key=3, state=flood)
    assert 59 <= e.value.retry_after <= 60
    refused = 0
    for i in range(100):  # a session hammering: every try refused, nothing taken
        try:
            quota.check("heads.sweep", key=100 + i, state=flood)
        except quota.RateLimited:
            refused += 1
    assert refused == 100
    # other students still get theirs, until the shared bucket is empty (their own requests: one
    # the flood already made, key 1, is cached and free for everyone, issue 22 E)
    others = [{} for _ in range(5)]
    outcomes = []
    quota.check("heads.sweep", key=1, state={})
    for i, s in enumerate(others):
        try:
            quota.check("heads.sweep", key=("other", i), state=s)
            outcomes.append("ok")
        except quota.RateLimited as err:
            outcomes.append(round(err.retry_after))
    assert outcomes[:3] == ["ok", "ok", "ok"] and outcomes[3:] == [10, 10]
    clock.now += 10
    quota.check("heads.sweep", key=("other", 3), state=others[3])
    # the teacher is never limited
    teacher = {roles.ROLE_KEY: "teacher", roles.AUTH_KEY: roles._digest(TOKEN)}
    for i in range(50):
        quota.check("heads.sweep", key=i, state=teacher)
    events = [e for e in audit.read(tmp_path / "runs", 1000) if e["action"] == "rate_limit"]
    # 103 refusals from one client (these sessions are all "local"): the audit log takes the first
    # AUDIT_CLIENT_RATE of them, then one per 10 s, and counts the rest (issue 22, M)
    cap = roles.AUDIT_CLIENT_RATE[0]
    assert cap <= len(events) <= cap + 2 and all("retry_after_s" in e for e in events)
    quota.reset()


def test_no_token_no_limits(monkeypatch, tmp_path):
    monkeypatch.delenv(roles.TOKEN_ENV, raising=False)
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    s = {}
    for i in range(100):
        quota.check("ablate.all", key=i, state=s)
        quota.count_upload("x", state=s)
