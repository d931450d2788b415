"""Keep a page's nesting shallow enough to convert: a 400,000-deep page is text, not a crash.

The parser and converter walk the element tree recursively, so a page nested deeper than
Python's recursion limit would fail inside them (and libxml2 alone stops at 255 levels,
silently dropping the rest of the page). A page nested deeper than :data:`MAX_DEPTH` is
rewritten first: tags below that depth are left out, their text kept in order.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any, cast

import lxml.html

MAX_DEPTH = 120
"""Elements nested deeper are flattened into their ancestor at this depth."""
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
     "source", "track", "wbr"}
)  # fmt: skip
_SELF_CLOSING = frozenset({"p", "li", "dt", "dd", "tr", "td", "th", "option"})
"""Elements a new one of the same name closes (``<li>a<li>b``)."""
_RAW = frozenset({"script", "style"})


def too_deep(html: str) -> bool:
    """Whether ``html`` nests elements deeper than :data:`MAX_DEPTH` (a fast C parse)."""
    try:
        root = cast(Any, lxml.html).document_fromstring(html)
    except Exception:  # an empty or unreadable document: the converter says what it makes of it
        return False
    depth: dict[object, int] = {root: 0}
    element: Any
    for element in root.iter():
        parent: Any = element.getparent()
        level = depth.get(parent, 0) + 1 if parent is not None else 0
        if level > MAX_DEPTH:
            return True
        depth[element] = level
    return False


def flatten(html: str) -> str:
    """``html`` with the tags below :data:`MAX_DEPTH` left out and all text kept."""
    parser = _Flattener()
    parser.feed(html)
    parser.close()
    return "".join(parser.out)


class _Flattener(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.stack: list[str] = []
        self.dropped_raw = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        if tag in _VOID:
            if len(self.stack) < MAX_DEPTH:
                self.out.append(self.get_starttag_text() or "")
            return
        if tag in _SELF_CLOSING and self.stack and self.stack[-1] == tag:
            self.handle_endtag(tag)
        if len(self.stack) < MAX_DEPTH:
            self.out.append(self.get_starttag_text() or "")
        elif tag in _RAW:
            self.dropped_raw += 1
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        if len(self.stack) < MAX_DEPTH:
            self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.stack:
            return
        while self.stack:
            open_tag = self.stack.pop()
            if len(self.stack) < MAX_DEPTH:
                self.out.append(f"</{open_tag}>")
            elif open_tag in _RAW:
                self.dropped_raw -= 1
            if open_tag == tag:
                return

    def handle_data(self, data: str) -> None:
        if not self.dropped_raw:
            self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")
