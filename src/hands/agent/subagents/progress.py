"""What a running sub-agent reports to its caller: its messages and its current tool."""

from __future__ import annotations

from dataclasses import dataclass

from hands.core.messages import Message


@dataclass(frozen=True, kw_only=True, slots=True)
class SubagentUpdate:
    """Progress of the Agent call: a message of the sub-agent, or its latest tool.

    ``parent_tool_use_id`` is the Agent call the message belongs under (a nested
    sub-agent's messages keep their own caller's id as they are passed up).
    """

    agent_id: str
    agent_type: str
    description: str
    parent_tool_use_id: str
    tool_uses: int = 0
    current: str | None = None
    """The tool it is running, as ``Name(summary)``; ``None`` between tools."""
    message: Message | None = None
    """A message of its conversation, as it was appended (stream-json shows them)."""
    model: str = ""
    tokens: int = 0
    """Input and output tokens of its requests so far."""

    def line(self) -> str:
        """One line for people: the current tool and the count so far."""
        uses = f"{self.tool_uses} tool use" + ("" if self.tool_uses == 1 else "s")
        doing = self.current or "thinking"
        return f"{self.agent_type}: {doing} · {uses}"
