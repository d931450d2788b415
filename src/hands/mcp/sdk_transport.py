"""The transport of an in-process SDK MCP server: JSON-RPC carried by its host program.

An Agent SDK program can hold MCP servers in its own process (``create_sdk_mcp_server``
in Python, ``createSdkMcpServer`` in TypeScript). Their config entry is ``{"type":
"sdk", "name": ...}``; each JSON-RPC message for them goes to the program through
``link`` (the SDK's ``mcp_message`` control request), and the answer comes back the same
way. To the MCP client it is a pair of streams like any other transport's.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter

SdkLink: TypeAlias = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any] | None]]
"""``(server_name, json_rpc_message) -> json_rpc_answer | None``."""


@asynccontextmanager
async def sdk_streams(name: str, link: SdkLink) -> AsyncGenerator[tuple[Any, Any]]:
    """``(read, write)`` streams for an MCP client session with the SDK server ``name``.

    Requests go out concurrently; an answer that cannot be had (the program is gone, the
    link failed) becomes a JSON-RPC error for that request alone.
    """
    to_client, client_read = anyio.create_memory_object_stream[SessionMessage | Exception](32)
    client_write, from_client = anyio.create_memory_object_stream[SessionMessage](32)

    async def forward(outgoing: SessionMessage) -> None:
        payload = outgoing.message.model_dump(by_alias=True, exclude_unset=True, mode="json")
        is_request = "method" in payload and "id" in payload
        try:
            answer = await link(name, payload)
        except Exception as exc:
            if not is_request:
                return
            answer = {
                "jsonrpc": "2.0",
                "id": payload["id"],
                "error": {"code": -32603, "message": f"the SDK server {name!r}: {exc}"},
            }
        if not is_request or answer is None or "id" not in answer:
            return  # a notification's acknowledgement carries nothing for the client
        try:
            message = jsonrpc_message_adapter.validate_python(answer, by_name=False)
        except Exception as exc:
            message = jsonrpc_message_adapter.validate_python(
                {
                    "jsonrpc": "2.0",
                    "id": payload["id"],
                    "error": {
                        "code": -32603,
                        "message": f"the SDK server {name!r} answered malformed JSON-RPC: {exc}",
                    },
                },
                by_name=False,
            )
        await to_client.send(SessionMessage(message))

    async def pump() -> None:
        async with anyio.create_task_group() as calls, from_client:
            async for outgoing in from_client:
                calls.start_soon(forward, outgoing)

    async with anyio.create_task_group() as tg, to_client, client_read, client_write:
        tg.start_soon(pump)
        try:
            yield client_read, client_write
        finally:
            tg.cancel_scope.cancel()
