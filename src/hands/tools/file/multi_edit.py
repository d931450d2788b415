"""MultiEdit: several replacements in one file, applied in order, all or nothing."""

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

DESCRIPTION = """Make several replacements in one file in a single call.

- Same rules as Edit for each item (read the file first; exact, literal matching;
  replace_all for every occurrence).
- Edits apply in order, each to the result of the ones before it, so plan them so an
  earlier edit does not change text a later one looks for.
- All or nothing: if any edit fails, the file is left untouched.
- To create a file, give the first edit an empty old_string and the content as new_string."""


class EditItem(ToolInput):
    """One replacement of a MultiEdit."""

    old_string: str = Field(description="The text to replace")
    new_string: str = Field(description="The text to replace it with")
    replace_all: bool = Field(default=False, description="Replace every occurrence")


class MultiEditInput(ToolInput):
    """Input of MultiEdit."""

    file_path: str = Field(description="The absolute path of the file to change")
    edits: tuple[EditItem, ...] = Field(min_length=1, description="Replacements to make, in order")


class MultiEditTool(Tool[MultiEditInput, EditOutput]):
    """Several replacements in one file, atomically."""

    name = "MultiEdit"
    description = DESCRIPTION
    input_model = MultiEditInput
    edits_files = True

    async def validate_input(self, input: MultiEditInput, ctx: ToolContext) -> str | None:
        try:
            plan = await _plan(input, ctx)
        except EditError as exc:
            return str(exc)
        ctx.session.service(PlanCache).put(_key(input, ctx), plan)
        return None

    async def call(
        self, input: MultiEditInput, ctx: ToolContext, progress: Progress
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

    def describe_input(self, input: MultiEditInput) -> str:
        n = len(input.edits)
        return f"{input.file_path} ({n} edit{'s' if n != 1 else ''})"

    def render_result(self, output: EditOutput) -> RenderableType:
        verb = "Created" if output.created else "Updated"
        return render_diff(
            diff_summary(verb, output.file_path, output.structured_patch), output.structured_patch
        )


def _key(input: MultiEditInput, ctx: ToolContext) -> tuple[str, str]:
    return (f"MultiEdit:{ctx.tool_use_id}", input.model_dump_json())


async def _plan(input: MultiEditInput, ctx: ToolContext) -> EditPlan:
    path = check_path(input.file_path, ctx)
    if isinstance(path, str):
        raise EditError(path)
    specs = [
        EditSpec(old_string=e.old_string, new_string=e.new_string, replace_all=e.replace_all)
        for e in input.edits
    ]
    return await anyio.to_thread.run_sync(lambda: plan_edits(path, ctx, specs, tool="MultiEdit"))
