"""A loopback server per test, no proxy between the SDKs and it, and clients closed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from models.loopback import LoopbackServer, serving


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LoopbackServer]:
    with serving(monkeypatch) as srv:
        try:
            yield srv
        finally:
            for client in srv.clients:
                await client.aclose()
