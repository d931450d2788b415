"""hands' MCP client, OAuth included, as the conformance suite's client for ``auth/*``.

The suite runs ``python auth_driver.py URL`` with the scenario in
``MCP_CONFORMANCE_SCENARIO`` and what a user would have configured (a pre-registered
client) in ``MCP_CONFORMANCE_CONTEXT``. The driver connects the way ``hands mcp login``
does (the loopback redirect listener, the suite's authorization page followed by an HTTP
client standing in for the browser), then calls every tool in that same session, so a
scope step-up mid-session is authorized too. Exit 0 when hands reported no error.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
import httpx

from hands.mcp.auth_store import AuthRecord
from hands.mcp.config import McpSettings, parse_server
from hands.mcp.manager import McpManager
from hands.mcp.oauth import LoginFlow
from hands.mcp.oauth_callback import CallbackListener

SERVER = "conformance"


async def follow(url: str) -> None:
    """The browser: the suite's authorization endpoint approves and redirects to hands."""
    print(f"authorize: {url}")
    async with httpx.AsyncClient(follow_redirects=True, timeout=20) as client:
        await client.get(url)


def ignore(_: Any) -> None:
    """Progress reports are not checked by any auth scenario."""


async def main(url: str, context: dict[str, Any]) -> int:
    entry: dict[str, Any] = {"type": "http", "url": url}
    if context.get("client_id"):
        entry["oauth"] = {"clientId": context["client_id"]}
    config = parse_server(SERVER, entry, env=os.environ)
    with tempfile.TemporaryDirectory() as home:
        settings = McpSettings(startup_timeout_s=30, auth_dir=Path(home) / "mcp-auth")
        if context.get("client_secret"):
            AuthRecord(settings.auth_dir, config).update(client_secret=context["client_secret"])
        async with CallbackListener() as listener:
            flow = LoginFlow(listener=listener, open_url=follow, timeout_s=20)
            async with McpManager([config], settings=settings, login=flow) as manager:
                await manager.wait_ready(limit=40)
                status = manager.status()[0]
                if status.state != "connected":
                    print(f"not connected: {status.state} {status.error}", file=sys.stderr)
                    return 1
                for tool in manager.connection(SERVER).tools:
                    result = await manager.call_tool(SERVER, tool.mcp_name, {}, ignore)
                    print(f"{tool.mcp_name}: {result}")
    return 0


if __name__ == "__main__":
    raw = os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}"
    sys.exit(anyio.run(main, sys.argv[-1], json.loads(raw)))
