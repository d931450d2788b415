"""The result of Edit and MultiEdit, and the write step they share."""

from __future__ import annotations

from dataclasses import dataclass

from hands.core.context import ToolContext
from hands.tools.file._edit_plan import EditPlan
from hands.tools.file._guard import commit_write
from hands.tools.file._patch import Hunk, make_patch, snippet


@dataclass(frozen=True, kw_only=True, slots=True)
class EditOutput:
    """What changed: the file, whether it was created, and the structured patch."""

    file_path: str
    created: bool
    replacements: int
    structured_patch: tuple[Hunk, ...]
    encoding: str


async def write_plan(plan: EditPlan, ctx: ToolContext) -> EditOutput:
    """Write ``plan`` atomically, record the new state, and describe the change."""
    await commit_write(plan, ctx)
    return EditOutput(
        file_path=str(plan.path),
        created=plan.created,
        replacements=plan.replacements,
        structured_patch=make_patch(plan.original, plan.updated),
        encoding=plan.encoding.label,
    )


def edit_content(out: EditOutput) -> str:
    """The model's confirmation: created, or updated with a numbered snippet."""
    if out.created:
        return created_text(out.file_path)
    count = f", {out.replacements} replacements" if out.replacements > 1 else ""
    return updated_text(out.file_path, snippet(out.structured_patch), detail=count)


def created_text(path: str) -> str:
    """The confirmation of a new file."""
    return f"Created {path}."


def updated_text(path: str, numbered: str, *, detail: str = "") -> str:
    """The confirmation of a changed file, with the changed region numbered like Read."""
    return f"Saved {path}{detail}. The changed region now reads (line, tab, text):\n{numbered}"
