"""``headersHelper``: a command that prints the HTTP headers of a remote MCP server.

Claude Code runs it before each connection (so short-lived tokens stay fresh) with
``CLAUDE_CODE_MCP_SERVER_NAME`` and ``CLAUDE_CODE_MCP_SERVER_URL`` set; its standard
output must be a JSON object of strings, which override the static ``headers``. A helper
from a project's ``.mcp.json`` runs only in a trusted workspace (``hands trust``).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import anyio

from hands.mcp.config import McpServerConfig

HELPER_TIMEOUT_S = 10.0


class HeadersHelperError(RuntimeError):
    """The helper could not run or printed something unusable; the message says which."""


async def helper_headers(config: McpServerConfig) -> dict[str, str]:
    """The server's headers: the static ones, overridden by the helper's output."""
    headers = dict(config.headers)
    if not config.headers_helper:
        return headers
    if config.scope == "project":
        from hands.config.trust import how_to_trust, is_trusted

        where = config.cwd or Path.cwd()
        if not is_trusted(where):
            raise HeadersHelperError(
                f"its headersHelper comes from {config.source} and runs only in a trusted "
                f"workspace; trust it with: {how_to_trust(where)}"
            )
    env = {
        **os.environ,
        "CLAUDE_CODE_MCP_SERVER_NAME": config.name,
        "CLAUDE_CODE_MCP_SERVER_URL": config.url,
    }
    try:
        with anyio.fail_after(HELPER_TIMEOUT_S):
            done = await anyio.run_process(
                ["bash", "-c", config.headers_helper],
                env=env,
                cwd=config.cwd,
                check=False,
                stdin=subprocess.DEVNULL,
            )
    except TimeoutError:
        raise HeadersHelperError(
            f"its headersHelper did not finish within {HELPER_TIMEOUT_S:g} s"
        ) from None
    except OSError as exc:
        raise HeadersHelperError(f"its headersHelper could not be started ({exc})") from None
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        raise HeadersHelperError(f"its headersHelper exited with {done.returncode}: {tail[0]}")
    try:
        data: Any = json.loads(done.stdout)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in cast(dict[Any, Any], data).items()
    ):
        raise HeadersHelperError(
            'its headersHelper must print a JSON object of strings, e.g. {"Authorization": '
            '"Bearer ..."}'
        )
    headers.update(cast(Mapping[str, str], data))
    return headers
