"""The admission gate (ui/serving/admission.py): a person holds at most their share of the inference
slots however many tabs they open, the least recent user is served first, a wait has an end, and
the app's forward passes all go through it (issue 48, 2)."""
from __future__ import annotations

import threading
import time

import pytest

from helpers import wait_until
from ui.serving.admission import Busy, FairGate


def _hold(gate, person, release: threading.Event, log: list, name: str):
    def run():
        try:
            with gate.hold(person):
                log.append(("in", name))
                release.wait(5)
                log.append(("out", name))
        except Busy:
            log.append(("busy", name))
    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th


def _until(cond, timeout=5.0):
    return wait_until(cond, timeout, every=0.01)


def test_six_tabs_of_one_person_hold_one_slot_and_another_person_gets_the_other():
    gate = FairGate(slots=2, per_person=1)
    log, release = [], threading.Event()
    flood = [_hold(gate, "ip:127.0.0.2", release, log, f"tab{i}") for i in range(6)]
    assert _until(lambda: len(gate.state()["waiting"]) == 5)
    assert gate.state()["held"] == {"ip:127.0.0.2": 1}  # one slot, five tabs queue behind it
    honest_in = threading.Event()

    def honest():
        with gate.hold("ip:127.0.0.3"):
            honest_in.set()

    th = threading.Thread(target=honest, daemon=True)
    th.start()
    assert honest_in.wait(2), "the honest student waited behind the flooder's tabs"
    release.set()
    for f in flood + [th]:
        f.join(5)
    assert [e for e in log if e[0] == "in"] and not any(e[0] == "busy" for e in log)


def test_the_least_recent_user_goes_first_and_one_persons_requests_stay_in_order():
    now = [0.0]
    gate = FairGate(slots=1, per_person=1, half_life_s=30.0, clock=lambda: now[0])
    with gate.hold("flooder"):  # the flooder used 10 s of slot time
        now[0] += 10.0
    assert gate.use("flooder") == pytest.approx(10.0)
    order, blocker = [], threading.Event()
    first = _hold(gate, "someone", blocker, [], "x")  # holds the only slot
    assert _until(lambda: gate.state()["held"] == {"someone": 1})
    threads = []
    for name, who in (("f1", "flooder"), ("f2", "flooder"), ("h1", "honest")):
        def run(name=name, who=who):
            with gate.hold(who):
                order.append(name)
        th = threading.Thread(target=run, daemon=True)
        th.start()
        threads.append(th)
        assert _until(lambda n=len(threads): len(gate.state()["waiting"]) == n)
    blocker.set()
    first.join(5)
    for th in threads:
        th.join(5)
    assert order == ["h1", "f1", "f2"]  # the honest student first, the flooder's in their order


def test_use_decays_with_its_half_life():
    now = [0.0]
    gate = FairGate(half_life_s=30.0, clock=lambda: now[0])
    with gate.hold("a"):
        now[0] += 8.0
    now[0] += 30.0
    assert gate.use("a") == pytest.approx(4.0)


def test_a_wait_has_an_end():
    gate = FairGate(slots=1, per_person=1, wait_s=0.3)
    release, log = threading.Event(), []
    th = _hold(gate, "a", release, log, "first")
    assert _until(lambda: gate.state()["held"] == {"a": 1})
    t0 = time.monotonic()
    with pytest.raises(Busy):
        with gate.hold("b"):
            pass
    assert 0.25 < time.monotonic() - t0 < 3
    assert gate.state()["waiting"] == []  # its place was given up
    release.set()
    th.join(5)
    with gate.hold("b"):  # and the gate still serves
        pass


def test_nested_calls_in_one_thread_hold_the_slot_they_have():
    gate = FairGate(slots=1, per_person=1, wait_s=1.0)
    with gate.hold("a"):
        with gate.hold("a"):  # a cached computation that runs another
            assert gate.state()["held"] == {"a": 1}
    assert gate.state()["held"] == {}


def test_every_forward_pass_of_the_app_goes_through_the_gate(monkeypatch):
    from ui import models

    seen = []
    real = models.GATE.hold

    def spy(person):
        seen.append(person)
        return real(person)

    monkeypatch.setattr(models.GATE, "hold", spy)
    assert models.run_inference(lambda x: x + 1, 1) == 2
    assert seen == ["local"]  # outside a script run: one local caller


def test_page_runs_go_through_a_gate_of_their_own():
    from ui import deeplink
    from ui.serving import admission

    seen = []

    class Page:
        def run(self):
            seen.append(admission.PAGES.state()["held"])

    deeplink.run_page(Page())
    assert seen == [{"local": 1}] and admission.PAGES.state()["held"] == {}
