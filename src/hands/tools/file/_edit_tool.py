"""What Edit and MultiEdit share: plan in validate_input, write that plan in call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import anyio

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.file._paths import resolved_field

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.tools.file._edit_plan import EditPlan
    from hands.tools.file._edit_result import EditOutput
    from hands.tools.file._replace import EditSpec

EditInputT = TypeVar("EditInputT", bound=ToolInput)


class PlannedEditTool(Tool[EditInputT, "EditOutput"]):
    """A tool that applies ``edit_specs`` of its input to ``file_path``, all or nothing."""

    edits_files = True

    def file_path(self, input: EditInputT) -> str:
        """The file the input changes."""
        raise NotImplementedError

    def observable_input(self, input: EditInputT, ctx: ToolContext) -> Mapping[str, Any]:
        return resolved_field(self.file_path(input), ctx)

    def edit_specs(self, input: EditInputT) -> Sequence[EditSpec]:
        """The replacements the input asks for, in order."""
        raise NotImplementedError

    async def validate_input(self, input: EditInputT, ctx: ToolContext) -> str | None:
        from hands.tools.file._edit_plan import PlanCache  # lazy: start-up
        from hands.tools.file._replace import EditError  # lazy: start-up

        try:
            plan = await self._plan(input, ctx)
        except EditError as exc:
            return str(exc)
        ctx.session.service(PlanCache).put(self._key(input, ctx), plan)
        return None

    async def call(
        self, input: EditInputT, ctx: ToolContext, progress: Progress
    ) -> ToolResult[EditOutput]:
        from hands.tools.file._edit_plan import PlanCache  # lazy: start-up
        from hands.tools.file._edit_result import write_plan  # lazy: start-up
        from hands.tools.file._replace import EditError  # lazy: start-up

        plan = ctx.session.service(PlanCache).take(self._key(input, ctx))
        if plan is None:
            try:
                plan = await self._plan(input, ctx)
            except EditError as exc:
                raise ToolError(str(exc)) from exc
        return ToolResult(output=await write_plan(plan, ctx))

    async def preview(self, input: EditInputT, ctx: ToolContext) -> str | None:
        from hands.tools.file._diffview import text_diff  # lazy: start-up
        from hands.tools.file._edit_plan import PlanCache  # lazy: start-up
        from hands.tools.file._replace import EditError  # lazy: start-up

        plan = ctx.session.service(PlanCache).peek(self._key(input, ctx))
        if plan is None:
            try:
                plan = await self._plan(input, ctx)
            except EditError:
                return None
        before = None if plan.created else plan.original
        return text_diff(str(plan.path), before, plan.updated)

    def to_content(self, output: EditOutput) -> str:
        from hands.tools.file._edit_result import edit_content  # lazy: start-up

        return edit_content(output)

    def render_result(self, output: EditOutput) -> RenderableType:
        from hands.tools.file._diffview import diff_summary, render_diff  # lazy: start-up

        verb = "Created" if output.created else "Updated"
        return render_diff(
            diff_summary(verb, output.file_path, output.structured_patch), output.structured_patch
        )

    def _key(self, input: EditInputT, ctx: ToolContext) -> tuple[str, str]:
        return (f"{self.name}:{ctx.tool_use_id}", input.model_dump_json())

    async def _plan(self, input: EditInputT, ctx: ToolContext) -> EditPlan:
        from hands.tools.file._edit_plan import plan_edits  # lazy: start-up
        from hands.tools.file._paths import check_path  # lazy: start-up
        from hands.tools.file._replace import EditError  # lazy: start-up

        path = check_path(self.file_path(input), ctx)
        if isinstance(path, str):
            raise EditError(path)
        specs = self.edit_specs(input)
        return await anyio.to_thread.run_sync(lambda: plan_edits(path, ctx, specs, tool=self.name))
