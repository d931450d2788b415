"""The session's browser: started on the first browser call, its tabs, closed with the session.

One Chromium per hands session, with a fresh temporary profile (Playwright's own, removed
when the browser closes). Nothing starts until a browser tool runs; the session's cleanup
closes the browser, shielded from cancellation so an interrupt cannot leave it running.
Should the Python process die, Playwright's driver sees its pipe close and kills the
browser's process group. The browser's context sends its traffic through the session's
proxy (:mod:`hands.tools.browser._proxy`) and its redirects past the redirect check
(:mod:`hands.tools.browser._redirects`); both stop with the browser.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, cast

import anyio

from hands.core.state import Carried
from hands.errors import ToolError
from hands.tools.browser._events import EventLog
from hands.tools.browser._settings import INSTALL_HINT, BrowserSettings, missing

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Frame, Page

    from hands.core.context import ToolContext
    from hands.core.session import Session
    from hands.tools.browser._contract import Resolver, StopProxy
    from hands.tools.browser._redirects import RedirectGuard

Stop: TypeAlias = Callable[[], Awaitable[None]]
Launcher: TypeAlias = Callable[[BrowserSettings], Awaitable["tuple[Browser, Stop]"]]
"""Starts a browser; returns it and how to stop it."""

CLOSE_SECONDS = 10.0


async def launch_chromium(settings: BrowserSettings) -> tuple[Browser, Stop]:
    """Start Playwright's driver and the configured Chromium."""
    problem = missing() if settings.executable is None else None
    if problem is not None or settings.executable is None:
        raise ToolError(problem or "No Chromium was found.")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        raise ToolError(missing() or "The Playwright package cannot be imported.") from None
    driver = await async_playwright().start()
    try:
        browser = await driver.chromium.launch(
            executable_path=settings.executable,
            headless=settings.headless,
            args=["--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check"],
        )
    except Exception as exc:
        await driver.stop()
        raise ToolError(
            f"Chromium at {settings.executable} did not start: {_first_line(exc)}. " + INSTALL_HINT
        ) from None

    async def stop() -> None:
        try:
            await browser.close()
        finally:
            await driver.stop()

    return browser, stop


@dataclass(kw_only=True, slots=True)
class Tab:
    """One page of the browser, with the refs of its latest snapshot."""

    page: Page
    refs: dict[str, Frame] = field(default_factory=lambda: dict[str, "Frame"]())
    """The refs of the latest snapshot and the frame each lives in."""
    last_snapshot: str | None = None
    last_document: str = ""
    """The document the latest snapshot was taken of (a new one after a navigation)."""
    last_cut: bool = False
    """The latest snapshot was cut at a cap."""
    crashed: bool = False


class BrowserSession:
    """The session's browser and tabs. Get it with :meth:`for_session`.

    Session state: its snapshot lists the open tabs' addresses and says the browser is
    not restored (opening a page again is a new request, which needs its own call); the
    session's end closes the browser (:meth:`aclose`).
    """

    key: ClassVar[str] = "browser"

    def __init__(
        self,
        *,
        launcher: Launcher | None = None,
        settings: BrowserSettings | None = None,
        resolver: Resolver | None = None,
    ) -> None:
        self.launcher: Launcher = launcher or launch_chromium
        self._settings = settings
        self.resolver = resolver
        """How the proxy resolves names; None: the system's resolver."""
        self.events = EventLog()
        self.tabs: list[Tab] = []
        self.current = 0
        self.ctx: ToolContext | None = None
        """The context of the call running now; the request guard reads its rules."""
        self.approved_hosts: set[str] = set()
        """Hosts a Browser_navigate call was allowed to open in this session."""
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._stop: Stop | None = None
        self._stop_proxy: StopProxy | None = None
        self._redirects: RedirectGuard | None = None
        self.next_ref = 1
        """The next ref number: refs are never reused within the session."""
        self.inflight = 0
        """Requests of the session's pages still under way."""
        self._lock = anyio.Lock()
        self._downloads: Path | None = None
        self._dead = ""
        self._registered = False
        self.earlier_tabs: tuple[str, ...] = ()
        """The tabs the session this one resumes had open (none are open now)."""

    @classmethod
    def for_session(cls, session: Session) -> BrowserSession:
        """The session's browser state (the session closes it at its end)."""
        found = session.service(cls)
        if not found._registered:
            found._registered = True
            found._downloads = session.directory / "downloads"
        return found

    def addresses(self) -> tuple[str, ...]:
        """The address of each open tab, in order."""
        return tuple(t.page.url for t in self.tabs) if self.running else ()

    def snapshot(self) -> dict[str, Any]:
        """The open tabs' addresses; a browser is not restorable (pages are not reopened)."""
        return {"restorable": False, "tabs": list(self.addresses() or self.earlier_tabs)}

    def restore(self, data: Any) -> None:
        """Remember the tabs an earlier session had open; nothing is opened again."""
        tabs: object = cast(dict[str, object], data).get("tabs") if isinstance(data, dict) else None
        if isinstance(tabs, list):
            self.earlier_tabs = tuple(t for t in cast(list[object], tabs) if isinstance(t, str))

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        """The open tabs (or the resumed session's, closed), for the model to go on."""
        open_now = self.addresses()
        if open_now:
            head = "Browser tabs open (the current one is marked *):"
            marked = (("*" if i == self.current else "-") + f" {u}" for i, u in enumerate(open_now))
            return Carried(lines=(head, *marked))
        if self.earlier_tabs:
            head = "The resumed session's browser was closed; its tabs were (navigate again):"
            return Carried(lines=(head, *(f"- {u}" for u in self.earlier_tabs)))
        return Carried()

    @property
    def settings(self) -> BrowserSettings:
        """The settings, read from the environment on first use."""
        if self._settings is None:
            self._settings = BrowserSettings.from_env()
        return self._settings

    @property
    def running(self) -> bool:
        """Whether a browser is up."""
        return self._context is not None and not self._dead

    @property
    def downloads(self) -> Path:
        """Where downloads are saved: the session directory's ``downloads``."""
        if self._downloads is None:
            raise RuntimeError("BrowserSession must be obtained with for_session()")
        return self._downloads

    # -- the browser ------------------------------------------------------------------

    async def tab(self, ctx: ToolContext) -> Tab:
        """The current tab, the browser started (or restarted) first when needed."""
        self.ctx = ctx
        async with self._lock:
            if self._browser is not None and not self._browser.is_connected():
                self._dead = self._dead or "it was closed or killed"
            if self._dead:
                self.events.note(
                    f"The browser had stopped ({self._dead}); a new one was started. Its tabs "
                    "and their pages are gone: navigate again."
                )
                await self._shutdown()
            if self._context is None:
                await self._start()
            if not self.tabs:
                await self.new_tab()
            tab = self.tabs[self.current]
            if tab.crashed or tab.page.is_closed():
                tab = await self._replace(tab)
            return tab

    async def _start(self) -> None:
        from hands.tools.browser._guard import RequestGuard
        from hands.tools.browser._proxy import BrowserProxy, serve_proxy
        from hands.tools.browser._redirects import RedirectGuard

        settings = self.settings
        if settings.note:
            self.events.note(settings.note)
        browser, stop = await self.launcher(settings)
        self._browser, self._stop, self._dead = browser, stop, ""
        browser.on("disconnected", lambda _b: self._lost("it was closed or killed"))
        guard = RequestGuard(self)
        try:
            proxy = (
                BrowserProxy(self)
                if self.resolver is None
                else BrowserProxy(self, resolver=self.resolver)
            )
            port, self._stop_proxy = await serve_proxy(proxy)
            self._redirects = RedirectGuard(self, guard)
            await self._redirects.start(browser)
            context = await browser.new_context(
                accept_downloads=True,
                service_workers="block",
                viewport={"width": 1280, "height": 800},
                proxy={"server": f"http://127.0.0.1:{port}"},
            )
        except Exception:
            await self._shutdown()
            raise
        context.set_default_timeout(settings.action_timeout_s * 1000)
        context.set_default_navigation_timeout(settings.navigation_timeout_s * 1000)
        await context.route("**/*", guard.handle)
        context.on("page", self._on_new_page)
        context.on("request", lambda _r: self._count(1))
        context.on("requestfinished", lambda _r: self._count(-1))
        context.on("requestfailed", lambda _r: self._count(-1))
        context.on("close", lambda _c: self._lost("it was closed or killed"))
        self._context = context

    def _count(self, step: int) -> None:
        self.inflight = max(0, self.inflight + step)

    def lost(self, why: str) -> None:
        """The browser went away (a call saw it closed): the next call starts a new one."""
        self._lost(why)

    def _lost(self, why: str) -> None:
        if self._context is not None:
            self._dead = why

    async def new_tab(self) -> Tab:
        """Open a blank tab and make it the current one."""
        if self._context is None:
            raise ToolError("The browser is not running.")
        page = await self._context.new_page()  # _on_new_page adds it
        return self._find(page)

    def _on_new_page(self, page: Page) -> None:
        opener_known = bool(self.tabs)
        tab = Tab(page=page)
        self.tabs.append(tab)
        self.current = len(self.tabs) - 1
        self.events.watch(page, self)
        page.on("crash", lambda _p: self._crashed(tab))
        if opener_known:
            self.events.note(
                f"A new tab [{self.current}] opened ({page.url}); it is now the current tab. "
                "The tabs tool lists the tabs and selects another."
            )

    def _crashed(self, tab: Tab) -> None:
        tab.crashed = True
        self.events.note("The page crashed (its renderer died).")

    def _find(self, page: Page) -> Tab:
        for tab in self.tabs:
            if tab.page is page:
                return tab
        tab = Tab(page=page)
        self.tabs.append(tab)
        return tab

    async def _replace(self, tab: Tab) -> Tab:
        index = self.tabs.index(tab)
        with anyio.move_on_after(2):
            if not tab.page.is_closed():
                await tab.page.close()
        self.tabs.remove(tab)
        fresh = await self.new_tab()
        self.tabs.remove(fresh)
        self.tabs.insert(index, fresh)
        self.current = index
        self.events.note(f"Tab [{index}] had crashed or closed; it is now a blank page.")
        return fresh

    async def close_tab(self, index: int) -> None:
        """Close one tab; the one before it becomes current."""
        tab = self.tabs.pop(index)
        with anyio.move_on_after(5):
            await tab.page.close()
        if self.current >= len(self.tabs):
            self.current = max(0, len(self.tabs) - 1)
        elif index < self.current:
            self.current -= 1

    # -- closing ----------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the browser (idempotent); nothing may cancel it halfway."""
        with anyio.CancelScope(shield=True):
            async with self._lock:
                await self._shutdown()

    async def _shutdown(self) -> None:
        stop, self._stop = self._stop, None
        stop_proxy, self._stop_proxy = self._stop_proxy, None
        redirects, self._redirects = self._redirects, None
        context, self._context = self._context, None
        self._browser = None
        self._dead = ""
        self.tabs.clear()
        self.current = 0
        self.inflight = 0
        self.approved_hosts.clear()
        with anyio.move_on_after(CLOSE_SECONDS):
            if redirects is not None:
                await redirects.stop()
            if context is not None:
                try:
                    await context.close()
                except Exception:  # already gone with its browser
                    pass
            if stop is not None:
                try:
                    await stop()
                except Exception:  # already gone (killed from outside): nothing to close
                    pass
            if stop_proxy is not None:
                await stop_proxy()

    @property
    def context(self) -> BrowserContext | None:
        """The browser context of the session (its profile); None before the first call."""
        return self._context

    def debug_state(self) -> dict[str, Any]:
        """A small summary for tests and diagnostics."""
        return {"running": self.running, "tabs": len(self.tabs), "current": self.current}


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
