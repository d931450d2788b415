"""Custom slash commands: Markdown files under ``.claude/commands/`` (and ``.hands/commands/``).

``hello.md`` is ``/hello``; a file in a subfolder is namespaced by it:
``frontend/component.md`` is ``/frontend:component``. The user's commands come from the
home folder's ``.claude/commands``; the project's from the working directory's, and only
when the folder is trusted (a cloned repository's commands are project input). A
project command does not replace a user command of the same name.

Frontmatter (all optional): ``description`` (default: the body's first line),
``argument-hint``, ``allowed-tools`` (rules allowed while its ``!`` lines run),
``model`` (the turn's model) and ``disable-model-invocation`` (the model cannot run it
through the Skill tool). The body is the prompt: ``$ARGUMENTS`` and ``$N`` take the
arguments, ``!`cmd``` runs ``cmd`` (permission checked) and puts its output in its place,
``@path`` attaches a file as a typed mention does.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from hands.config.arguments import substitute
from hands.config.frontmatter import FrontmatterError, name_list, split_frontmatter
from hands.config.project_input import COMMAND_DIRS

MAX_COMMAND_BYTES = 1_000_000

_SHELL = re.compile(r"!`([^`\n]+)`")
_NAME = re.compile(r"^[\w.-]+(:[\w.-]+)*$")


@dataclass(frozen=True, kw_only=True, slots=True)
class CustomCommand:
    """One command file."""

    name: str
    """``hello``, or ``frontend:component`` for a file in a subfolder."""
    description: str
    body: str
    path: Path
    scope: Literal["user", "project"]
    argument_hint: str = ""
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    model_invocable: bool = True

    def usage(self) -> str:
        """``/name hint`` for lists and completion."""
        return f"/{self.name} {self.argument_hint}".rstrip()


@dataclass(frozen=True, kw_only=True, slots=True)
class CommandSet:
    """The session's commands by name, and a warning per file that was skipped."""

    commands: tuple[CustomCommand, ...] = ()
    warnings: tuple[str, ...] = ()

    def find(self, name: str) -> CustomCommand | None:
        """The command called ``name`` (with or without its slash)."""
        wanted = name.removeprefix("/")
        return next((c for c in self.commands if c.name == wanted), None)


def parse_command(
    path: Path, name: str, text: str, scope: Literal["user", "project"]
) -> CustomCommand:
    """The command in ``text`` (the file at ``path``); FrontmatterError when unusable."""
    split = split_frontmatter(text)
    data: Mapping[str, Any] = split[0] if split is not None else {}
    body = split[1] if split is not None else text
    first = next((line.strip() for line in body.splitlines() if line.strip()), "")
    description = str(data.get("description") or first.lstrip("# ")[:100])
    tools = data.get("allowed-tools")
    model = data.get("model")
    return CustomCommand(
        name=name,
        description=description,
        body=body.strip("\n"),
        path=path,
        scope=scope,
        argument_hint=str(data.get("argument-hint") or ""),
        allowed_tools=name_list(tools, "allowed-tools") if tools is not None else (),
        model=str(model) if isinstance(model, str) and model.strip() else None,
        model_invocable=data.get("disable-model-invocation") is not True,
    )


def _read(root: Path, scope: Literal["user", "project"]) -> tuple[list[CustomCommand], list[str]]:
    found: list[CustomCommand] = []
    warnings: list[str] = []
    for sub in COMMAND_DIRS:
        more, notes = read_command_dir(root / sub, scope)
        found += more
        warnings += notes
    return found, warnings


def read_command_dir(
    directory: Path, scope: Literal["user", "project"]
) -> tuple[list[CustomCommand], list[str]]:
    """The commands of the ``*.md`` files under ``directory`` (``a/b.md`` is ``a:b``)."""
    found: list[CustomCommand] = []
    warnings: list[str] = []
    if not directory.is_dir():
        return found, warnings
    for path in sorted(directory.rglob("*.md")):
        relative = path.relative_to(directory).with_suffix("")
        name = ":".join(relative.parts)
        if not path.is_file() or not _NAME.match(name):
            continue
        try:
            if path.stat().st_size > MAX_COMMAND_BYTES:
                raise FrontmatterError(f"it is larger than {MAX_COMMAND_BYTES:,} bytes")
            found.append(parse_command(path, name, path.read_text(encoding="utf-8"), scope))
        except (OSError, UnicodeDecodeError) as exc:
            warnings.append(f"command file {path} cannot be read: {exc}")
        except FrontmatterError as exc:
            warnings.append(f"command file {path} was skipped: {exc}")
    return found, warnings


def load_commands(*, cwd: Path, home: Path | None = None, trusted: bool) -> CommandSet:
    """The user's commands, then the project's when ``trusted`` (a user's name wins)."""
    user_home = home if home is not None else Path.home()
    user, warnings = _read(user_home, "user")
    project: list[CustomCommand] = []
    if trusted and cwd.resolve() != user_home.resolve():
        project, more = _read(cwd, "project")
        warnings += more
    merged: dict[str, CustomCommand] = {}
    for command in (*user, *project):
        merged.setdefault(command.name, command)
    return CommandSet(
        commands=tuple(sorted(merged.values(), key=lambda c: c.name)), warnings=tuple(warnings)
    )


def fill_arguments(body: str, args: str) -> str:
    """``body`` with its arguments filled in (:func:`~hands.config.arguments.substitute`).

    A body that takes none gets them after it, so they are never lost.
    """
    filled, used = substitute(body, args)
    if args.strip() and not used:
        filled = f"{filled}\n\nArguments: {args}"
    return filled


def shell_lines(body: str) -> list[str]:
    """The commands of the body's ``!`cmd``` spans, in order."""
    return [m.group(1).strip() for m in _SHELL.finditer(body)]


def put_outputs(body: str, outputs: list[str]) -> str:
    """``body`` with each ``!`cmd``` span replaced by its output (in order)."""
    replies = iter(outputs)
    return _SHELL.sub(lambda _m: next(replies, ""), body)


async def expand(command: CustomCommand, args: str, run: Callable[[str], Awaitable[str]]) -> str:
    """The prompt ``/name args`` stands for: arguments filled in, ``!`` lines run.

    ``run`` runs one shell command with the session's permission checks (and the
    command's ``allowed-tools``) and returns what to put in its place: its output, or
    why it did not run.
    """
    body = fill_arguments(command.body, args)
    outputs = [await run(line) for line in shell_lines(body)]
    return put_outputs(body, outputs)
