"""NotebookEdit: replace, insert and delete cells through nbformat."""

from __future__ import annotations

from pathlib import Path

import nbformat

from .conftest import Harness


def make(path: Path, *, minor: int = 5) -> None:
    nb = nbformat.v4.new_notebook()
    nb.nbformat_minor = minor
    cells = [
        nbformat.v4.new_markdown_cell("# Title", id="intro"),
        nbformat.v4.new_code_cell(
            "x = 1",
            id="calc",
            execution_count=3,
            outputs=[nbformat.v4.new_output("stream", name="stdout", text="1\n")],
        ),
    ]
    if minor < 5:
        for cell in cells:
            del cell["id"]
    nb.cells = cells
    nbformat.write(nb, path)


def cells(path: Path) -> list[tuple[str, str]]:
    nb = nbformat.read(path, as_version=4)
    return [(c.cell_type, c.source) for c in nb.cells]


def test_replace_sets_source_and_clears_outputs(h: Harness) -> None:
    f = h.root / "a.ipynb"
    make(f)
    h.read(f)
    out = h.ok("NotebookEdit", notebook_path=str(f), cell_id="calc", new_source="x = 2")
    nb = nbformat.read(f, as_version=4)
    assert nb.cells[1].source == "x = 2"
    assert nb.cells[1].outputs == [] and nb.cells[1].execution_count is None
    assert out.block.text.startswith(f"Replaced the source of {f}, cell calc (code)")
    nbformat.validate(nb)


def test_replace_can_change_the_type(h: Harness) -> None:
    f = h.root / "a.ipynb"
    make(f)
    h.read(f)
    h.ok(
        "NotebookEdit",
        notebook_path=str(f),
        cell_id="calc",
        new_source="text",
        cell_type="markdown",
    )
    nb = nbformat.read(f, as_version=4)
    nbformat.validate(nb)
    assert cells(f)[1] == ("markdown", "text")


def test_insert_after_a_cell_and_at_the_start(h: Harness) -> None:
    f = h.root / "a.ipynb"
    make(f)
    h.read(f)
    out = h.ok(
        "NotebookEdit",
        notebook_path=str(f),
        cell_id="intro",
        new_source="print(0)",
        cell_type="code",
        edit_mode="insert",
    )
    h.ok(
        "NotebookEdit",
        notebook_path=str(f),
        new_source="top",
        cell_type="markdown",
        edit_mode="insert",
    )
    assert cells(f) == [
        ("markdown", "top"),
        ("markdown", "# Title"),
        ("code", "print(0)"),
        ("code", "x = 1"),
    ]
    new_id = nbformat.read(f, as_version=4).cells[2].id
    assert f"cell {new_id}" in out.block.text
    nbformat.validate(nbformat.read(f, as_version=4))


def test_delete_a_cell(h: Harness) -> None:
    f = h.root / "a.ipynb"
    make(f)
    h.read(f)
    out = h.ok(
        "NotebookEdit", notebook_path=str(f), cell_id="intro", new_source="", edit_mode="delete"
    )
    assert cells(f) == [("code", "x = 1")]
    assert out.block.text == f"Removed {f}, cell intro; the other cells are unchanged."


def test_old_notebooks_without_ids_use_cell_n(h: Harness) -> None:
    f = h.root / "old.ipynb"
    make(f, minor=4)
    text = h.read(f)
    assert '<cell id="cell-1" type="code"' in text
    h.ok("NotebookEdit", notebook_path=str(f), cell_id="cell-1", new_source="y")
    h.ok(
        "NotebookEdit",
        notebook_path=str(f),
        cell_id="cell-0",
        new_source="z",
        cell_type="code",
        edit_mode="insert",
    )
    nb = nbformat.read(f, as_version=4)
    nbformat.validate(nb)
    assert "id" not in nb.cells[1]
    assert cells(f) == [("markdown", "# Title"), ("code", "z"), ("code", "y")]


def test_errors_say_what_to_do(h: Harness) -> None:
    f = h.root / "a.ipynb"
    make(f)
    h.read(f)
    text = h.err("NotebookEdit", notebook_path=str(f), cell_id="nope", new_source="x")
    assert 'No cell has the id "nope"' in text and "intro, calc" in text
    assert "An insert needs cell_type" in h.err(
        "NotebookEdit", notebook_path=str(f), new_source="x", edit_mode="insert"
    )
    assert "edit_mode replace needs a cell_id" in h.err(
        "NotebookEdit", notebook_path=str(f), new_source="x"
    )
    txt = h.root / "a.txt"
    txt.write_text("x")
    assert "not a Jupyter notebook" in h.err(
        "NotebookEdit", notebook_path=str(txt), cell_id="a", new_source="x"
    )
    assert "No file at" in h.err(
        "NotebookEdit", notebook_path=str(h.root / "none.ipynb"), cell_id="a", new_source="x"
    )


def test_invalid_notebook_json_is_an_error(h: Harness) -> None:
    f = h.root / "bad.ipynb"
    f.write_text("{not json")
    assert "Read it as text with offset and limit" in h.err("Read", file_path=str(f))
    assert h.read(f, offset=1) == "1\t{not json"
    assert "not a valid Jupyter notebook" in h.err(
        "NotebookEdit", notebook_path=str(f), cell_id="a", new_source="x"
    )
