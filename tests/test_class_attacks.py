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
