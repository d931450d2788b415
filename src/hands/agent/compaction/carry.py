"""What a summary carries besides the summary: where the session is and what it last read.

The working directory, permission mode (plan mode said in words) and plan file are
stated, with the todo list and the task list's open tasks, so the model picks up its
plan where it was; the files read most recently are re-attached (their first lines, as
they are on disk now) so the model does not re-read them blindly; the read-state cache
is kept, but a Read after compaction shows a file again instead of answering that it is
unchanged.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hands.core.context import ToolContext
from hands.core.messages import Message, TextBlock
from hands.core.plan_file import plan_file
from hands.tools.file._state import ReadStateCache
from hands.tools.planning._todos import TodoList

ATTACHED_LINES = 40
ATTACHED_CHARS = 2_000

SUMMARY_OPENING = (
    "This session goes on from an earlier conversation that was compacted to save context. "
    "The notes below summarise it; the most recent turns follow them as they were."
)


def summary_message(
    summary: str, ctx: ToolContext, *, reattach: int, extra: str = "", how: str = ""
) -> Message:
    """The user message that opens the compacted conversation.

    ``how``: a note on how the summary was made (in parts, messages left out).
    """
    said = f"{SUMMARY_OPENING} {how}" if how else SUMMARY_OPENING
    opening = f"<system-reminder>\n{said}\n\n{summary}\n</system-reminder>"
    blocks = [TextBlock(text=opening)]
    state = [f"Working directory: {ctx.cwd}", f"Permission mode: {ctx.permission_mode}"]
    plan = plan_file(ctx.session)
    if ctx.permission_mode == "plan":
        state.append(
            "You are still in plan mode: only read-only tools run; write the plan to "
            f"{plan} and ask for approval with ExitPlanMode when it is ready."
        )
    elif plan.is_file():
        state.append(f"The plan file is {plan}; it holds the current plan.")
    state += _todos(ctx) + _open_tasks(ctx)
    blocks.append(TextBlock(text="<system-reminder>\n" + "\n".join(state) + "\n</system-reminder>"))
    cache = ctx.session.service(ReadStateCache)
    for record in cache.recent(reattach):
        attached = _attached(record.path)
        if attached is not None:
            blocks.append(TextBlock(text=attached))
    cache.allow_rereads()
    if extra:
        blocks.append(TextBlock(text=extra))
    return Message(role="user", content=tuple(blocks))


def _todos(ctx: ToolContext) -> list[str]:
    """The todo list (TodoWrite), one line per item."""
    items = ctx.session.service(TodoList).items
    if not items:
        return []
    lines = [f"- [{i.status}] {i.content}" for i in items]
    return ["Your todo list (keep it current with TodoWrite):", *lines]


def _open_tasks(ctx: ToolContext) -> list[str]:
    """The task list's tasks not completed yet (the Task tools), one line each."""
    from hands.tools.planning._task_list import database, store_for, tasks_enabled
    from hands.tools.planning._task_store import TaskError
    from hands.tools.planning._task_tool import task_line

    if not tasks_enabled() or not database(ctx.session.home).exists():
        return []
    store, list_id = store_for(ctx)
    try:
        tasks = [t for t in store.list(list_id) if t.status != "completed"]
    except (TaskError, sqlite3.Error):
        return []  # the list cannot be read now: TaskList still can later
    if not tasks:
        return []
    return ["Open tasks in the task list (TaskList shows them all):", *map(task_line, tasks)]


def _attached(path: Path) -> str | None:
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            head = f.read(ATTACHED_CHARS + 1)
    except OSError:
        return None
    lines = head.splitlines()
    cut = len(head) > ATTACHED_CHARS or len(lines) > ATTACHED_LINES
    shown = "\n".join(lines[:ATTACHED_LINES])[:ATTACHED_CHARS]
    note = " (the start of it; Read it for the rest)" if cut else ""
    return (
        f"<system-reminder>\nRead earlier in this session: {path}{note}\n{shown}\n"
        "</system-reminder>"
    )
