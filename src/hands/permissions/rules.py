"""Permission rules: ``Tool`` or ``Tool(specifier)``, parsed once into typed values.

The specifier means something different per tool: a command pattern for Bash, a
gitignore-style path for Read/Edit and their families, ``domain:host`` for WebFetch, an
agent type for Agent, a skill name for Skill, and ``param:value`` for any other tool
(deny and ask rules only). A rule that cannot be parsed becomes a :class:`RuleWarning`
naming the rule and the file it came from; it never raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeAlias

from hands.permissions.bash import CommandPattern, compile_command_pattern
from hands.permissions.paths import PathPattern, compile_path_pattern

RuleBehavior: TypeAlias = Literal["allow", "ask", "deny"]
RuleKind: TypeAlias = Literal["tool", "command", "path", "domain", "name", "param"]
Scope: TypeAlias = Literal[
    "managed", "cliArg", "localSettings", "projectSettings", "userSettings", "session"
]
BEHAVIORS: tuple[RuleBehavior, ...] = ("deny", "ask", "allow")

READ_FAMILY = frozenset({"Read", "Grep", "Glob", "LSP"})
"""Tools a ``Read(...)`` rule governs."""
EDIT_FAMILY = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
"""Tools an ``Edit(...)`` rule governs."""
COMMAND_TOOLS = frozenset({"Bash", "Monitor", "PowerShell"})
NAME_FIELDS: dict[str, str] = {"Agent": "subagent_type", "Skill": "skill"}
PRIMARY_FIELDS: dict[str, str] = {
    "Bash": "command",
    "Monitor": "command",
    "PowerShell": "command",
    "Read": "file_path",
    "Edit": "file_path",
    "Write": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "Grep": "path",
    "Glob": "path",
    "LSP": "file_path",
    "WebFetch": "url",
}
"""The field a tool's specifier is about; it cannot be used in a ``param:value`` rule."""

LEGACY_NAMES: dict[str, str] = {
    "Task": "Agent",
    "SlashCommand": "Skill",
    "View": "Read",
    "LSTool": "LS",
    "KillShell": "TaskStop",
    "KillBash": "TaskStop",
    "BashOutput": "TaskOutput",
    "AgentOutputTool": "TaskOutput",
    "NotebookRead": "Read",
}
KNOWN_TOOLS = frozenset(
    {
        "Agent", "Artifact", "AskUserQuestion", "Bash", "CronCreate", "CronDelete",
        "CronList", "Edit", "EndConversation", "EnterPlanMode", "EnterWorktree",
        "ExitPlanMode", "ExitWorktree", "Glob", "Grep", "ListAgents",
        "ListMcpResourcesTool", "LSP", "Monitor", "NotebookEdit", "PowerShell",
        "PushNotification", "Read", "ReadMcpResourceTool", "RemoteTrigger",
        "ReportFindings", "ScheduleWakeup", "SendMessage", "SendUserFile",
        "ShareOnboardingGuide", "Skill", "TaskCreate", "TaskGet", "TaskList", "TaskOutput",
        "TaskStop", "TaskUpdate", "TodoWrite", "ToolSearch", "WaitForMcpServers", "WebFetch",
        "WebSearch", "Workflow", "Write", "MultiEdit", "LS", "TodoRead",
    }
)  # fmt: skip
"""Claude Code's tool names (current and legacy); others in deny/ask rules get a warning."""

_NAME_RE = re.compile(r"[A-Za-z0-9_.*\-]+")
_PARAM_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(.*)", re.DOTALL)
_MCP_ALLOW_GLOB = re.compile(r"mcp__[^*_][^*]*?__.*")


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleOrigin:
    """Where a rule came from: its scope, its file, and the root ``/pattern`` is under."""

    scope: Scope
    label: str
    """The settings file path, or the flag (``--allowedTools``) or ``session``."""
    root: Path
    """The directory a ``/path`` rule is relative to."""
    path: Path | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class DomainPattern:
    """``domain:host`` of a WebFetch rule."""

    text: str
    any: bool
    exact: str = ""
    suffix: str = ""
    regex: re.Pattern[str] | None = None

    def matches(self, host: str) -> bool:
        """Whether the (lower-case, dot-trimmed) ``host`` is covered."""
        if self.any:
            return True
        if self.suffix:
            return host.endswith(self.suffix)
        if self.regex is not None:
            return self.regex.fullmatch(host) is not None
        return host == self.exact


@dataclass(frozen=True, kw_only=True, slots=True)
class NamePattern:
    """An agent type or skill name, with ``*`` and the legacy ``:*`` suffix."""

    text: str
    regex: re.Pattern[str]

    def matches(self, value: str) -> bool:
        """Whether ``value`` is covered."""
        return self.regex.fullmatch(value) is not None


@dataclass(frozen=True, kw_only=True, slots=True)
class ParamPattern:
    """``param:value``: one top-level scalar input field, with ``*`` wildcards."""

    text: str
    field: str
    regex: re.Pattern[str]

    def matches(self, data: dict[str, object]) -> bool:
        """Whether the field is present and its literal value matches."""
        if self.field not in data:
            return False
        value = data[self.field]
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, str | int | float):
            text = str(value)
        else:
            return False
        return self.regex.fullmatch(text) is not None


Matcher: TypeAlias = "CommandPattern | PathPattern | DomainPattern | NamePattern | ParamPattern"


@dataclass(frozen=True, kw_only=True, slots=True)
class PermissionRule:
    """One parsed rule."""

    text: str
    behavior: RuleBehavior
    tool: str
    """The canonical tool name, or a tool-name glob (``mcp__*``, ``*``)."""
    kind: RuleKind
    origin: RuleOrigin
    specifier: str | None = None
    matcher: Matcher | None = None
    name_regex: re.Pattern[str] | None = None
    """Set when ``tool`` is a glob."""

    @property
    def bare(self) -> bool:
        """Whether the rule covers every call of its tool(s)."""
        return self.kind == "tool"

    @property
    def source(self) -> str:
        """Where the rule is written, for messages."""
        return self.origin.label

    def describe(self) -> str:
        """``Bash(rm:*)`` from ``/p/.claude/settings.json``."""
        return f"{self.text} (from {self.origin.label})"

    def applies_to(self, tool_name: str) -> bool:
        """Whether this rule is about calls of the tool named ``tool_name``."""
        if self.name_regex is not None:
            return self.name_regex.fullmatch(tool_name) is not None
        if self.tool == tool_name:
            return True
        if self.tool == "Read" and tool_name in READ_FAMILY:
            return True
        if self.tool == "Edit" and tool_name in EDIT_FAMILY:
            return True
        if self.tool.startswith("mcp__") and self.tool.count("__") == 1:
            return tool_name.startswith(self.tool + "__")  # ``mcp__server``: the whole server
        return False


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleWarning:
    """A rule that was ignored or may not do what its author meant."""

    rule: str
    source: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}: permission rule {self.rule!r}: {self.message}"


def canonical_tool_name(name: str) -> str:
    """The current name for a legacy tool name (``Task`` → ``Agent``)."""
    return LEGACY_NAMES.get(name, name)


def split_rule_list(text: str) -> list[str]:
    """Split a command-line rule list on commas and spaces outside parentheses."""
    out: list[str] = []
    depth = 0
    current: list[str] = []
    escaped = False
    for ch in text:
        if escaped:
            current.append(ch)
            escaped = False
            continue
        if ch == "\\":
            escaped = True
            current.append(ch)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
        if depth == 0 and (ch == "," or ch.isspace()):
            if current:
                out.append("".join(current))
                current = []
            continue
        current.append(ch)
    if current:
        out.append("".join(current))
    return out


def parse_rule(
    text: str, behavior: RuleBehavior, origin: RuleOrigin
) -> PermissionRule | RuleWarning:
    """Parse one rule; a problem is returned as a warning, never raised."""

    def warn(message: str) -> RuleWarning:
        return RuleWarning(rule=text, source=origin.label, message=message)

    raw = text.strip()
    if not raw:
        return warn("empty rule; write Tool or Tool(specifier)")
    specifier: str | None = None
    if "(" in raw or ")" in raw:
        open_at = raw.find("(")
        if open_at <= 0 or not raw.endswith(")"):
            return warn("unbalanced parentheses; write Tool(specifier)")
        name = raw[:open_at].strip()
        body = raw[open_at + 1 : -1]
        if not _balanced(body):
            return warn("unbalanced parentheses in the specifier; escape literal ones as \\( \\)")
        specifier = body.replace("\\(", "(").replace("\\)", ")")
    else:
        name = raw
    if not _NAME_RE.fullmatch(name):
        return warn(
            "not a permission rule: a rule starts with a tool name, e.g. "
            f"Bash({raw}) for a shell command"
        )
    name = canonical_tool_name(name)
    name_regex: re.Pattern[str] | None = None
    if "*" in name:
        if behavior == "allow" and not _MCP_ALLOW_GLOB.fullmatch(name):
            return warn(
                "tool-name wildcards are only allowed in deny and ask rules, or after an "
                "mcp__<server>__ prefix; the rule is ignored"
            )
        name_regex = re.compile(".*".join(re.escape(p) for p in name.split("*")), re.DOTALL)

    def rule(kind: RuleKind, matcher: Matcher | None = None) -> PermissionRule:
        return PermissionRule(
            text=raw,
            behavior=behavior,
            tool=name,
            kind=kind,
            origin=origin,
            specifier=specifier,
            matcher=matcher,
            name_regex=name_regex,
        )

    if specifier is None:
        return rule("tool")
    stripped = specifier.strip()
    if not stripped or (stripped == "*" and name not in _PATH_TOOLS):
        return rule("tool")
    if name_regex is not None:
        param = _param(specifier)
        if param is None or behavior == "allow":
            return warn("a tool-name wildcard takes no specifier other than param:value")
        return rule("param", param)
    if name in COMMAND_TOOLS:
        return rule("command", compile_command_pattern(specifier, ignore_case=name == "PowerShell"))
    if name in _PATH_TOOLS:
        pattern = compile_path_pattern(specifier)
        if isinstance(pattern, str):
            return warn(pattern)
        return rule("path", pattern)
    if name == "WebFetch":
        domain = _domain(specifier)
        if domain is None:
            return warn("WebFetch rules take domain:HOST, e.g. WebFetch(domain:example.com)")
        return rule("domain", domain)
    if name in NAME_FIELDS:
        return rule("name", _name_pattern(specifier, strip_slash=name == "Skill"))
    param = _param(specifier)
    if param is None:
        return warn(f"{name} takes no specifier except param:value in deny and ask rules")
    if param.field == PRIMARY_FIELDS.get(name):
        return warn(f"{param.field} is {name}'s primary field and cannot be used as param:value")
    if behavior == "allow":
        return warn("param:value rules are only honoured in deny and ask lists; ignored")
    return rule("param", param)


def check_known_tool(rule: PermissionRule, known: Iterable[str] = ()) -> RuleWarning | None:
    """A warning when a deny/ask rule names a tool nobody has heard of."""
    if rule.behavior == "allow" or rule.name_regex is not None or rule.tool.startswith("mcp__"):
        return None
    if rule.tool in KNOWN_TOOLS or rule.tool in set(known):
        return None
    return RuleWarning(
        rule=rule.text,
        source=rule.origin.label,
        message=f"unknown tool {rule.tool!r}; the rule only takes effect if such a tool exists",
    )


def parse_rules(
    texts: Iterable[object], behavior: RuleBehavior, origin: RuleOrigin
) -> tuple[list[PermissionRule], list[RuleWarning]]:
    """Parse a list from a settings file; non-strings become warnings."""
    rules: list[PermissionRule] = []
    warnings: list[RuleWarning] = []
    for item in texts:
        if not isinstance(item, str):
            warnings.append(
                RuleWarning(rule=repr(item), source=origin.label, message="a rule must be a string")
            )
            continue
        parsed = parse_rule(item, behavior, origin)
        if isinstance(parsed, RuleWarning):
            warnings.append(parsed)
            continue
        rules.append(parsed)
        unknown = check_known_tool(parsed)
        if unknown is not None:
            warnings.append(unknown)
    return rules, warnings


_PATH_TOOLS = READ_FAMILY | EDIT_FAMILY


def _balanced(body: str) -> bool:
    depth = 0
    quote: str | None = None
    i = 0
    plain = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            i += 2
            continue
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return False
        if ch == "(":
            plain += 1
        elif ch == ")":
            plain -= 1
        i += 1
    if quote is not None:  # an unbalanced quote: fall back to counting every paren
        return plain == 0
    return depth == 0


def _domain(specifier: str) -> DomainPattern | None:
    spec = specifier.strip()
    if not spec.lower().startswith("domain:"):
        return None
    host = spec[len("domain:") :].strip().lower().rstrip(".")
    if not host:
        return None
    if host == "*":
        return DomainPattern(text=spec, any=True)
    if host.startswith("*.") and "*" not in host[2:]:
        return DomainPattern(text=spec, any=False, suffix=host[1:])
    if "*" in host:
        parts = (re.escape(p) for p in host.split("*"))
        return DomainPattern(text=spec, any=False, regex=re.compile("[^.]*".join(parts)))
    return DomainPattern(text=spec, any=False, exact=host)


def _name_pattern(specifier: str, *, strip_slash: bool) -> NamePattern:
    spec = specifier.strip()
    if strip_slash:
        spec = spec.lstrip("/")
    suffix = ""
    if spec.endswith(":*"):
        spec = spec[:-2]
        suffix = "(?::.*)?"
    body = ".*".join(re.escape(p) for p in spec.split("*"))
    return NamePattern(text=specifier, regex=re.compile(body + suffix, re.DOTALL))


def _param(specifier: str) -> ParamPattern | None:
    found = _PARAM_RE.fullmatch(specifier.strip())
    if found is None:
        return None
    field, value = found.group(1), found.group(2)
    regex = re.compile(".*".join(re.escape(p) for p in value.split("*")), re.DOTALL)
    return ParamPattern(text=specifier, field=field, regex=regex)


def iter_applicable(rules: Iterable[PermissionRule], tool_name: str) -> Iterator[PermissionRule]:
    """The rules about calls of ``tool_name``."""
    return (r for r in rules if r.applies_to(tool_name))
