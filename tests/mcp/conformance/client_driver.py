"""hands' MCP client as the conformance suite's client under test.

The suite runs ``python client_driver.py URL`` once per client scenario, with the
scenario's name in ``MCP_CONFORMANCE_SCENARIO``. The driver connects with
:class:`hands.mcp.manager.McpManager` (the client the agent loop uses), does what the
scenario asks of a client, and exits 0 when hands reported no error.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio

from hands.mcp.config import McpSettings, parse_server
from hands.mcp.elicitation import ElicitationAnswer, ElicitationRequest
from hands.mcp.manager import McpManager

SERVER = "conformance"


async def accept_as_offered(request: ElicitationRequest) -> ElicitationAnswer:
    """The user accepts without typing anything: the schema's defaults apply."""
    return ElicitationAnswer(action="accept", content={})


def ignore(_: Any) -> None:
    """Progress reports are not checked by any client scenario."""


async def call_each_tool(manager: McpManager, arguments: dict[str, dict[str, Any]]) -> None:
    """Call every tool the server lists, with the arguments given for it (else none)."""
    conn = manager.connection(SERVER)
    for tool in conn.tools:
        result = await manager.call_tool(
            SERVER, tool.mcp_name, arguments.get(tool.mcp_name, {}), ignore
        )
        print(f"{tool.mcp_name}: {result}")


async def main(url: str, scenario: str) -> int:
    config = parse_server(SERVER, {"type": "http", "url": url}, env=os.environ)
    settings = McpSettings.from_env()
    async with McpManager([config], settings=settings, elicit=accept_as_offered) as manager:
        await manager.wait_ready(limit=20)
        status = manager.status()[0]
        if status.state != "connected":
            print(f"not connected: {status.state} {status.error}", file=sys.stderr)
            return 1
        if scenario != "initialize":
            await call_each_tool(manager, {"add_numbers": {"a": 5, "b": 3}})
    return 0


if __name__ == "__main__":
    target = sys.argv[-1]
    name = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    sys.exit(anyio.run(main, target, name))
