"""A model request streamed on a thread of its own, its answer held until it is taken.

``hands -p`` sends its first request this way from the kept tool list
(:mod:`hands.cli.first_request`), while the main thread goes on building the tools. The
answer's events wait in a queue: none is read until the session has checked the request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread

from hands.models.base import ModelRequest, StreamEvent

if TYPE_CHECKING:
    from hands.models.anthropic import AnthropicModel

SEND_WAIT_S = 60.0
"""How long the session waits at most for the early request to be written out (a
failure to connect ends the wait sooner: the request is then done)."""


def body_of(model: AnthropicModel, request: ModelRequest) -> str:
    """What ``model`` sends for ``request``: its parameters as JSON, in the order sent."""
    return json.dumps(model.request_params(request), ensure_ascii=False, default=repr)


class _End:
    """The answer ended (or was cancelled)."""


class _Failed:
    def __init__(self, error: Exception) -> None:
        self.error = error


class EarlyRequest:
    """One request streamed on a thread of its own; its events wait until taken."""

    def __init__(self, model: AnthropicModel, request: ModelRequest) -> None:
        self.body = body_of(model, request)
        self._model = model
        self._request = request
        self._events: queue.SimpleQueue[StreamEvent | _End | _Failed] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._stop: tuple[asyncio.AbstractEventLoop, asyncio.Task[None]] | None = None
        self._cancelled = False
        self._sent = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hands-first-request", daemon=True)

    def start(self) -> None:
        """Send the request; return once it is written out (or has failed).

        Until then this thread waits rather than competing for the interpreter: what the
        request needs first (the HTTP client, its connection) is work either way.
        """
        self._thread.start()
        self._sent.wait(SEND_WAIT_S)

    def _run(self) -> None:
        try:
            asyncio.run(self._pump())
        except Exception as exc:  # the loop itself failed: the answer is that failure
            self._events.put(_Failed(exc))
        except BaseException:
            pass
        finally:  # whatever happened, the session never waits for more than this
            self._sent.set()
            self._events.put(_End())

    async def _pump(self) -> None:
        from hands.models.event_stream import on_request_sent  # loaded with the model

        task = asyncio.current_task()
        with self._lock:
            if self._cancelled or task is None:
                self._events.put(_End())
                return
            self._stop = (asyncio.get_running_loop(), task)
        try:
            with on_request_sent(self._sent.set):
                async for event in self._model.stream(self._request):
                    self._events.put(event)
        except asyncio.CancelledError:
            pass
        except Exception as exc:
            self._events.put(_Failed(exc))
        finally:
            self._sent.set()
            self._events.put(_End())
            with contextlib.suppress(Exception):
                await self._model.aclose()
            with self._lock:
                self._stop = None

    async def events(self) -> AsyncGenerator[StreamEvent]:
        """The answer's events as they come; its failure is raised here."""
        try:
            while True:
                item = await anyio.to_thread.run_sync(self._events.get, abandon_on_cancel=True)
                if isinstance(item, _End):
                    return
                if isinstance(item, _Failed):
                    raise item.error
                yield item
        finally:
            with anyio.CancelScope(shield=True):
                await self.aclose()

    async def aclose(self) -> None:
        """Cancel the request (a finished one: nothing to do) and wait for its thread."""
        with self._lock:
            self._cancelled = True
            if self._stop is not None:
                loop, task = self._stop
                loop.call_soon_threadsafe(task.cancel)
        if self._thread.is_alive():
            await anyio.to_thread.run_sync(self._thread.join)
