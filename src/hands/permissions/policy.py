"""The permission policy a session's settings describe: their rule texts parsed, the engine.

Settings keep each rule as written with its origin; here they are parsed, by the subjects
the tools in use declare (a ``grammar``: tool name → declared subject). Without one, a
rule about a tool the parser does not know stays pending until it meets the tool, and
no rule is reported as naming an unknown tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hands.config.settings import CliPermissionArgs, Settings, load_settings
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import Grammar, PermissionRule, RuleWarning, parse_rules

if TYPE_CHECKING:
    from hands.core.subject import RuleSubject
    from hands.core.tool import Tool


class ToolGrammar(dict[str, "RuleSubject | None"]):
    """Each tool's name and aliases → the subject it declares, and alias → name."""

    def __init__(self, tools: Iterable[Tool[Any, Any]]) -> None:
        super().__init__()
        self._names: dict[str, str] = {}
        for tool in tools:
            for name in (*tool.aliases, tool.name):
                self[name] = tool.subject
                self._names[name] = tool.name

    def canonical(self, name: str) -> str:
        """The tool's own name for one of its names or aliases."""
        return self._names.get(name, name)


def grammar_of(tools: Iterable[Tool[Any, Any]]) -> ToolGrammar:
    """Each tool's name and aliases → the subject it declares."""
    return ToolGrammar(tools)


def settings_rules(
    settings: Settings, *, grammar: Grammar | None = None
) -> tuple[tuple[PermissionRule, ...], tuple[RuleWarning, ...]]:
    """The settings' rules parsed, strongest source first, and the problems found."""
    rules: list[PermissionRule] = []
    problems: list[RuleWarning] = []
    for entry in settings.rule_texts:
        parsed, found = parse_rules([entry.text], entry.behavior, entry.origin, grammar=grammar)
        rules.extend(parsed)
        problems.extend(found)
    return tuple(rules), tuple(problems)


def settings_warnings(settings: Settings, *, grammar: Grammar | None = None) -> tuple[str, ...]:
    """Everything the user is told about the settings: the files' and the rules' problems."""
    _, problems = settings_rules(settings, grammar=grammar)
    return (*settings.warnings, *(str(p) for p in problems))


def engine_for(settings: Settings, *, grammar: Grammar | None = None) -> PermissionEngine:
    """The permission engine these settings describe.

    A deny or ask rule that cannot be used raises ``SettingsFileError``: a session must
    not start without a restriction its user wrote.
    """
    rules, problems = settings_rules(settings, grammar=grammar)
    refuse_lost_restrictions(settings, problems)
    return PermissionEngine(
        rules,
        additional_dirs=settings.additional_directories,
        disable_bypass=settings.disable_bypass,
        home=settings.home,
        warnings=(*settings.warnings, *problems),
    )


def refuse_lost_restrictions(settings: Settings, problems: Iterable[RuleWarning]) -> None:
    """Raise ``SettingsFileError`` for the first deny or ask rule that is not in force."""
    from hands.config.settings_error import SettingsFileError

    for problem in problems:
        if problem.dropped and problem.behavior in ("deny", "ask"):
            path = next((s.path for s in settings.sources if s.label == problem.source), None)
            line, column = _place(path, problem.rule)
            raise SettingsFileError(
                problem.source,
                f"the {problem.behavior} rule {problem.rule} cannot be used: {problem.message}",
                line=line,
                column=column,
            )


def _place(path: Path | None, rule: str) -> tuple[int, int]:
    """The 1-based line and column of a rule's text in its file (0, 0 when not found)."""
    import json

    if path is None:
        return 0, 0
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return 0, 0
    for needle in (json.dumps(rule), rule):
        at = text.find(needle)
        if at >= 0:
            line = text.count("\n", 0, at) + 1
            return line, at - (text.rfind("\n", 0, at) + 1) + 1
    return 0, 0


def build_policy(
    cwd: Path | str,
    *,
    cli: CliPermissionArgs | None = None,
    env: Mapping[str, str] | None = None,
    trusted: bool | None = None,
    grammar: Grammar | None = None,
) -> PermissionEngine:
    """The permission engine for a session started in ``cwd``."""
    return engine_for(load_settings(cwd, cli=cli, env=env, trusted=trusted), grammar=grammar)
