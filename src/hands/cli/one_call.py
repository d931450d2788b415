"""``hands tool``: one call through the whole pipeline, outside any conversation.

Each call is a session of its own, so the file tools' read-first rule would refuse an
Edit after a Read of an earlier call; ``--session NAME`` keeps the read-state (what Read
saw, and when) in the hands home between calls, so a Read and then an Edit work from the
shell as in a conversation.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import anyio

from hands.cli import startup
from hands.cli.args import UsageError
from hands.config.settings import Settings, load_settings
from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import AskRequest, PermissionDecision, allow
from hands.core.limits import Limits
from hands.core.messages import ToolResultBlock, ToolUseBlock
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import BuiltinGrammar, find_builtin, pool_for
from hands.pipeline.runtime import ToolRuntime
from hands.pipeline.settings import install_settings


async def _explicit(request: AskRequest) -> PermissionDecision:
    # The user typed this exact call on the command line: that is the approval.
    # Deny rules and plan mode still refuse it before it gets here.
    return allow("invoked explicitly from the command line")


_SESSION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_session_name(name: str) -> None:
    """Refuse a ``--session`` name that could not be a file name of its own."""
    if not _SESSION_NAME.fullmatch(name) or ".." in name:
        raise UsageError(
            f"--session {name!r}: use up to 64 letters, digits, '.', '_' or '-', starting "
            "with a letter or digit"
        )


def session_state_path(home: Path, name: str) -> Path:
    """Where ``hands tool --session NAME`` keeps its read-state."""
    return home / "tool-sessions" / f"{name}.json"


def run_one(
    *,
    name: str,
    data: Mapping[str, Any],
    cwd: Path,
    permission_mode: PermissionMode = "default",
    simple: bool = False,
    settings: Settings | None = None,
    session_name: str | None = None,
) -> ToolResultBlock:
    """Run one call and return its tool_result block.

    With ``session_name``, the read-state of earlier calls under that name is restored
    first and saved after.
    """
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
    mcp = None
    if entry is None:
        from hands.mcp.setup import manager_for_tool

        mcp = manager_for_tool(cwd, name, value=settings.value, trusted=settings.trusted)
    base_runtime = ToolRuntime(tools=pool, policy=engine, ask=_explicit, hooks=hooks, limits=limits)
    startup.done()  # every model is built: the tool runs in the user's own environment
    session = Session()
    install_settings(session, settings)
    state_file = session_state_path(session.home, session_name) if session_name else None
    if state_file is not None:
        _restore_read_state(session, state_file)
    ctx = ToolContext(
        cwd=cwd,
        session=session,
        project_dir=cwd,
        permission_mode=permission_mode,
        additional_dirs=settings.additional_directories,
    )
    block = ToolUseBlock(id=f"toolu_cli_{secrets.token_hex(6)}", name=name, input=dict(data))

    async def go() -> ToolResultBlock:
        if mcp is not None:  # the tool's server starts now; the call waits for it
            from hands.mcp.source import McpToolSource

            mcp.start().attach(session)
            tools = McpToolSource(mcp, base=pool, policy=engine).current_pool()
            runtime = dataclasses.replace(base_runtime, tools=tools)
        else:
            runtime = base_runtime
        try:
            outcome = await run_tool_use(block, ctx, runtime, lambda _data: None)
            if state_file is not None:
                _save_read_state(session, state_file)
        finally:
            await session.aclose()
        return outcome.block

    return anyio.run(go)


def _restore_read_state(session: Session, path: Path) -> None:
    from hands.tools.file._state import ReadStateCache

    try:
        items: object = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        print(f"hands: warning: {path}: cannot be read ({exc}); starting afresh", file=sys.stderr)
        return
    state = cast(dict[str, Any], items).get("read_state") if isinstance(items, dict) else None
    if isinstance(state, list):
        session.service(ReadStateCache).restore(cast(list[dict[str, Any]], state))


def _save_read_state(session: Session, path: Path) -> None:
    from hands.config.jsonfile import update_json_object
    from hands.tools.file._state import ReadStateCache

    snapshot = session.service(ReadStateCache).snapshot()
    try:
        update_json_object(path, lambda data: data.update(read_state=snapshot))
    except OSError as exc:
        print(f"hands: warning: the read-state was not saved: {exc}", file=sys.stderr)
