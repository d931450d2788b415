"""``ListMcpResourcesTool`` and ``ReadMcpResourceTool``: MCP resources for the model.

Both are read-only and concurrency-safe, and offered only while a connected server
supports resources.
"""

from __future__ import annotations

import base64
import json
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from hands.core.messages import ImageBlock, TextBlock
from hands.core.tool import Content, InputT, OutputT, Progress, ReadOnlyTool, Tool, ToolResult
from hands.errors import ToolError

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.mcp.manager import McpManager

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


class ListInput(BaseModel):
    """Input of ListMcpResourcesTool."""

    server: str | None = Field(
        default=None, description="Only this server's resources (default: every server)."
    )


class ReadInput(BaseModel):
    """Input of ReadMcpResourceTool."""

    server: str = Field(description="The MCP server that has the resource.")
    uri: str = Field(description="The resource URI, as ListMcpResourcesTool gives it.")


class _ResourceTool(ReadOnlyTool[InputT, OutputT]):
    """A resource tool bound to the MCP servers of ``manager``."""

    should_defer = True

    def __init__(self, manager: McpManager) -> None:
        self.manager = manager

    def _servers(self, only: str | None) -> list[str]:
        """The servers with resources, or just ``only``; ToolError when ``only`` has none."""
        servers = self.manager.resource_servers()
        if only is None:
            return servers
        if only not in servers:
            names = ", ".join(servers) or "(none)"
            raise ToolError(
                f"No connected MCP server called {only!r} offers resources. Those that do: {names}."
            )
        return [only]


class ListMcpResourcesTool(_ResourceTool[ListInput, list[dict[str, Any]]]):
    """Lists the resources of connected MCP servers."""

    name = "ListMcpResourcesTool"
    description = (
        "List the resources (files, records, documents) that connected MCP servers offer. "
        "Each entry has its server, uri, name, mimeType and description; read one with "
        "ReadMcpResourceTool."
    )
    input_model = ListInput
    search_hint = "list mcp server resources"

    async def call(
        self, input: ListInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[list[dict[str, Any]]]:
        servers = self._servers(input.server)
        out: list[dict[str, Any]] = []
        for server in servers:
            try:
                out.extend(await self.manager.list_resources(server))
            except ToolError:
                if input.server is not None:
                    raise
        return ToolResult(output=out)

    def to_content(self, output: list[dict[str, Any]]) -> Content:
        if not output:
            return (
                "The connected MCP servers list no resources right now; their tools, if "
                "they have any, work all the same."
            )
        return json.dumps(output, ensure_ascii=False)


class ReadMcpResourceTool(_ResourceTool[ReadInput, tuple[TextBlock | ImageBlock, ...]]):
    """Reads one resource of an MCP server."""

    name = "ReadMcpResourceTool"
    description = (
        "Read one resource from an MCP server by its server name and URI (as listed by "
        "ListMcpResourcesTool). Text comes back as text, images as images; other binary "
        "content is saved to a file whose path is returned."
    )
    input_model = ReadInput
    search_hint = "read an mcp server resource by uri"

    async def call(
        self, input: ReadInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[tuple[TextBlock | ImageBlock, ...]]:
        self._servers(input.server)
        from mcp.shared.exceptions import MCPError

        try:
            contents = await self.manager.read_resource(input.server, input.uri)
        except MCPError as exc:
            raise ToolError(
                f'The MCP server "{input.server}" could not read {input.uri}: '
                f"{exc.error.message}. List the resources with ListMcpResourcesTool and use "
                "one of their URIs."
            ) from None
        blocks: list[TextBlock | ImageBlock] = []
        for item in contents:
            uri = str(item.get("uri", input.uri))
            mime = str(item.get("mimeType") or "")
            if "text" in item:
                blocks.append(TextBlock(text=str(item["text"])))
            elif "blob" in item and mime in IMAGE_TYPES:
                blocks.append(ImageBlock(media_type=mime, data=str(item["blob"])))
            elif "blob" in item:
                data = base64.b64decode(str(item["blob"]))
                directory = ctx.session.directory / "mcp-resources"
                directory.mkdir(parents=True, exist_ok=True)
                path = directory / (_UNSAFE.sub("_", uri)[-120:] or "resource")
                path.write_bytes(data)
                blocks.append(
                    TextBlock(
                        text=f"[Binary resource {uri} ({mime or 'unknown type'}, "
                        f"{len(data):,} bytes) saved to {path}]"
                    )
                )
        return ToolResult(output=tuple(blocks))

    def to_content(self, output: tuple[TextBlock | ImageBlock, ...]) -> Content:
        if len(output) == 1 and isinstance(output[0], TextBlock):
            return output[0].text
        return output


def resource_tools(manager: McpManager) -> tuple[Tool[Any, Any], ...]:
    """Both resource tools bound to ``manager``."""
    return (ListMcpResourcesTool(manager), ReadMcpResourceTool(manager))
