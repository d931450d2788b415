"""What ``/status``, ``/config`` and ``/cost`` show about the running session."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rich.table import Column, Table
from rich.text import Text

from hands.core.words import plural
from hands.models.base import Usage
from hands.models.ledger import UsageLedger

if TYPE_CHECKING:
    from hands.cli.session_setup import AgentSetup
    from hands.config.settings import Settings

_VALUE_CHARS = 70
"""A setting's value is cut to this width in ``/config``."""


def status_table(setup: AgentSetup, mode: str) -> Table:
    """Model, directory, session, permission mode, settings files, memory and MCP servers."""
    from hands.agent.system_prompt import instruction_files
    from hands.cli.repl_commands import describe_mode

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("model", setup.model.name)
    grid.add_row("directory", str(setup.cwd))
    grid.add_row("session", setup.session.id)
    grid.add_row("permissions", describe_mode(mode) + " (Shift-Tab cycles)")
    files = [f"{s.label} ({s.scope})" for s in setup.settings.sources]
    grid.add_row("settings", "\n".join(files) or "no settings file")
    memory = [str(path) for path, _ in instruction_files(setup.cwd)]
    grid.add_row("memory", "\n".join(memory) or "no memory file")
    servers = [
        f"{s.name}: {s.state}" + (f" ({plural(len(s.tools), 'tool')})" if s.tools else "")
        for s in setup.mcp.status()
    ]
    grid.add_row("MCP servers", "\n".join(servers) or "none configured")
    return grid


def config_table(settings: Settings) -> Table:
    """Each setting in force, its value and the file it comes from (strongest wins)."""
    table = Table("setting", "value", Column("from", overflow="fold"))  # paths whole
    seen: set[str] = set()
    merged = {"permissions", "env", "hooks"}
    for source in settings.sources:
        for key, value in source.data.items():
            if key in merged:
                continue
            if key in seen:
                continue
            seen.add(key)
            table.add_row(key, _short(value), f"{source.label} ({source.scope})")
    for key in sorted(merged):
        holders = [s.label for s in settings.sources if key in s.data]
        if holders:
            table.add_row(key, "merged from every file that sets it", "\n".join(holders))
    table.add_row("permission mode", settings.default_mode, settings.mode_source or "default")
    for label in settings.untrusted_files:
        table.add_row("(ignored)", "allow rules, directories, mode: workspace not trusted", label)
    return table


def _short(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False, default=str)
    return shown if len(shown) <= _VALUE_CHARS else shown[: _VALUE_CHARS - 1] + "…"


def cost_text(usage: Usage, ledger: UsageLedger, turns: int) -> Text:
    """Tokens in and out, cache use, and the cost of the session so far, per model.

    The same numbers as a ``-p`` result's ``total_cost_usd`` and ``modelUsage``.
    """
    tokens = (
        f"{usage.input_tokens:,} in · {usage.output_tokens:,} out · "
        f"{usage.cache_creation_input_tokens:,} written to the cache · "
        f"{usage.cache_read_input_tokens:,} read from it"
    )
    lines = [f"{plural(turns, 'prompt')} so far", f"tokens: {tokens}"]
    if not ledger.by_model:
        lines.append("cost: $0.0000")
    elif ledger.priced:
        lines.append(f"cost: ${ledger.total_cost_usd:.4f} at list prices (an estimate)")
    elif ledger.total_cost_usd:
        lines.append(
            f"cost: ${ledger.total_cost_usd:.4f} at list prices, not counting a model hands "
            "has no price for"
        )
    else:
        lines.append("cost: not known for this model (hands has no price for it)")
    if len(ledger.by_model) > 1:
        for name, share in ledger.by_model.items():
            price = f"${share.cost_usd:.4f}" if share.priced else "no price"
            lines.append(
                f"  {name}: {plural(share.requests, 'request')}, {share.usage.input_tokens:,} "
                f"in · {share.usage.output_tokens:,} out · {price}"
            )
    return Text("\n".join(lines))
