"""State a tool keeps across the calls of a session, behind one small protocol.

A tool names the kinds of state it keeps (:attr:`hands.core.tool.Tool.session_states`);
whoever runs the tools registers them with the :class:`~hands.core.session.Session`.
Then the transcript saves and restores them, ``hands tool --session`` keeps them between
calls, compaction restates them and the session's end closes them, without knowing any
tool's modules. A state that holds something live (a process, a browser) says in its
snapshot that it cannot be restored, and a resumed session shows what was there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.session import Session


@dataclass(frozen=True, kw_only=True, slots=True)
class Carried:
    """What a state restates when the conversation is compacted."""

    lines: tuple[str, ...] = ()
    """Lines of the note on where the session stands (a todo list, open tasks)."""
    texts: tuple[str, ...] = ()
    """Texts attached on their own (files read recently, as they are now)."""


@runtime_checkable
class SessionState(Protocol):
    """One kind of state of a session; the session makes one instance with no arguments."""

    key: ClassVar[str]
    """Its name in transcripts and saved sessions; empty: it is not saved (it keeps
    itself, as the task list's database does)."""

    def snapshot(self) -> Any:
        """The state as JSON data."""
        ...

    def restore(self, data: Any, /) -> object:
        """Take back what :meth:`snapshot` gave (an earlier session's)."""
        ...

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        """What compaction restates; ``reattach``: how many recent files to attach."""
        ...

    async def aclose(self) -> None:
        """End what it holds open (processes, a browser); the session's end calls it.

        It may be called again, and must then do nothing.
        """
        ...


def snapshots(session: Session) -> dict[str, Any]:
    """Every registered state that is saved, by key."""
    return {s.key: s.snapshot() for s in session.states() if s.key}


def restore(session: Session, data: Mapping[str, Any]) -> list[str]:
    """Restore the registered states found in ``data``; the keys restored."""
    done: list[str] = []
    for state in session.states():
        if state.key and state.key in data:
            state.restore(data[state.key])
            done.append(state.key)
    return done


def kinds_of(tools: Iterable[object]) -> list[type[SessionState]]:
    """The state kinds ``tools`` declare, each once, in order."""
    seen: dict[type[SessionState], None] = {}
    for tool in tools:
        for kind in getattr(tool, "session_states", ()):
            seen.setdefault(kind, None)
    return list(seen)


__all__ = ["Carried", "SessionState", "kinds_of", "restore", "snapshots"]
