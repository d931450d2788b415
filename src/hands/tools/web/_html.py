"""HTML to Markdown: the main content, without scripts, styles and navigation."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

from bs4 import BeautifulSoup, Tag
from markdownify import MarkdownConverter

from hands.tools.web._flatten import flatten, too_deep

_NEVER = (
    "script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas",
    "form", "button", "input", "select", "textarea", "nav", "aside", "dialog",
)  # fmt: skip
_PAGE_CHROME = ("header", "footer")
_ROLES = ("navigation", "banner", "contentinfo", "complementary", "search")
MAX_HTML_CHARS = 600_000
_SCRIPT_START = re.compile(r"<(script|style|svg|noscript)\b", re.IGNORECASE)
_MAIN_START = re.compile(r"<main\b|<[a-z]+[^>]*role=[\"']?main|<article\b", re.IGNORECASE)
_MARKS = frozenset({"¶", "#", "§", "🔗", ""})
_MAIN = ("main", '[role="main"]', "article")


class _Converter(MarkdownConverter):
    """markdownify with ATX headings and fenced code blocks."""

    def __init__(self, **options: Any) -> None:
        super().__init__(
            heading_style="atx", bullets="-", code_language="", escape_underscores=False,
            escape_asterisks=False, **options,
        )  # fmt: skip


def html_to_markdown(html: str, base_url: str) -> str:
    """The page's main content as Markdown, links made absolute against ``base_url``.

    Of a page over :data:`MAX_HTML_CHARS` (scripts and styles removed), only the part from
    its main content on up to that size is converted: more would make Markdown past the
    cut the model sees, and a parsed tree takes many times the page's size in memory.
    """
    html, cut = _bounded(html)
    if too_deep(html):
        html = flatten(html)
    soup = BeautifulSoup(html, "lxml")
    for tag in soup.find_all(_NEVER):
        tag.decompose()
    for tag in soup.select(", ".join(f'[role="{r}"]' for r in _ROLES)):
        tag.decompose()
    for tag in soup.select('[hidden], [aria-hidden="true"]'):
        tag.decompose()
    main = _main(soup)
    if main is None:
        for tag in soup.find_all(_PAGE_CHROME):
            tag.decompose()
        main = soup.body or soup
    _absolute_links(main, base_url)
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    text = _Converter().convert_soup(main)
    text = _squeeze(text)
    if title and not text.lstrip().startswith("#"):
        text = f"# {title}\n\n{text}"
    if cut:
        text += (
            f"\n[The page goes on: only its first {MAX_HTML_CHARS:,} characters of HTML "
            "were converted.]\n"
        )
    return text


def _bounded(html: str) -> tuple[str, bool]:
    if len(html) <= MAX_HTML_CHARS:
        return html, False
    html = _without_scripts(html)
    if len(html) <= MAX_HTML_CHARS:
        return html, False
    found = _MAIN_START.search(html)
    start = found.start() if found is not None and found.start() > MAX_HTML_CHARS // 2 else 0
    return html[start : start + MAX_HTML_CHARS], True


def _without_scripts(html: str) -> str:
    """``html`` without script, style, svg and noscript elements, in one pass.

    An element left open runs to the end of the page, as a browser reads it.
    """
    lower = html.lower()
    parts: list[str] = []
    pos = 0
    while (found := _SCRIPT_START.search(html, pos)) is not None:
        parts.append(html[pos : found.start()])
        end = lower.find(f"</{found.group(1).lower()}", found.end())
        if end < 0:
            return "".join(parts)
        close = lower.find(">", end)
        pos = len(html) if close < 0 else close + 1
    parts.append(html[pos:])
    return "".join(parts)


def _main(soup: BeautifulSoup) -> Tag | None:
    for selector in _MAIN:
        found = soup.select(selector)
        if len(found) == 1:
            return found[0]
    return None


def _absolute_links(root: Tag | BeautifulSoup, base_url: str) -> None:
    for a in root.find_all("a"):
        href = a.get("href")
        if isinstance(href, str) and href.startswith("#") and a.get_text(strip=True) in _MARKS:
            a.decompose()  # a heading's permalink sign
        elif isinstance(href, str):
            if href.startswith(("javascript:", "data:")):
                del a["href"]
            elif not href.startswith("#"):
                a["href"] = urljoin(base_url, href)
    for img in root.find_all("img"):
        src = img.get("src")
        if not isinstance(src, str) or src.startswith("data:"):
            img.decompose()
        else:
            img["src"] = urljoin(base_url, src)


def _squeeze(text: str) -> str:
    lines = [line.rstrip() for line in text.strip().splitlines()]
    out: list[str] = []
    blank = 0
    for line in lines:
        blank = blank + 1 if not line else 0
        if blank <= 1:
            out.append(line)
    return "\n".join(out) + "\n"
