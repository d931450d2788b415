"""A test MCP server with every behaviour the client must handle.

Run: python demo.py [--slow-start S] [--http PORT | --sse PORT] [--marker DIR]
"""

from __future__ import annotations

import argparse
import atexit
import base64
import gc
import os
import sys
import time
from pathlib import Path

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import (
    Annotations,
    CallToolResult,
    EmbeddedResource,
    EmptyResult,
    ImageContent,
    NotificationParams,
    SetLevelRequestParams,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from pydantic import BaseModel

# the interpreter's last sweep over the MCP SDK's objects at exit was a fifth of this
# server's CPU, and the tests start it many times: skipped, as the hands command skips
# it (hands.cli.shutdown)
atexit.register(gc.freeze)

# A 1x1 PNG.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGA"
    "hKmMIQAAAABJRU5ErkJggg=="
)

parser = argparse.ArgumentParser()
parser.add_argument("--slow-start", type=float, default=0.0)
parser.add_argument("--http", type=int)
parser.add_argument("--sse", type=int)
parser.add_argument("--marker", default="")
parser.add_argument("--name", default="demo")
args = parser.parse_args()

if args.slow_start:
    time.sleep(args.slow_start)

marker = Path(args.marker) if args.marker else None
mcp = MCPServer(args.name)


@mcp.tool(annotations=ToolAnnotations(read_only_hint=True, title="Echo"))
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@mcp.tool(annotations=ToolAnnotations(destructive_hint=True))
def remove(path: str) -> str:
    """Pretend to delete a path."""
    return f"removed {path}"


@mcp.tool()
def add(a: int, b: int) -> dict[str, int]:
    """Add two numbers; structured result."""
    return {"sum": a + b}


@mcp.tool()
def structured_only() -> CallToolResult:
    """Only structuredContent, no text."""
    return CallToolResult(content=[], structured_content={"answer": 42})


@mcp.tool()
def picture() -> list[TextContent | ImageContent]:
    """A caption and an image."""
    return [
        TextContent(type="text", text="a red dot"),
        ImageContent(type="image", data=PNG, mime_type="image/png"),
    ]


@mcp.tool()
def embedded() -> list[EmbeddedResource]:
    """An embedded text resource."""
    return [
        EmbeddedResource(
            type="resource",
            resource=TextResourceContents(
                uri="memo://inline", mime_type="text/plain", text="inline body"
            ),
        )
    ]


@mcp.tool()
def fail(reason: str = "bad input") -> CallToolResult:
    """Return an isError result."""
    return CallToolResult(
        content=[TextContent(type="text", text=f"failed: {reason}")], is_error=True
    )


@mcp.tool()
def big(chars: int) -> str:
    """Return a long text."""
    line = "0123456789abcdefghijklmnopqrstuvwxyz" * 3 + "\n"
    return (line * (chars // len(line) + 1))[:chars]


@mcp.tool()
async def steps(count: int, ctx: Context) -> str:
    """Report progress count times."""
    for i in range(count):
        await ctx.report_progress(i + 1, count, f"step {i + 1}")
        await anyio.sleep(0.02)
    return f"did {count} steps"


@mcp.tool()
async def wait(seconds: float) -> str:
    """Sleep; writes 'cancelled' to the marker dir when the client cancels."""
    try:
        await anyio.sleep(seconds)
    except anyio.get_cancelled_exc_class():
        if marker is not None:
            (marker / "cancelled").write_text("yes")
        raise
    return "waited"


@mcp.tool()
async def crash() -> str:
    """Exit the server process in the middle of the call."""
    await anyio.sleep(0.05)
    os._exit(3)


@mcp.tool()
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@mcp.tool()
async def grow(ctx: Context) -> str:
    """Add a tool named 'extra' and send tools/list_changed."""

    def extra(x: int) -> int:
        """A tool added at run time."""
        return x * 2

    mcp.add_tool(extra, name="extra")
    await ctx.session.send_tool_list_changed()
    return "grown"


@mcp.tool()
def media(padding: int = 0) -> CallToolResult:
    """An image whose structuredContent repeats it, as server-filesystem's read_media_file.

    ``padding`` bytes are appended to the PNG (readers ignore them) to make it large.
    """
    data = base64.b64encode(base64.b64decode(PNG) + b"\0" * padding).decode()
    image = ImageContent(type="image", data=data, mime_type="image/png")
    return CallToolResult(
        content=[image],
        structured_content={"content": [image.model_dump(by_alias=True, mode="json")]},
    )


roots_changed: list[int] = []


async def _on_roots_changed(ctx: object, params: object) -> None:
    roots_changed.append(1)


mcp._lowlevel_server.add_notification_handler(  # pyright: ignore[reportPrivateUsage]
    "notifications/roots/list_changed", NotificationParams, _on_roots_changed
)


@mcp.tool()
async def roots(ctx: Context) -> str:
    """The client's roots (roots/list) and how many roots/list_changed arrived, as JSON."""
    import json

    listed = await ctx.session.list_roots()
    uris = [str(r.uri) for r in listed.roots]
    return json.dumps({"roots": uris, "changed": len(roots_changed)})


LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
log_level = ["info"]


async def _set_level(ctx: object, params: SetLevelRequestParams) -> EmptyResult:
    log_level[0] = params.level
    return EmptyResult()


mcp._lowlevel_server.add_request_handler(  # pyright: ignore[reportPrivateUsage]
    "logging/setLevel", SetLevelRequestParams, _set_level
)


@mcp.tool()
async def chatty(ctx: Context) -> str:
    """Send a log message at each level from debug to error, those the client asked for."""
    for level in ("debug", "info", "warning", "error"):
        if LEVELS.index(level) >= LEVELS.index(log_level[0]):
            await ctx.session.send_log_message(level=level, data=f"{level} note", logger="demo.log")
    return "logged"


@mcp.tool()
def annotated() -> list[TextContent]:
    """Two texts: one for the user only, one for the assistant with a priority."""
    return [
        TextContent(type="text", text="for the user", annotations=Annotations(audience=["user"])),
        TextContent(
            type="text",
            text="for the model",
            annotations=Annotations(audience=["assistant"], priority=0.9),
        ),
    ]


class Person(BaseModel):
    name: str


@mcp.tool()
async def ask(ctx: Context) -> str:
    """Ask the user for a name (elicitation/create); returns what came back."""
    result = await ctx.elicit("What is your name?", Person)
    data = getattr(result, "data", None)
    return f"{result.action}:{data.name if data is not None else ''}"


@mcp.prompt()
def review(path: str, focus: str = "bugs") -> str:
    """Ask for a review of a file."""
    return f"Review {path}, looking for {focus}."


@mcp.resource("memo://readme", mime_type="text/plain", description="The readme")
def readme() -> str:
    return "hello from the demo server"


@mcp.tool()
def seen_headers(ctx: Context) -> str:
    """The request headers this call arrived with (HTTP transports), as JSON."""
    import json

    return json.dumps({k.lower(): v for k, v in (ctx.headers or {}).items()})


@mcp.resource("memo://dot.png", mime_type="image/png")
def dot() -> bytes:
    return base64.b64decode(PNG)


if __name__ == "__main__":
    print(f"demo server {os.getpid()} starting", file=sys.stderr)
    if args.http:
        mcp.run("streamable-http", host="127.0.0.1", port=args.http)
    elif args.sse:
        mcp.run("sse", host="127.0.0.1", port=args.sse)
    else:
        mcp.run()
