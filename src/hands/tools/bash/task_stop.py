"""TaskStop: kill a background task's process group (legacy name KillShell)."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import AliasChoices, Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.tools.bash._shells import BackgroundShells


class TaskStopInput(ToolInput):
    """Input of TaskStop."""

    task_id: str = Field(
        validation_alias=AliasChoices("task_id", "shell_id"),
        description="Id of the task to end, as Bash or Agent returned it",
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskStopResult:
    """What was stopped."""

    message: str
    task_id: str
    task_type: str
    command: str


class TaskStopTool(Tool[TaskStopInput, TaskStopResult]):
    """Stop a background shell and everything it started."""

    name = "TaskStop"
    session_states = (BackgroundShells,)
    in_background_agents = True
    aliases = ("KillShell", "KillBash")
    description = (
        "Stop a background task started with Bash(run_in_background=true): the task and "
        "every process it started are killed. Takes the task id Bash returned."
    )
    input_model = TaskStopInput
    should_defer = True

    def is_concurrency_safe(self, input: TaskStopInput) -> bool:
        return True

    def user_facing_name(self, input: TaskStopInput | None = None) -> str:
        return "Stop Task"

    async def call(
        self, input: TaskStopInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[TaskStopResult]:
        from hands.tools.bash.task_output import find_agent, find_task

        found = find_agent(ctx, input.task_id)
        if found is not None:
            _, agent = found
            was = agent.status
            agent.stop()
            message = (
                f"Stopped the {agent.agent_type} agent {agent.id} ({agent.description[:100]})"
                if was == "running"
                else f"Agent {agent.id} had already ended ({was})"
            )
            return ToolResult(
                output=TaskStopResult(
                    message=message,
                    task_id=agent.id,
                    task_type="local_agent",
                    command=agent.description,
                )
            )
        shells, task = find_task(ctx, input.task_id)
        was = task.status
        await shells.stop(task)
        message = (
            f"Stopped task {task.id} ({task.command[:100]})"
            if was == "running"
            else f"Task {task.id} had already finished ({was}, exit code {task.exit_code})"
        )
        return ToolResult(
            output=TaskStopResult(
                message=message, task_id=task.id, task_type="local_bash", command=task.command
            )
        )

    def to_content(self, output: TaskStopResult) -> str:
        return output.message
