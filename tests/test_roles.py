"""Roles, sign-in and the audit log, tried as an attacker would (issue 16): the policy as a pure
function, a wrong token never granting the role, a brute-force loop slowed (a fake clock: no
sleeping), the underlying functions refusing a student whatever the page draws, and the token
never written to the audit log."""
from __future__ import annotations

import json
import os

import pytest

from transformer.ops import audit
from transformer.ops import runs
from ui.serving import roles, run_actions, sign_in

TOKEN = "correct horse battery staple"


def _teacher():
    s = {}
    assert sign_in.sign_in(TOKEN, s).ok
    return s


def test_policy_students_act_only_on_their_own_runs():
    me, other = "student:aaaaaaaaaaaa", "student:bbbbbbbbbbbb"
    mine, theirs = {"actor": me, "role": "student"}, {"actor": other, "role": "student"}
    teachers = {"actor": "teacher", "role": "teacher"}
    for action in ("run.stop", "run.resume", "run.delete"):
        assert roles.allowed(action, "student", me, mine)
        assert not roles.allowed(action, "student", me, theirs)
        assert not roles.allowed(action, "student", me, teachers)
        assert not roles.allowed(action, "student", me, None)  # no owner record: the teacher's
        # a forged record claiming to be a student's with the student's actor but teacher role
        assert not roles.allowed(action, "student", me, {"actor": me, "role": "teacher"})
        assert roles.allowed(action, "teacher", "teacher", mine)
        assert roles.allowed(action, "open", "open", None)
    for action in ("run.start", "upload.checkpoint", "upload.corpus", "audit.read"):
        assert not roles.allowed(action, "student", me)
        assert roles.allowed(action, "teacher", "teacher") and roles.allowed(action, "open", "open")
    assert roles.allowed("sandbox.start", "student", me, sandbox=True)
    assert not roles.allowed("sandbox.start", "student", me, sandbox=False)
    with pytest.raises(ValueError):
        roles.allowed("run.explode", "teacher", "teacher")


def test_no_token_means_open(monkeypatch, tmp_path):
    monkeypatch.delenv(roles.TOKEN_ENV, raising=False)
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here: must not raise
    s = {}
    assert roles.token() is None and roles.role(s) == "open" and roles.actor(s) == "open"
    roles.require("run.stop", {"actor": "teacher", "role": "teacher"}, state=s)  # no raise


def test_token_from_secrets_file(monkeypatch, tmp_path):
    import streamlit as st

    monkeypatch.delenv(roles.TOKEN_ENV, raising=False)
    (tmp_path / "secrets.toml").write_text(f'{roles.TOKEN_ENV} = "from-secrets"\n')
    from streamlit import config

    monkeypatch.setattr(config, "get_option", lambda k, _g=config.get_option: (
        [str(tmp_path / "secrets.toml")] if k == "secrets.files" else _g(k)))
    st.secrets._reset()
    try:
        assert roles.token() == "from-secrets"
    finally:
        st.secrets._reset()
        os.environ.pop(roles.TOKEN_ENV, None)  # Streamlit copies secrets into the environment


def test_constant_time_compare_is_exact():
    assert roles.token_matches(TOKEN, TOKEN)
    for wrong in ("", TOKEN[:-1], TOKEN + " ", TOKEN.upper(), TOKEN + "\x00", "x" * 10000):
        assert not roles.token_matches(wrong, TOKEN)


def test_wrong_token_never_grants_and_brute_force_is_slowed(server):
    clock = server
    s = {}
    guesses = [f"guess-{i}" for i in range(200)]
    refused_locked = tried = 0
    waited = 0.0  # what an attacker who waits exactly as told spends
    for g in guesses:
        res = sign_in.sign_in(g, s)
        assert not res.ok and roles.role(s) == "student"
        tried += 1
        if res.locked:
            refused_locked += 1
        clock.now += res.wait_s  # "sleep" as long as told (or not at all when 0)
        waited += res.wait_s
    assert roles.role(s) == "student" and roles.ROLE_KEY not in s
    # the first FREE_TRIES are free; after that every try costs a doubling wait (capped)
    assert waited >= 60.0, waited
    # an attacker who does not wait is refused (and the wait is not lengthened by it)
    res1 = sign_in.sign_in("guess-x", s)
    assert not res1.ok and res1.wait_s > 0
    res3 = sign_in.sign_in("guess-x2", s)
    assert res3.locked and not res3.ok and 0 < res3.wait_s <= res1.wait_s
    # a fresh session (a browser refresh) of the same client is held back by its backoff too
    fresh = {}
    res = sign_in.sign_in("guess-y", fresh)
    assert not res.ok and res.locked
    # but the right token is never held back (issue 48, 4): the lock is for wrong tries only
    assert sign_in.sign_in(TOKEN, {}).ok
    res2 = sign_in.sign_in(TOKEN, s)
    assert res2.ok and not res2.locked and roles.role(s) == "teacher"


def test_the_right_token_signs_in_at_once_after_wrong_ones_from_the_same_address(server):
    """Issue 48, 4: twenty wrong tokens from the teacher's own address (a student at the
    teacher's desk, one school NAT), in this session and others: the right one, at once."""
    clock = server
    teacher = {roles.CLIENT_KEY: "ip:10.0.0.1"}
    others = [{roles.CLIENT_KEY: "ip:10.0.0.1"} for _ in range(4)]
    waits = []
    for i in range(20):
        res = sign_in.sign_in(f"wrong-{i}", (others + [teacher])[i % 5])
        assert not res.ok
        waits.append(res.wait_s)
        clock.now += 1.0
    assert max(waits) > 0  # the wrong tries were slowed
    assert sign_in.client_backoff("ip:10.0.0.1").wait(clock.now) > 0
    res = sign_in.sign_in(TOKEN, teacher)
    assert res.ok and res.wait_s == 0 and roles.role(teacher) == "teacher"
    # and a fresh session from that address, too
    assert sign_in.sign_in(TOKEN, {roles.CLIENT_KEY: "ip:10.0.0.1"}).ok


def test_client_names_and_the_open_server_banner(monkeypatch):
    """The teacher's browser on the server machine, seen as ::ffff:127.0.0.1, is "local" (no
    open-server banner); a header that was ignored is not."""
    from ui.serving import client_address as ca

    def name(peer, **headers):
        hs = [(k.replace("_", "-"), v) for k, v in headers.items()]
        return roles.client_name(ca.resolve(peer, hs, ca.parse_trusted()))

    assert name("::ffff:127.0.0.1") == "local" and name("127.0.0.1") == "local"
    assert name("::1") == "local"
    assert name("127.0.0.1", X_Forwarded_For="::ffff:127.0.0.1") == "local"
    assert name("127.0.0.2") == "ip:127.0.0.2"
    assert name("::ffff:127.0.0.2", X_Forwarded_For="teacher") == "ip:127.0.0.2"
    assert name("127.0.0.1", X_Forwarded_For="teacher") == "ip:127.0.0.1"  # one client, shared
    assert name("127.0.0.1", X_Real_Ip="10.9.9.9") == "ip:127.0.0.1"
    assert name("127.0.0.1", X_Forwarded_For="10.9.9.9") == "ip:10.9.9.9"  # the proxy's word
    assert name("2001:db8::1") == "ip:2001:db8::1"
    # the banner: only for a client that is not "local"
    shown = []
    monkeypatch.setattr(sign_in.st, "warning", lambda text: shown.append(text))
    monkeypatch.setattr(roles, "_WARNED", {"open"})  # the console line: said already
    monkeypatch.setattr(roles, "client", lambda: name("::ffff:127.0.0.1"))
    sign_in.open_server_warning()
    assert shown == []
    monkeypatch.setattr(roles, "client", lambda: name("127.0.0.2"))
    sign_in.open_server_warning()
    assert len(shown) == 1 and "no teacher token" in shown[0]


def test_backoff_doubles_and_is_capped():
    b = sign_in.Backoff(free=3, base=1.0, cap=10.0)
    waits = [b.fail(0.0) for _ in range(8)]
    assert waits[:2] == [0.0, 0.0] and waits[2:] == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    b.succeed()
    assert b.wait(0.0) == 0.0


def test_teacher_role_lapses_when_the_token_changes(server, monkeypatch):
    s = _teacher()
    assert roles.role(s) == "teacher" and roles.actor(s) == "teacher"
    monkeypatch.setenv(roles.TOKEN_ENV, "a new token")
    assert roles.role(s) == "student"
    assert roles.actor(s).startswith("student:")
    assert s[roles.SID_KEY] not in roles.actor(s)  # the session's secret is never shown


def _fake_run(root, name, owner=None, active=True):
    path = root / name
    path.mkdir(parents=True)
    runs.write_status(path, state="running" if active else "stopped", step=5,
                      pid=os.getpid(), started_at=1.0, task="copy")
    if owner:
        runs.write_owner(path, owner["actor"], owner["role"], keep_teacher=False)
    return path


def test_student_cannot_stop_resume_or_delete_the_teachers_run(server, tmp_path):
    root = tmp_path / "runs"
    teacher = _teacher()
    student = {}
    path = _fake_run(root, "copy-t", roles.owner_record(teacher))
    done = _fake_run(root, "copy-old", None, active=False)  # made before roles: the teacher's
    with pytest.raises(PermissionError, match="only the teacher"):
        run_actions.stop_run("copy-t", state=student)  # a forged STOP
    assert not runs.stop_requested(path)
    for name in ("copy-t", "copy-old"):
        with pytest.raises(PermissionError):
            run_actions.resume_run(name, ["--resume"], state=student)
    with pytest.raises(PermissionError):
        run_actions.delete_run("copy-old", state=student)
    assert done.is_dir()
    with pytest.raises(PermissionError):
        run_actions.start_run("copy-new", [], state=student)
    assert not (root / "copy-new").exists()
    # the teacher may; a running run is not deleted even by the teacher
    run_actions.stop_run("copy-t", state=teacher)
    assert runs.stop_requested(path)
    with pytest.raises(runs.RunError, match="still going"):
        run_actions.delete_run("copy-t", state=teacher)
    run_actions.delete_run("copy-old", state=teacher)
    assert not done.exists()
    events = audit.read(root)
    kinds = [(e["actor"].split(":")[0], e["action"], e["outcome"]) for e in reversed(events)]
    assert ("student", "run.stop", "refused") in kinds
    assert ("teacher", "run.stop", "ok") in kinds and ("teacher", "run.delete", "ok") in kinds
    assert ("teacher", "sign_in", "ok") in kinds


def test_student_stops_only_their_own_run(server, tmp_path):
    root = tmp_path / "runs"
    a, b = {}, {}
    path = _fake_run(root, "copy-a", roles.owner_record(a))
    with pytest.raises(PermissionError):
        run_actions.stop_run("copy-a", state=b)
    assert not runs.stop_requested(path)
    run_actions.stop_run("copy-a", state=a)
    assert runs.stop_requested(path)


def test_audit_never_holds_the_token_and_is_bounded(server, tmp_path):
    root = tmp_path / "runs"
    s = {}
    sign_in.sign_in(TOKEN + "x", s)  # a near miss, as typed
    sign_in.sign_in(TOKEN, s)
    audit.record(root, "teacher", "note", f"target with {TOKEN} inside", secret=TOKEN,
                 token=TOKEN, extra={"api_token": TOKEN, "ok": 1})
    text = (root / audit.FILE).read_text()
    assert TOKEN not in text
    for line in text.splitlines():
        ev = json.loads(line)
        assert {"time", "actor", "action", "target", "outcome"} <= set(ev)
    for i in range(2000):
        audit.record(root, "teacher", "flood", "x" * 100, max_bytes=20_000, keep=2)
    files = sorted(p.name for p in root.iterdir() if p.name.startswith(audit.FILE))
    assert files == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"]
    assert sum((root / f).stat().st_size for f in files) <= 3 * 20_000
    assert audit.read(root, 5)[0]["action"] == "flood"
