"""``!command`` at the REPL prompt: run it through the shell tool, keep its output for the model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hands.agent.events import BlockEvent
from hands.core.messages import TextBlock, ToolUseBlock
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import BaseModel

    from hands.agent.events import QueryEvent
    from hands.cli.session_setup import AgentSetup
    from hands.cli.session_view import SessionView
    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler, PermissionDecision
    from hands.core.outcome import ToolCallOutcome
    from hands.core.tool import Tool

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
    typed: bool = False,
) -> ToolCallOutcome | None:
    """Run ``command`` through the session's shell tool, permission checked; None: no shell.

    ``show`` gets the call, its progress and its result, as the model's calls are shown.
    ``typed``: the user typed the command themselves (``!command``), so nobody is asked.
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
        policy=_TypedByTheUser() if typed else setup.engine,
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
    """Run the ``command`` the user typed, without a question (it is their own); what to send.

    It is shown as the model's calls are.
    """
    outcome = await shell_call(
        command,
        setup=setup,
        ctx=ctx,
        ask=ask,
        call_id=f"user_shell_{number}",
        show=view.show,
        typed=True,
    )
    if outcome is None:
        return TextBlock(text=f"The user tried to run `{command}`, but no shell tool is in use.")
    output = outcome.block.text
    if len(output) > MAX_KEPT_CHARS:
        output = output[:MAX_KEPT_CHARS] + "\n(output cut)"
    what = "failed" if outcome.is_error else "printed"
    return TextBlock(text=f"The user ran `{command}` in the shell; it {what}:\n{output}")


class _TypedByTheUser:
    """The policy of a command the user typed at the prompt: it runs, as they asked."""

    async def decide(
        self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionDecision:
        from hands.core.decision import allow

        return allow("typed by the user at the prompt")

    def denies_tool(self, tool: Tool[Any, Any] | str) -> bool:
        return False
