"""``hands mcp serve`` beyond tools: resources, completion and logging, as SDK handlers.

- **Resources**: :class:`hands.cli.mcp_serve_resources.FileResources` (the working
  directories' files, each through the permission engine).
- **Completion**: the ``path`` argument of the ``file:///{path}`` template; anything
  else (there are no prompts) completes to nothing.
- **Prompts**: declared, and there are none: ``prompts/list`` is empty and
  ``prompts/get`` answers every name with invalid params (-32602), the spec's error for
  an unknown prompt, never "method not found".
- **Logging**: each tool call is logged (``notifications/message``, logger ``hands``):
  its start at ``debug``, its end at ``info`` (``warning`` when it failed). A client's
  ``logging/setLevel`` sets the lowest level sent to it; ``info`` until it says.
"""

from __future__ import annotations

import warnings
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hands.cli.mcp_serve_resources import FILE_TEMPLATE, FileResources, ResourceRefused
from hands.mcp.client_features import LOG_LEVELS

if TYPE_CHECKING:
    from mcp_types import (
        CompleteResult,
        GetPromptResult,
        ListResourcesResult,
        ListResourceTemplatesResult,
        ReadResourceResult,
    )

    from hands.cli.mcp_serve import HandsMcpBridge

DEFAULT_LEVEL = "info"
LOGGER = "hands"


@dataclass(kw_only=True)
class ServeCapabilities:
    """The handlers ``build_server`` registers besides tools, for one bridge."""

    bridge: HandsMcpBridge
    _levels: weakref.WeakKeyDictionary[Any, str] = field(
        default_factory=lambda: weakref.WeakKeyDictionary[Any, str]()
    )

    @property
    def files(self) -> FileResources:
        """The file resources of the bridge's current context (its cwd can change)."""
        return FileResources(runtime=self.bridge.runtime, context=self.bridge.context)

    # -- logging ---------------------------------------------------------------------

    def set_level(self, ctx: Any, level: str) -> None:
        """``logging/setLevel`` for the connection ``ctx`` belongs to."""
        self._levels[_connection(ctx.session)] = str(level)

    async def log(self, ctx: Any, level: str, data: Any) -> None:
        """Send ``data`` at ``level`` to the client of ``ctx`` if its level lets it through."""
        session = getattr(ctx, "session", None)
        if session is None:
            return
        floor = self._levels.get(_connection(session), DEFAULT_LEVEL)
        if LOG_LEVELS.index(level) < LOG_LEVELS.index(floor):  # pyright: ignore[reportArgumentType]
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # logging is deprecated from 2026-07-28 on
            try:
                await session.send_log_message(
                    level, data, logger=LOGGER, related_request_id=ctx.request_id
                )
            except Exception:
                return  # a log line is best effort; the call's result still goes out

    # -- prompts ---------------------------------------------------------------------

    async def on_get_prompt(self, ctx: Any, params: Any) -> GetPromptResult:
        """``prompts/get``: hands serves no prompts, so every name is unknown."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import INVALID_PARAMS

        name = str(getattr(params, "name", ""))
        raise MCPError(
            INVALID_PARAMS,
            f"unknown prompt {name!r}: this server has no prompts (prompts/list is empty); "
            "its tools are listed by tools/list",
        )

    # -- resources -------------------------------------------------------------------

    async def on_list_resources(self, ctx: Any, params: Any) -> ListResourcesResult:
        """``resources/list``: one page of the files a ``Read`` may see."""
        from mcp_types import ListResourcesResult, Resource

        cursor = getattr(params, "cursor", None) if params is not None else None
        try:
            entries, following = await self.files.page(cursor)
        except ResourceRefused as exc:
            raise _error(exc) from None
        resources = [
            Resource(
                uri=e.path.as_uri(),
                name=e.name,
                description=f"File {e.name} of the working directory",
                mime_type=_mime(e.name),
                size=e.size,
            )
            for e in entries
        ]
        return ListResourcesResult(resources=resources, next_cursor=following)

    async def on_list_resource_templates(
        self, ctx: Any, params: Any
    ) -> ListResourceTemplatesResult:
        """``resources/templates/list``: ``file:///{path}``."""
        from mcp_types import ListResourceTemplatesResult, ResourceTemplate

        template = ResourceTemplate(
            name="file",
            uri_template=FILE_TEMPLATE,
            description="A file in the working directories, by absolute path "
            "(read-only; the project's Read permission rules apply)",
        )
        return ListResourceTemplatesResult(resource_templates=[template])

    async def on_read_resource(self, ctx: Any, params: Any) -> ReadResourceResult:
        """``resources/read``: one file, if the permission engine lets a ``Read`` of it run."""
        from mcp_types import BlobResourceContents, ReadResourceResult, TextResourceContents

        try:
            got = await self.files.read(str(params.uri))
        except ResourceRefused as exc:
            await self.log(ctx, "warning", {"event": "resource refused", "uri": str(params.uri)})
            raise _error(exc) from None
        contents: Any = (
            TextResourceContents(uri=got.uri, mime_type=got.mime_type, text=got.text)
            if got.text is not None
            else BlobResourceContents(uri=got.uri, mime_type=got.mime_type, blob=got.blob or "")
        )
        return ReadResourceResult(contents=[contents])

    # -- completion ------------------------------------------------------------------

    async def on_completion(self, ctx: Any, params: Any) -> CompleteResult:
        """``completion/complete``: file paths for the template's ``path``, else nothing."""
        from mcp_types import CompleteResult, Completion

        ref = params.ref
        argument = params.argument
        if (
            getattr(ref, "type", "") == "ref/resource"
            and getattr(ref, "uri", "") == FILE_TEMPLATE
            and argument.name == "path"
        ):
            values, total = await self.files.complete_path(str(argument.value))
            return CompleteResult(
                completion=Completion(values=values, total=total, has_more=total > len(values))
            )
        return CompleteResult(completion=Completion(values=[], total=0, has_more=False))


def _connection(session: Any) -> Any:
    """What outlives one request: the SDK hands each request a session of its own."""
    return getattr(session, "_connection", session)


def _error(exc: ResourceRefused) -> Exception:
    from mcp.shared.exceptions import MCPError

    return MCPError(exc.code, exc.message)


def _mime(name: str) -> str | None:
    import mimetypes

    return mimetypes.guess_type(name)[0]
