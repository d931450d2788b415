"""Text from outside, made safe to show on a terminal: it is shown, never obeyed.

Tool output, model text, file names, web pages and MCP results may carry control and
escape sequences that a terminal would act on: set the window title (OSC 0/2), plant a
link (OSC 8), clear or overwrite the screen (CSI), reach the terminal's own commands
(DCS, APC), or reorder what is read (bidi overrides). :func:`neutralise` turns every
such character into a visible stand-in, so the sequence is seen as text and does nothing.

Colour and weight sequences (SGR, ``ESC [ … m``) are dropped instead: programs such as
``ls --color`` or test runners send them all the time, shown they would be noise, and they
can hide text (SGR 8, "concealed"). Only hands' own styling reaches the terminal.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""What a terminal could act on: C0 controls but tab and newline, DEL, C1, bidi controls."""

_SGR = re.compile(r"(?:\x1b\[|\x9b)[0-9;:]*m")

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _visible_table() -> dict[int, str]:
    table: dict[int, str] = {code: chr(0x2400 + code) for code in range(0x20)}  # ␀ … ␟
    del table[ord("\t")], table[ord("\n")]
    table[0x7F] = "\u2421"  # ␡
    for code in range(0x80, 0xA0):
        table[code] = f"<U+{code:04X}>"
    for char in _BIDI:
        table[ord(char)] = f"<U+{ord(char):04X}>"
    return table


_VISIBLE = _visible_table()

_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def neutralise(text: str) -> str:
    r"""``text`` with nothing a terminal would obey: controls shown, colour codes dropped.

    Tabs and newlines stay; ``\r\n`` becomes ``\n``; a lone ``\r`` (which would let
    the rest of a line overwrite its start) is shown as ``␍``; ESC as ``␛``, so
    ``ESC ] 0 ; title BEL`` reads ``␛]0;title␇``; C1 controls and bidi overrides as
    ``<U+202E>``. Idempotent, and free for text that has none of these.
    """
    if _UNSAFE.search(text) is None:
        return text
    return _SGR.sub("", text).replace("\r\n", "\n").translate(_VISIBLE)


def json_escaped(line: str) -> str:
    r"""A JSON text with DEL, C1 and bidi controls written as ``\u`` escapes.

    ``json.dumps`` escapes C0 controls but writes these as they are (with
    ``ensure_ascii=False``); outside the ASCII range they can only stand inside strings,
    where the escape means the same character, so the JSON is unchanged for a reader.
    """
    if _JSON_UNSAFE.search(line) is None:
        return line
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)
