"""One call to go from a project directory to running MCP servers and a tool source."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hands.mcp.config import (
    McpConfigSet,
    McpServerConfig,
    McpSettings,
    ProjectApproval,
    load_mcp_config,
)

if TYPE_CHECKING:
    from hands.core.decision import PermissionPolicy
    from hands.core.session import Session
    from hands.core.tool import Tool
    from hands.mcp.manager import McpManager
    from hands.mcp.sampling import SamplingApproval
    from hands.mcp.source import McpToolSource
    from hands.mcp.tool_cache import ToolListCache
    from hands.pipeline.pool import ToolPool


def build_manager(
    cwd: Path | str,
    *,
    env: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | Iterable[McpServerConfig] = (),
    approve_project: ProjectApproval = True,
    settings: McpSettings | None = None,
    tool_cache: ToolListCache | None = None,
    blocked: Callable[[McpServerConfig], str | None] | None = None,
) -> tuple[McpManager, McpConfigSet]:
    """A manager (not started) for every server of the project, and the config it read.

    ``tool_cache`` keeps tool lists between sessions (see :mod:`hands.mcp.tool_cache`).
    """
    from hands.mcp.manager import McpManager
    from hands.mcp.status import ServerStatus

    config = load_mcp_config(
        cwd, env=env, extra=extra, approve_project=approve_project, blocked=blocked
    )
    unapproved = (
        "project server not approved yet, so not started: answer hands' question in a "
        "session or add it to enabledMcpjsonServers in .claude/settings.local.json "
        "(`hands mcp list --probe` starts it to check it)"
    )
    idle: list[tuple[McpServerConfig, Literal["needs-approval", "disabled"], str]] = [
        *((server, "needs-approval", unapproved) for server in config.needs_approval),
        *((server, "disabled", "listed in disabledMcpjsonServers") for server in config.disabled),
        *((server, "disabled", why) for server, why in config.blocked),
    ]
    extra_status = [
        ServerStatus(
            name=server.name,
            scope=server.scope,
            transport=server.transport,
            target=server.target,
            state=state,
            error=error,
        )
        for server, state, error in idle
    ]
    manager = McpManager(
        config.servers,
        settings=settings or McpSettings.from_env(env),
        extra_status=extra_status,
        tool_cache=tool_cache,
    )
    return manager, config


def start_mcp(
    cwd: Path | str,
    *,
    session: Session,
    base: ToolPool | Sequence[Tool[Any, Any]] | None = None,
    policy: PermissionPolicy | None = None,
    env: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | Iterable[McpServerConfig] = (),
    approve_project: ProjectApproval = True,
    sampling: SamplingApproval | None = None,
) -> McpToolSource:
    """Start every server in the background and return the ToolSource for ``query``.

    Call it inside the running event loop; the connections close when ``session``
    closes (``await session.aclose()``). ``sampling``: approves servers'
    ``sampling/createMessage`` requests, then served by the session's model (the one
    ``query`` runs); None: sampling is not offered.
    """
    from hands.mcp.source import McpToolSource

    manager, _ = build_manager(cwd, env=env, extra=extra, approve_project=approve_project)
    if sampling is not None:
        from hands.mcp.sampling import model_sampler
        from hands.models.base import SessionModel

        manager.sample = model_sampler(lambda: session.service(SessionModel).model, sampling)
    manager.start().attach(session)
    return McpToolSource(manager, base=base, policy=policy)


def manager_for_tool(
    cwd: Path | str,
    name: str,
    *,
    value: Callable[[str], Any],
    trusted: bool,
    env: Mapping[str, str] | None = None,
    server: str | None = None,
) -> McpManager | None:
    """A manager (not started) with only the server the tool ``name`` belongs to.

    For one call from the shell (``hands tool mcp__server__tool``): servers are approved
    as in print mode (in a ``trusted`` workspace every project server but the refused
    ones, else none), the settings' ``allowedMcpServers`` / ``deniedMcpServers`` hold.
    A resource tool (``ListMcpResourcesTool``, ``ReadMcpResourceTool``) gets the
    ``server`` its input names, or every approved server. None when ``name`` is neither
    an MCP tool name nor a resource tool.
    """
    from hands.mcp.config import approval_without_asking
    from hands.mcp.manager import McpManager
    from hands.mcp.naming import normalize, split_name
    from hands.mcp.server_policy import ServerPolicy

    parts = split_name(name)
    wanted = parts[0] if parts is not None else server
    if parts is None and name not in resource_tool_names():
        return None
    manager, config = build_manager(
        cwd,
        env=env,
        approve_project=approval_without_asking(value, trusted=trusted),
        blocked=ServerPolicy.from_settings(value).blocked,
    )
    chosen = [s for s in config.servers if wanted is None or normalize(s.name) == wanted]
    return McpManager(chosen, settings=manager.settings)


def resource_tool_names() -> tuple[str, ...]:
    """The names of the tools that list and read MCP resources."""
    from hands.mcp.resources import ListMcpResourcesTool, ReadMcpResourceTool

    return (ListMcpResourcesTool.name, ReadMcpResourceTool.name)
