"""Options every command that runs tools shares: working directory, mode, rules, settings."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hands.context import PERMISSION_MODES, PermissionMode

if TYPE_CHECKING:
    from hands.settings import Settings

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
SimpleOption = Annotated[
    bool, typer.Option("--simple", help="Offer only Bash, Read and Edit (also HANDS_SIMPLE=1).")
]


def permission_mode(value: str) -> PermissionMode:
    """The mode named on the command line, or a usage error."""
    if value not in PERMISSION_MODES:
        raise typer.BadParameter(
            f"unknown permission mode {value!r}; choose one of {', '.join(PERMISSION_MODES)}"
        )
    return value  # type: ignore[return-value]


def load_cli_settings(
    cwd: Path,
    mode: str | None,
    allowed: list[str] | None,
    disallowed: list[str] | None,
    settings: str | None,
    add_dir: list[Path] | None,
    *,
    announce: bool = True,
) -> Settings:
    """Every settings source merged; warnings go to stderr (a bad rule never stops a run)."""
    from hands.settings import CliPermissionArgs, load_settings

    loaded = load_settings(
        cwd,
        cli=CliPermissionArgs(
            allowed_tools=tuple(allowed or ()),
            disallowed_tools=tuple(disallowed or ()),
            permission_mode=None if mode is None else permission_mode(mode),
            settings=settings,
            add_dirs=tuple(add_dir or ()),
        ),
    )
    if announce:
        announce_warnings(loaded)
    return loaded


def announce_warnings(loaded: Settings) -> None:
    """Print the settings' warnings (bad rules, untrusted files) to stderr."""
    for warning in loaded.warnings:
        print(f"hands: warning: {warning}", file=sys.stderr)


def cwd_of(value: Path | None) -> Path:
    """``--cwd`` resolved (default: the current directory), or a usage error."""
    path = (value or Path.cwd()).expanduser().resolve()
    if not path.is_dir():
        raise typer.BadParameter(f"--cwd {path} is not a directory")
    return path
