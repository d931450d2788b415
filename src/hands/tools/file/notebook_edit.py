"""NotebookEdit: replace, insert or delete one cell of a Jupyter notebook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import anyio
from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.subject import writes_path
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.file._paths import resolved_field

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.tools.file._notebook_plan import NotebookEditOutput, NotebookPlan

DESCRIPTION = """Replace, insert or delete one cell of a Jupyter notebook (.ipynb).

- Read the notebook first: Read shows every cell with its id.
- notebook_path should be absolute (a relative one is taken from the working
  directory). cell_id is the id exactly as Read shows it.
- edit_mode "replace" (default) sets the cell's source (a code cell's outputs are
  cleared); cell_type may change its type too.
- edit_mode "insert" adds a new cell after cell_id, or at the start when cell_id is
  omitted; cell_type is required.
- edit_mode "delete" removes the cell; new_source is ignored (send an empty string).
- Use this tool, not Edit or Write, for notebooks."""


class NotebookEditInput(ToolInput):
    """Input of NotebookEdit."""

    notebook_path: str = Field(
        description="The absolute path of the .ipynb file (relative: from the working directory)"
    )
    cell_id: str | None = Field(
        default=None,
        description="The id of the cell to change, as Read shows it. For insert, the new "
        "cell goes after this one (at the start when omitted)",
    )
    new_source: str = Field(description="The new source of the cell")
    cell_type: Literal["code", "markdown"] | None = Field(
        default=None, description="The cell type; required for insert"
    )
    edit_mode: Literal["replace", "insert", "delete"] = Field(
        default="replace", description="replace (default), insert or delete"
    )


class NotebookEditTool(Tool[NotebookEditInput, "NotebookEditOutput"]):
    """Change one notebook cell."""

    name = "NotebookEdit"
    in_background_agents = True
    description = DESCRIPTION
    input_model = NotebookEditInput
    should_defer = True
    edits_files = True
    subject = writes_path("notebook_path")

    def observable_input(self, input: NotebookEditInput, ctx: ToolContext) -> Mapping[str, Any]:
        return resolved_field(input.notebook_path, ctx, "notebook_path")

    def is_destructive(self, input: NotebookEditInput) -> bool:
        return input.edit_mode == "delete"

    async def validate_input(self, input: NotebookEditInput, ctx: ToolContext) -> str | None:
        try:
            await anyio.to_thread.run_sync(lambda: _plan(input, ctx))
        except ToolError as exc:
            return str(exc)
        return None

    async def call(
        self, input: NotebookEditInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[NotebookEditOutput]:
        from hands.tools.file._guard import commit_write  # lazy: start-up

        plan = await anyio.to_thread.run_sync(lambda: _plan(input, ctx))
        await commit_write(plan, ctx)
        return ToolResult(output=plan.output)

    async def preview(self, input: NotebookEditInput, ctx: ToolContext) -> str | None:
        from hands.tools.file._diffview import added_lines  # lazy: start-up

        cell = f"cell {input.cell_id}" if input.cell_id else "the start"
        if input.edit_mode == "delete":
            return f"delete {cell} of {input.notebook_path}"
        what = (
            f"a new {input.cell_type or 'code'} cell after {cell}"
            if input.edit_mode == "insert"
            else f"the new source of {cell}"
        )
        return added_lines(f"{what} in {input.notebook_path}", input.new_source)

    def to_content(self, output: NotebookEditOutput) -> str:
        where = f"{output.notebook_path}, cell {output.cell_id}"
        if output.edit_mode == "delete":
            return f"Removed {where}; the other cells are unchanged."
        if output.edit_mode == "insert":
            return (
                f"Added a new {output.cell_type} cell to {where}. Its source:\n{output.new_source}"
            )
        return f"Replaced the source of {where} ({output.cell_type}). Now:\n{output.new_source}"

    def describe_input(self, input: NotebookEditInput) -> str:
        where = (
            f" · {input.edit_mode} {input.cell_id}" if input.cell_id else f" · {input.edit_mode}"
        )
        return input.notebook_path + where

    def render_result(self, output: NotebookEditOutput) -> RenderableType:
        from hands.tools.file._diffview import render_diff  # lazy: start-up

        verb = {"replace": "Updated", "insert": "Inserted", "delete": "Deleted"}[output.edit_mode]
        title = f"{verb} cell {output.cell_id} of {output.notebook_path}"
        return render_diff(title, output.structured_patch)


def _plan(input: NotebookEditInput, ctx: ToolContext) -> NotebookPlan:
    from hands.tools.file._notebook_plan import plan_notebook_edit  # lazy: start-up

    return plan_notebook_edit(input, ctx)
