"""What the browser's parts know of the session's browser: the one module they share.

The request guard, the network proxy, the redirect check and the event log each read a
few things of :class:`~hands.tools.browser._session.BrowserSession`, which builds them;
they name it through :class:`BrowserState`, defined here, so none of them imports the
session's module, at run time or for the type checker. This module imports no other
module of the browser's but its settings.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias

from hands.tools.browser._settings import BrowserSettings

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.net.address import Address

Resolver: TypeAlias = "Callable[[str, int], Awaitable[Sequence[Address]]]"
"""``(host, port) -> addresses``; raises ResolveError."""
StopProxy: TypeAlias = Callable[[], Awaitable[None]]
"""Stops the session's proxy."""


class Notes(Protocol):
    """Where what happened in the browser is written down (the session's event log)."""

    def note(self, text: str) -> None:
        """Record one event."""
        ...


class BrowserState(Protocol):
    """The session's browser as its guard, proxy, redirect check and event log see it."""

    @property
    def events(self) -> Notes:
        """The event log the running call reports from."""
        ...

    @property
    def ctx(self) -> ToolContext | None:
        """The context of the browser call running now (its rules decide requests)."""
        ...

    @property
    def approved_hosts(self) -> set[str]:
        """Hosts a Browser_navigate call was allowed to open in this session."""
        ...

    @property
    def settings(self) -> BrowserSettings:
        """The browser's settings (how dialogs are answered...)."""
        ...

    @property
    def downloads(self) -> Path:
        """Where downloads are saved."""
        ...
