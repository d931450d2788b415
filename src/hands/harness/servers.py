"""A harness's MCP servers: built behind deferral, started inside the event loop."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.context import ToolContext

if TYPE_CHECKING:
    from collections.abc import Callable

    from hands.discovery.deferral import DeferringSource
    from hands.harness.harness import Harness, ServerApproval
    from hands.mcp.config import McpConfigSet, McpServerConfig
    from hands.mcp.manager import McpManager


def deferred_servers(
    harness: Harness, approve: ServerApproval
) -> tuple[McpManager, DeferringSource, McpConfigSet]:
    """The project's MCP servers (not started) behind a deferring tool source.

    Deferral takes the model's window as compaction does, and the Agent tool's agent
    files reach the same servers.
    """
    from hands.mcp.lazy import build_deferred_mcp
    from hands.mcp.server_policy import ServerPolicy

    blocked = ServerPolicy.from_settings(harness.settings.value).blocked
    built = build_deferred_mcp(
        harness.cwd,
        base=harness.pool,
        policy=harness.policy,
        model=harness.model_if_any(),
        window=harness.window_if_any(),
        approve_project=approve,
        blocked=blocked,
        extra=harness.mcp_servers,
    )
    _agents_get_servers(harness, blocked)
    return built


def _agents_get_servers(harness: Harness, blocked: Callable[[McpServerConfig], str | None]) -> None:
    """Let agent files' ``mcpServers`` reach the session's servers (and start their own)."""
    from hands.agent.subagents.tool import AgentTool
    from hands.mcp.agent_servers import AgentMcpServers

    tool = harness.pool.find("Agent")
    if isinstance(tool, AgentTool):
        tool.servers = AgentMcpServers(
            lambda: harness.mcp,
            cwd=harness.cwd,
            blocked=blocked,
        )


def start_servers(harness: Harness) -> None:
    """Connect the MCP servers in the background; they close with the session."""
    manager = harness.mcp
    if manager is None:
        return
    manager.roots = (harness.cwd, *harness.settings.additional_directories)
    if manager.connections:  # without a server, nobody elicits or samples
        _answer_servers(harness, manager)
    from hands.discovery.deferral import DeferringSource

    source = harness.source
    lazy = isinstance(source, DeferringSource) and source.active
    manager.start(lazy=lazy).attach(harness.session)


def _answer_servers(harness: Harness, manager: McpManager) -> None:
    """Elicitation through the hooks, and sampling only for auto-approved servers."""
    from hands.mcp.elicitation import HookElicitation, decline_unless_hooked
    from hands.mcp.sampling import decline_all, model_sampler

    hooks = harness.hooks
    if hooks is not None and manager.elicit is None:
        from hands.hooks.engine import HookEngine

        if isinstance(hooks, HookEngine):
            ctx = ToolContext(cwd=harness.cwd, session=harness.session, project_dir=harness.cwd)
            manager.elicit = decline_unless_hooked(HookElicitation(hooks, ctx))
    if manager.sample is None:  # nobody to ask: only auto-approved servers are served
        manager.sample = model_sampler(lambda: harness.model, decline_all)
        manager.sample_can_ask = False


def started_without_asking(harness: Harness) -> list[str]:
    """A note for each project server print mode starts that nobody approved."""
    from hands.mcp.config import approval_from_settings

    config = harness.mcp_config
    if (
        config is None
        or harness.front_end.project_servers != "without_asking"
        or not harness.settings.trusted
    ):
        return []
    decided = approval_from_settings(harness.settings.value, trusted=True)
    return [
        f"print mode starts the project MCP server {s.name!r} ({s.source}) without asking, "
        "as Claude Code does; add it to disabledMcpjsonServers in "
        ".claude/settings.local.json to keep it off"
        for s in config.servers
        if s.scope == "project" and decided(s) is None
    ]
