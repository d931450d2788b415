"""The inbox: a wake-up with nothing to say is spent once taken."""

from __future__ import annotations

import anyio
import pytest

from hands.core.inbox import Inbox

pytestmark = pytest.mark.anyio


async def test_work_stopped_on_purpose_wakes_once_then_waits_again() -> None:
    inbox = Inbox()
    inbox.started(None)
    inbox.finished(None, None)  # stopped by the user: nothing to tell the model
    with anyio.fail_after(5):
        await inbox.wait(None)  # the waiter hears that the work is over
    assert inbox.take(None) == [] and not inbox.outstanding(None)
    with anyio.move_on_after(0.05) as scope:
        await inbox.wait(None)  # and then waits for the next thing, not at once again
    assert scope.cancelled_caught
    inbox.deliver(None, "hello")
    with anyio.fail_after(5):
        await inbox.wait(None)
    assert inbox.take(None) == ["hello"]
