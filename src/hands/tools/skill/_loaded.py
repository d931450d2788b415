"""The skills loaded in a session, as session state (:mod:`hands.core.state`).

A skill's instructions reach the model as a tool result, which compaction summarises
away; the list of skills loaded is restated, so the model knows to load one again, and
it is saved with the session, so a resumed session knows what was loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from hands.core.state import Carried

if TYPE_CHECKING:
    from hands.core.context import ToolContext


@dataclass(frozen=True, kw_only=True, slots=True)
class LoadedSkill:
    """One skill the model loaded, and its folder."""

    name: str
    directory: str


class LoadedSkills:
    """The skills loaded in the session, in the order first loaded."""

    key: ClassVar[str] = "skills"

    def __init__(self) -> None:
        self._loaded: dict[str, LoadedSkill] = {}

    @property
    def loaded(self) -> tuple[LoadedSkill, ...]:
        """The skills loaded, first loaded first."""
        return tuple(self._loaded.values())

    def add(self, name: str, directory: str) -> None:
        """``name`` was loaded (again)."""
        self._loaded.setdefault(name, LoadedSkill(name=name, directory=directory))

    def snapshot(self) -> list[dict[str, str]]:
        """The skills loaded, as JSON."""
        return [{"name": s.name, "directory": s.directory} for s in self._loaded.values()]

    def restore(self, data: Any) -> None:
        """Take back a snapshot; anything unreadable is left out."""
        if not isinstance(data, list):
            return
        for row in cast(list[object], data):
            if isinstance(row, dict):
                got = cast(dict[str, object], row)
                name, directory = got.get("name"), got.get("directory")
                if isinstance(name, str) and isinstance(directory, str):
                    self.add(name, directory)

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        """One line per skill loaded: its instructions are gone from the summary."""
        if not self._loaded:
            return Carried()
        head = "Skills loaded earlier (call Skill again to see a skill's instructions):"
        return Carried(lines=(head, *(f"- {s.name} ({s.directory})" for s in self.loaded)))

    async def aclose(self) -> None:
        """Nothing open: the list is only memory."""
        return None
