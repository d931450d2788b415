"""Fixtures for the search tools: a project tree in a temp dir and one-call helpers."""

from __future__ import annotations

import os
from collections.abc import Mapping
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
from hands.tools.search._deny import read_deny_seam
from hands.tools.search.glob import GlobTool
from hands.tools.search.grep import GrepTool

BASE_TIME = 1_700_000_000


class Search:
    """One session in ``root``: Glob and Grep calls through the whole pipeline."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.session = Session(home=home)
        self.ctx = ToolContext(cwd=root, session=self.session)
        self.runtime = ToolRuntime(tools=ToolPool([GrepTool(), GlobTool()]))
        self._n = 0

    def write(self, files: Mapping[str, str | bytes], *, age: bool = True) -> None:
        """Create files; with ``age``, the first is the oldest and the last the newest."""
        for i, (name, data) in enumerate(files.items()):
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, bytes):
                path.write_bytes(data)
            else:
                path.write_text(data, encoding="utf-8")
            if age:
                os.utime(path, (BASE_TIME + i * 10, BASE_TIME + i * 10))

    def touch(self, name: str, when: int) -> None:
        os.utime(self.root / name, (BASE_TIME + when, BASE_TIME + when))

    def deny(self, *patterns: str, root: Path | None = None) -> None:
        read_deny_seam(self.ctx).set_patterns(patterns, root=root)

    def run(self, name: str, ctx: ToolContext | None = None, **input: Any) -> ToolCallOutcome:
        self._n += 1
        block = ToolUseBlock(id=f"toolu_{self._n}", name=name, input=input)

        async def go() -> ToolCallOutcome:
            return await run_tool_use(block, ctx or self.ctx, self.runtime, lambda _: None)

        return anyio.run(go)

    def ok(self, name: str, **input: Any) -> str:
        """The result text of a call that must succeed."""
        outcome = self.run(name, **input)
        assert not outcome.is_error, outcome.block.text
        return outcome.block.text

    def err(self, name: str, **input: Any) -> str:
        """The result text of a call that must fail."""
        outcome = self.run(name, **input)
        assert outcome.is_error, outcome.block.text
        return outcome.block.text

    def abs(self, name: str) -> str:
        return str(self.root / name)

    def shown(self, name: str) -> str:
        """How a found file under the project (the cwd) is listed: relative to the cwd."""
        assert not Path(name).is_absolute()
        return name


@pytest.fixture
def search(tmp_path: Path, hands_home: Path) -> Search:
    root = tmp_path / "proj"
    root.mkdir()
    return Search(root, hands_home)
