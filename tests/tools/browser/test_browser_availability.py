"""Without Playwright or Chromium the browser tools stay out of the pool, and say why."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import pool_for
from hands.pipeline.runtime import ToolRuntime
from hands.tools.browser._settings import missing, offered, pool_note


def _no_chromium(tmp_path: Path) -> dict[str, str]:
    return {"PATH": str(tmp_path)}  # a PATH with no browser on it


def test_without_chromium_the_tools_are_left_out_unless_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _no_chromium(tmp_path)
    assert not offered(env)
    assert offered({**env, "HANDS_BROWSER": "1"})
    assert not offered({"PATH": "/usr/bin", "HANDS_BROWSER": "0"})
    problem = missing(env)
    assert problem is not None and "apt install chromium" in problem
    assert "pip install 'hands[browser]'" in problem
    note = pool_note(("Read",), env)
    assert note is not None and "HANDS_BROWSER=1" in note
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("HANDS_BROWSER_EXECUTABLE", raising=False)
    assert not [n for n in pool_for().names if n.startswith("Browser_")]
    monkeypatch.setenv("HANDS_BROWSER", "1")
    assert "Browser_navigate" in pool_for().names


def test_a_call_asked_for_without_chromium_explains_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDS_BROWSER", "1")
    monkeypatch.setenv("HANDS_BROWSER_EXECUTABLE", str(tmp_path / "no-such-chromium"))
    pool = pool_for()
    runtime = ToolRuntime(tools=pool)
    ctx = ToolContext(cwd=tmp_path, session=Session(), permission_mode="bypassPermissions")
    block = ToolUseBlock(id="t1", name="browser_snapshot", input={})

    async def go() -> str:
        try:
            out = await run_tool_use(block, ctx, runtime, lambda _p: None)
            assert out.is_error
            return out.block.text
        finally:
            await ctx.session.aclose()

    text = anyio.run(go)
    assert "did not start" in text and "apt install chromium" in text


def test_hands_tools_says_why_the_browser_tools_are_missing(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "tools", "--json"],
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path), "HOME": str(tmp_path), "HANDS_HOME": str(tmp_path)},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Browser_navigate" not in proc.stdout
    assert "The browser tools cannot run" in proc.stderr and "apt install chromium" in proc.stderr
