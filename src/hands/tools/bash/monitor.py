"""Monitor: run a command in the background and hear each line it prints as it comes.

The command starts as a background task (as Bash with ``run_in_background``: the same
sandbox, environment and output file). New complete lines are delivered to the agent that
started it, a batch at a time, as ``<task-notification>`` blocks with status ``running``,
each before the agent's next model request, so the model reacts to events instead of
polling with sleep. The watch ends when the command exits (its last lines come first,
then the usual end notice) or when ``timeout_ms`` runs out (the command is stopped and
the end notice says so). The command is checked as a Bash command is, against the
``Bash(...)`` rules as well as ``Monitor(...)`` ones.

``ws`` watches a WebSocket instead: a small client (the ``websockets`` package) runs as
the background command, printing each text frame as a line (a binary frame as a
placeholder) and a last line when the socket closes, which ends the watch. Opening a
socket is asked for (an allow rule ``Monitor`` grants it), as a URL cannot be proven safe.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
from pydantic import BaseModel, Field

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, ask
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


_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


class MonitorWs(BaseModel):
    """The WebSocket to watch."""

    url: str = Field(description="A ws:// or wss:// URL (ASCII, no user name or password)")
    protocols: list[str] | None = Field(
        default=None, description="Subprotocols to offer (RFC 6455 tokens, each once)"
    )


def ws_problem(ws: MonitorWs) -> str | None:
    """Why ``ws`` cannot be opened, or None."""
    url = ws.url
    parsed = urlsplit(url)
    if (
        parsed.scheme not in ("ws", "wss")
        or not parsed.hostname
        or parsed.username is not None
        or parsed.password is not None
        or not url.isascii()
        or any(c.isspace() or not c.isprintable() for c in url)
    ):
        return (
            f"{url!r} is not a WebSocket URL to open: give an ASCII ws:// or wss:// URL with "
            "a host, no user name or password, no spaces or control characters."
        )
    protocols = ws.protocols or []
    bad = [p for p in protocols if not _TOKEN.fullmatch(p)]
    if bad:
        return f"Subprotocols are RFC 6455 tokens (no spaces or separators); not {bad[0]!r}."
    if len(set(protocols)) != len(protocols):
        return "Each subprotocol may be offered once."
    return None


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
    ws: MonitorWs | None = Field(
        default=None,
        description="A WebSocket to open instead of a command: each text frame is an event "
        "(a binary frame a placeholder line); the socket's close ends the watch",
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
            if input.command is not None:
                return "Give either command or ws, not both."
            return ws_problem(input.ws)
        if input.command is None or not input.command.strip():
            return "Give the command to watch (each line it prints is an event), or ws."
        return None

    async def check_permissions(self, input: MonitorInput, ctx: ToolContext) -> PermissionDecision:
        if input.ws is not None:
            return ask(f"Monitor wants to open the WebSocket {input.ws.url} and watch it.")
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
    command = input.command or ""
    if input.ws is not None:  # the client, run by this same Python
        words = [sys.executable, "-m", "hands.tools.bash._ws_lines", input.ws.url]
        command = shlex.join([*words, *(input.ws.protocols or [])])
    data = BashInput(
        command=command,
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
