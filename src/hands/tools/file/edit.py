"""Edit: exact string replacement in a file, checked against what the model read."""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
from pydantic import Field

from hands.context import ToolContext
from hands.errors import ToolError
from hands.schema import ToolInput
from hands.tool import Progress, Tool, ToolResult
from hands.tools.file.diffview import diff_summary, render_diff
from hands.tools.file.edit_plan import EditPlan, PlanCache, plan_edits
from hands.tools.file.edit_result import EditOutput, edit_content, write_plan
from hands.tools.file.paths import check_path
from hands.tools.file.replace import EditError, EditSpec

if TYPE_CHECKING:
    from rich.console import RenderableType

DESCRIPTION = """Replace an exact string in a file.

- Read the file first in this conversation; an edit of a file you have not read, or one
  changed on disk since you read it, is refused so nobody's work is overwritten.
- old_string must match the file exactly, indentation included. Copy it from Read's
  output without the line-number prefix (the number and the tab before each line).
- The edit fails if old_string matches more than once: add surrounding lines to make it
  unique, or set replace_all to replace every occurrence (e.g. renaming a variable).
- Replacement is literal. An empty new_string deletes old_string (and its line break,
  when it is a whole line). An empty old_string creates a new file with new_string.
- The file keeps its encoding and line endings; curly quotes in the file match straight
  quotes in old_string.
- Prefer editing existing files to writing new ones. Use NotebookEdit for .ipynb files."""


class EditInput(ToolInput):
    """Input of Edit."""

    file_path: str = Field(description="The absolute path of the file to change")
    old_string: str = Field(description="The text to replace")
    new_string: str = Field(description="The text to replace it with (must differ from old_string)")
    replace_all: bool = Field(
        default=False, description="Replace every occurrence of old_string (default false)"
    )


class EditTool(Tool[EditInput, EditOutput]):
    """Replace one string (or every occurrence of it) in a file."""

    name = "Edit"
    description = DESCRIPTION
    input_model = EditInput
    edits_files = True

    async def validate_input(self, input: EditInput, ctx: ToolContext) -> str | None:
        try:
            plan = await _plan(input, ctx)
        except EditError as exc:
            return str(exc)
        ctx.session.service(PlanCache).put(_key(input, ctx), plan)
        return None

    async def call(
        self, input: EditInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[EditOutput]:
        plan = ctx.session.service(PlanCache).take(_key(input, ctx))
        if plan is None:
            try:
                plan = await _plan(input, ctx)
            except EditError as exc:
                raise ToolError(str(exc)) from exc
        return ToolResult(output=await write_plan(plan, ctx))

    def to_content(self, output: EditOutput) -> str:
        return edit_content(output)

    def describe_input(self, input: EditInput) -> str:
        return input.file_path + (" (replace all)" if input.replace_all else "")

    def render_result(self, output: EditOutput) -> RenderableType:
        verb = "Created" if output.created else "Updated"
        return render_diff(
            diff_summary(verb, output.file_path, output.structured_patch), output.structured_patch
        )


def _key(input: EditInput, ctx: ToolContext) -> tuple[str, str]:
    return (f"Edit:{ctx.tool_use_id}", input.model_dump_json())


async def _plan(input: EditInput, ctx: ToolContext) -> EditPlan:
    path = check_path(input.file_path, ctx)
    if isinstance(path, str):
        raise EditError(path)
    spec = EditSpec(
        old_string=input.old_string, new_string=input.new_string, replace_all=input.replace_all
    )
    return await anyio.to_thread.run_sync(lambda: plan_edits(path, ctx, [spec], tool="Edit"))
