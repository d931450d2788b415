"""Rule matching: which rules are about a tool, and which of them match a call; cached.

A rule is about a tool when it names the tool, one of its aliases, the rule family of
its declared subject (``Read``, ``Edit``), or matches its name as a glob. A pending rule
(about a tool unknown when it was parsed) is read by the tool's declaration here, once.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from hands.core.subject import EDIT_RULES, READ_RULES
from hands.permissions.paths import PathPattern
from hands.permissions.rules import (
    DomainPattern,
    NamePattern,
    ParamPattern,
    PermissionRule,
    RuleBehavior,
    RuleWarning,
    resolve_pending,
)
from hands.permissions.subject import CallSubject, norm

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext
    from hands.core.decision import PermissionDecision
    from hands.core.subject import RuleSubject
    from hands.core.tool import Tool

Target: TypeAlias = "Tool[Any, Any] | str"
"""A tool (its names and the family of its subject), or a bare tool name."""
_GROUP_NAME = re.compile(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>")
_MAX_CACHED = 512
MAX_TREE = 20_000
"""Entries walked below a recursive reader's roots; past that, a Read deny or ask rule asks."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Hit:
    """A rule that matched, and what it matched."""

    rule: PermissionRule
    detail: str = ""


class RuleIndex:
    """The rules in force, indexed by list and tool, with the caches decisions rely on."""

    def __init__(self, rules: Iterable[PermissionRule], *, home: Path) -> None:
        self._rules: list[PermissionRule] = list(rules)
        self.home = home
        self.problems: list[str] = []
        """Pending rules that do not parse for the tool they are about."""
        self._lists: dict[tuple[RuleBehavior, Target], tuple[PermissionRule, ...]] = {}
        self._families: dict[tuple[RuleBehavior, str], tuple[PermissionRule, ...]] = {}
        self._resolved: dict[tuple[int, RuleSubject | None], PermissionRule | None] = {}
        self._floating: dict[tuple[RuleBehavior, Hashable], re.Pattern[str] | None] = {}
        self._fixed: dict[tuple[RuleBehavior, Target], tuple[PermissionRule, ...]] = {}
        self._seam_lines: dict[str, tuple[str, ...]] = {}
        self.decisions: dict[tuple[Tool[Any, Any], str], PermissionDecision] = {}
        """Decisions for tools whose calls all look alike to the rules, by tool and mode
        (the engine's cache: see :meth:`reuses_decisions`)."""

    @property
    def rules(self) -> tuple[PermissionRule, ...]:
        """Every rule in force, as parsed."""
        return tuple(self._rules)

    def add(self, rules: Iterable[PermissionRule]) -> None:
        """Add rules; every cache starts again."""
        self._rules.extend(rules)
        for cache in (self._lists, self._families, self._floating, self._fixed, self._seam_lines):
            cache.clear()
        self.decisions.clear()

    def reuses_decisions(self, tool: Tool[Any, Any]) -> bool:
        """Whether one decision for ``tool`` holds for all its calls under these rules.

        The tool must say its calls look alike to the rules
        (``permission_ignores_input``), and no rule about it may match an input field
        (``Tool(param:value)``), the one kind of rule that reads the input itself.
        """
        if not tool.permission_ignores_input:
            return False
        return not any(
            isinstance(rule.matcher, ParamPattern)
            for behavior in ("deny", "ask", "allow")
            for rule in self.rules_for(behavior, tool)
        )

    # -- which rules ------------------------------------------------------------------

    def rules_for(self, behavior: RuleBehavior, target: Target) -> tuple[PermissionRule, ...]:
        """The rules of one list that are about ``target``, in order, pending ones read."""
        key = (behavior, target)
        found = self._lists.get(key)
        if found is None:
            found = self._collect(behavior, target)
            if len(self._lists) > _MAX_CACHED:
                self._lists.clear()
            self._lists[key] = found
        return found

    def family_rules(self, behavior: RuleBehavior, family: str) -> tuple[PermissionRule, ...]:
        """The rules of one list written for a rule family (``Read(...)``, ``Edit``)."""
        key = (behavior, family)
        found = self._families.get(key)
        if found is None:
            found = tuple(r for r in self._rules if r.behavior == behavior and r.tool == family)
            self._families[key] = found
        return found

    def denies(self, target: Target) -> bool:
        """Whether a bare deny rule (``WebFetch``, ``mcp__x``, ``*``) removes ``target``."""
        return any(r.bare for r in self.rules_for("deny", target))

    def _collect(self, behavior: RuleBehavior, target: Target) -> tuple[PermissionRule, ...]:
        if isinstance(target, str):
            name, aliases, declared = target, (), None
        else:
            name, aliases, declared = target.name, target.aliases, target.subject
        family = declared.family if declared is not None else ""
        out: list[PermissionRule] = []
        for rule in self._rules:
            if rule.behavior != behavior:
                continue
            if not rule.applies_to(name, aliases=aliases, family=family):
                continue
            if rule.kind == "pending":
                if isinstance(target, str):
                    continue  # a name alone cannot say what the specifier means
                resolved = self._resolve(rule, declared)
                if resolved is None:
                    continue
                rule = resolved
            if _own_write_path(rule, family):
                continue
            out.append(rule)
        return tuple(out)

    def _resolve(self, rule: PermissionRule, declared: RuleSubject | None) -> PermissionRule | None:
        key = (id(rule), declared)
        if key in self._resolved:
            return self._resolved[key]
        parsed = resolve_pending(rule, declared)
        found: PermissionRule | None = None
        if isinstance(parsed, RuleWarning):
            text = str(parsed)
            if text not in self.problems:
                self.problems.append(text)
        else:
            found = parsed
        self._resolved[key] = found
        return found

    # -- deny and ask rules -----------------------------------------------------------

    def match_loose(
        self,
        behavior: RuleBehavior,
        tool: Tool[Any, Any],
        call: CallSubject,
        input: BaseModel,
        ctx: ToolContext,
        *,
        skip_bare: bool = False,
    ) -> Hit | None:
        """The first deny or ask rule that matches the call (paths matched loosely)."""
        data: dict[str, object] | None = None
        rules = self.rules_for(behavior, tool)
        if call.paths and not self._any_floating(behavior, tool, rules, call.paths):
            rules = self._fixed_rules(behavior, tool, rules)
        for rule in rules:
            if rule.bare:
                if skip_bare:
                    continue
                return Hit(rule=rule)
            m = rule.matcher
            if isinstance(m, ParamPattern):
                if data is None:
                    data = input.model_dump(by_alias=True)
                if m.matches(data):
                    return Hit(rule=rule, detail=f"{m.field} matches")
            elif rule.kind == "command" and call.deny_forms:
                for form in call.deny_forms:
                    if m.matches(form):  # type: ignore[union-attr]
                        return Hit(rule=rule, detail=form)
                if m.matches_line(call.command):  # type: ignore[union-attr]
                    return Hit(rule=rule, detail=call.command)
            elif rule.kind == "path" and call.paths:
                for path in call.paths:
                    if self.path_matches(rule, path, ctx, loose=True):
                        return Hit(rule=rule, detail=path)
            elif isinstance(m, DomainPattern) and call.host is not None:
                if m.matches(call.host):
                    return Hit(rule=rule, detail=call.host)
            elif isinstance(m, NamePattern) and call.value is not None:
                if m.matches(call.value, call.args):
                    return Hit(rule=rule, detail=call.value)
        if call.kind == "bash":
            return self._match_shell_paths(behavior, call, ctx)
        return None

    def _match_shell_paths(
        self, behavior: RuleBehavior, call: CallSubject, ctx: ToolContext
    ) -> Hit | None:
        """A ``Read(...)``/``Edit(...)`` rule that covers a file the command reads or writes."""
        groups = (
            (READ_RULES, call.read_paths),
            (EDIT_RULES, call.write_paths + call.redirect_paths),
        )
        for family, paths in groups:
            if not paths:
                continue
            rules = self.family_rules(behavior, family)
            maybe = self._any_floating(behavior, ("family", family), rules, paths)
            for rule in rules:
                if rule.kind != "path":
                    continue
                if not maybe and _floats(rule):
                    continue
                for path in paths:
                    if self.path_matches(rule, path, ctx, loose=True):
                        return Hit(rule=rule, detail=path)
        return None

    def read_rule_below(self, trees: Iterable[tuple[str, str]], ctx: ToolContext) -> Hit | None:
        """A ``Read(...)`` deny or ask rule covering a file below one of ``trees``' roots.

        ``trees`` are (program, root) of commands that read every file below a directory;
        a tree too large to walk is a hit of the first such rule (what it holds is unknown).
        """
        from hands.permissions.reads import TooMany, walk_below

        rules = [
            r
            for behavior in ("deny", "ask")
            for r in self.family_rules(behavior, READ_RULES)  # type: ignore[arg-type]
            if r.kind == "path"
        ]
        if not rules:
            return None
        for _program, root in trees:
            try:
                for path in walk_below(root, limit=MAX_TREE):
                    for rule in rules:
                        if self.path_matches(rule, path, ctx, loose=True):
                            return Hit(rule=rule, detail=path)
            except TooMany as exc:
                return Hit(rule=rules[0], detail=str(exc))
        return None

    # -- allow rules ------------------------------------------------------------------

    def allowed_path(
        self, rules: Iterable[PermissionRule], paths: tuple[str, ...], ctx: ToolContext
    ) -> PermissionRule | None:
        """An allow rule of ``rules`` that covers every one of ``paths`` (link and target)."""
        for rule in rules:
            if rule.bare:
                return rule
            if rule.kind == "path" and all(
                self.path_matches(rule, p, ctx, loose=False) for p in paths
            ):
                return rule
        return None

    def path_matches(
        self, rule: PermissionRule, path: str, ctx: ToolContext, *, loose: bool
    ) -> bool:
        """Whether a path rule covers the absolute ``path``."""
        m = rule.matcher
        if not isinstance(m, PathPattern):
            return False
        return m.matches(
            path,
            cwd=norm(ctx.cwd),
            home=norm(self.home),
            source_root=norm(rule.origin.root),
            loose=loose,
        )

    # -- the search tools' view of Read deny rules ----------------------------------------

    def read_deny_lines(self, ctx: ToolContext) -> tuple[str, ...]:
        """``Read(...)`` deny rules as gitignore lines relative to ``/``."""
        key = norm(ctx.cwd)
        lines = self._seam_lines.get(key)
        if lines is None:
            out: list[str] = []
            for rule in self.family_rules("deny", READ_RULES):
                m = rule.matcher
                if isinstance(m, PathPattern):
                    out.append(
                        m.gitignore_line(
                            cwd=key, home=norm(self.home), source_root=norm(rule.origin.root)
                        )
                    )
            lines = tuple(dict.fromkeys(out))
            self._seam_lines[key] = lines
        return lines

    # -- caches -----------------------------------------------------------------------

    def _any_floating(
        self,
        behavior: RuleBehavior,
        key: Hashable,
        rules: tuple[PermissionRule, ...],
        paths: tuple[str, ...],
    ) -> bool:
        """Whether any floating path rule could match (one combined regex over them all)."""
        cache_key = (behavior, key)
        if cache_key in self._floating:
            combined = self._floating[cache_key]
        else:
            parts: list[str] = []
            for rule in rules:
                m = rule.matcher
                if isinstance(m, PathPattern) and _floats(rule):
                    if m.loose_regex is None:
                        parts = [""]  # not expressible as one regex: never filter
                        break
                    parts.append(_GROUP_NAME.sub("(?:", m.loose_regex.pattern))
            combined = re.compile("|".join(f"(?:{p})" for p in parts)) if parts else None
            self._floating[cache_key] = combined
        if combined is None:
            return False
        return any(combined.match(p.lstrip("/").lower()) for p in paths)

    def _fixed_rules(
        self, behavior: RuleBehavior, target: Target, rules: tuple[PermissionRule, ...]
    ) -> tuple[PermissionRule, ...]:
        """The rules of a list without the floating path rules."""
        key = (behavior, target)
        found = self._fixed.get(key)
        if found is None:
            found = tuple(r for r in rules if not _floats(r))
            self._fixed[key] = found
        return found


def _floats(rule: PermissionRule) -> bool:
    m = rule.matcher
    return isinstance(m, PathPattern) and (m.floating or m.single_dir)


def _own_write_path(rule: PermissionRule, family: str) -> bool:
    """An allow rule with a path written for one writing tool (``Write(./x)``): not applied.

    Writes are approved by path through ``Edit(...)`` rules only, as in Claude Code, which
    asks about a Write that only a ``Write(path)`` allow rule covers.
    """
    return (
        rule.behavior == "allow"
        and family == EDIT_RULES
        and rule.tool != family
        and rule.kind == "path"
    )
