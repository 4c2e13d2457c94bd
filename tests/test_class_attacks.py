"""Issue 22, second round of attacks on a class server, tried as an attacker would. Each test
names its attack letter. Attacks that went over Streamlit's websocket or upload endpoint are
tried there in tests/test_class_attacks_ws.py (a real server); the ones here are tried at the
function the server calls for that request (the same boundary a forged widget reaches), or
through AppTest where a page is involved."""
from __future__ import annotations

import pytest

from app_helpers import open_app
from transformer import audit
from ui import roles

TOKEN = "correct horse battery staple"  # 28 characters
TEACHER_IP, ATTACKER_IP = "ip:10.0.0.1", "ip:10.0.0.66"


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def server(monkeypatch, tmp_path):
    """A server with a teacher token, runs under tmp_path, and a fake clock (no sleeping)."""
    monkeypatch.setenv(roles.TOKEN_ENV, TOKEN)
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("ATTENTION_LAB_UPLOADS", str(tmp_path / "uploads"))
    clock = FakeClock()
    monkeypatch.setattr(roles, "CLOCK", clock)
    roles.reset_global()
    yield clock
    roles.reset_global()


def _session(client: str) -> dict:
    """A fresh browser session (a refresh, a new tab) of the browser at `client`."""
    return {roles.CLIENT_KEY: client}


# -- A: wrong tokens from other clients never lock the teacher out ------------------------------------
def test_A_wrong_tokens_from_fresh_sessions_never_lock_the_teacher_out(server, tmp_path):
    clock = server
    # the attack: one wrong try per fresh session, far past every free try, never waiting
    for i in range(200):
        res = roles.sign_in(f"guess-{i}", _session(ATTACKER_IP))
        assert not res.ok
        clock.now += 0.5
    # the attacker's own fresh sessions are locked by now (a refresh does not help) ...
    res = roles.sign_in(TOKEN, _session(ATTACKER_IP))
    assert res.locked and not res.ok
    # ... but the teacher, on another machine, is let in at once with the right token
    teacher = _session(TEACHER_IP)
    res = roles.sign_in(TOKEN, teacher)
    assert res.ok and roles.role(teacher) == "teacher"
    # and a classmate's honest typo is not punished for the attacker's tries
    res = roles.sign_in("typo", _session("ip:10.0.0.7"))
    assert not res.ok and not res.locked and res.wait_s == 0
    acts = [(e["action"], e.get("reason")) for e in audit.read(tmp_path / "runs", 1000)]
    assert ("sign_in", "locked") in acts and ("sign_in", "wrong token") in acts


def test_A_one_client_is_slowed_across_its_sessions(server):
    clock = server
    got = [roles.sign_in(f"guess-{i}", _session(ATTACKER_IP))
           for i in range(roles.CLIENT_FREE_TRIES + 3)]  # each from a fresh session
    free = roles.CLIENT_FREE_TRIES - 1
    assert [r.wait_s for r in got[:free]] == [0.0] * free
    assert all(r.wait_s > 0 for r in got[free:]) and all(r.locked for r in got[free + 1:])
    clock.now += roles.CLIENT_CAP_S + 1
    assert roles.sign_in(TOKEN, _session(ATTACKER_IP)).ok  # the waits end


def test_A_client_identity_without_a_connection_is_local():
    """ui.roles.client reads the connection (a remote address as it is; a local one, a reverse
    proxy on this machine, by the last X-Forwarded-For entry, which the proxy itself adds: tried
    over a real server in test_class_attacks_ws.py). AppTest has neither: one local client."""
    from streamlit.testing.v1 import AppTest

    def page():
        import streamlit as st

        from ui import roles

        st.write(roles.client())

    at = AppTest.from_function(page, default_timeout=30)
    at.run()
    assert at.markdown[0].value == "local"  # AppTest: no address, no proxy headers


def test_A_a_short_token_is_refused_at_start(monkeypatch, tmp_path):
    monkeypatch.setenv(roles.TOKEN_ENV, "fourteen-chars")  # what the attack found accepted
    assert roles.token_problem() is not None
    roles._WARNED.discard("short_token")
    at = open_app(monkeypatch, None, tmp_path)
    assert [e.value for e in at.error] and "shorter than 20" in at.error[0].value
    assert [c.value for c in at.code] == [roles.STRONG_TOKEN_COMMAND]
    assert not [b for b in at.button if b.label == "Sign in"]  # nothing else is served
    assert "fourteen" not in " ".join(e.value for e in at.error)
    # the command it prints makes a token the server accepts
    import secrets

    monkeypatch.setenv(roles.TOKEN_ENV, secrets.token_urlsafe(24))
    assert roles.token_problem() is None
    at = open_app(monkeypatch, None, tmp_path)
    assert not at.error and [b for b in at.button if b.label == "Sign in"]


# -- B, B2: the teacher's switch, step cap and disk share hold for every start and resume -------------
import os  # noqa: E402
import sys  # noqa: E402

from transformer import disk_budget, run_queue, runs  # noqa: E402
from ui import runs_ui  # noqa: E402


@pytest.fixture
def launches(monkeypatch):
    """transformer.runs.launch replaced: what would have been started, with its environment."""
    got = []

    def fake(run_dir, args, **kw):
        got.append({"name": os.path.basename(str(run_dir)), "args": list(args),
                    "env": kw.get("env")})
        return runs.RunHandle(run_dir, os.getpid())

    monkeypatch.setattr(runs, "launch", fake)
    return got


def _teacher():
    s = {}
    assert roles.sign_in(TOKEN, s).ok
    return s


def _students_finished_run(root, student: dict, name="copy-20260101-000000-s001", step=300):
    path = root / name
    (path / "checkpoints" / "last").mkdir(parents=True)
    runs.write_status(path, state="finished", step=step, total_steps=step, task="copy")
    rec = roles.owner_record(student)
    runs.write_owner(path, rec["actor"], rec["role"], keep_teacher=False)
    return path


def test_B_train_longer_by_a_million_steps_is_refused(server, tmp_path, launches):
    """The page's "Train longer" calls runs_ui.resume_run(name, ["--resume", "--steps", N]);
    the attack typed N = 1,000,300 into its number box (no maximum)."""
    root = tmp_path / "runs"
    teacher, student = _teacher(), _session(ATTACKER_IP)
    runs_ui.set_classroom(state=teacher, sandbox=True, max_steps=300)
    path = _students_finished_run(root, student, step=200)
    with pytest.raises(PermissionError, match="at most 300 steps"):
        runs_ui.resume_run(path.name, ["--resume", "--steps", "1000300"], state=student)
    for forged in (["--resume", "--steps", "250", "--preset", "base"],
                   ["--resume", "--steps", "250", "--checkpoint-every", "1"],
                   ["--resume", "--steps"]):
        with pytest.raises(PermissionError):
            runs_ui.resume_run(path.name, forged, state=student)
    assert launches == []
    # within the cap it resumes, with nothing but the steps
    runs_ui.resume_run(path.name, ["--resume", "--steps", "300"], state=student)
    assert launches[-1]["args"] == ["--resume", "--steps", "300"]
    # the teacher switches student runs off: a resume is refused too, even within the cap
    runs_ui.set_classroom(state=teacher, sandbox=False)
    with pytest.raises(PermissionError, match="switched off"):
        runs_ui.resume_run(path.name, ["--resume", "--steps", "250"], state=student)
    with pytest.raises(PermissionError, match="switched off"):
        runs_ui.resume_run(path.name, ["--resume"], state=student)
    # cap 100 (the 50100): a run that has had its steps is not resumed at all
    runs_ui.set_classroom(state=teacher, sandbox=True, max_steps=100)
    with pytest.raises(PermissionError, match="at most 100 steps"):
        runs_ui.resume_run(path.name, ["--resume", "--steps", "50100"], state=student)
    with pytest.raises(PermissionError, match="100 steps the teacher allows"):
        runs_ui.resume_run(path.name, ["--resume"], state=student)
    assert len(launches) == 1
    acts = [(e["action"], e["outcome"]) for e in audit.read(root, 1000)]
    assert ("run.resume", "refused") in acts


def test_B_a_queued_run_meets_the_switch_and_cap_when_it_starts(server, tmp_path, launches,
                                                                monkeypatch):
    root = tmp_path / "runs"
    teacher = _teacher()
    a, b = _session("ip:10.0.0.21"), _session("ip:10.0.0.22")
    runs_ui.set_classroom(state=teacher, sandbox=True, max_steps=300)
    busy = {"on": True}
    real = runs.launch

    def slot_busy(run_dir, args, **kw):
        if busy["on"]:
            raise runs.RunError("1 training run(s) already running on this server")
        return real(run_dir, args, **kw)

    monkeypatch.setattr(runs, "launch", slot_busy)
    name_a, _ = runs_ui.submit_sandbox("copy", state=a)
    name_b, _ = runs_ui.submit_sandbox("sort", state=b)
    assert [e["name"] for e in run_queue.entries(root)] == [name_a, name_b]
    # the teacher lowers the cap, then switches student runs off, while both wait
    runs_ui.set_classroom(state=teacher, max_steps=100)
    busy["on"] = False
    monkeypatch.setattr(runs, "launch", real)  # the fake from the fixture
    started = runs_ui.pump_queue()
    assert started == [name_a, name_b]
    assert all(x["args"][x["args"].index("--steps") + 1] == "100" for x in launches)
    runs_ui.set_classroom(state=teacher, sandbox=False)
    c = _session("ip:10.0.0.23")
    runs_ui.set_classroom(state=teacher, sandbox=True)
    busy["on"] = True
    monkeypatch.setattr(runs, "launch", slot_busy)
    name_c, _ = runs_ui.submit_sandbox("copy", state=c)
    runs_ui.set_classroom(state=teacher, sandbox=False)
    busy["on"] = False
    assert runs_ui.pump_queue() == []  # switched off: dropped, not started
    assert run_queue.entries(root) == [] and not (root / name_c).exists()
    assert len(launches) == 2


def test_B2_a_student_run_is_launched_with_its_disk_share(server, tmp_path, launches,
                                                         monkeypatch):
    root = tmp_path / "runs"
    monkeypatch.setenv(disk_budget.ENV, "200")
    teacher, student = _teacher(), _session(ATTACKER_IP)
    runs_ui.set_classroom(state=teacher, sandbox=True, max_steps=300)
    path = _students_finished_run(root, student, step=100)
    runs_ui.resume_run(path.name, ["--resume", "--steps", "300"], state=student)
    env = launches[-1]["env"]
    assert int(env[disk_budget.RUN_MAX_ENV]) == 20_000_000  # a tenth of 200 MB
    assert str(root.resolve()) in env[disk_budget.ROOTS_ENV]
    # the teacher's own runs are launched as before (no share, no cap)
    runs_ui.start_run("copy-20260101-000000-t001", ["--task", "copy", "--steps", "5000"],
                      state=teacher)
    assert launches[-1]["env"] is None or disk_budget.RUN_MAX_ENV not in launches[-1]["env"]
    assert launches[-1]["args"] == ["--task", "copy", "--steps", "5000"]


TINY = ["--task", "copy", "--task-opt", "n=300", "--task-opt", "max_len=8", "--vocab-size", "40",
        "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32", "--dropout", "0",
        "--batch-tokens", "256", "--warmup", "10", "--eval-every", "1000", "--eval-sentences", "20",
        "--threads", "1", "--log-every", "1", "--keep-checkpoints", "3"]


def test_B2_a_student_run_that_keeps_saving_stops_at_its_share(tmp_path, monkeypatch):
    """The trainer itself (what the launched child runs): checkpoints every 2 steps for 60
    steps would write 30 checkpoints; with a share the run stops before passing it."""
    from transformer.train import run

    probe = tmp_path / "probe"
    assert run(TINY + ["--steps", "2", "--checkpoint-every", "2", "--out", str(probe)]) == \
        "finished"
    one = disk_budget.dir_size(probe / "checkpoints" / "last")
    base = disk_budget.dir_size(probe) - disk_budget.dir_size(probe / "checkpoints")
    cap = base + 4 * one + one // 2 + 20_000  # room for about four checkpoints
    out = tmp_path / "student-run"
    monkeypatch.setenv(disk_budget.RUN_MAX_ENV, str(cap))
    monkeypatch.setenv(disk_budget.ROOTS_ENV, str(tmp_path))
    sizes = []
    state = run(TINY + ["--steps", "60", "--checkpoint-every", "2", "--out", str(out)],
                {"on_step": [lambda t: sizes.append(disk_budget.dir_size(out))]})
    assert state == "stopped"
    status = runs.read_status(out)
    assert status["step"] < 60 and "disk share" in status["message"]
    assert max(sizes + [disk_budget.dir_size(out)]) <= cap
    assert "last" in runs.checkpoints(out)  # what it had room for is kept, and resumable
    # and the whole budget: a run with share left stops when runs/ + uploads/ are full
    monkeypatch.setenv(disk_budget.RUN_MAX_ENV, str(10 ** 12))
    monkeypatch.setenv(disk_budget.ENV, str(disk_budget.dir_size(tmp_path) / 1e6 + 0.001))
    out2 = tmp_path / "student-run-2"
    assert run(TINY + ["--steps", "60", "--checkpoint-every", "2", "--out", str(out2)]) == \
        "stopped"
    assert "disk budget" in runs.read_status(out2)["message"]


# -- I: the token never reaches the training child's environment --------------------------------------
def test_I_the_token_is_not_in_the_training_childs_environ(server, tmp_path):
    """The attack read /proc/PID/environ of the training process. Launched the way the app
    launches (runs.launch), with a stand-in for python that stays alive to be looked at."""
    fake_python = tmp_path / "python"
    fake_python.write_text("#!/bin/sh\nexec sleep 30\n")
    fake_python.chmod(0o755)
    root = tmp_path / "runs"
    root.mkdir(exist_ok=True)
    assert os.environ[roles.TOKEN_ENV] == TOKEN
    h = runs.launch(root / "copy-20260101-000000-i001", ["--task", "copy"], python=str(fake_python),
                    slots_root=root)
    try:
        environ = b""
        for _ in range(50):
            try:
                environ = open(f"/proc/{h.pid}/environ", "rb").read()
            except FileNotFoundError:
                break
            if b"OMP_WAIT_POLICY" in environ:
                break
            import time

            time.sleep(0.05)
        assert b"OMP_WAIT_POLICY" in environ, "the child's environment could not be read"
        assert TOKEN.encode() not in environ and roles.TOKEN_ENV.encode() not in environ
    finally:
        h.process.kill()
        h.process.wait()
    assert sys.platform.startswith("linux")
