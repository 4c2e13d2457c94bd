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

Sign-in: the token is compared in constant time (hmac.compare_digest over SHA-256 digests, so not
even its length leaks). Wrong tokens are slowed twice over: per session (after FREE_TRIES wrong
tries, each further try must wait BASE_S x 2^k seconds, up to CAP_S) and per client (`client()`:
the browser's address, since a refresh starts a new session; after CLIENT_FREE_TRIES wrong tries
from any of that client's sessions, the same doubling, up to CLIENT_CAP_S). A try made while its
session or its client is locked is refused without comparing. There is no server-wide lock: wrong
tokens from other clients never keep the teacher out (issue 22, A). A token shorter than
MIN_TOKEN_CHARS is refused at start (`token_problem`, checked by ui.shell.configure).
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
from ui import i18n, models
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


def _client_from_context() -> str | None:
    """The browser's address as this script run sees it, or None outside a script run.

    The connection's own address, unless it comes from this machine (st.context gives None
    then): a reverse proxy here (README: nginx) passes the browser's address as the last entry of
    X-Forwarded-For, or as X-Real-IP. Without either, every local connection is one client."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        if get_script_run_ctx() is None:
            return None
        ip = st.context.ip_address
        if not ip:
            headers = st.context.headers
            fwd = [x.strip() for x in (headers.get("X-Forwarded-For") or "").split(",")]
            fwd = [x for x in fwd if x]
            ip = fwd[-1] if fwd else (headers.get("X-Real-Ip") or "").strip()
    except Exception:  # noqa: BLE001 - no context (a bare script, a test): one local client
        return None
    return f"ip:{ip[:64]}" if isinstance(ip, str) and ip else "local"


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
    s[CLIENT_KEY] = found
    return found


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
    wait = max(mine.wait(now), theirs.wait(now))
    if wait > 0:
        mine.refused += 1
        log("sign_in", "", "refused", state=s, reason="locked", wait_s=round(wait, 1))
        return SignIn(False, wait, locked=True)
    if token_matches(entered, tok):
        mine.succeed()
        s[ROLE_KEY], s[AUTH_KEY] = "teacher", _digest(tok)
        log("sign_in", "", "ok", state=s)
        return SignIn(True)
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
