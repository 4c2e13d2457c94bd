"""How a session becomes the teacher: the token's strength, the "Teacher sign-in" box, and the
slowing of wrong tries (issue 16). Who a session is and what it may do, once signed in or not,
is ui/serving/roles.py; this module only ever sets the role there (`roles.make_teacher`,
`roles.drop_teacher`), so the policy that every action reads does not carry one box's throttling.

Sign-in: the token is compared first, in constant time (hmac.compare_digest over SHA-256
digests, so not even its length leaks), and the right token signs in at once, whatever wrong tries
came before from the same session or address (issue 48, 4: a student at the teacher's desk, one
school NAT or a forged header must not lock the teacher out). The protection against guessing is
the token's length: at least MIN_TOKEN_CHARS characters (`token_problem`, checked by
`check_at_start`, which ui.shell.configure calls; the suggested command makes 32 random URL-safe
characters, some 190 bits), far beyond any number of tries. Wrong tries are still slowed, to keep
guessing loops and audit noise down: per session (after FREE_TRIES wrong tries, each further one
must wait BASE_S x 2^k seconds, up to CAP_S) and per client (`roles.client()`, since a refresh
starts a new session: after CLIENT_FREE_TRIES wrong tries from any of its sessions, the same
doubling, up to CLIENT_CAP_S). A wrong try made during such a wait is refused (`locked`) and does
not lengthen it. There is no server-wide lock (issue 22, A).

The clock is `roles.CLOCK` (monkeypatch it in tests: no sleeping).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, MutableMapping

import streamlit as st

from ui import i18n
from ui.serving import roles
from ui.strings import roles as strings

BACKOFF_KEY = "roles_backoff"
FREE_TRIES, BASE_S, CAP_S = 3, 1.0, 300.0
CLIENT_FREE_TRIES, CLIENT_CAP_S, CLIENT_FORGET_S = 10, 300.0, 900.0
MIN_TOKEN_CHARS = 20
STRONG_TOKEN_COMMAND = 'python -c "import secrets; print(secrets.token_urlsafe(24))"'


# -- the token's strength ---------------------------------------------------------------------------
def token_problem() -> str | None:
    """Why the configured token must not be served (too short to resist guessing), or None.
    The message never quotes the token or its length."""
    tok = roles.token()
    if tok is not None and len(tok) < MIN_TOKEN_CHARS:
        return (f"{roles.TOKEN_ENV} is shorter than {MIN_TOKEN_CHARS} characters: the server "
                f"refuses to serve until it is replaced. Make a strong one with: "
                f"{STRONG_TOKEN_COMMAND}")
    return None


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
            if len(_CLIENTS) >= roles.MAX_CLIENTS:  # forget the longest-quiet clients
                quiet = sorted(_CLIENTS, key=lambda k: _CLIENTS[k].last)
                for k in quiet[: roles.MAX_CLIENTS // 10]:
                    del _CLIENTS[k]
            b = _CLIENTS[client_] = Backoff(free=CLIENT_FREE_TRIES, cap=CLIENT_CAP_S,
                                            forget_s=CLIENT_FORGET_S)
        return b


def reset_global() -> None:
    """Forget every client's failures (tests; a restart does the same)."""
    with _CLIENTS_LOCK:
        _CLIENTS.clear()


def _state(state: MutableMapping | None) -> MutableMapping:
    return st.session_state if state is None else state


# -- sign-in ------------------------------------------------------------------------------------------
@dataclass
class SignIn:
    ok: bool
    wait_s: float = 0.0  # how long before the next try is looked at
    locked: bool = False  # refused without comparing (a try during the wait)


def sign_in(entered: str, state: MutableMapping | None = None) -> SignIn:
    """Try `entered` as the teacher token for this session (see the module docstring)."""
    s = _state(state)
    tok = roles.token()
    if tok is None:
        return SignIn(True)
    now = roles.CLOCK()
    mine = s.get(BACKOFF_KEY)
    if not isinstance(mine, Backoff):
        mine = s[BACKOFF_KEY] = Backoff()
    theirs = client_backoff(roles.client(s))
    if roles.token_matches(entered, tok):  # the right token signs in at once, whatever the backoff
        mine.succeed()
        roles.make_teacher(s, tok)
        roles.log("sign_in", "", "ok", state=s)
        return SignIn(True)
    wait = max(mine.wait(now), theirs.wait(now))
    if wait > 0:  # a wrong try during the wait: refused, and not counted (the wait stays)
        mine.refused += 1
        roles.log("sign_in", "", "refused", state=s, reason="locked", wait_s=round(wait, 1))
        return SignIn(False, wait, locked=True)
    wait = max(mine.fail(now), theirs.fail(now))
    roles.log("sign_in", "", "refused", state=s, reason="wrong token", wait_s=round(wait, 1))
    return SignIn(False, wait)


def sign_out(state: MutableMapping | None = None) -> None:
    s = _state(state)
    if roles.role(s) == "teacher":
        roles.log("sign_out", "", "ok", state=s)
    roles.drop_teacher(s)


# -- at start ------------------------------------------------------------------------------------
def check_at_start() -> None:
    """Called by every script run (ui.shell.configure), first thing: a token too short to resist
    guessing stops every page with the command that makes a strong one (and says so once on the
    console), so a class is never served behind a weak token."""
    roles.session_secret()  # every session has its id from its first run (the log's `session`)
    roles.client()  # and its client, read from the connection once
    problem = token_problem()
    if problem is None:
        if roles.token() is None:
            open_server_warning()
        return
    roles.console_once("short_token", problem)
    t = i18n.translator(strings)
    st.error(t("token_too_short", n=MIN_TOKEN_CHARS, env=roles.TOKEN_ENV))
    st.code(STRONG_TOKEN_COMMAND, language="bash")
    st.stop()


def open_server_warning() -> None:
    """No token (issue 22, H): every browser may start, stop, delete and upload. Said once on the
    console when the first page is served, and as a banner on every page a browser from another
    machine opens (its client is not "local")."""
    env = roles.TOKEN_ENV
    roles.console_once("open", f"no {env} is set: every browser that reaches this server may "
                               "start, stop and delete training runs and upload. To serve a class, "
                               f"start it with a token: {env}=$({STRONG_TOKEN_COMMAND})")
    if roles.client() == "local":
        return
    st.warning(i18n.translator(strings)("open_server", env=env))


# -- the sidebar box ------------------------------------------------------------------------------
def sidebar() -> None:
    """'Teacher sign-in' (when a token is set): a password box, or who you are and sign out."""
    if not roles.enabled():
        return
    t = i18n.translator(strings)
    sb = st.sidebar
    if roles.role() == "teacher":
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
