"""One admission gate for every costly computation: the inference slots, shared fairly by people.

Every forward pass the app makes (a new trace, a decode, the swap, a sweep, the atlas, the Step
page's layer, the positional tables) goes through `ui.models.run_inference`, and that waits here
for a slot. A plain semaphore served whoever came first, so one student with six tabs held both
slots while everyone queued behind them (issue 48: the Attention page went from 0.24 s to 75 s).
Here:

* a person holds at most PER_PERSON slots (default 1) however many tabs or sessions they open:
  their further requests queue behind their own;
* when a slot frees, the waiting person who has used the least computing time lately goes first
  (FIFO within a person). Use is charged in seconds of slot time, which is what a request's length
  costs (a 512-token decode is charged its 5 s, a short sentence its 50 ms), and decays with a
  half-life of HALF_LIFE_S, so a student who flooded a minute ago is not punished for ever;
* a request that waits longer than WAIT_S is refused (`Busy`), with its place given up, rather
  than holding its session's thread for ever.

Who a person is: `person_key()`, the client address ui.serving.roles.client gives (one per machine,
as the rate limits count), or the browser session where the address is unknown (the server's own
machine: a laptop's tabs are not one queue). Nested calls in one thread hold the slot they
already hold (a cached computation that runs another).

Whole page runs go through a second gate of the same kind (`PAGES`, held by ui/deeplink.run_page
around each page; ATTENTION_LAB_PAGE_SLOTS, default 3): a page is more than its forward passes
(building a 512-token heatmap's figure and sending it is Python work that holds the interpreter
lock), so six tabs of one student building figures at once starved everyone's pages of the
interpreter. With it a person's page runs take turns, and when pages queue, the person who used
the least page time lately goes first: a flooder's next page waits behind the class's.

Pure threading; the clock is a parameter (tests drive it). ui/models.py holds the app's gate.
"""
from __future__ import annotations

import contextlib
import itertools
import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator


class Busy(RuntimeError):
    """The gate gave no slot within the wait allowed (the page says so, in its language)."""

    def __init__(self, message: str, wait_s: float = 0.0):
        super().__init__(message)
        self.wait_s = wait_s


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


@dataclass
class _Ticket:
    person: str
    seq: int


class FairGate:
    """`slots` slots; at most `per_person` held by one person; least recent use served first."""

    def __init__(self, slots: int = 2, per_person: int = 1, half_life_s: float = 30.0,
                 wait_s: float = 120.0, clock: Callable[[], float] = time.monotonic):
        self.slots = max(1, int(slots))
        self.per_person = max(1, int(per_person))
        self.half_life_s = max(1e-3, float(half_life_s))
        self.wait_s = float(wait_s)
        self.clock = clock
        self._cond = threading.Condition()
        self._held: dict[str, int] = {}  # person -> slots held
        self._waiting: list[_Ticket] = []
        self._use: dict[str, tuple[float, float]] = {}  # person -> (seconds used, as of when)
        self._seq = itertools.count()
        self._local = threading.local()
        self.served = self.refused = 0

    # -- accounting -----------------------------------------------------------------------------
    def use(self, person: str, now: float | None = None) -> float:
        """The person's slot seconds, decayed to `now`."""
        now = self.clock() if now is None else now
        used, when = self._use.get(person, (0.0, now))
        return used * math.pow(0.5, max(0.0, now - when) / self.half_life_s)

    def _charge(self, person: str, seconds: float) -> None:
        now = self.clock()
        self._use[person] = (self.use(person, now) + max(0.0, seconds), now)
        if len(self._use) > 10_000:  # forget the longest-quiet people (their use has decayed)
            for k in sorted(self._use, key=lambda k: self._use[k][1])[:1_000]:
                if k not in self._held:
                    del self._use[k]

    def _next(self) -> _Ticket | None:
        """The ticket a free slot goes to now (call holding the condition)."""
        if sum(self._held.values()) >= self.slots:
            return None
        now = self.clock()
        eligible = [t for t in self._waiting if self._held.get(t.person, 0) < self.per_person]
        if not eligible:
            return None
        return min(eligible, key=lambda t: (self.use(t.person, now), t.seq))

    def state(self) -> dict:
        with self._cond:
            return {"held": dict(self._held), "waiting": [t.person for t in self._waiting],
                    "served": self.served, "refused": self.refused}

    # -- holding a slot -------------------------------------------------------------------------
    @contextlib.contextmanager
    def hold(self, person: str) -> Iterator[None]:
        """Wait for a slot for `person` (Busy after wait_s), hold it inside the block."""
        if getattr(self._local, "depth", 0):  # this thread holds a slot already
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        ticket = _Ticket(person, next(self._seq))
        deadline = time.monotonic() + self.wait_s
        with self._cond:
            self._waiting.append(ticket)
            while self._next() is not ticket:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._waiting.remove(ticket)
                    self.refused += 1
                    self._cond.notify_all()  # the next ticket may be eligible now
                    raise Busy(f"no inference slot within {self.wait_s:.0f} s", self.wait_s)
                self._cond.wait(timeout=min(left, 1.0))
            self._waiting.remove(ticket)
            self._held[person] = self._held.get(person, 0) + 1
            self.served += 1
            self._cond.notify_all()  # a second slot may be free for the next ticket
        start = self.clock()
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            with self._cond:
                self._charge(person, self.clock() - start)
                n = self._held.get(person, 1) - 1
                if n:
                    self._held[person] = n
                else:
                    self._held.pop(person, None)
                self._cond.notify_all()


def from_env() -> FairGate:
    """The app's gate: ATTENTION_LAB_INFER_SLOTS (2), ATTENTION_LAB_SLOTS_PER_PERSON (1),
    ATTENTION_LAB_USE_HALF_LIFE_S (30), ATTENTION_LAB_SLOT_WAIT_S (120)."""
    return FairGate(int(_env_number("ATTENTION_LAB_INFER_SLOTS", 2)),
                    int(_env_number("ATTENTION_LAB_SLOTS_PER_PERSON", 1)),
                    _env_number("ATTENTION_LAB_USE_HALF_LIFE_S", 30.0),
                    _env_number("ATTENTION_LAB_SLOT_WAIT_S", 120.0))


_PERSON: list[Callable[[], str]] = []  # who is asking: set by ui.serving.roles (which imports this)


def register_person(fn: Callable[[], str]) -> None:
    """Tell the gates who is asking (ui.serving.roles.gate_person: the client address, else the
    browser session). This module imports nothing of the app's, so that ui.models can hold a
    gate."""
    _PERSON[:] = [fn]


def person_key() -> str:
    """Who is asking, for the gates; "local" outside a script run (a command line, a test) and
    before ui.serving.roles registered its function."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        if get_script_run_ctx() is None or not _PERSON:
            return "local"
        return _PERSON[0]()
    except Exception:  # noqa: BLE001 - no session to read: one local caller
        return "local"


def pages_from_env() -> FairGate:
    """The gate of whole page runs: ATTENTION_LAB_PAGE_SLOTS (3) at once, one per person."""
    return FairGate(int(_env_number("ATTENTION_LAB_PAGE_SLOTS", 3)), 1,
                    _env_number("ATTENTION_LAB_USE_HALF_LIFE_S", 30.0),
                    _env_number("ATTENTION_LAB_SLOT_WAIT_S", 120.0))


PAGES = pages_from_env()
