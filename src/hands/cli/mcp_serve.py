"""``hands mcp serve``: hands' built-in tools as an MCP server, for any MCP host.

Every ``tools/call`` runs through :func:`hands.pipeline.execution.run_tool_use`: input validation,
PreToolUse/PostToolUse hooks, the permission engine (the project's settings and the
chosen mode), the tool, result capping. Nobody can answer a permission prompt over
stdio, so a call that would need one is refused with a message saying which rule or
mode allows it. A Bash ``cd`` carries over to later calls, as in a conversation.
"""

from __future__ import annotations

import logging
import secrets
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from hands.config.settings import Settings
from hands.core.context import PermissionMode, ToolContext
from hands.core.messages import ImageBlock, TextBlock, ToolUseBlock
from hands.core.session import Session
from hands.core.tool import Tool

if TYPE_CHECKING:
    from mcp.server.lowlevel.server import Server

    from hands.cli.mcp_serve_early import EarlyAnswers
    from hands.cli.mcp_serve_kept import AnswerStore
    from hands.config.settings import CliPermissionArgs
    from hands.core.decision import AskHandler, PermissionPolicy
    from hands.core.hooks import ToolHooks
    from hands.core.outcome import ToolCallOutcome
    from hands.pipeline.runtime import ToolRuntime

log = logging.getLogger(__name__)

SERVER_NAME = "hands"
EARLY_SWITCH = "HANDS_MCP_SERVE_EARLY"
"""``0`` turns off answering the host's first requests before the SDK loads."""
INSTRUCTIONS = (
    "hands' file, search and shell tools (Read, Write, Edit, Glob, Grep, Bash, ...) with "
    "Claude Code's names and schemas. Every call passes the project's permission rules "
    "and hooks; a call that needs approval is refused with the reason."
)


@dataclass(kw_only=True)
class HandsMcpBridge:
    """The state one ``hands mcp serve`` keeps: the runtime, the context, the session.

    The runtime (with the tool pool, which imports every tool) is built when first used,
    so the host's ``initialize`` is answered before it.
    """

    build_runtime: Callable[[], ToolRuntime]
    context: ToolContext
    session: Session
    answers_key: Callable[[], str] | None = None
    """The key of the answers kept for this command's next start (see ``run_stdio``)."""
    calls: int = 0
    _runtime: ToolRuntime | None = None

    @property
    def runtime(self) -> ToolRuntime:
        """The tools, the engine, the hooks and the limits every call runs with."""
        if self._runtime is None:
            self._runtime = self.build_runtime()
        return self._runtime

    def tool_list(self) -> list[Any]:
        """``tools/list``: every tool with its schema and annotations."""
        from mcp_types import Tool as McpToolSpec
        from mcp_types import ToolAnnotations

        out: list[Any] = []
        for tool in self.runtime.tools:
            read_only = _static_flag(tool, "is_read_only")
            destructive = _static_flag(tool, "is_destructive")
            out.append(
                McpToolSpec(
                    name=tool.name,
                    description=tool.description,
                    input_schema=dict(tool.input_schema),
                    annotations=ToolAnnotations(
                        title=tool.name,
                        read_only_hint=read_only,
                        destructive_hint=None if read_only else destructive or None,
                        open_world_hint=_reaches_the_web(tool) or None,
                    ),
                )
            )
        return out

    async def call(
        self, name: str, arguments: dict[str, Any], report: Any = None
    ) -> tuple[list[TextBlock | ImageBlock], bool]:
        """Run one call through the pipeline; the result blocks and whether it failed."""
        from hands.pipeline.execution import run_tool_use

        self.calls += 1
        block = ToolUseBlock(
            id=f"toolu_mcp_{self.calls}_{secrets.token_hex(4)}", name=name, input=arguments
        )
        send, receive = anyio.create_memory_object_stream[Any](100)

        def progress(data: Any) -> None:
            try:
                send.send_nowait(data)
            except (anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass  # progress is best effort

        async def forward() -> None:
            count = 0
            async with receive:
                async for data in receive:
                    count += 1
                    if report is not None:
                        try:
                            await report(float(count), None, str(data)[:500])
                        except Exception:
                            return

        outcome: ToolCallOutcome | None = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(forward)
            try:
                outcome = await run_tool_use(block, self.context, self.runtime, progress)
            finally:
                send.close()
        assert outcome is not None
        if outcome.context_modifier is not None:
            self.context = outcome.context_modifier(self.context)
        content = outcome.block.content
        blocks: list[TextBlock | ImageBlock] = (
            [TextBlock(text=content)]
            if isinstance(content, str)
            else [b for b in content if isinstance(b, TextBlock | ImageBlock)]
        )
        blocks.extend(TextBlock(text=text) for text in outcome.extra_context)
        return blocks, outcome.is_error


def _static_flag(tool: Tool[Any, Any], method: str) -> bool:
    """A flag for ``tools/list``: computed on an empty input; unknown means False."""
    try:
        return bool(getattr(tool, method)(tool.input_model.model_construct()))
    except Exception:
        return False


def build_bridge(
    *,
    cwd: Path,
    permission_mode: PermissionMode | None = None,
    tools: Sequence[Tool[Any, Any]] | None = None,
    policy: PermissionPolicy | None = None,
    hooks: ToolHooks | None = None,
    ask: AskHandler | None = None,
    session: Session | None = None,
    settings: Settings | CliPermissionArgs | None = None,
    trust: bool = False,
) -> HandsMcpBridge:
    """The runtime ``hands mcp serve`` uses: project settings, mode, hooks, built-ins.

    ``settings``: already loaded, or the command line's sources; else the project's.
    ``trust``: ``--trust``. ``policy``/``hooks`` replace what the settings give.
    """
    from hands.cli import startup
    from hands.cli.args import announce_warnings
    from hands.harness.front_ends import MCP_SERVE
    from hands.harness.harness import Harness

    harness = Harness.open(
        cwd,
        settings_sources=settings,
        trust=trust,
        mode=permission_mode,
        policy=policy,
        hooks=hooks,
        ask=ask,
        session=session,
        base_tools=tools,
        front_end=MCP_SERVE,
    )
    if not isinstance(settings, Settings):  # loaded here: its warnings are said here
        announce_warnings(harness.settings)
    startup.done()  # the host's messages are read in the user's own environment

    def build_runtime() -> ToolRuntime:
        # the tools' models are built as at start-up, and no tool has run before this
        startup.begin()
        try:
            return harness.runtime()
        finally:
            startup.done()  # tools run in the user's own environment

    def answers_key() -> str:
        from hands.cli.mcp_serve_kept import answers_key

        return answers_key(harness, sys.argv[1:])

    return HandsMcpBridge(
        build_runtime=build_runtime,
        context=harness.context,
        session=harness.session,
        answers_key=answers_key,
    )


def build_server(bridge: HandsMcpBridge) -> Server[Any]:
    """An MCP low-level server for ``bridge``: tools, file resources, logging, completion.

    It declares prompts (it has none), so a host's prompt picker finds an empty list
    instead of an error, and a ``prompts/get`` an unknown-prompt error.
    """
    from mcp.server.lowlevel.server import Server
    from mcp_types import (
        CallToolResult,
        EmptyResult,
        ImageContent,
        ListPromptsResult,
        ListToolsResult,
        TextContent,
    )

    from hands.cli.mcp_serve_capabilities import ServeCapabilities

    extra = ServeCapabilities(bridge=bridge)

    async def on_list_tools(ctx: Any, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=bridge.tool_list())

    async def on_call_tool(ctx: Any, params: Any) -> CallToolResult:
        session = getattr(ctx, "session", None)
        report = getattr(session, "report_progress", None)
        await extra.log(ctx, "debug", {"event": "call", "tool": params.name})
        blocks, failed = await bridge.call(params.name, dict(params.arguments or {}), report)
        await extra.log(
            ctx,
            "warning" if failed else "info",
            {"event": "result", "tool": params.name, "is_error": failed},
        )
        content: list[Any] = []
        for b in blocks:
            if isinstance(b, TextBlock):
                content.append(TextContent(type="text", text=b.text))
            else:
                content.append(ImageContent(type="image", data=b.data, mime_type=b.media_type))
        return CallToolResult(content=content, is_error=failed)

    async def on_list_prompts(ctx: Any, params: Any) -> ListPromptsResult:
        return ListPromptsResult(prompts=[])

    async def on_set_logging_level(ctx: Any, params: Any) -> EmptyResult:
        extra.set_level(ctx, params.level)
        return EmptyResult()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # logging is deprecated from 2026-07-28 on; hosts use it
        return Server(  # pyright: ignore[reportDeprecated]
            SERVER_NAME,
            version=_version(),
            instructions=INSTRUCTIONS,
            on_list_tools=on_list_tools,
            on_call_tool=on_call_tool,
            on_list_resources=extra.on_list_resources,
            on_list_resource_templates=extra.on_list_resource_templates,
            on_read_resource=extra.on_read_resource,
            on_list_prompts=on_list_prompts,
            on_get_prompt=extra.on_get_prompt,
            on_completion=extra.on_completion,
            on_set_logging_level=on_set_logging_level,
        )


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("hands")
    except Exception:
        return "0"


def run_stdio(bridge: HandsMcpBridge) -> None:
    """Serve over stdin/stdout until the host closes the connection.

    The host's ``initialize`` and ``tools/list`` are answered before the SDK loads when an
    earlier start kept the SDK's answers to the same requests with the same inputs
    (:mod:`hands.cli.mcp_serve_early`). ``HANDS_MCP_SERVE_EARLY=0`` turns that off: the
    SDK's own ``stdio_server`` reads every line, as :func:`serve_stdio` does.
    """
    from hands.core.env import switch

    if switch(EARLY_SWITCH) is False:
        anyio.run(serve_stdio, bridge)
        return
    from hands.cli import mcp_serve_early
    from hands.cli.mcp_stdio import StdioWire

    try:
        wire = StdioWire.claim()
    except OSError:  # no standard input or output to duplicate: the SDK's own way
        anyio.run(serve_stdio, bridge)
        return
    early = mcp_serve_early.start(wire, _answer_store(bridge))
    try:
        anyio.run(_serve_early, bridge, early)
    finally:
        wire.release()


async def _serve_early(bridge: HandsMcpBridge, early: EarlyAnswers) -> None:
    from hands.cli import mcp_serve_early

    try:
        await mcp_serve_early.serve(early, lambda: build_server(bridge))
    finally:
        await bridge.session.aclose()


def _answer_store(bridge: HandsMcpBridge) -> AnswerStore | None:
    """Where this start's answers are kept; None when their key cannot be made."""
    from hands.cli.mcp_serve_kept import AnswerStore
    from hands.core.limits import hands_home

    if bridge.answers_key is None:
        return None
    try:
        key = bridge.answers_key()
    except Exception:  # an input that cannot be read: nothing is answered from a guess
        log.warning("the key of the kept answers could not be made", exc_info=True)
        return None
    return AnswerStore(hands_home() / "mcp-serve", key)


async def serve_stdio(bridge: HandsMcpBridge) -> None:
    """Serve over stdin/stdout until the host closes the connection, all through the SDK."""
    from mcp.server.stdio import stdio_server

    server = build_server(bridge)
    try:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await bridge.session.aclose()


async def serve_http(bridge: HandsMcpBridge, port: int, host: str = "127.0.0.1") -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` (loopback by default)."""
    import uvicorn

    server = build_server(bridge)
    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    try:
        await uvicorn.Server(config).serve()
    finally:
        await bridge.session.aclose()


def _reaches_the_web(tool: Tool[Any, Any]) -> bool:
    """A built-in of the web family (its calls reach the open internet)."""
    return type(tool).__module__.startswith("hands.tools.web.")
