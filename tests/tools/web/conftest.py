"""Fixtures for the web tools: a loopback web server and calls through the pipeline."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import AskHandler
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.core.tool import Tool
from hands.permissions.engine import PermissionEngine
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.tools.web._exchange import FetchLimits
from hands.tools.web.web_fetch import WebFetchTool
from models.loopback import LoopbackServer, serving
from support import project_rules_engine
from tools.web.web_server import WebServer, web_server

LOOPBACK = "WebFetch(domain:127.0.0.1)"
# read_seconds: long enough for a loaded machine to send a large body, short for /stall
FAST = FetchLimits(connect_seconds=5, read_seconds=3, total_seconds=20)


class Web:
    """A project, a session and the web tools run through the whole pipeline."""

    def __init__(self, project: Path, home: Path, server: WebServer) -> None:
        self.project = project
        self.home = home
        self.server = server
        self.session = Session(home=home)
        self.tools: list[Tool[Any, Any]] = [WebFetchTool(limits=FAST)]
        self.progress: list[object] = []
        self._n = 0

    def engine(
        self,
        *,
        allow: Sequence[str] = (LOOPBACK,),
        deny: Sequence[str] = (),
        ask: Sequence[str] = (),
    ) -> PermissionEngine:
        return project_rules_engine(self.project, self.home, allow=allow, deny=deny, ask=ask)

    def run(
        self,
        name: str,
        *,
        engine: PermissionEngine | None = None,
        ask: AskHandler | None = None,
        mode: PermissionMode = "default",
        **input: Any,
    ) -> ToolCallOutcome:
        self._n += 1
        runtime = ToolRuntime(tools=ToolPool(self.tools), policy=engine or self.engine(), ask=ask)
        ctx = ToolContext(
            cwd=self.project, project_dir=self.project, session=self.session, permission_mode=mode
        )
        block = ToolUseBlock(id=f"toolu_{self._n}", name=name, input=input)

        async def go() -> ToolCallOutcome:
            return await run_tool_use(block, ctx, runtime, self.progress.append)

        return anyio.run(go)

    def fetch(
        self, path_or_url: str, prompt: str = "what does it say?", **kw: Any
    ) -> ToolCallOutcome:
        url = path_or_url if "://" in path_or_url else self.server.url(path_or_url)
        return self.run("WebFetch", url=url, prompt=prompt, **kw)

    def ok(self, path_or_url: str, **kw: Any) -> str:
        out = self.fetch(path_or_url, **kw)
        assert out.status == "ok" and not out.is_error, out.block.text
        return out.block.text

    def err(self, path_or_url: str, **kw: Any) -> str:
        out = self.fetch(path_or_url, **kw)
        assert out.is_error, out.block.text
        return out.block.text


@pytest.fixture
def server() -> Iterator[WebServer]:
    with web_server() as srv:
        yield srv


@pytest.fixture
def web(
    tmp_path: Path, hands_home: Path, server: WebServer, monkeypatch: pytest.MonkeyPatch
) -> Web:
    for var in (
        "HANDS_SMALL_MODEL",
        "ANTHROPIC_SMALL_FAST_MODEL",
        "HANDS_WEBFETCH_CACHE_TTL_MS",
        "CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS",
    ):
        monkeypatch.delenv(var, raising=False)
    project = tmp_path / "proj"
    project.mkdir()
    return Web(project, hands_home, server)


@pytest.fixture
def messages_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoopbackServer]:
    """A loopback server speaking the Anthropic Messages API, reached without a proxy."""
    with serving(monkeypatch) as srv:
        yield srv
