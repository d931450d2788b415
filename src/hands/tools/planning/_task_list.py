"""Which task list a session uses, where the database is, and which planning tools are on.

One database under the hands home holds every list. A session uses its project's list,
or the one ``HANDS_TASK_LIST_ID`` (Claude Code's ``CLAUDE_CODE_TASK_LIST_ID``) names, so
several sessions and sub-agents can share one. The Task tools are offered by default;
``HANDS_ENABLE_TASKS=0`` (or ``CLAUDE_CODE_ENABLE_TASKS=0``) offers TodoWrite instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from hands.core.context import ToolContext
from hands.core.env import switch, text

if TYPE_CHECKING:
    from hands.tools.planning._task_store import Task, TaskStore

DATABASE = "tasks.db"


def tasks_enabled(env: Mapping[str, str] | None = None) -> bool:
    """Whether the Task tools are offered (else TodoWrite): on unless a variable says 0."""
    return switch("HANDS_ENABLE_TASKS", env) is not False


def list_id(project: Path, env: Mapping[str, str] | None = None) -> str:
    """The list a session in ``project`` uses: the one a variable names, or the project's."""
    return text("HANDS_TASK_LIST_ID", env) or f"project:{project.resolve()}"


def database(home: Path) -> Path:
    """The task database under the hands home ``home``."""
    return home / DATABASE


def store_for(ctx: ToolContext) -> tuple[TaskStore, str]:
    """The store and the list id of a call."""
    from hands.tools.planning._task_store import store_at  # lazy: start-up

    return store_at(database(ctx.session.home)), list_id(ctx.root)


def project_tasks(home: Path, project: Path) -> tuple[str, list[Task]]:
    """The list id of ``project`` and its tasks (none when no database exists yet)."""
    from hands.tools.planning._task_store import store_at  # lazy: start-up

    name = list_id(project)
    path = database(home)
    if not path.exists():
        return name, []
    return name, store_at(path).list(name)
