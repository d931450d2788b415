"""The loopback redirect listener, over real HTTP."""

from __future__ import annotations

import anyio
import httpx
import pytest

from hands.mcp.oauth_callback import AuthorizationDenied, CallbackListener


def test_each_redirect_reaches_the_next_wait_and_other_paths_are_404() -> None:
    async def go() -> None:
        async with CallbackListener() as listener, httpx.AsyncClient() as client:
            assert listener.redirect_uri == f"http://localhost:{listener.port}/callback"
            base = f"http://127.0.0.1:{listener.port}"
            assert (await client.get(f"{base}/elsewhere?code=x")).status_code == 404
            assert (await client.post(f"{base}/callback?code=x")).status_code == 405
            assert (await client.get(f"{base}/callback")).status_code == 400  # no code
            first = await client.get(f"{base}/callback?code=c1&state=s1")
            assert first.status_code == 200 and "close this tab" in first.text
            await client.get(f"{base}/callback?code=c2&state=s2&iss=https%3A%2F%2Fas")
            one, two = await listener.wait(), await listener.wait()
            assert (one.code, one.state, one.iss) == ("c1", "s1", None)
            assert (two.code, two.state, two.iss) == ("c2", "s2", "https://as")
            await client.get(f"{base}/callback?error=access_denied&error_description=no")
            with pytest.raises(AuthorizationDenied, match="access_denied: no"):
                await listener.wait()
        with pytest.raises(httpx.ConnectError):  # closed with the block
            async with httpx.AsyncClient() as client:
                await client.get(f"{base}/callback?code=late")

    anyio.run(go)
