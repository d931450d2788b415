"""``run_tools``: the non-streaming path, batch after batch once the message is complete."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import anyio

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.orchestration.events import ExecutorEvent
from hands.orchestration.partition import partition
from hands.orchestration.streaming import StreamingToolExecutor
from hands.pipeline.runtime import ToolRuntime


async def run_tools(
    calls: Sequence[ToolUseBlock],
    *,
    runtime: ToolRuntime,
    context: ToolContext,
    cascade_errors: bool | None = None,
) -> AsyncIterator[ExecutorEvent]:
    """Run the calls of one complete assistant message, batch by batch.

    Batches come from :func:`partition`; a concurrent batch runs in parallel (capped),
    a lone call runs by itself; results come out in request order and progress at once.
    Each batch is fed to a :class:`StreamingToolExecutor` whole, which gives exactly the
    batch semantics with the same guarantees (one result per call, cancel scopes).
    """
    for batch in partition(calls, runtime.tools):
        executor: StreamingToolExecutor | None = None
        async with anyio.create_task_group() as tg:
            executor = StreamingToolExecutor(
                runtime=runtime, context=context, task_group=tg, cascade_errors=cascade_errors
            )
            for block, classified in zip(batch.calls, batch.classified, strict=True):
                executor.add(block, classified=classified)
            executor.close()
            async for event in executor.events():
                yield event
        assert executor is not None
        context = executor.context
