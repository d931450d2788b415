"""A stdio server that dies during start-up is reported with how it ended (exit status or
signal) and its last stderr lines; a running server has no status."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import anyio
from mcp_helpers import call, demo_config

from hands.mcp.config import McpSettings, parse_server
from hands.mcp.exit_status import describe, ended_with, transport_process
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource

SERVERS = Path(__file__).parent / "servers"
DYING = {
    "dies": {"command": sys.executable, "args": [str(SERVERS / "dies_at_start.py")]},
    "killed": {"command": sys.executable, "args": [str(SERVERS / "killed_at_start.py")]},
}
"""Two real servers that die during start-up: one exits with status 3, one is killed."""


def test_how_a_server_that_died_ended_and_its_stderr_beside_a_working_one() -> None:
    async def go() -> None:
        configs = [parse_server(n, e, env=os.environ) for n, e in DYING.items()]
        async with McpManager([*configs, demo_config()], settings=McpSettings()) as manager:
            await manager.wait_ready()
            by_name = {s.name: s for s in manager.status()}
            assert (by_name["dies"].state, by_name["dies"].error) == (
                "failed",
                "the server exited with status 3 during start-up; "
                "server output: cannot open the database",
            )
            assert (by_name["killed"].state, by_name["killed"].error) == (
                "failed",
                "the server was killed by signal 9 (SIGKILL) during start-up; "
                "server output: about to go",
            )
            assert by_name["demo"].state == "connected"
            source = McpToolSource(manager, base=[])
            outcome = await call(source, "mcp__demo__echo", {"text": "still works"})
            assert not outcome.is_error and outcome.block.content == "still works"

    anyio.run(go)


def test_the_transport_process_is_found_and_has_no_status_while_it_runs() -> None:
    from mcp import StdioServerParameters, stdio_client

    async def go() -> None:
        params = StdioServerParameters(command="sleep", args=["30"])
        transport = stdio_client(params)
        async with transport:
            process = transport_process(transport)
            assert process is not None and process.pid > 0
            assert await ended_with(process) is None  # still running: no wait, no status
            os.kill(process.pid, signal.SIGTERM)
            assert await ended_with(process) == -signal.SIGTERM
        assert transport_process(object()) is None and await ended_with(None) is None

    anyio.run(go)


def test_describe_says_exit_status_or_signal() -> None:
    assert describe(3) == "exited with status 3"
    assert describe(-9) == "was killed by signal 9 (SIGKILL)"
    assert describe(-200) == "was killed by signal 200"
