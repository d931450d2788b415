"""Settings files and their precedence: what each source says, merged.

Sources, strongest first (each level reads ``.hands/`` and then ``.claude/``; the
``.hands`` file is the stronger of the two):

1. managed policy (``$HANDS_MANAGED_SETTINGS``, else ``/etc/hands/managed-settings.json``,
   ``/etc/claude-code/managed-settings.json`` or the macOS equivalent), then the policy a
   program that starts hands passes (``--managed-settings``);
2. the command line: ``--settings FILE_OR_JSON``, ``--allowedTools``,
   ``--disallowedTools``, ``--permission-mode``, ``--add-dir``;
3. ``.claude/settings.local.json`` (at the git repository root, and in the start directory);
4. ``.claude/settings.json`` in the start directory;
5. ``~/.claude/settings.json`` (``$HOME`` from the environment) and ``~/.hands/settings.json``.

List keys (``permissions.allow|ask|deny``, ``additionalDirectories``) merge across every
source; scalar keys (``defaultMode``) come from the strongest source that sets them; a
deny anywhere beats an allow anywhere (the engine checks every deny rule first);
``disableBypassPermissionsMode: "disable"`` holds wherever it is set. A file that is
not valid JSON, not an object, unreadable, or whose ``permissions``, ``deny`` or ``ask``
has the wrong shape raises :class:`~hands.config.settings_error.SettingsFileError`
naming the file, line and column: its deny rules must never vanish silently. Lesser
problems (a wrongly typed allow list) become warnings that name the file.
Permission rules are kept as written, each with its origin;
:mod:`hands.permissions.policy` parses them (and reports bad ones) and builds the engine.

Workspace trust (:mod:`hands.config.trust`): the files of levels 3 and 4 come with
the folder (a repository can commit a ``settings.local.json`` too), so what in them
runs programs or loosens anything (hooks, ``env``, approvals of ``.mcp.json`` servers,
allow rules, ``additionalDirectories``, a loosening ``defaultMode``,
``allowedMcpServers``, ``sandbox`` entries that loosen it, and every other key that
does not only tighten; see :mod:`hands.config.untrusted`) counts only in a trusted
workspace; otherwise it is ignored with one warning that names the files and says how
to trust. Their deny and ask rules, tightening sandbox entries and refusals of MCP
servers always apply.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from hands.config.jsonfile import object_field, string_list, update_json_object
from hands.config.plugins import Plugin
from hands.config.rule_texts import BEHAVIORS, RuleOrigin, RuleText, Scope, split_rule_list
from hands.config.settings_error import SettingsFileError
from hands.config.untrusted import (
    AUTO_ALLOW_KEY,
    LOOSENING_MODES,
    SERVER_ALLOWLIST_KEY,
    UntrustedFile,
    combined,
    tightening_sandbox,
    tightens,
    untrusted_parts,
)
from hands.core.context import PERMISSION_MODES, PermissionMode
from hands.core.env import given

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.session import Session

SCOPES_STRONGEST_FIRST: tuple[Scope, ...] = (
    "managed",
    "cliArg",
    "localSettings",
    "projectSettings",
    "userSettings",
)
CONFIG_DIRS = (".hands", ".claude")
"""Per-level configuration directories, the stronger first."""
MODE_ALIASES: dict[str, PermissionMode] = {"manual": "default"}
SERVER_LIST_KEYS = frozenset({SERVER_ALLOWLIST_KEY, "deniedMcpServers"})
"""List keys joined across sources by :meth:`Settings.value`."""
CLI_LIST_FLAGS = frozenset({"--allowedTools", "--disallowedTools", "--ask"})
"""Rule lists given on the command line, where commas and spaces also separate rules."""


class PermissionsBlock(BaseModel):
    """The ``permissions`` object of a settings file."""

    model_config = ConfigDict(extra="allow")

    allow: list[Any] = []
    ask: list[Any] = []
    deny: list[Any] = []
    additionalDirectories: list[str] = []
    defaultMode: str | None = None
    disableBypassPermissionsMode: str | None = None
    disableAutoMode: str | None = None
    allowManagedPermissionRulesOnly: bool | None = None


class SettingsFile(BaseModel):
    """The parts of a settings file hands reads; everything else is kept as it is."""

    model_config = ConfigDict(extra="allow")

    permissions: PermissionsBlock = PermissionsBlock()
    hooks: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class CliPermissionArgs:
    """The permission-related command-line flags."""

    allowed_tools: Sequence[str] = ()
    disallowed_tools: Sequence[str] = ()
    ask_tools: Sequence[str] = ()
    """Ask rules (``hands permissions check --ask``); Claude Code has no such flag."""
    permission_mode: str | None = None
    settings: str | None = None
    """``--settings``: a file path or a JSON object."""
    add_dirs: Sequence[str | Path] = ()
    setting_sources: Sequence[str] | None = None
    """``--setting-sources``: the settings files read (``user``, ``project``, ``local``);
    ``None``: all of them. Managed settings and the command line always count."""
    managed_settings: str | None = None
    """``--managed-settings``: policy settings (a JSON object or a file) from the program
    that started hands, with the managed files' precedence, after the machine's own."""
    plugins: Sequence[Plugin] = ()
    """``--plugin-dir``'s plugins (:mod:`hands.config.plugins`): their hooks count, after
    the command line's settings, in a trusted workspace only."""


SETTING_SOURCE_SCOPES = {
    "user": "userSettings",
    "project": "projectSettings",
    "local": "localSettings",
}
"""``--setting-sources`` names → the scope of the files they stand for."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SettingsSource:
    """One loaded source."""

    scope: Scope
    label: str
    """The file path, or the flag it came from."""
    root: Path
    """What a ``/path`` rule from this source is relative to."""
    base: Path
    """What a relative ``additionalDirectories`` entry is relative to."""
    path: Path | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    permissions: PermissionsBlock = field(default_factory=PermissionsBlock)
    hooks: Mapping[str, Any] | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Settings:
    """Every source merged, with the permission rules as written."""

    cwd: Path
    home: Path
    sources: tuple[SettingsSource, ...]
    """Strongest first."""
    rule_texts: tuple[RuleText, ...]
    """Every rule entry in force, strongest source first (deny, ask, allow per source)."""
    default_mode: PermissionMode = "default"
    mode_source: str = ""
    additional_directories: tuple[Path, ...] = ()
    disable_bypass: bool = False
    warnings: tuple[str, ...] = ()
    untrusted: tuple[UntrustedFile, ...] = ()
    """Project files whose hooks, env, MCP approvals, allow rules, directories,
    loosening mode and other loosening settings were ignored because the workspace is
    not trusted (``hands trust``)."""
    trusted: bool = False
    """Whether the workspace is trusted: its project MCP servers, agents and skills may
    load (the session's one trust decision, :mod:`hands.config.project_trust`)."""
    plugins: tuple[Plugin, ...] = ()
    """The plugins whose commands, agents, skills, hooks and MCP servers load (none in an
    untrusted workspace)."""

    @property
    def untrusted_files(self) -> tuple[str, ...]:
        """The labels of :attr:`untrusted`."""
        return tuple(u.label for u in self.untrusted)

    @property
    def hooks(self) -> tuple[tuple[SettingsSource, Mapping[str, Any]], ...]:
        """Each source's raw ``hooks`` object, strongest first (for the hooks engine).

        An untrusted project file's hooks are left out.
        """
        skipped = self.untrusted_files
        return tuple((s, s.hooks) for s in self.sources if s.hooks and s.label not in skipped)

    def value(self, key: str) -> Any:
        """A top-level key from the strongest source that sets it.

        The MCP server lists (``allowedMcpServers``, ``deniedMcpServers``) are joined
        across sources instead. An untrusted project file's approvals of MCP servers and
        its ``allowedMcpServers`` do not count, nor any key of it that does not only
        tighten (:func:`~hands.config.untrusted.tightens`).
        """
        untrusted = self.untrusted_files
        found = [
            source.data[key]
            for source in self.sources
            if key in source.data
            and (source.label not in untrusted or tightens(key, source.data[key]))
        ]
        if key not in SERVER_LIST_KEYS or len(found) < 2:
            return found[0] if found else None
        if not all(isinstance(v, list) for v in found):
            return next(v for v in found if not isinstance(v, list))  # bad: as the reader says
        return [entry for v in found for entry in cast(list[Any], v)]

    @property
    def env(self) -> dict[str, str]:
        """The ``env`` objects of every source, merged (the stronger file wins a name).

        Values are taken as written (``$HOME`` is not expanded, as in Claude Code). A
        project file of an untrusted workspace contributes nothing.
        """
        merged: dict[str, str] = {}
        for source in reversed(self.sources):
            if source.label not in self.untrusted_files:
                merged.update(_env_of(source))
        return merged

    @property
    def sandbox_layers(self) -> tuple[Mapping[str, Any], ...]:
        """Each source's ``sandbox`` object (as ``{"sandbox": ...}``), weakest first.

        An untrusted project file's object keeps only what tightens the sandbox; a
        sandbox only it turns on asks before each command.
        """
        trusted = [s for s in self.sources if s.label not in self.untrusted_files]
        auto_allow = any(
            isinstance(box := s.data.get("sandbox"), Mapping)
            and True in (box.get("enabled"), box.get(AUTO_ALLOW_KEY))
            for s in trusted
        )
        return tuple(
            s.data
            if s.label not in self.untrusted_files
            else {"sandbox": tightening_sandbox(s.data.get("sandbox"), auto_allow=auto_allow)}
            for s in reversed(self.sources)
        )

    def apply_env(self) -> dict[str, str]:
        """Put :attr:`env` into this process's environment; return what was set.

        The tools, hooks and MCP servers it starts inherit it, and limits read from the
        environment (``BASH_*``, ``MCP_*``, ``HANDS_*``) see it.
        """
        merged = self.env
        os.environ.update(merged)
        return merged

    def context(self, *, session: Session | None = None) -> ToolContext:
        """A tool context at the start directory with these settings' mode and directories."""
        from hands.core.context import ToolContext
        from hands.core.session import Session

        return ToolContext(
            cwd=self.cwd,
            session=session if session is not None else Session(),
            project_dir=self.cwd,
            additional_dirs=self.additional_directories,
            permission_mode=self.default_mode,
        )


def load_settings(
    cwd: Path | str,
    *,
    cli: CliPermissionArgs | None = None,
    env: Mapping[str, str] | None = None,
    trusted: bool | None = None,
) -> Settings:
    """Load and merge every settings source for a session started in ``cwd``.

    ``trusted``: whether the workspace is trusted; ``None`` looks it up in the trusted
    workspaces file (see :mod:`hands.config.trust`) and adds one warning naming what an
    untrusted workspace's files would have enabled; front ends decide it once with
    :func:`hands.config.project_trust.decide_trust`, whose notes say that instead.
    :class:`SettingsFileError` when a settings file cannot be used.
    """
    env = os.environ if env is None else env
    start = Path(os.path.normpath(Path(cwd).absolute()))
    home = _home(env)
    warnings: list[str] = []
    sources: list[SettingsSource] = []

    for path in _managed_paths(env):
        sources.extend(_file_source("managed", path, root=start, base=start, warnings=warnings))
    if cli is not None:  # the host's policy, beneath the machine's own
        managed = cli.managed_settings
        sources.extend(_given_source("managed", "--managed-settings", managed, start, warnings))
    if cli is not None:
        sources.extend(_cli_sources(cli, start, warnings))
    for local_dir in _local_dirs(start):
        for d in CONFIG_DIRS:
            sources.extend(
                _file_source(
                    "localSettings",
                    local_dir / d / "settings.local.json",
                    root=start,
                    base=start,
                    warnings=warnings,
                )
            )
    for d in CONFIG_DIRS:
        sources.extend(
            _file_source(
                "projectSettings",
                start / d / "settings.json",
                root=start,
                base=start,
                warnings=warnings,
            )
        )
    for user_dir in _user_dirs(home, env):
        sources.extend(
            _file_source(
                "userSettings",
                user_dir / "settings.json",
                root=user_dir,
                base=home,
                warnings=warnings,
            )
        )

    if cli is not None and cli.setting_sources is not None:
        keep = {SETTING_SOURCE_SCOPES.get(name) for name in cli.setting_sources}
        files = set(SETTING_SOURCE_SCOPES.values())
        sources = [s for s in sources if s.scope not in files or s.scope in keep]
    decided = trusted is not None  # the front end took the decision and says what it ignores
    if trusted is None:
        from hands.config.trust import is_trusted

        trusted = is_trusted(start, env)
    waiting = _untrusted_project(sources, start, trusted, [] if decided else warnings)
    plugins = tuple(cli.plugins) if cli is not None else ()
    if plugins and not trusted:
        named = ", ".join(f"{p.name} ({p.root})" for p in plugins)
        warnings.append(
            f"plugin {named} not loaded: the workspace is not trusted (trust it, or pass --trust)"
        )
        plugins = ()
    sources.extend(_plugin_source(p, start, warnings) for p in plugins if p.hooks())
    untrusted = tuple(u.label for u in waiting)
    managed_only = any(
        s.scope == "managed" and s.permissions.allowManagedPermissionRulesOnly for s in sources
    )
    texts: list[RuleText] = []
    for source in sources:
        if managed_only and source.scope != "managed":
            if source.permissions.allow or source.permissions.ask or source.permissions.deny:
                warnings.append(
                    f"{source.label}: permission rules ignored "
                    "(managed settings set allowManagedPermissionRulesOnly)"
                )
            continue
        origin = RuleOrigin(
            scope=source.scope, label=source.label, root=source.root, path=source.path
        )
        for behavior in BEHAVIORS:
            if behavior == "allow" and source.label in untrusted:
                continue
            items = cast(list[object], getattr(source.permissions, behavior))
            if source.label in CLI_LIST_FLAGS:
                items = _flatten_cli(items)
            texts.extend(RuleText(text=item, behavior=behavior, origin=origin) for item in items)

    mode, mode_source = _default_mode(
        [s for s in sources if not _loosening_mode(s) or s.label not in untrusted], cli, warnings
    )
    disable_bypass = any(s.permissions.disableBypassPermissionsMode == "disable" for s in sources)
    if mode == "bypassPermissions" and disable_bypass:
        warnings.append(
            f"{mode_source}: bypassPermissions is disabled by disableBypassPermissionsMode; "
            "using default"
        )
        mode = "default"
    dirs: list[Path] = []
    for source in sources:
        if source.label in untrusted:
            continue
        for raw in source.permissions.additionalDirectories:
            dirs.append(_directory(raw, source.base, home))
    if cli is not None:
        dirs.extend(_directory(str(d), start, home) for d in cli.add_dirs)
    for d in dirs:
        if not d.is_dir():
            warnings.append(f"additional directory {d} does not exist; it grants nothing yet")

    return Settings(
        cwd=start,
        home=home,
        sources=tuple(sources),
        rule_texts=tuple(texts),
        default_mode=mode,
        mode_source=mode_source,
        additional_directories=tuple(dict.fromkeys(dirs)),
        disable_bypass=disable_bypass,
        warnings=tuple(warnings),
        untrusted=waiting,
        trusted=trusted,
        plugins=plugins,
    )


def _plugin_source(plugin: Plugin, start: Path, warnings: list[str]) -> SettingsSource:
    """A plugin's hooks, as a source of their own."""
    label = f"plugin {plugin.name}"
    text = json.dumps({"hooks": plugin.hooks()})
    data, model = parse_settings_text(text, label=label, warnings=warnings)
    return SettingsSource(
        scope="cliArg", label=label, root=start, base=start, data=data, hooks=model.hooks
    )


def _env_of(source: SettingsSource) -> dict[str, str]:
    """A source's ``env`` object as strings (numbers and booleans written out)."""
    raw = source.data.get("env")
    if not isinstance(raw, Mapping):
        return {}
    out: dict[str, str] = {}
    for key, value in cast(Mapping[Any, Any], raw).items():
        if not isinstance(key, str):
            continue
        if isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif isinstance(value, str | int | float):
            out[key] = str(value)
    return out


def _loosening_mode(source: SettingsSource) -> bool:
    mode = source.permissions.defaultMode
    return mode is not None and MODE_ALIASES.get(mode, mode) in LOOSENING_MODES


PROJECT_SCOPES = frozenset({"projectSettings", "localSettings"})
"""Settings files the folder supplies: project input until the workspace is trusted."""


def _untrusted_project(
    sources: Sequence[SettingsSource],
    start: Path,
    trusted: bool,
    warnings: list[str],
) -> tuple[UntrustedFile, ...]:
    """What the project's files would run or loosen, when the workspace is not trusted.

    ``settings.local.json`` counts as project input too: a repository can commit one,
    and nothing but trust tells the user's own file from the repository's. Adds one
    warning naming them and saying how to trust the workspace.
    """
    if trusted:
        return ()
    gated = [
        parts
        for s in sources
        if s.scope in PROJECT_SCOPES
        and not (
            parts := untrusted_parts(
                s.label,
                s.data,
                allow=s.permissions.allow,
                directories=s.permissions.additionalDirectories,
                mode=s.permissions.defaultMode,
            )
        ).empty
    ]
    if not gated:
        return ()
    from hands.config.trust import how_to_trust, workspace_of

    workspace = workspace_of(start)
    every = combined(gated)
    warnings.append(
        f"{every.label}: ignoring {every.summary()} because this workspace ({workspace}) is "
        "not trusted; deny and ask rules still apply. Review the files, then run "
        f"`{how_to_trust(workspace)}` (or pass --trust) to trust it."
    )
    return tuple(gated)


def parse_settings_text(
    text: str, *, label: str, warnings: list[str]
) -> tuple[Mapping[str, Any], SettingsFile]:
    """Parse one settings document; :class:`SettingsFileError` when it cannot be used.

    Problems that cannot lose a deny or ask rule become warnings naming ``label``.
    """
    try:
        raw: object = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise SettingsFileError(
            label, f"not valid JSON: {exc.msg}", line=exc.lineno, column=exc.colno
        ) from None
    if not isinstance(raw, dict):
        raise SettingsFileError(label, "a settings file must hold a JSON object")
    data = cast(dict[str, Any], raw)
    return data, _lenient_file(data, label, warnings)


def add_local_allow_rules(project_dir: Path, rules: Iterable[str]) -> Path:
    """Append allow rules to ``.claude/settings.local.json`` ("allow always"); returns it.

    When this creates the file, its repository's ``.gitignore`` gets it too: the file
    holds the user's own approvals and must not be committed for others to run with.
    """
    from hands.config.gitignore import ignore_in_git

    path = project_dir / ".claude" / "settings.local.json"
    created = not path.exists()

    def change(data: dict[str, Any]) -> None:
        permissions = object_field(data, "permissions", path)
        entries = string_list(permissions, "allow", path, name="permissions.allow")
        for rule in rules:
            if rule not in entries:
                entries.append(rule)

    update_json_object(path, change)
    if created:
        ignore_in_git(path)
    return path


# -- helpers ------------------------------------------------------------------------------


def _home(env: Mapping[str, str]) -> Path:
    home = env.get("HOME") or env.get("USERPROFILE")
    return Path(home) if home else Path.home()


def _user_dirs(home: Path, env: Mapping[str, str]) -> list[Path]:
    hands_dir = given("HANDS_HOME", env)
    hands = Path(hands_dir).expanduser() if hands_dir else home / ".hands"
    claude_dir = env.get("CLAUDE_CONFIG_DIR")
    claude = Path(claude_dir).expanduser() if claude_dir else home / ".claude"
    return [hands, claude]


def _managed_paths(env: Mapping[str, str]) -> list[Path]:
    explicit = given("HANDS_MANAGED_SETTINGS", env)
    if explicit is not None:
        return [Path(explicit)] if explicit else []
    if sys.platform == "darwin":
        return [
            Path("/Library/Application Support/Hands/managed-settings.json"),
            Path("/Library/Application Support/ClaudeCode/managed-settings.json"),
        ]
    if os.name == "nt":
        return [Path(r"C:\Program Files\ClaudeCode\managed-settings.json")]
    return [
        Path("/etc/hands/managed-settings.json"),
        Path("/etc/claude-code/managed-settings.json"),
    ]


def _local_dirs(start: Path) -> list[Path]:
    """Where settings.local.json is read: the start directory, then the git root."""
    out = [start]
    for parent in (start, *start.parents):
        if (parent / ".git").exists():
            if parent != start:
                out.append(parent)
            break
    return out


def _file_source(
    scope: Scope, path: Path, *, root: Path, base: Path, warnings: list[str]
) -> list[SettingsSource]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, IsADirectoryError | NotADirectoryError):
            return []
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SettingsFileError(str(path), f"cannot be read ({reason})") from None
    data, model = parse_settings_text(text, label=str(path), warnings=warnings)
    return [
        SettingsSource(
            scope=scope,
            label=str(path),
            root=root,
            base=base,
            path=path,
            data=data,
            permissions=model.permissions,
            hooks=model.hooks,
        )
    ]


def _cli_sources(cli: CliPermissionArgs, start: Path, warnings: list[str]) -> list[SettingsSource]:
    out: list[SettingsSource] = []
    for flag, block in (
        ("--disallowedTools", PermissionsBlock(deny=list(cli.disallowed_tools))),
        ("--ask", PermissionsBlock(ask=list(cli.ask_tools))),
        ("--allowedTools", PermissionsBlock(allow=list(cli.allowed_tools))),
    ):
        if block.allow or block.ask or block.deny:
            out.append(
                SettingsSource(
                    scope="cliArg", label=flag, root=start, base=start, permissions=block
                )
            )
    out.extend(_given_source("cliArg", "--settings", cli.settings, start, warnings))
    return out


def _given_source(
    scope: Scope, flag: str, value: str | None, start: Path, warnings: list[str]
) -> list[SettingsSource]:
    """The settings a flag gives, as JSON or as the path of a file."""
    if value is None or not value.strip():
        return []
    if value.lstrip().startswith("{"):
        data, model = parse_settings_text(value, label=flag, warnings=warnings)
        source = SettingsSource(
            scope=scope,
            label=flag,
            root=start,
            base=start,
            path=None,
            data=data,
            permissions=model.permissions,
            hooks=model.hooks,
        )
        return [source]
    path = Path(value).expanduser()
    path = path if path.is_absolute() else start / path
    if not path.is_file():
        warnings.append(f"{flag} {value}: no such file; ignored")
    return _file_source(scope, path, root=start, base=start, warnings=warnings)


def _flatten_cli(items: list[object]) -> list[object]:
    out: list[object] = []
    for item in items:
        if isinstance(item, str):
            out.extend(split_rule_list(item))
        else:
            out.append(item)
    return out


def _default_mode(
    sources: Sequence[SettingsSource], cli: CliPermissionArgs | None, warnings: list[str]
) -> tuple[PermissionMode, str]:
    candidates: list[tuple[str, str]] = []
    for source in sources:
        if source.scope == "managed" and source.permissions.defaultMode:
            candidates.append((source.permissions.defaultMode, source.label))
    if cli is not None and cli.permission_mode:
        candidates.append((cli.permission_mode, "--permission-mode"))
    for source in sources:
        if source.scope != "managed" and source.permissions.defaultMode:
            candidates.append((source.permissions.defaultMode, source.label))
    for value, label in candidates:
        mode = MODE_ALIASES.get(value, value)
        if mode in PERMISSION_MODES:
            return mode, label
        warnings.append(
            f"{label}: defaultMode {value!r} is not supported (use one of "
            f"{', '.join(PERMISSION_MODES)}); ignored"
        )
    return "default", ""


def _directory(raw: str, base: Path, home: Path) -> Path:
    text = raw.strip()
    if text == "~" or text.startswith("~/"):
        text = str(home) + text[1:]
    path = Path(text)
    if not path.is_absolute():
        path = base / path
    return Path(os.path.normpath(path))


def _lenient_file(data: dict[str, Any], label: str, warnings: list[str]) -> SettingsFile:
    """Validate, dropping (with a warning) each field that has the wrong shape."""
    perms_raw = data.get("permissions", {})
    if not isinstance(perms_raw, dict):
        raise SettingsFileError(label, "'permissions' must be an object")
    perms = dict(cast(dict[str, Any], perms_raw))
    for key in ("ask", "deny"):
        if perms.get(key) is not None and not isinstance(perms.get(key), list):
            raise SettingsFileError(label, f"permissions.{key} must be a list of rules")
    for key in ("allow", "additionalDirectories"):
        value = perms.get(key)
        if value is not None and not isinstance(value, list):
            warnings.append(f"{label}: permissions.{key} must be a list; ignored")
            perms.pop(key)
    if "additionalDirectories" in perms:
        entries = cast(list[Any], perms["additionalDirectories"])
        good = [d for d in entries if isinstance(d, str) and d.strip()]
        if len(good) != len(entries):
            warnings.append(f"{label}: permissions.additionalDirectories entries must be paths")
        perms["additionalDirectories"] = good
    block = _validate_dropping(PermissionsBlock, perms, f"{label}: permissions", warnings)
    hooks_raw = data.get("hooks")
    hooks: dict[str, Any] | None = None
    if isinstance(hooks_raw, dict):
        hooks = cast(dict[str, Any], hooks_raw)
    elif hooks_raw is not None:
        warnings.append(f"{label}: 'hooks' must be an object; ignored")
    return SettingsFile(permissions=block, hooks=hooks)


def _validate_dropping(
    model: type[PermissionsBlock], data: dict[str, Any], label: str, warnings: list[str]
) -> PermissionsBlock:
    current = dict(data)
    for _ in range(len(current) + 1):
        try:
            return model.model_validate(current)
        except ValidationError as exc:
            bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
            if not bad:
                break
            for key in bad:
                warnings.append(f"{label}.{key} has the wrong type; ignored")
                current.pop(key, None)
    return model()
