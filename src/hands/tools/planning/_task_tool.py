"""What the four Task tools share: when they are offered, how they reach the store."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.tool import InputT, OutputT, Tool
from hands.errors import ToolError
from hands.tools.planning._task_list import store_for, tasks_enabled

if TYPE_CHECKING:
    from hands.tools.planning._task_store import Task, TaskStore

T = TypeVar("T")


class TaskTool(Tool[InputT, OutputT]):
    """Base of TaskCreate, TaskUpdate, TaskGet and TaskList.

    They change only the task list, never the user's files: no permission is asked, and
    they run in plan mode (a plan is made of tasks). Offered unless ``HANDS_ENABLE_TASKS=0``.
    """

    should_defer = True
    allowed_in_plan_mode = True

    def is_enabled(self) -> bool:
        return tasks_enabled()

    async def check_permissions(self, input: Any, ctx: ToolContext) -> PermissionDecision:
        return allow("the task list is the session's own")


async def in_store(
    ctx: ToolContext, work: Callable[[TaskStore, str], T], *, changes: bool = False
) -> T:
    """Run ``work(store, list_id)`` in a worker thread; a refused change is a ToolError.

    ``changes``: the list is read again afterwards for the session's
    :class:`~hands.tools.planning._task_board.TaskBoard` (the screen's task list).
    """
    from hands.tools.planning._task_board import TaskBoard  # lazy: start-up
    from hands.tools.planning._task_store import TaskError  # lazy: start-up

    store, list_id = store_for(ctx)
    board = ctx.session.service(TaskBoard) if changes else None

    def run() -> T:
        done = work(store, list_id)
        if board is not None:
            board.load(store, list_id)
        return done

    try:
        return await anyio.to_thread.run_sync(run)
    except TaskError as exc:
        raise ToolError(str(exc)) from None
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 text, so the store keeps nothing
        raise ToolError(
            "The task's text is not valid Unicode (it holds a lone surrogate); nothing was "
            "saved. Send the text again without it."
        ) from None


def task_line(task: Task) -> str:
    """``#2 Write the tests — pending, owner me, waiting on #1``."""
    facts = [task.status]
    if task.owner:
        facts.append(f"owner {task.owner}")
    if task.open_blockers:
        facts.append(f"waiting on {', '.join('#' + t for t in task.open_blockers)}")
    return f"#{task.id} {task.subject} — {', '.join(facts)}"


class TaskReader(TaskTool[InputT, OutputT]):
    """TaskGet and TaskList: they only read, so they run beside anything."""

    def is_read_only(self, input: Any) -> bool:
        return True

    def is_concurrency_safe(self, input: Any) -> bool:
        return True
