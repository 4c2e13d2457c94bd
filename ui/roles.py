"""Who may do what on a shared server: the teacher and the students (issue 16).

With ATTENTION_LAB_TEACHER_TOKEN set (in the environment, or as a key of .streamlit/secrets.toml),
a browser session becomes the teacher by entering the token once in the sidebar's "Teacher
sign-in" box; every other session is a student. With no token set, every session is "open" and may
do everything, as on one person's laptop.

    role       "open" | "teacher" | "student"
    actor      what the audit log and the owner files record: "open", "teacher", or
               "student:<12 hex>" (a hash of the session's random secret, never the secret)

The checks live here, in `require(action, owner)`, called by the functions that act (runs_ui's
start/stop/resume/delete, the uploads), not only by the page hiding a button: a student who forges
a request (a ?run= naming the teacher's run, a widget the page never drew) meets the same
PermissionError. Artefacts without an owner record (made before roles existed) count as the
teacher's.

Sign-in: the token is compared first, in constant time (hmac.compare_digest over SHA-256
digests, so not even its length leaks), and the right token signs in at once, whatever wrong tries
came before from the same session or address (issue 48, 4: a student at the teacher's desk, one
school NAT or a forged header must not lock the teacher out). The protection against guessing is
the token's length: at least MIN_TOKEN_CHARS characters (`token_problem`, checked by
ui.shell.configure; the suggested command makes 32 random URL-safe characters, some 190 bits), far
beyond any number of tries. Wrong tries are still slowed, to keep guessing loops and audit noise
down: per session (after FREE_TRIES wrong tries, each further one must wait BASE_S x 2^k seconds,
up to CAP_S) and per client (`client()`, since a refresh starts a new session: after
CLIENT_FREE_TRIES wrong tries from any of its sessions, the same doubling, up to CLIENT_CAP_S). A
wrong try made during such a wait is refused (`locked`) and does not lengthen it. There is no
server-wide lock (issue 22, A).

The client is the connection's own address, from the socket; forwarded headers (X-Forwarded-For,
X-Real-Ip) are read only from the proxies the teacher trusts, as valid IP addresses
(ui.client_address; ATTENTION_LAB_TRUSTED_PROXIES, default 127.0.0.1 and ::1). A header that was
ignored is written to the audit log once per session (`client.forwarded`, refused).
The clock is `CLOCK` (monkeypatch it in tests: no sleeping).
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, MutableMapping

import streamlit as st

from transformer.ops import audit
from ui import admission, client_address, i18n, models
from ui.strings import roles as strings

TOKEN_ENV = "ATTENTION_LAB_TEACHER_TOKEN"
ROLE_KEY, SID_KEY, AUTH_KEY, BACKOFF_KEY = "roles_role", "roles_sid", "roles_auth", "roles_backoff"
CLIENT_KEY = "roles_client"
FREE_TRIES, BASE_S, CAP_S = 3, 1.0, 300.0
CLIENT_FREE_TRIES, CLIENT_CAP_S, CLIENT_FORGET_S = 10, 300.0, 900.0
MAX_CLIENTS = 10_000
MIN_TOKEN_CHARS = 20
STRONG_TOKEN_COMMAND = 'python -c "import secrets; print(secrets.token_urlsafe(24))"'
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


def token_problem() -> str | None:
    """Why the configured token must not be served (too short to resist guessing), or None.
    The message never quotes the token or its length."""
    tok = token()
    if tok is not None and len(tok) < MIN_TOKEN_CHARS:
        return (f"{TOKEN_ENV} is shorter than {MIN_TOKEN_CHARS} characters: the server refuses "
                f"to serve until it is replaced. Make a strong one with: {STRONG_TOKEN_COMMAND}")
    return None


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def token_matches(entered: str, expected: str) -> bool:
    """Constant-time comparison (of digests: equal lengths whatever was typed)."""
    return hmac.compare_digest(_digest(entered or ""), _digest(expected))


# -- backoff ---------------------------------------------------------------------------------------
@dataclass
class Backoff:
    """Exponential backoff on failures: `free` failures cost nothing, then the k-th further one
    locks for base x 2^k seconds (at most `cap`). `forget_s`: failures older than this (counted
    from the last one) are forgotten."""
    free: int = FREE_TRIES
    base: float = BASE_S
    cap: float = CAP_S
    forget_s: float | None = None
    failures: int = 0
    until: float = 0.0
    last: float = 0.0
    refused: int = 0  # tries refused while locked
    lock: Any = field(default_factory=threading.Lock, repr=False, compare=False)

    def wait(self, now: float) -> float:
        with self.lock:
            if self.forget_s is not None and self.failures and now - self.last > self.forget_s:
                self.failures, self.until = 0, 0.0
            return max(0.0, self.until - now)

    def fail(self, now: float) -> float:
        """Record a failure; returns the seconds the next try must wait."""
        with self.lock:
            self.failures += 1
            self.last = now
            extra = self.failures - self.free
            if extra >= 0:
                self.until = now + min(self.cap, self.base * (2 ** extra))
            return max(0.0, self.until - now)

    def succeed(self) -> None:
        with self.lock:
            self.failures, self.until = 0, 0.0


_CLIENTS: dict[str, Backoff] = {}
_CLIENTS_LOCK = threading.Lock()


def client_backoff(client_: str) -> Backoff:
    """The wrong-token backoff of one client (all of its sessions together)."""
    with _CLIENTS_LOCK:
        b = _CLIENTS.get(client_)
        if b is None:
            if len(_CLIENTS) >= MAX_CLIENTS:  # forget the longest-quiet clients
                for k in sorted(_CLIENTS, key=lambda k: _CLIENTS[k].last)[: MAX_CLIENTS // 10]:
                    del _CLIENTS[k]
            b = _CLIENTS[client_] = Backoff(free=CLIENT_FREE_TRIES, cap=CLIENT_CAP_S,
                                            forget_s=CLIENT_FORGET_S)
        return b


def reset_global() -> None:
    """Forget every client's failures (tests; a restart does the same)."""
    with _CLIENTS_LOCK:
        _CLIENTS.clear()


# -- the session ------------------------------------------------------------------------------------
def _state(state: MutableMapping | None) -> MutableMapping:
    return st.session_state if state is None else state


def session_secret(state: MutableMapping | None = None) -> str:
    s = _state(state)
    if not s.get(SID_KEY):
        s[SID_KEY] = secrets.token_hex(16)
    return s[SID_KEY]


def trusted_proxies() -> client_address.Trusted:
    """The proxies whose forwarded headers are believed (ui.client_address): the environment's
    ATTENTION_LAB_TRUSTED_PROXIES / ATTENTION_LAB_TRUST_X_REAL_IP, else the same keys in
    .streamlit/secrets.toml, else 127.0.0.1 and ::1. A malformed entry is said once on the
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
        _console_once("trusted:" + problem, problem)
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
    and only as a valid IP address (ui.client_address.resolve). "local": the server's own
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
                _console_once("no_peer", "the connection's own address cannot be read, and a "
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
    """Who this script run is, for the admission gates (ui/admission.py): the client address
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
    """What an owner file records for what this session creates (`person`: ui.roles.person)."""
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
    carries the session's tag (`session`) and its client (`client`, ui.roles.client); refusals
    by anyone but the teacher are bounded per client and in all (AUDIT_*_RATE), and the next
    written one says how many were left out (`suppressed`)."""
    extra = {"session": session_tag(state), "client": client(state), **extra}
    if outcome == "refused" and role(state) != "teacher":
        ok, suppressed = _audit_allowed(str(models.runs_dir()), extra["client"])
        if not ok:
            return
        if suppressed:
            extra["suppressed"] = suppressed
    try:
        audit.record(models.runs_dir(), actor(state), action, target, outcome, secret=token(),
                     **extra)
    except OSError:
        pass


# -- sign-in ------------------------------------------------------------------------------------------
@dataclass
class SignIn:
    ok: bool
    wait_s: float = 0.0  # how long before the next try is looked at
    locked: bool = False  # refused without comparing (a try during the wait)


def sign_in(entered: str, state: MutableMapping | None = None) -> SignIn:
    """Try `entered` as the teacher token for this session (see the module docstring)."""
    s = _state(state)
    tok = token()
    if tok is None:
        return SignIn(True)
    now = CLOCK()
    mine = s.get(BACKOFF_KEY)
    if not isinstance(mine, Backoff):
        mine = s[BACKOFF_KEY] = Backoff()
    theirs = client_backoff(client(s))
    if token_matches(entered, tok):  # the right token signs in at once, whatever the backoff
        mine.succeed()
        s[ROLE_KEY], s[AUTH_KEY] = "teacher", _digest(tok)
        log("sign_in", "", "ok", state=s)
        return SignIn(True)
    wait = max(mine.wait(now), theirs.wait(now))
    if wait > 0:  # a wrong try during the wait: refused, and not counted (the wait stays)
        mine.refused += 1
        log("sign_in", "", "refused", state=s, reason="locked", wait_s=round(wait, 1))
        return SignIn(False, wait, locked=True)
    wait = max(mine.fail(now), theirs.fail(now))
    log("sign_in", "", "refused", state=s, reason="wrong token", wait_s=round(wait, 1))
    return SignIn(False, wait)


def sign_out(state: MutableMapping | None = None) -> None:
    s = _state(state)
    if role(s) == "teacher":
        log("sign_out", "", "ok", state=s)
    s.pop(ROLE_KEY, None)
    s.pop(AUTH_KEY, None)


# -- at start ------------------------------------------------------------------------------------
_WARNED: set[str] = set()


def _console_once(key: str, text: str) -> None:
    """Print a warning to the server's console once per process (the person who started it)."""
    if key in _WARNED:
        return
    _WARNED.add(key)

    print(f"Attention Lab: {text}", file=sys.stderr, flush=True)


def check_at_start() -> None:
    """Called by every script run (ui.shell.configure), first thing: a token too short to resist
    guessing stops every page with the command that makes a strong one (and says so once on the
    console), so a class is never served behind a weak token."""
    session_secret()  # every session has its id from its first run (the audit log's `session`)
    client()  # and its client, read from the connection once
    problem = token_problem()
    if problem is None:
        if token() is None:
            open_server_warning()
        return
    _console_once("short_token", problem)
    t = i18n.translator(strings)
    st.error(t("token_too_short", n=MIN_TOKEN_CHARS, env=TOKEN_ENV))
    st.code(STRONG_TOKEN_COMMAND, language="bash")
    st.stop()


def open_server_warning() -> None:
    """No token (issue 22, H): every browser may start, stop, delete and upload. Said once on the
    console when the first page is served, and as a banner on every page a browser from another
    machine opens (its client is not "local")."""
    _console_once("open", f"no {TOKEN_ENV} is set: every browser that reaches this server may "
                          "start, stop and delete training runs and upload. To serve a class, "
                          f"start it with a token: {TOKEN_ENV}=$({STRONG_TOKEN_COMMAND})")
    if client() == "local":
        return
    st.warning(i18n.translator(strings)("open_server", env=TOKEN_ENV))


# -- the sidebar box ------------------------------------------------------------------------------
def sidebar() -> None:
    """'Teacher sign-in' (when a token is set): a password box, or who you are and sign out."""
    if not enabled():
        return
    t = i18n.translator(strings)
    sb = st.sidebar
    if role() == "teacher":
        sb.caption(t("signed_in"))
        sb.button(t("sign_out"), key="roles_sign_out", on_click=sign_out)
        return
    with sb.expander(t("sign_in_title")):
        with st.form("roles_sign_in_form", clear_on_submit=True, border=False):
            entered = st.text_input(t("token"), type="password", key="roles_token_input",
                                    help=t("token_help"))
            go = st.form_submit_button(t("sign_in"))
        if go:
            res = sign_in(entered or "")
            if res.ok:
                st.rerun()
            elif res.locked:
                st.error(t("locked", s=max(1, round(res.wait_s))))
            elif res.wait_s > 0:
                st.error(t("wrong_wait", s=max(1, round(res.wait_s))))
            else:
                st.error(t("wrong"))
