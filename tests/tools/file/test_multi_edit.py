"""MultiEdit: in order, all or nothing."""

from __future__ import annotations

from .conftest import Harness


def test_edits_apply_in_order_on_each_result(h: Harness) -> None:
    f = h.root / "a.py"
    f.write_text("alpha = 1\nbeta = alpha\n")
    h.read(f)
    out = h.ok(
        "MultiEdit",
        file_path=str(f),
        edits=[
            {"old_string": "alpha", "new_string": "gamma", "replace_all": True},
            {"old_string": "gamma = 1", "new_string": "gamma = 2"},
        ],
    )
    assert f.read_text() == "gamma = 2\nbeta = gamma\n"
    assert ", 3 replacements." in out.block.text


def test_one_failing_edit_leaves_the_file_untouched(h: Harness) -> None:
    f = h.root / "a.py"
    f.write_text("x = 1\n")
    h.read(f)
    text = h.err(
        "MultiEdit",
        file_path=str(f),
        edits=[
            {"old_string": "x = 1", "new_string": "x = 2"},
            {"old_string": "y", "new_string": "z"},
        ],
    )
    assert text.startswith("<tool_use_error>Edit 2 of 2: old_string does not occur in the file")
    assert f.read_text() == "x = 1\n"


def test_identical_strings_name_the_edit(h: Harness) -> None:
    text = h.err(
        "MultiEdit",
        file_path=str(h.root / "a.py"),
        edits=[{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "c"}],
    )
    assert "Edit 2 of 2: Nothing to do: new_string is identical" in text


def test_first_empty_old_string_creates_and_later_edits_apply(h: Harness) -> None:
    f = h.root / "new.txt"
    h.ok(
        "MultiEdit",
        file_path=str(f),
        edits=[
            {"old_string": "", "new_string": "hello NAME\n"},
            {"old_string": "NAME", "new_string": "world"},
        ],
    )
    assert f.read_text() == "hello world\n"


def test_empty_edit_list_is_a_validation_error(h: Harness) -> None:
    text = h.err("MultiEdit", file_path=str(h.root / "a"), edits=[])
    assert "InputValidationError" in text
