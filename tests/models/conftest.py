"""A loopback server per test, no proxy between the SDKs and it, and clients closed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from models.loopback import LoopbackServer


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LoopbackServer]:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    srv = LoopbackServer()
    srv.start()
    try:
        yield srv
    finally:
        for client in srv.clients:
            await client.aclose()
        srv.stop()
