"""The settings-driven permission engine: Claude Code's decision order.

    deny rules → ask rules → the tool's own check → forced asks (critical ``rm``) →
    mode (bypassPermissions, plan) → built-in auto-allows (reads inside the working
    directories, read-only Bash, acceptEdits) → allow rules → ask

A deny anywhere beats an allow anywhere, and a matching ask rule prompts even when a
narrower allow rule also matches. In ``dontAsk`` every ask becomes a denial. Every
decision names what decided it: the rule and its file, the mode, or the built-in check,
and says whether a PreToolUse hook's ``allow`` may let the call run instead
(``hook_can_approve``: an ordinary ask, also one ``dontAsk`` denied; never a deny or ask
rule, a critical-path removal, a protected path, or a Bash command the analysis cannot
check against the deny and ask rules).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from hands.core.decision import SANDBOX_AUTO_ALLOW, PermissionDecision
from hands.permissions.paths import PathPattern, inside, link_and_target, protected_reason
from hands.permissions.rules import (
    EDIT_FAMILY,
    NAME_FIELDS,
    PRIMARY_FIELDS,
    READ_FAMILY,
    DomainPattern,
    NamePattern,
    ParamPattern,
    PermissionRule,
    RuleBehavior,
    RuleOrigin,
    RuleWarning,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import PermissionMode, ToolContext
    from hands.core.tool import Tool
    from hands.shell.analysis import Analysis

CallKind: TypeAlias = Literal["bash", "read", "edit", "domain", "name", "other"]

ASKS_BY_DEFAULT = frozenset(
    {
        "WebFetch", "WebSearch", "Skill", "Artifact", "ExitPlanMode", "Monitor", "Workflow",
        "ShareOnboardingGuide", "EnterWorktree", "PowerShell", "AskUserQuestion",
    }
)  # fmt: skip
"""Tools that need permission in ``default`` mode even though they change no files."""
ALWAYS_ASK = frozenset({"AskUserQuestion"})
"""Tools that reach the ask handler in every mode (the user must answer them)."""
NEEDS_HOOK_INPUT = frozenset({"AskUserQuestion", "ExitPlanMode"})
"""A hook's ``allow`` satisfies these only together with ``updatedInput``."""
_GLOB_CHARS = frozenset("*?[")
_HARMLESS_OPAQUE = (
    "command substitution", "backticks", "subshell", "background &", "process substitution",
    "arithmetic expansion", "if statement", "elif clause", "else clause", "while statement",
    "for statement", "c style for statement", "case statement", "case item", "do group",
    "test command", "test that evaluates its operands",
)  # fmt: skip
"""Constructs whose inner commands are all checked, so they do not block an allow."""
MAX_GLOB_MATCHES = 200


@dataclass(frozen=True, kw_only=True, slots=True)
class _Call:
    """What the rules are matched against for one call."""

    kind: CallKind
    paths: tuple[str, ...] = ()
    """Read/edit tools: the path and, when a symlink, its target."""
    command: str = ""
    analysis: Analysis | None = None
    deny_forms: tuple[str, ...] = ()
    read_paths: tuple[str, ...] = ()
    write_paths: tuple[str, ...] = ()
    """Operands of file-writing commands, each with its symlink target."""
    redirect_paths: tuple[str, ...] = ()
    unclear_redirects: tuple[str, ...] = ()
    host: str | None = None
    value: str | None = None
    display: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class _Hit:
    rule: PermissionRule
    detail: str = ""


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
        self._rules: list[PermissionRule] = list(rules)
        self.additional_dirs = tuple(Path(os.path.normpath(d)) for d in additional_dirs)
        self.disable_bypass = disable_bypass
        self.home = home if home is not None else Path(os.environ.get("HOME") or Path.home())
        self.warnings: tuple[str, ...] = tuple(str(w) for w in warnings)
        self._cache: dict[tuple[RuleBehavior, str], tuple[PermissionRule, ...]] = {}
        self._seam_lines: dict[str, tuple[str, ...]] = {}
        self._strings: dict[Path, str] = {}
        self._floating: dict[tuple[RuleBehavior, str], re.Pattern[str] | None] = {}
        self._fixed: dict[tuple[RuleBehavior, str], tuple[PermissionRule, ...]] = {}
        self._dirs: dict[tuple[Path, ...], tuple[str, ...]] = {}

    # -- rules ------------------------------------------------------------------------

    @property
    def rules(self) -> tuple[PermissionRule, ...]:
        """Every rule in force."""
        return tuple(self._rules)

    def add_rules(self, rules: Iterable[PermissionRule]) -> None:
        """Add rules (an "allow always" answer, a session rule)."""
        self._rules.extend(rules)
        self._cache.clear()
        self._seam_lines.clear()
        self._floating.clear()
        self._fixed.clear()

    def rules_for(self, behavior: RuleBehavior, tool_name: str) -> tuple[PermissionRule, ...]:
        """The rules of one list that are about ``tool_name``, in order."""
        key = (behavior, tool_name)
        found = self._cache.get(key)
        if found is None:
            found = tuple(
                r for r in self._rules if r.behavior == behavior and r.applies_to(tool_name)
            )
            self._cache[key] = found
        return found

    def denies_tool(self, name: str) -> bool:
        """Whether a bare deny rule (``WebFetch``, ``mcp__x``, ``*``) removes ``name``."""
        return any(r.bare for r in self.rules_for("deny", name))

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

    # -- the decision -----------------------------------------------------------------

    async def decide(
        self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionDecision:
        """Allow, ask or deny one call (never passthrough)."""
        name = tool.name
        mode = self.effective_mode(ctx)
        call = self._describe(tool, input, ctx)
        label = f"{name}({call.display})" if call.display else name

        hit = self._match_loose("deny", name, call, input, ctx)
        if hit is not None:
            return self._denied(label, hit)
        hit = self._match_loose("ask", name, call, input, ctx)
        own: PermissionDecision | None = None
        if hit is not None and call.kind == "bash" and hit.rule.bare:
            own = await tool.check_permissions(input, ctx)
            if own.reason == SANDBOX_AUTO_ALLOW:
                # a bare Bash ask rule does not hold back a command that runs sandboxed;
                # a content-scoped one (Bash(git push:*)) still does
                hit = self._match_loose("ask", name, call, input, ctx, skip_bare=True)
        if hit is not None:
            return self._ask(
                mode,
                f"{label} matches the ask rule {hit.rule.text} in {hit.rule.source}.",
                reason=f"ask rule {hit.rule.text}",
                rule=hit.rule,
            )
        if name in ALWAYS_ASK:
            return self._ask(
                mode,
                f"{name} needs an answer from the user.",
                reason="always asks",
                needs_input=True,
            )

        if own is None:
            own = await tool.check_permissions(input, ctx)
        if own.behavior == "deny":
            return own
        if call.kind == "bash" and call.analysis is not None:
            critical = self._critical_rm(call.analysis, ctx)
            if critical is not None:
                return self._ask(
                    mode,
                    f"{label} would remove {critical}; removing critical paths always needs "
                    "approval.",
                    reason="critical path removal",
                    hook=False,
                )
        if mode == "bypassPermissions":
            if call.kind == "bash" and call.analysis is not None:
                unclear = self._bash_unverifiable(call.analysis)
                if unclear:
                    return self._ask(
                        mode, unclear, reason="deny rules cannot be verified", hook=False
                    )
            return PermissionDecision(behavior="allow", reason="mode bypassPermissions")
        read_only = tool.is_read_only(input)
        if mode == "plan" and not read_only and name != "ExitPlanMode":
            return PermissionDecision(
                behavior="deny",
                message=(
                    f"{label} is not available in plan mode: plan mode only allows read-only "
                    "tools. Finish the plan first; the user will leave plan mode to apply it."
                ),
                reason="mode plan",
            )
        if own.behavior == "allow":
            if own.reason == SANDBOX_AUTO_ALLOW and call.analysis is not None:
                unclear = self._bash_unverifiable(call.analysis)
                if unclear:  # the deny rules could not be checked: the sandbox is not enough
                    return self._ask(mode, unclear, reason="deny rules cannot be verified")
            return own

        if call.kind == "bash":
            verdict = self._bash(call, ctx, mode)
        elif call.kind == "read":
            verdict = self._read(name, call, ctx)
        elif call.kind == "edit":
            verdict = self._edit(name, call, ctx, mode)
        else:
            verdict = self._other(tool, name, call, input, read_only, mode)
        if verdict.behavior == "ask":
            message = verdict.message
            hook = verdict.hook_can_approve
            if own.behavior == "ask":
                hook = hook and own.hook_can_approve
                if own.message:
                    message = f"{own.message} {message}".strip()
            if hook and call.kind == "bash" and call.analysis is not None:
                hook = self._hook_may_approve_bash(call.analysis)
            return self._ask(
                mode,
                message,
                reason=verdict.reason or own.reason,
                hook=hook,
                needs_input=name in NEEDS_HOOK_INPUT,
            )
        return verdict

    def match(
        self, behavior: RuleBehavior, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionRule | None:
        """The first ``behavior`` rule covering this call, matched as :meth:`decide` does.

        Only the rules are consulted: no mode, no tool check, no working directories.
        """
        hit = self._match_loose(behavior, tool.name, self._describe(tool, input, ctx), input, ctx)
        return None if hit is None else hit.rule

    # -- describing a call ------------------------------------------------------------

    def _describe(self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext) -> _Call:
        name = tool.name
        if name == "Bash" or name == "PowerShell" or name == "Monitor":
            command = getattr(input, "command", None)
            if isinstance(command, str):
                return self._describe_bash(command, ctx, shell=name == "Bash")
            return _Call(kind="other")
        if name in READ_FAMILY or name in EDIT_FAMILY:
            raw = getattr(input, PRIMARY_FIELDS.get(name, "file_path"), None)
            if raw is None and name in ("Grep", "Glob"):
                raw = str(ctx.cwd)
            if isinstance(raw, str) and raw.strip():
                path = self._absolute(raw.strip(), ctx)
                kind: CallKind = "read" if name in READ_FAMILY else "edit"
                return _Call(kind=kind, paths=link_and_target(path), display=path)
            return _Call(kind="other")
        if name == "WebFetch":
            url = getattr(input, "url", None)
            host = _host(url) if isinstance(url, str) else None
            return _Call(kind="domain", host=host, display=f"domain:{host}" if host else "")
        if name in NAME_FIELDS:
            value = getattr(input, NAME_FIELDS[name], None)
            if isinstance(value, str):
                return _Call(kind="name", value=value.lstrip("/"), display=value)
        return _Call(kind="other")

    def _absolute(self, raw: str, ctx: ToolContext) -> str:
        if raw == "~" or raw.startswith("~/"):
            raw = self._str(self.home) + raw[1:]
        elif raw.startswith("~"):
            raw = os.path.expanduser(raw)  # noqa: PTH111 - ``~user``
        if not raw.startswith("/"):
            raw = f"{self._str(ctx.cwd)}/{raw}"
        return os.path.normpath(raw)

    def _describe_bash(self, command: str, ctx: ToolContext, *, shell: bool) -> _Call:
        short = command if len(command) <= 80 else command[:79] + "…"
        if not shell:
            return _Call(kind="other", command=command, deny_forms=(command,), display=short)
        from hands.permissions.bash import expand_path, file_operands, line_forms
        from hands.shell.analysis import analyze

        analysis = analyze(command)
        forms = tuple(dict.fromkeys([command.strip(), *line_forms(analysis)]))
        home = self.home
        bases: list[Path] = [ctx.cwd]
        for cmd in analysis.commands:
            if cmd.name == "cd" and len(cmd.args) == 2 and cmd.args[1].value is not None:
                bases.append(Path(expand_path(cmd.args[1].value, cwd=bases[-1], home=home)))
        reads: list[str] = []
        writes: list[str] = []
        for cmd in analysis.commands:
            r, w = file_operands(cmd)
            reads.extend(_resolve_all(r, bases, home))
            writes.extend(_resolve_all(w, bases, home))
        redirects: list[str] = []
        unclear: list[str] = []
        for red in analysis.redirects:
            if red.kind != "write":
                continue
            if red.target is None:
                unclear.append(red.text)
            elif red.writes_file:
                if red.target.startswith("~") or any(c in red.target for c in _GLOB_CHARS):
                    unclear.append(red.text)
                redirects.extend(_resolve_all([red.target], bases, home))
        return _Call(
            kind="bash",
            command=command,
            analysis=analysis,
            deny_forms=forms,
            read_paths=tuple(dict.fromkeys(reads)),
            write_paths=tuple(dict.fromkeys(writes)),
            redirect_paths=tuple(dict.fromkeys(redirects)),
            unclear_redirects=tuple(unclear),
            display=short,
        )

    # -- deny and ask rules -----------------------------------------------------------

    def _match_loose(
        self,
        behavior: RuleBehavior,
        name: str,
        call: _Call,
        input: BaseModel,
        ctx: ToolContext,
        *,
        skip_bare: bool = False,
    ) -> _Hit | None:
        data: dict[str, object] | None = None
        rules = self.rules_for(behavior, name)
        if call.paths and not self._any_floating(behavior, name, call.paths):
            rules = self._fixed_rules(behavior, name)
        for rule in rules:
            if rule.bare:
                if skip_bare:
                    continue
                return _Hit(rule=rule)
            m = rule.matcher
            if isinstance(m, ParamPattern):
                if data is None:
                    data = input.model_dump(by_alias=True)
                if m.matches(data):
                    return _Hit(rule=rule, detail=f"{m.field} matches")
            elif rule.kind == "command" and call.deny_forms:
                for form in call.deny_forms:
                    if m.matches(form):  # type: ignore[union-attr]
                        return _Hit(rule=rule, detail=form)
                if m.matches_line(call.command):  # type: ignore[union-attr]
                    return _Hit(rule=rule, detail=call.command)
            elif rule.kind == "path" and call.paths:
                for path in call.paths:
                    if self._path_matches(rule, path, ctx, loose=True):
                        return _Hit(rule=rule, detail=path)
            elif isinstance(m, DomainPattern) and call.host is not None:
                if m.matches(call.host):
                    return _Hit(rule=rule, detail=call.host)
            elif isinstance(m, NamePattern) and call.value is not None:
                if m.matches(call.value):
                    return _Hit(rule=rule, detail=call.value)
        if call.kind == "bash":
            groups = (
                ("Read", call.read_paths),
                ("Edit", call.write_paths + call.redirect_paths),
            )
            for family, paths in groups:
                if not paths:
                    continue
                maybe = self._any_floating(behavior, family, paths)
                for rule in self.rules_for(behavior, family):
                    if rule.kind != "path" or rule.tool not in ("Read", "Edit"):
                        continue
                    if not maybe and _floats(rule):
                        continue
                    for path in paths:
                        if self._path_matches(rule, path, ctx, loose=True):
                            return _Hit(rule=rule, detail=path)
        return None

    def _path_matches(
        self, rule: PermissionRule, path: str, ctx: ToolContext, *, loose: bool
    ) -> bool:
        m = rule.matcher
        if not isinstance(m, PathPattern):
            return False
        return m.matches(
            path,
            cwd=self._str(ctx.cwd),
            home=self._str(self.home),
            source_root=self._str(rule.origin.root),
            loose=loose,
        )

    def _any_floating(self, behavior: RuleBehavior, name: str, paths: tuple[str, ...]) -> bool:
        """Whether any floating path rule could match (one combined regex over them all)."""
        key = (behavior, name)
        combined = self._floating.get(key)
        if combined is None:
            parts: list[str] = []
            for rule in self.rules_for(behavior, name):
                m = rule.matcher
                if isinstance(m, PathPattern) and _floats(rule):
                    if m.loose_regex is None:
                        parts = [""]  # not expressible as one regex: never filter
                        break
                    parts.append(_GROUP_NAME.sub("(?:", m.loose_regex.pattern))
            combined = re.compile("|".join(f"(?:{p})" for p in parts)) if parts else None
            self._floating[key] = combined
        if combined is None:
            return False
        return any(combined.match(p.lstrip("/").lower()) for p in paths)

    def _fixed_rules(self, behavior: RuleBehavior, name: str) -> tuple[PermissionRule, ...]:
        """The rules of a list without the floating path rules."""
        key = (behavior, name)
        found = self._fixed.get(key)
        if found is None:
            found = tuple(r for r in self.rules_for(behavior, name) if not _floats(r))
            self._fixed[key] = found
        return found

    def _str(self, path: Path) -> str:
        found = self._strings.get(path)
        if found is None:
            found = os.path.normpath(path)
            if len(self._strings) > 1024:
                self._strings.clear()
            self._strings[path] = found
        return found

    def _denied(self, label: str, hit: _Hit) -> PermissionDecision:
        rule = hit.rule
        return PermissionDecision(
            behavior="deny",
            message=(
                f"Permission to use {label} has been denied by the rule {rule.text} in "
                f"{rule.source}. Do not retry it or work around it; do something else, or "
                "ask the user to change that rule."
            ),
            reason=f"deny rule {rule.text}" + (f" matched {hit.detail!r}" if hit.detail else ""),
            rule=rule.text,
            source=rule.source,
        )

    def _ask(
        self,
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

    # -- bash ---------------------------------------------------------------------------

    def _critical_rm(self, analysis: Analysis, ctx: ToolContext) -> str | None:
        from hands.permissions.bash import critical_removal

        dirs = [Path(d) for d in self.working_dirs(ctx)]
        for cmd in analysis.commands:
            found = critical_removal(cmd, cwd=ctx.cwd, home=self.home, working_dirs=dirs)
            if found:
                return found
        return None

    def _bash_unverifiable(self, analysis: Analysis) -> str | None:
        if analysis.understood:
            return None
        if not any(r.kind == "command" for r in self.rules_for("deny", "Bash")):
            return None
        why = "; ".join((*analysis.problems, *analysis.hidden)) or "not fully parsed"
        return (
            f"The command cannot be fully analysed ({why}), so the Bash deny rules cannot be "
            "checked against it; it needs approval (even in bypassPermissions mode or in the "
            "sandbox)."
        )

    def _hook_may_approve_bash(self, analysis: Analysis) -> bool:
        """A hook ``allow`` skips a Bash ask only when the deny and ask rules were checked.

        A command the analysis cannot fully parse may hide a sub-command a Bash deny or
        ask rule would catch, so it is not approvable while such rules exist.
        """
        if analysis.understood:
            return True
        return not any(
            r.kind == "command"
            for behavior in ("deny", "ask")
            for r in self.rules_for(behavior, "Bash")
        )

    def _bash(self, call: _Call, ctx: ToolContext, mode: PermissionMode) -> PermissionDecision:
        from hands.permissions.bash import accept_edits_covers, allow_forms
        from hands.shell.readonly import command_is_read_only

        analysis = call.analysis
        assert analysis is not None
        if not analysis.understood:
            why = "; ".join((*analysis.problems, *analysis.hidden))
            return _ask_verdict(
                f"Bash({call.display}) cannot be fully analysed ({why}), so no rule can "
                "approve it automatically.",
                "not fully parsed",
            )
        risky = [o for o in analysis.opaque if o not in _HARMLESS_OPAQUE]
        if risky:
            return _ask_verdict(
                f"Bash({call.display}) uses {', '.join(risky)}, which rules cannot approve "
                "automatically.",
                "opaque construct",
            )
        dirs = self.working_dirs(ctx)
        rules = self.rules_for("allow", "Bash")
        bare = next((r for r in rules if r.bare), None)
        command_rules = [r for r in rules if r.kind == "command"]
        names = {c.name for c in analysis.commands}
        cd_git = "cd" in names and "git" in names
        used: list[PermissionRule] = []
        how: list[str] = []
        missing: list[str] = []

        def inside_dirs(path: str) -> bool:
            return inside(path, dirs) and protected_reason(path) is None

        for cmd in analysis.commands:
            if bare is not None:
                used.append(bare)
                continue
            if (
                command_is_read_only(replace(cmd, redirects=()))  # redirects: checked below
                and not (cd_git and cmd.name in ("cd", "git"))
                and not (cmd.name == "cd" and not self._cd_inside(cmd, ctx, dirs))
            ):
                how.append("read-only")
                continue
            if mode == "acceptEdits" and accept_edits_covers(
                cmd, cwd=ctx.cwd, home=self.home, inside=inside_dirs
            ):
                how.append("acceptEdits")
                continue
            forms = allow_forms(cmd)
            found = next(
                (r for r in command_rules for f in forms if r.matcher.matches(f)),  # type: ignore[union-attr]
                None,
            )
            if found is not None:
                used.append(found)
                continue
            missing.append(cmd.text.strip() or cmd.name or "?")
        if not analysis.commands:
            missing.append(call.display)

        for path in call.write_paths + call.redirect_paths:
            why = protected_reason(path)
            if why is not None:
                return _ask_verdict(
                    f"Bash({call.display}) writes {path}: {why}, so it always needs approval.",
                    "protected path",
                    hook=False,
                )
        for text in call.unclear_redirects:
            missing.append(f"the redirection {text}")
        for path in call.redirect_paths:
            if mode == "acceptEdits" and inside(path, dirs):
                continue
            edit_rule = self._allowed_path("Edit", (path,), ctx)
            if edit_rule is None:
                missing.append(f"writing {path}")
            else:
                used.append(edit_rule)
        if missing:
            listed = ", ".join(f"`{m}`" for m in dict.fromkeys(missing))
            return _ask_verdict(
                f"Bash({call.display}) needs approval for {listed}: no allow rule covers it.",
                "no rule allows it",
            )
        if used:
            first = used[0]
            return PermissionDecision(
                behavior="allow",
                reason="allow rule " + ", ".join(dict.fromkeys(r.text for r in used)),
                rule=first.text,
                source=first.source,
            )
        label = "read-only command" if set(how) == {"read-only"} else "mode acceptEdits"
        return PermissionDecision(behavior="allow", reason=label)

    def _cd_inside(self, cmd: Any, ctx: ToolContext, dirs: tuple[str, ...]) -> bool:
        from hands.permissions.bash import expand_path

        args = cmd.args
        if len(args) == 1:
            return False  # ``cd`` alone goes home
        target = args[1].value
        if target is None or len(args) > 2:
            return False
        return inside(expand_path(target, cwd=ctx.cwd, home=self.home), dirs)

    # -- files --------------------------------------------------------------------------

    def _allowed_path(
        self, tool_name: str, paths: tuple[str, ...], ctx: ToolContext
    ) -> PermissionRule | None:
        """An allow rule that covers every one of ``paths`` (link and target)."""
        for rule in self.rules_for("allow", tool_name):
            if rule.bare:
                return rule
            if rule.kind == "path" and all(
                self._path_matches(rule, p, ctx, loose=False) for p in paths
            ):
                return rule
        return None

    def _read(self, name: str, call: _Call, ctx: ToolContext) -> PermissionDecision:
        if name in ("Grep", "Glob"):
            self.install_read_denials(ctx)
        dirs = self.working_dirs(ctx)
        if all(inside(p, dirs) for p in call.paths):
            return PermissionDecision(
                behavior="allow", reason="read inside the working directories"
            )
        rule = self._allowed_path(name, call.paths, ctx)
        if rule is not None:
            return _by_rule(rule)
        return _ask_verdict(
            f"{name}({call.display}) is outside the working directories ({', '.join(dirs[:3])}).",
            "outside the working directories",
        )

    def _edit(
        self, name: str, call: _Call, ctx: ToolContext, mode: PermissionMode
    ) -> PermissionDecision:
        for path in call.paths:
            why = protected_reason(path)
            if why is not None:
                return _ask_verdict(
                    f"{name}({call.display}): {why}, so changes to it always need approval.",
                    "protected path",
                    hook=False,
                )
        dirs = self.working_dirs(ctx)
        if mode == "acceptEdits" and all(inside(p, dirs) for p in call.paths):
            return PermissionDecision(behavior="allow", reason="mode acceptEdits")
        rule = self._allowed_path(name, call.paths, ctx)
        if rule is not None:
            return _by_rule(rule)
        where = (
            "" if all(inside(p, dirs) for p in call.paths) else " (outside the working directories)"
        )
        return _ask_verdict(f"{name}({call.display}) changes a file{where}.", "no rule allows it")

    def _other(
        self,
        tool: Tool[Any, Any],
        name: str,
        call: _Call,
        input: BaseModel,
        read_only: bool,
        mode: PermissionMode,
    ) -> PermissionDecision:
        for rule in self.rules_for("allow", name):
            m = rule.matcher
            if rule.bare:
                return _by_rule(rule)
            if isinstance(m, DomainPattern) and call.host is not None and m.matches(call.host):
                return _by_rule(rule)
            if isinstance(m, NamePattern) and call.value is not None and m.matches(call.value):
                return _by_rule(rule)
            if rule.kind == "command" and call.command and m.matches(call.command):  # type: ignore[union-attr]
                return _by_rule(rule)
        if read_only and name not in ASKS_BY_DEFAULT and not name.startswith("mcp__"):
            return PermissionDecision(behavior="allow", reason="read-only tool")
        if mode == "acceptEdits" and tool.edits_files:
            return PermissionDecision(behavior="allow", reason="mode acceptEdits")
        label = f"{name}({call.display})" if call.display else name
        return _ask_verdict(f"{label} needs permission to run.", "no rule allows it")

    # -- the search tools' view of Read deny rules --------------------------------------

    def read_deny_lines(self, ctx: ToolContext) -> tuple[str, ...]:
        """Read deny rules as gitignore lines relative to ``/``."""
        key = self._str(ctx.cwd)
        lines = self._seam_lines.get(key)
        if lines is None:
            out: list[str] = []
            for rule in self.rules_for("deny", "Read"):
                m = rule.matcher
                if rule.tool == "Read" and isinstance(m, PathPattern):
                    out.append(
                        m.gitignore_line(
                            cwd=key,
                            home=self._str(self.home),
                            source_root=self._str(rule.origin.root),
                        )
                    )
            lines = tuple(dict.fromkeys(out))
            self._seam_lines[key] = lines
        return lines

    def install_read_denials(self, ctx: ToolContext) -> None:
        """Fill the session's Read-deny seam, so Glob and Grep leave denied files out."""
        from hands.tools.search._deny import read_deny_seam

        lines = self.read_deny_lines(ctx)
        seam = read_deny_seam(ctx)
        if seam.patterns != lines or seam.root != Path("/"):
            seam.set_patterns(lines, root=Path("/"))


_GROUP_NAME = re.compile(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>")


def _floats(rule: PermissionRule) -> bool:
    m = rule.matcher
    return isinstance(m, PathPattern) and (m.floating or m.single_dir)


def _ask_verdict(message: str, reason: str, *, hook: bool = True) -> PermissionDecision:
    return PermissionDecision(behavior="ask", message=message, reason=reason, hook_can_approve=hook)


def _by_rule(rule: PermissionRule) -> PermissionDecision:
    return PermissionDecision(
        behavior="allow", reason=f"allow rule {rule.text}", rule=rule.text, source=rule.source
    )


def _host(url: str) -> str | None:
    from urllib.parse import urlsplit

    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return host.lower().rstrip(".") if host else None


def _resolve_all(raws: Iterable[str], bases: list[Path], home: Path) -> list[str]:
    """Each path against every directory the command may be in, globs expanded, with targets."""
    from hands.permissions.bash import expand_path

    out: list[str] = []
    for raw in raws:
        if not raw or raw == "-":
            continue
        for base in dict.fromkeys(bases):
            path = expand_path(raw, cwd=base, home=home)
            candidates = [path]
            if any(c in raw for c in _GLOB_CHARS):
                candidates.extend(_expand_glob(path))
            for c in candidates:
                out.extend(link_and_target(c))
    return out


def _expand_glob(pattern: str) -> list[str]:
    import glob

    found: list[str] = []
    for match in glob.iglob(pattern):  # noqa: PTH207 - a shell glob over absolute paths
        found.append(match)
        if len(found) >= MAX_GLOB_MATCHES:
            break
    return found


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
