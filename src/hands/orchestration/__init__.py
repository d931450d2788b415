"""Scheduling tool calls: greedy batches and the streaming executor."""

from hands.orchestration.batch import run_tools
from hands.orchestration.events import ExecutorEvent, ToolProgressEvent, ToolResultEvent
from hands.orchestration.partition import Batch, partition
from hands.orchestration.streaming import StreamingToolExecutor, ToolState

__all__ = [
    "Batch",
    "ExecutorEvent",
    "StreamingToolExecutor",
    "ToolProgressEvent",
    "ToolResultEvent",
    "ToolState",
    "partition",
    "run_tools",
]
