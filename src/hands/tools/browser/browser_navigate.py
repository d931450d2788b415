"""Browser_navigate: open a URL in the session's browser and show the page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.errors import ToolError
from hands.tools.browser._base import Action, BrowserReport, BrowserTool, first_line
from hands.tools.browser._navigation import BrowserNavigateInput, NavigationRules, parse_target

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Open a URL in a real (headless) Chromium and get the page back as an
accessibility snapshot: roles, names, values and states, with a ref such as [ref=e12] on
every element you can act on. Use the refs with the other browser tools (click, type,
select_option, hover, screenshot).

- Use it for pages that need JavaScript, a login, forms or clicking; to just read a
  page, WebFetch is cheaper.
- url: http(s), a file:// URL inside the working directories, or about:blank.
- Waits for the page to load (and its requests to finish, briefly). A page that does
  not load in time gives an error with what has loaded so far.
- The user may be asked once per domain. Private and local addresses are refused unless
  the user allowed that host.
- The browser starts on the first browser call and lives for the session; its tabs,
  cookies and logins are kept between calls."""


class BrowserNavigateTool(NavigationRules[BrowserReport], BrowserTool[BrowserNavigateInput]):
    """Open a URL in the current tab (its rules: :class:`NavigationRules`)."""

    description = DESCRIPTION
    search_hint = "open a web page in a real browser: click, type, log in, fill forms"

    async def act(
        self, input: BrowserNavigateInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._events import bullet  # lazy: start-up
        from hands.tools.browser._guard import address_refusal  # lazy: start-up
        from hands.tools.http_proxy import BLOCKED_HEADER, BLOCKED_VALUE  # lazy: start-up

        target = parse_target(input.url, ctx)
        if isinstance(target, str):
            raise ToolError(target)
        if target.host:
            port = _port(target.url)
            problem = await address_refusal(target.host, port, ctx)
            if problem is not None:
                raise ToolError(f"Refused to open {target.url}: {problem}")
            browser.approved_hosts.add(target.host)
        from playwright.async_api import Error, TimeoutError

        timeout = browser.settings.navigation_timeout_s
        mark = browser.events.mark()
        try:
            response = await tab.page.goto(target.url, wait_until="load", timeout=timeout * 1000)
        except TimeoutError:
            return Action(
                line=(
                    f"{target.url} did not finish loading within {timeout:g} s. What has "
                    "loaded so far follows; wait for more, reload, or try another page."
                ),
                is_error=True,
            )
        except Error as exc:
            text = f"Could not open {target.url}: {first_line(exc)}"
            events = browser.events.since(mark)
            if events:
                text += "\nEvents:\n" + bullet(events)
            raise ToolError(text) from None
        if response is not None and response.headers.get(BLOCKED_HEADER.lower()) == BLOCKED_VALUE:
            return Action(
                line=(
                    f"Refused to open {target.url}: the browser's network proxy blocked the "
                    "connection (the events say why)."
                ),
                is_error=True,
            )
        status = response.status if response is not None else None
        line = f"Opened {tab.page.url}"
        if status is not None and status >= 400:
            line += f" (HTTP {status} {response.status_text if response else ''})".rstrip()
        return Action(line=line + ".")


def _port(url: str) -> int:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.port or (443 if parts.scheme == "https" else 80)


__all__ = ["BrowserNavigateInput", "BrowserNavigateTool"]
