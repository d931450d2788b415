"""Fixtures for the browser tools: one real headless Chromium per test module, test pages.

Each test gets its own hands session (its own browser context: a fresh profile) on the
module's browser, and runs calls through the whole pipeline on the event loop that
started the browser (a blocking portal), as a session does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal

from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import AskHandler
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.permissions.engine import PermissionEngine
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool, find_builtin
from hands.pipeline.runtime import ToolRuntime
from hands.tools.browser._session import BrowserSession, Stop
from hands.tools.browser._settings import BrowserSettings, find_executable, missing
from support import project_rules_engine
from tools.browser.pages import PageServer, page_server

LOOPBACK = "WebFetch(domain:127.0.0.1)"
BROWSER_TOOLS = [e for e in (find_builtin(f"browser_{n}") for n in (
    "navigate", "snapshot", "click", "type", "select_option", "press_key", "hover", "scroll",
    "wait_for", "back", "forward", "screenshot", "tabs", "close",
)) if e is not None]  # fmt: skip


def needs_browser() -> None:
    """Skip where Playwright or Chromium is missing; in CI that is a failure."""
    problem = missing()
    if problem is None:
        return
    if os.environ.get("CI"):
        pytest.fail(problem)
    pytest.skip(problem)


def quick_settings(**changes: Any) -> BrowserSettings:
    base = BrowserSettings(
        executable=find_executable(),
        navigation_timeout_s=3,
        action_timeout_s=2,
        settle_s=1,
    )
    from dataclasses import replace

    return replace(base, **changes)


class SharedBrowser:
    """One Chromium on one event loop, lent to each test's session."""

    def __init__(self, portal: BlockingPortal) -> None:
        self.portal = portal
        self.browser: Any = None
        self._stop: Stop | None = None

    def start(self) -> None:
        from hands.tools.browser._session import launch_chromium

        self.browser, self._stop = self.portal.call(launch_chromium, quick_settings())

    def stop(self) -> None:
        if self._stop is not None:
            self.portal.call(self._stop)

    async def lend(self, settings: BrowserSettings) -> tuple[Any, Stop]:
        async def keep() -> None:  # the module's browser outlives the session
            return None

        return self.browser, keep


class Browsing:
    """A project, a session on the shared browser, and browser calls through the pipeline."""

    def __init__(self, project: Path, home: Path, pages: PageServer, shared: SharedBrowser) -> None:
        self.project = project
        self.home = home
        self.pages = pages
        self.portal = shared.portal
        self.session = Session(home=home)
        self.settings = quick_settings()
        self.browser = self.session.service(
            BrowserSession, lambda: BrowserSession(launcher=shared.lend, settings=self.settings)
        )
        self.tools = [entry.load() for entry in BROWSER_TOOLS]
        self.asked: list[str] = []
        self._n = 0

    def configure(self, **changes: Any) -> None:
        """Change the session browser's settings from the next call on."""
        from dataclasses import replace

        self.settings = replace(self.settings, **changes)
        self.browser._settings = self.settings  # pyright: ignore[reportPrivateUsage]

    def engine(
        self,
        *,
        allow: Sequence[str] = (LOOPBACK,),
        deny: Sequence[str] = (),
        ask: Sequence[str] = (),
    ) -> PermissionEngine:
        return project_rules_engine(self.project, self.home, allow=allow, deny=deny, ask=ask)

    def run(
        self,
        name: str,
        *,
        engine: PermissionEngine | None = None,
        ask: AskHandler | None = None,
        mode: PermissionMode = "bypassPermissions",
        **input: Any,
    ) -> ToolCallOutcome:
        self._n += 1
        runtime = ToolRuntime(tools=ToolPool(self.tools), policy=engine or self.engine(), ask=ask)
        ctx = ToolContext(
            cwd=self.project, project_dir=self.project, session=self.session, permission_mode=mode
        )
        block = ToolUseBlock(id=f"toolu_{self._n}", name=name, input=input)

        async def go() -> ToolCallOutcome:
            return await run_tool_use(block, ctx, runtime, lambda _p: None)

        return self.portal.call(go)

    def ok(self, name: str, **input: Any) -> str:
        out = self.run(name, **input)
        assert out.status == "ok" and not out.is_error, out.block.text
        return out.block.text

    def err(self, name: str, **input: Any) -> str:
        out = self.run(name, **input)
        assert out.is_error, out.block.text
        return out.block.text

    def open(self, path: str) -> str:
        return self.ok("browser_navigate", url=self.pages.url(path))

    def close(self) -> None:
        self.portal.call(self.session.aclose)


@pytest.fixture(scope="module")
def shared_browser() -> Iterator[SharedBrowser]:
    needs_browser()
    with ExitStack() as stack:
        portal = stack.enter_context(start_blocking_portal("asyncio"))
        shared = SharedBrowser(portal)
        shared.start()
        stack.callback(shared.stop)
        yield shared


@pytest.fixture(scope="module")
def pages() -> Iterator[PageServer]:
    with page_server() as server:
        yield server


@pytest.fixture
def browsing(
    tmp_path: Path, hands_home: Path, pages: PageServer, shared_browser: SharedBrowser
) -> Iterator[Browsing]:
    project = tmp_path / "proj"
    project.mkdir()
    b = Browsing(project, hands_home, pages, shared_browser)
    yield b
    b.close()


def ref_of(snapshot: str, startswith: str) -> str:
    """The ref on the first snapshot line (without its ``- ``) that starts with ``startswith``."""
    import re

    for line in snapshot.splitlines():
        text = line.strip().removeprefix("- ")
        if text.startswith(startswith):
            found = re.search(r"\[ref=([A-Za-z0-9]+)\]", text)
            if found:
                return found.group(1)
    raise AssertionError(f"no line starting {startswith!r} with a ref in:\n{snapshot}")
