"""A session: its id, its directory under the hands home, and per-session tool state."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from hands.core.limits import hands_home

if TYPE_CHECKING:
    from hands.core.state import SessionState

T = TypeVar("T")

Cleanup = Callable[[], Awaitable[None]]


class Session:
    """Mutable state shared by every tool call of one conversation.

    Tools keep their own per-session state (the read-state cache, background shells)
    through :meth:`service`, so the core never needs to know about them.
    """

    def __init__(self, *, session_id: str | None = None, home: Path | None = None) -> None:
        self.id = session_id or secrets.token_hex(8)
        self.home = home if home is not None else hands_home()
        self._services: dict[type[Any], Any] = {}
        self._cleanups: list[Cleanup] = []
        self._states: dict[type[SessionState], None] = {}

    @property
    def directory(self) -> Path:
        """Where this session's files (spilled results, transcripts) live; made on demand."""
        return self.home / "sessions" / self.id

    @property
    def results_directory(self) -> Path:
        """Where this session's large tool results are saved (always readable by it)."""
        return self.directory / "tool-results"

    def service(self, kind: type[T], factory: Callable[[], T] | None = None) -> T:
        """The session's single instance of ``kind``, created on first use."""
        found = self._services.get(kind)
        if found is None:
            found = factory() if factory is not None else kind()
            self._services[kind] = found
        return cast(T, found)

    def renew(self) -> str:
        """Go on under a new id (a new conversation, ``/clear``); the earlier id.

        Files the session writes from now on go to the new id's directory. Tool state and
        running work (background shells, the browser) carry over; a service tied to the
        old directory is dropped with :meth:`forget` by whoever made it.
        """
        earlier, self.id = self.id, secrets.token_hex(8)
        return earlier

    def forget(self, kind: type[Any]) -> None:
        """Drop the session's instance of ``kind``; the next :meth:`service` makes a new one."""
        self._services.pop(kind, None)

    def register_states(self, kinds: Iterable[type[SessionState]]) -> None:
        """Register the kinds of state the session's tools keep (see :mod:`hands.core.state`)."""
        for kind in kinds:
            self._states.setdefault(kind, None)

    def states(self) -> list[SessionState]:
        """The registered states, each made on first use, in the order registered."""
        return [self.service(kind) for kind in self._states]

    def add_cleanup(self, cleanup: Cleanup) -> None:
        """Run ``cleanup`` when the session closes (e.g. kill background tasks)."""
        self._cleanups.append(cleanup)

    async def aclose(self) -> None:
        """Run every cleanup, then close every state made (registered or not).

        Both newest first; one failing does not stop the others.
        """
        from hands.core.state import SessionState

        errors: list[BaseException] = []
        while self._cleanups:
            cleanup = self._cleanups.pop()
            try:
                await cleanup()
            except Exception as exc:
                errors.append(exc)
        made = [s for s in self._services.values() if isinstance(s, SessionState)]
        for state in reversed(made):
            try:
                await state.aclose()
            except Exception as exc:
                errors.append(exc)
        if errors:
            raise ExceptionGroup("session cleanup failed", errors)  # type: ignore[type-var]
