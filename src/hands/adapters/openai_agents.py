"""hands' tools as OpenAI Agents SDK function tools (``pip install 'hands[openai-agents]'``).

::

    from agents import Agent, Runner
    from hands.adapters.openai_agents import hands_tools

    agent = Agent(name="coder", tools=hands_tools(cwd="."))

Every call runs through hands' pipeline (see :class:`hands.adapters.toolbox.Toolbox`).
``needs_approval`` is hands' permission decision for that call, so a call the engine
asks about interrupts the run (``result.interruptions``); approving it in the run state
(``state.approve(item)``) and running again runs it, rejecting it sends the SDK's
rejection to the model. The SDK runs a message's calls at once; hands' own gate keeps
its ordering (concurrency-safe calls together, the others alone, in the message's
order: each call's place is reserved when the SDK asks whether it needs approval).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agents import FunctionTool, RunContextWrapper, ToolOutputImage, ToolOutputText
from agents.tool_context import ToolContext as AgentsToolContext

from hands.adapters.toolbox import CallResult, Toolbox, ToolDef
from hands.core.messages import ImageBlock, TextBlock


class HandsFunctionTools:
    """Makes and keeps the SDK tools of one :class:`Toolbox`."""

    def __init__(self, toolbox: Toolbox) -> None:
        self.toolbox = toolbox

    def tools(self) -> list[FunctionTool]:
        """One function tool per hands tool, deferred ones too.

        A deferred tool is enabled once ToolSearch has found it (the SDK asks before
        every model request).
        """
        return [self._tool(d) for d in self.toolbox.every_tool_def()]

    def _tool(self, definition: ToolDef) -> FunctionTool:
        name = definition.name

        async def invoke(ctx: AgentsToolContext[Any], arguments: str) -> Any:
            try:
                data = json.loads(arguments or "{}")
            except json.JSONDecodeError as exc:
                return _error(f"The arguments are not JSON ({exc}); send a JSON object.")
            if not isinstance(data, dict):
                return _error("The arguments must be a JSON object.")
            call_id = ctx.tool_call_id
            approved = ctx.is_tool_approved(name, call_id) is True
            result = await self.toolbox.call(
                name,
                data,  # pyright: ignore[reportUnknownArgumentType]
                call_id=call_id,
                approval="approved" if approved else None,
            )
            return _output(result)

        async def needs_approval(
            ctx: RunContextWrapper[Any], params: dict[str, Any], call_id: str
        ) -> bool:
            # The SDK starts a message's calls as tasks, in the message's order, and each
            # asks this first, before anything of it awaits: the place is taken in that
            # order, and kept however long the hooks below take.
            self.toolbox.reserve(call_id, name, params)
            _withdraw_when_done(self.toolbox, call_id)
            asks = await self.toolbox.would_ask(name, params, call_id=call_id)
            if asks:  # it waits for the user; it runs, if approved, in a later run
                self.toolbox.withdraw(call_id)
            return asks

        def enabled(ctx: RunContextWrapper[Any], agent: Any) -> bool:
            return self.toolbox.offers(name)

        return FunctionTool(
            name=name,
            is_enabled=enabled,
            description=definition.description,
            params_json_schema=dict(definition.input_schema),
            on_invoke_tool=invoke,
            strict_json_schema=False,
            needs_approval=needs_approval,
        )


def hands_tools(toolbox: Toolbox | None = None, **options: Any) -> list[FunctionTool]:
    """The SDK tools for hands' tools; keyword arguments go to :class:`Toolbox`."""
    return HandsFunctionTools(toolbox if toolbox is not None else Toolbox(**options)).tools()


def _withdraw_when_done(toolbox: Toolbox, call_id: str) -> None:
    """Give the call's place back if the task that reserved it ends without running it.

    (An input guardrail refused it, or the run was cancelled.)
    """
    task = asyncio.current_task()
    if task is not None:
        task.add_done_callback(lambda _: toolbox.withdraw(call_id))


def _error(text: str) -> str:
    from hands.core.outcome import tool_use_error

    return tool_use_error(text)


def _output(result: CallResult) -> Any:
    if result.is_error:
        return result.text  # a string is sent to the model as the call's (failed) result
    if not result.images:
        return ToolOutputText(text=result.text)
    parts: list[Any] = []
    for part in result.parts:
        if isinstance(part, ImageBlock):
            parts.append(ToolOutputImage(image_url=f"data:{part.media_type};base64,{part.data}"))
        elif isinstance(part, TextBlock):
            parts.append(ToolOutputText(text=part.text))
    return parts


__all__ = ["HandsFunctionTools", "hands_tools"]
