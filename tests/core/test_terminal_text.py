"""Text from outside is shown on the terminal, never obeyed."""

from __future__ import annotations

import json

import pytest

from hands.core.terminal_text import json_escaped, neutralise

ATTACKS = {
    "title": "\x1b]0;pwned\x07",
    "title-st": "\x1b]2;pwned\x1b\\",
    "link": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "clear": "\x1b[2J\x1b[H",
    "cursor-up": "ok\x1b[1A\x1b[Koverwritten",
    "dcs": "\x1bP+q544e\x1b\\",
    "c1-csi": "\x9b2J",
    "c1-osc": "\x9d0;pwned\x9c",
    "carriage-return": "rm -rf /\r# harmless",
    "backspace": "rm -rf /\x08\x08\x08",
    "bell": "\x07",
    "apc": "\x1b_payload\x1b\\",
    "bidi": "access = \u202euser\u2066admin\u2069",
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_nothing_a_terminal_acts_on_is_left(name: str) -> None:
    shown = neutralise(ATTACKS[name])
    assert not any(0x00 <= ord(c) < 0x20 and c not in "\t\n" for c in shown), shown
    assert not any(0x7F <= ord(c) <= 0x9F for c in shown), shown
    assert not any(c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" for c in shown)
    assert neutralise(shown) == shown  # idempotent


def test_sequences_are_shown_visibly_and_colours_dropped() -> None:
    assert neutralise("\x1b]0;pwned\x07") == "␛]0;pwned␇"
    assert neutralise("a\x1b[31mred\x1b[0m b\x1b[1;38;5;196mx\x1b[m") == "ared bx"
    assert neutralise("\x9b2J") == "<U+009B>2J"
    assert neutralise("x\u202ey") == "x<U+202E>y"
    assert neutralise("one\r\ntwo\rthree") == "one\ntwo␍three"
    assert neutralise("hidden: \x1b[8msecret\x1b[28m") == "hidden: secret"


def test_ordinary_text_is_the_same_object() -> None:
    text = "plain\ttext\nwith ünïcödé, emoji 🙂 and CJK 漢字"
    assert neutralise(text) is text


def test_json_lines_escape_what_json_dumps_leaves_raw() -> None:
    value = {"t": "a\x9b2Jb\u202ec\x7f\x1b", "n": "漢字"}
    line = json_escaped(json.dumps(value, ensure_ascii=False))
    assert "\\u009b" in line and "\\u202e" in line and "\\u007f" in line
    assert not any(0x7F <= ord(c) <= 0x9F for c in line) and "\u202e" not in line
    assert json.loads(line) == value
    assert "漢字" in line
