"""Permission rules: ``Tool`` or ``Tool(specifier)``, parsed once into typed values.

The specifier means what the named tool's declared subject (:mod:`hands.core.subject`)
says: a command pattern for a tool that runs commands, a gitignore-style path for one
that reads or writes paths (and for the ``Read``/``Edit`` families), ``domain:host`` for
one that fetches URLs, a name pattern for one that names an agent or skill, and
``param:value`` for any other tool (deny and ask rules only). A rule about a tool whose
declaration is not known yet is kept *pending* and read by the declaration of the tool
it is matched against. A rule that cannot be parsed becomes a :class:`RuleWarning`
naming the rule and the file it came from; it never raises.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, Protocol, TypeAlias, runtime_checkable

from hands.config.rule_texts import BEHAVIORS as BEHAVIORS
from hands.config.rule_texts import RuleBehavior as RuleBehavior
from hands.config.rule_texts import RuleOrigin as RuleOrigin
from hands.config.rule_texts import Scope as Scope
from hands.config.rule_texts import split_rule_list as split_rule_list
from hands.core.subject import EDIT_RULES, READ_RULES, RuleSubject, reads_path, writes_path
from hands.permissions.names import CLAUDE_CODE_LEGACY, CLAUDE_CODE_SUBJECTS
from hands.permissions.paths import PathPattern, compile_path_pattern

if TYPE_CHECKING:  # the command grammar is loaded with the first command rule
    from hands.permissions.bash import CommandPattern

RuleKind: TypeAlias = Literal["tool", "command", "path", "domain", "name", "param", "pending"]
Grammar: TypeAlias = Mapping[str, "RuleSubject | None"]
"""Tool name → its declared subject (None: rules name the tool only)."""


@runtime_checkable
class NamedGrammar(Protocol):
    """A grammar that also knows which name an alias stands for (``View`` → ``Read``)."""

    def canonical(self, name: str) -> str:
        """The tool's own name for ``name``, one of its names or aliases."""
        ...


_FAMILIES: Final[dict[str, RuleSubject]] = {READ_RULES: reads_path(), EDIT_RULES: writes_path()}

_NAME_RE = re.compile(r"[A-Za-z0-9_.*\-]+")
_PARAM_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(.*)", re.DOTALL)
_MCP_ALLOW_GLOB = re.compile(r"mcp__[^*_][^*]*?__.*")


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
    """An agent type or skill name, with ``*``, the legacy ``:*`` suffix and arguments.

    ``name *`` (like ``name:*``) covers the name alone and with any arguments; a pattern
    with a space is matched against ``name args`` too.
    """

    text: str
    regex: re.Pattern[str]

    def matches(self, value: str, args: str = "") -> bool:
        """Whether ``value`` (called with ``args``) is covered."""
        if self.regex.fullmatch(value) is not None:
            return True
        return bool(args) and self.regex.fullmatch(f"{value} {args}") is not None


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

    def applies_to(
        self, tool_name: str, *, aliases: tuple[str, ...] = (), family: str = ""
    ) -> bool:
        """Whether this rule is about calls of the tool named ``tool_name``.

        ``aliases`` are the tool's other (legacy) names; ``family`` the rule family its
        subject belongs to (``Read`` for a tool that reads a path, ``Edit`` for one that
        writes one).
        """
        if self.name_regex is not None:
            return self.name_regex.fullmatch(tool_name) is not None
        tool = self.tool
        if tool == tool_name or (family and tool == family) or tool in aliases:
            return True
        if tool.startswith("mcp__") and tool.count("__") == 1:
            return tool_name.startswith(self.tool + "__")  # ``mcp__server``: the whole server
        return False


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleWarning:
    """A rule that was ignored or may not do what its author meant."""

    rule: str
    source: str
    message: str
    behavior: str = ""
    """``allow``, ``ask`` or ``deny`` (empty when not known)."""
    dropped: bool = True
    """The rule is not in force (a warning about a rule that holds says ``False``)."""

    def __str__(self) -> str:
        return f"{self.source}: permission rule {self.rule!r}: {self.message}"


def canonical_tool_name(name: str) -> str:
    """The current name for a legacy name of a tool hands does not ship (``Task`` → ``Agent``).

    Shipped tools declare their legacy names as aliases; rules match them there.
    """
    return CLAUDE_CODE_LEGACY.get(name, name)


class _Pending:
    """The declaration of a tool not known when a rule is parsed."""


_PENDING: Final = _Pending()


def _subject_for(name: str, grammar: Grammar | None) -> RuleSubject | _Pending | None:
    family = _FAMILIES.get(name)
    if family is not None:
        return family
    if grammar is not None and name in grammar:
        return grammar[name]
    if name in CLAUDE_CODE_SUBJECTS:
        return CLAUDE_CODE_SUBJECTS[name]
    return _PENDING if grammar is None else None


def parse_rule(
    text: str, behavior: RuleBehavior, origin: RuleOrigin, *, grammar: Grammar | None = None
) -> PermissionRule | RuleWarning:
    """Parse one rule; a problem is returned as a warning, never raised.

    ``grammar`` gives the declared subjects of the tools known by name; without it, a
    rule about a tool that is neither a rule family nor one of Claude Code's other tools
    stays pending until it meets the tool.
    """

    def warn(message: str) -> RuleWarning:
        return RuleWarning(rule=text, source=origin.label, message=message, behavior=behavior)

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
    if isinstance(grammar, NamedGrammar):
        # a legacy name is the tool itself: ``View(...)`` is a ``Read(...)`` rule, which
        # covers every tool of the read family, not only the one the alias is on
        name = grammar.canonical(name)
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
    declared = _subject_for(name, None if name_regex is not None else grammar)
    stripped = specifier.strip()
    path_like = isinstance(declared, _Pending) or (
        declared is not None and declared.kind in ("read", "write")
    )
    if not stripped or (stripped == "*" and not path_like):
        return rule("tool")
    if name_regex is not None:
        param = _param(specifier)
        if param is None or behavior == "allow":
            return warn("a tool-name wildcard takes no specifier other than param:value")
        return rule("param", param)
    if isinstance(declared, _Pending):
        return rule("pending")
    if declared is None:
        param = _param(specifier)
        if param is None:
            return warn(f"{name} takes no specifier except param:value in deny and ask rules")
        if behavior == "allow":
            return warn("param:value rules are only honoured in deny and ask lists; ignored")
        return rule("param", param)
    kind = declared.kind
    if kind == "command":
        from hands.permissions.bash import compile_command_pattern

        return rule("command", compile_command_pattern(specifier, ignore_case=declared.ignore_case))
    if kind == "read" or kind == "write":
        pattern = compile_path_pattern(specifier)
        if isinstance(pattern, str):
            return warn(pattern)
        return rule("path", pattern)
    if kind == "domain":
        domain = _domain(specifier)
        if domain is None:
            return warn(f"{name} rules take domain:HOST, e.g. {name}(domain:example.com)")
        return rule("domain", domain)
    return rule("name", _name_pattern(specifier, strip_slash=declared.strip_slash))


def resolve_pending(
    rule: PermissionRule, declared: RuleSubject | None
) -> PermissionRule | RuleWarning:
    """A pending rule read by the declaration of the tool it is about."""
    return parse_rule(rule.text, rule.behavior, rule.origin, grammar={rule.tool: declared})


def check_known_tool(rule: PermissionRule, known: Container[str] = ()) -> RuleWarning | None:
    """A warning when a deny/ask rule names a tool nobody has heard of.

    ``known``: the names (and aliases) of the tools in use, besides Claude Code's others.
    """
    if rule.behavior == "allow" or rule.name_regex is not None or rule.tool.startswith("mcp__"):
        return None
    if rule.tool in _FAMILIES or rule.tool in CLAUDE_CODE_SUBJECTS or rule.tool in known:
        return None
    return RuleWarning(
        rule=rule.text,
        source=rule.origin.label,
        message=f"unknown tool {rule.tool!r}; the rule only takes effect if such a tool exists",
        behavior=rule.behavior,
        dropped=False,
    )


def parse_rules(
    texts: Iterable[object],
    behavior: RuleBehavior,
    origin: RuleOrigin,
    *,
    grammar: Grammar | None = None,
) -> tuple[list[PermissionRule], list[RuleWarning]]:
    """Parse a list from a settings file; non-strings become warnings.

    With a ``grammar`` (the tools in use), a deny or ask rule about a tool in neither it
    nor Claude Code's list is reported as unknown.
    """
    rules: list[PermissionRule] = []
    warnings: list[RuleWarning] = []
    for item in texts:
        if not isinstance(item, str):
            warnings.append(
                RuleWarning(
                    rule=repr(item),
                    source=origin.label,
                    message="a rule must be a string",
                    behavior=behavior,
                )
            )
            continue
        parsed = parse_rule(item, behavior, origin, grammar=grammar)
        if isinstance(parsed, RuleWarning):
            warnings.append(parsed)
            continue
        rules.append(parsed)
        unknown = None if grammar is None else check_known_tool(parsed, grammar)
        if unknown is not None:
            warnings.append(unknown)
    return rules, warnings


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
    host = _ascii_pattern(spec[len("domain:") :])
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


def _ascii_pattern(text: str) -> str:
    """A host pattern in the spelling hosts are compared in (see :func:`ascii_host`)."""
    from hands.net.hosts import ascii_host  # its IDNA tables load only for a domain rule

    text = text.strip().lower().rstrip(".")
    if "*" not in text:
        return ascii_host(text) or text
    labels = text.split(".")
    return ".".join(x if "*" in x or not x else ascii_host(x, whole=False) or x for x in labels)


def _name_pattern(specifier: str, *, strip_slash: bool) -> NamePattern:
    spec = specifier.strip()
    if strip_slash:
        spec = spec.lstrip("/")
    suffix = ""
    if spec.endswith(":*"):
        spec = spec[:-2]
        suffix = "(?::.*)?"
    elif spec.endswith(" *"):
        spec = spec[:-2].rstrip()
        suffix = "(?: .*)?"
    body = ".*".join(re.escape(p) for p in spec.split("*"))
    return NamePattern(text=specifier, regex=re.compile(body + suffix, re.DOTALL))


def _param(specifier: str) -> ParamPattern | None:
    found = _PARAM_RE.fullmatch(specifier.strip())
    if found is None:
        return None
    field, value = found.group(1), found.group(2)
    regex = re.compile(".*".join(re.escape(p) for p in value.split("*")), re.DOTALL)
    return ParamPattern(text=specifier, field=field, regex=regex)
