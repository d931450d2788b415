"""What Write checks and prepares before it replaces a file: the target, its encoding, the bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hands.errors import ToolError
from hands.tools.file._encoding import UTF8, NotTextError, decode, dominant_newline, encode
from hands.tools.file._guard import GuardError, PlannedWrite, load_target
from hands.tools.file._paths import check_path

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.file.write import WriteInput


@dataclass(frozen=True, kw_only=True, slots=True)
class WritePlan(PlannedWrite):
    """A checked write: the old text (None: none or not text), the new one, whether new."""

    original: str | None
    updated: str
    created: bool


def plan_write(input: WriteInput, ctx: ToolContext) -> WritePlan:
    """Check the target and encode the content as the file is; raises ToolError."""
    path = check_path(input.file_path, ctx)
    if isinstance(path, str):
        raise ToolError(path)
    try:
        target = load_target(path, ctx, tool="Write", whole=True)
    except GuardError as exc:
        raise ToolError(str(exc)) from exc
    content = input.content
    encoding = UTF8
    original: str | None = None
    if target.data is not None:
        try:
            original, encoding = decode(target.data)
        except NotTextError:
            original = None  # replacing a non-text file: write the new text as UTF-8
        if original is not None and dominant_newline(original) == "\r\n" and "\r\n" not in content:
            content = content.replace("\n", "\r\n")
    try:
        data = encode(content, encoding)
    except NotTextError as exc:
        raise ToolError(
            f"Cannot write {path}: {exc}. Send content as valid text (no lone surrogate "
            "characters)."
        ) from exc
    return WritePlan(
        path=path,
        real=target.real,
        data=data,
        original=original,
        updated=content,
        expect=target.stamp,
        created=target.data is None,
    )
