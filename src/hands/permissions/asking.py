"""Answering an "ask": rule suggestions, "allow always", and the interactive prompt.

"Allow always" saves shell-command and domain approvals as allow rules in
``.claude/settings.local.json`` (one per sub-command that needed approval, at most five);
path approvals (a ``Read(...)`` or ``Edit(...)`` rule) last for the session only. A
denial may carry a comment for the model. What a rule would cover comes from the
subject the tool declares.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from hands.core.decision import AskRequest, PermissionDecision
from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext
    from hands.core.tool import Tool
    from hands.permissions.engine import PermissionEngine

MAX_SAVED_RULES = 5
Prompt = Callable[[str], Awaitable[str]]

_SUBCOMMAND = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]*")
SUBCOMMAND_PROGRAMS = frozenset(
    {
        "git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "docker", "kubectl", "uv", "pip",
        "poetry", "make", "gh", "dotnet", "mvn", "gradle", "terraform", "helm", "brew", "apt",
        "rustup", "deno", "nx", "turbo", "just", "task", "composer", "bundle", "rake", "mix",
    }
)  # fmt: skip
"""Programs whose second word names a sub-command: ``git push *`` is a sensible rule."""


def suggest_rules(
    engine: PermissionEngine | None, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
) -> tuple[tuple[str, ...], bool]:
    """(rules that would approve this call next time, whether they may be saved to disk)."""
    subject = tool.permission_subject(input, ctx)
    if subject is None:
        return (tool.name,), True
    declared = subject.declared
    if subject.kind == "command" and declared.shell:
        return _shell_rules(engine, tool, subject.value), True
    if subject.kind == "domain":
        from urllib.parse import urlsplit

        host = urlsplit(subject.value).hostname
        return ((f"{tool.name}(domain:{host.lower()})",) if host else ()), True
    if subject.kind == "read" or subject.kind == "write":
        path = ctx.resolve(subject.value or str(ctx.cwd))
        family = declared.family
        target = path if subject.kind == "write" else (path if path.is_dir() else path.parent)
        suffix = "" if subject.kind == "write" else "/**"
        return (f"{family}(/{_escape_glob(str(target))}{suffix})",), False
    return (tool.name,), True


def _shell_rules(
    engine: PermissionEngine | None, tool: Tool[Any, Any], command: str
) -> tuple[str, ...]:
    from hands.permissions.bash import allow_forms
    from hands.shell.analysis import analyze
    from hands.shell.readonly import command_is_read_only

    analysis = analyze(command)
    if not analysis.understood:
        return ()
    rules = engine.rules_for("allow", tool) if engine is not None else ()
    out: list[str] = []
    for cmd in analysis.commands:
        if command_is_read_only(cmd) or not cmd.args:
            continue
        forms = allow_forms(cmd)
        if any(r.kind == "command" and r.matcher.matches(f) for r in rules for f in forms):  # type: ignore[union-attr]
            continue
        argv = [a.text for a in cmd.args]
        if len(argv) >= 2 and argv[0] in SUBCOMMAND_PROGRAMS and _SUBCOMMAND.fullmatch(argv[1]):
            text = f"{argv[0]} {argv[1]} *"
        elif len(argv) == 1:
            text = argv[0]
        else:
            text = " ".join(argv)
        rule = f"{tool.name}(" + text.replace("(", "\\(").replace(")", "\\)") + ")"
        if rule not in out:
            out.append(rule)
        if len(out) >= MAX_SAVED_RULES:
            break
    return tuple(out)


def _escape_glob(path: str) -> str:
    return re.sub(r"([*?\[\]\\!])", r"\\\1", path)


class PromptAskHandler:
    """The interactive answer to an ask: allow once, allow always, or deny with a comment.

    ``prompt`` shows a question and returns the user's line (the CLI passes a terminal
    prompt; tests pass a script). "Allow always" adds the suggested rules to the engine
    and, for shell commands and domains, to ``.claude/settings.local.json`` in
    ``project_dir``.
    """

    def __init__(
        self,
        *,
        prompt: Prompt,
        project_dir: Path,
        engine: PermissionEngine | None = None,
    ) -> None:
        self._prompt = prompt
        self._project_dir = project_dir
        self._engine = engine

    async def __call__(self, request: AskRequest) -> PermissionDecision:
        """Ask the user about one call."""
        tool = request.tool
        suggestions, persistent = suggest_rules(self._engine, tool, request.input, request.context)
        label = f"{tool.user_facing_name(request.input)}({tool.describe_input(request.input)})"
        lines = [request.message or f"{label} needs permission."]
        if request.context.agent_type is not None:  # a sub-agent's call, shown as such
            lines[0] = f"[{request.context.agent_type} agent] {lines[0]}"
        lines += await _what_it_does(request)
        choices = ["Yes"]
        if suggestions:
            where = "in .claude/settings.local.json" if persistent else "for this session"
            choices.append(f"Yes, and don't ask again ({', '.join(suggestions)} {where})")
        choices.append("No, and tell the model what to do instead")
        lines += [f"  {number}. {choice}" for number, choice in enumerate(choices, start=1)]
        refuse = str(len(choices))
        answer = (await self._prompt(visible("\n".join(lines)) + "\n> ")).strip().lower()
        if answer in ("1", "y", "yes"):
            return PermissionDecision(behavior="allow", reason="approved by the user")
        if answer in ("2", "a", "always") and suggestions:
            self._remember(suggestions, persistent)
            return PermissionDecision(
                behavior="allow",
                reason="approved by the user, always",
                rule=suggestions[0],
                source=".claude/settings.local.json" if persistent else "session",
            )
        comment = ""
        if answer not in ("", refuse, "n", "no"):
            comment = answer
        else:
            comment = (await self._prompt("Tell the model what to do instead (optional): ")).strip()
        message = f"The user denied {label}; it was not run."
        if comment:
            message += f" The user says: {comment}"
        else:
            message += " Stop and wait for the user to say how to go on."
        return PermissionDecision(behavior="deny", message=message, reason="denied by the user")

    def _remember(self, rules: tuple[str, ...], persistent: bool) -> None:
        if persistent:
            from hands.config.settings import add_local_allow_rules

            path = add_local_allow_rules(self._project_dir, rules)
            origin = RuleOrigin(
                scope="localSettings", label=str(path), root=self._project_dir, path=path
            )
        else:
            origin = RuleOrigin(scope="session", label="session", root=self._project_dir)
        if self._engine is None:
            return
        parsed: list[PermissionRule] = []
        for text in rules:
            rule = parse_rule(text, "allow", origin)
            if isinstance(rule, PermissionRule):
                parsed.append(rule)
        self._engine.add_rules(parsed)


async def _what_it_does(request: AskRequest) -> list[str]:
    """The call in full (the tool's own preview) and where it runs, for the question."""
    out: list[str] = []
    try:
        preview = await request.tool.preview(request.input, request.context)
    except Exception as exc:  # a preview that fails must not stop the question being asked
        preview = f"(the tool could not show what it will do: {exc})"
    if preview:
        out += [f"    {line}" for line in preview.splitlines() or [""]]
    description = getattr(request.input, "description", None)  # what the model says it does
    if isinstance(description, str) and description.strip():
        out.append(f"    ({' '.join(description.split())})")
    ctx = request.context
    if ctx.project_dir is not None and PurePath(ctx.cwd) != PurePath(ctx.project_dir):
        out.append(f"  in {ctx.cwd}")
    return out


_HIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")


def visible(text: str) -> str:
    """``text`` with characters a terminal would hide or act on shown as escapes."""
    return _HIDDEN.sub(lambda m: repr(m.group())[1:-1], text.replace("\t", "    "))


def terminal_prompt() -> Prompt:
    """A prompt that reads a line from the terminal without blocking the event loop."""

    async def prompt(text: str) -> str:
        import anyio.to_thread

        try:
            return await anyio.to_thread.run_sync(input, text)
        except EOFError:
            return "3"

    return prompt
