"""Background sub-agents of a session: their state, output file and final result.

The agent layer starts them and keeps these records up to date; TaskOutput and TaskStop
read and stop them through this registry, without knowing how an agent runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeAlias

import anyio

from hands.core.session import Session

AgentStatus: TypeAlias = Literal["running", "completed", "failed", "stopped"]


@dataclass(kw_only=True, slots=True)
class BackgroundAgent:
    """One sub-agent running (or run) in the background."""

    id: str
    agent_type: str
    description: str
    output_path: Path
    """Its progress lines and, at the end, its result; the Read tool can open it."""
    parent_id: str | None = None
    """The agent that started it (``None``: the main agent)."""
    status: AgentStatus = "running"
    result: str = ""
    """The final text (or the error) once it ended."""
    done: anyio.Event = field(default_factory=anyio.Event)
    stop: Callable[[], object] = field(default=lambda: None)
    """Cancels it (set by whoever runs it)."""
    resume: Callable[[str], object] | None = None
    """Once it ended: runs it again from its conversation with this text as its next user
    turn (set by whoever ran it; ``None``: it cannot be resumed)."""
    _read: int = 0

    def log(self, line: str) -> None:
        """Append a progress line to the output file."""
        with self.output_path.open("a", encoding="utf-8") as f:
            f.write(line.rstrip("\n") + "\n")

    def finish(self, status: AgentStatus, result: str) -> None:
        """Record the end: the status, and the result written to the output file."""
        self.status, self.result = status, result
        self.log(f"--- {status} ---\n{result}")
        self.done.set()

    def restart(self) -> None:
        """Mark it running again (a resume); its end will be recorded anew."""
        self.status, self.result, self.done = "running", "", anyio.Event()
        self.log("--- resumed ---")

    def read_new(self) -> str:
        """The output file's text since the previous read."""
        try:
            text = self.output_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        new, self._read = text[self._read :], len(text)
        return new


class BackgroundAgents:
    """The session's background sub-agents, by id."""

    def __init__(self) -> None:
        self._agents: dict[str, BackgroundAgent] = {}
        self.stops_with_session = False
        """Whether :meth:`stop_all` is registered to run when the session closes."""

    @classmethod
    def for_session(cls, session: Session) -> BackgroundAgents:
        """The registry of ``session``."""
        return session.service(cls)

    def add(self, agent: BackgroundAgent) -> None:
        """Keep ``agent``."""
        self._agents[agent.id] = agent

    def get(self, agent_id: str) -> BackgroundAgent | None:
        """The agent with that id, if any."""
        return self._agents.get(agent_id)

    def all(self) -> list[BackgroundAgent]:
        """Every agent, in the order they started."""
        return list(self._agents.values())

    def named(self, name: str) -> list[BackgroundAgent]:
        """The agents ``name`` means: the one with that id, else those whose task it is."""
        found = self._agents.get(name.strip())
        if found is not None:
            return [found]
        wanted = name.strip().casefold()
        return [a for a in self._agents.values() if a.description.casefold() == wanted]

    def running(self) -> list[BackgroundAgent]:
        """The agents still running."""
        return [a for a in self._agents.values() if a.status == "running"]

    async def wait(self, agent: BackgroundAgent, seconds: float) -> None:
        """Until ``agent`` ends, at most ``seconds``."""
        with anyio.move_on_after(seconds):
            await agent.done.wait()

    async def stop_all(self) -> None:
        """Stop every running agent and wait a little for each to settle."""
        for agent in self.running():
            agent.stop()
        with anyio.move_on_after(5):
            for agent in self.running():
                await agent.done.wait()
