"""The session's todo list: what TodoWrite last wrote, kept for the REPL and the transcript."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from hands.core.state import Carried

if TYPE_CHECKING:
    from hands.core.context import ToolContext

LEGACY_ITEM_KEYS = frozenset({"id", "priority"})
"""Keys of the older item shape, accepted and dropped."""

TodoStatus: TypeAlias = Literal["pending", "in_progress", "completed"]


class TodoItem(BaseModel):
    """One item of the list."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    content: str = Field(min_length=1, description="What to do, in the imperative")
    status: TodoStatus = Field(description="pending, in_progress or completed")
    active_form: str = Field(
        min_length=1,
        alias="activeForm",
        description="The same in the present continuous, shown while it is in progress",
    )

    @model_validator(mode="before")
    @classmethod
    def _older_shape(cls, data: object) -> object:
        """Take the older item shape (``id``, ``priority``, no ``activeForm``) as today's.

        Models trained on the first releases of Claude Code still send it; the id and the
        priority carry nothing the list uses, and the content stands in for the activeForm.
        """
        if not isinstance(data, dict):
            return data
        item = {k: v for k, v in cast(dict[str, object], data).items() if k not in LEGACY_ITEM_KEYS}
        if "activeForm" not in item and "active_form" not in item:
            item["activeForm"] = item.get("content")
        return item


class TodoList:
    """The items of one session's list; replaced whole by every TodoWrite."""

    key: ClassVar[str] = "todos"

    def __init__(self) -> None:
        self.items: tuple[TodoItem, ...] = ()
        self.version = 0
        """Counts the writes, so a screen knows when to draw the list again."""

    def replace(self, items: Sequence[TodoItem]) -> tuple[TodoItem, ...]:
        """Store ``items``; the list before."""
        old, self.items = self.items, tuple(items)
        self.version += 1
        return old

    @property
    def current(self) -> TodoItem | None:
        """The item in progress, if any."""
        return next((i for i in self.items if i.status == "in_progress"), None)

    def snapshot(self) -> list[dict[str, Any]]:
        """The list as JSON, for the transcript."""
        return [item.model_dump(by_alias=True) for item in self.items]

    async def aclose(self) -> None:
        """Nothing open: the list is only memory."""
        return None

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        """The list, one line per item, for the model to pick up its plan."""
        if not self.items:
            return Carried()
        lines = [f"- [{i.status}] {i.content}" for i in self.items]
        return Carried(lines=("Your todo list (keep it current with TodoWrite):", *lines))

    def restore(self, data: object) -> None:
        """Take back a snapshot (a resumed session); anything unreadable is left out."""
        if not isinstance(data, list):
            return
        items: list[TodoItem] = []
        for entry in data:  # pyright: ignore[reportUnknownVariableType]
            try:
                items.append(TodoItem.model_validate(entry))
            except ValidationError:
                continue
        self.items = tuple(items)
        self.version += 1
