"""What differs between the front ends that open a :class:`~hands.harness.Harness`.

Everything else (the settings hierarchy, the trust decision, rules, hooks, the pool, the
session) is the same for every front end. The differences are written here, one value per
front end, so none of them is an accident of which file built the session.

The project's settings apply the same everywhere: every front end applies the settings'
``env`` block and starts in their ``defaultMode`` (both subject to trust: an untrusted
project's loosening mode and its env do not count), unless the caller names a mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Asker = Literal["user", "command_line", "client", "framework", "callback"]
"""Who answers a call the permission engine asks about.

``user``: the terminal's prompt; ``command_line``: the command line itself is the approval
(``hands tool``); ``client``: the MCP client (nobody, so a call that asks is denied);
``framework``: the framework's own approval flow (the adapters); ``callback``: the
``ask`` callback given to :meth:`Harness.open`, denied without one.
"""

ProjectServers = Literal["ask", "without_asking", "off"]
"""The project's ``.mcp.json`` servers: need the user's approval (as the settings give
it), start unless refused (print mode, as Claude Code), or are not read."""


@dataclass(frozen=True, kw_only=True, slots=True)
class FrontEnd:
    """How one front end opens its harness."""

    name: str
    """For messages (``hands``, ``hands mcp serve``)."""
    asks: Asker
    may_ask_trust: bool = False
    """The front end may ask the user to trust the workspace before the session starts."""
    applies_default_mode: bool = True
    """The session starts in the settings' ``defaultMode`` when no mode is named."""
    applies_env: bool = True
    """The settings' ``env`` block is applied to the process before anything reads it."""
    project_servers: ProjectServers = "without_asking"
    delegates: bool = True
    """The Agent tool (with the project's agent files) joins the pool; only front ends
    that run hands' own agent loop can run a sub-agent."""
    interactive: bool = False
    """A user is at a terminal: hooks may not defer a call (nobody could resume it)."""


REPL = FrontEnd(
    name="hands", asks="user", may_ask_trust=True, project_servers="ask", interactive=True
)
"""The interactive session: asks the user, may ask to trust the workspace."""

PRINT = FrontEnd(name="hands", asks="callback")
"""``hands -p`` (and ``hands batch``, which runs it): nobody at a terminal; a trusted
project's servers start unless refused, as in Claude Code."""

TOOL = FrontEnd(name="hands", asks="command_line", project_servers="off", delegates=False)
"""``hands tool NAME``: the command line is the approval; one tool, no agent loop."""

MCP_SERVE = FrontEnd(name="hands mcp serve", asks="client", project_servers="off", delegates=False)
"""``hands mcp serve``: the built-in tools for an MCP client, which cannot answer asks."""

ADAPTER = FrontEnd(name="hands", asks="framework", project_servers="off", delegates=False)
"""The framework adapters: the framework asks its user; the project's settings (mode and
env included) apply as in the CLI."""

LIBRARY = FrontEnd(name="hands", asks="callback", project_servers="ask")
"""``Harness.open`` from a program: the ``ask`` callback answers, else asks are denied;
project servers start when the settings approve them (``enabledMcpjsonServers``,
``enableAllProjectMcpServers``)."""

FRONT_ENDS: tuple[FrontEnd, ...] = (REPL, PRINT, TOOL, MCP_SERVE, ADAPTER, LIBRARY)

__all__ = [
    "ADAPTER",
    "FRONT_ENDS",
    "LIBRARY",
    "MCP_SERVE",
    "PRINT",
    "REPL",
    "TOOL",
    "Asker",
    "FrontEnd",
    "ProjectServers",
]
