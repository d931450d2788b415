"""``hands tool``: one call through the whole pipeline, outside any conversation.

Each call is a session of its own, so the file tools' read-first rule would refuse an
Edit after a Read of an earlier call; ``--session NAME`` keeps the session's state (what
Read saw, and when; the todo list) in the hands home between calls, so a Read and then an
Edit work from the shell as in a conversation.
"""

from __future__ import annotations

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
from hands.config.settings import CliPermissionArgs, Settings
from hands.core.context import PermissionMode
from hands.core.messages import ToolResultBlock, ToolUseBlock
from hands.harness.front_ends import TOOL
from hands.harness.harness import Harness
from hands.pipeline.pool import find_builtin

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
    permission_mode: PermissionMode | None = None,
    simple: bool = False,
    settings: Settings | CliPermissionArgs | None = None,
    trust: bool = False,
    session_name: str | None = None,
) -> ToolResultBlock:
    """Run one call and return its tool_result block.

    ``permission_mode``: ``None`` is the settings' ``defaultMode``. With
    ``session_name``, the read-state of earlier calls under that name is restored first
    and saved after.
    """
    harness = Harness.open(
        cwd,
        settings_sources=settings,
        trust=trust,
        mode=permission_mode,
        front_end=TOOL,
        simple=simple,
    )
    if not isinstance(settings, Settings):  # loaded here: its warnings are said here
        from hands.cli.args import announce_warnings

        announce_warnings(harness.settings)
    pool = harness.pool_for_tool(name)
    mcp = None
    resources = False
    if find_builtin(name) is None:
        from hands.mcp.setup import manager_for_tool, resource_tool_names

        loaded = harness.settings
        server = data.get("server")
        mcp = manager_for_tool(
            cwd,
            name,
            value=loaded.value,
            trusted=loaded.trusted,
            server=server if isinstance(server, str) and server else None,
        )
        resources = name in resource_tool_names()
    startup.done()  # every model is built: the tool runs in the user's own environment
    session = harness.session
    state_file = session_state_path(session.home, session_name) if session_name else None
    if state_file is not None:
        _restore_states(harness, state_file)
    block = ToolUseBlock(id=f"toolu_cli_{secrets.token_hex(6)}", name=name, input=dict(data))

    async def go() -> ToolResultBlock:
        tools = pool
        if mcp is not None:  # the tool's server starts now; the call waits for it
            from hands.mcp.client_features import normalize_roots
            from hands.mcp.source import McpToolSource

            mcp.roots = normalize_roots((cwd, *harness.settings.additional_directories))
            mcp.start().attach(session)
            if resources:  # offered once a server says it has resources
                await mcp.wait_ready()
            tools = McpToolSource(mcp, base=pool, policy=harness.policy).current_pool()
        try:
            outcome = await harness.run_tool_use(block, runtime=harness.runtime(tools=tools))
            if state_file is not None:
                _save_states(harness, state_file)
        finally:
            await harness.aclose()
        return outcome.block

    return anyio.run(go)


def _restore_states(harness: Harness, path: Path) -> None:
    try:
        items: object = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        print(f"hands: warning: {path}: cannot be read ({exc}); starting afresh", file=sys.stderr)
        return
    if isinstance(items, dict):
        harness.restore(cast(dict[str, Any], items))


def _save_states(harness: Harness, path: Path) -> None:
    from hands.config.jsonfile import update_json_object

    snapshot = harness.snapshot()
    try:
        update_json_object(path, lambda data: data.update(snapshot))
    except OSError as exc:
        print(f"hands: warning: the session's state was not saved: {exc}", file=sys.stderr)
