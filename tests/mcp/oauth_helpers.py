"""A real loopback OAuth authorization server with an MCP server behind it, for the tests."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from mcp_helpers import SERVERS

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


def _ports(process: subprocess.Popen[str], seconds: float = 60) -> tuple[int, int]:
    """The two ports the server bound itself, from its first line (it listens by then)."""
    stdout = process.stdout
    assert stdout is not None
    ready: list[str] = []
    reader = threading.Thread(target=lambda: ready.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    if not ready or not ready[0]:
        raise RuntimeError(f"the OAuth test server did not start (exit {process.poll()})")
    ports = json.loads(ready[0])
    return int(ports["as_port"]), int(ports["rs_port"])


@contextmanager
def guarded_server(tmp: Path, *extra: str) -> Iterator[Guarded]:
    """Start the authorization server and the MCP server (``extra``: their options)."""
    log = tmp / f"oauth-events-{uuid.uuid4().hex[:8]}.jsonl"
    process = subprocess.Popen(
        [sys.executable, str(OAUTH_SERVER), "--log", str(log), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        as_port, rs_port = _ports(process)
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
