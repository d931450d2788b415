"""``/context``: what fills the context window, per category, in tokens.

The counts are compaction's own estimates (characters / 4, images at a flat rate), so
the figures here and the point at which the conversation compacts agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text

from hands.agent.compaction.tokens import estimate, estimate_text, estimate_tools

if TYPE_CHECKING:
    from hands.cli.repl import Repl
    from hands.core.messages import Message
    from hands.core.tool import ToolSpec

_INSTRUCTIONS = re.compile(r"<instructions source=\"[^\"]*\">.*?</instructions>", re.DOTALL)
_BAR = 40


@dataclass(frozen=True, kw_only=True, slots=True)
class ContextUse:
    """The context window's parts, in tokens."""

    window: int
    limit: int
    """Where auto-compaction starts."""
    parts: tuple[tuple[str, int], ...]

    @property
    def used(self) -> int:
        """The tokens taken."""
        return sum(tokens for _, tokens in self.parts)

    @property
    def free(self) -> int:
        """The tokens left."""
        return max(0, self.window - self.used)


def measure(
    *,
    system: str,
    tools: Sequence[ToolSpec],
    history: Sequence[Message],
    window: int,
    limit: int,
) -> ContextUse:
    """Split a request of ``history`` with ``system`` and ``tools`` into its categories."""
    memory = "".join(m.group(0) for m in _INSTRUCTIONS.finditer(system))
    mcp = [t for t in tools if t.name.startswith("mcp__")]
    own = [t for t in tools if not t.name.startswith("mcp__")]
    parts = (
        ("system prompt", estimate_text(system) - estimate_text(memory)),
        ("tool definitions", estimate_tools(own)),
        ("MCP tools", estimate_tools(mcp)),
        ("memory files", estimate_text(memory)),
        ("messages", estimate(history)),
    )
    return ContextUse(window=window, limit=limit, parts=parts)


def render(use: ContextUse, *, model: str, counted: int | None) -> str:
    """The table ``/context`` prints; ``counted``: the provider's count of the last request."""
    share = 100 * use.used / use.window
    lines = [
        f"context of {model}: ~{use.used:,} of {use.window:,} tokens ({share:.0f}%)",
        _bar(use),
    ]
    rows = [*use.parts, ("free space", use.free)]
    width = max(len(name) for name, _ in rows) + 2
    for name, tokens in rows:
        lines.append(f"  {name:<{width}}{tokens:>10,}  {100 * tokens / use.window:5.1f}%")
    lines.append(f"compacts at ~{use.limit:,} tokens")
    if counted is not None:
        lines.append(f"the last request, as the provider counted it: {counted:,} tokens")
    return "\n".join(lines)


def _bar(use: ContextUse) -> str:
    filled = min(_BAR, round(_BAR * use.used / use.window))
    return "[" + "#" * filled + "." * (_BAR - filled) + "]"


async def run(repl: Repl, arg: str) -> bool:
    """Print what fills the window now."""
    setup = repl.setup
    settings = setup.compaction
    name = setup.model.name
    use = measure(
        system=setup.system_prompt,
        tools=setup.source.current_pool().specs(),
        history=setup.history,
        window=settings.window_for(setup.model),
        limit=settings.limit_for(setup.model),
    )
    repl.console.print(Text(render(use, model=name, counted=repl.context_tokens)))
    return True
