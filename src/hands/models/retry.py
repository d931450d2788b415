"""Retries of a model request that failed before it streamed anything.

A provider turns each attempt into an async iterator of events. A failure worth retrying
(rate limit, overload, a dropped connection) raises :class:`RetryBeforeOutput` only while
nothing has been yielded yet; :func:`stream_with_retries` then yields a :class:`RetryWait`
notice, waits and tries again, so the consumer never sees a partial turn twice. Failures
after the first event are the consumer's to handle (``StreamInterruptedError``).
"""

from __future__ import annotations

import random
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass

import anyio

from hands.errors import ModelAPIError
from hands.models.base import RetryWait, StreamEvent


@dataclass(frozen=True, kw_only=True, slots=True)
class RetryPolicy:
    """How often and how patiently to retry a request that failed before streaming."""

    max_retries: int = 4
    """Attempts after the first; 0 disables retries."""
    initial_delay: float = 1.0
    """Seconds before the first retry; doubled for each further one."""
    max_delay: float = 32.0
    """The longest computed backoff, in seconds."""
    max_retry_after: float = 60.0
    """A server's ``retry-after`` is obeyed up to this many seconds."""

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``attempt + 1``."""
        if retry_after is not None and 0 <= retry_after <= self.max_retry_after:
            return retry_after
        backoff = min(self.initial_delay * 2.0 ** min(attempt, 30), self.max_delay)
        return backoff * (1.0 - 0.25 * random.random())


class RetryBeforeOutput(Exception):
    """A retryable failure of an attempt that has not yielded any event."""

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


async def stream_with_retries(
    attempt: Callable[[], AsyncGenerator[StreamEvent]], policy: RetryPolicy
) -> AsyncIterator[StreamEvent]:
    """Yield the events of ``attempt()``, starting it again on :class:`RetryBeforeOutput`."""
    tries = 0
    while True:
        try:
            async with aclosing(attempt()) as events:
                async for event in events:
                    yield event
            return
        except RetryBeforeOutput as exc:
            if tries >= policy.max_retries:
                raise ModelAPIError(
                    f"{exc} (gave up after {tries + 1} attempt{'s' if tries else ''}); "
                    "wait a little and try again",
                    status=exc.status,
                    retryable=True,
                ) from exc
            delay = policy.delay(tries, exc.retry_after)
            tries += 1
            yield RetryWait(
                error=str(exc),
                attempt=tries + 1,
                max_attempts=policy.max_retries + 1,
                delay_s=delay,
            )
            await anyio.sleep(delay)


def retry_after_seconds(headers: object) -> float | None:
    """The server's requested wait from ``retry-after-ms`` or ``retry-after``, if any."""
    get = getattr(headers, "get", None)
    if get is None:
        return None
    for key, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = get(key)
        if isinstance(value, str):
            try:
                return float(value) * scale
            except ValueError:
                continue
    return None
