"""Background work that ends after a turn wakes the session for a turn of its own.

A turn ends with its ``result`` while work the model started in the background (a shell
command, a sub-agent) still runs, as Claude Code's does. When that work ends, its notice
starts a turn by itself: while input is open, the idle session is woken for it; once
input has ended, the session waits for the work still running (at most
``CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS`` milliseconds, ten minutes unless set; ``0``: no
limit), runs the turns its notices start, and then ends.
"""

from __future__ import annotations

import math
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream

from hands.core.inbox import Inbox

CEILING_VARIABLE = "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS"
DEFAULT_CEILING_MS = 600_000


@dataclass(frozen=True, kw_only=True, slots=True)
class Wake:
    """An item of the turn queue: notices wait for a turn; ``done`` is set once it ran."""

    done: anyio.Event = field(default_factory=anyio.Event)


async def watch(inbox: Inbox, queue: MemoryObjectSendStream[Any]) -> None:
    """Queue a :class:`Wake` whenever notices arrive for the main agent, until input ends.

    One wake at a time: the next is queued once the last one's turn ran, so notices the
    running turn already took do not wake the session again.
    """
    while True:
        await inbox.wait(None)
        wake = Wake()
        try:
            await queue.send(wake)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return
        await wake.done.wait()


def ceiling_seconds(env: Mapping[str, str] | None = None) -> float:
    """How long the session waits for background work after input ended (``inf``: no limit).

    A value that is not a whole number of milliseconds is the default.
    """
    raw = (os.environ if env is None else env).get(CEILING_VARIABLE, "").strip()
    milliseconds = int(raw) if raw.isdigit() else DEFAULT_CEILING_MS
    return math.inf if milliseconds == 0 else milliseconds / 1000


async def drain(inbox: Inbox, turn: Callable[[], Awaitable[None]], *, limit: float) -> None:
    """After input ended: a turn (``turn``) per arrival of notices, while work still runs.

    Stops when none of the main agent's background work is left, or after ``limit``
    seconds (what still runs then ends with the session).
    """
    with anyio.move_on_after(limit):
        while inbox.outstanding(None) or inbox.peek(None):
            await inbox.wait(None)
            await turn()
