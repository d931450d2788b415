"""``!command`` at the REPL prompt: run it through the shell tool, keep its output for the model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hands.agent.events import BlockEvent
from hands.core.messages import TextBlock, ToolUseBlock
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent

if TYPE_CHECKING:
    from collections.abc import Callable

    from hands.agent.events import QueryEvent
    from hands.cli.session_setup import AgentSetup
    from hands.cli.session_view import SessionView
    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler
    from hands.core.outcome import ToolCallOutcome

MAX_KEPT_CHARS = 30_000
"""Of a command's output, at most this much goes with the next prompt."""


async def shell_call(
    command: str,
    *,
    setup: AgentSetup,
    ctx: ToolContext,
    ask: AskHandler | None,
    call_id: str,
    show: Callable[[QueryEvent], None] | None = None,
) -> ToolCallOutcome | None:
    """Run ``command`` through the session's shell tool, permission checked; None: no shell.

    ``show`` gets the call, its progress and its result, as the model's calls are shown.
    """
    from hands.pipeline.execution import run_tool_use
    from hands.pipeline.runtime import ToolRuntime

    pool = setup.source.current_pool()
    shell = next((t for t in pool if t.subject is not None and t.subject.shell), None)
    if shell is None or shell.subject is None:
        return None
    block = ToolUseBlock(id=call_id, name=shell.name, input={shell.subject.field: command})
    runtime = ToolRuntime(
        tools=pool,
        policy=setup.engine,
        ask=ask,
        hooks=setup.hooks,
        limits=setup.limits,
    )

    def shown(event: QueryEvent) -> None:
        if show is not None:
            show(event)

    def progress(data: Any) -> None:
        shown(ToolProgressEvent(tool_use=block, data=data))

    shown(BlockEvent(block=block))
    outcome = await run_tool_use(block, ctx.with_changes(tool_use_id=block.id), runtime, progress)
    shown(ToolResultEvent(tool_use=block, outcome=outcome))
    return outcome


async def run_shell(
    command: str,
    *,
    setup: AgentSetup,
    view: SessionView,
    ctx: ToolContext,
    ask: AskHandler,
    number: int,
) -> TextBlock:
    """Run ``command`` (permission checked, shown as the model's calls are); what to send."""
    outcome = await shell_call(
        command, setup=setup, ctx=ctx, ask=ask, call_id=f"user_shell_{number}", show=view.show
    )
    if outcome is None:
        return TextBlock(text=f"The user tried to run `{command}`, but no shell tool is in use.")
    output = outcome.block.text
    if len(output) > MAX_KEPT_CHARS:
        output = output[:MAX_KEPT_CHARS] + "\n(output cut)"
    what = "failed" if outcome.is_error else "printed"
    return TextBlock(text=f"The user ran `{command}` in the shell; it {what}:\n{output}")
