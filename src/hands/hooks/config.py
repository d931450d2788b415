"""Hook configuration: the ``hooks`` object of every settings file, parsed once.

Shape (Claude Code's)::

    {"PreToolUse": [{"matcher": "Edit|Write",
                     "hooks": [{"type": "command", "command": "...", "timeout": 30,
                                "if": "Edit(src/**)"}]}]}

Matchers: ``*``, empty or missing match everything; a string made only of letters,
digits, ``_``, ``-``, spaces, ``,`` and ``|`` is one exact name or a list of them; anything
else is an unanchored regular expression (``Edit.*`` also matches ``NotebookEdit``).
Sources are read strongest first (managed, command line, local, project, user); a
handler defined identically in several files runs once. Problems become warnings that
name the file and never raise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from hands.permissions.names import CLAUDE_CODE_LEGACY

if TYPE_CHECKING:
    from hands.config.settings import Settings

HookEvent: TypeAlias = Literal[
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "Notification",
    "PreCompact",
    "PostCompact",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "MessageDisplay",
]
KNOWN_EVENTS: frozenset[str] = frozenset(HookEvent.__args__)  # type: ignore[attr-defined]
FIRED_EVENTS: frozenset[str] = frozenset(
    {
        "PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
        "PostToolBatch", "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop",
        "SessionStart", "SessionEnd", "Notification", "PreCompact", "Elicitation",
        "ElicitationResult", "WorktreeCreate", "WorktreeRemove",
    }
)  # fmt: skip
"""Events hands fires (the rest are accepted in settings and never fire)."""
TOOL_EVENTS: frozenset[str] = frozenset(
    {"PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure"}
)
"""Events whose matcher is a tool name and where a handler's ``if`` rule is checked."""
MATCHER_FIELDS: dict[str, str] = {
    **{event: "tool_name" for event in TOOL_EVENTS},
    "SessionStart": "source",
    "SessionEnd": "reason",
    "Notification": "notification_type",
    "PreCompact": "trigger",
    "PostCompact": "trigger",
    "SubagentStart": "agent_type",
    "SubagentStop": "agent_type",
    "Elicitation": "mcp_server_name",
    "ElicitationResult": "mcp_server_name",
}
"""Events that support a matcher, and the input field it is matched against."""

DEFAULT_TIMEOUT_S = 600.0
USER_PROMPT_TIMEOUT_S = 30.0
"""UserPromptSubmit lowers the default for command and HTTP hooks."""
SUPPORTED_TYPES = ("command", "http")
UNSUPPORTED_TYPES = ("prompt", "agent", "mcp_tool")

_SIMPLE_MATCHER = re.compile(r"[A-Za-z0-9_\-\s,|]+")

Matcher: TypeAlias = Callable[[str], bool]


def _match_all(value: str) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class NameList:
    """A matcher of plain names (``Edit|Write``): a tool matches by its name or an alias."""

    names: frozenset[str]

    def __call__(self, value: str) -> bool:
        """Whether ``value`` is one of the names."""
        return value in self.names


def compile_matcher(text: str | None) -> Matcher | str:
    """A predicate for ``text``, or a warning when it is a regex that does not compile."""
    raw = (text or "").strip()
    if raw in ("", "*"):
        return _match_all
    if _SIMPLE_MATCHER.fullmatch(raw):
        names: set[str] = set()
        for part in re.split(r"[|,]", raw):
            name = part.strip()
            if name:
                names.add(name)
                if name in CLAUDE_CODE_LEGACY:
                    names.add(CLAUDE_CODE_LEGACY[name])
        return NameList(frozenset(names))
    try:
        pattern = re.compile(raw)
    except re.error as exc:
        return f"matcher {raw!r} is not a valid regular expression ({exc})"
    return lambda value: pattern.search(value) is not None


@dataclass(frozen=True, kw_only=True, slots=True)
class HookHandler:
    """One handler: a shell command, an HTTP endpoint, or a Python callback."""

    type: Literal["command", "http", "callback"]
    command: str = ""
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    allowed_env_vars: tuple[str, ...] = ()
    timeout_s: float | None = None
    """``None``: the event's default (600 s; 30 s for UserPromptSubmit)."""
    if_rule: str | None = None
    run_async: bool = False
    status_message: str = ""
    source: str = ""
    """The settings file (or ``code``) that defined it, for notices."""
    callback: Any = None
    """For ``callback`` handlers: the Python function (see :mod:`hands.hooks.callbacks`)."""

    @property
    def key(self) -> tuple[object, ...]:
        """What makes two handlers identical (the file they came from does not count)."""
        if self.type == "callback":
            return ("callback", id(self.callback), self.if_rule)
        return (
            self.type,
            self.command,
            self.url,
            self.headers,
            self.if_rule,
            self.timeout_s,
            self.run_async,
        )

    def timeout_for(self, event: str) -> float:
        """Seconds this handler may run for ``event``."""
        if self.timeout_s is not None:
            return self.timeout_s
        return USER_PROMPT_TIMEOUT_S if event == "UserPromptSubmit" else DEFAULT_TIMEOUT_S

    @property
    def label(self) -> str:
        """A short name for messages."""
        if self.type == "command":
            text = self.command if len(self.command) <= 60 else self.command[:59] + "…"
            return f"command hook `{text}`"
        if self.type == "http":
            return f"HTTP hook {self.url}"
        name = getattr(self.callback, "__qualname__", None) or repr(self.callback)
        return f"Python hook {name}"


@dataclass(frozen=True, kw_only=True, slots=True)
class MatcherGroup:
    """``{matcher, hooks}``: the handlers that run when ``matcher`` matches."""

    matcher: str
    matches: Matcher
    handlers: tuple[HookHandler, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class HookConfig:
    """Every event's matcher groups, strongest source first, plus the load warnings."""

    groups: Mapping[str, tuple[MatcherGroup, ...]] = field(
        default_factory=lambda: dict[str, tuple[MatcherGroup, ...]]()
    )
    warnings: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return any(self.groups.values())

    def has(self, event: str) -> bool:
        """Whether any handler is configured for ``event`` (the cheap test before work)."""
        return bool(self.groups.get(event))

    def handlers_for(
        self, event: str, target: str | None, *, aliases: tuple[str, ...] = ()
    ) -> list[HookHandler]:
        """The handlers whose group matches ``target``, de-duplicated, in order.

        ``target`` is the tool name, session source, notification type, ...; ``None``
        for events without matcher support (every group matches). ``aliases``: the
        tool's legacy names, which a matcher of plain names also matches.
        """
        out: list[HookHandler] = []
        seen: set[tuple[object, ...]] = set()
        for group in self.groups.get(event, ()):
            if target is not None and not group.matches(target):
                found = group.matches
                if not (isinstance(found, NameList) and not found.names.isdisjoint(aliases)):
                    continue
            for handler in group.handlers:
                key = handler.key
                if key not in seen:
                    seen.add(key)
                    out.append(handler)
        return out

    def merged(self, other: HookConfig) -> HookConfig:
        """The configuration followed by ``other`` (e.g. settings, then code callbacks)."""
        groups = {k: tuple(v) for k, v in self.groups.items()}
        for event, extra in other.groups.items():
            groups[event] = (*groups.get(event, ()), *extra)
        return HookConfig(groups=groups, warnings=(*self.warnings, *other.warnings))


def parse_hooks(
    sources: Iterable[tuple[str, Mapping[str, Any]]],
) -> HookConfig:
    """Parse ``(label, hooks object)`` pairs, strongest first, into one configuration."""
    warnings: list[str] = []
    groups: dict[str, list[MatcherGroup]] = {}
    for label, block in sources:
        for event, raw_groups in block.items():
            if event not in KNOWN_EVENTS:
                warnings.append(
                    f"{label}: hooks.{event} is not a hook event (events: "
                    "PreToolUse, PostToolUse, Stop, SessionStart, ...); ignored"
                )
                continue
            if not isinstance(raw_groups, list):
                warnings.append(f"{label}: hooks.{event} must be a list of matcher groups")
                continue
            for i, raw in enumerate(cast(list[Any], raw_groups)):
                where = f"{label}: hooks.{event}[{i}]"
                group = _parse_group(event, raw, where, label, warnings)
                if group is not None:
                    groups.setdefault(event, []).append(group)
    return HookConfig(groups={k: tuple(v) for k, v in groups.items()}, warnings=tuple(warnings))


def config_from_settings(settings: Settings) -> HookConfig:
    """The hooks of every settings source.

    ``disableAllHooks`` turns them all off; ``allowManagedHooksOnly`` in managed
    settings keeps only the managed ones.
    """
    pairs: list[tuple[str, Mapping[str, Any]]] = []
    managed_only = any(
        s.scope == "managed" and s.data.get("allowManagedHooksOnly") is True
        for s in settings.sources
    )
    if settings.value("disableAllHooks") is True:
        return HookConfig()
    for source, block in settings.hooks:
        if managed_only and source.scope != "managed":
            continue
        pairs.append((source.label, block))
    config = parse_hooks(pairs)
    if managed_only:
        skipped = [s.label for s, _ in settings.hooks if s.scope != "managed"]
        if skipped:
            note = "hooks ignored (managed settings set allowManagedHooksOnly)"
            config = HookConfig(
                groups=config.groups,
                warnings=(*config.warnings, *(f"{label}: {note}" for label in skipped)),
            )
    return config


def _parse_group(
    event: str, raw: object, where: str, label: str, warnings: list[str]
) -> MatcherGroup | None:
    if not isinstance(raw, dict):
        warnings.append(f"{where}: a matcher group must be an object {{matcher, hooks}}")
        return None
    data = cast(dict[str, Any], raw)
    if "hooks" not in data:
        legacy = [k for k in ("hook", "hookPath", "command") if k in data]
        hint = f" (found {', '.join(legacy)}, an old or unknown form)" if legacy else ""
        warnings.append(
            f"{where}: no 'hooks' list{hint}; write "
            '{"matcher": ..., "hooks": [{"type": "command", "command": ...}]}; ignored'
        )
        return None
    raw_matcher = data.get("matcher")
    matcher = raw_matcher if isinstance(raw_matcher, str) else ""
    if raw_matcher is not None and not isinstance(raw_matcher, str):
        warnings.append(f"{where}: matcher must be a string; matching everything")
    if event not in MATCHER_FIELDS:
        matcher = ""  # events without matcher support ignore it
    compiled = compile_matcher(matcher)
    if isinstance(compiled, str):
        warnings.append(f"{where}: {compiled}; the group never matches")
        compiled = _never
    raw_handlers = data["hooks"]
    if not isinstance(raw_handlers, list):
        warnings.append(f"{where}: 'hooks' must be a list of handlers; ignored")
        return None
    handlers: list[HookHandler] = []
    for j, item in enumerate(cast(list[Any], raw_handlers)):
        handler = _parse_handler(item, f"{where}.hooks[{j}]", label, warnings)
        if handler is not None:
            handlers.append(handler)
    if not handlers:
        return None
    return MatcherGroup(matcher=matcher, matches=compiled, handlers=tuple(handlers))


def _never(value: str) -> bool:
    return False


def _parse_handler(raw: object, where: str, label: str, warnings: list[str]) -> HookHandler | None:
    if not isinstance(raw, dict):
        warnings.append(f"{where}: a handler must be an object with a type; ignored")
        return None
    data = cast(dict[str, Any], raw)
    kind = data.get("type")
    if kind in UNSUPPORTED_TYPES:
        warnings.append(
            f"{where}: {kind} hooks are not supported; ignored (use a command or http hook)"
        )
        return None
    if kind not in SUPPORTED_TYPES:
        warnings.append(f"{where}: type must be 'command' or 'http' (got {kind!r}); ignored")
        return None
    timeout = _timeout(data.get("timeout"), where, warnings)
    if_rule = data.get("if")
    if if_rule is not None and (not isinstance(if_rule, str) or not if_rule.strip()):
        warnings.append(f"{where}: 'if' must be one permission rule such as Bash(git *)")
        if_rule = None
    common: dict[str, Any] = {
        "timeout_s": timeout,
        "if_rule": if_rule.strip() if isinstance(if_rule, str) else None,
        "run_async": data.get("async") is True,
        "status_message": str(data.get("statusMessage") or ""),
        "source": label,
    }
    if kind == "command":
        command = data.get("command")
        if not isinstance(command, str) or not command.strip():
            warnings.append(f"{where}: a command hook needs a non-empty 'command'; ignored")
            return None
        return HookHandler(type="command", command=command, **common)
    url = data.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        warnings.append(f"{where}: an http hook needs an http(s) 'url'; ignored")
        return None
    headers = _str_pairs(data.get("headers"))
    allowed = data.get("allowedEnvVars")
    allowed_vars = (
        tuple(str(v) for v in cast(list[Any], allowed)) if isinstance(allowed, list) else ()
    )
    return HookHandler(
        type="http", url=url, headers=headers, allowed_env_vars=allowed_vars, **common
    )


def _timeout(raw: object, where: str, warnings: list[str]) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw <= 0:
        warnings.append(f"{where}: timeout must be a positive number of seconds; using 600")
        return None
    return float(raw)


def _str_pairs(raw: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, dict):
        return ()
    return tuple((str(k), str(v)) for k, v in cast(dict[Any, Any], raw).items())
