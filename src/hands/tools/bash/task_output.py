"""TaskOutput: new output and status of a background shell or sub-agent (BashOutput)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import AliasChoices, Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.errors import ToolError
from hands.tools.bash._shells import BackgroundShells

if TYPE_CHECKING:
    from hands.core.background import BackgroundAgent, BackgroundAgents
    from hands.tools.bash._shells import BackgroundTask

DEFAULT_WAIT_MS = 30_000
MAX_WAIT_MS = 600_000


class TaskOutputInput(ToolInput):
    """Input of TaskOutput."""

    task_id: str = Field(
        validation_alias=AliasChoices("task_id", "bash_id"),
        description="Id of the task, as Bash or Agent returned it",
    )
    block: bool = Field(default=True, description="Wait for the task to finish first")
    timeout: int = Field(
        default=DEFAULT_WAIT_MS,
        ge=0,
        le=MAX_WAIT_MS,
        description="How long to wait when blocking, in milliseconds",
    )
    filter: str | None = Field(
        default=None,
        description="Optional regular expression: show only the new lines that match it",
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskOutputResult:
    """New output since the previous read, and the task's state."""

    task_id: str
    status: str
    output: str
    exit_code: int | None
    command: str
    output_path: str


def find_task(ctx: ToolContext, task_id: str) -> tuple[BackgroundShells, BackgroundTask]:
    """The session's background shells and the task ``task_id``.

    Raises ToolError, listing the running tasks, when the id names none.
    """
    shells = BackgroundShells.for_session(ctx.session)
    task = shells.get(task_id)
    if task is not None:
        return shells, task
    raise _unknown(ctx, task_id)


def find_agent(ctx: ToolContext, task_id: str) -> tuple[BackgroundAgents, BackgroundAgent] | None:
    """The session's background sub-agents and the agent ``task_id``, if it is one."""
    from hands.core.background import BackgroundAgents

    agents = BackgroundAgents.for_session(ctx.session)
    agent = agents.get(task_id)
    return None if agent is None else (agents, agent)


def _unknown(ctx: ToolContext, task_id: str) -> ToolError:
    """The error for an id that names no task: it lists the running ones."""
    from hands.core.background import BackgroundAgents

    registry = BackgroundShells.for_session(ctx.session)
    earlier = registry.earlier.get(task_id)
    if earlier is not None:
        return ToolError(
            f"Background task {task_id!r} ({earlier.command[:100]}) belonged to the session "
            "this one resumes; background shells end with their session, so it is not "
            f"running now (it was {earlier.status}). Its output is in {earlier.output_path} "
            "(Read it); start the command again if it is still needed."
        )
    shells = registry.running()
    agents = BackgroundAgents.for_session(ctx.session).running()
    lines = [f"- {t.id}: {t.command[:100]}" for t in shells]
    lines += [f"- {a.id}: {a.agent_type} agent, {a.description[:100]}" for a in agents]
    if lines:
        listing = "\n".join(lines)
        return ToolError(f"No background task with id {task_id!r}. Running tasks:\n{listing}")
    return ToolError(f"No background task with id {task_id!r}. No background tasks are running.")


def _only_matching(text: str, pattern: str | None) -> str:
    """The lines of ``text`` that ``pattern`` finds something in, and how many were left out.

    Left-out lines are read all the same: the next call starts after them.
    """
    if pattern is None or not text:
        return text
    found = re.compile(pattern)
    lines = text.splitlines()
    kept = [line for line in lines if found.search(line)]
    dropped = len(lines) - len(kept)
    if dropped:
        kept.append(f"[{dropped} of {len(lines)} new lines did not match the filter]")
    return "\n".join(kept)


class TaskOutputTool(ReadOnlyTool[TaskOutputInput, TaskOutputResult]):
    """Read what a background shell printed since the last read."""

    name = "TaskOutput"
    session_states = (BackgroundShells,)
    aliases = ("BashOutput", "AgentOutputTool")
    description = (
        "Get the new output and the status of a background task started with "
        "Bash(run_in_background=true), or of a background agent (its progress, then its "
        "result). Returns only output printed since the previous "
        "read. With block=true (the default) it first waits for the task to finish, up "
        "to `timeout` milliseconds. The full output is also in the task's output file, "
        "which the Read tool can open."
    )
    input_model = TaskOutputInput
    should_defer = True
    max_result_chars = 30_000
    subagent_use = "never"

    async def validate_input(self, input: TaskOutputInput, ctx: ToolContext) -> str | None:
        if input.filter is not None:
            try:
                re.compile(input.filter)
            except re.error as exc:
                return (
                    f"filter {input.filter!r} is not a valid regular expression ({exc}). "
                    "Send a valid Python regular expression, or leave filter out."
                )
        return None

    async def call(
        self, input: TaskOutputInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[TaskOutputResult]:
        found = find_agent(ctx, input.task_id)
        if found is not None:
            agents, agent = found
            if input.block:
                await agents.wait(agent, input.timeout / 1000)
            return ToolResult(
                output=TaskOutputResult(
                    task_id=agent.id,
                    status=agent.status,
                    output=_only_matching(agent.read_new(), input.filter),
                    exit_code=None,
                    command=f"{agent.agent_type} agent: {agent.description}",
                    output_path=str(agent.output_path),
                )
            )
        shells, task = find_task(ctx, input.task_id)
        if input.block:
            await shells.wait(task, input.timeout / 1000)
        return ToolResult(
            output=TaskOutputResult(
                task_id=task.id,
                status=task.status,
                output=_only_matching(task.read_new(), input.filter),
                exit_code=task.exit_code,
                command=task.command,
                output_path=str(task.output_path),
            )
        )

    def to_content(self, output: TaskOutputResult) -> str:
        lines = [f"<task_id>{output.task_id}</task_id>", f"<status>{output.status}</status>"]
        if output.exit_code is not None:
            lines.append(f"<exit_code>{output.exit_code}</exit_code>")
        body = output.output.rstrip("\n")
        lines.append(f"<output>\n{body}\n</output>" if body else "<output>(no new output)</output>")
        return "\n".join(lines)
