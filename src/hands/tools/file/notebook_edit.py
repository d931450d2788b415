"""NotebookEdit: replace, insert or delete one cell of a Jupyter notebook."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

import anyio
from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.subject import writes_path
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.file._diffview import added_lines, render_diff
from hands.tools.file._guard import GuardError, PlannedWrite, commit_write, load_target
from hands.tools.file._notebook_cells import (
    NotebookError,
    cell_id,
    find_cell,
    language_of,
    parse_notebook,
)
from hands.tools.file._patch import Hunk, make_patch
from hands.tools.file._paths import check_path, missing_message, resolved_field
from hands.tools.file._state import ReadStateCache

if TYPE_CHECKING:
    from rich.console import RenderableType

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


@dataclass(frozen=True, kw_only=True, slots=True)
class NotebookEditOutput:
    """The cell changed, its source before and after, and the patch of that source."""

    notebook_path: str
    cell_id: str
    edit_mode: Literal["replace", "insert", "delete"]
    cell_type: str
    language: str
    new_source: str
    old_source: str
    structured_patch: tuple[Hunk, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class _Plan(PlannedWrite):
    output: NotebookEditOutput


class NotebookEditTool(Tool[NotebookEditInput, NotebookEditOutput]):
    """Change one notebook cell."""

    name = "NotebookEdit"
    session_states = (ReadStateCache,)
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
        plan = await anyio.to_thread.run_sync(lambda: _plan(input, ctx))
        await commit_write(plan, ctx)
        return ToolResult(output=plan.output)

    async def preview(self, input: NotebookEditInput, ctx: ToolContext) -> str | None:
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
        verb = {"replace": "Updated", "insert": "Inserted", "delete": "Deleted"}[output.edit_mode]
        title = f"{verb} cell {output.cell_id} of {output.notebook_path}"
        return render_diff(title, output.structured_patch)


def _plan(input: NotebookEditInput, ctx: ToolContext) -> _Plan:
    path = check_path(input.notebook_path, ctx, field="notebook_path")
    if isinstance(path, str):
        raise ToolError(path)
    if path.suffix.lower() != ".ipynb":
        raise ToolError(
            f"{path} is not a Jupyter notebook (.ipynb). Use Edit or Write for other files."
        )
    if input.edit_mode == "insert" and input.cell_type is None:
        raise ToolError('An insert needs cell_type: "code" or "markdown". Send it again with one.')
    if input.edit_mode != "insert" and not input.cell_id:
        raise ToolError(
            f"edit_mode {input.edit_mode} needs a cell_id to say which cell; Read the notebook "
            "to see each cell's id."
        )
    try:
        target = load_target(path, ctx, tool="NotebookEdit", whole=True)
    except GuardError as exc:
        raise ToolError(str(exc)) from exc
    if target.data is None:
        raise ToolError(
            f"{missing_message(path, ctx)} NotebookEdit changes existing notebooks; create "
            "a new one with Write."
        )
    raw = target.data.decode("utf-8", errors="replace")
    try:
        nb = parse_notebook(raw)
        output = _apply(nb, input, str(path))
    except NotebookError as exc:
        raise ToolError(str(exc)) from exc
    import nbformat

    text = nbformat.writes(nb)
    if raw.endswith("\n") and not text.endswith("\n"):
        text += "\n"
    return _Plan(
        path=path,
        real=target.real,
        data=text.encode("utf-8"),
        expect=target.stamp,
        output=output,
    )


def _apply(nb: Any, input: NotebookEditInput, notebook_path: str) -> NotebookEditOutput:
    import nbformat

    cells = cast(list[Any], nb.cells)
    language = language_of(nb)
    if input.edit_mode == "insert":
        at = 0 if not input.cell_id else find_cell(nb, input.cell_id) + 1
        if input.cell_type == "code":
            cell: Any = nbformat.v4.new_code_cell(source=input.new_source)
        else:
            cell = nbformat.v4.new_markdown_cell(source=input.new_source)
        if (nb.get("nbformat"), nb.get("nbformat_minor", 0)) < (4, 5):
            cell.pop("id", None)  # ids arrived in nbformat 4.5; older files must not have them
        cells.insert(at, cell)
        old_source = ""
        new_source = input.new_source
        cell_type = str(input.cell_type)
        ident = cell_id(cell, at)
    else:
        assert input.cell_id is not None
        index = find_cell(nb, input.cell_id)
        cell = cells[index]
        ident = cell_id(cell, index)
        old_source = _source(cell.get("source", ""))
        if input.edit_mode == "delete":
            del cells[index]
            new_source = ""
            cell_type = str(cell.get("cell_type", "code"))
        else:
            new_source = input.new_source
            cell_type = input.cell_type or str(cell.get("cell_type", "code"))
            _replace(cell, new_source, cell_type)
    return NotebookEditOutput(
        notebook_path=notebook_path,
        cell_id=ident,
        edit_mode=input.edit_mode,
        cell_type=cell_type,
        language=language,
        new_source=new_source,
        old_source=old_source,
        structured_patch=make_patch(_with_newline(old_source), _with_newline(new_source)),
    )


def _replace(cell: Any, source: str, cell_type: str) -> None:
    cell["source"] = source
    if cell_type == "code":
        # The old outputs belong to the old source.
        cell["outputs"] = []
        cell["execution_count"] = None
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)
    cell["cell_type"] = cell_type


def _source(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in cast(list[Any], value))
    return str(value)


def _with_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
