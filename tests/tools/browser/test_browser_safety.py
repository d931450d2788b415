"""The browser's network rules, its snapshot cap, and faults of the browser itself."""

from __future__ import annotations

import os
import signal
import time

from hands.core.decision import AskRequest, PermissionDecision, allow, deny
from tools.browser.conftest import Browsing, ref_of


def test_navigation_asks_per_domain_and_refuses_loopback_no_rule_names(
    browsing: Browsing,
) -> None:
    asked: list[str] = []

    async def answer(request: AskRequest) -> PermissionDecision:
        asked.append(request.message)
        return allow("yes") if len(asked) > 1 else deny("no")

    engine = browsing.engine()  # WebFetch(domain:127.0.0.1) is allowed
    opened = browsing.run(
        "browser_navigate", url=browsing.pages.url("/nav-a"), engine=engine, mode="default",
        ask=answer,
    )  # fmt: skip
    assert opened.status == "ok" and asked == [], opened.block.text
    other = browsing.pages.url("/nav-a", host="localhost")
    refused = browsing.run("browser_navigate", url=other, engine=engine, mode="default", ask=answer)
    assert refused.status == "rejected" and "Browser_navigate(domain:localhost)" in asked[0]
    approved = browsing.run(
        "browser_navigate", url=other, engine=engine, mode="default", ask=answer
    )
    assert approved.is_error and len(asked) == 2
    assert "localhost resolves to 127.0.0.1, a loopback address" in approved.block.text
    assert "domain:localhost allow rule" in approved.block.text


def test_a_webfetch_deny_rule_stops_the_browser_too(browsing: Browsing) -> None:
    engine = browsing.engine(deny=["WebFetch(domain:127.0.0.1)"])
    out = browsing.run("browser_navigate", url=browsing.pages.url("/nav-a"), engine=engine)
    assert out.status == "rejected"
    assert "The deny rule WebFetch(domain:127.0.0.1) (from " in out.block.text


def test_a_click_to_a_host_no_rule_allows_is_stopped_and_reported(browsing: Browsing) -> None:
    elsewhere = browsing.pages.url("/nav-b", host="localhost")
    url = browsing.pages.url(f"/link?to={elsewhere}")
    engine = browsing.engine()
    page = browsing.run("browser_navigate", url=url, engine=engine, mode="default")
    assert page.status == "ok", page.block.text
    link = ref_of(page.block.text, 'link "Elsewhere"')
    clicked = browsing.run("browser_click", ref=link, engine=engine, mode="bypassPermissions")
    assert clicked.status == "ok"
    # bypass allows any domain, but localhost is a loopback name no rule opened
    assert "Blocked http://localhost" in clicked.block.text and "loopback" in clicked.block.text
    assert "Page B" not in clicked.block.text
    page = browsing.run("browser_navigate", url=url, engine=engine, mode="default")
    link = ref_of(page.block.text, 'link "Elsewhere"')
    hits_before = list(browsing.pages.hits)
    strict = browsing.engine(allow=["WebFetch(domain:127.0.0.1)", "Browser_click"])
    again = browsing.run("browser_click", ref=link, engine=strict, mode="default")
    assert "opening localhost needs the user's permission; call Browser_navigate" in (
        again.block.text
    )
    assert browsing.pages.hits == hits_before  # nothing reached the server


def test_file_urls_open_only_inside_the_working_directories(browsing: Browsing) -> None:
    page = browsing.project / "page.html"
    page.write_text("<title>Local</title><h1>From disk</h1>")
    inside = browsing.ok("browser_navigate", url=page.as_uri())
    assert 'heading "From disk"' in inside
    outside = browsing.err("browser_navigate", url="file:///etc/hostname")
    assert "outside the working directories" in outside
    other = browsing.err("browser_navigate", url="ftp://example.com/")
    assert "the ftp: scheme" in other


def test_the_snapshot_is_cut_at_the_cap_and_hidden_refs_are_refused(browsing: Browsing) -> None:
    browsing.configure(snapshot_chars=2_000)
    text = browsing.open("/big?n=5000")
    assert "[Snapshot cut: " in text and 'button "Item 4999"' not in text
    assert "the rest of the page is not shown and its refs cannot be used" in text
    shown = ref_of(text, 'button "Item 0"')
    assert "Clicked" in browsing.ok("browser_click", ref=shown)
    hidden = browsing.err("browser_click", ref="e4000")
    assert "not in the latest snapshot" in hidden


def test_a_browser_killed_from_outside_is_restarted_on_the_next_call(
    browsing: Browsing,
) -> None:
    from tools.browser.processes import browser_pids

    b = browsing
    b.browser.launcher = _own_launcher()
    before = set(browser_pids(os.getpid()))  # the module's browser: not to be killed
    b.open("/nav-a")
    pids = [p for p in browser_pids(os.getpid()) if p not in before]
    assert pids, "no chromium of this test's own"
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    for _ in range(50):  # the driver sees the browser go, then Playwright says so
        if not b.browser.running:
            break
        time.sleep(0.1)
    again = b.open("/nav-b")
    assert "The browser had stopped" in again and 'heading "Page B"' in again


def _own_launcher():  # a browser of this test's own, so killing it spares the module's
    from hands.tools.browser._session import launch_chromium

    return launch_chromium


def test_a_crashed_page_is_replaced_by_a_blank_tab_with_a_note(browsing: Browsing) -> None:
    browsing.open("/nav-a")
    tab = browsing.browser.tabs[0]

    async def crash() -> None:
        try:
            await tab.page.goto("chrome://crash", timeout=5_000)
        except Exception:  # the renderer died: the navigation fails
            pass

    browsing.portal.call(crash)
    for _ in range(50):
        if tab.crashed:
            break
        time.sleep(0.1)
    assert tab.crashed
    after = browsing.ok("browser_snapshot")
    assert "Tab [0] had crashed or closed; it is now a blank page." in after
    assert 'heading "Page B"' in browsing.open("/nav-b")


def test_no_spelling_of_loopback_reaches_the_page_server_in_any_mode(browsing: Browsing) -> None:
    # the canary is the live page server on 127.0.0.1; no rule names any loopback host
    from tools.web.test_web_fetch import LOOPBACK_SPELLINGS

    engine = browsing.engine(allow=("Browser_navigate(domain:*)", "WebFetch(domain:*)"))
    port = browsing.pages.url("/nav-a").split(":")[2].split("/")[0]
    before = list(browsing.pages.hits)
    for mode in ("default", "bypassPermissions"):
        for host in LOOPBACK_SPELLINGS:
            out = browsing.run(
                "browser_navigate", url=f"http://{host}:{port}/nav-a", engine=engine, mode=mode
            )
            assert out.is_error or out.status == "rejected", (host, mode, out.block.text)
            assert "Page A" not in out.block.text
    assert browsing.pages.hits == before
    # the control: the one exact rule that opens 127.0.0.1 reaches the canary
    opened = browsing.run("browser_navigate", url=browsing.pages.url("/nav-a"),
                          engine=browsing.engine())  # fmt: skip
    assert opened.status == "ok" and browsing.pages.hits != before, opened.block.text
