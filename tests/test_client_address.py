"""ui.serving.client_address (issue 48, item 3): the client is the socket's peer; forwarded headers
only from trusted proxies, only as valid IP addresses, rightmost untrusted hop first; X-Real-Ip only
when switched on; an IPv4-mapped IPv6 address is its IPv4 address."""
from __future__ import annotations

import ipaddress

import pytest

from ui.serving import client_address as ca

IP = ipaddress.ip_address
DEFAULT = ca.parse_trusted()


def _r(peer, trusted=DEFAULT, real_ip=None, **headers):
    hs = [(k.replace("_", "-"), v) for k, v in headers.items()]
    return ca.resolve(peer, hs, trusted, real_ip)


@pytest.mark.parametrize("text, want", [
    ("10.0.0.5", "10.0.0.5"), (" 10.0.0.5 ", "10.0.0.5"), ("::1", "::1"),
    ("::ffff:127.0.0.1", "127.0.0.1"), ("::FFFF:10.1.2.3", "10.1.2.3"),
    ("2001:db8::1", "2001:db8::1"), ("2001:DB8:0:0::1", "2001:db8::1"),
    ("teacher", None), ("", None), ("   ", None), (None, None), (42, None),
    ("10.0.0.256", None), ("10.0.0.5:8080", None), ("[2001:db8::1]", None),
    ("fe80::1%eth0", None), ("1" * 100, None), ("10.0.0.5, 10.0.0.6", None),
])
def test_normalise(text, want):
    got = ca.normalise(text)
    assert (str(got) if got is not None else None) == want


def test_trusted_setting_addresses_networks_and_problems():
    t = ca.parse_trusted("10.0.0.2, 192.168.1.0/24,2001:db8::/32, ::ffff:172.16.0.0/108, nginx, "
                         "10.0.0.0/33,")
    for ip in ("10.0.0.2", "192.168.1.77", "2001:db8::5", "172.16.3.4", "::ffff:192.168.1.9"):
        assert ca.normalise(ip) in t, ip
    for ip in ("10.0.0.3", "192.168.2.1", "127.0.0.1", "::1", "2001:db9::1"):
        assert ca.normalise(ip) not in t, ip
    assert len(t.problems) == 2 and "'nginx'" in t.problems[0] and "10.0.0.0/33" in t.problems[1]
    assert all(ca.TRUSTED_ENV in p for p in t.problems)
    assert None not in t
    # the default: the server's own machine, as uvicorn's --forwarded-allow-ips
    assert IP("127.0.0.1") in DEFAULT and IP("::1") in DEFAULT and IP("127.0.0.2") not in DEFAULT
    assert not DEFAULT.real_ip and not DEFAULT.problems
    for nobody in ("", "none", " NONE "):
        assert IP("127.0.0.1") not in ca.parse_trusted(nobody)
    env = ca.from_env({ca.TRUSTED_ENV: "10.0.0.2", ca.REAL_IP_ENV: "1"})
    assert IP("10.0.0.2") in env and IP("127.0.0.1") not in env and env.real_ip
    assert ca.from_env({}) == DEFAULT and not ca.from_env({ca.REAL_IP_ENV: "0"}).real_ip


def test_an_untrusted_peer_is_the_client_whatever_it_says():
    for headers in ({"X_Forwarded_For": "teacher"}, {"X_Forwarded_For": "10.9.9.9"},
                    {"X_Real_Ip": "10.9.9.9"}, {"X_Forwarded_For": "1.2.3.4, 127.0.0.1"}):
        got = _r("127.0.0.2", real_ip=True, **headers)
        assert str(got.address) == "127.0.0.2" and got.forwarded
        assert got.problems and "not a trusted proxy" in got.problems[0]
    got = _r("203.0.113.9")
    assert str(got.address) == "203.0.113.9" and not got.forwarded and not got.problems


def test_trusted_proxy_rightmost_untrusted_hop_first():
    t = ca.parse_trusted("127.0.0.1,::1,10.0.0.0/8")
    cases = [
        ("203.0.113.7", "203.0.113.7"),
        (" 203.0.113.7 ", "203.0.113.7"),
        ("198.51.100.1, 203.0.113.7", "203.0.113.7"),  # what the browser sent is left of ours
        ("198.51.100.1, 203.0.113.7, 10.0.0.3", "203.0.113.7"),  # an inner proxy skipped
        ("teacher, 203.0.113.7", "203.0.113.7"),  # junk left of the client: never looked at
        ("203.0.113.7,10.0.0.3,10.1.1.1", "203.0.113.7"),
        ("10.0.0.3, 10.0.0.4", "10.0.0.3"),  # every hop trusted: the leftmost
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("2001:db8::7", "2001:db8::7"),
        ("::ffff:127.0.0.1", "127.0.0.1"),  # the server's own browser through its own proxy
    ]
    for xff, want in cases:
        got = _r("127.0.0.1", t, X_Forwarded_For=xff)
        assert str(got.address) == want and got.forwarded and not got.problems, (xff, got)
    # from an IPv6 or an IPv4-mapped peer alike
    assert str(_r("::1", t, X_Forwarded_For="203.0.113.7").address) == "203.0.113.7"
    assert str(_r("::ffff:10.0.0.2", t, X_Forwarded_For="203.0.113.7").address) == "203.0.113.7"


def test_a_malformed_hop_stops_the_walk_at_the_last_trusted_hop():
    t = ca.parse_trusted("127.0.0.1,::1,10.0.0.0/8")
    for xff, want in [("teacher", "127.0.0.1"), ("", "127.0.0.1"), ("  ,  ", "127.0.0.1"),
                      ("203.0.113.7, teacher", "127.0.0.1"),
                      ("203.0.113.7, teacher, 10.0.0.3", "10.0.0.3"),
                      ("203.0.113.7,", "127.0.0.1"), ("unknown", "127.0.0.1"),
                      ("203.0.113.7:4711", "127.0.0.1"), ("[2001:db8::1]:80", "127.0.0.1")]:
        got = _r("127.0.0.1", t, X_Forwarded_For=xff)
        assert str(got.address) == want, (xff, got)
        assert got.problems and "not an IP address" in got.problems[0] and got.forwarded


def test_many_hops_are_bounded():
    t = ca.parse_trusted("127.0.0.1,10.0.0.0/8")
    xff = ", ".join(["203.0.113.1"] + ["10.0.0.9"] * 100)
    got = _r("127.0.0.1", t, X_Forwarded_For=xff)
    assert str(got.address) == "10.0.0.9"  # the leftmost of the hops read: all trusted
    assert any("100" in p or "101" in p for p in got.problems)
    many = ", ".join(f"198.51.100.{i}" for i in range(200)) + ", 203.0.113.5"
    assert str(_r("127.0.0.1", t, X_Forwarded_For=many).address) == "203.0.113.5"


def test_repeated_header_lines_are_one_list():
    got = ca.resolve("127.0.0.1", [("X-Forwarded-For", "teacher"),
                                   ("x-forwarded-for", "203.0.113.7")], DEFAULT)
    assert str(got.address) == "203.0.113.7"


def test_x_real_ip_only_when_switched_on_and_valid():
    off = _r("127.0.0.1", X_Real_Ip="203.0.113.7")
    assert str(off.address) == "127.0.0.1" and off.forwarded and ca.REAL_IP_ENV in off.problems[0]
    on = ca.parse_trusted(real_ip="1")
    assert str(_r("127.0.0.1", on, X_Real_Ip=" 203.0.113.7 ").address) == "203.0.113.7"
    bad = _r("127.0.0.1", on, X_Real_Ip="teacher")
    assert str(bad.address) == "127.0.0.1" and "not an IP address" in bad.problems[0]
    # X-Forwarded-For wins over X-Real-Ip
    both = _r("127.0.0.1", on, X_Forwarded_For="203.0.113.7", X_Real_Ip="198.51.100.1")
    assert str(both.address) == "203.0.113.7" and "X-Real-Ip ignored" in both.problems[0]
    # and from an untrusted peer, not even when switched on
    assert str(_r("127.0.0.2", on, X_Real_Ip="203.0.113.7").address) == "127.0.0.2"


def test_peer_that_is_no_address_and_problems_quote_safely():
    got = ca.resolve("teacher", [], DEFAULT)
    assert got.address is None and got.problems
    long = "x" * 5000 + "\n\x1b[31m"
    got = _r("127.0.0.2", X_Forwarded_For=long)
    assert len(got.problems[0]) < 300 and "\n" not in got.problems[0]
    assert "\x1b" not in got.problems[0]


def test_is_local_is_the_server_machine_only():
    assert ca.is_local(ca.normalise("::ffff:127.0.0.1")) and ca.is_local(IP("::1"))
    assert ca.is_local(IP("127.0.0.1")) and ca.is_local("::ffff:127.0.0.1")
    assert not ca.is_local(IP("127.0.0.2")) and not ca.is_local(None)
    assert not ca.is_local(IP("10.0.0.1"))
