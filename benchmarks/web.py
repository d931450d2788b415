"""HTML to Markdown candidates on the Python documentation, and WebFetch end to end.

The corpus is Debian's python3-doc (the whole Python manual as HTML), installed with apt
when it is missing. Per converter: median ms per page, Markdown size / HTML size, peak
RSS converting the largest page and a 10 MB page (each in a fresh process), and quality:
the share of the main content's headings, code blocks and links that survive, and of
pages that keep navigation text ("Previous topic"). Then WebFetch from a loopback server
against a bare ``httpx.get`` plus the same conversion, and a cache hit.

    python benchmarks/web.py [--pages 150]
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CORPUS_ROOTS = [
    Path("/usr/share/doc/python3-doc/html"),
    *sorted(Path("/usr/share/doc").glob("python3.*-doc/html")),
]
NOISE = ("Previous topic", "Next topic", "This Page", "Show Source")


def corpus() -> Path:
    for root in CORPUS_ROOTS:
        if root.is_dir():
            return root.resolve()
    if shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "python3-doc"], check=False)
        for root in CORPUS_ROOTS + sorted(Path("/usr/share/doc").glob("python3.*-doc/html")):
            if root.is_dir():
                return root.resolve()
    sys.exit("the corpus needs Debian's python3-doc: apt-get install python3-doc")


# -- candidates -------------------------------------------------------------------------


def hands_markdownify(html: str) -> str:
    from hands.tools.web._html import html_to_markdown

    return html_to_markdown(html, "https://docs.python.org/3/")


def _main_html(html: str) -> str:
    """The same main-content cut hands makes, as HTML, for converters without one."""
    from bs4 import BeautifulSoup

    from hands.tools.web import _html

    soup = BeautifulSoup(html, "lxml")
    for tag in soup.find_all(_html._NEVER):  # pyright: ignore[reportPrivateUsage]
        tag.decompose()
    main = _html._main(soup)  # pyright: ignore[reportPrivateUsage]
    return str(main or soup.body or soup)


def html2text_main(html: str) -> str:
    import html2text

    converter = html2text.HTML2Text(baseurl="https://docs.python.org/3/")
    converter.body_width = 0
    return converter.handle(_main_html(html))


def trafilatura_own(html: str) -> str:
    import trafilatura

    return (
        trafilatura.extract(
            html,
            output_format="markdown",
            include_links=True,
            include_formatting=True,
            include_tables=True,
            include_comments=False,
            favor_recall=True,
        )
        or ""
    )


CANDIDATES: dict[str, Callable[[str], str]] = {
    "markdownify (hands)": hands_markdownify,
    "html2text": html2text_main,
    "trafilatura": trafilatura_own,
}


# -- quality ----------------------------------------------------------------------------

_SPACE = re.compile(r"\s+")
_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")


def _norm(text: str) -> str:
    for mark in ("¶", "\\", "`", "*", "#"):
        text = text.replace(mark, "")
    return _SPACE.sub(" ", text).strip()


@functools.cache
def expected(path: Path) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """(headings, first lines of code blocks, links) of the page's main content."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(path.read_text(encoding="utf-8", errors="replace"), "lxml")
    main = soup.select_one('[role="main"]') or soup.body or soup
    heads = tuple(
        h
        for h in (
            _norm(t.get_text(" ")) for t in main.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])
        )
        if h
    )
    codes: list[str] = []
    for pre in main.find_all("pre"):
        lines = [ln.strip() for ln in pre.get_text().splitlines() if ln.strip()]
        if lines:
            codes.append(_norm(lines[0]))
    links = len(
        [a for a in main.find_all("a", href=True) if a.get_text(strip=True) not in ("¶", "")]
    )
    return heads, tuple(codes), links


def score(path: Path, markdown: str) -> tuple[float, float, float, bool]:
    heads, codes, links = expected(path)
    flat = _norm(_LINK.sub(r"\1", markdown))  # a heading's text may be a link
    head_ok = sum(1 for h in heads if h in flat) / len(heads) if heads else 1.0
    code_ok = sum(1 for c in codes if c in flat) / len(codes) if codes else 1.0
    link_ok = min(1.0, markdown.count("](") / links) if links else 1.0
    noisy = any(n in markdown for n in NOISE)
    return head_ok, code_ok, link_ok, noisy


# -- memory in a fresh process ----------------------------------------------------------

RSS_CHILD = """
import sys
sys.path.insert(0, {bench!r})
import web
name, path = sys.argv[1], sys.argv[2]
html = open(path, encoding="utf-8", errors="replace").read()
def hwm():  # VmHWM: this process's own peak (ru_maxrss would carry the parent's over exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
web.CANDIDATES[name]("<html><body><p>warm up: imports</p></body></html>")
before = hwm()
web.CANDIDATES[name](html)
print(before, hwm())
"""


def peak_rss(name: str, path: Path) -> tuple[int, int]:
    code = RSS_CHILD.format(bench=str(Path(__file__).parent))
    out = subprocess.run(
        [sys.executable, "-c", code, name, str(path)], capture_output=True, text=True, check=True
    )
    before, after = out.stdout.split()
    return int(before), int(after)


def ten_mb_page(pages: list[Path], into: Path) -> Path:
    parts: list[str] = []
    size = 0
    for p in pages * 50:
        text = p.read_text(encoding="utf-8", errors="replace")
        body = text.split('role="main">', 1)[-1].split("</body>", 1)[0]
        parts.append(f"<section>{body}</section>")
        size += len(body)
        if size > 10 * 1024 * 1024:
            break
    page = into / "ten-mb.html"
    page.write_text(
        '<html><body><div role="main">' + "".join(parts) + "</div></body></html>", encoding="utf-8"
    )
    return page


# -- end to end -------------------------------------------------------------------------


def serve(root: Path) -> tuple[ThreadingHTTPServer, int]:
    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(root), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def end_to_end(root: Path, pages: list[Path]) -> None:
    import anyio
    import httpx

    from hands.core.context import ToolContext
    from hands.core.session import Session
    from hands.permissions.engine import PermissionEngine
    from hands.permissions.rules import RuleOrigin, parse_rule
    from hands.tools.web.web_fetch import WebFetchInput, WebFetchTool

    server, port = serve(root)
    tool = WebFetchTool()
    rule = parse_rule(
        "WebFetch(domain:127.0.0.1)", "allow", RuleOrigin(scope="session", label="bench", root=root)
    )
    engine = PermissionEngine([rule])  # type: ignore[list-item]
    home = Path(tempfile.mkdtemp())
    urls = [f"http://127.0.0.1:{port}/{p.relative_to(root).as_posix()}" for p in pages]

    async def run() -> tuple[list[float], list[float], list[float]]:
        tool_ms: list[float] = []
        bare_ms: list[float] = []
        hit_ms: list[float] = []
        async with httpx.AsyncClient() as client:
            for url in urls:
                started = time.perf_counter()
                response = await client.get(url)
                hands_markdownify(response.text)
                bare_ms.append((time.perf_counter() - started) * 1000)
                ctx = ToolContext(cwd=root, session=Session(home=home), policy=engine)
                data = WebFetchInput(url=url, prompt="p")
                started = time.perf_counter()
                out = await tool.call(data, ctx, lambda _: None)
                tool.to_content(out.output)
                tool_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                again = await tool.call(data, ctx, lambda _: None)
                tool.to_content(again.output)
                hit_ms.append((time.perf_counter() - started) * 1000)
        return tool_ms, bare_ms, hit_ms

    try:
        tool_ms, bare_ms, hit_ms = anyio.run(run)
    finally:
        server.shutdown()
    t, b = statistics.median(tool_ms), statistics.median(bare_ms)
    print(f"\nWebFetch end to end over {len(urls)} pages from loopback (medians):")
    print(f"  WebFetch           {t:8.1f} ms/page")
    print(f"  httpx.get + conv.  {b:8.1f} ms/page   ratio {t / b:.2f}x (goal <= 1.5x)")
    print(f"  cache hit          {statistics.median(hit_ms):8.3f} ms/page")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=150)
    args = parser.parse_args()
    root = corpus()
    every = sorted(p for p in root.rglob("*.html") if "_static" not in p.parts)
    largest = max(every, key=lambda p: p.stat().st_size)
    random.seed(7)
    pages = random.sample(every, min(args.pages, len(every)))
    print(
        f"corpus: {root} ({len(every)} pages); sample {len(pages)}; largest {largest.name} "
        f"({largest.stat().st_size / 1e6:.1f} MB)"
    )
    work = Path(tempfile.mkdtemp())
    big = ten_mb_page(pages, work)
    print(
        f"\n{'converter':22} {'ms/page':>8} {'md/html':>8} {'headings':>9} {'code':>6} "
        f"{'links':>6} {'nav kept':>9} {'RSS largest':>12} {'RSS 10 MB':>10}"
    )
    for name, convert in CANDIDATES.items():
        times: list[float] = []
        ratios: list[float] = []
        quality: list[tuple[float, float, float, bool]] = []
        for page in pages:
            html = page.read_text(encoding="utf-8", errors="replace")
            started = time.perf_counter()
            markdown = convert(html)
            times.append((time.perf_counter() - started) * 1000)
            ratios.append(len(markdown) / max(1, len(html)))
            quality.append(score(page, markdown))
        base, peak = peak_rss(name, largest)
        base10, peak10 = peak_rss(name, big)
        heads = statistics.mean(q[0] for q in quality) * 100
        codes = statistics.mean(q[1] for q in quality) * 100
        links = statistics.mean(q[2] for q in quality) * 100
        noisy = sum(q[3] for q in quality) / len(quality) * 100
        print(
            f"{name:22} {statistics.median(times):8.1f} {statistics.median(ratios):8.2f} "
            f"{heads:8.1f}% {codes:5.1f}% {links:5.1f}% {noisy:8.1f}% "
            f"{peak:7d} MB (+{peak - base}) {peak10:5d} MB (+{peak10 - base10})"
        )
    end_to_end(root, pages)


if __name__ == "__main__":
    main()
