"""What the HTTP providers share: the client's lifetime, naming and usage totals."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Mapping
from typing import Any, ClassVar, Self

from hands.errors import ModelError
from hands.models.base import Usage
from hands.models.event_stream import StreamTransport
from hands.models.facts import ModelFacts, facts_for
from hands.models.retry import RetryBeforeOutput, RetryPolicy

Failure = Callable[[Exception], Exception]


class SdkModel:
    """Base of a provider that streams through a client: a vendor SDK's, or its own.

    An SDK's own retries are off (``max_retries=0`` on the client): retries happen in
    the provider, where a failed request can be told from a broken turn.
    """

    provider: ClassVar[str] = ""

    def __init__(self, *, model: str, client: StreamTransport, retry: RetryPolicy | None) -> None:
        self._client = client
        self._model = model
        self._facts = facts_for(f"{self.provider}:{model}", provider=self.provider)
        self.retry = retry or RetryPolicy()
        self.total_usage = Usage()
        """Usage of every completed turn streamed by this instance (as far as reported)."""

    async def _raw_events(
        self, params: Mapping[str, Any], *, request_failure: Failure, stream_failure: Failure
    ) -> AsyncGenerator[Mapping[str, Any]]:
        """The events of one request as dicts, each failure mapped for the model.

        ``request_failure`` maps what sending the request raised, ``stream_failure`` what
        reading its stream raised; hands' own errors pass unchanged.
        """
        try:
            async with self._client.open(params) as stream:
                try:
                    async for raw in stream:
                        yield raw
                except ModelError:
                    raise
                except Exception as exc:
                    raise stream_failure(exc) from exc
        except (ModelError, RetryBeforeOutput):
            raise
        except Exception as exc:
            raise request_failure(exc) from exc

    async def aclose(self) -> None:
        """Close the client's connections."""
        await self._client.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    @property
    def name(self) -> str:
        """The model's identifier, with its provider."""
        return f"{self.provider}:{self._model}"

    @property
    def facts(self) -> ModelFacts:
        """Its provider, window, capabilities and price, from the catalog."""
        return self._facts

    @property
    def model(self) -> str:
        """The API's model name."""
        return self._model
