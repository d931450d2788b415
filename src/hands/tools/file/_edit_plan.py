"""Planning an Edit or MultiEdit: every check, then the new bytes, before anything is written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hands.core.context import ToolContext
from hands.tools.file._encoding import UTF8, NotTextError, TextEncoding, decode, encode
from hands.tools.file._guard import GuardError, PlannedWrite, Target, load_target
from hands.tools.file._paths import missing_message
from hands.tools.file._replace import EditError, EditSpec, apply_edit


@dataclass(frozen=True, kw_only=True, slots=True)
class EditPlan(PlannedWrite):
    """The checked change: where, from what text to what text, and the bytes to write."""

    created: bool
    original: str
    updated: str
    encoding: TextEncoding
    replacements: int


class PlanCache:
    """The plan validate_input made, kept for the call that follows it (one per session).

    Reusing it avoids loading and matching a large file twice; it stays safe because the
    write still checks, just before the rename, that the file has the stamp it had when
    the plan was made.
    """

    def __init__(self) -> None:
        self._key: tuple[str, str] | None = None
        self._plan: EditPlan | None = None

    def put(self, key: tuple[str, str], plan: EditPlan) -> None:
        """Keep ``plan`` for ``key`` (the tool_use id and the input as JSON)."""
        self._key, self._plan = key, plan

    def peek(self, key: tuple[str, str]) -> EditPlan | None:
        """The plan kept for ``key``, left in place; None if there is none."""
        return self._plan if self._key == key else None

    def take(self, key: tuple[str, str]) -> EditPlan | None:
        """The plan kept for ``key``, removed; None if there is none."""
        plan = self._plan if self._key == key else None
        self._key, self._plan = None, None
        return plan


def plan_edits(path: Path, ctx: ToolContext, edits: Sequence[EditSpec], *, tool: str) -> EditPlan:
    """Check and apply ``edits`` in memory, in order; raises EditError with the reason."""
    many = len(edits) > 1

    def where(i: int) -> str:
        return f"Edit {i + 1} of {len(edits)}: " if many else ""

    for i, spec in enumerate(edits):
        if spec.old_string == spec.new_string:
            raise EditError(
                f"{where(i)}Nothing to do: new_string is identical to old_string, so the "
                "file would stay as it is. Put the replacement text in new_string."
            )
        if i and not spec.old_string:
            raise EditError(
                f"{where(i)}old_string is empty. Only the first edit may have an empty "
                "old_string, to create the file; give the text to replace."
            )
    if path.suffix.lower() == ".ipynb":
        raise EditError(
            f"{path} is a Jupyter notebook (.ipynb); its cells are changed with NotebookEdit, "
            "not with text replacement."
        )
    try:
        target = load_target(path, ctx, tool=tool, whole=False)
    except GuardError as exc:
        raise EditError(str(exc)) from exc
    text, encoding = _current_text(target, edits[0], tool=tool, ctx=ctx)
    original = text
    created = not target.exists
    replacements = 0
    start = 0
    if not edits[0].old_string:
        text = edits[0].new_string
        start = 1
        replacements = 1
    for i in range(start, len(edits)):
        try:
            text, count = apply_edit(text, edits[i])
        except EditError as exc:
            raise EditError(f"{where(i)}{exc}") from exc
        replacements += count
    try:
        data = encode(text, encoding)
    except NotTextError as exc:
        raise EditError(
            f"Cannot write {path}: {exc}. new_string must be text that {encoding.label} can "
            "hold; remove the offending character."
        ) from exc
    return EditPlan(
        path=path,
        real=target.real,
        created=created,
        original=original,
        updated=text,
        encoding=encoding,
        data=data,
        expect=target.stamp,
        replacements=replacements,
    )


def _current_text(
    target: Target, first: EditSpec, *, tool: str, ctx: ToolContext
) -> tuple[str, TextEncoding]:
    if target.data is None:
        if first.old_string:
            raise EditError(
                f"{missing_message(target.path, ctx)} A new file is made with Write, or "
                f"with {tool} and an empty old_string."
            )
        return "", UTF8
    try:
        text, encoding = decode(target.data)
    except NotTextError as exc:
        raise EditError(
            f"Cannot edit {target.path}: {exc}. {tool} changes UTF-8 and UTF-16 (with BOM) "
            "text only; use Bash for files in other encodings or binary files."
        ) from exc
    if not first.old_string and text.strip():
        raise EditError(
            f"{target.path} already exists and is not empty, so an empty old_string (which "
            "creates a file) does not apply. Put the text to change in old_string, or use "
            "Write to replace the whole file."
        )
    return text, encoding
