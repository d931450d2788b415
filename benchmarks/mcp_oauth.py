"""Per-call cost of hands' OAuth handler on a remote MCP server.

One loopback authorization server and one MCP server requiring its tokens (the tests'
``oauth_server.py``); hands logs in once (the "browser" is an HTTP client), then two
connections call the same tool in interleaved rounds:

* oauth   the session's OAuth handler with the stored token (what every remote server
          gets);
* header  the same token as a static ``Authorization`` header, with no handler at all.

The figures are medians of the per-call time. Goal: oauth ≤ 1.1 x header.

    .venv/bin/python benchmarks/mcp_oauth.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import httpx

import hands.mcp.oauth as oauth
from hands.mcp.auth_store import AuthRecord
from hands.mcp.config import McpServerConfig, McpSettings, parse_server
from hands.mcp.login import login
from hands.mcp.manager import McpManager

SERVER = Path(__file__).resolve().parents[1] / "tests" / "mcp" / "servers" / "oauth_server.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int) -> None:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {port}")


async def follow(url: str) -> None:
    async with httpx.AsyncClient(follow_redirects=True, timeout=30) as client:
        await client.get(url)


async def measure(config: McpServerConfig, settings: McpSettings, rounds: int) -> None:
    status = await login(config, settings=settings, open_url=follow, timeout_s=30)
    assert status.state == "connected", status.error
    token = AuthRecord(settings.auth_dir, config).read()["tokens"]["access_token"]
    header = parse_server(
        "header",
        {"type": "http", "url": config.url, "headers": {"Authorization": f"Bearer {token}"}},
        env={},
    )
    with_handler = McpManager([config], settings=settings).start()
    real = oauth.connection_auth
    oauth.connection_auth = lambda *_a, **_k: None  # type: ignore[assignment]
    without = McpManager([header], settings=settings).start()
    await without.wait_ready(limit=30)
    oauth.connection_auth = real
    await with_handler.wait_ready(limit=30)
    times: dict[str, list[float]] = {"oauth": [], "header": []}
    try:
        for _ in range(rounds):
            for name, manager in (("oauth", with_handler), ("header", without)):
                server = manager.status()[0].name
                started = time.perf_counter()
                await manager.call_tool(server, "whoami", {}, lambda _p: None)
                times[name].append(time.perf_counter() - started)
    finally:
        await with_handler.aclose()
        await without.aclose()
    a, b = (statistics.median(times[k]) * 1000 for k in ("oauth", "header"))
    print(f"oauth  {a:.2f} ms/call (median of {rounds})")
    print(f"header {b:.2f} ms/call (median of {rounds})")
    print(f"ratio  {a / b:.2f} x (goal <= 1.1)")
    print(f"load   {os.getloadavg()[0]:.2f} (1 min)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    rounds = 50 if parser.parse_args().quick else 300
    as_port, rs_port = free_port(), free_port()
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--as-port", str(as_port), "--rs-port", str(rs_port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(as_port)
        wait_for(rs_port)
        with tempfile.TemporaryDirectory() as home:
            config = parse_server(
                "oauth", {"type": "http", "url": f"http://127.0.0.1:{rs_port}/mcp"}, env={}
            )
            settings = McpSettings(startup_timeout_s=30, auth_dir=Path(home) / "mcp-auth")
            anyio.run(measure, config, settings, rounds)
    finally:
        process.kill()
        process.wait()


if __name__ == "__main__":
    main()
