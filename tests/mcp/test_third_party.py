"""Real third-party MCP servers from PyPI over stdio: time, git, fetch."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import anyio
import pytest
from mcp_helpers import call

from hands.mcp.config import McpSettings, parse_server
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource
from http_kit import QuietHandler, serving

SETTINGS = McpSettings(startup_timeout_s=30)


def _server(name: str) -> str:
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    if found is None:
        pytest.skip(
            f"{name} is not installed; install the test servers with "
            "`pip install mcp-server-time mcp-server-git mcp-server-fetch`"
        )
    return found


def test_mcp_server_time() -> None:
    command = _server("mcp-server-time")

    async def go() -> None:
        config = parse_server(
            "time", {"command": command, "args": ["--local-timezone", "UTC"]}, env={}
        )
        async with McpManager([config], settings=SETTINGS) as manager:
            await manager.wait_ready()
            status = manager.status()[0]
            assert status.state == "connected", status.error
            source = McpToolSource(manager, base=[])
            assert "mcp__time__get_current_time" in source.current_pool().names
            out = await call(source, "mcp__time__get_current_time", {"timezone": "Europe/Paris"})
            assert not out.is_error, out.block.text
            assert json.loads(out.block.text)["timezone"] == "Europe/Paris"
            converted = await call(
                source,
                "mcp__time__convert_time",
                {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"},
            )
            assert "21:00" in converted.block.text
            bad = await call(source, "mcp__time__get_current_time", {"timezone": "Mars/Olympus"})
            assert bad.is_error

    anyio.run(go)


def test_mcp_server_git(tmp_path: Path) -> None:
    command = _server("mcp-server-git")
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "a.txt").write_text("one\n")
    subprocess.run([*git, "add", "a.txt"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first commit"], check=True)
    (repo / "a.txt").write_text("two\n")

    async def go() -> None:
        config = parse_server(
            "git", {"command": command, "args": ["--repository", str(repo)]}, env={}
        )
        async with McpManager([config], settings=SETTINGS) as manager:
            await manager.wait_ready()
            assert manager.status()[0].state == "connected", manager.status()[0].error
            source = McpToolSource(manager, base=[])
            status = await call(source, "mcp__git__git_status", {"repo_path": str(repo)})
            assert "a.txt" in status.block.text
            log = await call(source, "mcp__git__git_log", {"repo_path": str(repo)})
            assert "first commit" in log.block.text
            diff = await call(source, "mcp__git__git_diff_unstaged", {"repo_path": str(repo)})
            assert "+two" in diff.block.text

    anyio.run(go)


class _Page(QuietHandler):
    def do_GET(self) -> None:
        if self.path == "/robots.txt":
            self.send_response(404)
            self.end_headers()
            return
        body = b"<html><body><h1>Loopback page</h1><p>served for the fetch test</p></body></html>"
        self.reply(200, body, "text/html")


@pytest.fixture
def page_server() -> Iterator[str]:
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), _Page)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}/page"


def test_mcp_server_fetch(page_server: str) -> None:
    command = _server("mcp-server-fetch")

    async def go() -> None:
        config = parse_server(
            "fetch", {"command": command, "args": ["--allow-private-ips"]}, env={}
        )
        async with McpManager([config], settings=SETTINGS) as manager:
            await manager.wait_ready()
            assert manager.status()[0].state == "connected", manager.status()[0].error
            source = McpToolSource(manager, base=[])
            out = await call(source, "mcp__fetch__fetch", {"url": page_server})
            assert not out.is_error, out.block.text
            assert "Loopback page" in out.block.text

    anyio.run(go)


FILESYSTEM_SERVER = "@modelcontextprotocol/server-filesystem@2026.8.31"


def _npx_server(package: str, *args: str) -> list[str]:
    """The command that starts an npm MCP server, or a skip when npx cannot fetch it."""
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not installed")
    try:
        subprocess.run(
            [npx, "-y", "--package", package, "node", "-e", "0"],
            capture_output=True, timeout=180, check=True,
        )  # fmt: skip
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"npx could not fetch {package} (the npm registry is unreachable?): {exc}")
    return [npx, "-y", package, *args]


def test_server_filesystem_sends_a_media_file_as_one_image(tmp_path: Path) -> None:
    import base64
    import os

    command = _npx_server(FILESYSTEM_SERVER, str(tmp_path))
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    picture = tmp_path / "dot.png"
    picture.write_bytes(png + os.urandom(200_000))  # large: over a small output cap

    async def go() -> None:
        config = parse_server("fs", {"command": command[0], "args": command[1:]}, env={})
        settings = McpSettings(startup_timeout_s=60, max_output_tokens=2000)
        async with McpManager([config], settings=settings) as manager:
            await manager.wait_ready()
            assert manager.status()[0].state == "connected", manager.status()[0].error
            source = McpToolSource(manager, base=[])
            out = await call(source, "mcp__fs__read_media_file", {"path": str(picture)})
            assert not out.is_error, out.block.text
            from hands.core.messages import ImageBlock

            blocks = out.block.content
            assert isinstance(blocks, tuple) and [type(b) for b in blocks] == [ImageBlock]
            assert out.output.structured is not None  # the server sent its structured copy
            image = blocks[0]
            assert isinstance(image, ImageBlock) and base64.b64decode(image.data)[:8] == png[:8]
            assert len(base64.b64decode(image.data)) == picture.stat().st_size

    anyio.run(go)
