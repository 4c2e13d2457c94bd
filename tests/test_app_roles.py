"""Two browser sessions on one server with a teacher token (issue 16), through AppTest: the student
sees the teacher's run live but has no stop, resume, delete, start or upload control; the teacher
signs in through the sidebar box and has them. With no token every control is there, as before."""
from __future__ import annotations

import os

import pytest

from app_helpers import no_errors, open_app
from transformer.ops import audit
from transformer.ops import runs
from ui.serving import roles, sign_in

PAGE = "pages/train.py"
TOKEN = "s3cret-teacher-token"


@pytest.fixture
def class_server(monkeypatch, tmp_path):
    monkeypatch.setenv(roles.TOKEN_ENV, TOKEN)
    sign_in.reset_global()
    root = tmp_path / "runs"
    path = root / "copy-20260101-000000-aaaa"
    path.mkdir(parents=True)
    # "running", held by a live pid (this process): what a teacher's demonstration looks like
    runs.write_status(path, state="running", step=7, total_steps=100, pid=os.getpid(),
                      started_at=1.0, task="copy")
    runs.write_owner(path, "teacher", "teacher")
    yield path
    sign_in.reset_global()


def _sign_in(at, token):
    at.text_input(key="roles_token_input").input(token)
    [go] = [b for b in at.button if b.label == "Sign in"]
    go.click().run()
    return at


def _keys(at) -> set:
    return {b.key for b in at.button}


def test_student_sees_the_run_but_has_no_controls(monkeypatch, tmp_path, class_server):
    at = open_app(monkeypatch, None, tmp_path, PAGE)
    no_errors(at)
    assert "train_stop" not in _keys(at) and "train_delete" not in _keys(at)
    assert "train_start" not in _keys(at)
    assert any("started by the teacher" in i.value for i in at.info)
    assert not [u for u in at.get("file_uploader") if u.proto.id.endswith("shell_upload")]
    assert class_server.name in " ".join(m.value for m in at.markdown)  # watched live
    # a wrong token: refused, no role, no controls
    _sign_in(at, "not-it")
    assert at.error and "not the teacher token" in at.error[0].value
    assert "train_stop" not in _keys(at)
    assert not runs.stop_requested(class_server)


def test_teacher_signs_in_and_stops(monkeypatch, tmp_path, class_server):
    student = open_app(monkeypatch, None, tmp_path, PAGE)
    teacher = open_app(monkeypatch, None, tmp_path, PAGE)
    _sign_in(teacher, TOKEN)
    no_errors(teacher)
    assert "train_stop" in _keys(teacher) and "roles_sign_out" in _keys(teacher)
    assert "train_start" in _keys(teacher)
    student.run()
    assert "train_stop" not in _keys(student)  # the other session is still a student
    teacher.button(key="train_stop").click().run()
    assert runs.stop_requested(class_server)
    events = audit.read(class_server.parent)
    assert [(e["actor"], e["action"], e["outcome"]) for e in events[:2]] == [
        ("teacher", "run.stop", "ok"), ("teacher", "sign_in", "ok")]
    assert TOKEN not in (class_server.parent / audit.FILE).read_text()


def test_no_token_keeps_everything_open(monkeypatch, tmp_path, class_server):
    monkeypatch.delenv(roles.TOKEN_ENV)
    at = open_app(monkeypatch, None, tmp_path, PAGE)
    no_errors(at)
    assert {"train_stop", "train_start"} <= _keys(at)
    assert not [b for b in at.button if b.label == "Sign in"]


def test_teacher_switches_student_runs_on_and_a_student_queues(monkeypatch, tmp_path,
                                                               class_server):
    root = class_server.parent
    # the one training slot is held (by this process): a student's run must wait in the queue
    (root / runs.SLOTS_DIR).mkdir()
    runs.write_json_atomic(root / runs.SLOTS_DIR / "slot-0.lock",
                           {"pid": os.getpid(), "run_dir": str(class_server)})
    monkeypatch.setenv("ATTENTION_LAB_MAX_RUNS", "1")
    teacher = open_app(monkeypatch, None, tmp_path, PAGE)
    _sign_in(teacher, TOKEN)
    teacher.toggle(key="train_sb_on").set_value(True).run()
    no_errors(teacher)
    student = open_app(monkeypatch, None, tmp_path, PAGE)
    assert "train_sb_go" in _keys(student) and "train_start" not in _keys(student)
    student.button(key="train_sb_go").click().run()
    no_errors(student)
    assert any("number 1 in the queue" in i.value for i in student.info)
    student.button(key="train_sb_go").click().run()  # a second one: refused, one at a time
    assert any("one at a time" in e.value for e in student.error)
    acts = [(e["actor"].split(":")[0], e["action"], e["outcome"]) for e in audit.read(root)]
    assert ("teacher", "classroom.settings", "ok") in acts
    assert ("student", "sandbox.start", "ok") in acts and ("student", "sandbox.start",
                                                            "refused") in acts
