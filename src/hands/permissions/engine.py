"""The settings-driven permission engine: Claude Code's decision order.

    deny rules → ask rules → the tool's own check → forced asks (critical ``rm``) →
    mode (bypassPermissions, plan) → built-in auto-allows (reads inside the working
    directories, read-only Bash, acceptEdits) → allow rules → ask

A deny anywhere beats an allow anywhere, and a matching ask rule prompts even when a
narrower allow rule also matches. In ``dontAsk`` every ask becomes a denial. Every
decision names what decided it: the rule and its file, the mode, or the built-in check,
and says whether a PreToolUse hook's ``allow`` may let the call run instead
(``hook_can_approve``: an ordinary ask, also one ``dontAsk`` denied; never a deny or ask
rule, a critical-path removal, a protected path, or a shell command the analysis cannot
check against the deny and ask rules).

The engine knows no tool by name: what a call touches comes from the subject its tool
declares (:mod:`hands.permissions.subject`), which rules are about it from the rule
index (:mod:`hands.permissions.matching`), and the built-in checks from
:mod:`hands.permissions.verdicts`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hands.core.decision import SANDBOX_AUTO_ALLOW, PermissionDecision
from hands.permissions import paths, plan_mode, verdicts
from hands.permissions.domains import NetworkDomains
from hands.permissions.matching import Hit, RuleIndex, Target
from hands.permissions.rules import (
    PermissionRule,
    RuleBehavior,
    RuleOrigin,
    RuleWarning,
    parse_rule,
)
from hands.permissions.subject import describe

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import PermissionMode, ToolContext
    from hands.core.tool import Tool


class PermissionEngine:
    """A :class:`~hands.core.decision.PermissionPolicy` built from rules.

    ``additional_dirs`` are added to each context's working directories;
    ``disable_bypass`` turns ``bypassPermissions`` into ``default``.
    """

    def __init__(
        self,
        rules: Iterable[PermissionRule] = (),
        *,
        additional_dirs: Iterable[Path] = (),
        disable_bypass: bool = False,
        home: Path | None = None,
        warnings: Iterable[RuleWarning | str] = (),
    ) -> None:
        self.additional_dirs = tuple(Path(os.path.normpath(d)) for d in additional_dirs)
        self.disable_bypass = disable_bypass
        self.home = home if home is not None else Path(os.environ.get("HOME") or Path.home())
        self._warnings: tuple[str, ...] = tuple(str(w) for w in warnings)
        self.index = RuleIndex(rules, home=self.home)
        self._turn_indexes: dict[tuple[int, tuple[str, ...]], RuleIndex] = {}
        self._dirs: dict[tuple[Path, ...], tuple[str, ...]] = {}

    # -- rules ------------------------------------------------------------------------

    @property
    def rules(self) -> tuple[PermissionRule, ...]:
        """Every rule in force."""
        return self.index.rules

    @property
    def warnings(self) -> tuple[str, ...]:
        """Problems with the rules: from parsing, and pending rules their tool cannot read."""
        return (*self._warnings, *self.index.problems)

    def add_rules(self, rules: Iterable[PermissionRule]) -> None:
        """Add rules (an "allow always" answer, a session rule)."""
        self.index.add(rules)

    def remove_rules(self, rules: Iterable[PermissionRule]) -> None:
        """Take rules out of force (the user removed them from their file)."""
        gone = {id(r) for r in rules}
        kept = [r for r in self.index.rules if id(r) not in gone]
        self.index = RuleIndex(kept, home=self.home)
        self._turn_indexes.clear()

    def index_for(self, ctx: ToolContext) -> RuleIndex:
        """The rules in force for a call: the engine's, plus the query's ``turn_allow``."""
        extra = ctx.turn_allow
        if not extra:
            return self.index
        key = (len(self.index.rules), extra)
        found = self._turn_indexes.get(key)
        if found is None:
            origin = RuleOrigin(scope="session", label="an active skill", root=ctx.root)
            parsed = [parse_rule(text, "allow", origin) for text in extra]
            rules = [r for r in parsed if isinstance(r, PermissionRule)]
            found = RuleIndex([*self.index.rules, *rules], home=self.home)
            if len(self._turn_indexes) >= 16:
                self._turn_indexes.clear()
            self._turn_indexes[key] = found
        return found

    def rules_for(self, behavior: RuleBehavior, tool: Target) -> tuple[PermissionRule, ...]:
        """The rules of one list that are about ``tool`` (a tool, or a bare name), in order."""
        return self.index.rules_for(behavior, tool)

    def denies_tool(self, tool: Target) -> bool:
        """Whether a bare deny rule (``WebFetch``, ``mcp__x``, ``*``) removes ``tool``.

        Given the tool rather than its name, its aliases and rule family count too (a
        bare ``Read`` deny removes every tool that reads paths).
        """
        return self.index.denies(tool)

    def read_denials(self, ctx: ToolContext) -> tuple[str, ...]:
        """``Read(...)`` deny rules as gitignore lines relative to ``/`` (for Glob and Grep)."""
        return self.index.read_deny_lines(ctx)

    def effective_mode(self, ctx: ToolContext) -> PermissionMode:
        """The context's mode, with bypass switched off when the settings disable it."""
        mode = ctx.permission_mode
        if mode == "bypassPermissions" and self.disable_bypass:
            return "default"
        return mode

    def working_dirs(self, ctx: ToolContext) -> tuple[str, ...]:
        """Normalised working directories (and their resolved forms)."""
        key = (ctx.root, ctx.cwd, *ctx.additional_dirs)
        found = self._dirs.get(key)
        if found is not None:
            return found
        dirs: list[str] = []
        for d in (*key, *self.additional_dirs):
            norm = os.path.normpath(d)
            dirs.append(norm)
            real = os.path.realpath(norm)
            if real != norm:
                dirs.append(real)
        found = tuple(dict.fromkeys(dirs))
        if len(self._dirs) > 256:
            self._dirs.clear()
        self._dirs[key] = found
        return found

    def match(
        self, behavior: RuleBehavior, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionRule | None:
        """The first ``behavior`` rule covering this call, matched as :meth:`decide` does.

        Only the rules are consulted: no mode, no tool check, no working directories.
        """
        call = describe(tool, input, ctx, home=self.home)
        hit = self.index_for(ctx).match_loose(behavior, tool, call, input, ctx)
        return None if hit is None else hit.rule

    # -- the decision -----------------------------------------------------------------

    async def decide(
        self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionDecision:
        """Allow, ask or deny one call (never passthrough).

        A tool whose calls all look alike to the rules (``RuleIndex.reuses_decisions``)
        is decided once per mode and rule set; the rule index forgets the decision when
        its rules change. Plan mode is always decided afresh (its refusal names the
        session's plan file).
        """
        index = self.index_for(ctx) if ctx.turn_allow else self.index
        if tool.permission_ignores_input and ctx.permission_mode != "plan":
            key = (tool, ctx.permission_mode)
            found = index.decisions.get(key)
            if found is not None:
                return found
            decision = await self._decide(tool, input, ctx, index)
            if index.reuses_decisions(tool):
                if len(index.decisions) >= _MAX_DECISIONS:
                    index.decisions.clear()
                index.decisions[key] = decision
            return decision
        return await self._decide(tool, input, ctx, index)

    async def _decide(
        self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext, index: RuleIndex
    ) -> PermissionDecision:
        name = tool.name
        mode = self.effective_mode(ctx)
        call = describe(tool, input, ctx, home=self.home)
        label = f"{name}({call.display})" if call.display else name
        shell = call.kind == "bash"

        hit = index.match_loose("deny", tool, call, input, ctx)
        if hit is not None:
            return _denied(label, hit)
        closed = ctx.session.service(NetworkDomains).denying(call.host) if call.host else None
        if closed is not None:
            return _closed_domain(label, closed)
        hit = index.match_loose("ask", tool, call, input, ctx)
        own: PermissionDecision | None = None
        if hit is not None and shell and hit.rule.bare:
            own = await tool.check_permissions(input, ctx)
            if own.reason == SANDBOX_AUTO_ALLOW:
                # a bare ask rule does not hold back a command that runs sandboxed; a
                # content-scoped one (Bash(git push:*)) still does
                hit = index.match_loose("ask", tool, call, input, ctx, skip_bare=True)
        if hit is not None:
            return _ask(
                mode,
                f"{label} matches the ask rule {hit.rule.text} in {hit.rule.source}.",
                reason=f"ask rule {hit.rule.text}",
                rule=hit.rule,
            )
        if shell and call.read_trees:
            inside_tree = index.read_rule_below(call.read_trees, ctx)
            if inside_tree is not None:
                return _ask(
                    mode,
                    f"{label} reads every file below a directory, and the rule "
                    f"{inside_tree.rule.text} (from {inside_tree.rule.source}) covers one of "
                    f"them ({inside_tree.detail}). Name the files to read, or leave that "
                    "path out.",
                    reason=f"read rule {inside_tree.rule.text} below a tree",
                    hook=False,
                )
        if shell and call.analysis is not None:
            hidden = verdicts.git_unverifiable(call.analysis, index, tool)
            if hidden is not None:
                return _ask(
                    mode, hidden, reason="deny and ask rules cannot be verified", hook=False
                )
        if tool.always_asks:
            return _ask(
                mode,
                f"{name} needs an answer from the user.",
                reason="always asks",
                needs_input=True,
            )

        if own is None:
            own = await tool.check_permissions(input, ctx)
        if own.behavior == "deny":
            return own
        analysis = call.analysis if shell else None
        if analysis is not None:
            critical = verdicts.critical_rm(
                analysis, ctx, home=self.home, dirs=self.working_dirs(ctx)
            )
            if critical is not None:
                return _ask(
                    mode,
                    f"{label} would remove {critical}; removing critical paths always needs "
                    "approval.",
                    reason="critical path removal",
                    hook=False,
                )
        if mode == "bypassPermissions":
            if analysis is not None:
                unclear = verdicts.shell_unverifiable(analysis, index, tool)
                if unclear:
                    return _ask(mode, unclear, reason="deny rules cannot be verified", hook=False)
            return PermissionDecision(behavior="allow", reason="mode bypassPermissions")
        read_only = tool.is_read_only(input)
        planning = plan_mode.decision(tool, input, ctx, read_only=read_only, label=label)
        if planning is not None:
            return planning
        if own.behavior == "allow":
            if own.reason == SANDBOX_AUTO_ALLOW and call.analysis is not None:
                unclear = verdicts.shell_unverifiable(call.analysis, index, tool)
                if unclear:  # the deny rules could not be checked: the sandbox is not enough
                    return _ask(mode, unclear, reason="deny rules cannot be verified")
            return own

        verdict = self._verdict(tool, call, ctx, mode, read_only)
        if verdict.behavior != "ask":
            return verdict
        message = verdict.message
        hook = verdict.hook_can_approve
        if own.behavior == "ask":
            hook = hook and own.hook_can_approve
            if own.message:
                message = f"{own.message} {message}".strip()
        if hook and analysis is not None:
            hook = verdicts.hook_may_approve_shell(analysis, index, tool)
        return _ask(
            mode,
            message,
            reason=verdict.reason or own.reason,
            hook=hook,
            needs_input=tool.hook_allow_needs_input,
        )

    def _verdict(
        self,
        tool: Tool[Any, Any],
        call: Any,
        ctx: ToolContext,
        mode: PermissionMode,
        read_only: bool,
    ) -> PermissionDecision:
        """The built-in checks and allow rules for the kind of thing the call touches.

        An active skill's ``allowed-tools`` (``ctx.turn_allow``) never reach outside the
        working directories: a read or write of a path outside them is decided by the
        session's own rules alone (``Edit(//**)`` from a skill grants nothing there).
        """
        kind = call.kind
        index = self.index_for(ctx)
        dirs = self.working_dirs(ctx)
        if ctx.turn_allow and kind in ("read", "edit"):
            if not all(paths.inside(p, dirs) for p in call.paths):
                index = self.index
        if ctx.turn_allow and kind == "bash" and not _stays_inside(call, ctx, dirs):
            index = self.index
        if kind == "bash":
            return verdicts.shell_verdict(index, tool, call, ctx, mode, self.working_dirs(ctx))
        if kind == "read":
            return verdicts.read_verdict(index, tool, call, ctx, dirs)
        if kind == "edit":
            return verdicts.edit_verdict(index, tool, call, ctx, mode, dirs)
        return verdicts.other_verdict(index, tool, call, read_only, mode)


_MAX_DECISIONS = 1024
"""Decisions one rule index keeps (tools × modes; a session has far fewer)."""


def _stays_inside(call: Any, ctx: ToolContext, dirs: tuple[str, ...]) -> bool:
    """Whether every path a shell command names lies inside the working directories.

    What cannot be known (an unparsed command, a word or redirection target that depends
    on the runtime and could be a path) counts as outside: a skill's rules then do not
    apply, and the session's own rules decide.
    """
    analysis = call.analysis
    if analysis is None or not analysis.understood:
        return False
    for cmd in analysis.commands:
        words = [a.value if a.value is not None else None for a in cmd.args[1:]]
        if any(a.value is None and any(c in a.text for c in "/~$`") for a in cmd.args):
            return False
        targets = [r.target for r in cmd.redirects if r.kind == "write" or r.kind == "read"]
        if any(t is None for t in targets):
            return False
        for word in [*(w for w in words if w is not None), *(t for t in targets if t)]:
            for part in (word, word.partition("=")[2]):
                if not _path_like(part):
                    continue
                resolved = os.path.normpath(ctx.cwd / os.path.expanduser(part))  # noqa: PTH111
                if not paths.inside(resolved, dirs):
                    return False
    return True


def _path_like(word: str) -> bool:
    return word.startswith(("/", "~")) or "/" in word or word in ("..", ".")


def _denied(label: str, hit: Hit) -> PermissionDecision:
    rule = hit.rule
    return PermissionDecision(
        behavior="deny",
        message=(
            f"The deny rule {rule.text} (from {rule.source}) matches this call, so "
            f"{label} has been denied. Do not retry it or work around it; do something "
            "else, or ask the user to change that rule."
        ),
        reason=f"deny rule {rule.text}" + (f" matched {hit.detail!r}" if hit.detail else ""),
        rule=rule.text,
        source=rule.source,
    )


def _closed_domain(label: str, entry: str) -> PermissionDecision:
    return PermissionDecision(
        behavior="deny",
        message=(
            f'{label} has been denied: its host matches "{entry}" in '
            "sandbox.network.deniedDomains, which closes it to every tool whatever allow "
            "rule matches. Do not retry it; do something else, or ask the user to change "
            "that setting."
        ),
        reason=f"sandbox.network.deniedDomains {entry}",
    )


def _ask(
    mode: PermissionMode,
    message: str,
    *,
    reason: str,
    rule: PermissionRule | None = None,
    hook: bool = True,
    needs_input: bool = False,
) -> PermissionDecision:
    """An ask, or in ``dontAsk`` a denial; ``hook``: a PreToolUse ``allow`` may skip it.

    An ask from a rule is never skippable by a hook, whatever ``hook`` says.
    """
    approvable = hook and rule is None
    if mode == "dontAsk":
        return PermissionDecision(
            behavior="deny",
            message=(
                f"{message} This session does not ask for permission (mode dontAsk), so "
                "the call was not run. Use a tool or command that is already allowed, or "
                "tell the user which permission is needed."
            ),
            reason=f"{reason} (dontAsk)",
            rule=rule.text if rule else "",
            source=rule.source if rule else "",
            hook_can_approve=approvable,
            hook_needs_input=needs_input,
        )
    return PermissionDecision(
        behavior="ask",
        message=message,
        reason=reason,
        rule=rule.text if rule else "",
        source=rule.source if rule else "",
        hook_can_approve=approvable,
        hook_needs_input=needs_input,
    )


def decision_record(decision: PermissionDecision) -> dict[str, str]:
    """The JSON form ``hands permissions check --json`` prints."""
    return {
        "behavior": decision.behavior,
        "reason": decision.reason,
        "rule": decision.rule,
        "source": decision.source,
    }


def matches(rule: PermissionRule, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext) -> bool:
    """Whether ``rule`` covers this call, matched exactly as the engine matches its rules."""
    key = (rule.text, rule.behavior, rule.origin)
    engine = _ONE_RULE.get(key)
    if engine is None:
        if len(_ONE_RULE) >= _ONE_RULE_MAX:
            _ONE_RULE.clear()
        engine = _ONE_RULE[key] = PermissionEngine([rule])
    return engine.match(rule.behavior, tool, input, ctx) is not None


# One-rule engines by rule (path rules hold unhashable matchers, so the key is the rule's
# text and origin); bounded, as hook conditions are few.
_ONE_RULE: dict[tuple[str, RuleBehavior, RuleOrigin], PermissionEngine] = {}
_ONE_RULE_MAX = 256
