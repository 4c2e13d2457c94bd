"""Who may do what on a shared server: the teacher and the students (issue 16).

With ATTENTION_LAB_TEACHER_TOKEN set (in the environment, or as a key of .streamlit/secrets.toml),
a browser session becomes the teacher by entering the token once in the sidebar's "Teacher
sign-in" box (ui/serving/sign_in.py); every other session is a student. With no token set, every
session is "open" and may do everything, as on one person's laptop.

    role       "open" | "teacher" | "student"
    actor      what the audit log and the owner files record: "open", "teacher", or
               "student:<12 hex>" (a hash of the session's random secret, never the secret)

The checks live here, in `require(action, owner)`, called by the functions that act (run_actions'
start/stop/resume/delete, the uploads), not only by the page hiding a button: a student who forges
a request (a ?run= naming the teacher's run, a widget the page never drew) meets the same
PermissionError. Artefacts without an owner record (made before roles existed) count as the
teacher's. Every act, and every refusal, goes to the audit log (`log`).

The client is the connection's own address, from the socket; forwarded headers (X-Forwarded-For,
X-Real-Ip) are read only from the proxies the teacher trusts, as valid IP addresses
(ui.serving.client_address; ATTENTION_LAB_TRUSTED_PROXIES, default 127.0.0.1 and ::1). A header
that was ignored is written to the audit log once per session (`client.forwarded`, refused).

Why two modules: this one is what every action reads (who the session is, what it may do, the
log); ui/serving/sign_in.py is how a session becomes the teacher (the token's strength, the
sign-in box and the slowing of wrong tries), one box's business, which only ever sets the role
here (`make_teacher`, `drop_teacher`). Both read one clock, `CLOCK` (monkeypatch it in tests: no
sleeping).
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sys
import threading
import time
from typing import MutableMapping

import streamlit as st

from transformer.ops import audit
from ui.serving import admission, client_address, places

TOKEN_ENV = "ATTENTION_LAB_TEACHER_TOKEN"
ROLE_KEY, SID_KEY, AUTH_KEY = "roles_role", "roles_sid", "roles_auth"
CLIENT_KEY = "roles_client"
MAX_CLIENTS = 10_000
CLOCK = time.monotonic

# What a student may do to something owned by someone (None: nobody may, owner or not).
STUDENT_OWN = {"run.stop", "run.resume", "run.delete"}
ACTIONS = {"run.start", "run.stop", "run.resume", "run.delete", "upload.checkpoint",
           "upload.corpus", "audit.read", "classroom.settings", "sandbox.start"}


# -- the token --------------------------------------------------------------------------------------
def token() -> str | None:
    """The teacher token: $ATTENTION_LAB_TEACHER_TOKEN, else the same key in st.secrets (read
    only when a secrets file exists: without one Streamlit would raise). None when unset."""
    value = os.environ.get(TOKEN_ENV)
    if not value:
        try:
            if st.secrets.load_if_toml_exists():
                value = st.secrets.get(TOKEN_ENV)
        except Exception:  # noqa: BLE001 - an unreadable secrets file: no token, stay open
            value = None
    value = str(value).strip() if value else ""
    return value or None


def enabled() -> bool:
    return token() is not None


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def token_matches(entered: str, expected: str) -> bool:
    """Constant-time comparison (of digests: equal lengths whatever was typed)."""
    return hmac.compare_digest(_digest(entered or ""), _digest(expected))


def make_teacher(s: MutableMapping, tok: str) -> None:
    """Make the session the teacher's, bound to the token `tok` it signed in with (see `role`)."""
    s[ROLE_KEY], s[AUTH_KEY] = "teacher", _digest(tok)


def drop_teacher(s: MutableMapping) -> None:
    """The session is no longer the teacher's (a student again, on a server with a token)."""
    s.pop(ROLE_KEY, None)
    s.pop(AUTH_KEY, None)


# -- the session ------------------------------------------------------------------------------------
def _state(state: MutableMapping | None) -> MutableMapping:
    return st.session_state if state is None else state


def session_secret(state: MutableMapping | None = None) -> str:
    s = _state(state)
    if not s.get(SID_KEY):
        s[SID_KEY] = secrets.token_hex(16)
    return s[SID_KEY]


def trusted_proxies() -> client_address.Trusted:
    """The proxies whose forwarded headers are believed (ui.serving.client_address): the
    environment's ATTENTION_LAB_TRUSTED_PROXIES / ATTENTION_LAB_TRUST_X_REAL_IP, else the same keys
    in .streamlit/secrets.toml, else 127.0.0.1 and ::1. A malformed entry is said once on the
    console and ignored."""
    env = {k: os.environ[k] for k in (client_address.TRUSTED_ENV, client_address.REAL_IP_ENV)
           if k in os.environ}
    if len(env) < 2:
        try:
            if st.secrets.load_if_toml_exists():
                for k in (client_address.TRUSTED_ENV, client_address.REAL_IP_ENV):
                    if k not in env and st.secrets.get(k) is not None:
                        env[k] = str(st.secrets.get(k))
        except Exception:  # noqa: BLE001 - an unreadable secrets file: the defaults
            pass
    got = client_address.from_env(env)
    for problem in got.problems:
        console_once("trusted:" + problem, problem)
    return got


def _socket_peer(session_client) -> str | None:
    """The TCP peer of this session's websocket, as the kernel gave it. Streamlit's own
    `remote_ip` is not it: its server (uvicorn, with proxy headers on) replaces the peer with the
    last X-Forwarded-For entry on connections from 127.0.0.1 and ::1, whatever that entry is."""
    ws = getattr(session_client, "_websocket", None)
    proto = getattr(getattr(ws, "_receive", None), "__self__", None)
    transport = getattr(proto, "transport", None)
    try:
        peer = transport.get_extra_info("peername") if transport is not None else None
    except Exception:  # noqa: BLE001 - a closed transport
        peer = None
    if isinstance(peer, (tuple, list)) and peer and isinstance(peer[0], str):
        return peer[0]
    return None


def _client_from_context() -> tuple[str, tuple[str, ...]] | None:
    """(the client of this script run's connection, what was ignored in telling it), or None
    outside a script run (and for a session with no connection, as under AppTest: "local").

    The client is the socket's peer; a forwarded header is believed only from a trusted proxy
    and only as a valid IP address (ui.serving.client_address.resolve). "local": the server's own
    machine (127.0.0.1, ::1, ::ffff:127.0.0.1, straight or through a trusted proxy) with nothing
    ignored; otherwise "ip:ADDRESS" (a header ignored on a loopback connection gives
    "ip:127.0.0.1": one client for every such session, not one per session)."""
    try:
        from streamlit import runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        if ctx is None:
            return None
        session_client = runtime.get_instance().get_client(ctx.session_id)
        context = getattr(session_client, "client_context", None)
        if session_client is None or context is None:
            return "local", ()
        headers = [h for h in (context.headers or ()) if isinstance(h, tuple)]
        peer = _socket_peer(session_client)
        if peer is None:  # not a uvicorn websocket (another Streamlit server): its remote_ip
            peer = context.remote_ip if isinstance(context.remote_ip, str) else None
            forwarded = client_address.resolve(peer, headers, client_address.parse_trusted(""))
            if peer is None and not forwarded.forwarded:  # no address at all (AppTest): local
                return "local", ()
            if forwarded.forwarded:
                console_once("no_peer", "the connection's own address cannot be read, and a "
                                         "forwarded header may have replaced it: such sessions "
                                         "count as one client (ip:unknown)")
                return "ip:unknown", ("the connection's own address cannot be read",)
        got = client_address.resolve(peer, headers, trusted_proxies())
    except Exception:  # noqa: BLE001 - no context (a bare script, a test): one local client
        return None
    return client_name(got), got.problems


def client_name(got: client_address.Resolved) -> str:
    """What `client()` calls a resolved address: "local" for the server's own machine (127.0.0.1,
    ::1, ::ffff:127.0.0.1) when nothing was ignored, else "ip:ADDRESS" ("ip:unknown": no
    address)."""
    if got.address is None:
        return "ip:unknown"
    if client_address.is_local(got.address) and not got.problems:
        return "local"
    return f"ip:{got.address}"


def client(state: MutableMapping | None = None) -> str:
    """Who is at the other end of this session, across refreshes and tabs: "ip:ADDRESS" or
    "local" (see _client_from_context). Remembered in the session the first time it is known."""
    s = _state(state)
    got = s.get(CLIENT_KEY)
    if isinstance(got, str) and got:
        return got
    found = _client_from_context()
    if found is None:
        return "local"
    s[CLIENT_KEY], problems = found
    if problems:  # once per session (the client is read once); bounded as refusals are
        log("client.forwarded", "", "refused", state=s, reason="; ".join(problems)[:500])
    return found[0]


def gate_person() -> str:
    """Who this script run is, for the admission gates (ui/serving/admission.py): the client address
    when it is known, else the browser session (a laptop's tabs, or a proxy that names no
    browser, are not one queue)."""
    who = client()
    return who if who != "local" else "session:" + session_tag()


admission.register_person(gate_person)


def person(state: MutableMapping | None = None) -> str:
    """One identity per person, not per tab (issue 22, E/F/G): the client ("ip:ADDRESS"), which a
    refresh or a new tab keeps; where the client is unknown ("local": the server's own machine,
    or a reverse proxy that passes no X-Forwarded-For), the session's actor as before, so that a
    whole class behind such a proxy is not one person."""
    c = client(state)
    return c if c != "local" else actor(state)


def session_tag(state: MutableMapping | None = None) -> str:
    """12 hex digits of a hash of the session's secret: tells sessions apart in the audit log
    (the secret itself is never written)."""
    return hashlib.sha256(session_secret(state).encode()).hexdigest()[:12]


def role(state: MutableMapping | None = None) -> str:
    tok = token()
    if tok is None:
        return "open"
    s = _state(state)
    # The role holds only while the token it was granted with is still the token.
    if s.get(ROLE_KEY) == "teacher" and hmac.compare_digest(s.get(AUTH_KEY) or b"",
                                                            _digest(tok)):
        return "teacher"
    return "student"


def actor(state: MutableMapping | None = None) -> str:
    r = role(state)
    if r != "student":
        return r
    return "student:" + session_tag(state)


def owner_record(state: MutableMapping | None = None) -> dict:
    """What an owner file records for what this session creates (`person`: `person` above)."""
    return {"actor": actor(state), "role": role(state), "person": person(state)}


def is_teachers(owner: dict | None) -> bool:
    """Owned by the teacher: no owner record, or one not made by a student."""
    return not isinstance(owner, dict) or owner.get("role") != "student"


def allowed(action: str, role_: str, actor_: str, owner: dict | None = None,
            sandbox: bool = False) -> bool:
    """The policy, as a pure function. `owner`: the owner record of the run/upload acted on."""
    if action not in ACTIONS:
        raise ValueError(f"action: one of {sorted(ACTIONS)} (got {action!r})")
    if role_ in ("open", "teacher"):
        return True
    if action in STUDENT_OWN:
        return (not is_teachers(owner)) and owner.get("actor") == actor_
    if action == "sandbox.start":
        return sandbox
    return False


def can(action: str, owner: dict | None = None, *, sandbox: bool = False,
        state: MutableMapping | None = None) -> bool:
    return allowed(action, role(state), actor(state), owner, sandbox)


MESSAGES = {
    "run.start": "only the teacher starts training runs on this server",
    "sandbox.start": "student runs are switched off by the teacher",
    "run.stop": "only the teacher, or the student who started it, may stop this run",
    "run.resume": "only the teacher, or the student who started it, may resume this run",
    "run.delete": "only the teacher, or the student who started it, may delete this run",
    "upload.checkpoint": "only the teacher uploads checkpoints for everyone",
    "upload.corpus": "only the teacher uploads corpora on this server",
    "audit.read": "only the teacher reads the audit log",
    "classroom.settings": "only the teacher changes the classroom settings",
}


def require(action: str, owner: dict | None = None, target: str = "", *, sandbox: bool = False,
            state: MutableMapping | None = None) -> None:
    """PermissionError (with a one-line reason) unless this session may do `action` to the thing
    owned by `owner`; a refusal is written to the audit log."""
    if can(action, owner, sandbox=sandbox, state=state):
        return
    log(action, target, "refused", state=state, reason=MESSAGES[action])
    raise PermissionError(MESSAGES[action])


# Refusals anyone but the teacher can cause, as fast as they like: bounded per client and for
# all clients together (issue 22, M), so that a flood cannot rotate the log's history away.
# (capacity, seconds per line): per client 20 then one per 10 s; all clients 200 then one per 2 s
# (at most about 2,000 refusal lines, some 500 kB, an hour: the ~4 MB history lasts a school day).
AUDIT_CLIENT_RATE, AUDIT_ALL_RATE = (20, 10.0), (200, 2.0)
_AUDIT_LOCK = threading.Lock()
_AUDIT_BUCKETS: dict[str, list] = {}  # key -> [tokens, stamp, suppressed]


def _audit_take(key: str, rate: tuple[float, float], now: float) -> list | None:
    """Take one line from the bucket `key`; None when it is empty (call under _AUDIT_LOCK)."""
    b = _AUDIT_BUCKETS.get(key)
    if b is None:
        if len(_AUDIT_BUCKETS) >= MAX_CLIENTS:
            for k in sorted(_AUDIT_BUCKETS, key=lambda k: _AUDIT_BUCKETS[k][1])[: MAX_CLIENTS // 10]:
                del _AUDIT_BUCKETS[k]
        b = _AUDIT_BUCKETS[key] = [float(rate[0]), now, 0]
    b[0] = min(float(rate[0]), b[0] + max(0.0, now - b[1]) / rate[1])
    b[1] = now
    if b[0] < 1:
        return None
    return b


def _audit_allowed(log_dir: str, client_: str) -> tuple[bool, int]:
    """(write this refusal to the log in `log_dir`?, lines of this client suppressed since its
    last written one)."""
    now = CLOCK()
    with _AUDIT_LOCK:
        mine = _audit_take(f"{log_dir}|client:{client_}", AUDIT_CLIENT_RATE, now)
        everyone = _audit_take(f"{log_dir}|*", AUDIT_ALL_RATE, now) if mine is not None else None
        if mine is None or everyone is None:
            b = _AUDIT_BUCKETS.get(f"{log_dir}|client:{client_}")
            if b is not None:
                b[2] += 1
            return False, 0
        mine[0] -= 1
        everyone[0] -= 1
        suppressed, mine[2] = mine[2], 0
        return True, suppressed


def reset_audit_limits() -> None:
    with _AUDIT_LOCK:
        _AUDIT_BUCKETS.clear()


def log(action: str, target: str = "", outcome: str = "ok", *,
        state: MutableMapping | None = None, **extra) -> None:
    """An audit event by this session (runs/audit.jsonl; never fails the action). Every event
    carries the session's tag (`session`) and its client (`client`, ui.serving.roles.client);
    refusals by anyone but the teacher are bounded per client and in all (AUDIT_*_RATE), and the
    next written one says how many were left out (`suppressed`)."""
    extra = {"session": session_tag(state), "client": client(state), **extra}
    if outcome == "refused" and role(state) != "teacher":
        ok, suppressed = _audit_allowed(str(places.runs_dir()), extra["client"])
        if not ok:
            return
        if suppressed:
            extra["suppressed"] = suppressed
    try:
        audit.record(places.runs_dir(), actor(state), action, target, outcome, secret=token(),
                     **extra)
    except OSError:
        pass


# -- the console ----------------------------------------------------------------------------------
_WARNED: set[str] = set()


def console_once(key: str, text: str) -> None:
    """Print a warning to the server's console once per process (the person who started it)."""
    if key in _WARNED:
        return
    _WARNED.add(key)

    print(f"Attention Lab: {text}", file=sys.stderr, flush=True)
