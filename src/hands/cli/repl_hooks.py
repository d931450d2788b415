"""``/hooks``: every configured hook by event, the file it comes from, and whether it runs.

A project file of a folder the user has not trusted is listed too, marked as not run,
so the user sees what trusting the folder would turn on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text

from hands.hooks.config import parse_hooks

if TYPE_CHECKING:
    from hands.cli.repl import Repl
    from hands.config.settings import Settings


@dataclass(frozen=True, kw_only=True, slots=True)
class HookLine:
    """One handler under one event."""

    event: str
    matcher: str
    handler: str
    source: str
    state: str
    """``runs``, or why it does not."""


def hook_lines(settings: Settings) -> tuple[list[HookLine], list[str]]:
    """Every hook of every settings file, by event, and the files' hook warnings."""
    untrusted = set(settings.untrusted_files)
    every_off = settings.value("disableAllHooks") is True
    managed_only = any(
        s.scope == "managed" and s.data.get("allowManagedHooksOnly") is True
        for s in settings.sources
    )
    states: dict[str, str] = {}
    pairs: list[tuple[str, Mapping[str, Any]]] = []
    for source in settings.sources:
        if not source.hooks:
            continue
        pairs.append((source.label, source.hooks))
        if source.label in untrusted:
            states[source.label] = "not run: the folder is not trusted"
        elif every_off:
            states[source.label] = "off: disableAllHooks"
        elif managed_only and source.scope != "managed":
            states[source.label] = "off: managed settings allow only their own"
        else:
            states[source.label] = "runs"
    config = parse_hooks(pairs)
    lines = [
        HookLine(
            event=event,
            matcher=group.matcher or "*",
            handler=handler.label,
            source=handler.source,
            state=states.get(handler.source, "runs"),
        )
        for event, groups in sorted(config.groups.items())
        for group in groups
        for handler in group.handlers
    ]
    return lines, list(config.warnings)


def render(lines: list[HookLine]) -> Text:
    """Each event, then under it one line per hook and one saying where it comes from."""
    out = Text()
    event = ""
    for line in lines:
        if line.event != event:
            event = line.event
            out.append(f"{event}\n", style="bold")
        style = "" if line.state == "runs" else "dim"
        out.append(f"  [{line.matcher}] {line.handler}\n", style=style)
        out.append(f"      {line.state} · from {line.source}\n", style="dim")
    out.rstrip()
    return out


async def run(repl: Repl, arg: str) -> bool:
    """Print the hooks by event."""
    lines, warnings = hook_lines(repl.setup.settings)
    console = repl.console
    for warning in warnings:
        console.print(Text(f"warning: {warning}", style="yellow"))
    if not lines:
        console.print(Text("No hooks are configured.", style="dim"))
        return True
    console.print(render(lines))
    return True
