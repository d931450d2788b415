"""The one trust decision of a session, taken by whatever front end assembles it.

Every front end calls :func:`decide_trust` once, before anything from the folder is
used, and hands ``verdict.trusted`` to :func:`~hands.config.settings.load_settings`;
the settings then carry it (``Settings.trusted``) to whatever loads project MCP
servers, agents and skills. The REPL passes ``ask`` (the trust question); ``-p``,
``hands tool``, ``hands mcp``, ``hands batch`` and the adapters pass none, so an
untrusted folder's input stays off and :meth:`TrustVerdict.notes` gives one line per
ignored item. ``explicit`` (``--trust``, ``trusted=True``) trusts for this run only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from hands.config.project_input import ProjectItem, project_items
from hands.config.trust import decline, how_to_trust, is_declined, is_trusted, trust, workspace_of

TrustReason = Literal[
    "remembered", "explicit", "answered yes", "answered no", "declined", "not asked"
]


@dataclass(frozen=True, kw_only=True, slots=True)
class TrustVerdict:
    """Whether the folder's project input counts in this session, and what it is."""

    workspace: Path
    trusted: bool
    items: tuple[ProjectItem, ...] = ()
    """Everything the folder supplies that trust enables (or enabled)."""
    reason: TrustReason = "not asked"

    def notes(self) -> tuple[str, ...]:
        """One line per ignored item, then how to trust; nothing when trusted."""
        if self.trusted or not self.items:
            return ()
        why = "you declined to trust" if self.reason in ("declined", "answered no") else "untrusted"
        lines = [f"ignored ({why} {self.workspace}): {item.line()}" for item in self.items]
        lines.append(
            f"to use them, review the files, then run `{how_to_trust(self.workspace)}` or "
            "pass --trust"
        )
        return tuple(lines)


Ask = Callable[[TrustVerdict], bool]
"""The trust question: shown the verdict so far (its items), says yes or no."""


def decide_trust(
    cwd: Path | str,
    *,
    explicit: bool = False,
    ask: Ask | None = None,
    env: Mapping[str, str] | None = None,
) -> TrustVerdict:
    """Decide once whether the folder ``cwd`` is trusted for this session.

    Trusted when ``explicit``, or when the workspace (or a directory above it) is in
    the trusted-workspaces file. Otherwise ``ask`` is asked, if given, unless the user
    declined before or the folder supplies nothing; its answer is remembered. Raises
    ``SettingsFileError`` for a settings file that cannot be used.
    """
    env = os.environ if env is None else env
    start = Path(os.path.normpath(Path(cwd).expanduser().absolute()))
    workspace = workspace_of(start)
    items = project_items(start, home=_home(env))
    verdict = TrustVerdict(workspace=workspace, trusted=False, items=items)
    if explicit:
        return replace(verdict, trusted=True, reason="explicit")
    if is_trusted(start, env):
        return replace(verdict, trusted=True, reason="remembered")
    if ask is None or not items:
        return verdict
    if is_declined(start, env):
        return replace(verdict, reason="declined")
    if ask(verdict):
        trust(workspace, env)
        return replace(verdict, trusted=True, reason="answered yes")
    decline(workspace, env)
    return replace(verdict, reason="answered no")


def _home(env: Mapping[str, str]) -> Path:
    home = env.get("HOME") or env.get("USERPROFILE")
    return Path(home) if home else Path.home()
