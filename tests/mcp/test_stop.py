"""A stdio server that never answers ``initialize`` is killed at once when it is given up.

Stopped while it starts, or past its startup timeout, it has no session to close: it
and its children are killed before the transport closes its stdin, rather than left
to the transport's grace period and SIGTERM (which such a server, not reading its
stdin, always runs out). ``hands -p`` with such a server ends leaving nothing behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
from mcp_helpers import SERVERS, alive

from hands.mcp.config import McpSettings, parse_server
from hands.mcp.manager import McpManager

MUTE = SERVERS / "mute_init.py"


def mute(out: Path) -> dict[str, object]:
    return {"command": sys.executable, "args": [str(MUTE), str(out)]}


def notes(out: Path) -> list[str]:
    path = out / "notes"
    return path.read_text().split() if path.exists() else []


def pids(out: Path) -> list[int]:
    return [int(p) for p in (out / "pids").read_text().split()]


async def until_initialize_read(out: Path) -> None:
    with anyio.fail_after(60):
        while "initialize" not in notes(out):
            await anyio.sleep(0.02)


def test_stopping_a_server_stuck_in_initialize_kills_it_and_its_children(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        config = parse_server("mute", mute(tmp_path), env=os.environ)
        async with McpManager([config], settings=McpSettings(startup_timeout_s=120)) as manager:
            await until_initialize_read(tmp_path)
            assert manager.connections["mute"].state == "pending"
        assert manager.connections["mute"].state == "closed"

    anyio.run(go)
    assert [p for p in pids(tmp_path) if alive(p)] == []
    assert notes(tmp_path) == ["initialize"]  # killed before its stdin closed: no EOF, no TERM


def test_a_server_past_its_startup_timeout_is_killed_at_once(tmp_path: Path) -> None:
    async def go() -> None:
        config = parse_server("mute", mute(tmp_path), env=os.environ)
        async with McpManager([config], settings=McpSettings(startup_timeout_s=1)) as manager:
            assert await manager.connections["mute"].wait_settled(60)
            status = manager.status()[0]
            assert status.state == "failed"
            assert "did not finish starting within 1 s" in status.error
            assert [p for p in pids(tmp_path) if alive(p)] == []
            assert notes(tmp_path) == ["initialize"]

    anyio.run(go)


def test_print_mode_with_a_server_that_never_answers_initialize_ends_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "server"
    out.mkdir()
    # the session ends once the server has read initialize, while it still starts (json
    # output: stream-json's init line would wait for the server, up to MCP_TIMEOUT)
    wait = (
        f"for i in $(seq 1200); do grep -q initialize {out}/notes 2>/dev/null && break; "
        "sleep 0.05; done"
    )
    call = {"type": "tool_use", "name": "Bash", "input": {"command": wait}}
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps({"turns": [{"blocks": [call]}, {"blocks": [{"type": "text", "text": "ok"}]}]})
    )
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--model", f"scripted:{script}",
         "--mcp-config", json.dumps({"mcpServers": {"mute": mute(out)}}),
         "--permission-mode", "bypassPermissions", "--output-format", "json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, stdin=subprocess.DEVNULL,
        env={**os.environ, "HOME": str(tmp_path), "MCP_TIMEOUT": "30000"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert [p for p in pids(out) if alive(p)] == []
    assert notes(out) == ["initialize"]
