"""Fixtures for the file tools: a context rooted in a temp dir and one-call helpers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.tools.file.edit import EditTool
from hands.tools.file.multi_edit import MultiEditTool
from hands.tools.file.notebook_edit import NotebookEditTool
from hands.tools.file.read import ReadTool
from hands.tools.file.write import WriteTool


class Harness:
    """One session in ``root``: run file tools through the real pipeline."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.ctx = ToolContext(cwd=root, session=Session(home=home), permission_mode="acceptEdits")
        self.runtime = ToolRuntime(
            tools=ToolPool(
                [ReadTool(), WriteTool(), EditTool(), MultiEditTool(), NotebookEditTool()]
            )
        )
        self._n = 0

    def run(self, name: str, **input: Any) -> ToolCallOutcome:
        """Run one tool_use block through ``run_tool_use``."""
        self._n += 1
        block = ToolUseBlock(id=f"toolu_{self._n}", name=name, input=input)

        async def go() -> ToolCallOutcome:
            return await run_tool_use(block, self.ctx, self.runtime, lambda _: None)

        return anyio.run(go)

    def ok(self, name: str, **input: Any) -> ToolCallOutcome:
        """Run and insist on success."""
        outcome = self.run(name, **input)
        assert not outcome.is_error, outcome.block.text
        return outcome

    def err(self, name: str, **input: Any) -> str:
        """Run, insist on an is_error result, and return its text."""
        outcome = self.run(name, **input)
        assert outcome.is_error, outcome.block.text
        return outcome.block.text

    def read(self, path: Path, **extra: Any) -> str:
        """Read ``path`` and return the text the model sees."""
        return self.ok("Read", file_path=str(path), **extra).block.text


@pytest.fixture
def h(tmp_path: Path, hands_home: Path) -> Harness:
    root = tmp_path / "work"
    root.mkdir()
    return Harness(root, hands_home)

