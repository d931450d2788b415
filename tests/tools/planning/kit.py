"""Scripted sessions over the planning tools, through the whole pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hands.agent.loop import QueryOptions, query
from hands.core.context import PermissionMode
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.orchestration.events import ToolResultEvent
from hands.permissions.engine import PermissionEngine
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedModel


def use(name: str, **data: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": data}


async def run(
    project: Path,
    calls: Sequence[dict[str, Any]],
    *,
    session: Session | None = None,
    mode: PermissionMode = "default",
    engine: bool = True,
    **options: Any,
) -> list[ToolCallOutcome]:
    """Each call in a turn of its own, then a text answer; the outcomes in order."""
    model = ScriptedModel.from_turns(*[[c] for c in calls], [{"type": "text", "text": "done"}])
    policy = PermissionEngine([], home=project.parent / "user-home") if engine else None
    q = query(
        "go",
        QueryOptions(
            model=model,
            tools=pool_for(policy),
            cwd=project,
            permission_mode=mode,
            policy=policy,
            session=session,
            **options,
        ),
    )
    return [e.outcome async for e in q if isinstance(e, ToolResultEvent)]
