"""hands' tools as a pydantic-ai toolset (``pip install 'hands[pydantic-ai]'``).

::

    from pydantic_ai import Agent
    from hands.adapters.pydantic_ai import HandsToolset

    agent = Agent("anthropic:claude-sonnet-4-5", toolsets=[HandsToolset(cwd=".")])

Every call runs through hands' pipeline (see :class:`hands.adapters.toolbox.Toolbox`).
A tool no call of which is concurrency-safe is marked ``sequential``, so pydantic-ai's
barrier keeps hands' ordering; the others pass through hands' own gate. A call the
permission engine asks about raises ``ApprovalRequired``: the run ends with
``DeferredToolRequests`` (add it to the agent's ``output_type``), and a new run with
``DeferredToolResults`` approving it runs the call.
"""

from __future__ import annotations

import base64
from typing import Any

import pydantic_core
from pydantic_ai import RunContext
from pydantic_ai.exceptions import ApprovalRequired, ToolFailed
from pydantic_ai.messages import BinaryContent
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset
from pydantic_ai.toolsets.abstract import ToolsetTool

from hands.adapters.toolbox import CallResult, Toolbox
from hands.core.messages import ImageBlock, ResultPart, TextBlock

# hands validates the input itself (an error the model can fix); pass the dict through.
_ANY_OBJECT = pydantic_core.SchemaValidator(
    pydantic_core.core_schema.dict_schema(
        pydantic_core.core_schema.str_schema(), pydantic_core.core_schema.any_schema()
    )
)


class HandsToolset(AbstractToolset[Any]):
    """A pydantic-ai toolset of hands tools. Keyword arguments go to :class:`Toolbox`."""

    def __init__(self, toolbox: Toolbox | None = None, *, id: str = "hands", **options: Any):
        self.toolbox = toolbox if toolbox is not None else Toolbox(**options)
        self._id = id

    @property
    def id(self) -> str:
        """The toolset's id among the agent's toolsets."""
        return self._id

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        """The tools offered now (asked again before every model request)."""
        return {
            d.name: ToolsetTool(
                toolset=self,
                tool_def=ToolDefinition(
                    name=d.name,
                    description=d.description,
                    parameters_json_schema=dict(d.input_schema),
                    sequential=d.sequential,
                ),
                max_retries=1,
                args_validator=_ANY_OBJECT,
            )
            for d in self.toolbox.tool_defs()
        }

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        """Run one call through hands' pipeline."""
        result = await self.toolbox.call(
            name,
            tool_args,
            call_id=ctx.tool_call_id,
            approval="approved" if ctx.tool_call_approved else None,
        )
        if result.pending is not None:
            raise ApprovalRequired(
                metadata={"message": result.pending.message, "tool": result.pending.tool_name}
            )
        if result.is_error:
            raise ToolFailed(result.text)
        return _content(result)

    async def aclose(self) -> None:
        """End hands' session (background shells, temporary files)."""
        await self.toolbox.aclose()


def _content(result: CallResult) -> str | list[Any]:
    if not result.images:
        return result.text
    return [_part(p) for p in result.parts]


def _part(part: ResultPart) -> Any:
    if isinstance(part, ImageBlock):
        return BinaryContent(data=base64.b64decode(part.data), media_type=part.media_type)
    if isinstance(part, TextBlock):
        return part.text
    return str(part)


__all__ = ["HandsToolset"]
