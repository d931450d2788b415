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
