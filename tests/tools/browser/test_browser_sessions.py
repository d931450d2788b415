"""Whole sessions: ``hands -p`` with a scripted model, and no browser left behind.

The browser's processes are found by a mark in their environment, which they inherit
from the hands process that started them; after the session ends, is interrupted or is
killed, none may be left.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.permissions.engine import PermissionEngine
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool, find_builtin
from hands.pipeline.runtime import ToolRuntime
from support import tool_results
from tools.browser.conftest import needs_browser
from tools.browser.pages import PageServer, page_server
from tools.browser.processes import marked

LOGIN_FLOW = [
    {"blocks": [{"type": "tool_use", "name": "Browser_navigate", "input": {"url": "$URL"}}]},
    {
        "blocks": [
            {"type": "tool_use", "name": "browser_type", "input": {"ref": "e1", "text": "alice"}}
        ]
    },
    {
        "blocks": [
            {"type": "tool_use", "name": "Browser_type", "input": {"ref": "e2", "text": "s3cret"}}
        ]
    },
    {"blocks": [{"type": "tool_use", "name": "Browser_click", "input": {"ref": "e3"}}]},
    {"blocks": [{"type": "text", "text": "Signed in."}]},
]


@pytest.fixture(scope="module")
def pages() -> Any:
    needs_browser()
    with page_server() as server:
        yield server


def _script(path: Path, turns: list[dict[str, Any]], url: str) -> str:
    path.write_text(json.dumps({"turns": turns}).replace("$URL", url))
    return f"scripted:{path}"


def _hands(mark: str, *args: str, cwd: Path) -> subprocess.Popen[str]:
    name, value = mark.split("=", 1)
    return subprocess.Popen(
        [sys.executable, "-m", "hands", *args],
        cwd=cwd,
        env={**os.environ, name: value},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _mark() -> str:
    return f"HANDS_BROWSER_TEST_MARK={secrets.token_hex(6)}"


def _wait_for(check: Any, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


def _chromium(mark: str) -> list[int]:
    return [p for p in marked(mark) if "chrom" in _comm(p)]


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text()
    except OSError:
        return ""


def test_print_mode_completes_the_login_flow_with_a_scripted_model(
    tmp_path: Path, pages: PageServer
) -> None:
    mark = _mark()
    model = _script(tmp_path / "s.json", LOGIN_FLOW, pages.url("/login"))
    proc = _hands(
        mark,
        "-p", "sign in as alice", "--model", model, "--output-format", "stream-json",
        "--verbose", "--allowedTools", "WebFetch(domain:127.0.0.1),Browser_type,Browser_click",
        cwd=tmp_path,
    )  # fmt: skip
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, err
    results = tool_results(out)
    assert [r["is_error"] for r in results] == [False, False, False, False], results
    assert 'textbox "User name" [ref=e1]' in str(results[0]["content"])
    assert 'heading "Signed in as alice"' in str(results[3]["content"])
    assert json.loads(out.splitlines()[-1])["result"] == "Signed in."
    assert _wait_for(lambda: not marked(mark), 5), "processes left behind"


@pytest.mark.parametrize("how", ["interrupt", "kill"])
def test_an_interrupted_or_killed_session_leaves_no_browser(
    tmp_path: Path, pages: PageServer, how: str
) -> None:
    mark = _mark()
    page = f"/nav-a?{how}"
    turns = [
        {"blocks": [{"type": "tool_use", "name": "Browser_navigate", "input": {"url": "$URL"}}]},
        {"blocks": [{"type": "tool_use", "name": "Browser_wait_for", "input": {"time": 30}}]},
        {"blocks": [{"type": "text", "text": "done"}]},
    ]
    model = _script(tmp_path / "s.json", turns, pages.url(page))
    proc = _hands(
        mark, "-p", "browse", "--model", model, "--permission-mode", "bypassPermissions",
        "--allowedTools", "WebFetch(domain:127.0.0.1)", cwd=tmp_path,
    )  # fmt: skip
    try:
        assert _wait_for(lambda: page in pages.full_hits and _chromium(mark), 30)
        time.sleep(0.5)
        if how == "interrupt":  # Ctrl-C: the session's cleanup closes the browser
            proc.send_signal(signal.SIGINT)
        else:  # SIGKILL: no cleanup runs; Playwright's driver sees its pipe close
            proc.kill()
        proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert _wait_for(lambda: not marked(mark), 10), [_comm(p) for p in marked(mark)]


def test_a_session_that_ends_closes_its_browser(
    tmp_path: Path, pages: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = _mark()
    monkeypatch.setenv(*mark.split("=", 1))
    entry = find_builtin("browser_navigate")
    assert entry is not None
    engine_rules: list[Any] = []
    session = Session()
    ctx = ToolContext(cwd=tmp_path, session=session, permission_mode="bypassPermissions")
    from hands.permissions.rules import RuleOrigin, parse_rules

    origin = RuleOrigin(scope="cliArg", label="--allowedTools", root=tmp_path, path=None)
    parsed, _ = parse_rules(["WebFetch(domain:127.0.0.1)"], "allow", origin)
    engine_rules.extend(parsed)
    runtime = ToolRuntime(tools=ToolPool([entry.load()]), policy=PermissionEngine(engine_rules))
    block = ToolUseBlock(id="toolu_1", name="Browser_navigate", input={"url": pages.url("/nav-a")})

    async def go() -> str:
        try:
            out = await run_tool_use(block, ctx, runtime, lambda _p: None)
            assert _chromium(mark), "the browser did not start"
            return out.block.text
        finally:
            await session.aclose()

    text = anyio.run(go)
    assert 'heading "Page A"' in text
    assert _wait_for(lambda: not marked(mark), 10), [_comm(p) for p in marked(mark)]
