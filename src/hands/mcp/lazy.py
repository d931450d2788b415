"""Lazy MCP start: servers whose tools are all deferred and cached stay unstarted.

:func:`start_deferred_mcp` puts it together: the manager reads the tool-list cache
(:mod:`hands.mcp.tool_cache`), the :class:`~hands.discovery.deferral.DeferringSource`
decides what is deferred, and servers whose tools are all deferred and cached stay
unstarted until ToolSearch returns one of their tools or the model calls one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hands.mcp.tool_cache import ToolListCache

if TYPE_CHECKING:
    from hands.core.decision import PermissionPolicy
    from hands.core.session import Session
    from hands.core.tool import Tool
    from hands.discovery.deferral import DeferralMode, DeferringSource
    from hands.mcp.config import McpConfigSet, McpServerConfig, ProjectApproval
    from hands.mcp.manager import McpManager
    from hands.models.base import Model
    from hands.pipeline.pool import ToolPool


def build_deferred_mcp(
    cwd: Path | str,
    *,
    base: ToolPool | Sequence[Tool[Any, Any]] | None = None,
    policy: PermissionPolicy | None = None,
    env: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | Iterable[McpServerConfig] = (),
    mode: DeferralMode | str | None = None,
    window: int | None = None,
    model: Model | None = None,
    cache: ToolListCache | None = None,
    approve_project: ProjectApproval = True,
    blocked: Callable[[McpServerConfig], str | None] | None = None,
) -> tuple[McpManager, DeferringSource, McpConfigSet]:
    """The project's MCP servers (not started yet) behind a DeferringSource.

    Deferral's threshold is ``window`` (the session's, with its overrides), else the
    window ``model`` says it has. Start them with ``manager.start(lazy=source.active)``
    inside the running event loop.
    """
    from hands.discovery.deferral import DeferringSource
    from hands.mcp.setup import build_manager
    from hands.mcp.source import McpToolSource
    from hands.models.facts import facts_of

    manager, config = build_manager(
        cwd,
        env=env,
        extra=extra,
        approve_project=approve_project,
        tool_cache=cache or ToolListCache(),
        blocked=blocked,
    )
    source = DeferringSource(
        McpToolSource(manager, base=base, policy=policy),
        mode=mode,
        window=window,
        policy=policy,
        env=env,
        facts=facts_of(model) if model is not None else None,
    )
    return manager, source, config


def start_deferred_mcp(
    cwd: Path | str,
    *,
    session: Session,
    base: ToolPool | Sequence[Tool[Any, Any]] | None = None,
    policy: PermissionPolicy | None = None,
    env: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | Iterable[McpServerConfig] = (),
    mode: DeferralMode | str | None = None,
    window: int | None = None,
    model: Model | None = None,
    cache: ToolListCache | None = None,
) -> DeferringSource:
    """Start the project's MCP servers (lazily where possible) behind a DeferringSource.

    Call it inside the running event loop; connections close with ``session``. Servers
    whose tools are all deferred and cached are started only when needed.
    """
    manager, source, _ = build_deferred_mcp(
        cwd,
        base=base,
        policy=policy,
        env=env,
        extra=extra,
        mode=mode,
        window=window,
        model=model,
        cache=cache,
    )
    manager.start(lazy=source.active).attach(session)
    return source
