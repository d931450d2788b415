"""The terminal went away (SIGHUP) or the REPL was asked to stop (SIGTERM).

By default either signal ends the process at once, and whatever the session started in
its own process group (background shells, a browser) lives on with nobody to stop it.
Caught, it ends the REPL the way leaving it does: the session closes what it started.

A closing terminal often hangs up more than once (the terminal, then the kernel when the
shell that led the session exits). The first is enough: later ones are ignored, so they
cannot kill the process halfway through closing what it started.
"""

from __future__ import annotations

import signal

import anyio


async def watch_hangup(scope: anyio.CancelScope, signalled: list[int]) -> None:
    """Cancel ``scope`` on SIGHUP or SIGTERM, noting the signal in ``signalled``."""
    with anyio.open_signal_receiver(signal.SIGHUP, signal.SIGTERM) as signals:
        async for signum in signals:
            signalled.append(int(signum))
            break
        else:
            return
    # leaving the receiver put back the default handler; a second hang-up must not kill
    # the process while the session closes
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    scope.cancel()
