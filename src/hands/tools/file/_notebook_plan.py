"""What NotebookEdit does to a notebook: the cell found and changed, the notebook re-serialised."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from hands.errors import ToolError
from hands.tools.file._guard import GuardError, PlannedWrite, load_target
from hands.tools.file._notebook_cells import (
    NotebookError,
    cell_id,
    find_cell,
    language_of,
    parse_notebook,
)
from hands.tools.file._patch import Hunk, make_patch
from hands.tools.file._paths import check_path, missing_message

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.file.notebook_edit import NotebookEditInput


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
class NotebookPlan(PlannedWrite):
    """A checked notebook write and what it changes."""

    output: NotebookEditOutput


def plan_notebook_edit(input: NotebookEditInput, ctx: ToolContext) -> NotebookPlan:
    """Check the notebook and apply the edit in memory; raises ToolError."""
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
    return NotebookPlan(
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
