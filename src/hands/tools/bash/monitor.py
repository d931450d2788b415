"""Monitor: run a command in the background and hear each line it prints as it comes.

The command starts as a background task (as Bash with ``run_in_background``: the same
sandbox, environment and output file). New complete lines are delivered to the agent that
started it, a batch at a time, as ``<task-notification>`` blocks with status ``running``,
each before the agent's next model request, so the model reacts to events instead of
polling with sleep. The watch ends when the command exits (its last lines come first,
then the usual end notice) or when ``timeout_ms`` runs out (the command is stopped and
the end notice says so). The command is checked as a Bash command is, against the
``Bash(...)`` rules as well as ``Monitor(...)`` ones.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from pydantic import Field

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision
from hands.core.inbox import Inbox, task_notice
from hands.core.schema import ToolInput
from hands.core.subject import runs_command
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.bash._shells import BackgroundShells
from hands.tools.bash.bash import BashInput, BashTool

DEFAULT_TIMEOUT_MS = 300_000
MIN_TIMEOUT_MS = 1_000
MAX_TIMEOUT_MS = 600_000
"""Longer deadlines are taken as this one (shorter ones as the minimum)."""
POLL_SECONDS = 0.2
"""How often the output file is looked at for new lines."""
MAX_NOTICE_CHARS = 8_000
"""Text of one batch of lines; the rest of a burst is counted and stays in the file."""


class MonitorInput(ToolInput):
    """Input of Monitor."""

    description: str = Field(
        description="A few words saying what is watched (shown with every event)"
    )
    timeout_ms: float = Field(
        default=DEFAULT_TIMEOUT_MS,
        allow_inf_nan=False,
        description=f"Stop watching (and the command) after this long, from {MIN_TIMEOUT_MS} "
        f"to {MAX_TIMEOUT_MS} ms (others are taken as the nearest). You are told when it "
        "runs out and can start again.",
    )
    command: str | None = Field(
        default=None,
        description="Shell command whose every printed line is an event; its exit ends the "
        "watch (e.g. `tail -f build.log | grep --line-buffered ERROR`)",
    )
    ws: dict[str, Any] | None = Field(
        default=None, description="A WebSocket to watch (not available here: use command)"
    )

    @property
    def limit_ms(self) -> int:
        """The deadline used: ``timeout_ms`` within the bounds."""
        return int(min(max(self.timeout_ms, MIN_TIMEOUT_MS), MAX_TIMEOUT_MS))


@dataclass(frozen=True, kw_only=True, slots=True)
class MonitorStarted:
    """The watch that began."""

    task_id: str
    description: str
    output_path: str
    timeout_ms: int


class MonitorTool(Tool[MonitorInput, MonitorStarted]):
    """Watch a command's output line by line."""

    name = "Monitor"
    session_states = (BackgroundShells,)
    description = (
        "Start a command in the background and get each line it prints as an event, "
        "delivered to you as it comes, until the command exits or timeout_ms runs out. Use "
        "it instead of sleeping and polling: to wait for a log line, a build or a server to "
        "be ready, a file to change. Filter in the command (grep --line-buffered) so that "
        "only lines that matter arrive. TaskStop ends it early; TaskOutput reads its output."
    )
    input_model = MonitorInput
    # the command meets the shell tool's rules too, as in Claude Code (Bash(tail:*) ...)
    subject = runs_command(shell=True, shares_rules_of=BashTool.name)
    should_defer = True
    in_background_agents = True
    search_hint = "watch command output or a log, wait for events instead of polling"

    def is_read_only(self, input: MonitorInput) -> bool:
        from hands.shell.analysis import is_read_only

        return input.command is not None and is_read_only(input.command)

    async def validate_input(self, input: MonitorInput, ctx: ToolContext) -> str | None:
        if input.ws is not None:
            return (
                "Watching a WebSocket is not available here. Watch it with a command that "
                "prints one line per message (websocat, a small script) as command instead."
            )
        if input.command is None or not input.command.strip():
            return "Give the command to watch (each line it prints is an event)."
        return None

    async def check_permissions(self, input: MonitorInput, ctx: ToolContext) -> PermissionDecision:
        bash, data = _as_bash(input)
        return await bash.check_permissions(data, ctx)

    async def call(
        self, input: MonitorInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[MonitorStarted]:
        bash, data = _as_bash(input)
        started = await bash.call(data, ctx, progress)
        task_id = started.output.background_task_id
        task = BackgroundShells.for_session(ctx.session).get(task_id or "")
        if task is None:
            raise ToolError("The command could not be started in the background.")
        watch = _Watch(
            task_id=task.id,
            description=input.description,
            path=task.output_path,
            inbox=ctx.session.service(Inbox),
            agent_id=ctx.agent_id,
        )
        task.before_notice = watch.flush
        poller = asyncio.get_running_loop().create_task(
            watch.follow(lambda: task.ended or task.status != "running"),
            name=f"monitor:{task.id}",
        )
        ctx.session.service(_Pollers).add(poller)
        return ToolResult(
            output=MonitorStarted(
                task_id=task.id,
                description=input.description,
                output_path=str(task.output_path),
                timeout_ms=input.limit_ms,
            )
        )

    def to_content(self, output: MonitorStarted) -> str:
        return (
            f'Watching "{output.description}" as task {output.task_id} for up to '
            f"{output.timeout_ms / 1000:g} s. Its lines come to you as they are printed; you "
            "are told when it ends. Go on with other work meanwhile."
        )

    def describe_input(self, input: MonitorInput) -> str:
        return input.description


def _as_bash(input: MonitorInput) -> tuple[BashTool, BashInput]:
    data = BashInput(
        command=input.command or "",
        run_in_background=True,
        timeout=input.limit_ms,
        description=input.description,
    )
    return BashTool(), data


class _Pollers:
    """The session's running monitor pollers, kept so none is collected mid-run."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def add(self, task: asyncio.Task[None]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


@dataclass(kw_only=True, slots=True)
class _Watch:
    task_id: str
    description: str
    path: Path
    inbox: Inbox
    agent_id: str | None
    offset: int = 0
    partial: bytes = b""

    async def follow(self, ended: Any) -> None:
        """Deliver new lines until the task has ended (its end flushes the rest)."""
        while not ended():
            self.deliver(final=False)
            await anyio.sleep(POLL_SECONDS)

    def flush(self) -> None:
        """The last lines, including one without a newline."""
        self.deliver(final=True)

    def deliver(self, *, final: bool) -> None:
        try:
            with self.path.open("rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return
        self.offset += len(data)
        data = self.partial + data
        lines = data.split(b"\n")
        self.partial = b"" if final else lines.pop()
        text = [line.decode("utf-8", "replace") for line in lines if line]
        if text:
            self.inbox.deliver(self.agent_id, self._notice(text))

    def _notice(self, lines: list[str]) -> str:
        body: list[str] = []
        used = 0
        for line in lines:
            if used + len(line) + 1 > MAX_NOTICE_CHARS:
                break
            body.append(line)
            used += len(line) + 1
        left = len(lines) - len(body)
        summary = f'Monitor "{self.description}": {len(lines)} new line' + (
            "s" if len(lines) != 1 else ""
        )
        if left:
            summary += f" ({left} not shown here; they are in the output file)"
        return task_notice(
            task_id=self.task_id,
            status="running",
            summary=summary,
            result="\n".join(body),
            output_file=str(self.path),
        )
