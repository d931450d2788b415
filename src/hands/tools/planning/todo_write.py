"""TodoWrite: the model's checklist for the session, written whole on every call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.tools.planning._task_list import tasks_enabled
from hands.tools.planning._todos import TodoItem, TodoList

if TYPE_CHECKING:
    from rich.console import RenderableType


class TodoWriteInput(ToolInput):
    """Input of TodoWrite."""

    todos: list[TodoItem] = Field(description="The whole list, as it is now")


@dataclass(frozen=True, kw_only=True, slots=True)
class TodoWriteResult:
    """The list before and after the call."""

    old_todos: tuple[TodoItem, ...]
    new_todos: tuple[TodoItem, ...]


class TodoWriteTool(Tool[TodoWriteInput, TodoWriteResult]):
    """Write the session's todo list."""

    name = "TodoWrite"
    session_states = (TodoList,)
    in_background_agents = True
    description = (
        "Keep a checklist of the work in this session. Use it for tasks of three or more "
        "steps, or when the user lists several things: write the whole list every time, "
        "each item with content (imperative: 'Run the tests'), activeForm (present "
        "continuous: 'Running the tests') and status. Exactly one item is in_progress "
        "while you work; mark an item completed as soon as it is done, not in batches. "
        "Skip it for a single, simple step."
    )
    input_model = TodoWriteInput
    should_defer = True
    allowed_in_plan_mode = True
    search_hint = "todo list checklist, track progress of steps"

    def is_enabled(self) -> bool:
        return not tasks_enabled()

    async def check_permissions(
        self, input: TodoWriteInput, ctx: ToolContext
    ) -> PermissionDecision:
        return allow("the todo list is the session's own")

    def describe_input(self, input: TodoWriteInput) -> str:
        from hands.tools.planning._checklist import progress_words

        return progress_words(input.todos)

    def user_facing_name(self, input: TodoWriteInput | None = None) -> str:
        return "Update Todos"

    def render_use(self, input: TodoWriteInput) -> RenderableType:
        from hands.core.render import use_line

        return use_line(f"Todo list updated: {self.describe_input(input)}", "")

    async def call(
        self, input: TodoWriteInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[TodoWriteResult]:
        todos = ctx.session.service(TodoList)
        new = tuple(input.todos)
        # a list whose every item is done is finished: the next plan starts empty
        kept = () if new and all(i.status == "completed" for i in new) else new
        old = todos.replace(kept)
        return ToolResult(output=TodoWriteResult(old_todos=old, new_todos=new))

    def to_content(self, output: TodoWriteResult) -> str:
        from hands.tools.planning._checklist import progress_words

        saved = (
            f"The todo list is saved ({progress_words(output.new_todos)}). Keep it current "
            "as you work: one item in_progress, each marked completed as soon as it is done."
        )
        busy = [item.content for item in output.new_todos if item.status == "in_progress"]
        if len(busy) < 2:
            return saved
        named = ", ".join(repr(c[:80]) for c in busy)
        return (
            f"{saved}\nNote: {len(busy)} items are in_progress ({named}). Work on one at a "
            "time: in your next update keep the current one in_progress and set the others "
            "back to pending (or completed if they are done)."
        )

    def render_result(self, output: TodoWriteResult) -> RenderableType:
        from hands.tools.planning._checklist import checklist

        return checklist(output.new_todos, result=True)
