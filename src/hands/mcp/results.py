"""What an MCP server's answers and failures become: hands blocks, and words to act on."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from hands.core.messages import ImageBlock, TextBlock
from hands.mcp.config import McpServerConfig
from hands.mcp.exit_status import describe
from hands.mcp.tools import (
    McpCallResult,
)

if TYPE_CHECKING:
    pass


IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


class WithStderr(Exception):
    """A start-up failure carrying the tail of the server's stderr."""

    def __init__(
        self, cause: BaseException, stderr: str, *, exit_status: int | None = None
    ) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.stderr = stderr
        self.exit_status = exit_status
        """The server's exit status, when it had ended (a stdio server)."""


def _single(exc: BaseException) -> BaseException:
    """The one exception inside nested single-member exception groups."""
    current: Any = exc
    while isinstance(current, BaseExceptionGroup):
        members = cast(tuple[BaseException, ...], cast(Any, current).exceptions)
        if len(members) != 1:
            break
        current = members[0]
    return cast(BaseException, current)


def describe_failure(config: McpServerConfig, exc: BaseException) -> str:
    """Why a server could not connect, in words a person can act on."""
    stderr = ""
    exit_status: int | None = None
    for _ in range(5):
        exc = _single(exc)
        if isinstance(exc, WithStderr):
            stderr, exit_status, exc = exc.stderr, exc.exit_status, exc.cause
            continue
        break
    if isinstance(exc, FileNotFoundError) and config.transport == "stdio":
        text = (
            f'command not found: {config.command!r} (install it, or fix "command" in '
            f"{config.source})"
        )
    elif isinstance(exc, PermissionError) and config.transport == "stdio":
        text = f"command not executable: {config.command!r}"
    elif isinstance(exc, TimeoutError):
        text = str(exc)
    else:
        message = str(exc) or type(exc).__name__
        if exit_status is not None:
            died = f"the server {describe(exit_status)} during start-up"
            message = died if message == "Connection closed" else f"{died} ({message})"
        elif message == "Connection closed":
            message = "the server closed the connection during start-up"
        text = message if len(message) < 400 else message[:400] + "…"
        if config.transport != "stdio" and config.url not in text:
            text = f"cannot connect to {config.url}: {text}"
    if stderr:
        text += f"; server output: {stderr}"
    return text


def convert_result(result: Any, server: str) -> McpCallResult:
    """An SDK ``CallToolResult`` → :class:`McpCallResult` of hands blocks."""
    blocks: list[TextBlock | ImageBlock] = []
    notes: list[dict[str, Any] | None] = []
    for item in cast(Sequence[Any], result.content):
        marks = getattr(item, "annotations", None)
        notes.append(
            marks.model_dump(by_alias=True, exclude_none=True, mode="json") if marks else None
        )
        kind = getattr(item, "type", None)
        if kind == "text":
            blocks.append(TextBlock(text=item.text))
        elif kind == "image":
            if item.mime_type in IMAGE_TYPES:
                blocks.append(ImageBlock(media_type=item.mime_type, data=item.data))
            else:
                blocks.append(TextBlock(text=f"[image of type {item.mime_type} not shown]"))
        elif kind == "audio":
            size = len(item.data) * 3 // 4
            blocks.append(TextBlock(text=f"[audio ({item.mime_type}, {size:,} bytes) not shown]"))
        elif kind == "resource":
            res = item.resource
            mime = getattr(res, "mime_type", None) or ""
            text = getattr(res, "text", None)
            if isinstance(text, str):
                blocks.append(TextBlock(text=f"[Resource from {server} at {res.uri}]\n{text}"))
            elif mime in IMAGE_TYPES:
                blocks.append(ImageBlock(media_type=mime, data=res.blob))
            else:
                size = len(base64.b64decode(res.blob or "", validate=False))
                blocks.append(
                    TextBlock(
                        text=f"[Binary resource from {server} at {res.uri} "
                        f"({mime or 'unknown type'}, {size:,} bytes); read it with "
                        "ReadMcpResourceTool]"
                    )
                )
        elif kind == "resource_link":
            desc = f": {item.description}" if getattr(item, "description", None) else ""
            blocks.append(TextBlock(text=f"[Resource link {item.name} at {item.uri}{desc}]"))
        else:
            blocks.append(TextBlock(text=str(item)))
    return McpCallResult(
        content=tuple(blocks),
        structured=result.structured_content,
        is_error=bool(result.is_error),
        annotations=tuple(notes) if any(notes) else (),
    )
