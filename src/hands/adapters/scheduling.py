"""hands' ordering rule for calls a framework starts on its own schedule.

Concurrency-safe calls run together; any other call runs alone, after the calls before it
and before the ones after it. A framework that starts every call of a model message as a
task of its own still gets this order: each call passes through one gate, in a line.

"Before" is the order of the model's message wherever the adapter can tell it. The
adapter then *reserves* each call's place in the line as soon as it learns of the call,
before anything of the call runs (its PreToolUse hooks may take long, and the framework
may hand the calls over in any order): one by one in the order the framework starts
them, or the whole message at once. A call that was not reserved takes its place when it
reaches the gate. A reserved call that will not run now (it waits for the user, it
failed before running) gives its place back with :meth:`CallGate.withdraw`.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio

UNCLAIMED_S = 5.0
"""How long a place reserved for a call by its message, whose call never came, holds up
the calls behind it. Only a framework that skips a call of the message without handing it
over (a middleware that answers it itself) leaves such a place: the calls of one message
are handed over together, within milliseconds."""

_REMEMBERED = 4096
"""How many settled call ids the gate remembers (a message reserved again, as a resumed
graph does, must not reserve a call that already ran)."""


@dataclass(eq=False, kw_only=True)
class _Place:
    exclusive: bool
    call_id: str | None
    claimed: bool
    """The call itself came; False: reserved for it by its message, not seen yet."""
    since: float
    holding: bool = False
    turn: anyio.Event | None = field(default=None)


class CallGate:
    """A line of calls, in the order they took their places.

    A safe call may run once no earlier call is unsafe; an unsafe call once every earlier
    call is done.
    """

    def __init__(self) -> None:
        self._line: list[_Place] = []
        self._by_id: dict[str, _Place] = {}
        self._settled: OrderedDict[str, None] = OrderedDict()

    # -- places ------------------------------------------------------------------------

    def reserve(self, call_id: str, *, exclusive: bool, claimed: bool = True) -> None:
        """Take the call's place at the end of the line now, before it reaches the gate.

        ``claimed=False``: reserved on behalf of a call of the same message that has not
        come yet. Nothing happens for a call that has a place already or has settled.
        """
        place = self._by_id.get(call_id)
        if place is not None:
            place.claimed = place.claimed or claimed
            return
        if call_id in self._settled:
            return
        place = _Place(
            exclusive=exclusive, call_id=call_id, claimed=claimed, since=time.monotonic()
        )
        self._line.append(place)
        self._by_id[call_id] = place

    def withdraw(self, call_id: str) -> None:
        """The reserved call will not run now: its place is given back.

        A call already running keeps its place until it ends.
        """
        place = self._by_id.get(call_id)
        if place is not None and not place.holding:
            self._leave(place)

    def settled(self, call_id: str) -> bool:
        """Whether the call had a place and left the line (ran, or was withdrawn)."""
        return call_id in self._settled

    # -- running -----------------------------------------------------------------------

    @asynccontextmanager
    async def hold(self, *, exclusive: bool, call_id: str | None = None) -> AsyncGenerator[None]:
        """Wait for the call's turn, then hold it while the call runs.

        The call waits at its reserved place, if it has one; else at the end of the line.
        """
        place = self._by_id.get(call_id) if call_id is not None else None
        if place is None or place.holding:  # not reserved: its place is at the end
            fresh = call_id is not None and place is None
            place = _Place(
                exclusive=exclusive,
                call_id=call_id if fresh else None,
                claimed=True,
                since=time.monotonic(),
            )
            self._line.append(place)
            if fresh and call_id is not None:
                self._by_id[call_id] = place
        place.exclusive, place.claimed, place.holding = exclusive, True, True
        try:
            await self._wait_turn(place)
            yield
        finally:
            self._leave(place)

    async def _wait_turn(self, place: _Place) -> None:
        while not self._may_run(place):
            place.turn = anyio.Event()
            with anyio.move_on_after(self._patience(place)):
                await place.turn.wait()
            self._drop_unclaimed()

    def _may_run(self, place: _Place) -> bool:
        ahead = self._line[: self._line.index(place)]
        if place.exclusive:
            return not ahead
        return not any(p.exclusive for p in ahead)

    def _patience(self, place: _Place) -> float:
        """Seconds until the first place ahead that was never claimed expires."""
        unclaimed = [p.since for p in self._line[: self._line.index(place)] if not p.claimed]
        if not unclaimed:
            return math.inf
        return max(0.0, min(unclaimed) + UNCLAIMED_S - time.monotonic())

    def _drop_unclaimed(self) -> None:
        now = time.monotonic()
        for stale in [p for p in self._line if not p.claimed and now - p.since >= UNCLAIMED_S]:
            self._leave(stale)

    def _leave(self, place: _Place) -> None:
        if place in self._line:
            self._line.remove(place)
        if place.call_id is not None and self._by_id.get(place.call_id) is place:
            del self._by_id[place.call_id]
            self._settled[place.call_id] = None
            while len(self._settled) > _REMEMBERED:
                self._settled.popitem(last=False)
        for waiting in self._line:
            if waiting.turn is not None and not waiting.turn.is_set() and self._may_run(waiting):
                waiting.turn.set()
