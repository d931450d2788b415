"""``hands mcp serve``'s answers to a host's first requests, kept for its next start.

An entry holds the MCP SDK's own answers, as it wrote them, to one host's opening request
(``initialize``, or ``server/discover`` from a host of the 2026-07-28 protocol; the request
exactly as the host sent it) and to the ``tools/list`` that came next. The
next start with the same inputs answers those two requests from the entry before the SDK
is loaded (:mod:`hands.cli.mcp_serve_early`). An entry is found by a key over everything
the answers can depend on:

- the session's key of :func:`hands.cli.first_request_cache.session_key`: hands' modules
  and Python's version, the settings as read with the trust decision, the folder, the
  permission mode, the command line, the environment variables hands and its tools read
  (less :data:`HOST_SESSION_VARIABLES`), and the files agents, skills, commands and
  plugins come from (not the MCP client's configurations, :data:`MCP_CLIENT_FILES`: the
  command serves hands' built-in tools only);
- the code that builds and writes the answers: the MCP SDK's modules (each file's size
  and modification time) and the installed versions of the SDK and of pydantic.

Entries live under ``<hands home>/mcp-serve/``, one file per key, each written whole (a
temporary file renamed into place); one that is missing, unreadable, malformed or of
another key is a miss.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hands.cli.first_request_cache import module_states, session_key
from hands.cli.kept_file import KeptFile

if TYPE_CHECKING:
    from hands.harness import Harness

CACHE_VERSION = 1

SDK_MODULES = ("mcp", "mcp_types")
"""The packages whose modules (each file's size and time) are part of the key."""
SDK_DISTRIBUTIONS = ("mcp", "mcp_types", "pydantic", "pydantic_core")
"""The packages whose installed version (their ``.dist-info`` folder) is part of the key."""
OPENING_METHODS = ("initialize", "server/discover")
"""A host's opening request: the handshake, or the 2026-07-28 protocol's discovery."""
HOST_SESSION_VARIABLES = frozenset(
    {
        "CLAUDE_CODE_SESSION_ID",
        "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS",
        "CLAUDE_CODE_MESSAGING_SOCKET",
        "CLAUDE_CODE_MESSAGING_TOKEN",
        "CLAUDE_CODE_CHILD_NOTES_DIR",
        "CLAUDE_CODE_SSE_PORT",
    }
)
"""What Claude Code sets afresh for each server it starts (its session, its messaging
socket and token) and hands never reads: left out of the key, which would otherwise
differ at every start."""
MCP_CLIENT_FILES = frozenset({".mcp.json", ".claude.json", ".hands.json", "mcp-tools"})
"""Where MCP servers are configured and their tool lists kept: none of them is served
(``~/.claude.json`` also changes at every Claude Code start)."""


def canonical(value: object) -> str:
    """``value`` as JSON text that two equal JSON values share (keys sorted, no spaces)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def request_text(message: Mapping[str, Any]) -> str:
    """What a request asks, without its id: its method and its params as sent (or none)."""
    return canonical({k: v for k, v in message.items() if k not in ("id", "jsonrpc")})


@dataclass(frozen=True, kw_only=True, slots=True)
class KeptAnswer:
    """One request (:func:`request_text`) and the result the SDK answered it with."""

    request: str
    result: Any


@dataclass(frozen=True, kw_only=True, slots=True)
class KeptAnswers:
    """A host's opening request answered, and the ``tools/list`` after it if it came next."""

    opening: KeptAnswer
    tools: KeptAnswer | None = None


def answers_key(harness: Harness, argv: Sequence[str]) -> str:
    """The key of ``hands mcp serve``'s answers for this harness and command line."""
    return session_key(
        cwd=harness.cwd,
        settings=harness.settings,
        choices={
            "cwd": str(harness.cwd),
            "mode": harness.mode,
            "front_end": harness.front_end.name,
            "argv": list(argv),
            "sdk": sdk_state(),
        },
        env={k: v for k, v in os.environ.items() if k not in HOST_SESSION_VARIABLES},
        leave_out=MCP_CLIENT_FILES,
    )


def sdk_state() -> list[str]:
    """The MCP SDK's modules and the SDK's and pydantic's installed versions."""
    states: list[str] = []
    listed: dict[Path, list[str]] = {}
    for name in dict.fromkeys((*SDK_MODULES, *SDK_DISTRIBUTIONS)):
        spec = importlib.util.find_spec(name)
        folders = list(spec.submodule_search_locations or ()) if spec is not None else []
        if not folders:
            states.append(f"{name}: missing")
            continue
        folder = Path(folders[0])
        if name in SDK_MODULES:
            states += module_states(str(folder))
        if name in SDK_DISTRIBUTIONS:
            if folder.parent not in listed:
                with contextlib.suppress(OSError):
                    listed[folder.parent] = sorted(p.name for p in folder.parent.iterdir())
            prefix = f"{name}-"
            states += [
                entry
                for entry in listed.get(folder.parent, [])
                if entry.startswith(prefix) and entry.endswith(".dist-info")
            ]
    return states


class AnswerStore(KeptFile):
    """The kept answers of one key, a file in ``directory``."""

    version = CACHE_VERSION

    def load(self) -> KeptAnswers | None:
        """The kept answers, or None (none kept, unreadable, malformed, another key)."""
        entry = self.read_entry()
        return None if entry is None else _parse(entry)

    def save(self, kept: KeptAnswers) -> None:
        """Keep ``kept`` (written whole, or not at all)."""
        self.write_entry(
            {
                "opening": _wire(kept.opening),
                "tools/list": None if kept.tools is None else _wire(kept.tools),
            }
        )


def _wire(answer: KeptAnswer) -> dict[str, Any]:
    return {"request": answer.request, "result": answer.result}


def _parse(entry: Mapping[str, Any]) -> KeptAnswers | None:
    opening = _answer(entry.get("opening"))
    if opening is None:
        return None
    raw_tools = entry.get("tools/list")
    tools = None if raw_tools is None else _answer(raw_tools)
    if raw_tools is not None and tools is None:
        return None
    return KeptAnswers(opening=opening, tools=tools)


def _answer(raw: object) -> KeptAnswer | None:
    if not isinstance(raw, Mapping):
        return None
    item = cast(Mapping[str, Any], raw)
    request, result = item.get("request"), item.get("result")
    if (
        not isinstance(request, str)
        or not isinstance(result, dict)
        or set(item)
        != {
            "request",
            "result",
        }
    ):
        return None
    return KeptAnswer(request=request, result=cast(dict[str, Any], result))
