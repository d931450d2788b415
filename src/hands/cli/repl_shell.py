"""``!command`` at the REPL prompt: run it through the shell tool, keep its output for the model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hands.agent.events import BlockEvent
from hands.core.messages import TextBlock, ToolUseBlock
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent

if TYPE_CHECKING:
    from hands.cli.session_setup import AgentSetup
    from hands.cli.session_view import SessionView
    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler

MAX_KEPT_CHARS = 30_000
"""Of a command's output, at most this much goes with the next prompt."""


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
    from hands.pipeline.execution import run_tool_use
    from hands.pipeline.runtime import ToolRuntime

    pool = setup.source.current_pool()
    shell = next((t for t in pool if t.subject is not None and t.subject.shell), None)
    if shell is None or shell.subject is None:
        return TextBlock(text=f"The user tried to run `{command}`, but no shell tool is in use.")
    block = ToolUseBlock(
        id=f"user_shell_{number}", name=shell.name, input={shell.subject.field: command}
    )
    runtime = ToolRuntime(
        tools=pool,
        policy=setup.engine,
        ask=ask,
        hooks=setup.hooks,
        limits=setup.limits,
    )

    def progress(data: Any) -> None:
        view.show(ToolProgressEvent(tool_use=block, data=data))

    view.show(BlockEvent(block=block))
    outcome = await run_tool_use(block, ctx.with_changes(tool_use_id=block.id), runtime, progress)
    view.show(ToolResultEvent(tool_use=block, outcome=outcome))
    output = outcome.block.text
    if len(output) > MAX_KEPT_CHARS:
        output = output[:MAX_KEPT_CHARS] + "\n(output cut)"
    what = "failed" if outcome.is_error else "printed"
    return TextBlock(text=f"The user ran `{command}` in the shell; it {what}:\n{output}")
