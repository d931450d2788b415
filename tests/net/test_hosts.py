"""One spelling of a host for rules and guards, whatever spelling a URL gave."""

from __future__ import annotations

import pytest

from hands.net.hosts import ascii_host


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("example.com", "example.com"),
        ("EXAMPLE.com.", "example.com"),
        ("ｅｘａｍｐｌｅ.com", "example.com"),  # fullwidth letters
        ("ＥＸＡＭＰＬＥ。ｃｏｍ", "example.com"),  # fullwidth letters, ideographic full stop
        ("example．com", "example.com"),  # fullwidth full stop
        ("exämple.com", "xn--exmple-cua.com"),
        ("xn--exmple-cua.com", "xn--exmple-cua.com"),
        ("[::1]", "::1"),
        ("0:0:0::1", "::1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("a_b.example.com", "a_b.example.com"),
        ("", None),
        ("exa mple.com", None),
        ("user@example.com", None),
        ("ex\x00ample.com", None),
        ("-\u200d.com", None),  # a joiner with nothing to join: no valid spelling
    ],
)
def test_ascii_host(raw: str, expected: str | None) -> None:
    assert ascii_host(raw) == expected


@pytest.mark.parametrize(
    ("raw", "seen"),
    [
        ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("2130706433", "127.0.0.1"),
        ("127.1", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("0x7F000001", "127.0.0.1"),
        ("0251.0376.0251.0376", "169.254.169.254"), ("10.1", "10.0.0.1"),
        ("08.1", None), ("4294967296", None), ("0x", None),
        ("1e3", "1e3"), ("123abc", "123abc"),
    ],
)  # fmt: skip
def test_a_host_of_numbers_is_the_ipv4_address_a_resolver_reads(raw: str, seen: str | None) -> None:
    assert ascii_host(raw) == seen


def test_a_rule_for_an_address_covers_its_numeric_spellings() -> None:
    from hands.permissions.rules import _domain  # pyright: ignore[reportPrivateUsage]

    written = _domain("domain:0x7f.0.0.1")
    assert written is not None and written.matches("127.0.0.1")
    plain = _domain("domain:127.0.0.1")  # each label "0" is not an address of its own
    assert plain is not None and plain.exact == "127.0.0.1"
    wild = _domain("domain:*.10.0.0.1")
    assert wild is not None and wild.matches("a.10.0.0.1") and not wild.matches("10.0.0.1")
