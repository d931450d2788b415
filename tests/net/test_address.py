"""The one address classifier: every IPv4 spelling inside IPv6 is judged by what it reaches."""

from __future__ import annotations

import ipaddress

import pytest

from hands.net.address import address_problem, embedded_ipv4, is_public, parse_address

PUBLIC = [
    "93.184.216.34",
    "8.8.8.8",
    "2606:2800:220:1:248:1893:25c8:1946",
    "::ffff:8.8.8.8",  # IPv4-mapped, public inside
    "64:ff9b::808:808",  # NAT64 of a public address (an IPv6-only network's way out)
    "2002:808:808::1",  # 6to4 of a public address
]

NOT_PUBLIC = {
    "127.0.0.1": "loopback",
    "127.255.0.9": "loopback",
    "10.1.2.3": "private",
    "172.16.0.1": "private",
    "192.168.1.1": "private",
    "169.254.169.254": "metadata",
    "169.254.170.2": "metadata",
    "100.100.100.200": "metadata",
    "192.0.0.192": "metadata",
    "100.64.0.1": "CGNAT",
    "169.254.1.1": "link-local",
    "0.0.0.0": "unspecified",
    "0.1.2.3": "private",
    "224.0.0.1": "multicast",
    "240.0.0.1": "private",
    "255.255.255.255": "private",
    "::1": "loopback",
    "::": "unspecified",
    "fe80::1": "link-local",
    "fc00::1": "private",
    "fd00:ec2::254": "metadata",
    "ff02::1": "multicast",
    "::ffff:127.0.0.1": "loopback",
    "::ffff:169.254.169.254": "metadata",
    "::7f00:1": "loopback",  # IPv4-compatible
    "::a00:1": "private",
    "::808:808": "deprecated",  # IPv4-compatible of a public address: refused all the same
    "::ffff:0:7f00:1": "loopback",  # IPv4-translated
    "64:ff9b::7f00:1": "loopback",  # NAT64
    "64:ff9b::a9fe:a9fe": "metadata",
    "64:ff9b::c0a8:101": "private",
    "64:ff9b:1::808:808": "local-use NAT64",
    "64:ff9b:1:7f00:1::": "local-use NAT64",
    "2002:7f00:1::": "loopback",  # 6to4
    "2002:a9fe:a9fe::": "metadata",
    "2002:a00:1::1": "private",
    "2001::1": "private",  # Teredo
    "2001:db8::1": "private",  # documentation
    "100::1": "private",  # discard-only
    "5f00::1": "reserved",
}


@pytest.mark.parametrize("text", PUBLIC)
def test_public_addresses_pass(text: str) -> None:
    address = ipaddress.ip_address(text)
    assert address_problem(address) is None
    assert is_public(address)


@pytest.mark.parametrize(("text", "kind"), NOT_PUBLIC.items())
def test_non_public_addresses_are_named(text: str, kind: str) -> None:
    address = ipaddress.ip_address(text)
    problem = address_problem(address)
    assert problem is not None
    assert kind in problem
    assert not is_public(address)


def test_an_embedded_address_is_named_in_the_problem() -> None:
    problem = address_problem(ipaddress.ip_address("2002:7f00:1::"))
    assert problem == "a loopback address (127.0.0.1 inside 2002:7f00:1::)"


@pytest.mark.parametrize(
    ("text", "inner"),
    [
        ("::ffff:10.0.0.1", "10.0.0.1"),
        ("::7f00:1", "127.0.0.1"),
        ("::ffff:0:a00:1", "10.0.0.1"),
        ("64:ff9b::a00:1", "10.0.0.1"),
        ("2002:a00:1::", "10.0.0.1"),
        ("::1", None),
        ("::", None),
        ("2606:2800:220:1::1", None),
        ("10.0.0.1", None),
    ],
)
def test_embedded_ipv4(text: str, inner: str | None) -> None:
    found = embedded_ipv4(ipaddress.ip_address(text))
    assert (str(found) if found else None) == inner


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[::1]", "::1"),
        ("fe80::1%eth0", "fe80::1"),
        (" 127.0.0.1 ", "127.0.0.1"),
        ("example.com", None),
        ("127.1", None),  # a resolver's spelling, judged after it is resolved
        ("", None),
    ],
)
def test_parse_address(text: str, expected: str | None) -> None:
    found = parse_address(text)
    assert (str(found) if found else None) == expected
