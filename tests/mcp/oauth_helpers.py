"""A real loopback OAuth authorization server with an MCP server behind it, for the tests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from mcp_helpers import SERVERS, free_port

OAUTH_SERVER = SERVERS / "oauth_server.py"
FOLLOW_BROWSER = SERVERS / "follow_browser.py"


@dataclass
class Guarded:
    """The running pair: its URLs and the authorization server's event log."""

    issuer: str
    url: str
    log: Path

    def events(self, event: str | None = None) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        rows = [json.loads(line) for line in self.log.read_text().splitlines() if line]
        return [r for r in rows if event is None or r["event"] == event]

    def forget_access_tokens(self) -> None:
        httpx.post(f"{self.issuer}/test/forget-access").raise_for_status()

    def entry(self, **fields: Any) -> dict[str, Any]:
        """The ``.mcp.json`` entry for the MCP server."""
        kind = "sse" if self.url.endswith("/sse") else "http"
        return {"type": kind, "url": self.url, **fields}


def _wait_for(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"the OAuth test server exited with {process.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {port}")


@contextmanager
def guarded_server(tmp: Path, *extra: str) -> Iterator[Guarded]:
    """Start the authorization server and the MCP server (``extra``: their options)."""
    as_port, rs_port = free_port(), free_port()
    log = tmp / f"oauth-events-{rs_port}.jsonl"
    process = subprocess.Popen(
        [sys.executable, str(OAUTH_SERVER), "--as-port", str(as_port), "--rs-port",
         str(rs_port), "--log", str(log), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_for(as_port, process)
        _wait_for(rs_port, process)
        path = "sse" if "--sse" in extra else "mcp"
        yield Guarded(
            issuer=f"http://127.0.0.1:{as_port}", url=f"http://127.0.0.1:{rs_port}/{path}", log=log
        )
    finally:
        process.kill()
        process.wait()


async def follow(url: str) -> None:
    """The browser: follow the authorization URL and its redirects, approving at once."""
    async with httpx.AsyncClient(follow_redirects=True, timeout=30) as client:
        response = await client.get(url)
    assert response.status_code == 200, response.text
