"""``ReadOnlyTool``: a tool whose calls change nothing, so they may run side by side."""

from __future__ import annotations

from hands.tool import InputT, OutputT, Tool


class ReadOnlyTool(Tool[InputT, OutputT]):
    """A tool every call of which is read-only and concurrency-safe."""

    def is_read_only(self, input: InputT) -> bool:
        return True

    def is_concurrency_safe(self, input: InputT) -> bool:
        return True
