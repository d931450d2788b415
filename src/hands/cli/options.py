"""Options every command that runs tools shares: working directory, mode, rules, settings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hands.cli.args import UsageError, check_settings_value, resolve_cwd, settings_for
from hands.cli.args import announce_warnings as announce_warnings

if TYPE_CHECKING:
    from hands.config.project_trust import Ask
    from hands.config.settings import Settings

CwdOption = Annotated[
    Path | None,
    typer.Option("--cwd", help="Working directory for the tools (default: current directory)."),
]
ModeOption = Annotated[
    str | None,
    typer.Option(
        "--permission-mode", help="default, acceptEdits, plan, bypassPermissions, dontAsk."
    ),
]
AllowedToolsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allowedTools",
        "--allowed-tools",
        help="Allow rules, e.g. 'Bash(git log:*)' (repeatable; commas or spaces also separate).",
    ),
]
DisallowedToolsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--disallowedTools",
        "--disallowed-tools",
        help="Deny rules; a bare tool name removes the tool from the pool.",
    ),
]
SettingsOption = Annotated[
    str | None, typer.Option("--settings", help="A settings file, or a JSON object.")
]
AddDirOption = Annotated[
    list[Path] | None, typer.Option("--add-dir", help="Another working directory (repeatable).")
]
TrustOption = Annotated[
    bool,
    typer.Option(
        "--trust",
        help="Trust this folder for this run: its hooks, MCP servers, agents, skills, env "
        "and loosening settings count (otherwise they are ignored unless trusted before).",
    ),
]
SimpleOption = Annotated[
    bool, typer.Option("--simple", help="Offer only Bash, Read and Edit (also HANDS_SIMPLE=1).")
]


def load_cli_settings(
    cwd: Path,
    mode: str | None,
    allowed: list[str] | None,
    disallowed: list[str] | None,
    settings: str | None,
    add_dir: list[Path] | None,
    *,
    announce: bool = True,
    trust: bool = False,
    ask: Ask | None = None,
) -> Settings:
    """Every settings source merged; warnings go to stderr (a bad rule never stops a run).

    ``trust`` (``--trust``) and ``ask`` (the trust question) as :func:`settings_for`.
    """
    try:
        return settings_for(
            cwd,
            mode,
            allowed,
            disallowed,
            settings,
            add_dir,
            announce=announce,
            trust=trust,
            ask=ask,
        )
    except UsageError as exc:
        raise typer.BadParameter(str(exc)) from None


def cwd_of(value: Path | None) -> Path:
    """``--cwd`` resolved (default: the current directory), or a usage error."""
    try:
        return resolve_cwd(value)
    except UsageError as exc:
        raise typer.BadParameter(str(exc)) from None


def check_settings_flag(value: str | None, cwd: Path) -> None:
    """A ``--settings`` file or JSON that cannot be used is a usage error (exit 2)."""
    try:
        check_settings_value(value, cwd)
    except UsageError as exc:
        raise typer.BadParameter(str(exc)) from None
