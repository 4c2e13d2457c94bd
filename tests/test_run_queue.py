"""Student sandbox runs and the fair queue (issue 16): one run per student, first come first
served, the teacher's first; a queued run starts when the slot frees (a fake launcher)."""
from __future__ import annotations

import pytest

from transformer.ops import run_queue
from transformer.ops import runs
from ui.serving import roles, run_actions


def test_queue_order_one_per_student_and_pump(tmp_path):
    root = tmp_path / "runs"
    assert run_queue.enqueue(root, "s1", "student:a", "student", ["x"]) == 1
    assert run_queue.enqueue(root, "s2", "student:b", "student", []) == 2
    with pytest.raises(run_queue.QueueError, match="one at a time"):
        run_queue.enqueue(root, "s3", "student:a", "student", [])
    assert run_queue.enqueue(root, "t1", "teacher", "teacher", []) == 1  # ahead of students
    assert [e["name"] for e in run_queue.entries(root)] == ["t1", "s1", "s2"]
    slot = {"busy": True}
    started = []

    def launch(e):
        if slot["busy"]:
            raise runs.RunError("1 training run(s) already running on this server")
        started.append(e["name"])
        slot["busy"] = True

    assert run_queue.pump(root, launch) == [] and run_queue.position(root, "s1") == 2
    slot["busy"] = False  # the slot frees: the head starts, the others move up
    assert run_queue.pump(root, launch) == ["t1"]
    assert run_queue.position(root, "s1") == 1 and run_queue.position(root, "s2") == 2
    slot["busy"] = False
    assert run_queue.pump(root, launch) == ["s1"] and started == ["t1", "s1"]


def test_sandbox_needs_the_teachers_switch(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv(roles.TOKEN_ENV, "q-token")
    monkeypatch.setenv("ATTENTION_LAB_MAX_RUNS", "1")
    student, other = {}, {}
    teacher = {roles.ROLE_KEY: "teacher", roles.AUTH_KEY: roles._digest("q-token")}
    with pytest.raises(PermissionError, match="switched off"):
        run_actions.submit_sandbox("copy", state=student)
    with pytest.raises(PermissionError):
        run_actions.set_classroom(state=student, sandbox=True)
    run_actions.set_classroom(state=teacher, sandbox=True, max_steps=50)
    launched = []
    monkeypatch.setattr(run_actions, "launch", lambda name, args: (_ for _ in ()).throw(
        runs.RunError("1 training run(s) already running on this server")))
    name, place = run_actions.submit_sandbox("copy", state=student)
    assert place == 1 and run_actions.my_queued(student) == [(name, 1)]
    assert runs.read_owner(tmp_path / "runs" / name)["role"] == "student"
    with pytest.raises(run_queue.QueueError):
        run_actions.submit_sandbox("sort", state=student)  # one at a time
    name2, place2 = run_actions.submit_sandbox("sort", state=other)
    assert place2 == 2
    # the slot frees (the fake launcher now succeeds): both start, first come first served
    monkeypatch.setattr(run_actions, "launch", lambda name, args: launched.append((name, args)))
    assert run_actions.pump_queue() == [name, name2]
    args = launched[0][1]
    assert args[args.index("--steps") + 1] == "50" and args[args.index("--preset") + 1] == "tiny"
    with pytest.raises(runs.RunError):
        run_actions.sandbox_args("multi30k", run_queue.settings(tmp_path / "runs"))
