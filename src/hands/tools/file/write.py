"""Write: create or replace a whole file, atomically, keeping its encoding and mode."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import anyio
from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.subject import writes_path
from hands.core.tool import Progress, Tool, ToolResult
from hands.core.words import plural
from hands.errors import ToolError
from hands.tools.file._paths import resolved_field

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.tools.file._patch import Hunk
    from hands.tools.file._write_plan import WritePlan

DESCRIPTION = """Write a file, replacing it entirely if it exists.

- file_path should be absolute (a relative one is taken from the working directory);
  missing parent directories are created.
- To replace an existing file you must have read all of it in this conversation first,
  and it must not have changed on disk since; otherwise the write is refused.
- Prefer Edit for changing part of an existing file: it sends only the difference.
- An existing file keeps its encoding (UTF-8, or UTF-16 with BOM), its permissions and,
  when the new content uses plain LF, its CRLF line endings.
- The write is atomic: the old content or the new one, never a half-written file.
- Do not create documentation or README files unless asked to."""


PREVIEW_LINES = 10


class WriteInput(ToolInput):
    """Input of Write."""

    file_path: str = Field(
        description="The absolute path of the file to write (relative: from the working directory)"
    )
    content: str = Field(description="The full content of the file")


@dataclass(frozen=True, kw_only=True, slots=True)
class WriteOutput:
    """Whether the file was created or replaced, and the patch from the old content."""

    type: Literal["create", "update"]
    file_path: str
    structured_patch: tuple[Hunk, ...]
    bytes_written: int
    changed: bool = True
    preview: tuple[str, ...] = ()
    """The first lines of a new file, for display."""


class WriteTool(Tool[WriteInput, WriteOutput]):
    """Create or overwrite a file."""

    name = "Write"
    in_background_agents = True
    description = DESCRIPTION
    input_model = WriteInput
    edits_files = True
    subject = writes_path()
    always_load = True

    def observable_input(self, input: WriteInput, ctx: ToolContext) -> Mapping[str, Any]:
        return resolved_field(input.file_path, ctx)

    async def validate_input(self, input: WriteInput, ctx: ToolContext) -> str | None:
        try:
            await anyio.to_thread.run_sync(lambda: _plan(input, ctx))
        except ToolError as exc:
            return str(exc)
        return None

    async def call(
        self, input: WriteInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[WriteOutput]:
        from hands.tools.file._guard import commit_write, remember_write  # lazy: start-up
        from hands.tools.file._patch import make_patch  # lazy: start-up

        plan = await anyio.to_thread.run_sync(lambda: _plan(input, ctx))
        patch = make_patch(plan.original, plan.updated) if plan.original is not None else ()
        changed = plan.original is None or plan.original != plan.updated or plan.created
        if changed:
            await commit_write(plan, ctx)
        else:
            remember_write(ctx, plan.real, plan.data, plan.real.stat())
        return ToolResult(
            output=WriteOutput(
                type="create" if plan.created else "update",
                file_path=str(plan.path),
                structured_patch=patch,
                bytes_written=len(plan.data) if changed else 0,
                changed=changed,
                preview=tuple(input.content.splitlines()[:PREVIEW_LINES]) if plan.created else (),
            )
        )

    def to_content(self, output: WriteOutput) -> str:
        from hands.tools.file._edit_result import created_text, updated_text  # lazy: start-up
        from hands.tools.file._patch import snippet  # lazy: start-up

        if output.type == "create":
            return created_text(output.file_path)
        if not output.changed:
            return f"The file {output.file_path} already had this exact content; nothing changed."
        return updated_text(output.file_path, snippet(output.structured_patch))

    async def preview(self, input: WriteInput, ctx: ToolContext) -> str | None:
        from hands.tools.file._diffview import text_diff  # lazy: start-up

        try:
            plan = await anyio.to_thread.run_sync(lambda: _plan(input, ctx))
        except ToolError:
            return None
        return text_diff(str(plan.path), None if plan.created else plan.original, plan.updated)

    def describe_input(self, input: WriteInput) -> str:
        return input.file_path

    def render_result(self, output: WriteOutput) -> RenderableType:
        if output.type == "create":
            return render_created(output)
        from hands.tools.file._diffview import diff_summary, render_diff  # lazy: start-up

        title = diff_summary("Updated", output.file_path, output.structured_patch)
        return render_diff(title, output.structured_patch)


def render_created(output: WriteOutput) -> RenderableType:
    """The new file's size and its first lines."""
    from rich.console import Group
    from rich.text import Text

    rows: list[RenderableType] = [
        Text.assemble(
            ("  ⎿ ", "dim"),
            (f"Wrote {plural(output.bytes_written, 'byte')} to {output.file_path}", "bold"),
        )
    ]
    for number, line in enumerate(output.preview, start=1):
        row = Text(f"    {number:>3} ", style="dim")
        row.append(line, style="green")
        rows.append(row)
    return Group(*rows)


def _plan(input: WriteInput, ctx: ToolContext) -> WritePlan:
    from hands.tools.file._write_plan import plan_write  # lazy: start-up

    return plan_write(input, ctx)
