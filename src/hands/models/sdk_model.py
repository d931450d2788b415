"""What the HTTP providers share: the client's lifetime, naming and usage totals."""

from __future__ import annotations

from typing import Any, ClassVar, Self

from hands.models.base import Usage
from hands.models.retry import RetryPolicy


class SdkModel:
    """Base of a provider that streams through a client: a vendor SDK's, or its own.

    An SDK's own retries are off (``max_retries=0`` on the client): retries happen in
    the provider, where a failed request can be told from a broken turn. The client has
    an async ``close()``.
    """

    provider: ClassVar[str] = ""

    def __init__(self, *, model: str, client: Any, retry: RetryPolicy | None) -> None:
        self._client = client
        self._model = model
        self.retry = retry or RetryPolicy()
        self.total_usage = Usage()
        """Usage of every completed turn streamed by this instance (as far as reported)."""

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
    def model(self) -> str:
        """The API's model name."""
        return self._model
