"""The terminal went away (SIGHUP) or the REPL was asked to stop (SIGTERM).

By default either signal ends the process at once, and whatever the session started in
its own process group (background shells, a browser) lives on with nobody to stop it.
Caught, it ends the REPL the way leaving it does: the session closes what it started.

A closing terminal often signals more than once (the terminal's hang-up, the kernel's when
the shell that led the session exits, a terminal multiplexer's own). The signals stay
caught until the session has closed (:func:`hangups` around the whole REPL), so a later
one cannot kill the process halfway through closing what it started.
"""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager

import anyio


def hangups() -> AbstractContextManager[AsyncIterator[signal.Signals]]:
    """SIGHUP and SIGTERM caught for as long as the context lasts."""
    return anyio.open_signal_receiver(signal.SIGHUP, signal.SIGTERM)


async def watch_hangup(
    signals: AsyncIterator[signal.Signals], scope: anyio.CancelScope, signalled: list[int]
) -> None:
    """Cancel ``scope`` on the first of ``signals``, noting it in ``signalled``."""
    async for signum in signals:
        signalled.append(int(signum))
        scope.cancel()
        return
