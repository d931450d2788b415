"""MultiEdit: several replacements in one file, applied in order, all or nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.schema import ToolInput
from hands.core.subject import writes_path
from hands.tools.file._edit_tool import PlannedEditTool

if TYPE_CHECKING:
    from hands.tools.file._replace import EditSpec

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

    file_path: str = Field(
        description="The absolute path of the file to change (relative: from the working directory)"
    )
    edits: tuple[EditItem, ...] = Field(min_length=1, description="Replacements to make, in order")


class MultiEditTool(PlannedEditTool[MultiEditInput]):
    """Several replacements in one file, atomically."""

    name = "MultiEdit"
    in_background_agents = True
    subject = writes_path()
    description = DESCRIPTION
    input_model = MultiEditInput

    def file_path(self, input: MultiEditInput) -> str:
        return input.file_path

    def edit_specs(self, input: MultiEditInput) -> list[EditSpec]:
        from hands.tools.file._replace import EditSpec  # lazy: start-up

        return [
            EditSpec(old_string=e.old_string, new_string=e.new_string, replace_all=e.replace_all)
            for e in input.edits
        ]

    def describe_input(self, input: MultiEditInput) -> str:
        n = len(input.edits)
        return f"{input.file_path} ({n} edit{'s' if n != 1 else ''})"
