"""Who is at the other end of a connection, in a way no browser can forge (issue 48, item 3).
Pure: no Streamlit here (ui.serving.roles reads the socket and the headers and calls `resolve`).

The client is the TCP peer of the connection (the socket's address). Forwarded headers are read
only when that peer is a proxy the teacher names:

    ATTENTION_LAB_TRUSTED_PROXIES   comma-separated addresses or networks ("10.0.0.2",
                                    "192.168.1.0/24", "::1"); default "127.0.0.1,::1" (as
                                    uvicorn's --forwarded-allow-ips). "" or "none": trust no one.
    ATTENTION_LAB_TRUST_X_REAL_IP   "1": a trusted proxy's X-Real-Ip is read when it sends no
                                    X-Forwarded-For (default: X-Real-Ip is ignored)

(the same keys in .streamlit/secrets.toml are read by ui.serving.roles when the environment has
none).

`resolve(peer, headers, trusted)` walks X-Forwarded-For from right to left (each proxy appends
the address it saw, so the rightmost entries are the ones our own proxies wrote): entries that
are trusted proxies are skipped, the first untrusted one is the client. Only valid IP addresses
count; an IPv4-mapped IPv6 address ("::ffff:127.0.0.1") is its IPv4 address. The safe rule for a
malformed entry ("teacher", "unknown", an empty item between commas): the walk stops there and
the client is the last hop it trusted, i.e. the proxy that delivered the header; nothing left of
the malformed entry is believed (it was written by someone we cannot vouch for), and the entry is
reported. When every entry is a trusted proxy, the leftmost one is the client. Headers from an
untrusted peer are ignored, and reported.
"""
from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field

TRUSTED_ENV = "ATTENTION_LAB_TRUSTED_PROXIES"
REAL_IP_ENV = "ATTENTION_LAB_TRUST_X_REAL_IP"
DEFAULT_TRUSTED = "127.0.0.1,::1"
MAX_HOPS = 32  # entries of X-Forwarded-For looked at (from the right); more are a problem
MAX_SHOWN = 64  # characters of a rejected value quoted in a problem

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Trusted:
    """The proxies whose forwarded headers are believed. `problems`: entries of the setting that
    are neither an address nor a network (ignored)."""
    networks: tuple[Network, ...] = ()
    real_ip: bool = False
    problems: tuple[str, ...] = field(default=(), compare=False)

    def __contains__(self, ip: Address | None) -> bool:
        return ip is not None and any(ip.version == n.version and ip in n for n in self.networks)


def _shown(value: str) -> str:
    value = "".join(c if c.isprintable() else "?" for c in value)
    return repr(value[:MAX_SHOWN] + ("..." if len(value) > MAX_SHOWN else ""))


def normalise(value: object) -> Address | None:
    """The IP address `value` names, or None when it names none. Surrounding spaces are
    dropped; an IPv4-mapped IPv6 address is its IPv4 address; an IPv6 zone ("fe80::1%eth0") is
    refused (it names an interface, not a machine elsewhere)."""
    if isinstance(value, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
        ip = value
    else:
        if not isinstance(value, str):
            return None
        text = value.strip()
        if not text or len(text) > 64 or "%" in text:
            return None
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _network(entry: str) -> Network | None:
    ip = normalise(entry)
    if ip is not None:
        return ipaddress.ip_network(ip)
    try:
        net = ipaddress.ip_network(entry.strip(), strict=False)
    except ValueError:
        return None
    if isinstance(net, ipaddress.IPv6Network) and net.network_address.ipv4_mapped is not None \
            and net.prefixlen >= 96:  # ::ffff:10.0.0.0/104 is 10.0.0.0/8
        net = ipaddress.ip_network(f"{net.network_address.ipv4_mapped}/{net.prefixlen - 96}")
    return net


def parse_trusted(text: str | None = DEFAULT_TRUSTED, real_ip: object = False) -> Trusted:
    """The trusted-proxy setting: comma-separated addresses or networks (None: the default;
    "" or "none": nobody). `real_ip`: read X-Real-Ip ("1", "true", "yes", True)."""
    if text is None:
        text = DEFAULT_TRUSTED
    nets: list[Network] = []
    problems: list[str] = []
    if text.strip().lower() not in ("", "none"):
        for entry in text.split(","):
            if not entry.strip():
                continue
            net = _network(entry)
            if net is None:
                problems.append(f"{TRUSTED_ENV}: {_shown(entry.strip())} is neither an IP address "
                                "nor a network (like 10.0.0.2 or 192.168.1.0/24): ignored")
            elif net not in nets:
                nets.append(net)
    if isinstance(real_ip, str):
        real_ip = real_ip.strip().lower() in ("1", "true", "yes", "on")
    return Trusted(tuple(nets), bool(real_ip), tuple(problems))


def from_env(environ: dict | None = None) -> Trusted:
    env = os.environ if environ is None else environ
    return parse_trusted(env.get(TRUSTED_ENV), env.get(REAL_IP_ENV, ""))


def _header(headers, name: str) -> str | None:
    """Every value of header `name` (any case) joined with ", ", or None when absent.
    `headers`: a mapping (st.context.headers, a dict) or (name, value) pairs."""
    items = headers.items() if hasattr(headers, "items") else headers or ()
    got = [str(v) for k, v in items if str(k).lower() == name.lower()]
    if hasattr(headers, "get_all"):  # Streamlit's headers: every value of a repeated header
        try:
            got = [str(v) for v in headers.get_all(name)] or got
        except Exception:  # noqa: BLE001 - a mapping without it
            pass
    return ", ".join(got) if got else None


@dataclass(frozen=True)
class Resolved:
    """`address`: the client's address (None: the peer itself is no IP address). `forwarded`:
    a forwarded header was presented (believed or not). `problems`: what was ignored, and why."""
    address: Address | None
    forwarded: bool
    problems: tuple[str, ...] = ()


def resolve(peer: object, headers=(), trusted: Trusted | None = None,
            real_ip: bool | None = None) -> Resolved:
    """The client's address: the socket's peer, or (when the peer is a trusted proxy) what the
    forwarded headers say under the rules of the module docstring. `real_ip`: read X-Real-Ip
    (default: trusted.real_ip)."""
    trusted = parse_trusted() if trusted is None else trusted
    real_ip = trusted.real_ip if real_ip is None else real_ip
    xff = _header(headers, "X-Forwarded-For")
    xri = _header(headers, "X-Real-Ip")
    forwarded = xff is not None or xri is not None
    problems: list[str] = []
    ip = normalise(peer)
    if ip is None:
        problems.append(f"the connection's peer {_shown(str(peer))} is not an IP address")
        return Resolved(None, forwarded, tuple(problems))
    if ip not in trusted:
        for name, value in (("X-Forwarded-For", xff), ("X-Real-Ip", xri)):
            if value is not None:
                problems.append(f"{name} {_shown(value)} from {ip}, which is not a trusted proxy "
                                f"({TRUSTED_ENV}): ignored")
        return Resolved(ip, forwarded, tuple(problems))
    if xff is not None:
        hops = [h.strip() for h in xff.split(",")]
        if len(hops) > MAX_HOPS:
            problems.append(f"X-Forwarded-For has {len(hops)} entries: only the last {MAX_HOPS} "
                            "are read")
            hops = hops[-MAX_HOPS:]
        client = ip  # the last hop trusted so far
        for hop in reversed(hops):
            hop_ip = normalise(hop)
            if hop_ip is None:
                problems.append(f"X-Forwarded-For entry {_shown(hop)} is not an IP address: the "
                                f"header is ignored from there on (client: {client})")
                break
            client = hop_ip
            if hop_ip not in trusted:
                break
        if xri is not None:
            problems.append("X-Real-Ip ignored: X-Forwarded-For is read")
        return Resolved(client, forwarded, tuple(problems))
    if xri is not None:
        if not real_ip:
            problems.append(f"X-Real-Ip {_shown(xri)} ignored ({REAL_IP_ENV} is not set)")
            return Resolved(ip, forwarded, tuple(problems))
        got = normalise(xri)
        if got is None:
            problems.append(f"X-Real-Ip {_shown(xri)} is not an IP address: ignored")
            return Resolved(ip, forwarded, tuple(problems))
        return Resolved(got, forwarded, tuple(problems))
    return Resolved(ip, False, ())


LOOPBACK = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))


def is_local(address: Address | None) -> bool:
    """The server's own machine as Streamlit counts it: 127.0.0.1 or ::1 (and ::ffff:127.0.0.1,
    which `normalise` makes 127.0.0.1). Other loopback addresses (127.0.0.2 ...) are not."""
    return normalise(address) in LOOPBACK if address is not None else False
