"""``hands tool``: one call through the whole pipeline, outside any conversation."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio

from hands.cli import startup
from hands.config.settings import Settings, load_settings
from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import AskRequest, PermissionDecision, allow
from hands.core.limits import Limits
from hands.core.messages import ToolResultBlock, ToolUseBlock
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import BuiltinGrammar, find_builtin, pool_for
from hands.pipeline.runtime import ToolRuntime
from hands.tools.bash._settings import install as install_bash_settings


async def _explicit(request: AskRequest) -> PermissionDecision:
    # The user typed this exact call on the command line: that is the approval.
    # Deny rules and plan mode still refuse it before it gets here.
    return allow("invoked explicitly from the command line")


def run_one(
    *,
    name: str,
    data: Mapping[str, Any],
    cwd: Path,
    permission_mode: PermissionMode = "default",
    simple: bool = False,
    settings: Settings | None = None,
) -> ToolResultBlock:
    """Run one call and return its tool_result block."""
    if settings is None:
        settings = load_settings(cwd)
    settings.apply_env()
    limits = Limits.from_env()
    simple = simple or limits.simple
    entry = find_builtin(name)
    from hands.permissions.policy import engine_for

    engine = engine_for(settings, grammar=BuiltinGrammar())
    if entry is not None and (not simple or entry.tool_class().simple_mode):
        # Load only the tool asked for: a fast start for one call.
        pool = pool_for(engine, base=[entry.load()])
    else:
        pool = pool_for(engine, simple=simple)
    hooks = None
    if settings.hooks:  # the hook engine is loaded only when some settings file has hooks
        from hands.hooks.engine import build_hooks

        hooks = build_hooks(settings, on_notice=lambda t: print(f"hands: {t}", file=sys.stderr))
    runtime = ToolRuntime(tools=pool, policy=engine, ask=_explicit, hooks=hooks, limits=limits)
    startup.done()  # every model is built: the tool runs in the user's own environment
    session = Session()
    install_bash_settings(session, settings)
    ctx = ToolContext(
        cwd=cwd,
        session=session,
        project_dir=cwd,
        permission_mode=permission_mode,
        additional_dirs=settings.additional_directories,
    )
    block = ToolUseBlock(id=f"toolu_cli_{secrets.token_hex(6)}", name=name, input=dict(data))

    async def go() -> ToolResultBlock:
        try:
            outcome = await run_tool_use(block, ctx, runtime, lambda _data: None)
        finally:
            await session.aclose()
        return outcome.block

    return anyio.run(go)
