"""Start a sub-agent for an Agent call: in the foreground, in the background, in a worktree."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hands.agent.subagents.progress import SubagentUpdate
from hands.agent.subagents.runner import Finished, Prepared, Spawn, SpawnRefused, prepare, run
from hands.agent.subagents.tool import AgentInput, AgentOutput, AgentTool
from hands.core.background import AgentStatus, BackgroundAgent, BackgroundAgents
from hands.core.inbox import Inbox, task_notice
from hands.core.messages import user_text
from hands.core.task_feed import TaskChange, TaskFeed, TaskState
from hands.core.tool import ToolResult
from hands.errors import ToolError
from hands.permissions import plan_mode
from hands.tools.worktree.trees import Worktree, create_worktree, finish_worktree

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.tool import Progress


async def launch(
    tool: AgentTool, input: AgentInput, ctx: ToolContext, progress: Progress
) -> ToolResult[AgentOutput]:
    """Run the call's sub-agent (or start it in the background) and say what came of it."""
    agent = tool.definition(input)
    tree: Worktree | None = None
    if (input.isolation or agent.isolation) == "worktree":
        refused = plan_mode.worktree_refusal(ctx.permission_mode)
        if refused is not None:
            raise ToolError(refused)
        tree = await create_worktree(
            ctx.root, home=ctx.session.home, label=agent.name, trusted=tool.trusted, ctx=ctx
        )
    spawn = Spawn(
        agent=agent,
        prompt=input.prompt,
        description=input.description,
        model=input.model,
        cwd=tree.path if tree is not None else None,
        model_overrides=tool.model_overrides,
        servers=tool.servers,
        background=in_background(input, agent.background),
        effort=input.effort,
    )
    try:
        prepared = prepare(spawn, ctx, spawner=type(tool))
    except SpawnRefused as exc:
        if tree is not None:
            await finish_worktree(tree, ctx=ctx)
        raise ToolError(str(exc)) from None
    if spawn.background:
        return _start_background(prepared, tree)
    feed = ctx.session.service(TaskFeed)
    change = _started(prepared.agent_id, spawn.description, ctx, foreground=True)
    feed.publish(change)
    report = _progress_reporter(feed, prepared.agent_id, spawn.description)
    finished: Finished | None = None

    def reported(update: Any) -> None:
        report(update)
        progress(update)

    try:
        finished = await run(prepared, reported)
    finally:
        kept = await finish_worktree(tree, ctx=ctx) if tree is not None else False
        ended: TaskState = "killed"  # what run() raised (a cancel, an interrupt) ended it
        if finished is not None:
            ended = "completed" if finished.status == "completed" else "failed"
        feed.publish(
            dataclasses.replace(
                change,
                state=ended,
                tool_uses=finished.tool_uses if finished is not None else 0,
                total_tokens=_tokens(finished),
                output_file=str(prepared.transcript.path),
            )
        )
    assert finished is not None  # run() returned (else what it raised goes on)
    return _result(finished, tree if kept else None)


def _started(task_id: str, description: str, ctx: ToolContext, *, foreground: bool) -> TaskChange:
    """The task feed's report that the call ``ctx`` started the sub-agent ``task_id``."""
    return TaskChange(
        task_id=task_id,
        state="running",
        description=description,
        owner=ctx.agent_id,
        kind="local_agent",
        tool_use_id=ctx.tool_use_id,
        foreground=foreground,
    )


def _progress_reporter(feed: TaskFeed, task_id: str, description: str) -> Callable[[Any], None]:
    """What a sub-agent's updates tell the task feed: a progress report per tool-calling step."""

    def report(update: Any) -> None:
        if (
            isinstance(update, SubagentUpdate)
            and update.message is not None
            and update.message.role == "assistant"
            and update.message.tool_uses
        ):
            feed.publish(
                TaskChange(
                    task_id=task_id,
                    description=description,
                    tool_uses=update.tool_uses,
                    total_tokens=update.tokens,
                    last_tool=update.message.tool_uses[-1].name,
                )
            )

    return report


def in_background(input: AgentInput, agent_default: bool) -> bool:
    """Whether the call's agent runs in the background: unless the call says false.

    Background is the default, as in Claude Code: the caller goes on with other work and
    the agent's result comes as a notice; an agent type that runs in the background
    always does.
    """
    return agent_default or input.run_in_background is not False


def _result(finished: Finished, tree: Worktree | None) -> ToolResult[AgentOutput]:
    text = finished.text.strip() or "(the agent ended without a final message)"
    if finished.status != "completed":
        why = {
            "max_turns": "it reached its limit of turns",
            "interrupted": "it was interrupted",
        }.get(finished.status, finished.error or "it failed")
        text = (
            f"The {finished.agent_type} agent did not finish: {why}.\n\nIts last message:\n{text}"
        )
    output = AgentOutput(
        status="completed",
        agent_id=finished.agent_id,
        agent_type=finished.agent_type,
        content=text,
        total_tool_use_count=finished.tool_uses,
        total_duration_ms=finished.duration_ms,
        usage=finished.usage,
        resolved_model=finished.model,
        worktree_path=str(tree.path) if tree is not None else "",
        worktree_branch=tree.branch if tree is not None else "",
    )
    return ToolResult(output=output, is_error=finished.status != "completed")


def _start_background(prepared: Prepared, tree: Worktree | None) -> ToolResult[AgentOutput]:
    ctx = prepared.parent
    session = ctx.session
    registry = BackgroundAgents.for_session(session)
    if not registry.stops_with_session:
        session.add_cleanup(registry.stop_all)
        registry.stops_with_session = True
    out = session.directory / "tasks" / f"{prepared.agent_id}.output"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.touch()
    record = BackgroundAgent(
        id=prepared.agent_id,
        agent_type=prepared.spawn.agent.name,
        description=prepared.spawn.description,
        output_path=out,
        parent_id=ctx.agent_id,
    )
    registry.add(record)
    session.service(Inbox).started(ctx.agent_id)
    session.service(TaskFeed).publish(
        _started(record.id, record.description, ctx, foreground=False)
    )
    task = asyncio.get_running_loop().create_task(
        _run_background(prepared, record, tree), name=f"agent:{record.id}"
    )
    record.stop = task.cancel
    return ToolResult(
        output=AgentOutput(
            status="async_launched",
            agent_id=record.id,
            agent_type=record.agent_type,
            output_file=str(out),
            resolved_model=prepared.options.model.name,
        )
    )


async def _run_background(
    prepared: Prepared, record: BackgroundAgent, tree: Worktree | None
) -> None:
    feed = prepared.parent.session.service(TaskFeed)
    report = _progress_reporter(feed, record.id, record.description)

    def log(update: Any) -> None:
        if isinstance(update, SubagentUpdate) and update.message is None:
            record.log(update.line())
        report(update)

    status: AgentStatus = "failed"
    text = ""
    finished: Finished | None = None
    try:
        finished = await run(prepared, log)
        result = _result(finished, tree)
        status = "completed" if finished.status == "completed" else "failed"
        text = result.output.content
        if tree is not None:
            kept = await finish_worktree(tree, ctx=prepared.parent)
            if kept:
                branch = f" (branch {tree.branch})" if tree.branch else ""
                text += f"\n\nworktree: {tree.path}{branch}"
    except asyncio.CancelledError:
        status, text = "stopped", "The agent was stopped before it finished."
        raise
    except Exception as exc:  # a bug must not pass unnoticed: it becomes the result
        status, text = "failed", f"The agent failed: {type(exc).__name__}: {exc}"
    finally:
        record.finish(status, text)
        record.resume = _resumer(prepared, record, finished, tree)
        ended: TaskState = "killed" if status == "stopped" else status
        feed.publish(
            TaskChange(
                task_id=record.id,
                state=ended,
                description=record.description,
                owner=record.parent_id,
                tool_uses=finished.tool_uses if finished is not None else 0,
                total_tokens=_tokens(finished),
            )
        )
        notice = task_notice(
            task_id=record.id,
            status=status,
            summary=f'The background {record.agent_type} agent "{record.description}" {status}.',
            result=text,
            output_file=str(record.output_path),
            tool_use_id=prepared.parent.tool_use_id or "",
        )
        prepared.parent.session.service(Inbox).finished(record.parent_id, notice)


def _tokens(finished: Finished | None) -> int:
    """The input and output tokens of an agent's requests, as its progress counts them."""
    if finished is None:
        return 0
    usage = finished.usage
    return usage.input_tokens + usage.output_tokens


def _resumer(
    prepared: Prepared, record: BackgroundAgent, finished: Finished | None, tree: Worktree | None
) -> Callable[[str], object] | None:
    """How the ended agent goes on from its conversation with a new message, if it can.

    An agent whose worktree was removed, or whose conversation was lost (it was stopped
    before its first reply), cannot.
    """
    if finished is None or not finished.messages or (tree is not None and not tree.path.is_dir()):
        return None
    history = finished.messages

    def resume(text: str) -> object:
        again = dataclasses.replace(prepared, prompt=user_text(text), history=history)
        record.restart()
        session = prepared.parent.session
        session.service(Inbox).started(record.parent_id)
        task = asyncio.get_running_loop().create_task(
            _run_background(
                again, record, tree if tree is not None and tree.path.is_dir() else None
            ),
            name=f"agent:{record.id}",
        )
        record.stop = task.cancel
        return task

    return resume
