"""Edit: exact string replacement in a file, checked against what the model read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.schema import ToolInput
from hands.core.subject import writes_path
from hands.tools.file._edit_tool import PlannedEditTool

if TYPE_CHECKING:
    from hands.tools.file._replace import EditSpec

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

    file_path: str = Field(
        description="The absolute path of the file to change (relative: from the working directory)"
    )
    old_string: str = Field(description="The text to replace")
    new_string: str = Field(description="The text to replace it with (must differ from old_string)")
    replace_all: bool = Field(
        default=False, description="Replace every occurrence of old_string (default false)"
    )


class EditTool(PlannedEditTool[EditInput]):
    """Replace one string (or every occurrence of it) in a file."""

    name = "Edit"
    in_background_agents = True
    subject = writes_path()
    always_load = True
    simple_mode = True
    description = DESCRIPTION
    input_model = EditInput

    def file_path(self, input: EditInput) -> str:
        return input.file_path

    def edit_specs(self, input: EditInput) -> list[EditSpec]:
        from hands.tools.file._replace import EditSpec  # lazy: start-up

        return [
            EditSpec(
                old_string=input.old_string,
                new_string=input.new_string,
                replace_all=input.replace_all,
            )
        ]

    def describe_input(self, input: EditInput) -> str:
        return input.file_path + (" (replace all)" if input.replace_all else "")
