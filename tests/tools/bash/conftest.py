from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.tools.bash._settings import BashSettings
from hands.tools.bash.bash import BashTool
from hands.tools.bash.task_output import TaskOutputTool
from hands.tools.bash.task_stop import TaskStopTool


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Harness:
    """Runs tool calls through the whole pipeline, carrying the cwd like the loop does."""

    def __init__(self, root: Path, settings: BashSettings | None = None) -> None:
        self.session = Session()
        self.ctx = ToolContext(cwd=root, session=self.session, permission_mode="bypassPermissions")
        self.runtime = ToolRuntime(
            tools=ToolPool([BashTool(settings), TaskOutputTool(), TaskStopTool()])
        )
        self.progress: list[Any] = []
        self._n = 0

    async def call(self, name: str, **input: Any) -> ToolCallOutcome:
        self._n += 1
        outcome = await run_tool_use(
            ToolUseBlock(id=f"toolu_{self._n}", name=name, input=input),
            self.ctx,
            self.runtime,
            progress=self.progress.append,
        )
        if outcome.context_modifier is not None:
            self.ctx = outcome.context_modifier(self.ctx)
        return outcome

    async def bash(self, command: str, **extra: Any) -> ToolCallOutcome:
        return await self.call("Bash", command=command, **extra)


@pytest.fixture
def harness(tmp_path: Path) -> Callable[..., Harness]:
    def make(settings: BashSettings | None = None, root: Path | None = None) -> Harness:
        return Harness(root or tmp_path, settings)

    return make
