"""Notebook cells as the model sees them, and finding a cell by the id Read showed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from hands.tools.file._limits import MAX_CELL_OUTPUT_CHARS

if TYPE_CHECKING:
    from nbformat import NotebookNode

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_INDEX_ID = re.compile(r"^cell-(\d+)$")


@dataclass(frozen=True, kw_only=True, slots=True)
class CellImage:
    """An image output of a cell."""

    media_type: str
    base64: str


@dataclass(frozen=True, kw_only=True, slots=True)
class CellView:
    """One cell: id, type, source and its outputs as text (and images)."""

    id: str
    cell_type: str
    source: str
    outputs: tuple[str, ...] = ()
    images: tuple[CellImage, ...] = ()
    execution_count: int | None = None


class NotebookError(ValueError):
    """A notebook that cannot be parsed or a cell that cannot be found."""


def parse_notebook(text: str) -> NotebookNode:
    """The notebook in ``text`` as nbformat v4; raises NotebookError."""
    import nbformat

    try:
        nb = cast("NotebookNode", nbformat.reads(text, as_version=4))
    except Exception as exc:  # nbformat raises JSON, validation and version errors
        raise NotebookError(f"the file is not a valid Jupyter notebook ({exc})") from exc
    return nb


def cell_id(cell: Any, index: int) -> str:
    """The cell's id, or ``cell-N`` (0-based) for notebooks without ids."""
    value = cell.get("id")
    return value if isinstance(value, str) and value else f"cell-{index}"


def find_cell(nb: NotebookNode, wanted: str) -> int:
    """The index of the cell called ``wanted`` (an id, or ``cell-N``)."""
    cells = cast(list[Any], nb.cells)
    for index, cell in enumerate(cells):
        if cell.get("id") == wanted:
            return index
    match = _INDEX_ID.match(wanted)
    if match is not None and int(match.group(1)) < len(cells):
        return int(match.group(1))
    shown = ", ".join(cell_id(c, i) for i, c in enumerate(cells[:20]))
    more = ", …" if len(cells) > 20 else ""
    raise NotebookError(
        f'No cell has the id "{wanted}". The notebook\'s cell ids: {shown}{more}. Send one '
        "of them exactly as Read shows it."
    )


def language_of(nb: NotebookNode) -> str:
    """The notebook's programming language, from its metadata."""
    meta = cast(dict[str, Any], nb.get("metadata", {}))
    info = cast(dict[str, Any], meta.get("language_info", {}))
    kernel = cast(dict[str, Any], meta.get("kernelspec", {}))
    return str(info.get("name") or kernel.get("language") or "python")


def view_cells(nb: NotebookNode) -> tuple[CellView, ...]:
    """Every cell of ``nb`` with its outputs rendered as text."""
    views: list[CellView] = []
    for index, cell in enumerate(cast(list[Any], nb.cells)):
        texts: list[str] = []
        images: list[CellImage] = []
        for output in cast(list[Any], cell.get("outputs", [])):
            text, image = _output_view(output)
            if text:
                texts.append(_cap(text))
            if image is not None:
                images.append(image)
        views.append(
            CellView(
                id=cell_id(cell, index),
                cell_type=str(cell.get("cell_type", "code")),
                source=_source(cell.get("source", "")),
                outputs=tuple(texts),
                images=tuple(images),
                execution_count=cell.get("execution_count"),
            )
        )
    return tuple(views)


def _source(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in cast(list[Any], value))
    return str(value)


def _output_view(output: Any) -> tuple[str, CellImage | None]:
    kind = output.get("output_type")
    if kind == "stream":
        return _source(output.get("text", "")), None
    if kind == "error":
        trace = "\n".join(cast(list[str], output.get("traceback", [])))
        return _ANSI.sub("", trace) or f"{output.get('ename')}: {output.get('evalue')}", None
    data = cast(dict[str, Any], output.get("data", {}))
    image: CellImage | None = None
    for media_type in ("image/png", "image/jpeg"):
        if media_type in data:
            image = CellImage(media_type=media_type, base64=_source(data[media_type]).strip())
            break
    text = _source(data.get("text/plain", ""))
    return text, image


def _cap(text: str) -> str:
    if len(text) <= MAX_CELL_OUTPUT_CHARS:
        return text
    return text[:MAX_CELL_OUTPUT_CHARS] + f"\n… [output cut: {len(text):,} characters in all]"
