"""sandbox.network.allowedDomains, with real bwrap, a real proxy and a loopback server."""

from __future__ import annotations

import http.server
import secrets
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from hands.tools.bash._settings import BashSettings, SandboxSettings
from hands.tools.bash.sandbox.netproxy import (
    DomainPolicy,
    NetworkProxies,
    NetworkProxy,
)
from hands.tools.http_proxy import ProxyError, parse_request
from http_kit import QuietHandler, serving
from tools.bash.kit import text

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"
)
needs_curl = pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
pytestmark = [pytest.mark.anyio]

PY = sys.executable


def allowing(*domains: str, denied: tuple[str, ...] = ()) -> BashSettings:
    return BashSettings(
        sandbox=SandboxSettings(enabled=True, allowed_domains=domains, denied_domains=denied)
    )


class Server(http.server.ThreadingHTTPServer):
    """A loopback HTTP server that counts every connection it accepts."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.connections = 0
        self.paths: list[str] = []

    @property
    def port(self) -> int:
        return self.server_address[1]

    def verify_request(self, request, client_address) -> bool:  # type: ignore[override]
        self.connections += 1
        return True


class Handler(QuietHandler):
    server: Server  # pyright: ignore[reportIncompatibleVariableOverride]

    def do_GET(self) -> None:
        self.server.paths.append(self.path)
        self.reply(200, f"hello from the host {self.path}".encode())

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        self.server.paths.append(self.path)
        self.reply(200, b"posted " + body)


@pytest.fixture
def server() -> Iterator[Server]:
    with serving(Server()) as srv:
        yield srv


# -- through the real sandbox -------------------------------------------------------------


@needs_bwrap
@needs_curl
async def test_curl_and_urllib_reach_an_allowed_host_through_the_proxy(harness, server):
    h = harness(allowing("localhost"))
    try:
        url = f"http://localhost:{server.port}"
        out = await h.bash(f"curl -sS --max-time 10 {url}/curl")
        assert not out.is_error, text(out)
        assert text(out) == "hello from the host /curl"
        # HTTPS goes through CONNECT: tunnel plain HTTP the same way
        out = await h.bash(f"curl -sS --max-time 10 --proxytunnel {url}/tunnel")
        assert text(out) == "hello from the host /tunnel"
        out = await h.bash(f"curl -sS --max-time 10 -d payload {url}/post")
        assert text(out) == "posted payload"
        script = f"import urllib.request; print(urllib.request.urlopen('{url}/py').read().decode())"
        out = await h.bash(f'{PY} -c "{script}"')
        assert text(out) == "hello from the host /py"
        assert server.paths == ["/curl", "/tunnel", "/post", "/py"]
    finally:
        await h.session.aclose()


@needs_bwrap
@needs_curl
async def test_other_domains_get_a_403_naming_the_setting(harness, server):
    h = harness(allowing("localhost"))
    try:
        out = await h.bash("curl -sS --max-time 10 -w ' [%{http_code}]' http://example.com/")
        assert "[403]" in text(out)
        assert "example.com is not in sandbox.network.allowedDomains" in text(out)
        assert 'add "example.com" to sandbox.network.allowedDomains' in text(out)
        # HTTPS: curl only says the tunnel failed, so the tool adds what the proxy refused
        out = await h.bash("curl -sS --max-time 10 https://www.example.com/")
        assert out.is_error
        assert "403" in text(out)
        assert "refused: www.example.com:443" in text(out)
        assert '"*.example.com"' in text(out)
    finally:
        await h.session.aclose()
    assert server.connections == 0


@needs_bwrap
@needs_curl
async def test_denied_domains_win_over_a_wildcard(harness):
    h = harness(allowing("*.example.com", denied=("evil.example.com",)))
    try:
        out = await h.bash("curl -sS --max-time 10 http://evil.example.com/")
        assert 'matches "evil.example.com" in sandbox.network.deniedDomains' in text(out)
    finally:
        await h.session.aclose()


@needs_bwrap
async def test_without_allowed_domains_there_is_no_network_at_all(harness, server):
    h = harness(BashSettings(sandbox=SandboxSettings(enabled=True)))
    try:
        out = await h.bash(
            "env | grep -i _proxy= ; test -e /tmp/.hands-proxy.sock && echo socket; "
            f"exec 3<>/dev/tcp/127.0.0.1/{server.port} && echo connected"
        )
        assert out.is_error
        assert "proxy" not in text(out).lower().replace("hands-proxy", "")
        assert "socket" not in text(out) and "connected" not in text(out)
        script = (
            "import socket; s = socket.socket(); s.settimeout(3); "
            f"s.connect(('127.0.0.1', {server.port}))"
        )
        # a system interpreter: the sandbox's private /tmp hides one that lives under /tmp
        system_py = shutil.which("python3", path="/usr/bin:/bin") or PY
        out = await h.bash(f'{system_py} -c "{script}"')
        assert out.is_error
        assert "ConnectionRefusedError" in text(out) or "unreachable" in text(out)
        assert not NetworkProxies.for_session(h.session)._proxies  # no proxy was started
    finally:
        await h.session.aclose()
    assert server.connections == 0


@needs_bwrap
@needs_curl
async def test_connections_that_bypass_the_proxy_fail(harness, server):
    h = harness(allowing("localhost"))
    try:
        port = server.port
        out = await h.bash(f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected")
        assert out.is_error and "connected" not in text(out)
        out = await h.bash(f"curl -sS --max-time 5 --noproxy '*' http://localhost:{port}/")
        assert out.is_error and "hello" not in text(out)
        script = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3)"
        out = await h.bash(f'{PY} -c "{script}"')
        assert out.is_error
        out = await h.bash("exec 3<>/dev/tcp/1.1.1.1/80 && echo connected")
        assert out.is_error and "connected" not in text(out)
        # talking to the proxy's socket directly still goes through the policy
        out = await h.bash(
            "curl -sS --max-time 5 --unix-socket /tmp/.hands-proxy.sock http://example.com/"
        )
        assert "sandbox's network proxy" in text(out)
        request = "CONNECT example.com:443 HTTP/1.1\\r\\n\\r\\n"
        script = (
            "import socket; s = socket.socket(socket.AF_UNIX); "
            f"s.connect('/tmp/.hands-proxy.sock'); s.sendall(b'{request}'); "
            "print(s.recv(200).split(b'\\r\\n')[0].decode())"
        )
        out = await h.bash(f'{PY} -c "{script}"')
        assert text(out) == "HTTP/1.1 403 Forbidden"
    finally:
        await h.session.aclose()
    assert server.connections == 0
    assert server.paths == []


@needs_bwrap
async def test_no_proxy_keeps_the_sandbox_loopback_local_unless_allowed(harness):
    h = harness(allowing("example.org"))
    try:
        out = await h.bash('echo "$HTTPS_PROXY|$NO_PROXY"')
        proxy, no_proxy = text(out).split("|")
        assert proxy.startswith("http://127.0.0.1:")
        assert "localhost" in no_proxy.split(",")
    finally:
        await h.session.aclose()
    h = harness(allowing("localhost"))
    try:
        out = await h.bash('echo "$no_proxy"')
        assert "localhost" not in text(out).split(",")
        assert "127.0.0.1" in text(out).split(",")
    finally:
        await h.session.aclose()


def _forwarders(token: str) -> list[str]:
    """Live processes (host-wide process table) running the forwarder for ``token``."""
    ps = subprocess.run(
        ["ps", "-ww", "-eo", "stat=,args="], capture_output=True, text=True, check=True
    )
    return [
        line
        for line in ps.stdout.splitlines()
        if token in line and ".hands-forwarder.py" in line and not line.startswith("Z")
    ]


def _proxy_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("hands-netproxy-")]


@needs_bwrap
async def test_nothing_is_left_running_after_the_session_closes(harness):
    before = set(_proxy_threads())
    token = f"60.{secrets.randbelow(10**6):06d}7"
    h = harness(allowing("localhost"))
    closed = False
    try:
        out = await h.bash(f"sleep {token}", run_in_background=True)
        assert not out.is_error
        proxy = next(iter(NetworkProxies.for_session(h.session)._proxies.values()))
        socket_dir = proxy.socket_path.parent
        assert socket_dir.exists()
        for _ in range(100):  # the forwarder starts with the task
            if _forwarders(token):
                break
            await anyio.sleep(0.02)
        assert _forwarders(token), "the forwarder should run beside the background command"
        assert set(_proxy_threads()) - before
        # a foreground command's forwarder ends with the command
        fg = f"0.{secrets.randbelow(10**6):06d}3"
        out = await h.bash(f"sleep {fg}")
        assert not out.is_error and not _forwarders(fg)
        await h.session.aclose()
        closed = True
        assert not _forwarders(token)
        assert set(_proxy_threads()) <= before
        assert not socket_dir.exists()
    finally:
        if not closed:
            await h.session.aclose()


@needs_bwrap
async def test_the_proxy_is_shared_by_the_session_and_restarted_if_it_died(harness):
    h = harness(allowing("localhost"))
    try:
        await h.bash("true")
        await h.bash("true")
        proxies = NetworkProxies.for_session(h.session)._proxies
        assert len(proxies) == 1
        first = next(iter(proxies.values()))
        await first.aclose()
        out = await h.bash("true")
        assert not out.is_error
        second = next(iter(proxies.values()))
        assert second is not first and second.running
    finally:
        await h.session.aclose()


# -- the proxy itself, with a stand-in resolver -------------------------------------------


def _ask(proxy: NetworkProxy, request: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(str(proxy.socket_path))
        s.sendall(request)
        chunks: list[bytes] = []
        while data := s.recv(65536):
            chunks.append(data)
        return b"".join(chunks)


async def test_wildcards_never_open_private_addresses(server):
    async def resolver(host: str, port: int) -> list[str]:
        return {"meta.example.test": ["169.254.169.254"]}.get(host, ["127.0.0.1"])

    policy = DomainPolicy(allowed=("*.example.test", "exact.example.test"))
    proxy = NetworkProxy(policy, resolver=resolver)
    await anyio.to_thread.run_sync(proxy.start)
    try:

        def get(host: str) -> bytes:
            return _ask(
                proxy,
                f"GET http://{host}:{server.port}/x HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(),
            )

        denied = await anyio.to_thread.run_sync(get, "sub.example.test")
        assert denied.startswith(b"HTTP/1.1 403")
        assert b"127.0.0.1" in denied and b'add "sub.example.test"' in denied
        metadata = await anyio.to_thread.run_sync(get, "meta.example.test")
        assert metadata.startswith(b"HTTP/1.1 403") and b"169.254.169.254" in metadata
        assert server.connections == 0
        allowed = await anyio.to_thread.run_sync(get, "exact.example.test")
        assert allowed.split(b"\r\n")[0].endswith(b" 200 OK")
        assert allowed.endswith(b"hello from the host /x")
        assert [b.host for b in proxy.blocked_since(0)] == [
            "sub.example.test",
            "meta.example.test",
        ]
    finally:
        await proxy.aclose()
    assert not proxy.running


# -- policy and parsing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "allowed", "explicit"),
    [
        ("example.com", True, True),
        ("api.example.com", False, False),
        ("github.com", False, False),
        ("raw.githubusercontent.com", True, False),
        ("a.b.githubusercontent.com", True, False),
        ("githubusercontent.com", False, False),
        ("evilgithubusercontent.com", False, False),
        ("localhost", True, True),
        ("127.0.0.1", True, True),
        ("::1", True, True),
        ("example.com.evil.net", False, False),
    ],
)
def test_domain_policy(host, allowed, explicit):
    settings = SandboxSettings(
        enabled=True,
        allowed_domains=("Example.COM.", "*.githubusercontent.com", "localhost", "127.0.0.1",
                         "[::1]", "*", "*.*.bad", ""),
    )  # fmt: skip
    verdict = DomainPolicy.from_settings(settings).check(host)
    assert (verdict.allowed, verdict.explicit) == (allowed, explicit)
    if not allowed:
        assert f'"{host}"' in verdict.reason


_EMBEDDED_LOOPBACK = (
    "::ffff:127.0.0.1",
    "::7f00:1",
    "::ffff:0:7f00:1",
    "64:ff9b::7f00:1",
    "64:ff9b:1::7f00:1",
    "2002:7f00:1::",
    "2002:a9fe:a9fe::",
)


async def test_a_wildcard_never_opens_an_ipv4_address_hidden_in_ipv6(server):
    """The proxy asks the same classifier as WebFetch and the browser."""

    async def resolver(host: str, port: int) -> list[str]:
        return [_EMBEDDED_LOOPBACK[int(host.split(".")[0].removeprefix("h"))]]

    proxy = NetworkProxy(DomainPolicy(allowed=("*.example.test",)), resolver=resolver)
    await anyio.to_thread.run_sync(proxy.start)
    try:
        for i, address in enumerate(_EMBEDDED_LOOPBACK):
            host = f"h{i}.example.test"
            request = f"GET http://{host}:{server.port}/x HTTP/1.1\r\nHost: {host}\r\n\r\n"
            answer = await anyio.to_thread.run_sync(_ask, proxy, request.encode())
            assert answer.startswith(b"HTTP/1.1 403"), (address, answer[:200])
            assert address.encode() in answer
        assert server.connections == 0
    finally:
        await proxy.aclose()


def test_parse_requests():
    request = parse_request(
        b"GET http://user:pw@Example.com:8080/a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\n"
        b"Proxy-Connection: keep-alive\r\nProxy-Authorization: x\r\nAccept: */*\r\n\r\n"
    )
    assert (request.host, request.port, request.tunnel) == ("example.com", 8080, False)
    assert request.head == (
        b"GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\nAccept: */*\r\nConnection: close\r\n\r\n"
    )
    tunnel = parse_request(b"CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n")
    assert (tunnel.host, tunnel.port, tunnel.tunnel) == ("::1", 443, True)
    no_host = parse_request(b"GET http://example.org/ HTTP/1.0\r\n\r\n")
    assert no_host.port == 80 and b"Host: example.org\r\n" in no_host.head
    for bad in (
        b"GET / HTTP/1.1\r\n\r\n",
        b"GET https://example.com/ HTTP/1.1\r\n\r\n",
        b"CONNECT example.com HTTP/1.1\r\n\r\n",
        b"CONNECT example.com:99999 HTTP/1.1\r\n\r\n",
        b"nonsense\r\n\r\n",
    ):
        with pytest.raises(ProxyError) as info:
            parse_request(bad)
        assert info.value.status == 400


def test_denied_domains_are_read_from_the_settings_file():
    settings = SandboxSettings.from_settings(
        {"sandbox": {"network": {"allowedDomains": ["*.a.com"], "deniedDomains": ["b.a.com"]}}}
    )
    assert settings.denied_domains == ("b.a.com",)
    policy = DomainPolicy.from_settings(settings)
    assert policy.check("c.a.com").allowed and not policy.check("b.a.com").allowed


def test_socket_paths_stay_short():
    proxy = NetworkProxy(DomainPolicy(allowed=("example.com",)))
    proxy.start()
    try:
        assert len(str(proxy.socket_path)) < 100
        assert (proxy.socket_path.stat().st_mode & 0o777) == 0o600
        assert (Path(proxy.socket_path).parent.stat().st_mode & 0o777) == 0o700
    finally:
        proxy.close()
