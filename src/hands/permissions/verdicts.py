"""The built-in checks after the rules, and the allow rules, per kind of subject.

Reads inside the working directories, read-only and ``acceptEdits`` shell commands,
protected paths, edits. Each returns allow, or an ask the engine finishes (mode
``dontAsk``, hook approval).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hands.core.decision import PermissionDecision
from hands.core.subject import EDIT_RULES
from hands.permissions.outside import outside_read
from hands.permissions.paths import inside, protected_reason
from hands.permissions.plan_mode import plan_file
from hands.permissions.rules import DomainPattern, NamePattern, PermissionRule

if TYPE_CHECKING:
    from hands.core.context import PermissionMode, ToolContext
    from hands.core.tool import Tool
    from hands.permissions.matching import RuleIndex
    from hands.permissions.subject import CallSubject
    from hands.shell.analysis import Analysis

_HARMLESS_OPAQUE = (
    "command substitution", "backticks", "subshell", "process substitution",
    "arithmetic expansion", "if statement", "elif clause", "else clause", "while statement",
    "for statement", "c style for statement", "case statement", "case item", "do group",
    "test command", "test that evaluates its operands", "variable",
    "brace expansion", "here-document with expansions", "ANSI-C or translated quoting",
)  # fmt: skip
"""Constructs whose inner commands are all checked, so they do not block an allow.

``${…}`` (which may assign, ``${X:=v}``, or build text from escapes) and groups in braces
are left out: Claude Code asks about them under an allow rule, and so does hands."""
_NOT_READ_ONLY = frozenset(
    {"command substitution", "backticks", "subshell", "process substitution", "case statement",
     "case item", "variable", "parameter expansion", "brace expansion", "group in braces",
     "here-document with expansions", "ANSI-C or translated quoting"}
)  # fmt: skip
"""Constructs that keep a command line from being approved as read-only (a rule may still)."""


def ask_verdict(message: str, reason: str, *, hook: bool = True) -> PermissionDecision:
    """An ask; ``hook``: whether a PreToolUse ``allow`` may answer it."""
    return PermissionDecision(behavior="ask", message=message, reason=reason, hook_can_approve=hook)


def by_rule(rule: PermissionRule) -> PermissionDecision:
    """Allowed by ``rule`` (made once per rule: decisions are immutable)."""
    found = _BY_RULE.get(id(rule))
    if found is not None and found[0] is rule:
        return found[1]
    decision = PermissionDecision(
        behavior="allow", reason=f"allow rule {rule.text}", rule=rule.text, source=rule.source
    )
    if len(_BY_RULE) >= _BY_RULE_MAX:
        _BY_RULE.clear()
    _BY_RULE[id(rule)] = (rule, decision)
    return decision


# Keyed by the rule's identity (path rules hold unhashable matchers); each entry keeps its
# rule alive, so an id is never reused while it is a key.
_BY_RULE: dict[int, tuple[PermissionRule, PermissionDecision]] = {}
_BY_RULE_MAX = 1024


# -- files ------------------------------------------------------------------------------


def read_verdict(
    index: RuleIndex,
    tool: Tool[Any, Any],
    call: CallSubject,
    ctx: ToolContext,
    dirs: tuple[str, ...],
) -> PermissionDecision:
    """A read: allowed in the working directories, the session's own files, or by rule."""
    if all(inside(p, dirs) for p in call.paths):
        return _READ_INSIDE
    results = _results_dirs(ctx)
    if all(inside(p, dirs) or inside(p, results) for p in call.paths):
        return _READ_OWN
    rule = index.allowed_path(index.rules_for("allow", tool), call.paths, ctx)
    if rule is not None:
        return by_rule(rule)
    return ask_verdict(
        f"{tool.name}({call.display}) is outside the working directories ({', '.join(dirs[:3])}).",
        "outside the working directories",
    )


def _results_dirs(ctx: ToolContext) -> tuple[str, ...]:
    """The session's saved-results directory and plan file, as written and resolved."""
    out: list[str] = []
    for own in (ctx.session.results_directory, plan_file(ctx.session)):
        written = os.path.normpath(own.absolute())
        out += [written, os.path.realpath(written)]
    return tuple(dict.fromkeys(out))


def edit_verdict(
    index: RuleIndex,
    tool: Tool[Any, Any],
    call: CallSubject,
    ctx: ToolContext,
    mode: PermissionMode,
    dirs: tuple[str, ...],
) -> PermissionDecision:
    """A write: never a protected path unasked; ``acceptEdits`` inside, or an allow rule."""
    name = tool.name
    for path in call.paths:
        why = protected_reason(path)
        if why is not None:
            return ask_verdict(
                f"{name}({call.display}): {why}, so changes to it always need approval.",
                "protected path",
                hook=False,
            )
    if mode == "acceptEdits" and all(inside(p, dirs) for p in call.paths):
        return PermissionDecision(behavior="allow", reason="mode acceptEdits")
    rule = index.allowed_path(index.rules_for("allow", tool), call.paths, ctx)
    if rule is not None:
        return by_rule(rule)
    where = "" if all(inside(p, dirs) for p in call.paths) else " (outside the working directories)"
    return ask_verdict(f"{name}({call.display}) changes a file{where}.", "no rule allows it")


def other_verdict(
    index: RuleIndex,
    tool: Tool[Any, Any],
    call: CallSubject,
    read_only: bool,
    mode: PermissionMode,
) -> PermissionDecision:
    """Any other call: an allow rule, a read-only tool, or ``acceptEdits`` for a file tool."""
    name = tool.name
    for rule in index.rules_for("allow", tool):
        m = rule.matcher
        if rule.bare:
            return by_rule(rule)
        if isinstance(m, DomainPattern) and call.host is not None and m.matches(call.host):
            return by_rule(rule)
        if isinstance(m, NamePattern) and call.value is not None and m.matches(call.value):
            return by_rule(rule)
        if rule.kind == "command" and call.command and m.matches(call.command):  # type: ignore[union-attr]
            return by_rule(rule)
    if read_only and not tool.asks_when_read_only and not name.startswith("mcp__"):
        return _READ_ONLY
    if mode == "acceptEdits" and tool.edits_files:
        return _ACCEPT_EDITS
    label = f"{name}({call.display})" if call.display else name
    return ask_verdict(f"{label} needs permission to run.", "no rule allows it")


# decisions are immutable: the common allows are made once, not per call
_READ_ONLY = PermissionDecision(behavior="allow", reason="read-only tool")
_ACCEPT_EDITS = PermissionDecision(behavior="allow", reason="mode acceptEdits")
_READ_INSIDE = PermissionDecision(behavior="allow", reason="read inside the working directories")
_READ_OWN = PermissionDecision(behavior="allow", reason="read of this session's own files")


# -- shell commands ---------------------------------------------------------------------


def critical_rm(
    analysis: Analysis, ctx: ToolContext, *, home: Path, dirs: tuple[str, ...]
) -> str | None:
    """The critical path a removal in the command would hit, if any."""
    from hands.permissions.bash import critical_removal

    working = [Path(d) for d in dirs]
    for cmd in analysis.commands:
        found = critical_removal(cmd, cwd=ctx.cwd, home=home, working_dirs=working)
        if found:
            return found
    return None


def shell_unverifiable(analysis: Analysis, index: RuleIndex, tool: Tool[Any, Any]) -> str | None:
    """Why the tool's deny rules cannot be checked against a command not fully parsed."""
    code = _inline_code(analysis)
    joined = _JOINED_WORD.search(analysis.source) is not None
    if analysis.understood and code is None and not joined:
        return None
    if not any(r.kind == "command" for r in index.rules_for("deny", tool)):
        return None
    if joined:
        return (
            f"A line continuation inside a word joins it with the next line, so the "
            f"{tool.name} deny rules cannot be checked against the command; it needs approval "
            "(even in bypassPermissions mode or in the sandbox)."
        )
    if code is not None:
        return (
            f"{code} runs code the {tool.name} deny rules cannot be checked against; it needs "
            "approval (even in bypassPermissions mode or in the sandbox)."
        )
    why = "; ".join((*analysis.problems, *analysis.hidden)) or "not fully parsed"
    return (
        f"The command cannot be fully analysed ({why}), so the {tool.name} deny rules cannot "
        "be checked against it; it needs approval (even in bypassPermissions mode or in the "
        "sandbox)."
    )


_JOINED_WORD = re.compile(r"[^\s\\]\\\n")
"""``cu``, a backslash, a newline, ``rl``: bash removes the pair and runs ``curl``."""
_INTERPRETERS = {
    "python": "-c", "python3": "-c", "python2": "-c", "node": "-e", "nodejs": "-e",
    "deno": "eval", "bun": "-e", "perl": "-e", "ruby": "-e", "php": "-r", "lua": "-e",
    "Rscript": "-e", "osascript": "-e", "awk": "", "gawk": "",
}  # fmt: skip
"""Interpreters and the flag that gives them a program on the command line."""


def _inline_code(analysis: Analysis) -> str | None:
    """What runs a command the deny rules cannot see, if anything.

    Inline code (``python3 -c``, ``awk`` calling ``system``).
    """
    for cmd in analysis.commands:
        name = (cmd.name or "").rpartition("/")[2]
        flag = _INTERPRETERS.get(name)
        if flag is None:
            continue
        words = [a.value or a.text for a in cmd.args[1:]]
        if name in ("awk", "gawk"):
            if any("system" in w or "|" in w for w in words):
                return name
        elif any(w == flag or (w.startswith(flag) and len(flag) == 2) for w in words):
            return name
    return None


def git_unverifiable(analysis: Analysis, index: RuleIndex, tool: Tool[Any, Any]) -> str | None:
    """Why the deny and ask rules cannot be checked against a git command, or None.

    Git configuration on the command line that may run a program or define a command the
    words do not show (``-c core.pager=…``, ``--config-env=…``) hides what runs; with deny
    or ask rules about commands, such a call is asked in every mode.
    """
    from hands.permissions.bash import git_unknowable

    if not any(
        r.kind == "command" for behavior in ("deny", "ask") for r in index.rules_for(behavior, tool)
    ):
        return None
    for cmd in analysis.commands:
        why = git_unknowable(cmd)
        if why is not None:
            return (
                f"{why}, so the {tool.name} deny and ask rules cannot be checked against what "
                "it runs; it needs approval in every mode."
            )
    return None


def hook_may_approve_shell(analysis: Analysis, index: RuleIndex, tool: Tool[Any, Any]) -> bool:
    """A hook ``allow`` skips a shell ask only when the deny and ask rules were checked.

    A command the analysis cannot fully parse may hide a sub-command a deny or ask rule
    would catch, so it is not approvable while such rules exist.
    """
    if analysis.understood:
        return True
    return not any(
        r.kind == "command" for behavior in ("deny", "ask") for r in index.rules_for(behavior, tool)
    )


def shell_verdict(
    index: RuleIndex,
    tool: Tool[Any, Any],
    call: CallSubject,
    ctx: ToolContext,
    mode: PermissionMode,
    dirs: tuple[str, ...],
) -> PermissionDecision:
    """A shell command: every sub-command read-only, covered by acceptEdits, or allowed."""
    from hands.permissions.bash import accept_edits_covers, allow_forms
    from hands.shell.analysis import EVALUATING_TEST
    from hands.shell.readonly import command_is_read_only

    name = tool.name
    home = index.home
    analysis = call.analysis
    assert analysis is not None
    if not analysis.understood:
        why = "; ".join((*analysis.problems, *analysis.hidden))
        return ask_verdict(
            f"{name}({call.display}) cannot be fully analysed ({why}), so no rule can "
            "approve it automatically.",
            "not fully parsed",
        )
    outside = outside_read(index, call, ctx, dirs, name)
    if outside is not None:
        return outside
    risky = [o for o in analysis.opaque if o not in _HARMLESS_OPAQUE]
    if risky:
        return ask_verdict(
            f"{name}({call.display}) uses {', '.join(risky)}, which rules cannot approve "
            "automatically.",
            "opaque construct",
        )
    rules = index.rules_for("allow", tool)
    bare = next((r for r in rules if r.bare), None)
    command_rules = [r for r in rules if r.kind == "command"]
    names = {c.name for c in analysis.commands}
    cd_git = "cd" in names and "git" in names
    used: list[PermissionRule] = []
    how: list[str] = []
    missing: list[str] = []

    def inside_dirs(path: str) -> bool:
        # through its symlinks too, and not a protected directory being created
        real = os.path.realpath(path)
        return (
            inside(path, dirs)
            and inside(real, dirs)
            and protected_reason(path) is None
            and protected_reason(real) is None
            and protected_reason(f"{path}/-") is None
        )

    plain = not any(o in _NOT_READ_ONLY for o in analysis.opaque)
    for cmd in analysis.commands:
        if bare is not None:
            used.append(bare)
            continue
        if (
            plain
            and command_is_read_only(replace(cmd, redirects=()))  # redirects: checked below
            and not (cd_git and cmd.name in ("cd", "git"))
            and not (cmd.name == "cd" and not _cd_inside(cmd, ctx, dirs, home))
        ):
            how.append("read-only")
            continue
        if mode == "acceptEdits" and accept_edits_covers(
            cmd, cwd=ctx.cwd, home=home, inside=inside_dirs
        ):
            how.append("acceptEdits")
            continue
        forms = () if _find_acts(cmd) else allow_forms(cmd)
        found = next(
            (r for r in command_rules for f in forms if r.matcher.matches(f)),  # type: ignore[union-attr]
            None,
        )
        if found is not None:
            used.append(found)
            continue
        missing.append(cmd.text.strip() or cmd.name or "?")
    if not analysis.commands and (
        "test command" not in analysis.opaque or EVALUATING_TEST in analysis.opaque
    ):
        missing.append(call.display)

    for path in call.write_paths + call.redirect_paths:
        why = protected_reason(path)
        if why is not None:
            return ask_verdict(
                f"{name}({call.display}) writes {path}: {why}, so it always needs approval.",
                "protected path",
                hook=False,
            )
    for text in call.unclear_redirects:
        missing.append(f"the redirection {text}")
    edit_rules = index.family_rules("allow", EDIT_RULES)
    for path in call.option_write_paths:
        if path and inside(path, dirs) and inside(os.path.realpath(path), dirs):
            continue  # the allow rule of the program covers what it writes inside
        edit_rule = index.allowed_path(edit_rules, (path,), ctx) if path else None
        if edit_rule is None:
            missing.append(f"writing {path or 'a file named by a variable'}")
        else:
            used.append(edit_rule)
    for path in call.redirect_paths:
        if mode == "acceptEdits" and inside(path, dirs):
            continue
        edit_rule = index.allowed_path(edit_rules, (path,), ctx)
        if edit_rule is None:
            missing.append(f"writing {path}")
        else:
            used.append(edit_rule)
    if missing:
        listed = ", ".join(f"`{m}`" for m in dict.fromkeys(missing))
        return ask_verdict(
            f"{name}({call.display}) needs approval for {listed}: no allow rule covers it.",
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


_FIND_ACTIONS = frozenset(
    {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}
)


def _find_acts(cmd: Any) -> bool:
    """``find`` that deletes, writes or runs programs: no command rule covers it."""
    return cmd.name == "find" and any(a.value in _FIND_ACTIONS for a in cmd.args[1:])


def _cd_inside(cmd: Any, ctx: ToolContext, dirs: tuple[str, ...], home: Path) -> bool:
    from hands.permissions.bash import expand_path

    args = cmd.args
    if len(args) == 1:
        return False  # ``cd`` alone goes home
    target = args[1].value
    if target is None or len(args) > 2:
        return False
    path = expand_path(target, cwd=ctx.cwd, home=home)
    return inside(path, dirs) and inside(os.path.realpath(path), dirs)
