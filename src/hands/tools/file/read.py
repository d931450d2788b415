"""Read: text with line numbers, images, PDFs and notebooks, in flat memory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import Field, field_validator

from hands.core.context import ToolContext
from hands.core.outcome import echo
from hands.core.schema import ToolInput
from hands.core.subject import reads_path
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.core.words import plural
from hands.errors import ToolError
from hands.tools.file._inspect_path import stat_regular
from hands.tools.file._limits import (
    LARGE_READ_CHARS,
    MAX_LINE_CHARS,
    MAX_READ_CHARS,
    PDF_MAX_PAGES_PER_CALL,
    PDF_PAGES_WITHOUT_RANGE,
)
from hands.tools.file._paths import check_path, real_path, resolved_field

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.core.messages import ImageBlock, TextBlock
    from hands.tools.file._read_outputs import ReadOutput

DESCRIPTION = f"""Read a file from the local filesystem.

- file_path should be absolute; a relative path is taken from the working directory.
- Text comes back in cat -n form: the line number, a tab, then the line. Never copy the
  number and tab into Edit's old_string or new_string.
- The file is read from the start; use offset (1-based line to start at) and limit
  (number of lines) to page through long files. Any size of file can be paged: reading a
  window deep inside a huge file is fast.
- Lines longer than {MAX_LINE_CHARS} characters are cut, and a result stops at
  {MAX_READ_CHARS:,} characters; the result then says which offset comes next.
  allow_large lifts both for one call, up to {LARGE_READ_CHARS:,} characters.
- Images (PNG, JPEG, GIF, WebP) are shown to you as images.
- PDFs: text page by page. A PDF of more than {PDF_PAGES_WITHOUT_RANGE} pages needs pages
  (e.g. "1-5"), at most {PDF_MAX_PAGES_PER_CALL} pages per call.
- Jupyter notebooks (.ipynb): every cell with its id, source and outputs.
- Directories cannot be read; list them with Bash (ls) or Glob.
- Read several files at once by calling Read in parallel.
- Read a file before changing it with Edit or Write."""


class ReadInput(ToolInput):
    """Input of Read."""

    file_path: str = Field(
        description="The absolute path of the file to read (relative: from the working directory)"
    )

    @field_validator("file_path")
    @classmethod
    def _without_end_spaces(cls, value: str) -> str:
        # a space or newline at either end is a slip of the model far more often than part
        # of a file's name; taken off here, the permission check sees the path read
        return value.strip() or value

    offset: int | None = Field(
        default=None,
        ge=0,
        description="The line number to start reading from (1-based). Only for files too "
        "long to read at once",
    )
    limit: int | None = Field(
        default=None,
        ge=1,
        description="The number of lines to read. Only for files too long to read at once",
    )
    pages: str | None = Field(
        default=None,
        description=f'Page range for PDF files, e.g. "1-5", "3" or "10-20". At most '
        f"{PDF_MAX_PAGES_PER_CALL} pages per call",
    )
    allow_large: bool = Field(
        default=False,
        description=f"Lift the line cut and the {MAX_READ_CHARS:,}-character cap for this "
        f"call (up to {LARGE_READ_CHARS:,} characters). Only when the whole file is truly "
        "needed at once",
    )


class ReadTool(ReadOnlyTool[ReadInput, "ReadOutput"]):
    """Read a file: text, image, PDF or notebook."""

    name = "Read"
    in_background_agents = True
    aliases = ("View", "NotebookRead")
    subject = reads_path()
    always_load = True
    simple_mode = True
    description = DESCRIPTION
    input_model = ReadInput
    max_result_chars = None  # bounded by MAX_READ_CHARS instead of spilling

    def observable_input(self, input: ReadInput, ctx: ToolContext) -> Mapping[str, Any]:
        return resolved_field(input.file_path, ctx)

    async def validate_input(self, input: ReadInput, ctx: ToolContext) -> str | None:
        checked = check_path(input.file_path, ctx)
        if isinstance(checked, str):
            return checked
        st = stat_regular(checked, ctx)
        return st if isinstance(st, str) else None

    async def call(
        self, input: ReadInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[ReadOutput]:
        checked = check_path(input.file_path, ctx)
        if isinstance(checked, str):
            raise ToolError(checked)
        from hands.tools.file._read_file import read_file  # lazy: start-up
        from hands.tools.file._state import ReadStateCache  # lazy: start-up
        from hands.tools.file._text_reader import LineIndexes  # lazy: start-up

        key = real_path(checked)
        cache = ctx.session.service(ReadStateCache)
        index = ctx.session.service(LineIndexes)
        previous = cache.get(key)
        try:
            done = await anyio.to_thread.run_sync(
                lambda: read_file(checked, key, input, ctx, previous, index)
            )
        except OSError as exc:  # a device or special file that refuses to be read there
            raise ToolError(
                f"Reading {echo(checked)} failed: {exc.strerror or exc}. It may be a device "
                "or a special file that cannot be read at that offset; read a regular file."
            ) from None
        if done.record is not None:
            cache.record(done.record)
        return ToolResult(output=done.output)

    def to_content(self, output: ReadOutput) -> str | Sequence[TextBlock | ImageBlock]:
        """The model's view; a PDF comes as its text and, when small enough, itself."""
        from hands.tools.file._read_outputs import (  # lazy: start-up
            EmptyRead,
            ImageRead,
            NotebookRead,
            PdfRead,
            TextRead,
            UnchangedRead,
            empty_content,
            image_content,
            notebook_content,
            pdf_content,
            text_content,
            unchanged_content,
        )

        match output:
            case TextRead():
                return text_content(output)
            case EmptyRead():
                return empty_content(output)
            case ImageRead():
                return image_content(output)
            case PdfRead():
                return pdf_content(output)
            case NotebookRead():
                return notebook_content(output)
            case UnchangedRead():
                return unchanged_content(output)

    def describe_input(self, input: ReadInput) -> str:
        text = input.file_path
        if input.pages:
            text += f" · pages {input.pages}"
        elif input.offset or input.limit:
            first = max(input.offset or 1, 1)
            last = f"{first + input.limit - 1}" if input.limit else "end"
            text += f" · lines {first}-{last}"
        return text

    def render_result(self, output: ReadOutput) -> RenderableType:
        from hands.core.render import dim_text

        return dim_text(summary(output))


def summary(output: ReadOutput) -> str:
    """One line for people: what the Read returned."""
    from hands.tools.file._read_outputs import (  # lazy: start-up
        EmptyRead,
        ImageRead,
        NotebookRead,
        PdfRead,
        TextRead,
        UnchangedRead,
    )

    match output:
        case TextRead():
            more = " (partial view)" if output.capped else ""
            return f"Read {plural(output.num_lines, 'line')}{more}"
        case EmptyRead():
            return "Empty file" if output.total_lines == 0 else "Offset past the end of the file"
        case ImageRead():
            dims = output.image.dimensions
            shape = f" {dims[0]}x{dims[1]}" if dims else ""
            return f"Read image{shape} ({output.image.original_size:,} bytes)"
        case PdfRead():
            return f"Read {len(output.pages)} of {output.page_count} PDF pages"
        case NotebookRead():
            return f"Read {output.shown} of {len(output.cells)} notebook cells"
        case UnchangedRead():
            return "Unchanged since the last read"


__all__ = ["ReadInput", "ReadTool"]
