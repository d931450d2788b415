"""Settings and working directory from command-line values, without any CLI framework.

``hands tool`` parses its arguments with :mod:`argparse` to start fast; the other
commands use typer (:mod:`hands.cli.options`). Both load settings through here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hands.core.context import PERMISSION_MODES, PermissionMode

if TYPE_CHECKING:
    from hands.config.project_trust import Ask
    from hands.config.settings import CliPermissionArgs, Settings


class UsageError(ValueError):
    """A command-line value that cannot be used; the message says which and why."""


def checked_mode(value: str | None) -> PermissionMode | None:
    """The permission mode named on the command line, or a :class:`UsageError`."""
    if value is None:
        return None
    if value not in PERMISSION_MODES:
        raise UsageError(
            f"unknown permission mode {value!r}; choose one of {', '.join(PERMISSION_MODES)}"
        )
    return value  # type: ignore[return-value]


def resolve_cwd(value: Path | None) -> Path:
    """``--cwd`` resolved (default: the current directory), or a :class:`UsageError`."""
    path = (value or Path.cwd()).expanduser().resolve()
    if not path.is_dir():
        raise UsageError(f"--cwd {path} is not a directory")
    return path


def settings_for(
    cwd: Path,
    mode: str | None,
    allowed: Sequence[str] | None,
    disallowed: Sequence[str] | None,
    settings: str | None,
    add_dir: Sequence[Path] | None,
    *,
    announce: bool = True,
    trust: bool = False,
    ask: Ask | None = None,
) -> Settings:
    """Every settings source merged; warnings go to stderr (a bad rule never stops a run).

    The session's one trust decision is taken first
    (:func:`~hands.config.project_trust.decide_trust`): ``trust`` is ``--trust``,
    ``ask`` the trust question (the REPL only); without one, each item an untrusted
    folder supplies is named on stderr as ignored. A settings file that cannot be used
    raises ``SettingsFileError``.
    """
    from hands.config.project_trust import decide_trust
    from hands.config.settings import load_settings

    verdict = decide_trust(cwd, explicit=trust, ask=ask)
    if ask is None or verdict.reason == "declined":
        for note in verdict.notes():
            print(f"hands: {note}", file=sys.stderr)
    loaded = load_settings(
        cwd,
        cli=cli_sources(cwd, mode, allowed, disallowed, settings, add_dir),
        trusted=verdict.trusted,
    )
    if announce:
        announce_warnings(loaded)
    return loaded


def cli_sources(
    cwd: Path,
    mode: str | None,
    allowed: Sequence[str] | None,
    disallowed: Sequence[str] | None,
    settings: str | None,
    add_dir: Sequence[Path] | None,
) -> CliPermissionArgs:
    """The command line's own settings sources.

    A ``--settings`` that cannot be read, or a mode that does not exist, is a
    :class:`UsageError`.
    """
    from hands.config.settings import CliPermissionArgs

    check_settings_value(settings, cwd)
    return CliPermissionArgs(
        allowed_tools=tuple(allowed or ()),
        disallowed_tools=tuple(disallowed or ()),
        permission_mode=checked_mode(mode),
        settings=settings,
        add_dirs=tuple(add_dir or ()),
    )


def check_settings_value(value: str | None, cwd: Path, flag: str = "--settings") -> None:
    """A ``--settings`` (or ``flag``) file or JSON that cannot be read is a :class:`UsageError`.

    The user named it, so its deny rules must not be lost to a warning; a broken file
    found by discovery stays a warning.
    """
    import json

    if value is None or not value.strip():
        return
    text, label = value, flag
    if not value.lstrip().startswith("{"):
        path = Path(value).expanduser()
        path = path if path.is_absolute() else cwd / path
        label = f"{flag} {path}"
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise UsageError(f"{label}: cannot be read ({reason})") from None
    try:
        data: object = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{label}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    if not isinstance(data, dict):
        raise UsageError(f"{label}: a settings file must hold a JSON object")


def mcp_config_servers(values: Sequence[str]) -> dict[str, object]:
    """The ``mcpServers`` of each ``--mcp-config`` file or JSON string, merged.

    A value that cannot be read or holds no ``mcpServers`` object is a :class:`UsageError`.
    """
    import json
    from typing import cast

    servers: dict[str, object] = {}
    for value in values:
        text = value
        if not value.lstrip().startswith("{"):
            try:
                text = Path(value).expanduser().read_text(encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"--mcp-config {value}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--mcp-config {value} is not valid JSON: {exc}") from None
        entries: object = (
            cast(dict[str, object], data).get("mcpServers") if isinstance(data, dict) else None
        )
        if not isinstance(entries, dict):
            raise UsageError(f'--mcp-config {value} has no "mcpServers" object')
        servers.update({str(k): v for k, v in cast(dict[object, object], entries).items()})
    return servers


def announce_warnings(loaded: Settings) -> None:
    """Print the settings' warnings (bad files and rules, untrusted files) to stderr."""
    from hands.permissions.policy import settings_warnings
    from hands.pipeline.pool import BuiltinGrammar

    for warning in settings_warnings(loaded, grammar=BuiltinGrammar()):
        print(f"hands: warning: {warning}", file=sys.stderr)


def read_stdin() -> str:
    """Standard input as text; bytes that are not UTF-8 become U+FFFD, never a crash."""
    return sys.stdin.buffer.read().decode("utf-8", errors="replace")
