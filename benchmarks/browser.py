"""The browser tools on local pages of 100, 1,000 and 10,000 elements.

Per page: the median time of a snapshot (hands' in-page walk, through the whole tool
pipeline, beside Playwright's own ``aria_snapshot(mode="ai")`` on the same page), the
snapshot's size in characters against a PNG screenshot's size in bytes (the visible
viewport, as the model would get it, and the full page), and navigate + snapshot latency.
Then the cold start: a fresh session's first browser call (the driver and Chromium
started, the page loaded and snapshotted), each in a new process.

    python benchmarks/browser.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio

SIZES = (100, 1_000, 10_000)


def page(elements: int) -> str:
    """A page of about ``elements`` elements: rows of a link, a button, a field, a text."""
    rows = []
    for i in range(max(1, elements // 5)):
        rows.append(
            f'<div><a href="#r{i}">Link {i}</a><button>Do {i}</button>'
            f'<input aria-label="Field {i}"><p>Row {i} text</p></div>'
        )
    return f"<!doctype html><title>{elements} elements</title><h1>Rows</h1>{''.join(rows)}"


class _Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        n = int(self.path.strip("/") or "100")
        body = page(n).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve() -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Calls:
    """Browser tool calls through the pipeline, in one session."""

    def __init__(self, cwd: Path) -> None:
        from hands.core.context import ToolContext
        from hands.core.session import Session
        from hands.permissions.engine import PermissionEngine
        from hands.permissions.rules import RuleOrigin, parse_rules
        from hands.pipeline.pool import ToolPool, find_builtin
        from hands.pipeline.runtime import ToolRuntime

        origin = RuleOrigin(scope="cliArg", label="benchmark", root=cwd, path=None)
        rules, _ = parse_rules(["WebFetch(domain:127.0.0.1)"], "allow", origin)
        names = ("browser_navigate", "browser_snapshot", "browser_screenshot")
        tools = [e.load() for e in (find_builtin(n) for n in names) if e is not None]
        self.runtime = ToolRuntime(tools=ToolPool(tools), policy=PermissionEngine(rules))
        self.session = Session()
        self.ctx = ToolContext(cwd=cwd, session=self.session, permission_mode="default")
        self._n = 0

    async def run(self, name: str, **input: Any) -> Any:
        from hands.core.messages import ToolUseBlock
        from hands.pipeline.execution import run_tool_use

        self._n += 1
        block = ToolUseBlock(id=f"t{self._n}", name=name, input=input)
        out = await run_tool_use(block, self.ctx, self.runtime, lambda _p: None)
        assert not out.is_error, out.block.text[:500]
        return out


async def timed(fn: Callable[[], Awaitable[Any]], runs: int) -> tuple[float, Any]:
    times: list[float] = []
    last: Any = None
    for _ in range(runs):
        start = time.perf_counter()
        last = await fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), last


async def per_page(url: str, calls: Calls, runs: int) -> dict[str, Any]:
    from hands.tools.browser._session import BrowserSession

    nav_ms, _ = await timed(lambda: calls.run("Browser_navigate", url=url), runs)
    snap_ms, out = await timed(lambda: calls.run("Browser_snapshot"), runs)
    snapshot = out.output.snapshot
    tab = BrowserSession.for_session(calls.session).tabs[0]
    page_ = tab.page
    elements = await page_.evaluate("document.getElementsByTagName('*').length")
    from hands.tools.browser._snapshot import take_snapshot

    walk_ms, _ = await timed(
        lambda: take_snapshot(tab, next_ref=1, cap=40_000, max_nodes=10_000), runs
    )
    pw_runs = max(1, runs // 3) if elements > 5_000 else runs
    pw_ms, pw_text = await timed(lambda: page_.aria_snapshot(mode="ai", timeout=0), pw_runs)
    viewport = await page_.screenshot(type="png", timeout=60_000)
    full = await page_.screenshot(type="png", full_page=True, timeout=60_000)
    return {
        "elements": elements,
        "navigate_ms": nav_ms,
        "snapshot_ms": snap_ms,
        "walk_ms": walk_ms,
        "playwright_ms": pw_ms,
        "chars": len(snapshot.text),
        "cut": snapshot.cut,
        "refs": len(snapshot.refs),
        "playwright_chars": len(pw_text),
        "viewport_png": len(viewport),
        "full_png": len(full),
    }


def cold_start(url: str) -> float:
    """A new process: import, start the browser, navigate and snapshot; the call's ms."""
    proc = subprocess.run(
        [sys.executable, __file__, "--cold", url], capture_output=True, text=True, timeout=120
    )
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return float(proc.stdout.strip().splitlines()[-1])


def _cold(url: str) -> None:
    import tempfile

    calls = Calls(Path(tempfile.mkdtemp()))

    async def go() -> None:
        start = time.perf_counter()
        await calls.run("Browser_navigate", url=url)
        took = (time.perf_counter() - start) * 1000
        await calls.session.aclose()
        print(took)

    anyio.run(go)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cold", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold:
        _cold(args.cold)
        return
    from hands.tools.browser._settings import missing

    problem = missing()
    if problem:
        sys.exit(problem)
    server = serve()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    import tempfile

    calls = Calls(Path(tempfile.mkdtemp()))
    rows: list[dict[str, Any]] = []

    async def go() -> None:
        try:
            for n in SIZES:
                rows.append(await per_page(f"{base}/{n}", calls, args.runs))
        finally:
            await calls.session.aclose()

    anyio.run(go)
    print(
        f"{'page':>12} {'tool call':>9} {'walk':>8} {'playwright':>11} {'ratio':>6}"
        f" {'nav+snap':>9} {'chars':>8} {'refs':>6} {'viewport png':>13} {'full png':>10}"
        f" {'full/chars':>10}"
    )
    for r in rows:
        print(
            f"{r['elements']:>8,} el. {r['snapshot_ms']:>7.1f}ms {r['walk_ms']:>6.1f}ms"
            f" {r['playwright_ms']:>9.1f}ms"
            f" {r['playwright_ms'] / r['walk_ms']:>5.1f}x {r['navigate_ms']:>7.1f}ms"
            f" {r['chars']:>8,}{'*' if r['cut'] else ' '}{r['refs']:>6,}"
            f" {r['viewport_png']:>13,} {r['full_png']:>10,}"
            f" {r['full_png'] / max(1, r['chars']):>9.1f}x"
        )
    print("tool call: Browser_snapshot through the pipeline; walk: hands' snapshot alone;")
    print("playwright: Page.aria_snapshot(mode='ai') on the same page; ratio: playwright/walk")
    print("* cut at the snapshot cap (HANDS_BROWSER_SNAPSHOT_CHARS, 40,000 by default);")
    print(
        "  Playwright's uncut snapshot of the same pages:",
        ", ".join(f"{r['playwright_chars']:,} chars" for r in rows),
    )
    colds = [cold_start(f"{base}/100") for _ in range(3)]
    print(
        f"cold start (first browser call of a session, new process): median "
        f"{statistics.median(colds):.0f} ms of {', '.join(f'{c:.0f}' for c in colds)}"
    )
    server.shutdown()


if __name__ == "__main__":
    main()
