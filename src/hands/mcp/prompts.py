"""MCP prompts as commands: ``/mcp__<server>__<prompt> args`` in the REPL, or the library.

A server that offers prompts has them listed at connection (and again on
``notifications/prompts/list_changed``). :func:`parse_arguments` maps the words typed
after the command onto the prompt's arguments in order (the last one takes the rest);
``name=value`` words name an argument. :func:`prompt_messages` turns a
``prompts/get`` result into plain (role, text) pairs for the conversation.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from hands.errors import ToolError
from hands.mcp.naming import tool_name


@dataclass(frozen=True, kw_only=True, slots=True)
class PromptArgument:
    """One argument a prompt takes."""

    name: str
    description: str = ""
    required: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class McpPromptDef:
    """What ``prompts/list`` said about one prompt."""

    server: str
    name: str
    description: str = ""
    arguments: tuple[PromptArgument, ...] = ()

    @property
    def command(self) -> str:
        """The command's name, without the slash: ``mcp__<server>__<prompt>``."""
        return tool_name(self.server, self.name)

    def usage(self) -> str:
        """``/command <arg> [optional]`` for help texts."""
        words = [f"<{a.name}>" if a.required else f"[{a.name}]" for a in self.arguments]
        return " ".join([f"/{self.command}", *words])


@dataclass(frozen=True, kw_only=True, slots=True)
class PromptMessage:
    """One message of a ``prompts/get`` result, as text."""

    role: str
    text: str


def prompt_defs(server: str, result: Any) -> list[McpPromptDef]:
    """``ListPromptsResult`` → prompt definitions."""
    out: list[McpPromptDef] = []
    for prompt in cast(Sequence[Any], result.prompts):
        args = tuple(
            PromptArgument(name=a.name, description=a.description or "", required=bool(a.required))
            for a in cast(Sequence[Any], prompt.arguments or ())
        )
        out.append(
            McpPromptDef(
                server=server,
                name=prompt.name,
                description=prompt.description or "",
                arguments=args,
            )
        )
    return out


def parse_arguments(prompt: McpPromptDef, text: str) -> dict[str, str]:
    """The words after the command → the prompt's arguments; ToolError when one is missing."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    named: dict[str, str] = {}
    positional: list[str] = []
    known = {a.name for a in prompt.arguments}
    for word in words:
        key, sep, value = word.partition("=")
        if sep and key in known:
            named[key] = value
        else:
            positional.append(word)
    free = [a for a in prompt.arguments if a.name not in named]
    for index, arg in enumerate(free):
        if index >= len(positional):
            break
        last = index == len(free) - 1
        named[arg.name] = " ".join(positional[index:]) if last else positional[index]
    missing = [a.name for a in prompt.arguments if a.required and a.name not in named]
    if missing:
        raise ToolError(f"{prompt.usage()}: missing {', '.join(missing)}")
    return named


def prompt_messages(server: str, result: Any) -> list[PromptMessage]:
    """``GetPromptResult`` → (role, text) messages; non-text content is described."""
    out: list[PromptMessage] = []
    for message in cast(Sequence[Any], result.messages):
        content = message.content
        kind = getattr(content, "type", None)
        if kind == "text":
            text = content.text
        elif kind == "resource":
            res = content.resource
            body = getattr(res, "text", None)
            text = f"[Resource from {server} at {res.uri}]\n{body}" if body else str(res.uri)
        else:
            text = f"[{kind} content from {server} not shown]"
        out.append(PromptMessage(role=str(message.role), text=text))
    return out
