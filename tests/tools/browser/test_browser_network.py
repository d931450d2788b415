"""Every request of the browser checked before it goes out: redirect hops, connections, sockets.

A refused target is a second loopback server reached by the name ``localhost`` (a
loopback address no rule opened); its log proves it was never requested.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from urllib.parse import quote

import pytest

from hands.core.decision import AskRequest, PermissionDecision, allow
from hands.net.address import Address
from hands.net.resolve import resolve
from tools.browser.conftest import Browsing, ref_of
from tools.browser.pages import PageServer, page_server


@pytest.fixture
def elsewhere() -> Iterator[PageServer]:
    with page_server() as server:
        yield server


def _redirect_to(browsing: Browsing, target: str) -> str:
    return browsing.pages.url(f"/redirect?to={quote(target, safe='')}")


@contextlib.contextmanager
def _tcp_server(on_connect: Callable[[socket.socket], None]) -> Iterator[int]:
    """A loopback listener that hands every connection to ``on_connect`` in a thread; its port.

    Every connection is taken, a client's retry too (one left in the listen queue keeps
    its client waiting), until the block ends and no connection is left waiting. The
    listener is polled: a closed one does not wake an ``accept`` already blocked.
    """
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    done = threading.Event()

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                if done.is_set():
                    return
                continue
            except OSError:
                return
            with conn, contextlib.suppress(OSError):
                conn.settimeout(5)
                on_connect(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        done.set()
        thread.join(5)
        listener.close()


def test_a_redirect_onto_a_refused_address_is_stopped_before_it_is_requested(
    browsing: Browsing, elsewhere: PageServer
) -> None:
    target = elsewhere.url("/nav-b", host="localhost")
    out = browsing.run("browser_navigate", url=_redirect_to(browsing, target))
    assert out.is_error, out.block.text
    assert "Blocked the redirect (HTTP 302)" in out.block.text
    assert "localhost resolves to 127.0.0.1, a loopback address" in out.block.text
    assert elsewhere.hits == []


def test_a_redirect_chain_to_an_allowed_target_is_followed(browsing: Browsing) -> None:
    last = browsing.pages.url("/nav-b")
    middle = _redirect_to(browsing, last)
    text = browsing.ok("browser_navigate", url=_redirect_to(browsing, middle))
    assert 'heading "Page B"' in text and f"Opened {last}" in text
    assert browsing.pages.hits[-3:] == ["/redirect", "/redirect", "/nav-b"]


def test_a_redirect_to_a_domain_needing_an_ask_is_stopped_and_navigate_asks(
    browsing: Browsing, elsewhere: PageServer
) -> None:
    asked: list[str] = []

    async def answer(request: AskRequest) -> PermissionDecision:
        asked.append(request.message)
        return allow("yes")

    engine = browsing.engine(ask=["WebFetch(domain:localhost)"])
    target = elsewhere.url("/nav-b", host="localhost")
    out = browsing.run(
        "browser_navigate", url=_redirect_to(browsing, target), engine=engine, mode="default",
        ask=answer,
    )  # fmt: skip
    assert out.is_error and asked == [], out.block.text
    assert "opening localhost needs the user's permission; call Browser_navigate" in out.block.text
    assert elsewhere.hits == []
    browsing.run("browser_navigate", url=target, engine=engine, mode="default", ask=answer)
    assert len(asked) == 1 and "localhost" in asked[0]


def test_redirects_in_popups_and_iframes_are_checked_too(
    browsing: Browsing, elsewhere: PageServer
) -> None:
    refused = _redirect_to(browsing, elsewhere.url("/nav-b", host="localhost"))
    framed = browsing.ok("browser_navigate", url=browsing.pages.url(f"/frame?to={quote(refused)}"))
    assert "Blocked the redirect" in framed
    opener = browsing.open(f"/open?to={quote(refused)}")
    clicked = browsing.ok("browser_click", ref=ref_of(opener, 'button "Open"'))
    assert "Blocked the redirect" in clicked
    assert elsewhere.hits == []


def _rebinding(name: str) -> object:
    async def lookup(host: str, port: int) -> Sequence[Address]:
        if host == name:  # a public-looking name that answers with loopback
            import ipaddress

            return (ipaddress.ip_address("127.0.0.1"),)
        return await resolve(host, port)

    return lookup


def test_a_name_resolving_to_loopback_at_connect_time_is_refused(browsing: Browsing) -> None:
    browsing.browser.resolver = _rebinding("rebind.example.com")  # type: ignore[assignment]
    url = browsing.pages.url("/nav-a?rebind", host="rebind.example.com")
    out = browsing.run("browser_navigate", url=url)
    text = out.block.text
    assert out.is_error and "the browser's network proxy blocked the connection" in text
    assert "Blocked a connection to rebind.example.com:" in text
    assert "rebind.example.com resolves to 127.0.0.1, a loopback address" in text
    assert 'heading "Page A"' not in text
    assert "/nav-a?rebind" not in browsing.pages.full_hits
    opened = browsing.engine(allow=["WebFetch(domain:rebind.example.com)"])
    again = browsing.run("browser_navigate", url=url, engine=opened)
    assert 'heading "Page A"' in again.block.text  # the checked address is the one connected
    assert "/nav-a?rebind" in browsing.pages.full_hits


def test_a_websocket_to_a_refused_address_is_blocked_and_reported(browsing: Browsing) -> None:
    hits: list[bytes] = []
    with _tcp_server(lambda conn: hits.append(conn.recv(1024))) as port:
        text = browsing.open(f"/ws?to={quote(f'ws://localhost:{port}/feed')}")
        if "paragraph: connecting" in text:
            text = browsing.ok("browser_wait_for", text="failed")
        assert f"Blocked a connection to localhost:{port}" in text, text
        assert "WebSocket ws://localhost" in text
        assert "paragraph: failed" in text
    assert hits == []


def test_a_websocket_to_a_denied_domain_is_blocked_by_the_rule(browsing: Browsing) -> None:
    browsing.browser.resolver = _rebinding("sock.example.com")  # type: ignore[assignment]
    engine = browsing.engine(deny=["WebFetch(domain:sock.example.com)"])
    target = quote("ws://sock.example.com:49152/feed")
    out = browsing.run(
        "browser_navigate", url=browsing.pages.url(f"/ws?to={target}"), engine=engine
    )
    text = out.block.text
    if "paragraph: connecting" in text:
        text = browsing.run("browser_wait_for", text="failed", engine=engine).block.text
    assert "Blocked a connection to sock.example.com:49152: a permission rule denies" in text, text
    assert "WebSocket ws://sock.example.com:49152/feed failed" in text


def test_https_goes_through_the_proxy_tunnel_to_the_checked_address(browsing: Browsing) -> None:
    browsing.browser.resolver = _rebinding("tls.example.com")  # type: ignore[assignment]
    first: list[bytes] = []
    # a TLS server that reads the client hello's first byte and hangs up, on Chromium's
    # retry too: a retry left unanswered waited out Chromium's 30 s handshake timeout
    with _tcp_server(lambda conn: first.append(conn.recv(1))) as port:
        engine = browsing.engine(allow=["WebFetch(domain:tls.example.com)"])
        out = browsing.run(
            "browser_navigate", url=f"https://tls.example.com:{port}/", engine=engine
        )
        assert out.is_error  # the handshake fails, after the tunnel reached the server
    # a TLS handshake record came through the tunnel, on every connection Chromium made
    assert first and set(first) == {b"\x16"}, first
