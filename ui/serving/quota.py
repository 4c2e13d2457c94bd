"""Per-session limits on a shared server (issue 16): expensive actions and uploads.

Expensive actions (a full head-finder sweep, an ablation over every head, a costly decode: a
wide beam, or a beam over a long text) go through token buckets: one per (person, action), and
one per action for all students together, so thirty browsers cannot keep the inference slots
(ui.models.GATE) busy between them. A person is ui.serving.roles.person: the browser's address, so
that a refresh or more tabs neither reset nor multiply one student's bucket (issue 22, E). A
bucket holds `capacity` tries and gains one back every `every_s` seconds; a refusal says when to
try again. Only students are limited: the teacher, and everyone on a server without a teacher
token (ui.serving.roles), never are. A distinct request (`key`) is charged once for the whole
server: a result already computed (and so cached) for anyone costs nothing, nor does redrawing one's
own. Limits: LIMITS, or $ATTENTION_LAB_RATE_<ACTION> as "capacity/every_s" and
$ATTENTION_LAB_RATE_ALL_<ACTION> for the shared bucket (ACTION upper-cased, "." as "_").

Uploads: a student session may store at most $ATTENTION_LAB_MAX_UPLOADS (10) files.

Page hook (one line): `if not quota.gate("heads.sweep", key=(...)): st.stop()`.
The clock is `CLOCK` (monkeypatch it in tests).
"""
from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, MutableMapping

import streamlit as st

from ui import i18n
from ui.serving import roles
from ui.strings import roles as strings

CLOCK = time.monotonic
# action: ((per session) capacity, every_s), ((all students) capacity, every_s)
LIMITS = {
    "heads.sweep": ((2, 60.0), (6, 10.0)),
    "ablate.all": ((2, 60.0), (6, 10.0)),
    "decode.wide_beam": ((4, 30.0), (12, 5.0)),
}
WHAT = {"heads.sweep": "what_sweep", "ablate.all": "what_ablate_all",
        "decode.wide_beam": "what_wide_beam"}
WIDE_BEAM = int(os.environ.get("ATTENTION_LAB_WIDE_BEAM", "8"))  # beams >= this count as wide
# A decode's cost: beam width x the text's length in units of DECODE_UNIT_CHARS (at least 1);
# at COSTLY_DECODE or more it is limited like a wide beam (issue 22, F: beam 7 over 2,000
# characters was not). A sentence of up to 200 characters at beam 4 costs 4 and is free.
DECODE_UNIT_CHARS, COSTLY_DECODE = 200, 8
MAX_BUCKETS = 10_000
MAX_DONE = 5_000
USED_KEY, UPLOADS_KEY = "quota_used", "quota_uploads"


class RateLimited(PermissionError):
    """Refused for now; `retry_after` seconds until the next try would be accepted."""

    def __init__(self, action: str, retry_after: float):
        self.action, self.retry_after = action, retry_after
        super().__init__(f"too many {action} requests: try again in {retry_after:.0f} s")


@dataclass
class Bucket:
    capacity: float
    every_s: float
    tokens: float
    stamp: float

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) / self.every_s)
            self.stamp = now

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0: one is)."""
        self._refill(now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) * self.every_s

    def take(self, now: float) -> None:
        self._refill(now)
        self.tokens -= 1


_LOCK = threading.Lock()
_BUCKETS: dict[tuple[str, str], Bucket] = {}
_DONE: "OrderedDict[tuple[str, str], None]" = OrderedDict()  # requests already paid for


def reset() -> None:
    with _LOCK:
        _BUCKETS.clear()
        _DONE.clear()


def _limits(action: str) -> tuple[tuple[float, float], tuple[float, float]]:
    mine, everyone = LIMITS[action]
    env = action.upper().replace(".", "_")
    out = []
    for default, var in ((mine, f"ATTENTION_LAB_RATE_{env}"),
                         (everyone, f"ATTENTION_LAB_RATE_ALL_{env}")):
        raw = os.environ.get(var, "")
        try:
            cap, every = (float(x) for x in raw.split("/"))
            out.append((max(1.0, cap), max(1e-3, every)))
        except ValueError:
            out.append(default)
    return out[0], out[1]


def _bucket(who: str, action: str, cap: float, every: float, now: float) -> Bucket:
    b = _BUCKETS.get((who, action))
    if b is None:
        if len(_BUCKETS) >= MAX_BUCKETS:  # forget the longest-idle buckets (they are full again)
            for k in sorted(_BUCKETS, key=lambda k: _BUCKETS[k].stamp)[: MAX_BUCKETS // 10]:
                del _BUCKETS[k]
        b = _BUCKETS[(who, action)] = Bucket(cap, every, cap, now)
    return b


def try_take(action: str, state: MutableMapping | None = None) -> float:
    """Take one try of `action` for this session: 0.0 when taken, else the seconds to wait
    (nothing taken). The teacher and an open server: always 0.0."""
    if action not in LIMITS:
        raise ValueError(f"action: one of {sorted(LIMITS)} (got {action!r})")
    if roles.role(state) != "student":
        return 0.0
    who = roles.person(state)
    (cap, every), (all_cap, all_every) = _limits(action)
    now = CLOCK()
    with _LOCK:
        mine = _bucket(who, action, cap, every, now)
        everyone = _bucket("*", action, all_cap, all_every, now)
        wait = max(mine.wait(now), everyone.wait(now))
        if wait > 0:
            return wait
        mine.take(now)
        everyone.take(now)
    return 0.0


def check(action: str, key: Any = None, state: MutableMapping | None = None) -> None:
    """RateLimited (audited) unless this session may run `action` now. With `key`, a request
    this session already made (same key) is free."""
    s = roles._state(state)
    used = s.setdefault(USED_KEY, {})
    seen = used.setdefault(action, [])
    done = (action, repr(key))
    if key is not None:
        if repr(key) in seen:
            return
        with _LOCK:
            if done in _DONE:  # computed for someone already: served from the cache
                _DONE.move_to_end(done)
                return
    wait = try_take(action, s)
    if wait > 0:
        roles.log("rate_limit", action, "refused", state=s, retry_after_s=round(wait, 1))
        raise RateLimited(action, wait)
    if key is not None:
        seen.append(repr(key))
        del seen[:-20]
        with _LOCK:
            _DONE[done] = None
            while len(_DONE) > MAX_DONE:
                _DONE.popitem(last=False)


def gate(action: str, key: Any = None) -> bool:
    """For a page: True when the action may run now; else a warning saying when to try again,
    and False (the page then skips the work or calls st.stop())."""
    try:
        check(action, key)
        return True
    except RateLimited as e:
        t = i18n.translator(strings)
        st.warning(t("rate_limited", what=t(WHAT[action]), s=max(1, round(e.retry_after))))
        return False


def wide_beam(beam: int, text: str = "") -> bool:
    """Whether decoding `text` with this beam width is costly enough to be rate-limited: a beam
    of WIDE_BEAM or more, or beam x (characters / DECODE_UNIT_CHARS) at COSTLY_DECODE or more."""
    beam = max(1, int(beam))
    units = max(1, -(-len(text or "") // DECODE_UNIT_CHARS))
    return beam >= WIDE_BEAM or beam * units >= COSTLY_DECODE


# -- uploads ---------------------------------------------------------------------------------------
def max_uploads() -> int:
    raw = os.environ.get("ATTENTION_LAB_MAX_UPLOADS", "10")
    return int(raw) if raw.isdigit() else 10


class UploadCapError(PermissionError):
    pass


def count_upload(target: str = "", state: MutableMapping | None = None) -> None:
    """Count one stored upload for this session; UploadCapError (audited) past the cap. Only
    students are capped."""
    s = roles._state(state)
    if roles.role(s) != "student":
        return
    n = int(s.get(UPLOADS_KEY, 0))
    if n >= max_uploads():
        roles.log("upload", target, "refused", state=s, reason="upload cap", cap=max_uploads())
        raise UploadCapError(f"this session has stored {n} uploads, the most allowed")
    s[UPLOADS_KEY] = n + 1
