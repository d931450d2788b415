"""``hands mcp serve`` driven end to end by the MCP SDK's own client."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp_helpers import free_port

from hands.config.trust import trust

LAUNCH = "import sys; from hands.cli.mcp import mcp_app; sys.argv[0] = 'hands mcp'; mcp_app()"


BLOCK_GREP = "echo 'Grep is blocked by a project hook' >&2; exit 2"


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print('hello from app')\n")
    (project / "src" / "util.py").write_text("X = 1\n")
    (project / "secret.txt").write_text("top secret\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "permissions": {"deny": ["Read(./secret.txt)"]},
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Grep",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": BLOCK_GREP,
                                }
                            ],
                        }
                    ]
                },
            }
        )
    )
    return project


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def test_serve_stdio_with_the_sdk_client(tmp_path: Path) -> None:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    project = _project(tmp_path)
    trust(project, {"HANDS_HOME": str(tmp_path / "hands-home")})  # its hooks need trust
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", LAUNCH, "serve", "--cwd", str(project), "--permission-mode", "default"],
        env={"HANDS_HOME": str(tmp_path / "hands-home"), "HOME": str(tmp_path)},
    )

    async def go() -> None:
        errlog = (tmp_path / "serve-stderr.txt").open("w")
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            init = await session.initialize()
            assert init.server_info.name == "hands"
            listed = await session.list_tools()
            tools = {t.name: t for t in listed.tools}
            assert {"Read", "Glob", "Grep", "Bash", "Edit", "Write"} <= set(tools)
            read_tool = tools["Read"]
            assert read_tool.annotations is not None and read_tool.annotations.read_only_hint
            assert "file_path" in read_tool.input_schema["properties"]
            write_tool = tools["Write"]
            assert write_tool.annotations is not None and not write_tool.annotations.read_only_hint

            read = await session.call_tool("Read", {"file_path": str(project / "src" / "app.py")})
            assert not read.is_error, _text(read)
            assert "hello from app" in _text(read)

            glob = await session.call_tool("Glob", {"pattern": "**/*.py"})
            assert not glob.is_error
            assert "app.py" in _text(glob) and "util.py" in _text(glob)

            # the project's deny rule applies
            secret = await session.call_tool("Read", {"file_path": str(project / "secret.txt")})
            assert secret.is_error and "top secret" not in _text(secret)
            # a write needs approval; nobody can give it over stdio → refused, nothing written
            target = project / "new.txt"
            write = await session.call_tool("Write", {"file_path": str(target), "content": "x"})
            assert write.is_error and not target.exists()
            assert "permission" in _text(write).lower()
            # the project's PreToolUse hook applies
            grep = await session.call_tool("Grep", {"pattern": "hello"})
            assert grep.is_error and "blocked by a project hook" in _text(grep)
            # invalid input: the pipeline's validation message
            bad = await session.call_tool("Read", {})
            assert bad.is_error and "file_path" in _text(bad)

    anyio.run(go)


def test_serve_accept_edits_and_http(tmp_path: Path) -> None:
    from mcp.client.streamable_http import streamable_http_client

    from mcp import ClientSession

    project = _project(tmp_path)
    port = free_port()
    env = {
        "HANDS_HOME": str(tmp_path / "hands-home"),
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            LAUNCH,
            "serve",
            "--cwd",
            str(project),
            "--permission-mode",
            "acceptEdits",
            "--http",
            str(port),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    async def go() -> None:
        for _ in range(200):
            try:
                stream = await anyio.connect_tcp("127.0.0.1", port)
                await stream.aclose()
                break
            except OSError:
                await anyio.sleep(0.05)
        url = f"http://127.0.0.1:{port}/mcp"
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            target = project / "src" / "new.py"
            write_result = await session.call_tool(
                "Write", {"file_path": str(target), "content": "Y = 2\n"}
            )
            assert not write_result.is_error, _text(write_result)
            assert target.read_text() == "Y = 2\n"
            glob = await session.call_tool("Glob", {"pattern": "src/*.py"})
            assert "new.py" in _text(glob)

    try:
        anyio.run(go)
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_cli_module_does_not_load_the_sdk() -> None:
    code = "import sys, hands.cli.mcp, hands.mcp; print('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_serve_takes_the_command_line_rules(tmp_path: Path) -> None:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    project = _project(tmp_path)
    target = project / "allowed.txt"
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-c", LAUNCH, "serve", "--cwd", str(project),
            "--disallowedTools", "Bash", "--allowedTools", "Write",
        ],
        env={"HANDS_HOME": str(tmp_path / "hands-home"), "HOME": str(tmp_path)},
    )  # fmt: skip

    async def go() -> None:
        errlog = (tmp_path / "serve-stderr.txt").open("w")
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            assert "Bash" not in names and "Read" in names
            done = await session.call_tool("Write", {"file_path": str(target), "content": "ok"})
            assert not done.is_error, _text(done)

    anyio.run(go)
    assert target.read_text() == "ok"
