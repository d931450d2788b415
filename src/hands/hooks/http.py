"""HTTP hooks: POST the input JSON; a 2xx answer uses the same JSON output as commands.

A non-2xx status, a refused connection and a timeout are non-blocking errors: the user
gets a notice and the action proceeds. ``$VAR`` / ``${VAR}`` in header values are
filled from the environment only for the names listed in ``allowedEnvVars``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from hands.hooks.config import HookHandler
from hands.hooks.output import HookRun, first_line

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def expand_header(value: str, allowed: tuple[str, ...], env: Mapping[str, str]) -> str:
    """Fill ``$VAR`` from ``env`` when ``VAR`` is allowed; other references become empty."""

    def sub(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, "") if name in allowed else ""

    return _VAR.sub(sub, value)


async def run_http(handler: HookHandler, payload: bytes, *, timeout_s: float) -> HookRun:
    """POST ``payload`` to the hook's URL and read its answer."""
    import httpx  # only when an HTTP hook runs

    headers = {"content-type": "application/json"}
    for key, value in handler.headers:
        headers[key] = expand_header(value, handler.allowed_env_vars, os.environ)
    try:
        async with httpx.AsyncClient(timeout=timeout_s, follow_redirects=False) as client:
            response = await client.post(handler.url, content=payload, headers=headers)
    except httpx.TimeoutException:
        return HookRun(
            handler=handler,
            exit_code=None,
            failure=f"{handler.label} timed out after {timeout_s:g} s; it gave no decision",
        )
    except httpx.HTTPError as exc:
        return HookRun(
            handler=handler,
            exit_code=None,
            failure=f"{handler.label} could not be reached ({type(exc).__name__}: {exc})",
        )
    text = response.text
    if not 200 <= response.status_code < 300:
        detail = first_line(text)
        return HookRun(
            handler=handler,
            exit_code=None,
            failure=f"{handler.label} answered HTTP {response.status_code}"
            + (f": {detail}" if detail else ""),
        )
    return HookRun(handler=handler, exit_code=0, stdout=text)
